/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lists of messages with payload (message sets, h-relations): each
 * message's payload checked against the caller's buffers, the messages
 * sorted by the step (cycle or round) that carries them, and the payload
 * moved step by step.
 */
#ifndef _BFLY_MSGLIST_H
#define _BFLY_MSGLIST_H

#include "lib/compat.h"
#include <uapi/linux/bfly.h>

#ifdef __KERNEL__
struct bfly_fabric;
#else
/* Natively (tests/bench) a fabric is only whether it was deleted */
struct bfly_fabric {
	bool dead;
};
#endif

/* The step of a message that no step carries */
#define BFLY_MSGLIST_NONE U32_MAX

/**
 * struct bfly_msglist_bufs - where a list's payload is read and written
 * @send: NULL, or the send buffer (user memory)
 * @send_bytes: bytes at @send
 * @recv: NULL, or the receive buffer (user memory)
 * @recv_bytes: bytes at @recv
 * @killable: stop for fatal signals only (a netlink request); otherwise
 *	any signal stops the payload
 */
struct bfly_msglist_bufs {
	u8 __user *send;
	u64 send_bytes;
	u8 __user *recv;
	u64 recv_bytes;
	bool killable;
};

const char *bfly_msglist_bufs_check(const struct bfly_msglist_bufs *b);
const char *bfly_msglist_payload_check(const struct bfly_msglist_bufs *b,
				       const struct bfly_msgset_msg *m);
/* Counters of one radix pass of a block's sort */
#define BFLY_MSGLIST_RADIX BIT(11)
/* Entries of bfly_msglist_move()'s scratch for @n messages */
#define BFLY_MSGLIST_SCRATCH(n) (2 * (size_t)(n) + BFLY_MSGLIST_RADIX)

void bfly_msglist_sort(u32 count, const u32 *step, u32 steps, u32 *first, u32 *order);
u32 bfly_msglist_block_order(const struct bfly_msgset_msg *msgs, const u32 *from, u32 n,
			     u64 send_bytes, u64 recv_bytes, u32 min_len, u32 *scratch);
int bfly_msglist_move(struct bfly_fabric *fab, const struct bfly_msglist_bufs *b,
		      const struct bfly_msgset_msg *msgs, const u32 *order, const u32 *first,
		      u32 steps, u32 *scratch, u64 *moved);

/**
 * struct bfly_msglist_slots - a list whose payload lies in a batch's layout
 * @ports: N
 * @size: every message's bytes, not zero
 * @src: each message's source, or NULL (bfly_msglist_move_slots() without
 *	a list)
 * @dst: each message's destination, or NULL
 * @stream: copy with streaming stores (bfly_msg_stream() of the payload),
 *	decided once: the scratch's size and the blocks depend on it
 *
 * Message i -> d reads send slot i * N + d and writes receive slot
 * d * N + i, slots of @size bytes, as an all-to-all batch's (msgblock.h).
 */
struct bfly_msglist_slots {
	u32 ports;
	u64 size;
	const u32 *src;
	const u32 *dst;
	bool stream;
};

/**
 * bfly_msglist_in_slots() - does a message lie in a batch's layout?
 * @x: the message
 * @ports: N
 * @size: the slots' bytes
 *
 * The same arithmetic as msgblock.c's, so a slot it finds is the bytes
 * bfly_msglist_payload_check() checked.
 *
 * Return: whether @x carries @size bytes from send slot src * N + dst to
 * receive slot dst * N + src.
 */
static inline bool bfly_msglist_in_slots(const struct bfly_msgset_msg *x, u32 ports, u64 size)
{
	u64 n = ports;

	return x->len == size && x->send_off == (x->src * n + x->dst) * size &&
	       x->recv_off == (x->dst * n + x->src) * size;
}

void bfly_msglist_rotation(u32 *row, u32 ports, u32 t);
size_t bfly_msglist_slots_scratch(const struct bfly_msglist_slots *sl, u32 count);
int bfly_msglist_move_slots(struct bfly_fabric *fab, const struct bfly_msglist_bufs *b,
			    const struct bfly_msglist_slots *sl, const struct bfly_msgset_msg *msgs,
			    const u32 *order, const u32 *first, u32 steps, u32 *scratch,
			    u64 *moved);

#endif /* _BFLY_MSGLIST_H */
