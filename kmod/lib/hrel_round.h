/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One round of an h-relation on a fabric of 2 x 2 nodes: the partial
 * permutation completed for the looping algorithm, or labelled for
 * self-routing.
 */
#ifndef _BFLY_HREL_ROUND_H
#define _BFLY_HREL_ROUND_H

#include "compat.h"
#include "geometry.h"

/* BFLY_HREL_IDLE (uapi): an input that sends nothing in a round */
#include <uapi/linux/bfly.h>

size_t bfly_hrel_complete_workspace_size(u32 ports);
int bfly_hrel_complete(u32 ports, const u32 *part, u32 *perm, void *work);
size_t bfly_hrel_exchange_workspace_size(u32 ports);
bool bfly_hrel_is_exchange(u32 ports, u32 count, const u32 *src, const u32 *dst, void *work);
void bfly_hrel_exchange_rounds(u32 ports, u32 count, const u32 *src, const u32 *dst,
			       u32 *round);
void bfly_hrel_exchange_listed_order(u32 ports, u32 *first, u32 *order);
int bfly_hrel_labels(const struct bfly_geometry *geo, const u32 *part, u64 *rng,
		     u64 *labels, unsigned long *active);

size_t bfly_hrel_choose_workspace_size(const struct bfly_geometry *geo);
int bfly_hrel_choose(const struct bfly_geometry *geo, const u32 *part, u64 *rng, u32 tries,
		     u64 *labels, unsigned long *active, u32 *sub, void *work);

#endif /* _BFLY_HREL_ROUND_H */
