/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The colouring of h = 2^L (hrel.c) reads each slot's colour from the bits
 * its levels kept: see hrel_unwind.c.
 */
#ifndef _BFLY_HREL_UNWIND_H
#define _BFLY_HREL_UNWIND_H

#include "compat.h"

/* Bytes of a colour below 2^@levels: 1, 2 or 4 */
static inline unsigned int bfly_hrel_colour_width(u32 levels)
{
	return levels <= 8 ? 1 : levels <= 16 ? 2 : 4;
}

void bfly_hrel_unwind(const u32 *flip, u32 words, u32 slots, u32 levels, void *last,
		      void *space, u32 count, u32 *colour, const u32 *run, u32 *end);

#endif /* _BFLY_HREL_UNWIND_H */
