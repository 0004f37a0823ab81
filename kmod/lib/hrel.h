/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h-relations in exactly h rounds: the degree of a message list and its
 * decomposition into partial permutations by bipartite edge colouring.
 * See hrel.c.
 */
#ifndef _BFLY_HREL_H
#define _BFLY_HREL_H

#include "compat.h"

/* BFLY_HREL_IDLE: a source with no message in a round, or a filler */
#include <uapi/linux/bfly.h>

/* Messages bfly_hrel_colour() takes at most: slot indices stay below 2^31 */
#define BFLY_HREL_MAX_MESSAGES BIT(28)

size_t bfly_hrel_degree_workspace_size(u32 ports);
int bfly_hrel_degree(u32 ports, u32 count, const u32 *src, const u32 *dst,
		     u32 *h, u32 *bad, void *work);
size_t bfly_hrel_workspace_size(u32 ports, u32 count, u32 h);
int bfly_hrel_colour(u32 ports, u32 count, const u32 *src, const u32 *dst,
		     u32 h, u32 *colour, void *work);
int bfly_hrel_round(u32 ports, u32 count, const u32 *src, const u32 *dst,
		    const u32 *colour, u32 c, u32 *perm, u32 *msg);

#endif /* _BFLY_HREL_H */
