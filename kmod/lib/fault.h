/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Injected faults: stuck nodes and broken links. See fault.c.
 */
#ifndef _BFLY_FAULT_H
#define _BFLY_FAULT_H

#include "compat.h"
#include "geometry.h"

/**
 * struct bfly_fault - one injected fault
 * @kind: one of &enum bfly_fault_kind
 * @stage: the node stage of the stuck node, or the node stage the broken
 *	link leaves
 * @index: the node within @stage, or the link position leaving it
 * @state: for a stuck node, 0 (straight) or 1 (cross); 0 for a link
 */
struct bfly_fault {
	u32 kind;
	u32 stage;
	u32 index;
	u32 state;
};

/**
 * struct bfly_faults - the faults of one fabric
 * @count: entries used in @list
 * @list: the faults, in the order they were added; no two name the same
 *	node or link
 */
struct bfly_faults {
	u32 count;
	struct bfly_fault list[BFLY_MAX_FAULTS];
};

/**
 * enum bfly_walk_mode - what bfly_fault_walk() finds out
 * @BFLY_WALK_ROUTE: the packets a route, followed as routed, would have
 *	hit by a fault: those crossing a node stuck in the other state than
 *	the route wants, or a broken link
 * @BFLY_WALK_REAL: where packets really go: stuck nodes in their stuck
 *	state, packets on broken links lost
 */
enum bfly_walk_mode {
	BFLY_WALK_ROUTE,
	BFLY_WALK_REAL,
};

/**
 * struct bfly_fault_walk - the packets bfly_fault_walk() follows
 * @mode: one of &enum bfly_walk_mode
 * @labels: N labels of node_stages bits (each node sends a packet to the
 *	port its label bit names), or NULL to follow @matrix
 * @matrix: the switch matrix, without @labels
 * @active: the inputs that carry a packet (N bits), or NULL for all
 */
struct bfly_fault_walk {
	enum bfly_walk_mode mode;
	const u64 *labels;
	const unsigned long *matrix;
	const unsigned long *active;
};

int bfly_fault_check(const struct bfly_geometry *geo, const struct bfly_fault *f,
		     const char **why);
bool bfly_fault_same_place(const struct bfly_fault *a, const struct bfly_fault *b);
bool bfly_faults_have_stuck(const struct bfly_faults *faults);
u32 bfly_faults_stuck_unmet(const struct bfly_geometry *geo,
			    const struct bfly_faults *faults,
			    const unsigned long *matrix);
size_t bfly_fault_walk_workspace_size(const struct bfly_geometry *geo);
int bfly_fault_walk(const struct bfly_geometry *geo, const struct bfly_faults *faults,
		    const struct bfly_fault_walk *walk, unsigned long *hit, u32 *out,
		    void *work);

#endif /* _BFLY_FAULT_H */
