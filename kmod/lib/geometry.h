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

/**
 * struct bfly_geometry - the shape of a fabric, derived from topology and N
 * @topology: one of &enum bfly_topology
 * @ports_log2: n = log2(N)
 * @ports: N, the number of input (and of output) ports
 * @node_stages: number of node stages
 * @nodes_per_stage: 2x2 nodes per node stage, N/2
 * @switches: node_stages * nodes_per_stage
 */
struct bfly_geometry {
	enum bfly_topology topology;
	u32 ports_log2;
	u32 ports;
	u32 node_stages;
	u32 nodes_per_stage;
	u64 switches;
};

/* Bytes of a switch matrix, as user space lays it out (whole __u64 words). */
static inline size_t bfly_matrix_bytes(const struct bfly_geometry *geo)
{
	return BFLY_MATRIX_BYTES(geo->switches);
}

#endif /* _BFLY_GEOMETRY_H */
