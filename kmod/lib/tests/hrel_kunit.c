// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: h-relations in h rounds (hrel.c). Every colouring is checked
 * round by round: each round a partial permutation, every message in
 * exactly one round, exactly h rounds and none empty. Relations: random
 * (unions of h permutations, and capped random lists), adversarial ones
 * (h parallel edges, permutations, all-to-all, one busy source among many
 * idle ports, the empty relation), h = 2^L at the edges of the entry
 * widths, every relation on 2 and 3 ports with
 * up to 4 and 3 messages a port, and bad input.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/hrel.h"
#include "kunit_util.h"

/* Scratch for checking colourings; sized for the largest case. */
struct bfly_hrel_t {
	u32 *colour, *perm, *msg, *seen, *got;
	void *work;
	size_t work_size;
};

static void bfly_hrel_t_init(struct kunit *test, struct bfly_hrel_t *t, u32 ports, u32 count,
			     u32 h)
{
	t->colour = bfly_test_alloc(test, (count + 1) * sizeof(u32));
	t->got = bfly_test_alloc(test, (count + 1) * sizeof(u32));
	t->perm = bfly_test_alloc(test, ports * sizeof(u32));
	t->msg = bfly_test_alloc(test, ports * sizeof(u32));
	t->seen = bfly_test_alloc(test, ports * sizeof(u32));
	t->work_size = max(bfly_hrel_workspace_size(ports, count, h),
			   bfly_hrel_degree_workspace_size(ports));
	t->work = bfly_test_alloc(test, t->work_size);
}

/*
 * The rounds of @colour: partial permutations covering each message once,
 * none empty when @every.
 */
static bool bfly_hrel_check(struct kunit *test, struct bfly_hrel_t *t, u32 ports, u32 count,
			    const u32 *src, const u32 *dst, u32 h, bool every)
{
	u32 c, s, i, total = 0;
	bool ok = true;
	int sent;

	memset(t->got, 0, count * sizeof(u32));
	memset(t->seen, 0xff, ports * sizeof(u32));
	for (i = 0; i < count; i++)
		ok &= t->colour[i] < h;
	KUNIT_EXPECT_TRUE_MSG(test, ok, "a colour is h = %u or more", h);
	for (c = 0; ok && c < h; c++) {
		sent = bfly_hrel_round(ports, count, src, dst, t->colour, c, t->perm, t->msg);
		KUNIT_EXPECT_GE_MSG(test, sent, every ? 1 : 0,
				    "round %u of %u: a source twice or empty", c, h);
		if (sent < 0 || (every && !sent))
			return false;
		total += sent;
		for (s = 0; s < ports; s++) {
			u32 d = t->perm[s], m = t->msg[s];

			if (d == BFLY_HREL_IDLE)
				continue;
			ok &= m < count && src[m] == s && dst[m] == d && t->seen[d] != c;
			t->seen[d] = c;
			if (m < count)
				t->got[m]++;
		}
		KUNIT_EXPECT_TRUE_MSG(test, ok, "round %u of %u: a destination twice", c, h);
	}
	for (i = 0; ok && i < count; i++)
		ok &= t->got[i] == 1;
	KUNIT_EXPECT_TRUE_MSG(test, ok, "a message not in exactly one round");
	KUNIT_EXPECT_EQ(test, total, count);
	return ok;
}

/* Degree, colour and check one relation of degree @h. */
static bool bfly_hrel_run(struct kunit *test, struct bfly_hrel_t *t, u32 ports, u32 count,
			  const u32 *src, const u32 *dst, u32 h)
{
	u32 deg = U32_MAX, bad = U32_MAX;
	int err;

	KUNIT_EXPECT_LE(test, bfly_hrel_workspace_size(ports, count, h), t->work_size);
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_degree(ports, count, src, dst, &deg, &bad, t->work));
	KUNIT_EXPECT_EQ_MSG(test, deg, h, "N %u count %u", ports, count);
	if (deg != h)
		return false;
	err = bfly_hrel_colour(ports, count, src, dst, h, t->colour, t->work);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "N %u count %u h %u", ports, count, h);
	if (err)
		return false;
	return bfly_hrel_check(test, t, ports, count, src, dst, h, true);
}

/* Colour with @h, a power of two above the degree: more dummy edges. */
static bool bfly_hrel_run_above(struct kunit *test, struct bfly_hrel_t *t, u32 ports,
				u32 count, const u32 *src, const u32 *dst, u32 h)
{
	int err;

	KUNIT_EXPECT_LE(test, bfly_hrel_workspace_size(ports, count, h), t->work_size);
	err = bfly_hrel_colour(ports, count, src, dst, h, t->colour, t->work);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "N %u count %u h %u", ports, count, h);
	if (err)
		return false;
	return bfly_hrel_check(test, t, ports, count, src, dst, h, false);
}

static void bfly_hrel_random_perm(struct rnd_state *rnd, u32 *p, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n; i > 1; i--) {
		j = prandom_u32_state(rnd) % i;
		swap(p[i - 1], p[j]);
	}
}

/* Unions of h random permutations (regular), at N and h of all kinds. */
static void bfly_hrel_random_regular(struct kunit *test)
{
	static const u32 ns[] = { 1, 2, 3, 5, 8, 13, 64, 100, 1024, 4096 };
	static const u32 hs[] = { 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 31, 33, 64 };
	u32 maxn = BFLY_TEST_LARGE ? 4096 : 1024, a, b, k, reps;
	struct bfly_hrel_t t;
	struct rnd_state rnd;
	u32 *src, *dst;

	prandom_seed_state(&rnd, 14);
	bfly_hrel_t_init(test, &t, maxn, maxn * 64, 64);
	src = bfly_test_alloc(test, maxn * 64 * sizeof(u32));
	dst = bfly_test_alloc(test, maxn * 64 * sizeof(u32));
	for (a = 0; a < ARRAY_SIZE(ns) && ns[a] <= maxn; a++) {
		for (b = 0; b < ARRAY_SIZE(hs); b++) {
			u32 n = ns[a], h = hs[b];

			for (reps = 0; reps < (n < 64 ? 8 : 2); reps++) {
				for (k = 0; k < h; k++) {
					bfly_hrel_random_perm(&rnd, dst + k * n, n);
					bfly_hrel_random_perm(&rnd, src + k * n, n);
				}
				if (!bfly_hrel_run(test, &t, n, n * h, src, dst, h))
					return;
			}
		}
	}
}

/*
 * h = 2^L at the edges of the entry widths: slot colours in u8 (h up to
 * 256), u16 (up to 2^16) and u32 (2^17, natively); right vertices in u16
 * (65536 groups) and in u32 (65537 and more). Each relation is regular
 * with count = N h, so colours below h taking each source and each
 * destination at most once make h full permutations: checked in one pass
 * (bfly_hrel_check() takes h passes).
 */
static void bfly_hrel_widths(struct kunit *test)
{
	static const u32 cfg[][2] = {
		{ 3, 256 }, { 3, 512 }, { 2, 1024 }, { 1, 1U << 16 }, { 1, 1U << 17 },
		{ 2, 1U << 17 }, { 1U << 16, 2 }, { (1U << 16) + 1, 2 }, { 70000, 4 },
	};
	u32 i, k, n, h, count, bad, *src, *dst;
	struct bfly_hrel_t t;
	struct rnd_state rnd;
	u8 *used;

	prandom_seed_state(&rnd, 1416);
	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		n = cfg[i][0];
		h = cfg[i][1];
		count = n * h;
		if (!BFLY_TEST_LARGE && count > 1U << 17)
			continue;
		bfly_hrel_t_init(test, &t, n, count, h);
		src = bfly_test_alloc(test, count * sizeof(u32));
		dst = bfly_test_alloc(test, count * sizeof(u32));
		used = bfly_test_alloc(test, count);
		for (k = 0; k < h; k++) {
			bfly_hrel_random_perm(&rnd, dst + k * n, n);
			bfly_hrel_random_perm(&rnd, src + k * n, n);
		}
		KUNIT_ASSERT_EQ(test, 0, bfly_hrel_colour(n, count, src, dst, h, t.colour,
							  t.work));
		/* bit 0: (colour, source) taken; bit 1: (colour, destination) */
		for (k = 0, bad = 0; k < count && !bad; k++) {
			u32 c = t.colour[k];

			bad = c >= h || (used[c * n + src[k]] & 1) || (used[c * n + dst[k]] & 2);
			if (!bad) {
				used[c * n + src[k]] |= 1;
				used[c * n + dst[k]] |= 2;
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "N %u h %u: message %u", n, h, k - 1);
		if (bad)
			return;
	}
}

/*
 * h = 2^L with at least 2^21 slots in u16 right vertices: the build's runs
 * serve the final gather (hrel_unwind.c). Regular (every slot a message)
 * and irregular (dummies fill the groups; the runs hold messages only),
 * the messages in random order. Natively only: 2^21 messages and more.
 */
static void bfly_hrel_gather_runs(struct kunit *test)
{
	static const u32 cfg[][3] = {
		/* ports, h, messages drawn (0: regular, N h) */
		{ 1U << 15, 64, 0 }, { 1U << 16, 32, 0 }, { 60000, 64, 7000000 },
		{ 1U << 16, 64, 3000000 },
	};
	u32 i, k, n, h, count, *src, *dst, *ds, *dd;
	struct bfly_hrel_t t;
	struct rnd_state rnd;

	if (!BFLY_TEST_LARGE)
		return;
	prandom_seed_state(&rnd, 1421);
	bfly_hrel_t_init(test, &t, 1U << 16, 1U << 22, 64);
	src = bfly_test_alloc(test, (1U << 22) * sizeof(u32));
	dst = bfly_test_alloc(test, (1U << 22) * sizeof(u32));
	ds = bfly_test_alloc(test, (1U << 16) * sizeof(u32));
	dd = bfly_test_alloc(test, (1U << 16) * sizeof(u32));
	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		n = cfg[i][0];
		h = cfg[i][1];
		count = 0;
		if (!cfg[i][2]) {
			for (k = 0; k < h; k++) {
				bfly_hrel_random_perm(&rnd, dst + k * n, n);
				bfly_hrel_random_perm(&rnd, src + k * n, n);
			}
			count = n * h;
		}
		memset(ds, 0, n * sizeof(u32));
		memset(dd, 0, n * sizeof(u32));
		for (k = 0; k < cfg[i][2]; k++) {
			u32 s = prandom_u32_state(&rnd) % n, d = prandom_u32_state(&rnd) % n;

			if (ds[s] == h || dd[d] == h)
				continue;
			ds[s]++;
			dd[d]++;
			src[count] = s;
			dst[count++] = d;
		}
		if (!bfly_hrel_run(test, &t, n, count, src, dst, h))
			return;
	}
}

/* Random messages kept while both ends have fewer than @cap: irregular. */
static void bfly_hrel_random_capped(struct kunit *test)
{
	static const u32 cfg[][2] = {
		{ 4, 3 }, { 10, 2 }, { 10, 7 }, { 50, 5 }, { 200, 9 }, { 1000, 16 },
		{ 1000, 25 }, { 3000, 40 }, { 5, 64 },
	};
	u32 i, r, m, h, count, deg, bad, *src, *dst, *ds, *dd;
	struct bfly_hrel_t t;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 1414);
	bfly_hrel_t_init(test, &t, 3000, 3000 * 64, 64);
	src = bfly_test_alloc(test, 3000 * 64 * sizeof(u32));
	dst = bfly_test_alloc(test, 3000 * 64 * sizeof(u32));
	ds = bfly_test_alloc(test, 3000 * sizeof(u32));
	dd = bfly_test_alloc(test, 3000 * sizeof(u32));
	for (i = 0; i < ARRAY_SIZE(cfg); i++) {
		u32 n = cfg[i][0], cap = cfg[i][1];

		for (r = 0; r < BFLY_TEST_REPS(6, 2); r++) {
			memset(ds, 0, n * sizeof(u32));
			memset(dd, 0, n * sizeof(u32));
			count = 0;
			for (m = 0; m < 2 * n * cap; m++) {
				u32 s = prandom_u32_state(&rnd) % n;
				/* half of the relations skewed to few destinations */
				u32 d = prandom_u32_state(&rnd) % (r & 1 ? n : (n + 3) / 4);

				if (ds[s] == cap || dd[d] == cap)
					continue;
				ds[s]++;
				dd[d]++;
				src[count] = s;
				dst[count++] = d;
			}
			KUNIT_ASSERT_EQ(test, 0, bfly_hrel_degree(n, count, src, dst, &deg, &bad,
								  t.work));
			if (!bfly_hrel_run(test, &t, n, count, src, dst, deg))
				return;
			/* the power of two above the degree, as h */
			for (h = 2; h <= deg; h *= 2)
				;
			if (h <= 64 && h <= count &&
			    !bfly_hrel_run_above(test, &t, n, count, src, dst, h))
				return;
		}
	}
}

/* h parallel edges, permutations, all-to-all, one busy source, nothing. */
static void bfly_hrel_adversarial(struct kunit *test)
{
	static const u32 a2a[] = { 1, 2, 3, 16, 33, 64 };
	u32 big = BFLY_TEST_LARGE ? 1U << 20 : 1U << 16;
	u32 i, j, n, h, *src, *dst, deg, bad;
	struct bfly_hrel_t t;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 7);
	bfly_hrel_t_init(test, &t, big, 64 * 64, 64);
	src = bfly_test_alloc(test, 64 * 64 * sizeof(u32));
	dst = bfly_test_alloc(test, 64 * 64 * sizeof(u32));
	/* every source sends its h messages to one destination */
	for (h = 1; h <= 64; h += h < 8 ? 1 : 7) {
		for (i = 0; i < 64 * h; i++) {
			src[i] = i % 64;
			dst[i] = (i % 64 + 5) % 64;
		}
		if (!bfly_hrel_run(test, &t, 64, 64 * h, src, dst, h))
			return;
	}
	/* h = 1: permutations, and a partial one */
	for (n = 1; n <= 64; n = 2 * n + 1) {
		bfly_hrel_random_perm(&rnd, dst, n);
		for (i = 0; i < n; i++)
			src[i] = i;
		if (!bfly_hrel_run(test, &t, n, n, src, dst, 1) ||
		    !bfly_hrel_run(test, &t, n + 9, n, src, dst, 1))
			return;
	}
	/* h = N: all-to-all, in source-major and destination-major order */
	for (i = 0; i < ARRAY_SIZE(a2a); i++) {
		n = a2a[i];
		for (j = 0; j < n * n; j++) {
			src[j] = j / n;
			dst[j] = j % n;
		}
		if (!bfly_hrel_run(test, &t, n, n * n, src, dst, n) ||
		    !bfly_hrel_run(test, &t, n, n * n, dst, src, n))
			return;
	}
	/* one busy source among many idle ports; the colouring stays small */
	for (h = 1; h <= 64; h *= 3) {
		for (i = 0; i < h; i++) {
			src[i] = big / 2 + 1;
			dst[i] = i * (big / h);
		}
		KUNIT_EXPECT_LE(test, bfly_hrel_workspace_size(big, h, h),
				bfly_hrel_degree_workspace_size(big) + 4096);
		if (!bfly_hrel_run(test, &t, big, h, src, dst, h))
			return;
	}
	/* the empty relation: h = 0, no round */
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_degree(8, 0, src, dst, &deg, &bad, t.work));
	KUNIT_EXPECT_EQ(test, deg, 0);
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_colour(8, 0, src, dst, 0, t.colour, t.work));
}

/* Next message multiplicity matrix in @mult (n x n, entries <= @top). */
static bool bfly_hrel_next_matrix(u8 *mult, u32 cells, u32 top)
{
	u32 i;

	for (i = 0; i < cells; i++) {
		if (mult[i] < top) {
			mult[i]++;
			return true;
		}
		mult[i] = 0;
	}
	return false;
}

/* Every relation on 2 ports up to h = 4 and on 3 ports up to h = 3. */
static void bfly_hrel_exhaustive(struct kunit *test)
{
	static const u32 cfg[][2] = { { 2, 4 }, { 3, 3 } };
	u32 src[16], dst[16], rs[3], cs[3], i, k, count, tried, h;
	struct bfly_hrel_t t;
	struct rnd_state rnd;
	u8 mult[9];

	prandom_seed_state(&rnd, 3);
	bfly_hrel_t_init(test, &t, 3, 16, 4);
	for (k = 0; k < ARRAY_SIZE(cfg); k++) {
		u32 n = cfg[k][0], top = cfg[k][1];

		memset(mult, 0, sizeof(mult));
		tried = 0;
		do {
			memset(rs, 0, sizeof(rs));
			memset(cs, 0, sizeof(cs));
			count = 0;
			h = 0;
			for (i = 0; i < n * n; i++) {
				rs[i / n] += mult[i];
				cs[i % n] += mult[i];
				h = max3(h, rs[i / n], cs[i % n]);
			}
			if (h > top)
				continue;
			for (i = 0; i < n * n; i++) {
				u32 j;

				for (j = 0; j < mult[i]; j++) {
					src[count] = i / n;
					dst[count++] = i % n;
				}
			}
			/* in order, and in a random order */
			if (!bfly_hrel_run(test, &t, n, count, src, dst, h))
				return;
			for (i = count; i > 1; i--) {
				u32 j = prandom_u32_state(&rnd) % i;

				swap(src[i - 1], src[j]);
				swap(dst[i - 1], dst[j]);
			}
			if (!bfly_hrel_run(test, &t, n, count, src, dst, h))
				return;
			tried++;
		} while (bfly_hrel_next_matrix(mult, n * n, top));
		kunit_info(test, "N %u, h <= %u: %u relations\n", n, top, tried);
	}
}

/* Out-of-range endpoints, h below the degree, a round with a source twice. */
static void bfly_hrel_bad_input(struct kunit *test)
{
	u32 src[8] = { 0, 1, 2, 3, 0, 1, 2, 3 }, dst[8] = { 1, 2, 3, 0, 2, 3, 0, 1 };
	u32 colour[8], perm[4], deg = 0, bad = 0, i;
	struct bfly_hrel_t t;

	bfly_hrel_t_init(test, &t, 8, 8, 3);
	src[5] = 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_degree(4, 8, src, dst, &deg, &bad, t.work));
	KUNIT_EXPECT_EQ(test, bad, 5);
	src[5] = 1;
	dst[6] = U32_MAX;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_degree(4, 8, src, dst, &deg, &bad, t.work));
	KUNIT_EXPECT_EQ(test, bad, 6);
	memset(colour, 0x5a, sizeof(colour));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_colour(4, 8, src, dst, 2, colour, t.work));
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, colour[i], 0x5a5a5a5a);
	dst[6] = 0;
	/* degree 2: one colour is too few, three are allowed */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_colour(4, 8, src, dst, 1, colour, t.work));
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_colour(4, 8, src, dst, 3, colour, t.work));
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_LT(test, colour[i], 3);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_colour(4, 8, src, dst, 9, colour, t.work));
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_workspace_size(4, BFLY_HREL_MAX_MESSAGES + 1, 2));
	KUNIT_EXPECT_EQ(test, 0, bfly_hrel_workspace_size(4, 8, 9));
	/* all in colour 0: source 0 twice */
	memset(colour, 0, sizeof(colour));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_hrel_round(4, 8, src, dst, colour, 0, perm, NULL));
}

static struct kunit_case bfly_hrel_cases[] = {
	KUNIT_CASE(bfly_hrel_random_regular),
	KUNIT_CASE(bfly_hrel_widths),
	KUNIT_CASE(bfly_hrel_gather_runs),
	KUNIT_CASE(bfly_hrel_random_capped),
	KUNIT_CASE(bfly_hrel_adversarial),
	KUNIT_CASE(bfly_hrel_exhaustive),
	KUNIT_CASE(bfly_hrel_bad_input),
	{}
};

static struct kunit_suite bfly_hrel_suite = {
	.name = "bfly_hrel",
	.test_cases = bfly_hrel_cases,
};

kunit_test_suite(bfly_hrel_suite);
