/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The colouring of h = 2^L (hrel.c) reads each slot's colour from the bits
 * its levels kept: see hrel_unwind.c.
 */
#ifndef _BFLY_HREL_UNWIND_H
#define _BFLY_HREL_UNWIND_H

#include "compat.h"

void bfly_hrel_unwind(const u32 *flip, u32 words, u32 slots, u32 levels, void *space,
		      u32 count, u32 *colour, const u32 *run, u32 *end);

#endif /* _BFLY_HREL_UNWIND_H */
