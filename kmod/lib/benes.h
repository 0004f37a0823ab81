/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benes routing by the looping algorithm. See benes.c.
 */
#ifndef _BFLY_BENES_H
#define _BFLY_BENES_H

#include "compat.h"
#include "geometry.h"

size_t bfly_benes_workspace_size(const struct bfly_geometry *geo);
int bfly_benes_route(const struct bfly_geometry *geo, const u32 *perm,
		     unsigned long *matrix, void *work);

#endif /* _BFLY_BENES_H */
