// SPDX-License-Identifier: GPL-2.0
/*
 * The routing ioctls: ROUTE (a permutation or labelled packets) and
 * LINK_LOAD.
 *
 * A route is computed without the fabric's lock, on buffers of its own
 * sized up front, so routes on one fabric run in parallel. Every output is
 * copied to user space before the new matrix is installed: a request that
 * fails for any reason leaves the fabric unchanged.
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lib/benes.h"
#include "lib/benes_fault.h"
#include "core/events.h"
#include "core/core.h"
#include "lib/linkload.h"
#include "lib/selfroute.h"
#include "lib/trace.h"

#define BFLY_ROUTE_FLAGS (BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_LABELS | BFLY_ROUTE_ALLOW_FAULTS)

/* Largest link-load array BFLY_IOC_LINK_LOAD fills, in bytes. */
#define BFLY_LINK_LOAD_MAX_BYTES (64UL << 20)

/* Check a route request against the fabric; pick the method. */
static int bfly_route_arg_check(const struct bfly_route *r,
				const struct bfly_geometry *geo, u32 *method)
{
	bool labels = r->flags & BFLY_ROUTE_LABELS;

	if ((r->flags & ~BFLY_ROUTE_FLAGS) || r->pad ||
	    memchr_inv(r->reserved, 0, sizeof(r->reserved)) ||
	    memchr_inv(r->reserved2, 0, sizeof(r->reserved2)))
		return -EINVAL;
	if (r->ports != geo->ports)
		return -EINVAL;
	if (labels) {
		if (r->label_bits != geo->node_stages || !r->labels_ptr || r->perm_ptr)
			return -EINVAL;
	} else if (r->label_bits || r->labels_ptr || !r->perm_ptr) {
		return -EINVAL;
	}
	if (r->matrix_ptr ? r->matrix_bytes != bfly_matrix_bytes(geo) : r->matrix_bytes)
		return -EINVAL;
	if (!r->conflicts_ptr != !r->conflicts_max)
		return -EINVAL;

	return bfly_route_method(geo, labels, method);
}

/**
 * bfly_route_method() - how a route request on a fabric is computed
 * @geo: the fabric geometry
 * @labels: the request routes labels, not a permutation
 * @method: receives one of &enum bfly_route_method
 *
 * Shared by the ioctl and the netlink family.
 *
 * Return: 0, or -EOPNOTSUPP for a permutation on bfly2 or bfly-twice.
 */
int bfly_route_method(const struct bfly_geometry *geo, bool labels, u32 *method)
{
	if (labels)
		*method = BFLY_METHOD_LABELS;
	else if (geo->topology == BFLY_TOPO_BUTTERFLY)
		*method = BFLY_METHOD_SELF_ROUTING;
	else if (geo->topology == BFLY_TOPO_BENES)
		*method = BFLY_METHOD_LOOPING;
	else
		return -EOPNOTSUPP;
	return 0;
}

/**
 * bfly_route_buf_free() - free what bfly_route_buf_alloc() allocated
 * @b: the buffers; may be partly allocated
 */
void bfly_route_buf_free(struct bfly_route_buf *b)
{
	kvfree(b->in);
	kvfree(b->matrix);
	kvfree(b->work);
	kvfree(b->conflicts.list);
	kfree(b->faults);
	kvfree(b->affected);
	kvfree(b->fault_work);
	bfly_mem_release(&b->mem);
}

/**
 * bfly_route_buf_alloc() - allocate everything one route needs
 * @b: zeroed buffers to fill; free them with bfly_route_buf_free(), also
 *	on failure
 * @fab: the fabric; its faults are copied to @b->faults, and the memory is
 *	charged to it
 * @method: from bfly_route_method()
 * @conflicts_max: conflicts to record in @b->conflicts.list
 *
 * Return: 0; -E2BIG or -ENOMEM from the memory limits; -ENOMEM; -ENODEV.
 */
int bfly_route_buf_alloc(struct bfly_route_buf *b, struct bfly_fabric *fab,
			 u32 method, u32 conflicts_max)
{
	const struct bfly_geometry *geo = &fab->geo;
	size_t elem = method == BFLY_METHOD_LABELS ? sizeof(u64) : sizeof(u32);
	size_t work;
	u32 nconf;
	int err;

	b->faults = bfly_fabric_faults_snapshot(fab, &err);
	if (err)
		return err;
	if (method == BFLY_METHOD_LOOPING)
		work = bfly_faults_have_stuck(b->faults) ?
		       bfly_benes_fault_workspace_size(geo) :
		       bfly_benes_workspace_size(geo);
	else
		work = bfly_selfroute_workspace_size(geo);
	/* Never more conflicts than nodes. */
	nconf = min_t(u64, conflicts_max, geo->switches);

	b->mem.fab = fab;
	b->in = bfly_mem_alloc_array(&b->mem, geo->ports, elem, false);
	b->matrix = bfly_mem_alloc(&b->mem, bfly_matrix_bytes(geo), true);
	b->work = bfly_mem_alloc(&b->mem, max_t(size_t, work,
						BITS_TO_LONGS(geo->ports) * sizeof(long)),
				 false);
	if (nconf)
		b->conflicts.list = bfly_mem_alloc_array(&b->mem, nconf,
							 sizeof(*b->conflicts.list), true);
	b->conflicts.capacity = nconf;
	if (b->faults) {
		b->affected = bfly_mem_alloc(&b->mem, BFLY_MATRIX_BYTES(geo->ports), true);
		b->fault_work = bfly_mem_alloc(&b->mem, bfly_fault_walk_workspace_size(geo),
					       false);
	}
	return b->mem.err;
}

/* Read the request's input and compute the route into @b. */
static int bfly_route_compute(const struct bfly_geometry *geo,
			      const struct bfly_route *r, u32 method,
			      struct bfly_route_buf *b)
{
	bool labels = method == BFLY_METHOD_LABELS;
	u64 uptr = labels ? r->labels_ptr : r->perm_ptr;
	size_t bytes = array_size(geo->ports, labels ? sizeof(u64) : sizeof(u32));

	if (copy_from_user(b->in, u64_to_user_ptr(uptr), bytes))
		return -EFAULT;
	return bfly_route_run(geo, method, b);
}

/* The inputs of a computed route that @b->faults hit. */
static int bfly_route_check_faults(const struct bfly_geometry *geo,
				   struct bfly_route_buf *b)
{
	struct bfly_fault_walk walk = {
		.mode = BFLY_WALK_ROUTE,
		.matrix = b->matrix,
	};
	int hit;

	b->stuck_unmet = bfly_faults_stuck_unmet(geo, b->faults, b->matrix);
	bitmap_zero(b->affected, geo->ports);
	hit = bfly_fault_walk(geo, b->faults, &walk, b->affected, NULL, b->fault_work);
	if (hit < 0)
		return hit;
	b->affected_count = hit;
	return 0;
}

/**
 * bfly_route_run() - compute a route whose input is in @b->in
 * @geo: the fabric geometry
 * @method: from bfly_route_method()
 * @b: buffers from bfly_route_buf_alloc(), @b->in filled with N u32 (a
 *	permutation) or N u64 (labels)
 *
 * With @b->faults, the looping algorithm steers its free choices by the
 * stuck nodes, and the inputs a fault hits go to @b->affected.
 *
 * Return: 0, with the matrix, conflicts and fault report in @b; -EINVAL
 * for a non-permutation or labels too wide; -EINTR.
 */
int bfly_route_run(const struct bfly_geometry *geo, u32 method,
		   struct bfly_route_buf *b)
{
	int err;

	if (method != BFLY_METHOD_LABELS) {
		/* The workspace doubles as the "seen" bitmap here. */
		bitmap_zero(b->work, geo->ports);
		err = bfly_perm_check(geo, b->in, b->work);
		if (err)
			return err;
	}

	b->conflicts.count = 0;
	b->conflicts.first_stage = BFLY_NO_CONFLICT;
	switch (method) {
	case BFLY_METHOD_SELF_ROUTING:
		err = bfly_selfroute_dest(geo, b->in, b->matrix, NULL,
					  &b->conflicts, b->work);
		break;
	case BFLY_METHOD_LABELS:
		err = bfly_selfroute_labels(geo, b->in, b->matrix, NULL,
					    &b->conflicts, b->work);
		break;
	default:
		if (bfly_faults_have_stuck(b->faults))
			err = bfly_benes_route_stuck(geo, b->in, b->faults->list,
						     b->faults->count, b->matrix,
						     b->work, &b->stuck_unmet);
		else
			err = bfly_benes_route(geo, b->in, b->matrix, b->work);
		break;
	}
	if (err || !b->faults)
		return err;
	return bfly_route_check_faults(geo, b);
}

/**
 * bfly_route_account() - count a computed route in the fabric's statistics
 * @fab: the fabric
 * @b: the computed route
 *
 * A route with conflicts is also announced to netlink listeners.
 */
void bfly_route_account(struct bfly_fabric *fab, const struct bfly_route_buf *b)
{
	atomic64_inc(&fab->stats.routes);
	if (b->conflicts.count) {
		atomic64_inc(&fab->stats.refusals);
		atomic64_add(b->conflicts.count, &fab->stats.conflicts);
		bfly_event_conflicts(fab, b->conflicts.count,
				     b->conflicts.first_stage);
	}
}

/**
 * bfly_route_apply() - install a computed route's matrix
 * @fab: the fabric
 * @b: the computed route; its matrix is swapped with the old one
 * @apply: false to only read the generation (dry runs, refused routes)
 * @generation: receives the matrix generation after the call
 *
 * Return: 0 or -ENODEV.
 */
int bfly_route_apply(struct bfly_fabric *fab, struct bfly_route_buf *b,
		     bool apply, u64 *generation)
{
	int err = 0;

	down_write(&fab->lock);
	if (fab->dead)
		err = -ENODEV;
	else if (apply)
		bfly_fabric_swap_matrix(fab, &b->matrix);
	*generation = fab->generation;
	up_write(&fab->lock);
	return err;
}

int bfly_ioctl_route(struct file *file, struct bfly_fabric *fab,
		     void __user *uarg)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_route_buf b = {};
	struct bfly_route r;
	u32 usize, method, written;
	int err, verdict = 0;
	bool apply;

	err = bfly_arg_in(&r, sizeof(r), BFLY_ROUTE_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_route_arg_check(&r, geo, &method);
	if (err)
		return err;
	if (!(r.flags & BFLY_ROUTE_DRY_RUN) && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (READ_ONCE(fab->dead))
		return -ENODEV;

	err = bfly_route_buf_alloc(&b, fab, method, r.conflicts_max);
	if (err)
		goto out;
	err = bfly_route_compute(geo, &r, method, &b);
	if (err)
		goto out;

	bfly_route_account(fab, &b);
	if (b.conflicts.count) {
		verdict = -EBUSY;
		if (r.conflicts_ptr && b.conflicts.count > r.conflicts_max)
			verdict = -EOVERFLOW;
	} else if (b.affected_count && !(r.flags & BFLY_ROUTE_ALLOW_FAULTS)) {
		verdict = -EHOSTUNREACH;
	}

	/* Every output goes to user space before anything changes. */
	r.conflicts_count = b.conflicts.count;
	r.first_conflict_stage = b.conflicts.first_stage;
	r.method = method;
	r.affected_count = b.affected_count;
	r.stuck_unmet = b.stuck_unmet;
	r.faults = b.faults ? b.faults->count : 0;
	written = min(b.conflicts.count, b.conflicts.capacity);
	if (r.matrix_ptr &&
	    copy_to_user(u64_to_user_ptr(r.matrix_ptr), b.matrix, r.matrix_bytes)) {
		err = -EFAULT;
		goto out;
	}
	if (r.affected_ptr &&
	    (b.affected ? copy_to_user(u64_to_user_ptr(r.affected_ptr), b.affected,
				       BFLY_MATRIX_BYTES(geo->ports)) :
			  clear_user(u64_to_user_ptr(r.affected_ptr),
				     BFLY_MATRIX_BYTES(geo->ports)))) {
		err = -EFAULT;
		goto out;
	}
	if (written &&
	    copy_to_user(u64_to_user_ptr(r.conflicts_ptr), b.conflicts.list,
			 array_size(written, sizeof(*b.conflicts.list)))) {
		err = -EFAULT;
		goto out;
	}

	apply = !verdict && !(r.flags & BFLY_ROUTE_DRY_RUN);
	if (apply) {
		/*
		 * The result structure too must be writable before the matrix
		 * changes: write it once now (an argument in read-only memory
		 * fails here with -EFAULT and the fabric unchanged; found by
		 * tests/e2e/fuzz-ioctl), again after the swap, when a failure
		 * can only be the caller unmapping it meanwhile and the route,
		 * applied, is not reported as failed.
		 */
		r.generation = 0;
		err = bfly_arg_out(uarg, &r, sizeof(r), usize);
		if (err)
			goto out;
	}
	err = bfly_route_apply(fab, &b, apply, &r.generation);
	if (!err && apply)
		bfly_arg_out(uarg, &r, sizeof(r), usize);
	else if (!err)
		err = bfly_arg_out(uarg, &r, sizeof(r), usize);
	if (!err)
		err = verdict;
out:
	bfly_route_buf_free(&b);
	return err;
}

int bfly_ioctl_link_load(struct bfly_fabric *fab, void __user *uarg)
{
	const struct bfly_geometry *geo = &fab->geo;
	bool labels, all;
	unsigned long *active = NULL, *matrix = NULL;
	struct bfly_mem m = { .fab = fab };
	struct bfly_link_load ll;
	u64 *lab = NULL;
	u32 *load = NULL, usize;
	size_t load_bytes;
	void *work = NULL;
	int err;

	err = bfly_arg_in(&ll, sizeof(ll), BFLY_LINK_LOAD_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	labels = ll.flags & BFLY_ROUTE_LABELS;
	all = !ll.active_ptr;
	if ((ll.flags & ~BFLY_ROUTE_LABELS) || ll.pad ||
	    memchr_inv(ll.reserved, 0, sizeof(ll.reserved)))
		return -EINVAL;
	if (ll.ports != geo->ports)
		return -EINVAL;
	if (labels ? ll.label_bits != geo->node_stages || !ll.labels_ptr
		   : ll.label_bits || ll.labels_ptr)
		return -EINVAL;
	load_bytes = array3_size(geo->node_stages, geo->ports, sizeof(u32));
	if (ll.load_ptr ? ll.load_entries != (u64)geo->node_stages * geo->ports
			: ll.load_entries)
		return -EINVAL;
	if (ll.load_ptr && load_bytes > BFLY_LINK_LOAD_MAX_BYTES)
		return -E2BIG;

	work = bfly_mem_alloc(&m, bfly_linkload_workspace_size(geo), false);
	if (!all)
		active = bfly_mem_alloc(&m, BFLY_MATRIX_BYTES(geo->ports), false);
	if (labels)
		lab = bfly_mem_alloc_array(&m, geo->ports, sizeof(*lab), false);
	if (ll.load_ptr)
		load = bfly_mem_alloc(&m, load_bytes, false);
	err = m.err;
	if (err)
		goto out;
	if ((active && copy_from_user(active, u64_to_user_ptr(ll.active_ptr),
				      BFLY_MATRIX_BYTES(geo->ports))) ||
	    (lab && copy_from_user(lab, u64_to_user_ptr(ll.labels_ptr),
				   array_size(geo->ports, sizeof(*lab))))) {
		err = -EFAULT;
		goto out;
	}

	if (labels) {
		err = bfly_linkload_labels(geo, lab, active, load, NULL,
					   &ll.max_link_load, work);
	} else {
		matrix = bfly_fabric_matrix_snapshot(fab, &m, NULL, &err);
		if (matrix)
			err = bfly_linkload_matrix(geo, matrix, active, load, NULL,
						   &ll.max_link_load, work);
	}
	if (err)
		goto out;
	if (load && copy_to_user(u64_to_user_ptr(ll.load_ptr), load, load_bytes)) {
		err = -EFAULT;
		goto out;
	}
	err = bfly_arg_out(uarg, &ll, sizeof(ll), usize);
out:
	kvfree(matrix);
	kvfree(load);
	kvfree(lab);
	kvfree(active);
	kvfree(work);
	bfly_mem_release(&m);
	return err;
}
