// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: partial permutations on the k-ary n-fly split into conflict-free
 * sub-rounds (kfly_split.c). Every sending input gets one sub-round; each
 * sub-round's port maps are valid, trace every one of its packets to its
 * destination and load no link twice; a realizable permutation (the
 * rotation of the digits) takes one sub-round; bad outputs are refused.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "lib/kfly.h"
#include "lib/rand.h"
#include "lib/trace.h"
#include "kunit_util.h"

/* Check a split of @part: every packet once, each sub-round routable. */
static void bfly_ks_check(struct kunit *test, const struct bfly_kfly *g, const u32 *part,
			  const u32 *sub, int nsub)
{
	u8 *set = bfly_test_alloc(test, bfly_kfly_settings_size(g));
	u32 *out = bfly_test_alloc(test, g->ports * sizeof(u32));
	u32 *work = bfly_test_alloc(test, 2 * g->ports * sizeof(u32));
	u64 *labels = bfly_test_alloc(test, g->ports * sizeof(u64));
	unsigned long *active = bfly_test_alloc(test, BITS_TO_LONGS(g->ports) * sizeof(long));
	u32 i, r, bad, mll, sends = 0, placed = 0;

	for (i = 0; i < g->ports; i++) {
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		sends++;
		KUNIT_ASSERT_LT(test, sub[i], (u32)nsub);
	}
	KUNIT_EXPECT_EQ(test, !sends, !nsub);
	for (r = 0; r < (u32)nsub; r++) {
		bfly_kfly_subround_settings(g, part, sub, r, set);
		KUNIT_ASSERT_EQ(test, 0, bfly_kfly_settings_check(g, set, &bad));
		bfly_kfly_trace(g, set, out);
		bitmap_zero(active, g->ports);
		for (i = 0; i < g->ports; i++) {
			labels[i] = 0;
			if (part[i] == BFLY_HREL_IDLE || sub[i] != r)
				continue;
			KUNIT_EXPECT_EQ(test, part[i], out[i]);
			labels[i] = part[i];
			__set_bit(i, active);
			placed++;
		}
		KUNIT_ASSERT_EQ(test, 0, bfly_kfly_link_load(g, labels, NULL, active, NULL, NULL,
							     &mll, work));
		KUNIT_EXPECT_LE(test, mll, 1U);
	}
	KUNIT_EXPECT_EQ(test, sends, placed);
}

static void bfly_kfly_split_random(struct kunit *test)
{
	static const u32 shapes[][2] = {
		{ 2, 16 }, { 3, 27 }, { 4, 64 }, { 5, 125 }, { 3, 243 }, { 4, 1024 },
		{ 2, 2048 }, { 8, 4096 },
	};
	static const u32 pcts[] = { 100, 50, 10 };
	struct bfly_kfly g;
	const char *why;
	u64 rng = 14;
	u32 s, p, t, *part, *sub;
	void *work;
	int nsub;

	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, shapes[s][0], shapes[s][1], &why));
		part = bfly_test_alloc(test, g.ports * sizeof(u32));
		sub = bfly_test_alloc(test, g.ports * sizeof(u32));
		work = bfly_test_alloc(test, bfly_kfly_split_workspace_size(&g));
		for (p = 0; p < ARRAY_SIZE(pcts); p++)
			for (t = 0; t < 3; t++) {
				bfly_random_partial_perm(g.ports, pcts[p], &rng, part);
				nsub = bfly_kfly_split(&g, part, sub, work);
				KUNIT_ASSERT_GE(test, nsub, 0);
				bfly_ks_check(test, &g, part, sub, nsub);
			}
		/* the top digit from the port, the rest from the switch: one sub-round */
		for (t = 0; t < g.ports; t++)
			part[t] = t % g.k * g.pow[g.n - 1] + t / g.k;
		KUNIT_EXPECT_EQ(test, 1, bfly_kfly_split(&g, part, sub, work));
		for (t = 0; t < g.ports; t++)
			part[t] = BFLY_HREL_IDLE;
		KUNIT_EXPECT_EQ(test, 0, bfly_kfly_split(&g, part, sub, work));
		cond_resched();
	}
}

static void bfly_kfly_split_refusals(struct kunit *test)
{
	struct bfly_kfly g;
	const char *why;
	u32 part[9], sub[9], i;
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, 3, 9, &why));
	work = bfly_test_alloc(test, bfly_kfly_split_workspace_size(&g));
	for (i = 0; i < 9; i++)
		part[i] = BFLY_HREL_IDLE;
	part[1] = 9;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_kfly_split(&g, part, sub, work));
	part[1] = 4;
	part[7] = 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_kfly_split(&g, part, sub, work));
	/* 0 -> 0 and 1 -> 1 share switch 0's port 0: two sub-rounds */
	part[7] = BFLY_HREL_IDLE;
	part[0] = 0;
	part[1] = 1;
	KUNIT_EXPECT_EQ(test, 2, bfly_kfly_split(&g, part, sub, work));
	bfly_ks_check(test, &g, part, sub, 2);
}

static struct kunit_case bfly_kfly_split_cases[] = {
	KUNIT_CASE_SLOW(bfly_kfly_split_random),
	KUNIT_CASE(bfly_kfly_split_refusals),
	{}
};

static struct kunit_suite bfly_kfly_split_suite = {
	.name = "bfly_kfly_split",
	.test_cases = bfly_kfly_split_cases,
};

kunit_test_suite(bfly_kfly_split_suite);
