// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the multibutterfly as a fabric (core/mbfly_fabric.c) and its
 * h-relations (core/hrel_mbfly.c): creation takes d and a seed (0: one is
 * picked), measures a splitter, refuses bad d and N; an h-relation
 * delivers every message along its logical path in one round with
 * Theorem 2's bound held, and the operations that make no sense refuse.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "core/batch.h"
#include "core/core.h"
#include "core/hrel.h"
#include "core/route.h"
#include "lib/mbfly.h"
#include "lib/tests/kunit_util.h"
#include "lib/tests/mbfly_bad_table.h"
#include "core_kunit_util.h"

/* A multibutterfly deleted when the test ends. */
static struct bfly_fabric *bfly_hm_fabric(struct kunit *test, u32 ports, u32 d, u64 seed)
{
	struct bfly_fabric *fab;
	const char *why;

	fab = bfly_fabric_create_mbfly(ports, d, seed, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bfly_kunit_fabric_destroy, fab));
	return fab;
}

static void bfly_hm_create(struct kunit *test)
{
	struct bfly_fabric *fab, *bad;
	const char *why = NULL;

	fab = bfly_hm_fabric(test, 16, 2, 77);
	KUNIT_EXPECT_TRUE(test, fab->geo.mbfly);
	KUNIT_EXPECT_EQ(test, (u32)BFLY_TOPO_MBFLY, (u32)fab->geo.topology);
	KUNIT_EXPECT_EQ(test, 77ULL, fab->geo.mbfly_seed);
	KUNIT_EXPECT_EQ(test, 2U, fab->geo.mbfly_d);
	KUNIT_EXPECT_EQ(test, 5U, fab->geo.node_stages);
	/* 16 inputs: measured over every subset */
	KUNIT_EXPECT_EQ(test, 0U, fab->mbfly_exp.col);
	KUNIT_EXPECT_EQ(test, 16U, fab->mbfly_exp.inputs);
	KUNIT_EXPECT_TRUE(test, fab->mbfly_exp.exhaustive);
	KUNIT_EXPECT_EQ(test, 8U, fab->mbfly_exp.kmax);
	KUNIT_EXPECT_GT(test, fab->mbfly_exp.beta_fp16, 0U);
	KUNIT_EXPECT_LE(test, fab->mbfly_exp.beta_fp16, 2U << 16);

	/* 0: a seed is picked, never 0 */
	fab = bfly_hm_fabric(test, 4096, 8, 0);
	KUNIT_EXPECT_NE(test, 0ULL, fab->geo.mbfly_seed);
	KUNIT_EXPECT_EQ(test, 2U, fab->mbfly_exp.col);
	KUNIT_EXPECT_EQ(test, 1024U, fab->mbfly_exp.inputs);
	KUNIT_EXPECT_FALSE(test, fab->mbfly_exp.exhaustive);
	KUNIT_EXPECT_GT(test, fab->mbfly_exp.subsets, 0ULL);

	bad = bfly_fabric_create_mbfly(16, 0, 1, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)PTR_ERR(bad));
	KUNIT_EXPECT_TRUE(test, why && !strncmp(why, "d:", 2));
	bad = bfly_fabric_create_mbfly(16, 65, 1, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)PTR_ERR(bad));
	bad = bfly_fabric_create_mbfly(24, 2, 1, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)PTR_ERR(bad));
	KUNIT_EXPECT_TRUE(test, why && !strncmp(why, "ports:", 6));
	bad = bfly_fabric_create_mbfly(1U << 21, 2, 1, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)PTR_ERR(bad));
	/* the plain creation refuses mbfly: it has no d */
	bad = bfly_fabric_create_up(BFLY_TOPO_MBFLY, 2, 0, 16, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, (int)PTR_ERR(bad));
}

/* Run @count of @msgs with paths; @res is freed by the caller. */
static int bfly_hm_run(struct bfly_fabric *fab, u32 count, struct bfly_msgset_msg *msgs,
		       struct bfly_hrel_res *res)
{
	struct bfly_hrel_req req = {
		.count = count, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
		.want_paths = true,
	};

	memset(res, 0, sizeof(*res));
	return bfly_hrel(fab, &req, res);
}

/* h random permutations on N ports, routed: every path the logical one. */
static void bfly_hm_relation(struct kunit *test, u32 ports, u32 d, u32 h, u64 seed)
{
	struct bfly_fabric *fab = bfly_hm_fabric(test, ports, d, seed);
	u32 count = ports * h, cols = fab->geo.ports_log2 + 1;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, count * sizeof(*msgs));
	u32 *perm = bfly_test_alloc(test, ports * sizeof(u32));
	u64 before = atomic64_read(&fab->mem.used);
	struct bfly_hrel_res res;
	struct rnd_state rnd;
	u32 r, i, c, m;

	prandom_seed_state(&rnd, seed);
	for (r = 0; r < h; r++) {
		bfly_random_perm(&rnd, perm, ports);
		for (i = 0; i < ports; i++) {
			msgs[r * ports + i].src = i;
			msgs[r * ports + i].dst = perm[i];
		}
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_hm_run(fab, count, msgs, &res));
	KUNIT_EXPECT_TRUE(test, res.reported);
	KUNIT_EXPECT_EQ(test, h, res.h);
	KUNIT_EXPECT_EQ(test, 1U, res.rounds);
	KUNIT_EXPECT_EQ(test, 0U, res.colours);
	KUNIT_EXPECT_EQ(test, (u64)res.mbfly.stages, res.cycles);
	KUNIT_EXPECT_GT(test, res.mbfly.stages, 0U);
	KUNIT_EXPECT_TRUE(test, res.mbfly.bound_ok);
	KUNIT_EXPECT_LE(test, res.mbfly.max_through, 2 * res.mbfly.hbar);
	KUNIT_ASSERT_NOT_NULL(test, res.mbfly.paths);
	KUNIT_EXPECT_EQ(test, cols, res.mbfly.columns);
	for (m = 0; m < count; m++) {
		const u32 *p = res.mbfly.paths + (size_t)m * cols;
		u32 dst = msgs[m].dst, n = cols - 1;

		KUNIT_EXPECT_EQ(test, 0U, res.round[m]);
		KUNIT_EXPECT_EQ(test, msgs[m].src, p[0]);
		KUNIT_EXPECT_EQ(test, dst, p[n]);
		/* leaving column c, the row's top c + 1 bits are dst's */
		for (c = 1; c <= n; c++)
			KUNIT_EXPECT_EQ(test, p[c] >> (n - c), dst >> (n - c));
	}
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));
}

static void bfly_hm_routes(struct kunit *test)
{
	bfly_hm_relation(test, 2, 1, 1, 3);
	bfly_hm_relation(test, 16, 2, 1, 5);
	bfly_hm_relation(test, 64, 4, 4, 7);
	bfly_hm_relation(test, 256, 8, 2, 11);
}

static void bfly_hm_refusals(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_hm_fabric(test, 8, 2, 9);
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, 300 * sizeof(*msgs));
	struct bfly_route_req rreq = { .dry_run = true };
	struct bfly_route_res rres = {};
	struct bfly_batch_req breq = {};
	struct bfly_batch_res bres = {};
	struct bfly_hrel_res res;
	u32 m;

	for (m = 0; m < 8; m++) {
		msgs[m].src = m;
		msgs[m].dst = 7 - m;
	}
	msgs[3].dst = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hm_run(fab, 8, msgs, &res));
	KUNIT_EXPECT_TRUE(test, res.has_bad_msg);
	KUNIT_EXPECT_EQ(test, 3U, res.bad_msg);
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hm_run(fab, 0, msgs, &res));
	bfly_hrel_done(&res);
	/* h = 257 from one source: above the multibutterfly's limit */
	for (m = 0; m < 257; m++) {
		msgs[m].src = 0;
		msgs[m].dst = m % 8;
	}
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_hm_run(fab, 257, msgs, &res));
	KUNIT_EXPECT_NOT_NULL(test, res.why);
	bfly_hrel_done(&res);

	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_route(fab, &rreq, &rres));
	KUNIT_EXPECT_NOT_NULL(test, rres.why);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_batch(fab, &breq, &bres));
	KUNIT_EXPECT_NOT_NULL(test, bres.why);
}

/* A reader that fails as copy_from_user() does on a bad pointer. */
static int bfly_hm_read_fault(void *ctx, struct bfly_msgset_msg *msgs, u32 first, u32 count)
{
	return -EFAULT;
}

/*
 * Refusals the ioctl cannot provoke on the fabric's wiring: a stage limit of 1
 * (-EAGAIN, messages left); a reader that faults (-EFAULT). Each says why,
 * reports nothing and gives back every byte it charged.
 */
static void bfly_hm_budget(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_hm_fabric(test, 64, 4, 13);
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, 256 * sizeof(*msgs));
	u32 *perm = bfly_test_alloc(test, 64 * sizeof(u32));
	u64 before = atomic64_read(&fab->mem.used);
	struct bfly_mbfly_params tight = { .max_stages = 1 };
	struct bfly_hrel_req req = {
		.count = 256, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
		.want_paths = true, .mbfly_params = &tight,
	};
	struct bfly_hrel_res res = {};
	struct rnd_state rnd;
	u32 r, i;

	prandom_seed_state(&rnd, 13);
	for (r = 0; r < 4; r++) {
		bfly_random_perm(&rnd, perm, 64);
		for (i = 0; i < 64; i++) {
			msgs[r * 64 + i].src = i;
			msgs[r * 64 + i].dst = perm[i];
		}
	}
	KUNIT_EXPECT_EQ(test, -EAGAIN, bfly_hrel(fab, &req, &res));
	KUNIT_EXPECT_FALSE(test, res.reported);
	KUNIT_EXPECT_FALSE(test, res.has_bad_msg);
	KUNIT_EXPECT_EQ(test, 0ULL, res.bytes_moved);
	KUNIT_EXPECT_TRUE(test, res.why && strstr(res.why, "stage limit"));
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));

	/* the default limit routes the same relation */
	req.mbfly_params = NULL;
	memset(&res, 0, sizeof(res));
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel(fab, &req, &res));
	KUNIT_EXPECT_TRUE(test, res.reported);
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));

	req.read_msgs = bfly_hm_read_fault;
	memset(&res, 0, sizeof(res));
	KUNIT_EXPECT_EQ(test, -EFAULT, bfly_hrel(fab, &req, &res));
	KUNIT_EXPECT_FALSE(test, res.reported);
	KUNIT_EXPECT_TRUE(test, res.why && strstr(res.why, "cannot access"));
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));
}

/*
 * A bad wiring through bfly_hrel_req.mbfly_params (mbfly_bad_table.h):
 * -EOVERFLOW, said why, nothing reported, the memory given back.
 */
static void bfly_hm_overflow(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_hm_fabric(test, 1024, 2, 5);
	u32 cnt = 1024 * 256, k, r, i, *t;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, (size_t)cnt * sizeof(*msgs));
	u64 before = atomic64_read(&fab->mem.used);
	struct bfly_mbfly_params bad = {};
	struct bfly_hrel_req req = {
		.count = cnt, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
		.mbfly_params = &bad,
	};
	struct bfly_hrel_res res = {};
	struct bfly_mbfly g;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 1024, 2, 5, &why));
	t = bfly_test_alloc(test, bfly_mbfly_table_size(&g));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_table_fill(&g, t));
	bfly_mbfly_bad_table(&g, t);
	bad.table = t;
	for (k = 0, i = 0; k < 256; k++)
		for (r = 0; r < 1024; r++, i++) {
			msgs[i].src = r;
			msgs[i].dst = (r + k * 3) % 1024;
		}
	KUNIT_EXPECT_EQ(test, -EOVERFLOW, bfly_hrel(fab, &req, &res));
	KUNIT_EXPECT_FALSE(test, res.reported);
	KUNIT_EXPECT_TRUE(test, res.why && strstr(res.why, "overflowed"));
	bfly_hrel_done(&res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));
}

static struct kunit_case bfly_hrel_mbfly_cases[] = {
	KUNIT_CASE(bfly_hm_create),
	KUNIT_CASE(bfly_hm_routes),
	KUNIT_CASE(bfly_hm_refusals),
	KUNIT_CASE(bfly_hm_budget),
	KUNIT_CASE(bfly_hm_overflow),
	{}
};

static struct kunit_suite bfly_hrel_mbfly_suite = {
	.name = "bfly_hrel_mbfly",
	.test_cases = bfly_hrel_mbfly_cases,
};

kunit_test_suite(bfly_hrel_mbfly_suite);
