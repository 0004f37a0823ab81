/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The message-set service: a set of (source, destination) messages routed
 * on an LCAN in network cycles (lib/lcan_cycles.c), their payload moved
 * cycle by cycle.
 */
#ifndef _BFLY_MSGSET_H
#define _BFLY_MSGSET_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <uapi/linux/bfly.h>

#include "core.h"
#include "msglist.h"

struct bfly_fabric;

/**
 * struct bfly_msgset_req - a message set, as a frontend hands it over
 * @count: messages
 * @mode: one of &enum bfly_msgset_mode
 * @strategy: one of &enum bfly_msgset_strategy
 * @max_cycles: stop after this many cycles; 0 for no limit
 * @seed: the on-line strategy's random choices
 * @read_msgs: fills @count &struct bfly_msgset_msg from the frontend's
 *	request; returns 0 or an error (sets the extack itself)
 * @ctx: passed to @read_msgs and @read_paths
 * @read_paths: NULL, or fills @count * 2 l u32, each message's given path
 *	(&struct bfly_msgset path layout); returns 0 or an error
 * @bufs: the payload's buffers, and which signals stop it
 * @want_paths: keep each message's choices in &bfly_msgset_res.paths
 * @path_room: with @want_paths, the entries the frontend has room for
 * @want_loads: keep each channel's load in &bfly_msgset_res.load
 * @load_room: with @want_loads, the entries the frontend has room for
 */
struct bfly_msgset_req {
	u32 count;
	u32 mode;
	u32 strategy;
	u32 max_cycles;
	u64 seed;
	int (*read_msgs)(void *ctx, struct bfly_msgset_msg *msgs, u32 count);
	void *ctx;
	int (*read_paths)(void *ctx, u32 *paths, u64 entries);
	struct bfly_msglist_bufs bufs;
	bool want_paths;
	u64 path_room;
	bool want_loads;
	u64 load_room;
};

/**
 * struct bfly_msgset_res - what routing a message set did
 * @levels: the network's levels l
 * @cycles: network cycles used
 * @routed: messages routed
 * @lambda_load: load of the channel of greatest load factor
 * @lambda_cap: its capacity
 * @bound: ceil(lambda(M))
 * @channels: channels of the load report
 * @bytes_moved: payload bytes moved
 * @bad_msg: with @has_bad_msg, the index of the message at fault
 * @has_bad_msg: the -EINVAL is for a message
 * @reported: the figures above and @cycle hold a result (routing ran)
 * @cycle: each message's cycle, %BFLY_MSGSET_NOT_ROUTED if not routed
 * @paths: with &bfly_msgset_req.want_paths, 2 l choices per message
 * @load: with &bfly_msgset_req.want_loads, each channel's load
 * @why: on error, a short reason, or NULL
 * @mem: the memory charged, given back by bfly_msgset_done()
 */
struct bfly_msgset_res {
	u32 levels;
	u32 cycles;
	u32 routed;
	u32 lambda_load;
	u32 lambda_cap;
	u32 bound;
	u64 channels;
	u64 bytes_moved;
	u32 bad_msg;
	bool has_bad_msg;
	bool reported;
	u32 *cycle;
	u32 *paths;
	u32 *load;
	const char *why;
	struct bfly_mem mem;
};

int bfly_msgset(struct bfly_fabric *fab, const struct bfly_msgset_req *req,
		struct bfly_msgset_res *res);
void bfly_msgset_done(struct bfly_msgset_res *res);

#endif /* _BFLY_MSGSET_H */
