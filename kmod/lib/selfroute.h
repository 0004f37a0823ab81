/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Label self-routing with internal-conflict detection, and the butterfly
 * conflict-window test. See selfroute.c.
 */
#ifndef _BFLY_SELFROUTE_H
#define _BFLY_SELFROUTE_H

#include "compat.h"
#include "geometry.h"

/*
 * struct bfly_conflict (one conflict) and BFLY_NO_CONFLICT come from the
 * uapi header, so a conflict list can be copied to user space as it is.
 */

/**
 * struct bfly_conflicts - where self-routing reports its conflicts
 * @list: caller's array of @capacity &struct bfly_conflict (may be NULL
 *	if @capacity is 0), filled with the first @capacity conflicts in
 *	stage order, then node order
 * @capacity: entries in @list
 * @count: out: total number of conflicts, even beyond @capacity
 * @first_stage: out: node stage of the first conflict, or
 *	%BFLY_NO_CONFLICT
 */
struct bfly_conflicts {
	struct bfly_conflict *list;
	u32 capacity;
	u32 count;
	u32 first_stage;
};

size_t bfly_selfroute_workspace_size(const struct bfly_geometry *geo);
int bfly_selfroute_labels(const struct bfly_geometry *geo, const u64 *labels,
			  unsigned long *matrix, u32 *delivered,
			  struct bfly_conflicts *conflicts, void *work);
int bfly_selfroute_dest(const struct bfly_geometry *geo, const u32 *perm,
			unsigned long *matrix, u32 *delivered,
			struct bfly_conflicts *conflicts, void *work);
u32 bfly_window_first_conflict(const struct bfly_geometry *geo,
			       const u32 *perm, unsigned long *seen);

#endif /* _BFLY_SELFROUTE_H */
