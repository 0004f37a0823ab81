// SPDX-License-Identifier: GPL-2.0
/*
 * The routing ioctls: ROUTE (a permutation or labelled packets, routed by
 * core/route.c) and LINK_LOAD (core/link_load.c). They copy the request in and the report
 * out; the report reaches user space before the new matrix is installed.
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"
#include "core/route.h"
#include "core/link_load.h"
#include "lib/settings.h"

#define BFLY_ROUTE_FLAGS (BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_LABELS | BFLY_ROUTE_ALLOW_FAULTS | \
			  BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_CONFLICT_PORTS)

/* Largest link-load array BFLY_IOC_LINK_LOAD fills, in bytes. */
#define BFLY_LINK_LOAD_MAX_BYTES (64UL << 20)

/* Check an ioctl route request's fields against the fabric. */
static int bfly_route_arg_check(const struct bfly_route *r,
				const struct bfly_geometry *geo)
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
	if (r->matrix_ptr ? r->matrix_bytes !=
			    bfly_settings_bytes(geo, r->flags & BFLY_ROUTE_PORT_MAP) :
			    r->matrix_bytes)
		return -EINVAL;
	if (!r->conflicts_ptr != !r->conflicts_max)
		return -EINVAL;
	return 0;
}

/* The ioctl's side of a route: the user's struct and arrays. */
struct bfly_ioctl_route_ctx {
	struct bfly_route r;
	void __user *uarg;
	u32 usize;
};

static int bfly_ioctl_route_read(void *ctx, void *in, size_t bytes)
{
	struct bfly_ioctl_route_ctx *c = ctx;
	u64 uptr = c->r.flags & BFLY_ROUTE_LABELS ? c->r.labels_ptr : c->r.perm_ptr;

	return bfly_user_read(in, u64_to_user_ptr(uptr), bytes);
}

/* The listed conflicts: as &struct bfly_conflict, or with their port. */
static int bfly_ioctl_route_conflicts(const struct bfly_route *r,
				      const struct bfly_route_buf *b, u32 written)
{
	void __user *to = u64_to_user_ptr(r->conflicts_ptr);
	u32 i;

	if (!written)
		return 0;
	if (r->flags & BFLY_ROUTE_CONFLICT_PORTS)
		return copy_to_user(to, b->pconf, array_size(written, sizeof(*b->pconf))) ?
		       -EFAULT : 0;
	if (b->conflicts.list)
		return copy_to_user(to, b->conflicts.list,
				    array_size(written, sizeof(*b->conflicts.list))) ?
		       -EFAULT : 0;
	/* A port-map fabric lists them with ports only: the first 16 bytes. */
	for (i = 0; i < written; i++)
		if (copy_to_user(to + i * sizeof(struct bfly_conflict), &b->pconf[i],
				 sizeof(struct bfly_conflict)))
			return -EFAULT;
	return 0;
}

/* The report goes to user space, struct last, before anything changes. */
static int bfly_ioctl_route_publish(void *ctx, const struct bfly_route_res *res)
{
	struct bfly_ioctl_route_ctx *c = ctx;
	const struct bfly_route_buf *b = &res->b;
	struct bfly_route *r = &c->r;
	size_t affected_bytes = BFLY_MATRIX_BYTES(r->ports);
	u32 written = min(b->conflicts.count, b->conflicts.capacity);

	r->conflicts_count = b->conflicts.count;
	r->first_conflict_stage = b->conflicts.first_stage;
	r->method = res->method;
	r->affected_count = b->affected_count;
	r->stuck_unmet = b->stuck_unmet;
	r->faults = res->faults;
	r->generation = res->generation;
	if (r->matrix_ptr &&
	    bfly_user_write(u64_to_user_ptr(r->matrix_ptr), bfly_route_report(b),
			    r->matrix_bytes))
		return -EFAULT;
	if (r->affected_ptr &&
	    (b->affected ? copy_to_user(u64_to_user_ptr(r->affected_ptr), b->affected,
					affected_bytes) :
			   clear_user(u64_to_user_ptr(r->affected_ptr), affected_bytes)))
		return -EFAULT;
	if (bfly_ioctl_route_conflicts(r, b, written))
		return -EFAULT;
	return bfly_arg_out(c->uarg, r, sizeof(*r), c->usize);
}

int bfly_ioctl_route(struct file *file, struct bfly_fabric *fab,
		     void __user *uarg)
{
	struct bfly_ioctl_route_ctx c = { .uarg = uarg };
	struct bfly_route_res res = {};
	struct bfly_route_req req = {
		.read_input = bfly_ioctl_route_read,
		.publish = bfly_ioctl_route_publish,
		.ctx = &c,
	};
	int err;

	err = bfly_arg_in(&c.r, sizeof(c.r), BFLY_ROUTE_SIZE_VER0, uarg, &c.usize);
	if (err)
		return err;
	err = bfly_route_arg_check(&c.r, &fab->geo);
	if (err)
		return err;
	req.labels = c.r.flags & BFLY_ROUTE_LABELS;
	req.dry_run = c.r.flags & BFLY_ROUTE_DRY_RUN;
	req.allow_faults = c.r.flags & BFLY_ROUTE_ALLOW_FAULTS;
	req.conflicts_max = c.r.conflicts_max;
	/* Without a buffer for them the settings are not reported in any layout. */
	req.port_map = c.r.matrix_ptr ? c.r.flags & BFLY_ROUTE_PORT_MAP : fab->geo.port_map;
	req.conflict_ports = c.r.flags & BFLY_ROUTE_CONFLICT_PORTS;
	/* Applying a route writes: it needs a descriptor open for writing. */
	if (!(file->f_mode & FMODE_WRITE))
		req.deny_apply = -EBADF;

	err = bfly_route(fab, &req, &res);
	if (res.reported) {
		/*
		 * The generation, once known; after an applied route a failure
		 * here can only be the caller unmapping the struct meanwhile.
		 */
		c.r.generation = res.generation;
		if (bfly_arg_out(uarg, &c.r, sizeof(c.r), c.usize) && !res.applied && !err)
			err = -EFAULT;
	}
	/* The caller's conflict array was too short to list them all. */
	if (err == -EBUSY && c.r.conflicts_ptr &&
	    res.b.conflicts.count > c.r.conflicts_max)
		err = -EOVERFLOW;
	bfly_route_done(&res);
	return err;
}

int bfly_ioctl_link_load(struct bfly_fabric *fab, void __user *uarg)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_mem m = { .fab = fab };
	struct bfly_link_load_req req = {};
	unsigned long *active = NULL;
	struct bfly_link_load ll;
	bool labels, all;
	u64 *lab = NULL;
	u32 *load = NULL, usize;
	size_t load_bytes;
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

	req.labels = lab;
	req.active = active;
	req.load = load;
	err = bfly_link_load(fab, &m, &req, &ll.max_link_load);
	if (err)
		goto out;
	if (load && copy_to_user(u64_to_user_ptr(ll.load_ptr), load, load_bytes)) {
		err = -EFAULT;
		goto out;
	}
	err = bfly_arg_out(uarg, &ll, sizeof(ll), usize);
out:
	kvfree(load);
	kvfree(lab);
	kvfree(active);
	bfly_mem_release(&m);
	return err;
}
