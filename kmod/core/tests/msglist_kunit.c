// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a block's order and receive check (core/msglist.c,
 * bfly_msglist_block_order()). Its sorts and checks key on units of the
 * shortest message: messages meeting at a unit boundary, straddling
 * units, of mixed lengths, sharing send bytes, and lists in buffers too
 * large for the tables, each against a model that compares every pair's
 * receive bytes. And the exchange's destination rows
 * (bfly_msglist_rotation()).
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "core/msglist.h"

/* A block of up to 64 messages and the scratch to order it */
struct bfly_ml_block {
	struct bfly_msgset_msg msgs[64];
	u32 from[64];
	u32 n;
	u64 send_bytes;
	u64 recv_bytes;
	u32 *scratch;
};

static struct bfly_ml_block *bfly_ml_new(struct kunit *test, u64 send_bytes, u64 recv_bytes)
{
	struct bfly_ml_block *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->scratch = kunit_kcalloc(test, BFLY_MSGLIST_SCRATCH(64), sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b->scratch);
	b->send_bytes = send_bytes;
	b->recv_bytes = recv_bytes;
	return b;
}

/* Append a message; the list's order is @from's, last added first */
static void bfly_ml_add(struct bfly_ml_block *b, u64 send_off, u64 recv_off, u32 len)
{
	u32 m = b->n++, k;

	b->msgs[m] = (struct bfly_msgset_msg) {
		.len = len, .send_off = send_off, .recv_off = recv_off,
	};
	for (k = m; k > 0; k--)
		b->from[k] = b->from[k - 1];
	b->from[0] = m;
}

/* The model: do two messages with payload share receive bytes? */
static bool bfly_ml_overlap(const struct bfly_ml_block *b)
{
	const struct bfly_msgset_msg *x, *y;
	u32 i, j;

	for (i = 0; i < b->n; i++)
		for (j = i + 1; j < b->n; j++) {
			x = &b->msgs[i];
			y = &b->msgs[j];
			if (x->len && y->len && x->recv_off < y->recv_off + y->len &&
			    y->recv_off < x->recv_off + x->len)
				return true;
		}
	return false;
}

/*
 * Order the block and check it against the model: U32_MAX exactly when
 * two messages share receive bytes; else every message with payload
 * once, in the order of the units of their send offsets (the largest
 * power of two, 8 at least, no longer than the shortest message).
 */
static void bfly_ml_check(struct kunit *test, struct bfly_ml_block *b)
{
	u32 with, m, k, min_len = U32_MAX, payload = 0, seen[2] = { 0, 0 };
	unsigned int unit;

	for (m = 0; m < b->n; m++)
		if (b->msgs[m].len) {
			payload++;
			min_len = min(min_len, b->msgs[m].len);
		}
	unit = min_len >= 16 ? ilog2(min_len) : 3;
	with = bfly_msglist_block_order(b->msgs, b->from, b->n, b->send_bytes, b->recv_bytes,
					min_len, b->scratch);
	if (bfly_ml_overlap(b)) {
		KUNIT_EXPECT_EQ(test, U32_MAX, with);
		return;
	}
	KUNIT_ASSERT_EQ(test, payload, with);
	for (k = 0; k < with; k++) {
		m = b->scratch[k];
		KUNIT_ASSERT_LT(test, m, b->n);
		KUNIT_EXPECT_NE(test, 0U, b->msgs[m].len);
		KUNIT_EXPECT_FALSE(test, seen[m / 32] & BIT(m % 32));
		seen[m / 32] |= BIT(m % 32);
		if (k)
			KUNIT_EXPECT_LE(test, b->msgs[b->scratch[k - 1]].send_off >> unit,
					b->msgs[m].send_off >> unit);
	}
}

/* Two 72-byte messages (64-byte units): apart, meeting in a unit, sharing 8 bytes */
static void bfly_msglist_unit_boundary(struct kunit *test)
{
	struct bfly_ml_block *b = bfly_ml_new(test, 4096, 4096);

	bfly_ml_add(b, 512, 0, 72);
	bfly_ml_add(b, 0, 128, 72);
	bfly_ml_check(test, b);
	KUNIT_EXPECT_EQ(test, 1U, b->scratch[0]);
	/* the second starts where the first ends, in its last unit */
	b->msgs[1].recv_off = 72;
	bfly_ml_check(test, b);
	/* ... and 8 bytes earlier */
	b->msgs[1].recv_off = 64;
	bfly_ml_check(test, b);
	KUNIT_EXPECT_EQ(test, U32_MAX,
			bfly_msglist_block_order(b->msgs, b->from, b->n, 4096, 4096, 72,
						 b->scratch));
	/* on the boundary itself, the first one shorter: apart again */
	b->msgs[0].len = 64;
	bfly_ml_check(test, b);
	KUNIT_EXPECT_EQ(test, 2U,
			bfly_msglist_block_order(b->msgs, b->from, b->n, 4096, 4096, 64,
						 b->scratch));
}

/* A message across units, with neighbours touching it or reaching into it */
static void bfly_msglist_straddle(struct kunit *test)
{
	struct bfly_ml_block *b = bfly_ml_new(test, 4096, 4096);

	bfly_ml_add(b, 0, 32, 64);	/* units 0 and 1 */
	bfly_ml_add(b, 64, 96, 64);	/* units 1 and 2 */
	bfly_ml_add(b, 128, 0, 32);	/* unit 0, before the first: 32-byte units */
	bfly_ml_check(test, b);
	KUNIT_EXPECT_EQ(test, 3U,
			bfly_msglist_block_order(b->msgs, b->from, b->n, 4096, 4096, 32,
						 b->scratch));
	b->msgs[1].recv_off = 88;	/* 8 bytes into the first */
	bfly_ml_check(test, b);
	b->msgs[1].recv_off = 160;
	b->msgs[2].recv_off = 8;	/* its end 8 bytes into the first */
	bfly_ml_check(test, b);
	b->msgs[2].len = 24;		/* now ending where the first starts */
	bfly_ml_check(test, b);
}

/* Mixed lengths, one of them empty, and two messages sharing send bytes */
static void bfly_msglist_mixed(struct kunit *test)
{
	struct bfly_ml_block *b = bfly_ml_new(test, 4096, 4096);

	bfly_ml_add(b, 0, 2000, 24);
	bfly_ml_add(b, 24, 0, 40);
	bfly_ml_add(b, 64, 40, 100);
	bfly_ml_add(b, 8, 3000, 0);
	bfly_ml_add(b, 200, 144, 1000);
	bfly_ml_add(b, 0, 2100, 24);	/* the first one's send bytes */
	bfly_ml_check(test, b);
	b->msgs[2].recv_off = 48;	/* into the second */
	bfly_ml_check(test, b);
	b->msgs[2].recv_off = 40;
	b->msgs[4].recv_off = 136;	/* into the third's last 4 bytes */
	bfly_ml_check(test, b);
	b->msgs[4].recv_off = 1990;	/* over the first and the last */
	bfly_ml_check(test, b);
	b->msgs[3].recv_off = 2000;	/* an empty message over another: no bytes */
	b->msgs[4].recv_off = 144;
	bfly_ml_check(test, b);
}

/* Buffers of many units more than the scratch holds: the radix sorts */
static void bfly_msglist_large_buffers(struct kunit *test)
{
	struct bfly_ml_block *b = bfly_ml_new(test, 1ULL << 40, 1ULL << 44);

	bfly_ml_add(b, 1ULL << 39, 1ULL << 43, 4096);
	bfly_ml_add(b, 0, (1ULL << 43) + 4096, 4096);
	bfly_ml_add(b, 4096, 0, 8192);
	bfly_ml_check(test, b);
	b->msgs[1].recv_off = (1ULL << 43) + 4088;
	bfly_ml_check(test, b);
}

/* Random blocks of 8-byte aligned messages against the model */
static void bfly_msglist_random(struct kunit *test)
{
	struct bfly_ml_block *b = bfly_ml_new(test, 2048, 2048);
	u64 x = 0x9e3779b97f4a7c15ULL;
	u32 round, m, n, len, room, overlaps = 0;

	for (round = 0; round < 2000; round++) {
		b->n = 0;
		n = 1 + round % 12;
		for (m = 0; m < n; m++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			len = round % 3 ? 8 * (1 + x % 16) : 1 + x % 200;
			if (x % 29 == 0)
				len = 0;
			room = round % 4 ? 230 : 64;
			bfly_ml_add(b, 8 * ((x >> 20) % 200), 8 * ((x >> 40) % room), len);
		}
		overlaps += bfly_ml_overlap(b);
		bfly_ml_check(test, b);
	}
	/* both answers came up often */
	KUNIT_EXPECT_GT(test, overlaps, 200U);
	KUNIT_EXPECT_LT(test, overlaps, 1800U);
}

/*
 * The exchange's destination rows (bfly_msglist_rotation()) against
 * i - t mod N at every step of N = 1 to 512, odd and even steps, the
 * entries past the row untouched.
 */
static void bfly_msglist_rotation_rows(struct kunit *test)
{
	u32 *row = kunit_kcalloc(test, 512 + 3, sizeof(u32), GFP_KERNEL);
	u32 n, t, i, bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, row);
	for (n = 1; n <= 512; n *= 2) {
		for (t = 0; t < n; t++) {
			memset(row, 0xa5, (n + 3) * sizeof(u32));
			bfly_msglist_rotation(row + 1, n, t);
			for (i = 0; i < n; i++)
				bad += row[1 + i] != ((i - t) & (n - 1));
			bad += row[0] != 0xa5a5a5a5 || row[n + 1] != 0xa5a5a5a5 ||
			       row[n + 2] != 0xa5a5a5a5;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static struct kunit_case bfly_msglist_cases[] = {
	KUNIT_CASE(bfly_msglist_unit_boundary),
	KUNIT_CASE(bfly_msglist_straddle),
	KUNIT_CASE(bfly_msglist_mixed),
	KUNIT_CASE(bfly_msglist_large_buffers),
	KUNIT_CASE(bfly_msglist_random),
	KUNIT_CASE(bfly_msglist_rotation_rows),
	{}
};

static struct kunit_suite bfly_msglist_suite = {
	.name = "bfly_msglist",
	.test_cases = bfly_msglist_cases,
};

kunit_test_suite(bfly_msglist_suite);
