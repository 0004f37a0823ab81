// SPDX-License-Identifier: GPL-2.0
/*
 * One network cycle of on-line routing on a CB-LCAN (lcan_cycles.c)
 * against one butterfly self-routing pass (selfroute.c) over the same N,
 * alternated call by call: for CB-LCAN(2,2) and CB-LCAN(4,4) at N = 2^16,
 * the median time per call of routing a random permutation, and the
 * median and range of the ratios taken call by call; the target is 3x at
 * most. The LCAN's call is bfly_lcan_msgset_route() with max_cycles 1: it
 * also counts the channel loads and ceil(lambda(M)) before its cycle.
 * Then, for a few random permutations, the network cycles a whole
 * permutation takes, on-line and off-line, next to ceil(lambda(M)),
 * Theorem 3's lower bound.
 *
 * Every call is checked outside the timed region. The butterfly: each
 * packet is delivered where the setting it produced traces, and its
 * conflicts start at the stage the conflict-window test gives. The LCAN:
 * the messages marked routed are those of a cycle below the cycles used,
 * each cycle routes one at least, and a cycle's paths, rebuilt from the
 * choices (bfly_lcan_pair_path()), use no wire twice, no source or
 * destination twice, make a setting a switch can hold and trace each
 * source to its destination; lambda(M) and its ceiling are counted again
 * here, group by group.
 *
 *   bench-lcan [reps]
 */
#include "compat.h"
#include "lcan.h"
#include "selfroute.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"

#define BENCH_MAX_REPS 101
/* Permutations routed to the end, per network */
#define BENCH_WHOLE_PERMS 3
/* The target: an LCAN cycle costs 3 butterfly passes at most */
#define BENCH_TARGET 3.0

struct bench_lcan {
	struct bfly_lcan g;
	struct bfly_lcan_msgset ms;
	u32 *src;
	u32 *cycle;
	u32 *choices;
	void *work;
	unsigned long *wires;	/* connectors' outgoing wires, one cycle */
	unsigned long *sent;
	unsigned long *recv;
	u8 *set;
	u32 *load;		/* bundles up, bundles down, PEs' wires out, in */
	int bad;
};

/* Butterfly: route @perm, check what it delivers and where it conflicts. */
static double route_bfly(const struct bfly_geometry *geo, const u32 *perm, unsigned long *m,
			 u32 *del, u32 *back, unsigned long *seen, void *work, int *bad)
{
	struct bfly_conflicts c = { 0 };
	double t0 = now_ns(), t;
	int err;

	err = bfly_selfroute_dest(geo, perm, m, del, &c, work);
	t = now_ns() - t0;
	*bad += err != 0;
	bfly_trace(geo, m, back);
	*bad += !!memcmp(del, back, geo->ports * sizeof(u32));
	*bad += c.first_stage != bfly_window_first_conflict(geo, perm, seen);
	*bad += !c.count != (c.first_stage == BFLY_NO_CONFLICT);
	return t;
}

/*
 * ceil(lambda(M)) of the set, counted here: the load of each processor's
 * wire each way, and of each group's bundle up and down below the pair's
 * LCA level, over its capacity (u^(i+1) wires at level i).
 */
static u32 bench_bound(struct bench_lcan *b, u32 *lam_load, u32 *lam_cap)
{
	const struct bfly_lcan *g = &b->g;
	u32 N = g->ports, *up = b->load, *down = up + N, *out = down + N, *in = out + N;
	u32 m, i, j, n, off, cap, ld;

	memset(b->load, 0, 4 * (size_t)N * sizeof(u32));
	for (m = 0; m < b->ms.count; m++) {
		u32 ga = b->ms.src[m] / g->d, gb = b->ms.dst[m] / g->d;

		out[b->ms.src[m]]++;
		in[b->ms.dst[m]]++;
		for (off = 0, n = N / g->d; ga != gb; off += n, n /= g->d) {
			up[off + ga]++;
			down[off + gb]++;
			ga /= g->d;
			gb /= g->d;
		}
	}
	*lam_load = 0;
	*lam_cap = 1;
	for (i = 0; i < N; i++)
		*lam_load = max_t(u32, *lam_load, max_t(u32, out[i], in[i]));
	/* level i's N / d^(i+1) groups, one bundle each way */
	off = 0;
	n = N / g->d;
	for (i = 0, cap = g->u; i + 1 < g->levels; i++, cap *= g->u) {
		for (j = 0; j < n; j++) {
			ld = max_t(u32, up[off + j], down[off + j]);
			if ((u64)ld * *lam_cap > (u64)*lam_load * cap) {
				*lam_load = ld;
				*lam_cap = cap;
			}
		}
		off += n;
		n /= g->d;
	}
	return (*lam_load + *lam_cap - 1) / *lam_cap;
}

/* The paths of cycle @c: one wire, source, destination each; their trace. */
static int check_cycle(struct bench_lcan *b, u32 c)
{
	const struct bfly_lcan *g = &b->g;
	const struct bfly_lcan_msgset *ms = &b->ms;
	struct bfly_lcan_trace_end end;
	struct bfly_lcan_path path;
	u32 m, h, n = 0, l = g->levels;
	const char *why;
	int bad = 0;
	u64 e;

	bitmap_zero(b->wires, bfly_lcan_settings_size(g));
	bitmap_zero(b->sent, g->ports);
	bitmap_zero(b->recv, g->ports);
	memset(b->set, BFLY_KFLY_UNSET, bfly_lcan_settings_size(g));
	for (m = 0; m < ms->count; m++) {
		const u32 *ch = b->choices + (u64)m * 2 * l;

		if (ms->cycle[m] != c)
			continue;
		n++;
		bad += __test_and_set_bit(ms->src[m], b->sent);
		bad += __test_and_set_bit(ms->dst[m], b->recv);
		if (bfly_lcan_pair_path(g, ms->src[m], ms->dst[m], ch, ch + l, &path)) {
			bad++;
			continue;
		}
		for (h = 0; h < path.count; h++) {
			const struct bfly_lcan_hop *x = &path.hops[h];

			e = bfly_lcan_entry(g, x->level, x->sw, x->out);
			bad += __test_and_set_bit(e, b->wires);
		}
		bfly_lcan_path_apply(g, &path, b->set);
	}
	bad += !n;
	if (bfly_lcan_settings_check(g, b->set, &e, &why))
		return bad + 1;
	for (m = 0; m < ms->count; m++) {
		if (ms->cycle[m] != c)
			continue;
		bfly_lcan_trace(g, b->set, ms->src[m], &end);
		bad += end.end != BFLY_LCAN_END_PE || end.index != ms->dst[m];
	}
	return bad;
}

/* Check a routed set: cycles, counts, bound, and every cycle's paths. */
static int check_msgset(struct bench_lcan *b)
{
	const struct bfly_lcan_msgset *ms = &b->ms;
	u32 m, c, routed = 0, lam_load, lam_cap, bound;
	int bad = 0;

	for (m = 0; m < ms->count; m++) {
		if (ms->cycle[m] == U32_MAX)
			continue;
		routed++;
		bad += ms->cycle[m] >= ms->cycles;
	}
	bad += routed != ms->routed || !routed;
	bad += ms->max_cycles ? ms->cycles > ms->max_cycles : routed != ms->count;
	bound = bench_bound(b, &lam_load, &lam_cap);
	bad += ms->bound != bound;
	bad += (u64)ms->lambda_load * lam_cap != (u64)lam_load * ms->lambda_cap;
	bad += routed == ms->count && ms->cycles < ms->bound;
	for (c = 0; c < ms->cycles; c++)
		bad += check_cycle(b, c);
	return bad;
}

/* Route @perm in network cycles (@max_cycles, 0 for all); ns; checked. */
static double route_lcan(struct bench_lcan *b, const u32 *perm, u32 strategy, u32 max_cycles)
{
	double t0, t;
	const char *why;
	u32 at;
	int err;

	b->ms.dst = perm;
	b->ms.strategy = strategy;
	b->ms.max_cycles = max_cycles;
	b->ms.seed = bench_rnd();
	if (bfly_lcan_msgset_check(&b->g, &b->ms, &at, &why)) {
		fprintf(stderr, "bench-lcan: message %u: %s\n", at, why);
		exit(2);
	}
	t0 = now_ns();
	err = bfly_lcan_msgset_route(&b->g, &b->ms, b->work);
	t = now_ns() - t0;
	b->bad += err != 0;
	b->bad += check_msgset(b);
	return t;
}

static void bench_lcan_alloc(struct bench_lcan *b, u32 d, u32 u, u32 N)
{
	const char *why;
	u32 i;

	memset(b, 0, sizeof(*b));
	if (bfly_lcan_init(&b->g, BFLY_LCAN_CB, d, u, N, &why)) {
		fprintf(stderr, "bench-lcan: CB-LCAN(%u,%u): %s\n", d, u, why);
		exit(2);
	}
	b->src = bench_alloc(N * sizeof(u32));
	for (i = 0; i < N; i++)
		b->src[i] = i;
	b->cycle = bench_alloc(N * sizeof(u32));
	b->choices = bench_alloc((size_t)N * 2 * b->g.levels * sizeof(u32));
	b->work = bench_alloc_huge(bfly_lcan_msgset_workspace_size(&b->g, N));
	b->wires = bench_alloc(BITS_TO_LONGS(bfly_lcan_settings_size(&b->g)) *
			       sizeof(unsigned long));
	b->sent = bench_alloc(BITS_TO_LONGS(N) * sizeof(unsigned long));
	b->recv = bench_alloc(BITS_TO_LONGS(N) * sizeof(unsigned long));
	b->set = bench_alloc(bfly_lcan_settings_size(&b->g));
	b->load = bench_alloc(4 * (size_t)N * sizeof(u32));
	b->ms = (struct bfly_lcan_msgset) {
		.src = b->src, .count = N, .mode = BFLY_LCAN_BIDIR,
		.cycle = b->cycle, .choices = b->choices,
	};
}

static void bench_lcan_free(struct bench_lcan *b)
{
	free(b->src);
	free(b->cycle);
	free(b->choices);
	free(b->work);
	free(b->wires);
	free(b->sent);
	free(b->recv);
	free(b->set);
	free(b->load);
}

/* The target's verdict on a median ratio. */
static const char *bench_verdict(double med)
{
	if (med <= BENCH_TARGET)
		return "<= 3x";
	return "MISSED";
}

int main(int argc, char **argv)
{
	static const u32 cases[][3] = {
		/* d, u, log2 N */
		{ 2, 2, 16 }, { 4, 4, 16 },
	};
	int reps = argc > 1 ? atoi(argv[1]) : 21, bad = 0, r, p;
	double tb[BENCH_MAX_REPS], tl[BENCH_MAX_REPS], ratio[BENCH_MAX_REPS];
	double routed[BENCH_MAX_REPS];
	u32 c, whole[ARRAY_SIZE(cases)][BENCH_WHOLE_PERMS][3];
	struct bfly_geometry geo;
	struct bench_lcan b;
	const char *why;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 21;
	printf("one network cycle of on-line routing (CB-LCAN, bi-directional) against\n");
	printf("one butterfly self-routing pass, a random permutation of N\n");
	printf("ns per call, median of %d, alternated call by call; ratio: median (min .. max)\n",
	       reps);
	printf("%-6s %-13s %12s %12s %7s %17s %7s %8s\n", "N", "network", "butterfly",
	       "lcan cycle", "ratio", "(min .. max)", "target", "routed");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		u32 N = 1U << cases[c][2];
		u32 *perm = bench_alloc(N * sizeof(u32)), *del = bench_alloc(N * sizeof(u32));
		u32 *back = bench_alloc(N * sizeof(u32));
		unsigned long *m, *seen;
		double med;
		char name[32];
		void *bw;

		if (bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, N, &why)) {
			fprintf(stderr, "bench-lcan: %s\n", why);
			return 2;
		}
		bench_lcan_alloc(&b, cases[c][0], cases[c][1], N);
		m = bench_alloc(bfly_matrix_bytes(&geo));
		seen = bench_alloc(BITS_TO_LONGS(N) * sizeof(unsigned long));
		bw = bench_alloc(bfly_selfroute_workspace_size(&geo));
		for (r = 0; r < reps; r++) {
			bench_random_perm(perm, N);
			tb[r] = route_bfly(&geo, perm, m, del, back, seen, bw, &bad);
			tl[r] = route_lcan(&b, perm, BFLY_LCAN_ONLINE, 1);
			ratio[r] = tl[r] / tb[r];
			routed[r] = b.ms.routed;
		}
		med = bench_median(ratio, reps);
		snprintf(name, sizeof(name), "CB-LCAN(%u,%u)", cases[c][0], cases[c][1]);
		printf("2^%-4u %-13s %12.0f %12.0f %7.2f (%6.2f .. %6.2f) %7s %8.0f\n",
		       cases[c][2], name, bench_median(tb, reps), bench_median(tl, reps), med,
		       ratio[0], ratio[reps - 1], bench_verdict(med), bench_median(routed, reps));

		/* whole permutations: on-line, then off-line, the same set */
		for (p = 0; p < BENCH_WHOLE_PERMS; p++) {
			bench_random_perm(perm, N);
			route_lcan(&b, perm, BFLY_LCAN_ONLINE, 0);
			whole[c][p][0] = b.ms.bound;
			whole[c][p][1] = b.ms.cycles;
			route_lcan(&b, perm, BFLY_LCAN_OFFLINE, 0);
			whole[c][p][2] = b.ms.cycles;
			bad += b.ms.bound != whole[c][p][0];
		}
		bad += b.bad;
		bench_lcan_free(&b);
		free(perm);
		free(del);
		free(back);
		free(m);
		free(seen);
		free(bw);
	}
	printf("(routed: the median of the messages, of N, one cycle routed)\n\n");
	printf("network cycles to route a whole random permutation\n");
	printf("%-6s %-13s %5s %13s %8s %9s\n", "N", "network", "perm", "ceil(lambda)",
	       "on-line", "off-line");
	for (c = 0; c < ARRAY_SIZE(cases); c++)
		for (p = 0; p < BENCH_WHOLE_PERMS; p++)
			printf("2^%-4u CB-LCAN(%u,%u)  %5d %13u %8u %9u\n", cases[c][2],
			       cases[c][0], cases[c][1], p, whole[c][p][0], whole[c][p][1],
			       whole[c][p][2]);
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
