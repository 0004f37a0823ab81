/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The algorithm files' random numbers: splitmix64, one seed, one sequence,
 * the same in the kernel and natively.
 */
#ifndef _BFLY_RAND_H
#define _BFLY_RAND_H

#include "compat.h"

/**
 * bfly_splitmix64() - the next number of a splitmix64 sequence
 * @state: the sequence's state; a caller's seed to start
 *
 * Return: 64 random bits.
 */
static inline u64 bfly_splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* _BFLY_RAND_H */
