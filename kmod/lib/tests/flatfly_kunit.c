// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the flattened butterfly (flatfly.c). Its channels; the RLS
 * rounds mapped onto the 2-ary 4-flat (N = 16) as the RLS paper does,
 * which deliver every packet but load some channel twice in every round;
 * and the exhaustive search that finds a routing loading no channel twice
 * for rounds 0, 1 and 15 only.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/slab.h>

#include <linux/prandom.h>

#include "lib/flatfly.h"
#include "lib/geometry.h"
#include "lib/rls.h"
#include "lib/topology.h"
#include "lib/wiring.h"
#include "kunit_util.h"

/* Shapes refused, and the channels of good ones: each router's neighbours. */
static void bfly_flatfly_shapes(struct kunit *test)
{
	static const u32 shapes[][2] = { { 2, 16 }, { 3, 27 }, { 4, 64 }, { 2, 1024 } };
	struct bfly_flatfly f;
	u32 t, r, s, ch, bad;
	const char *why;
	u8 *seen;

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_init(&f, 4, 4, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_init(&f, 2, 12, &why));
	seen = bfly_test_alloc(test, 512 * 9);
	for (t = 0; t < ARRAY_SIZE(shapes); t++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, shapes[t][0], shapes[t][1], &why));
		KUNIT_EXPECT_EQ(test, shapes[t][1] / shapes[t][0], f.routers);
		memset(seen, 0, f.channels);
		bad = 0;
		for (r = 0; r < f.routers; r++)
			for (s = 0; s < f.routers; s++) {
				ch = bfly_flatfly_channel(&f, r, s);
				if (bfly_flatfly_distance(&f, r, s) != 1) {
					bad += ch != U32_MAX;
					continue;
				}
				bad += ch >= f.channels || seen[ch]++;
			}
		for (ch = 0; ch < f.channels; ch++)
			bad += seen[ch] != 1;
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", f.fly.k, f.fly.ports);
	}
}

/*
 * The RLS paper's mapping on the 2-ary 4-flat: every round delivers each
 * packet to (i - k) mod 16 in 48 channel hops, twice the 24 a minimal
 * routing of the whole exchange averages, and loads some channel with 2
 * packets (round 0 too: its packets leave their router and come back).
 */
static void bfly_flatfly_rls_mapping(struct kunit *test)
{
	struct bfly_flatfly f;
	u32 k, i, hops, most, bad = 0;
	const char *why;
	u32 *load, *del;
	u64 *labels;

	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 16, &why));
	labels = bfly_test_alloc(test, 16 * sizeof(u64));
	load = bfly_test_alloc(test, f.channels * sizeof(u32));
	del = bfly_test_alloc(test, 16 * sizeof(u32));
	for (k = 0; k < 16; k++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_rls_round(&f, k, labels, load, &hops, del));
		for (i = 0, most = 0; i < f.channels; i++)
			most = max(most, load[i]);
		for (i = 0; i < 16; i++)
			bad += del[i] != ((i - k) & 15);
		KUNIT_EXPECT_EQ_MSG(test, 48, hops, "round %u", k);
		KUNIT_EXPECT_EQ_MSG(test, 2, most, "round %u", k);
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
}

/*
 * The packet from @src walked through bfly2 by @label, edge stage by edge
 * stage (wiring.c): each edge stage that moves it to another row adds one
 * to the load of the channel between the two rows' routers. Return: the
 * terminal it reaches.
 */
static u32 bfly_ff_walk_bfly2(const struct bfly_flatfly *f, const struct bfly_geometry *geo,
			      const s32 *flips, u32 src, u64 label, u32 *load, u32 *hops)
{
	u32 s, p = src, q, stages = geo->node_stages;

	for (s = 0; s < stages; s++) {
		p = (p & ~1U) | ((label >> (stages - 1 - s)) & 1);
		if (s + 1 == stages)
			break;
		q = bfly_wiring_apply(flips[s], p);
		if (q >> 1 != p >> 1) {
			load[bfly_flatfly_channel(f, p >> 1, q >> 1)]++;
			(*hops)++;
		}
		p = q;
	}
	return p;
}

/*
 * The mapping's two dimension-order walks (through router label >> n) are
 * the bfly2 walk: every RLS round's channel loads and deliveries for
 * N = 2^2 .. 2^8 (2^10 natively), and random labels' hops and loads.
 */
static void bfly_flatfly_mapped_walks(struct kunit *test)
{
	u32 n, k, i, c, hops, want_hops, top, extra, bad, *load, *want, *del, *dest;
	struct bfly_flatfly_round_stats st;
	s32 flips[2 * BFLY_MAX_PORTS_LOG2];
	struct bfly_geometry geo;
	struct rnd_state rnd;
	struct bfly_flatfly f;
	const char *why;
	u64 *labels;
	void *work;

	prandom_seed_state(&rnd, 18);
	for (n = 2; n <= (BFLY_TEST_LARGE ? 10 : 8); n++) {
		u32 N = 1U << n;

		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, N, &why));
		KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, 2, N, &why));
		bfly_wiring_flips(&geo, flips);
		labels = bfly_test_alloc(test, N * sizeof(u64));
		load = bfly_test_alloc(test, f.channels * sizeof(u32));
		want = bfly_test_alloc(test, f.channels * sizeof(u32));
		del = bfly_test_alloc(test, N * sizeof(u32));
		dest = bfly_test_alloc(test, N * sizeof(u32));
		work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
		bad = 0;
		for (k = 0; k < N; k++) {
			int err = bfly_flatfly_rls_round(&f, k, labels, load, &hops, del);

			KUNIT_ASSERT_EQ(test, 0, err);
			memset(want, 0, f.channels * sizeof(u32));
			want_hops = 0;
			for (i = 0; i < N; i++)
				bad += del[i] != bfly_ff_walk_bfly2(&f, &geo, flips, i, labels[i],
								    want, &want_hops);
			bad += hops != want_hops ||
			       memcmp(load, want, f.channels * sizeof(u32));
		}
		for (k = 0; k < 64; k++) {
			memset(want, 0, f.channels * sizeof(u32));
			want_hops = 0;
			for (i = 0; i < N; i++) {
				labels[i] = prandom_u32_state(&rnd) & ((1U << geo.node_stages) - 1);
				dest[i] = bfly_ff_walk_bfly2(&f, &geo, flips, i, labels[i], want,
							     &want_hops);
			}
			for (c = 0, top = 0, extra = 0; c < f.channels; c++) {
				top = max(top, want[c]);
				extra += want[c] > 1 ? want[c] - 1 : 0;
			}
			KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_round(&f, dest, labels, &st, work));
			bad += st.hops != want_hops || st.max_load != top || st.excess != extra;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N = %u", N);
	}
}

/*
 * Every RLS round's permutation on the 2-ary 4-flat, searched exhaustively:
 * a routing that loads no directed channel twice exists for rounds 0, 1
 * and 15 only. In rounds 2, 3, 5, 6, 7, 9, 10, 11, 13 and 14 the minimal
 * hops alone pass the 24 channels; rounds 4, 8 and 12 fail by search.
 */
static void bfly_flatfly_rls_disjoint(struct kunit *test)
{
	u32 k, i, steps, minimal, ch_used, perm[16];
	struct bfly_flatfly f;
	const char *why;
	int want, got;
	u8 *used;

	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 16, &why));
	used = bfly_test_alloc(test, f.channels);
	for (k = 0; k < 16; k++) {
		for (i = 0, minimal = 0; i < 16; i++) {
			perm[i] = (i - k) & 15;
			minimal += bfly_flatfly_distance(&f, i / 2, perm[i] / 2);
		}
		memset(used, 0, f.channels);
		got = bfly_flatfly_disjoint(&f, perm, 1000000, used, &steps);
		want = k == 0 || k == 1 || k == 15;
		KUNIT_EXPECT_EQ_MSG(test, want, got, "round %u (%u minimal hops, %u steps)", k,
				    minimal, steps);
		if (got == 1) {
			for (i = 0, ch_used = 0; i < f.channels; i++)
				ch_used += used[i];
			KUNIT_EXPECT_LE(test, minimal, ch_used);
		} else {
			KUNIT_EXPECT_EQ(test, minimal > f.channels,
					k != 4 && k != 8 && k != 12);
		}
	}
	/* too large to search */
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 64, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_disjoint(&f, perm, 1, used, &steps));
}

/* One round's figures, with the checks every round must pass. */
static void bfly_flatfly_round_check(struct kunit *test, const struct bfly_flatfly *f,
				     const u32 *dest, const u64 *labels,
				     struct bfly_flatfly_round_stats *st, void *work)
{
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_round(f, dest, labels, st, work));
	if (!st->hops)
		return;
	/* A channel carries one packet a cycle; a packet one hop a cycle. */
	KUNIT_EXPECT_GE(test, st->cycles, st->max_load + 2);
	KUNIT_EXPECT_LE(test, st->cycles, st->hops + 2);
}

/*
 * Rounds of the exchange on the 2-ary 4-flat as the paper maps them and
 * by minimal dimension-order routes: figures of each round, the whole
 * exchange against its bound, and a case worked by hand on the 4-ary
 * 2-flat (4 routers in a complete graph).
 */
static void bfly_flatfly_rounds(struct kunit *test)
{
	struct bfly_flatfly_round_stats st;
	u32 k, i, dest[16], mapped = 0, minimal = 0, hops = 0;
	struct bfly_flatfly f;
	const char *why;
	u64 labels[16];
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 16, &why));
	KUNIT_EXPECT_EQ(test, 19, bfly_flatfly_exchange_bound(&f));
	work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
	for (k = 0; k < 16; k++) {
		for (i = 0; i < 16; i++)
			dest[i] = (i - k) & 15;
		KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_round(16, k, labels));
		bfly_flatfly_round_check(test, &f, dest, labels, &st, work);
		KUNIT_EXPECT_EQ_MSG(test, 48, st.hops, "round %u", k);
		KUNIT_EXPECT_EQ_MSG(test, 2, st.max_load, "round %u", k);
		mapped += st.cycles;
		bfly_flatfly_round_check(test, &f, dest, NULL, &st, work);
		KUNIT_EXPECT_EQ_MSG(test, k ? st.cycles > 0 : !st.cycles, true, "round %u", k);
		KUNIT_EXPECT_EQ_MSG(test, !k ? 0 : k == 1 || k == 15 ? 1 : 2, st.max_load,
				    "round %u", k);
		minimal += st.cycles;
		hops += st.hops;
	}
	KUNIT_EXPECT_EQ(test, 384, hops);
	kunit_info(test, "N = 16: RLS rounds as mapped %u cycles, minimal %u, bound 19\n",
		   mapped, minimal);
	KUNIT_EXPECT_GT(test, minimal, 19);
	KUNIT_EXPECT_GT(test, mapped, minimal);

	/* Labels that do not deliver their round are refused. */
	KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_round(16, 3, labels));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_round(&f, dest, labels, &st, work));

	/* 4-ary 2-flat: every terminal of router r to router r + 1. */
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 4, 16, &why));
	work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
	for (i = 0; i < 16; i++)
		dest[i] = (i + 4) & 15;
	bfly_flatfly_round_check(test, &f, dest, NULL, &st, work);
	KUNIT_EXPECT_EQ(test, 4, st.max_load);
	KUNIT_EXPECT_EQ(test, 3 * 4, st.excess);
	KUNIT_EXPECT_EQ(test, 16, st.hops);
	KUNIT_EXPECT_EQ(test, 6, st.cycles);
	/*
	 * k terminals of each router to the next one, one channel each: k hop
	 * cycles, counted packet by packet for k = 16 and by the cycle-by-cycle
	 * run past 63 cycles, k = 64.
	 */
	for (i = 0; i < 2; i++) {
		u32 k = i ? 64 : 16, t, *to;

		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, k, k * k, &why));
		work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
		to = bfly_test_alloc(test, k * k * sizeof(u32));
		for (t = 0; t < k * k; t++)
			to[t] = (t + k) % (k * k);
		bfly_flatfly_round_check(test, &f, to, NULL, &st, work);
		KUNIT_EXPECT_EQ(test, k, st.max_load);
		KUNIT_EXPECT_EQ(test, k + 2, st.cycles);
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 4, 16, &why));
	work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));

	/* Within the routers only: injection and ejection. */
	for (i = 0; i < 16; i++)
		dest[i] = i ^ 1;
	bfly_flatfly_round_check(test, &f, dest, NULL, &st, work);
	KUNIT_EXPECT_EQ(test, 0, st.hops);
	KUNIT_EXPECT_EQ(test, 2, st.cycles);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_round(&f, dest, labels, &st, work));
}

/*
 * A partial round: idle terminals send nothing. None sending takes no
 * cycle; one packet alone takes its minimal hops and two cycles more (in
 * and out), as the full round's other packets are simply left out.
 */
static void bfly_flatfly_partial_round(struct kunit *test)
{
	static const u32 shapes[][2] = { { 2, 16 }, { 4, 64 }, { 3, 27 } };
	struct bfly_flatfly_round_stats st;
	struct bfly_flatfly f;
	const char *why;
	u32 s, i, *dest;
	void *work;

	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, shapes[s][0], shapes[s][1], &why));
		dest = bfly_test_alloc(test, f.fly.ports * sizeof(u32));
		work = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
		for (i = 0; i < f.fly.ports; i++)
			dest[i] = BFLY_FLATFLY_IDLE;
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_round(&f, dest, NULL, &st, work));
		KUNIT_EXPECT_EQ(test, 0U, st.cycles);
		KUNIT_EXPECT_EQ(test, 0U, st.hops);
		dest[1] = f.fly.ports - 1;
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_round(&f, dest, NULL, &st, work));
		i = bfly_flatfly_distance(&f, bfly_flatfly_router(&f, 1),
					  bfly_flatfly_router(&f, f.fly.ports - 1));
		KUNIT_EXPECT_EQ(test, i, st.hops);
		KUNIT_EXPECT_EQ(test, i + 2, st.cycles);
		KUNIT_EXPECT_EQ(test, 1U, st.max_load);
		KUNIT_EXPECT_EQ(test, 0U, st.excess);
		dest[2] = f.fly.ports;
		KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_round(&f, dest, NULL, &st, work));
	}
}

static struct kunit_case bfly_flatfly_cases[] = {
	KUNIT_CASE(bfly_flatfly_shapes),
	KUNIT_CASE(bfly_flatfly_rls_mapping),
	KUNIT_CASE_SLOW(bfly_flatfly_mapped_walks),
	KUNIT_CASE(bfly_flatfly_rls_disjoint),
	KUNIT_CASE(bfly_flatfly_rounds),
	KUNIT_CASE(bfly_flatfly_partial_round),
	{}
};

static struct kunit_suite bfly_flatfly_suite = {
	.name = "bfly_flatfly",
	.test_cases = bfly_flatfly_cases,
};

kunit_test_suite(bfly_flatfly_suite);
