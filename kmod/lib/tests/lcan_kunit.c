// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: least common ancestor networks (lcan.c, lcan_cycles.c). Theorem
 * 1's bound and the shapes it and Corollaries 1 and 2 allow; the wiring
 * (every upper reaches one downer, and back); Lemmas 1 to 3 and Theorem 2
 * counted by search for every pair of small networks; pair paths traced
 * through a setting for every up-choice; settings refused; and message
 * sets routed in network cycles with no wire shared within a cycle, the
 * identity in one cycle, never fewer cycles than ceil(lambda(M)); the same
 * rules on random pairs and sets of CB-LCAN(4,4) N = 4096 and T-LCAN(4,2)
 * N = 1024.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/lcan.h"
#include "kunit_util.h"

/* Small networks the exhaustive cases sweep: kind, d, u, N. */
static const u32 bfly_lcan_small[][4] = {
	{ BFLY_LCAN_CB, 2, 2, 2 }, { BFLY_LCAN_CB, 2, 2, 8 }, { BFLY_LCAN_CB, 2, 2, 16 },
	{ BFLY_LCAN_CB, 3, 2, 9 }, { BFLY_LCAN_CB, 3, 2, 27 }, { BFLY_LCAN_CB, 2, 3, 8 },
	{ BFLY_LCAN_CB, 3, 3, 27 }, { BFLY_LCAN_CB, 4, 1, 16 }, { BFLY_LCAN_CB, 4, 4, 16 },
	{ BFLY_LCAN_TREE, 4, 2, 16 }, { BFLY_LCAN_TREE, 6, 2, 18 }, { BFLY_LCAN_TREE, 4, 1, 16 },
	{ BFLY_LCAN_TREE, 6, 3, 24 }, { BFLY_LCAN_FATTREE, 2, 2, 16 },
	{ BFLY_LCAN_FATTREE, 3, 2, 27 }, { BFLY_LCAN_FATTREE, 2, 1, 8 },
};

static void bfly_lcan_small_init(struct kunit *test, struct bfly_lcan *g, u32 i)
{
	const u32 *s = bfly_lcan_small[i];
	const char *why = NULL;

	KUNIT_ASSERT_EQ_MSG(test, 0, bfly_lcan_init(g, s[0], s[1], s[2], s[3], &why),
			    "kind %u d %u u %u N %u: %s", s[0], s[1], s[2], s[3], why);
}

/* Theorem 1's bound, and the shapes refused with a reason. */
static void bfly_lcan_shapes(struct kunit *test)
{
	static const u32 bad[][4] = {
		{ BFLY_LCAN_CB, 2, 2, 12 }, { BFLY_LCAN_CB, 1, 1, 1 }, { BFLY_LCAN_CB, 65, 2, 65 },
		{ BFLY_LCAN_CB, 2, 0, 8 }, { BFLY_LCAN_CB, 2, 65, 8 }, { BFLY_LCAN_CB, 2, 2, 1 },
		{ BFLY_LCAN_CB, 2, 2, 1U << 21 }, { BFLY_LCAN_CB, 2, 64, 1U << 20 },
		{ BFLY_LCAN_TREE, 4, 3, 12 }, { BFLY_LCAN_TREE, 2, 2, 8 },
		{ BFLY_LCAN_TREE, 2, 4, 8 }, { BFLY_LCAN_TREE, 4, 2, 12 },
		{ BFLY_LCAN_TREE, 4, 2, 2 },
		{ BFLY_LCAN_FATTREE, 2, 2, 12 }, { BFLY_LCAN_FATTREE, 2, 64, 1U << 20 },
		{ 7, 2, 2, 8 },
	};
	struct bfly_lcan g;
	const char *why;
	u32 i, l;

	/* d = u, or u holding every prime of d as often: no bound */
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_theorem1(2, 2, 1024));
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_theorem1(2, 4, 64));
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_theorem1(6, 12, 36));
	/* S_i = 27/3 (2/3)^i: whole up to i = 2 */
	KUNIT_EXPECT_EQ(test, 3, bfly_lcan_theorem1(3, 2, 27));
	/* S_i = 64/4 (2/4)^i: whole up to i = 4 */
	KUNIT_EXPECT_EQ(test, 5, bfly_lcan_theorem1(4, 2, 64));
	KUNIT_EXPECT_EQ(test, 1, bfly_lcan_theorem1(4, 1, 4));
	KUNIT_EXPECT_EQ(test, -1, bfly_lcan_theorem1(4, 2, 6));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    bfly_lcan_init(&g, bad[i][0], bad[i][1], bad[i][2], bad[i][3],
						   &why), "case %u", i);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
	/* Corollaries 1 and 2, Equation 1, and Theorem 1's l <= a */
	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		int a;

		bfly_lcan_small_init(test, &g, i);
		a = bfly_lcan_theorem1(g.d, g.u, g.ports);
		if (g.kind == BFLY_LCAN_TREE) {
			u64 n = g.u;

			for (l = 0; l < g.levels; l++)
				n *= g.d / g.u;
			KUNIT_EXPECT_EQ(test, n, (u64)g.ports);
			KUNIT_EXPECT_EQ(test, 1U, g.switches[g.levels - 1]);
		} else {
			u64 n = 1;

			for (l = 0; l < g.levels; l++)
				n *= g.d;
			KUNIT_EXPECT_EQ(test, n, (u64)g.ports);
		}
		if (g.kind != BFLY_LCAN_FATTREE) {
			KUNIT_EXPECT_TRUE(test, a == 0 || g.levels <= (u32)a);
			KUNIT_EXPECT_EQ(test, g.ports / g.d, g.switches[0]);
			for (l = 0; l + 1 < g.levels; l++)
				KUNIT_EXPECT_EQ(test, (u64)g.switches[l] * g.u,
						(u64)g.switches[l + 1] * g.d);
		}
		/* every upper below the top meets one downer above */
		for (l = 0; l + 1 < g.levels; l++)
			KUNIT_EXPECT_EQ(test, (u64)g.switches[l] * g.up[l],
					(u64)g.switches[l + 1] * g.down[l + 1]);
	}
	/* the CM-5's CB-LCAN(4,4) at 2^20 PEs fits */
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_CB, 4, 4, 1U << 20, &why));
	KUNIT_EXPECT_EQ(test, 10U, g.levels);
}

/* Level @l's uppers: each reaches one downer above, and that downer leads back. */
static void bfly_lcan_wiring_level(struct kunit *test, const struct bfly_lcan *g, u32 l)
{
	u32 above = g->switches[l + 1] * g->down[l + 1], sw, k;
	unsigned long *hit;

	hit = bfly_test_alloc(test, BITS_TO_LONGS(above) * sizeof(long));
	for (sw = 0; sw < g->switches[l]; sw++)
		for (k = 0; k < g->up[l]; k++) {
			u32 to, j, back, upper;

			bfly_lcan_up(g, l, sw, k, &to, &j);
			KUNIT_ASSERT_LT(test, to, g->switches[l + 1]);
			KUNIT_ASSERT_LT(test, j, g->down[l + 1]);
			KUNIT_EXPECT_FALSE(test, __test_and_set_bit(to * g->down[l + 1] + j, hit));
			bfly_lcan_down(g, l + 1, to, j, &back, &upper);
			KUNIT_EXPECT_EQ(test, sw, back);
			KUNIT_EXPECT_EQ(test, k, upper);
		}
}

static void bfly_lcan_wiring(struct kunit *test)
{
	struct bfly_lcan g;
	u32 i, l;

	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		bfly_lcan_small_init(test, &g, i);
		for (l = 0; l + 1 < g.levels; l++)
			bfly_lcan_wiring_level(test, &g, l);
	}
}

/* Lemmas 1 to 3 and Theorem 2 by search, for every pair of the small networks. */
static void bfly_lcan_counts_all_pairs(struct kunit *test)
{
	struct bfly_lcan_counts c;
	struct bfly_lcan g;
	u32 i, a, b, l;
	void *work;

	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		bfly_lcan_small_init(test, &g, i);
		work = bfly_test_alloc(test, bfly_lcan_counts_workspace_size(&g));
		for (a = 0; a < g.ports; a++)
			for (b = 0; b < g.ports; b++) {
				KUNIT_ASSERT_EQ(test, 0, bfly_lcan_counts(&g, a, b, &c, work));
				for (l = 0; l < g.levels; l++)
					KUNIT_EXPECT_EQ(test, bfly_lcan_lemma_reach(&g, l),
							(u64)c.reach[l]);
				KUNIT_EXPECT_EQ(test, bfly_lcan_lca_level(&g, a, b), c.lca_level);
				KUNIT_EXPECT_EQ(test, bfly_lcan_lemma_lca_switches(&g, c.lca_level),
						(u64)c.lca_switches);
				KUNIT_EXPECT_EQ_MSG(test, (u64)c.lca_switches, c.paths,
						    "network %u pair %u %u", i, a, b);
			}
	}
	/* the LCA level is the most significant differing base-d digit */
	bfly_lcan_small_init(test, &g, 4);	/* CB-LCAN(3,2), N = 27 */
	KUNIT_EXPECT_EQ(test, 0U, bfly_lcan_lca_level(&g, 5, 5));
	KUNIT_EXPECT_EQ(test, 0U, bfly_lcan_lca_level(&g, 3, 5));
	KUNIT_EXPECT_EQ(test, 1U, bfly_lcan_lca_level(&g, 0, 8));
	KUNIT_EXPECT_EQ(test, 2U, bfly_lcan_lca_level(&g, 8, 9));
}

/* Next tag vector in lexicographic order, each digit below up[level]. */
static bool bfly_lcan_next_tags(const struct bfly_lcan *g, u32 *tags, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (++tags[i] < g->up[i])
			return true;
		tags[i] = 0;
	}
	return false;
}

/*
 * The path's setting, alone in the network, is one a switch can hold and
 * takes @src's packet to @dst (a processor, or a top output) in @hops.
 */
static void bfly_lcan_expect_trace(struct kunit *test, const struct bfly_lcan *g,
				   const struct bfly_lcan_path *path, u8 *set, u32 src,
				   u32 end_kind, u64 dst)
{
	struct bfly_lcan_trace_end end;
	const char *why;
	u64 bad;

	memset(set, BFLY_KFLY_UNSET, bfly_lcan_settings_size(g));
	bfly_lcan_path_apply(g, path, set);
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_settings_check(g, set, &bad, &why));
	bfly_lcan_trace(g, set, src, &end);
	KUNIT_EXPECT_EQ(test, end_kind, end.end);
	KUNIT_EXPECT_EQ(test, dst, end.index);
	KUNIT_EXPECT_EQ(test, path->count, end.hops);
}

/* Every up-choice of one pair. */
static void bfly_lcan_pair_all_tags(struct kunit *test, const struct bfly_lcan *g, u8 *set,
				    u32 a, u32 b)
{
	u32 lca = bfly_lcan_lca_level(g, a, b), h, tags[BFLY_LCAN_MAX_LEVELS] = { 0 };
	struct bfly_lcan_path path;

	do {
		KUNIT_ASSERT_EQ(test, 0, bfly_lcan_pair_path(g, a, b, tags, NULL, &path));
		KUNIT_EXPECT_EQ(test, 2 * lca + 1, path.count);
		for (h = 0; h < path.count; h++)
			KUNIT_EXPECT_EQ(test, h <= lca ? h : 2 * lca - h, path.hops[h].level);
		bfly_lcan_expect_trace(test, g, &path, set, a, BFLY_LCAN_END_PE, b);
	} while (bfly_lcan_next_tags(g, tags, lca));
}

/*
 * Every pair, every up-choice (tags and wires alike): the path climbs to
 * the LCA level and no higher, turns there, and the setting it makes
 * takes the packet to the destination.
 */
static void bfly_lcan_pair_paths(struct kunit *test)
{
	struct bfly_lcan_path path;
	struct bfly_lcan g;
	u32 i, a, b, tags[BFLY_LCAN_MAX_LEVELS] = { 0 };
	u8 *set;

	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		bfly_lcan_small_init(test, &g, i);
		if (g.kind == BFLY_LCAN_FATTREE)
			continue;	/* no byte settings */
		set = bfly_test_alloc(test, bfly_lcan_settings_size(&g));
		for (a = 0; a < g.ports; a++)
			for (b = 0; b < g.ports; b++)
				bfly_lcan_pair_all_tags(test, &g, set, a, b);
		tags[0] = g.up[0];
		if (g.levels > 1)
			KUNIT_EXPECT_EQ(test, -EINVAL,
					bfly_lcan_pair_path(&g, 0, g.ports - 1, tags, NULL, &path));
	}
}

/*
 * Uni-directionally a CB-LCAN is a delta network: the path to output o
 * leaves the top level at o, through every level.
 */
static void bfly_lcan_uni_paths(struct kunit *test)
{
	struct bfly_lcan_path path;
	struct bfly_lcan g;
	u32 a, o, i;
	u8 *set;

	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		bfly_lcan_small_init(test, &g, i);
		if (g.kind != BFLY_LCAN_CB) {
			KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_uni_path(&g, 0, 0, &path));
			continue;
		}
		set = bfly_test_alloc(test, bfly_lcan_settings_size(&g));
		for (a = 0; a < g.ports; a++)
			for (o = 0; o < g.upow[g.levels]; o++) {
				KUNIT_ASSERT_EQ(test, 0, bfly_lcan_uni_path(&g, a, o, &path));
				KUNIT_EXPECT_EQ(test, g.levels, path.count);
				bfly_lcan_expect_trace(test, &g, &path, set, a,
						       BFLY_LCAN_END_TOP, o);
			}
		KUNIT_EXPECT_EQ(test, -EINVAL,
				bfly_lcan_uni_path(&g, 0, g.upow[g.levels], &path));
	}
}

/* Settings a switch cannot hold are refused, with the entry at fault. */
static void bfly_lcan_settings_refused(struct kunit *test)
{
	struct bfly_lcan_trace_end end;
	struct bfly_lcan g;
	const char *why;
	u64 bad;
	u8 *set;

	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_CB, 2, 2, 8, &why));
	set = bfly_test_alloc(test, bfly_lcan_settings_size(&g));
	KUNIT_EXPECT_EQ(test, 3 * 4 * 4UL, bfly_lcan_settings_size(&g));
	memset(set, BFLY_KFLY_UNSET, bfly_lcan_settings_size(&g));
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_settings_check(&g, set, &bad, &why));
	bfly_lcan_trace(&g, set, 5, &end);
	KUNIT_EXPECT_EQ(test, (u32)BFLY_LCAN_END_LOST, end.end);
	KUNIT_EXPECT_EQ(test, bfly_lcan_entry(&g, 0, 2, 1), end.index);

	/* a connector used twice: downers 0 and 1 of switch 1 both to upper 2 */
	set[bfly_lcan_entry(&g, 0, 1, 0)] = 2;
	set[bfly_lcan_entry(&g, 0, 1, 1)] = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
	KUNIT_EXPECT_EQ(test, bfly_lcan_entry(&g, 0, 1, 1), bad);
	set[bfly_lcan_entry(&g, 0, 1, 1)] = 0;	/* turn-around: fine */
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_settings_check(&g, set, &bad, &why));
	/* a packet that came down going up */
	set[bfly_lcan_entry(&g, 1, 0, 2)] = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
	set[bfly_lcan_entry(&g, 1, 0, 2)] = BFLY_KFLY_UNSET;
	/* no such connector */
	set[bfly_lcan_entry(&g, 2, 3, 0)] = 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
	set[bfly_lcan_entry(&g, 2, 3, 0)] = 3;	/* out of the top: fine */
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_settings_check(&g, set, &bad, &why));
	/* nothing arrives on a top upper */
	set[bfly_lcan_entry(&g, 2, 3, 3)] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
}

/*
 * A fat tree's switch may have more connectors than a byte names: the
 * check reads every byte without writing past its own record of the
 * connectors used, and refuses a switch it cannot describe.
 */
static void bfly_lcan_settings_wide_switch(struct kunit *test)
{
	struct bfly_lcan g;
	const char *why;
	u32 top;
	u64 bad;
	u8 *set;

	/* 2-ary fat tree, N = 64: the top switch has 64 + 64 connectors */
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_FATTREE, 2, 2, 64, &why));
	top = g.levels - 1;
	KUNIT_ASSERT_EQ(test, 128U, bfly_lcan_conns(&g, top));
	set = bfly_test_alloc(test, bfly_lcan_settings_size(&g));
	memset(set, BFLY_KFLY_UNSET, bfly_lcan_settings_size(&g));
	set[bfly_lcan_entry(&g, top, 0, 0)] = 127;
	KUNIT_EXPECT_EQ(test, 0, bfly_lcan_settings_check(&g, set, &bad, &why));
	set[bfly_lcan_entry(&g, top, 0, 1)] = 127;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
	KUNIT_EXPECT_EQ(test, bfly_lcan_entry(&g, top, 0, 1), bad);

	/* N = 256: the top switch has 256 + 256 connectors */
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_FATTREE, 2, 2, 256, &why));
	top = g.levels - 1;
	set = bfly_test_alloc(test, bfly_lcan_settings_size(&g));
	memset(set, BFLY_KFLY_UNSET, bfly_lcan_settings_size(&g));
	set[bfly_lcan_entry(&g, top, 0, 0)] = 200;
	set[bfly_lcan_entry(&g, top, 0, 1)] = 201;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_settings_check(&g, set, &bad, &why));
	KUNIT_EXPECT_EQ(test, bfly_lcan_entry(&g, top - 1, 0, 0), bad);
	KUNIT_EXPECT_STREQ(test, "a switch of over 255 connectors has no byte setting", why);
}

/* Everything a message-set check needs. */
struct bfly_lcan_ms_ctx {
	struct bfly_lcan g;
	struct bfly_lcan_msgset ms;
	u32 *src, *dst, *cycle, *choices, *load;
	void *work;
	unsigned long *used, *sent, *got;
};

static void bfly_lcan_ms_init(struct kunit *test, struct bfly_lcan_ms_ctx *c, u32 count)
{
	const struct bfly_lcan *g = &c->g;

	c->src = bfly_test_alloc(test, count * sizeof(u32));
	c->dst = bfly_test_alloc(test, count * sizeof(u32));
	c->cycle = bfly_test_alloc(test, count * sizeof(u32));
	c->choices = bfly_test_alloc(test, (size_t)count * 2 * g->levels * sizeof(u32));
	c->load = bfly_test_alloc(test, bfly_lcan_channels(g, BFLY_LCAN_UNIDIR) * 2 *
				  sizeof(u32));
	c->work = bfly_test_alloc(test, bfly_lcan_msgset_workspace_size(g, count));
	c->used = bfly_test_alloc(test, BITS_TO_LONGS(g->first_conn[g->levels]) * sizeof(long));
	c->sent = bfly_test_alloc(test, BITS_TO_LONGS(g->ports) * sizeof(long));
	c->got = bfly_test_alloc(test, BITS_TO_LONGS(g->upow[g->levels] + g->ports) *
				 sizeof(long));
	c->ms = (struct bfly_lcan_msgset){
		.src = c->src, .dst = c->dst, .count = count, .cycle = c->cycle,
		.choices = c->choices, .load = c->load,
	};
}

/*
 * Route the set, then rebuild every message's path from its choices and
 * check: all routed, no wire twice in a cycle, no processor sending or
 * receiving twice in one, and at least ceil(lambda(M)) cycles.
 */
static void bfly_lcan_ms_check(struct kunit *test, struct bfly_lcan_ms_ctx *c)
{
	const struct bfly_lcan *g = &c->g;
	struct bfly_lcan_msgset *ms = &c->ms;
	struct bfly_lcan_path path;
	u32 cyc, m, h, bad;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_check(g, ms, &bad, &why));
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_route(g, ms, c->work));
	KUNIT_EXPECT_EQ(test, ms->count, ms->routed);
	KUNIT_EXPECT_GE(test, ms->cycles, ms->bound);
	KUNIT_EXPECT_LE(test, ms->cycles, ms->count);
	for (cyc = 0; cyc < ms->cycles; cyc++) {
		u32 in_cycle = 0;

		bitmap_zero(c->used, g->first_conn[g->levels]);
		bitmap_zero(c->sent, g->ports);
		bitmap_zero(c->got, g->upow[g->levels] + g->ports);
		for (m = 0; m < ms->count; m++) {
			const u32 *ch = c->choices + (u64)m * 2 * g->levels;

			if (ms->cycle[m] != cyc)
				continue;
			in_cycle++;
			KUNIT_ASSERT_EQ(test, 0, ms->mode == BFLY_LCAN_UNIDIR ?
					bfly_lcan_uni_path(g, c->src[m], c->dst[m], &path) :
					bfly_lcan_pair_path(g, c->src[m], c->dst[m], ch,
							    ch + g->levels, &path));
			KUNIT_EXPECT_FALSE(test, __test_and_set_bit(c->src[m], c->sent));
			KUNIT_EXPECT_FALSE(test, __test_and_set_bit(c->dst[m], c->got));
			for (h = 0; h < path.count; h++) {
				const struct bfly_lcan_hop *x = &path.hops[h];
				u64 e = bfly_lcan_entry(g, x->level, x->sw, x->out);

				KUNIT_EXPECT_FALSE_MSG(test, __test_and_set_bit(e, c->used),
						       "cycle %u message %u hop %u", cyc, m, h);
			}
		}
		KUNIT_EXPECT_GT(test, in_cycle, 0U);
	}
}

/* The identity takes one cycle on every LCAN; a random set all it needs. */
static void bfly_lcan_msgsets_small(struct kunit *test)
{
	struct bfly_lcan_ms_ctx *c = bfly_test_alloc(test, sizeof(*c));
	struct rnd_state rnd;
	u32 i, m, strategy;

	prandom_seed_state(&rnd, 13);
	for (i = 0; i < ARRAY_SIZE(bfly_lcan_small); i++) {
		bfly_lcan_small_init(test, &c->g, i);
		for (strategy = BFLY_LCAN_ONLINE; strategy <= BFLY_LCAN_OFFLINE; strategy++) {
			bfly_lcan_ms_init(test, c, c->g.ports);
			c->ms.strategy = strategy;
			c->ms.seed = i;
			for (m = 0; m < c->g.ports; m++) {
				c->src[m] = m;
				c->dst[m] = m;
			}
			bfly_lcan_ms_check(test, c);
			KUNIT_EXPECT_EQ(test, 1U, c->ms.cycles);
			KUNIT_EXPECT_EQ(test, 1U, c->ms.bound);

			/* an h-relation: 3 N random pairs */
			bfly_lcan_ms_init(test, c, 3 * c->g.ports);
			c->ms.strategy = strategy;
			for (m = 0; m < 3 * c->g.ports; m++) {
				c->src[m] = prandom_u32_state(&rnd) % c->g.ports;
				c->dst[m] = prandom_u32_state(&rnd) % c->g.ports;
			}
			bfly_lcan_ms_check(test, c);

			if (c->g.kind != BFLY_LCAN_CB)
				continue;
			bfly_lcan_ms_init(test, c, c->g.ports);
			c->ms.strategy = strategy;
			c->ms.mode = BFLY_LCAN_UNIDIR;
			for (m = 0; m < c->g.ports; m++) {
				c->src[m] = m;
				c->dst[m] = prandom_u32_state(&rnd) % c->g.upow[c->g.levels];
			}
			bfly_lcan_ms_check(test, c);
		}
	}
}

/*
 * lambda(M) of known sets: the worst-case set of CB-LCAN(2,2) (every pair
 * across the top) loads the top bundles to their capacity; N messages
 * from one source need N cycles.
 */
static void bfly_lcan_msgset_lambda(struct kunit *test)
{
	struct bfly_lcan_ms_ctx *c = bfly_test_alloc(test, sizeof(*c));
	const char *why;
	u32 m, n = 64, bad, top;

	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&c->g, BFLY_LCAN_CB, 2, 2, n, &why));
	bfly_lcan_ms_init(test, c, n);
	for (m = 0; m < n; m++) {
		c->src[m] = m;
		c->dst[m] = m ^ (n / 2);
	}
	bfly_lcan_ms_check(test, c);
	KUNIT_EXPECT_EQ(test, c->ms.lambda_cap, c->ms.lambda_load);
	KUNIT_EXPECT_EQ(test, 1U, c->ms.bound);
	/* the bundle up from the left half's top group: load = capacity = N/2 */
	top = n;
	for (m = 0; m + 2 < c->g.levels; m++)
		top += c->g.groups[m];
	KUNIT_EXPECT_EQ(test, n / 2, c->load[top]);
	KUNIT_EXPECT_EQ(test, n / 2, bfly_lcan_channel_cap(&c->g, BFLY_LCAN_BIDIR, top));

	for (m = 0; m < n; m++) {
		c->src[m] = 7;
		c->dst[m] = m;
	}
	bfly_lcan_ms_check(test, c);
	KUNIT_EXPECT_EQ(test, n, c->ms.bound);
	KUNIT_EXPECT_EQ(test, n, c->ms.cycles);

	/* bad sets */
	c->src[3] = n;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_msgset_check(&c->g, &c->ms, &bad, &why));
	KUNIT_EXPECT_EQ(test, 3U, bad);
	c->src[3] = 7;
	c->ms.mode = 9;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_msgset_check(&c->g, &c->ms, &bad, &why));
	c->ms.mode = BFLY_LCAN_BIDIR;
	c->ms.max_cycles = 5;
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_route(&c->g, &c->ms, c->work));
	KUNIT_EXPECT_EQ(test, 5U, c->ms.cycles);
	KUNIT_EXPECT_EQ(test, 5U, c->ms.routed);
}

/*
 * Given paths are taken as given: on CB-LCAN(2,2), N = 8, PEs 0 and 1 share
 * their level-0 switch; sent up the same upper they need two cycles, by
 * different uppers one. A tag past the uppers names its message.
 */
static void bfly_lcan_msgset_given(struct kunit *test)
{
	static const u32 src[] = { 0, 1 }, dst[] = { 4, 5 };
	u32 given[2 * 6] = { 0 }, cycle[2], choices[2 * 6], bad;
	struct bfly_lcan_msgset ms = {
		.src = src, .dst = dst, .count = 2, .given = given, .cycle = cycle,
		.choices = choices,
	};
	struct bfly_lcan g;
	const char *why;
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_CB, 2, 2, 8, &why));
	KUNIT_ASSERT_EQ(test, 3U, g.levels);
	work = bfly_test_alloc(test, bfly_lcan_msgset_workspace_size(&g, 2));
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_check(&g, &ms, &bad, &why));
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_route(&g, &ms, work));
	KUNIT_EXPECT_EQ(test, 2U, ms.cycles);
	KUNIT_EXPECT_EQ(test, 1U, ms.bound);

	given[6] = 1;	/* message 1 leaves switch 0 by upper 1 */
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_msgset_route(&g, &ms, work));
	KUNIT_EXPECT_EQ(test, 1U, ms.cycles);
	KUNIT_EXPECT_EQ(test, 2U, ms.routed);
	KUNIT_EXPECT_EQ(test, 1U, choices[6]);
	KUNIT_EXPECT_EQ(test, 0U, choices[7]);

	given[7] = 2;	/* u = 2: no upper 2 */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_msgset_check(&g, &ms, &bad, &why));
	KUNIT_EXPECT_EQ(test, 1U, bad);
	given[7] = 0;
	ms.mode = BFLY_LCAN_UNIDIR;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_lcan_msgset_check(&g, &ms, &bad, &why));
}

/*
 * Routed up through every level, CB-LCAN(f, s) is the (f, s, l) SW-banyan:
 * one path from each PE to each top output, counted level by level. The
 * TRAC's network is CB-LCAN(3, 2); CB-LCAN(2, 2) is the butterfly's
 * (bfly_lcan_butterfly).
 */
static void bfly_lcan_sw_banyan(struct kunit *test)
{
	static const u32 shapes[][3] = { { 2, 2, 16 }, { 3, 2, 27 }, { 4, 2, 64 }, { 2, 3, 8 } };
	u32 k, a, i, sw, c, to, downer;

	for (k = 0; k < ARRAY_SIZE(shapes); k++) {
		struct bfly_lcan g;
		const char *why;
		u64 *cnt, *next;
		u32 widest = 0;

		KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(&g, BFLY_LCAN_CB, shapes[k][0],
							shapes[k][1], shapes[k][2], &why));
		for (i = 0; i < g.levels; i++)
			widest = max(widest, g.switches[i]);
		cnt = bfly_test_alloc(test, widest * sizeof(*cnt));
		next = bfly_test_alloc(test, widest * sizeof(*next));
		for (a = 0; a < g.ports; a++) {
			bool one = true;

			memset(cnt, 0, widest * sizeof(*cnt));
			cnt[a / g.d] = 1;
			for (i = 0; i + 1 < g.levels; i++) {
				memset(next, 0, widest * sizeof(*next));
				for (sw = 0; sw < g.switches[i]; sw++)
					for (c = 0; cnt[sw] && c < g.up[i]; c++) {
						bfly_lcan_up(&g, i, sw, c, &to, &downer);
						next[to] += cnt[sw];
					}
				memcpy(cnt, next, widest * sizeof(*cnt));
			}
			/* each top switch's uppers are outputs: one path to each */
			for (sw = 0; sw < g.switches[g.levels - 1]; sw++)
				one &= cnt[sw] == 1;
			KUNIT_EXPECT_TRUE_MSG(test, one, "CB-LCAN(%u,%u) N=%u: PE %u", g.d, g.u,
					      g.ports, a);
		}
	}
}

/*
 * The rules of the small cases, on random pairs and random message sets
 * of large networks: CB-LCAN(4,4) N = 4096 and T-LCAN(4,2) N = 1024.
 * Pairs: Lemmas 1 to 3 and Theorem 2 by search, and a path of random
 * up-choices that climbs to the LCA level, turns there and, set alone,
 * traces to the destination. Sets: a random permutation and a random
 * 2-relation, on-line and off-line, checked as bfly_lcan_ms_check() does;
 * the identity in one cycle.
 */
static void bfly_lcan_random_at_scale(struct kunit *test)
{
	static const u32 nets[][4] = {
		{ BFLY_LCAN_CB, 4, 4, 4096 }, { BFLY_LCAN_TREE, 4, 2, 1024 },
	};
	struct bfly_lcan_ms_ctx *c = bfly_test_alloc(test, sizeof(*c));
	u32 i, k, l, m, a, b, strategy, tags[BFLY_LCAN_MAX_LEVELS];
	u32 pairs = BFLY_TEST_REPS(400, 40);
	struct bfly_lcan_counts cnt;
	struct bfly_lcan_path path;
	struct bfly_lcan *g = &c->g;
	struct rnd_state rnd;
	const char *why;
	void *work;
	u8 *set;

	prandom_seed_state(&rnd, 4096);
	for (i = 0; i < ARRAY_SIZE(nets); i++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_lcan_init(g, nets[i][0], nets[i][1], nets[i][2],
							nets[i][3], &why));
		work = bfly_test_alloc(test, bfly_lcan_counts_workspace_size(g));
		set = bfly_test_alloc(test, bfly_lcan_settings_size(g));
		for (k = 0; k < pairs; k++) {
			a = prandom_u32_state(&rnd) % g->ports;
			b = prandom_u32_state(&rnd) % g->ports;
			KUNIT_ASSERT_EQ(test, 0, bfly_lcan_counts(g, a, b, &cnt, work));
			for (l = 0; l < g->levels; l++)
				KUNIT_EXPECT_EQ(test, bfly_lcan_lemma_reach(g, l),
						(u64)cnt.reach[l]);
			KUNIT_EXPECT_EQ(test, bfly_lcan_lca_level(g, a, b), cnt.lca_level);
			KUNIT_EXPECT_EQ(test, bfly_lcan_lemma_lca_switches(g, cnt.lca_level),
					(u64)cnt.lca_switches);
			KUNIT_EXPECT_EQ_MSG(test, (u64)cnt.lca_switches, cnt.paths,
					    "network %u pair %u %u", i, a, b);
			for (l = 0; l < g->levels; l++)
				tags[l] = l < cnt.lca_level ?
					  prandom_u32_state(&rnd) % g->up[l] : 0;
			KUNIT_ASSERT_EQ(test, 0, bfly_lcan_pair_path(g, a, b, tags, NULL, &path));
			KUNIT_EXPECT_EQ(test, 2 * cnt.lca_level + 1, path.count);
			bfly_lcan_expect_trace(test, g, &path, set, a, BFLY_LCAN_END_PE, b);
		}
		for (strategy = BFLY_LCAN_ONLINE; strategy <= BFLY_LCAN_OFFLINE; strategy++) {
			bfly_lcan_ms_init(test, c, g->ports);
			c->ms.strategy = strategy;
			for (m = 0; m < g->ports; m++) {
				c->src[m] = m;
				c->dst[m] = m;
			}
			bfly_lcan_ms_check(test, c);
			KUNIT_EXPECT_EQ(test, 1U, c->ms.cycles);

			bfly_lcan_ms_init(test, c, g->ports);
			c->ms.strategy = strategy;
			c->ms.seed = i;
			for (m = 0; m < g->ports; m++) {
				c->src[m] = m;
				c->dst[m] = m;
			}
			for (m = g->ports - 1; m > 0; m--)
				swap(c->dst[m], c->dst[prandom_u32_state(&rnd) % (m + 1)]);
			bfly_lcan_ms_check(test, c);

			bfly_lcan_ms_init(test, c, 2 * g->ports);
			c->ms.strategy = strategy;
			for (m = 0; m < 2 * g->ports; m++) {
				c->src[m] = m % g->ports;
				c->dst[m] = prandom_u32_state(&rnd) % g->ports;
			}
			bfly_lcan_ms_check(test, c);
		}
	}
}

static struct kunit_case bfly_lcan_cases[] = {
	KUNIT_CASE(bfly_lcan_shapes),
	KUNIT_CASE(bfly_lcan_wiring),
	KUNIT_CASE(bfly_lcan_counts_all_pairs),
	KUNIT_CASE(bfly_lcan_pair_paths),
	KUNIT_CASE(bfly_lcan_uni_paths),
	KUNIT_CASE(bfly_lcan_settings_refused),
	KUNIT_CASE(bfly_lcan_settings_wide_switch),
	KUNIT_CASE(bfly_lcan_msgsets_small),
	KUNIT_CASE(bfly_lcan_msgset_lambda),
	KUNIT_CASE(bfly_lcan_msgset_given),
	KUNIT_CASE(bfly_lcan_sw_banyan),
	KUNIT_CASE_SLOW(bfly_lcan_random_at_scale),
	{}
};

static struct kunit_suite bfly_lcan_suite = {
	.name = "bfly_lcan",
	.test_cases = bfly_lcan_cases,
};

kunit_test_suite(bfly_lcan_suite);
