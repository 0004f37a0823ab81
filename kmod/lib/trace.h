/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The permutation a switch matrix realizes. See trace.c.
 */
#ifndef _BFLY_TRACE_H
#define _BFLY_TRACE_H

#include "compat.h"
#include "geometry.h"

/*
 * Switch matrix layout (the uapi contract): one bit per node, stage-major,
 * bit index stage * (N/2) + node of a Linux bitmap (unsigned long words);
 * 0 = straight, 1 = cross.
 */
static inline u64 bfly_matrix_bit(const struct bfly_geometry *geo, u32 stage,
				  u32 node)
{
	return (u64)stage * geo->nodes_per_stage + node;
}

int bfly_trace(const struct bfly_geometry *geo, const unsigned long *matrix,
	       u32 *perm);
int bfly_perm_check(const struct bfly_geometry *geo, const u32 *perm,
		    unsigned long *seen);

#endif /* _BFLY_TRACE_H */
