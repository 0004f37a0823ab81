// SPDX-License-Identifier: GPL-2.0
/*
 * The route command: parse the request, route it with core/route.c, send
 * the report, then the refusal if there is one.
 */
#include <linux/capability.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <net/genetlink.h>

#include "core/core.h"
#include "core/route.h"
#include "bfly_nl.h"
#include "netlink.h"

/* The route input: a permutation or labels, not both. */
static struct nlattr *bfly_nl_route_input(struct genl_info *info)
{
	struct nlattr *perm = info->attrs[BFLY_A_PERM];
	struct nlattr *labels = info->attrs[BFLY_A_LABELS];

	if (!perm && !labels) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_PERM);
		NL_SET_ERR_MSG(info->extack,
			       "perm, labels: missing: give a permutation or labels");
		return NULL;
	}
	if (perm && labels) {
		NL_SET_ERR_MSG_ATTR(info->extack, labels,
				    "labels: give a permutation or labels, not both");
		return NULL;
	}
	return perm ?: labels;
}

/* What bfly_nl_route_read() reads from. */
struct bfly_nl_route_ctx {
	struct genl_info *info;
	struct nlattr *in;
};

/* Copy the input, which must hold exactly @bytes, N u32 or N u64. */
static int bfly_nl_route_read(void *ctx, void *in, size_t bytes)
{
	struct bfly_nl_route_ctx *c = ctx;

	if (nla_len(c->in) != bytes) {
		if (c->in == c->info->attrs[BFLY_A_PERM])
			NL_SET_ERR_MSG_ATTR(c->info->extack, c->in,
					    "perm: length is not 4 * ports bytes (one u32 per input)");
		else
			NL_SET_ERR_MSG_ATTR(c->info->extack, c->in,
					    "labels: length is not 8 * ports bytes (one u64 per input)");
		return -EINVAL;
	}
	memcpy(in, nla_data(c->in), bytes);
	return 0;
}

static int bfly_nl_put_conflicts(struct sk_buff *msg, const struct bfly_route_buf *b)
{
	u32 i, n = min(b->conflicts.count, b->conflicts.capacity);
	const struct bfly_port_conflict *c;
	struct nlattr *nest;

	for (i = 0; i < n; i++) {
		c = &b->pconf[i];
		nest = nla_nest_start(msg, BFLY_A_CONFLICT);
		if (!nest ||
		    nla_put_u32(msg, BFLY_A_CONFLICT_STAGE, c->stage) ||
		    nla_put_u32(msg, BFLY_A_CONFLICT_NODE, c->node) ||
		    nla_put_u32(msg, BFLY_A_CONFLICT_INPUT0, c->input[0]) ||
		    nla_put_u32(msg, BFLY_A_CONFLICT_INPUT1, c->input[1]) ||
		    nla_put_u32(msg, BFLY_A_CONFLICT_PORT, c->port))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* Send the report of a routed request. */
static int bfly_nl_route_reply(struct genl_info *info, struct bfly_fabric *fab,
			       const struct bfly_route_res *res)
{
	const struct bfly_route_buf *b = &res->b;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE + BFLY_CONFLICTS_MAX * 48, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_ROUTE);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_METHOD, res->method) ||
	    nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, b->conflicts.count) ||
	    nla_put_u32(msg, BFLY_A_FIRST_CONFLICT_STAGE, b->conflicts.first_stage) ||
	    bfly_nl_put_conflicts(msg, b) ||
	    nla_put_u64_64bit(msg, BFLY_A_GENERATION, res->generation, BFLY_A_PAD) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, res->faults) ||
	    nla_put_u64_64bit(msg, BFLY_A_AFFECTED_COUNT, b->affected_count, BFLY_A_PAD) ||
	    nla_put_u32(msg, BFLY_A_STUCK_UNMET, b->stuck_unmet) ||
	    nla_put_u8(msg, BFLY_A_APPLIED, res->applied)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int bfly_nl_route_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bfly_route_res res = {};
	struct bfly_route_req req = {
		.dry_run = nla_get_flag(info->attrs[BFLY_A_DRY_RUN]),
		.allow_faults = nla_get_flag(info->attrs[BFLY_A_ALLOW_FAULTS]),
		.conflicts_max = BFLY_CONFLICTS_MAX,
		.conflict_ports = true,
		.read_input = bfly_nl_route_read,
	};
	struct bfly_nl_route_ctx ctx = { .info = info };
	struct bfly_fabric *fab;
	struct nlattr *in;
	int err, sent;

	/* Applying a route needs CAP_NET_ADMIN, checked first as for admin ops. */
	if (!req.dry_run && !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "dry-run: missing: applying a route needs CAP_NET_ADMIN");
		return -EPERM;
	}
	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	in = bfly_nl_route_input(info);
	if (!in) {
		err = -EINVAL;
		goto out;
	}
	ctx.in = in;
	req.labels = in == info->attrs[BFLY_A_LABELS];
	/* The reply carries no settings: leave them in the fabric's layout. */
	req.port_map = fab->geo.port_map;
	req.ctx = &ctx;

	err = bfly_route(fab, &req, &res);
	if (res.reported) {
		sent = bfly_nl_route_reply(info, fab, &res);
		if (sent && !err)
			err = sent;
	}
	if (err && res.why)
		bfly_nl_set_msg(info->extack,
				err == -EINVAL || err == -EOPNOTSUPP ||
				err == -EBUSY ? in : NULL, res.why);
out:
	bfly_route_done(&res);
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}
