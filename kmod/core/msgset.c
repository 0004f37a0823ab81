// SPDX-License-Identifier: GPL-2.0
/*
 * Message sets for BFLY_IOC_MSGSET and the netlink msgset command, one
 * path: the checks, the workspace charged to the request, the routing in
 * lib/lcan_cycles.c and the payload moved cycle by cycle.
 */
#include <linux/build_bug.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "lib/lcan.h"
#include "msglist.h"
#include "msgset.h"

/* The uapi's modes and strategies are the library's. */
static_assert((int)BFLY_MSGSET_BIDIR == (int)BFLY_LCAN_BIDIR);
static_assert((int)BFLY_MSGSET_UNIDIR == (int)BFLY_LCAN_UNIDIR);
static_assert((int)BFLY_MSGSET_ONLINE == (int)BFLY_LCAN_ONLINE);
static_assert((int)BFLY_MSGSET_OFFLINE == (int)BFLY_LCAN_OFFLINE);
static_assert(sizeof(struct bfly_msgset) == BFLY_MSGSET_SIZE_VER0);
static_assert(BFLY_MSGSET_NOT_ROUTED == BFLY_MSGLIST_NONE);

/*
 * Read the messages into @ms's source and destination arrays, checking
 * each in turn, so that the first bad one is named; @payload: any has one.
 */
static int bfly_msgset_read(const struct bfly_msgset_req *req, struct bfly_msgset_res *res,
			    const struct bfly_lcan *g, struct bfly_msgset_msg *msgs,
			    u32 *src, u32 *dst, const u32 *given, bool *payload)
{
	struct bfly_lcan_msgset one = { .mode = req->mode, .strategy = req->strategy };
	u32 m, bad;
	int err;

	err = req->read_msgs(req->ctx, msgs, req->count);
	if (err)
		return err;
	*payload = false;
	one.count = 1;
	for (m = 0; m < req->count; m++) {
		src[m] = msgs[m].src;
		dst[m] = msgs[m].dst;
		one.src = &src[m];
		one.dst = &dst[m];
		one.given = given ? given + (u64)m * 2 * g->levels : NULL;
		res->bad_msg = m;
		res->has_bad_msg = true;
		if (bfly_lcan_msgset_check(g, &one, &bad, &res->why))
			return -EINVAL;
		if (msgs[m].pad) {
			res->why = "a message's pad is not zero";
			return -EINVAL;
		}
		res->why = bfly_msglist_payload_check(&req->bufs, &msgs[m]);
		if (res->why)
			return -EINVAL;
		*payload |= msgs[m].len != 0;
	}
	res->has_bad_msg = false;
	res->bad_msg = 0;
	return 0;
}

/* Move the routed messages' payload, cycle by cycle, in message order within one. */
static int bfly_msgset_move(struct bfly_fabric *fab, const struct bfly_msgset_req *req,
			    struct bfly_msgset_res *res, const struct bfly_msgset_msg *msgs)
{
	u32 *first, *order;
	int err = 0;

	first = bfly_mem_alloc_array(&res->mem, (size_t)res->cycles + 1, sizeof(*first), false);
	order = bfly_mem_alloc_array(&res->mem, res->routed ?: 1, sizeof(*order), false);
	if (!first || !order)
		err = res->mem.err;
	if (!err) {
		bfly_msglist_sort(req->count, res->cycle, res->cycles, first, order);
		err = bfly_msglist_move(fab, &req->bufs, msgs, order, first, res->cycles,
					NULL, &res->bytes_moved);
	}
	kvfree(first);
	kvfree(order);
	return err;
}

/**
 * bfly_msgset() - route a message set on an LCAN in network cycles
 * @fab: the fabric, referenced by the caller
 * @req: the set and what to report
 * @res: receives the result; bfly_msgset_done() frees it
 *
 * The fabric's settings are not read or changed: each cycle starts with
 * every wire free.
 *
 * Return: 0; -EOPNOTSUPP on a fabric other than an LCAN; -EINVAL for a bad
 * mode, strategy, message or buffer (@res->bad_msg and @res->why say
 * which); -E2BIG for more than %BFLY_MSGSET_MAX_MSGS messages, or -E2BIG
 * or -ENOMEM from the memory limits; -EFAULT; -EINTR when a signal stopped
 * it and -ENODEV when the fabric was deleted (@res->reported then says
 * whether the routing finished: the payload of the cycles before moved).
 */
int bfly_msgset(struct bfly_fabric *fab, const struct bfly_msgset_req *req,
		struct bfly_msgset_res *res)
{
	struct bfly_lcan_msgset ms = {
		.count = req->count, .mode = req->mode, .strategy = req->strategy,
		.max_cycles = req->max_cycles, .seed = req->seed,
	};
	struct bfly_msgset_msg *msgs = NULL;
	struct bfly_lcan *g = NULL;
	u32 *src = NULL, *dst = NULL, *given = NULL;
	void *work = NULL;
	bool payload;
	int err;

	res->mem.fab = fab;
	if (!fab->geo.lcan) {
		res->why = "message sets run on an LCAN (cb-lcan, t-lcan, fattree)";
		return -EOPNOTSUPP;
	}
	if (READ_ONCE(fab->dead)) {
		res->why = BFLY_WHY_DELETED;
		return -ENODEV;
	}
	if (!req->count) {
		res->why = "count: a message set has one message at least";
		return -EINVAL;
	}
	if (req->count > BFLY_MSGSET_MAX_MSGS) {
		res->why = "count: more than 2^24 messages";
		return -E2BIG;
	}
	res->why = bfly_msglist_bufs_check(&req->bufs);
	if (res->why)
		return -EINVAL;
	g = bfly_mem_alloc(&res->mem, sizeof(*g), false);
	if (!g)
		goto nomem;
	bfly_lcan_of(&fab->geo, g);
	if (req->read_paths) {
		given = bfly_mem_alloc_array(&res->mem, (size_t)req->count * 2,
					     g->levels * sizeof(u32), false);
		if (!given)
			goto nomem;
		ms.given = given;
	}
	/* The mode and strategy first: the set without its messages. */
	ms.count = 0;
	err = bfly_lcan_msgset_check(g, &ms, &res->bad_msg, &res->why);
	if (err)
		goto out;
	res->levels = g->levels;
	res->channels = bfly_lcan_channels(g, req->mode);
	err = -EINVAL;
	if ((req->want_paths || req->read_paths) &&
	    req->path_room < (u64)req->count * 2 * g->levels) {
		res->why = "path_entries: fewer than count * 2 * levels";
		goto out;
	}
	if (req->want_loads && req->load_room < res->channels) {
		res->why = "load_entries: fewer than the channels";
		goto out;
	}
	msgs = bfly_mem_alloc_array(&res->mem, req->count, sizeof(*msgs), false);
	src = bfly_mem_alloc_array(&res->mem, req->count, sizeof(*src), false);
	dst = bfly_mem_alloc_array(&res->mem, req->count, sizeof(*dst), false);
	if (!msgs || !src || !dst)
		goto nomem;
	ms.src = src;
	ms.dst = dst;
	if (given) {
		err = req->read_paths(req->ctx, given, (u64)req->count * 2 * g->levels);
		if (err)
			goto out;
	}
	err = bfly_msgset_read(req, res, g, msgs, src, dst, given, &payload);
	if (err)
		goto out;
	ms.count = req->count;
	res->cycle = bfly_mem_alloc_array(&res->mem, req->count, sizeof(u32), false);
	if (req->want_paths)
		/* Zeroed: a message left unrouted has no choices to report. */
		res->paths = bfly_mem_alloc_array(&res->mem, (size_t)req->count * 2,
						  g->levels * sizeof(u32), true);
	if (req->want_loads)
		res->load = bfly_mem_alloc_array(&res->mem, res->channels, sizeof(u32), false);
	work = bfly_mem_alloc(&res->mem, bfly_lcan_msgset_workspace_size(g, req->count), false);
	if (!res->cycle || (req->want_paths && !res->paths) ||
	    (req->want_loads && !res->load) || !work)
		goto nomem;
	ms.cycle = res->cycle;
	ms.choices = res->paths;
	ms.load = res->load;
	err = bfly_lcan_msgset_route(g, &ms, work);
	res->cycles = ms.cycles;
	res->routed = ms.routed;
	res->lambda_load = ms.lambda_load;
	res->lambda_cap = ms.lambda_cap;
	res->bound = ms.bound;
	res->reported = !err;
	if (err == -E2BIG) {
		res->why = "count x ceil(lambda(M)): over 2^30 tries; split the set";
		goto out;
	}
	if (err) {
		res->why = "a signal stopped the routing";
		goto out;
	}
	if (payload) {
		err = bfly_msgset_move(fab, req, res, msgs);
		if (err == -EINTR)
			res->why = "a signal stopped the payload between cycles";
		else if (err == -ENODEV)
			res->why = "the fabric was deleted";
		else if (err == -EFAULT)
			res->why = "a buffer the process cannot access";
		else
			res->why = bfly_mem_why(err);
	}
	goto out;
nomem:
	err = res->mem.err;
	res->why = bfly_mem_why(err);
out:
	kvfree(work);
	kvfree(given);
	kvfree(dst);
	kvfree(src);
	kvfree(msgs);
	kvfree(g);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msgset);

/**
 * bfly_msgset_done() - free a message set's result
 * @res: filled by bfly_msgset()
 */
void bfly_msgset_done(struct bfly_msgset_res *res)
{
	kvfree(res->cycle);
	kvfree(res->paths);
	kvfree(res->load);
	res->cycle = NULL;
	res->paths = NULL;
	res->load = NULL;
	if (res->mem.fab)
		bfly_mem_release(&res->mem);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msgset_done);

