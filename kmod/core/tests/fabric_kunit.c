// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: creating and deleting fabric instances through the module.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/kdev_t.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "core/core.h"
#include "core/route.h"

static void bfly_fabric_create_every_topology(struct kunit *test)
{
	static const u32 sizes[] = { 2, 4, 8, 1024, 1U << 20 };
	enum bfly_topology topo;
	struct bfly_fabric *fab;
	const char *why;
	char name[16];
	int i;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			/* an LCAN of d = 2: u = 2, or u = 1 for a (d/u)-ary tree */
			if (topo == BFLY_TOPO_MBFLY)
				fab = bfly_fabric_create_mbfly(sizes[i], 8, 1, &why);
			else
				fab = bfly_fabric_create_up(topo, 2,
							    !bfly_topology_find(topo)->lcan ? 0 :
							    topo == BFLY_TOPO_T_LCAN ? 1 : 2,
							    sizes[i], &why);
			/* A flattened butterfly has two routers at least. */
			if (topo == BFLY_TOPO_FLATFLY && sizes[i] < 4) {
				KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR_OR_ZERO(fab));
				continue;
			}
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
			KUNIT_EXPECT_EQ(test, topo, fab->geo.topology);
			KUNIT_EXPECT_EQ(test, sizes[i], fab->geo.ports);
			KUNIT_EXPECT_FALSE(test, fab->dead);
			KUNIT_EXPECT_EQ(test, fab->id, MINOR(fab->dev.devt));
			KUNIT_EXPECT_TRUE(test, device_is_registered(&fab->dev));
			snprintf(name, sizeof(name), "bfly%u", fab->id);
			KUNIT_EXPECT_STREQ(test, name, dev_name(&fab->dev));
			bfly_fabric_destroy(fab);
		}
	}
}

static void bfly_fabric_bad_requests(struct kunit *test)
{
	static const u32 bad_ports[] = { 0, 1, 3, 24, 1U << 21, U32_MAX };
	struct bfly_fabric *fab;
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_ports); i++) {
		why = NULL;
		fab = bfly_fabric_create(BFLY_TOPO_BENES, 2, bad_ports[i], &why);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, PTR_ERR_OR_ZERO(fab), "ports=%u",
				    bad_ports[i]);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
	fab = bfly_fabric_create(0, 2, 8, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR_OR_ZERO(fab));
	fab = bfly_fabric_create(__BFLY_TOPO_MAX, 2, 8, &why);
	KUNIT_EXPECT_EQ(test, -EINVAL, PTR_ERR_OR_ZERO(fab));
}

/* Ids are recycled: a deleted fabric's id is the next one handed out. */
static void bfly_fabric_ids_recycled(struct kunit *test)
{
	struct bfly_fabric *a, *b, *c;
	const char *why;
	u32 id_b;

	a = bfly_fabric_create(BFLY_TOPO_BUTTERFLY, 2, 4, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = bfly_fabric_create(BFLY_TOPO_BENES, 2, 4, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_NE(test, a->id, b->id);
	id_b = b->id;

	/* A refused request takes no id. */
	KUNIT_EXPECT_TRUE(test, IS_ERR(bfly_fabric_create(BFLY_TOPO_BENES, 2, 5, &why)));

	bfly_fabric_destroy(b);
	c = bfly_fabric_create(BFLY_TOPO_BFLY2, 2, 8, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	KUNIT_EXPECT_EQ(test, id_b, c->id);

	bfly_fabric_destroy(c);
	bfly_fabric_destroy(a);
}

/* A reference (as an open file holds) keeps a deleted fabric readable. */
static void bfly_fabric_outlives_delete(struct kunit *test)
{
	struct bfly_fabric *fab;
	const char *why;

	fab = bfly_fabric_create(BFLY_TOPO_BFLY_TWICE, 2, 16, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	bfly_fabric_get(fab);
	bfly_fabric_destroy(fab);
	KUNIT_EXPECT_TRUE(test, fab->dead);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&fab->dev));
	KUNIT_EXPECT_EQ(test, 8, fab->geo.node_stages);
	bfly_fabric_put(fab);
}

/*
 * The creator's own reference: a fabric-del of the new fabric's id, run
 * before fabric-new has built its reply, leaves it readable; the
 * creator's destroy then only drops its reference.
 */
static void bfly_fabric_deleted_under_creator(struct kunit *test)
{
	struct bfly_fabric *fab;
	const char *why;

	fab = bfly_fabric_create(BFLY_TOPO_BENES, 2, 16, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_delete(fab->id));
	KUNIT_EXPECT_EQ(test, -ENOENT, bfly_fabric_delete(fab->id));
	KUNIT_EXPECT_TRUE(test, fab->dead);
	KUNIT_EXPECT_EQ(test, 16, fab->geo.ports);
	KUNIT_EXPECT_STREQ(test, "benes", bfly_topology_name(fab->geo.topology));
	bfly_fabric_destroy(fab);
}

/* What the allocator took for @p, @size bytes asked for. */
static size_t bfly_taken(const void *p, size_t size)
{
	if (is_vmalloc_addr(p))
		return PAGE_ALIGN(size);
	return ksize(p);
}

/*
 * The charge of an allocation covers what the allocator took, and not
 * much more: the slab size exactly, vmalloc's pages plus at most its page
 * array and page tables, and never a power-of-two block for a buffer
 * that a block would waste more than an eighth of.
 */
static void bfly_mem_charge_is_taken(struct kunit *test)
{
	static const size_t sizes[] = {
		1, 100, 700, 4096, 8192, 8193, 12288, 65536, 65537,
		(39U << 19) / 8, 4U << 20, (4U << 20) + 1,
	};
	size_t taken, charged;
	void *p;
	int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		p = bfly_kvalloc(sizes[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		taken = bfly_taken(p, sizes[i]);
		charged = bfly_mem_footprint(sizes[i]);
		KUNIT_EXPECT_GE_MSG(test, charged, taken, "size %zu", sizes[i]);
		if (!is_vmalloc_addr(p) && sizes[i] <= KMALLOC_MAX_CACHE_SIZE)
			KUNIT_EXPECT_EQ_MSG(test, charged, taken, "size %zu", sizes[i]);
		KUNIT_EXPECT_LE_MSG(test, charged,
				    sizes[i] + sizes[i] / 8 + 3 * PAGE_SIZE + sizes[i] / 256,
				    "size %zu", sizes[i]);
		kvfree(p);
	}
}

static int bfly_route_ws_read(void *ctx, void *in, size_t bytes)
{
	u32 *perm = in, i;

	for (i = 0; i < bytes / sizeof(*perm); i++)
		perm[i] = i ^ 1;
	return 0;
}

/* A dry run of a fixed permutation. */
static int bfly_route_ws_route(struct bfly_fabric *fab)
{
	struct bfly_route_req req = { .dry_run = true, .read_input = bfly_route_ws_read };
	struct bfly_route_res res = {};
	int err = bfly_route(fab, &req, &res);

	bfly_route_done(&res);
	return err;
}

/*
 * A route's input, workspace and matrix stay with the fabric between
 * routes, charged to it; a route that finds them held by another uses
 * buffers of its own; a fabric keeps at most BFLY_ROUTE_WS_KEEP_MAX
 * bytes; dropped or deleted, the fabric holds its own memory only.
 */
static void bfly_route_ws_kept(struct kunit *test)
{
	struct bfly_route_ws held;
	struct bfly_fabric *fab;
	const char *why;
	u64 base, kept;

	fab = bfly_fabric_create(BFLY_TOPO_BENES, 2, 1024, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	base = atomic64_read(&fab->mem.used);
	KUNIT_EXPECT_EQ(test, base, fab->mem.base);
	KUNIT_EXPECT_EQ(test, 0, bfly_route_ws_route(fab));
	kept = atomic64_read(&fab->mem.kept);
	KUNIT_EXPECT_GT(test, kept, 0);
	KUNIT_EXPECT_EQ(test, base + kept, atomic64_read(&fab->mem.used));
	KUNIT_EXPECT_EQ(test, 0, bfly_route_ws_route(fab));
	KUNIT_EXPECT_EQ(test, kept, atomic64_read(&fab->mem.kept));

	/* Held by someone else: the route allocates and frees its own. */
	KUNIT_ASSERT_TRUE(test, bfly_fabric_route_ws_get(fab, &held));
	KUNIT_EXPECT_EQ(test, kept, held.charged);
	KUNIT_EXPECT_EQ(test, 0, atomic64_read(&fab->mem.kept));
	KUNIT_EXPECT_EQ(test, 0, bfly_route_ws_route(fab));
	KUNIT_EXPECT_EQ(test, base + kept, atomic64_read(&fab->mem.used));
	KUNIT_EXPECT_EQ(test, 0, bfly_fabric_route_ws_drop(fab));
	KUNIT_EXPECT_TRUE(test, bfly_fabric_route_ws_put(fab, &held));
	KUNIT_EXPECT_EQ(test, kept, atomic64_read(&fab->mem.kept));

	KUNIT_EXPECT_EQ(test, kept, bfly_fabric_route_ws_drop(fab));
	KUNIT_EXPECT_EQ(test, base, atomic64_read(&fab->mem.used));
	KUNIT_EXPECT_EQ(test, 0, bfly_route_ws_route(fab));
	KUNIT_EXPECT_EQ(test, kept, atomic64_read(&fab->mem.kept));
	bfly_fabric_destroy(fab);

	/* 2^18 ports: about 8.3 MB, more than a fabric keeps. */
	fab = bfly_fabric_create(BFLY_TOPO_BENES, 2, 1U << 18, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	base = atomic64_read(&fab->mem.used);
	KUNIT_EXPECT_EQ(test, 0, bfly_route_ws_route(fab));
	KUNIT_EXPECT_EQ(test, 0, atomic64_read(&fab->mem.kept));
	KUNIT_EXPECT_EQ(test, base, atomic64_read(&fab->mem.used));
	bfly_fabric_destroy(fab);
}

static struct kunit_case bfly_fabric_cases[] = {
	KUNIT_CASE(bfly_mem_charge_is_taken),
	KUNIT_CASE(bfly_route_ws_kept),
	KUNIT_CASE(bfly_fabric_create_every_topology),
	KUNIT_CASE(bfly_fabric_bad_requests),
	KUNIT_CASE(bfly_fabric_ids_recycled),
	KUNIT_CASE(bfly_fabric_outlives_delete),
	KUNIT_CASE(bfly_fabric_deleted_under_creator),
	{}
};

static struct kunit_suite bfly_fabric_suite = {
	.name = "bfly_fabric",
	.test_cases = bfly_fabric_cases,
};

kunit_test_suite(bfly_fabric_suite);
