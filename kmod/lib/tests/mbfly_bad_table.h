/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit: a bad multibutterfly wiring, as a neighbour table for
 * &struct bfly_mbfly_params: every input of a splitter half has one
 * neighbour, the splitter's first row's first, so each column piles its
 * messages onto one node per half (N = 1024, h = 256: a slot passes 65535
 * buffers, -EOVERFLOW).
 */
#ifndef BFLY_MBFLY_BAD_TABLE_H
#define BFLY_MBFLY_BAD_TABLE_H

#include "lib/mbfly.h"

/* @t: bfly_mbfly_table_size(@g) bytes, filled by bfly_mbfly_table_fill(); rewired. */
static inline void bfly_mbfly_bad_table(const struct bfly_mbfly *g, u32 *t)
{
	u32 c, r, half, k, first, nb;

	for (c = 0; c < g->log; c++) {
		for (r = 0; r < g->ports; r++) {
			first = (r >> (g->log - c)) << (g->log - c);
			for (half = 0; half < 2; half++) {
				nb = t[(((size_t)c * g->ports + first) * 2 + half) * g->d];
				for (k = 0; k < g->d; k++)
					t[(((size_t)c * g->ports + r) * 2 + half) * g->d + k] = nb;
			}
		}
	}
}

#endif /* BFLY_MBFLY_BAD_TABLE_H */
