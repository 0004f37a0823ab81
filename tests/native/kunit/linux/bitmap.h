/* SPDX-License-Identifier: GPL-2.0 */
/* Native stand-in for <linux/bitmap.h> (kmod/lib/tests), over compat.h. */
#ifndef BFLY_NATIVE_BITMAP_H
#define BFLY_NATIVE_BITMAP_H

#include "compat.h"
#include <linux/minmax.h>

static inline void __assign_bit(unsigned long nr, unsigned long *addr, bool value)
{
	if (value)
		__set_bit(nr, addr);
	else
		__clear_bit(nr, addr);
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned long nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned long nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline unsigned long bitmap_weight(const unsigned long *src, unsigned long nbits)
{
	unsigned long i, w = 0;

	for (i = 0; i < nbits; i++)
		w += test_bit(i, src);
	return w;
}

static inline bool bitmap_equal(const unsigned long *a, const unsigned long *b,
				unsigned long nbits)
{
	unsigned long i;

	for (i = 0; i < nbits; i++)
		if (test_bit(i, a) != test_bit(i, b))
			return false;
	return true;
}

#ifndef cond_resched
#define cond_resched() do { } while (0)
#endif

#endif /* BFLY_NATIVE_BITMAP_H */
