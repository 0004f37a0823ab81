// SPDX-License-Identifier: GPL-2.0
/*
 * The (N, d)-multibutterfly (lib/mbfly.c): N = 2^n rows, n + 1 columns of
 * N nodes, each splitter input wired to d up- and d down-neighbours from
 * the fabric's seed. It has no switch settings: it routes h-relations
 * with the multibutterfly paper's algorithm (lib/mbfly_route.c), nothing
 * else.
 */
#include "../compat.h"
#include "../topology.h"

/* Columns 0 .. n: the geometry's node stages. */
static u32 bfly_mbfly_columns(u32 n)
{
	return n + 1;
}

/*
 * Every node of columns 0 .. n - 1 has 2d out-edges; N terminal channels
 * enter column 0 and N leave column n. A path crosses n edges and its two
 * terminal channels; a node has 2d edges out and 2d in on average.
 */
static void bfly_mbfly_figures(const struct bfly_geometry *geo, struct bfly_figures *f)
{
	u64 n = geo->ports_log2;

	f->degree = 4 * geo->mbfly_d;
	f->diameter = n + 2;
	f->routers = 0;
	f->channels = 2 * (u64)geo->ports + 2 * (u64)geo->mbfly_d * geo->ports * n;
	f->bisection = 0;
}

const struct bfly_topology_ops bfly_mbfly_ops = {
	.name = "mbfly",
	.node_stages = bfly_mbfly_columns,
	.perm_method = BFLY_METHOD_NONE,
	.figures = bfly_mbfly_figures,
	.mbfly = true,
};
