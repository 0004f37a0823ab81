// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-flat (flattened butterfly): the k-ary n-fly (n >= 2) with
 * each row of switches one router (lib/flatfly.c). Its settings, trace
 * and routes are its k-ary n-fly's; its figures are the routers'.
 */
#include "../compat.h"
#include "../topology.h"

/*
 * N/k routers, each with k terminals and (k - 1)(n - 1) neighbours, and
 * a directed channel to each neighbour; a path takes the injection
 * channel, a hop for each digit that differs (n - 1 at most) and the
 * ejection channel. The bisection is the cut by the top digit of the
 * router label, below k/2 or not (even k): of each router's k - 1
 * channels in that digit, k/2 cross, so (N/k) k/2 directed channels.
 * Documentation/routing.rst compares it with the minimum.
 */
static void bfly_flatfly_figures(const struct bfly_geometry *geo, struct bfly_figures *f)
{
	const struct bfly_kfly *g = &geo->fly;

	f->routers = g->switches;
	f->degree = g->k + (g->k - 1) * (g->n - 1);
	f->diameter = g->n + 1;
	f->channels = (u64)g->switches * (g->n - 1) * (g->k - 1);
	f->bisection = g->k % 2 ? 0 : (u64)g->switches * (g->k / 2);
}

const struct bfly_topology_ops bfly_flatfly_ops = {
	.name = "flatfly",
	.port_map = true,
	.min_stages = 2,
	.perm_method = BFLY_METHOD_SELF_ROUTING,
	.figures = bfly_flatfly_figures,
	.routers = true,
};
