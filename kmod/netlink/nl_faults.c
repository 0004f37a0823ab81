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
