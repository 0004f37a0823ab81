/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The h-relation service: a list of messages split into rounds by edge
 * colouring (lib/hrel.c), each round routed on the fabric (split further
 * where the fabric cannot route it at once), the payload moved round by
 * round.
 */
#ifndef _BFLY_CORE_HREL_H
#define _BFLY_CORE_HREL_H

#include <linux/compiler.h>
#include <linux/sched/signal.h>
#include <linux/types.h>
#include <uapi/linux/bfly.h>

#include "core.h"
#include "msglist.h"

struct bfly_fabric;
struct bfly_mbfly_params;

/**
 * struct bfly_hrel_req - an h-relation, as a frontend hands it over
 * @count: messages
 * @seed: the random middle rows of bfly2 and bfly-twice labels
 * @read_msgs: fills @count &struct bfly_msgset_msg, the request's messages
 *	@first .. @first + @count - 1, from the frontend's request; returns 0
 *	or an error
 * @ctx: passed to @read_msgs
 * @user_msgs: NULL, or the same messages in user memory, 8-byte aligned
 *	(the ioctl's list): a batch list is then compared there, word by
 *	word, without a copy (bfly_hrel_read_batch())
 * @bufs: the payload's buffers, and which signals stop the request (with
 *	@bufs.killable only fatal ones, as for a netlink request; otherwise
 *	any signal stops the routing between colours and the payload between
 *	two messages)
 * @want_paths: on a multibutterfly, keep each message's path
 * @skip_round: the frontend reads no &bfly_hrel_res.round (the ioctl
 *	without round_ptr): a batch list then keeps none
 * @want_perms: the frontend reads the round permutations: on a
 *	multibutterfly, whose one round is a partial permutation only for
 *	h = 1, a relation of h above 1 is then refused before its payload
 * @perm_entries: the round permutations' entries the frontend copies out
 *	round by round from &bfly_hrel_res.perm (the ioctl's perm_entries),
 *	or 0; with N or more, that N-entry buffer is charged before any other
 * @mbfly_params: on a multibutterfly, NULL (the frontends) or the
 *	routing's constants, e.g. KUnit's small stage limit
 */
struct bfly_hrel_req {
	u32 count;
	u64 seed;
	int (*read_msgs)(void *ctx, struct bfly_msgset_msg *msgs, u32 first, u32 count);
	void *ctx;
	const struct bfly_msgset_msg __user *user_msgs;
	struct bfly_msglist_bufs bufs;
	bool want_paths;
	bool skip_round;
	bool want_perms;
	u64 perm_entries;
	const struct bfly_mbfly_params *mbfly_params;
};

/**
 * struct bfly_hrel_mbfly_res - what routing a relation on a multibutterfly
 *	did (hrel_mbfly.c)
 * @stages: stages run
 * @max_through: most messages through any node
 * @hbar: h-bar, Theorem 2's
 * @bound_ok: @max_through <= 2 @hbar
 * @forced: inputs that selected neighbours without permission
 * @max_w: the largest counter W set
 * @columns: log N + 1, the entries of a path
 * @paths: with &bfly_hrel_req.want_paths, @columns rows per message
 */
struct bfly_hrel_mbfly_res {
	u32 stages;
	u32 max_through;
	u32 hbar;
	bool bound_ok;
	u32 forced;
	u32 max_w;
	u32 columns;
	u32 *paths;
};

/**
 * struct bfly_hrel_res - what running an h-relation did
 * @h: the relation's degree
 * @colours: rounds of the edge colouring (@h)
 * @rounds: rounds run on the fabric
 * @cycles: the fabric's cycles for @rounds
 * @bytes_moved: payload bytes moved
 * @bad_msg: with @has_bad_msg, the index of the message at fault
 * @has_bad_msg: the -EINVAL is for a message
 * @reported: the figures above, @round and the round permutations hold a
 *	result (the routing ran to its end)
 * @listed_a2a: the messages are the all-to-all exchange listed source by
 *	source, each source's destinations in order (message m is
 *	m / N -> m mod N), whatever their payload
 * @slot_size: not zero when every message carries @slot_size bytes in an
 *	all-to-all batch's layout (bfly_msglist_in_slots()), in any order
 * @batch_list: a batch list: the exchange listed in order, every message
 *	of one length in a batch's layout (or all without payload and
 *	offsets), on a fabric whose exchange rounds are proven free of
 *	conflicts (bfly2, bfly-twice): message m / N -> m mod N runs in round
 *	(m / N - m mod N) mod N, as in BFLY_IOC_BATCH; @src, @dst, @first
 *	and @order are NULL, @round too with &bfly_hrel_req.skip_round
 * @count: messages
 * @ports: N
 * @src: each message's source (NULL for a @batch_list)
 * @dst: each message's destination (NULL for a @batch_list)
 * @round: each message's round
 * @first: @rounds + 1 entries: round r's messages are @order[@first[r]]
 *	.. @order[@first[r + 1] - 1]
 * @order: the messages by round
 * @perm: with &bfly_hrel_req.perm_entries of N or more, N entries for
 *	bfly_hrel_round_perm() to fill round by round; else NULL
 * @mbfly: on a multibutterfly, its routing's figures and paths
 * @why: on error, a short reason, or NULL
 * @mem: the memory charged, given back by bfly_hrel_done()
 */
struct bfly_hrel_res {
	u32 h;
	u32 colours;
	u32 rounds;
	u64 cycles;
	u64 bytes_moved;
	u32 bad_msg;
	bool has_bad_msg;
	bool reported;
	bool listed_a2a;
	u64 slot_size;
	bool batch_list;
	u32 count;
	u32 ports;
	u32 *src;
	u32 *dst;
	u32 *round;
	u32 *first;
	u32 *order;
	u32 *perm;
	struct bfly_hrel_mbfly_res mbfly;
	const char *why;
	struct bfly_mem mem;
};

/* Does a signal stop @req: with @req->bufs.killable a fatal one, else any? */
static inline bool bfly_hrel_stop(const struct bfly_hrel_req *req)
{
	return req->bufs.killable ? fatal_signal_pending(current) : signal_pending(current);
}

int bfly_hrel(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
	      struct bfly_hrel_res *res);
void bfly_hrel_round_perm(const struct bfly_hrel_res *res, u32 r, u32 *perm);
int bfly_hrel_read_msgs(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			struct bfly_msgset_msg *msgs, bool *payload);
int bfly_hrel_check_msgs(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			 const struct bfly_msgset_msg *msgs, bool *payload);
void bfly_hrel_done(struct bfly_hrel_res *res);
int bfly_hrel_check_req(const struct bfly_hrel_req *req, struct bfly_hrel_res *res);
int bfly_hrel_perm_alloc(const struct bfly_hrel_req *req, struct bfly_hrel_res *res);

/* hrel_batch.c: a batch list, kept nowhere */
bool bfly_hrel_batch_way(const struct bfly_geometry *geo, u32 count);
int bfly_hrel_read_batch(const struct bfly_hrel_req *req, struct bfly_hrel_res *res,
			 struct bfly_msgset_msg **msgs, u64 *size);
int bfly_hrel_batch_run(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
			struct bfly_hrel_res *res, u64 size);

/* hrel_mbfly.c: the whole relation routed on a multibutterfly */
int bfly_hrel_mbfly(struct bfly_fabric *fab, const struct bfly_hrel_req *req,
		    struct bfly_hrel_res *res);

#endif /* _BFLY_CORE_HREL_H */
