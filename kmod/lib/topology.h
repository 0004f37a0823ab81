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
 * @port_map: k x k switches set by port maps, wired as the k-ary n-fly
 *	(lib/kfly.c), the radix chosen at creation; without it, 2 x 2 nodes
 *	set by a bit matrix and wired by @edge_flip
 * @min_stages: with @port_map, the fewest node stages the family has
 * @node_stages: without @port_map, the number of node stages for N = 2^@n
 *	ports
 * @edge_flip: without @port_map, the wiring: which bit of the (n-1)-bit
 *	node label edge stage @edge (0 .. node_stages - 2) flips, or
 *	%BFLY_WIRING_IDENTITY for an identity edge stage. Trace, the fault
 *	walk, link loads and pictures all follow the links it gives.
 * @perm_method: how a permutation routes (%BFLY_METHOD_SELF_ROUTING or
 *	%BFLY_METHOD_LOOPING), or %BFLY_METHOD_NONE when the family routes
 *	labels only. Labels route on every family.
 * @sched_labels: all-to-all rounds route by labels (RLS paper); without
 *	it the rounds route as permutations by @perm_method
 * @figures: the family's figures (bfly_figures()); NULL for the generic
 *	ones of a 2 x 2 indirect fabric, with no bisection computed
 * @routers: the rows of switches are routers of a direct network: an
 *	all-to-all batch runs on the routers (lib/flatfly.c)
 * @lcan: a least common ancestor network (lib/lcan.c) of @lcan_kind:
 *	its shape comes from the radix d, the uppers u and N
 * @lcan_kind: with @lcan, one of &enum bfly_lcan_kind
 * @mbfly: the multibutterfly (lib/mbfly.c): d and a seed at creation, no
 *	switch settings, h-relations only
 */
struct bfly_topology_ops {
	const char *name;
	bool port_map;
	u32 min_stages;
	u32 (*node_stages)(u32 n);
	int (*edge_flip)(u32 n, u32 edge);
	u32 perm_method;
	bool sched_labels;
	void (*figures)(const struct bfly_geometry *geo, struct bfly_figures *f);
	bool routers;
	bool lcan;
	u32 lcan_kind;
	bool mbfly;
};

extern const struct bfly_topology_ops bfly_butterfly_ops;
extern const struct bfly_topology_ops bfly_bfly2_ops;
extern const struct bfly_topology_ops bfly_bfly_twice_ops;
extern const struct bfly_topology_ops bfly_benes_ops;
extern const struct bfly_topology_ops bfly_kfly_ops;
extern const struct bfly_topology_ops bfly_flatfly_ops;
extern const struct bfly_topology_ops bfly_cb_lcan_ops;
extern const struct bfly_topology_ops bfly_t_lcan_ops;
extern const struct bfly_topology_ops bfly_fattree_ops;
extern const struct bfly_topology_ops bfly_mbfly_ops;

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

/* A family of 2 x 2 nodes set by a bit matrix (not port maps, an LCAN or mbfly). */
static inline bool bfly_topology_2x2(const struct bfly_topology_ops *ops)
{
	return ops->node_stages && !ops->mbfly;
}

const char *bfly_topology_name(enum bfly_topology topology);
int bfly_geometry_init_up(struct bfly_geometry *geo, enum bfly_topology topology,
			  u32 radix, u32 up, u32 ports, const char **why);

/* A fabric without uppers: every family but the LCANs. */
static inline int bfly_geometry_init(struct bfly_geometry *geo, enum bfly_topology topology,
				     u32 radix, u32 ports, const char **why)
{
	return bfly_geometry_init_up(geo, topology, radix, 0, ports, why);
}

int bfly_geometry_init_mbfly(struct bfly_geometry *geo, u32 ports, u32 d, u64 seed,
			     const char **why);
void bfly_figures(const struct bfly_geometry *geo, struct bfly_figures *f);
void bfly_kfly_fabric_figures(const struct bfly_geometry *geo, struct bfly_figures *f);

#endif /* _BFLY_TOPOLOGY_H */
