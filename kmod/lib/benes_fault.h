/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benes routing that steers the looping algorithm's free choices towards
 * the states of stuck nodes. See benes_fault.c.
 */
#ifndef _BFLY_BENES_FAULT_H
#define _BFLY_BENES_FAULT_H

#include "compat.h"
#include "fault.h"
#include "geometry.h"

size_t bfly_benes_fault_workspace_size(const struct bfly_geometry *geo);
int bfly_benes_route_stuck(const struct bfly_geometry *geo, const u32 *perm,
			   const struct bfly_fault *faults, u32 nfaults,
			   unsigned long *matrix, void *work, u32 *unmet);

#endif /* _BFLY_BENES_FAULT_H */
