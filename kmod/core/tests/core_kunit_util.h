/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the core's KUnit suites share: fabrics deleted when the test
 * ends, and message lists read from kernel memory.
 */
#ifndef BFLY_CORE_KUNIT_UTIL_H
#define BFLY_CORE_KUNIT_UTIL_H

#include <kunit/test.h>
#include <linux/string.h>

#include "core/core.h"

static inline void bfly_kunit_fabric_destroy(void *fab)
{
	bfly_fabric_destroy(fab);
}

/* A fabric of @topology deleted when the test ends (@up: an LCAN's uppers). */
static inline struct bfly_fabric *bfly_kunit_fabric(struct kunit *test,
						    enum bfly_topology topology,
						    u32 radix, u32 up, u32 ports)
{
	struct bfly_fabric *fab;
	const char *why;

	fab = bfly_fabric_create_up(topology, radix, up, ports, &why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fab);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, bfly_kunit_fabric_destroy, fab));
	return fab;
}

/* A service's read_msgs: @count messages at @ctx, kernel memory. */
static inline int bfly_kunit_read_msgs(void *ctx, struct bfly_msgset_msg *msgs, u32 count)
{
	memcpy(msgs, ctx, count * sizeof(*msgs));
	return 0;
}

/* An h-relation's read_msgs: messages @first .. @first + @count - 1 at @ctx. */
static inline int bfly_kunit_read_msgs_at(void *ctx, struct bfly_msgset_msg *msgs, u32 first,
					  u32 count)
{
	memcpy(msgs, (struct bfly_msgset_msg *)ctx + first, count * sizeof(*msgs));
	return 0;
}

#endif /* BFLY_CORE_KUNIT_UTIL_H */
