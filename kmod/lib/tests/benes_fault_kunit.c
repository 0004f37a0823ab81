// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: Benes routing around stuck nodes (benes_fault.c). The matrix
 * always realizes the permutation, the unmet count matches the bits, N = 4
 * is optimal against brute force, single stuck nodes outside the middle
 * stage are always honoured, and link faults change nothing.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/benes_fault.h"
#include "lib/geometry.h"
#include "lib/topology.h"
#include "lib/fault.h"
#include "lib/trace.h"
#include "kunit_util.h"

/* Everything one routing needs. */
struct bfly_bf_bufs {
	struct bfly_geometry geo;
	u32 *perm, *back;
	unsigned long *matrix, *matrix2;
	void *work;
};

static void bfly_bf_init(struct kunit *test, struct bfly_bf_bufs *b, u32 ports)
{
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&b->geo, BFLY_TOPO_BENES, ports, &why));
	b->perm = bfly_test_alloc(test, ports * sizeof(u32));
	b->back = bfly_test_alloc(test, ports * sizeof(u32));
	b->matrix = bfly_test_alloc(test, bfly_matrix_bytes(&b->geo));
	b->matrix2 = bfly_test_alloc(test, bfly_matrix_bytes(&b->geo));
	b->work = bfly_test_alloc(test, bfly_benes_fault_workspace_size(&b->geo));
}

static struct bfly_fault bfly_bf_stuck(u32 stage, u32 index, u32 state)
{
	struct bfly_fault f = {
		.kind = BFLY_FAULT_STUCK, .stage = stage, .index = index, .state = state
	};

	return f;
}

/* Stuck nodes in another state in @matrix, counted from the bits. */
static u32 bfly_bf_recount(const struct bfly_geometry *geo, const unsigned long *matrix,
			   const struct bfly_fault *f, u32 nf)
{
	u32 i, c = 0;

	for (i = 0; i < nf; i++)
		if (f[i].kind == BFLY_FAULT_STUCK &&
		    test_bit(bfly_matrix_bit(geo, f[i].stage, f[i].index), matrix) != f[i].state)
			c++;
	return c;
}

/*
 * Route b->perm into b->matrix; true when it succeeds, traces back and
 * *@unmet matches the bits.
 */
static bool bfly_bf_route(struct bfly_bf_bufs *b, const struct bfly_fault *f, u32 nf,
			  u32 *unmet)
{
	*unmet = U32_MAX;
	if (bfly_benes_route_stuck(&b->geo, b->perm, f, nf, b->matrix, b->work, unmet))
		return false;
	if (bfly_trace(&b->geo, b->matrix, b->back) ||
	    memcmp(b->back, b->perm, b->geo.ports * sizeof(u32)))
		return false;
	return *unmet == bfly_bf_recount(&b->geo, b->matrix, f, nf);
}

/*
 * N = 4, every permutation and every assignment of no fault / stuck 0 /
 * stuck 1 to the 6 nodes: unmet is the optimum over the matrices that
 * realize the permutation, all 64 matrices traced once.
 */
static void bfly_bf_n4_optimal(struct kunit *test)
{
	struct bfly_fault f[6];
	struct bfly_bf_bufs b;
	u32 (*traced)[4];
	u32 a, x, i, nf, mat, miss, best, unmet, bad = 0, bad_opt = 0;

	bfly_bf_init(test, &b, 4);
	traced = bfly_test_alloc(test, 64 * sizeof(*traced));
	for (mat = 0; mat < 64; mat++) {
		b.matrix[0] = mat;
		KUNIT_ASSERT_EQ(test, 0, bfly_trace(&b.geo, b.matrix, traced[mat]));
	}
	for (i = 0; i < 4; i++)
		b.perm[i] = i;
	do {
		for (a = 1; a < 729; a++) {
			nf = 0;
			for (x = a, i = 0; i < 6; i++, x /= 3)
				if (x % 3)
					f[nf++] = bfly_bf_stuck(i / 2, i % 2, x % 3 - 1);
			best = U32_MAX;
			for (mat = 0; mat < 64; mat++) {
				if (memcmp(traced[mat], b.perm, 4 * sizeof(u32)))
					continue;
				miss = 0;
				for (i = 0; i < nf; i++)
					miss += ((mat >> (2 * f[i].stage + f[i].index)) & 1) !=
						f[i].state;
				best = min(best, miss);
			}
			if (!bfly_bf_route(&b, f, nf, &unmet))
				bad++;
			else if (unmet != best)
				bad_opt++;
		}
	} while (bfly_next_perm(b.perm, 4));
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 0, bad_opt);
}

/*
 * N = 8, random permutations with every single stuck node: the matrix
 * traces back, and the stuck node is honoured unless it is in the middle
 * stage.
 */
static void bfly_bf_n8_single(struct kunit *test)
{
	struct bfly_bf_bufs b;
	struct bfly_fault f;
	struct rnd_state rnd;
	u32 r, s, k, v, unmet, bad = 0, outer_miss = 0, mid_miss = 0;

	bfly_bf_init(test, &b, 8);
	prandom_seed_state(&rnd, 8);
	for (r = 0; r < 1000; r++) {
		bfly_random_perm(&rnd, b.perm, 8);
		for (s = 0; s < 5; s++)
			for (k = 0; k < 4; k++)
				for (v = 0; v < 2; v++) {
					f = bfly_bf_stuck(s, k, v);
					if (!bfly_bf_route(&b, &f, 1, &unmet) || unmet > 1)
						bad++;
					else if (s == 2)
						mid_miss += unmet;
					else
						outer_miss += unmet;
				}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 0, outer_miss);
	kunit_info(test, "middle stage unhonoured in %u of %u cases\n", mid_miss, 1000 * 8);
}

/*
 * N = 1024: random permutations with 48 random stuck nodes: the matrix
 * traces back, unmet matches the bits, and link faults mixed into the
 * list change nothing.
 */
static void bfly_bf_random_1024(struct kunit *test)
{
	struct bfly_fault *f, *mixed;
	struct bfly_bf_bufs b;
	struct rnd_state rnd;
	u32 r, i, j, nf = 48, nm, unmet, unmet2;

	bfly_bf_init(test, &b, 1024);
	f = bfly_test_alloc(test, BFLY_MAX_FAULTS * sizeof(*f));
	mixed = bfly_test_alloc(test, 2 * BFLY_MAX_FAULTS * sizeof(*mixed));
	prandom_seed_state(&rnd, 1024);
	for (r = 0; r < 8; r++) {
		bfly_random_perm(&rnd, b.perm, b.geo.ports);
		for (i = 0; i < nf; i++) {
			do {
				u32 stage = prandom_u32_state(&rnd) % b.geo.node_stages;
				u32 node = prandom_u32_state(&rnd) % b.geo.nodes_per_stage;

				f[i] = bfly_bf_stuck(stage, node, prandom_u32_state(&rnd) & 1);
				for (j = 0; j < i; j++)
					if (f[j].stage == f[i].stage && f[j].index == f[i].index)
						break;
			} while (j < i);
		}
		nm = 0;
		for (i = 0; i < nf; i++) {
			if (i % 3 == 0) {
				mixed[nm].kind = BFLY_FAULT_LINK;
				mixed[nm].stage = prandom_u32_state(&rnd) % b.geo.node_stages;
				mixed[nm].index = prandom_u32_state(&rnd) % b.geo.ports;
				mixed[nm++].state = 0;
			}
			mixed[nm++] = f[i];
		}
		KUNIT_ASSERT_TRUE(test, bfly_bf_route(&b, f, nf, &unmet));
		KUNIT_EXPECT_LE(test, unmet, nf);
		bitmap_copy(b.matrix2, b.matrix, b.geo.switches);
		KUNIT_ASSERT_TRUE(test, bfly_bf_route(&b, mixed, nm, &unmet2));
		KUNIT_EXPECT_EQ(test, unmet, unmet2);
		KUNIT_EXPECT_TRUE(test, bitmap_equal(b.matrix, b.matrix2, b.geo.switches));
	}
}

static struct kunit_case bfly_benes_fault_cases[] = {
	KUNIT_CASE(bfly_bf_n4_optimal),
	KUNIT_CASE_SLOW(bfly_bf_n8_single),
	KUNIT_CASE(bfly_bf_random_1024),
	{}
};

static struct kunit_suite bfly_benes_fault_suite = {
	.name = "bfly_benes_fault",
	.test_cases = bfly_benes_fault_cases,
};

kunit_test_suite(bfly_benes_fault_suite);
