// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the core's services on fabrics of k x k switches. A kfly of
 * radix 2 routes random permutations of N = 8 and N = 1024 through the
 * core exactly as the butterfly does: the same verdict, conflicts (with
 * their ports) and settings (lib's bfly_kfly suite compares every
 * permutation of N = 8). Settings set whole or node by node obey the
 * fabric's rules; faults are refused, and batches but on a flatfly's
 * routers.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "core/batch.h"
#include "core/core.h"
#include "core/matrix.h"
#include "core/route.h"
#include "lib/settings.h"
#include "lib/tests/kunit_util.h"

static int bfly_kxk_read(void *ctx, void *in, size_t bytes)
{
	memcpy(in, ctx, bytes);
	return 0;
}

/* A dry-run route of @perm, settings as port maps, conflicts with ports. */
static int bfly_kxk_route(struct bfly_fabric *fab, u32 *perm, struct bfly_route_res *res)
{
	struct bfly_route_req req = {
		.dry_run = true,
		.conflicts_max = 64,
		.port_map = true,
		.conflict_ports = true,
		.read_input = bfly_kxk_read,
		.ctx = perm,
	};

	memset(res, 0, sizeof(*res));
	return bfly_route(fab, &req, res);
}

static void bfly_kxk_fabric_put(void *fab)
{
	bfly_fabric_destroy(fab);
}

static struct bfly_fabric *bfly_kxk_fabric(struct kunit *test, enum bfly_topology topo,
					   u32 k, u32 ports)
{
	struct bfly_fabric *fab;
	const char *why;

	fab = bfly_fabric_create(topo, k, ports, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bfly_kxk_fabric_put, fab));
	return fab;
}

/* One permutation on both fabrics: the same report. */
static bool bfly_kxk_same_route(struct kunit *test, struct bfly_fabric *bf,
				struct bfly_fabric *kf, u32 *perm)
{
	struct bfly_route_res a, b;
	size_t n, bytes = bfly_port_map_bytes(&bf->geo);
	bool same;
	int ea, eb;

	ea = bfly_kxk_route(bf, perm, &a);
	eb = bfly_kxk_route(kf, perm, &b);
	n = min(a.b.conflicts.count, a.b.conflicts.capacity);
	same = ea == eb && a.reported && b.reported &&
	       a.b.conflicts.count == b.b.conflicts.count &&
	       a.b.conflicts.first_stage == b.b.conflicts.first_stage &&
	       a.method == b.method &&
	       !memcmp(bfly_route_report(&a.b), bfly_route_report(&b.b), bytes) &&
	       (!n || !memcmp(a.b.pconf, b.b.pconf, n * sizeof(*a.b.pconf)));
	KUNIT_EXPECT_TRUE_MSG(test, same, "errors %d %d, conflicts %u %u", ea, eb,
			      a.b.conflicts.count, b.b.conflicts.count);
	bfly_route_done(&a);
	bfly_route_done(&b);
	return same;
}

static void bfly_kxk_radix2_is_butterfly(struct kunit *test)
{
	struct bfly_fabric *bf, *kf;
	struct rnd_state rnd;
	u32 perm[8], *big, i;

	prandom_seed_state(&rnd, 12);
	bf = bfly_kxk_fabric(test, BFLY_TOPO_BUTTERFLY, 2, 8);
	kf = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 2, 8);
	for (i = 0; i < 200; i++) {
		bfly_random_perm(&rnd, perm, 8);
		if (!bfly_kxk_same_route(test, bf, kf, perm))
			return;
	}

	bf = bfly_kxk_fabric(test, BFLY_TOPO_BUTTERFLY, 2, 1024);
	kf = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 2, 1024);
	big = bfly_test_alloc(test, 1024 * sizeof(u32));
	for (i = 0; i < 10; i++) {
		bfly_random_perm(&rnd, big, 1024);
		if (!bfly_kxk_same_route(test, bf, kf, big))
			return;
	}
}

/* An applied route's settings trace back to its permutation. */
static void bfly_kxk_route_applies(struct kunit *test)
{
	struct bfly_route_req req = {
		.port_map = true,
		.read_input = bfly_kxk_read,
	};
	struct bfly_mem mem = {};
	struct bfly_route_res res = {};
	struct bfly_fabric *fab;
	u32 perm[27], got[27], i;
	u64 gen;

	fab = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 3, 27);
	mem.fab = fab;
	/* What the straight settings realize (settings_kunit.c): routable. */
	for (i = 0; i < 27; i++)
		perm[i] = i % 3 * 9 + i / 9 * 3 + i / 3 % 3;
	req.ctx = perm;
	KUNIT_EXPECT_EQ(test, 0, bfly_route(fab, &req, &res));
	KUNIT_EXPECT_TRUE(test, res.applied);
	KUNIT_EXPECT_EQ(test, BFLY_METHOD_SELF_ROUTING, res.method);
	bfly_route_done(&res);
	KUNIT_ASSERT_EQ(test, 0, bfly_matrix_trace(fab, &mem, got, &gen));
	bfly_mem_release(&mem);
	KUNIT_EXPECT_EQ(test, 1, gen);
	KUNIT_EXPECT_EQ(test, 0, memcmp(perm, got, sizeof(perm)));

	/* Labels are destinations' digits: all to output 0 conflicts. */
	memset(&res, 0, sizeof(res));
	req.labels = true;
	req.dry_run = true;
	req.conflicts_max = 64;
	req.ctx = bfly_test_alloc(test, 27 * sizeof(u64));
	KUNIT_EXPECT_EQ(test, -EBUSY, bfly_route(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 0, res.b.conflicts.first_stage);
	/* Each node of each stage: 3 packets for port 0, 2 refused. */
	KUNIT_EXPECT_EQ(test, 3 * 9 * 2, res.b.conflicts.count);
	bfly_route_done(&res);
	memset(&res, 0, sizeof(res));
	((u64 *)req.ctx)[3] = 27;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_route(fab, &req, &res));
	KUNIT_EXPECT_STREQ(test, "labels: a label is not below radix^node-stages", res.why);
	bfly_route_done(&res);
}

/* Node by node: the rules of bfly_switch_check(). */
static void bfly_kxk_switch_rules(struct kunit *test)
{
	static const u8 good[4] = { 3, 0, BFLY_PORT_UNSET, 1 };
	static const u8 twice[4] = { 3, 0, 3, 1 };
	static const u8 past[4] = { 4, 0, 2, 1 };
	static const u8 cross[2] = { 1, 0 };
	static const u8 unset2[2] = { BFLY_PORT_UNSET, 0 };
	struct bfly_fabric *kf, *bf;
	struct bfly_switch_set sw = { .stage = 1, .node = 3, .map = good, .map_len = 4 };
	const char *why;

	kf = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 4, 64);
	KUNIT_EXPECT_EQ(test, 0, bfly_switch_check(&kf->geo, &sw, &why));
	bfly_switch_apply(&kf->geo, kf->matrix, &sw);
	KUNIT_EXPECT_EQ(test, 0, memcmp((u8 *)kf->matrix + (16 + 3) * 4, good, 4));
	sw.map = twice;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_switch_check(&kf->geo, &sw, &why));
	sw.map = past;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_switch_check(&kf->geo, &sw, &why));
	sw.map_len = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_switch_check(&kf->geo, &sw, &why));
	sw.map = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_switch_check(&kf->geo, &sw, &why));
	KUNIT_EXPECT_STREQ(test, "switch: a k x k node takes a map, not a state", why);
	sw.stage = 3;
	KUNIT_EXPECT_EQ(test, -ERANGE, bfly_switch_check(&kf->geo, &sw, &why));
	sw.stage = 0;
	sw.node = 16;
	KUNIT_EXPECT_EQ(test, -ERANGE, bfly_switch_check(&kf->geo, &sw, &why));

	/* A 2 x 2 node takes a state or a straight or cross map. */
	bf = bfly_kxk_fabric(test, BFLY_TOPO_BENES, 2, 8);
	sw = (struct bfly_switch_set){ .stage = 4, .node = 2, .map = cross, .map_len = 2 };
	KUNIT_EXPECT_EQ(test, 0, bfly_switch_check(&bf->geo, &sw, &why));
	bfly_switch_apply(&bf->geo, bf->matrix, &sw);
	KUNIT_EXPECT_TRUE(test, test_bit(4 * 4 + 2, bf->matrix));
	sw.map = unset2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_switch_check(&bf->geo, &sw, &why));
}

/* Faults are for 2 x 2 fabrics, batches also run on a flatfly's routers. */
static void bfly_kxk_refusals(struct kunit *test)
{
	struct bfly_fault f = bfly_test_link(0, 1);
	struct bfly_faults_req freq = { .list = &f, .count = 1, .add = true };
	struct bfly_faults_res fres = {};
	struct bfly_batch_req breq = { .schedule = BFLY_SCHED_RLS };
	struct bfly_batch_res bres = {};
	struct bfly_fabric *fab;

	fab = bfly_kxk_fabric(test, BFLY_TOPO_FLATFLY, 4, 16);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_faults_change(fab, &freq, &fres));
	KUNIT_EXPECT_NOT_NULL(test, fres.why);
	fab = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 4, 16);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_batch(fab, &breq, &bres));
	KUNIT_EXPECT_NOT_NULL(test, bres.why);
	bfly_batch_done(&bres);
	fab = bfly_kxk_fabric(test, BFLY_TOPO_KFLY, 3, 9);
	memset(&bres, 0, sizeof(bres));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_batch(fab, &breq, &bres));
	bfly_batch_done(&bres);
}

/*
 * The exchange on the 2-ary 4-flat's routers: the RLS rounds as the paper
 * maps them, then by minimal routes (lib's bfly_flatfly suite counts the
 * same cycles round by round).
 */
static void bfly_kxk_flatfly_batch(struct kunit *test)
{
	struct bfly_batch_req req = { .schedule = BFLY_SCHED_RLS };
	struct bfly_batch_res res = {};
	struct bfly_fabric *fab;

	fab = bfly_kxk_fabric(test, BFLY_TOPO_FLATFLY, 2, 16);
	KUNIT_ASSERT_EQ(test, 0, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 16, res.rounds);
	KUNIT_EXPECT_EQ(test, 16, res.sub_rounds);
	KUNIT_EXPECT_EQ(test, 105, res.cycles);
	KUNIT_EXPECT_EQ(test, 19, res.cycles_bound);
	KUNIT_EXPECT_EQ(test, 2, res.max_link_load);
	KUNIT_EXPECT_EQ(test, 0, res.first_conflict_round);
	bfly_batch_done(&res);

	memset(&res, 0, sizeof(res));
	req.minimal = true;
	KUNIT_ASSERT_EQ(test, 0, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 81, res.cycles);
	KUNIT_EXPECT_EQ(test, 19, res.cycles_bound);
	bfly_batch_done(&res);

	/* Strict: the first round that loads a channel twice stops it. */
	memset(&res, 0, sizeof(res));
	req.minimal = false;
	req.strict = true;
	KUNIT_EXPECT_EQ(test, -EBUSY, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 0, res.rounds);
	bfly_batch_done(&res);
}

/*
 * The systolic schedule: its rounds pipelined, one a cycle, none loading
 * a channel twice (strict passes): N + dims + 1 cycles, 20 on the 2-ary
 * 4-flat against the bound 19; on the 3-ary 2-flat (N = 9, no power of
 * two, where it is the only schedule) 11, the bound.
 */
static void bfly_kxk_flatfly_systolic(struct kunit *test)
{
	struct bfly_batch_req req = { .schedule = BFLY_SCHED_SYSTOLIC, .strict = true };
	struct bfly_batch_res res = {};
	struct bfly_fabric *fab;

	fab = bfly_kxk_fabric(test, BFLY_TOPO_FLATFLY, 2, 16);
	KUNIT_ASSERT_EQ(test, 0, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 16, res.rounds);
	KUNIT_EXPECT_EQ(test, 20, res.cycles);
	KUNIT_EXPECT_EQ(test, 19, res.cycles_bound);
	KUNIT_EXPECT_EQ(test, 1, res.max_link_load);
	KUNIT_EXPECT_EQ(test, 0, res.conflicts);
	KUNIT_EXPECT_EQ(test, BFLY_NO_CONFLICT, res.first_conflict_round);
	bfly_batch_done(&res);

	fab = bfly_kxk_fabric(test, BFLY_TOPO_FLATFLY, 3, 9);
	memset(&res, 0, sizeof(res));
	KUNIT_ASSERT_EQ(test, 0, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 9, res.rounds);
	KUNIT_EXPECT_EQ(test, 11, res.cycles);
	KUNIT_EXPECT_EQ(test, 11, res.cycles_bound);
	KUNIT_EXPECT_EQ(test, 1, res.max_link_load);
	bfly_batch_done(&res);

	/* There the other schedules are refused, saying why. */
	memset(&res, 0, sizeof(res));
	req.schedule = BFLY_SCHED_DEFAULT;
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_batch(fab, &req, &res));
	KUNIT_EXPECT_NOT_NULL(test, res.why);
	bfly_batch_done(&res);
	memset(&res, 0, sizeof(res));
	req.schedule = BFLY_SCHED_SYSTOLIC + 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_batch(fab, &req, &res));
	bfly_batch_done(&res);
}

static struct kunit_case bfly_kxk_cases[] = {
	KUNIT_CASE(bfly_kxk_radix2_is_butterfly),
	KUNIT_CASE(bfly_kxk_route_applies),
	KUNIT_CASE(bfly_kxk_switch_rules),
	KUNIT_CASE(bfly_kxk_refusals),
	KUNIT_CASE(bfly_kxk_flatfly_batch),
	KUNIT_CASE(bfly_kxk_flatfly_systolic),
	{}
};

static struct kunit_suite bfly_kxk_suite = {
	.name = "bfly_kxk",
	.test_cases = bfly_kxk_cases,
};

kunit_test_suite(bfly_kxk_suite);
