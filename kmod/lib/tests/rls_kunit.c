// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: RLS labels (Algorithm 1), the all-to-all schedules and their
 * rounds on every topology, against the fabric model's checks.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "lib/geometry.h"
#include "lib/topology.h"
#include "lib/rls.h"
#include "lib/schedule.h"
#include "lib/selfroute.h"
#include "kunit_util.h"

/* pi-hat as Section IV-A states it: cases 1a, 1b, 2a, 2b. */
static u32 ref_pihat(u32 N, u32 i)
{
	bool even = !(i & 1), upper = i < N / 2;

	return even == upper ? i : N - 1 - i;
}

/* Algorithm 1 as written: I, then d without its leftmost bit. */
static u64 ref_label(u32 N, u32 n, u32 i, u32 k)
{
	u32 d = (i - k) & (N - 1), inter;

	if (k % 2 == 0)
		inter = ref_pihat(N, (i - k) & (N - 1));
	else
		inter = ref_pihat(N, (N / 2 - i + k - 1) & (N - 1));
	return ((u64)inter << (n - 1)) | (d & ((1U << (n - 1)) - 1));
}

static void bfly_rls_n16_values(struct kunit *test)
{
	static const u32 pihat16[16] = { 0, 14, 2, 12, 4, 10, 6, 8, 7, 9, 5, 11, 3, 13, 1, 15 };
	static const u32 inter_k1[16] = { 7, 8, 6, 10, 4, 12, 2, 14, 0, 15, 1, 13, 3, 11, 5, 9 };
	/* 0111111 1000000 0110001 1010010 */
	static const u64 labels_k1[4] = { 0x3f, 0x40, 0x31, 0x52 };
	u32 i;

	for (i = 0; i < 16; i++) {
		KUNIT_EXPECT_EQ(test, pihat16[i], ref_pihat(16, i));
		KUNIT_EXPECT_EQ(test, inter_k1[i], bfly_rls_intermediate(16, i, 1));
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, labels_k1[i], bfly_rls_label(16, i, 1));
}

/* Every label for N = 4 .. 1024 equals Algorithm 1, by every function. */
static void bfly_rls_labels_algorithm1(struct kunit *test)
{
	u64 *round = bfly_test_alloc(test, 1024 * sizeof(u64));
	u64 *proc = bfly_test_alloc(test, 1024 * sizeof(u64));
	u32 n, N, i, k, bad = 0;

	for (n = 2; n <= 10; n++) {
		N = 1U << n;
		for (k = 0; k < N; k++) {
			KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_round(N, k, round));
			for (i = 0; i < N; i++)
				bad += round[i] != ref_label(N, n, i, k);
		}
		for (i = 0; i < N; i += n) {
			KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_proc(N, i, 0, N, proc));
			for (k = 0; k < N; k++)
				bad += proc[k] != ref_label(N, n, i, k) ||
				       bfly_rls_label(N, i, k) != proc[k];
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_round(16, 16, round));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_proc(16, 3, 15, 2, proc));
}

/* Round k of a schedule on a fabric, routed by its labels. */
struct bfly_rls_round {
	struct bfly_geometry geo;
	struct bfly_sched sched;
	u32 *dest, *delivered, *subround;
	u64 *labels;
	unsigned long *matrix, *active;
	void *work;
	struct bfly_conflicts conflicts;
};

static void bfly_rls_round_init(struct kunit *test, struct bfly_rls_round *r,
				enum bfly_topology topo, u32 ports, enum bfly_latin latin)
{
	const char *why;
	size_t work;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&r->geo, topo, ports, &why));
	KUNIT_ASSERT_EQ(test, 0, bfly_sched_init(&r->sched, &r->geo, latin, NULL, NULL));
	work = max3(bfly_selfroute_workspace_size(&r->geo),
		    bfly_sched_check_workspace_size(&r->geo),
		    bfly_sched_split_workspace_size(&r->geo));
	r->dest = bfly_test_alloc(test, ports * sizeof(u32));
	r->delivered = bfly_test_alloc(test, ports * sizeof(u32));
	r->subround = bfly_test_alloc(test, ports * sizeof(u32));
	r->labels = bfly_test_alloc(test, ports * sizeof(u64));
	r->matrix = bfly_test_alloc(test, bfly_matrix_bytes(&r->geo));
	r->active = bfly_test_alloc(test, BFLY_MATRIX_BYTES(ports));
	r->work = bfly_test_alloc(test, work);
}

/* Route round @k; return its conflict count, check where it delivers. */
static u32 bfly_rls_route_round(struct kunit *test, struct bfly_rls_round *r, u32 k,
				u32 *misdelivered)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&r->sched, k, r->dest, r->labels));
	r->conflicts.count = 0;
	KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_labels(&r->geo, r->labels, r->matrix,
						       r->delivered, &r->conflicts, r->work));
	for (i = 0; i < r->geo.ports; i++)
		*misdelivered += r->delivered[i] != r->dest[i];
	return r->conflicts.count;
}

/*
 * Every RLS round k = 0 .. N-1 on bfly2 and bfly-twice self-routes with no
 * conflict and delivers i to (i - k) mod N; the batch takes Remark V.1's
 * cycles: (2n - 1) + (N - 1), and 2n + (N - 1) on bfly-twice.
 */
static void bfly_rls_rounds_conflict_free(struct kunit *test)
{
	static const enum bfly_topology topos[] = { BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	struct bfly_rls_round r;
	u32 t, n, k, i, conflicts, wrong_dest, misdelivered, stages;

	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		for (n = 1; n <= 8; n++) {
			u32 N = 1U << n;

			bfly_rls_round_init(test, &r, topos[t], N, BFLY_LATIN_RLS);
			conflicts = 0;
			wrong_dest = 0;
			misdelivered = 0;
			for (k = 0; k < N; k++) {
				conflicts += bfly_rls_route_round(test, &r, k, &misdelivered);
				for (i = 0; i < N; i++)
					wrong_dest += r.dest[i] != ((i - k) & (N - 1));
				KUNIT_EXPECT_EQ(test, 0, bfly_sched_check(&r.geo, r.labels, NULL,
									  NULL, r.work));
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, conflicts, "%s N=%u",
					    bfly_topology_name(topos[t]), N);
			KUNIT_EXPECT_EQ(test, 0, wrong_dest);
			KUNIT_EXPECT_EQ(test, 0, misdelivered);
			stages = topos[t] == BFLY_TOPO_BFLY2 ? 2 * n - 1 : 2 * n;
			KUNIT_EXPECT_EQ(test, (u64)stages + (N - 1), bfly_sched_cycles(&r.geo, N));
		}
	}
}

static void bfly_stage_string(const struct bfly_geometry *geo, const unsigned long *m,
			      char *s)
{
	u32 st, v;

	for (st = 0; st < geo->node_stages; st++) {
		for (v = 0; v < geo->nodes_per_stage; v++)
			*s++ = '0' + test_bit(st * geo->nodes_per_stage + v, m);
		*s++ = st + 1 < geo->node_stages ? ' ' : 0;
	}
}

/* The fabric model's switch settings for N = 8, k = 0 and 1, on bfly2. */
static void bfly_rls_n8_settings(struct kunit *test)
{
	static const char * const want[2] = {
		"0000 0110 0110 0110 0110", "0000 1101 0101 1001 0110",
	};
	struct bfly_rls_round r;
	u32 k, misdelivered = 0;
	char s[32];

	bfly_rls_round_init(test, &r, BFLY_TOPO_BFLY2, 8, BFLY_LATIN_RLS);
	for (k = 0; k < 2; k++) {
		KUNIT_EXPECT_EQ(test, 0, bfly_rls_route_round(test, &r, k, &misdelivered));
		bfly_stage_string(&r.geo, r.matrix, s);
		KUNIT_EXPECT_STREQ(test, want[k], s);
	}
}

/*
 * Remark IV.1 on bfly2: the second butterfly (node stages n .. 2n-2) has
 * the identity's settings for every even k; for odd k only stage n
 * differs, every node complemented. The identity: stage 0 straight and
 * both butterflies set alike.
 */
static void bfly_rls_remark_iv1(struct kunit *test)
{
	struct bfly_rls_round r;
	unsigned long *id;
	u32 n, N, k, s, v, bad, misdelivered = 0;

	for (n = 2; n <= 7; n++) {
		N = 1U << n;
		bfly_rls_round_init(test, &r, BFLY_TOPO_BFLY2, N, BFLY_LATIN_RLS);
		id = bfly_test_alloc(test, bfly_matrix_bytes(&r.geo));
		bfly_rls_route_round(test, &r, 0, &misdelivered);
		bitmap_copy(id, r.matrix, r.geo.switches);
		bad = 0;
		for (v = 0; v < N / 2; v++) {
			bad += test_bit(v, id);
			for (s = 1; s < n; s++)
				bad += test_bit(s * N / 2 + v, id) !=
				       test_bit((n - 1 + s) * N / 2 + v, id);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "identity, N=%u", N);

		bad = 0;
		for (k = 1; k < N; k++) {
			bfly_rls_route_round(test, &r, k, &misdelivered);
			for (s = n; s <= 2 * n - 2; s++)
				for (v = 0; v < N / 2; v++)
					bad += (test_bit(s * N / 2 + v, r.matrix) ^
						test_bit(s * N / 2 + v, id)) !=
					       ((k & 1) && s == n);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "Remark IV.1, N=%u", N);
	}
	KUNIT_EXPECT_EQ(test, 0, misdelivered);
}

/*
 * LLS on a single butterfly: rounds conflict, and the sub-round split
 * places every message once, each sub-round free of conflicts.
 */
static void bfly_lls_butterfly_split(struct kunit *test)
{
	struct bfly_rls_round r;
	u32 k, sub, i, placed, conflicting = 0, bad = 0, N = 16;
	int nsub;

	bfly_rls_round_init(test, &r, BFLY_TOPO_BUTTERFLY, N, BFLY_LATIN_LLS);
	for (k = 0; k < N; k++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_sched_round(&r.sched, k, r.dest, r.labels));
		conflicting += bfly_sched_check(&r.geo, r.labels, NULL, NULL, r.work) > 0;
		nsub = bfly_sched_split(&r.geo, r.labels, NULL, r.subround, r.work);
		KUNIT_ASSERT_GT(test, nsub, 0);
		placed = 0;
		for (sub = 0; sub < nsub; sub++) {
			bfly_sched_subround_active(N, r.subround, sub, r.active);
			placed += bitmap_weight(r.active, N);
			bad += bfly_sched_check(&r.geo, r.labels, r.active, NULL, r.work) != 0;
		}
		bad += placed != N;
		for (i = 0; i < N; i++)
			bad += r.subround[i] >= nsub;
	}
	KUNIT_EXPECT_GT(test, conflicting, 0);
	KUNIT_EXPECT_EQ(test, 0, bad);
}

/* Caller squares: a Latin square is accepted, anything else refused. */
static void bfly_latin_squares(struct kunit *test)
{
	struct bfly_geometry geo;
	struct bfly_sched sched;
	const char *why;
	u32 *sq, i, k, N = 8;
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, N, &why));
	sq = bfly_test_alloc(test, N * N * sizeof(u32));
	work = bfly_test_alloc(test, bfly_latin_check_workspace_size(N));
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i * 3 + k) % N;
	KUNIT_EXPECT_EQ(test, 0, bfly_latin_check(N, sq, work));
	KUNIT_EXPECT_EQ(test, 0, bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, sq, work));
	sq[1] = sq[0];
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_latin_check(N, sq, work));
	sq[1] = N;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, sq, work));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			bfly_sched_init(&sched, &geo, BFLY_LATIN_SQUARE, NULL, work));
}

static struct kunit_case bfly_rls_cases[] = {
	KUNIT_CASE(bfly_rls_n16_values),
	KUNIT_CASE_SLOW(bfly_rls_labels_algorithm1),
	KUNIT_CASE_SLOW(bfly_rls_rounds_conflict_free),
	KUNIT_CASE(bfly_rls_n8_settings),
	KUNIT_CASE(bfly_rls_remark_iv1),
	KUNIT_CASE(bfly_lls_butterfly_split),
	KUNIT_CASE(bfly_latin_squares),
	{}
};

static struct kunit_suite bfly_rls_suite = {
	.name = "bfly_rls",
	.test_cases = bfly_rls_cases,
};

kunit_test_suite(bfly_rls_suite);
