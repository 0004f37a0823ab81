/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct bfly_geometry, shared by the module (bfly.h) and the algorithm
 * files, which also build as a native userspace library.
 */
#ifndef _BFLY_GEOMETRY_H
#define _BFLY_GEOMETRY_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "compat.h"
#endif
#include <uapi/linux/bfly.h>

/* The largest switch radix: a port map holds a port in a u8. */
#define BFLY_KFLY_MAX_K BFLY_MAX_RADIX

/* A port map's entry for an input port connected to no output */
#define BFLY_KFLY_UNSET BFLY_PORT_UNSET

/**
 * struct bfly_kfly - the shape of a k-ary n-fly
 * @k: the switch radix, 2 .. %BFLY_KFLY_MAX_K
 * @n: node stages, 1 or more
 * @ports: N = k^n terminals on each side, at most 2^%BFLY_MAX_PORTS_LOG2
 * @switches: switches per node stage, N / k
 * @pow: k^i for i = 0 .. n
 * @log2k: log2(k) when k is a power of two (digits are bit fields), else 0
 */
struct bfly_kfly {
	u32 k;
	u32 n;
	u32 ports;
	u32 switches;
	u32 pow[BFLY_MAX_PORTS_LOG2 + 1];
	u32 log2k;
};

/**
 * struct bfly_geometry - the shape of a fabric, derived from topology and N
 * @topology: one of &enum bfly_topology
 * @ports_log2: log2(N), or 0 when N is no power of two
 * @ports: N, the number of input (and of output) ports
 * @node_stages: number of node stages
 * @nodes_per_stage: nodes per node stage, N / @radix
 * @switches: node_stages * nodes_per_stage
 * @radix: k, the ports of a node on either side
 * @port_map: the settings are port maps, a byte per input port of every
 *	node (lib/kfly.c); otherwise a bit matrix of 2 x 2 nodes
 * @fly: the k-ary n-fly of this radix and N: the wiring of the port-map
 *	families; for the 2 x 2 families the butterfly of N ports
 * @lcan: an LCAN (cb-lcan, t-lcan, fattree; bfly_lcan_of() gives its
 *	shape): node stages are its levels, nodes per stage its level-0
 *	switches, port maps a byte per connector (a fat tree has none: it
 *	holds an unused bit per switch)
 * @lcan_kind: with @lcan, one of &enum bfly_lcan_kind
 * @up: with @lcan, u, the uppers of a switch (of level 0 on a fat tree)
 * @lcan_conns: with @lcan, the connectors of all switches
 * @mbfly: the multibutterfly: node stages are its log N + 1 columns of N
 *	nodes; its bit matrix, a bit per node, is unused (no settings)
 * @mbfly_d: with @mbfly, d, the up- (and down-) neighbours of an input
 * @mbfly_seed: with @mbfly, the seed of its wiring
 */
struct bfly_geometry {
	enum bfly_topology topology;
	u32 ports_log2;
	u32 ports;
	u32 node_stages;
	u32 nodes_per_stage;
	u64 switches;
	u32 radix;
	bool port_map;
	struct bfly_kfly fly;
	bool lcan;
	u32 lcan_kind;
	u32 up;
	u64 lcan_conns;
	bool mbfly;
	u32 mbfly_d;
	u64 mbfly_seed;
};

/*
 * Bytes of the settings as port maps, a byte per input port of each node
 * (of an LCAN, per connector of each switch).
 */
static inline size_t bfly_port_map_bytes(const struct bfly_geometry *geo)
{
	if (geo->lcan)
		return geo->port_map ? geo->lcan_conns : 0;
	return (size_t)geo->node_stages * geo->ports;
}

/* Bytes of the settings as a bit matrix (whole __u64 words). */
static inline size_t bfly_bit_matrix_bytes(const struct bfly_geometry *geo)
{
	return BFLY_MATRIX_BYTES(geo->switches);
}

/* Bytes of the settings as the fabric holds them: port maps or bits. */
static inline size_t bfly_matrix_bytes(const struct bfly_geometry *geo)
{
	return geo->port_map ? bfly_port_map_bytes(geo) : bfly_bit_matrix_bytes(geo);
}

/**
 * struct bfly_figures - the butterfly note's figures of a fabric
 * @degree: channels at a switch, or at a router
 * @diameter: most channels from an input to an output, terminals' included
 * @routers: routers of a direct fabric, else 0
 * @channels: channels in all
 * @bisection: fewest channels a halving cut crosses; 0 where not computed
 */
struct bfly_figures {
	u32 degree;
	u32 diameter;
	u32 routers;
	u64 channels;
	u64 bisection;
};

#endif /* _BFLY_GEOMETRY_H */
