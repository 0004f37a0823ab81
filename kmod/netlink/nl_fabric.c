// SPDX-License-Identifier: GPL-2.0
/*
 * fabric-get (do and dump), fabric-new, fabric-del and stats-reset.
 *
 * Dumps keep only ids and offsets between calls, never a pointer, and flag
 * a message NLM_F_DUMP_INTR when any fabric was created, deleted or changed
 * its matrix since the previous message of the dump.
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
#include "lib/settings.h"
#include "core/link_load.h"
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

static int bfly_nl_put_desc(struct sk_buff *skb, struct bfly_fabric *fab)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_figures fig;

	if (nla_put_u32(skb, BFLY_A_ID, fab->id) ||
	    nla_put_string(skb, BFLY_A_DEV_NAME, dev_name(&fab->dev)) ||
	    nla_put_u32(skb, BFLY_A_TOPOLOGY, geo->topology) ||
	    nla_put_u32(skb, BFLY_A_PORTS, geo->ports) ||
	    nla_put_u32(skb, BFLY_A_PORTS_LOG2, geo->ports_log2) ||
	    nla_put_u32(skb, BFLY_A_NODE_STAGES, geo->node_stages) ||
	    nla_put_u32(skb, BFLY_A_NODES_PER_STAGE, geo->nodes_per_stage) ||
	    nla_put_u64_64bit(skb, BFLY_A_SWITCHES, geo->switches, BFLY_A_PAD))
		return -EMSGSIZE;
	bfly_figures(geo, &fig);
	if ((geo->lcan && nla_put_u32(skb, BFLY_A_UP, geo->up)) ||
	    nla_put_u32(skb, BFLY_A_RADIX, geo->radix) ||
	    nla_put_u32(skb, BFLY_A_DEGREE, fig.degree) ||
	    nla_put_u32(skb, BFLY_A_DIAMETER, fig.diameter) ||
	    nla_put_u32(skb, BFLY_A_ROUTERS, fig.routers) ||
	    nla_put_u64_64bit(skb, BFLY_A_CHANNELS, fig.channels, BFLY_A_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_BISECTION, fig.bisection, BFLY_A_PAD) ||
	    nla_put_u64_64bit(skb, BFLY_A_PORT_MAP_BYTES, bfly_port_map_bytes(geo),
			      BFLY_A_PAD))
		return -EMSGSIZE;
	if (geo->mbfly &&
	    (nla_put_u32(skb, BFLY_A_MBFLY_D, geo->mbfly_d) ||
	     nla_put_u64_64bit(skb, BFLY_A_SEED, geo->mbfly_seed, BFLY_A_PAD) ||
	     nla_put_u32(skb, BFLY_A_EXP_COL, fab->mbfly_exp.col) ||
	     nla_put_u32(skb, BFLY_A_EXP_INPUTS, fab->mbfly_exp.inputs) ||
	     nla_put_u32(skb, BFLY_A_EXP_KMAX, fab->mbfly_exp.kmax) ||
	     nla_put_u32(skb, BFLY_A_EXP_BETA, fab->mbfly_exp.beta_fp16) ||
	     nla_put_u8(skb, BFLY_A_EXP_EXHAUSTIVE, fab->mbfly_exp.exhaustive) ||
	     nla_put_u64_64bit(skb, BFLY_A_EXP_SUBSETS, fab->mbfly_exp.subsets, BFLY_A_PAD)))
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
/* Does the fabric hold settings in its own layout (a fat tree holds none)? */
static bool bfly_nl_has_settings(const struct bfly_geometry *geo)
{
	const char *why;

	return !bfly_settings_layout_ok(geo, geo->port_map, &why);
}

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
	struct bfly_link_load_req req = { .load = load };

	return bfly_link_load(fab, m, &req, mll);
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
	    nla_put_u64_64bit(skb, BFLY_A_MATRIX_BYTES,
			      bfly_nl_has_settings(geo) ? bfly_matrix_bytes(geo) : 0, BFLY_A_PAD))
		return -EMSGSIZE;
	err = bfly_nl_put_faults(skb, fab);
	if (err)
		return err;
	/* An LCAN's loads come from message sets (msgset): a dump leaves them out. */
	if (!(want & BFLY_WANT_LINK_LOAD) || geo->lcan || geo->mbfly)
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

/*
 * Copy @len bytes of the settings from @offset into a new BFLY_A_MATRIX,
 * or BFLY_A_PORT_MAP on a fabric that holds port maps.
 */
static int bfly_nl_put_matrix(struct sk_buff *skb, struct bfly_fabric *fab,
			      u64 offset, u32 len)
{
	struct nlattr *attr;
	int err = 0;

	if (nla_put_u64_64bit(skb, BFLY_A_MATRIX_OFFSET, offset, BFLY_A_PAD))
		return -EMSGSIZE;
	attr = nla_reserve(skb, fab->geo.port_map ? BFLY_A_PORT_MAP : BFLY_A_MATRIX, len);
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
		const char *why;

		/* A fat tree holds no settings to send. */
		err = bfly_settings_layout_ok(geo, geo->port_map, &why);
		if (err) {
			bfly_nl_set_msg(info->extack, want_attr, why);
			goto out;
		}
		matrix_bytes = bfly_matrix_bytes(geo);
		if (matrix_bytes > BFLY_CHUNK_BYTES) {
			NL_SET_ERR_MSG_ATTR(info->extack, want_attr,
					    "want: the matrix is larger than one message holds; dump this id to get it in chunks");
			err = -EMSGSIZE;
			goto out;
		}
	}
	if ((want & BFLY_WANT_LINK_LOAD) && geo->mbfly) {
		NL_SET_ERR_MSG_ATTR(info->extack, want_attr,
				    "want: a multibutterfly routes h-relations (hrel) only: it has no link loads");
		err = -EOPNOTSUPP;
		goto out;
	}
	if ((want & BFLY_WANT_LINK_LOAD) && geo->lcan) {
		NL_SET_ERR_MSG_ATTR(info->extack, want_attr,
				    "want: an LCAN's loads come from message sets (msgset)");
		err = -EOPNOTSUPP;
		goto out;
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
			NL_SET_ERR_MSG(info->extack, BFLY_WHY_DELETED);
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
 * before. Checking at the end, not when the message starts, keeps a
 * cancelled message (a fabric deleted between its description and its
 * matrix) from updating cb->prev_seq, and flags a change made while the
 * data was copied.
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
			if (!(d->want & BFLY_WANT_MATRIX) || !bfly_nl_has_settings(geo))
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
		if (!(d->want & BFLY_WANT_LINK_LOAD) || geo->lcan || geo->mbfly ||
		    !bfly_nl_link_load_sent(geo) ||
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

/* The fabric fabric-new asks for; mbfly-d and seed only on a multibutterfly. */
static struct bfly_fabric *bfly_nl_fabric_create(struct genl_info *info, const char **why)
{
	struct nlattr **a = info->attrs;
	u32 topology = nla_get_u32(a[BFLY_A_TOPOLOGY]);
	u32 radix = a[BFLY_A_RADIX] ? nla_get_u32(a[BFLY_A_RADIX]) : 2;
	u32 up = a[BFLY_A_UP] ? nla_get_u32(a[BFLY_A_UP]) : 0;
	u32 ports = nla_get_u32(a[BFLY_A_PORTS]);

	if (topology == BFLY_TOPO_MBFLY) {
		u32 d = a[BFLY_A_MBFLY_D] ? nla_get_u32(a[BFLY_A_MBFLY_D]) : 8;
		u64 seed = a[BFLY_A_SEED] ? nla_get_u64(a[BFLY_A_SEED]) : 0;

		if (radix != 2 || up) {
			*why = radix != 2 ? "radix: a multibutterfly's radix is 2 (d: mbfly-d)" :
			       "up: only an LCAN's switches have uppers";
			return ERR_PTR(-EINVAL);
		}
		return bfly_fabric_create_mbfly(ports, d, seed, why);
	}
	if (a[BFLY_A_MBFLY_D] || a[BFLY_A_SEED]) {
		*why = a[BFLY_A_MBFLY_D] ? "d: only a multibutterfly (mbfly) takes mbfly-d" :
		       "seed: only a multibutterfly (mbfly) takes a seed";
		return ERR_PTR(-EINVAL);
	}
	return bfly_fabric_create_up(topology, radix, up, ports, why);
}

int bfly_nl_fabric_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *topo_attr = info->attrs[BFLY_A_TOPOLOGY];
	struct nlattr *ports_attr = info->attrs[BFLY_A_PORTS];
	struct nlattr *radix_attr = info->attrs[BFLY_A_RADIX];
	struct nlattr *up_attr = info->attrs[BFLY_A_UP];
	struct nlattr *d_attr = info->attrs[BFLY_A_MBFLY_D];
	struct nlattr *seed_attr = info->attrs[BFLY_A_SEED];
	struct bfly_fabric *fab;
	const char *why = NULL;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!topo_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_TOPOLOGY);
		NL_SET_ERR_MSG(info->extack,
			       "topology: missing: butterfly (1), bfly2 (2), bfly-twice (3), benes (4), kfly (5), flatfly (6), cb-lcan (7), t-lcan (8), fattree (9) or mbfly (10)");
		return -EINVAL;
	}
	if (!ports_attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_PORTS);
		NL_SET_ERR_MSG(info->extack,
			       "ports: missing: a power of two from 2 to 2^20 (of the radix on kfly and flatfly)");
		return -EINVAL;
	}

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	fab = bfly_nl_fabric_create(info, &why);
	if (IS_ERR(fab)) {
		nlmsg_free(msg);
		err = PTR_ERR(fab);
		if (err == -EINVAL || err == -E2BIG)
			bfly_nl_set_msg(info->extack, str_has_prefix(why, "radix") ? radix_attr :
					str_has_prefix(why, "up") ? up_attr :
					str_has_prefix(why, "d:") ? d_attr :
					str_has_prefix(why, "seed") ? seed_attr : ports_attr, why);
		else if (err == -EINTR)
			bfly_nl_set_msg(info->extack, NULL, why);
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
