// SPDX-License-Identifier: GPL-2.0
/*
 * ioctls that read or replace the switch matrix: GET_MATRIX, SET_MATRIX
 * and TRACE.
 *
 * A reader copies the matrix under the fabric's lock held for reading and
 * works on or copies out that snapshot; a writer prepares the new matrix
 * without the lock and installs it with one pointer swap under the lock
 * held for writing. So a reader never sees half of an update, and no user
 * memory is touched while the lock is held.
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"
#include "lib/trace.h"

static int bfly_matrix_arg_check(const struct bfly_matrix *m,
				 const struct bfly_fabric *fab)
{
	if (m->flags || memchr_inv(m->reserved, 0, sizeof(m->reserved)))
		return -EINVAL;
	if (m->matrix_bytes != bfly_matrix_bytes(&fab->geo))
		return -EINVAL;
	return 0;
}

int bfly_ioctl_get_matrix(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	struct bfly_matrix m;
	unsigned long *snap;
	u32 usize;
	int err;

	err = bfly_arg_in(&m, sizeof(m), BFLY_MATRIX_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_matrix_arg_check(&m, fab);
	if (err)
		return err;

	snap = bfly_fabric_matrix_snapshot(fab, &mem, &m.generation, &err);
	if (snap && copy_to_user(u64_to_user_ptr(m.matrix_ptr), snap, m.matrix_bytes))
		err = -EFAULT;
	kvfree(snap);
	bfly_mem_release(&mem);
	if (err)
		return err;

	m.switches = fab->geo.switches;
	return bfly_arg_out(uarg, &m, sizeof(m), usize);
}

int bfly_ioctl_set_matrix(struct file *file, struct bfly_fabric *fab,
			  void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	u64 bits = fab->geo.switches;
	unsigned long *new;
	struct bfly_matrix m;
	u32 usize;
	int err;

	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	err = bfly_arg_in(&m, sizeof(m), BFLY_MATRIX_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_matrix_arg_check(&m, fab);
	if (err)
		return err;

	new = bfly_mem_alloc(&mem, m.matrix_bytes, false);
	if (!new)
		return mem.err;
	if (copy_from_user(new, u64_to_user_ptr(m.matrix_ptr), m.matrix_bytes)) {
		err = -EFAULT;
		goto out;
	}
	/* Bits past the last node must be zero. */
	if (find_next_bit(new, m.matrix_bytes * BITS_PER_BYTE, bits) <
	    m.matrix_bytes * BITS_PER_BYTE) {
		err = -EINVAL;
		goto out;
	}

	/*
	 * Write the result structure once before the swap: an argument the
	 * caller cannot write (read-only memory) must fail with -EFAULT
	 * before the matrix changes, not after ("on error the matrix is
	 * unchanged"; found by tests/e2e/fuzz-ioctl). Once the swap is done
	 * the call has succeeded: a second write failing now can only be the
	 * caller unmapping the structure meanwhile, and is not reported.
	 */
	m.switches = bits;
	err = bfly_arg_out(uarg, &m, sizeof(m), usize);
	if (err)
		goto out;
	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
	} else {
		bfly_fabric_swap_matrix(fab, &new);
		m.generation = fab->generation;
	}
	up_write(&fab->lock);
	if (!err)
		bfly_arg_out(uarg, &m, sizeof(m), usize);
out:
	kvfree(new);
	bfly_mem_release(&mem);
	return err;
}

/* Where packets go: the matrix as set, or as the faults make it act. */
static int bfly_trace_faulty(struct bfly_fabric *fab, struct bfly_mem *mem,
			     const unsigned long *matrix, u32 *perm)
{
	struct bfly_fault_walk walk = { .mode = BFLY_WALK_REAL, .matrix = matrix };
	struct bfly_faults *faults;
	void *work;
	int err;

	faults = bfly_fabric_faults_snapshot(fab, &err);
	if (!faults)
		return err ?: bfly_trace(&fab->geo, matrix, perm);
	work = bfly_mem_alloc(mem, bfly_fault_walk_workspace_size(&fab->geo), false);
	if (work)
		err = bfly_fault_walk(&fab->geo, faults, &walk, NULL, perm, work);
	else
		err = mem->err;
	kvfree(work);
	kfree(faults);
	return err < 0 ? err : 0;
}

int bfly_ioctl_trace(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	unsigned long *snap;
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
	snap = bfly_fabric_matrix_snapshot(fab, &mem, &t.generation, &err);
	if (!snap)
		goto out;
	err = bfly_trace_faulty(fab, &mem, snap, perm);
	kvfree(snap);
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
