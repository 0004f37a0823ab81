// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing benchmark: for N = 2^10, 2^13, 2^16 and 2^20, the median
 * time of one bfly_benes_route() over random permutations and the time per
 * node setting ((2n - 1) N / 2 nodes). Every result is checked by tracing.
 *
 *   bench [reps]
 */
#include "compat.h"
#include "benes.h"
#include "trace.h"
#include "bench.h"

#ifndef OPT
#define OPT "?"
#endif

int main(int argc, char **argv)
{
	static const u32 logs[] = { 10, 13, 16, 20 };
	int reps = argc > 1 ? atoi(argv[1]) : 0;
	unsigned int li;

	printf("benes looping, %s build (median of reps, random permutations)\n",
	       OPT);
	printf("%8s %6s %12s %14s\n", "N", "reps", "median us",
	       "ns/node");
	for (li = 0; li < ARRAY_SIZE(logs); li++) {
		u32 n = logs[li], ports = 1U << n, k;
		struct bfly_geometry g = {
			.topology = BFLY_TOPO_BENES, .ports_log2 = n,
			.ports = ports, .node_stages = 2 * n - 1,
			.nodes_per_stage = ports / 2,
			.switches = (u64)(2 * n - 1) * (ports / 2),
		};
		int r, nreps = reps ? reps : (n <= 13 ? 301 : n <= 16 ? 61 : 21);
		u32 *perm = bench_alloc_huge((size_t)4 * ports * 4);
		u32 *got = bench_alloc_huge((size_t)ports * 4);
		unsigned long *m =
			bench_alloc_huge(BITS_TO_LONGS(g.switches) * sizeof(long));
		void *work = bench_alloc_huge(bfly_benes_workspace_size(&g));
		double *t = bench_alloc_huge(nreps * sizeof(double)), med;

		/* four random permutations, used in turn */
		for (k = 0; k < 4; k++)
			bench_random_perm(perm + (size_t)k * ports, ports);
		for (r = -2; r < nreps; r++) {
			u32 *p = perm + (size_t)((r + 4) % 4) * ports;
			double t0 = now_ns();

			if (bfly_benes_route(&g, p, m, work)) {
				fprintf(stderr, "route failed\n");
				return 1;
			}
			if (r >= 0)
				t[r] = now_ns() - t0;
		}
		bfly_trace(&g, m, got);
		if (memcmp(got, perm + (size_t)((nreps - 1 + 4) % 4) * ports,
			   ports * 4)) {
			fprintf(stderr, "N=%u: trace(route(p)) != p\n", ports);
			return 1;
		}
		med = bench_median(t, nreps);
		printf("%8u %6d %12.1f %14.2f\n", ports, nreps, med / 1e3,
		       med / (double)g.switches);
		free(perm);
		free(got);
		free(m);
		free(work);
		free(t);
	}
	return 0;
}
