// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of fabric families, indexed by &enum bfly_topology, and
 * what it gives every fabric: its name and its geometry (N = 2^n ports,
 * N/2 2x2 nodes per node stage, the family's number of node stages). A new
 * family is a file in topo/ with its &struct bfly_topology_ops, a value in
 * the uapi enum and an entry here.
 */
#include "compat.h"
#include "topology.h"

const struct bfly_topology_ops *const bfly_topologies[__BFLY_TOPO_MAX] = {
	[BFLY_TOPO_BUTTERFLY] = &bfly_butterfly_ops,
	[BFLY_TOPO_BFLY2] = &bfly_bfly2_ops,
	[BFLY_TOPO_BFLY_TWICE] = &bfly_bfly_twice_ops,
	[BFLY_TOPO_BENES] = &bfly_benes_ops,
};
EXPORT_SYMBOL_IF_KUNIT(bfly_topologies);

/**
 * bfly_topology_name() - the name of a topology
 * @topology: a topology value
 *
 * Return: its name, or NULL for a value that names no topology.
 */
const char *bfly_topology_name(enum bfly_topology topology)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(topology);

	return ops ? ops->name : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_topology_name);

/**
 * bfly_geometry_init() - validate a fabric request and compute its geometry
 * @geo: filled on success, untouched on failure
 * @topology: requested topology
 * @ports: requested number of ports N
 * @why: on failure, set to a short reason for the user (no trailing newline)
 *
 * Return: 0, or -EINVAL with @why set.
 */
int bfly_geometry_init(struct bfly_geometry *geo, enum bfly_topology topology,
		       u32 ports, const char **why)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(topology);
	u32 n;

	if (!ops) {
		*why = "unknown topology";
		return -EINVAL;
	}
	if (!is_power_of_2(ports)) {
		*why = "not a power of two";
		return -EINVAL;
	}
	n = ilog2(ports);
	if (n < BFLY_MIN_PORTS_LOG2) {
		*why = "fewer than 2 ports";
		return -EINVAL;
	}
	if (n > BFLY_MAX_PORTS_LOG2) {
		*why = "more than 2^20 ports";
		return -EINVAL;
	}

	geo->topology = topology;
	geo->ports_log2 = n;
	geo->ports = ports;
	geo->node_stages = ops->node_stages(n);
	geo->nodes_per_stage = ports / 2;
	geo->switches = (u64)geo->node_stages * geo->nodes_per_stage;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_geometry_init);
