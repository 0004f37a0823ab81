// SPDX-License-Identifier: GPL-2.0
/*
 * Memory limits: how much kernel memory one fabric, and the module as a
 * whole, may hold at once.
 *
 * Charges are what the allocator really takes, not what was asked for:
 * bfly_mem_footprint() says how much that is for the way bfly_kvalloc()
 * allocates (slab objects rounded up to their cache's size; large buffers
 * in whole pages, with vmalloc's page array and page tables, since a
 * physically contiguous block would be rounded up to a power of two).
 *
 * Every fabric is charged for its own structure and switch matrix while it
 * exists, and every operation on it (a route, a trace, a batch, a matrix
 * copy, a netlink reply's link loads) for the buffers it allocates that
 * grow with the fabric or the request, from before it allocates them until
 * it has freed them (small fixed-size ones, such as a 1 KiB copy of the
 * fault list, are not counted). A fabric also stays charged for the route
 * workspace it keeps between routes (fabric.c), which gives way to any
 * charge that would not fit with it. A charge that would
 * take the fabric past fabric_mem_max, or all fabrics together past
 * module_mem_max, is refused: with -E2BIG when the request alone is larger
 * than the limit (it can never run), with -ENOMEM when other requests hold
 * the memory it needs (it may run later). Nothing is allocated then, so a
 * refused request changes nothing. Both limits can be changed at any time
 * through /sys/module/bfly/parameters; a lower limit applies to new
 * charges.
 *
 * The figures are read in /sys/class/bfly/bfly<id>/mem_bytes and
 * mem_peak_bytes for a fabric and in /sys/module/bfly/parameters/mem_bytes
 * and mem_peak_bytes for the module.
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "core.h"

/*
 * A large buffer comes from kvmalloc() when the power-of-two block it
 * would take wastes at most an eighth of its size; from vmalloc() else.
 */
static bool bfly_mem_block_fits(size_t size)
{
	return (PAGE_SIZE << get_order(size)) - size <= size / 8;
}

/* What vmalloc() takes for @size bytes: pages, page array, page tables. */
static size_t bfly_mem_vmalloc_footprint(size_t size)
{
	size_t pages = PAGE_ALIGN(size) >> PAGE_SHIFT;
	size_t array = pages * sizeof(struct page *);

	array = array > PAGE_SIZE ? PAGE_ALIGN(array) : kmalloc_size_roundup(array);
	return (pages << PAGE_SHIFT) + array +
	       (DIV_ROUND_UP(pages, PTRS_PER_PTE) + 1) * PAGE_SIZE;
}

/**
 * bfly_mem_footprint() - the memory bfly_kvalloc() takes for @size bytes
 * @size: bytes asked for
 *
 * Return: @size rounded up to its slab cache, or the pages vmalloc() maps
 * plus its page array and page tables; for a kvmalloc() that may come out
 * either way, the larger of the two.
 */
size_t bfly_mem_footprint(size_t size)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_size_roundup(size);
	if (bfly_mem_block_fits(size))
		return max_t(size_t, PAGE_SIZE << get_order(size),
			     bfly_mem_vmalloc_footprint(size));
	return bfly_mem_vmalloc_footprint(size);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mem_footprint);

/**
 * bfly_kvalloc() - allocate @size bytes as bfly_mem_footprint() counts them
 * @size: bytes, at least one
 * @gfp: GFP_KERNEL-based flags
 *
 * Return: the memory, to free with kvfree(), or NULL.
 */
void *bfly_kvalloc(size_t size, gfp_t gfp)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc(size, gfp);
	if (bfly_mem_block_fits(size))
		return kvmalloc(size, gfp);
	return __vmalloc(size, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kvalloc);

static unsigned long fabric_mem_max = 256UL << 20;
module_param_cb(fabric_mem_max, &bfly_param_ops_bytes, &fabric_mem_max, 0644);
MODULE_PARM_DESC(fabric_mem_max,
		 "kernel memory one fabric may hold at once: its structure, its matrix and the buffers of the requests running on it, in bytes, K, M or G (default 256M)");

static unsigned long module_mem_max = 1UL << 30;
module_param_cb(module_mem_max, &bfly_param_ops_bytes, &module_mem_max, 0644);
MODULE_PARM_DESC(module_mem_max,
		 "kernel memory all fabrics together may hold at once, in bytes, K, M or G (default 1G)");

static atomic64_t bfly_mem_used = ATOMIC64_INIT(0);
static atomic64_t bfly_mem_peak = ATOMIC64_INIT(0);

/* Read-only figures: the module's charged memory. */
module_param_cb(mem_bytes, &bfly_param_ops_figure, &bfly_mem_used, 0444);
MODULE_PARM_DESC(mem_bytes, "kernel memory the module's fabrics hold now (read only)");
module_param_cb(mem_peak_bytes, &bfly_param_ops_figure, &bfly_mem_peak, 0444);
MODULE_PARM_DESC(mem_peak_bytes, "most kernel memory the fabrics held at once (read only)");

static void bfly_mem_peak_update(atomic64_t *peak, s64 now)
{
	s64 old = atomic64_read(peak);

	while (now > old && !atomic64_try_cmpxchg(peak, &old, now))
		;
}

/* Add @bytes to @used unless that passes @max; -ENOMEM then. */
static int bfly_mem_add(atomic64_t *used, atomic64_t *peak, u64 bytes, u64 max)
{
	s64 now = atomic64_add_return(bytes, used);

	if (now > max) {
		atomic64_sub(bytes, used);
		return -ENOMEM;
	}
	bfly_mem_peak_update(peak, now);
	return 0;
}

/*
 * Charge @fab and the module for @bytes more, for a request that holds
 * @held already: -E2BIG when the request and the fabric's own memory alone
 * pass a limit, -ENOMEM when the memory of other requests leaves no room.
 */
static int bfly_mem_charge(struct bfly_fabric *fab, u64 bytes, u64 held)
{
	u64 fmax = READ_ONCE(fabric_mem_max), mmax = READ_ONCE(module_mem_max);
	u64 alone = fab->mem.base + held + bytes;
	int err;

	if (alone > fmax || alone > mmax)
		return -E2BIG;
	/* A kept route workspace gives way to a charge that would not fit. */
	err = bfly_mem_add(&fab->mem.used, &fab->mem.peak, bytes, fmax);
	if (err && bfly_fabric_route_ws_drop(fab))
		err = bfly_mem_add(&fab->mem.used, &fab->mem.peak, bytes, fmax);
	if (err)
		return err;
	err = bfly_mem_add(&bfly_mem_used, &bfly_mem_peak, bytes, mmax);
	if (err && bfly_fabrics_route_ws_drop())
		err = bfly_mem_add(&bfly_mem_used, &bfly_mem_peak, bytes, mmax);
	if (err)
		atomic64_sub(bytes, &fab->mem.used);
	return err;
}

static void bfly_mem_uncharge(struct bfly_fabric *fab, u64 bytes)
{
	atomic64_sub(bytes, &fab->mem.used);
	atomic64_sub(bytes, &bfly_mem_used);
}

/**
 * bfly_mem_charge_fabric() - charge a new fabric for its own memory
 * @fab: the fabric, its structure allocated
 * @bytes: its structure and switch matrix
 *
 * Return: 0; -E2BIG when @bytes pass fabric_mem_max or module_mem_max;
 * -ENOMEM when the other fabrics leave no room under module_mem_max.
 */
int bfly_mem_charge_fabric(struct bfly_fabric *fab, u64 bytes)
{
	int err;

	err = bfly_mem_charge(fab, bytes, 0);
	if (!err)
		fab->mem.base = bytes;
	return err;
}

/**
 * bfly_mem_uncharge_fabric() - give back a fabric's own memory
 * @fab: the fabric, about to be freed
 */
void bfly_mem_uncharge_fabric(struct bfly_fabric *fab)
{
	bfly_mem_uncharge(fab, fab->mem.base);
	fab->mem.base = 0;
}

/**
 * bfly_mem_alloc() - allocate for a request, charged to its fabric
 * @m: the request's memory account; a failed charge sets @m->err
 * @size: bytes to allocate
 * @zero: zero the memory
 *
 * Once an allocation of @m failed, every later one fails too, so a request
 * can allocate everything and check @m->err once.
 *
 * @m is charged bfly_mem_footprint(@size).
 *
 * Return: the memory (bfly_kvalloc(); free it with kvfree()), or NULL with
 * @m->err set: -E2BIG when the request can never fit under the limits,
 * -ENOMEM when other requests hold the memory or the kernel has none. The
 * charge lasts until bfly_mem_release().
 */
void *bfly_mem_alloc(struct bfly_mem *m, size_t size, bool zero)
{
	size_t taken = bfly_mem_footprint(size);
	void *p;
	int err;

	if (m->err)
		return NULL;
	err = bfly_mem_charge(m->fab, taken, m->charged);
	if (err) {
		m->err = err;
		return NULL;
	}
	/* Sizes come from users: a failure is their ENOMEM, not a log splat. */
	p = bfly_kvalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN | (zero ? __GFP_ZERO : 0));
	if (!p) {
		bfly_mem_uncharge(m->fab, taken);
		m->err = -ENOMEM;
		return NULL;
	}
	m->charged += taken;
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mem_alloc);

/**
 * bfly_mem_alloc_array() - bfly_mem_alloc() of @n elements of @size bytes
 * @m: the request's memory account
 * @n: number of elements
 * @size: bytes per element
 * @zero: zero the memory
 *
 * Return: as bfly_mem_alloc(); an overflowing size is -E2BIG.
 */
void *bfly_mem_alloc_array(struct bfly_mem *m, size_t n, size_t size, bool zero)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes)) {
		if (!m->err)
			m->err = -E2BIG;
		return NULL;
	}
	return bfly_mem_alloc(m, bytes, zero);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mem_alloc_array);

/**
 * bfly_mem_release() - end a request's charges
 * @m: the request's memory account; its allocations are freed already
 */
void bfly_mem_release(struct bfly_mem *m)
{
	if (m->charged)
		bfly_mem_uncharge(m->fab, m->charged);
	m->charged = 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mem_release);

/**
 * bfly_mem_why() - the reason a memory charge or allocation failed
 * @err: -E2BIG or -ENOMEM from the memory limits
 *
 * Return: a short reason for the user, or NULL for another error.
 */
const char *bfly_mem_why(int err)
{
	static const char * const why[] = {
		"memory: the request alone passes fabric_mem_max or module_mem_max",
		"memory: other requests hold the memory under fabric_mem_max or module_mem_max, or the kernel has none",
	};

	if (err == -E2BIG)
		return why[0];
	if (err == -ENOMEM)
		return why[1];
	return NULL;
}
