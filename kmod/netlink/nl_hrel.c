// SPDX-License-Identifier: GPL-2.0
/*
 * The hrel command: parse the (source, destination) pairs, run them with
 * core/hrel.c, send the report, then the refusal if there is one.
 */
#include <linux/limits.h>
#include <linux/string.h>
#include <net/genetlink.h>

#include "core/core.h"
#include "core/hrel.h"
#include "bfly_nl.h"
#include "netlink.h"

/* The most entries of round-perms: one attribute of u32 */
#define BFLY_NL_HREL_MAX_PERM_ENTRIES ((U16_MAX - NLA_HDRLEN) / sizeof(u32))

/* Each round's partial permutation, round after round, in one attribute. */
static int bfly_nl_hrel_put_perms(struct sk_buff *msg, const struct bfly_hrel_res *res)
{
	struct nlattr *attr;
	u32 *perm, r;

	attr = nla_reserve(msg, BFLY_A_ROUND_PERMS, res->rounds * res->ports * sizeof(u32));
	if (!attr)
		return -EMSGSIZE;
	perm = nla_data(attr);
	for (r = 0; r < res->rounds; r++)
		bfly_hrel_round_perm(res, r, perm + r * res->ports);
	return 0;
}

/* The report of a routed relation, h of a refused one, or the message at fault. */
static int bfly_nl_hrel_reply(struct genl_info *info, struct bfly_fabric *fab,
			      const struct bfly_hrel_res *res, bool perms)
{
	size_t size = NLMSG_GOODSIZE + nla_total_size(res->count * sizeof(u32));
	struct sk_buff *msg;
	void *hdr;

	if (perms)
		size += nla_total_size(res->rounds * res->ports * sizeof(u32));
	if (res->mbfly.paths)
		size += nla_total_size(res->count * res->mbfly.columns * sizeof(u32));
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_HREL);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id))
		goto too_big;
	if (res->has_bad_msg && nla_put_u32(msg, BFLY_A_BAD_MSG, res->bad_msg))
		goto too_big;
	if (res->h && nla_put_u32(msg, BFLY_A_H, res->h))
		goto too_big;
	if (res->reported &&
	    (nla_put_u32(msg, BFLY_A_COLOURS, res->colours) ||
	     nla_put_u32(msg, BFLY_A_ROUNDS, res->rounds) ||
	     nla_put_u64_64bit(msg, BFLY_A_CYCLES, res->cycles, BFLY_A_PAD) ||
	     nla_put(msg, BFLY_A_MSG_ROUND, res->count * sizeof(u32), res->round)))
		goto too_big;
	if (perms && bfly_nl_hrel_put_perms(msg, res))
		goto too_big;
	if (res->reported && fab->geo.mbfly &&
	    (nla_put_u32(msg, BFLY_A_STAGES, res->mbfly.stages) ||
	     nla_put_u32(msg, BFLY_A_MAX_THROUGH, res->mbfly.max_through) ||
	     nla_put_u32(msg, BFLY_A_HBAR, res->mbfly.hbar) ||
	     nla_put_u8(msg, BFLY_A_BOUND_OK, res->mbfly.bound_ok)))
		goto too_big;
	if (res->reported && res->mbfly.paths &&
	    nla_put(msg, BFLY_A_MBFLY_PATHS, res->count * res->mbfly.columns * sizeof(u32),
		    res->mbfly.paths))
		goto too_big;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int bfly_nl_hrel_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *msgs = info->attrs[BFLY_A_MSGS], **a = info->attrs;
	struct bfly_hrel_req req = {
		.read_msgs = bfly_nl_msgs_read_at,
		.ctx = info,
		.bufs.killable = true,
	};
	struct bfly_hrel_res res = {};
	bool perms = false, too_many = false, too_many_paths = false;
	struct bfly_fabric *fab;
	int err, sent;

	req.seed = a[BFLY_A_SEED] ? nla_get_u64(a[BFLY_A_SEED]) : 0;
	req.want_perms = !!a[BFLY_A_WANT_ROUND_PERMS];
	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	err = bfly_nl_msgs_count(info, &req.count);
	if (err)
		goto out;
	/* The paths travel in one attribute: too many, and none is kept. */
	if (a[BFLY_A_WANT_PATHS] && fab->geo.mbfly) {
		too_many_paths = (u64)req.count * (fab->geo.ports_log2 + 1) >
				 BFLY_NL_HREL_MAX_PERM_ENTRIES;
		req.want_paths = !too_many_paths;
	}
	err = bfly_hrel(fab, &req, &res);
	/* The permutations travel in one attribute: the report goes without them. */
	if (!err && a[BFLY_A_WANT_ROUND_PERMS]) {
		too_many = (u64)res.rounds * res.ports > BFLY_NL_HREL_MAX_PERM_ENTRIES;
		perms = !too_many;
	}
	if (res.reported || res.has_bad_msg || res.h) {
		sent = bfly_nl_hrel_reply(info, fab, &res, perms);
		if (sent && !err)
			err = sent;
	}
	if (err && res.why) {
		bfly_nl_set_msg(info->extack, res.has_bad_msg ? msgs : NULL, res.why);
	} else if (!err && too_many) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[BFLY_A_WANT_ROUND_PERMS],
				    "want-round-perms: rounds x N over 16382 entries; BFLY_IOC_HREL gives them");
		err = -E2BIG;
	} else if (!err && too_many_paths) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[BFLY_A_WANT_PATHS],
				    "want-paths: count x (log N + 1) over 16382 entries; BFLY_IOC_HREL gives them");
		err = -E2BIG;
	}
out:
	bfly_hrel_done(&res);
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}
