// SPDX-License-Identifier: GPL-2.0
/*
 * The multibutterfly's routing (mbfly_route.c) against the butterfly's
 * self-routing (selfroute.c) of the same messages, alternated call by
 * call: for N = 2^12 and 2^16 and h = 1 (a random permutation), the median
 * time per message and stage (the multibutterfly's stages, the
 * butterfly's node stages) and its ratio to the butterfly's, with the
 * neighbours computed from the keyed permutations and looked up in the
 * neighbour table (bfly_mbfly_table_fill(), built once, as a fabric
 * would keep it; "-" where it is above its limit). Every
 * routing is checked: the butterfly's deliveries against the trace of
 * its setting, the multibutterfly's messages all delivered along their
 * logical paths with Theorem 2's bound met.
 *
 *   bench-mbfly [reps]
 */
#include "compat.h"
#include "mbfly.h"
#include "selfroute.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"

#define BENCH_MAX_REPS 101

/* Butterfly: route @perm, check what it delivers against the trace. */
static double route_bfly(const struct bfly_geometry *g, const u32 *perm, unsigned long *m,
			 u32 *del, u32 *back, void *work, int *bad)
{
	struct bfly_conflicts c = { 0 };
	double t0 = now_ns(), t;

	bfly_selfroute_dest(g, perm, m, del, &c, work);
	t = now_ns() - t0;
	bfly_trace(g, m, back);
	*bad += !!memcmp(del, back, g->ports * sizeof(u32));
	return t;
}

/* Multibutterfly: route, check every message's path; its stages to @stages. */
static double route_mbfly(const struct bfly_mbfly *g, const struct bfly_mbfly_msg *msg,
			  const u32 *table, u32 *paths, void *work, u32 *stages, int *bad)
{
	struct bfly_mbfly_params p = { .table = table };
	struct bfly_mbfly_result res;
	double t0 = now_ns(), t;
	u32 i, c, cols = g->log + 1;
	int err;

	err = bfly_mbfly_route(g, &p, msg, g->ports, paths, &res, work);
	t = now_ns() - t0;
	*bad += err || res.left || res.path_errors || !res.bound_ok;
	for (i = 0; i < g->ports; i++) {
		const u32 *p = paths + (size_t)i * cols;

		*bad += p[0] != msg[i].src || p[g->log] != msg[i].dst;
		for (c = 1; c < g->log; c++)
			*bad += (p[c] >> (g->log - c)) != (msg[i].dst >> (g->log - c));
	}
	*stages = res.stages;
	return t;
}

int main(int argc, char **argv)
{
	static const u32 cases[][2] = { { 12, 8 }, { 12, 40 }, { 16, 8 } };
	int reps = argc > 1 ? atoi(argv[1]) : 11, bad = 0, r;
	double tb[BENCH_MAX_REPS], tm[BENCH_MAX_REPS], tt[BENCH_MAX_REPS], b, m, t;
	struct bfly_geometry geo;
	struct bfly_mbfly g;
	unsigned int c;
	const char *why;
	u32 stages = 0, i;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 11;
	printf("routing a random permutation (h = 1)\n");
	printf("ns per message and stage, median of %d, alternated call by call\n", reps);
	printf("%-6s %3s %7s %10s %10s %8s %10s %8s\n", "N", "d", "stages", "butterfly", "mbfly",
	       "ratio", "table", "ratio");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		u32 n = 1U << cases[c][0];
		u32 *perm = bench_alloc(n * sizeof(u32)), *del = bench_alloc(n * sizeof(u32));
		u32 *back = bench_alloc(n * sizeof(u32));
		u32 *paths = bench_alloc((size_t)n * (cases[c][0] + 1) * sizeof(u32));
		struct bfly_mbfly_msg *msg = bench_alloc(n * sizeof(*msg));
		unsigned long *mat;
		void *bw, *mw;
		u32 *tab = NULL;

		if (bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, n, &why) ||
		    bfly_mbfly_init(&g, n, cases[c][1], 14 + c, &why)) {
			fprintf(stderr, "bench-mbfly: %s\n", why);
			return 2;
		}
		mat = bench_alloc(bfly_matrix_bytes(&geo));
		bw = bench_alloc(bfly_selfroute_workspace_size(&geo));
		mw = bench_alloc(bfly_mbfly_route_workspace_size(&g, n));
		if (bfly_mbfly_table_size(&g)) {
			tab = bench_alloc(bfly_mbfly_table_size(&g));
			bad += !!bfly_mbfly_table_fill(&g, tab);
		}
		for (r = 0; r < reps; r++) {
			bench_random_perm(perm, n);
			for (i = 0; i < n; i++) {
				msg[i].src = i;
				msg[i].dst = perm[i];
			}
			tb[r] = route_bfly(&geo, perm, mat, del, back, bw, &bad);
			tm[r] = route_mbfly(&g, msg, NULL, paths, mw, &stages, &bad);
			tm[r] /= stages;
			tt[r] = tab ? route_mbfly(&g, msg, tab, paths, mw, &stages, &bad) : 0;
			tt[r] /= stages;
		}
		b = bench_median(tb, reps) / ((double)n * geo.node_stages);
		m = bench_median(tm, reps) / n;
		t = bench_median(tt, reps) / n;
		printf("2^%-4u %3u %7u %10.2f %10.2f %8.2f", cases[c][0], g.d, stages, b, m, m / b);
		if (tab)
			printf(" %10.2f %8.2f\n", t, t / b);
		else
			printf(" %10s %8s\n", "-", "-");
		free(perm);
		free(del);
		free(back);
		free(paths);
		free(msg);
		free(mat);
		free(bw);
		free(mw);
		free(tab);
	}
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
