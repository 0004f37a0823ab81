// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing benchmark: bfly_benes_route() against the textbook
 * recursive looping (textbook-benes.c) for N = 2^10 .. 2^20, alternated
 * call by call (the order swapped every repetition) on the same random
 * permutations. After every timed call, the matrix is traced and must
 * realize the permutation. Prints the median time of each, ns per node
 * setting, and the median and spread of the per-call ratios
 * textbook / bfly as `ratio:` lines (target >= 2.5x). The machine's memcpy
 * bandwidth and pointer-chase latency are printed for context.
 *
 *   bench [reps]
 */
#include "compat.h"
#include "benes.h"
#include "trace.h"
#include "bench.h"
#include "textbook-benes.h"

#ifndef OPT
#define OPT "?"
#endif
#define TARGET 2.5

static void check(const struct bfly_geometry *g, const unsigned long *m,
		  const u32 *perm, u32 *got, const char *who)
{
	if (bfly_trace(g, m, got) || memcmp(got, perm, g->ports * 4)) {
		fprintf(stderr, "N=%u %s: trace(route(p)) != p\n", g->ports,
			who);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const u32 logs[] = { 10, 12, 14, 16, 18, 20 };
	int reps = argc > 1 ? atoi(argv[1]) : 0;
	unsigned int li;

	printf("benes looping vs textbook recursive looping, %s build\n", OPT);
	printf("memcpy 64 MiB: %.1f GB/s; pointer chase: %.1f ns (256 KiB), ",
	       bench_memcpy_gbps(64 << 20, 9),
	       bench_chase_ns(256 << 10, 1 << 22));
	printf("%.1f ns (64 MiB)\n", bench_chase_ns(64 << 20, 1 << 18));
	printf("%8s %5s %11s %11s %9s %9s\n", "N", "reps", "bfly us",
	       "textbook us", "bfly ns/n", "ratio");
	for (li = 0; li < ARRAY_SIZE(logs); li++) {
		u32 n = logs[li], ports = 1U << n, k;
		struct bfly_geometry g = {
			.topology = BFLY_TOPO_BENES, .ports_log2 = n,
			.ports = ports, .node_stages = 2 * n - 1,
			.nodes_per_stage = ports / 2,
			.switches = (u64)(2 * n - 1) * (ports / 2),
		};
		/*
		 * At least about 0.1 s of calls for each N: a median of 101 calls
		 * of 15 us (N = 2^10) spans 6 ms, which one burst of another
		 * tenant of the machine can fill.
		 */
		int r, nreps = reps ? reps : n <= 10 ? 1001 : n <= 12 ? 301 :
				n <= 14 ? 101 : n <= 16 ? 41 : 15;
		size_t mbytes = BITS_TO_LONGS(g.switches) * sizeof(long);
		u32 *perm = bench_alloc_huge((size_t)4 * ports * 4);
		u32 *got = bench_alloc_huge((size_t)ports * 4);
		unsigned long *m = bench_alloc_huge(mbytes);
		unsigned long *mt = bench_alloc_huge(mbytes);
		void *work = bench_alloc_huge(bfly_benes_workspace_size(&g));
		struct textbook_benes *tb = textbook_benes_alloc(n);
		double *tf = bench_alloc(nreps * sizeof(double));
		double *tt = bench_alloc(nreps * sizeof(double));
		double *rt = bench_alloc(nreps * sizeof(double));
		double mf, mt_, lo = 1e30, hi = 0;

		/* four random permutations, used in turn */
		for (k = 0; k < 4; k++)
			bench_random_perm(perm + (size_t)k * ports, ports);
		for (r = -2; r < nreps; r++) {
			u32 *p = perm + (size_t)((r + 4) % 4) * ports;
			double t0, dt, tbfly = 0, ttext = 0;
			int i;

			for (i = 0; i < 2; i++) {
				bool bfly_turn = (i == 0) == ((r & 1) == 0);

				t0 = now_ns();
				if (bfly_turn) {
					if (bfly_benes_route(&g, p, m, work)) {
						fprintf(stderr, "route failed\n");
						return 1;
					}
				} else {
					textbook_benes_route(tb, &g, p, mt);
				}
				dt = now_ns() - t0;
				if (bfly_turn) {
					check(&g, m, p, got, "bfly");
					tbfly = dt;
				} else {
					check(&g, mt, p, got, "textbook");
					ttext = dt;
				}
			}
			if (r < 0)
				continue;
			tf[r] = tbfly;
			tt[r] = ttext;
			rt[r] = ttext / tbfly;
			lo = rt[r] < lo ? rt[r] : lo;
			hi = rt[r] > hi ? rt[r] : hi;
		}
		mf = bench_median(tf, nreps);
		mt_ = bench_median(tt, nreps);
		printf("%8u %5d %11.1f %11.1f %9.2f %8.2fx\n", ports, nreps,
		       mf / 1e3, mt_ / 1e3, mf / (double)g.switches,
		       bench_median(rt, nreps));
		printf("ratio: benes looping / textbook looping, N=2^%u, %s",
		       n, OPT);
		printf(" | %.2fx | spread %.2fx-%.2fx | target >= %.1fx | %s\n",
		       bench_median(rt, nreps), lo, hi, TARGET,
		       bench_median(rt, nreps) >= TARGET ? "met" : "MISSED");
		textbook_benes_free(tb);
		free(perm);
		free(got);
		free(m);
		free(mt);
		free(work);
		free(tf);
		free(tt);
		free(rt);
	}
	return 0;
}
