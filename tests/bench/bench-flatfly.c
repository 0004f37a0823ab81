// SPDX-License-Identifier: GPL-2.0
/*
 * The RLS all-to-all schedule on the flattened butterfly (flatfly.c)
 * against the same schedule on bfly2, alternated round by round: for
 * N = 2^8, 2^10 and 2^12, the median over the exchange's rounds of the
 * time per message of a round as the batch service runs it without
 * payload. bfly2: the round's labels (bfly_sched_round()) and their
 * conflict check (bfly_sched_check()). flatfly: the round's destinations
 * and labels, then the round on the routers (bfly_flatfly_round()):
 * mapped as the RLS paper does, or by minimal routes; and the systolic
 * schedule's round (bfly_flatfly_systolic_round()). The ratio to bfly2 is
 * taken round by round and its median printed.
 *
 * Every round is checked: bfly2's RLS rounds have no conflict; a flatfly
 * round delivers every packet (bfly_flatfly_round() refuses labels that
 * do not) and each kind's hops over the exchange are what a first,
 * untimed pass counted; the systolic rounds load no channel twice.
 *
 *   bench-flatfly [passes]
 */
#include "compat.h"
#include "flatfly.h"
#include "rls.h"
#include "schedule.h"
#include "topology.h"
#include "bench.h"

enum { KIND_MAPPED, KIND_MINIMAL, KIND_SYSTOLIC, KINDS };

static const char * const kind_names[KINDS] = { "rls mapped", "rls minimal", "systolic" };

struct bench_flat {
	struct bfly_geometry bfly2;
	struct bfly_sched sched;
	struct bfly_flatfly flat;
	u32 *dest;
	u64 *labels;
	void *work;
	void *flat_work;
	int bad;
};

/* bfly2: one RLS round, labels and conflict check; ns. */
static double round_bfly2(struct bench_flat *b, u32 k)
{
	double t0 = now_ns(), t;
	int c;

	bfly_sched_round(&b->sched, k, NULL, b->labels);
	c = bfly_sched_check(&b->bfly2, b->labels, NULL, NULL, b->work);
	t = now_ns() - t0;
	b->bad += c != 0;
	return t;
}

/* flatfly: one round of @kind; its hops go to *@hops; ns. */
static double round_flat(struct bench_flat *b, int kind, u32 k, u64 *hops)
{
	struct bfly_flatfly_round_stats st;
	double t0 = now_ns(), t;
	int err;

	if (kind == KIND_SYSTOLIC) {
		err = bfly_flatfly_systolic_round(&b->flat, k, b->dest, &st, b->flat_work);
		t = now_ns() - t0;
		b->bad += err || st.max_load != 1;
	} else {
		bfly_sched_round(&b->sched, k, b->dest, NULL);
		if (kind == KIND_MAPPED)
			bfly_rls_labels_round(b->flat.fly.ports, k, b->labels);
		err = bfly_flatfly_round(&b->flat, b->dest,
					 kind == KIND_MAPPED ? b->labels : NULL, &st,
					 b->flat_work);
		t = now_ns() - t0;
		b->bad += err != 0;
	}
	*hops += st.hops;
	return t;
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? atoi(argv[1]) : 3, kind, p, bad = 0;
	u32 sizes[] = { 8, 10, 12 }, a, k, N, rounds;
	const char *why;

	if (passes < 1)
		passes = 1;
	printf("RLS all-to-all on flatfly (2-ary n-flat) against bfly2, per message of a round\n");
	printf("(median over %d passes of every round, alternated round by round)\n", passes);
	printf("%-6s %-12s %10s %10s %8s %10s\n", "N", "flatfly", "bfly2 ns", "flat ns",
	       "ratio", "hops");
	for (a = 0; a < ARRAY_SIZE(sizes); a++) {
		struct bench_flat b = { 0 };

		N = 1U << sizes[a];
		bfly_geometry_init(&b.bfly2, BFLY_TOPO_BFLY2, 2, N, &why);
		bfly_sched_init(&b.sched, &b.bfly2, BFLY_LATIN_RLS, NULL, NULL);
		bfly_flatfly_init(&b.flat, 2, N, &why);
		b.dest = bench_alloc(N * sizeof(u32));
		b.labels = bench_alloc(N * sizeof(u64));
		b.work = bench_alloc(bfly_sched_check_workspace_size(&b.bfly2));
		b.flat_work = bench_alloc(bfly_flatfly_round_workspace_size(&b.flat) +
					  bfly_flatfly_systolic_workspace_size(&b.flat));
		rounds = N * passes;
		for (kind = 0; kind < KINDS; kind++) {
			double *tb = bench_alloc(rounds * sizeof(double));
			double *tf = bench_alloc(rounds * sizeof(double));
			double *ratio = bench_alloc(rounds * sizeof(double));
			u64 want = 0, hops;

			for (k = 0; k < N; k++)
				round_flat(&b, kind, k, &want);
			for (p = 0; p < passes; p++) {
				hops = 0;
				for (k = 0; k < N; k++) {
					u32 i = p * N + k;

					tb[i] = round_bfly2(&b, k);
					tf[i] = round_flat(&b, kind, k, &hops);
					ratio[i] = tf[i] / tb[i];
				}
				b.bad += hops != want;
			}
			printf("%-6u %-12s %10.2f %10.2f %8.2f %10llu\n", N, kind_names[kind],
			       bench_median(tb, rounds) / N, bench_median(tf, rounds) / N,
			       bench_median(ratio, rounds), (unsigned long long)want);
			free(tb);
			free(tf);
			free(ratio);
		}
		bad += b.bad;
		free(b.dest);
		free(b.labels);
		free(b.work);
		free(b.flat_work);
	}
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
