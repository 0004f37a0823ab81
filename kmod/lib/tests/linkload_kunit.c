// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: routing by labels and link loads (selfroute.c, linkload.c) on
 * every topology. Labels read off a matrix route back to that matrix;
 * random labels deliver what the matrix they produce traces; link loads
 * add up, are 1 along a matrix, and exceed 1 exactly when labels conflict.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/geometry.h"
#include "lib/linkload.h"
#include "lib/selfroute.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

/* Everything the cases of one geometry need. */
struct bfly_ll_bufs {
	struct bfly_geometry geo;
	u32 *want, *got, *del, *load, *stage_max;
	u64 *labels;
	unsigned long *matrix, *matrix2, *active;
	void *work, *sr_work;
	struct bfly_conflicts conflicts;
};

static void bfly_ll_init(struct kunit *test, struct bfly_ll_bufs *b,
			 enum bfly_topology topo, u32 ports)
{
	const struct bfly_geometry *geo = &b->geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&b->geo, topo, 2, ports, &why));
	b->want = bfly_test_alloc(test, ports * sizeof(u32));
	b->got = bfly_test_alloc(test, ports * sizeof(u32));
	b->del = bfly_test_alloc(test, ports * sizeof(u32));
	b->load = bfly_test_alloc(test, (size_t)geo->node_stages * ports * sizeof(u32));
	b->stage_max = bfly_test_alloc(test, geo->node_stages * sizeof(u32));
	b->labels = bfly_test_alloc(test, ports * sizeof(u64));
	b->matrix = bfly_test_alloc(test, bfly_matrix_bytes(geo));
	b->matrix2 = bfly_test_alloc(test, bfly_matrix_bytes(geo));
	b->active = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));
	b->work = bfly_test_alloc(test, bfly_linkload_workspace_size(geo));
	b->sr_work = bfly_test_alloc(test, bfly_selfroute_workspace_size(geo));
	b->conflicts = (struct bfly_conflicts){ 0 };
}

static void bfly_ll_random_matrix(struct rnd_state *rnd, struct bfly_ll_bufs *b)
{
	u64 i;

	bitmap_zero(b->matrix, b->geo.switches);
	for (i = 0; i < b->geo.switches; i++)
		__assign_bit(i, b->matrix, prandom_u32_state(rnd) & 1);
}

/* The output port each input takes at each node stage under @matrix. */
static void bfly_ll_labels_of(const struct bfly_geometry *geo, const unsigned long *matrix,
			      u64 *labels)
{
	u32 i, s, pos;

	for (i = 0; i < geo->ports; i++) {
		pos = i;
		labels[i] = 0;
		for (s = 0; s < geo->node_stages; s++) {
			pos ^= test_bit(bfly_matrix_bit(geo, s, pos >> 1), matrix);
			labels[i] = (labels[i] << 1) | (pos & 1);
			if (s + 1 < geo->node_stages)
				pos = bfly_wiring_link(geo, s, pos);
		}
	}
}

/* The sum of the loads of node stage @s's output links. */
static u32 bfly_ll_stage_sum(const struct bfly_ll_bufs *b, u32 s)
{
	u32 i, sum = 0;

	for (i = 0; i < b->geo.ports; i++)
		sum += b->load[(size_t)s * b->geo.ports + i];
	return sum;
}

/*
 * Every topology, N = 2 .. 512: labels read off a random matrix route
 * without conflict to that matrix and deliver its permutation; random
 * labels deliver what their matrix traces; labels wider than the node
 * stages are refused.
 */
static void bfly_labels_roundtrip(struct kunit *test)
{
	u32 n, r, i, reps, bad, conflicted;
	enum bfly_topology topo;
	struct bfly_ll_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 3);
	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		for (n = 1; n <= 9; n += 2) {
			bfly_ll_init(test, &b, topo, 1U << n);
			reps = BFLY_TEST_REPS(50, 4);
			bad = 0;
			conflicted = 0;
			for (r = 0; r < reps; r++) {
				bfly_ll_random_matrix(&rnd, &b);
				bfly_trace(&b.geo, b.matrix, b.want);
				bfly_ll_labels_of(&b.geo, b.matrix, b.labels);
				if (bfly_selfroute_labels(&b.geo, b.labels, b.matrix2, b.del,
							  &b.conflicts, b.sr_work) ||
				    b.conflicts.count ||
				    b.conflicts.first_stage != BFLY_NO_CONFLICT ||
				    !bitmap_equal(b.matrix, b.matrix2, b.geo.switches) ||
				    memcmp(b.del, b.want, b.geo.ports * sizeof(u32)))
					bad++;
				bfly_trace(&b.geo, b.matrix2, b.got);
				bad += !!memcmp(b.got, b.want, b.geo.ports * sizeof(u32));

				for (i = 0; i < b.geo.ports; i++)
					b.labels[i] = prandom_u32_state(&rnd) &
						      ((1ULL << b.geo.node_stages) - 1);
				bfly_selfroute_labels(&b.geo, b.labels, b.matrix2, b.del,
						      &b.conflicts, b.sr_work);
				conflicted += b.conflicts.count > 0;
				bfly_trace(&b.geo, b.matrix2, b.got);
				bad += !!memcmp(b.got, b.del, b.geo.ports * sizeof(u32));
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s N=%u, %u matrices (%u conflicted)",
					    bfly_topology_name(topo), b.geo.ports, reps,
					    conflicted);
			b.labels[0] = 1ULL << b.geo.node_stages;
			KUNIT_EXPECT_EQ(test, -EINVAL,
					bfly_selfroute_labels(&b.geo, b.labels, b.matrix2, b.del,
							      &b.conflicts, b.sr_work));
		}
	}
}

/*
 * Every topology, N = 2 .. 512: along a matrix every link carries one
 * packet, and half the inputs load each stage with N / 2; random labels
 * load each stage with N and give an MLL above 1 exactly when they
 * conflict; on the butterfly, the top half sending to the bottom half and
 * back puts two packets on some link.
 */
static void bfly_linkload_sane(struct kunit *test)
{
	u32 n, s, i, mll, bad;
	enum bfly_topology topo;
	struct bfly_ll_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 5);
	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		for (n = 1; n <= 9; n += 2) {
			bfly_ll_init(test, &b, topo, 1U << n);
			bad = 0;
			bfly_ll_random_matrix(&rnd, &b);
			KUNIT_ASSERT_EQ(test, 0,
					bfly_linkload_matrix(&b.geo, b.matrix, NULL, b.load,
							     b.stage_max, &mll, b.work));
			bad += mll != 1;
			for (s = 0; s < b.geo.node_stages * b.geo.ports; s++)
				bad += b.load[s] != 1;

			for (i = 0; i < b.geo.ports; i += 2)
				__set_bit(i, b.active);
			bfly_linkload_matrix(&b.geo, b.matrix, b.active, b.load, b.stage_max,
					     &mll, b.work);
			for (s = 0; s < b.geo.node_stages; s++)
				bad += bfly_ll_stage_sum(&b, s) != b.geo.ports / 2 ||
				       b.stage_max[s] > 1;

			for (i = 0; i < b.geo.ports; i++)
				b.labels[i] = prandom_u32_state(&rnd) &
					      ((1ULL << b.geo.node_stages) - 1);
			bfly_selfroute_labels(&b.geo, b.labels, NULL, NULL, &b.conflicts,
					      b.sr_work);
			bfly_linkload_labels(&b.geo, b.labels, NULL, b.load, b.stage_max, &mll,
					     b.work);
			bad += (mll > 1) != !!b.conflicts.count;
			for (s = 0; s < b.geo.node_stages; s++)
				bad += bfly_ll_stage_sum(&b, s) != b.geo.ports;

			if (topo == BFLY_TOPO_BUTTERFLY && n >= 2) {
				for (i = 0; i < b.geo.ports; i++)
					b.labels[i] = i < b.geo.ports / 2 ? i + b.geo.ports / 2 :
						      i - b.geo.ports / 2;
				bfly_linkload_labels(&b.geo, b.labels, NULL, NULL, NULL, &mll,
						     b.work);
				bad += mll < 2;
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s N=%u", bfly_topology_name(topo),
					    b.geo.ports);
		}
	}
}

/* All-zero labels on the butterfly: every packet heads for output 0. */
static void bfly_linkload_all_to_one(struct kunit *test)
{
	struct bfly_ll_bufs b;
	u32 mll = 0;

	bfly_ll_init(test, &b, BFLY_TOPO_BUTTERFLY, 8);
	KUNIT_ASSERT_EQ(test, 0, bfly_linkload_labels(&b.geo, b.labels, NULL, b.load, NULL,
						      &mll, b.work));
	KUNIT_EXPECT_EQ(test, 8, mll);
	KUNIT_EXPECT_EQ(test, 8, b.load[(b.geo.node_stages - 1) * b.geo.ports + 0]);
}

static struct kunit_case bfly_linkload_cases[] = {
	KUNIT_CASE(bfly_labels_roundtrip),
	KUNIT_CASE(bfly_linkload_sane),
	KUNIT_CASE(bfly_linkload_all_to_one),
	{}
};

static struct kunit_suite bfly_linkload_suite = {
	.name = "bfly_linkload",
	.test_cases = bfly_linkload_cases,
};

kunit_test_suite(bfly_linkload_suite);
