// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: bfly2's and bfly-twice's middle rows chosen as a colour is split
 * (hrel_choose.c). Every sending input gets one sub-round and a label to
 * its destination; each sub-round passes schedule.c's conflict check;
 * one seed gives one result; the chosen rows need no more sub-rounds
 * than random rows split afterwards, summed over many colours.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "lib/hrel_round.h"
#include "lib/rand.h"
#include "lib/schedule.h"
#include "lib/topology.h"
#include "kunit_util.h"

/* Each sending input in one sub-round, to its destination; each sub-round conflict-free. */
static void bfly_hc_check(struct kunit *test, const struct bfly_geometry *geo, const u32 *part,
			  const u64 *labels, const unsigned long *active, const u32 *sub,
			  int nsub, void *work)
{
	u32 ports = geo->ports, i, r;
	unsigned long *one = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));

	for (i = 0; i < ports; i++) {
		KUNIT_EXPECT_EQ(test, part[i] != BFLY_HREL_IDLE, test_bit(i, active));
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		KUNIT_EXPECT_EQ(test, (u64)part[i], labels[i] & (ports - 1));
		KUNIT_ASSERT_LT(test, sub[i], (u32)nsub);
	}
	for (r = 0; r < (u32)nsub; r++) {
		bitmap_zero(one, ports);
		for (i = 0; i < ports; i++)
			if (part[i] != BFLY_HREL_IDLE && sub[i] == r)
				__set_bit(i, one);
		KUNIT_EXPECT_EQ(test, 0, bfly_sched_check(geo, labels, one, NULL, work));
	}
}

/* Colours of one geometry: checked, and against random rows split afterwards. */
static void bfly_hc_geometry(struct kunit *test, const struct bfly_geometry *geo)
{
	u32 ports = geo->ports, k, chosen = 0, random = 0;
	u32 *part = bfly_test_alloc(test, ports * sizeof(u32));
	u32 *sub = bfly_test_alloc(test, ports * sizeof(u32));
	u32 *sub2 = bfly_test_alloc(test, ports * sizeof(u32));
	u64 *labels = bfly_test_alloc(test, ports * sizeof(u64));
	u64 *labels2 = bfly_test_alloc(test, ports * sizeof(u64));
	unsigned long *active = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));
	unsigned long *active2 = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));
	void *work = bfly_test_alloc(test, max(bfly_hrel_choose_workspace_size(geo),
					       bfly_sched_check_workspace_size(geo)));
	u64 rng = 3, rng2;
	int nsub;

	for (k = 0; k < 8; k++) {
		bfly_random_partial_perm(ports, k % 2 ? 100 : 60, &rng, part);
		rng2 = k;
		nsub = bfly_hrel_choose(geo, part, &rng2, 16, labels, active, sub, work);
		KUNIT_ASSERT_GT(test, nsub, 0);
		chosen += nsub;
		bfly_hc_check(test, geo, part, labels, active, sub, nsub, work);
		/* one seed, one result */
		rng2 = k;
		KUNIT_EXPECT_EQ(test, nsub, bfly_hrel_choose(geo, part, &rng2, 16, labels2,
							     active2, sub2, work));
		KUNIT_EXPECT_EQ(test, 0, memcmp(labels, labels2, ports * sizeof(u64)));
		rng2 = k;
		KUNIT_ASSERT_EQ(test, 0, bfly_hrel_labels(geo, part, &rng2, labels, active));
		nsub = bfly_sched_split(geo, labels, active, sub, work);
		KUNIT_ASSERT_GT(test, nsub, 0);
		random += nsub;
	}
	KUNIT_EXPECT_LE(test, chosen, random);
}

static void bfly_hrel_choose_splits(struct kunit *test)
{
	static const u32 topos[] = { BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	static const u32 sizes[] = { 8, 64, 1024 };
	struct bfly_geometry geo;
	const char *why;
	u32 t, z;

	for (t = 0; t < ARRAY_SIZE(topos); t++)
		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			KUNIT_ASSERT_EQ(test, 0,
					bfly_geometry_init(&geo, topos[t], 2, sizes[z], &why));
			bfly_hc_geometry(test, &geo);
			cond_resched();
		}
}

static void bfly_hrel_choose_refusals(struct kunit *test)
{
	struct bfly_geometry geo;
	u32 part[8], sub[8], i;
	unsigned long active[1];
	const char *why;
	u64 labels[8], rng = 1;
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, 2, 8, &why));
	work = bfly_test_alloc(test, bfly_hrel_choose_workspace_size(&geo));
	for (i = 0; i < 8; i++)
		part[i] = BFLY_HREL_IDLE;
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_choose(&geo, part, &rng, 4, labels, active, sub,
						  work));
	part[3] = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_choose(&geo, part, &rng, 4, labels, active,
							sub, work));
	part[3] = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_choose(&geo, part, &rng, 0, labels, active,
							sub, work));
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, 8, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_choose(&geo, part, &rng, 4, labels, active,
							sub, work));
}

static struct kunit_case bfly_hrel_choose_cases[] = {
	KUNIT_CASE_SLOW(bfly_hrel_choose_splits),
	KUNIT_CASE(bfly_hrel_choose_refusals),
	{}
};

static struct kunit_suite bfly_hrel_choose_suite = {
	.name = "bfly_hrel_choose",
	.test_cases = bfly_hrel_choose_cases,
};

kunit_test_suite(bfly_hrel_choose_suite);
