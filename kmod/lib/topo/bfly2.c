// SPDX-License-Identifier: GPL-2.0
/*
 * Butterfly-Butterfly: two butterflies sharing their middle node stage,
 * 2n - 1 node stages; the edge stages of each half flip n - 2 .. 0.
 * Labels route; a permutation has no self-routing here.
 */
#include "../compat.h"
#include "../topology.h"

static u32 bfly_bfly2_node_stages(u32 n)
{
	return 2 * n - 1;
}

static int bfly_bfly2_edge_flip(u32 n, u32 edge)
{
	return n - 2 - edge % (n - 1);
}

const struct bfly_topology_ops bfly_bfly2_ops = {
	.name = "bfly2",
	.node_stages = bfly_bfly2_node_stages,
	.edge_flip = bfly_bfly2_edge_flip,
	.perm_method = BFLY_METHOD_NONE,
	.sched_labels = true,
};
