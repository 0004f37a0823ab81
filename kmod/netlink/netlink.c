// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "bfly": create, delete, describe and dump
 * fabrics, set switches, route, reset counters, and the "events" multicast
 * group. Documentation/netlink/specs/bfly.yaml is the contract; the
 * policies and the ops table are generated from it into netlink-gen.c
 * (kmod/netlink-regen.sh), the handlers are here.
 *
 * Locking: handlers take a reference on the fabric they work on
 * (bfly_fabric_find()) and its lock as the ioctls do; a fabric deleted
 * meanwhile answers -ENODEV. Dumps keep only ids and offsets between
 * calls, never a pointer, and flag a message NLM_F_DUMP_INTR when any
 * fabric was created, deleted or changed its matrix since the previous
 * message of the dump.
 *
 * Every refusal sets an extended ack message naming the attribute (or
 * "memory:" for the memory limits) and the reason, and points at the
 * attribute (or names a missing one).
 */
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "core/core.h"
#include "core/events.h"
#include "core/matrix.h"
#include "lib/linkload.h"
#include "bfly_nl.h"
#include "netlink.h"

/* Largest link-load array a dump sends in chunks: 64 chunks. */
#define BFLY_NL_LINK_LOAD_MAX_BYTES (64UL * BFLY_CHUNK_BYTES)

/* Smallest chunk worth a message of its own. */
#define BFLY_NL_MIN_CHUNK 256

/* Dump phases of one fabric: the description, then matrix and link-load chunks */
enum bfly_nl_phase {
	BFLY_NL_PHASE_DESC,
	BFLY_NL_PHASE_MATRIX,
	BFLY_NL_PHASE_LINK_LOAD,
	BFLY_NL_PHASE_DONE,
};

/* Set once the family is registered, cleared before it is unregistered. */
static bool bfly_nl_registered;

/* A refusal whose message is not a literal (bfly_geometry_init()'s why). */
void bfly_nl_set_msg(struct netlink_ext_ack *extack,
		     const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

/* A request the memory limits (memlimit.c) refused: say why; returns @err. */
int bfly_nl_mem_refused(struct netlink_ext_ack *extack, int err)
{
	const char *why = bfly_mem_why(err);

	if (why)
		bfly_nl_set_msg(extack, NULL, why);
	return err;
}

/*
 * What a long request returns, so that the netlink core answers it: the
 * algorithms stop only for a fatal signal, with -EINTR, for which the core
 * sends no ack; -ECANCELED is delivered, should the socket outlive the
 * killed sender (a forked child's).
 */
int bfly_nl_answered(struct netlink_ext_ack *extack, int err)
{
	if (err != -EINTR)
		return err;
	NL_SET_ERR_MSG(extack, "stopped: the requesting process is being killed");
	return -ECANCELED;
}

/* The fabric named by BFLY_A_ID, referenced; an ERR_PTR with extack set. */
struct bfly_fabric *bfly_nl_fabric(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[BFLY_A_ID];
	struct bfly_fabric *fab;

	if (!attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_ID);
		NL_SET_ERR_MSG(info->extack, "id: missing: the fabric id is required");
		return ERR_PTR(-EINVAL);
	}
	fab = bfly_fabric_find(nla_get_u32(attr));
	if (!fab) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "id: no fabric has this id");
		return ERR_PTR(-ENOENT);
	}
	return fab;
}

static int bfly_nl_put_desc(struct sk_buff *skb, struct bfly_fabric *fab)
{
	const struct bfly_geometry *geo = &fab->geo;

	if (nla_put_u32(skb, BFLY_A_ID, fab->id) ||
	    nla_put_string(skb, BFLY_A_DEV_NAME, dev_name(&fab->dev)) ||
	    nla_put_u32(skb, BFLY_A_TOPOLOGY, geo->topology) ||
	    nla_put_u32(skb, BFLY_A_PORTS, geo->ports) ||
	    nla_put_u32(skb, BFLY_A_PORTS_LOG2, geo->ports_log2) ||
	    nla_put_u32(skb, BFLY_A_NODE_STAGES, geo->node_stages) ||
	    nla_put_u32(skb, BFLY_A_NODES_PER_STAGE, geo->nodes_per_stage) ||
	    nla_put_u64_64bit(skb, BFLY_A_SWITCHES, geo->switches, BFLY_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int bfly_nl_put_stats(struct sk_buff *skb, struct bfly_fabric *fab)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, BFLY_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, BFLY_A_STATS_ROUTES,
			      atomic64_read(&fab->stats.routes), BFLY_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_STATS_REFUSALS,
			      atomic64_read(&fab->stats.refusals), BFLY_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_STATS_CONFLICTS,
			      atomic64_read(&fab->stats.conflicts), BFLY_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_STATS_MATRIX_WRITES,
			      atomic64_read(&fab->stats.matrix_writes), BFLY_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_STATS_BATCHES,
			      atomic64_read(&fab->stats.batches), BFLY_A_STATS_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Entries of the link-load array: node_stages * ports. */
static u64 bfly_nl_link_load_entries(const struct bfly_geometry *geo)
{
	return (u64)geo->node_stages * geo->ports;
}

/*
 * Link loads following the current matrix with a packet at every input:
 * the maximum in *@mll and, with @load, every link's load; memory charged
 * to @m. -ENODEV when the fabric is dead.
 */
static int bfly_nl_link_loads(struct bfly_fabric *fab, struct bfly_mem *m,
			      u32 *load, u32 *mll)
{
	const struct bfly_geometry *geo = &fab->geo;
	unsigned long *matrix;
	void *work;
	int err = 0;

	work = bfly_mem_alloc(m, bfly_linkload_workspace_size(geo), false);
	if (!work)
		return m->err;
	matrix = bfly_fabric_matrix_snapshot(fab, m, NULL, &err);
	if (matrix)
		err = bfly_linkload_matrix(geo, matrix, NULL, load, NULL, mll, work);
	kvfree(work);
	kvfree(matrix);
	return err;
}

/* The fabric's faults: their number and one fault nest each. */
static int bfly_nl_put_faults(struct sk_buff *skb, struct bfly_fabric *fab)
{
	struct bfly_faults *faults;
	struct nlattr *nest;
	int err = 0;
	u32 j;

	faults = bfly_fabric_faults_snapshot(fab, &err);
	if (err)
		return err;
	if (nla_put_u32(skb, BFLY_A_FAULTS_COUNT, faults ? faults->count : 0)) {
		err = -EMSGSIZE;
		goto out;
	}
	for (j = 0; faults && j < faults->count; j++) {
		const struct bfly_fault *f = &faults->list[j];

		nest = nla_nest_start(skb, BFLY_A_FAULT);
		if (!nest ||
		    nla_put_u32(skb, BFLY_A_FAULT_KIND, f->kind) ||
		    nla_put_u32(skb, BFLY_A_FAULT_STAGE, f->stage) ||
		    nla_put_u32(skb, BFLY_A_FAULT_INDEX, f->index) ||
		    nla_put_u32(skb, BFLY_A_FAULT_STATE, f->state)) {
			err = -EMSGSIZE;
			goto out;
		}
		nla_nest_end(skb, nest);
	}
out:
	kfree(faults);
	return err;
}

/*
 * The description message: the geometry, the generation, the counters,
 * the sizes of the matrix and link-load array and, with
 * BFLY_WANT_LINK_LOAD, the maximum link load.
 */
static int bfly_nl_put_fabric(struct sk_buff *skb, struct bfly_fabric *fab,
			      u32 want)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_mem mem = { .fab = fab };
	u64 generation;
	u32 mll;
	int err;

	down_read(&fab->lock);
	err = fab->dead ? -ENODEV : 0;
	generation = fab->generation;
	up_read(&fab->lock);
	if (err)
		return err;

	if (bfly_nl_put_desc(skb, fab) ||
	    nla_put_u64_64bit(skb, BFLY_A_GENERATION, generation, BFLY_A_PAD) ||
	    bfly_nl_put_stats(skb, fab) ||
	    nla_put_u64_64bit(skb, BFLY_A_MATRIX_BYTES, bfly_matrix_bytes(geo),
			      BFLY_A_PAD))
		return -EMSGSIZE;
	err = bfly_nl_put_faults(skb, fab);
	if (err)
		return err;
	if (!(want & BFLY_WANT_LINK_LOAD))
		return 0;

	err = bfly_nl_link_loads(fab, &mem, NULL, &mll);
	bfly_mem_release(&mem);
	if (err)
		return err;
	if (nla_put_u32(skb, BFLY_A_MAX_LINK_LOAD, mll) ||
	    nla_put_u64_64bit(skb, BFLY_A_LINK_LOAD_ENTRIES,
			      bfly_nl_link_load_entries(geo), BFLY_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* Copy @len bytes of the matrix from @offset into a new BFLY_A_MATRIX. */
static int bfly_nl_put_matrix(struct sk_buff *skb, struct bfly_fabric *fab,
			      u64 offset, u32 len)
{
	struct nlattr *attr;
	int err = 0;

	if (nla_put_u64_64bit(skb, BFLY_A_MATRIX_OFFSET, offset, BFLY_A_PAD))
		return -EMSGSIZE;
	attr = nla_reserve(skb, BFLY_A_MATRIX, len);
	if (!attr)
		return -EMSGSIZE;
	down_read(&fab->lock);
	if (fab->dead)
		err = -ENODEV;
	else
		memcpy(nla_data(attr), (u8 *)fab->matrix + offset, len);
	up_read(&fab->lock);
	return err;
}

/* Put @count u32 entries of @load from entry @offset into BFLY_A_LINK_LOAD. */
static int bfly_nl_put_link_load(struct sk_buff *skb, const u32 *load,
				 u64 offset, u32 count)
{
	if (nla_put_u64_64bit(skb, BFLY_A_LINK_LOAD_OFFSET, offset, BFLY_A_PAD) ||
	    nla_put(skb, BFLY_A_LINK_LOAD, count * sizeof(u32), load + offset))
		return -EMSGSIZE;
	return 0;
}

/* Does a link-load array go out in chunks at all? */
static bool bfly_nl_link_load_sent(const struct bfly_geometry *geo)
{
	return bfly_nl_link_load_entries(geo) * sizeof(u32) <=
	       BFLY_NL_LINK_LOAD_MAX_BYTES;
}

int bfly_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *want_attr = info->attrs[BFLY_A_WANT];
	u32 want = want_attr ? nla_get_u32(want_attr) : 0;
	const struct bfly_geometry *geo;
	struct bfly_fabric *fab;
	u32 *load = NULL, mll;
	size_t matrix_bytes = 0, load_bytes = 0;
	struct bfly_mem mem = {};
	struct sk_buff *msg;
	void *hdr;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	geo = &fab->geo;
	mem.fab = fab;

	if (want & BFLY_WANT_MATRIX) {
		matrix_bytes = bfly_matrix_bytes(geo);
		if (matrix_bytes > BFLY_CHUNK_BYTES) {
			NL_SET_ERR_MSG_ATTR(info->extack, want_attr,
					    "want: the matrix is larger than one message holds; dump this id to get it in chunks");
			err = -EMSGSIZE;
			goto out;
		}
	}
	if (want & BFLY_WANT_LINK_LOAD) {
		load_bytes = bfly_nl_link_load_entries(geo) * sizeof(u32);
		if (load_bytes > BFLY_CHUNK_BYTES) {
			NL_SET_ERR_MSG_ATTR(info->extack, want_attr,
					    "want: the link loads are larger than one message holds; dump this id to get them in chunks");
			err = -EMSGSIZE;
			goto out;
		}
		load = bfly_mem_alloc(&mem, load_bytes, false);
		if (!load) {
			err = bfly_nl_mem_refused(info->extack, mem.err);
			goto out;
		}
	}

	msg = genlmsg_new(NLMSG_GOODSIZE + matrix_bytes + load_bytes,
			  GFP_KERNEL | __GFP_NOWARN);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_FABRIC_GET);
	err = hdr ? bfly_nl_put_fabric(msg, fab, want & ~BFLY_WANT_LINK_LOAD) : -EMSGSIZE;
	if (!err && matrix_bytes)
		err = bfly_nl_put_matrix(msg, fab, 0, matrix_bytes);
	if (!err && load) {
		err = bfly_nl_link_loads(fab, &mem, load, &mll);
		if (!err &&
		    (nla_put_u32(msg, BFLY_A_MAX_LINK_LOAD, mll) ||
		     nla_put_u64_64bit(msg, BFLY_A_LINK_LOAD_ENTRIES,
				       bfly_nl_link_load_entries(geo), BFLY_A_PAD) ||
		     bfly_nl_put_link_load(msg, load, 0, load_bytes / sizeof(u32))))
			err = -EMSGSIZE;
	}
	if (err) {
		nlmsg_free(msg);
		if (err == -ENODEV)
			NL_SET_ERR_MSG(info->extack, "id: the fabric was deleted meanwhile");
		else
			bfly_nl_mem_refused(info->extack, err);
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	kvfree(load);
	bfly_mem_release(&mem);
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}

/**
 * struct bfly_nl_dump - the state of a fabric dump between calls
 * @id: the fabric being dumped, or the next id to look at
 * @phase: one of &enum bfly_nl_phase for fabric @id
 * @offset: bytes of the matrix, or entries of the link loads, already sent
 * @want: the request's BFLY_A_WANT
 * @only: with @filter, the only fabric id to dump
 * @filter: the request named an id
 * @started: the request was parsed
 */
struct bfly_nl_dump {
	u32 id;
	u32 phase;
	u64 offset;
	u32 want;
	u32 only;
	bool filter;
	bool started;
};

/* A sequence number for genl_dump_check_consistent(), never 0. */
static unsigned int bfly_nl_dump_seq(void)
{
	return (unsigned int)(bfly_fabrics_generation() % UINT_MAX) + 1;
}

/*
 * Start one dump message for @fab, with its id when @put_id (a chunk; a
 * description puts the id itself); NULL when the skb is full.
 */
static void *bfly_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb,
			      struct bfly_fabric *fab, bool put_id)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &bfly_nl_family, NLM_F_MULTI, BFLY_CMD_FABRIC_GET);
	if (!hdr)
		return NULL;
	/* The generation before the data; checked by bfly_nl_dump_end() */
	cb->seq = bfly_nl_dump_seq();
	if (put_id && nla_put_u32(skb, BFLY_A_ID, fab->id)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/*
 * End a dump message that is kept, and check it: the generation before
 * its data (cb->seq, from bfly_nl_dump_put()) against the one after the
 * previous message, and the generation after its data against the one
 * before. The check used to be made when the message was started only:
 * that updated cb->prev_seq even for messages cancelled afterwards (a
 * fabric deleted between its description and its matrix), so the change
 * they saw was never flagged, nor was a change while the data of the
 * last message was copied; the reader took a torn dump for a complete one.
 */
static void bfly_nl_dump_end(struct sk_buff *skb, struct netlink_callback *cb,
			     void *hdr)
{
	unsigned int after = bfly_nl_dump_seq();

	genl_dump_check_consistent(cb, hdr);
	if (after != cb->seq) {
		cb->seq = after;
		genl_dump_check_consistent(cb, hdr);
	}
	genlmsg_end(skb, hdr);
}

/* Payload room for one more chunk message in @skb, rounded to 8 bytes. */
static u32 bfly_nl_chunk_room(struct sk_buff *skb)
{
	int room = skb_tailroom(skb) - NLMSG_HDRLEN - GENL_HDRLEN - 64;

	if (room < BFLY_NL_MIN_CHUNK)
		return 0;
	return min_t(u32, room, BFLY_CHUNK_BYTES) & ~7U;
}

/*
 * Dump one fabric from where @d says, as many messages as fit. Returns 0
 * when the fabric is done, -EMSGSIZE when the skb is full.
 */
static int bfly_nl_dump_fabric(struct sk_buff *skb, struct netlink_callback *cb,
			       struct bfly_fabric *fab, struct bfly_nl_dump *d)
{
	const struct bfly_geometry *geo = &fab->geo;
	u64 matrix_bytes = bfly_matrix_bytes(geo);
	u64 entries = bfly_nl_link_load_entries(geo);
	u32 *load = NULL, mll, room, len;
	struct bfly_mem mem = { .fab = fab };
	void *hdr;
	int err = 0;

	while (d->phase != BFLY_NL_PHASE_DONE) {
		if (d->phase == BFLY_NL_PHASE_DESC) {
			hdr = bfly_nl_dump_put(skb, cb, fab, false);
			if (!hdr)
				return -EMSGSIZE;
			err = bfly_nl_put_fabric(skb, fab, d->want);
			if (err) {
				genlmsg_cancel(skb, hdr);
				/* A fabric deleted meanwhile is left out. */
				return err == -ENODEV ? 0 : err;
			}
			bfly_nl_dump_end(skb, cb, hdr);
			d->phase = BFLY_NL_PHASE_MATRIX;
			d->offset = 0;
			if (!(d->want & BFLY_WANT_MATRIX))
				d->phase = BFLY_NL_PHASE_LINK_LOAD;
			continue;
		}
		if (d->phase == BFLY_NL_PHASE_MATRIX) {
			if (d->offset >= matrix_bytes) {
				d->phase = BFLY_NL_PHASE_LINK_LOAD;
				d->offset = 0;
				continue;
			}
			room = bfly_nl_chunk_room(skb);
			if (!room)
				return -EMSGSIZE;
			len = min_t(u64, room, matrix_bytes - d->offset);
			hdr = bfly_nl_dump_put(skb, cb, fab, true);
			if (!hdr)
				return -EMSGSIZE;
			err = bfly_nl_put_matrix(skb, fab, d->offset, len);
			if (err) {
				genlmsg_cancel(skb, hdr);
				if (err != -ENODEV)
					return err;
				/*
				 * Deleted after its description: left out, as
				 * the description phase does. -ENODEV was
				 * returned and ended the whole dump with it.
				 */
				err = 0;
				d->phase = BFLY_NL_PHASE_DONE;
				continue;
			}
			bfly_nl_dump_end(skb, cb, hdr);
			d->offset += len;
			continue;
		}
		/* BFLY_NL_PHASE_LINK_LOAD */
		if (!(d->want & BFLY_WANT_LINK_LOAD) || !bfly_nl_link_load_sent(geo) ||
		    d->offset >= entries) {
			d->phase = BFLY_NL_PHASE_DONE;
			continue;
		}
		if (!load) {
			load = bfly_mem_alloc_array(&mem, entries, sizeof(*load), false);
			err = load ? bfly_nl_link_loads(fab, &mem, load, &mll) : mem.err;
			if (err) {
				kvfree(load);
				bfly_mem_release(&mem);
				if (err != -ENODEV)
					return err;
				d->phase = BFLY_NL_PHASE_DONE;
				return 0;
			}
		}
		room = bfly_nl_chunk_room(skb) / sizeof(u32);
		hdr = room ? bfly_nl_dump_put(skb, cb, fab, true) : NULL;
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		len = min_t(u64, room, entries - d->offset);
		err = bfly_nl_put_link_load(skb, load, d->offset, len);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		bfly_nl_dump_end(skb, cb, hdr);
		d->offset += len;
	}
	kvfree(load);
	bfly_mem_release(&mem);
	return err;
}

int bfly_nl_fabric_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct bfly_nl_dump *d = (void *)cb->ctx;
	struct nlattr *attrs[BFLY_A_WANT + 1];
	struct bfly_fabric *fab;
	int err = 0;

	BUILD_BUG_ON(sizeof(*d) > sizeof(cb->ctx));
	if (!d->started) {
		/*
		 * The core validated the request; parse it again rather than
		 * reach into genl_dumpit_info(), whose layout changed in 6.2.
		 */
		err = nlmsg_parse(cb->nlh, GENL_HDRLEN, attrs, BFLY_A_WANT,
				  bfly_fabric_get_nl_policy, cb->extack);
		if (err)
			return err;
		d->started = true;
		if (attrs[BFLY_A_WANT])
			d->want = nla_get_u32(attrs[BFLY_A_WANT]);
		if (attrs[BFLY_A_ID]) {
			d->filter = true;
			d->only = nla_get_u32(attrs[BFLY_A_ID]);
			d->id = d->only;
		}
	}

	/*
	 * Take the generation at the start of every call too, not only when
	 * a message is kept: the last call of a dump keeps none, and the core
	 * checks cb->seq once more on NLMSG_DONE. Without this, a change
	 * after the last message was checked went unflagged and the reader
	 * took a torn dump for a complete one.
	 */
	cb->seq = bfly_nl_dump_seq();
	for (;;) {
		if (d->filter)
			fab = d->id == d->only ? bfly_fabric_find(d->only) : NULL;
		else
			fab = bfly_fabric_find_next(d->id);
		if (!fab)
			break;
		if (fab->id != d->id) {
			d->id = fab->id;
			d->phase = BFLY_NL_PHASE_DESC;
			d->offset = 0;
		}
		err = bfly_nl_dump_fabric(skb, cb, fab, d);
		bfly_fabric_put(fab);
		if (err)
			break;
		d->id++;
		d->phase = BFLY_NL_PHASE_DESC;
		d->offset = 0;
	}
	/* A full skb ends this call; the next one goes on from @d. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	/* The dump ends with the error; NLMSG_DONE carries the message. */
	if (err == -E2BIG || err == -ENOMEM)
		bfly_nl_mem_refused(cb->extack, err);
	return err ?: skb->len;
}

int bfly_nl_fabric_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *topo_attr = info->attrs[BFLY_A_TOPOLOGY];
	struct nlattr *ports_attr = info->attrs[BFLY_A_PORTS];
	struct bfly_fabric *fab;
	const char *why = NULL;
	struct sk_buff *msg;
	u32 ports;
	void *hdr;
	int err;

	if (!topo_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_TOPOLOGY);
		NL_SET_ERR_MSG(info->extack,
			       "topology: missing: butterfly (1), bfly2 (2), bfly-twice (3) or benes (4)");
		return -EINVAL;
	}
	if (!ports_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_PORTS);
		NL_SET_ERR_MSG(info->extack,
			       "ports: missing: a power of two from 2 to 2^20");
		return -EINVAL;
	}
	ports = nla_get_u32(ports_attr);
	if (!is_power_of_2(ports)) {
		NL_SET_ERR_MSG_ATTR(info->extack, ports_attr,
				    "ports: not a power of two (a power of two from 2 to 2^20)");
		return -EINVAL;
	}
	if (ports < 2) {
		NL_SET_ERR_MSG_ATTR(info->extack, ports_attr,
				    "ports: fewer than 2 ports (a power of two from 2 to 2^20)");
		return -EINVAL;
	}
	if (ports > 1U << BFLY_MAX_PORTS_LOG2) {
		NL_SET_ERR_MSG_ATTR(info->extack, ports_attr,
				    "ports: more than 2^20 ports (a power of two from 2 to 2^20)");
		return -EINVAL;
	}

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	fab = bfly_fabric_create(nla_get_u32(topo_attr), ports, &why);
	if (IS_ERR(fab)) {
		nlmsg_free(msg);
		err = PTR_ERR(fab);
		if (err == -EINVAL || err == -E2BIG)
			bfly_nl_set_msg(info->extack, ports_attr, why);
		else if (err == -ENOMEM)
			NL_SET_ERR_MSG(info->extack,
				       "ports: no memory for the fabric under module_mem_max now");
		else if (err == -ENOSPC)
			NL_SET_ERR_MSG(info->extack,
				       "id: every fabric id is taken (at most 1024 fabrics)");
		else if (err == -ENODEV)
			NL_SET_ERR_MSG(info->extack, "the module is being removed");
		return err;
	}

	/* Reply with the description read now: the fabric may be gone later. */
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_FABRIC_NEW);
	if (!hdr || bfly_nl_put_desc(msg, fab)) {
		nlmsg_free(msg);
		bfly_fabric_destroy(fab);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	bfly_fabric_put(fab);
	return genlmsg_reply(msg, info);
}

int bfly_nl_fabric_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[BFLY_A_ID];
	int err;

	if (!attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_ID);
		NL_SET_ERR_MSG(info->extack, "id: missing: the fabric id is required");
		return -EINVAL;
	}
	err = bfly_fabric_delete(nla_get_u32(attr));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "id: no fabric has this id");
	return err;
}

/* Check every switch nest against the geometry; 0 or -EINVAL with extack. */
static int bfly_nl_switches_check(struct genl_info *info,
				  const struct bfly_geometry *geo)
{
	struct nlattr *tb[BFLY_A_SWITCH_MAX + 1];
	struct nlattr *nest;
	int rem, err;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != BFLY_A_SWITCH)
			continue;
		err = nla_parse_nested(tb, BFLY_A_SWITCH_MAX, nest,
				       bfly_switch_nl_policy, info->extack);
		if (err)
			return err;
		if (!tb[BFLY_A_SWITCH_STAGE] || !tb[BFLY_A_SWITCH_NODE] ||
		    !tb[BFLY_A_SWITCH_STATE]) {
			NL_SET_ERR_ATTR_MISS(info->extack, nest,
					     !tb[BFLY_A_SWITCH_STAGE] ? BFLY_A_SWITCH_STAGE :
					     !tb[BFLY_A_SWITCH_NODE] ? BFLY_A_SWITCH_NODE :
					     BFLY_A_SWITCH_STATE);
			NL_SET_ERR_MSG(info->extack,
				       "switch: needs stage, node and state");
			return -EINVAL;
		}
		if (nla_get_u32(tb[BFLY_A_SWITCH_STAGE]) >= geo->node_stages) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[BFLY_A_SWITCH_STAGE],
					    "switch: stage out of range (0 .. node-stages - 1)");
			return -ERANGE;
		}
		if (nla_get_u32(tb[BFLY_A_SWITCH_NODE]) >= geo->nodes_per_stage) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[BFLY_A_SWITCH_NODE],
					    "switch: node out of range (0 .. nodes-per-stage - 1)");
			return -ERANGE;
		}
	}
	return 0;
}

/* Apply the (checked) switch nests to @matrix. */
static void bfly_nl_switches_apply(struct genl_info *info,
				   const struct bfly_geometry *geo,
				   unsigned long *matrix)
{
	struct nlattr *tb[BFLY_A_SWITCH_MAX + 1];
	struct nlattr *nest;
	u64 bit;
	int rem;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != BFLY_A_SWITCH ||
		    nla_parse_nested(tb, BFLY_A_SWITCH_MAX, nest,
				     bfly_switch_nl_policy, NULL))
			continue;
		bit = (u64)nla_get_u32(tb[BFLY_A_SWITCH_STAGE]) * geo->nodes_per_stage +
		      nla_get_u32(tb[BFLY_A_SWITCH_NODE]);
		if (nla_get_u32(tb[BFLY_A_SWITCH_STATE]))
			__set_bit(bit, matrix);
		else
			__clear_bit(bit, matrix);
	}
}

static int bfly_nl_matrix_read(void *ctx, unsigned long *matrix, size_t bytes)
{
	struct genl_info *info = ctx;

	memcpy(matrix, nla_data(info->attrs[BFLY_A_MATRIX]), bytes);
	return 0;
}

static void bfly_nl_matrix_edit(void *ctx, unsigned long *matrix)
{
	struct genl_info *info = ctx;
	struct bfly_fabric *fab = info->user_ptr[0];

	bfly_nl_switches_apply(info, &fab->geo, matrix);
}

int bfly_nl_switch_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *mattr = info->attrs[BFLY_A_MATRIX];
	struct nlattr *sattr = info->attrs[BFLY_A_SWITCH];
	struct bfly_matrix_req req = { .ctx = info };
	struct bfly_matrix_res res = {};
	struct bfly_fabric *fab;
	struct sk_buff *msg;
	void *hdr;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	info->user_ptr[0] = fab;

	if (!mattr && !sattr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_SWITCH);
		NL_SET_ERR_MSG(info->extack,
			       "switch, matrix: missing: give switch nests or a whole matrix");
		err = -EINVAL;
		goto out;
	}
	if (mattr && sattr) {
		NL_SET_ERR_MSG_ATTR(info->extack, mattr,
				    "matrix: give switch nests or a whole matrix, not both");
		err = -EINVAL;
		goto out;
	}
	if (mattr && nla_len(mattr) != bfly_matrix_bytes(&fab->geo)) {
		NL_SET_ERR_MSG_ATTR(info->extack, mattr,
				    "matrix: length differs from the fabric's matrix-bytes");
		err = -EINVAL;
		goto out;
	}
	if (sattr) {
		err = bfly_nl_switches_check(info, &fab->geo);
		if (err)
			goto out;
		req.edit = bfly_nl_matrix_edit;
	} else {
		req.read_matrix = bfly_nl_matrix_read;
	}

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = bfly_matrix_set(fab, &req, &res);
	if (err) {
		nlmsg_free(msg);
		if (res.why)
			bfly_nl_set_msg(info->extack, err == -EINVAL ? mattr : NULL, res.why);
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_SWITCH_SET);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u64_64bit(msg, BFLY_A_GENERATION, res.generation, BFLY_A_PAD)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	bfly_fabric_put(fab);
	return err;
}

/* The netlink latin values are the uapi's schedules. */
static_assert((int)BFLY_NL_LATIN_RLS == (int)BFLY_SCHED_RLS);
static_assert((int)BFLY_NL_LATIN_LLS == (int)BFLY_SCHED_LLS);
static_assert((int)BFLY_NL_LATIN_XOR == (int)BFLY_SCHED_XOR);
static_assert((int)BFLY_NL_LATIN_SQUARE == (int)BFLY_SCHED_SQUARE);

/*
 * a2a: run an all-to-all schedule on a fabric, schedule only (netlink
 * carries no message buffers): every round generated, routed and checked
 * for conflicts, conflicting rounds split, as BFLY_IOC_BATCH does.
 */
int bfly_nl_a2a_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 latin = BFLY_NL_LATIN_RLS;
	struct bfly_fabric *fab;
	struct sk_buff *msg;
	struct bfly_batch b;
	void *hdr;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	if (info->attrs[BFLY_A_LATIN])
		latin = nla_get_u32(info->attrs[BFLY_A_LATIN]);
	if (latin == BFLY_NL_LATIN_SQUARE) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BFLY_A_LATIN],
				    "latin: a caller's square runs through BFLY_IOC_BATCH, which carries it");
		err = -EINVAL;
		goto out_put;
	}
	if (fab->geo.ports_log2 > BFLY_BATCH_MAX_PORTS_LOG2) {
		NL_SET_ERR_MSG(info->extack, "id: batches need a fabric of at most 2^16 ports");
		err = -E2BIG;
		goto out_put;
	}

	/*
	 * The spec's latin enum numbers the schedules as the uapi's enum
	 * bfly_schedule does (asserted above). Schedule only, no message is
	 * lost to a fault: the reply counts the messages a fault would have
	 * hit.
	 */
	err = bfly_batch_schedule_only(fab, latin, &b);
	if (err == -EHOSTUNREACH)
		err = 0;
	if (err == -EINTR)
		goto out_put;
	if (err == -ENODEV) {
		NL_SET_ERR_MSG(info->extack, "id: the fabric was deleted meanwhile");
		goto out_put;
	}
	if (err) {
		bfly_nl_mem_refused(info->extack, err);
		goto out_put;
	}

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_A2A);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_LATIN, latin) ||
	    nla_put_u32(msg, BFLY_A_ROUNDS, b.rounds) ||
	    nla_put_u64_64bit(msg, BFLY_A_CYCLES, b.cycles, BFLY_A_PAD) ||
	    nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, min_t(u64, b.conflicts, U32_MAX)) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, b.faults) ||
	    nla_put_u64_64bit(msg, BFLY_A_AFFECTED_COUNT, b.affected, BFLY_A_PAD)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out_put;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out_put:
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}

/* The fault nests of a fault-add or fault-del request, parsed. */
struct bfly_nl_faults {
	struct bfly_fault f[BFLY_MAX_FAULTS];
	struct nlattr *nests[BFLY_MAX_FAULTS];
	int n;
};

/*
 * Parse the fault nests of a fault-add (@add) or fault-del request into
 * @f (at most BFLY_MAX_FAULTS); *@nests gets them for error reports.
 * Return: the number of faults, or a negative errno with extack set.
 */
static int bfly_nl_faults_parse(struct genl_info *info, bool add,
				struct bfly_fault *f, struct nlattr **nests)
{
	struct nlattr *tb[BFLY_A_FAULT_MAX + 1];
	struct nlattr *nest;
	int rem, err, n = 0;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != BFLY_A_FAULT)
			continue;
		if (n == BFLY_MAX_FAULTS) {
			if (add)
				NL_SET_ERR_MSG_ATTR(info->extack, nest,
						    "fault: a fabric holds at most 64 faults");
			else
				NL_SET_ERR_MSG_ATTR(info->extack, nest,
						    "fault: names more faults than a fabric holds (64)");
			return add ? -ENOSPC : -ENOENT;
		}
		err = nla_parse_nested(tb, BFLY_A_FAULT_MAX, nest, bfly_fault_nl_policy,
				       info->extack);
		if (err)
			return err;
		if (!tb[BFLY_A_FAULT_KIND] || !tb[BFLY_A_FAULT_STAGE] ||
		    !tb[BFLY_A_FAULT_INDEX]) {
			NL_SET_ERR_ATTR_MISS(info->extack, nest,
					     !tb[BFLY_A_FAULT_KIND] ? BFLY_A_FAULT_KIND :
					     !tb[BFLY_A_FAULT_STAGE] ? BFLY_A_FAULT_STAGE :
					     BFLY_A_FAULT_INDEX);
			NL_SET_ERR_MSG(info->extack, "fault: needs kind, stage and index");
			return -EINVAL;
		}
		f[n].kind = nla_get_u32(tb[BFLY_A_FAULT_KIND]);
		f[n].stage = nla_get_u32(tb[BFLY_A_FAULT_STAGE]);
		f[n].index = nla_get_u32(tb[BFLY_A_FAULT_INDEX]);
		f[n].state = 0;
		if (tb[BFLY_A_FAULT_STATE]) {
			f[n].state = nla_get_u32(tb[BFLY_A_FAULT_STATE]);
		} else if (add && f[n].kind == BFLY_FAULT_STUCK) {
			NL_SET_ERR_ATTR_MISS(info->extack, nest, BFLY_A_FAULT_STATE);
			NL_SET_ERR_MSG(info->extack,
				       "fault: a stuck node needs its state (0 straight, 1 cross)");
			return -EINVAL;
		}
		nests[n++] = nest;
	}
	return n;
}

/*
 * The fault nests of a request, parsed into a new &struct bfly_nl_faults
 * (kfree() it); an ERR_PTR with extack set.
 */
static struct bfly_nl_faults *bfly_nl_faults_get(struct genl_info *info, bool add)
{
	struct bfly_nl_faults *req;

	req = kmalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return ERR_PTR(-ENOMEM);
	req->n = bfly_nl_faults_parse(info, add, req->f, req->nests);
	if (req->n < 0) {
		int err = req->n;

		kfree(req);
		return ERR_PTR(err);
	}
	return req;
}

/* Reply to fault-add or fault-del with the fabric's number of faults. */
static int bfly_nl_faults_reply(struct genl_info *info, struct bfly_fabric *fab,
				u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, cmd);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, READ_ONCE(fab->faults.count))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int bfly_nl_fault_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bfly_nl_faults *req;
	const char *why = NULL;
	struct bfly_fabric *fab;
	u32 bad = 0;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	req = bfly_nl_faults_get(info, true);
	if (IS_ERR(req)) {
		err = PTR_ERR(req);
		req = NULL;
		goto out;
	}
	if (!req->n) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_FAULT);
		NL_SET_ERR_MSG(info->extack, "fault: missing: give one fault nest or more");
		err = -EINVAL;
		goto out;
	}
	err = bfly_fabric_faults_add(fab, req->f, req->n, &bad, &why);
	if (err == -ENODEV)
		NL_SET_ERR_MSG(info->extack, "id: the fabric was deleted meanwhile");
	else if (err)
		bfly_nl_set_msg(info->extack, req->nests[min_t(u32, bad, req->n - 1)], why);
	if (!err)
		err = bfly_nl_faults_reply(info, fab, BFLY_CMD_FAULT_ADD);
out:
	kfree(req);
	bfly_fabric_put(fab);
	return err;
}

int bfly_nl_fault_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *all = info->attrs[BFLY_A_ALL_FAULTS];
	struct bfly_nl_faults *req;
	struct bfly_fabric *fab;
	u32 bad = 0;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	req = bfly_nl_faults_get(info, false);
	if (IS_ERR(req)) {
		err = PTR_ERR(req);
		req = NULL;
		goto out;
	}
	if (!req->n == !all) {
		if (all)
			NL_SET_ERR_MSG_ATTR(info->extack, all,
					    "all-faults: give fault nests or all-faults, not both");
		else
			NL_SET_ERR_MSG(info->extack,
				       "fault, all-faults: missing: name the faults to repair, or all-faults");
		err = -EINVAL;
		goto out;
	}
	if (all)
		err = bfly_fabric_fault_clear(fab);
	else
		err = bfly_fabric_faults_del(fab, req->f, req->n, &bad);
	if (err == -ENODEV)
		NL_SET_ERR_MSG(info->extack, "id: the fabric was deleted meanwhile");
	else if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, req->nests[min_t(u32, bad, req->n - 1)],
				    "fault: the fabric has no such fault (or it is named twice)");
	if (!err)
		err = bfly_nl_faults_reply(info, fab, BFLY_CMD_FAULT_DEL);
out:
	kfree(req);
	bfly_fabric_put(fab);
	return err;
}

int bfly_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bfly_fabric *fab;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	atomic64_set(&fab->stats.routes, 0);
	atomic64_set(&fab->stats.refusals, 0);
	atomic64_set(&fab->stats.conflicts, 0);
	atomic64_set(&fab->stats.matrix_writes, 0);
	atomic64_set(&fab->stats.batches, 0);
	bfly_fabric_put(fab);
	return 0;
}

/* Start an event message; NULL when nobody listens or on no memory. */
static struct sk_buff *bfly_nl_event_new(u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	if (!READ_ONCE(bfly_nl_registered) ||
	    !genl_has_listeners(&bfly_nl_family, &init_net, BFLY_NLGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &bfly_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Send an event started with bfly_nl_event_new(); @err: a put failed. */
static void bfly_nl_event_send(struct sk_buff *msg, void *hdr, bool err)
{
	if (err) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast(&bfly_nl_family, msg, 0, BFLY_NLGRP_EVENTS, GFP_KERNEL);
}

/**
 * bfly_nl_notify_fabric() - announce a created or deleted fabric
 * @fab: the fabric
 * @created: true for a creation, false for a deletion
 */
static void bfly_nl_notify_fabric(struct bfly_fabric *fab, bool created)
{
	struct sk_buff *msg;
	void *hdr;

	msg = bfly_nl_event_new(created ? BFLY_CMD_FABRIC_CREATED_NTF :
				BFLY_CMD_FABRIC_DELETED_NTF, &hdr);
	if (!msg)
		return;
	bfly_nl_event_send(msg, hdr,
			   nla_put_u32(msg, BFLY_A_ID, fab->id) ||
			   nla_put_string(msg, BFLY_A_DEV_NAME, dev_name(&fab->dev)) ||
			   (created &&
			    (nla_put_u32(msg, BFLY_A_TOPOLOGY, fab->geo.topology) ||
			     nla_put_u32(msg, BFLY_A_PORTS, fab->geo.ports))));
}

/**
 * bfly_nl_notify_matrix() - announce a change of a fabric's switch matrix
 * @fab: the fabric, its lock held for writing
 */
static void bfly_nl_notify_matrix(struct bfly_fabric *fab)
{
	struct sk_buff *msg;
	void *hdr;

	msg = bfly_nl_event_new(BFLY_CMD_MATRIX_CHANGED_NTF, &hdr);
	if (!msg)
		return;
	bfly_nl_event_send(msg, hdr,
			   nla_put_u32(msg, BFLY_A_ID, fab->id) ||
			   nla_put_u64_64bit(msg, BFLY_A_GENERATION, fab->generation,
					     BFLY_A_PAD));
}

/**
 * bfly_nl_notify_faults() - announce a change of a fabric's faults
 * @fab: the fabric, its lock held for writing
 */
static void bfly_nl_notify_faults(struct bfly_fabric *fab)
{
	struct sk_buff *msg;
	void *hdr;

	msg = bfly_nl_event_new(BFLY_CMD_FAULTS_CHANGED_NTF, &hdr);
	if (!msg)
		return;
	bfly_nl_event_send(msg, hdr,
			   nla_put_u32(msg, BFLY_A_ID, fab->id) ||
			   nla_put_u32(msg, BFLY_A_FAULTS_COUNT, fab->faults.count));
}

/**
 * bfly_nl_notify_conflicts() - announce a route that found conflicts
 * @fab: the fabric
 * @count: the number of internal conflicts
 * @first_stage: the node stage of the first one
 */
static void bfly_nl_notify_conflicts(struct bfly_fabric *fab, u32 count,
				     u32 first_stage)
{
	struct sk_buff *msg;
	void *hdr;

	msg = bfly_nl_event_new(BFLY_CMD_CONFLICTS_NTF, &hdr);
	if (!msg)
		return;
	bfly_nl_event_send(msg, hdr,
			   nla_put_u32(msg, BFLY_A_ID, fab->id) ||
			   nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, count) ||
			   nla_put_u32(msg, BFLY_A_FIRST_CONFLICT_STAGE, first_stage));
}

/**
 * bfly_nl_notify_batch_done() - announce the end of an all-to-all batch
 * @fab: the fabric
 * @latin: the Latin square followed, one of &enum bfly_nl_latin
 * @rounds: rounds run
 * @cycles: pipelined cycles the batch took
 * @conflicts: internal conflicts met
 *
 * Sent at the end of every batch that ran, finished or stopped (@rounds
 * tells), by the ioctl and by the a2a command.
 */
static void bfly_nl_notify_batch_done(struct bfly_fabric *fab, u32 latin,
				      u32 rounds, u64 cycles, u32 conflicts)
{
	struct sk_buff *msg;
	void *hdr;

	msg = bfly_nl_event_new(BFLY_CMD_BATCH_DONE_NTF, &hdr);
	if (!msg)
		return;
	bfly_nl_event_send(msg, hdr,
			   nla_put_u32(msg, BFLY_A_ID, fab->id) ||
			   nla_put_u32(msg, BFLY_A_LATIN, latin) ||
			   nla_put_u32(msg, BFLY_A_ROUNDS, rounds) ||
			   nla_put_u64_64bit(msg, BFLY_A_CYCLES, cycles, BFLY_A_PAD) ||
			   nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, conflicts));
}

static const struct bfly_event_ops bfly_nl_events = {
	.fabric = bfly_nl_notify_fabric,
	.matrix = bfly_nl_notify_matrix,
	.faults = bfly_nl_notify_faults,
	.conflicts = bfly_nl_notify_conflicts,
	.batch_done = bfly_nl_notify_batch_done,
};

/*
 * genetlink-legacy: the ops table and the policies are generated, the
 * family is ours. Handlers lock what they need, so they run in parallel.
 */
struct genl_family bfly_nl_family __ro_after_init = {
	.name = BFLY_FAMILY_NAME,
	.version = BFLY_FAMILY_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.ops = bfly_nl_ops,
	.n_ops = ARRAY_SIZE(bfly_nl_ops),
	.mcgrps = bfly_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(bfly_nl_mcgrps),
};

/**
 * bfly_netlink_init() - register the "bfly" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int bfly_netlink_init(void)
{
	int err;

	err = genl_register_family(&bfly_nl_family);
	if (!err) {
		WRITE_ONCE(bfly_nl_registered, true);
		bfly_events_register(&bfly_nl_events);
	}
	return err;
}

/**
 * bfly_netlink_exit() - unregister the family
 *
 * Waits for running requests; no event is sent afterwards.
 */
void bfly_netlink_exit(void)
{
	bfly_events_unregister();
	WRITE_ONCE(bfly_nl_registered, false);
	genl_unregister_family(&bfly_nl_family);
}
