// SPDX-License-Identifier: GPL-2.0
/*
 * The multibutterfly's routing (mbfly_route.c) against the butterfly's
 * self-routing (selfroute.c) of the same messages, alternated call by
 * call. A relation is h random permutations of N ports (h = 1: one
 * permutation). Per stage: the multibutterfly's routing time divided by
 * the stages it used, against one butterfly self-routing pass of the
 * same messages: the h permutations, each routed once through all log N
 * node stages. The neighbours are looked up in the neighbour table
 * (bfly_mbfly_table_fill(), built once, as a fabric keeps it). Every
 * timed routing is checked: the butterfly's deliveries against the trace
 * of its setting, the multibutterfly's messages all delivered along
 * their logical paths with Theorem 2's bound met. Times are the thread's
 * CPU time (the machine may be shared).
 *
 *   bench-mbfly [reps] [max log N]
 */
#include "compat.h"
#include "mbfly.h"
#include "selfroute.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"

#define BENCH_MAX_REPS 101
#define BENCH_TARGET 3.0

/* The thread's CPU time: the machine is shared, both sides timed alike */
static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Butterfly: route the @h permutations, check what each delivers. */
static double route_bfly(const struct bfly_geometry *g, const u32 *perm, u32 h,
			 unsigned long *m, u32 *del, u32 *back, void *work, int *bad)
{
	struct bfly_conflicts c = { 0 };
	double t = 0, t0;
	u32 k;

	for (k = 0; k < h; k++) {
		t0 = cpu_ns();
		bfly_selfroute_dest(g, perm + (size_t)k * g->ports, m, del, &c, work);
		t += cpu_ns() - t0;
		bfly_trace(g, m, back);
		*bad += !!memcmp(del, back, g->ports * sizeof(u32));
	}
	return t;
}

/* Multibutterfly: route, check every message's path; its stages to @stages. */
static double route_mbfly(const struct bfly_mbfly *g, const struct bfly_mbfly_msg *msg,
			  u32 count, const u32 *table, u32 *paths, void *work, u32 *stages,
			  int *bad)
{
	struct bfly_mbfly_params p = { .table = table };
	struct bfly_mbfly_result res;
	double t0 = cpu_ns(), t;
	u32 i, c, cols = g->log + 1;
	int err;

	err = bfly_mbfly_route(g, &p, msg, count, paths, &res, work);
	t = cpu_ns() - t0;
	*bad += err || res.left || res.path_errors || !res.bound_ok || res.delivered != count;
	for (i = 0; i < count; i++) {
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
	static const u32 cases[][3] = {	/* log N, h, d */
		{ 10, 1, 2 }, { 10, 4, 2 }, { 10, 1, 4 }, { 10, 4, 4 },
		{ 14, 1, 2 }, { 14, 4, 2 }, { 14, 1, 4 }, { 14, 4, 4 },
		{ 16, 1, 2 }, { 16, 4, 2 }, { 16, 1, 4 }, { 16, 4, 4 },
		{ 20, 1, 2 }, { 20, 4, 2 },
	};
	int reps = argc > 1 ? atoi(argv[1]) : 7, bad = 0, r;
	u32 maxlog = argc > 2 ? atoi(argv[2]) : 16;
	double tb[BENCH_MAX_REPS], tm[BENCH_MAX_REPS], q[BENCH_MAX_REPS], b, m, med, lo, hi;
	struct bfly_geometry geo;
	struct bfly_mbfly g;
	unsigned int c;
	const char *why;
	u32 stages = 0, i, k;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 7;
	printf("multibutterfly routing per stage (total time / stages used) against one\n");
	printf("butterfly self-routing pass of the same messages (h permutations, each\n");
	printf("through all log N node stages); neighbour table; median of %d,\n", reps);
	printf("alternated call by call, thread CPU time; every routing checked\n");
	printf("%-6s %2s %3s %7s %12s %12s %8s\n", "N", "h", "d", "stages", "bfly pass us",
	       "mbfly/stage", "ratio");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		u32 log = cases[c][0], h = cases[c][1], n = 1U << log, cnt = n * h;
		u32 *perm, *del, *back, *paths, *tab = NULL;
		struct bfly_mbfly_msg *msg;
		unsigned long *mat;
		void *bw, *mw;

		if (log > maxlog)
			continue;
		if (bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, n, &why) ||
		    bfly_mbfly_init(&g, n, cases[c][2], 14 + c, &why)) {
			fprintf(stderr, "bench-mbfly: %s\n", why);
			return 2;
		}
		perm = bench_alloc((size_t)cnt * sizeof(u32));
		del = bench_alloc(n * sizeof(u32));
		back = bench_alloc(n * sizeof(u32));
		paths = bench_alloc((size_t)cnt * (log + 1) * sizeof(u32));
		msg = bench_alloc((size_t)cnt * sizeof(*msg));
		mat = bench_alloc(bfly_matrix_bytes(&geo));
		bw = bench_alloc(bfly_selfroute_workspace_size(&geo));
		mw = bench_alloc(bfly_mbfly_route_workspace_size(&g, cnt));
		if (bfly_mbfly_table_size(&g)) {
			tab = bench_alloc(bfly_mbfly_table_size(&g));
			bad += !!bfly_mbfly_table_fill(&g, tab);
		}
		for (r = 0; r < reps; r++) {
			for (k = 0; k < h; k++) {
				u32 *pk = perm + (size_t)k * n;

				bench_random_perm(pk, n);
				for (i = 0; i < n; i++) {
					msg[k * n + i].src = i;
					msg[k * n + i].dst = pk[i];
				}
			}
			tb[r] = route_bfly(&geo, perm, h, mat, del, back, bw, &bad);
			tm[r] = route_mbfly(&g, msg, cnt, tab, paths, mw, &stages, &bad);
			tm[r] /= stages;
			q[r] = tm[r] / tb[r];
		}
		med = bench_median(q, reps);
		lo = q[0];
		hi = q[reps - 1];	/* bench_median() sorted q */
		b = bench_median(tb, reps);
		m = bench_median(tm, reps);
		printf("2^%-4u %2u %3u %7u %12.1f %12.1f %8.2f\n", log, h, g.d, stages, b / 1e3,
		       m / 1e3, med);
		printf("ratio: mbfly routing per stage / butterfly pass, N=2^%u h=%u d=%u",
		       log, h, g.d);
		printf(" | %.2fx | spread %.2fx-%.2fx | target <= %.1fx | %s\n", med, lo, hi,
		       BENCH_TARGET, med <= BENCH_TARGET ? "met" : "MISSED");
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
