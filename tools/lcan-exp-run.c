// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: a network and its arrays, routing a permutation on it
 * and checking the result, and the runs of one set of permutations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan-exp.h"

void net_init(struct net *n, u32 kind, u32 d, u32 u, u32 ports)
{
	const char *why = NULL;
	u32 i;

	memset(n, 0, sizeof(*n));
	if (bfly_lcan_init(&n->g, kind, d, u, ports, &why))
		die("%s %u %u %u: %s", topo_names[kind], d, u, ports, why);
	for (i = 0; i < n->g.levels; i++)
		n->radix[i] = i ? n->g.arity : d;
	n->src = xcalloc(ports, sizeof(u32));
	n->cycle = xcalloc(ports, sizeof(u32));
	n->order = xcalloc(ports, sizeof(u32));
	n->choices = xcalloc((size_t)ports * 2 * n->g.levels, sizeof(u32));
	n->stamp = xcalloc(bfly_lcan_settings_size(&n->g), sizeof(u32));
	n->pe_stamp = xcalloc(ports, sizeof(u32));
	n->work = xcalloc(bfly_lcan_msgset_workspace_size(&n->g, ports), 1);
	for (i = 0; i < ports; i++)
		n->src[i] = i;
}

void net_free(struct net *n)
{
	free(n->src);
	free(n->cycle);
	free(n->order);
	free(n->choices);
	free(n->stamp);
	free(n->pe_stamp);
	free(n->work);
}

/*
 * Rebuild every message's path from its choices and check the cycles: no
 * outgoing wire of a connector and no source twice in one cycle, each
 * path ending where it should, every cycle carrying a message.
 */
void net_verify(struct net *n, const struct bfly_lcan_msgset *ms)
{
	const struct bfly_lcan *g = &n->g;
	u32 *start = xcalloc(ms->cycles + 1, sizeof(u32));
	struct bfly_lcan_path path;
	u32 m, c, h, j;

	if (ms->routed != ms->count || ms->cycles < ms->bound)
		die("check: %u of %u routed in %u cycles, bound %u", ms->routed, ms->count,
		    ms->cycles, ms->bound);
	/* the messages, cycle by cycle (counting sort) */
	for (m = 0; m < ms->count; m++) {
		if (ms->cycle[m] >= ms->cycles)
			die("check: message %u in cycle %u of %u", m, ms->cycle[m], ms->cycles);
		start[ms->cycle[m] + 1]++;
	}
	for (c = 0; c < ms->cycles; c++) {
		if (!start[c + 1])
			die("check: cycle %u carries nothing", c);
		start[c + 1] += start[c];
	}
	for (m = 0; m < ms->count; m++)
		n->order[start[ms->cycle[m]]++] = m;
	memset(n->stamp, 0, bfly_lcan_settings_size(g) * sizeof(u32));
	memset(n->pe_stamp, 0, g->ports * sizeof(u32));
	for (j = 0; j < ms->count; j++) {
		const u32 *ch;
		u32 stamp;
		int err;

		m = n->order[j];
		ch = ms->choices + (u64)m * 2 * g->levels;
		stamp = ms->cycle[m] + 1;
		if (ms->mode == BFLY_LCAN_UNIDIR)
			err = bfly_lcan_uni_path(g, ms->src[m], ms->dst[m], &path);
		else
			err = bfly_lcan_pair_path(g, ms->src[m], ms->dst[m], ch, ch + g->levels,
						  &path);
		if (err)
			die("check: message %u: no path from its choices", m);
		if (n->pe_stamp[ms->src[m]] == stamp)
			die("check: processor %u sends twice in cycle %u", ms->src[m], stamp - 1);
		n->pe_stamp[ms->src[m]] = stamp;
		for (h = 0; h < path.count; h++) {
			const struct bfly_lcan_hop *x = &path.hops[h];
			u64 e = bfly_lcan_entry(g, x->level, x->sw, x->out);

			if (n->stamp[e] == stamp)
				die("check: message %u shares a wire in cycle %u", m, stamp - 1);
			n->stamp[e] = stamp;
		}
	}
	free(start);
}

/* Route the set PE p -> @dst[p] and check the result. */
void net_route(struct net *n, const u32 *dst, u32 mode, u32 strategy, u64 seed,
	       struct result *res)
{
	struct bfly_lcan_msgset ms = {
		.src = n->src, .dst = dst, .count = n->g.ports, .mode = mode,
		.strategy = strategy, .seed = seed, .cycle = n->cycle,
		.choices = n->choices,
	};
	const char *why = NULL;
	u32 bad;
	int err;

	if (bfly_lcan_msgset_check(&n->g, &ms, &bad, &why))
		die("message %u: %s", bad, why);
	err = bfly_lcan_msgset_route(&n->g, &ms, n->work);
	if (err)
		die("routing: %s", strerror(-err));
	net_verify(n, &ms);
	res->cycles = ms.cycles;
	res->bound = ms.bound;
	res->lambda = (double)ms.lambda_load / ms.lambda_cap;
}

/*
 * Route one fixed permutation: once off-line (deterministic), K times
 * on-line, run r with seed stream + r.
 */
void run_fixed(struct net *n, const struct opts *o, const u32 *dst, u32 mode,
	       u64 stream, struct row *r)
{
	u32 runs = o->strategy == BFLY_LCAN_OFFLINE || mode == BFLY_LCAN_UNIDIR ? 1 : o->runs;
	struct result res;
	u32 i;

	r->mode = mode == BFLY_LCAN_UNIDIR ? "uni" : "bi";
	r->worst = mode == BFLY_LCAN_BIDIR && n->g.levels > 1 && in_worst_set(n, dst);
	/* off-line and uni-directional routing are deterministic: one exact run */
	r->cycles.exact = o->strategy == BFLY_LCAN_OFFLINE || mode == BFLY_LCAN_UNIDIR;
	for (i = 0; i < runs; i++) {
		net_route(n, dst, mode, o->strategy, stream + i, &res);
		row_add(r, &res);
	}
}

/* K random permutations (@worst: of the worst-case set). */
void run_random(struct net *n, const struct opts *o, bool worst, u32 mode,
		const char *name, struct row *r)
{
	u64 rng = stream_seed(o->seed, name), route_seed = stream_seed(o->seed, "route");
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct result res;
	u32 i;

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->mode = mode == BFLY_LCAN_UNIDIR ? "uni" : "bi";
	r->worst = worst;
	for (i = 0; i < o->runs; i++) {
		if (worst)
			perm_worst(n, dst, &rng);
		else
			perm_random(dst, n->g.ports, &rng);
		if (worst && !in_worst_set(n, dst))
			die("internal: a worst-case permutation with a pair below level l - 1");
		net_route(n, dst, mode, o->strategy, route_seed + i, &res);
		row_add(r, &res);
	}
	free(dst);
}
