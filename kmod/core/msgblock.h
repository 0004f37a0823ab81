/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload of a block of all-to-all rounds, moved together in source
 * order once every round of the block is scheduled.
 */
#ifndef _BFLY_MSGBLOCK_H
#define _BFLY_MSGBLOCK_H

#include "lib/compat.h"

/* The destination of a source whose message a round does not move */
#define BFLY_MSG_NONE U32_MAX

/*
 * Bytes of payload a block of rounds holds at most: with cached stores
 * about one core's L2, so the receive lines a block writes stay cached
 * until every message of theirs is written; with streaming stores nothing
 * is cached and longer source runs only help, so the whole exchange up to
 * this many bytes.
 */
#define BFLY_MSG_BLOCK_CACHED (2ULL << 20)
#define BFLY_MSG_BLOCK_STREAM (256ULL << 20)
/* Entries of a block's destination table, at most (4 MiB of u32) */
#define BFLY_MSG_BLOCK_ENTRIES BIT(20)

/*
 * Streaming messages of at most this many bytes (BFLY_MSG_PREFETCH_MAX)
 * go strip by strip (bfly_msg_block_move()), in blocks of a destination
 * table of at most %BFLY_MSG_STRIP_ENTRIES (512 KiB, which stays in one
 * core's L2 while the strips read it a cache line per round: 8 MiB of
 * 64-byte messages). A strip fences its stores and gives the CPU away at
 * least every %BFLY_MSG_STRIP_STOP bytes.
 */
#define BFLY_MSG_STRIP_MAX 4096
#define BFLY_MSG_STRIP_ENTRIES BIT(17)
#define BFLY_MSG_STRIP_STOP BIT_ULL(20)

/**
 * struct bfly_msg_block - a block of all-to-all rounds to move
 * @send: the send buffer: the message from i to d at (i * @ports + d) * @size
 * @recv: the receive buffer: that message goes to (d * @ports + i) * @size
 * @size: bytes per message, a multiple of 8
 * @ports: N, the sources and destinations
 * @rounds: rounds in the block
 * @dest: @rounds * @ports entries: @dest[r * @ports + i] is where source i
 *	sends in the block's round r, or %BFLY_MSG_NONE
 * @shift: NULL, or @rounds entries, bfly_msg_rotation() of each round's
 *	@dest: when none is %BFLY_MSG_NONE, source i sends to
 *	(i + @shift[r]) mod N in round r, as @dest says, and the walk reads
 *	no @dest (bfly_msg_block_move() sets @shift to NULL otherwise)
 * @stream: copy with streaming stores (bfly_msg_stream())
 * @done: NULL, or the N * N receive-slot bitmap: bit d * N + i is set
 *	when the message from i to d has arrived
 * @moved: payload bytes moved, added to as messages arrive
 */
struct bfly_msg_block {
	const u8 __user *send;
	u8 __user *recv;
	u64 size;
	u32 ports;
	u32 rounds;
	const u32 *dest;
	const u32 *shift;
	bool stream;
	unsigned long *done;
	u64 moved;
};

u32 bfly_msg_block_rounds(u32 ports, u64 size, bool stream);
u32 bfly_msg_rotation(const u32 *dest, u32 ports);
int bfly_msg_block_move(struct bfly_msg_block *blk);

#endif /* _BFLY_MSGBLOCK_H */
