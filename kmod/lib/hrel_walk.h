/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The walks of the colouring's splits (hrel.c): see hrel_walk.c.
 */
#ifndef _BFLY_HREL_WALK_H
#define _BFLY_HREL_WALK_H

#include "compat.h"

/* Walks interleaved by bfly_hrel_walk() */
#ifndef HREL_WALKERS
#define HREL_WALKERS 32
#endif
/* A pair a walk reached: its rp[0] holds its state (struct hrel_pair) */
#define HREL_SEEN BIT(31)
/* Steps between two calls to bfly_should_stop() */
#define HREL_POLL 0xffff

/*
 * A pair of slots: each slot's right partner (the slot paired with it at
 * its right vertex), until a walk reaches the pair and writes its state
 * over rp[0]: HREL_SEEN, the walk's segment and the half of the even
 * slot (segment << 1 | half). A walk needs a pair's partners only on
 * reaching it, so 8 bytes a pair, in one cache line, serve both: a step
 * misses the cache once, and the passes move two thirds of the bytes of
 * separate state.
 */
struct hrel_pair {
	u32 rp[2];
};

struct hrel_walker {
	u32 next, end;	/* the stripe of pairs left to start from */
	u32 f;		/* the slot reached next, its pair prefetched */
	u32 seg;	/* the walk's segment */
	bool live;
};

int bfly_hrel_walk(struct hrel_pair *pr, u32 *parent, struct hrel_walker *w, u32 m);

#endif /* _BFLY_HREL_WALK_H */
