// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: Benes routing around stuck nodes (benes_fault.c). The matrix
 * always realizes the permutation, the unmet count matches the bits and
 * every bit is written, N = 4 is optimal against brute force, single stuck
 * nodes outside the middle stage are always honoured, and so are stuck
 * nodes of the outer stages that some routing can honour, the vote's
 * majority and tie rules, and link faults change nothing.
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

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&b->geo, BFLY_TOPO_BENES, 2, ports, &why));
	b->perm = bfly_test_alloc(test, ports * sizeof(u32));
	b->back = bfly_test_alloc(test, ports * sizeof(u32));
	b->matrix = bfly_test_alloc(test, bfly_matrix_bytes(&b->geo));
	b->matrix2 = bfly_test_alloc(test, bfly_matrix_bytes(&b->geo));
	b->work = bfly_test_alloc(test, bfly_benes_fault_workspace_size(&b->geo));
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

/* @nf stuck nodes (at most one per node) on random nodes, random states */
static u32 bfly_bf_random_stuck(struct rnd_state *rnd, const struct bfly_geometry *geo,
				struct bfly_fault *f, u32 nf)
{
	u32 i, j;

	nf = min_t(u64, nf, geo->switches);
	for (i = 0; i < nf; i++) {
		do {
			u32 stage = prandom_u32_state(rnd) % geo->node_stages;
			u32 node = prandom_u32_state(rnd) % geo->nodes_per_stage;

			f[i] = bfly_test_stuck(stage, node, prandom_u32_state(rnd) & 1);
			for (j = 0; j < i; j++)
				if (f[j].stage == f[i].stage && f[j].index == f[i].index)
					break;
		} while (j < i);
	}
	return nf;
}

/* No faults, N = 2 .. 8 (2 .. 4 in the kernel): every permutation routes. */
static void bfly_bf_nofault_exhaustive(struct kunit *test)
{
	struct bfly_bf_bufs b;
	u32 n, i, unmet, count, bad;

	for (n = 1; n <= (BFLY_TEST_LARGE ? 3 : 2); n++) {
		bfly_bf_init(test, &b, 1U << n);
		for (i = 0; i < b.geo.ports; i++)
			b.perm[i] = i;
		count = 0;
		bad = 0;
		do {
			count++;
			if (!bfly_bf_route(&b, NULL, 0, &unmet) || unmet)
				bad++;
		} while (bfly_next_perm(b.perm, b.geo.ports));
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", b.geo.ports, count);
	}
}

/*
 * No faults, the identity and random permutations: N = 16 .. 4096 and
 * 65536 and 2^20 natively, N = 16 .. 1024 in the kernel.
 */
static void bfly_bf_nofault_random(struct kunit *test)
{
	static const u32 big[] = { 16, 20 };
	struct bfly_bf_bufs b;
	struct rnd_state rnd;
	u32 n, r, i, k, reps, unmet, bad;

	prandom_seed_state(&rnd, 16);
	for (k = 4; k <= (BFLY_TEST_LARGE ? 12 + ARRAY_SIZE(big) : 10); k++) {
		n = k <= 12 ? k : big[k - 13];
		reps = BFLY_TEST_REPS(n <= 8 ? 200 : n <= 12 ? 30 : 2, 4);
		bfly_bf_init(test, &b, 1U << n);
		bad = 0;
		for (r = 0; r < reps; r++) {
			if (r)
				bfly_random_perm(&rnd, b.perm, b.geo.ports);
			else
				for (i = 0; i < b.geo.ports; i++)
					b.perm[i] = i;
			if (!bfly_bf_route(&b, NULL, 0, &unmet) || unmet)
				bad++;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", b.geo.ports, reps);
		cond_resched();
	}
}

/* N = 2: one node, the permutation decides it; unmet counts the miss. */
static void bfly_bf_n2(struct kunit *test)
{
	struct bfly_bf_bufs b;
	struct bfly_fault f;
	u32 s, v, unmet;

	bfly_bf_init(test, &b, 2);
	for (s = 0; s < 2; s++)
		for (v = 0; v < 2; v++) {
			b.perm[0] = s;
			b.perm[1] = !s;
			f = bfly_test_stuck(0, 0, v);
			KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, &f, 1, &unmet));
			KUNIT_EXPECT_EQ(test, s != v, unmet);
		}
}

/*
 * N = 4, every permutation and every assignment of no fault / stuck 0 /
 * stuck 1 to the 6 nodes, listed in node order and in reverse: unmet is
 * the optimum over the matrices that realize the permutation, all 64
 * matrices traced once.
 */
static void bfly_bf_n4_optimal(struct kunit *test)
{
	struct bfly_fault f[6], rev[6];
	struct bfly_bf_bufs b;
	u32 (*traced)[4];
	u32 a, x, i, d, nf, mat, miss, best, unmet, cases = 0, bad = 0, bad_opt = 0;

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
					f[nf++] = bfly_test_stuck(i / 2, i % 2, x % 3 - 1);
			for (i = 0; i < nf; i++)
				rev[i] = f[nf - 1 - i];
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
			for (d = 0; d < 2; d++) {
				cases++;
				if (!bfly_bf_route(&b, d ? rev : f, nf, &unmet))
					bad++;
				else if (unmet != best)
					bad_opt++;
			}
		}
	} while (bfly_next_perm(b.perm, 4));
	KUNIT_EXPECT_EQ(test, 24 * 728 * 2, cases);
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 0, bad_opt);
}

/*
 * N = 8, every permutation (natively; 1000 random ones in the kernel) with
 * every single stuck node: the matrix traces back, unmet matches the bits,
 * and the stuck node is honoured unless it is in the middle stage.
 */
static void bfly_bf_n8_single(struct kunit *test)
{
	u32 r = 0, s, k, v, unmet, bad = 0, outer_miss = 0, mid_miss = 0, cases = 0;
	struct bfly_bf_bufs b;
	struct bfly_fault f;
	struct rnd_state rnd;

	bfly_bf_init(test, &b, 8);
	prandom_seed_state(&rnd, 8);
	for (s = 0; s < 8; s++)
		b.perm[s] = s;
	do {
		if (!BFLY_TEST_LARGE)
			bfly_random_perm(&rnd, b.perm, 8);
		for (s = 0; s < 5; s++)
			for (k = 0; k < 4; k++)
				for (v = 0; v < 2; v++) {
					f = bfly_test_stuck(s, k, v);
					cases++;
					if (!bfly_bf_route(&b, &f, 1, &unmet) || unmet > 1)
						bad++;
					else if (s == 2)
						mid_miss += unmet;
					else
						outer_miss += unmet;
				}
		if (++r % 256 == 0)
			cond_resched();
	} while (BFLY_TEST_LARGE ? bfly_next_perm(b.perm, 8) : r < 1000);
	KUNIT_EXPECT_EQ(test, (BFLY_TEST_LARGE ? 40320 : 1000) * 40, cases);
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 0, outer_miss);
	kunit_info(test, "middle stage unhonoured in %u of %u cases\n", mid_miss, cases / 5);
}

/* Lexicographic rank of a permutation of 0 .. 7. */
static u32 bfly_bf_rank8(const u32 *p)
{
	u32 r = 0, i, j, less;

	for (i = 0; i < 8; i++) {
		less = 0;
		for (j = i + 1; j < 8; j++)
			less += p[j] < p[i];
		r = r * (8 - i) + less;
	}
	return r;
}

/*
 * N = 8, every permutation with every single stuck middle-stage node (the
 * figures Documentation/bfly.rst gives): the routing leaves 53760 of the
 * 322560 cases unhonoured, 49152 of which another routing honours (some
 * matrix realizing the permutation has the node in the stuck state: all
 * 2^20 matrices traced once). Natively only: too slow for the test kernel.
 */
static void bfly_bf_n8_middle_honourable(struct kunit *test)
{
	u32 *any_set, *any_clear, mat, r, k, v, unmet, miss = 0, possible = 0, cases = 0;
	struct bfly_bf_bufs b;
	struct bfly_fault f;

	if (!BFLY_TEST_LARGE)
		kunit_skip(test, "2^20 traces: natively only");
	bfly_bf_init(test, &b, 8);
	any_set = bfly_test_alloc(test, 40320 * sizeof(u32));
	any_clear = bfly_test_alloc(test, 40320 * sizeof(u32));
	for (mat = 0; mat < 1U << 20; mat++) {
		b.matrix[0] = mat;
		bfly_trace(&b.geo, b.matrix, b.back);
		r = bfly_bf_rank8(b.back);
		any_set[r] |= mat;
		any_clear[r] |= ~mat & 0xfffff;
	}
	for (k = 0; k < 8; k++)
		b.perm[k] = k;
	do {
		r = bfly_bf_rank8(b.perm);
		for (k = 0; k < 4; k++)
			for (v = 0; v < 2; v++) {
				f = bfly_test_stuck(2, k, v);
				cases++;
				KUNIT_ASSERT_TRUE(test, bfly_bf_route(&b, &f, 1, &unmet));
				miss += unmet;
				mat = v ? any_set[r] : any_clear[r];
				possible += unmet && (mat >> (8 + k)) & 1;
			}
	} while (bfly_next_perm(b.perm, 8));
	KUNIT_EXPECT_EQ(test, 322560, cases);
	KUNIT_EXPECT_EQ(test, 53760, miss);
	KUNIT_EXPECT_EQ(test, 49152, possible);
}

/*
 * Random stuck nodes on random permutations, N = 2 .. 1024 (.. 256 in the
 * kernel): the matrix traces back, unmet matches the bits, and every bit
 * is written (a matrix full of ones before gives the same bits).
 */
static void bfly_bf_random(struct kunit *test)
{
	struct bfly_fault *f = bfly_test_alloc(test, BFLY_MAX_FAULTS * sizeof(*f));
	u32 n, r, nf, unmet, unmet2, reps, bad, bad_bits;
	struct bfly_bf_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 1);
	for (n = 1; n <= (BFLY_TEST_LARGE ? 10 : 8); n++) {
		reps = BFLY_TEST_REPS(n <= 6 ? 300 : 50, 8);
		bfly_bf_init(test, &b, 1U << n);
		bad = 0;
		bad_bits = 0;
		for (r = 0; r < reps; r++) {
			bfly_random_perm(&rnd, b.perm, b.geo.ports);
			nf = bfly_bf_random_stuck(&rnd, &b.geo, f,
						  1 + prandom_u32_state(&rnd) % BFLY_MAX_FAULTS);
			bitmap_zero(b.matrix, b.geo.switches);
			if (!bfly_bf_route(&b, f, nf, &unmet)) {
				bad++;
				continue;
			}
			bitmap_copy(b.matrix2, b.matrix, b.geo.switches);
			bitmap_fill(b.matrix, b.geo.switches);
			if (!bfly_bf_route(&b, f, nf, &unmet2) || unmet2 != unmet ||
			    !bitmap_equal(b.matrix, b.matrix2, b.geo.switches))
				bad_bits++;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u: routes that fail", b.geo.ports);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_bits, "N=%u: bits left unwritten", b.geo.ports);
		cond_resched();
	}
}

/*
 * Up to BFLY_MAX_FAULTS stuck nodes (at most N) on distinct nodes of the
 * outer stages 0 and 2n-2, each in its state in @matrix; returns how many.
 */
static u32 bfly_bf_outer_stuck(struct rnd_state *rnd, const struct bfly_geometry *geo,
			       const unsigned long *matrix, struct bfly_fault *f)
{
	u32 nf = min(1 + prandom_u32_state(rnd) % BFLY_MAX_FAULTS, geo->ports);
	u32 i, j, stage, node;

	for (i = 0; i < nf; i++) {
		do {
			stage = prandom_u32_state(rnd) & 1 ? 0 : geo->node_stages - 1;
			node = prandom_u32_state(rnd) % geo->nodes_per_stage;
			for (j = 0; j < i; j++)
				if (f[j].stage == stage && f[j].index == node)
					break;
		} while (j < i);
		f[i] = bfly_test_stuck(stage, node,
				       test_bit(bfly_matrix_bit(geo, stage, node), matrix));
	}
	return nf;
}

/*
 * Stuck nodes on the outer stages 0 and 2n-2 in the states of some matrix
 * that realizes the permutation are all honoured (depth 0 can give each
 * cycle either orientation): N = 4 .. 1024 (.. 256 in the kernel).
 */
static void bfly_bf_outer_consistent(struct kunit *test)
{
	struct bfly_fault *f = bfly_test_alloc(test, BFLY_MAX_FAULTS * sizeof(*f));
	u32 n, r, nf, unmet, reps, bad;
	struct bfly_bf_bufs b;
	struct rnd_state rnd;
	u64 bit;

	prandom_seed_state(&rnd, 2);
	for (n = 2; n <= (BFLY_TEST_LARGE ? 10 : 8); n++) {
		reps = BFLY_TEST_REPS(100, 8);
		bfly_bf_init(test, &b, 1U << n);
		bad = 0;
		for (r = 0; r < reps; r++) {
			for (bit = 0; bit < b.geo.switches; bit++)
				__assign_bit(bit, b.matrix2, prandom_u32_state(&rnd) & 1);
			KUNIT_ASSERT_EQ(test, 0, bfly_trace(&b.geo, b.matrix2, b.perm));
			nf = bfly_bf_outer_stuck(&rnd, &b.geo, b.matrix2, f);
			if (!bfly_bf_route(&b, f, nf, &unmet) || unmet)
				bad++;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u: %u sets of outer stuck nodes",
				    b.geo.ports, reps);
	}
}

/*
 * The vote. N = 16, outputs 1 and 2 swapped: input nodes 0 and 1 and
 * output nodes 0 and 1 of the outer stages form one cycle, on which node
 * 0 of stage 0 is set unlike node 1 of stage 0, and node 1 of stage 6
 * like it. On a tie the earlier stuck node wins (link faults do not
 * vote); otherwise the majority, in any order.
 */
static void bfly_bf_vote(struct kunit *test)
{
	struct bfly_fault f1 = bfly_test_stuck(0, 0, 1), f2 = bfly_test_stuck(0, 1, 1);
	struct bfly_fault f3 = bfly_test_stuck(6, 1, 1);
	const u32 n0 = 0, n1 = 1, o1 = 6 * 8 + 1;
	struct bfly_bf_bufs b;
	struct bfly_fault l[4];
	u32 i, unmet;

	bfly_bf_init(test, &b, 16);
	for (i = 0; i < 16; i++)
		b.perm[i] = i;
	b.perm[1] = 2;
	b.perm[2] = 1;

	l[0] = f1;
	l[1] = f2;
	KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, l, 2, &unmet));
	KUNIT_EXPECT_EQ(test, 1, unmet);
	KUNIT_EXPECT_TRUE(test, test_bit(0, b.matrix));
	l[0] = f2;
	l[1] = f1;
	KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, l, 2, &unmet));
	KUNIT_EXPECT_EQ(test, 1, unmet);
	KUNIT_EXPECT_TRUE(test, test_bit(1, b.matrix));
	l[0] = f1;
	l[1] = bfly_test_link(0, 0);
	l[2] = bfly_test_link(0, 1);
	l[3] = f2;
	KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, l, 4, &unmet));
	KUNIT_EXPECT_EQ(test, 1, unmet);
	KUNIT_EXPECT_TRUE(test, test_bit(0, b.matrix));

	l[0] = f1;
	l[1] = f2;
	l[2] = f3;
	KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, l, 3, &unmet));
	KUNIT_EXPECT_EQ(test, 1, unmet);
	KUNIT_EXPECT_FALSE(test, test_bit(n0, b.matrix));
	KUNIT_EXPECT_TRUE(test, test_bit(n1, b.matrix));
	KUNIT_EXPECT_TRUE(test, test_bit(o1, b.matrix));
	l[0] = f3;
	l[1] = f1;
	l[2] = f2;
	KUNIT_EXPECT_TRUE(test, bfly_bf_route(&b, l, 3, &unmet));
	KUNIT_EXPECT_EQ(test, 1, unmet);
	KUNIT_EXPECT_FALSE(test, test_bit(n0, b.matrix));
}

/*
 * Link faults mixed into a list of random stuck nodes change nothing:
 * N = 4 .. 1024 (random permutations, up to 32 stuck nodes).
 */
static void bfly_bf_links_ignored(struct kunit *test)
{
	struct bfly_fault *f = bfly_test_alloc(test, BFLY_MAX_FAULTS * sizeof(*f));
	struct bfly_fault *mixed = bfly_test_alloc(test, 2 * BFLY_MAX_FAULTS * sizeof(*mixed));
	u32 n, r, i, nf, nm, unmet, unmet2, reps, bad;
	struct bfly_bf_bufs b;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 1024);
	for (n = 2; n <= 10; n++) {
		reps = BFLY_TEST_REPS(50, n == 10 ? 8 : 2);
		bfly_bf_init(test, &b, 1U << n);
		bad = 0;
		for (r = 0; r < reps; r++) {
			bfly_random_perm(&rnd, b.perm, b.geo.ports);
			nf = bfly_bf_random_stuck(&rnd, &b.geo, f,
						  1 + prandom_u32_state(&rnd) %
						  (BFLY_MAX_FAULTS / 2));
			nm = 0;
			for (i = 0; i < nf; i++) {
				if (prandom_u32_state(&rnd) & 1)
					mixed[nm++] = bfly_test_link(prandom_u32_state(&rnd) %
								   b.geo.node_stages,
								   prandom_u32_state(&rnd) %
								   b.geo.ports);
				mixed[nm++] = f[i];
			}
			if (!bfly_bf_route(&b, f, nf, &unmet)) {
				bad++;
				continue;
			}
			bitmap_copy(b.matrix2, b.matrix, b.geo.switches);
			if (!bfly_bf_route(&b, mixed, nm, &unmet2) || unmet2 != unmet ||
			    !bitmap_equal(b.matrix, b.matrix2, b.geo.switches))
				bad++;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u: %u lists with link faults mixed in",
				    b.geo.ports, reps);
	}
}

static struct kunit_case bfly_benes_fault_cases[] = {
	KUNIT_CASE(bfly_bf_nofault_exhaustive),
	KUNIT_CASE_SLOW(bfly_bf_nofault_random),
	KUNIT_CASE(bfly_bf_n2),
	KUNIT_CASE(bfly_bf_n4_optimal),
	KUNIT_CASE_SLOW(bfly_bf_n8_single),
	KUNIT_CASE_SLOW(bfly_bf_n8_middle_honourable),
	KUNIT_CASE_SLOW(bfly_bf_random),
	KUNIT_CASE(bfly_bf_outer_consistent),
	KUNIT_CASE(bfly_bf_vote),
	KUNIT_CASE_SLOW(bfly_bf_links_ignored),
	{}
};

static struct kunit_suite bfly_benes_fault_suite = {
	.name = "bfly_benes_fault",
	.test_cases = bfly_benes_fault_cases,
};

kunit_test_suite(bfly_benes_fault_suite);
