/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native stand-in for <linux/prandom.h> (kmod/lib/tests): a seeded
 * generator with the kernel's interface (not its sequence).
 */
#ifndef BFLY_NATIVE_PRANDOM_H
#define BFLY_NATIVE_PRANDOM_H

#include "compat.h"

struct rnd_state {
	u64 s;
};

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	state->s = seed * 0x9e3779b97f4a7c15ULL + 1;
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	state->s ^= state->s << 13;
	state->s ^= state->s >> 7;
	state->s ^= state->s << 17;
	return state->s >> 32;
}

#endif /* BFLY_NATIVE_PRANDOM_H */
