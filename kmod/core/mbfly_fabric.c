// SPDX-License-Identifier: GPL-2.0
/*
 * A multibutterfly's splitters measured at creation: one splitter, of at
 * most BFLY_MBFLY_MEASURE_INPUTS inputs, over every subset of up to
 * BFLY_MBFLY_MEASURE_K inputs when it has at most 16, else over sampled
 * and greedily grown subsets (lib/mbfly.c). Bounded: the cost does not
 * grow with N past the measured splitter.
 */
#include <linux/mm.h>
#include <linux/slab.h>

#include "lib/mbfly.h"
#include "core.h"

/* The largest splitter measured: the first column whose splitters have at most this many inputs */
#define BFLY_MBFLY_MEASURE_INPUTS 1024
/* Subset sizes measured, at most (and at most half the inputs) */
#define BFLY_MBFLY_MEASURE_K 8
/* Random subsets per size, and greedy searches, on a sampled splitter */
#define BFLY_MBFLY_MEASURE_SAMPLES 4

/**
 * bfly_mbfly_measure() - measure a multibutterfly splitter's expansion
 * @geo: a multibutterfly's geometry
 * @m: filled: which splitter, alpha (kmax over inputs) and the beta observed
 * @mem: the memory account its workspace is charged to (bfly_mem_alloc());
 *	the caller releases it
 *
 * Splitter 0 of the first column whose splitters have at most 1024
 * inputs; subsets of 1 .. min(8, M / 2) inputs (1 on N = 2).
 *
 * Return: 0, -EINTR when a fatal signal stopped it, or @mem->err: -E2BIG
 * or -ENOMEM.
 */
int bfly_mbfly_measure(const struct bfly_geometry *geo, struct bfly_mbfly_measured *m,
		       struct bfly_mem *mem)
{
	struct bfly_mbfly_expansion *e;
	struct bfly_mbfly g;
	const char *why;
	void *work = NULL;
	u32 col;
	int err;

	err = bfly_mbfly_init(&g, geo->ports, geo->mbfly_d, geo->mbfly_seed, &why);
	if (err)
		return err;
	col = 0;
	while ((geo->ports >> col) > BFLY_MBFLY_MEASURE_INPUTS)
		col++;
	memset(m, 0, sizeof(*m));
	m->col = col;
	m->inputs = geo->ports >> col;
	m->kmax = clamp_t(u32, m->inputs / 2, 1, BFLY_MBFLY_MEASURE_K);
	e = bfly_mem_alloc(mem, sizeof(*e), true);
	if (m->inputs > BFLY_MBFLY_EXHAUSTIVE_MAX)
		work = bfly_mem_alloc(mem, bfly_mbfly_expansion_workspace_size(&g, col), false);
	if (mem->err) {
		kvfree(e);
		return mem->err;
	}
	err = bfly_mbfly_expansion(&g, col, 0, m->kmax, BFLY_MBFLY_MEASURE_SAMPLES,
				   geo->mbfly_seed, e, work);
	if (!err) {
		m->kmax = e->kmax;
		m->beta_fp16 = bfly_mbfly_beta_fp16(e, e->kmax);
		m->exhaustive = e->exhaustive;
		m->subsets = e->subsets;
	}
	kvfree(work);
	kvfree(e);
	return err;
}
