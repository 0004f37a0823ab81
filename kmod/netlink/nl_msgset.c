// SPDX-License-Identifier: GPL-2.0
/*
 * The msgset command: parse the (source, destination) pairs, route them
 * with core/msgset.c, send the report, then the refusal if there is one.
 */
#include <linux/string.h>
#include <net/genetlink.h>

#include "core/core.h"
#include "core/msgset.h"
#include "bfly_nl.h"
#include "netlink.h"

/* The given paths: 2 l u32 a message. */
static int bfly_nl_msgs_read_paths(void *ctx, u32 *paths, u64 entries)
{
	struct genl_info *info = ctx;
	struct nlattr *attr = info->attrs[BFLY_A_MSG_PATHS];

	if (nla_len(attr) != entries * sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "msg-paths: length is not 4 * 2 * levels bytes per message");
		return -EINVAL;
	}
	memcpy(paths, nla_data(attr), entries * sizeof(u32));
	return 0;
}

/* The most bytes of u32 one attribute carries (nla_len is 16 bits). */
#define BFLY_NL_U32S_MAX ((U16_MAX - NLA_HDRLEN) & ~3U)

/* Bytes of the wanted paths and loads of a routed set. */
static u64 bfly_nl_msgset_paths_bytes(const struct bfly_msgset_res *res, u32 count)
{
	return res->paths ? (u64)count * 2 * res->levels * sizeof(u32) : 0;
}

static u64 bfly_nl_msgset_load_bytes(const struct bfly_msgset_res *res)
{
	return res->load ? (u64)res->channels * sizeof(u32) : 0;
}

/* The report of a routed set, or the message at fault of a refused one. */
static int bfly_nl_msgset_reply(struct genl_info *info, struct bfly_fabric *fab,
				const struct bfly_msgset_res *res, u32 count)
{
	u64 pbytes = res->reported ? bfly_nl_msgset_paths_bytes(res, count) : 0;
	u64 lbytes = res->reported ? bfly_nl_msgset_load_bytes(res) : 0;
	struct sk_buff *msg;
	void *hdr;

	if (lbytes > BFLY_NL_U32S_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BFLY_A_MSGSET_WANT],
				    "msgset-want: load: more channels than an attribute holds (16382); BFLY_IOC_MSGSET returns them");
		return -EMSGSIZE;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE + nla_total_size(count * sizeof(u32)) +
			  nla_total_size(pbytes) + nla_total_size(lbytes), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_MSGSET);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id))
		goto too_big;
	if (res->has_bad_msg && nla_put_u32(msg, BFLY_A_BAD_MSG, res->bad_msg))
		goto too_big;
	if (res->reported &&
	    (nla_put_u32(msg, BFLY_A_LEVELS, res->levels) ||
	     nla_put_u64_64bit(msg, BFLY_A_CYCLES, res->cycles, BFLY_A_PAD) ||
	     nla_put_u32(msg, BFLY_A_ROUTED, res->routed) ||
	     nla_put_u32(msg, BFLY_A_LAMBDA_LOAD, res->lambda_load) ||
	     nla_put_u32(msg, BFLY_A_LAMBDA_CAP, res->lambda_cap) ||
	     nla_put_u32(msg, BFLY_A_BOUND, res->bound) ||
	     nla_put(msg, BFLY_A_MSG_CYCLE, count * sizeof(u32), res->cycle)))
		goto too_big;
	if (pbytes && nla_put(msg, BFLY_A_MSG_PATHS, pbytes, res->paths))
		goto too_big;
	if (lbytes && nla_put(msg, BFLY_A_LOAD, lbytes, res->load))
		goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int bfly_nl_msgset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *msgs = info->attrs[BFLY_A_MSGS], **a = info->attrs;
	struct bfly_msgset_res res = {};
	struct bfly_msgset_req req = {
		.read_msgs = bfly_nl_msgs_read,
		.ctx = info,
		.bufs.killable = true,
	};
	struct bfly_fabric *fab;
	int err, sent;
	u32 want;

	/* Absent attributes: bi-directional, on-line, seed 0, no cycle limit. */
	req.mode = a[BFLY_A_MODE] ? nla_get_u32(a[BFLY_A_MODE]) : BFLY_MSGSET_BIDIR;
	req.strategy = a[BFLY_A_STRATEGY] ? nla_get_u32(a[BFLY_A_STRATEGY]) : BFLY_MSGSET_ONLINE;
	req.seed = a[BFLY_A_SEED] ? nla_get_u64(a[BFLY_A_SEED]) : 0;
	req.max_cycles = a[BFLY_A_MAX_CYCLES] ? nla_get_u32(a[BFLY_A_MAX_CYCLES]) : 0;
	if (a[BFLY_A_MSG_PATHS]) {
		req.read_paths = bfly_nl_msgs_read_paths;
		req.path_room = U64_MAX;
	}
	want = a[BFLY_A_MSGSET_WANT] ? nla_get_u32(a[BFLY_A_MSGSET_WANT]) : 0;
	req.want_paths = want & BFLY_MSGSET_WANT_PATHS;
	req.want_loads = want & BFLY_MSGSET_WANT_LOAD;
	if (req.want_paths)
		req.path_room = U64_MAX;
	if (req.want_loads)
		req.load_room = U64_MAX;
	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	err = bfly_nl_msgs_count(info, &req.count);
	if (err)
		goto out;
	if (req.want_paths && fab->geo.lcan &&
	    (u64)req.count * 2 * fab->geo.node_stages * sizeof(u32) > BFLY_NL_U32S_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[BFLY_A_MSGSET_WANT],
				    "msgset-want: paths: count * 2 * levels u32 pass an attribute (64 KiB); BFLY_IOC_MSGSET returns them");
		err = -EMSGSIZE;
		goto out;
	}
	err = bfly_msgset(fab, &req, &res);
	if (res.reported || res.has_bad_msg) {
		sent = bfly_nl_msgset_reply(info, fab, &res, req.count);
		if (sent && !err)
			err = sent;
	}
	if (err && res.why)
		bfly_nl_set_msg(info->extack, res.has_bad_msg ? msgs :
				err == -EINVAL ? a[BFLY_A_MODE] : NULL, res.why);
out:
	bfly_msgset_done(&res);
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}
