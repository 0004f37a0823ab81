// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl dispatch and argument handling for /dev/bfly<id>.
 *
 * Every argument is an extensible structure starting with its size (see
 * uapi/linux/bfly.h); the size bits of the request number are ignored.
 */
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/uaccess.h>

#include "bfly.h"

/* A request number without its size bits. */
#define BFLY_IOC_BASE(cmd) ((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/*
 * Read an extensible argument: @ksize bytes into @karg from @uarg, whose
 * first u32 is the caller's size. Fails with -EINVAL below @minsize and
 * -E2BIG for unknown non-zero trailing bytes. Sets *@usize.
 */
static int bfly_copy_arg_in(void *karg, size_t ksize, size_t minsize,
			    const void __user *uarg, u32 *usize)
{
	int err;

	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < minsize)
		return -EINVAL;
	err = copy_struct_from_user(karg, ksize, uarg, *usize);
	return err;
}

/* Write back at most the caller's size, and tell it how much was written. */
static int bfly_copy_arg_out(void __user *uarg, void *karg, size_t ksize,
			     u32 usize)
{
	u32 written = min_t(size_t, ksize, usize);

	*(u32 *)karg = written;
	return copy_to_user(uarg, karg, written) ? -EFAULT : 0;
}

static int bfly_ioctl_get_info(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_info info;
	u32 usize;
	int err;

	err = bfly_copy_arg_in(&info, sizeof(info), BFLY_INFO_SIZE_VER0, uarg,
			       &usize);
	if (err)
		return err;
	if (info.flags || info.pad || info.reserved[0] || info.reserved[1])
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	down_read(&fab->lock);
	if (fab->dead) {
		up_read(&fab->lock);
		return -ENODEV;
	}
	info.uapi_version = BFLY_UAPI_VERSION;
	info.id = fab->id;
	info.topology = fab->geo.topology;
	info.ports = fab->geo.ports;
	info.ports_log2 = fab->geo.ports_log2;
	info.node_stages = fab->geo.node_stages;
	info.nodes_per_stage = fab->geo.nodes_per_stage;
	info.switches = fab->geo.switches;
	up_read(&fab->lock);

	return bfly_copy_arg_out(uarg, &info, sizeof(info), usize);
}

long bfly_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct bfly_fabric *fab = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (BFLY_IOC_BASE(cmd)) {
	case BFLY_IOC_BASE(BFLY_IOC_GET_INFO):
		return bfly_ioctl_get_info(fab, uarg);
	default:
		return -ENOTTY;
	}
}
