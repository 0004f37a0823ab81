// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the all-to-all schedules (schedule.c) on every topology. Each
 * round is a permutation and the rounds together send every message once;
 * the quick conflict check agrees with self-routing; the sub-round split
 * covers every message and each sub-round, walked through the wiring
 * independently of schedule.c, is conflict-free and delivers; the Benes
 * network routes every round by looping; caller squares must be Latin.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/benes.h"
#include "lib/flatfly.h"
#include "lib/geometry.h"
#include "lib/linkload.h"
#include "lib/schedule.h"
#include "lib/selfroute.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

static struct bfly_geometry bfly_sch_geo(struct kunit *test, enum bfly_topology topo,
					 u32 ports)
{
	struct bfly_geometry geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, topo, 2, ports, &why));
	return geo;
}

/*
 * Walk the active packets of a sub-round by their labels through the
 * wiring: false when a link carries two packets or one misses @dest.
 * @owner has node_stages * N entries.
 */
static bool bfly_sch_walk(const struct bfly_geometry *geo, const u64 *labels,
			  const u32 *dest, const unsigned long *active, u32 *owner)
{
	u32 N = geo->ports, S = geo->node_stages, i, s, pos;
	bool ok = true;

	for (i = 0; i < S * N; i++)
		owner[i] = U32_MAX;
	for (i = 0; i < N; i++) {
		if (!test_bit(i, active))
			continue;
		pos = i;
		for (s = 0; s < S; s++) {
			pos = (pos & ~1U) | ((labels[i] >> (S - 1 - s)) & 1);
			if (owner[s * N + pos] != U32_MAX)
				ok = false;
			owner[s * N + pos] = i;
			if (s + 1 < S)
				pos = bfly_wiring_link(geo, s, pos);
		}
		ok &= pos == dest[i];
	}
	return ok;
}

/* What one schedule's rounds need. */
struct bfly_sch_bufs {
	u32 *dest, *del, *subround, *owner;
	u8 *seen;
	u64 *labels;
	unsigned long *matrix, *active;
	void *sr_work, *check_work, *split_work, *ll_work;
};

static void bfly_sch_init(struct kunit *test, struct bfly_sch_bufs *b,
			  const struct bfly_geometry *geo)
{
	u32 N = geo->ports;

	b->dest = bfly_test_alloc(test, N * sizeof(u32));
	b->del = bfly_test_alloc(test, N * sizeof(u32));
	b->subround = bfly_test_alloc(test, N * sizeof(u32));
	b->owner = bfly_test_alloc(test, geo->node_stages * N * sizeof(u32));
	b->seen = bfly_test_alloc(test, (size_t)N * N);
	b->labels = bfly_test_alloc(test, N * sizeof(u64));
	b->matrix = bfly_test_alloc(test, bfly_matrix_bytes(geo));
	b->active = bfly_test_alloc(test, BITS_TO_LONGS(N) * sizeof(long));
	b->sr_work = bfly_test_alloc(test, bfly_selfroute_workspace_size(geo));
	b->check_work = bfly_test_alloc(test, bfly_sched_check_workspace_size(geo));
	b->split_work = bfly_test_alloc(test, bfly_sched_split_workspace_size(geo));
	b->ll_work = bfly_test_alloc(test, bfly_linkload_workspace_size(geo) +
				     bfly_latin_check_workspace_size(N));
}

/*
 * Run every round of @latin (with @square) on @topo, N = 2^@n: rounds are
 * permutations covering every pair once; the check agrees with
 * self-routing (and its first stage); the split's sub-rounds cover every
 * message, walk conflict-free to their destinations and load no link
 * twice. Returns whether some round had conflicts.
 */
static bool bfly_sch_run(struct kunit *test, enum bfly_topology topo, u32 n,
			 enum bfly_latin latin, const u32 *square)
{
	struct bfly_geometry geo = bfly_sch_geo(test, topo, 1U << n);
	u32 N = geo.ports, k, i, sub, mll, first, bad = 0;
	struct bfly_conflicts c;
	struct bfly_sched sched;
	struct bfly_sch_bufs b;
	bool conflicts = false;
	int nc, nsub;

	bfly_sch_init(test, &b, &geo);
	KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&sched, &geo, latin, square, b.ll_work));
	for (k = 0; k < N; k++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&sched, k, b.dest, b.labels));
		for (i = 0; i < N; i++) {
			if (b.dest[i] >= N || b.seen[(size_t)i * N + b.dest[i]]++)
				bad++;
		}
		c = (struct bfly_conflicts){ 0 };
		bfly_selfroute_labels(&geo, b.labels, b.matrix, b.del, &c, b.sr_work);
		nc = bfly_sched_check(&geo, b.labels, NULL, &first, b.check_work);
		bad += (nc == 0) != (c.count == 0) || first != c.first_stage;
		conflicts |= nc > 0;
		nsub = bfly_sched_split(&geo, b.labels, NULL, b.subround, b.split_work);
		if (nsub < 1 || (nc == 0 && nsub != 1)) {
			bad++;
			continue;
		}
		for (i = 0; i < N; i++)
			bad += b.subround[i] >= nsub;
		for (sub = 0; sub < nsub; sub++) {
			bfly_sched_subround_active(N, b.subround, sub, b.active);
			bad += !bfly_sch_walk(&geo, b.labels, b.dest, b.active, b.owner);
			bad += bfly_sched_check(&geo, b.labels, b.active, NULL,
						b.check_work) != 0;
			bfly_linkload_labels(&geo, b.labels, b.active, NULL, NULL, &mll,
					     b.ll_work);
			bad += mll > 1;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s, schedule %u, N=%u", bfly_topology_name(topo),
			    latin, N);
	/* a schedule proven conflict-free has no conflicting round */
	KUNIT_EXPECT_FALSE_MSG(test, conflicts && bfly_sched_proven(&sched),
			       "%s, schedule %u, N=%u", bfly_topology_name(topo), latin, N);
	KUNIT_EXPECT_EQ(test, bfly_sched_proven(&sched),
			(latin == BFLY_LATIN_RLS || latin == BFLY_LATIN_LLS) &&
			topo != BFLY_TOPO_BUTTERFLY);
	return conflicts;
}

/* a(i, k) = sigma(tau(i) XOR rho(k)): a random Latin square */
static u32 *bfly_sch_random_latin(struct kunit *test, struct rnd_state *rnd, u32 N)
{
	u32 *sq = bfly_test_alloc(test, (size_t)N * N * sizeof(u32));
	u32 *sigma = bfly_test_alloc(test, N * sizeof(u32));
	u32 *tau = bfly_test_alloc(test, N * sizeof(u32));
	u32 *rho = bfly_test_alloc(test, N * sizeof(u32));
	u32 i, k;

	bfly_random_perm(rnd, sigma, N);
	bfly_random_perm(rnd, tau, N);
	bfly_random_perm(rnd, rho, N);
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[(size_t)i * N + k] = sigma[tau[i] ^ rho[k]];
	return sq;
}

/*
 * N = 4 .. 256 (.. 32 in the kernel): on one butterfly LLS, RLS and XOR
 * rounds conflict and the split delivers them; on bfly2 and bfly-twice
 * RLS, LLS and XOR rounds never conflict (bfly_sched_proven() for RLS and
 * LLS), and a random Latin square's rounds, conflicting or not, are all
 * delivered.
 */
static void bfly_schedule_rounds(struct kunit *test)
{
	enum bfly_topology topo;
	struct rnd_state rnd;
	u32 n;

	prandom_seed_state(&rnd, 9);
	for (n = 2; n <= (BFLY_TEST_LARGE ? 8 : 5); n++) {
		KUNIT_EXPECT_TRUE(test, bfly_sch_run(test, BFLY_TOPO_BUTTERFLY, n,
						     BFLY_LATIN_LLS, NULL));
		KUNIT_EXPECT_TRUE(test, bfly_sch_run(test, BFLY_TOPO_BUTTERFLY, n,
						     BFLY_LATIN_RLS, NULL));
		KUNIT_EXPECT_TRUE(test, bfly_sch_run(test, BFLY_TOPO_BUTTERFLY, n,
						     BFLY_LATIN_XOR, NULL));
		for (topo = BFLY_TOPO_BFLY2; topo <= BFLY_TOPO_BFLY_TWICE; topo++) {
			KUNIT_EXPECT_FALSE(test, bfly_sch_run(test, topo, n, BFLY_LATIN_RLS, NULL));
			KUNIT_EXPECT_FALSE(test, bfly_sch_run(test, topo, n, BFLY_LATIN_LLS, NULL));
			KUNIT_EXPECT_FALSE(test, bfly_sch_run(test, topo, n, BFLY_LATIN_XOR, NULL));
			bfly_sch_run(test, topo, n, BFLY_LATIN_SQUARE,
				     bfly_sch_random_latin(test, &rnd, 1U << n));
		}
		cond_resched();
	}
}

/*
 * The systolic square on 2 x 2 fabrics, N = 4 .. 256 (.. 32 in the
 * kernel): round k sends i where the flattened butterfly's radix-2
 * systolic schedule does; its rounds are Latin and delivered on every
 * fabric, and never conflict on bfly2 and bfly-twice.
 */
static void bfly_schedule_systolic(struct kunit *test)
{
	struct bfly_geometry geo;
	struct bfly_flatfly flat;
	struct bfly_sched sched;
	enum bfly_topology topo;
	u32 n, N, k, i, bad = 0;
	const char *why;
	u32 *dest;

	for (n = 2; n <= (BFLY_TEST_LARGE ? 8 : 5); n++) {
		geo = bfly_sch_geo(test, BFLY_TOPO_BFLY2, 1U << n);
		N = geo.ports;
		dest = bfly_test_alloc(test, N * sizeof(u32));
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&flat, 2, N, &why));
		KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&sched, &geo, BFLY_LATIN_SYSTOLIC,
							 NULL, NULL));
		for (k = 0; k < N; k++) {
			KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&sched, k, dest, NULL));
			for (i = 0; i < N; i++)
				bad += dest[i] != bfly_flatfly_systolic_dest(&flat, i, k);
		}
		bfly_sch_run(test, BFLY_TOPO_BUTTERFLY, n, BFLY_LATIN_SYSTOLIC, NULL);
		for (topo = BFLY_TOPO_BFLY2; topo <= BFLY_TOPO_BFLY_TWICE; topo++)
			KUNIT_EXPECT_FALSE(test, bfly_sch_run(test, topo, n, BFLY_LATIN_SYSTOLIC,
							      NULL));
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
}

/*
 * Benes, N = 4 .. 256 (.. 32 in the kernel): RLS, LLS, XOR and systolic
 * rounds have no labels, and the looping algorithm routes every round; the
 * batch takes (2n - 1) + (N - 1) cycles.
 */
static void bfly_schedule_benes_rounds(struct kunit *test)
{
	struct bfly_geometry geo;
	struct bfly_sched sched;
	enum bfly_latin latin;
	u32 n, N, k, i, bad;
	unsigned long *matrix;
	u32 *dest, *back;
	u64 labels[2];
	void *work;

	for (n = 2; n <= (BFLY_TEST_LARGE ? 8 : 5); n++) {
		geo = bfly_sch_geo(test, BFLY_TOPO_BENES, 1U << n);
		N = geo.ports;
		dest = bfly_test_alloc(test, N * sizeof(u32));
		back = bfly_test_alloc(test, N * sizeof(u32));
		matrix = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
		work = bfly_test_alloc(test, bfly_benes_workspace_size(&geo));
		for (latin = BFLY_LATIN_RLS; latin <= BFLY_LATIN_SYSTOLIC; latin++) {
			if (latin == BFLY_LATIN_SQUARE)
				continue;
			KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&sched, &geo, latin, NULL, NULL));
			KUNIT_EXPECT_EQ(test, -EOPNOTSUPP,
					bfly_sched_round(&sched, 0, NULL, labels));
			bad = 0;
			for (k = 0; k < N; k++) {
				KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&sched, k, dest, NULL));
				bad += bfly_benes_route(&geo, dest, matrix, work) != 0;
				bfly_trace(&geo, matrix, back);
				for (i = 0; i < N; i++)
					bad += back[i] != dest[i];
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad, "schedule %u, N=%u", latin, N);
		}
		KUNIT_EXPECT_EQ(test, 2 * n - 1 + N - 1, bfly_sched_cycles(&geo, N));
	}
}

/*
 * Squares, N = 16 on bfly2: RLS and XOR written out are Latin, and a caller
 * square equal to XOR gives XOR's rounds and labels; a repeat in a row or a
 * column, swapped entries, an entry N and a missing square are refused, as
 * are an unknown schedule, a bad geometry and round N. RLS is bfly2's
 * default.
 */
static void bfly_latin_squares(struct kunit *test)
{
	struct bfly_geometry geo = bfly_sch_geo(test, BFLY_TOPO_BFLY2, 16);
	u32 a[16], b[16], i, k, t, N = 16;
	struct bfly_sched sched, xor;
	u64 la[16], lb[16];
	void *work;
	u32 *sq;

	sq = bfly_test_alloc(test, N * N * sizeof(u32));
	work = bfly_test_alloc(test, bfly_latin_check_workspace_size(N));
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i - k) & (N - 1);
	KUNIT_EXPECT_EQ(test, 0, bfly_latin_check(N, sq, work));
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = i ^ k;
	KUNIT_EXPECT_EQ(test, 0, bfly_latin_check(N, sq, work));
	KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, sq, work));
	KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&xor, &geo, BFLY_LATIN_XOR, NULL, NULL));
	for (k = 0; k < N; k++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&sched, k, a, la));
		KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&xor, k, b, lb));
		KUNIT_EXPECT_MEMEQ(test, a, b, sizeof(a));
		KUNIT_EXPECT_MEMEQ(test, la, lb, sizeof(la));
	}

	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i + 2 * k) & (N - 1);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, sq, work));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, sq, work));
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = k;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, sq, work));
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i - k) & (N - 1);
	t = sq[5 * N + 3];
	sq[5 * N + 3] = sq[5 * N + 4];
	sq[5 * N + 4] = t;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, sq, work));
	sq[5 * N + 4] = sq[5 * N + 3];
	sq[5 * N + 3] = t;
	sq[7 * N + 2] = N;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, sq, work));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, NULL, work));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, NULL,
						       work));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, 0, NULL, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, BFLY_LATIN_SYSTOLIC + 1, NULL,
						       NULL));
	geo.ports = 12;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, BFLY_LATIN_RLS, NULL, NULL));
	geo = bfly_sch_geo(test, BFLY_TOPO_BFLY2, 16);
	KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&sched, &geo, BFLY_LATIN_RLS, NULL, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_round(&sched, N, NULL, NULL));
	KUNIT_EXPECT_EQ(test, BFLY_LATIN_RLS, bfly_sched_default(&geo));
}

static struct kunit_case bfly_schedule_cases[] = {
	KUNIT_CASE_SLOW(bfly_schedule_rounds),
	KUNIT_CASE(bfly_schedule_systolic),
	KUNIT_CASE(bfly_schedule_benes_rounds),
	KUNIT_CASE(bfly_latin_squares),
	{}
};

static struct kunit_suite bfly_schedule_suite = {
	.name = "bfly_schedule",
	.test_cases = bfly_schedule_cases,
};

kunit_test_suite(bfly_schedule_suite);
