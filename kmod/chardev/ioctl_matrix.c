// SPDX-License-Identifier: GPL-2.0
/*
 * ioctls that read or replace the switch matrix: GET_MATRIX, SET_MATRIX
 * (as a bit matrix or as port maps) and TRACE, served by core/matrix.c.
 *
 * A reader copies the matrix under the fabric's lock held for reading and
 * copies out that snapshot; a writer prepares the new matrix without the
 * lock and installs it with one pointer swap under the lock held for
 * writing. So a reader never sees half of an update, and no user memory
 * is touched while the lock is held.
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"
#include "core/matrix.h"
#include "lib/settings.h"

static int bfly_matrix_arg_check(const struct bfly_matrix *m,
				 const struct bfly_fabric *fab)
{
	bool port_map = m->flags & BFLY_MATRIX_PORT_MAP;

	if ((m->flags & ~BFLY_MATRIX_PORT_MAP) ||
	    memchr_inv(m->reserved, 0, sizeof(m->reserved)))
		return -EINVAL;
	if (m->matrix_bytes != bfly_settings_bytes(&fab->geo, port_map))
		return -EINVAL;
	return 0;
}

int bfly_ioctl_get_matrix(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	struct bfly_matrix m;
	const char *why;
	void *snap;
	u32 usize;
	int err;

	err = bfly_arg_in(&m, sizeof(m), BFLY_MATRIX_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_matrix_arg_check(&m, fab);
	if (err)
		return err;

	snap = bfly_matrix_get(fab, &mem, m.flags & BFLY_MATRIX_PORT_MAP, &m.generation,
			       &err, &why);
	if (snap && copy_to_user(u64_to_user_ptr(m.matrix_ptr), snap, m.matrix_bytes))
		err = -EFAULT;
	kvfree(snap);
	bfly_mem_release(&mem);
	if (err)
		return err;

	m.switches = fab->geo.switches;
	return bfly_arg_out(uarg, &m, sizeof(m), usize);
}

/* The ioctl's side of a matrix change: the user's struct and matrix. */
struct bfly_ioctl_matrix_ctx {
	struct bfly_matrix m;
	void __user *uarg;
	u32 usize;
};

static int bfly_ioctl_matrix_read(void *ctx, void *matrix, size_t bytes)
{
	struct bfly_ioctl_matrix_ctx *c = ctx;

	return copy_from_user(matrix, u64_to_user_ptr(c->m.matrix_ptr), bytes) ?
	       -EFAULT : 0;
}

/* The result structure must be writable before the matrix changes. */
static int bfly_ioctl_matrix_publish(void *ctx)
{
	struct bfly_ioctl_matrix_ctx *c = ctx;

	return bfly_arg_out(c->uarg, &c->m, sizeof(c->m), c->usize);
}

int bfly_ioctl_set_matrix(struct file *file, struct bfly_fabric *fab,
			  void __user *uarg)
{
	struct bfly_ioctl_matrix_ctx c = { .uarg = uarg };
	struct bfly_matrix_req req = {
		.read_matrix = bfly_ioctl_matrix_read,
		.publish = bfly_ioctl_matrix_publish,
		.ctx = &c,
	};
	struct bfly_matrix_res res = {};
	int err;

	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	err = bfly_arg_in(&c.m, sizeof(c.m), BFLY_MATRIX_SIZE_VER0, uarg, &c.usize);
	if (err)
		return err;
	err = bfly_matrix_arg_check(&c.m, fab);
	if (err)
		return err;
	req.port_map = c.m.flags & BFLY_MATRIX_PORT_MAP;
	c.m.switches = fab->geo.switches;
	err = bfly_matrix_set(fab, &req, &res);
	if (err)
		return err;
	/* Set: a failure now can only be the caller unmapping the struct. */
	c.m.generation = res.generation;
	bfly_arg_out(uarg, &c.m, sizeof(c.m), c.usize);
	return 0;
}

int bfly_ioctl_trace(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	struct bfly_trace t;
	u32 usize, *perm;
	int err;

	err = bfly_arg_in(&t, sizeof(t), BFLY_TRACE_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	if (t.flags || t.pad || memchr_inv(t.reserved, 0, sizeof(t.reserved)))
		return -EINVAL;
	if (t.ports != fab->geo.ports)
		return -EINVAL;

	perm = bfly_mem_alloc_array(&mem, t.ports, sizeof(*perm), false);
	if (!perm)
		return mem.err;
	err = bfly_matrix_trace(fab, &mem, perm, &t.generation);
	if (err)
		goto out;
	if (copy_to_user(u64_to_user_ptr(t.perm_ptr), perm,
			 array_size(t.ports, sizeof(*perm)))) {
		err = -EFAULT;
		goto out;
	}
	err = bfly_arg_out(uarg, &t, sizeof(t), usize);
out:
	kvfree(perm);
	bfly_mem_release(&mem);
	return err;
}
