/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link maps between node stages, per topology. See wiring.c.
 */
#ifndef _BFLY_WIRING_H
#define _BFLY_WIRING_H

#include "compat.h"
#include "geometry.h"

/* bfly_wiring_flip() of an edge stage that is the identity link */
#define BFLY_WIRING_IDENTITY (-1)

int bfly_wiring_flip(const struct bfly_geometry *geo, u32 edge);
u32 bfly_wiring_link(const struct bfly_geometry *geo, u32 edge, u32 pos);
void bfly_wiring_flips(const struct bfly_geometry *geo, s32 *flips);

/**
 * bfly_wiring_apply() - follow one edge stage given its flipped bit
 * @flip: the node-label bit the edge stage flips, as bfly_wiring_flip()
 *	returns it, or %BFLY_WIRING_IDENTITY
 * @pos: link position leaving the node stage before the edge stage
 *
 * An edge stage that flips node-label bit b swaps bits 0 and b + 1 of the
 * link position (see wiring.c); it is its own inverse.
 *
 * Return: the link position entering the node stage after the edge stage.
 */
static inline u32 bfly_wiring_apply(s32 flip, u32 pos)
{
	u32 d;

	if (flip < 0)
		return pos;
	d = (pos ^ (pos >> (flip + 1))) & 1;
	return pos ^ d ^ (d << (flip + 1));
}

#endif /* _BFLY_WIRING_H */
