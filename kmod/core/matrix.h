/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set-matrix service: one path (lock, dead check, swap, event) for
 * every change of a switch matrix that is not a route.
 */
#ifndef _BFLY_MATRIX_H
#define _BFLY_MATRIX_H

#include <linux/types.h>

struct bfly_fabric;
struct bfly_mem;

#include "lib/geometry.h"
#include "lib/settings.h"

/**
 * struct bfly_matrix_req - a new switch matrix, or changes to the current
 * @port_map: @read_matrix gives port maps, else a bit matrix (uapi
 *	%BFLY_MATRIX_PORT_MAP)
 * @read_matrix: fills @matrix (@bytes: bfly_settings_bytes() of that
 *	layout) with the whole new settings; returns 0 or an errno such as
 *	-EFAULT
 * @edit: changes @matrix, a copy of the current one in the fabric's
 *	layout, under the fabric's lock, with bfly_switch_apply() of changes
 *	bfly_switch_check() accepted; must not fail or sleep for long
 * @publish: optional; called before the matrix changes and may refuse
 *	(an errno): nothing changes then
 * @ctx: the frontend's argument to the callbacks
 *
 * Exactly one of @read_matrix and @edit is given.
 */
struct bfly_matrix_req {
	bool port_map;
	int (*read_matrix)(void *ctx, void *matrix, size_t bytes);
	void (*edit)(void *ctx, unsigned long *matrix);
	int (*publish)(void *ctx);
	void *ctx;
};

/**
 * struct bfly_switch_set - one node's new setting
 * @stage: its node stage
 * @node: the node in the stage
 * @state: 0 straight, 1 cross, when @map is NULL
 * @map: NULL, or @map_len bytes: the node's port map
 * @map_len: bytes at @map
 */
struct bfly_switch_set {
	u32 stage;
	u32 node;
	u32 state;
	const u8 *map;
	u32 map_len;
};

/**
 * struct bfly_matrix_res - what a matrix change did
 * @generation: the matrix generation after the change
 * @why: with an error, a short reason for the user (netlink extack)
 * @bad: with -EINVAL for an LCAN's settings, the byte at fault
 */
struct bfly_matrix_res {
	u64 generation;
	const char *why;
	struct bfly_settings_bad bad;
};

int bfly_matrix_set(struct bfly_fabric *fab, const struct bfly_matrix_req *req,
		    struct bfly_matrix_res *res);
int bfly_switch_check(const struct bfly_geometry *geo, const struct bfly_switch_set *sw,
		      const char **why);
void bfly_switch_apply(const struct bfly_geometry *geo, unsigned long *matrix,
		       const struct bfly_switch_set *sw);
void *bfly_matrix_get(struct bfly_fabric *fab, struct bfly_mem *m, bool port_map,
		      u64 *generation, int *err, const char **why);
int bfly_matrix_trace(struct bfly_fabric *fab, struct bfly_mem *m, u32 *perm,
		      u64 *generation);

#endif /* _BFLY_MATRIX_H */
