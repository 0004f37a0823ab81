// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of fabric families, indexed by &enum bfly_topology, and
 * what it gives every fabric: its name, its geometry and its figures. A
 * 2 x 2 family has N = 2^n ports, N/2 nodes per node stage and its own
 * number of node stages; a port-map family is a k-ary n-fly: N = k^n, n
 * node stages of N/k k x k switches. A new family is a file in topo/ with
 * its &struct bfly_topology_ops, a value in the uapi enum and an entry
 * here.
 */
#include "compat.h"
#include "kfly.h"
#include "lcan.h"
#include "mbfly.h"
#include "topology.h"

const struct bfly_topology_ops *const bfly_topologies[__BFLY_TOPO_MAX] = {
	[BFLY_TOPO_BUTTERFLY] = &bfly_butterfly_ops,
	[BFLY_TOPO_BFLY2] = &bfly_bfly2_ops,
	[BFLY_TOPO_BFLY_TWICE] = &bfly_bfly_twice_ops,
	[BFLY_TOPO_BENES] = &bfly_benes_ops,
	[BFLY_TOPO_KFLY] = &bfly_kfly_ops,
	[BFLY_TOPO_FLATFLY] = &bfly_flatfly_ops,
	[BFLY_TOPO_CB_LCAN] = &bfly_cb_lcan_ops,
	[BFLY_TOPO_T_LCAN] = &bfly_t_lcan_ops,
	[BFLY_TOPO_FATTREE] = &bfly_fattree_ops,
	[BFLY_TOPO_MBFLY] = &bfly_mbfly_ops,
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

/* A port-map family: the k-ary n-fly of @radix and @ports. */
static int bfly_geometry_kfly(struct bfly_geometry *geo, const struct bfly_topology_ops *ops,
			      u32 radix, u32 ports, const char **why)
{
	struct bfly_kfly fly;
	int err;

	err = bfly_kfly_init(&fly, radix, ports, why);
	if (err)
		return err;
	if (fly.n < ops->min_stages) {
		*why = "ports: a flattened butterfly needs k^2 ports at least";
		return -EINVAL;
	}
	geo->fly = fly;
	geo->radix = radix;
	geo->port_map = true;
	geo->lcan = false;
	geo->mbfly = false;
	geo->ports_log2 = is_power_of_2(ports) ? ilog2(ports) : 0;
	geo->ports = ports;
	geo->node_stages = fly.n;
	geo->nodes_per_stage = fly.switches;
	geo->switches = (u64)fly.n * fly.switches;
	return 0;
}

/* An LCAN of @d downers, @up uppers and N = @ports. */
static int bfly_geometry_lcan(struct bfly_geometry *geo, const struct bfly_topology_ops *ops,
			      u32 d, u32 up, u32 ports, const char **why)
{
	struct bfly_lcan g;
	u32 i;
	int err;

	if (!up) {
		*why = "up: missing: an LCAN's switches have u uppers (1 to 64)";
		return -EINVAL;
	}
	err = bfly_lcan_init(&g, ops->lcan_kind, d, up, ports, why);
	if (err)
		return err;
	memset(geo, 0, sizeof(*geo));
	geo->lcan = true;
	geo->lcan_kind = g.kind;
	geo->up = up;
	geo->lcan_conns = g.first_conn[g.levels];
	geo->port_map = g.kind != BFLY_LCAN_FATTREE;
	geo->radix = d;
	geo->ports_log2 = is_power_of_2(ports) ? ilog2(ports) : 0;
	geo->ports = ports;
	geo->node_stages = g.levels;
	geo->nodes_per_stage = g.switches[0];
	for (i = 0; i < g.levels; i++)
		geo->switches += g.switches[i];
	return 0;
}

/**
 * bfly_geometry_init_up() - validate a fabric request and compute its geometry
 * @geo: filled on success, untouched on failure
 * @topology: requested topology
 * @radix: requested switch radix k: 2 for the 2 x 2 families; d, the
 *	downers of a switch, on an LCAN
 * @up: on an LCAN, u, the uppers of a switch; 0 on the other families
 * @ports: requested number of ports N
 * @why: on failure, set to a short reason for the user (no trailing newline)
 *
 * Return: 0, or -EINVAL with @why set.
 */
int bfly_geometry_init_up(struct bfly_geometry *geo, enum bfly_topology topology,
			  u32 radix, u32 up, u32 ports, const char **why)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(topology);
	struct bfly_geometry g;
	u32 n;
	int err;

	if (!ops) {
		*why = "unknown topology";
		return -EINVAL;
	}
	if (ops->mbfly) {
		*why = "topology: a multibutterfly is created with d and a seed";
		return -EINVAL;
	}
	if (ops->lcan) {
		err = bfly_geometry_lcan(&g, ops, radix, up, ports, why);
		if (!err) {
			g.topology = topology;
			*geo = g;
		}
		return err;
	}
	if (up) {
		*why = "up: only an LCAN's switches have uppers";
		return -EINVAL;
	}
	if (ops->port_map) {
		geo->topology = topology;
		return bfly_geometry_kfly(geo, ops, radix, ports, why);
	}
	if (radix != 2) {
		*why = "radix: the switches of this topology are 2 x 2";
		return -EINVAL;
	}
	if (!is_power_of_2(ports)) {
		*why = "ports: not a power of two";
		return -EINVAL;
	}
	n = ilog2(ports);
	if (n < BFLY_MIN_PORTS_LOG2) {
		*why = "ports: fewer than 2 ports";
		return -EINVAL;
	}
	if (n > BFLY_MAX_PORTS_LOG2) {
		*why = "ports: more than 2^20 ports";
		return -EINVAL;
	}

	/* The butterfly of N ports: cannot fail for these N. */
	bfly_kfly_init(&geo->fly, 2, ports, why);
	geo->topology = topology;
	geo->radix = 2;
	geo->port_map = false;
	geo->lcan = false;
	geo->mbfly = false;
	geo->ports_log2 = n;
	geo->ports = ports;
	geo->node_stages = ops->node_stages(n);
	geo->nodes_per_stage = ports / 2;
	geo->switches = (u64)geo->node_stages * geo->nodes_per_stage;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_geometry_init_up);

/**
 * bfly_geometry_init_mbfly() - validate a multibutterfly and compute its geometry
 * @geo: filled on success, untouched on failure
 * @ports: N, a power of two from 2 to 2^%BFLY_MBFLY_MAX_LOG
 * @d: up- (and down-) neighbours of a splitter input, 1 to
 *	%BFLY_MBFLY_MAX_D
 * @seed: the wiring's seed (the caller picks one for 0)
 * @why: on failure, a short reason starting with the field at fault
 *
 * Return: 0, or -EINVAL with @why set.
 */
int bfly_geometry_init_mbfly(struct bfly_geometry *geo, u32 ports, u32 d, u64 seed,
			     const char **why)
{
	struct bfly_mbfly g;
	int err;

	err = bfly_mbfly_init(&g, ports, d, seed, why);
	if (err) {
		if (d < 1 || d > BFLY_MBFLY_MAX_D)
			*why = "d: a multibutterfly's d is 1 to 64";
		else
			*why = "ports: a multibutterfly has N = 2^n ports, 2 to 2^20";
		return err;
	}
	memset(geo, 0, sizeof(*geo));
	bfly_kfly_init(&geo->fly, 2, ports, why);
	geo->topology = BFLY_TOPO_MBFLY;
	geo->radix = 2;
	geo->ports_log2 = g.log;
	geo->ports = ports;
	geo->node_stages = g.log + 1;
	geo->nodes_per_stage = ports;
	geo->switches = (u64)geo->node_stages * ports;
	geo->mbfly = true;
	geo->mbfly_d = d;
	geo->mbfly_seed = seed;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_geometry_init_mbfly);

/**
 * bfly_kfly_fabric_figures() - the figures of a fabric wired as its k-ary
 *	n-fly (the butterfly, kfly): bfly_kfly_figures() of @geo->fly
 * @geo: the geometry
 * @f: receives the figures
 */
void bfly_kfly_fabric_figures(const struct bfly_geometry *geo, struct bfly_figures *f)
{
	struct bfly_kfly_figures k;

	bfly_kfly_figures(&geo->fly, &k);
	f->degree = k.degree;
	f->diameter = k.diameter;
	f->routers = 0;
	f->channels = k.channels;
	f->bisection = k.half_cut;
}

/**
 * bfly_figures() - the figures of a fabric (&struct bfly_figures)
 * @geo: its geometry
 * @f: receives them
 *
 * A 2 x 2 indirect fabric without figures of its own has N channels into
 * its first node stage, N between each pair of node stages and N out of
 * the last, nodes of degree 4, paths of node_stages + 1 channels, and no
 * bisection computed.
 */
void bfly_figures(const struct bfly_geometry *geo, struct bfly_figures *f)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);

	if (ops && ops->figures) {
		ops->figures(geo, f);
		return;
	}
	f->degree = 4;
	f->diameter = geo->node_stages + 1;
	f->routers = 0;
	f->channels = (u64)(geo->node_stages + 1) * geo->ports;
	f->bisection = 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_figures);
