// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the whole exchange on a flattened butterfly (flatfly_exchange.c).
 * The lower bound against a direct count of the hops each cycle can
 * carry; the systolic schedule as a Latin square whose rounds load no
 * channel twice, and, run cycle by cycle, with no channel, injection or
 * ejection used twice in a cycle; and a 19-cycle exchange on the 2-ary
 * 4-flat, which meets the bound there.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "lib/flatfly.h"
#include "lib/rls.h"
#include "kunit_util.h"

static u64 bfly_test_pow(u64 k, u32 n)
{
	u64 p = 1;

	while (n--)
		p *= k;
	return p;
}

/*
 * The flattened butterfly k^n (n >= 2, at most @max terminals) after
 * *@k, *@n, in order of k then n; *@k = 0 starts. Return: false past the
 * last.
 */
static bool bfly_test_next_flat(u32 *k, u32 *n, u64 max)
{
	if (*k && bfly_test_pow(*k, *n + 1) <= max) {
		++*n;
		return true;
	}
	*k = *k ? *k + 1 : 2;
	*n = 2;
	return (u64)*k * *k <= max;
}

/* The least C with sum_t min(channels, N (t-1), N (C-t)) >= N channels. */
static u64 bfly_test_bound(const struct bfly_flatfly *f)
{
	u64 n = f->fly.ports, ch = f->channels, c, t, sum;

	for (c = 3;; c++) {
		sum = 0;
		for (t = 2; t < c; t++)
			sum += min3(ch, n * (t - 1), n * (c - t));
		if (sum >= n * ch)
			return c;
	}
}

/*
 * The bound by its closed form equals the direct count; a few by hand,
 * and the systolic schedule's distance from it up to 2^20 terminals:
 * 2-ary 4-flat (16 terminals, 24 channels): the first and last cycles of
 * hops carry 16 packets, not 24, so 16 + 16 + 24 (C - 4) >= 384 and
 * C >= 19. Where channels <= N the bound is N + 2.
 */
static void bfly_flatfly_bound(struct kunit *test)
{
	static const u32 hand[][3] = {
		{ 2, 4, 6 }, { 2, 8, 10 }, { 2, 16, 19 }, { 2, 32, 35 }, { 3, 9, 11 },
		{ 3, 27, 30 }, { 4, 16, 18 }, { 4, 64, 67 }, { 8, 512, 515 },
	};
	struct bfly_flatfly f;
	const char *why;
	u32 k, n, t;

	for (t = 0; t < ARRAY_SIZE(hand); t++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, hand[t][0], hand[t][1], &why));
		KUNIT_EXPECT_EQ_MSG(test, hand[t][2], bfly_flatfly_exchange_bound(&f),
				    "k=%u N=%u", hand[t][0], hand[t][1]);
	}
	for (k = 0, n = 0; bfly_test_next_flat(&k, &n, 4096);) {
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, k, bfly_test_pow(k, n), &why));
		KUNIT_EXPECT_EQ_MSG(test, bfly_test_bound(&f), bfly_flatfly_exchange_bound(&f),
				    "k=%u N=%u", k, f.fly.ports);
	}
	/* The systolic schedule's N + n is floor((n - 1) / k) over it. */
	for (k = 0, n = 0; bfly_test_next_flat(&k, &n, 1U << 20);) {
		if (k > BFLY_MAX_RADIX)
			break;
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, k, bfly_test_pow(k, n), &why));
		KUNIT_EXPECT_EQ_MSG(test, (n - 1) / k,
				    bfly_flatfly_systolic_cycles(&f, f.fly.ports) -
				    bfly_flatfly_exchange_bound(&f), "k=%u N=%u", k, f.fly.ports);
	}
}

/*
 * Every round is a permutation loading no channel twice, every pair
 * (i, d) comes once in N rounds, and the whole exchange takes
 * N + dims + 1 cycles: the bound on the 4-ary 2-flat and the 3-ary
 * 3-flat, one over it on the 2-ary 4-flat. N up to 1024 natively, 256 in
 * the kernel (the same code; N^2 pairs a flat).
 */
static void bfly_flatfly_systolic_square(struct kunit *test)
{
	struct bfly_flatfly_round_stats st;
	u32 k, n, s, i, ports, bad;
	unsigned long *pairs;
	struct bfly_flatfly f;
	const char *why;
	u64 hops;
	u32 *dest;
	void *work;

	for (k = 0, n = 0; bfly_test_next_flat(&k, &n, BFLY_TEST_REPS(1024, 256));) {
		ports = bfly_test_pow(k, n);
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, k, ports, &why));
		work = bfly_test_alloc(test, bfly_flatfly_systolic_workspace_size(&f));
		dest = bfly_test_alloc(test, ports * sizeof(u32));
		pairs = bfly_test_alloc(test, BITS_TO_LONGS(ports * ports) * sizeof(long));
		bitmap_zero(pairs, ports * ports);
		bad = 0;
		hops = 0;
		for (s = 0; s < ports; s++) {
			KUNIT_ASSERT_EQ(test, 0,
					bfly_flatfly_systolic_round(&f, s, dest, &st, work));
			bad += st.max_load != 1 || st.excess || st.cycles != f.dims + 2;
			for (i = 0; i < ports; i++)
				bad += dest[i] >= ports ||
				       __test_and_set_bit(i * ports + dest[i], pairs);
			hops += st.hops;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", k, ports);
		KUNIT_EXPECT_EQ_MSG(test, (u64)ports * f.channels, hops, "k=%u N=%u", k, ports);
		KUNIT_EXPECT_EQ(test, (u64)ports + n, bfly_flatfly_systolic_cycles(&f, ports));
		KUNIT_EXPECT_LE(test, bfly_flatfly_exchange_bound(&f),
				bfly_flatfly_systolic_cycles(&f, ports));
		KUNIT_EXPECT_EQ(test, -EINVAL, bfly_flatfly_systolic_round(&f, ports, dest, &st,
									   work));
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 16, &why));
	KUNIT_EXPECT_EQ(test, 20, bfly_flatfly_systolic_cycles(&f, 16));
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 4, 16, &why));
	KUNIT_EXPECT_EQ(test, 18, bfly_flatfly_systolic_cycles(&f, 16));
	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 3, 27, &why));
	KUNIT_EXPECT_EQ(test, 30, bfly_flatfly_systolic_cycles(&f, 27));
	KUNIT_EXPECT_EQ(test, 0, bfly_flatfly_systolic_cycles(&f, 0));
}

/*
 * The pipeline run cycle by cycle: round s injected in cycle s + 1, its
 * hop on digit b in cycle s + 1 + dims - b, its ejection in cycle
 * s + dims + 2. No (cycle, channel) is used twice, nor a terminal's
 * injection or ejection twice in a cycle: the schedule's own claim,
 * checked without it.
 */
static void bfly_flatfly_systolic_pipeline(struct kunit *test)
{
	u32 path[BFLY_MAX_PORTS_LOG2], k, n, s, i, h, len, b, ports, cycles, bad;
	struct bfly_flatfly f;
	unsigned long *used;
	const char *why;
	u64 slot;

	for (k = 0, n = 0; bfly_test_next_flat(&k, &n, 256);) {
		ports = bfly_test_pow(k, n);
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, k, ports, &why));
		cycles = bfly_flatfly_systolic_cycles(&f, ports) + 1;
		/* cycle-major: channels, then N injections, then N ejections */
		used = bfly_test_alloc(test, BITS_TO_LONGS((u64)cycles * (f.channels + 2 * ports)) *
					     sizeof(long));
		bitmap_zero(used, cycles * (f.channels + 2 * ports));
		bad = 0;
		for (s = 0; s < ports; s++)
			for (i = 0; i < ports; i++) {
				u32 d = bfly_flatfly_systolic_dest(&f, i, s);

				slot = (u64)(s + 1) * (f.channels + 2 * ports) + f.channels + i;
				bad += __test_and_set_bit(slot, used);
				slot = (u64)(s + f.dims + 2) * (f.channels + 2 * ports) +
				       f.channels + ports + d;
				bad += __test_and_set_bit(slot, used);
				len = bfly_flatfly_dor_path(&f, i / k, d / k, path);
				for (h = 0; h < len; h++) {
					b = path[h] / (k - 1) % f.dims;
					slot = (u64)(s + 1 + f.dims - b) *
					       (f.channels + 2 * ports) + path[h];
					bad += __test_and_set_bit(slot, used);
					/* top digit first: a later hop, a later cycle */
					bad += h && path[h - 1] / (k - 1) % f.dims <= b;
				}
			}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", k, ports);
	}
}

/*
 * An exchange on the 2-ary 4-flat in 19 cycles, the bound, so the true
 * minimum there: router 0's packets as tools/flatfly-schedule-sat.py
 * found them (local port a to local port c of router x; cycles of the
 * injection, the hop on each digit, 0 for none, and the ejection); router
 * r's packets do the same with router labels XORed by r.
 */
struct bfly_test_flat_packet {
	u8 a, c, x, in, hop[3], out;
};

static const struct bfly_test_flat_packet bfly_test_n16_optimum[] = {
	{ 0, 0, 1, 15, { 16,  0,  0 }, 17 },
	{ 0, 0, 2,  4, {  0,  6,  0 },  8 },
	{ 0, 0, 3, 13, { 15, 17,  0 }, 18 },
	{ 0, 0, 4,  5, {  0,  0,  6 },  7 },
	{ 0, 0, 5,  2, {  4,  0,  3 },  5 },
	{ 0, 0, 6,  9, {  0, 10, 11 }, 13 },
	{ 0, 0, 7,  3, {  8, 11,  4 }, 12 },
	{ 0, 1, 0, 14, {  0,  0,  0 }, 15 },
	{ 0, 1, 1, 10, { 11,  0,  0 }, 12 },
	{ 0, 1, 2,  7, {  0,  8,  0 }, 10 },
	{ 0, 1, 3,  1, {  3,  4,  0 },  5 },
	{ 0, 1, 4, 12, {  0,  0, 13 }, 14 },
	{ 0, 1, 5, 11, { 17,  0, 16 }, 18 },
	{ 0, 1, 6,  8, {  0,  9, 10 }, 11 },
	{ 0, 1, 7,  6, { 14,  7, 15 }, 16 },
	{ 1, 0, 0, 10, {  0,  0,  0 }, 11 },
	{ 1, 0, 1,  8, {  9,  0,  0 }, 10 },
	{ 1, 0, 2, 17, {  0, 18,  0 }, 19 },
	{ 1, 0, 3, 12, { 13, 14,  0 }, 15 },
	{ 1, 0, 4,  3, {  0,  0,  5 },  6 },
	{ 1, 0, 5,  5, {  6,  0,  8 },  9 },
	{ 1, 0, 6,  7, {  0, 12,  9 }, 16 },
	{ 1, 0, 7,  9, { 10, 13, 12 }, 14 },
	{ 1, 1, 1, 11, { 12,  0,  0 }, 13 },
	{ 1, 1, 2,  2, {  0,  3,  0 },  6 },
	{ 1, 1, 3,  4, {  7,  5,  0 },  8 },
	{ 1, 1, 4,  6, {  0,  0,  7 },  9 },
	{ 1, 1, 5,  1, {  5,  0,  2 },  7 },
	{ 1, 1, 6, 13, {  0, 15, 14 }, 17 },
	{ 1, 1, 7, 14, { 18, 16, 17 }, 19 },
};

/*
 * The schedule checked whole, without the symmetry it was found with:
 * every message of the exchange once, each injected, then hopping on each
 * digit where its routers differ, in increasing cycles, then ejected; no
 * channel, injection or ejection used twice in a cycle; the last ejection
 * in cycle 19.
 */
static void bfly_flatfly_n16_optimum(struct kunit *test)
{
	const u32 cycles = 20, width = 24 + 2 * 16;
	u32 r, e, t, b, at, ch, prev, src, dst, last = 0, count = 0, bad = 0;
	unsigned long pairs[BITS_TO_LONGS(16 * 16)];
	struct bfly_flatfly f;
	unsigned long *used;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, 16, &why));
	KUNIT_ASSERT_EQ(test, 24, f.channels);
	used = bfly_test_alloc(test, BITS_TO_LONGS(cycles * width) * sizeof(long));
	bitmap_zero(used, cycles * width);
	bitmap_zero(pairs, 16 * 16);
	for (r = 0; r < 8; r++) {
		for (e = 0; e < ARRAY_SIZE(bfly_test_n16_optimum); e++) {
			const struct bfly_test_flat_packet *p = &bfly_test_n16_optimum[e];

			src = r * 2 + p->a;
			dst = (r ^ p->x) * 2 + p->c;
			bad += src == dst || __test_and_set_bit(src * 16 + dst, pairs);
			bad += p->in < 1 || p->out >= cycles || p->out <= p->in;
			if (bad)
				break;
			bad += __test_and_set_bit(p->in * width + 24 + src, used);
			bad += __test_and_set_bit(p->out * width + 24 + 16 + dst, used);
			for (b = 0; b < 3; b++)
				bad += !p->hop[b] != !(p->x >> b & 1);
			for (t = p->in + 1, at = r, prev = p->in; t < p->out; t++)
				for (b = 0; b < 3; b++) {
					if (p->hop[b] != t)
						continue;
					ch = bfly_flatfly_channel(&f, at, at ^ 1U << b);
					bad += t == prev;
					bad += __test_and_set_bit(t * width + ch, used);
					at ^= 1U << b;
					prev = t;
				}
			bad += at != (r ^ p->x);
			if (p->out > last)
				last = p->out;
			count++;
		}
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
	KUNIT_EXPECT_EQ(test, 16 * 15, count);
	KUNIT_EXPECT_EQ(test, 16 * 15, bitmap_weight(pairs, 16 * 16));
	KUNIT_EXPECT_EQ(test, 19, last);
	KUNIT_EXPECT_EQ(test, bfly_flatfly_exchange_bound(&f), last);
}

/*
 * bfly_flatfly_rls_run() gives bfly_flatfly_round()'s figures for every
 * RLS round, mapped and minimal, N = 4 .. 2^8 (2^10 natively).
 */
static void bfly_flatfly_rls_same(struct kunit *test)
{
	struct bfly_flatfly_round_stats want, got;
	u32 n, ports, k, i, bad = 0, top = BFLY_TEST_LARGE ? 10 : 8;
	struct bfly_flatfly f;
	void *work, *work2;
	const char *why;
	u64 *labels;
	u32 *dest;
	int minimal;

	for (n = 2; n <= top; n++) {
		ports = 1U << n;
		KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_init(&f, 2, ports, &why));
		work = bfly_test_alloc(test, bfly_flatfly_rls_workspace_size(&f));
		work2 = bfly_test_alloc(test, bfly_flatfly_round_workspace_size(&f));
		dest = bfly_test_alloc(test, ports * sizeof(u32));
		labels = bfly_test_alloc(test, ports * sizeof(u64));
		for (minimal = 0; minimal < 2; minimal++)
			for (k = 0; k < ports; k++) {
				for (i = 0; i < ports; i++)
					dest[i] = (i - k) & (ports - 1);
				KUNIT_ASSERT_EQ(test, 0, bfly_rls_labels_round(ports, k, labels));
				KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_round(&f, dest,
									    minimal ? NULL : labels,
									    &want, work2));
				KUNIT_ASSERT_EQ(test, 0, bfly_flatfly_rls_run(&f, k, dest, labels,
									      minimal, &got, work));
				bad += memcmp(&want, &got, sizeof(want)) != 0;
			}
	}
	KUNIT_EXPECT_EQ(test, 0, bad);
}

static struct kunit_case bfly_flatfly_exchange_cases[] = {
	KUNIT_CASE(bfly_flatfly_rls_same),
	KUNIT_CASE(bfly_flatfly_bound),
	KUNIT_CASE(bfly_flatfly_systolic_square),
	KUNIT_CASE(bfly_flatfly_systolic_pipeline),
	KUNIT_CASE(bfly_flatfly_n16_optimum),
	{}
};

static struct kunit_suite bfly_flatfly_exchange_suite = {
	.name = "bfly_flatfly_exchange",
	.test_cases = bfly_flatfly_exchange_cases,
};

kunit_test_suite(bfly_flatfly_exchange_suite);
