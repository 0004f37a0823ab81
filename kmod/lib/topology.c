// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of fabric families, indexed by &enum bfly_topology. A new
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
