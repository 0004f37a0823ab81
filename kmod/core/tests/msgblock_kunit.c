// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a block of rotations moves the same with and without its
 * destination table (core/msgblock.c, bfly_msg_block_move() with and
 * without @shift), and bfly_msg_rotation() tells rotations from the rest.
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/msgblock.h"

/*
 * Rotations of N = 1 to 1000, every shift, found; the same rows with one
 * entry changed (another destination, %BFLY_MSG_NONE, one past N), not.
 */
static void bfly_msgblock_rotation(struct kunit *test)
{
	static const u32 sizes[] = { 1, 2, 3, 5, 8, 64, 1000 };
	u32 *row = kunit_kcalloc(test, 1000, sizeof(u32), GFP_KERNEL);
	u32 n, s, i, k, at, bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, row);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		n = sizes[k];
		for (s = 0; s < n; s++) {
			for (i = 0; i < n; i++)
				row[i] = (i + s) % n;
			bad += bfly_msg_rotation(row, n) != s;
			at = (s * 7 + 3) % n;
			row[at] = n > 1 ? (row[at] + 1) % n : BFLY_MSG_NONE;
			bad += bfly_msg_rotation(row, n) != BFLY_MSG_NONE;
			row[at] = BFLY_MSG_NONE;
			bad += bfly_msg_rotation(row, n) != BFLY_MSG_NONE;
			row[at] = n;
			bad += bfly_msg_rotation(row, n) != BFLY_MSG_NONE;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

/* The buffers of one exchange: user memory for the payload, kernel copies */
struct bfly_mb_case {
	u32 ports;
	u64 size;
	u64 bytes;
	u8 __user *send;
	u8 __user *recv;
	u8 *got;
	u8 *want;
	unsigned long *done;
};

/* Byte @b of the message from @i to @d */
static u8 bfly_mb_byte(u32 i, u32 d, u64 b)
{
	return (u8)(i * 131 + d * 7 + b * 3 + 1);
}

/*
 * Move the block of @rounds rounds, source i sending to (i + @shift[r])
 * mod N in round r, with @use_shift or by its table alone; the receive
 * buffer and done bitmap as they are after it. Return: the bytes moved.
 */
static u64 bfly_mb_move(struct kunit *test, struct bfly_mb_case *c, const u32 *table,
			const u32 *shift, u32 rounds, bool stream, bool use_shift)
{
	struct bfly_msg_block blk = {
		.send = c->send, .recv = c->recv, .size = c->size, .ports = c->ports,
		.rounds = rounds, .dest = table, .shift = use_shift ? shift : NULL,
		.stream = stream, .done = c->done,
	};

	KUNIT_ASSERT_EQ(test, clear_user(c->recv, c->bytes), 0UL);
	bitmap_zero(c->done, (u64)c->ports * c->ports);
	KUNIT_EXPECT_EQ(test, bfly_msg_block_move(&blk), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(c->got, c->recv, c->bytes), 0UL);
	return blk.moved;
}

/*
 * One shape: blocks of RLS rounds (d = i - k, walked backwards), of LLS
 * rounds (d = i + k) and of rotations in a scrambled order, each moved by
 * its table and by its shifts: the same receive bytes, done bits and
 * bytes moved, and every slot the model's (the block's messages, zeros
 * elsewhere).
 */
static void bfly_mb_shape(struct kunit *test, u32 ports, u64 size, bool stream)
{
	struct bfly_mb_case c = { .ports = ports, .size = size };
	u32 rounds = min_t(u32, ports, 5), order, r, i, d, *table, *shift;
	u64 b, off, moved_table, moved_shift;
	unsigned long *done_table;
	u8 *msg;

	c.bytes = (u64)ports * ports * size;
	c.send = (u8 __user *)kunit_vm_mmap(test, NULL, 0, c.bytes, PROT_READ | PROT_WRITE,
					    MAP_ANONYMOUS | MAP_PRIVATE, 0);
	c.recv = (u8 __user *)kunit_vm_mmap(test, NULL, 0, c.bytes, PROT_READ | PROT_WRITE,
					    MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_TRUE(test, c.send && !IS_ERR_VALUE((unsigned long)c.send));
	KUNIT_ASSERT_TRUE(test, c.recv && !IS_ERR_VALUE((unsigned long)c.recv));
	c.got = kunit_kmalloc(test, c.bytes, GFP_KERNEL);
	c.want = kunit_kmalloc(test, c.bytes, GFP_KERNEL);
	msg = kunit_kmalloc(test, size, GFP_KERNEL);
	table = kunit_kcalloc(test, (size_t)rounds * ports, sizeof(u32), GFP_KERNEL);
	shift = kunit_kcalloc(test, rounds, sizeof(u32), GFP_KERNEL);
	c.done = kunit_kcalloc(test, BITS_TO_LONGS((u64)ports * ports), sizeof(long), GFP_KERNEL);
	done_table = kunit_kcalloc(test, BITS_TO_LONGS((u64)ports * ports), sizeof(long),
				   GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, c.got && c.want && msg && table && shift && c.done && done_table);

	for (i = 0; i < ports; i++)
		for (d = 0; d < ports; d++) {
			for (b = 0; b < size; b++)
				msg[b] = bfly_mb_byte(i, d, b);
			off = ((u64)i * ports + d) * size;
			KUNIT_ASSERT_EQ(test, copy_to_user(c.send + off, msg, size), 0UL);
		}

	for (order = 0; order < 3; order++) {
		for (r = 0; r < rounds; r++) {
			/* RLS from round 1: k = r + 1; LLS; every other rotation from 2 */
			if (order == 0)
				shift[r] = (ports - (r + 1) % ports) % ports;
			else if (order == 1)
				shift[r] = (r + 1) % ports;
			else
				shift[r] = (2 + r * (ports / 2 + 1)) % ports;
			for (i = 0; i < ports; i++)
				table[(size_t)r * ports + i] = (i + shift[r]) % ports;
			KUNIT_ASSERT_EQ(test, bfly_msg_rotation(table + (size_t)r * ports, ports),
					shift[r]);
		}
		/* the model: the block's messages in their slots, zeros elsewhere */
		memset(c.want, 0, c.bytes);
		for (r = 0; r < rounds; r++)
			for (i = 0; i < ports; i++) {
				d = table[(size_t)r * ports + i];
				off = ((u64)d * ports + i) * size;
				for (b = 0; b < size; b++)
					c.want[off + b] = bfly_mb_byte(i, d, b);
			}

		moved_table = bfly_mb_move(test, &c, table, shift, rounds, stream, false);
		KUNIT_EXPECT_EQ(test, memcmp(c.got, c.want, c.bytes), 0);
		bitmap_copy(done_table, c.done, (u64)ports * ports);
		moved_shift = bfly_mb_move(test, &c, table, shift, rounds, stream, true);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(c.got, c.want, c.bytes), 0,
				    "N=%u %llu B stream %d order %u", ports, size, stream, order);
		KUNIT_EXPECT_TRUE(test, bitmap_equal(done_table, c.done, (u64)ports * ports));
		KUNIT_EXPECT_EQ(test, bitmap_weight(c.done, (u64)ports * ports),
				(unsigned int)(rounds * ports));
		KUNIT_EXPECT_EQ(test, moved_table, moved_shift);
		KUNIT_EXPECT_EQ(test, moved_shift, (u64)rounds * ports * size);
	}
}

/*
 * Every walk of bfly_msg_block_move(): cached tiles (8, 64 and 520 bytes),
 * cached runs (4 KiB), cached rows (8 KiB), streaming strips (8 B to
 * 4 KiB), streaming groups (8 KiB); N = 1, 3 (one strip narrower than
 * 8), 27 (no power of 2, a last strip of 3), 64 and 8; buffers of at
 * most 256 KiB.
 */
static void bfly_msgblock_shift_moves(struct kunit *test)
{
	static const struct { u32 ports; u64 size; } shapes[] = {
		{ 1, 64 }, { 3, 8 }, { 27, 64 }, { 27, 520 }, { 64, 8 }, { 64, 64 },
		{ 8, 4096 }, { 8, 8192 },
	};
	u32 k, stream;

	for (k = 0; k < ARRAY_SIZE(shapes); k++)
		for (stream = 0; stream < 2; stream++)
			bfly_mb_shape(test, shapes[k].ports, shapes[k].size, stream);
}

static struct kunit_case bfly_msgblock_cases[] = {
	KUNIT_CASE(bfly_msgblock_rotation),
	KUNIT_CASE(bfly_msgblock_shift_moves),
	{}
};

static struct kunit_suite bfly_msgblock_suite = {
	.name = "bfly_msgblock",
	.test_cases = bfly_msgblock_cases,
};

kunit_test_suite(bfly_msgblock_suite);
