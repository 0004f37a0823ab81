// SPDX-License-Identifier: GPL-2.0
/*
 * fault-add and fault-del: a fabric's injected faults.
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
#include "bfly_nl.h"
#include "netlink.h"

/*
 * The fault nests of a fault-add or fault-del request, parsed: one more
 * than a fabric holds, so that the core refuses a request for too many.
 */
struct bfly_nl_faults {
	struct bfly_fault f[BFLY_MAX_FAULTS + 1];
	struct nlattr *nests[BFLY_MAX_FAULTS + 1];
	int n;
};

/*
 * Parse the fault nests of a fault-add (@add) or fault-del request into
 * @f (at most BFLY_MAX_FAULTS + 1); *@nests gets them for error reports.
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
		if (n == BFLY_MAX_FAULTS + 1)
			break;
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

/* Reply to fault-add or fault-del with the fabric's number of faults. */
static int bfly_nl_faults_reply(struct genl_info *info, struct bfly_fabric *fab,
				u8 cmd, u32 count)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, cmd);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, count)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* fault-add (@add) and fault-del: parse, ask the core, answer. */
static int bfly_nl_faults_doit(struct genl_info *info, bool add)
{
	struct bfly_faults_req req = { .add = add };
	struct bfly_faults_res res;
	struct nlattr *all = NULL;
	struct bfly_nl_faults *nl;
	struct bfly_fabric *fab;
	const struct nlattr *at;
	int err;

	/* fault-add's attribute table ends before all-faults */
	if (!add) {
		all = info->attrs[BFLY_A_ALL_FAULTS];
		req.all = all;
	}
	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	nl = kmalloc(sizeof(*nl), GFP_KERNEL);
	if (!nl) {
		err = -ENOMEM;
		goto out;
	}
	err = bfly_nl_faults_parse(info, add, nl->f, nl->nests);
	if (err < 0)
		goto out;
	req.list = nl->f;
	req.count = err;
	err = bfly_faults_change(fab, &req, &res);
	if (!err) {
		err = bfly_nl_faults_reply(info, fab, add ? BFLY_CMD_FAULT_ADD :
						     BFLY_CMD_FAULT_DEL, res.count);
		goto out;
	}
	if (!res.why)
		goto out;
	if (res.bad != BFLY_FAULTS_WHOLE) {
		at = nl->nests[min_t(u32, res.bad, req.count - 1)];
	} else if (add && err == -EINVAL) {
		/* No fault nest where one is needed */
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, BFLY_A_FAULT);
		at = NULL;
	} else {
		at = err == -EINVAL ? all : NULL;
	}
	bfly_nl_set_msg(info->extack, at, res.why);
out:
	kfree(nl);
	bfly_fabric_put(fab);
	return err;
}

int bfly_nl_fault_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return bfly_nl_faults_doit(info, true);
}

int bfly_nl_fault_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return bfly_nl_faults_doit(info, false);
}
