// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl dispatch for /dev/bfly<id>, the extensible-argument helpers every
 * handler uses, and the small handlers (info, statistics).
 *
 * Every argument is an extensible structure starting with its size (see
 * uapi/linux/bfly.h); the size bits of the request number are ignored.
 */
#include <linux/fs.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/core.h"

static_assert(sizeof(struct bfly_info) == BFLY_INFO_SIZE_VER3);

/* The largest argument size accepted: the uapi promises 4096. */
#define BFLY_ARG_MAX_SIZE 4096

/* A request number without its size bits. */
#define BFLY_IOC_BASE(cmd) ((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

/**
 * bfly_arg_in() - read an extensible ioctl argument
 * @karg: the kernel's copy, @ksize bytes
 * @ksize: the size of the structure this kernel knows
 * @minsize: the size of its first published version
 * @uarg: the user's structure, whose first u32 is its size
 * @usize: receives the user's size
 *
 * Return: 0; -EFAULT; -EINVAL for a size below @minsize; -E2BIG for a
 * larger structure with non-zero bytes this kernel does not know, or a
 * size over BFLY_ARG_MAX_SIZE.
 */
int bfly_arg_in(void *karg, size_t ksize, size_t minsize,
		const void __user *uarg, u32 *usize)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < minsize)
		return -EINVAL;
	/* As clone3() and openat2(): no scan of gigabytes for zeros. */
	if (*usize > BFLY_ARG_MAX_SIZE)
		return -E2BIG;
	/* The common case, the caller's size is this kernel's: by words. */
	if (*usize == ksize)
		return bfly_user_read(karg, uarg, ksize);
	return copy_struct_from_user(karg, ksize, uarg, *usize);
}

/**
 * bfly_arg_out() - write an extensible ioctl argument back
 * @uarg: the user's structure
 * @karg: the kernel's copy, whose first u32 is set to the bytes written
 * @ksize: the size of the structure this kernel knows
 * @usize: the user's size: no more than that is written
 *
 * Return: 0 or -EFAULT.
 */
int bfly_arg_out(void __user *uarg, void *karg, size_t ksize, u32 usize)
{
	u32 written = min_t(size_t, ksize, usize);

	*(u32 *)karg = written;
	return bfly_user_write(uarg, karg, written);
}

/* Bytes of an array copied in one user-access section, between reschedule points */
#define BFLY_USER_CHUNK (64 * 1024)

/*
 * Arrays, and the argument structs themselves, go in and out by 8-byte
 * word loops where both sides are 8-byte aligned: copy_from_user() and
 * copy_to_user() are rep movsb on a CPU with ERMS but without FSRM (the
 * test VMs' QEMU TCG CPU), which TCG runs a byte at a time, a few times
 * slower than the loop there.
 */
static bool bfly_user_words(const void *a, const void *b, size_t bytes)
{
	return !(((unsigned long)a | (unsigned long)b | bytes) % sizeof(u64));
}

/**
 * bfly_user_read() - copy_from_user() of an array, by words where aligned
 * @to: the kernel's buffer
 * @from: the user's array
 * @bytes: its size
 *
 * Return: 0, or -EFAULT when @from is not readable (@to then holds part
 * of it).
 */
int bfly_user_read(void *to, const void __user *from, size_t bytes)
{
	const u64 __user *src = from;
	size_t j, n, words = bytes / sizeof(u64);
	u64 *dst = to;

	if (!bfly_user_words(to, (__force const void *)from, bytes))
		return copy_from_user(to, from, bytes) ? -EFAULT : 0;
	for (; words; words -= n, src += n, dst += n) {
		n = min_t(size_t, words, BFLY_USER_CHUNK / sizeof(u64));
		if (!user_access_begin(src, n * sizeof(u64)))
			return -EFAULT;
		for (j = 0; j < n; j++)
			unsafe_get_user(dst[j], src + j, efault);
		user_access_end();
		cond_resched();
	}
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

/**
 * bfly_user_write() - copy_to_user() of an array, by words where aligned
 * @to: the user's array
 * @from: the kernel's buffer
 * @bytes: its size
 *
 * Return: 0, or -EFAULT when @to is not writable (part of it may be
 * written).
 */
int bfly_user_write(void __user *to, const void *from, size_t bytes)
{
	size_t j, n, words = bytes / sizeof(u64);
	const u64 *src = from;
	u64 __user *dst = to;

	if (!bfly_user_words((__force const void *)to, from, bytes))
		return copy_to_user(to, from, bytes) ? -EFAULT : 0;
	for (; words; words -= n, src += n, dst += n) {
		n = min_t(size_t, words, BFLY_USER_CHUNK / sizeof(u64));
		if (!user_access_begin(dst, n * sizeof(u64)))
			return -EFAULT;
		for (j = 0; j < n; j++)
			unsafe_put_user(src[j], dst + j, efault);
		user_access_end();
		cond_resched();
	}
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

static int bfly_ioctl_get_info(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_figures fig;
	struct bfly_info info;
	u32 usize;
	int err;

	err = bfly_arg_in(&info, sizeof(info), BFLY_INFO_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	if (info.flags || info.pad || memchr_inv(info.reserved, 0, sizeof(info.reserved)) ||
	    memchr_inv(info.reserved2, 0, sizeof(info.reserved2)) || info.uppers || info.pad2 ||
	    memchr_inv(info.reserved3, 0, sizeof(info.reserved3)) ||
	    memchr_inv(&info.mbfly_d, 0, sizeof(info) - offsetof(struct bfly_info, mbfly_d)))
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	bfly_figures(&fab->geo, &fig);
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
	info.radix = fab->geo.radix;
	info.degree = fig.degree;
	info.diameter = fig.diameter;
	info.routers = fig.routers;
	info.channels = fig.channels;
	info.bisection = fig.bisection;
	info.port_map_bytes = bfly_port_map_bytes(&fab->geo);
	info.uppers = fab->geo.lcan ? fab->geo.up : 0;
	if (fab->geo.mbfly) {
		info.mbfly_d = fab->geo.mbfly_d;
		info.mbfly_seed = fab->geo.mbfly_seed;
		info.mbfly_exp_col = fab->mbfly_exp.col;
		info.mbfly_exp_inputs = fab->mbfly_exp.inputs;
		info.mbfly_exp_kmax = fab->mbfly_exp.kmax;
		info.mbfly_exp_beta = fab->mbfly_exp.beta_fp16;
		info.mbfly_exp_exhaustive = fab->mbfly_exp.exhaustive;
		info.mbfly_exp_subsets = fab->mbfly_exp.subsets;
	}
	up_read(&fab->lock);

	return bfly_arg_out(uarg, &info, sizeof(info), usize);
}

static int bfly_ioctl_get_stats(struct bfly_fabric *fab, void __user *uarg)
{
	struct bfly_stats st;
	u32 usize;
	int err;

	err = bfly_arg_in(&st, sizeof(st), BFLY_STATS_SIZE_VER0, uarg, &usize);
	if (err)
		return err;
	if (st.flags || memchr_inv(st.reserved, 0, sizeof(st.reserved)))
		return -EINVAL;
	if (READ_ONCE(fab->dead))
		return -ENODEV;

	memset(&st, 0, sizeof(st));
	st.routes = atomic64_read(&fab->stats.routes);
	st.refusals = atomic64_read(&fab->stats.refusals);
	st.conflicts = atomic64_read(&fab->stats.conflicts);
	st.matrix_writes = atomic64_read(&fab->stats.matrix_writes);
	st.batches = atomic64_read(&fab->stats.batches);
	return bfly_arg_out(uarg, &st, sizeof(st), usize);
}

/*
 * Requests that return what the fabric holds need a descriptor opened for
 * reading; SET_MATRIX and BATCH need one opened for writing (their
 * handlers check), an applied ROUTE both.
 */
static bool bfly_ioctl_reads(unsigned int base)
{
	switch (base) {
	case BFLY_IOC_BASE(BFLY_IOC_GET_INFO):
	case BFLY_IOC_BASE(BFLY_IOC_GET_MATRIX):
	case BFLY_IOC_BASE(BFLY_IOC_TRACE):
	case BFLY_IOC_BASE(BFLY_IOC_ROUTE):
	case BFLY_IOC_BASE(BFLY_IOC_LINK_LOAD):
	case BFLY_IOC_BASE(BFLY_IOC_GET_STATS):
	case BFLY_IOC_BASE(BFLY_IOC_RLS_LABELS):
	case BFLY_IOC_BASE(BFLY_IOC_MSGSET):
	case BFLY_IOC_BASE(BFLY_IOC_HREL):
		return true;
	default:
		return false;
	}
}

long bfly_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct bfly_fabric *fab = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (bfly_ioctl_reads(BFLY_IOC_BASE(cmd)) && !(file->f_mode & FMODE_READ))
		return -EBADF;

	switch (BFLY_IOC_BASE(cmd)) {
	case BFLY_IOC_BASE(BFLY_IOC_GET_INFO):
		return bfly_ioctl_get_info(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_GET_MATRIX):
		return bfly_ioctl_get_matrix(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_SET_MATRIX):
		return bfly_ioctl_set_matrix(file, fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_TRACE):
		return bfly_ioctl_trace(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_ROUTE):
		return bfly_ioctl_route(file, fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_LINK_LOAD):
		return bfly_ioctl_link_load(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_GET_STATS):
		return bfly_ioctl_get_stats(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_RLS_LABELS):
		return bfly_ioctl_rls_labels(fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_BATCH):
		return bfly_ioctl_batch(file, fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_MSGSET):
		return bfly_ioctl_msgset(file, fab, uarg);
	case BFLY_IOC_BASE(BFLY_IOC_HREL):
		return bfly_ioctl_hrel(file, fab, uarg);
	default:
		return -ENOTTY;
	}
}
