/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The set-matrix service: one path (lock, dead check, swap, event) for
 * every change of a switch matrix that is not a route.
 */
#ifndef _BFLY_MATRIX_H
#define _BFLY_MATRIX_H

#include <linux/types.h>

struct bfly_fabric;

/**
 * struct bfly_matrix_req - a new switch matrix, or changes to the current
 * @read_matrix: fills @matrix (@bytes, the fabric's matrix bytes) with the
 *	whole new matrix; returns 0 or an errno such as -EFAULT
 * @edit: changes @matrix, a copy of the current one, under the fabric's
 *	lock; must not fail or sleep for long
 * @publish: optional; called before the matrix changes and may refuse
 *	(an errno): nothing changes then
 * @ctx: the frontend's argument to the callbacks
 *
 * Exactly one of @read_matrix and @edit is given.
 */
struct bfly_matrix_req {
	int (*read_matrix)(void *ctx, unsigned long *matrix, size_t bytes);
	void (*edit)(void *ctx, unsigned long *matrix);
	int (*publish)(void *ctx);
	void *ctx;
};

/**
 * struct bfly_matrix_res - what a matrix change did
 * @generation: the matrix generation after the change
 * @why: with an error, a short reason for the user (netlink extack)
 */
struct bfly_matrix_res {
	u64 generation;
	const char *why;
};

int bfly_matrix_set(struct bfly_fabric *fab, const struct bfly_matrix_req *req,
		    struct bfly_matrix_res *res);

#endif /* _BFLY_MATRIX_H */
