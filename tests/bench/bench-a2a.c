// SPDX-License-Identifier: GPL-2.0
/*
 * Native stand-in for an all-to-all batch's payload (this machine cannot
 * load bfly.ko): the same work as the kernel's BFLY_IOC_BATCH on bfly2 with
 * the RLS schedule — bfly_sched_round() for destinations (and labels and
 * bfly_sched_check() where a schedule is not proven conflict-free), round
 * by round, each round's rotation found (bfly_msg_rotation()) — and the
 * messages of
 * each block of bfly_msg_block_rounds() rounds moved from their
 * [source][dest] send slots to their [dest][source] receive slots by the
 * kernel's own bfly_msg_block_move() (kmod/core/msgblock.c and msgcopy.c,
 * built natively).
 *
 * Baselines, timed in the same run and alternated call by call with the
 * batch: one memcpy() of the same bytes, and at 64 B a plain blocked
 * transpose of the N x N message matrix. Every 8-byte word of the send
 * buffer holds a tag naming its message and word; the receive buffer is
 * cleared before every timed call (untimed) and every word of it is
 * checked after every call. Both buffers are 2 MiB aligned and backed by
 * transparent huge pages for every program alike.
 *
 *   bench-a2a [reps]
 */
#include "compat.h"
#include "core/msgblock.h"
#include "core/msgcopy.h"
#include "schedule.h"
#include "bench.h"

/* Elements per side of a block of the transpose baseline */
#define TRANSPOSE_BLOCK 16
#define MAX_REPS 101

struct a2a_bench {
	u32 N;
	u64 size, bytes;
	bool stream, proven;
	u8 *send, *recv;
	struct bfly_geometry g;
	struct bfly_sched sched;
	u32 *dest, *shift, block_max;
	u64 *labels;
	void *work;
};

/* Word @w of the message from @i to @d */
static inline u64 a2a_tag(u32 i, u32 d, u64 w)
{
	return ((u64)i << 44 | (u64)d << 24 | w) ^ 0xa5a5000000000000ULL;
}

static void a2a_fill(struct a2a_bench *b)
{
	u64 *s = (u64 *)b->send, words = b->size / 8, w;
	u32 i, d;

	for (i = 0; i < b->N; i++)
		for (d = 0; d < b->N; d++)
			for (w = 0; w < words; w++)
				*s++ = a2a_tag(i, d, w);
}

/* Is every receive slot [d][i] the message from i to d? */
static bool a2a_check(const struct a2a_bench *b)
{
	const u64 *r = (const u64 *)b->recv;
	u64 words = b->size / 8, w, bad = 0;
	u32 i, d;

	for (d = 0; d < b->N; d++)
		for (i = 0; i < b->N; i++)
			for (w = 0; w < words; w++)
				bad |= *r++ ^ a2a_tag(i, d, w);
	return !bad;
}

/* The block's rounds moved, as bfly_batch_flush() moves them */
static int move_block(const struct a2a_bench *b, u32 rounds)
{
	struct bfly_msg_block blk = {
		.send = b->send, .recv = b->recv, .size = b->size, .ports = b->N,
		.rounds = rounds, .dest = b->dest, .stream = b->stream,
		.shift = b->shift,
	};

	return bfly_msg_block_move(&blk);
}

/* One batch: N rounds scheduled and checked, moved block by block */
static int a2a_batch(struct a2a_bench *b)
{
	u32 k, r = 0;
	int err;

	for (k = 0; k < b->N; k++) {
		/* as the kernel, proven rounds need no labels and skip the check */
		err = bfly_sched_round(&b->sched, k, b->dest + (u64)r * b->N,
				       b->proven ? NULL : b->labels);
		if (err)
			return err;
		/* as bfly_batch_queue(): the round's rotation, if it is one */
		b->shift[r] = bfly_msg_rotation(b->dest + (u64)r * b->N, b->N);
		if (!b->proven && bfly_sched_check(&b->g, b->labels, NULL, NULL, b->work))
			return -EBUSY;
		if (++r < b->block_max && k + 1 < b->N)
			continue;
		err = move_block(b, r);
		if (err)
			return err;
		r = 0;
	}
	return 0;
}

/* The plain user-space all-to-all: a blocked transpose of the matrix */
static void a2a_transpose(struct a2a_bench *b)
{
	u32 N = b->N, i0, d0, i, d;
	u64 size = b->size;

	for (i0 = 0; i0 < N; i0 += TRANSPOSE_BLOCK)
		for (d0 = 0; d0 < N; d0 += TRANSPOSE_BLOCK)
			for (i = i0; i < i0 + TRANSPOSE_BLOCK && i < N; i++)
				for (d = d0; d < d0 + TRANSPOSE_BLOCK && d < N; d++)
					memcpy(b->recv + ((u64)d * N + i) * size,
					       b->send + ((u64)i * N + d) * size, size);
}

/*
 * The programs: memcpy; the batch; the kernel's copy of the whole buffer as
 * one message (the ceiling of a copy with cached stores: no scatter, no
 * schedule); the transpose.
 */
enum a2a_prog { A2A_MEMCPY, A2A_BATCH, A2A_WHOLE, A2A_TRANSPOSE, A2A_PROGS };
static const char *const a2a_prog_name[] = { "memcpy", "batch", "msgcopy", "transpose" };

/* One timed call of @p, the receive buffer cleared before and checked after */
static double a2a_time(struct a2a_bench *b, enum a2a_prog p)
{
	struct bfly_msg whole = { .src = b->send, .dst = b->recv };
	double t0, t;
	int err = 0;
	bool ok;

	memset(b->recv, 0, b->bytes);
	t0 = now_ns();
	switch (p) {
	case A2A_MEMCPY:
		memcpy(b->recv, b->send, b->bytes);
		break;
	case A2A_BATCH:
		err = a2a_batch(b);
		break;
	case A2A_WHOLE:
		err = bfly_msg_copy_chunked(&whole, b->bytes, NULL, b->stream);
		bfly_msg_stream_fence(b->stream);
		break;
	default:
		a2a_transpose(b);
		break;
	}
	t = now_ns() - t0;
	if (p == A2A_MEMCPY || p == A2A_WHOLE)
		ok = !err && !memcmp(b->recv, b->send, b->bytes);
	else
		ok = !err && a2a_check(b);
	if (!ok) {
		fprintf(stderr, "N=%u %llu B: program %d moved the payload wrong (err %d)\n",
			b->N, (unsigned long long)b->size, p, err);
		exit(1);
	}
	return t;
}

static void ratio_line(const char *fig, const double *base, const double *prog, int reps,
		       double target)
{
	double r[MAX_REPS], med, lo = 1e30, hi = 0;
	int k;

	for (k = 0; k < reps; k++) {
		r[k] = base[k] / prog[k];
		lo = r[k] < lo ? r[k] : lo;
		hi = r[k] > hi ? r[k] : hi;
	}
	med = bench_median(r, reps);
	printf("ratio: %s | %.2fx | spread %.2fx-%.2fx | target >= %.1fx | %s\n",
	       fig, med, lo, hi, target, med >= target ? "met" : "MISSED");
}

static void a2a_run(u32 n, u64 size, int reps, double target, bool transpose)
{
	struct a2a_bench b = { .N = 1U << n, .size = size };
	double t[A2A_PROGS][MAX_REPS], tt[MAX_REPS];
	int k, j, progs = transpose ? 4 : 3;
	char fig[128];

	b.bytes = (u64)b.N * b.N * size;
	b.g = (struct bfly_geometry) {
		.topology = BFLY_TOPO_BFLY2, .ports_log2 = n, .ports = b.N,
		.node_stages = 2 * n - 1, .nodes_per_stage = b.N / 2,
		.switches = (u64)(2 * n - 1) * (b.N / 2),
	};
	b.stream = bfly_msg_stream(b.bytes);
	b.block_max = bfly_msg_block_rounds(b.N, size, b.stream);
	b.dest = bench_alloc((u64)b.block_max * b.N * sizeof(u32));
	b.shift = bench_alloc(b.block_max * sizeof(u32));
	b.labels = bench_alloc(b.N * sizeof(u64));
	b.work = bench_alloc(bfly_sched_check_workspace_size(&b.g));
	bfly_sched_init(&b.sched, &b.g, BFLY_LATIN_RLS, NULL, NULL);
	b.proven = bfly_sched_proven(&b.sched);
	b.send = bench_alloc_huge(b.bytes);
	b.recv = bench_alloc_huge(b.bytes);
	a2a_fill(&b);

	/* one untimed call of each, then the timed ones, order rotating */
	for (j = 0; j < progs; j++)
		a2a_time(&b, j);
	for (k = 0; k < reps; k++)
		for (j = 0; j < progs; j++) {
			int p = (j + k) % progs;

			t[p][k] = a2a_time(&b, p);
		}
	printf("  N=%-5u %6llu B blocks of %u rounds (%llu KiB), %s stores\n", b.N,
	       (unsigned long long)size, b.block_max,
	       (unsigned long long)(b.block_max * b.N * size >> 10),
	       b.stream ? "streaming" : "cached");
	for (j = 0; j < progs; j++) {
		memcpy(tt, t[j], reps * sizeof(double));
		printf("  N=%-5u %6llu B %-9s median %8.2f GB/s\n", b.N,
		       (unsigned long long)size, a2a_prog_name[j],
		       b.bytes / bench_median(tt, reps));
	}
	for (k = 0; k < reps; k++)
		tt[k] = t[A2A_MEMCPY][k] / t[A2A_WHOLE][k];
	printf("  msgcopy of the whole buffer / memcpy (%s stores, the ceiling): median %.2fx\n",
	       b.stream ? "streaming" : "cached", bench_median(tt, reps));
	if (transpose) {
		snprintf(fig, sizeof(fig), "a2a payload %llu B / blocked transpose, bfly2 rls N=%u",
			 (unsigned long long)size, b.N);
		ratio_line(fig, t[A2A_TRANSPOSE], t[A2A_BATCH], reps, target);
	} else {
		snprintf(fig, sizeof(fig), "a2a payload %llu B / memcpy, bfly2 rls N=%u",
			 (unsigned long long)size, b.N);
		ratio_line(fig, t[A2A_MEMCPY], t[A2A_BATCH], reps, target);
	}
	free(b.send);
	free(b.recv);
	free(b.dest);
	free(b.shift);
	free(b.labels);
	free(b.work);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 7;

	if (reps < 1 || reps > MAX_REPS)
		reps = 7;
	printf("native all-to-all payload, bfly2 rls, %d calls each, alternated\n", reps);
	a2a_run(10, 64, reps, 1.0, true);	/* 64 MiB */
	a2a_run(9, 1024, reps, 0.5, false);	/* 256 MiB */
	a2a_run(8, 4096, reps, 0.8, false);	/* 256 MiB */
	a2a_run(6, 65536, reps, 0.8, false);	/* 256 MiB */
	return 0;
}
