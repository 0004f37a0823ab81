// SPDX-License-Identifier: GPL-2.0
/*
 * Destination-digit routing on the k-ary n-fly (kfly.c) against the
 * butterfly's self-routing (selfroute.c) of the same N, alternated call by
 * call: for N = 2^16 and 2^20 (and k = 8 at 2^15 and 2^18, the nearest
 * powers), the median time per terminal and node stage of routing a
 * random permutation, and its ratio to the butterfly's; also the least and
 * the greatest ratio of one rep's pair of calls, and the ratio of the
 * median thread CPU times, which other programs' load moves less. Every
 * routing is checked: each packet is delivered where the setting it
 * produced traces.
 *
 *   bench-kfly [reps]
 */
#include "compat.h"
#include "kfly.h"
#include "selfroute.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"

#define BENCH_MAX_REPS 101

/* The calling thread's CPU time in nanoseconds. */
static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Butterfly: route @perm, check what it delivers against the trace. The
 * thread CPU time goes to @cpu.
 */
static double route_bfly(const struct bfly_geometry *g, const u32 *perm, unsigned long *m,
			 u32 *del, u32 *back, void *work, int *bad, double *cpu)
{
	struct bfly_conflicts c = { 0 };
	double c0 = cpu_ns(), t0 = now_ns(), t;

	bfly_selfroute_dest(g, perm, m, del, &c, work);
	t = now_ns() - t0;
	*cpu = cpu_ns() - c0;
	bfly_trace(g, m, back);
	*bad += !!memcmp(del, back, g->ports * sizeof(u32));
	return t;
}

/* k-ary n-fly: the same. */
static double route_kfly(const struct bfly_kfly *g, const u32 *perm, u8 *set, u32 *del,
			 u32 *back, void *work, int *bad, double *cpu)
{
	struct bfly_kfly_conflicts c = { 0 };
	double c0 = cpu_ns(), t0 = now_ns(), t;

	bfly_kfly_route_dest(g, perm, set, del, &c, work);
	t = now_ns() - t0;
	*cpu = cpu_ns() - c0;
	bfly_kfly_trace(g, set, back);
	*bad += !!memcmp(del, back, g->ports * sizeof(u32));
	return t;
}

int main(int argc, char **argv)
{
	static const u32 cases[][3] = {
		/* k, N, log2 of the butterfly's N */
		{ 4, 1U << 16, 16 }, { 8, 1U << 15, 15 }, { 16, 1U << 16, 16 },
		{ 4, 1U << 20, 20 }, { 8, 1U << 18, 18 }, { 16, 1U << 20, 20 },
	};
	int reps = argc > 1 ? atoi(argv[1]) : 21, bad = 0, r;
	double tb[BENCH_MAX_REPS], tk[BENCH_MAX_REPS], cb[BENCH_MAX_REPS], ck[BENCH_MAX_REPS];
	double b, k, q, lo, hi;
	struct bfly_geometry geo;
	struct bfly_kfly g;
	unsigned int c;
	const char *why;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 21;
	printf("destination-digit routing of a random permutation\n");
	printf("ns per terminal and node stage, median of %d, alternated call by call\n", reps);
	printf("%-10s %4s %10s %10s %8s %8s %8s %8s\n", "N", "k", "butterfly", "kfly", "ratio",
	       "min", "max", "cpu");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		u32 N = cases[c][1];
		u32 *perm = bench_alloc(N * sizeof(u32)), *del = bench_alloc(N * sizeof(u32));
		u32 *back = bench_alloc(N * sizeof(u32));
		unsigned long *m;
		void *bw, *kw;
		u8 *set;

		if (bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, N, &why) ||
		    bfly_kfly_init(&g, cases[c][0], N, &why)) {
			fprintf(stderr, "bench-kfly: %s\n", why);
			return 2;
		}
		m = bench_alloc(bfly_matrix_bytes(&geo));
		bw = bench_alloc(bfly_selfroute_workspace_size(&geo));
		kw = bench_alloc(bfly_kfly_route_workspace_size(&g));
		set = bench_alloc(bfly_kfly_settings_size(&g));
		lo = 1e300;
		hi = 0;
		for (r = 0; r < reps; r++) {
			bench_random_perm(perm, N);
			tb[r] = route_bfly(&geo, perm, m, del, back, bw, &bad, &cb[r]);
			tk[r] = route_kfly(&g, perm, set, del, back, kw, &bad, &ck[r]);
			q = tk[r] / g.n / (tb[r] / geo.node_stages);
			lo = q < lo ? q : lo;
			hi = q > hi ? q : hi;
		}
		b = bench_median(tb, reps) / ((double)N * geo.node_stages);
		k = bench_median(tk, reps) / ((double)N * g.n);
		q = bench_median(ck, reps) / g.n / (bench_median(cb, reps) / geo.node_stages);
		printf("2^%-8u %4u %10.2f %10.2f %8.3f %8.3f %8.3f %8.3f\n", cases[c][2], g.k, b,
		       k, k / b, lo, hi, q);
		free(perm);
		free(del);
		free(back);
		free(m);
		free(bw);
		free(kw);
		free(set);
	}
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
