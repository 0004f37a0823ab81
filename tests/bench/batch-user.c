// SPDX-License-Identifier: GPL-2.0
/*
 * An all-to-all batch on bfly2 with the fabric's default schedule, as a
 * user program: what bfly_batch() (kmod/core/batch.c) does for a
 * BFLY_IOC_BATCH without faults, square, conflict list or slot bitmap,
 * with the same library and payload files built natively
 * (kmod/lib/schedule.c and the rest, kmod/core/msgblock.c and
 * msgcopy.c, where user pointers are plain ones). Per call, as the
 * kernel: the workspace sized and allocated, the schedule set up, each
 * round's destinations generated (labels and the conflict check only
 * where the schedule is not proven conflict-free), queued into the block
 * with its rotation (bfly_msg_rotation()),
 * every block of bfly_msg_block_rounds() rounds moved by
 * bfly_msg_block_move(), the workspace freed. What only the kernel does
 * (argument copies, memory accounting, signal checks, the event) is not
 * here: that is the ioctl's own cost, which bench-batch measures.
 */
#include "compat.h"
#include "core/msgblock.h"
#include "core/msgcopy.h"
#include "benes.h"
#include "linkload.h"
#include "schedule.h"
#include "selfroute.h"
#include "topology.h"

#include <stdlib.h>

#include "batch-user.h"

#define max3(a, b, c) max_t(size_t, max_t(size_t, a, b), c)

/* The buffers bfly_batch_alloc() takes, for a fabric without faults */
struct batch_user_run {
	const struct bfly_geometry *geo;
	struct bfly_sched sched;
	bool labelled, proven, stream;
	u32 *dest, *block_dest, *block_shift, *subround, block_max, block_rounds;
	u64 *labels;
	unsigned long *matrix;
	void *work;
};

static void batch_user_free(struct batch_user_run *run)
{
	free(run->dest);
	free(run->labels);
	free(run->subround);
	free(run->block_dest);
	free(run->block_shift);
	free(run->matrix);
	free(run->work);
}

static int batch_user_alloc(struct batch_user_run *run, u64 msg_size)
{
	const struct bfly_geometry *geo = run->geo;
	u32 ports = geo->ports;
	size_t work;

	work = max3(bfly_benes_workspace_size(geo), bfly_selfroute_workspace_size(geo),
		    bfly_linkload_workspace_size(geo));
	work = max3(work, bfly_sched_check_workspace_size(geo),
		    bfly_sched_split_workspace_size(geo));
	work = max_t(size_t, work, bfly_latin_check_workspace_size(ports));
	run->dest = malloc(ports * sizeof(u32));
	run->labels = malloc(ports * sizeof(u64));
	run->subround = malloc(ports * sizeof(u32));
	run->stream = bfly_msg_stream((u64)ports * ports * msg_size);
	run->block_max = 1;
	if (msg_size) {
		run->block_max = bfly_msg_block_rounds(ports, msg_size, run->stream);
		run->block_dest = malloc((size_t)run->block_max * ports * sizeof(u32));
		run->block_shift = malloc((size_t)run->block_max * sizeof(u32));
	}
	run->matrix = malloc(bfly_matrix_bytes(geo));
	run->work = malloc(work);
	if (!run->dest || !run->labels || !run->subround ||
	    (msg_size && (!run->block_dest || !run->block_shift)) || !run->matrix || !run->work)
		return -ENOMEM;
	return 0;
}

/* A round: scheduled, routed or checked as the kernel's, queued */
static int batch_user_round(struct batch_user_run *run, u32 k, struct batch_user_res *res,
			    u64 msg_size)
{
	const struct bfly_geometry *geo = run->geo;
	int err, extra;

	err = bfly_sched_round(&run->sched, k, run->dest,
			       run->labelled && !run->proven ? run->labels : NULL);
	if (err)
		return err;
	if (!run->labelled) {
		err = bfly_benes_route(geo, run->dest, run->matrix, run->work);
		if (err)
			return err;
	}
	if (run->labelled && !run->proven) {
		extra = bfly_sched_check(geo, run->labels, NULL, NULL, run->work);
		if (extra < 0)
			return extra;
		/* the kernel splits such a round; the default schedules have none */
		if (extra)
			return -EBUSY;
	}
	res->sub_rounds++;
	if (msg_size) {
		memcpy(run->block_dest + (size_t)run->block_rounds * geo->ports, run->dest,
		       geo->ports * sizeof(u32));
		run->block_shift[run->block_rounds] = bfly_msg_rotation(run->dest, geo->ports);
	}
	return 0;
}

/**
 * batch_user() - an all-to-all batch on bfly2 as a user program
 * @ports: N, a power of two
 * @msg_size: bytes per message, a multiple of 8; 0 for the schedule only
 * @send: the N * N send slots, [source][dest]
 * @recv: the N * N receive slots, [dest][source]
 * @res: receives what the batch did
 *
 * Return: 0 or a negative errno.
 */
int batch_user(__u32 ports, __u64 msg_size, const void *send, void *recv,
	       struct batch_user_res *res)
{
	static struct bfly_geometry geo;
	struct batch_user_run run = { .geo = &geo };
	const char *why;
	u32 k;
	int err;

	/* the fabric's geometry, set up once as at its creation */
	if (geo.ports != ports && bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, 2, ports, &why))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	err = batch_user_alloc(&run, msg_size);
	if (err)
		goto out;
	run.labelled = bfly_sched_has_labels(&geo);
	err = bfly_sched_init(&run.sched, &geo, bfly_sched_default(&geo), NULL, run.work);
	if (err)
		goto out;
	run.proven = bfly_sched_proven(&run.sched);
	for (k = 0; k < ports; k++) {
		err = batch_user_round(&run, k, res, msg_size);
		if (err)
			break;
		if (++run.block_rounds < run.block_max && k + 1 < ports)
			continue;
		if (msg_size) {
			struct bfly_msg_block blk = {
				.send = send, .recv = recv, .size = msg_size, .ports = ports,
				.rounds = run.block_rounds, .dest = run.block_dest,
				.shift = run.block_shift,
				.stream = run.stream,
			};

			err = bfly_msg_block_move(&blk);
			res->bytes_moved += blk.moved;
			if (err)
				break;
		}
		res->rounds += run.block_rounds;
		run.block_rounds = 0;
	}
	res->cycles = bfly_sched_cycles(&geo, res->sub_rounds);
out:
	batch_user_free(&run);
	return err;
}
