// SPDX-License-Identifier: GPL-2.0
/*
 * The textbook baseline for Benes routing (tests/bench only): the looping
 * algorithm written the plain recursive way, on the same fabric wiring and
 * switch matrix as kmod/lib/benes.c. For a subnetwork of M ports with
 * local permutation P: build the inverse Q, walk every loop colouring the
 * packets 0 (upper half network) or 1 (lower) so that the two packets of
 * an input node, and the two of an output node, differ; set the input and
 * output nodes; split P into the two half networks' permutations; recurse
 * on each. The M = 2 subnetwork is one middle-stage node.
 *
 * Not tuned, but not wasteful either: the arrays of every depth are
 * allocated once up front (depth d needs N >> d entries; depth-first
 * recursion reuses them), nothing is allocated per node.
 */
#include <stdlib.h>
#include "textbook-benes.h"

struct textbook_level {
	u32 *q, *p0, *p1;
	u8 *in, *out;
};

struct textbook_benes {
	u32 levels;
	struct textbook_level lv[32];
};

struct textbook_benes *textbook_benes_alloc(u32 ports_log2)
{
	struct textbook_benes *tb = calloc(1, sizeof(*tb));
	u32 d;

	tb->levels = ports_log2;
	for (d = 0; d + 1 < ports_log2; d++) {
		size_t m = (size_t)1 << (ports_log2 - d);

		tb->lv[d].q = malloc(m * sizeof(u32));
		tb->lv[d].p0 = malloc(m / 2 * sizeof(u32));
		tb->lv[d].p1 = malloc(m / 2 * sizeof(u32));
		tb->lv[d].in = malloc(m / 2);
		tb->lv[d].out = malloc(m / 2);
	}
	return tb;
}

void textbook_benes_free(struct textbook_benes *tb)
{
	u32 d;

	for (d = 0; d + 1 < tb->levels; d++) {
		free(tb->lv[d].q);
		free(tb->lv[d].p0);
		free(tb->lv[d].p1);
		free(tb->lv[d].in);
		free(tb->lv[d].out);
	}
	free(tb);
}

static void textbook_set(unsigned long *matrix, u64 bit, bool on)
{
	if (on)
		__set_bit(bit, matrix);
	else
		__clear_bit(bit, matrix);
}

/* Subnetwork @sub of depth @d, 2^@m ports, local permutation @p. */
static void textbook_route(struct textbook_benes *tb,
			   const struct bfly_geometry *geo, const u32 *p,
			   u32 d, u32 m, u32 sub, unsigned long *matrix)
{
	struct textbook_level *lv = &tb->lv[d];
	u32 n = geo->ports_log2, big = 1U << m, half = big / 2;
	u64 nps = geo->nodes_per_stage, node0 = (u64)sub * half;
	u32 x, k;

	if (m == 1) {
		textbook_set(matrix, (n - 1) * nps + sub, p[0] == 1);
		return;
	}
	for (x = 0; x < big; x++)
		lv->q[p[x]] = x;
	memset(lv->in, 0xff, half);
	for (k = 0; k < half; k++) {
		if (lv->in[k] != 0xff)
			continue;
		/* a new loop: the packet on port 0 of node k takes colour 0 */
		x = 2 * k;
		lv->in[k] = 0;
		for (;;) {
			u32 y = p[x], x1;

			/* colour-0 packet x leaves output node y/2 on port y&1 */
			lv->out[y >> 1] = y & 1;
			/* its output partner takes colour 1, its input partner 0 */
			x1 = lv->q[y ^ 1] ^ 1;
			if (lv->in[x1 >> 1] != 0xff)
				break;
			lv->in[x1 >> 1] = x1 & 1;
			x = x1;
		}
	}
	for (k = 0; k < half; k++) {
		textbook_set(matrix, d * nps + node0 + k, lv->in[k]);
		textbook_set(matrix, (2 * n - 2 - d) * nps + node0 + k,
			     lv->out[k]);
	}
	/* colour c goes to half network c at L(x) = node with top bit dropped */
	for (x = 0; x < big; x++) {
		u32 y = p[x], c = (x & 1) ^ lv->in[x >> 1];
		u32 lx = (x & (half - 2)) | (x >> (m - 1));
		u32 ly = (y & (half - 2)) | (y >> (m - 1));

		(c ? lv->p1 : lv->p0)[lx] = ly;
	}
	textbook_route(tb, geo, lv->p0, d + 1, m - 1, 2 * sub, matrix);
	textbook_route(tb, geo, lv->p1, d + 1, m - 1, 2 * sub + 1, matrix);
}

/* Route @perm (a permutation) on the Benes fabric @geo into @matrix. */
void textbook_benes_route(struct textbook_benes *tb,
			  const struct bfly_geometry *geo, const u32 *perm,
			  unsigned long *matrix)
{
	textbook_route(tb, geo, perm, 0, geo->ports_log2, 0, matrix);
}
