/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The colouring of h = 2^L (hrel.c) places each message's right vertex
 * (u16) at its slot through runs per bucket of slots: see hrel_scatter.c.
 */
#ifndef _BFLY_HREL_SCATTER_H
#define _BFLY_HREL_SCATTER_H

#include "compat.h"

/* log2 of the slots of a bucket */
#define BFLY_HREL_BUCKET_SHIFT 16

void bfly_hrel_scatter(u32 count, const u32 *src, const u32 *dst, u32 slots, u32 *gs,
		       const u32 *gd, u32 *run, u32 *cur, u16 *rv, u32 *slot_of);

#endif /* _BFLY_HREL_SCATTER_H */
