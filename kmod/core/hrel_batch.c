// SPDX-License-Identifier: GPL-2.0
/*
 * Batch lists: the all-to-all exchange listed in order in a batch's
 * layout, on a fabric whose exchange rounds are proven free of conflicts,
 * recognised while the list is read and kept nowhere; its report and
 * payload computed from N as BFLY_IOC_BATCH computes them (hrel.rst, "The
 * all-to-all exchange").
 */
#include <linux/build_bug.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "lib/schedule.h"
#include "core.h"
#include "hrel.h"
#include "msgcopy.h"
#include "msglist.h"
#ifdef CONFIG_X86_64
#include "uaccess_asm.h"
#endif

/* Messages read at a time while a list is compared with a batch list */
#define BFLY_HREL_CHUNK 1024

/**
 * bfly_hrel_batch_way() - could a list be a batch list?
 * @geo: a self-routing fabric's geometry (its colours run by labels)
 * @count: the list's messages
 *
 * Return: whether @count is N * N and the fabric's exchange rounds, the
 * RLS schedule's, are proven free of conflicts, as the general path finds
 * them (&bfly_hrel_res.batch_list).
 */
bool bfly_hrel_batch_way(const struct bfly_geometry *geo, u32 count)
{
	struct bfly_sched sched;

	if ((u64)count != (u64)geo->ports * geo->ports)
		return false;
	if (bfly_sched_init(&sched, geo, BFLY_LATIN_RLS, NULL, NULL))
		return false;
	return bfly_sched_proven(&sched);
}

/* Message @m of a batch list of @size-byte messages on @ports ports */
static struct bfly_msgset_msg bfly_hrel_batch_msg(u32 ports, u64 size, u32 m)
{
	u32 i = m / ports, d = m % ports;

	return (struct bfly_msgset_msg) {
		.src = i, .dst = d, .len = size,
		.send_off = ((u64)i * ports + d) * size,
		.recv_off = ((u64)d * ports + i) * size,
	};
}

/* A message's fields as the 8-byte words the list holds */
union bfly_hrel_batch_words {
	struct bfly_msgset_msg msg;
	u64 w[4];
};

/* The first word of a message from @src to @dst */
static u64 bfly_hrel_batch_ends(u32 src, u32 dst)
{
	union bfly_hrel_batch_words e = { .msg = { .src = src, .dst = dst } };

	return e.w[0];
}

/* The second word of a message of @len bytes (its pad 0) */
static u64 bfly_hrel_batch_len(u32 len)
{
	union bfly_hrel_batch_words e = { .msg = { .len = len } };

	return e.w[1];
}

/*
 * How many of the @n messages @x, message @m on, are the batch list's (of
 * @size-byte messages): its compares alone, each message as its four
 * words against expected words kept up to date from message to message.
 */
static u32 bfly_hrel_batch_match(const struct bfly_msgset_msg *x, u32 n, u32 m, u32 ports,
				 u32 size)
{
	u32 i = m / ports, d = m % ports, k;
	u64 soff = (u64)m * size, roff = ((u64)d * ports + i) * size, rstep = (u64)ports * size;
	u64 ends = bfly_hrel_batch_ends(i, d), step = bfly_hrel_batch_ends(0, 1);
	u64 len = bfly_hrel_batch_len(size);
	const u64 *w = (const u64 *)x;

	static_assert(sizeof(*x) == sizeof(union bfly_hrel_batch_words));
	for (k = 0; k < n; k++, w += 4) {
		if ((w[0] ^ ends) | (w[1] ^ len) | (w[2] ^ soff) | (w[3] ^ roff))
			return k;
		soff += size;
		roff += rstep;
		ends += step;
		if (++d == ports) {
			d = 0;
			roff = ++i * (u64)size;
			ends = bfly_hrel_batch_ends(i, 0);
		}
	}
	return n;
}

/*
 * The words of a row's messages in user memory and what they should hold:
 * @ends, @soff and @roff the row's first message's first, third and fourth
 * word, each next message's @step, @size and @rstep more; @len its second.
 */
struct bfly_hrel_batch_row {
	u64 ends, step, len, soff, size, roff, rstep;
};

#ifdef CONFIG_X86_64
#define BFLY_HREL_ROW_ASM true

/*
 * bfly_hrel_batch_row_asm() compares the @pairs * 2 messages at @w with
 * @r's words: each word loaded, XORed with its expected word and ORed into
 * one difference, one branch per two messages. QEMU's TCG, the test VMs'
 * CPU, ends a translated block at every branch and runs each instruction
 * apart; unsafe_get_user() without asm goto outputs (the stock kernels'
 * compilers) tests an error register after every load, six branches and
 * 30 instructions a message where this loop takes half a branch and 16.
 * A load that faults jumps (EX_TYPE_UACCESS, as for unsafe_get_user())
 * to the end with @err set. Inside a user-access section.
 * Return: 0 when every message matches, 1 when one differs, -EFAULT.
 */
#define BFLY_HREL_EXTABLE(insn) BFLY_EXTABLE_UACCESS(insn, "9f")
/* One message's four words at @off from %[p], its loads labelled @a to @d */
#define BFLY_HREL_CMP_MSG(off, a, b, c, d)				\
	#a ":	mov " #off "(%[p]), %[x]\n"				\
	"	xor %[ends], %[x]\n"					\
	"	or %[x], %[diff]\n"					\
	#b ":	mov " #off "+8(%[p]), %[x]\n"				\
	"	xor %[len], %[x]\n"					\
	"	or %[x], %[diff]\n"					\
	#c ":	mov " #off "+16(%[p]), %[x]\n"			\
	"	xor %[soff], %[x]\n"					\
	"	or %[x], %[diff]\n"					\
	#d ":	mov " #off "+24(%[p]), %[x]\n"			\
	"	xor %[roff], %[x]\n"					\
	"	or %[x], %[diff]\n"					\
	"	add %[step], %[ends]\n"					\
	"	add %[size], %[soff]\n"					\
	"	add %[rstep], %[roff]\n"

static __always_inline int bfly_hrel_batch_row_asm(const u64 __user *w, u32 pairs,
						   struct bfly_hrel_batch_row r)
{
	const u64 __user *end = w + (size_t)pairs * 8;
	u64 diff = 0, x;
	u32 err = 0;

	asm volatile("0:\n"
		     BFLY_HREL_CMP_MSG(0, 1, 2, 3, 4)
		     BFLY_HREL_CMP_MSG(32, 5, 6, 7, 8)
		     "	add $64, %[p]\n"
		     "	cmp %[end], %[p]\n"
		     "	jb 0b\n"
		     "	jmp 10f\n"
		     BFLY_HREL_EXTABLE("1b") BFLY_HREL_EXTABLE("2b")
		     BFLY_HREL_EXTABLE("3b") BFLY_HREL_EXTABLE("4b")
		     BFLY_HREL_EXTABLE("5b") BFLY_HREL_EXTABLE("6b")
		     BFLY_HREL_EXTABLE("7b") BFLY_HREL_EXTABLE("8b")
		     "9:	mov $1, %k[err]\n"
		     "10:\n"
		     : [p] "+r" (w), [ends] "+r" (r.ends), [soff] "+r" (r.soff),
		       [roff] "+r" (r.roff), [diff] "+r" (diff), [err] "+r" (err), [x] "=&r" (x)
		     : [end] "r" (end), [len] "r" (r.len), [size] "r" (r.size),
		       [rstep] "r" (r.rstep), [step] "r" (r.step)
		     : "cc", "memory");
	if (err)
		return -EFAULT;
	return diff != 0;
}
#else
#define BFLY_HREL_ROW_ASM false

static __always_inline int bfly_hrel_batch_row_asm(const u64 __user *w, u32 pairs,
						   struct bfly_hrel_batch_row r)
{
	return -EFAULT;
}
#endif

/*
 * The @row messages at @w against @r, one 8-byte load a word and a branch
 * a message. Inside a user-access section.
 * Return: the messages that match, or -EFAULT.
 */
static __always_inline int bfly_hrel_batch_row_c(const u64 __user *w, u32 row,
						 struct bfly_hrel_batch_row r)
{
	u64 x, diff;
	u32 j;

	for (j = 0; j < row; j++, w += 4) {
		unsafe_get_user(x, w, efault);
		diff = x ^ r.ends;
		unsafe_get_user(x, w + 1, efault);
		diff |= x ^ r.len;
		unsafe_get_user(x, w + 2, efault);
		diff |= x ^ r.soff;
		unsafe_get_user(x, w + 3, efault);
		diff |= x ^ r.roff;
		if (diff)
			return j;
		r.ends += r.step;
		r.soff += r.size;
		r.roff += r.rstep;
	}
	return row;
efault:
	return -EFAULT;
}

/*
 * bfly_hrel_batch_match() of the @n messages @list[@m] on in user memory,
 * each read as four 8-byte loads and compared as it is read, nothing
 * stored: a third of the memory accesses of a copy into a chunk and a
 * compare there. Row by row (one source's messages), so that the loop
 * over a row keeps everything in registers; on x86-64 an even row by
 * bfly_hrel_batch_row_asm(). @list is 8-byte aligned.
 * Return: @n when every message matches, fewer when one differs (the
 * caller then reads the chunk to find which), or -EFAULT.
 */
static int bfly_hrel_batch_match_user(const struct bfly_msgset_msg __user *list, u32 n, u32 m,
				      u32 ports, u32 size)
{
	const u64 __user *w = (const u64 __user *)(list + m);
	u32 i = m / ports, d = m % ports, k = 0, row;
	struct bfly_hrel_batch_row r = {
		.step = bfly_hrel_batch_ends(0, 1), .len = bfly_hrel_batch_len(size),
		.soff = (u64)m * size, .size = size, .rstep = (u64)ports * size,
	};
	int got = 0;

	if (!user_access_begin(w, array_size(n, sizeof(*list))))
		return -EFAULT;
	for (; k < n; k += row, w += (size_t)row * 4, r.soff += (u64)row * size, d = 0, i++) {
		row = min(n - k, ports - d);
		r.ends = bfly_hrel_batch_ends(i, d);
		r.roff = ((u64)d * ports + i) * size;
		if (BFLY_HREL_ROW_ASM && !(row & 1)) {
			got = bfly_hrel_batch_row_asm(w, row / 2, r);
			if (got)
				break;
			continue;
		}
		got = bfly_hrel_batch_row_c(w, row, r);
		if (got != row)
			break;
	}
	user_access_end();
	if (got < 0)
		return got;
	return k < n ? k : n;
}

/**
 * bfly_hrel_read_batch() - read a list, kept nowhere while it is a batch list
 * @req: the request
 * @res: its result: @res->ports is N, @res->mem charges the read buffer
 *	and @msgs
 * @msgs: receives NULL for a batch list, else the whole list
 * @size: receives the first message's length
 *
 * The list is read a chunk at a time and compared with a batch list of
 * its first message's length; past the first chunk, a list in user memory
 * (@req->user_msgs) is compared where it lies, and read only from a chunk
 * that differs. From the first chunk that differs, the whole list goes to
 * *@msgs: the messages before it as they were compared, the rest as read.
 *
 * A signal (bfly_hrel_stop()) stops the read between two chunks.
 *
 * Return: 0; -ENOMEM, -E2BIG (memory limits); -EINTR; -EFAULT
 * (@req->user_msgs not readable) or @req->read_msgs()'s error.
 */
int bfly_hrel_read_batch(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			 struct bfly_msgset_msg **msgs, u64 *size)
{
	const struct bfly_msglist_bufs *b = &req->bufs;
	u32 ports = res->ports, m, n, k;
	struct bfly_msgset_msg *chunk;
	u64 all = (u64)ports * ports;
	int err;

	/* charged as any buffer the request needs, until bfly_hrel_done() */
	chunk = bfly_mem_alloc_array(&res->mem, min_t(u32, BFLY_HREL_CHUNK, req->count),
				     sizeof(*chunk), false);
	if (!chunk)
		return res->mem.err;
	for (m = 0; m < req->count; m += n) {
		n = min_t(u32, BFLY_HREL_CHUNK, req->count - m);
		/* a signal stops the read between chunks, nothing reported */
		if (bfly_hrel_stop(req)) {
			err = -EINTR;
			goto out;
		}
		/* past the first chunk, a list in user memory is compared there */
		if (m && req->user_msgs) {
			err = bfly_hrel_batch_match_user(req->user_msgs, n, m, ports, *size);
			if (err < 0)
				goto out;
			if ((u32)err == n) {
				cond_resched();
				continue;
			}
		}
		err = req->read_msgs(req->ctx, chunk, m, n);
		if (err)
			goto out;
		if (!m) {
			*size = chunk[0].len;
			/* a layout the buffers do not hold is checked as any list */
			if (*size && (*size % 8 || !b->send || !b->recv ||
				      b->send_bytes / *size < all || b->recv_bytes / *size < all))
				break;
		}
		if (bfly_hrel_batch_match(chunk, n, m, ports, *size) != n)
			break;
		cond_resched();
	}
	err = 0;
	if (m == req->count)
		goto out;
	*msgs = bfly_mem_alloc_array(&res->mem, req->count, sizeof(**msgs), false);
	err = res->mem.err;
	if (err)
		goto out;
	for (k = 0; k < m; k++)
		(*msgs)[k] = bfly_hrel_batch_msg(ports, *size, k);
	memcpy(*msgs + m, chunk, n * sizeof(*chunk));
	if (m + n < req->count)
		err = req->read_msgs(req->ctx, *msgs + m + n, m + n, req->count - m - n);
out:
	kvfree(chunk);
	return err;
}

/**
 * bfly_hrel_batch_run() - run a batch list
 * @fab: the fabric, referenced by the caller
 * @req: the request
 * @res: receives the result
 * @size: every message's length
 *
 * h, colours and rounds N, the rounds and their payload as BFLY_IOC_BATCH's
 * on the same fabric, computed from N as the batch computes them; each
 * message's round kept unless the frontend skips it.
 *
 * Return: 0; -ENOMEM or -E2BIG (memory limits); -EINTR when a signal
 * came before the report (nothing reported); bfly_msglist_move_slots()'s
 * errors.
 */
int bfly_hrel_batch_run(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
			struct bfly_hrel_res *res, u64 size)
{
	u32 ports = res->ports, m, *scratch = NULL;
	struct bfly_msglist_slots sl = {
		.ports = ports, .size = size,
		.stream = bfly_msg_stream((u64)ports * ports * size),
	};
	int err;

	if (!req->skip_round) {
		res->round = bfly_mem_alloc_array(&res->mem, res->count, sizeof(u32), false);
		if (!res->round)
			return res->mem.err;
		for (m = 0; m < res->count; m++)
			res->round[m] = (m / ports - m % ports) & (ports - 1);
	}
	/* the payload's scratch charged before the report, as the general path's */
	if (size) {
		scratch = bfly_mem_alloc_array(&res->mem,
					       bfly_msglist_slots_scratch(&sl, res->count),
					       sizeof(u32), false);
		if (!scratch)
			return res->mem.err;
	}
	if (bfly_hrel_stop(req)) {
		kvfree(scratch);
		return -EINTR;
	}
	/* a refusal above reports nothing, as the general path's */
	res->batch_list = true;
	res->listed_a2a = true;
	res->slot_size = size;
	res->h = ports;
	res->colours = ports;
	res->rounds = ports;
	res->cycles = bfly_sched_cycles(&fab->geo, res->rounds);
	res->reported = true;
	if (!size)
		return 0;
	err = bfly_msglist_move_slots(fab, &req->bufs, &sl, NULL, NULL, NULL, ports, scratch,
				      &res->bytes_moved);
	kvfree(scratch);
	return err;
}
