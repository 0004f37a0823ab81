// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a fabric's injected faults (core/faults.c). Adding and deleting
 * are all or nothing and name the refused entry, clearing, snapshots, a
 * deleted fabric refusing everything, one fault walk worked by hand, and
 * the rules of the fault-add and fault-del service.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>

#include "core/core.h"
#include "lib/fault.h"
#include "lib/trace.h"
#include "lib/tests/kunit_util.h"
#include "core_kunit_util.h"

static void bfly_ft_kfree_action(void *p)
{
	kfree(p);
}

/* A fabric deleted when the test ends. */
static struct bfly_fabric *bfly_ft_fabric(struct kunit *test,
					  enum bfly_topology topology, u32 ports)
{
	return bfly_kunit_fabric(test, topology, 2, 0, ports);
}

/* The fabric holds exactly @n faults, @f, in that order. */
static void bfly_ft_expect_list(struct kunit *test, struct bfly_fabric *fab,
				const struct bfly_fault *f, u32 n)
{
	KUNIT_ASSERT_EQ(test, n, fab->faults.count);
	if (n)
		KUNIT_EXPECT_MEMEQ(test, fab->faults.list, f, n * sizeof(*f));
}

/*
 * Add @f[0..@n): refused with @err, @bad naming the last entry, nothing
 * added.
 */
static void bfly_ft_add_refused(struct kunit *test, struct bfly_fabric *fab,
				const struct bfly_fault *f, u32 n, int err, u32 bad,
				const struct bfly_fault *before, u32 nbefore)
{
	const char *why = NULL;
	u32 got = U32_MAX;

	KUNIT_EXPECT_EQ(test, err, bfly_fabric_faults_add(fab, f, n, &got, &why));
	KUNIT_EXPECT_EQ(test, bad, got);
	KUNIT_EXPECT_NOT_NULL(test, why);
	bfly_ft_expect_list(test, fab, before, nbefore);
}

/*
 * Lists whose last entry is refused (duplicate in the request or of a
 * fault held, out of range, one too many) add nothing, and *bad names it.
 */
static void bfly_ft_add_all_or_nothing(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BENES, 16);
	struct bfly_fault held[3] = {
		bfly_test_stuck(0, 0, 1), bfly_test_link(6, 15), bfly_test_stuck(6, 7, 0),
	};
	struct bfly_fault *f;
	const char *why = NULL;
	u32 bad, i, n;

	/* 7 node stages of 8 nodes and 16 links each */
	KUNIT_ASSERT_EQ(test, 7, fab->geo.node_stages);
	f = kunit_kcalloc(test, BFLY_MAX_FAULTS + 1, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);

	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, held, 0, &bad, &why));
	bfly_ft_expect_list(test, fab, NULL, 0);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, held, 3, &bad, &why));
	bfly_ft_expect_list(test, fab, held, 3);

	f[0] = bfly_test_stuck(1, 0, 0);
	f[1] = bfly_test_link(1, 3);
	/* the node of held[0], in the other state */
	f[2] = bfly_test_stuck(0, 0, 0);
	bfly_ft_add_refused(test, fab, f, 3, -EEXIST, 2, held, 3);
	/* the link of held[1] */
	f[2] = bfly_test_link(6, 15);
	bfly_ft_add_refused(test, fab, f, 3, -EEXIST, 2, held, 3);
	/* named twice in the request */
	f[2] = bfly_test_stuck(1, 0, 1);
	bfly_ft_add_refused(test, fab, f, 3, -EEXIST, 2, held, 3);
	f[2] = bfly_test_link(1, 3);
	bfly_ft_add_refused(test, fab, f, 3, -EEXIST, 2, held, 3);
	/* out of range: stage, node, link, state, kind */
	f[2] = bfly_test_stuck(7, 0, 0);
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);
	f[2] = bfly_test_stuck(6, 8, 0);
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);
	f[2] = bfly_test_link(6, 16);
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);
	f[2] = bfly_test_stuck(2, 0, 2);
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);
	f[2] = bfly_test_link(2, 0);
	f[2].state = 1;
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);
	f[2] = bfly_test_link(2, 0);
	f[2].kind = __BFLY_FAULT_MAX;
	bfly_ft_add_refused(test, fab, f, 3, -EINVAL, 2, held, 3);

	/* 62 new links where 61 fit: the 62nd is refused, nothing added */
	for (i = 0, n = 0; n < BFLY_MAX_FAULTS - 2; i++)
		f[n++] = bfly_test_link(1 + i / 16, i % 16);
	bfly_ft_add_refused(test, fab, f, n, -ENOSPC, n - 1, held, 3);
	/* the 61 do fit; then not one more */
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, f, n - 1, &bad, &why));
	KUNIT_EXPECT_EQ(test, BFLY_MAX_FAULTS, fab->faults.count);
	KUNIT_EXPECT_MEMEQ(test, fab->faults.list, held, sizeof(held));
	KUNIT_EXPECT_MEMEQ(test, &fab->faults.list[3], f, (n - 1) * sizeof(*f));
	f[0] = bfly_test_stuck(5, 5, 1);
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOSPC, bfly_fabric_faults_add(fab, f, 1, &bad, &why));
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, BFLY_MAX_FAULTS, fab->faults.count);

	/* on an empty fabric, 65 at once: the 65th is refused */
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_fault_clear(fab));
	for (i = 0; i <= BFLY_MAX_FAULTS; i++)
		f[i] = bfly_test_link(i / 16, i % 16);
	bfly_ft_add_refused(test, fab, f, BFLY_MAX_FAULTS + 1, -ENOSPC, BFLY_MAX_FAULTS,
			    NULL, 0);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, f, BFLY_MAX_FAULTS, &bad, &why));
	bfly_ft_expect_list(test, fab, f, BFLY_MAX_FAULTS);
}

/* Deleting: all or nothing, states ignored, the others keep their order. */
static void bfly_ft_del_all_or_nothing(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BUTTERFLY, 8);
	struct bfly_fault held[4] = {
		bfly_test_stuck(0, 1, 1), bfly_test_link(0, 1), bfly_test_stuck(2, 3, 0),
		bfly_test_link(2, 7),
	};
	struct bfly_fault del[3];
	const char *why;
	u32 bad;

	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_faults_add(fab, held, 4, &bad, &why));

	del[0] = held[0];
	del[1] = held[2];
	del[2] = bfly_test_link(1, 1);		/* not a fault */
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_faults_del(fab, del, 3, &bad));
	KUNIT_EXPECT_EQ(test, 2, bad);
	bfly_ft_expect_list(test, fab, held, 4);

	del[2] = bfly_test_stuck(0, 0, 0);	/* the node next to held[0] */
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_faults_del(fab, del, 3, &bad));
	KUNIT_EXPECT_EQ(test, 2, bad);
	bfly_ft_expect_list(test, fab, held, 4);

	del[2] = bfly_test_link(0, 0);		/* the other link of that node */
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_faults_del(fab, del, 3, &bad));
	KUNIT_EXPECT_EQ(test, 2, bad);
	bfly_ft_expect_list(test, fab, held, 4);

	/* named twice */
	del[1] = held[0];
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_faults_del(fab, del, 2, &bad));
	KUNIT_EXPECT_EQ(test, 1, bad);
	bfly_ft_expect_list(test, fab, held, 4);

	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_del(fab, del, 0, &bad));
	bfly_ft_expect_list(test, fab, held, 4);

	/* the state does not matter; held[1] and held[3] stay, in order */
	del[0] = held[2];
	del[0].state = 1;
	del[1] = held[0];
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_del(fab, del, 2, &bad));
	held[0] = held[1];
	held[1] = held[3];
	bfly_ft_expect_list(test, fab, held, 2);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_del(fab, held, 2, &bad));
	bfly_ft_expect_list(test, fab, NULL, 0);
	bad = U32_MAX;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_faults_del(fab, held, 1, &bad));
	KUNIT_EXPECT_EQ(test, 0, bad);
}

/* Clearing repairs everything, and twice is fine. */
static void bfly_ft_clear(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BFLY2, 8);
	struct bfly_fault f[2] = { bfly_test_stuck(4, 3, 1), bfly_test_link(4, 7) };
	const char *why;
	u32 bad;

	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_fault_clear(fab));
	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_faults_add(fab, f, 2, &bad, &why));
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_fault_clear(fab));
	bfly_ft_expect_list(test, fab, NULL, 0);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_fault_clear(fab));
	bfly_ft_expect_list(test, fab, NULL, 0);
	/* the same places can be broken again */
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, f, 2, &bad, &why));
	bfly_ft_expect_list(test, fab, f, 2);
}

/* A snapshot: NULL without faults, else an exact copy that stays put. */
static void bfly_ft_snapshot(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BFLY_TWICE, 16);
	struct bfly_fault f[3] = {
		bfly_test_link(7, 15), bfly_test_stuck(0, 0, 0), bfly_test_stuck(7, 7, 1),
	};
	struct bfly_faults *snap;
	const char *why;
	int err = 1;
	u32 bad;

	KUNIT_EXPECT_NULL(test, bfly_fabric_faults_snapshot(fab, &err));
	KUNIT_EXPECT_EQ(test, 0, err);

	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_faults_add(fab, f, 3, &bad, &why));
	err = 1;
	snap = bfly_fabric_faults_snapshot(fab, &err);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bfly_ft_kfree_action, snap));
	KUNIT_EXPECT_EQ(test, 0, err);
	KUNIT_EXPECT_EQ(test, 3, snap->count);
	KUNIT_EXPECT_MEMEQ(test, snap->list, f, sizeof(f));

	/* a copy: later changes to the fabric leave it alone */
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_del(fab, f, 1, &bad));
	KUNIT_EXPECT_EQ(test, 3, snap->count);
	KUNIT_EXPECT_MEMEQ(test, snap->list, f, sizeof(f));
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_fault_clear(fab));
	err = 1;
	KUNIT_EXPECT_NULL(test, bfly_fabric_faults_snapshot(fab, &err));
	KUNIT_EXPECT_EQ(test, 0, err);
}

/* A deleted fabric, still referenced, refuses every fault operation. */
static void bfly_ft_dead_fabric(struct kunit *test)
{
	struct bfly_fault f[2] = { bfly_test_stuck(1, 1, 1), bfly_test_link(0, 3) };
	struct bfly_faults *snap;
	struct bfly_fabric *fab;
	const char *why;
	int err = 0;
	u32 bad;

	fab = bfly_fabric_create(BFLY_TOPO_BENES, 2, 8, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_faults_add(fab, f, 1, &bad, &why));
	bfly_fabric_get(fab);
	bfly_fabric_destroy(fab);

	KUNIT_EXPECT_EQ(test, -ENODEV, bfly_fabric_faults_add(fab, &f[1], 1, &bad, &why));
	KUNIT_EXPECT_EQ(test, -ENODEV, bfly_fabric_faults_del(fab, f, 1, &bad));
	KUNIT_EXPECT_EQ(test, -ENODEV, bfly_fabric_fault_clear(fab));
	snap = bfly_fabric_faults_snapshot(fab, &err);
	KUNIT_EXPECT_NULL(test, snap);
	KUNIT_EXPECT_EQ(test, -ENODEV, err);
	kfree(snap);
	/* nothing changed */
	KUNIT_EXPECT_EQ(test, 1, fab->faults.count);
	KUNIT_EXPECT_MEMEQ(test, fab->faults.list, f, sizeof(f[0]));
	bfly_fabric_put(fab);
}

/*
 * Butterfly N = 4, all straight: edge stage 0 swaps position bits 0 and 1,
 * so inputs 0 1 2 3 reach outputs 0 2 1 3. Node 0 of stage 0 is stuck
 * crossed and link 3 leaving stage 1 (output 3) is broken. As routed,
 * inputs 0 and 1 (in the stuck node) and 3 (on the link) are hit. Really,
 * input 0 leaves node 0 on port 1 and reaches output 2, input 1 output 0,
 * input 2 output 1 as routed, and input 3 is lost.
 */
static void bfly_ft_walk_by_hand(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BUTTERFLY, 4);
	struct bfly_fault f[2] = { bfly_test_stuck(0, 0, 1), bfly_test_link(1, 3) };
	static const u32 routed[4] = { 0, 2, 1, 3 };
	static const u32 real[4] = { 2, 0, 1, BFLY_TRACE_LOST };
	struct bfly_fault_walk w = { .mode = BFLY_WALK_ROUTE };
	unsigned long hit[1], active[1];
	struct bfly_faults *snap;
	const char *why;
	u32 out[4], bad;
	int err;
	void *work;

	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_faults_add(fab, f, 2, &bad, &why));
	snap = bfly_fabric_faults_snapshot(fab, &err);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bfly_ft_kfree_action, snap));
	work = kunit_kzalloc(test, bfly_fault_walk_workspace_size(&fab->geo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, work);
	w.matrix = fab->matrix;

	hit[0] = 0;
	KUNIT_EXPECT_EQ(test, 3, bfly_fault_walk(&fab->geo, snap, &w, hit, out, work));
	KUNIT_EXPECT_EQ(test, 0xbUL, hit[0]);
	KUNIT_EXPECT_MEMEQ(test, out, routed, sizeof(out));

	w.mode = BFLY_WALK_REAL;
	hit[0] = 0;
	KUNIT_EXPECT_EQ(test, 3, bfly_fault_walk(&fab->geo, snap, &w, hit, out, work));
	KUNIT_EXPECT_EQ(test, 0xbUL, hit[0]);
	KUNIT_EXPECT_MEMEQ(test, out, real, sizeof(out));

	/* only inputs 1 and 2 carry a packet: bits 0 and 3 are left alone */
	w.mode = BFLY_WALK_ROUTE;
	active[0] = 0x6;
	w.active = active;
	hit[0] = 0x8;
	KUNIT_EXPECT_EQ(test, 1, bfly_fault_walk(&fab->geo, snap, &w, hit, NULL, work));
	KUNIT_EXPECT_EQ(test, 0xaUL, hit[0]);

	/* no faults hit a route that sets the stuck node as it is stuck */
	__set_bit(bfly_matrix_bit(&fab->geo, 0, 0), fab->matrix);
	KUNIT_EXPECT_EQ(test, 0, bfly_faults_stuck_unmet(&fab->geo, snap, fab->matrix));
	active[0] = 0x3;
	KUNIT_EXPECT_EQ(test, 0, bfly_fault_walk(&fab->geo, snap, &w, NULL, NULL, work));
	__clear_bit(bfly_matrix_bit(&fab->geo, 0, 0), fab->matrix);
	KUNIT_EXPECT_EQ(test, 1, bfly_faults_stuck_unmet(&fab->geo, snap, fab->matrix));
}

/*
 * The fault-add and fault-del service: an add names one fault or more, at
 * most BFLY_MAX_FAULTS; a delete names faults or all of them, not both;
 * every refusal says why and which entry, and changes nothing.
 */
static void bfly_ft_change_rules(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_ft_fabric(test, BFLY_TOPO_BENES, 8);
	struct bfly_fault *f = kunit_kcalloc(test, BFLY_MAX_FAULTS + 1, sizeof(*f),
					     GFP_KERNEL);
	struct bfly_faults_req req = { .list = f, .add = true };
	struct bfly_faults_res res;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	for (i = 0; i <= BFLY_MAX_FAULTS; i++)
		f[i] = bfly_test_link(i % fab->geo.node_stages, i / fab->geo.node_stages);

	/* an add of nothing, or of more than a fabric holds */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, BFLY_FAULTS_WHOLE, res.bad);
	KUNIT_EXPECT_NOT_NULL(test, res.why);
	req.count = BFLY_MAX_FAULTS + 1;
	KUNIT_EXPECT_EQ(test, -ENOSPC, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, BFLY_MAX_FAULTS, res.bad);
	bfly_ft_expect_list(test, fab, NULL, 0);

	req.count = 2;
	KUNIT_EXPECT_EQ(test, 0, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 2, res.count);
	req.list = &f[1];
	KUNIT_EXPECT_EQ(test, -EEXIST, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 0, res.bad);
	KUNIT_EXPECT_EQ(test, 2, res.count);

	/* a delete of nothing, of faults and all of them, of too many */
	req = (struct bfly_faults_req){ .list = f };
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_NOT_NULL(test, res.why);
	req.count = 1;
	req.all = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, BFLY_FAULTS_WHOLE, res.bad);
	req.all = false;
	req.count = BFLY_MAX_FAULTS + 1;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, BFLY_MAX_FAULTS, res.bad);
	req.list = &f[2];
	req.count = 1;
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 0, res.bad);
	bfly_ft_expect_list(test, fab, f, 2);

	req.list = &f[1];
	KUNIT_EXPECT_EQ(test, 0, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 1, res.count);
	req.count = 0;
	req.all = true;
	KUNIT_EXPECT_EQ(test, 0, bfly_faults_change(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 0, res.count);
}

static struct kunit_case bfly_fault_cases[] = {
	KUNIT_CASE(bfly_ft_add_all_or_nothing),
	KUNIT_CASE(bfly_ft_del_all_or_nothing),
	KUNIT_CASE(bfly_ft_clear),
	KUNIT_CASE(bfly_ft_snapshot),
	KUNIT_CASE(bfly_ft_dead_fabric),
	KUNIT_CASE(bfly_ft_walk_by_hand),
	KUNIT_CASE(bfly_ft_change_rules),
	{}
};

static struct kunit_suite bfly_fault_suite = {
	.name = "bfly_faults",
	.test_cases = bfly_fault_cases,
};

kunit_test_suite(bfly_fault_suite);
