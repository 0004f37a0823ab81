// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the (N, d)-multibutterfly (mbfly.c, mbfly_route.c). The wiring's
 * invariants (d neighbours per input in each half of its splitter, 2 d
 * per output, the in-neighbours the inverse of the neighbours, the same
 * seed the same wiring); expansion measured over every subset of a tiny
 * splitter against a count made here; h-relations routed with every
 * message delivered along its logical path over the wiring's edges and
 * Theorem 2's 2 h-bar bound; bad input refused.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/mbfly.h"
#include "kunit_util.h"
#include "mbfly_bad_table.h"

static void bfly_mbfly_bad_input(struct kunit *test)
{
	struct bfly_mbfly_msg msg[2] = { { 0, 1 }, { 1, 0 } }, *many;
	struct bfly_mbfly_result res;
	struct bfly_mbfly g;
	const char *why;
	void *work;
	u32 i;

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_init(&g, 12, 2, 1, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_init(&g, 1, 2, 1, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_init(&g, 1U << 21, 2, 1, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_init(&g, 16, 0, 1, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_init(&g, 16, BFLY_MBFLY_MAX_D + 1, 1, &why));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 2, 2, 1, &why));
	work = bfly_test_alloc(test, bfly_mbfly_route_workspace_size(&g, 2 * BFLY_MBFLY_MAX_H));
	msg[1].dst = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_route(&g, NULL, msg, 2, NULL, &res, work));
	msg[1].dst = 0;
	msg[0].src = 5;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_route(&g, NULL, msg, 2, NULL, &res, work));
	many = bfly_test_alloc(test, (BFLY_MBFLY_MAX_H + 1) * sizeof(*many));
	for (i = 0; i <= BFLY_MBFLY_MAX_H; i++)
		many[i].dst = i & 1;
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_mbfly_route(&g, NULL, many, BFLY_MBFLY_MAX_H + 1,
						       NULL, &res, work));
	KUNIT_EXPECT_EQ(test, 0, bfly_mbfly_route_workspace_size(&g, 2 * BFLY_MBFLY_MAX_H + 1));
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_mbfly_route(&g, NULL, many,
						       2 * BFLY_MBFLY_MAX_H + 1, NULL, &res,
						       work));
	KUNIT_EXPECT_EQ(test, 0, bfly_mbfly_route(&g, NULL, many, BFLY_MBFLY_MAX_H, NULL, &res,
						  work));
	KUNIT_EXPECT_EQ(test, BFLY_MBFLY_MAX_H, res.h);
	KUNIT_EXPECT_EQ(test, 0, bfly_mbfly_expansion_workspace_size(&g, 1));
}

/* Column @c: each input's neighbours in its splitter's halves, 2 d per output, the inverse. */
static bool bfly_mbfly_wiring_col(struct kunit *test, const struct bfly_mbfly *g,
				  const struct bfly_mbfly *g2, u32 c, u32 *in)
{
	u32 b = g->log - c, r, h, k, d = g->d;
	bool same = true;

	memset(in, 0, g->ports * sizeof(u32));
	for (r = 0; r < g->ports * 2 * d; r++) {
		u32 row = r / (2 * d), half = r / d % 2;
		u32 v = bfly_mbfly_neighbour(g, c, row, half, r % d);

		/* its own splitter, the right half */
		KUNIT_EXPECT_EQ(test, row >> b, v >> b);
		KUNIT_EXPECT_EQ(test, half, (v >> (b - 1)) & 1);
		in[v]++;
		same &= v == bfly_mbfly_neighbour(g2, c, row, half, r % d);
	}
	for (r = 0; r < g->ports; r++) {
		KUNIT_EXPECT_EQ(test, 2 * d, in[r]);
		h = (r >> (b - 1)) & 1;
		for (k = 0; k < 2 * d; k++) {
			u32 u = bfly_mbfly_in_neighbour(g, c + 1, r, k);

			KUNIT_EXPECT_EQ(test, r, bfly_mbfly_neighbour(g, c, u, h, k / 2));
		}
	}
	return same;
}

/* Degrees, halves, the inverse, and the same seed the same wiring. */
static void bfly_mbfly_wiring(struct kunit *test)
{
	static const u32 ds[] = { 1, 2, 3, 8, 40 };
	struct bfly_mbfly g, g2;
	u32 log, di, c, r, *in;
	const char *why;

	in = bfly_test_alloc(test, (1U << 9) * sizeof(u32));
	for (log = 1; log <= BFLY_TEST_REPS(9, 7); log++) {
		for (di = 0; di < ARRAY_SIZE(ds); di++) {
			u32 n = 1U << log, d = ds[di];
			bool same = true, differ = false;

			KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, n, d, 0x5eed + log, &why));
			KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g2, n, d, 0x5eed + log, &why));
			for (c = 0; c < log; c++)
				same &= bfly_mbfly_wiring_col(test, &g, &g2, c, in);
			KUNIT_EXPECT_TRUE(test, same);
			g2.seed++;
			for (r = 0; r < n && log >= 4; r++)
				differ |= bfly_mbfly_neighbour(&g, 0, r, 0, 0) !=
					  bfly_mbfly_neighbour(&g2, 0, r, 0, 0);
			KUNIT_EXPECT_TRUE(test, differ || log < 4);
		}
	}
}

/* The fewest outputs per subset size of splitter 1 of column 1 of N = 32, counted here. */
static void bfly_mbfly_count_tiny(const struct bfly_mbfly *g, u32 mins[2][17])
{
	u32 x, u, k, h;

	for (k = 0; k <= 16; k++) {
		mins[0][k] = k ? U32_MAX : 0;
		mins[1][k] = mins[0][k];
	}
	for (x = 1; x < 1U << 16; x++) {
		for (h = 0; h < 2; h++) {
			u32 seen = 0;

			for (u = 0; u < 16 * g->d; u++)
				if (x >> (u / g->d) & 1)
					seen |= 1U << (bfly_mbfly_neighbour(g, 1, 16 + u / g->d, h,
									    u % g->d) & 7);
			k = hweight64((u64)x);
			mins[h][k] = min_t(u32, mins[h][k], hweight64((u64)seen));
		}
	}
}

/* Every subset of a 16-input splitter, counted here, against the measure. */
static void bfly_mbfly_expansion_tiny(struct kunit *test)
{
	struct bfly_mbfly_expansion e;
	u32 mins[2][17], seed, k, d;
	struct bfly_mbfly g;
	const char *why;

	for (seed = 1; seed <= BFLY_TEST_REPS(6, 2); seed++) {
		for (d = 1; d <= 4; d++) {
			KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 32, d, seed, &why));
			KUNIT_ASSERT_EQ(test, 0,
					bfly_mbfly_expansion(&g, 1, 1, 16, 0, 0, &e, NULL));
			KUNIT_EXPECT_TRUE(test, e.exhaustive);
			KUNIT_EXPECT_EQ(test, 65535, e.subsets);
			bfly_mbfly_count_tiny(&g, mins);
			for (k = 1; k <= 16; k++) {
				KUNIT_EXPECT_EQ(test, mins[0][k], e.min_up[k]);
				KUNIT_EXPECT_EQ(test, mins[1][k], e.min_down[k]);
			}
			/* 8 outputs a half: any 9 inputs reach at most all of them */
			KUNIT_EXPECT_LE(test, e.min_up[9], 8);
			KUNIT_EXPECT_LE(test, bfly_mbfly_beta_fp16(&e, 1), (u32)d << 16);
		}
	}
}

/* A large splitter sampled: random subsets and the greedy search. */
static void bfly_mbfly_expansion_sampled(struct kunit *test)
{
	struct bfly_mbfly_expansion e;
	struct bfly_mbfly g;
	const char *why;
	void *work;
	u32 k;

	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 1024, 8, 7, &why));
	work = bfly_test_alloc(test, bfly_mbfly_expansion_workspace_size(&g, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_expansion(&g, 0, 0, 8, 0, 1, &e, work));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_mbfly_expansion(&g, 0, 1, 8, 1, 1, &e, work));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_expansion(&g, 0, 0, 16, 4, 1, &e, work));
	KUNIT_EXPECT_FALSE(test, e.exhaustive);
	KUNIT_EXPECT_EQ(test, 16, e.kmax);
	for (k = 1; k <= 16; k++) {
		KUNIT_EXPECT_GE(test, e.min_up[k], 1);
		KUNIT_EXPECT_LE(test, e.min_up[k], k * 8);
		KUNIT_EXPECT_LE(test, e.min_down[k], k * 8);
		KUNIT_EXPECT_GE(test, e.min_up[k], e.min_up[k > 1 ? k - 1 : 1]);
	}
}

/* Route, then check every path hop by hop over the wiring's edges. */
static void bfly_mbfly_check(struct kunit *test, const struct bfly_mbfly *g,
			     const struct bfly_mbfly_msg *msg, u32 count, u32 *paths,
			     void *work)
{
	struct bfly_mbfly_result res;
	u32 i, c, k, cols = g->log + 1;

	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_route(g, NULL, msg, count, paths, &res, work));
	KUNIT_EXPECT_EQ(test, count, res.delivered);
	KUNIT_EXPECT_EQ(test, 0, res.left);
	KUNIT_EXPECT_EQ(test, 0, res.path_errors);
	KUNIT_EXPECT_EQ(test, 0, res.ghost_misses);
	/* Lemma 3 rests on expansion d = 2 lacks: there only reported */
	if (g->d >= 8)
		KUNIT_EXPECT_LE_MSG(test, res.max_w, res.hbar, "N %u d %u h %u", g->ports, g->d,
				    res.h);
	KUNIT_EXPECT_TRUE_MSG(test, res.bound_ok, "N %u d %u h %u: %u through a node, 2 hbar %u",
			      g->ports, g->d, res.h, res.max_through, 2 * res.hbar);
	KUNIT_EXPECT_GE(test, res.stages, g->log);
	KUNIT_EXPECT_LE(test, res.stages, res.max_stages);
	for (i = 0; i < count; i++) {
		const u32 *p = paths + (size_t)i * cols;

		KUNIT_ASSERT_EQ(test, msg[i].src, p[0]);
		KUNIT_ASSERT_EQ(test, msg[i].dst, p[g->log]);
		for (c = 0; c < g->log; c++) {
			u32 h = bfly_mbfly_half(g, c, msg[i].dst), b = g->log - c - 1;
			bool edge = false;

			KUNIT_ASSERT_EQ(test, msg[i].dst >> b, p[c + 1] >> b);
			for (k = 0; k < g->d; k++)
				edge |= bfly_mbfly_neighbour(g, c, p[c], h, k) == p[c + 1];
			KUNIT_ASSERT_TRUE(test, edge);
		}
	}
}

/* h random permutations superposed (h = 1: a permutation), and the adversarial ones. */
static void bfly_mbfly_route_relations(struct kunit *test)
{
	static const u32 ds[] = { 2, 8, 16, 40 };
	struct bfly_mbfly_msg *msg;
	u32 log, di, h, i, j, n, *perm, *paths;
	struct rnd_state rnd;
	struct bfly_mbfly g;
	const char *why;
	void *work;

	prandom_seed_state(&rnd, 14);
	for (log = 1; log <= BFLY_TEST_REPS(9, 6); log++) {
		n = 1U << log;
		perm = bfly_test_alloc(test, n * sizeof(u32));
		msg = bfly_test_alloc(test, 8 * n * sizeof(*msg));
		paths = bfly_test_alloc(test, 8 * n * (log + 1) * sizeof(u32));
		for (di = 0; di < ARRAY_SIZE(ds); di++) {
			KUNIT_ASSERT_EQ(test, 0,
					bfly_mbfly_init(&g, n, ds[di], log * 77 + di, &why));
			work = bfly_test_alloc(test, bfly_mbfly_route_workspace_size(&g, 8 * n));
			for (h = 1; h <= 8; h *= 2) {
				for (j = 0; j < h; j++) {
					bfly_random_perm(&rnd, perm, n);
					for (i = 0; i < n; i++) {
						msg[j * n + i].src = i;
						msg[j * n + i].dst = perm[i];
					}
				}
				bfly_mbfly_check(test, &g, msg, h * n, paths, work);
				/* every message of a source to one destination */
				bfly_random_perm(&rnd, perm, n);
				for (i = 0; i < h * n; i++) {
					msg[i].src = i / h;
					msg[i].dst = perm[i / h];
				}
				bfly_mbfly_check(test, &g, msg, h * n, paths, work);
				/* a few sources and destinations, repeated */
				for (i = 0; i < h; i++) {
					msg[i].src = prandom_u32_state(&rnd) % 2;
					msg[i].dst = prandom_u32_state(&rnd) % n;
				}
				bfly_mbfly_check(test, &g, msg, h, paths, work);
			}
		}
	}
}

/* The same relation twice: the same paths; a stage limit: -EAGAIN, the rest counted. */
static void bfly_mbfly_route_limits(struct kunit *test)
{
	struct bfly_mbfly_params p = { .max_stages = 2 };
	struct bfly_mbfly_result res, res2;
	u32 n = 64, i, *perm, *a, *b;
	struct bfly_mbfly_msg *msg;
	struct rnd_state rnd;
	struct bfly_mbfly g;
	const char *why;
	void *work;

	prandom_seed_state(&rnd, 99);
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, n, 8, 3, &why));
	perm = bfly_test_alloc(test, n * sizeof(u32));
	msg = bfly_test_alloc(test, n * sizeof(*msg));
	a = bfly_test_alloc(test, n * 7 * sizeof(u32));
	b = bfly_test_alloc(test, n * 7 * sizeof(u32));
	work = bfly_test_alloc(test, bfly_mbfly_route_workspace_size(&g, n));
	bfly_random_perm(&rnd, perm, n);
	for (i = 0; i < n; i++) {
		msg[i].src = i;
		msg[i].dst = perm[i];
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_route(&g, NULL, msg, n, a, &res, work));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_route(&g, NULL, msg, n, b, &res2, work));
	KUNIT_EXPECT_MEMEQ(test, a, b, n * 7 * sizeof(u32));
	KUNIT_EXPECT_EQ(test, res.stages, res2.stages);
	KUNIT_EXPECT_EQ(test, -EAGAIN, bfly_mbfly_route(&g, &p, msg, n, NULL, &res, work));
	KUNIT_EXPECT_EQ(test, 2, res.stages);
	KUNIT_EXPECT_EQ(test, n, res.left + res.delivered);
	KUNIT_EXPECT_GT(test, res.left, 0);
	/* no messages: nothing to do */
	KUNIT_EXPECT_EQ(test, 0, bfly_mbfly_route(&g, NULL, msg, 0, NULL, &res, work));
	KUNIT_EXPECT_EQ(test, 0, res.stages);
}

/*
 * A splitter half's keys, and the neighbour table, give the neighbours
 * bfly_mbfly_neighbour() gives; the table's limit.
 */
static void bfly_mbfly_keyed(struct kunit *test)
{
	static const u32 shapes[][2] = { { 2, 4 }, { 8, 1 }, { 32, 3 }, { 128, 8 }, { 512, 40 } };
	u64 *keys = bfly_test_alloc(test, BFLY_MBFLY_MAX_D * sizeof(u64));
	u32 s, c, r, h, k, bad = 0, tbad = 0, *t;
	struct bfly_mbfly g;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 1U << 16, 16, 1, &why));
	KUNIT_EXPECT_EQ(test, 0, bfly_mbfly_table_size(&g));	/* 2^25 entries */
	KUNIT_EXPECT_EQ(test, -E2BIG, bfly_mbfly_table_fill(&g, NULL));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, 1U << 16, 8, 1, &why));
	KUNIT_EXPECT_EQ(test, (size_t)BFLY_MBFLY_TABLE_MAX * 4, bfly_mbfly_table_size(&g));
	for (s = 0; s < ARRAY_SIZE(shapes); s++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, shapes[s][0], shapes[s][1], s, &why));
		t = bfly_test_alloc(test, bfly_mbfly_table_size(&g));
		KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_table_fill(&g, t));
		for (c = 0; c < g.log; c++) {
			for (r = 0; r < g.ports; r++) {
				for (h = 0; h < 2; h++) {
					u32 v;

					bfly_mbfly_keys(&g, c, r >> (g.log - c), h, keys);
					for (k = 0; k < g.d; k++) {
						v = bfly_mbfly_neighbour(&g, c, r, h, k);
						bad += v != bfly_mbfly_neighbour_key(&g, c, r, h,
										     keys[k]);
						tbad += v != *t++;
					}
				}
			}
		}
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 0, tbad);
}

/*
 * Results pinned from the implementation that swept every node (before
 * the worklists and the 64-byte node halves): the same relation, the
 * same stages, fallbacks, overflows, loads and paths (a hash), with the
 * neighbours computed and looked up in the table.
 */
static void bfly_mbfly_route_pinned(struct kunit *test)
{
	static const u32 want[][9] = {
		{ 64, 8, 1, 9, 212, 122, 3, 4, 0x39485135 },
		{ 256, 8, 2, 11, 2064, 145, 5, 8, 0x9c0498b8 },
		{ 128, 3, 3, 11, 1519, 3, 6, 32, 0x6bdc4a45 },
	};
	struct bfly_mbfly_msg *m = bfly_test_alloc(test, 1024 * sizeof(*m));
	u32 *p = bfly_test_alloc(test, 1024 * 9 * sizeof(u32));
	struct bfly_mbfly_params prm = { 0 };
	struct bfly_mbfly_result r;
	u32 c, i, k, n, h, cnt, sum, tab, *t;
	struct bfly_mbfly g;
	const char *why;
	void *work;

	for (c = 0; c < ARRAY_SIZE(want); c++) {
		n = want[c][0];
		h = want[c][2];
		KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, n, want[c][1], 7 + c, &why));
		for (k = 0, cnt = 0; k < h; k++) {
			for (i = 0; i < n; i++, cnt++) {
				m[cnt].src = i;
				m[cnt].dst = (i * (37 + 8 * k) + 11 * k + 3) % n;
			}
		}
		work = bfly_test_alloc(test, bfly_mbfly_route_workspace_size(&g, cnt));
		t = bfly_test_alloc(test, bfly_mbfly_table_size(&g));
		KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_table_fill(&g, t));
		for (tab = 0; tab < 2; tab++) {
			prm.table = tab ? t : NULL;
			KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_route(&g, &prm, m, cnt, p, &r, work));
			for (i = 0, sum = 0; i < cnt * (g.log + 1); i++)
				sum = sum * 31 + p[i];
			KUNIT_EXPECT_EQ(test, want[c][3], r.stages);
			KUNIT_EXPECT_EQ(test, want[c][4], r.forced);
			KUNIT_EXPECT_EQ(test, want[c][5], r.cap_overflows);
			KUNIT_EXPECT_EQ(test, want[c][6], r.max_through);
			KUNIT_EXPECT_EQ(test, want[c][7], r.max_w);
			KUNIT_EXPECT_EQ(test, want[c][8], sum);
		}
	}
}

/*
 * A bad wiring (mbfly_bad_table.h) piles each column's messages onto one
 * node per half: a slot passes 65535 buffers and the routing stops with
 * -EOVERFLOW in its second stage, no hop off a logical path.
 */
static void bfly_mbfly_route_bad_wiring(struct kunit *test)
{
	struct bfly_mbfly_params prm = { .max_stages = 200 };
	u32 n = 1024, h = 256, cnt = n * h, k, r, i;
	struct bfly_mbfly_result res;
	struct bfly_mbfly_msg *m;
	struct bfly_mbfly g;
	const char *why;
	void *work;
	u32 *t;

	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_init(&g, n, 2, 5, &why));
	m = bfly_test_alloc(test, (size_t)cnt * sizeof(*m));
	work = bfly_test_alloc(test, bfly_mbfly_route_workspace_size(&g, cnt));
	t = bfly_test_alloc(test, bfly_mbfly_table_size(&g));
	KUNIT_ASSERT_EQ(test, 0, bfly_mbfly_table_fill(&g, t));
	bfly_mbfly_bad_table(&g, t);
	for (k = 0, i = 0; k < h; k++)
		for (r = 0; r < n; r++, i++) {
			m[i].src = r;
			m[i].dst = (r + k * 3) % n;
		}
	prm.table = t;
	KUNIT_EXPECT_EQ(test, -EOVERFLOW, bfly_mbfly_route(&g, &prm, m, cnt, NULL, &res, work));
	KUNIT_EXPECT_EQ(test, 1U, res.stages);
	KUNIT_EXPECT_EQ(test, cnt, res.left);
	KUNIT_EXPECT_EQ(test, 0U, res.path_errors);
}

static struct kunit_case bfly_mbfly_cases[] = {
	KUNIT_CASE(bfly_mbfly_bad_input),
	KUNIT_CASE(bfly_mbfly_wiring),
	KUNIT_CASE(bfly_mbfly_expansion_tiny),
	KUNIT_CASE(bfly_mbfly_expansion_sampled),
	KUNIT_CASE(bfly_mbfly_route_relations),
	KUNIT_CASE(bfly_mbfly_route_limits),
	KUNIT_CASE(bfly_mbfly_keyed),
	KUNIT_CASE(bfly_mbfly_route_pinned),
	KUNIT_CASE(bfly_mbfly_route_bad_wiring),
	{}
};

static struct kunit_suite bfly_mbfly_suite = {
	.name = "bfly_mbfly",
	.test_cases = bfly_mbfly_cases,
};

kunit_test_suite(bfly_mbfly_suite);
