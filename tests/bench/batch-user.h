/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BFLY_IOC_BATCH's work as a user program (batch-user.c): the kernel's
 * own schedule (kmod/lib) and block moves (kmod/core/msgblock.c and
 * msgcopy.c) built into the benchmark, for bench-batch to alternate with
 * the ioctl. Plain C types only, so that bench-batch.c, built with the
 * uapi header alone, can call it.
 */
#ifndef BFLY_BENCH_BATCH_USER_H
#define BFLY_BENCH_BATCH_USER_H

#include <linux/types.h>

/**
 * struct batch_user_res - what a user-program batch did, as the ioctl reports it
 * @rounds: rounds run
 * @sub_rounds: sub-rounds run
 * @cycles: pipelined cycles of the sub-rounds
 * @bytes_moved: message bytes copied
 */
struct batch_user_res {
	__u32 rounds;
	__u32 sub_rounds;
	__u64 cycles;
	__u64 bytes_moved;
};

int batch_user(__u32 ports, __u64 msg_size, const void *send, void *recv,
	       struct batch_user_res *res);

#endif /* BFLY_BENCH_BATCH_USER_H */
