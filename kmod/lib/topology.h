/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The topology ops table: what each fabric family provides, and the one
 * table that registers the families by &enum bfly_topology.
 */
#ifndef _BFLY_TOPOLOGY_H
#define _BFLY_TOPOLOGY_H

#include "compat.h"
#include "geometry.h"

/**
 * struct bfly_topology_ops - one fabric family
 * @name: its name, as module parameters, netlink and the tools spell it
 * @node_stages: the number of node stages for N = 2^@n ports
 * @edge_flip: the wiring: which bit of the (n-1)-bit node label edge stage
 *	@edge (0 .. node_stages - 2) flips, or %BFLY_WIRING_IDENTITY for an
 *	identity edge stage. Trace, the fault walk, link loads and pictures
 *	all follow the links it gives.
 * @perm_method: how a permutation routes (%BFLY_METHOD_SELF_ROUTING or
 *	%BFLY_METHOD_LOOPING), or %BFLY_METHOD_NONE when the family routes
 *	labels only. Labels route on every family.
 * @sched_labels: all-to-all rounds route by labels (RLS paper); without
 *	it the rounds route as permutations by @perm_method
 */
struct bfly_topology_ops {
	const char *name;
	u32 (*node_stages)(u32 n);
	int (*edge_flip)(u32 n, u32 edge);
	u32 perm_method;
	bool sched_labels;
};

extern const struct bfly_topology_ops bfly_butterfly_ops;
extern const struct bfly_topology_ops bfly_bfly2_ops;
extern const struct bfly_topology_ops bfly_bfly_twice_ops;
extern const struct bfly_topology_ops bfly_benes_ops;

extern const struct bfly_topology_ops *const bfly_topologies[__BFLY_TOPO_MAX];

/**
 * bfly_topology_find() - the operations of a fabric family
 * @topology: one of &enum bfly_topology
 *
 * Inline: the algorithms ask it in their loops.
 *
 * Return: the family's operations, or NULL for a value that names none.
 */
static inline const struct bfly_topology_ops *bfly_topology_find(u32 topology)
{
	return topology < __BFLY_TOPO_MAX ? bfly_topologies[topology] : NULL;
}

const char *bfly_topology_name(enum bfly_topology topology);
int bfly_geometry_init(struct bfly_geometry *geo, enum bfly_topology topology,
		       u32 ports, const char **why);

#endif /* _BFLY_TOPOLOGY_H */
