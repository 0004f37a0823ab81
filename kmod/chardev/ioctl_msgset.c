// SPDX-License-Identifier: GPL-2.0
/*
 * The MSGSET ioctl: a message set routed on an LCAN by core/msgset.c. It
 * copies the messages in and the report out.
 */
#include <linux/fs.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"
#include "core/msgset.h"

/* The ioctl struct's own fields: flags, pointers and their sizes, reserved words. */
static int bfly_msgset_arg_check(const struct bfly_msgset *a)
{
	if ((a->flags & ~BFLY_MSGSET_GIVEN_PATHS) || a->pad ||
	    memchr_inv(a->reserved, 0, sizeof(a->reserved)))
		return -EINVAL;
	if ((a->flags & BFLY_MSGSET_GIVEN_PATHS) && !a->path_ptr)
		return -EINVAL;
	if (!a->msgs_ptr || !a->send_ptr != !a->send_bytes || !a->recv_ptr != !a->recv_bytes ||
	    !a->path_ptr != !a->path_entries || !a->load_ptr != !a->load_entries)
		return -EINVAL;
	return 0;
}

static int bfly_ioctl_msgset_read(void *ctx, struct bfly_msgset_msg *msgs, u32 count)
{
	const struct bfly_msgset *a = ctx;

	return copy_from_user(msgs, u64_to_user_ptr(a->msgs_ptr),
			      array_size(count, sizeof(*msgs))) ? -EFAULT : 0;
}

static int bfly_ioctl_msgset_read_paths(void *ctx, u32 *paths, u64 entries)
{
	const struct bfly_msgset *a = ctx;

	return copy_from_user(paths, u64_to_user_ptr(a->path_ptr),
			      array_size(entries, sizeof(*paths))) ? -EFAULT : 0;
}

/* The arrays of a routed set, then the struct. */
static int bfly_ioctl_msgset_publish(struct bfly_msgset *a, const struct bfly_msgset_res *res)
{
	if (!res->reported)
		return 0;
	if (a->cycle_ptr &&
	    copy_to_user(u64_to_user_ptr(a->cycle_ptr), res->cycle,
			 array_size(a->count, sizeof(*res->cycle))))
		return -EFAULT;
	if (a->path_ptr &&
	    copy_to_user(u64_to_user_ptr(a->path_ptr), res->paths,
			 array3_size(a->count, 2 * res->levels, sizeof(*res->paths))))
		return -EFAULT;
	if (a->load_ptr &&
	    copy_to_user(u64_to_user_ptr(a->load_ptr), res->load,
			 array_size(res->channels, sizeof(*res->load))))
		return -EFAULT;
	return 0;
}

int bfly_ioctl_msgset(struct file *file, struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_msgset_res res = {};
	struct bfly_msgset_req req;
	struct bfly_msgset a;
	u32 usize;
	int err, put;

	err = bfly_arg_in(&a, sizeof(a), BFLY_MSGSET_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_msgset_arg_check(&a);
	if (err)
		return err;
	/* Moving payload writes through the fabric, as a batch does. */
	if (a.send_ptr && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	req = (struct bfly_msgset_req){
		.count = a.count, .mode = a.mode, .strategy = a.strategy,
		.max_cycles = a.max_cycles, .seed = a.seed,
		.read_msgs = bfly_ioctl_msgset_read, .ctx = &a,
		.read_paths = a.flags & BFLY_MSGSET_GIVEN_PATHS ?
			      bfly_ioctl_msgset_read_paths : NULL,
		.bufs = {
			.send = u64_to_user_ptr(a.send_ptr), .send_bytes = a.send_bytes,
			.recv = u64_to_user_ptr(a.recv_ptr), .recv_bytes = a.recv_bytes,
		},
		.want_paths = a.path_ptr, .path_room = a.path_entries,
		.want_loads = a.load_ptr, .load_room = a.load_entries,
	};
	err = bfly_msgset(fab, &req, &res);
	put = bfly_ioctl_msgset_publish(&a, &res);
	if (put && !err)
		err = put;
	a.levels = res.levels;
	a.cycles = res.cycles;
	a.routed = res.routed;
	a.lambda_load = res.lambda_load;
	a.lambda_cap = res.lambda_cap;
	a.bound = res.bound;
	a.channels = res.channels;
	a.bytes_moved = res.bytes_moved;
	a.bad_msg = res.bad_msg;
	bfly_msgset_done(&res);
	put = bfly_arg_out(uarg, &a, sizeof(a), usize);
	return err ?: put;
}
