// SPDX-License-Identifier: GPL-2.0
/*
 * The HREL ioctl: an h-relation run in rounds by core/hrel.c. It copies
 * the messages in and the report out.
 */
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"
#include "core/hrel.h"

/* The ioctl struct's own fields: flags, pointers and their sizes, reserved words. */
static int bfly_hrel_arg_check(const struct bfly_hrel *a)
{
	if (a->flags || a->pad || memchr_inv(a->reserved, 0, sizeof(a->reserved)))
		return -EINVAL;
	if (!a->msgs_ptr || !a->send_ptr != !a->send_bytes || !a->recv_ptr != !a->recv_bytes ||
	    !a->perm_ptr != !a->perm_entries || !a->path_ptr != !a->path_entries ||
	    a->stages || a->max_through || a->hbar || a->bound_ok || a->forced || a->max_w)
		return -EINVAL;
	return 0;
}

/*
 * Part of the list, by bfly_user_read()'s word loop: a list with small
 * messages is a large share of the bytes the ioctl touches.
 */
static int bfly_ioctl_hrel_read(void *ctx, struct bfly_msgset_msg *msgs, u32 first, u32 count)
{
	const struct bfly_hrel *a = ctx;
	const struct bfly_msgset_msg __user *list = u64_to_user_ptr(a->msgs_ptr);

	return bfly_user_read(msgs, list + first, array_size(count, sizeof(*msgs)));
}

/*
 * Each round's partial permutation, as many whole rounds as @a->perm_entries
 * hold, through the N-entry buffer the service charged (&bfly_hrel_res.perm).
 */
static int bfly_ioctl_hrel_perms(const struct bfly_hrel *a, const struct bfly_hrel_res *res)
{
	u32 __user *uperm = u64_to_user_ptr(a->perm_ptr);
	u64 rounds = min_t(u64, res->rounds, a->perm_entries / res->ports);
	u32 r;

	if (!rounds || WARN_ON_ONCE(!res->perm))
		return 0;
	for (r = 0; r < rounds; r++) {
		bfly_hrel_round_perm(res, r, res->perm);
		if (copy_to_user(uperm + (u64)r * res->ports, res->perm,
				 array_size(res->ports, sizeof(*res->perm))))
			return -EFAULT;
	}
	return 0;
}

/* The arrays of a routed relation. */
static int bfly_ioctl_hrel_publish(const struct bfly_hrel *a, const struct bfly_hrel_res *res)
{
	if (!res->reported)
		return 0;
	if (a->round_ptr &&
	    bfly_user_write(u64_to_user_ptr(a->round_ptr), res->round,
			    array_size(a->count, sizeof(*res->round))))
		return -EFAULT;
	if (a->path_ptr && res->mbfly.paths &&
	    copy_to_user(u64_to_user_ptr(a->path_ptr), res->mbfly.paths,
			 array_size(min_t(u64, a->count, a->path_entries / res->mbfly.columns),
				    res->mbfly.columns * sizeof(u32))))
		return -EFAULT;
	if (a->perm_ptr)
		return bfly_ioctl_hrel_perms(a, res);
	return 0;
}

int bfly_ioctl_hrel(struct file *file, struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_hrel_res res = {};
	struct bfly_hrel_req req;
	struct bfly_hrel a;
	u32 usize;
	int err, put;

	err = bfly_arg_in(&a, sizeof(a), BFLY_HREL_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_hrel_arg_check(&a);
	if (err)
		return err;
	/* Moving payload writes through the fabric, as a batch does. */
	if (a.send_ptr && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	req = (struct bfly_hrel_req){
		.count = a.count, .seed = a.seed,
		.read_msgs = bfly_ioctl_hrel_read, .ctx = &a,
		.user_msgs = a.msgs_ptr % sizeof(u64) ? NULL : u64_to_user_ptr(a.msgs_ptr),
		.want_paths = a.path_ptr != 0,
		.skip_round = !a.round_ptr,
		.want_perms = a.perm_ptr != 0,
		.perm_entries = a.perm_ptr ? a.perm_entries : 0,
		.bufs = {
			.send = u64_to_user_ptr(a.send_ptr), .send_bytes = a.send_bytes,
			.recv = u64_to_user_ptr(a.recv_ptr), .recv_bytes = a.recv_bytes,
		},
	};
	err = bfly_hrel(fab, &req, &res);
	put = bfly_ioctl_hrel_publish(&a, &res);
	if (put && !err)
		err = put;
	/* h also for a refused relation; the figures only once routed, as netlink's */
	a.h = res.h;
	a.colours = res.reported ? res.colours : 0;
	a.rounds = res.reported ? res.rounds : 0;
	a.cycles = res.reported ? res.cycles : 0;
	a.bytes_moved = res.bytes_moved;
	a.bad_msg = res.bad_msg;
	a.stages = res.mbfly.stages;
	a.max_through = res.mbfly.max_through;
	a.hbar = res.mbfly.hbar;
	a.bound_ok = res.mbfly.bound_ok;
	a.forced = res.mbfly.forced;
	a.max_w = res.mbfly.max_w;
	bfly_hrel_done(&res);
	put = bfly_arg_out(uarg, &a, sizeof(a), usize);
	return err ?: put;
}
