// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the h-relation service (core/hrel.c). Its refusals name the
 * message at fault and give back every byte charged; every message runs
 * in exactly one round, each round is a partial permutation the fabric
 * routes at once, Benes takes exactly h rounds and the others h or more;
 * the k-ary n-fly's rounds self-route without conflict, the flattened
 * butterfly's are one per colour; the all-to-all listed in order gives
 * what the general path gives the same exchange in another order, and a
 * batch list, kept nowhere, what the general path gives it.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "core/batch.h"
#include "core/core.h"
#include "core/hrel.h"
#include "lib/hrel_round.h"
#include "lib/kfly.h"
#include "lib/schedule.h"
#include "lib/tests/kunit_util.h"
#include "core_kunit_util.h"

/* Run @count of @msgs; the memory charged is given back by bfly_hrel_done(). */
static int bfly_hr_run(struct kunit *test, struct bfly_fabric *fab, u32 count,
		       struct bfly_msgset_msg *msgs, struct bfly_hrel_res *res)
{
	struct bfly_hrel_req req = {
		.count = count, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
	};
	u64 before = atomic64_read(&fab->mem.used);
	int err;

	memset(res, 0, sizeof(*res));
	err = bfly_hrel(fab, &req, res);
	bfly_hrel_done(res);
	KUNIT_EXPECT_EQ(test, before, atomic64_read(&fab->mem.used));
	return err;
}

static void bfly_hrel_refusals(struct kunit *test)
{
	struct bfly_fabric *bf = bfly_kunit_fabric(test, BFLY_TOPO_BENES, 2, 0, 8);
	struct bfly_fabric *kf = bfly_kunit_fabric(test, BFLY_TOPO_KFLY, 4, 0, 16);
	struct bfly_msgset_msg *msgs = kunit_kcalloc(test, 8, sizeof(*msgs), GFP_KERNEL);
	struct bfly_hrel_res res;
	struct bfly_fault f = bfly_test_stuck(0, 0, 1);
	const char *why;
	u32 m, bad;

	KUNIT_ASSERT_NOT_NULL(test, msgs);
	for (m = 0; m < 8; m++) {
		msgs[m].src = m;
		msgs[m].dst = 7 - m;
	}
	KUNIT_EXPECT_EQ(test, 0, bfly_hr_run(test, bf, 8, msgs, &res));
	/* the k-ary n-fly runs them too */
	KUNIT_EXPECT_EQ(test, 0, bfly_hr_run(test, kf, 8, msgs, &res));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, bf, 0, msgs, &res));
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_hr_run(test, bf, BFLY_HREL_MAX_MSGS + 1, msgs, &res));

	msgs[5].dst = 8;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, bf, 8, msgs, &res));
	KUNIT_EXPECT_TRUE(test, res.has_bad_msg);
	KUNIT_EXPECT_EQ(test, 5U, res.bad_msg);
	msgs[5].dst = 2;
	msgs[6].pad = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, bf, 8, msgs, &res));
	KUNIT_EXPECT_EQ(test, 6U, res.bad_msg);
	msgs[6].pad = 0;
	msgs[2].len = 8;	/* payload, no buffers */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, bf, 8, msgs, &res));
	KUNIT_EXPECT_EQ(test, 2U, res.bad_msg);
	msgs[2].len = 0;

	/* a fabric with faults is refused, and runs again once repaired */
	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_faults_add(bf, &f, 1, &bad, &why));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_hr_run(test, bf, 8, msgs, &res));
	KUNIT_ASSERT_EQ(test, 0, bfly_fabric_fault_clear(bf));
	KUNIT_EXPECT_EQ(test, 0, bfly_hr_run(test, bf, 8, msgs, &res));
}

/* @count random messages on @ports ports, each port sending and receiving @h. */
static void bfly_hr_relation(struct rnd_state *rnd, struct bfly_msgset_msg *msgs, u32 *perm,
			     u32 ports, u32 h)
{
	u32 r, i;

	for (r = 0; r < h; r++) {
		bfly_random_perm(rnd, perm, ports);
		for (i = 0; i < ports; i++) {
			msgs[r * ports + i].src = i;
			msgs[r * ports + i].dst = perm[i];
		}
	}
}

/*
 * Every message in one round; each round a partial permutation that
 * self-routes without conflict where the fabric self-routes.
 */
static void bfly_hr_check_rounds(struct kunit *test, struct bfly_fabric *fab,
				 const struct bfly_hrel_res *res, u32 count)
{
	const struct bfly_geometry *geo = &fab->geo;
	u32 *perm = bfly_test_alloc(test, geo->ports * sizeof(u32));
	u64 *labels = bfly_test_alloc(test, geo->ports * sizeof(u64));
	unsigned long *active = bfly_test_alloc(test, BFLY_MATRIX_BYTES(geo->ports));
	u32 *sub = bfly_test_alloc(test, geo->ports * sizeof(u32));
	void *work = bfly_test_alloc(test, max(bfly_sched_split_workspace_size(geo),
					       bfly_kfly_split_workspace_size(&geo->fly)));
	u64 rng = 1;
	u32 r, i, seen = 0;

	KUNIT_ASSERT_TRUE(test, res->reported);
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_LT(test, res->round[i], res->rounds);
	for (r = 0; r < res->rounds; r++) {
		bfly_hrel_round_perm(res, r, perm);
		for (i = 0; i < geo->ports; i++)
			seen += perm[i] != BFLY_HREL_IDLE;
		/* each destination once at most */
		bitmap_zero(active, geo->ports);
		for (i = 0; i < geo->ports; i++) {
			if (perm[i] == BFLY_HREL_IDLE)
				continue;
			KUNIT_EXPECT_FALSE(test, test_bit(perm[i], active));
			__set_bit(perm[i], active);
		}
		/* the k-ary n-fly's rounds route at once by destination digits */
		if (geo->topology == BFLY_TOPO_KFLY)
			KUNIT_EXPECT_EQ(test, 1, bfly_kfly_split(&geo->fly, perm, sub, work));
		if (geo->topology != BFLY_TOPO_BUTTERFLY)
			continue;
		/* the butterfly's rounds route at once by destination */
		KUNIT_EXPECT_EQ(test, 0, bfly_hrel_labels(geo, perm, &rng, labels, active));
		KUNIT_EXPECT_EQ(test, 1, bfly_sched_split(geo, labels, active, sub, work));
	}
	KUNIT_EXPECT_EQ(test, count, seen);
}

static void bfly_hrel_rounds(struct kunit *test)
{
	static const struct { u32 topology, radix, up, ports; } fams[] = {
		{ BFLY_TOPO_BENES, 2, 0, 16 }, { BFLY_TOPO_BUTTERFLY, 2, 0, 16 },
		{ BFLY_TOPO_BFLY2, 2, 0, 16 }, { BFLY_TOPO_BFLY_TWICE, 2, 0, 16 },
		{ BFLY_TOPO_CB_LCAN, 2, 2, 16 }, { BFLY_TOPO_KFLY, 2, 0, 16 },
		{ BFLY_TOPO_KFLY, 3, 0, 27 }, { BFLY_TOPO_KFLY, 4, 0, 64 },
		{ BFLY_TOPO_FLATFLY, 2, 0, 16 }, { BFLY_TOPO_FLATFLY, 3, 0, 27 },
		{ BFLY_TOPO_FLATFLY, 4, 0, 64 },
	};
	static const u32 hs[] = { 1, 3, 4, 16 };
	const u32 most = 64 * 16;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, most * sizeof(*msgs));
	u32 *perm = bfly_test_alloc(test, 64 * sizeof(u32));
	struct rnd_state rnd;
	u32 f, j, ports;

	prandom_seed_state(&rnd, 14);
	for (f = 0; f < ARRAY_SIZE(fams); f++) {
		struct bfly_fabric *fab;

		ports = fams[f].ports;
		fab = bfly_kunit_fabric(test, fams[f].topology, fams[f].radix, fams[f].up, ports);

		for (j = 0; j < ARRAY_SIZE(hs); j++) {
			struct bfly_hrel_req req = {
				.count = hs[j] * ports, .read_msgs = bfly_kunit_read_msgs_at,
				.ctx = msgs,
			};
			struct bfly_hrel_res res = {};

			memset(msgs, 0, most * sizeof(*msgs));
			bfly_hr_relation(&rnd, msgs, perm, ports, hs[j]);
			KUNIT_ASSERT_EQ(test, 0, bfly_hrel(fab, &req, &res));
			KUNIT_EXPECT_EQ(test, hs[j], res.h);
			KUNIT_EXPECT_EQ(test, hs[j], res.colours);
			if (fams[f].topology == BFLY_TOPO_BENES ||
			    fams[f].topology == BFLY_TOPO_FLATFLY)
				KUNIT_EXPECT_EQ(test, hs[j], res.rounds);
			else
				KUNIT_EXPECT_GE(test, res.rounds, hs[j]);
			bfly_hr_check_rounds(test, fab, &res, req.count);
			bfly_hrel_done(&res);
		}
	}
}

/* All h messages of a source to one destination: h rounds of one message. */
static void bfly_hrel_parallel(struct kunit *test)
{
	struct bfly_fabric *fab = bfly_kunit_fabric(test, BFLY_TOPO_BENES, 2, 0, 8);
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, 5 * sizeof(*msgs));
	struct bfly_hrel_req req = {
		.count = 5, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
	};
	struct bfly_hrel_res res = {};
	u32 m;

	for (m = 0; m < 5; m++) {
		msgs[m].src = 3;
		msgs[m].dst = 6;
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_hrel(fab, &req, &res));
	KUNIT_EXPECT_EQ(test, 5U, res.h);
	KUNIT_EXPECT_EQ(test, 5U, res.rounds);
	bfly_hr_check_rounds(test, fab, &res, 5);
	bfly_hrel_done(&res);
}

/*
 * The all-to-all exchange, its messages in any order, runs the RLS rounds
 * an all-to-all batch runs: the same rounds and cycles on every fabric.
 */
static void bfly_hrel_exchange_is_batch(struct kunit *test)
{
	static const struct { u32 topology, radix; } fams[] = {
		{ BFLY_TOPO_BENES, 2 }, { BFLY_TOPO_BUTTERFLY, 2 }, { BFLY_TOPO_BFLY2, 2 },
		{ BFLY_TOPO_BFLY_TWICE, 2 }, { BFLY_TOPO_FLATFLY, 2 }, { BFLY_TOPO_FLATFLY, 4 },
	};
	const u32 ports = 16, count = ports * ports;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, count * sizeof(*msgs));
	u32 f, m;

	for (m = 0; m < count; m++) {
		/* a fixed shuffle of the pairs: m * 97 mod 256 runs over them all */
		u32 pair = (m * 97) % count;

		msgs[m].src = pair / ports;
		msgs[m].dst = pair % ports;
	}
	for (f = 0; f < ARRAY_SIZE(fams); f++) {
		struct bfly_fabric *fab = bfly_kunit_fabric(test, fams[f].topology, fams[f].radix,
							 0, ports);
		struct bfly_batch_req breq = { .schedule = BFLY_SCHED_RLS };
		struct bfly_hrel_req req = {
			.count = count, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
		};
		struct bfly_batch_res bres = {};
		struct bfly_hrel_res res = {};

		KUNIT_ASSERT_EQ(test, 0, bfly_batch(fab, &breq, &bres));
		KUNIT_ASSERT_EQ(test, 0, bfly_hrel(fab, &req, &res));
		KUNIT_EXPECT_EQ(test, ports, res.h);
		KUNIT_EXPECT_EQ(test, ports, res.colours);
		KUNIT_EXPECT_EQ(test, bres.sub_rounds, res.rounds);
		KUNIT_EXPECT_EQ(test, bres.cycles, res.cycles);
		if (fams[f].topology != BFLY_TOPO_BUTTERFLY)
			for (m = 0; m < count; m++)
				KUNIT_EXPECT_EQ(test, (msgs[m].src - msgs[m].dst) % ports,
						res.round[m]);
		bfly_hr_check_rounds(test, fab, &res, count);
		bfly_hrel_done(&res);
		bfly_batch_done(&bres);
	}
}

/* Run @count of @msgs on @fab and keep the result, which the caller frees. */
static void bfly_hr_keep(struct kunit *test, struct bfly_fabric *fab, u32 count,
			 struct bfly_msgset_msg *msgs, struct bfly_hrel_res *res)
{
	struct bfly_hrel_req req = {
		.count = count, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
	};

	memset(res, 0, sizeof(*res));
	KUNIT_ASSERT_EQ(test, 0, bfly_hrel(fab, &req, res));
	bfly_hr_check_rounds(test, fab, res, count);
}

/* Message m of @msgs is pair @pair(m): m / N -> m mod N. */
static void bfly_hr_pairs(struct bfly_msgset_msg *msgs, u32 ports, u32 count, bool swap_first,
			  bool reversed)
{
	u32 m, p;

	for (m = 0; m < count; m++) {
		p = reversed ? ports * ports - 1 - m : m;
		if (swap_first && m < 2)
			p = 1 - m;
		msgs[m].src = p / ports;
		msgs[m].dst = p % ports;
	}
}

/*
 * The exchange listed in order (message m is m / N -> m mod N) takes its
 * rounds without a look at the pairs: the same h, colours, rounds, cycles,
 * round of each pair and round permutations as the list reversed and the
 * list with its first two messages swapped, which the general path finds
 * to be the exchange (the k-ary n-fly and the LCANs run no exchange: the
 * same h and colours). Lists almost like it take the general path: the
 * last message missing (h = N), one pair twice (h = N + 1).
 */
static void bfly_hrel_listed_exchange(struct kunit *test)
{
	static const struct { u32 topology, radix; } fams[] = {
		{ BFLY_TOPO_BENES, 2 }, { BFLY_TOPO_BUTTERFLY, 2 }, { BFLY_TOPO_BFLY2, 2 },
		{ BFLY_TOPO_BFLY_TWICE, 2 }, { BFLY_TOPO_FLATFLY, 2 }, { BFLY_TOPO_FLATFLY, 4 },
		{ BFLY_TOPO_KFLY, 4 }, { BFLY_TOPO_CB_LCAN, 2 },
	};
	const u32 ports = 16, count = ports * ports;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, count * sizeof(*msgs));
	u32 *pa = bfly_test_alloc(test, ports * sizeof(u32));
	u32 *pb = bfly_test_alloc(test, ports * sizeof(u32));
	u32 f, v, m, r, p;

	for (f = 0; f < ARRAY_SIZE(fams); f++) {
		struct bfly_fabric *fab = bfly_kunit_fabric(test, fams[f].topology, fams[f].radix,
							 fams[f].topology == BFLY_TOPO_CB_LCAN ?
							 2 : 0, ports);
		struct bfly_hrel_res in, res;

		bfly_hr_pairs(msgs, ports, count, 0, false);
		bfly_hr_keep(test, fab, count, msgs, &in);
		KUNIT_EXPECT_TRUE(test, in.listed_a2a);
		KUNIT_EXPECT_EQ(test, ports, in.h);
		for (v = 0; v < 2; v++) {
			bfly_hr_pairs(msgs, ports, count, !v, v);
			bfly_hr_keep(test, fab, count, msgs, &res);
			KUNIT_EXPECT_FALSE(test, res.listed_a2a);
			KUNIT_EXPECT_EQ(test, in.h, res.h);
			KUNIT_EXPECT_EQ(test, in.colours, res.colours);
			/* the k-ary n-fly and the LCANs colour every list as it comes */
			if (fams[f].topology == BFLY_TOPO_KFLY ||
			    fams[f].topology == BFLY_TOPO_CB_LCAN) {
				bfly_hrel_done(&res);
				continue;
			}
			KUNIT_EXPECT_EQ(test, in.rounds, res.rounds);
			KUNIT_EXPECT_EQ(test, in.cycles, res.cycles);
			for (m = 0; m < count; m++) {
				p = msgs[m].src * ports + msgs[m].dst;
				KUNIT_EXPECT_EQ(test, in.round[p], res.round[m]);
			}
			for (r = 0; r < min(in.rounds, res.rounds); r++) {
				bfly_hrel_round_perm(&in, r, pa);
				bfly_hrel_round_perm(&res, r, pb);
				KUNIT_EXPECT_EQ(test, 0, memcmp(pa, pb, ports * sizeof(u32)));
			}
			bfly_hrel_done(&res);
		}
		bfly_hrel_done(&in);

		bfly_hr_pairs(msgs, ports, count, 0, false);
		bfly_hr_keep(test, fab, count - 1, msgs, &res);
		KUNIT_EXPECT_FALSE(test, res.listed_a2a);
		KUNIT_EXPECT_EQ(test, ports, res.h);
		bfly_hrel_done(&res);
		msgs[count - 1].dst = 0;
		bfly_hr_keep(test, fab, count, msgs, &res);
		KUNIT_EXPECT_FALSE(test, res.listed_a2a);
		KUNIT_EXPECT_EQ(test, ports + 1, res.h);
		KUNIT_EXPECT_EQ(test, ports + 1, res.colours);
		bfly_hrel_done(&res);
	}
}

/* @res and @ref report the same rounds, cycles and round permutations. */
static void bfly_hr_same_rounds(struct kunit *test, const struct bfly_hrel_res *ref,
				const struct bfly_hrel_res *res, u32 ports)
{
	u32 *pa = bfly_test_alloc(test, ports * sizeof(u32));
	u32 *pb = bfly_test_alloc(test, ports * sizeof(u32));
	u32 r;

	KUNIT_EXPECT_EQ(test, ref->h, res->h);
	KUNIT_EXPECT_EQ(test, ref->colours, res->colours);
	KUNIT_EXPECT_EQ(test, ref->rounds, res->rounds);
	KUNIT_EXPECT_EQ(test, ref->cycles, res->cycles);
	for (r = 0; r < min(ref->rounds, res->rounds); r++) {
		bfly_hrel_round_perm(ref, r, pa);
		bfly_hrel_round_perm(res, r, pb);
		KUNIT_EXPECT_EQ(test, 0, memcmp(pa, pb, ports * sizeof(u32)));
	}
}

/*
 * A batch list (the exchange listed in order on bfly2 and bfly-twice,
 * several chunks of the read) keeps no message: the same report as the
 * list with two messages swapped past the first chunk, which the general
 * path runs, with and without each message's round. A message that
 * differs far into the list is named as the general path names it, the
 * ones before it kept as read.
 */
static void bfly_hrel_batch_list(struct kunit *test)
{
	static const u32 fams[] = { BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	const u32 ports = 32, count = ports * ports, late = 700;
	struct bfly_msgset_msg *msgs = bfly_test_alloc(test, count * sizeof(*msgs));
	struct bfly_hrel_req req = {
		.count = count, .read_msgs = bfly_kunit_read_msgs_at, .ctx = msgs,
	};
	struct bfly_hrel_res in, res;
	u32 f, m;

	for (f = 0; f < ARRAY_SIZE(fams); f++) {
		struct bfly_fabric *fab = bfly_kunit_fabric(test, fams[f], 2, 0, ports);

		memset(msgs, 0, count * sizeof(*msgs));
		bfly_hr_pairs(msgs, ports, count, false, false);
		bfly_hr_keep(test, fab, count, msgs, &in);
		KUNIT_EXPECT_TRUE(test, in.batch_list);
		KUNIT_EXPECT_TRUE(test, in.listed_a2a);
		KUNIT_EXPECT_NULL(test, in.src);
		KUNIT_EXPECT_EQ(test, ports, in.rounds);

		req.skip_round = true;
		memset(&res, 0, sizeof(res));
		KUNIT_EXPECT_EQ(test, 0, bfly_hrel(fab, &req, &res));
		KUNIT_EXPECT_TRUE(test, res.batch_list);
		KUNIT_EXPECT_NULL(test, res.round);
		bfly_hr_same_rounds(test, &in, &res, ports);
		bfly_hrel_done(&res);
		req.skip_round = false;

		swap(msgs[late], msgs[late + 1]);
		bfly_hr_keep(test, fab, count, msgs, &res);
		KUNIT_EXPECT_FALSE(test, res.batch_list);
		KUNIT_EXPECT_FALSE(test, res.listed_a2a);
		bfly_hr_same_rounds(test, &in, &res, ports);
		for (m = 0; m < count; m++)
			KUNIT_EXPECT_EQ(test, in.round[msgs[m].src * ports + msgs[m].dst],
					res.round[m]);
		bfly_hrel_done(&res);
		swap(msgs[late], msgs[late + 1]);
		bfly_hrel_done(&in);

		msgs[late].dst = ports;
		KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, fab, count, msgs, &res));
		KUNIT_EXPECT_TRUE(test, res.has_bad_msg);
		KUNIT_EXPECT_EQ(test, late, res.bad_msg);
		msgs[late].dst = late % ports;
		msgs[count - 1].pad = 1;
		KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, fab, count, msgs, &res));
		KUNIT_EXPECT_EQ(test, count - 1, res.bad_msg);
		msgs[count - 1].pad = 0;
		/* a length without buffers: the general path's refusal */
		msgs[0].len = 8;
		KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hr_run(test, fab, count, msgs, &res));
		KUNIT_EXPECT_EQ(test, 0U, res.bad_msg);
		msgs[0].len = 0;
	}
}

static struct kunit_case bfly_hrel_service_cases[] = {
	KUNIT_CASE(bfly_hrel_refusals),
	KUNIT_CASE(bfly_hrel_rounds),
	KUNIT_CASE(bfly_hrel_parallel),
	KUNIT_CASE(bfly_hrel_exchange_is_batch),
	KUNIT_CASE(bfly_hrel_listed_exchange),
	KUNIT_CASE(bfly_hrel_batch_list),
	{}
};

static struct kunit_suite bfly_hrel_service_suite = {
	.name = "bfly_hrel_service",
	.test_cases = bfly_hrel_service_cases,
};

kunit_test_suite(bfly_hrel_service_suite);
