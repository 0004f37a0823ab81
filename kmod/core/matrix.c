// SPDX-License-Identifier: GPL-2.0
/*
 * Setting a switch matrix, whole or switch by switch, for the ioctl and
 * the netlink family alike. The new matrix is built on a buffer of its
 * own and installed by one swap under the fabric's lock.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "core.h"
#include "matrix.h"

/**
 * bfly_matrix_set() - replace a fabric's switch matrix
 * @fab: the fabric, referenced by the caller
 * @req: the new matrix or the changes
 * @res: receives the generation, or the reason of a refusal
 *
 * Return: 0; -EINVAL for a whole matrix with bits set past the last
 * switch; -E2BIG or -ENOMEM (memory limits); -ENODEV (the fabric is
 * deleted); or the error of a callback. On error the matrix is unchanged.
 */
int bfly_matrix_set(struct bfly_fabric *fab, const struct bfly_matrix_req *req,
		    struct bfly_matrix_res *res)
{
	const struct bfly_geometry *geo = &fab->geo;
	size_t bytes = bfly_matrix_bytes(geo);
	struct bfly_mem mem = { .fab = fab };
	unsigned long *new;
	int err;

	new = bfly_mem_alloc(&mem, bytes, false);
	if (!new) {
		res->why = bfly_mem_why(mem.err);
		err = mem.err;
		goto out;
	}
	if (req->read_matrix) {
		err = req->read_matrix(req->ctx, new, bytes);
		if (err)
			goto out;
		/* Bits past the last switch must be zero. */
		if (find_next_bit(new, bytes * BITS_PER_BYTE, geo->switches) <
		    bytes * BITS_PER_BYTE) {
			res->why = "matrix: bits set past the last switch";
			err = -EINVAL;
			goto out;
		}
	}
	if (req->publish) {
		err = req->publish(req->ctx);
		if (err)
			goto out;
	}

	/* Read, modify and install under the lock: no change is lost. */
	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
		res->why = "id: the fabric was deleted meanwhile";
	} else {
		if (req->edit) {
			memcpy(new, fab->matrix, bytes);
			req->edit(req->ctx, new);
		}
		bfly_fabric_swap_matrix(fab, &new);
		res->generation = fab->generation;
	}
	up_write(&fab->lock);
out:
	kvfree(new);
	bfly_mem_release(&mem);
	return err;
}
