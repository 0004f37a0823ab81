/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Moving one all-to-all message from the caller's send buffer to its
 * receive buffer, user memory to user memory.
 */
#ifndef _BFLY_MSGCOPY_H
#define _BFLY_MSGCOPY_H

#include "lib/compat.h"

/* Bytes of the message ahead that bfly_msg_copy() prefetches, at most */
#define BFLY_MSG_PREFETCH_MAX 4096

/**
 * struct bfly_msg - where one message is read and written
 * @src: its send slot, 8-byte aligned
 * @dst: its receive slot, 8-byte aligned
 */
struct bfly_msg {
	const u8 __user *src;
	u8 __user *dst;
};

/* Bytes of messages a copy prefetches ahead of itself, in whole messages */
#define BFLY_MSG_PREFETCH_AHEAD 512

/**
 * bfly_msg_prefetch_distance() - how many messages ahead to prefetch
 * @len: the length of the messages
 *
 * Small messages are each one or two cache misses: the copy of one hides
 * only the misses of messages %BFLY_MSG_PREFETCH_AHEAD bytes further on,
 * up to eight. Long ones prefetch the message after next.
 *
 * Return: the distance, 2 to 8 messages.
 */
static inline u32 bfly_msg_prefetch_distance(u64 len)
{
	if (!len || len >= BFLY_MSG_PREFETCH_AHEAD / 2)
		return 2;
	return min_t(u64, 8, BFLY_MSG_PREFETCH_AHEAD / len);
}

/* Messages longer than this are copied in pieces of this many bytes */
#define BFLY_MSG_CHUNK (64 * 1024)

/*
 * Exchanges of more payload bytes than this are copied with streaming
 * (non-temporal) stores where the CPU has them: twice the largest
 * last-level cache share a core of today's servers sees, so the receive
 * buffer would leave the cache before it is read anyway. 64 MiB of 64-byte
 * messages (tests/bench/bench-a2a) went at 0.9x of a blocked transpose with
 * cached stores, 1.5x streaming.
 */
#define BFLY_MSG_STREAM_MIN (32ULL << 20)

/*
 * Streaming copies of whole lines go in groups of up to this many
 * messages of one length, interleaved (bfly_msg_copy_group_stream()).
 */
#define BFLY_MSG_GROUP 4

/**
 * struct bfly_msg_run - messages of one length copied in one go
 * @msgs: @listed messages: the first @count are copied, the rest only
 *	prefetched
 * @count: messages to copy
 * @listed: messages in @msgs, @count or more
 * @distance: each copy prefetches the message this many further in @msgs
 * @len: bytes of each message, at most %BFLY_MSG_PREFETCH_MAX
 * @stream: copy with streaming stores, as bfly_msg_copy_stream()
 * @bounds: the send and receive buffers every message of @msgs lies in
 * @bytes: the size of each of the two buffers
 * @copied: set to the messages that arrived, in order
 */
struct bfly_msg_run {
	const struct bfly_msg *msgs;
	u32 count;
	u32 listed;
	u32 distance;
	u64 len;
	bool stream;
	struct bfly_msg bounds;
	u64 bytes;
	u32 copied;
};

int bfly_msg_copy(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead);
int bfly_msg_copy_stream(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead);
bool bfly_msg_stream(u64 bytes);
void bfly_msg_stream_fence(bool stream);
int bfly_msg_copy_chunked(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead,
			  bool stream);
int bfly_msg_copy_run(struct bfly_msg_run *run);
int bfly_msg_copy_group_stream(const struct bfly_msg *msgs, u32 n, u64 len, u32 *copied);

#endif /* _BFLY_MSGCOPY_H */
