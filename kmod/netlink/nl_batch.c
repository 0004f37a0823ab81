// SPDX-License-Identifier: GPL-2.0
/*
 * a2a: an all-to-all schedule run without message data.
 */
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "core/batch.h"
#include "core/core.h"
#include "bfly_nl.h"
#include "netlink.h"

/* The netlink latin values are the uapi's schedules. */
static_assert((int)BFLY_NL_LATIN_RLS == (int)BFLY_SCHED_RLS);
static_assert((int)BFLY_NL_LATIN_LLS == (int)BFLY_SCHED_LLS);
static_assert((int)BFLY_NL_LATIN_XOR == (int)BFLY_SCHED_XOR);
static_assert((int)BFLY_NL_LATIN_SQUARE == (int)BFLY_SCHED_SQUARE);
static_assert((int)BFLY_NL_LATIN_SYSTOLIC == (int)BFLY_SCHED_SYSTOLIC);

/*
 * a2a: run an all-to-all schedule on a fabric with the batch service,
 * schedule only (netlink carries no message buffers): every round
 * generated, routed and checked for conflicts, conflicting rounds split,
 * as BFLY_IOC_BATCH does.
 */
int bfly_nl_a2a_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bfly_batch_req req = {
		.schedule = BFLY_SCHED_RLS,
		.killable = true,
	};
	struct bfly_batch_res res = {};
	struct bfly_fabric *fab;
	struct sk_buff *msg;
	void *hdr;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	/* The spec's latin values are the uapi's schedules (asserted above). */
	if (info->attrs[BFLY_A_LATIN])
		req.schedule = nla_get_u32(info->attrs[BFLY_A_LATIN]);
	req.minimal = nla_get_flag(info->attrs[BFLY_A_MINIMAL]);

	/* No message data: none is lost to a fault, the reply counts them. */
	err = bfly_batch(fab, &req, &res);
	if (err == -EHOSTUNREACH)
		err = 0;
	if (err && res.why)
		bfly_nl_set_msg(info->extack,
				err == -EINVAL ? info->attrs[BFLY_A_LATIN] : NULL, res.why);
	if (err)
		goto out;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_A2A);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_LATIN, req.schedule) ||
	    nla_put_u32(msg, BFLY_A_ROUNDS, res.rounds) ||
	    nla_put_u64_64bit(msg, BFLY_A_CYCLES, res.cycles, BFLY_A_PAD) ||
	    nla_put_u64_64bit(msg, BFLY_A_CYCLES_BOUND, res.cycles_bound, BFLY_A_PAD) ||
	    nla_put_u32(msg, BFLY_A_MAX_LINK_LOAD, res.max_link_load) ||
	    nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, min_t(u64, res.conflicts, U32_MAX)) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, res.faults) ||
	    nla_put_u64_64bit(msg, BFLY_A_AFFECTED_COUNT, res.affected, BFLY_A_PAD)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	bfly_batch_done(&res);
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}
