/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link loads and the maximum link load. See linkload.c.
 */
#ifndef _BFLY_LINKLOAD_H
#define _BFLY_LINKLOAD_H

#include "compat.h"
#include "geometry.h"

size_t bfly_linkload_workspace_size(const struct bfly_geometry *geo);
int bfly_linkload_labels(const struct bfly_geometry *geo, const u64 *labels,
			 const unsigned long *active, u32 *load,
			 u32 *stage_max, u32 *mll, void *work);
int bfly_linkload_matrix(const struct bfly_geometry *geo,
			 const unsigned long *matrix,
			 const unsigned long *active, u32 *load,
			 u32 *stage_max, u32 *mll, void *work);

#endif /* _BFLY_LINKLOAD_H */
