// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the message-set service (core/msgset.c). Its refusals name the
 * message at fault and give back every byte charged; a set routed by the
 * service reports what the library reports; paths and loads are kept
 * only when asked for.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "core/core.h"
#include "core/msgset.h"
#include "lib/tests/kunit_util.h"
#include "core_kunit_util.h"

/* Run @req over @msgs; the memory charged is given back by bfly_msgset_done(). */
static int bfly_ms_run(struct kunit *test, struct bfly_fabric *fab, struct bfly_msgset_req *req,
		       struct bfly_msgset_msg *msgs, struct bfly_msgset_res *res)
{
	u64 before = atomic64_read(&fab->mem.used);
	int err;

	memset(res, 0, sizeof(*res));
	req->read_msgs = bfly_kunit_read_msgs;
	req->ctx = msgs;
	err = bfly_msgset(fab, req, res);
	bfly_msgset_done(res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));
	return err;
}

static void bfly_msgset_refusals(struct kunit *test)
{
	struct bfly_fabric *bf = bfly_kunit_fabric(test, BFLY_TOPO_BUTTERFLY, 2, 0, 8);
	struct bfly_fabric *cb = bfly_kunit_fabric(test, BFLY_TOPO_CB_LCAN, 2, 2, 8);
	struct bfly_fabric *tl = bfly_kunit_fabric(test, BFLY_TOPO_T_LCAN, 4, 2, 16);
	struct bfly_msgset_msg *msgs = kunit_kcalloc(test, 8, sizeof(*msgs), GFP_KERNEL);
	struct bfly_msgset_req req = { .count = 8 };
	struct bfly_msgset_res res;
	u32 m;

	KUNIT_ASSERT_NOT_NULL(test, msgs);
	for (m = 0; m < 8; m++) {
		msgs[m].src = m;
		msgs[m].dst = 7 - m;
	}
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_ms_run(test, bf, &req, msgs, &res));
	KUNIT_EXPECT_EQ(test, 0, bfly_ms_run(test, cb, &req, msgs, &res));

	req.count = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	req.count = BFLY_MSGSET_MAX_MSGS + 1;
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_ms_run(test, cb, &req, msgs, &res));
	req.count = 8;
	req.mode = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	KUNIT_EXPECT_FALSE(test, res.has_bad_msg);
	req.mode = BFLY_MSGSET_UNIDIR;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, tl, &req, msgs, &res));
	KUNIT_EXPECT_FALSE(test, res.has_bad_msg);
	req.mode = BFLY_MSGSET_BIDIR;
	req.strategy = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	req.strategy = BFLY_MSGSET_OFFLINE;

	msgs[5].dst = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	KUNIT_EXPECT_TRUE(test, res.has_bad_msg);
	KUNIT_EXPECT_EQ(test, 5U, res.bad_msg);
	msgs[5].dst = 2;
	msgs[6].pad = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	KUNIT_EXPECT_EQ(test, 6U, res.bad_msg);
	msgs[6].pad = 0;
	msgs[2].len = 8;	/* payload, no buffers */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	KUNIT_EXPECT_EQ(test, 2U, res.bad_msg);
	msgs[2].len = 0;
	req.want_paths = true;
	req.path_room = 8 * 2 * 3 - 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
	req.path_room = 8 * 2 * 3;
	KUNIT_EXPECT_EQ(test, 0, bfly_ms_run(test, cb, &req, msgs, &res));
	req.want_loads = true;
	req.load_room = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_ms_run(test, cb, &req, msgs, &res));
}

/* Identity, and an h-relation: the figures the library's rules give. */
static void bfly_msgset_routed(struct kunit *test)
{
	struct bfly_fabric *cb = bfly_kunit_fabric(test, BFLY_TOPO_CB_LCAN, 2, 2, 16);
	struct bfly_msgset_msg *msgs = kunit_kcalloc(test, 64, sizeof(*msgs), GFP_KERNEL);
	struct bfly_msgset_req req = { .count = 16, .want_loads = true, .load_room = U64_MAX,
				       .want_paths = true, .path_room = U64_MAX };
	struct bfly_msgset_res res = {};
	u64 ch, sum = 0;
	u32 m;

	KUNIT_ASSERT_NOT_NULL(test, msgs);
	for (m = 0; m < 64; m++) {
		msgs[m].src = m % 16;
		msgs[m].dst = m < 16 ? m : (m * 5 + 3) % 16;
	}
	req.read_msgs = bfly_kunit_read_msgs;
	req.ctx = msgs;
	KUNIT_ASSERT_EQ(test, 0, bfly_msgset(cb, &req, &res));
	KUNIT_EXPECT_TRUE(test, res.reported);
	KUNIT_EXPECT_EQ(test, 4U, res.levels);
	KUNIT_EXPECT_EQ(test, 1U, res.cycles);
	KUNIT_EXPECT_EQ(test, 1U, res.bound);
	KUNIT_EXPECT_EQ(test, 16U, res.routed);
	KUNIT_ASSERT_NOT_NULL(test, res.load);
	KUNIT_ASSERT_NOT_NULL(test, res.paths);
	for (ch = 0; ch < res.channels; ch++)
		sum += res.load[ch];
	/* identity: each PE's wire up and down, no bundle */
	KUNIT_EXPECT_EQ(test, 32ULL, sum);
	bfly_msgset_done(&res);

	/* a 4-relation: every PE sends and receives 4, one a cycle at most */
	memset(&res, 0, sizeof(res));
	req.count = 64;
	req.want_paths = false;
	req.want_loads = false;
	KUNIT_ASSERT_EQ(test, 0, bfly_msgset(cb, &req, &res));
	KUNIT_EXPECT_NULL(test, res.paths);
	KUNIT_EXPECT_NULL(test, res.load);
	KUNIT_EXPECT_GE(test, res.bound, 4U);
	KUNIT_EXPECT_GE(test, res.cycles, res.bound);
	KUNIT_EXPECT_EQ(test, 64U, res.routed);
	for (m = 0; m < 64; m++)
		KUNIT_EXPECT_LT(test, res.cycle[m], res.cycles);
	bfly_msgset_done(&res);
}

static struct kunit_case bfly_msgset_cases[] = {
	KUNIT_CASE(bfly_msgset_refusals),
	KUNIT_CASE(bfly_msgset_routed),
	{}
};

static struct kunit_suite bfly_msgset_suite = {
	.name = "bfly_msgset",
	.test_cases = bfly_msgset_cases,
};

kunit_test_suite(bfly_msgset_suite);
