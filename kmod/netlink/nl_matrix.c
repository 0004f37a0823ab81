// SPDX-License-Identifier: GPL-2.0
/*
 * switch-set: switch nests or a whole matrix, set by core/matrix.c.
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
#include "core/matrix.h"
#include "bfly_nl.h"
#include "netlink.h"

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
