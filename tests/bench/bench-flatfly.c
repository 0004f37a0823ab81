// SPDX-License-Identifier: GPL-2.0
/*
 * The RLS all-to-all schedule on the flattened butterfly (flatfly.c)
 * against the same schedule on bfly2, alternated round by round: the
 * median over the exchange's rounds of the time per message of a round
 * as the batch service runs it, without payload for N = 2^8, 2^10 and
 * 2^12, and with messages copied as the batch service copies them
 * (bfly_msg_copy(), kmod/core/msgcopy.c): 64 B for N = 2^8 and 2^10,
 * 1 KiB for N = 2^8. Each side copies into its own receive buffer.
 * bfly2: the round's destinations and labels (bfly_sched_round()) and
 * their conflict check (bfly_sched_check()). flatfly: the round's
 * destinations, then the round on the routers as the batch service runs
 * it (bfly_flatfly_rls_run()): mapped as the RLS paper does, or by
 * minimal routes; and the systolic schedule's round
 * (bfly_flatfly_systolic_round()). The ratio to bfly2 is taken round by
 * round and its median printed.
 *
 * Every round is checked: bfly2's RLS rounds have no conflict; a first,
 * untimed pass runs each flatfly round with its labels through
 * bfly_flatfly_round() (which refuses labels that do not deliver), and
 * every timed round's figures (maximum load, excess, hops, cycles) must
 * equal that pass's; the systolic rounds load no channel twice; every
 * receive slot holds its message after each pass.
 *
 *   bench-flatfly [passes]
 */
#include "compat.h"
#include "core/msgcopy.h"
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
	struct bfly_flatfly_round_stats *want;
	void *work;
	void *flat_work;
	u8 *send;
	u8 *recv;
	u8 *recv_bfly2;
	u8 *recv_flat;
	u64 size;
	int bad;
};

/* As bfly_batch_deliver() in kmod/core/batch.c */
#define PREFETCH_DISTANCE 2

static struct bfly_msg msg_of(const struct bench_flat *b, u32 i, u32 d)
{
	u32 N = b->flat.fly.ports;

	return (struct bfly_msg) {
		.src = b->send + ((u64)i * N + d) * b->size,
		.dst = b->recv + ((u64)d * N + i) * b->size,
	};
}

/* The round's copies from [source][dest] to [dest][source], as the batch makes them. */
static void move_round(struct bench_flat *b)
{
	u32 i, next, N = b->flat.fly.ports;
	struct bfly_msg m, ahead;

	for (i = 0; i < N && b->size; i++) {
		m = msg_of(b, i, b->dest[i]);
		next = i + PREFETCH_DISTANCE;
		if (next < N)
			ahead = msg_of(b, next, b->dest[next]);
		bfly_msg_copy(&m, b->size, next < N ? &ahead : NULL);
	}
}

/*
 * Every receive slot [d][i] of @recv holds the bytes of send slot [i][d];
 * then cleared, so that the next pass must copy again.
 */
static int check_received(struct bench_flat *b, u8 *recv)
{
	u64 bytes = (u64)b->flat.fly.ports * b->flat.fly.ports * b->size;
	u32 N = b->flat.fly.ports, i, d;
	struct bfly_msg m;
	int bad = 0;

	b->recv = recv;
	for (i = 0; i < N && b->size; i++)
		for (d = 0; d < N; d++) {
			m = msg_of(b, i, d);
			bad += !!memcmp((const void *)m.src, m.dst, b->size);
		}
	memset(recv, 0, bytes);
	return bad;
}

/* bfly2: one RLS round, labels and conflict check; ns. */
static double round_bfly2(struct bench_flat *b, u32 k)
{
	double t0 = now_ns(), t;
	int c;

	b->recv = b->recv_bfly2;
	bfly_sched_round(&b->sched, k, b->dest, b->labels);
	c = bfly_sched_check(&b->bfly2, b->labels, NULL, NULL, b->work);
	move_round(b);
	t = now_ns() - t0;
	b->bad += c != 0;
	return t;
}

/*
 * flatfly: one round of @kind; its hops go to *@hops; ns. @first: the
 * untimed pass, through bfly_flatfly_round() with the round's labels,
 * whose figures the later passes must give.
 */
static double round_flat(struct bench_flat *b, int kind, u32 k, u64 *hops, bool first)
{
	struct bfly_flatfly_round_stats st;
	double t0, t;
	int err;

	b->recv = b->recv_flat;
	t0 = now_ns();
	if (kind == KIND_SYSTOLIC) {
		err = bfly_flatfly_systolic_round(&b->flat, k, b->dest, &st, b->flat_work);
		move_round(b);
		t = now_ns() - t0;
		b->bad += err || st.max_load != 1;
	} else if (first) {
		bfly_sched_round(&b->sched, k, b->dest, NULL);
		if (kind == KIND_MAPPED)
			bfly_rls_labels_round(b->flat.fly.ports, k, b->labels);
		err = bfly_flatfly_round(&b->flat, b->dest,
					 kind == KIND_MAPPED ? b->labels : NULL, &st,
					 b->flat_work);
		move_round(b);
		t = now_ns() - t0;
		b->bad += err != 0;
		b->want[k] = st;
	} else {
		bfly_sched_round(&b->sched, k, b->dest, NULL);
		err = bfly_flatfly_rls_run(&b->flat, k, b->dest, b->labels,
					   kind == KIND_MINIMAL, &st, b->flat_work);
		move_round(b);
		t = now_ns() - t0;
		b->bad += err != 0 || memcmp(&st, &b->want[k], sizeof(st)) != 0;
	}
	*hops += st.hops;
	return t;
}

/* One size of fabric and payload: every kind against bfly2. */
static int bench_size(u32 log2n, u64 size, int passes)
{
	struct bench_flat b = { .size = size };
	u32 N = 1U << log2n, k, rounds = N * passes;
	u64 bytes = (u64)N * N * size;
	int kind, p, bad;
	const char *why;

	bfly_geometry_init(&b.bfly2, BFLY_TOPO_BFLY2, 2, N, &why);
	bfly_sched_init(&b.sched, &b.bfly2, BFLY_LATIN_RLS, NULL, NULL);
	bfly_flatfly_init(&b.flat, 2, N, &why);
	b.dest = bench_alloc(N * sizeof(u32));
	b.labels = bench_alloc(N * sizeof(u64));
	b.want = bench_alloc(N * sizeof(*b.want));
	b.work = bench_alloc(bfly_sched_check_workspace_size(&b.bfly2));
	b.flat_work = bench_alloc(bfly_flatfly_rls_workspace_size(&b.flat) +
				  bfly_flatfly_systolic_workspace_size(&b.flat));
	if (size) {
		b.send = bench_map(bytes);
		b.recv_bfly2 = bench_map(bytes);
		b.recv_flat = bench_map(bytes);
		for (k = 0; k < bytes / 8; k++)
			((u64 *)b.send)[k] = 0x9e3779b97f4a7c15ULL * (k + 1);
	}
	for (kind = 0; kind < KINDS; kind++) {
		double *tb = bench_alloc(rounds * sizeof(double));
		double *tf = bench_alloc(rounds * sizeof(double));
		double *ratio = bench_alloc(rounds * sizeof(double));
		double *odd = bench_alloc(rounds / 2 * sizeof(double));
		u64 want = 0, hops;

		for (k = 0; k < N; k++)
			round_flat(&b, kind, k, &want, true);
		b.bad += check_received(&b, b.recv_flat);
		for (p = 0; p < passes; p++) {
			hops = 0;
			for (k = 0; k < N; k++) {
				u32 i = p * N + k;

				tb[i] = round_bfly2(&b, k);
				tf[i] = round_flat(&b, kind, k, &hops, false);
				ratio[i] = tf[i] / tb[i];
			}
			b.bad += hops != want;
			b.bad += check_received(&b, b.recv_bfly2);
			b.bad += check_received(&b, b.recv_flat);
		}
		/* the odd rounds alone: minimal routes take the general way there */
		for (k = 0; k < rounds / 2; k++)
			odd[k] = ratio[2 * k + 1];
		printf("%-6u %6llu %-12s %10.2f %10.2f %8.2f %8.2f %10llu\n", N,
		       (unsigned long long)size, kind_names[kind], bench_median(tb, rounds) / N,
		       bench_median(tf, rounds) / N, bench_median(ratio, rounds),
		       bench_median(odd, rounds / 2), (unsigned long long)want);
		free(odd);
		free(tb);
		free(tf);
		free(ratio);
	}
	bad = b.bad;
	free(b.dest);
	free(b.labels);
	free(b.want);
	free(b.work);
	free(b.flat_work);
	if (size) {
		munmap(b.send, bytes);
		munmap(b.recv_bfly2, bytes);
		munmap(b.recv_flat, bytes);
	}
	return bad;
}

int main(int argc, char **argv)
{
	static const u32 cases[][2] = {
		/* log2 N, message bytes */
		{ 8, 0 }, { 10, 0 }, { 12, 0 }, { 8, 64 }, { 10, 64 }, { 8, 1024 },
	};
	int passes = argc > 1 ? atoi(argv[1]) : 3, bad = 0;
	u32 c;

	if (passes < 1)
		passes = 1;
	printf("RLS all-to-all on flatfly (2-ary n-flat) against bfly2, per message of a round\n");
	printf("(median over %d passes of every round, alternated round by round)\n", passes);
	printf("%-6s %6s %-12s %10s %10s %8s %8s %10s\n", "N", "bytes", "flatfly", "bfly2 ns",
	       "flat ns", "ratio", "odd k", "hops");
	for (c = 0; c < ARRAY_SIZE(cases); c++)
		bad += bench_size(cases[c][0], cases[c][1], passes);
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
