/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The batch service: an all-to-all personalized exchange run as N
 * permutation rounds, with message data (the ioctl) or without (netlink).
 */
#ifndef _BFLY_BATCH_H
#define _BFLY_BATCH_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <uapi/linux/bfly.h>

#include "lib/selfroute.h"

struct bfly_fabric;
struct bfly_geometry;

/**
 * struct bfly_batch_req - a batch, as a frontend hands it over
 * @schedule: one of &enum bfly_schedule
 * @strict: a round with conflicts fails the batch (-EBUSY) instead of
 *	running as conflict-free sub-rounds
 * @msg_size: bytes per message; 0 runs the schedule without data
 * @send: with @msg_size, the N * N send slots (user memory)
 * @recv: with @msg_size, the N * N receive slots (user memory)
 * @square: %BFLY_SCHED_SQUARE: the caller's N * N Latin square (user
 *	memory); NULL otherwise
 * @want_done: keep the bitmap of the receive slots filled
 * @conflicts_max: conflicts of a strict batch's failing round to list
 * @affected: NULL, or room (user memory) for @affected_max references of
 *	the messages a fault hits
 * @affected_max: see @affected
 * @minimal: on a flattened butterfly, minimal routes (uapi
 *	%BFLY_BATCH_MINIMAL)
 * @rounds: NULL, or on a flattened butterfly N &struct bfly_round (user
 *	memory) for each round's figures
 * @killable: stop for fatal signals only (a netlink request, which cannot
 *	be restarted); otherwise any signal stops the batch between blocks of rounds
 */
struct bfly_batch_req {
	u32 schedule;
	bool strict;
	u64 msg_size;
	u8 __user *send;
	u8 __user *recv;
	const u32 __user *square;
	bool want_done;
	u32 conflicts_max;
	struct bfly_msg_ref __user *affected;
	u32 affected_max;
	bool minimal;
	struct bfly_round __user *rounds;
	bool killable;
};

/**
 * struct bfly_batch_res - what a batch did
 * @rounds: rounds run
 * @sub_rounds: sub-rounds run (a round without conflicts is one)
 * @conflicts: internal conflicts met
 * @first_conflict_round: the first round with conflicts, or
 *	%BFLY_NO_CONFLICT
 * @max_link_load: the largest link load of a round as scheduled
 * @cycles: pipelined cycles the batch took
 * @bytes_moved: message bytes copied
 * @affected: messages a fault hit (not delivered)
 * @faults: the fabric's faults when the batch started
 * @cycles_bound: on a flattened butterfly, the fewest cycles of any
 *	schedule of the exchange; else 0
 * @elapsed_ns: the batch's time
 * @conflicts_list: a strict batch's failing round: its conflicts
 * @done: with @want_done, the receive slots filled (N * N bits)
 * @why: with an error before the first round, a short reason
 * @run: the batch's buffers, freed by bfly_batch_done()
 */
struct bfly_batch_res {
	u32 rounds;
	u32 sub_rounds;
	u64 conflicts;
	u32 first_conflict_round;
	u32 max_link_load;
	u64 cycles;
	u64 cycles_bound;
	u64 bytes_moved;
	u64 affected;
	u32 faults;
	u64 elapsed_ns;
	const struct bfly_conflicts *conflicts_list;
	const unsigned long *done;
	const char *why;
	struct bfly_batch_run *run;
};

int bfly_batch_bytes(const struct bfly_geometry *geo, u64 msg_size, u64 *total);
int bfly_batch(struct bfly_fabric *fab, const struct bfly_batch_req *req,
	       struct bfly_batch_res *res);
void bfly_batch_done(struct bfly_batch_res *res);

#endif /* _BFLY_BATCH_H */
