// SPDX-License-Identifier: GPL-2.0
/*
 * The all-to-all ioctls: RLS_LABELS and BATCH, answered by the RLS labels
 * and the batch services (core/rls_labels.c, core/batch.c).
 */
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/batch.h"
#include "core/core.h"
#include "core/rls_labels.h"

int bfly_ioctl_rls_labels(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_mem mem = { .fab = fab };
	struct bfly_rls_labels_res res;
	struct bfly_rls_labels_req req;
	struct bfly_rls_labels rl;
	u32 usize;
	int err;

	err = bfly_arg_in(&rl, sizeof(rl), BFLY_RLS_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	if ((rl.flags & ~BFLY_RLS_BY_ROTATION) ||
	    memchr_inv(rl.reserved, 0, sizeof(rl.reserved)))
		return -EINVAL;
	req = (struct bfly_rls_labels_req){
		.by_rotation = rl.flags & BFLY_RLS_BY_ROTATION,
		.rotation = rl.rotation, .processor = rl.processor, .count = rl.count,
	};
	err = bfly_rls_labels(fab, &mem, &req, &res);
	if (!err && copy_to_user(u64_to_user_ptr(rl.labels_ptr), res.labels,
				 array_size(rl.count, sizeof(*res.labels))))
		err = -EFAULT;
	kvfree(res.labels);
	bfly_mem_release(&mem);
	if (err)
		return err;
	rl.label_bits = res.label_bits;
	return bfly_arg_out(uarg, &rl, sizeof(rl), usize);
}

/* The ioctl struct's own fields: flags, sizes, pointers, reserved words. */
static int bfly_batch_arg_check(const struct bfly_batch *b,
				const struct bfly_geometry *geo, u64 *total)
{
	if ((b->flags & ~(BFLY_BATCH_STRICT | BFLY_BATCH_MINIMAL)) || b->pad ||
	    memchr_inv(b->reserved, 0, sizeof(b->reserved)) ||
	    memchr_inv(b->reserved2, 0, sizeof(b->reserved2)))
		return -EINVAL;
	if (b->ports != geo->ports)
		return -EINVAL;
	if (bfly_batch_bytes(geo, b->msg_size, total))
		return -E2BIG;
	if (b->buf_bytes != *total)
		return -EINVAL;
	if (*total && (!access_ok(u64_to_user_ptr(b->send_ptr), *total) ||
		       !access_ok(u64_to_user_ptr(b->recv_ptr), *total)))
		return -EFAULT;
	if (!b->conflicts_ptr != !b->conflicts_max)
		return -EINVAL;
	if (!b->affected_ptr != !b->affected_max)
		return -EINVAL;
	if (b->affected_ptr &&
	    !access_ok(u64_to_user_ptr(b->affected_ptr),
		       (u64)b->affected_max * sizeof(struct bfly_msg_ref)))
		return -EFAULT;
	if (b->rounds_ptr &&
	    !access_ok(u64_to_user_ptr(b->rounds_ptr),
		       (u64)geo->ports * sizeof(struct bfly_round)))
		return -EFAULT;
	return 0;
}

/*
 * Write the outputs: the conflicts, the filled slots and the structure,
 * which is written also when an array cannot be (-EFAULT then).
 */
static int bfly_batch_report(struct bfly_batch *b, const struct bfly_batch_res *res,
			     const struct bfly_geometry *geo, void __user *uarg, u32 usize)
{
	const struct bfly_conflicts *c = res->conflicts_list;
	u32 n = c ? min(c->count, c->capacity) : 0;
	int err = 0;

	b->rounds = res->rounds;
	b->sub_rounds = res->sub_rounds;
	b->max_link_load = res->max_link_load;
	b->cycles = res->cycles;
	b->conflicts = res->conflicts;
	b->first_conflict_round = res->first_conflict_round;
	b->bytes_moved = res->bytes_moved;
	b->elapsed_ns = res->elapsed_ns;
	b->affected = res->affected;
	b->faults = res->faults;
	b->cycles_bound = res->cycles_bound;
	if ((b->flags & BFLY_BATCH_STRICT) && n &&
	    copy_to_user(u64_to_user_ptr(b->conflicts_ptr), c->list,
			 array_size(n, sizeof(*c->list))))
		err = -EFAULT;
	if (res->done &&
	    copy_to_user(u64_to_user_ptr(b->done_ptr), res->done,
			 BFLY_MATRIX_BYTES((u64)geo->ports * geo->ports)))
		err = -EFAULT;
	return bfly_arg_out(uarg, b, sizeof(*b), usize) ?: err;
}

int bfly_ioctl_batch(struct file *file, struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_batch_res res = {};
	struct bfly_batch_req req;
	struct bfly_batch b;
	u32 usize;
	u64 total;
	int err, rerr;

	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	err = bfly_arg_in(&b, sizeof(b), BFLY_BATCH_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	err = bfly_batch_arg_check(&b, &fab->geo, &total);
	if (err)
		return err;

	req = (struct bfly_batch_req) {
		.schedule = b.schedule,
		.strict = b.flags & BFLY_BATCH_STRICT,
		.msg_size = b.msg_size,
		.send = u64_to_user_ptr(b.send_ptr),
		.recv = u64_to_user_ptr(b.recv_ptr),
		.square = u64_to_user_ptr(b.square_ptr),
		.want_done = b.done_ptr,
		.conflicts_max = b.conflicts_ptr ? b.conflicts_max : 0,
		.affected = u64_to_user_ptr(b.affected_ptr),
		.affected_max = b.affected_max,
		.minimal = b.flags & BFLY_BATCH_MINIMAL,
		.rounds = u64_to_user_ptr(b.rounds_ptr),
	};
	err = bfly_batch(fab, &req, &res);
	if (res.conflicts_list) {
		rerr = bfly_batch_report(&b, &res, &fab->geo, uarg, usize);
		if (!err)
			err = rerr;
	}
	bfly_batch_done(&res);
	return err;
}
