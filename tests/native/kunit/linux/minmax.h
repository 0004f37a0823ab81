/* SPDX-License-Identifier: GPL-2.0 */
/* Native stand-in for <linux/minmax.h> (kmod/lib/tests). */
#ifndef BFLY_NATIVE_MINMAX_H
#define BFLY_NATIVE_MINMAX_H

#define min(a, b) ({ typeof(a) __x = (a); typeof(b) __y = (b); __x < __y ? __x : __y; })
#define min3(a, b, c) min(min(a, b), c)
#define max(a, b) ({ typeof(a) __x = (a); typeof(b) __y = (b); __x > __y ? __x : __y; })
#define max3(a, b, c) max(max(a, b), c)
#define swap(a, b) do {							\
	__auto_type __pa = &(a);					\
	__auto_type __pb = &(b);					\
	typeof(*__pa) __t = *__pa;					\
	*__pa = *__pb;							\
	*__pb = __t;							\
} while (0)

#endif /* BFLY_NATIVE_MINMAX_H */
