// SPDX-License-Identifier: GPL-2.0
/*
 * The butterfly: n node stages; edge stage l flips node-label bit
 * n - 2 - l. Permutations route by destination-tag self-routing.
 */
#include "../compat.h"
#include "../topology.h"

static u32 bfly_butterfly_node_stages(u32 n)
{
	return n;
}

static int bfly_butterfly_edge_flip(u32 n, u32 edge)
{
	return n - 2 - edge;
}

const struct bfly_topology_ops bfly_butterfly_ops = {
	.name = "butterfly",
	.node_stages = bfly_butterfly_node_stages,
	.edge_flip = bfly_butterfly_edge_flip,
	.perm_method = BFLY_METHOD_SELF_ROUTING,
	.sched_labels = true,
	.figures = bfly_kfly_fabric_figures,
};
