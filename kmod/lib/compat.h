/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bfly algorithm files (wiring, trace, selfroute, benes, linkload,
 * rls, schedule, msgcopy) need from their environment.
 *
 * The same .c files build into the kernel module and, natively, into a
 * userspace library for tests and benchmarks, the way the kernel shares its
 * lib/ code with tools/. In the kernel this header only pulls in kernel
 * headers; in userspace it supplies the few kernel types and helpers the
 * algorithm files use. The algorithm files allocate nothing, take no lock
 * and know nothing of ioctls: callers hand them their memory.
 */
#ifndef _BFLY_ALGO_COMPAT_H
#define _BFLY_ALGO_COMPAT_H

#ifdef __KERNEL__

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/prefetch.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/types.h>
#include <kunit/visibility.h>
#include <asm/byteorder.h>

#ifdef __BIG_ENDIAN
#define BFLY_BIG_ENDIAN 1
#else
#define BFLY_BIG_ENDIAN 0
#endif

/* Read 8 bytes at an 8-byte aligned address as a little-endian u64. */
static inline u64 bfly_load_le64(const u8 *p)
{
	return le64_to_cpup((const __le64 *)p);
}

/**
 * bfly_should_stop() - let long algorithm loops yield and notice kills
 *
 * Called every few thousand steps by the long loops of the algorithm files.
 *
 * Return: true when the calling task has a fatal signal pending; the
 * algorithm then gives up with -EINTR.
 */
static inline bool bfly_should_stop(void)
{
	cond_resched();
	return fatal_signal_pending(current);
}

/* Is a signal pending, or with @fatal_only a fatal one? */
static inline bool bfly_signal_pending(bool fatal_only)
{
	return fatal_only ? fatal_signal_pending(current) : signal_pending(current);
}

#else /* !__KERNEL__: native userspace build */

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;

#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U16_MAX
#define U16_MAX ((u16)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef BITS_PER_LONG
#define BITS_PER_LONG ((int)(8 * sizeof(long)))
#endif
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define min_t(type, a, b) ({			\
	type __a = (a);				\
	type __b = (b);				\
	__a < __b ? __a : __b;			\
})
#define max_t(type, a, b) ({			\
	type __a = (a);				\
	type __b = (b);				\
	__a > __b ? __a : __b;			\
})

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/* glibc's <sys/cdefs.h> defines __always_inline as the kernel does */
#ifndef __always_inline
#define __always_inline inline
#endif

/* nothing to export from a userspace library; a no-op declaration */
#define EXPORT_SYMBOL_IF_KUNIT(sym) static_assert(1, #sym)

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BFLY_BIG_ENDIAN 1
#else
#define BFLY_BIG_ENDIAN 0
#endif

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | BIT_MASK(nr);
	return old & BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* The kernel's ilog2() for n > 0: the index of the highest set bit */
#define ilog2(n) (63 - __builtin_clzll((unsigned long long)(n)))
#define hweight64(w) ((unsigned int)__builtin_popcountll(w))
#define hweight32(w) ((unsigned int)__builtin_popcount(w))

static inline void bitmap_zero(unsigned long *dst, unsigned long nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* Read 8 bytes at an 8-byte aligned address as a little-endian u64. */
static inline u64 bfly_load_le64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/*
 * User memory is the program's own memory natively (msgcopy.c): every
 * address is accessible and a user-access section is just a block.
 */
#define __user
#define __force
#define L1_CACHE_BYTES 64
#define access_ok(ptr, len) ((void)(ptr), (void)(len), true)
#define user_access_begin(ptr, len) access_ok(ptr, len)
#define user_access_end() do { } while (0)
/*
 * The kernel's versions jump to label on a fault, which a plain load or
 * store never takes (the native build passes -Wno-unused-label).
 */
#define unsafe_get_user(x, ptr, label) ((void)#label, (x) = *(ptr))
#define unsafe_put_user(x, ptr, label) ((void)#label, *(ptr) = (x))
/*
 * The x86-64 kernel's prefetches: prefetchnta for a read, prefetchw for a
 * write where the CPU has it (the build passes -mprfchw there), else
 * prefetcht0.
 */
#ifdef __x86_64__
#define prefetch(ptr) __builtin_prefetch(ptr, 0, 0)
#else
#define prefetch(ptr) __builtin_prefetch(ptr)
#endif
#define prefetchw(ptr) __builtin_prefetch(ptr, 1)

/* Userspace has no scheduler to yield to and no fatal signals to notice. */
static inline bool bfly_should_stop(void)
{
	return false;
}

#define bfly_signal_pending(fatal_only) ((void)(fatal_only), false)

static inline void cond_resched(void)
{
}

#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

#endif /* __KERNEL__ */

#endif /* _BFLY_ALGO_COMPAT_H */
