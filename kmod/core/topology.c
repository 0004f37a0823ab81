// SPDX-License-Identifier: GPL-2.0
/*
 * Topology names and fabric geometry.
 *
 * N = 2^n ports; every node stage has N/2 2x2 nodes. The number of node
 * stages per topology (see Documentation/bfly.rst):
 *   butterfly   n
 *   bfly2       2n - 1  (two butterflies sharing their middle node stage)
 *   bfly-twice  2n      (one butterfly traversed twice)
 *   benes       2n - 1  (butterfly, then reverse butterfly, sharing a stage)
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "core.h"

static const char * const bfly_topology_names[__BFLY_TOPO_MAX] = {
	[BFLY_TOPO_BUTTERFLY] = "butterfly",
	[BFLY_TOPO_BFLY2] = "bfly2",
	[BFLY_TOPO_BFLY_TWICE] = "bfly-twice",
	[BFLY_TOPO_BENES] = "benes",
};

/**
 * bfly_topology_name() - the name of a topology
 * @topology: a topology value
 *
 * Return: its name, or NULL for a value that names no topology.
 */
const char *bfly_topology_name(enum bfly_topology topology)
{
	if ((unsigned int)topology >= ARRAY_SIZE(bfly_topology_names))
		return NULL;
	return bfly_topology_names[topology];
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
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(bfly_topology_names); i++) {
		if (bfly_topology_names[i] &&
		    sysfs_streq(name, bfly_topology_names[i])) {
			*topology = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_topology_parse);

static u32 bfly_node_stages(enum bfly_topology topology, u32 n)
{
	switch (topology) {
	case BFLY_TOPO_BUTTERFLY:
		return n;
	case BFLY_TOPO_BFLY2:
	case BFLY_TOPO_BENES:
		return 2 * n - 1;
	case BFLY_TOPO_BFLY_TWICE:
		return 2 * n;
	default:
		return 0;
	}
}

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
	u32 n;

	if (!bfly_topology_name(topology)) {
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
	geo->node_stages = bfly_node_stages(topology, n);
	geo->nodes_per_stage = ports / 2;
	geo->switches = (u64)geo->node_stages * geo->nodes_per_stage;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_geometry_init);
