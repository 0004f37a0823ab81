// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the routing algorithms (wiring, trace, self-routing with conflict
 * detection, the conflict-window test, Benes looping) against the fabric
 * model's checks (Documentation/routing.rst).
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/benes.h"
#include "lib/geometry.h"
#include "lib/topology.h"
#include "lib/selfroute.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

static struct bfly_geometry bfly_test_geo(struct kunit *test,
					  enum bfly_topology topo, u32 ports)
{
	struct bfly_geometry geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, topo, 2, ports, &why));
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
	size_t work = max(bfly_benes_workspace_size(geo),
			  bfly_selfroute_workspace_size(geo));

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

/*
 * Every edge stage is a permutation of link positions, for every size, an
 * involution, and Definition III.1 taken literally: position 2v + o goes
 * to 2v' + bit b of v, where v' is v with bit b set to o; b is the bit the
 * family flips at that edge stage (none at bfly-twice's middle edge).
 */
static void bfly_wiring_is_permutation(struct kunit *test)
{
	enum bfly_topology topo;
	struct bfly_geometry geo;
	unsigned long *seen;
	u32 n, e, p, q, v, want, bad_def, bad_flip;
	int b, want_flip;

	seen = bfly_test_alloc(test, BITS_TO_LONGS(1 << 12) * sizeof(long));
	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		for (n = 1; n <= 12; n++) {
			geo = bfly_test_geo(test, topo, 1U << n);
			bad_def = 0;
			bad_flip = 0;
			for (e = 0; e + 1 < geo.node_stages; e++) {
				b = bfly_wiring_flip(&geo, e);
				if (topo == BFLY_TOPO_BUTTERFLY)
					want_flip = n - 2 - e;
				else if (topo == BFLY_TOPO_BFLY2)
					want_flip = n - 2 - e % (n - 1);
				else if (topo == BFLY_TOPO_BENES)
					want_flip = e < n - 1 ? (int)(n - 2 - e) :
						    (int)(e - (n - 1));
				else
					want_flip = e < n - 1 ? (int)(n - 2 - e) :
						    e == n - 1 ? -1 : (int)(n - 2 - (e - n));
				bad_flip += b != want_flip;
				bitmap_zero(seen, geo.ports);
				for (p = 0; p < geo.ports; p++) {
					q = bfly_wiring_link(&geo, e, p);
					__set_bit(q, seen);
					v = p >> 1;
					want = b < 0 ? p : 2 * ((v & ~(1U << b)) | ((p & 1) << b)) +
							   ((v >> b) & 1);
					bad_def += q != want || bfly_wiring_link(&geo, e, q) != p;
				}
				KUNIT_EXPECT_EQ(test, geo.ports, bitmap_weight(seen, geo.ports));
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad_def, "%s N=%u: links off Def. III.1",
					    bfly_topology_name(topo), geo.ports);
			KUNIT_EXPECT_EQ_MSG(test, 0, bad_flip,
					    "%s N=%u: edge stages flip other bits",
					    bfly_topology_name(topo), geo.ports);
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

	/* the count goes on past a full list */
	b.conflicts.capacity = 2;
	KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, b.perm, NULL, NULL,
						     &b.conflicts, b.work));
	KUNIT_EXPECT_GT(test, b.conflicts.count, 2);
}

/*
 * Butterfly, N = 4 and 8, every permutation: exactly 2^((N/2) n) are
 * realizable; for every one the first conflicting stage equals the
 * conflict-window test, and the matrix traces to the permutation when it
 * is realizable, to what was delivered otherwise.
 */
static void bfly_butterfly_exhaustive(struct kunit *test)
{
	u32 n, i, count, realizable, bad_window, bad_trace;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;
	u32 *del;

	for (n = 2; n <= 3; n++) {
		geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		del = bfly_test_alloc(test, geo.ports * sizeof(u32));
		count = 0;
		realizable = 0;
		bad_window = 0;
		bad_trace = 0;
		for (i = 0; i < geo.ports; i++)
			b.perm[i] = i;
		do {
			count++;
			KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, b.perm, b.matrix, del,
								     &b.conflicts, b.work));
			bad_window += bfly_window_first_conflict(&geo, b.perm, b.seen) !=
				      b.conflicts.first_stage;
			bfly_trace(&geo, b.matrix, b.back);
			if (!b.conflicts.count) {
				realizable++;
				bad_trace += memcmp(b.back, b.perm, geo.ports * sizeof(u32)) ||
					     memcmp(del, b.perm, geo.ports * sizeof(u32));
			} else {
				bad_trace += !!memcmp(b.back, del, geo.ports * sizeof(u32));
			}
		} while (bfly_next_perm(b.perm, geo.ports));
		KUNIT_EXPECT_EQ(test, n == 2 ? 24 : 40320, count);
		KUNIT_EXPECT_EQ_MSG(test, 1U << (geo.ports / 2 * n), realizable, "N=%u", geo.ports);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_window, "N=%u", geo.ports);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_trace, "N=%u", geo.ports);
	}
}

/*
 * Butterfly, N = 16, 256, 4096: random permutations and the permutations
 * of random matrices (realizable): the window test agrees with self-routing,
 * a matrix's permutation routes without conflict, and a conflict-free
 * route traces back.
 */
static void bfly_butterfly_random(struct kunit *test)
{
	u32 n, r, i, reps, bad;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 7);
	for (n = 4; n <= 12; n += 4) {
		geo = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		reps = BFLY_TEST_REPS(200, 8);
		bad = 0;
		for (r = 0; r < reps; r++) {
			if (r & 1) {
				for (i = 0; i < geo.switches; i++)
					__assign_bit(i, b.matrix, prandom_u32_state(&rnd) & 1);
				KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, b.matrix, b.perm));
			} else {
				bfly_random_perm(&rnd, b.perm, geo.ports);
			}
			KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, b.perm, b.matrix, NULL,
								     &b.conflicts, b.work));
			bad += bfly_window_first_conflict(&geo, b.perm, b.seen) !=
			       b.conflicts.first_stage;
			bad += (r & 1) && b.conflicts.count;
			if (!b.conflicts.count) {
				bfly_trace(&geo, b.matrix, b.back);
				bad += !!memcmp(b.back, b.perm, geo.ports * sizeof(u32));
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", geo.ports, reps);
	}
}

/* Benes, N = 2, 4 and 8, every permutation routes and traces back. */
static void bfly_benes_exhaustive(struct kunit *test)
{
	u32 n, i, count, bad;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;

	for (n = 1; n <= 3; n++) {
		geo = bfly_test_geo(test, BFLY_TOPO_BENES, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		count = 0;
		bad = 0;
		for (i = 0; i < geo.ports; i++)
			b.perm[i] = i;
		do {
			count++;
			if (bfly_benes_route(&geo, b.perm, b.matrix, b.work) ||
			    bfly_trace(&geo, b.matrix, b.back) ||
			    memcmp(b.back, b.perm, geo.ports * sizeof(u32)))
				bad++;
			if (count % 4096 == 0)
				cond_resched();
		} while (bfly_next_perm(b.perm, geo.ports));
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", geo.ports, count);
	}
}

/*
 * Benes, N = 2 .. 65536 (and 2^17, 2^20 natively): the identity, the
 * reversal, the bit reversal and random permutations route and trace back.
 */
static void bfly_benes_random(struct kunit *test)
{
	u32 k, n, i, j, r, v, reps, bad;
	struct bfly_geometry geo;
	struct bfly_test_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 42);
	for (k = 1; k <= (BFLY_TEST_LARGE ? 18 : 16); k++) {
		n = k <= 16 ? k : k == 17 ? 17 : 20;
		geo = bfly_test_geo(test, BFLY_TOPO_BENES, 1U << n);
		bfly_test_bufs_init(test, &b, &geo);
		reps = BFLY_TEST_REPS(n <= 10 ? 300 : n <= 13 ? 40 : n <= 16 ? 8 : 5,
				      n <= 10 ? 8 : 3);
		bad = 0;
		for (r = 0; r < reps; r++) {
			for (i = 0; i < geo.ports && r < 3; i++) {
				for (v = 0, j = 0; j < n; j++)
					v |= ((i >> j) & 1) << (n - 1 - j);
				b.perm[i] = r == 0 ? i : r == 1 ? geo.ports - 1 - i : v;
			}
			if (r >= 3)
				bfly_random_perm(&rnd, b.perm, geo.ports);
			if (bfly_benes_route(&geo, b.perm, b.matrix, b.work) ||
			    bfly_trace(&geo, b.matrix, b.back) ||
			    memcmp(b.back, b.perm, geo.ports * sizeof(u32)))
				bad++;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", geo.ports, reps);
		cond_resched();
	}
}

/*
 * Benes routing refuses a repeated entry, an entry out of range and a
 * geometry that is no Benes network, and leaves the matrix alone.
 */
static void bfly_benes_invalid(struct kunit *test)
{
	struct bfly_geometry benes = bfly_test_geo(test, BFLY_TOPO_BENES, 16);
	struct bfly_geometry bfly = bfly_test_geo(test, BFLY_TOPO_BUTTERFLY, 16);
	struct bfly_test_bufs b;
	u32 i;

	bfly_test_bufs_init(test, &b, &benes);
	for (i = 0; i < 16; i++)
		b.perm[i] = i;
	b.matrix[0] = 0x5a5a;
	b.perm[3] = 5;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_benes_route(&benes, b.perm, b.matrix, b.work));
	b.perm[3] = 16;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_benes_route(&benes, b.perm, b.matrix, b.work));
	b.perm[3] = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_benes_route(&bfly, b.perm, b.matrix, b.work));
	KUNIT_EXPECT_EQ(test, 0x5a5a, b.matrix[0]);
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

static struct kunit_case bfly_route_cases[] = {
	KUNIT_CASE(bfly_wiring_n8_tables),
	KUNIT_CASE(bfly_wiring_is_permutation),
	KUNIT_CASE(bfly_selfroute_fig3),
	KUNIT_CASE_SLOW(bfly_butterfly_exhaustive),
	KUNIT_CASE(bfly_butterfly_random),
	KUNIT_CASE(bfly_butterfly_random_matrix),
	KUNIT_CASE_SLOW(bfly_benes_exhaustive),
	KUNIT_CASE_SLOW(bfly_benes_random),
	KUNIT_CASE(bfly_benes_invalid),
	{}
};

static struct kunit_suite bfly_route_suite = {
	.name = "bfly_route",
	.test_cases = bfly_route_cases,
};

kunit_test_suite(bfly_route_suite);
