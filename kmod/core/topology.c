// SPDX-License-Identifier: GPL-2.0
/*
 * Topology names and fabric geometry, from the topology ops table
 * (lib/topology.c): N = 2^n ports; every node stage has N/2 2x2 nodes; the
 * family gives the number of node stages.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "core.h"
#include "lib/topology.h"

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
 * bfly_topology_parse() - look a topology up by name
 * @name: the name; one trailing newline is ignored, as sysfs writes carry
 * @topology: where to store the topology
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int bfly_topology_parse(const char *name, enum bfly_topology *topology)
{
	const struct bfly_topology_ops *ops;
	u32 t;

	if (!name)
		return -EINVAL;
	for (t = 0; t < __BFLY_TOPO_MAX; t++) {
		ops = bfly_topology_find(t);
		if (ops && sysfs_streq(name, ops->name)) {
			*topology = t;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_topology_parse);

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
