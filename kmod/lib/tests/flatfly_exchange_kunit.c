// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the whole exchange on a flattened butterfly (flatfly_exchange.c).
 * The lower bound against a direct count of the hops each cycle can
 * carry; the systolic schedule as a Latin square whose rounds load no
 * channel twice, and, run cycle by cycle, with no channel, injection or
 * ejection used twice in a cycle.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "lib/flatfly.h"
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
 * 3-flat, one over it on the 2-ary 4-flat.
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

	for (k = 0, n = 0; bfly_test_next_flat(&k, &n, 1024);) {
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

static struct kunit_case bfly_flatfly_exchange_cases[] = {
	KUNIT_CASE(bfly_flatfly_bound),
	KUNIT_CASE(bfly_flatfly_systolic_square),
	KUNIT_CASE(bfly_flatfly_systolic_pipeline),
	{}
};

static struct kunit_suite bfly_flatfly_exchange_suite = {
	.name = "bfly_flatfly_exchange",
	.test_cases = bfly_flatfly_exchange_cases,
};

kunit_test_suite(bfly_flatfly_exchange_suite);
