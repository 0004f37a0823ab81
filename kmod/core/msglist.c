// SPDX-License-Identifier: GPL-2.0
/*
 * Lists of messages with payload, shared by the message-set and the
 * h-relation services: the payload checks, the messages sorted by the
 * step that carries them, and the payload moved step by step. Built
 * natively too, for tests/bench/bench-hrel-payload.
 */
#include "msgcopy.h"
#include "msglist.h"

#ifdef __KERNEL__
#include "core.h"
#endif

static bool bfly_msglist_stop(const struct bfly_msglist_bufs *b)
{
	return bfly_signal_pending(b->killable);
}

/**
 * bfly_msglist_bufs_check() - are the buffers aligned?
 * @b: the buffers
 *
 * Return: NULL, or the reason they are refused.
 */
const char *bfly_msglist_bufs_check(const struct bfly_msglist_bufs *b)
{
	if (((unsigned long)b->send | (unsigned long)b->recv) % 8)
		return "the send and receive buffers are 8-byte aligned";
	return NULL;
}

/**
 * bfly_msglist_payload_check() - does a message's payload fit both buffers?
 * @b: the buffers
 * @m: the message
 *
 * Return: NULL, or the reason it is refused.
 */
const char *bfly_msglist_payload_check(const struct bfly_msglist_bufs *b,
				       const struct bfly_msgset_msg *m)
{
	if (!m->len)
		return NULL;
	if (!b->send || !b->recv)
		return "a message with payload needs the send and the receive buffer";
	if ((m->send_off | m->recv_off) % 8)
		return "a payload offset that is no multiple of 8";
	if (m->send_off > b->send_bytes || b->send_bytes - m->send_off < m->len)
		return "a payload past the end of the send buffer";
	if (m->recv_off > b->recv_bytes || b->recv_bytes - m->recv_off < m->len)
		return "a payload past the end of the receive buffer";
	return NULL;
}

/**
 * bfly_msglist_sort() - the messages by step, a counting sort
 * @count: messages
 * @step: each message's step, below @steps, or %BFLY_MSGLIST_NONE
 * @steps: steps
 * @first: receives @steps + 1 entries: step s holds @order[@first[s]] ..
 *	@order[@first[s + 1] - 1]
 * @order: receives the messages carried, by step, in list order within one
 */
void bfly_msglist_sort(u32 count, const u32 *step, u32 steps, u32 *first, u32 *order)
{
	u32 m, s;

	memset(first, 0, ((size_t)steps + 1) * sizeof(*first));
	for (m = 0; m < count; m++)
		if (step[m] != BFLY_MSGLIST_NONE)
			first[step[m] + 1]++;
	for (s = 0; s < steps; s++)
		first[s + 1] += first[s];
	for (m = 0; m < count; m++)
		if (step[m] != BFLY_MSGLIST_NONE)
			order[first[step[m]]++] = m;
	/* Each first[s] now holds where step s ends: shift them back. */
	for (s = steps; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;
}

/* Where message @x is read and written */
static struct bfly_msg bfly_msglist_msg(const struct bfly_msglist_bufs *b,
					const struct bfly_msgset_msg *x)
{
	return (struct bfly_msg) {
		.src = b->send + x->send_off,
		.dst = b->recv + x->recv_off,
	};
}

/*
 * The messages @order[@from] .. @order[@to - 1] of one step, each copy
 * prefetching a message further on in the step. Stops with -EINTR for a
 * signal between messages.
 */
static int bfly_msglist_move_step(const struct bfly_msglist_bufs *b,
				  const struct bfly_msgset_msg *msgs, const u32 *order,
				  u32 from, u32 to, bool stream, u64 *moved)
{
	struct bfly_msg msg, ahead;
	u32 m, next;
	int err;

	for (m = from; m < to; m++) {
		const struct bfly_msgset_msg *x = &msgs[order[m]];
		const struct bfly_msg *pf = NULL;

		if (!x->len)
			continue;
		next = m + bfly_msg_prefetch_distance(x->len);
		if (next < to && msgs[order[next]].len) {
			ahead = bfly_msglist_msg(b, &msgs[order[next]]);
			pf = &ahead;
		}
		msg = bfly_msglist_msg(b, x);
		err = bfly_msg_copy_chunked(&msg, x->len, pf, stream);
		if (err)
			return err;
		*moved += x->len;
		if (bfly_msglist_stop(b))
			return -EINTR;
	}
	return 0;
}

/**
 * bfly_msglist_move() - move the payload step by step
 * @fab: the fabric, referenced by the caller
 * @b: the buffers
 * @msgs: the messages
 * @order: the messages by step (bfly_msglist_sort())
 * @first: where each step starts in @order
 * @steps: steps
 * @moved: receives the payload bytes moved
 *
 * Where two messages land on the same bytes, the later one's remain. A
 * signal (only a fatal one with @b->killable) is noticed between steps and
 * between messages, as a message may be as long as 4 GiB. Each copy
 * prefetches a message of its step further on (bfly_msg_prefetch_distance()
 * of its own length). Above bfly_msg_stream()'s size the copies use
 * streaming stores, fenced at the end of each step.
 *
 * Return: 0; -EINTR; -ENODEV when the fabric was deleted; -EFAULT.
 */
int bfly_msglist_move(struct bfly_fabric *fab, const struct bfly_msglist_bufs *b,
		      const struct bfly_msgset_msg *msgs, const u32 *order, const u32 *first,
		      u32 steps, u64 *moved)
{
	u64 total = 0;
	u32 s, m;
	bool stream;
	int err;

	*moved = 0;
	for (m = 0; m < first[steps]; m++)
		total += msgs[order[m]].len;
	stream = bfly_msg_stream(total);
	for (s = 0; s < steps; s++) {
		if (bfly_msglist_stop(b))
			return -EINTR;
		if (READ_ONCE(fab->dead))
			return -ENODEV;
		err = bfly_msglist_move_step(b, msgs, order, first[s], first[s + 1], stream,
					     moved);
		bfly_msg_stream_fence(stream);
		if (err)
			return err;
		cond_resched();
	}
	return 0;
}
