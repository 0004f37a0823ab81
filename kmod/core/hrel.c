// SPDX-License-Identifier: GPL-2.0
/*
 * h-relations for BFLY_IOC_HREL and the netlink hrel command, one path:
 * the checks, the workspace charged to the request, the edge colouring
 * (lib/hrel.c) into h partial permutations, each routed on the fabric,
 * and the payload moved round by round.
 *
 * A colour becomes rounds by the fabric's family: on Benes one round, the
 * looping algorithm routing it completed to a permutation; on a butterfly
 * the conflict-free sub-rounds of its labels (lib/hrel_round.c,
 * lib/schedule.c); on bfly2 and bfly-twice the sub-rounds found as each
 * packet's middle row is chosen (lib/hrel_choose.c); on an LCAN the network cycles of
 * its messages routed off-line (lib/lcan_cycles.c); on the k-ary n-fly
 * and the flattened butterfly as hrel_fly.c says.
 *
 * The all-to-all exchange (every source to every destination once) is
 * not coloured: its rounds are the RLS schedule's, labelled as an
 * all-to-all batch labels them, so it runs as BFLY_IOC_BATCH runs it.
 */
#include <linux/build_bug.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "lib/benes.h"
#include "lib/hrel.h"
#include "lib/hrel_round.h"
#include "lib/lcan.h"
#include "lib/schedule.h"
#include "hrel.h"
#include "hrel_fly.h"
#include "msgcopy.h"
#include "msglist.h"

static_assert(sizeof(struct bfly_hrel) == BFLY_HREL_SIZE_VER1);
static_assert(BFLY_HREL_IDLE == BFLY_MSGLIST_NONE);

/* Middle rows a bfly2 or bfly-twice packet tries per sub-round (hrel.rst) */
#define BFLY_HREL_CHOOSE_TRIES 16

/* Rounds of work at most: h times N, as every colour costs a pass over N. */
#define BFLY_HREL_MAX_WORK_LOG2 30

/* How a family runs a colour */
enum bfly_hrel_way {
	BFLY_HREL_LOOPING,
	BFLY_HREL_LABELS,
	BFLY_HREL_CYCLES,
	BFLY_HREL_FLY,
};

/* One h-relation: its arguments, buffers and running totals. */
struct bfly_hrel_run {
	struct bfly_fabric *fab;
	const struct bfly_geometry *geo;
	const struct bfly_hrel_req *req;
	struct bfly_hrel_res *res;
	enum bfly_hrel_way way;
	struct bfly_msgset_msg *msgs;
	u32 *colour;			/* each message's colour */
	u32 *cfirst;			/* h + 1: where each colour starts in @corder */
	u32 *corder;			/* the messages by colour */
	u32 *part;			/* a colour's partial permutation */
	u32 *perm;			/* ... completed (looping) */
	u64 *labels;			/* ... its label (self-routing) */
	unsigned long *active;		/* the inputs that send */
	u32 *sub;			/* each input's sub-round */
	unsigned long *matrix;		/* the Benes settings of a round */
	struct bfly_lcan *lcan;		/* an LCAN's shape */
	u32 *lsrc, *ldst, *lcycle;	/* a colour as a message set */
	void *work;			/* the algorithms' workspace */
	u64 rng;
	struct bfly_hrel_fly fly;	/* a k-ary n-fly's or flattened butterfly's */
	bool exchange;			/* the all-to-all exchange: @sched's rounds */
	bool proven;			/* ... each conflict-free by theorem */
	struct bfly_sched sched;
};

/* Which way @geo's family runs a colour; -EOPNOTSUPP for none yet. */
static int bfly_hrel_way_of(const struct bfly_geometry *geo, enum bfly_hrel_way *way,
			    const char **why)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);

	if (geo->lcan) {
		*way = BFLY_HREL_CYCLES;
		return 0;
	}
	if (!geo->port_map && ops->perm_method == BFLY_METHOD_LOOPING) {
		*way = BFLY_HREL_LOOPING;
		return 0;
	}
	if (!geo->port_map && ops->sched_labels) {
		*way = BFLY_HREL_LABELS;
		return 0;
	}
	if (bfly_hrel_fly_takes(geo)) {
		*way = BFLY_HREL_FLY;
		return 0;
	}
	*why = "h-relations run on the butterflies, benes, kfly, flatfly and the LCANs";
	return -EOPNOTSUPP;
}

/* The buffers every way needs, and the ones of @run->way. */
static int bfly_hrel_alloc(struct bfly_hrel_run *run)
{
	const struct bfly_geometry *geo = run->geo;
	struct bfly_mem *mem = &run->res->mem;
	u32 ports = geo->ports;
	size_t work = 0;

	run->part = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
	switch (run->way) {
	case BFLY_HREL_LOOPING:
		run->perm = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		run->matrix = bfly_mem_alloc(mem, bfly_matrix_bytes(geo), false);
		work = max(bfly_benes_workspace_size(geo),
			   bfly_hrel_complete_workspace_size(ports));
		break;
	case BFLY_HREL_LABELS:
		run->labels = bfly_mem_alloc_array(mem, ports, sizeof(u64), false);
		run->active = bfly_mem_alloc(mem, BFLY_MATRIX_BYTES(ports), false);
		run->sub = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		work = max(bfly_sched_split_workspace_size(geo),
			   bfly_hrel_choose_workspace_size(geo));
		break;
	case BFLY_HREL_CYCLES:
		run->lcan = bfly_mem_alloc(mem, sizeof(*run->lcan), false);
		if (run->lcan)
			bfly_lcan_of(geo, run->lcan);
		run->lsrc = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		run->ldst = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		run->lcycle = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		if (run->lcan)
			work = bfly_lcan_msgset_workspace_size(run->lcan, ports);
		break;
	case BFLY_HREL_FLY:
		run->sub = bfly_mem_alloc_array(mem, ports, sizeof(u32), false);
		bfly_hrel_fly_alloc(&run->fly, geo, mem);
		break;
	}
	if (work)
		run->work = bfly_mem_alloc(mem, work, false);
	return mem->err;
}

/* Colour @c's messages as the partial permutation @run->part. */
static void bfly_hrel_colour_part(struct bfly_hrel_run *run, u32 c)
{
	struct bfly_hrel_res *res = run->res;
	u32 i, m;

	for (i = 0; i < run->geo->ports; i++)
		run->part[i] = BFLY_HREL_IDLE;
	for (i = run->cfirst[c]; i < run->cfirst[c + 1]; i++) {
		m = run->corder[i];
		run->part[res->src[m]] = res->dst[m];
	}
}

/* Colour @c on Benes: one round, routed by looping. */
static int bfly_hrel_looping(struct bfly_hrel_run *run, u32 c)
{
	struct bfly_hrel_res *res = run->res;
	u32 i;
	int err;

	err = bfly_hrel_complete(run->geo->ports, run->part, run->perm, run->work);
	if (!err)
		err = bfly_benes_route(run->geo, run->perm, run->matrix, run->work);
	if (err)
		return err;
	for (i = run->cfirst[c]; i < run->cfirst[c + 1]; i++)
		res->round[run->corder[i]] = res->rounds;
	res->rounds++;
	return 0;
}

/*
 * Colour @c's labels and sub-rounds on a self-routing fabric: the batch's
 * RLS labels for the exchange, bfly2's and bfly-twice's middle rows
 * chosen as the colour is split, the butterfly's destinations split.
 * Return: the sub-rounds, or an error.
 */
static int bfly_hrel_label_split(struct bfly_hrel_run *run, u32 c)
{
	const struct bfly_geometry *geo = run->geo;
	int err;

	if (run->exchange) {
		err = bfly_sched_round(&run->sched, c, NULL, run->labels);
		bitmap_fill(run->active, geo->ports);
	} else if (geo->node_stages > geo->ports_log2) {
		return bfly_hrel_choose(geo, run->part, &run->rng, BFLY_HREL_CHOOSE_TRIES,
					run->labels, run->active, run->sub, run->work);
	} else {
		err = bfly_hrel_labels(geo, run->part, &run->rng, run->labels, run->active);
	}
	if (err)
		return err;
	return bfly_sched_split(geo, run->labels, run->active, run->sub, run->work);
}

/* Colour @c on a self-routing fabric: its labels' conflict-free sub-rounds. */
static int bfly_hrel_labelled(struct bfly_hrel_run *run, u32 c)
{
	struct bfly_hrel_res *res = run->res;
	u32 i, in;
	int nsub;

	nsub = bfly_hrel_label_split(run, c);
	if (nsub < 0)
		return nsub;
	for (i = run->cfirst[c]; i < run->cfirst[c + 1]; i++) {
		in = res->src[run->corder[i]];
		res->round[run->corder[i]] = res->rounds + run->sub[in];
	}
	res->rounds += nsub;
	return 0;
}

/* Colour @c on an LCAN: its network cycles, the messages known in advance. */
static int bfly_hrel_cycles(struct bfly_hrel_run *run, u32 c)
{
	struct bfly_hrel_res *res = run->res;
	u32 i, k = run->cfirst[c + 1] - run->cfirst[c], m;
	struct bfly_lcan_msgset ms = {
		.src = run->lsrc, .dst = run->ldst, .count = k,
		.mode = BFLY_LCAN_BIDIR, .strategy = BFLY_LCAN_OFFLINE,
		.cycle = run->lcycle,
	};
	int err;

	for (i = 0; i < k; i++) {
		m = run->corder[run->cfirst[c] + i];
		run->lsrc[i] = res->src[m];
		run->ldst[i] = res->dst[m];
	}
	err = bfly_lcan_msgset_route(run->lcan, &ms, run->work);
	if (err)
		return err;
	for (i = 0; i < k; i++)
		res->round[run->corder[run->cfirst[c] + i]] = res->rounds + run->lcycle[i];
	res->rounds += ms.cycles;
	return 0;
}

/* Colour @c on a k-ary n-fly or flattened butterfly: its rounds (hrel_fly.c). */
static int bfly_hrel_flown(struct bfly_hrel_run *run, u32 c)
{
	struct bfly_hrel_res *res = run->res;
	u32 i, in;
	int nsub;

	nsub = bfly_hrel_fly_colour(&run->fly, run->part, run->exchange, c, run->sub);
	if (nsub < 0)
		return nsub;
	for (i = run->cfirst[c]; i < run->cfirst[c + 1]; i++) {
		in = res->src[run->corder[i]];
		res->round[run->corder[i]] = res->rounds + run->sub[in];
	}
	res->rounds += nsub;
	return 0;
}

/* Every colour, in order, its rounds numbered on from the last one's. */
static int bfly_hrel_route(struct bfly_hrel_run *run)
{
	struct bfly_hrel_res *res = run->res;
	u32 c;
	int err;

	/* proven exchange rounds route at once, as a batch runs them: round = colour */
	if (run->proven) {
		bfly_hrel_exchange_rounds(run->geo->ports, run->req->count, res->src, res->dst,
					  res->round);
		res->rounds = res->colours;
	}
	for (c = 0; c < res->colours && !run->proven; c++) {
		if (bfly_hrel_stop(run->req))
			return -EINTR;
		if (READ_ONCE(run->fab->dead))
			return -ENODEV;
		bfly_hrel_colour_part(run, c);
		if (run->way == BFLY_HREL_LOOPING)
			err = bfly_hrel_looping(run, c);
		else if (run->way == BFLY_HREL_LABELS)
			err = bfly_hrel_labelled(run, c);
		else if (run->way == BFLY_HREL_FLY)
			err = bfly_hrel_flown(run, c);
		else
			err = bfly_hrel_cycles(run, c);
		if (err)
			return err;
		cond_resched();
	}
	if (run->way == BFLY_HREL_CYCLES)
		res->cycles = res->rounds;
	else if (run->way == BFLY_HREL_FLY)
		res->cycles = bfly_hrel_fly_cycles(&run->fly, res->rounds);
	else
		res->cycles = bfly_sched_cycles(run->geo, res->rounds);
	return 0;
}

/*
 * Is the relation the all-to-all exchange, run as a batch runs it? Its
 * colours are then the RLS schedule's rounds. A list in order
 * (@res->listed_a2a) is one without a look at its pairs.
 */
static int bfly_hrel_exchange(struct bfly_hrel_run *run)
{
	struct bfly_hrel_res *res = run->res;
	u32 ports = run->geo->ports;
	void *work;
	int err;

	if (run->way == BFLY_HREL_CYCLES || res->h != ports)
		return 0;
	if (run->way == BFLY_HREL_FLY && !bfly_hrel_fly_exchange(run->geo))
		return 0;
	run->exchange = res->listed_a2a;
	if (!run->exchange) {
		work = bfly_mem_alloc(&res->mem, bfly_hrel_exchange_workspace_size(ports),
				      false);
		if (!work)
			return res->mem.err;
		run->exchange = bfly_hrel_is_exchange(ports, run->req->count, res->src,
						      res->dst, work);
		kvfree(work);
	}
	if (!run->exchange || run->way == BFLY_HREL_FLY)
		return 0;
	err = bfly_sched_init(&run->sched, run->geo, BFLY_LATIN_RLS, NULL, NULL);
	run->exchange = !err;
	run->proven = !err && run->way == BFLY_HREL_LABELS && bfly_sched_proven(&run->sched);
	return err;
}

/*
 * The edge colouring: the messages by colour, @run->cfirst and
 * @run->corder. The exchange's colours are its RLS rounds; listed in
 * order, its messages by round are known without a sort.
 */
static int bfly_hrel_colour_all(struct bfly_hrel_run *run)
{
	struct bfly_hrel_res *res = run->res;
	struct bfly_mem *mem = &res->mem;
	u32 ports = run->geo->ports, count = run->req->count;
	void *work = NULL;
	int err;

	run->cfirst = bfly_mem_alloc_array(mem, (size_t)res->h + 1, sizeof(u32), false);
	run->corder = bfly_mem_alloc_array(mem, count, sizeof(u32), false);
	err = mem->err ?: bfly_hrel_exchange(run);
	if (err)
		return err;
	res->colours = res->h;
	if (run->exchange && res->listed_a2a) {
		bfly_hrel_exchange_listed_order(ports, run->cfirst, run->corder);
		return 0;
	}
	run->colour = bfly_mem_alloc_array(mem, count, sizeof(u32), false);
	if (!run->colour)
		return mem->err;
	if (run->exchange) {
		bfly_hrel_exchange_rounds(ports, count, res->src, res->dst, run->colour);
	} else {
		work = bfly_mem_alloc(mem, bfly_hrel_workspace_size(ports, count, res->h), false);
		err = mem->err ?: bfly_hrel_colour(ports, count, res->src, res->dst, res->h,
						   run->colour, work);
		kvfree(work);
		if (err)
			return err;
	}
	bfly_msglist_sort(count, run->colour, res->colours, run->cfirst, run->corder);
	return 0;
}

/* Set @res->why for an error of the routing or the payload. */
static void bfly_hrel_why(struct bfly_hrel_res *res, int err)
{
	if (err == -EINTR)
		res->why = "a signal stopped the h-relation";
	else if (err == -ENODEV)
		res->why = "the fabric was deleted";
	else if (err == -EFAULT)
		res->why = "a buffer the process cannot access";
	else if (err == -E2BIG || err == -ENOMEM)
		res->why = bfly_mem_why(err);
}

/* The relation's degree, and the refusal of a relation too large to route. */
static int bfly_hrel_degree_check(struct bfly_hrel_run *run)
{
	struct bfly_hrel_res *res = run->res;
	u32 ports = run->geo->ports, bad;
	void *work;
	int err;

	/* the exchange listed in order: h = N, and N * N messages fit 2^30 */
	if (res->listed_a2a) {
		res->h = ports;
		return 0;
	}
	work = bfly_mem_alloc(&res->mem, bfly_hrel_degree_workspace_size(ports), false);
	if (!work)
		return res->mem.err;
	err = bfly_hrel_degree(ports, run->req->count, res->src, res->dst, &res->h, &bad,
			       work);
	kvfree(work);
	if (err)
		return err;
	if (((u64)res->h * ports) >> BFLY_HREL_MAX_WORK_LOG2) {
		res->why = "h x N: over 2^30; split the relation";
		return -E2BIG;
	}
	return 0;
}

/* The run's buffers, freed; the result's stay for the frontend. */
static void bfly_hrel_free(struct bfly_hrel_run *run)
{
	kvfree(run->msgs);
	kvfree(run->colour);
	kvfree(run->cfirst);
	kvfree(run->corder);
	kvfree(run->part);
	kvfree(run->perm);
	kvfree(run->labels);
	kvfree(run->active);
	kvfree(run->sub);
	kvfree(run->matrix);
	kvfree(run->lcan);
	kvfree(run->lsrc);
	kvfree(run->ldst);
	kvfree(run->lcycle);
	kvfree(run->work);
	bfly_hrel_fly_free(&run->fly);
}

/*
 * The messages by round. Where every colour ran as one round (round c is
 * colour c: each colour has a round at least), they are the messages by
 * colour, in list order within one as the sort gives them.
 */
static int bfly_hrel_by_round(struct bfly_hrel_run *run)
{
	struct bfly_hrel_res *res = run->res;
	struct bfly_mem *mem = &res->mem;
	u32 count = run->req->count;

	if (res->rounds == res->colours) {
		swap(res->first, run->cfirst);
		swap(res->order, run->corder);
		return 0;
	}
	res->first = bfly_mem_alloc_array(mem, (size_t)res->rounds + 1, sizeof(u32), false);
	res->order = bfly_mem_alloc_array(mem, count, sizeof(u32), false);
	if (mem->err)
		return mem->err;
	bfly_msglist_sort(count, res->round, res->rounds, res->first, res->order);
	return 0;
}

/*
 * The payload's scratch, charged before the report is made, so that a
 * limit it passes refuses the request with no figure reported (as every
 * buffer before it). Streaming or not is decided here, once:
 * payload_stream_bytes may change before the copy.
 */
static u32 *bfly_hrel_payload_scratch(struct bfly_hrel_run *run, struct bfly_msglist_slots *sl)
{
	struct bfly_hrel_res *res = run->res;
	u32 carried = res->first[res->rounds];
	size_t entries = BFLY_MSGLIST_SCRATCH(carried);

	*sl = (struct bfly_msglist_slots){
		.ports = res->ports, .size = res->slot_size, .src = res->src, .dst = res->dst,
	};
	sl->stream = bfly_msg_stream((u64)carried * sl->size);
	if (sl->size)
		entries = bfly_msglist_slots_scratch(sl, carried);
	return bfly_mem_alloc_array(&res->mem, entries, sizeof(u32), false);
}

/*
 * The payload, in blocks of rounds: a list in a batch's layout by the
 * batch's own block copy, any other sorted by offsets (msglist.c).
 * Frees @scratch.
 */
static int bfly_hrel_payload(struct bfly_hrel_run *run, const struct bfly_msglist_slots *sl,
			     u32 *scratch)
{
	struct bfly_hrel_res *res = run->res;
	const struct bfly_msglist_bufs *b = &run->req->bufs;
	int err;

	if (sl->size)
		err = bfly_msglist_move_slots(run->fab, b, sl, run->msgs, res->order, res->first,
					      res->rounds, scratch, &res->bytes_moved);
	else
		err = bfly_msglist_move(run->fab, b, run->msgs, res->order, res->first,
					res->rounds, scratch, &res->bytes_moved);
	kvfree(scratch);
	return err;
}

static int bfly_hrel_run(struct bfly_hrel_run *run)
{
	const struct bfly_hrel_req *req = run->req;
	struct bfly_hrel_res *res = run->res;
	struct bfly_mem *mem = &res->mem;
	struct bfly_msglist_slots sl;
	bool payload, read = false;
	u32 *scratch = NULL;
	u64 size;
	int err = 0;

	if (run->way == BFLY_HREL_LABELS && bfly_hrel_batch_way(run->geo, req->count)) {
		err = bfly_hrel_read_batch(req, res, &run->msgs, &size);
		if (err)
			return err;
		if (!run->msgs)
			return bfly_hrel_batch_run(run->fab, req, res, size);
		read = true;
	} else {
		run->msgs = bfly_mem_alloc_array(mem, req->count, sizeof(*run->msgs), false);
	}
	res->src = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->dst = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	res->round = bfly_mem_alloc_array(mem, req->count, sizeof(u32), false);
	if (mem->err)
		return mem->err;
	if (!read)
		err = req->read_msgs(req->ctx, run->msgs, 0, req->count);
	if (!err)
		err = bfly_hrel_check_msgs(req, res, run->msgs, &payload);
	if (err)
		return err;
	err = bfly_hrel_degree_check(run);
	if (err)
		return err;
	err = bfly_hrel_colour_all(run);
	if (!err)
		err = bfly_hrel_alloc(run);
	if (!err)
		err = bfly_hrel_route(run);
	if (err)
		return err;
	err = bfly_hrel_by_round(run);
	if (err)
		return err;
	if (payload) {
		scratch = bfly_hrel_payload_scratch(run, &sl);
		if (!scratch)
			return mem->err;
	}
	res->reported = true;
	if (!payload)
		return 0;
	return bfly_hrel_payload(run, &sl, scratch);
}

/**
 * bfly_hrel_check_req() - the checks of an h-relation request every fabric makes
 * @req: the request
 * @res: receives the reason of a refusal
 *
 * Return: 0; -EINVAL for no message or bad buffers; -E2BIG for more than
 * %BFLY_HREL_MAX_MSGS messages.
 */
int bfly_hrel_check_req(const struct bfly_hrel_req *req, struct bfly_hrel_res *res)
{
	if (!req->count) {
		res->why = "count: an h-relation has one message at least";
		return -EINVAL;
	}
	if (req->count > BFLY_HREL_MAX_MSGS) {
		res->why = "count: more than 2^24 messages";
		return -E2BIG;
	}
	res->why = bfly_msglist_bufs_check(&req->bufs);
	return res->why ? -EINVAL : 0;
}

/**
 * bfly_hrel_perm_alloc() - the buffer a frontend copies round permutations through
 * @req: the request: its @perm_entries
 * @res: @res->perm receives N entries when @req->perm_entries holds a
 *	round at least, charged to @res->mem
 *
 * Charged first, so that a limit it passes refuses the request before
 * anything ran or moved.
 *
 * Return: 0, or -E2BIG or -ENOMEM (memory limits).
 */
int bfly_hrel_perm_alloc(const struct bfly_hrel_req *req, struct bfly_hrel_res *res)
{
	if (req->perm_entries < res->ports)
		return 0;
	res->perm = bfly_mem_alloc_array(&res->mem, res->ports, sizeof(u32), false);
	return res->perm ? 0 : res->mem.err;
}

/**
 * bfly_hrel() - run an h-relation on a fabric in rounds
 * @fab: the fabric, referenced by the caller
 * @req: the relation and its buffers
 * @res: receives the result; bfly_hrel_done() frees it
 *
 * The fabric's settings are not read or changed: each round is routed on
 * private buffers.
 *
 * Return: 0; -EOPNOTSUPP on a family that runs no h-relation; -EINVAL for
 * no messages, misaligned buffers or a bad message (@res->bad_msg and
 * @res->why say which); -E2BIG for more than %BFLY_HREL_MAX_MSGS messages,
 * h times N past 2^30, or from the memory limits; -ENOMEM; -EFAULT;
 * -EINTR when a signal stopped it and -ENODEV when the fabric was deleted
 * (@res->reported then says whether the routing finished: the payload of
 * the rounds before moved).
 */
int bfly_hrel(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
	      struct bfly_hrel_res *res)
{
	struct bfly_hrel_run run = { .fab = fab, .geo = &fab->geo, .req = req, .res = res,
				     .rng = req->seed };
	int err;

	res->mem.fab = fab;
	res->count = req->count;
	res->ports = fab->geo.ports;

	if (READ_ONCE(fab->dead)) {
		res->why = BFLY_WHY_DELETED;
		return -ENODEV;
	}
	if (fab->geo.mbfly)
		return bfly_hrel_mbfly(fab, req, res);
	err = bfly_hrel_way_of(&fab->geo, &run.way, &res->why);
	if (err)
		return err;
	if (READ_ONCE(fab->faults.count)) {
		res->why = "h-relations run on a fabric without faults; repair them first";
		return -EOPNOTSUPP;
	}
	err = bfly_hrel_check_req(req, res);
	if (err)
		return err;
	err = bfly_hrel_perm_alloc(req, res) ?: bfly_hrel_run(&run);
	if (err && !res->why)
		bfly_hrel_why(res, err);
	bfly_hrel_free(&run);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel);

/**
 * bfly_hrel_round_perm() - the partial permutation a round routed
 * @res: a reported result of bfly_hrel()
 * @r: the round, below @res->rounds
 * @perm: receives N entries: each input's destination in round @r, or
 *	%BFLY_HREL_IDLE
 */
void bfly_hrel_round_perm(const struct bfly_hrel_res *res, u32 r, u32 *perm)
{
	u32 i, m;

	if (res->batch_list) {
		for (i = 0; i < res->ports; i++)
			perm[i] = (i - r) & (res->ports - 1);
		return;
	}
	for (i = 0; i < res->ports; i++)
		perm[i] = BFLY_HREL_IDLE;
	for (i = res->first[r]; i < res->first[r + 1]; i++) {
		m = res->order[i];
		perm[res->src[m]] = res->dst[m];
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_round_perm);

/**
 * bfly_hrel_done() - free an h-relation's result
 * @res: filled by bfly_hrel()
 */
void bfly_hrel_done(struct bfly_hrel_res *res)
{
	kvfree(res->src);
	kvfree(res->dst);
	kvfree(res->round);
	kvfree(res->first);
	kvfree(res->order);
	kvfree(res->perm);
	kvfree(res->mbfly.paths);
	res->mbfly.paths = NULL;
	res->src = NULL;
	res->dst = NULL;
	res->round = NULL;
	res->first = NULL;
	res->order = NULL;
	res->perm = NULL;
	if (res->mem.fab)
		bfly_mem_release(&res->mem);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_done);
