// SPDX-License-Identifier: GPL-2.0
/*
 * The Benes network: a butterfly, then a reverse butterfly sharing its
 * middle node stage, 2n - 1 node stages; edge stages flip n - 2 .. 0,
 * then 0 .. n - 2. Permutations route by the looping algorithm.
 */
#include "../compat.h"
#include "../topology.h"

static u32 bfly_benes_node_stages(u32 n)
{
	return 2 * n - 1;
}

static int bfly_benes_edge_flip(u32 n, u32 edge)
{
	if (edge < n - 1)
		return n - 2 - edge;
	return edge - (n - 1);
}

const struct bfly_topology_ops bfly_benes_ops = {
	.name = "benes",
	.node_stages = bfly_benes_node_stages,
	.edge_flip = bfly_benes_edge_flip,
	.perm_method = BFLY_METHOD_LOOPING,
	.sched_labels = false,
};
