// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the routing algorithms (wiring, trace, self-routing with conflict
 * detection, the conflict-window test, Benes looping, link loads) against
 * the fabric model's checks.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/benes.h"
#include "lib/geometry.h"
#include "lib/topology.h"
#include "lib/linkload.h"
#include "lib/selfroute.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

static struct bfly_geometry bfly_test_geo(struct kunit *test,
					  enum bfly_topology topo, u32 ports)
{
	struct bfly_geometry geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, topo, ports, &why));
	return geo;
}

/* Everything one routing call needs for a geometry. */
struct bfly_test_bufs {
	u32 *perm, *back;
	unsigned long *matrix, *seen;
	void *work;
	struct bfly_conflict *list;
	struct bfly_conflicts conflicts;
};

static void bfly_test_bufs_init(struct kunit *test, struct bfly_test_bufs *b,
				const struct bfly_geometry *geo)
{
	size_t work = max3(bfly_benes_workspace_size(geo),
			   bfly_selfroute_workspace_size(geo),
			   bfly_linkload_workspace_size(geo));

	b->perm = bfly_test_alloc(test, geo->ports * sizeof(u32));
	b->back = bfly_test_alloc(test, geo->ports * sizeof(u32));
	b->matrix = bfly_test_alloc(test, bfly_matrix_bytes(geo));
	b->seen = bfly_test_alloc(test, BITS_TO_LONGS(geo->ports) * sizeof(long));
	b->work = bfly_test_alloc(test, work);
	b->list = bfly_test_alloc(test, 64 * sizeof(*b->list));
	b->conflicts.list = b->list;
	b->conflicts.capacity = 64;
}

/* The documented N = 8 wiring tables (Documentation/routing.rst). */
static void bfly_wiring_n8_tables(struct kunit *test)
{
	static const struct {
		enum bfly_topology topo;
		u8 map[5][8];
	} tables[] = {
		{ BFLY_TOPO_BUTTERFLY, { { 0, 4, 2, 6, 1, 5, 3, 7 },
					 { 0, 2, 1, 3, 4, 6, 5, 7 } } },
		{ BFLY_TOPO_BFLY2, { { 0, 4, 2, 6, 1, 5, 3, 7 }, { 0, 2, 1, 3, 4, 6, 5, 7 },
				     { 0, 4, 2, 6, 1, 5, 3, 7 }, { 0, 2, 1, 3, 4, 6, 5, 7 } } },
		{ BFLY_TOPO_BFLY_TWICE, { { 0, 4, 2, 6, 1, 5, 3, 7 }, { 0, 2, 1, 3, 4, 6, 5, 7 },
					  { 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 4, 2, 6, 1, 5, 3, 7 },
					  { 0, 2, 1, 3, 4, 6, 5, 7 } } },
		{ BFLY_TOPO_BENES, { { 0, 4, 2, 6, 1, 5, 3, 7 }, { 0, 2, 1, 3, 4, 6, 5, 7 },
				     { 0, 2, 1, 3, 4, 6, 5, 7 }, { 0, 4, 2, 6, 1, 5, 3, 7 } } },
	};
	struct bfly_geometry geo;
	u32 t, e, p;

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		geo = bfly_test_geo(test, tables[t].topo, 8);
		for (e = 0; e + 1 < geo.node_stages; e++)
			for (p = 0; p < 8; p++)
				KUNIT_EXPECT_EQ_MSG(test, tables[t].map[e][p],
						    bfly_wiring_link(&geo, e, p),
						    "%s edge %u position %u",
						    bfly_topology_name(tables[t].topo), e + 1, p);
	}
}

/* Every edge stage is a permutation of link positions, for every size. */
static void bfly_wiring_is_permutation(struct kunit *test)
{
	enum bfly_topology topo;
	struct bfly_geometry geo;
	unsigned long *seen;
	u32 n, e, p;

	seen = bfly_test_alloc(test, BITS_TO_LONGS(1 << 12) * sizeof(long));
	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		for (n = 1; n <= 12; n++) {
			geo = bfly_test_geo(test, topo, 1U << n);
			for (e = 0; e + 1 < geo.node_stages; e++) {
				bitmap_zero(seen, geo.ports);
				for (p = 0; p < geo.ports; p++)
					__set_bit(bfly_wiring_link(&geo, e, p), seen);
				KUNIT_EXPECT_EQ(test, geo.ports, bitmap_weight(seen, geo.ports));
			}
		}
	}
}

/* Paper Fig. 3: first conflict in node stage 0, node 4, inputs 8 and 9. */
static void bfly_selfroute_fig3(struct kunit *test)
{
	static const u32 fig3[16] = { 0, 14, 2, 12, 4, 10, 6, 8, 7, 3, 5, 11, 9, 13, 1, 15 };
	struct bfly_geometry geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 16);
	struct bfly_test_bufs b;

	bfly_test_bufs_init(test, &b, &geo);
	memcpy(b.perm, fig3, sizeof(fig3));
	KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, b.perm, b.matrix, NULL,
						     &b.conflicts, b.work));
	KUNIT_EXPECT_GT(test, b.conflicts.count, 0);
	KUNIT_EXPECT_EQ(test, 0, b.conflicts.first_stage);
	KUNIT_EXPECT_EQ(test, 0, b.list[0].stage);
	KUNIT_EXPECT_EQ(test, 4, b.list[0].node);
	KUNIT_EXPECT_EQ(test, 8, b.list[0].input[0]);
	KUNIT_EXPECT_EQ(test, 9, b.list[0].input[1]);
	KUNIT_EXPECT_EQ(test, 0, bfly_window_first_conflict(&geo, b.perm, b.seen));
}

/*
 * N = 8, every one of the 40320 permutations: Benes routes it and traces
 * back; exactly 4096 are realizable on the butterfly (2^((N/2) n)), each
 * tracing back; for every other one the first conflicting stage equals the
 * conflict-window test.
 */
static void bfly_exhaustive_n8(struct kunit *test)
{
	struct bfly_geometry benes = bfly_test_geo(test, BFLY_TOPO_BENES, 8);
	struct bfly_geometry bfly = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 8);
	u32 count = 0, realizable = 0, bad_benes = 0, bad_window = 0, bad_trace = 0;
	struct bfly_test_bufs b;
	u32 i, window;

	bfly_test_bufs_init(test, &b, &benes);
	for (i = 0; i < 8; i++)
		b.perm[i] = i;
	do {
		count++;
		if (bfly_benes_route(&benes, b.perm, b.matrix, b.work) ||
		    bfly_trace(&benes, b.matrix, b.back) ||
		    memcmp(b.back, b.perm, 8 * sizeof(u32)))
			bad_benes++;

		KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&bfly, b.perm, b.matrix, NULL,
							     &b.conflicts, b.work));
		window = bfly_window_first_conflict(&bfly, b.perm, b.seen);
		if (window != b.conflicts.first_stage)
			bad_window++;
		if (!b.conflicts.count) {
			realizable++;
			bfly_trace(&bfly, b.matrix, b.back);
			if (memcmp(b.back, b.perm, 8 * sizeof(u32)))
				bad_trace++;
		}
		if (i++ % 4096 == 0)
			cond_resched();
	} while (bfly_next_perm(b.perm, 8));

	KUNIT_EXPECT_EQ(test, 40320, count);
	KUNIT_EXPECT_EQ(test, 0, bad_benes);
	KUNIT_EXPECT_EQ(test, 4096, realizable);
	KUNIT_EXPECT_EQ(test, 0, bad_window);
	KUNIT_EXPECT_EQ(test, 0, bad_trace);
}

/* N = 4: 2^(2 * 2) = 16 of the 24 permutations are realizable. */
static void bfly_butterfly_n4_count(struct kunit *test)
{
	struct bfly_geometry geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 4);
	struct bfly_test_bufs b;
	u32 i, realizable = 0;

	bfly_test_bufs_init(test, &b, &geo);
	for (i = 0; i < 4; i++)
		b.perm[i] = i;
	do {
		bfly_selfroute_dest(&geo, b.perm, b.matrix, NULL, &b.conflicts, b.work);
		realizable += !b.conflicts.count;
	} while (bfly_next_perm(b.perm, 4));
	KUNIT_EXPECT_EQ(test, 16, realizable);
}

/* Random permutations on Benes, N = 2 .. 65536: trace(route(p)) == p. */
static void bfly_benes_random(struct kunit *test)
{
	struct rnd_state rnd;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;
	u32 n, k;

	prandom_seed_state(&rnd, 42);
	for (n = 1; n <= 16; n++) {
		geo = bfly_test_geo(test, BFLY_TOPO_BENES, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		for (k = 0; k < (n <= 10 ? 8 : 2); k++) {
			bfly_random_perm(&rnd, b.perm, geo.ports);
			KUNIT_ASSERT_EQ(test, 0, bfly_benes_route(&geo, b.perm, b.matrix, b.work));
			KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, b.matrix, b.back));
			KUNIT_EXPECT_EQ_MSG(test, 0,
					    memcmp(b.back, b.perm, geo.ports * sizeof(u32)),
					    "N=%u", geo.ports);
		}
	}
}

/*
 * The permutation of a random butterfly matrix is realizable: it
 * self-routes without conflict, passes the window test and traces back.
 */
static void bfly_butterfly_random_matrix(struct kunit *test)
{
	struct rnd_state rnd;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;
	u32 i, n;

	prandom_seed_state(&rnd, 7);
	for (n = 1; n <= 10; n++) {
		geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		for (i = 0; i < geo.switches; i++)
			__assign_bit(i, b.matrix, prandom_u32_state(&rnd) & 1);
		KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, b.matrix, b.perm));
		KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, b.perm, b.matrix, NULL,
							     &b.conflicts, b.work));
		KUNIT_EXPECT_EQ(test, 0, b.conflicts.count);
		KUNIT_EXPECT_EQ(test, BFLY_NO_CONFLICT,
				bfly_window_first_conflict(&geo, b.perm, b.seen));
		KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, b.matrix, b.back));
		KUNIT_EXPECT_EQ(test, 0, memcmp(b.back, b.perm, geo.ports * sizeof(u32)));
	}
}

/* Labels wider than the node stages are refused. */
static void bfly_labels_too_wide(struct kunit *test)
{
	struct bfly_geometry geo = bfly_test_geo(test, BFLY_TOPO_BFLY2, 8);
	struct bfly_test_bufs b;
	u64 *labels;

	bfly_test_bufs_init(test, &b, &geo);
	labels = bfly_test_alloc(test, 8 * sizeof(u64));
	labels[3] = 1ULL << geo.node_stages;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_selfroute_labels(&geo, labels, b.matrix, NULL,
							     &b.conflicts, b.work));
}

/* All-zero labels on the butterfly: every packet heads for output 0. */
static void bfly_linkload_all_to_one(struct kunit *test)
{
	struct bfly_geometry geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 8);
	struct bfly_test_bufs b;
	u32 *load, mll = 0;
	u64 *labels;

	bfly_test_bufs_init(test, &b, &geo);
	labels = bfly_test_alloc(test, 8 * sizeof(u64));
	load = bfly_test_alloc(test, geo.node_stages * geo.ports * sizeof(u32));
	KUNIT_ASSERT_EQ(test, 0, bfly_linkload_labels(&geo, labels, NULL, load, NULL,
						      &mll, b.work));
	KUNIT_EXPECT_EQ(test, 8, mll);
	KUNIT_EXPECT_EQ(test, 8, load[(geo.node_stages - 1) * geo.ports + 0]);

	/* Along any matrix no link carries two packets. */
	KUNIT_ASSERT_EQ(test, 0, bfly_linkload_matrix(&geo, b.matrix, NULL, load, NULL,
						      &mll, b.work));
	KUNIT_EXPECT_EQ(test, 1, mll);
}

static struct kunit_case bfly_route_cases[] = {
	KUNIT_CASE(bfly_wiring_n8_tables),
	KUNIT_CASE(bfly_wiring_is_permutation),
	KUNIT_CASE(bfly_selfroute_fig3),
	KUNIT_CASE_SLOW(bfly_exhaustive_n8),
	KUNIT_CASE(bfly_butterfly_n4_count),
	KUNIT_CASE_SLOW(bfly_benes_random),
	KUNIT_CASE(bfly_butterfly_random_matrix),
	KUNIT_CASE(bfly_labels_too_wide),
	KUNIT_CASE(bfly_linkload_all_to_one),
	{}
};

static struct kunit_suite bfly_route_suite = {
	.name = "bfly_route",
	.test_cases = bfly_route_cases,
};

kunit_test_suite(bfly_route_suite);
