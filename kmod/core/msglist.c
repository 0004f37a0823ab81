// SPDX-License-Identifier: GPL-2.0
/*
 * Lists of messages with payload, shared by the message-set and the
 * h-relation services: the payload checks, the messages sorted by the
 * step that carries them, and the payload moved step by step, or (for
 * the h-relations) a block of consecutive steps at a time in the order of
 * the send offsets, or, for a list in an all-to-all batch's layout, by
 * the batch's own block copy (msgblock.c). Built natively too, for
 * tests/bench/bench-hrel-payload.
 */
#include "msgblock.h"
#include "msgcopy.h"
#include "msglist.h"

#ifdef __KERNEL__
#include "core.h"
#endif

static bool bfly_msglist_stop(const struct bfly_msglist_bufs *b)
{
	return bfly_signal_pending(b->killable);
}

/* Between blocks: -EINTR on a signal, -ENODEV once the fabric is deleted. */
static int bfly_msglist_between_blocks(struct bfly_fabric *fab,
				       const struct bfly_msglist_bufs *b)
{
	if (bfly_msglist_stop(b))
		return -EINTR;
	if (READ_ONCE(fab->dead))
		return -ENODEV;
	return 0;
}

/**
 * bfly_msglist_bufs_check() - are the buffers aligned and apart?
 * @b: the buffers
 *
 * The buffers of a batch, an h-relation and a message set do not
 * overlap: the block copies read and write the messages in any order.
 *
 * Return: NULL, or the reason they are refused.
 */
const char *bfly_msglist_bufs_check(const struct bfly_msglist_bufs *b)
{
	unsigned long s = (unsigned long)b->send, r = (unsigned long)b->recv;

	if ((s | r) % 8)
		return "the send and receive buffers are 8-byte aligned";
	if (s && r && (s >= r ? s - r < b->recv_bytes : r - s < b->send_bytes))
		return "the send and receive buffers overlap";
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
 * The @n messages @idx, in that order: one step (@block false), or a
 * block of steps sorted by send offset. Each copy prefetches a message
 * further on, except in a block with streaming stores (its reads ascend,
 * which the CPU's prefetchers follow). In a step, a signal stops the copy
 * between messages (bfly_msglist_stop()); in a block, every 64 messages
 * the CPU may go and a fatal signal stops it.
 */
static int bfly_msglist_copy(const struct bfly_msglist_bufs *b,
			     const struct bfly_msgset_msg *msgs, const u32 *idx, u32 n,
			     bool stream, bool block, u64 *moved)
{
	bool prefetch = !block || !stream;
	struct bfly_msg msg, ahead;
	u32 m, next;
	int err;

	for (m = 0; m < n; m++) {
		const struct bfly_msgset_msg *x = &msgs[idx[m]];
		const struct bfly_msg *pf = NULL;

		if (!x->len)
			continue;
		next = m + bfly_msg_prefetch_distance(x->len);
		if (prefetch && next < n && msgs[idx[next]].len) {
			ahead = bfly_msglist_msg(b, &msgs[idx[next]]);
			pf = &ahead;
		}
		msg = bfly_msglist_msg(b, x);
		err = bfly_msg_copy_chunked(&msg, x->len, pf, stream);
		if (err)
			return err;
		*moved += x->len;
		if (!block && bfly_msglist_stop(b))
			return -EINTR;
		if (block && m % 64 == 63) {
			bfly_msg_stream_fence(stream);
			if (bfly_should_stop())
				return -EINTR;
		}
	}
	return 0;
}

/* Messages ahead in a block whose entries bfly_msglist_copy_groups() prefetches */
#define BFLY_MSGLIST_ENTRIES_AHEAD 16

/*
 * The @n messages @idx of a block with streaming stores, in that order:
 * consecutive messages of one length in groups of up to %BFLY_MSG_GROUP,
 * each group interleaved by bfly_msg_copy_group_stream(). The entries of
 * the messages %BFLY_MSGLIST_ENTRIES_AHEAD further on are prefetched: the
 * payload read since they were sorted has pushed them out of the cache,
 * and they lie in list order, not in this one. Every 64 messages or so
 * the stores are fenced, the CPU may go and a fatal signal stops the
 * copy.
 */
static int bfly_msglist_copy_groups(const struct bfly_msglist_bufs *b,
				    const struct bfly_msgset_msg *msgs, const u32 *idx, u32 n,
				    u64 *moved)
{
	struct bfly_msg group[BFLY_MSG_GROUP];
	u32 m = 0, g, k, copied, since = 0;
	u64 len;
	int err;

	while (m < n) {
		for (k = m + BFLY_MSGLIST_ENTRIES_AHEAD;
		     k < n && k < m + BFLY_MSGLIST_ENTRIES_AHEAD + BFLY_MSG_GROUP; k++)
			prefetch(&msgs[idx[k]]);
		len = msgs[idx[m]].len;
		if (!len) {
			m++;
			continue;
		}
		for (g = 0; g < BFLY_MSG_GROUP && m + g < n && msgs[idx[m + g]].len == len; g++)
			group[g] = bfly_msglist_msg(b, &msgs[idx[m + g]]);
		err = bfly_msg_copy_group_stream(group, g, len, &copied);
		*moved += copied * len;
		if (err)
			return err;
		m += g;
		since += g;
		if (since >= 64) {
			since = 0;
			bfly_msg_stream_fence(true);
			if (bfly_should_stop())
				return -EINTR;
		}
	}
	return 0;
}

/* Bits of a key one radix pass sorts */
#define BFLY_MSGLIST_RADIX_BITS 11

/*
 * The unit of a block's sort keys: the largest power of two (8 at least)
 * no longer than its shortest message with payload, @min_len. Two such
 * messages that start in one unit share bytes, so sorting by unit orders
 * the receive offsets of a block whose messages share no receive bytes.
 */
static unsigned int bfly_msglist_unit(u32 min_len)
{
	return min_len >= 16 ? ilog2(min_len) : 3;
}

/* The key a block is sorted by: the unit of the send or receive offset */
static u64 bfly_msglist_key(const struct bfly_msgset_msg *x, bool recv, unsigned int unit)
{
	return (recv ? x->recv_off : x->send_off) >> unit;
}

/*
 * Sort the @n messages @idx by the @unit of their send (or, @recv,
 * receive) offsets below @bytes, stably: least significant digit first,
 * @tmp @n entries and @count %BFLY_MSGLIST_RADIX entries of scratch.
 */
static void bfly_msglist_radix(const struct bfly_msgset_msg *msgs, u32 *idx, u32 n, bool recv,
			       u64 bytes, unsigned int unit, u32 *tmp, u32 *count)
{
	u32 mask = BFLY_MSGLIST_RADIX - 1, m, d, sum, c, *from = idx, *to = tmp, *swap;
	u32 shift;

	for (shift = 0; shift < 64 && (bytes >> unit) >> shift; shift += BFLY_MSGLIST_RADIX_BITS) {
		memset(count, 0, BFLY_MSGLIST_RADIX * sizeof(*count));
		for (m = 0; m < n; m++)
			count[(bfly_msglist_key(&msgs[from[m]], recv, unit) >> shift) & mask]++;
		for (d = 0, sum = 0; d < BFLY_MSGLIST_RADIX; d++) {
			c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (m = 0; m < n; m++) {
			d = (bfly_msglist_key(&msgs[from[m]], recv, unit) >> shift) & mask;
			to[count[d]++] = from[m];
		}
		swap = from;
		from = to;
		to = swap;
	}
	if (from != idx)
		memcpy(idx, from, (size_t)n * sizeof(*idx));
}

/*
 * Do two of the @n messages @idx, sorted by the unit of their receive
 * offsets, share bytes? Where none do, the offsets ascend.
 */
static bool bfly_msglist_overlap(const struct bfly_msgset_msg *msgs, const u32 *idx, u32 n)
{
	u64 end = 0;
	u32 m;

	for (m = 0; m < n; m++) {
		const struct bfly_msgset_msg *x = &msgs[idx[m]];

		if (!x->len)
			continue;
		if (x->recv_off < end)
			return true;
		end = x->recv_off + x->len;
	}
	return false;
}

/*
 * Sort the @n messages @idx by the @unit of their receive offsets below
 * @bytes, @tmp @n + %BFLY_MSGLIST_RADIX entries of scratch, and see that
 * none share bytes. Where the units number no more than that scratch, it
 * holds the message starting in each (bfly_msglist_unit(): two messages
 * starting in one share bytes) and the messages with payload are read
 * back in the order of their units; else a radix sort. Return: the
 * messages with payload now in @idx, none sharing bytes, or U32_MAX.
 */
static u32 bfly_msglist_by_recv(const struct bfly_msgset_msg *msgs, u32 *idx, u32 n, u64 bytes,
				unsigned int unit, u32 *tmp)
{
	u64 units = (bytes >> unit) + 1, k;
	u32 m, j, *table = tmp;

	if (units > (u64)n + BFLY_MSGLIST_RADIX) {
		bfly_msglist_radix(msgs, idx, n, true, bytes, unit, tmp, tmp + n);
		return bfly_msglist_overlap(msgs, idx, n) ? U32_MAX : n;
	}
	memset(table, 0xff, units * sizeof(*table));
	for (m = 0; m < n; m++) {
		const struct bfly_msgset_msg *x = &msgs[idx[m]];

		if (!x->len)
			continue;
		k = bfly_msglist_key(x, true, unit);
		if (table[k] != U32_MAX)
			return U32_MAX;
		table[k] = idx[m];
	}
	for (k = 0, j = 0; k < units; k++)
		if (table[k] != U32_MAX)
			idx[j++] = table[k];
	return bfly_msglist_overlap(msgs, idx, j) ? U32_MAX : j;
}

/* The units of @bytes, rounded up: every message with payload starts in one */
static u64 bfly_msglist_units(u64 bytes, unsigned int unit)
{
	return (bytes >> unit) + !!(bytes & (BIT_ULL(unit) - 1));
}

/*
 * The quick way to a block's order, in one walk of the @n messages
 * @from: a table of the send units, each holding the message starting
 * in it, and a bitmap of the receive units, where each message marks
 * every unit it touches. Where no two messages start in one send unit
 * and no receive unit is marked twice, no two share receive bytes and
 * the table read back in order is the messages with payload by send
 * offset: they go to @scratch (BFLY_MSGLIST_SCRATCH(@n) entries, the
 * table and the bitmap if they fit in it) and their number is returned.
 * Else U32_MAX, and the sorts decide (messages that touch one unit
 * may still not share bytes). Every walk of the list is in @from's
 * order, which mostly follows the list's: no sorted walk reads the
 * entries in a random order.
 */
static u32 bfly_msglist_tables(const struct bfly_msgset_msg *msgs, const u32 *from, u32 n,
			       u64 send_bytes, u64 recv_bytes, unsigned int unit, u32 *scratch)
{
	u64 send_units = bfly_msglist_units(send_bytes, unit), k, last;
	u64 words = (bfly_msglist_units(recv_bytes, unit) + 31) / 32;
	u32 m, j, *table = scratch, *marked;

	if (send_units + words > BFLY_MSGLIST_SCRATCH(n))
		return U32_MAX;
	marked = scratch + send_units;
	memset(table, 0xff, send_units * sizeof(*table));
	memset(marked, 0, words * sizeof(*marked));
	for (m = 0; m < n; m++) {
		const struct bfly_msgset_msg *x = &msgs[from[m]];

		if (!x->len)
			continue;
		k = bfly_msglist_key(x, false, unit);
		if (table[k] != U32_MAX)
			return U32_MAX;
		table[k] = from[m];
		last = (x->recv_off + x->len - 1) >> unit;
		for (k = bfly_msglist_key(x, true, unit); k <= last; k++) {
			if (marked[k / 32] & BIT(k % 32))
				return U32_MAX;
			marked[k / 32] |= BIT(k % 32);
		}
	}
	for (k = 0, j = 0; k < send_units; k++)
		if (table[k] != U32_MAX)
			scratch[j++] = table[k];
	return j;
}

/**
 * bfly_msglist_block_order() - a block's messages in the order of their send offsets
 * @msgs: the messages, each with payload inside the buffers
 *	(bfly_msglist_payload_check())
 * @from: the block's @n messages, indices into @msgs
 * @n: messages in the block
 * @send_bytes: bytes of the send buffer
 * @recv_bytes: bytes of the receive buffer
 * @min_len: the shortest of the block's messages with payload
 * @scratch: BFLY_MSGLIST_SCRATCH(@n) entries, not @from
 *
 * Sorts and checks key on units of the send and receive offsets
 * (bfly_msglist_unit()): first by bfly_msglist_tables(), else by a table
 * or radix sort of the receive units, a walk of the messages in that
 * order, and a radix sort of the send units.
 *
 * Return: the block's messages with payload, now @scratch[0] .. in the
 * order of the units of their send offsets, none sharing receive bytes
 * with another; U32_MAX when two share receive bytes.
 */
u32 bfly_msglist_block_order(const struct bfly_msgset_msg *msgs, const u32 *from, u32 n,
			     u64 send_bytes, u64 recv_bytes, u32 min_len, u32 *scratch)
{
	u32 *idx = scratch, *tmp = scratch + n, *count = scratch + 2 * (size_t)n;
	unsigned int unit = bfly_msglist_unit(min_len);
	u32 with;

	with = bfly_msglist_tables(msgs, from, n, send_bytes, recv_bytes, unit, scratch);
	if (with != U32_MAX)
		return with;
	memcpy(idx, from, (size_t)n * sizeof(*idx));
	with = bfly_msglist_by_recv(msgs, idx, n, recv_bytes, unit, tmp);
	if (with != U32_MAX)
		bfly_msglist_radix(msgs, idx, with, false, send_bytes, unit, tmp, count);
	return with;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msglist_block_order);

/*
 * Move steps @s .. @e - 1 together, @min_len the shortest of their
 * messages with payload: in the order of their send offsets when none
 * share receive bytes (bfly_msglist_block_order()), else step by step,
 * so the later step's bytes remain.
 */
static int bfly_msglist_move_block(const struct bfly_msglist_bufs *b,
				   const struct bfly_msgset_msg *msgs, const u32 *order,
				   const u32 *first, u32 s, u32 e, u32 min_len, bool stream,
				   u32 *scratch, u64 *moved)
{
	u32 n = first[e] - first[s], *idx = scratch;
	int err = 0;
	u32 with;

	with = bfly_msglist_block_order(msgs, order + first[s], n, b->send_bytes, b->recv_bytes,
					min_len, scratch);
	if (with != U32_MAX) {
		n = with;
		if (stream)
			return bfly_msglist_copy_groups(b, msgs, idx, n, moved);
		return bfly_msglist_copy(b, msgs, idx, n, stream, true, moved);
	}
	for (; s < e && !err; s++) {
		err = bfly_msglist_copy(b, msgs, order + first[s], first[s + 1] - first[s],
					stream, false, moved);
		bfly_msg_stream_fence(stream);
	}
	return err;
}

/**
 * bfly_msglist_move() - move the payload step by step, or block by block
 * @fab: the fabric, referenced by the caller
 * @b: the buffers
 * @msgs: the messages
 * @order: the messages by step (bfly_msglist_sort())
 * @first: where each step starts in @order
 * @steps: steps
 * @scratch: NULL: step by step; else room for BFLY_MSGLIST_SCRATCH() of the
 *	messages carried: the steps go in blocks
 * @moved: receives the payload bytes moved
 *
 * Where two messages land on the same bytes, the later one's remain. Step
 * by step, a signal (only a fatal one with @b->killable) is noticed
 * between steps and between messages, as a message may be as long as
 * 4 GiB. With @scratch, consecutive steps of about %BFLY_MSG_BLOCK_CACHED
 * bytes of payload (%BFLY_MSG_BLOCK_STREAM with streaming stores) go
 * together, their messages in the order of their send offsets, when no two
 * of them share receive bytes; a signal is noticed between blocks, a fatal
 * one within them too. Each copy prefetches a message further on (with
 * cached stores only, in a block). Above bfly_msg_stream()'s size the
 * copies use streaming stores, fenced at the end of each step or block.
 *
 * Return: 0; -EINTR; -ENODEV when the fabric was deleted; -EFAULT.
 */
int bfly_msglist_move(struct bfly_fabric *fab, const struct bfly_msglist_bufs *b,
		      const struct bfly_msgset_msg *msgs, const u32 *order, const u32 *first,
		      u32 steps, u32 *scratch, u64 *moved)
{
	u64 total = 0, block, want;
	u32 s, e, m, len, min_len, all_min;
	bool stream;
	int err;

	*moved = 0;
	for (m = 0, all_min = U32_MAX; m < first[steps]; m++) {
		len = msgs[order[m]].len;
		total += len;
		if (len && len < all_min)
			all_min = len;
	}
	stream = bfly_msg_stream(total);
	want = stream ? BFLY_MSG_BLOCK_STREAM : BFLY_MSG_BLOCK_CACHED;
	for (s = 0; s < steps; s = e) {
		err = bfly_msglist_between_blocks(fab, b);
		if (err)
			return err;
		e = s + 1;
		if (!scratch) {
			err = bfly_msglist_copy(b, msgs, order + first[s], first[e] - first[s],
						stream, false, moved);
		} else if (!s && total <= want) {
			/* one block holds them all */
			e = steps;
			err = bfly_msglist_move_block(b, msgs, order, first, s, e, all_min,
						      stream, scratch, moved);
		} else {
			for (block = 0, min_len = U32_MAX, m = first[s]; ; e++) {
				for (; m < first[e]; m++) {
					len = msgs[order[m]].len;
					block += len;
					if (len && len < min_len)
						min_len = len;
				}
				if (e == steps || block >= want)
					break;
			}
			err = bfly_msglist_move_block(b, msgs, order, first, s, e, min_len,
						      stream, scratch, moved);
		}
		bfly_msg_stream_fence(stream);
		if (err)
			return err;
		cond_resched();
	}
	return 0;
}

/**
 * bfly_msglist_slots_scratch() - scratch entries of bfly_msglist_move_slots()
 * @sl: the layout
 * @count: the messages carried
 *
 * Return: u32 entries for a block's destination table, or for a block
 * sorted as bfly_msglist_move() sorts one, whichever is more; without
 * @sl->src (the exchange in the RLS schedule's rounds, no list) the table's.
 */
size_t bfly_msglist_slots_scratch(const struct bfly_msglist_slots *sl, u32 count)
{
	size_t table = (size_t)bfly_msg_block_rounds(sl->ports, sl->size, sl->stream) * sl->ports;

	if (!sl->src)
		return table;
	return max_t(size_t, table, BFLY_MSGLIST_SCRATCH(count));
}

/* The shortest of messages @order[@from] .. @order[@to - 1] with payload */
static u32 bfly_msglist_min_len(const struct bfly_msgset_msg *msgs, const u32 *order, u32 from,
				u32 to)
{
	u32 min_len = U32_MAX, len;

	for (; from < to; from++) {
		len = msgs[order[from]].len;
		if (len && len < min_len)
			min_len = len;
	}
	return min_len;
}

/*
 * @row[@i] .. @row[@end - 1] hold @v, @v + 1, ...: two entries a store,
 * each half of the 8-byte word counting up by 2 (values below 2^31, so
 * neither half carries into the other, on either byte order).
 */
static void bfly_msglist_count_up(u32 *row, u32 i, u32 end, u32 v)
{
	const u32 two[2] = { 2, 2 };
	u32 pair[2] = { v, v + 1 };
	u64 x, step;

	memcpy(&x, pair, sizeof(x));
	memcpy(&step, two, sizeof(step));
	for (; i + 2 <= end; i += 2, v += 2, x += step)
		memcpy(row + i, &x, sizeof(x));
	if (i < end)
		row[i] = v;
}

/**
 * bfly_msglist_rotation() - row @t of the exchange's destinations
 * @row: receives @ports entries, @row[i] = i - @t mod @ports
 * @ports: N, a power of two
 * @t: the step, below @ports
 *
 * N - t, ..., N - 1, then 0, ..., N - t - 1: each run counted up two
 * entries a store, the pair across the wrap (odd @t) by itself. Under
 * QEMU's TCG, the test VMs' CPU, a quarter of the memory accesses and a
 * third of the instructions of an entry at a time.
 */
void bfly_msglist_rotation(u32 *row, u32 ports, u32 t)
{
	u32 e = t & ~1U, s = (t + 1) & ~1U;

	bfly_msglist_count_up(row, 0, e, ports - t);
	if (e < s) {
		row[e] = ports - 1;
		row[e + 1] = 0;
	}
	bfly_msglist_count_up(row, s, ports, s - t);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msglist_rotation);

/*
 * Steps @s .. @e - 1 as a block's destination table @dest (msgblock.h):
 * false when a step holds two messages of one source, which a partial
 * permutation never does. Without @order, step t holds i -> i - t mod N.
 */
static bool bfly_msglist_slots_dest(const struct bfly_msglist_slots *sl, const u32 *order,
				    const u32 *first, u32 s, u32 e, u32 *dest)
{
	u32 t, k, m, *row;

	if (!order) {
		for (t = s; t < e; t++, dest += sl->ports)
			bfly_msglist_rotation(dest, sl->ports, t);
		return true;
	}
	memset(dest, 0xff, (size_t)(e - s) * sl->ports * sizeof(*dest));
	for (t = s; t < e; t++) {
		row = dest + (size_t)(t - s) * sl->ports;
		for (k = first[t]; k < first[t + 1]; k++) {
			m = order[k];
			if (row[sl->src[m]] != BFLY_MSG_NONE)
				return false;
			row[sl->src[m]] = sl->dst[m];
		}
	}
	return true;
}

/**
 * bfly_msglist_move_slots() - move a list's payload in a batch's layout
 * @fab: the fabric, referenced by the caller
 * @b: the buffers
 * @sl: the layout every message of the list lies in
 *	(bfly_msglist_in_slots())
 * @msgs: the messages
 * @order: the messages by step (bfly_msglist_sort()), or NULL for the
 *	exchange on N a power of two in the RLS schedule's rounds: step t
 *	holds i -> i - t mod N for every i (@sl->src, @sl->dst, @msgs and
 *	@first unused)
 * @first: where each step starts in @order
 * @steps: steps, each a partial permutation (N without @order)
 * @scratch: bfly_msglist_slots_scratch() entries
 * @moved: receives the payload bytes moved
 *
 * The steps go in the blocks of an all-to-all batch of the same N and
 * message size (bfly_msg_block_rounds()), each moved by
 * bfly_msg_block_move() as BFLY_IOC_BATCH moves its rounds, source row by
 * source row. Two messages of the layout that share receive bytes are one
 * pair's, listed twice, and carry the same send bytes, so the order within
 * a block changes nothing. A signal (a fatal one only with @b->killable)
 * is noticed between blocks, a fatal one within long blocks too. A step
 * with two messages of one source (never, for the rounds of a fabric)
 * goes as bfly_msglist_move() moves a block.
 *
 * Return: 0; -EINTR; -ENODEV when the fabric was deleted; -EFAULT.
 */
int bfly_msglist_move_slots(struct bfly_fabric *fab, const struct bfly_msglist_bufs *b,
			    const struct bfly_msglist_slots *sl, const struct bfly_msgset_msg *msgs,
			    const u32 *order, const u32 *first, u32 steps, u32 *scratch,
			    u64 *moved)
{
	bool stream = sl->stream;
	u32 per = bfly_msg_block_rounds(sl->ports, sl->size, stream), s, e, len;
	struct bfly_msg_block blk = {
		.send = b->send, .recv = b->recv, .size = sl->size, .ports = sl->ports,
		.dest = scratch, .stream = stream,
	};
	int err;

	*moved = 0;
	for (s = 0; s < steps; s = e) {
		err = bfly_msglist_between_blocks(fab, b);
		if (err)
			return err;
		e = s + min_t(u32, per, steps - s);
		if (bfly_msglist_slots_dest(sl, order, first, s, e, scratch)) {
			blk.rounds = e - s;
			blk.moved = 0;
			err = bfly_msg_block_move(&blk);
			*moved += blk.moved;
		} else {
			len = bfly_msglist_min_len(msgs, order, first[s], first[e]);
			err = bfly_msglist_move_block(b, msgs, order, first, s, e, len, stream,
						      scratch, moved);
			bfly_msg_stream_fence(stream);
		}
		if (err)
			return err;
		cond_resched();
	}
	return 0;
}
