// SPDX-License-Identifier: GPL-2.0
/*
 * Least common ancestor networks (lib/lcan.c): CB-LCAN(d, u), T-LCAN(d, u)
 * and the d-ary fat tree. Their settings are set and traced; their pairs
 * and message sets route in network cycles (lib/lcan_cycles.c), not by
 * the staged fabrics' route.
 */
#include "../compat.h"
#include "../lcan.h"
#include "../topology.h"

/*
 * A switch of the widest kind has down + up connectors; a path climbs to
 * the top and back: a processor's wire each way and 2 (l - 1) between
 * levels. Channels count every wire, one each way on a connector: the N
 * processors' and every upper's below the top.
 */
static void bfly_lcan_figures(const struct bfly_geometry *geo, struct bfly_figures *f)
{
	struct bfly_lcan shape, *g = &shape;
	u32 i;

	bfly_lcan_of(geo, g);
	f->degree = 0;
	f->channels = 2 * (u64)g->ports;
	for (i = 0; i < g->levels; i++) {
		f->degree = max_t(u32, f->degree, bfly_lcan_conns(g, i));
		if (i + 1 < g->levels)
			f->channels += 2 * (u64)g->switches[i] * g->up[i];
	}
	f->diameter = 2 * g->levels;
	f->routers = 0;
	f->bisection = 0;
}

const struct bfly_topology_ops bfly_cb_lcan_ops = {
	.name = "cb-lcan",
	.port_map = true,
	.perm_method = BFLY_METHOD_NONE,
	.figures = bfly_lcan_figures,
	.lcan = true,
	.lcan_kind = BFLY_LCAN_CB,
};

const struct bfly_topology_ops bfly_t_lcan_ops = {
	.name = "t-lcan",
	.port_map = true,
	.perm_method = BFLY_METHOD_NONE,
	.figures = bfly_lcan_figures,
	.lcan = true,
	.lcan_kind = BFLY_LCAN_TREE,
};

const struct bfly_topology_ops bfly_fattree_ops = {
	.name = "fattree",
	.perm_method = BFLY_METHOD_NONE,
	.figures = bfly_lcan_figures,
	.lcan = true,
	.lcan_kind = BFLY_LCAN_FATTREE,
};
