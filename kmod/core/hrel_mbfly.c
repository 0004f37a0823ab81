// SPDX-License-Identifier: GPL-2.0
/*
 * An h-relation on a multibutterfly: the whole relation routed at once
 * with the multibutterfly paper's Section 3 algorithm (lib/mbfly_route.c),
 * Theorem 2's bound checked, each message's path kept on request, then
 * the payload moved as one round.
 */
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "lib/mbfly.h"
#include "hrel.h"

/* Why round permutations of a relation of h above 1 are refused */
static const char bfly_hrel_mbfly_no_perms[] =
	"round perms: one multibutterfly round, a permutation only for h = 1; ask for the paths";

/* Read and check the messages (bfly_hrel_read_msgs()), and pair them for the routing. */
static int bfly_hrel_mbfly_read(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
				struct bfly_msgset_msg *msgs, struct bfly_mbfly_msg *pairs,
				bool *payload)
{
	u32 m;
	int err;

	err = bfly_hrel_read_msgs(req, res, msgs, payload);
	if (err)
		return err;
	for (m = 0; m < req->count; m++) {
		pairs[m].src = msgs[m].src;
		pairs[m].dst = msgs[m].dst;
	}
	return 0;
}

/* Set @res->why for an error of the routing or the payload. */
static void bfly_hrel_mbfly_why(struct bfly_hrel_res *res, int err)
{
	if (err == -EAGAIN)
		res->why = "the stage limit stopped the routing with messages left; nothing moved";
	else if (err == -EOVERFLOW)
		res->why = "a node's buffers overflowed; nothing moved";
	else if (err == -E2BIG && !res->mem.err)
		res->why = "h: above 256, the most a multibutterfly routes; split the relation";
	else if (err == -EINTR)
		res->why = "a signal stopped the h-relation";
	else if (err == -ENODEV)
		res->why = "the fabric was deleted";
	else if (err == -EFAULT)
		res->why = "a buffer the process cannot access";
	else if (err == -E2BIG || err == -ENOMEM)
		res->why = bfly_mem_why(err);
}

/* The figures of a routing that delivered every message. */
static void bfly_hrel_mbfly_report(struct bfly_hrel_res *res, const struct bfly_mbfly_result *r)
{
	u32 m;

	res->h = r->h;
	res->colours = 0;
	res->rounds = 1;
	res->cycles = r->stages;
	res->mbfly.stages = r->stages;
	res->mbfly.max_through = r->max_through;
	res->mbfly.hbar = r->hbar;
	res->mbfly.bound_ok = r->bound_ok;
	res->mbfly.forced = r->forced;
	res->mbfly.max_w = r->max_w;
	for (m = 0; m < res->count; m++) {
		res->round[m] = 0;
		res->order[m] = m;
	}
	res->first[0] = 0;
	res->first[1] = res->count;
	res->reported = true;
}

static int bfly_hrel_mbfly_run(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
			       struct bfly_hrel_res *res, struct bfly_msgset_msg **msgs)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_mem *mem = &res->mem;
	struct bfly_mbfly_msg *pairs = NULL;
	struct bfly_mbfly_result r;
	struct bfly_mbfly g;
	void *work = NULL;
	size_t work_size;
	bool payload = false;
	int err;

	err = bfly_mbfly_init(&g, geo->ports, geo->mbfly_d, geo->mbfly_seed, &res->why);
	if (err)
		return err;
	work_size = bfly_mbfly_route_workspace_size(&g, req->count);
	if (!work_size) {
		res->why = "count: more than N x 256 messages, the most a multibutterfly routes";
		return -E2BIG;
	}
	res->mbfly.columns = g.log + 1;
	*msgs = bfly_mem_alloc_array(mem, req->count, sizeof(**msgs), false);
	pairs = bfly_mem_alloc_array(mem, req->count, sizeof(*pairs), false);
	res->src = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->dst = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->round = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->order = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->first = bfly_mem_alloc_array(mem, 2, sizeof(u32), false);
	if (req->want_paths)
		res->mbfly.paths = bfly_mem_alloc_array(mem, req->count,
							res->mbfly.columns * sizeof(u32), false);
	if (!mem->err)
		err = bfly_hrel_mbfly_read(req, res, *msgs, pairs, &payload);
	if (!mem->err && !err)
		work = bfly_mem_alloc(mem, work_size, false);
	err = mem->err ?: err;
	if (!err)
		err = bfly_mbfly_route(&g, req->mbfly_params, pairs, req->count,
				       res->mbfly.paths, &r, work);
	kvfree(work);
	kvfree(pairs);
	if (err)
		return err;
	/* one round holding h messages of an input: no permutation to give */
	if (req->want_perms && r.h > 1) {
		res->why = bfly_hrel_mbfly_no_perms;
		return -EINVAL;
	}
	bfly_hrel_mbfly_report(res, &r);
	if (!payload)
		return 0;
	return bfly_msglist_move(fab, &req->bufs, *msgs, res->order, res->first, 1, NULL,
				 &res->bytes_moved);
}

/**
 * bfly_hrel_mbfly() - run an h-relation on a multibutterfly
 * @fab: the multibutterfly, referenced by the caller
 * @req: the relation and its buffers
 * @res: receives the result (bfly_hrel_done() frees it); @res->mem.fab,
 *	@res->count and @res->ports are set
 *
 * Every message is routed at once along its logical path; its payload
 * then moves as one round. Figures: h, the stages (also @res->cycles),
 * the most messages through a node, h-bar and whether Theorem 2's bound
 * held; @res->colours is 0 and @res->rounds 1.
 *
 * Return: 0; -EINVAL for no messages, misaligned buffers, a bad message,
 * or round permutations wanted (&bfly_hrel_req.want_perms) of a relation
 * of h above 1 (nothing moved); -E2BIG for h above 256, more than N x 256
 * or %BFLY_HREL_MAX_MSGS messages, or from the memory limits; -EAGAIN when the stage limit left
 * messages undelivered and -EOVERFLOW when a node's buffers overflowed
 * (nothing moved for either); -ENOMEM; -EFAULT; -EINTR; -ENODEV.
 */
int bfly_hrel_mbfly(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
		    struct bfly_hrel_res *res)
{
	struct bfly_msgset_msg *msgs = NULL;
	int err;

	err = bfly_hrel_check_req(req, res);
	if (err)
		return err;
	err = bfly_hrel_perm_alloc(req, res) ?: bfly_hrel_mbfly_run(fab, req, res, &msgs);
	if (err && !res->why)
		bfly_hrel_mbfly_why(res, err);
	kvfree(msgs);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_mbfly);
