// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: RLS labels (Algorithm 1 of the RLS paper) against the paper's
 * text, and the RLS rounds on bfly2 and bfly-twice: no conflicts, where
 * they deliver, Remark IV.1's settings and Remark V.1's cycles.
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
#include "lib/trace.h"
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
		KUNIT_EXPECT_EQ(test, pihat16[i], bfly_rls_pihat(4, i));
		KUNIT_EXPECT_EQ(test, inter_k1[i], bfly_rls_intermediate(16, i, 1));
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, labels_k1[i], bfly_rls_label(16, i, 1));
}

/*
 * pi-hat, N = 2 .. 16384 (.. 1024 in the kernel): the paper's four cases,
 * its own inverse, and realizable on one butterfly with node stage 0
 * straight.
 */
static void bfly_rls_pihat_sizes(struct kunit *test)
{
	u32 n, N, i, bad_ref, bad_inv, bad_route;
	struct bfly_geometry geo;
	struct bfly_conflicts c;
	unsigned long *matrix;
	u32 *perm, *del;
	const char *why;
	void *work;

	for (n = 1; n <= (BFLY_TEST_LARGE ? 14 : 10); n++) {
		N = 1U << n;
		KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, N, &why));
		perm = bfly_test_alloc(test, N * sizeof(u32));
		del = bfly_test_alloc(test, N * sizeof(u32));
		matrix = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
		work = bfly_test_alloc(test, bfly_selfroute_workspace_size(&geo));
		bad_ref = 0;
		bad_inv = 0;
		bad_route = 0;
		for (i = 0; i < N; i++) {
			perm[i] = bfly_rls_pihat(n, i);
			bad_ref += perm[i] != ref_pihat(N, i);
		}
		for (i = 0; i < N; i++)
			bad_inv += perm[perm[i]] != i;
		c = (struct bfly_conflicts){ 0 };
		KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, perm, matrix, del, &c, work));
		bad_route += c.count;
		for (i = 0; i < N / 2; i++)
			bad_route += test_bit(bfly_matrix_bit(&geo, 0, i), matrix);
		for (i = 0; i < N; i++)
			bad_route += del[i] != perm[i];
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_ref, "N=%u: off the four cases", N);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_inv, "N=%u: not its own inverse", N);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad_route, "N=%u: on one butterfly", N);
		cond_resched();
	}
}

/*
 * Every label for N = 2 .. 4096 (4 .. 1024 in the kernel, every n-th
 * processor) equals Algorithm 1, by every function, and has 2n - 1 bits;
 * bad N, processors, rounds and ranges are refused.
 */
static void bfly_rls_labels_algorithm1(struct kunit *test)
{
	u32 max = BFLY_TEST_LARGE ? 4096 : 1024;
	u64 *round = bfly_test_alloc(test, max * sizeof(u64));
	u64 *proc = bfly_test_alloc(test, max * sizeof(u64));
	u32 n, N, i, k, bad;

	for (n = BFLY_TEST_LARGE ? 1 : 2; (1U << n) <= max; n++) {
		N = 1U << n;
		bad = 0;
		for (k = 0; k < N; k++) {
			KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_round(N, k, round));
			for (i = 0; i < N; i++)
				bad += round[i] != ref_label(N, n, i, k) ||
				       round[i] >> (2 * n - 1);
		}
		for (i = 0; i < N; i += BFLY_TEST_LARGE ? 1 : n) {
			KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_proc(N, i, 0, N, proc));
			for (k = 0; k < N; k++)
				bad += proc[k] != ref_label(N, n, i, k) ||
				       bfly_rls_label(N, i, k) != proc[k];
			/* Algorithm 1's own loop: k = 1 .. N - 1 */
			KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_proc(N, i, 1, N - 1, proc));
			for (k = 1; k < N; k++)
				bad += proc[k - 1] != ref_label(N, n, i, k);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u", N);
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_round(12, 0, round));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_round(1, 0, round));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_round(16, 16, round));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_proc(16, 16, 0, 1, proc));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_proc(16, 0, 15, 2, proc));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_proc(16, 0, 17, 0, proc));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_rls_labels_proc(16, 0, 1, U32_MAX, proc));
	KUNIT_EXPECT_EQ(test, 0, bfly_rls_labels_proc(16, 3, 16, 0, proc));
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

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&r->geo, topo, 2, ports, &why));
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
 * Every RLS round k = 0 .. N-1 on bfly2 and bfly-twice, N = 2 .. 1024
 * (.. 256 in the kernel), self-routes with no conflict, is one sub-round
 * and delivers i to (i - k) mod N; the batch takes Remark V.1's cycles:
 * (2n - 1) + (N - 1), and 2n + (N - 1) on bfly-twice.
 */
static void bfly_rls_rounds_conflict_free(struct kunit *test)
{
	static const enum bfly_topology topos[] = { BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	u32 t, n, k, i, conflicts, wrong_dest, misdelivered, stages, split;
	struct bfly_rls_round r;
	u64 injections;

	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		for (n = 1; n <= (BFLY_TEST_LARGE ? 10 : 8); n++) {
			u32 N = 1U << n;

			bfly_rls_round_init(test, &r, topos[t], N, BFLY_LATIN_RLS);
			conflicts = 0;
			wrong_dest = 0;
			misdelivered = 0;
			split = 0;
			injections = 0;
			for (k = 0; k < N; k++) {
				conflicts += bfly_rls_route_round(test, &r, k, &misdelivered);
				for (i = 0; i < N; i++)
					wrong_dest += r.dest[i] != ((i - k) & (N - 1));
				KUNIT_EXPECT_EQ(test, 0, bfly_sched_check(&r.geo, r.labels, NULL,
									  NULL, r.work));
				i = bfly_sched_split(&r.geo, r.labels, NULL, r.subround, r.work);
				split += i != 1;
				injections += i;
			}
			KUNIT_EXPECT_EQ(test, 0, split);
			KUNIT_EXPECT_EQ_MSG(test, 0, conflicts, "%s N=%u",
					    bfly_topology_name(topos[t]), N);
			KUNIT_EXPECT_EQ(test, 0, wrong_dest);
			KUNIT_EXPECT_EQ(test, 0, misdelivered);
			stages = topos[t] == BFLY_TOPO_BFLY2 ? 2 * n - 1 : 2 * n;
			KUNIT_EXPECT_EQ(test, (u64)stages + (N - 1),
					bfly_sched_cycles(&r.geo, injections));
		}
	}
}

static void bfly_stage_string(const struct bfly_geometry *geo, const unsigned long *m,
			      char *s)
{
	u32 st, v;

	for (st = 0; st < geo->node_stages; st++) {
		for (v = 0; v < geo->nodes_per_stage; v++)
			*s++ = '0' + test_bit(bfly_matrix_bit(geo, st, v), m);
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

/* The nodes of stage @s set unlike in @id, every one complemented if @flip. */
static u32 bfly_rls_stage_differs(const struct bfly_geometry *geo, const unsigned long *m,
				  const unsigned long *id, u32 s, bool flip)
{
	u32 v, bad = 0;

	for (v = 0; v < geo->nodes_per_stage; v++)
		bad += (test_bit(bfly_matrix_bit(geo, s, v), m) ^
			test_bit(bfly_matrix_bit(geo, s, v), id)) != flip;
	return bad;
}

/*
 * Remark IV.1: the second butterfly (node stages n .. 2n-2 on bfly2,
 * n+1 .. 2n-1 on bfly-twice) has the identity's settings for every even
 * k; for odd k only its first stage differs, every node complemented
 * (bfly-twice's stage n, its pass-through, never does). The identity has
 * node stage 0 straight and both butterflies set alike. N = 4 .. 1024
 * (.. 128 in the kernel).
 */
static void bfly_rls_remark_iv1(struct kunit *test)
{
	static const enum bfly_topology topos[] = { BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	u32 t, n, N, k, s, v, bad, second, misdelivered = 0;
	struct bfly_rls_round r;
	unsigned long *id;
	bool twice;

	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		twice = topos[t] == BFLY_TOPO_BFLY_TWICE;
		for (n = 2; n <= (BFLY_TEST_LARGE ? 10 : 7); n++) {
			N = 1U << n;
			second = twice ? n + 1 : n;
			bfly_rls_round_init(test, &r, topos[t], N, BFLY_LATIN_RLS);
			id = bfly_test_alloc(test, bfly_matrix_bytes(&r.geo));
			bfly_rls_route_round(test, &r, 0, &misdelivered);
			bitmap_copy(id, r.matrix, r.geo.switches);
			bad = 0;
			for (v = 0; v < N / 2; v++) {
				bad += test_bit(bfly_matrix_bit(&r.geo, 0, v), id);
				for (s = twice ? 0 : 1; s < n; s++)
					bad += test_bit(bfly_matrix_bit(&r.geo, s, v), id) !=
					       test_bit(bfly_matrix_bit(&r.geo, twice ? n + s :
									n - 1 + s, v), id);
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s identity, N=%u",
					    bfly_topology_name(topos[t]), N);

			bad = 0;
			for (k = 1; k < N; k++) {
				bfly_rls_route_round(test, &r, k, &misdelivered);
				for (s = n; s < r.geo.node_stages; s++)
					bad += bfly_rls_stage_differs(&r.geo, r.matrix, id, s,
								      (k & 1) && s == second);
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s Remark IV.1, N=%u",
					    bfly_topology_name(topos[t]), N);
			cond_resched();
		}
	}
	KUNIT_EXPECT_EQ(test, 0, misdelivered);
}

static struct kunit_case bfly_rls_cases[] = {
	KUNIT_CASE(bfly_rls_n16_values),
	KUNIT_CASE(bfly_rls_pihat_sizes),
	KUNIT_CASE_SLOW(bfly_rls_labels_algorithm1),
	KUNIT_CASE_SLOW(bfly_rls_rounds_conflict_free),
	KUNIT_CASE(bfly_rls_n8_settings),
	KUNIT_CASE(bfly_rls_remark_iv1),
	{}
};

static struct kunit_suite bfly_rls_suite = {
	.name = "bfly_rls",
	.test_cases = bfly_rls_cases,
};

kunit_test_suite(bfly_rls_suite);
