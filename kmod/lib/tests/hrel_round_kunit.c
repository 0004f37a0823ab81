// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the all-to-all exchange as an h-relation (hrel_round.c). The
 * exchange listed in order, source by source, by RLS round without a
 * count (bfly_hrel_exchange_listed_order()) is the list's rounds
 * (bfly_hrel_exchange_rounds()) counted into rounds, in list order within
 * one; the list is the exchange, and with one pair twice it is not.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "lib/hrel_round.h"
#include "kunit_util.h"

static void bfly_hrel_listed_exchange(struct kunit *test)
{
	u32 log2, top = BFLY_TEST_LARGE ? 10 : 7;

	for (log2 = 0; log2 <= top; log2++) {
		u32 ports = BIT(log2), count = ports * ports, m, k;
		u32 *src = bfly_test_alloc(test, count * sizeof(u32));
		u32 *dst = bfly_test_alloc(test, count * sizeof(u32));
		u32 *round = bfly_test_alloc(test, count * sizeof(u32));
		u32 *order = bfly_test_alloc(test, count * sizeof(u32));
		u32 *first = bfly_test_alloc(test, (ports + 1) * sizeof(u32));
		u32 *at = bfly_test_alloc(test, (ports + 1) * sizeof(u32));
		void *work = bfly_test_alloc(test, bfly_hrel_exchange_workspace_size(ports));
		u32 bad = 0;

		for (m = 0; m < count; m++) {
			src[m] = m / ports;
			dst[m] = m % ports;
		}
		KUNIT_EXPECT_TRUE(test, bfly_hrel_is_exchange(ports, count, src, dst, work));
		bfly_hrel_exchange_rounds(ports, count, src, dst, round);
		bfly_hrel_exchange_listed_order(ports, first, order);
		/* the counting sort by round, list order within one, done here */
		for (m = 0; m < count; m++)
			at[round[m] + 1]++;
		for (k = 0; k < ports; k++)
			at[k + 1] += at[k];
		for (k = 0; k <= ports; k++)
			bad += first[k] != at[k];
		for (m = 0; m < count; m++)
			bad += order[at[round[m]]++] != m;
		KUNIT_EXPECT_EQ_MSG(test, 0U, bad, "N = %u", ports);
		if (ports > 1) {
			dst[count - 1] = 0;
			KUNIT_EXPECT_FALSE(test, bfly_hrel_is_exchange(ports, count, src, dst,
								       work));
		}
	}
}

static struct kunit_case bfly_hrel_round_cases[] = {
	KUNIT_CASE(bfly_hrel_listed_exchange),
	{}
};

static struct kunit_suite bfly_hrel_round_suite = {
	.name = "bfly_hrel_round",
	.test_cases = bfly_hrel_round_cases,
};

kunit_test_suite(bfly_hrel_round_suite);
