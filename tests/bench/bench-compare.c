// SPDX-License-Identifier: GPL-2.0
/*
 * This tree's algorithms against a base tree's, in one process: Benes
 * routing, the all-to-all schedule (rounds generated and checked) and the
 * payload copies of a batch. compare.sh builds the base tree's files with
 * their global symbols renamed base_*; each repetition times the base call
 * and this tree's call back to back (in alternating order), so a drift of
 * the machine's speed hits both alike. Prints the median time of each and
 * the ratio this/base, and checks the results of every timed call: the
 * two matrices are equal and route the permutation, the two schedules
 * give the same destinations, labels and conflict counts, the two copies
 * the same bytes.
 */
#include "compat.h"
#include "benes.h"
#include "core/msgcopy.h"
#include "schedule.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"
#include "bench-base.h"

#define REPS 41

static int failures;

static void check(bool ok, const char *what)
{
	if (!ok) {
		failures++;
		printf("FAIL: %s\n", what);
	}
}

static struct bfly_geometry geometry(enum bfly_topology t, u32 n)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(t);
	u32 stages = ops->node_stages(n);

	return (struct bfly_geometry) {
		.topology = t, .ports_log2 = n, .ports = 1U << n,
		.node_stages = stages, .nodes_per_stage = 1U << (n - 1),
		.switches = (u64)stages << (n - 1),
	};
}

static void report(const char *what, double *tb, double *tn)
{
	double b = bench_median(tb, REPS), n = bench_median(tn, REPS);

	printf("%-34s %12.0f %12.0f %8.3f\n", what, b, n, n / b);
}

/* Benes routing of random permutations */
static void bench_route(u32 n)
{
	struct bfly_geometry g = geometry(BFLY_TOPO_BENES, n);
	size_t mb = BFLY_MATRIX_BYTES(g.switches);
	u32 *perm = bench_alloc(g.ports * sizeof(u32));
	u32 *out = bench_alloc(g.ports * sizeof(u32));
	unsigned long *mb0 = bench_alloc(mb), *mn = bench_alloc(mb);
	void *wb = bench_alloc(base_bfly_benes_workspace_size(&g));
	void *wn = bench_alloc(bfly_benes_workspace_size(&g));
	double tb[REPS], tn[REPS], t;
	char what[64];
	int r, e1, e2;

	for (r = 0; r < REPS; r++) {
		bench_random_perm(perm, g.ports);
		memset(mb0, 0, mb);
		memset(mn, 0, mb);
		if (r & 1) {
			t = now_ns();
			e2 = bfly_benes_route(&g, perm, mn, wn);
			tn[r] = now_ns() - t;
		}
		t = now_ns();
		e1 = base_bfly_benes_route(&g, perm, mb0, wb);
		tb[r] = now_ns() - t;
		if (!(r & 1)) {
			t = now_ns();
			e2 = bfly_benes_route(&g, perm, mn, wn);
			tn[r] = now_ns() - t;
		}
		check(!e1 && !e2 && !memcmp(mb0, mn, mb), "routing: the same matrix");
		check(!bfly_trace(&g, mn, out) && !memcmp(out, perm, g.ports * sizeof(u32)),
		      "routing: the matrix routes the permutation");
	}
	snprintf(what, sizeof(what), "routing, benes N=2^%u (ns)", n);
	report(what, tb, tn);
	free(perm);
	free(out);
	free(mb0);
	free(mn);
	free(wb);
	free(wn);
}

/* One schedule's N rounds: destinations, labels, conflict check */
static u64 sched_all(bool base, const struct bfly_geometry *g, u32 *dest, u64 *labels,
		     void *work, u64 *sum)
{
	struct bfly_sched s;
	u32 k, f = 0;
	u64 conflicts = 0;
	int c;

	if (base ? base_bfly_sched_init(&s, g, BFLY_LATIN_RLS, NULL, NULL) :
		   bfly_sched_init(&s, g, BFLY_LATIN_RLS, NULL, NULL))
		return ~0ULL;
	for (k = 0; k < g->ports; k++) {
		if (base) {
			base_bfly_sched_round(&s, k, dest, labels);
			c = base_bfly_sched_check(g, labels, NULL, &f, work);
		} else {
			bfly_sched_round(&s, k, dest, labels);
			c = bfly_sched_check(g, labels, NULL, &f, work);
		}
		if (c < 0)
			return ~0ULL;
		conflicts += c;
		*sum = *sum * 31 + dest[k % g->ports] + labels[(k * 7) % g->ports];
	}
	return conflicts;
}

static void bench_sched(enum bfly_topology topo, u32 n, const char *name)
{
	struct bfly_geometry g = geometry(topo, n);
	u32 *dest = bench_alloc(g.ports * sizeof(u32));
	u64 *labels = bench_alloc(g.ports * sizeof(u64));
	void *wb = bench_alloc(base_bfly_sched_check_workspace_size(&g));
	void *wn = bench_alloc(bfly_sched_check_workspace_size(&g));
	double tb[REPS], tn[REPS], t;
	u64 cb, cn, sb, sn;
	char what[64];
	int r;

	for (r = 0; r < REPS; r++) {
		sb = 0;
		sn = 0;
		if (r & 1) {
			t = now_ns();
			cn = sched_all(false, &g, dest, labels, wn, &sn);
			tn[r] = now_ns() - t;
		}
		t = now_ns();
		cb = sched_all(true, &g, dest, labels, wb, &sb);
		tb[r] = now_ns() - t;
		if (!(r & 1)) {
			t = now_ns();
			cn = sched_all(false, &g, dest, labels, wn, &sn);
			tn[r] = now_ns() - t;
		}
		check(cb == cn && cb != ~0ULL && sb == sn,
		      "schedule: the same rounds and conflicts");
	}
	snprintf(what, sizeof(what), "schedule, %s rls N=2^%u (ns)", name, n);
	report(what, tb, tn);
	free(dest);
	free(labels);
	free(wb);
	free(wn);
}

/* The copies of one round, as the batch service makes them */
static void move_round(bool base, u8 *send, u8 *recv, u32 N, u64 size, u32 k)
{
	struct bfly_msg m, ahead;
	u32 i, d, next;

	for (i = 0; i < N; i++) {
		d = (i + k) & (N - 1);
		m.src = send + ((u64)i * N + d) * size;
		m.dst = recv + ((u64)d * N + i) * size;
		next = i + 2;
		if (next < N) {
			ahead.src = send + ((u64)next * N + ((next + k) & (N - 1))) * size;
			ahead.dst = recv + (((next + k) & (N - 1)) * (u64)N + next) * size;
		}
		if (base)
			base_bfly_msg_copy(&m, size, next < N ? &ahead : NULL);
		else
			bfly_msg_copy(&m, size, next < N ? &ahead : NULL);
	}
}

/* Every round's copies; returns the time they took in ns */
static double move_all(bool base, u8 *send, u8 *recv, u32 N, u64 size)
{
	double t = now_ns();
	u32 k;

	for (k = 0; k < N; k++)
		move_round(base, send, recv, N, size, k);
	return now_ns() - t;
}

static void bench_payload(u32 n, u64 size)
{
	u32 N = 1U << n;
	u64 bytes = (u64)N * N * size;
	u8 *send = bench_alloc(bytes), *rb = bench_alloc(bytes), *rn = bench_alloc(bytes);
	double tb[REPS], tn[REPS];
	char what[64];
	u64 i;
	int r;

	for (i = 0; i < bytes; i++)
		send[i] = (u8)(i * 131 + (i >> 9));
	for (r = 0; r < REPS; r++) {
		memset(rb, 0, bytes);
		memset(rn, 0, bytes);
		if (r & 1)
			tn[r] = move_all(false, send, rn, N, size);
		tb[r] = move_all(true, send, rb, N, size);
		if (!(r & 1))
			tn[r] = move_all(false, send, rn, N, size);
		check(!memcmp(rb, rn, bytes), "payload: the same receive buffers");
		check(!memcmp(rn + size, send + (u64)N * size, size),
		      "payload: the message from 1 to 0 in its slot");
	}
	snprintf(what, sizeof(what), "payload, N=2^%u, %llu B (ns)", n,
		 (unsigned long long)size);
	report(what, tb, tn);
	free(send);
	free(rb);
	free(rn);
}

int main(void)
{
	printf("this tree vs the base, alternated call by call, median of %d\n", REPS);
	printf("%-34s %12s %12s %8s\n", "benchmark", "base", "this", "this/base");
	bench_route(10);
	bench_route(14);
	bench_sched(BFLY_TOPO_BFLY2, 10, "bfly2");
	bench_sched(BFLY_TOPO_BUTTERFLY, 10, "butterfly");
	bench_payload(8, 64);
	bench_payload(8, 1024);
	printf("%d failed checks\n", failures);
	return failures ? 1 : 0;
}
