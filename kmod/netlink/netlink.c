// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "bfly": the family, the helpers its handlers
 * share, and the "events" multicast group the core's events go to.
 * Documentation/netlink/specs/bfly.yaml is the contract; the policies and
 * the ops table are generated from it into bfly_nl.c (regen.sh). The
 * handlers: nl_fabric.c (fabric-get, -new, -del, stats-reset), nl_matrix.c
 * (switch-set), nl_route.c (route), nl_batch.c (a2a), nl_faults.c
 * (fault-add, fault-del).
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
#include "bfly_nl.h"
#include "netlink.h"

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

/**
 * bfly_nl_msgs_count() - how many messages a request's msgs attribute holds
 * @info: the request
 * @count: receives the number of (source, destination) u32 pairs
 *
 * Return: 0; -EINVAL, with the extended ack, when msgs is missing or not
 * a whole number of pairs, one at least.
 */
int bfly_nl_msgs_count(struct genl_info *info, u32 *count)
{
	struct nlattr *msgs = info->attrs[BFLY_A_MSGS];

	if (!msgs) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_MSGS);
		NL_SET_ERR_MSG(info->extack, "msgs: missing: give (source, destination) u32 pairs");
		return -EINVAL;
	}
	if (!nla_len(msgs) || nla_len(msgs) % (2 * sizeof(u32))) {
		NL_SET_ERR_MSG_ATTR(info->extack, msgs,
				    "msgs: length is not a whole number of u32 pairs, one at least");
		return -EINVAL;
	}
	*count = nla_len(msgs) / (2 * sizeof(u32));
	return 0;
}

/**
 * bfly_nl_msgs_read_at() - a service's read_msgs for part of a request's
 *	msgs attribute
 * @ctx: the request's &struct genl_info
 * @msgs: receives @count messages without payload
 * @first: the first message read
 * @count: messages read; @first + @count at most what bfly_nl_msgs_count()
 *	gave
 *
 * Return: 0.
 */
int bfly_nl_msgs_read_at(void *ctx, struct bfly_msgset_msg *msgs, u32 first, u32 count)
{
	struct genl_info *info = ctx;
	const u32 *pair = (const u32 *)nla_data(info->attrs[BFLY_A_MSGS]) + 2 * (size_t)first;
	u32 m;

	memset(msgs, 0, count * sizeof(*msgs));
	for (m = 0; m < count; m++) {
		msgs[m].src = pair[2 * m];
		msgs[m].dst = pair[2 * m + 1];
	}
	return 0;
}

/**
 * bfly_nl_msgs_read() - a service's read_msgs for a request's msgs attribute
 * @ctx: the request's &struct genl_info
 * @msgs: receives @count messages without payload
 * @count: as bfly_nl_msgs_count() gave it
 *
 * Return: 0.
 */
int bfly_nl_msgs_read(void *ctx, struct bfly_msgset_msg *msgs, u32 count)
{
	return bfly_nl_msgs_read_at(ctx, msgs, 0, count);
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
			     nla_put_u32(msg, BFLY_A_PORTS, fab->geo.ports) ||
			     nla_put_u32(msg, BFLY_A_RADIX, fab->geo.radix))));
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
