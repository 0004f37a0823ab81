// SPDX-License-Identifier: GPL-2.0
/*
 * Topology names as module parameters and sysfs spell them, from the
 * topology ops table (lib/topology.c).
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "core.h"
#include "lib/topology.h"

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
