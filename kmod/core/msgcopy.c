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
 * independent loads, each word stored as it arrives, so eight misses are in
 * flight at once; and each copy prefetches the message the caller will copy
 * after next, source for reading and destination for writing, so its lines
 * arrive while this one is being copied.
 *
 * Plain loads and stores inside one user-access section: one pass over the
 * data, no bounce buffer, no string instructions (which QEMU's TCG, the
 * harness's only accelerator, runs slowly). Streaming copies of whole
 * lines use 16-byte SSE2 moves in a kernel FPU section; runs of small
 * messages share one access check and user-access section
 * (bfly_msg_copy_run()). The same source builds natively
 * for the benchmark, where algo_compat.h makes user pointers plain ones.
 */
#include "msgcopy.h"

#ifdef __KERNEL__
#include <linux/cache.h>
#include <linux/prefetch.h>
#include <linux/uaccess.h>
#include <linux/moduleparam.h>
#ifdef CONFIG_X86_64
#include <asm/fpu/api.h>
#include <asm/simd.h>
#include "uaccess_asm.h"
#endif
#include "core.h"

static unsigned long payload_stream_bytes = BFLY_MSG_STREAM_MIN;
module_param_cb(payload_stream_bytes, &bfly_param_ops_bytes, &payload_stream_bytes, 0644);
MODULE_PARM_DESC(payload_stream_bytes,
		 "exchanges of more payload than this are copied with streaming stores (x86-64), in bytes, K, M or G (default 32M)");
#else
static unsigned long payload_stream_bytes = BFLY_MSG_STREAM_MIN;
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

/*
 * bfly_put_user_nt() stores @x at @ptr with a streaming store (movnti):
 * the line is written to memory whole, without being read for ownership
 * first, and leaves no copy in the cache; it returns true when the store
 * faulted in user memory (the kernel's exception table, as for
 * unsafe_put_user()). Streaming stores are weakly ordered:
 * bfly_stream_fence() (sfence) orders them before anything that follows.
 * Natively the same instruction, without the exception table.
 */
#ifdef __x86_64__
#define BFLY_MSG_HAS_STREAM true

static __always_inline bool bfly_put_user_nt(u64 x, u64 __user *ptr)
{
#ifdef __KERNEL__
	asm goto("1:	movnti %0, %1\n"
		 BFLY_EXTABLE_UACCESS("1b", "%l[fault]")
		 : : "r" (x), "m" (*(u64 __force *)ptr) : : fault);
	return false;
fault:
	return true;
#else
	asm("movnti %1, %0" : "=m" (*ptr) : "r" (x));
	return false;
#endif
}

static __always_inline void bfly_stream_fence(void)
{
	asm volatile("sfence" : : : "memory");
}

/*
 * bfly_copy_line_nt() copies the 64 bytes at @s to @d (16-byte aligned)
 * with four 16-byte loads and four 16-byte streaming stores (movntdq,
 * SSE2, which every x86-64 CPU has); true when an access faulted. Between
 * kernel_fpu_begin() and kernel_fpu_end() only: the kernel's own code
 * never touches the vector registers, so it names none as clobbered.
 * Natively the same instructions, the registers named.
 */
#ifdef __KERNEL__
#define BFLY_EXTABLE_UA(insn) BFLY_EXTABLE_UACCESS(insn, "%l[fault]")
#define BFLY_LINE_CLOBBERS "memory"
/* movdqu and movntdq need neither the x87 state nor MXCSR set up */
static __always_inline bool bfly_simd_begin(void)
{
	if (!may_use_simd())
		return false;
	kernel_fpu_begin_mask(0);
	pagefault_disable();
	return true;
}

static __always_inline void bfly_simd_end(void)
{
	pagefault_enable();
	kernel_fpu_end();
}
#else
#define BFLY_EXTABLE_UA(insn) "	# " insn " cannot fault natively\n"
#define BFLY_LINE_CLOBBERS "memory", "xmm0", "xmm1", "xmm2", "xmm3"
static __always_inline bool bfly_simd_begin(void)
{
	return true;
}

static __always_inline void bfly_simd_end(void)
{
}
#endif

static __always_inline bool bfly_copy_line_nt(const u8 __user *s, u8 __user *d)
{
	asm goto("1:	movdqu (%0), %%xmm0\n"
		 "2:	movdqu 16(%0), %%xmm1\n"
		 "3:	movdqu 32(%0), %%xmm2\n"
		 "4:	movdqu 48(%0), %%xmm3\n"
		 "5:	movntdq %%xmm0, (%1)\n"
		 "6:	movntdq %%xmm1, 16(%1)\n"
		 "7:	movntdq %%xmm2, 32(%1)\n"
		 "8:	movntdq %%xmm3, 48(%1)\n"
		 BFLY_EXTABLE_UA("1b") BFLY_EXTABLE_UA("2b")
		 BFLY_EXTABLE_UA("3b") BFLY_EXTABLE_UA("4b")
		 BFLY_EXTABLE_UA("5b") BFLY_EXTABLE_UA("6b")
		 BFLY_EXTABLE_UA("7b") BFLY_EXTABLE_UA("8b")
		 : : "r" (s), "r" (d) : BFLY_LINE_CLOBBERS : fault);
	return false;
fault:
	return true;
}

#ifdef __KERNEL__
/*
 * bfly_copy_line() copies the 64 bytes at @s to @d with eight 8-byte loads
 * and stores, each with the exception-table entry unsafe_get_user() and
 * unsafe_put_user() use; true when an access faulted. Inside a user-access
 * section. Where the compiler has no usable asm goto outputs (Debian's
 * 6.12: CONFIG_GCC_ASM_GOTO_OUTPUT_BROKEN), every unsafe_get_user() sets
 * an error register tested after the load: 47 instructions per 64 bytes
 * against the user program's 20, which QEMU's TCG runs one by one.
 */
#define BFLY_MSG_HAS_LINE
static __always_inline bool bfly_copy_line(const u8 __user *s, u8 __user *d)
{
	asm goto("1:	movq (%0), %%r8\n"
		 "2:	movq %%r8, (%1)\n"
		 "3:	movq 8(%0), %%r9\n"
		 "4:	movq %%r9, 8(%1)\n"
		 "5:	movq 16(%0), %%r10\n"
		 "6:	movq %%r10, 16(%1)\n"
		 "7:	movq 24(%0), %%r11\n"
		 "8:	movq %%r11, 24(%1)\n"
		 "9:	movq 32(%0), %%r8\n"
		 "10:	movq %%r8, 32(%1)\n"
		 "11:	movq 40(%0), %%r9\n"
		 "12:	movq %%r9, 40(%1)\n"
		 "13:	movq 48(%0), %%r10\n"
		 "14:	movq %%r10, 48(%1)\n"
		 "15:	movq 56(%0), %%r11\n"
		 "16:	movq %%r11, 56(%1)\n"
		 BFLY_EXTABLE_UA("1b") BFLY_EXTABLE_UA("2b")
		 BFLY_EXTABLE_UA("3b") BFLY_EXTABLE_UA("4b")
		 BFLY_EXTABLE_UA("5b") BFLY_EXTABLE_UA("6b")
		 BFLY_EXTABLE_UA("7b") BFLY_EXTABLE_UA("8b")
		 BFLY_EXTABLE_UA("9b") BFLY_EXTABLE_UA("10b")
		 BFLY_EXTABLE_UA("11b") BFLY_EXTABLE_UA("12b")
		 BFLY_EXTABLE_UA("13b") BFLY_EXTABLE_UA("14b")
		 BFLY_EXTABLE_UA("15b") BFLY_EXTABLE_UA("16b")
		 : : "r" (s), "r" (d) : "memory", "r8", "r9", "r10", "r11" : fault);
	return false;
fault:
	return true;
}
#endif
#else
#define BFLY_MSG_HAS_STREAM false

static __always_inline bool bfly_put_user_nt(u64 x, u64 __user *ptr)
{
	unsafe_put_user(x, ptr, fault);
	return false;
fault:
	return true;
}

static __always_inline void bfly_stream_fence(void)
{
}
#endif

/* One 8-byte store of a copy, streaming with @nt: true when it faulted */
static __always_inline bool bfly_msg_put(bool nt, u64 x, u64 __user *ptr)
{
	if (nt)
		return bfly_put_user_nt(x, ptr);
	unsafe_put_user(x, ptr, fault);
	return false;
fault:
	return true;
}

/*
 * One 8-byte word of a copy, loaded and stored at once (streaming with
 * @nt); true when an access faulted.
 */
static __always_inline bool bfly_msg_word(const u64 __user *s, u64 __user *d, bool nt)
{
	u64 w;

	unsafe_get_user(w, s, efault);
	return bfly_msg_put(nt, w, d);
efault:
	return true;
}

/*
 * The copy of @len bytes from @s to @d, 64 bytes a step, with cached
 * stores or (@nt) streaming ones; true when an access faulted. Inside a
 * user-access section. Each word is stored as soon as it is loaded: an
 * out-of-order CPU still runs the step's eight loads ahead of its stores
 * (they do not wait for them), so eight misses are in flight, and each
 * word goes through one register. In the kernel every unsafe_get_user()
 * lands in %rax (compilers without asm goto outputs), so eight loads
 * before eight stores were parked on the stack and read back there: 30
 * memory accesses per 64 bytes instead of 16, which QEMU's TCG emulates
 * one by one.
 */
static __always_inline bool bfly_msg_copy_body(const u8 __user *src, u8 __user *dst, u64 len,
					       bool nt)
{
	const u64 __user *s = (const u64 __user *)src;
	u64 __user *d = (u64 __user *)dst;
	u64 j, words = len / 8;
	u8 b;

	for (j = 0; j + 8 <= words; j += 8) {
#ifdef BFLY_MSG_HAS_LINE
		if (!nt) {
			if (bfly_copy_line(src + j * 8, dst + j * 8))
				goto efault;
			continue;
		}
#endif
		if (bfly_msg_word(s + j, d + j, nt) ||
		    bfly_msg_word(s + j + 1, d + j + 1, nt) ||
		    bfly_msg_word(s + j + 2, d + j + 2, nt) ||
		    bfly_msg_word(s + j + 3, d + j + 3, nt) ||
		    bfly_msg_word(s + j + 4, d + j + 4, nt) ||
		    bfly_msg_word(s + j + 5, d + j + 5, nt) ||
		    bfly_msg_word(s + j + 6, d + j + 6, nt) ||
		    bfly_msg_word(s + j + 7, d + j + 7, nt))
			goto efault;
	}
	/* whole lines (the usual case): the tails below are out of the way */
	if (likely(!(len % 64)))
		return false;
	for (; j < words; j++)
		if (bfly_msg_word(s + j, d + j, nt))
			goto efault;
	for (j = words * 8; j < len; j++) {
		unsafe_get_user(b, src + j, efault);
		unsafe_put_user(b, dst + j, efault);
	}
	return false;
efault:
	return true;
}

/*
 * One message, with cached stores or (@nt) streaming ones. A streaming
 * copy prefetches only @ahead's source: a destination line fetched into
 * the cache would be written to memory twice.
 */
static __always_inline int bfly_msg_copy_words(const struct bfly_msg *msg, u64 len,
					       const struct bfly_msg *ahead, bool nt)
{
	u64 off, pf = min_t(u64, len, BFLY_MSG_PREFETCH_MAX);

	if (!access_ok(msg->dst, len))
		return -EFAULT;
	/* Only user memory is prefetched: a user pointer cannot probe others */
	if (ahead && (!access_ok(ahead->src, pf) || !access_ok(ahead->dst, pf)))
		ahead = NULL;
	if (!user_access_begin(msg->src, len))
		return -EFAULT;
	if (ahead && nt)
		for (off = 0; off < pf; off += L1_CACHE_BYTES)
			prefetch((__force const void *)(ahead->src + off));
	else if (ahead)
		bfly_msg_prefetch(ahead, pf);
	if (bfly_msg_copy_body(msg->src, msg->dst, len, nt))
		goto efault;
	user_access_end();
	return 0;
efault:
	if (nt)
		bfly_stream_fence();
	user_access_end();
	return -EFAULT;
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
	return bfly_msg_copy_words(msg, len, ahead, false);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy);

#ifdef __x86_64__
/*
 * @lines bytes (whole lines) from @src to @dst by bfly_copy_line_nt(),
 * inside a user-access section within bfly_simd_begin() and
 * bfly_simd_end(): the bytes copied before a fault.
 */
static __always_inline u64 bfly_msg_lines_nt(const u8 __user *src, u8 __user *dst, u64 lines)
{
	u64 off;

	for (off = 0; off < lines; off += L1_CACHE_BYTES)
		if (bfly_copy_line_nt(src + off, dst + off))
			break;
	return off;
}

/*
 * The streaming copy of @msg's whole lines with 16-byte stores, the rest
 * (and @ahead's prefetch) by bfly_msg_copy_words(). 8-byte streaming
 * stores reached only about 0.6x of memcpy() where messages scatter,
 * natively; 16-byte ones 0.65x - 0.8x (tests/bench/bench-a2a).
 *
 * The vector registers are the kernel's only between bfly_simd_begin()
 * and bfly_simd_end(), where nothing may sleep: page faults are off
 * there, so a line whose page is not yet present (or is not user memory
 * at all) ends the vector loop, and that line goes by the word copy,
 * which waits for the page or returns -EFAULT; then the vector loop goes
 * on. The copy moves forward only: the receive bytes before a fault are
 * final.
 */
static int bfly_msg_copy_lines_nt(const struct bfly_msg *msg, u64 len,
				  const struct bfly_msg *ahead)
{
	u64 off = 0, lines = len & ~(u64)(L1_CACHE_BYTES - 1);
	struct bfly_msg rest;
	int err;

	if (!access_ok(msg->src, len) || !access_ok(msg->dst, len))
		return -EFAULT;
	while (off < lines) {
		if (!bfly_simd_begin())
			break;
		if (user_access_begin(msg->src + off, lines - off)) {
			off += bfly_msg_lines_nt(msg->src + off, msg->dst + off, lines - off);
			user_access_end();
		}
		bfly_simd_end();
		if (off == lines)
			break;
		rest.src = msg->src + off;
		rest.dst = msg->dst + off;
		err = bfly_msg_copy_words(&rest, L1_CACHE_BYTES, NULL, true);
		if (err)
			return err;
		off += L1_CACHE_BYTES;
	}
	rest.src = msg->src + off;
	rest.dst = msg->dst + off;
	return bfly_msg_copy_words(&rest, len - off, ahead, true);
}

/* Can every message of @run go by bfly_copy_line_nt() (16-byte aligned)? */
static bool bfly_msg_run_lines_nt(const struct bfly_msg_run *run)
{
	return run->len >= L1_CACHE_BYTES && !(run->len & 15) &&
	       !((unsigned long)run->bounds.dst & 15);
}

/* Bytes of each message of a group that a streaming copy takes in turn */
#define BFLY_MSG_GROUP_STEP 128

/*
 * Bytes @off .. @end - 1 (whole lines) of each of the @n messages @msgs
 * by bfly_copy_line_nt(), interleaved: %BFLY_MSG_GROUP_STEP bytes of each
 * in turn. Inside a user-access section within bfly_simd_begin() and
 * bfly_simd_end(): true when an access faulted.
 */
static __always_inline bool bfly_msg_group_lines_nt(const struct bfly_msg *msgs, u32 n, u64 off,
						    u64 end)
{
	u64 o, stop;
	u32 j;

	for (; off < end; off += BFLY_MSG_GROUP_STEP) {
		stop = min_t(u64, end, off + BFLY_MSG_GROUP_STEP);
		for (j = 0; j < n; j++)
			for (o = off; o < stop; o += L1_CACHE_BYTES)
				if (bfly_copy_line_nt(msgs[j].src + o, msgs[j].dst + o))
					return true;
	}
	return false;
}

/*
 * Bytes @off .. @end - 1 of the @n messages @msgs of @len bytes each
 * (@end is @len or a whole line): the whole lines interleaved, and when
 * @end is @len each message's rest after its last whole line with
 * movnti. As bfly_msg_group_lines_nt(): true when an access faulted.
 */
static __always_inline bool bfly_msg_group_nt(const struct bfly_msg *msgs, u32 n, u64 off,
					      u64 end, u64 len)
{
	u64 lines = len & ~(u64)(L1_CACHE_BYTES - 1);
	u32 j;

	if (bfly_msg_group_lines_nt(msgs, n, off, min_t(u64, end, lines)))
		return true;
	if (end < len || lines == len)
		return false;
	for (j = 0; j < n; j++)
		if (bfly_msg_copy_body(msgs[j].src + lines, msgs[j].dst + lines, len - lines,
				       true))
			return true;
	return false;
}

/*
 * A streaming run: one bfly_simd_begin() and one user-access section for
 * the whole run, its messages in groups of %BFLY_MSG_GROUP interleaved
 * (bfly_msg_copy_group_stream() says why); a group faulting in it (a page
 * not yet present, or a bad address) goes message by message by
 * bfly_msg_copy_stream(), then the run goes on.
 */
static int bfly_msg_copy_run_nt(struct bfly_msg_run *run)
{
	u64 len = run->len;
	u32 k = 0, n, end;
	int err;

	while (k < run->count) {
		if (bfly_simd_begin()) {
			if (user_access_begin(run->bounds.src, run->bytes)) {
				for (; k < run->count; k += n) {
					n = min_t(u32, BFLY_MSG_GROUP, run->count - k);
					if (bfly_msg_group_nt(&run->msgs[k], n, 0, len, len))
						break;
				}
				user_access_end();
			}
			bfly_simd_end();
			run->copied = k;
			if (k == run->count)
				break;
		}
		end = k + min_t(u32, BFLY_MSG_GROUP, run->count - k);
		for (; k < end; k++) {
			err = bfly_msg_copy_stream(&run->msgs[k], len, NULL);
			if (err)
				return err;
			run->copied = k + 1;
		}
	}
	return 0;
}

/*
 * May the @n messages @msgs of @len bytes go as one group of whole lines?
 * Two at least, every receive slot 16-byte aligned, every slot user
 * memory.
 */
static bool bfly_msg_group_lines_ok(const struct bfly_msg *msgs, u32 n, u64 len)
{
	u32 j;

	if (n < 2 || n > BFLY_MSG_GROUP || len < L1_CACHE_BYTES)
		return false;
	for (j = 0; j < n; j++)
		if (((unsigned long)msgs[j].dst & 15) || !access_ok(msgs[j].src, len) ||
		    !access_ok(msgs[j].dst, len))
			return false;
	return true;
}

/*
 * Bytes @off .. @end - 1 of the group @msgs in one bfly_simd_begin() and
 * user-access section: false when an access faulted or the vector
 * registers are not free.
 */
static bool bfly_msg_group_piece_nt(const struct bfly_msg *msgs, u32 n, u64 off, u64 end,
				    u64 len)
{
	bool ok = false;

	if (!bfly_simd_begin())
		return false;
	if (user_access_begin(msgs[0].src, len)) {
		ok = !bfly_msg_group_nt(msgs, n, off, end, len);
		user_access_end();
	}
	bfly_simd_end();
	return ok;
}
#endif

/**
 * bfly_msg_copy_group_stream() - messages of one length, streaming, interleaved
 * @msgs: the messages, each as for bfly_msg_copy(); no two share receive
 *	bytes, and the send bytes of none are the receive bytes of another
 * @n: messages at @msgs, 1 to %BFLY_MSG_GROUP
 * @len: the bytes of each
 * @copied: set to the messages that arrived, in order
 *
 * A message whose slots lie far from the one before it starts its streams
 * cold: its first lines are misses the CPU's prefetchers do not cover.
 * Here the whole lines of the @n messages go in turn,
 * %BFLY_MSG_GROUP_STEP bytes of each, so that @n streams are under way on
 * each side at every jump, as glibc's memcpy() of large buffers copies
 * several pages at once (see Documentation/batch-speed.rst, "Performance").
 * Pieces of %BFLY_MSG_CHUNK bytes, all @n messages together, each in one
 * bfly_simd_begin() and user-access section; the stores are fenced and a
 * fatal signal is noticed between pieces. From a piece that faults (a
 * page not present yet, a bad address), or without the vector registers,
 * or for a lone message, a receive slot not 16-byte aligned or messages
 * shorter than a line, the rest of each message goes alone by
 * bfly_msg_copy_chunked(): it waits for a page or returns -EFAULT, and the
 * messages before the faulting one have arrived whole. The stores are
 * weakly ordered: the caller fences them before it gives the CPU away or
 * returns (an error return fences itself).
 *
 * Return: 0; -EFAULT when a slot is not readable or writable user memory
 * (part of that message and of those after it may have been written);
 * -EINTR for a fatal signal between pieces.
 */
int bfly_msg_copy_group_stream(const struct bfly_msg *msgs, u32 n, u64 len, u32 *copied)
{
	struct bfly_msg rest;
	u64 off = 0;
	u32 j;
	int err;

	*copied = 0;
#ifdef __x86_64__
	if (bfly_msg_group_lines_ok(msgs, n, len)) {
		u64 step = max_t(u64, L1_CACHE_BYTES,
				 (BFLY_MSG_CHUNK / n) & ~(u64)(L1_CACHE_BYTES - 1));
		u64 end;

		for (; off < len; off = end) {
			end = min_t(u64, len, off + step);
			if (off) {
				bfly_stream_fence();
				if (bfly_should_stop())
					return -EINTR;
			}
			if (!bfly_msg_group_piece_nt(msgs, n, off, end, len))
				break;
		}
	}
#endif
	for (j = 0; j < n; j++) {
		if (off < len) {
			rest.src = msgs[j].src + off;
			rest.dst = msgs[j].dst + off;
			err = bfly_msg_copy_chunked(&rest, len - off, NULL, true);
			if (err)
				return err;
		}
		*copied = j + 1;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy_group_stream);

/**
 * bfly_msg_copy_stream() - bfly_msg_copy() with streaming stores
 * @msg: where to read and write; both 8-byte aligned
 * @len: bytes to copy
 * @ahead: a message whose source to prefetch, or NULL
 *
 * Where the CPU has no streaming store, this is bfly_msg_copy(). The
 * stores are weakly ordered: the caller calls bfly_msg_stream_fence()
 * before it gives the CPU away or returns (an error return fences itself).
 *
 * Return: as bfly_msg_copy().
 */
int bfly_msg_copy_stream(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead)
{
#ifdef __x86_64__
	if (len >= L1_CACHE_BYTES && !((unsigned long)msg->dst & 15))
		return bfly_msg_copy_lines_nt(msg, len, ahead);
#endif
	return bfly_msg_copy_words(msg, len, ahead, BFLY_MSG_HAS_STREAM);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy_stream);

/**
 * bfly_msg_stream() - should an exchange be copied with streaming stores?
 * @bytes: its payload bytes, all messages together
 *
 * Return: true above the module parameter payload_stream_bytes
 * (%BFLY_MSG_STREAM_MIN unless set) where the CPU has streaming stores
 * (x86-64).
 */
bool bfly_msg_stream(u64 bytes)
{
	return BFLY_MSG_HAS_STREAM && bytes > READ_ONCE(payload_stream_bytes);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_stream);

/**
 * bfly_msg_stream_fence() - order streaming stores before what follows
 * @stream: whether the copies were streaming ones; nothing to do if not
 */
void bfly_msg_stream_fence(bool stream)
{
	if (stream)
		bfly_stream_fence();
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_stream_fence);

/**
 * bfly_msg_copy_chunked() - bfly_msg_copy() of a message of any length
 * @msg: where it is read and written
 * @len: its bytes
 * @ahead: as for bfly_msg_copy(), prefetched with the last piece
 * @stream: copy with bfly_msg_copy_stream(); the pieces are fenced before
 *	each reschedule point, the last one is left to the caller
 *
 * A message may be gigabytes: it goes in pieces of %BFLY_MSG_CHUNK bytes,
 * the CPU given away between them, and a killed process stops it.
 *
 * Return: 0; -EFAULT; -EINTR for a fatal signal between pieces.
 */
int bfly_msg_copy_chunked(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead,
			  bool stream)
{
	struct bfly_msg piece;
	u64 off, n;
	int err;

	for (off = 0; off < len; off += n) {
		n = min_t(u64, len - off, BFLY_MSG_CHUNK);
		piece.src = msg->src + off;
		piece.dst = msg->dst + off;
		if (stream)
			err = bfly_msg_copy_stream(&piece, n, off + n == len ? ahead : NULL);
		else
			err = bfly_msg_copy(&piece, n, off + n == len ? ahead : NULL);
		if (err)
			return err;
		if (off + n == len)
			break;
		bfly_msg_stream_fence(stream);
		if (bfly_should_stop())
			return -EINTR;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy_chunked);

/*
 * @run message by message, each copy with an access check of its own
 * (nothing prefetched): for a run whose buffers are not user memory from
 * end to end though each of its messages may be (an h-relation's list
 * needs only its own slots of a layout that may pass the end of the
 * address space). A streaming copy's error return fences itself.
 */
static int bfly_msg_copy_each(struct bfly_msg_run *run)
{
	u32 k;
	int err;

	for (k = 0; k < run->count; k++) {
		if (run->stream)
			err = bfly_msg_copy_stream(&run->msgs[k], run->len, NULL);
		else
			err = bfly_msg_copy(&run->msgs[k], run->len, NULL);
		if (err)
			return err;
		run->copied = k + 1;
	}
	return 0;
}

/**
 * bfly_msg_copy_run() - copy a run of messages of one length
 * @run: the messages, the buffers holding them; @run->copied is set to
 *	the messages that arrived
 *
 * One access check of each buffer and one user-access section for the
 * whole run, instead of one of each per message: for small messages they
 * cost as much as the copy. Buffers that fail the check (@run->bytes from
 * @run->bounds pass the end of user memory) go message by message, each
 * with its own check, as bfly_msg_copy() does. With cached stores each
 * copy prefetches the message @run->distance further on in @run->msgs
 * (past the listed ones, the last listed), as bfly_msg_copy() does its
 * @ahead; streaming runs (@run->stream)
 * prefetch nothing, take the vector registers once for the run where they
 * can, and leave the fence to the caller (an error return fences itself),
 * as bfly_msg_copy_stream(). The caller keeps the run short enough to go
 * without a reschedule point.
 *
 * Return: 0, or -EFAULT when a slot is not readable or writable user
 * memory: the messages before it have arrived, part of it may have been
 * written.
 */
int bfly_msg_copy_run(struct bfly_msg_run *run)
{
	u64 pf = min_t(u64, run->len, BFLY_MSG_PREFETCH_MAX);
	const struct bfly_msg *m;
	u32 k, ahead;

	run->copied = 0;
	if (!access_ok(run->bounds.dst, run->bytes) || !access_ok(run->bounds.src, run->bytes))
		return bfly_msg_copy_each(run);
	if (run->stream) {
#ifdef __x86_64__
		if (bfly_msg_run_lines_nt(run))
			return bfly_msg_copy_run_nt(run);
#endif
		return bfly_msg_copy_each(run);
	}
	if (!user_access_begin(run->bounds.src, run->bytes))
		return -EFAULT;
	/* run->copied is written once: a store per message costs under TCG */
	for (k = 0; k < run->count; k++) {
		m = &run->msgs[k];
		/* near the end, the last listed again: no branch around the prefetch */
		ahead = min_t(u32, k + run->distance, run->listed - 1);
		bfly_msg_prefetch(&run->msgs[ahead], pf);
		if (bfly_msg_copy_body(m->src, m->dst, run->len, false))
			goto efault;
	}
	user_access_end();
	run->copied = k;
	return 0;
efault:
	user_access_end();
	run->copied = k;
	return -EFAULT;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_copy_run);
