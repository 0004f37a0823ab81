// SPDX-License-Identifier: GPL-2.0
/*
 * One all-to-all message, copied from user memory to user memory.
 *
 * An all-to-all round reads N messages from N scattered send slots and
 * writes them to N scattered receive slots: no two consecutive copies
 * touch neighbouring memory, so the CPU's stream prefetchers never get
 * going and a plain word loop waits on a cache miss at the start of every
 * message. Two things make up for it (measured by tests/bench/bench-a2a,
 * which builds this file natively): the loop moves 64 bytes per step, eight
 * loads then eight stores, so eight misses are in flight at once; and each
 * copy prefetches the message the caller will copy after next, source for
 * reading and destination for writing, so its lines arrive while this one
 * is being copied.
 *
 * Plain loads and stores inside one user-access section: one pass over the
 * data, no bounce buffer, no string instructions (which QEMU's TCG, the
 * harness's only accelerator, runs slowly). The same source builds natively
 * for the benchmark, where algo_compat.h makes user pointers plain ones.
 */
#include "msgcopy.h"

#ifdef __KERNEL__
#include <linux/cache.h>
#include <linux/prefetch.h>
#include <linux/uaccess.h>
#endif

/*
 * Start fetching the first @len bytes of @ahead, checked by the caller
 * with access_ok(). Called with user access on: nothing here may call out.
 */
static __always_inline void bfly_msg_prefetch(const struct bfly_msg *ahead, u64 len)
{
	u64 off;

	for (off = 0; off < len; off += L1_CACHE_BYTES) {
		prefetch((__force const void *)(ahead->src + off));
		prefetchw((__force void *)(ahead->dst + off));
	}
}

/**
 * bfly_msg_copy() - copy one message, or a piece of one
 * @msg: where to read and write; both 8-byte aligned
 * @len: bytes to copy
 * @ahead: a message to prefetch, at most %BFLY_MSG_PREFETCH_MAX bytes of
 *	it, or NULL
 *
 * The caller keeps @len small enough for the copy to finish without a
 * reschedule point (a user-access section cannot call out).
 *
 * Return: 0, or -EFAULT when a slot is not writable or readable user
 * memory; part of the message may have been written then.
 */
int bfly_msg_copy(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead)
{
	const u64 __user *s = (const u64 __user *)msg->src;
	u64 __user *d = (u64 __user *)msg->dst;
	u64 j, words = len / 8;
	u64 w0, w1, w2, w3, w4, w5, w6, w7;
	u64 pf = min_t(u64, len, BFLY_MSG_PREFETCH_MAX);
	u8 b;

	if (!access_ok(msg->dst, len))
		return -EFAULT;
	/* Only user memory is prefetched: a user pointer cannot probe others */
	if (ahead && (!access_ok(ahead->src, pf) || !access_ok(ahead->dst, pf)))
		ahead = NULL;
	if (!user_access_begin(msg->src, len))
		return -EFAULT;
	if (ahead)
		bfly_msg_prefetch(ahead, pf);
	for (j = 0; j + 8 <= words; j += 8) {
		unsafe_get_user(w0, s + j, efault);
		unsafe_get_user(w1, s + j + 1, efault);
		unsafe_get_user(w2, s + j + 2, efault);
		unsafe_get_user(w3, s + j + 3, efault);
		unsafe_get_user(w4, s + j + 4, efault);
		unsafe_get_user(w5, s + j + 5, efault);
		unsafe_get_user(w6, s + j + 6, efault);
		unsafe_get_user(w7, s + j + 7, efault);
		unsafe_put_user(w0, d + j, efault);
		unsafe_put_user(w1, d + j + 1, efault);
		unsafe_put_user(w2, d + j + 2, efault);
		unsafe_put_user(w3, d + j + 3, efault);
		unsafe_put_user(w4, d + j + 4, efault);
		unsafe_put_user(w5, d + j + 5, efault);
		unsafe_put_user(w6, d + j + 6, efault);
		unsafe_put_user(w7, d + j + 7, efault);
	}
	for (; j < words; j++) {
		unsafe_get_user(w0, s + j, efault);
		unsafe_put_user(w0, d + j, efault);
	}
	for (j = words * 8; j < len; j++) {
		unsafe_get_user(b, msg->src + j, efault);
		unsafe_put_user(b, msg->dst + j, efault);
	}
	user_access_end();
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy);

/**
 * bfly_msg_copy_chunked() - bfly_msg_copy() of a message of any length
 * @msg: where it is read and written
 * @len: its bytes
 * @ahead: as for bfly_msg_copy(), prefetched with the last piece
 *
 * A message may be gigabytes: it goes in pieces of %BFLY_MSG_CHUNK bytes,
 * the CPU given away between them, and a killed process stops it.
 *
 * Return: 0; -EFAULT; -EINTR for a fatal signal between pieces.
 */
int bfly_msg_copy_chunked(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead)
{
	struct bfly_msg piece;
	u64 off, n;
	int err;

	for (off = 0; off < len; off += n) {
		n = min_t(u64, len - off, BFLY_MSG_CHUNK);
		piece.src = msg->src + off;
		piece.dst = msg->dst + off;
		err = bfly_msg_copy(&piece, n, off + n == len ? ahead : NULL);
		if (err)
			return err;
		if (off + n < len && bfly_should_stop())
			return -EINTR;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy_chunked);
