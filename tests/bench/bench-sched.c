// SPDX-License-Identifier: GPL-2.0
/*
 * Schedule-only benchmark of all-to-all exchanges: for N = 256 and 1024,
 * per topology and schedule, the time per message of generating every
 * round's labels (bfly_sched_round()) and routing them with their conflict
 * check, for all N rounds (N * N messages). Two routings:
 *
 *   check   bfly_sched_check(): every packet's link at every node stage,
 *           conflicts counted (the batch path when no matrix is wanted)
 *   route   bfly_selfroute_labels(): switch matrix, delivered outputs and
 *           the conflict list
 *
 * A round with conflicts is also split (bfly_sched_split()). The median of
 * several repetitions is printed.
 *
 *   bench-sched [reps]
 */
#include "compat.h"
#include "schedule.h"
#include "selfroute.h"
#include "topology.h"
#include "names.gen.h"
#include "bench.h"

#ifndef OPT
#define OPT "?"
#endif

static struct bfly_geometry geom(enum bfly_topology topo, u32 n)
{
	struct bfly_geometry g = { .topology = topo, .ports_log2 = n };

	g.ports = 1U << n;
	g.nodes_per_stage = g.ports / 2;
	g.node_stages = topo == BFLY_TOPO_BUTTERFLY ? n :
			topo == BFLY_TOPO_BFLY_TWICE ? 2 * n : 2 * n - 1;
	g.switches = (u64)g.node_stages * g.nodes_per_stage;
	return g;
}

/* one batch: all N rounds; returns ns, adds conflicts and injections */
static double batch(const struct bfly_sched *s, bool full, u64 *lab,
		    unsigned long *m, u32 *del, u32 *sub, void *work,
		    void *split_work, u64 *conf, u64 *inj)
{
	const struct bfly_geometry *g = &s->geo;
	double t0 = now_ns();
	u32 k;

	*conf = 0;
	*inj = 0;
	for (k = 0; k < g->ports; k++) {
		int c;

		bfly_sched_round(s, k, NULL, lab);
		if (full) {
			struct bfly_conflicts cf = { 0 };

			bfly_selfroute_labels(g, lab, m, del, &cf, work);
			c = cf.count;
		} else {
			c = bfly_sched_check(g, lab, NULL, NULL, work);
		}
		*conf += c;
		*inj += c ? bfly_sched_split(g, lab, NULL, sub, split_work) : 1;
	}
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	static const enum bfly_topology topos[] = {
		BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE, BFLY_TOPO_BUTTERFLY
	};
	int reps = argc > 1 ? atoi(argv[1]) : 7;
	u32 ns[] = { 8, 10 };
	unsigned int a, t, l, f;
	int r;

	if (reps < 1)
		reps = 1;
	printf("schedule-only all-to-all, %s: ns per message (median of %d)\n",
	       OPT, reps);
	printf("%-5s %-10s %-4s %-6s %9s %9s %12s\n", "N", "topology",
	       "sch", "route", "ns/msg", "conflicts", "injections");
	for (a = 0; a < ARRAY_SIZE(ns); a++) {
		for (t = 0; t < ARRAY_SIZE(topos); t++) {
			struct bfly_geometry g = geom(topos[t], ns[a]);
			u32 N = g.ports;
			size_t w = bfly_selfroute_workspace_size(&g);
			u64 *lab = bench_alloc(N * sizeof(u64));
			u32 *del = bench_alloc(N * sizeof(u32));
			u32 *sub = bench_alloc(N * sizeof(u32));
			unsigned long *m =
				bench_alloc(BITS_TO_LONGS(g.switches) * sizeof(long));
			void *split_work =
				bench_alloc(bfly_sched_split_workspace_size(&g));
			double *tm = bench_alloc(reps * sizeof(double));
			void *work;

			if (bfly_sched_check_workspace_size(&g) > w)
				w = bfly_sched_check_workspace_size(&g);
			work = bench_alloc(w);
			for (l = BFLY_LATIN_RLS; l <= BFLY_LATIN_XOR; l++) {
				struct bfly_sched s;

				bfly_sched_init(&s, &g, l, NULL, NULL);
				for (f = 0; f < 2; f++) {
					u64 conf = 0, inj = 0;

					batch(&s, f, lab, m, del, sub, work,
					      split_work, &conf, &inj);
					for (r = 0; r < reps; r++)
						tm[r] = batch(&s, f, lab, m, del,
							      sub, work,
							      split_work,
							      &conf, &inj);
					printf("%-5u %-10s %-4s %-6s %9.2f %9llu %12llu\n",
					       N, bfly_topology_find(topos[t])->name,
					       bfly_latin_names[l],
					       f ? "route" : "check",
					       bench_median(tm, reps) /
					       ((double)N * N),
					       (unsigned long long)conf,
					       (unsigned long long)inj);
				}
			}
			free(lab);
			free(del);
			free(sub);
			free(m);
			free(split_work);
			free(tm);
			free(work);
		}
	}
	return 0;
}
