// SPDX-License-Identifier: GPL-2.0
/*
 * switch-set: switch nests, a whole matrix or whole port maps, set by
 * core/matrix.c with its rules.
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
#include "lib/settings.h"
#include "bfly_nl.h"
#include "netlink.h"

/* A switch nest as a core change; 0 or -EINVAL with extack. */
static int bfly_nl_switch_parse(struct genl_info *info, struct nlattr *nest,
				struct bfly_switch_set *sw)
{
	struct nlattr *tb[BFLY_A_SWITCH_MAX + 1];
	int err;

	err = nla_parse_nested(tb, BFLY_A_SWITCH_MAX, nest, bfly_switch_nl_policy,
			       info->extack);
	if (err)
		return err;
	if (!tb[BFLY_A_SWITCH_STAGE] || !tb[BFLY_A_SWITCH_NODE] ||
	    !tb[BFLY_A_SWITCH_STATE] == !tb[BFLY_A_SWITCH_MAP]) {
		NL_SET_ERR_ATTR_MISS(info->extack, nest,
				     !tb[BFLY_A_SWITCH_STAGE] ? BFLY_A_SWITCH_STAGE :
				     !tb[BFLY_A_SWITCH_NODE] ? BFLY_A_SWITCH_NODE :
				     BFLY_A_SWITCH_STATE);
		NL_SET_ERR_MSG(info->extack,
			       "switch: needs stage, node and a state or a map (not both)");
		return -EINVAL;
	}
	*sw = (struct bfly_switch_set){
		.stage = nla_get_u32(tb[BFLY_A_SWITCH_STAGE]),
		.node = nla_get_u32(tb[BFLY_A_SWITCH_NODE]),
	};
	if (tb[BFLY_A_SWITCH_MAP]) {
		sw->map = nla_data(tb[BFLY_A_SWITCH_MAP]);
		sw->map_len = nla_len(tb[BFLY_A_SWITCH_MAP]);
	} else {
		sw->state = nla_get_u32(tb[BFLY_A_SWITCH_STATE]);
	}
	return 0;
}

/* Check every switch nest with the core's rules; 0 or an errno with extack. */
static int bfly_nl_switches_check(struct genl_info *info,
				  const struct bfly_geometry *geo)
{
	struct bfly_switch_set sw;
	const char *why;
	struct nlattr *nest;
	int rem, err;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != BFLY_A_SWITCH)
			continue;
		err = bfly_nl_switch_parse(info, nest, &sw);
		if (err)
			return err;
		err = bfly_switch_check(geo, &sw, &why);
		if (err) {
			bfly_nl_set_msg(info->extack, nest, why);
			return err;
		}
	}
	return 0;
}

/* Apply the (checked) switch nests to @matrix. */
static void bfly_nl_matrix_edit(void *ctx, unsigned long *matrix)
{
	struct genl_info *info = ctx;
	struct bfly_fabric *fab = info->user_ptr[0];
	struct bfly_switch_set sw;
	struct nlattr *nest;
	int rem;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) == BFLY_A_SWITCH && !bfly_nl_switch_parse(info, nest, &sw))
			bfly_switch_apply(&fab->geo, matrix, &sw);
	}
}

/* The whole settings: matrix or port-map, whichever was given. */
static struct nlattr *bfly_nl_settings_attr(struct genl_info *info)
{
	return info->attrs[BFLY_A_MATRIX] ?: info->attrs[BFLY_A_PORT_MAP];
}

static int bfly_nl_matrix_read(void *ctx, void *matrix, size_t bytes)
{
	struct genl_info *info = ctx;

	memcpy(matrix, nla_data(bfly_nl_settings_attr(info)), bytes);
	return 0;
}

/*
 * An LCAN setting refused: the byte at fault in the message, where the
 * kernel formats extack messages (6.2 on; 80 bytes at most), else the
 * reason alone.
 */
static void bfly_nl_settings_bad(struct netlink_ext_ack *extack,
				 const struct bfly_matrix_res *res)
{
#ifdef NL_SET_ERR_MSG_FMT
	NL_SET_ERR_MSG_FMT(extack, "port-map: byte %llu: %s", res->bad.byte, res->why);
#endif
}

int bfly_nl_switch_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *sattr = info->attrs[BFLY_A_SWITCH];
	struct nlattr *mattr = bfly_nl_settings_attr(info);
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
			       "switch, matrix, port-map: missing: give switch nests or whole settings");
		err = -EINVAL;
		goto out;
	}
	if (mattr && (sattr || (info->attrs[BFLY_A_MATRIX] && info->attrs[BFLY_A_PORT_MAP]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, mattr,
				    "matrix: give switch nests, a matrix or port maps, one of them");
		err = -EINVAL;
		goto out;
	}
	req.port_map = mattr == info->attrs[BFLY_A_PORT_MAP];
	if (mattr && nla_len(mattr) != bfly_settings_bytes(&fab->geo, req.port_map)) {
		bfly_nl_set_msg(info->extack, mattr, req.port_map ?
				"port-map: length differs from the fabric's port-map-bytes" :
				"matrix: length differs from the bit matrix's bytes (whole u64 words)");
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
			bfly_nl_set_msg(info->extack, err == -EINVAL || err == -EOPNOTSUPP ?
					mattr : NULL, res.why);
		if (err == -EINVAL && res.bad.set)
			bfly_nl_settings_bad(info->extack, &res);
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
