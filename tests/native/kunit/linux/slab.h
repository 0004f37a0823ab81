/* SPDX-License-Identifier: GPL-2.0 */
/* Native stand-in: the kernel allocator as libc's (kmod/lib/tests). */
#ifndef BFLY_NATIVE_SLAB_H
#define BFLY_NATIVE_SLAB_H

#include <stdlib.h>

#define GFP_KERNEL 0

static inline void *kvzalloc(size_t size, int gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif /* BFLY_NATIVE_SLAB_H */
