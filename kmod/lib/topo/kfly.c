// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-fly: N = k^n ports, n node stages of N/k switches, each
 * k x k, wired as lib/kfly.c says. Permutations route by destination
 * digits; with k = 2 it is the butterfly.
 */
#include "../compat.h"
#include "../topology.h"

const struct bfly_topology_ops bfly_kfly_ops = {
	.name = "kfly",
	.port_map = true,
	.min_stages = 1,
	.perm_method = BFLY_METHOD_SELF_ROUTING,
	.figures = bfly_kfly_fabric_figures,
};
