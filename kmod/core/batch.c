// SPDX-License-Identifier: GPL-2.0
/*
 * The batch service: an all-to-all personalized exchange run as N
 * permutation rounds, for BFLY_IOC_BATCH (with message data) and the
 * netlink a2a command (schedule only).
 *
 * A batch checks its request, sizes every buffer up front, then runs the
 * rounds of its Latin square one by one: the round's destinations and
 * labels are generated on the fly (no stored square except a caller's own),
 * the round is routed (label self-routing checked for conflicts, or the
 * looping algorithm on Benes), a round with conflicts is split into
 * conflict-free sub-rounds unless the request is strict. The messages of a
 * block of consecutive rounds, once all of them are scheduled and checked,
 * are copied together straight from their send slots to their receive
 * slots, user memory to user memory, source row by source row (msgblock.c;
 * the block size by bfly_msg_block_rounds()). A signal stops the batch
 * between blocks, so the rounds it reports are whole. The fabric's switch
 * matrix is not touched, so a batch takes no lock.
 *
 * On a flattened butterfly the rounds run on the routers (lib/flatfly.c):
 * each round is routed as the RLS paper maps bfly2's labels, or by
 * minimal routes, and its channel loads and cycles are counted; the
 * systolic schedule's rounds are pipelined (lib/flatfly_exchange.c).
 */
#include <linux/bitmap.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lib/benes.h"
#include "lib/benes_fault.h"
#include "lib/flatfly.h"
#include "lib/linkload.h"
#include "lib/rls.h"
#include "lib/schedule.h"
#include "lib/selfroute.h"
#include "batch.h"
#include "core.h"
#include "events.h"
#include "msgblock.h"
#include "msgcopy.h"
#include "msglist.h"

static unsigned long batch_max_bytes = 4UL << 30;
module_param_cb(batch_max_bytes, &bfly_param_ops_bytes, &batch_max_bytes, 0644);
MODULE_PARM_DESC(batch_max_bytes,
		 "largest all-to-all batch: N * N * message size bytes per buffer, in bytes, K, M or G (default 4G)");

/* Largest N for a caller-supplied square (N * N u32 are copied in). */
#define BFLY_BATCH_SQUARE_MAX_LOG2 12
/* Largest N for the receive-slot bitmap (N * N bits are kept). */
#define BFLY_BATCH_DONE_MAX_LOG2 13

/* One batch: its arguments, buffers and running totals. */
struct bfly_batch_run {
	struct bfly_fabric *fab;
	const struct bfly_geometry *geo;
	const struct bfly_batch_req *req;
	struct bfly_batch_res *res;
	struct bfly_sched sched;
	bool labelled;
	bool proven;			/* rounds need no conflict check */
	bool routers;			/* rounds run on the routers: @flat */
	bool systolic;			/* ... pipelined, one round a cycle */
	bool stream;			/* copy with streaming stores */
	struct bfly_flatfly flat;	/* the routers of a flattened butterfly */
	u32 *square;			/* a caller's square, or NULL */
	u32 *dest;			/* the round's destinations */
	u64 *labels;			/* the round's labels */
	u32 *subround;			/* sub-round of each input */
	u32 *block_dest;		/* destinations of the block's rounds */
	u32 *block_shift;		/* ... as rotations (bfly_msg_rotation()) */
	u32 block_max;			/* rounds a block holds */
	u32 block_rounds;		/* rounds scheduled, not yet moved */
	unsigned long *matrix;		/* Benes settings of the round */
	unsigned long *done;		/* receive slots filled, or NULL */
	void *work;			/* the algorithms' workspace */
	struct bfly_faults *faults;	/* the fabric's faults, or NULL */
	unsigned long *hit;		/* inputs a fault hits this round */
	void *fault_work;		/* the fault walk's workspace */
	struct bfly_mem mem;		/* the memory charged for all this */
	struct bfly_conflicts conflicts;
};

static void bfly_batch_free(struct bfly_batch_run *run)
{
	kvfree(run->square);
	kvfree(run->dest);
	kvfree(run->labels);
	kvfree(run->subround);
	kvfree(run->block_dest);
	kvfree(run->block_shift);
	kvfree(run->matrix);
	kvfree(run->done);
	kvfree(run->work);
	kvfree(run->conflicts.list);
	kfree(run->faults);
	kvfree(run->hit);
	kvfree(run->fault_work);
	bfly_mem_release(&run->mem);
}

static int bfly_batch_alloc(struct bfly_batch_run *run)
{
	const struct bfly_geometry *geo = run->geo;
	const struct bfly_batch_req *req = run->req;
	u32 ports = geo->ports, nconf;
	size_t work;
	int err;

	run->faults = bfly_fabric_faults_snapshot(run->fab, &err);
	if (err)
		return err;
	work = max3(bfly_benes_workspace_size(geo), bfly_selfroute_workspace_size(geo),
		    bfly_linkload_workspace_size(geo));
	if (bfly_faults_have_stuck(run->faults))
		work = max(work, bfly_benes_fault_workspace_size(geo));
	work = max3(work, bfly_sched_check_workspace_size(geo),
		    bfly_sched_split_workspace_size(geo));
	work = max(work, bfly_latin_check_workspace_size(ports));
	run->routers = bfly_topology_find(geo->topology)->routers;
	if (run->routers) {
		/* The fabric's own shape: this cannot fail. */
		bfly_flatfly_init(&run->flat, geo->radix, ports, &run->res->why);
		work = max3(work, bfly_flatfly_rls_workspace_size(&run->flat),
			    bfly_flatfly_systolic_workspace_size(&run->flat));
	}
	nconf = min_t(u64, req->conflicts_max, geo->switches);

	run->mem.fab = run->fab;
	run->dest = bfly_mem_alloc_array(&run->mem, ports, sizeof(u32), false);
	run->labels = bfly_mem_alloc_array(&run->mem, ports, sizeof(u64), false);
	run->subround = bfly_mem_alloc_array(&run->mem, ports, sizeof(u32), false);
	run->stream = bfly_msg_stream((u64)ports * ports * req->msg_size);
	/* Without payload or receive slots the rounds stay one by one. */
	run->block_max = 1;
	if (req->msg_size || req->want_done) {
		run->block_max = bfly_msg_block_rounds(ports, req->msg_size, run->stream);
		run->block_dest = bfly_mem_alloc_array(&run->mem,
						       (size_t)run->block_max * ports,
						       sizeof(u32), false);
		run->block_shift = bfly_mem_alloc_array(&run->mem, run->block_max,
							sizeof(u32), false);
	}
	run->matrix = bfly_mem_alloc(&run->mem, bfly_matrix_bytes(geo), false);
	run->work = bfly_mem_alloc(&run->mem, work, false);
	if (req->want_done)
		run->done = bfly_mem_alloc(&run->mem, BFLY_MATRIX_BYTES((u64)ports * ports),
					   true);
	if (req->square)
		run->square = bfly_mem_alloc_array(&run->mem, (size_t)ports * ports,
						   sizeof(u32), false);
	if (nconf)
		run->conflicts.list = bfly_mem_alloc_array(&run->mem, nconf,
							   sizeof(*run->conflicts.list),
							   true);
	run->conflicts.capacity = nconf;
	if (run->faults) {
		run->hit = bfly_mem_alloc(&run->mem, BFLY_MATRIX_BYTES(ports), false);
		run->fault_work = bfly_mem_alloc(&run->mem,
						 bfly_fault_walk_workspace_size(geo), false);
	}
	return run->mem.err;
}

/*
 * Add the round just scheduled to the block: its destinations, less the
 * messages a fault hit (they are not delivered), and whether they are a
 * rotation, so that a block of rotations moves without reading the table.
 */
static void bfly_batch_queue(struct bfly_batch_run *run)
{
	u32 i, ports = run->geo->ports;
	u32 *dest = run->block_dest + (size_t)run->block_rounds * ports;

	if (!run->req->msg_size && !run->done)
		return;
	memcpy(dest, run->dest, ports * sizeof(*dest));
	if (run->faults)
		for_each_set_bit(i, run->hit, ports)
			dest[i] = BFLY_MSG_NONE;
	run->block_shift[run->block_rounds] = bfly_msg_rotation(dest, ports);
}

/*
 * Move the payload of the block's rounds and count them: the rounds only
 * when all of their messages arrived, the bytes and receive slots as each
 * one does.
 */
static int bfly_batch_flush(struct bfly_batch_run *run)
{
	struct bfly_msg_block blk = {
		.send = run->req->send, .recv = run->req->recv,
		.size = run->req->msg_size, .ports = run->geo->ports,
		.rounds = run->block_rounds, .dest = run->block_dest,
		.shift = run->block_shift,
		.stream = run->stream, .done = run->done,
	};
	int err = 0;

	if (blk.rounds && (blk.size || blk.done)) {
		err = bfly_msg_block_move(&blk);
		run->res->bytes_moved += blk.moved;
	}
	if (!err)
		run->res->rounds += run->block_rounds;
	run->block_rounds = 0;
	return err;
}

/*
 * A labelled round with conflicts: count them and the link load as
 * scheduled, then fail (strict) or run it as conflict-free sub-rounds.
 */
static int bfly_batch_conflicting_round(struct bfly_batch_run *run, u32 k)
{
	const struct bfly_geometry *geo = run->geo;
	struct bfly_batch_res *res = run->res;
	u32 mll = 0;
	int nsub, err;

	run->conflicts.count = 0;
	run->conflicts.first_stage = BFLY_NO_CONFLICT;
	err = bfly_selfroute_labels(geo, run->labels, NULL, NULL, &run->conflicts,
				    run->work);
	if (err)
		return err;
	err = bfly_linkload_labels(geo, run->labels, NULL, NULL, NULL, &mll, run->work);
	if (err)
		return err;
	res->conflicts += run->conflicts.count;
	res->max_link_load = max(res->max_link_load, mll);
	if (res->first_conflict_round == BFLY_NO_CONFLICT)
		res->first_conflict_round = k;

	if (run->req->strict) {
		if (run->req->conflicts_max && run->conflicts.count > run->req->conflicts_max)
			return -EOVERFLOW;
		return -EBUSY;
	}

	nsub = bfly_sched_split(geo, run->labels, NULL, run->subround, run->work);
	if (nsub < 0)
		return nsub;
	/* the sub-rounds together carry every message once */
	res->sub_rounds += nsub;
	bfly_batch_queue(run);
	return 0;
}

/*
 * The messages of round @k that the fabric's faults hit, as routed (by
 * their labels, or by the round's matrix): marked in @run->hit, counted and
 * reported to the caller's array.
 */
static int bfly_batch_faults(struct bfly_batch_run *run, u32 k)
{
	struct bfly_fault_walk walk = { .mode = BFLY_WALK_ROUTE };
	struct bfly_batch_res *res = run->res;
	struct bfly_msg_ref __user *uref = run->req->affected;
	struct bfly_msg_ref ref;
	int hit;
	u32 i;

	if (run->labelled)
		walk.labels = run->labels;
	else
		walk.matrix = run->matrix;
	bitmap_zero(run->hit, run->geo->ports);
	hit = bfly_fault_walk(run->geo, run->faults, &walk, run->hit, NULL,
			      run->fault_work);
	if (hit <= 0)
		return hit;
	for_each_set_bit(i, run->hit, run->geo->ports) {
		if (res->affected < run->req->affected_max) {
			ref.source = i;
			ref.dest = run->dest[i];
			if (copy_to_user(uref + res->affected, &ref, sizeof(ref)))
				return -EFAULT;
		}
		res->affected++;
	}
	return 0;
}

/*
 * Route round @k on the routers of a flattened butterfly: the systolic
 * schedule's round (its cycles are counted for the whole pipelined
 * exchange), or the round as the RLS paper maps bfly2's labels (RLS
 * schedule, radix 2) or by minimal routes, its cycles added up.
 */
static int bfly_batch_flat_route(struct bfly_batch_run *run, u32 k,
				 struct bfly_flatfly_round_stats *st)
{
	int err;

	if (run->systolic)
		return bfly_flatfly_systolic_round(&run->flat, k, run->dest, st, run->work);
	err = bfly_sched_round(&run->sched, k, run->dest, NULL);
	if (err)
		return err;
	if (run->flat.fly.k == 2 && run->sched.latin == BFLY_LATIN_RLS)
		err = bfly_flatfly_rls_run(&run->flat, k, run->dest, run->labels,
					   run->req->minimal, st, run->work);
	else
		err = bfly_flatfly_round(&run->flat, run->dest, NULL, st, run->work);
	if (!err)
		run->res->cycles += st->cycles;
	return err;
}

/* A round on a flattened butterfly: routed, its figures reported, queued. */
static int bfly_batch_flat_round(struct bfly_batch_run *run, u32 k)
{
	struct bfly_batch_res *res = run->res;
	struct bfly_flatfly_round_stats st;
	struct bfly_round rs;
	int err;

	err = bfly_batch_flat_route(run, k, &st);
	if (err)
		return err;
	rs.max_load = st.max_load;
	rs.cycles = st.cycles;
	if (run->req->rounds && copy_to_user(run->req->rounds + k, &rs, sizeof(rs)))
		return -EFAULT;
	res->max_link_load = max(res->max_link_load, st.max_load);
	res->conflicts += st.excess;
	if (st.excess && res->first_conflict_round == BFLY_NO_CONFLICT)
		res->first_conflict_round = k;
	if (st.excess && run->req->strict)
		return -EBUSY;
	res->sub_rounds++;
	bfly_batch_queue(run);
	return 0;
}

static int bfly_batch_round(struct bfly_batch_run *run, u32 k)
{
	const struct bfly_geometry *geo = run->geo;
	int extra, err;
	u32 unmet;

	if (run->routers)
		return bfly_batch_flat_round(run, k);

	/* a proven round's labels would serve no check and no fault walk */
	err = bfly_sched_round(&run->sched, k, run->dest,
			       run->labelled && !run->proven ? run->labels : NULL);
	if (err)
		return err;
	if (!run->labelled) {
		if (bfly_faults_have_stuck(run->faults))
			err = bfly_benes_route_stuck(geo, run->dest, run->faults->list,
						     run->faults->count, run->matrix,
						     run->work, &unmet);
		else
			err = bfly_benes_route(geo, run->dest, run->matrix, run->work);
		if (err)
			return err;
	}
	if (run->faults) {
		err = bfly_batch_faults(run, k);
		if (err)
			return err;
	}
	/* rounds proven conflict-free skip the check nobody asked for */
	if (run->labelled && !run->proven) {
		extra = bfly_sched_check(geo, run->labels, NULL, NULL, run->work);
		if (extra < 0)
			return extra;
		if (extra)
			return bfly_batch_conflicting_round(run, k);
	}
	run->res->sub_rounds++;
	bfly_batch_queue(run);
	return 0;
}

static int bfly_batch_setup(struct bfly_batch_run *run)
{
	static const enum bfly_latin latin[] = {
		[BFLY_SCHED_RLS] = BFLY_LATIN_RLS,
		[BFLY_SCHED_LLS] = BFLY_LATIN_LLS,
		[BFLY_SCHED_XOR] = BFLY_LATIN_XOR,
		[BFLY_SCHED_SQUARE] = BFLY_LATIN_SQUARE,
		[BFLY_SCHED_SYSTOLIC] = BFLY_LATIN_SYSTOLIC,
	};
	const struct bfly_geometry *geo = run->geo;
	const struct bfly_batch_req *req = run->req;
	struct bfly_geometry sched_geo;
	enum bfly_latin l;

	if (run->square &&
	    copy_from_user(run->square, req->square,
			   array3_size(geo->ports, geo->ports, sizeof(u32))))
		return -EFAULT;
	l = req->schedule == BFLY_SCHED_DEFAULT ? bfly_sched_default(geo) :
						  latin[req->schedule];
	if (!run->routers) {
		int err;

		run->labelled = bfly_sched_has_labels(geo);
		err = bfly_sched_init(&run->sched, geo, l, run->square, run->work);
		run->proven = !err && !req->strict && !run->faults &&
			      bfly_sched_proven(&run->sched);
		return err;
	}
	run->labelled = false;
	/* The systolic rounds come from the routers' own radix. */
	if (l == BFLY_LATIN_SYSTOLIC) {
		run->systolic = true;
		run->sched.latin = l;
		return 0;
	}
	/* The other rounds: the destinations of bfly2's Latin squares. */
	if (req->schedule == BFLY_SCHED_DEFAULT)
		l = BFLY_LATIN_RLS;
	bfly_geometry_init(&sched_geo, BFLY_TOPO_BFLY2, 2, geo->ports, &run->res->why);
	return bfly_sched_init(&run->sched, &sched_geo, l, run->square, run->work);
}

/*
 * Run the batch @run describes on @fab, its arguments checked and its
 * buffers allocated; the outputs go to @run->res. Announces the batch.
 */
static int bfly_batch_run(struct bfly_fabric *fab, struct bfly_batch_run *run)
{
	struct bfly_batch_res *b = run->res;
	int err = 0;
	u64 start;
	u32 k;

	start = ktime_get_ns();
	b->rounds = 0;
	b->sub_rounds = 0;
	b->cycles = 0;
	b->cycles_bound = 0;
	b->conflicts = 0;
	b->max_link_load = run->routers ? 0 : 1;
	b->first_conflict_round = BFLY_NO_CONFLICT;
	b->bytes_moved = 0;
	b->affected = 0;
	b->faults = run->faults ? run->faults->count : 0;
	for (k = 0; k < fab->geo.ports; k++) {
		/* Signals and deletion are noticed between blocks. */
		if (!run->block_rounds && (run->req->killable ?
					   fatal_signal_pending(current) :
					   signal_pending(current))) {
			err = -EINTR;
			break;
		}
		/* A fabric deleted under a running batch stops it. */
		if (!run->block_rounds && READ_ONCE(fab->dead)) {
			err = -ENODEV;
			break;
		}
		err = bfly_batch_round(run, k);
		if (err)
			break;
		if (++run->block_rounds == run->block_max || k + 1 == fab->geo.ports)
			err = bfly_batch_flush(run);
		if (err)
			break;
		cond_resched();
	}
	/* The rounds scheduled before a round that failed still move. */
	if (run->block_rounds) {
		int moved = bfly_batch_flush(run);

		err = err ?: moved;
	}
	/* Every round ran, but not every message arrived. */
	if (!err && b->affected)
		err = -EHOSTUNREACH;
	if (run->systolic)
		b->cycles = bfly_flatfly_systolic_cycles(&run->flat, b->rounds);
	if (run->routers)
		b->cycles_bound = bfly_flatfly_exchange_bound(&run->flat);
	else
		b->cycles = bfly_sched_cycles(&fab->geo, b->sub_rounds);
	b->elapsed_ns = ktime_get_ns() - start;
	atomic64_inc(&fab->stats.batches);
	bfly_event_batch_done(fab, run->sched.latin, b->rounds, b->cycles,
			      min_t(u64, b->conflicts, U32_MAX));
	return err;
}

/**
 * bfly_batch_bytes() - the bytes of a batch's send (and receive) buffer
 * @geo: the fabric geometry
 * @msg_size: bytes per message
 * @total: receives N * N * @msg_size
 *
 * Return: 0, or -E2BIG when that overflows or passes batch_max_bytes.
 */
int bfly_batch_bytes(const struct bfly_geometry *geo, u64 msg_size, u64 *total)
{
	u64 n2 = (u64)geo->ports * geo->ports;

	if (check_mul_overflow(n2, msg_size, total) || *total > batch_max_bytes)
		return -E2BIG;
	return 0;
}

/* Word a refusal: @why for the user, @err returned. */
static int bfly_batch_why(struct bfly_batch_res *res, int err, const char *why)
{
	res->why = why;
	return err;
}

/**
 * bfly_batch() - run an all-to-all batch on a fabric
 * @fab: the fabric, referenced by the caller
 * @req: the request
 * @res: zeroed; receives the results. Free with bfly_batch_done().
 *
 * Announces every batch that ran, finished or stopped.
 *
 * Return: 0; before the first round -EINVAL (a bad schedule, a square
 * given or missing), -E2BIG (fabric, buffers, square or slot bitmap too
 * large; memory limits), -ENOMEM, -ENODEV, -EFAULT, with @res->why set;
 * while running -EINTR (a signal), -EBUSY or -EOVERFLOW (strict: a round
 * with conflicts), -EFAULT, -ENODEV; -EHOSTUNREACH when every round ran
 * but faults kept messages from arriving.
 */
int bfly_batch(struct bfly_fabric *fab, const struct bfly_batch_req *req,
	       struct bfly_batch_res *res)
{
	const struct bfly_geometry *geo = &fab->geo;
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);
	struct bfly_batch_run *run;
	bool square;
	u64 total;
	int err;

	if (geo->mbfly)
		return bfly_batch_why(res, -EOPNOTSUPP,
				      "id: a multibutterfly routes h-relations (hrel) only: run an all-to-all as an h-relation");
	if ((geo->port_map || geo->lcan) && !ops->routers)
		return bfly_batch_why(res, -EOPNOTSUPP,
				      "id: all-to-all batches run on fabrics of 2 x 2 switches and flattened butterflies only");
	if (req->schedule > BFLY_SCHED_SYSTOLIC)
		return bfly_batch_why(res, -EINVAL, "latin: no such schedule");
	if (!geo->ports_log2 && !ops->routers)
		return bfly_batch_why(res, -EOPNOTSUPP,
				      "id: all-to-all batches need N = 2^n ports");
	if (!geo->ports_log2 && req->schedule != BFLY_SCHED_SYSTOLIC)
		return bfly_batch_why(res, -EOPNOTSUPP,
				      "latin: a flattened butterfly whose N is no power of two runs the systolic schedule only");
	if (req->rounds && !ops->routers)
		return bfly_batch_why(res, -EINVAL,
				      "rounds: a flattened butterfly's rounds only");
	square = req->schedule == BFLY_SCHED_SQUARE;
	if (square != !!req->square)
		return bfly_batch_why(res, -EINVAL,
				      "latin: a caller's square runs through BFLY_IOC_BATCH, which carries it");
	if (geo->ports > 1U << BFLY_BATCH_MAX_PORTS_LOG2)
		return bfly_batch_why(res, -E2BIG,
				      "id: batches need a fabric of at most 2^16 ports");
	if (bfly_batch_bytes(geo, req->msg_size, &total))
		return bfly_batch_why(res, -E2BIG,
				      "msg-size: N * N messages pass batch_max_bytes");
	if (total) {
		const struct bfly_msglist_bufs bufs = {
			.send = req->send, .send_bytes = total,
			.recv = req->recv, .recv_bytes = total,
		};
		const char *why = !req->send || !req->recv ?
			"msg-size: a payload needs the send and the receive buffer" :
			bfly_msglist_bufs_check(&bufs);

		if (why)
			return bfly_batch_why(res, -EINVAL, why);
	}
	if (req->square && geo->ports > 1U << BFLY_BATCH_SQUARE_MAX_LOG2)
		return bfly_batch_why(res, -E2BIG,
				      "latin: a caller's square needs a fabric of at most 2^12 ports");
	if (req->want_done && geo->ports > 1U << BFLY_BATCH_DONE_MAX_LOG2)
		return bfly_batch_why(res, -E2BIG,
				      "done: the slot bitmap needs a fabric of at most 2^13 ports");
	if (READ_ONCE(fab->dead))
		return bfly_batch_why(res, -ENODEV, BFLY_WHY_DELETED);

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	res->run = run;
	run->fab = fab;
	run->geo = geo;
	run->req = req;
	run->res = res;
	err = bfly_batch_alloc(run);
	if (err == -E2BIG || err == -ENOMEM)
		res->why = bfly_mem_why(err);
	if (err == -ENODEV)
		res->why = BFLY_WHY_DELETED;
	if (!err)
		err = bfly_batch_setup(run);
	if (err)
		return err;
	err = bfly_batch_run(fab, run);
	res->conflicts_list = &run->conflicts;
	res->done = run->done;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_batch);

/**
 * bfly_batch_done() - free what a batch holds
 * @res: the results of bfly_batch()
 */
void bfly_batch_done(struct bfly_batch_res *res)
{
	if (!res->run)
		return;
	bfly_batch_free(res->run);
	kfree(res->run);
	res->run = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_batch_done);
