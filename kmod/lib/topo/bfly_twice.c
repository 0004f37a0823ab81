// SPDX-License-Identifier: GPL-2.0
/*
 * One butterfly traversed twice: 2n node stages; each pass flips
 * n - 2 .. 0 and an identity edge stage joins the passes. Labels route.
 */
#include "../compat.h"
#include "../topology.h"
#include "../wiring.h"

static u32 bfly_bfly_twice_node_stages(u32 n)
{
	return 2 * n;
}

static int bfly_bfly_twice_edge_flip(u32 n, u32 edge)
{
	if (edge < n - 1)
		return n - 2 - edge;
	if (edge == n - 1)
		return BFLY_WIRING_IDENTITY;
	return n - 2 - (edge - n);
}

const struct bfly_topology_ops bfly_bfly_twice_ops = {
	.name = "bfly-twice",
	.node_stages = bfly_bfly_twice_node_stages,
	.edge_flip = bfly_bfly_twice_edge_flip,
	.perm_method = BFLY_METHOD_NONE,
	.sched_labels = true,
};
