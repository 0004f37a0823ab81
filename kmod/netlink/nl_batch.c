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

#include "core/core.h"
#include "bfly_nl.h"
#include "netlink.h"

/* The netlink latin values are the uapi's schedules. */
static_assert((int)BFLY_NL_LATIN_RLS == (int)BFLY_SCHED_RLS);
static_assert((int)BFLY_NL_LATIN_LLS == (int)BFLY_SCHED_LLS);
static_assert((int)BFLY_NL_LATIN_XOR == (int)BFLY_SCHED_XOR);
static_assert((int)BFLY_NL_LATIN_SQUARE == (int)BFLY_SCHED_SQUARE);

/*
 * a2a: run an all-to-all schedule on a fabric, schedule only (netlink
 * carries no message buffers): every round generated, routed and checked
 * for conflicts, conflicting rounds split, as BFLY_IOC_BATCH does.
 */
int bfly_nl_a2a_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 latin = BFLY_NL_LATIN_RLS;
	struct bfly_fabric *fab;
	struct sk_buff *msg;
	struct bfly_batch b;
	void *hdr;
	int err;

	fab = bfly_nl_fabric(info);
	if (IS_ERR(fab))
		return PTR_ERR(fab);
	if (info->attrs[BFLY_A_LATIN])
		latin = nla_get_u32(info->attrs[BFLY_A_LATIN]);
	if (latin == BFLY_NL_LATIN_SQUARE) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BFLY_A_LATIN],
				    "latin: a caller's square runs through BFLY_IOC_BATCH, which carries it");
		err = -EINVAL;
		goto out_put;
	}
	if (fab->geo.ports_log2 > BFLY_BATCH_MAX_PORTS_LOG2) {
		NL_SET_ERR_MSG(info->extack, "id: batches need a fabric of at most 2^16 ports");
		err = -E2BIG;
		goto out_put;
	}

	/*
	 * The spec's latin enum numbers the schedules as the uapi's enum
	 * bfly_schedule does (asserted above). Schedule only, no message is
	 * lost to a fault: the reply counts the messages a fault would have
	 * hit.
	 */
	err = bfly_batch_schedule_only(fab, latin, &b);
	if (err == -EHOSTUNREACH)
		err = 0;
	if (err == -EINTR)
		goto out_put;
	if (err == -ENODEV) {
		NL_SET_ERR_MSG(info->extack, "id: the fabric was deleted meanwhile");
		goto out_put;
	}
	if (err) {
		bfly_nl_mem_refused(info->extack, err);
		goto out_put;
	}

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	hdr = genlmsg_put_reply(msg, info, &bfly_nl_family, 0, BFLY_CMD_A2A);
	if (!hdr || nla_put_u32(msg, BFLY_A_ID, fab->id) ||
	    nla_put_u32(msg, BFLY_A_LATIN, latin) ||
	    nla_put_u32(msg, BFLY_A_ROUNDS, b.rounds) ||
	    nla_put_u64_64bit(msg, BFLY_A_CYCLES, b.cycles, BFLY_A_PAD) ||
	    nla_put_u32(msg, BFLY_A_CONFLICTS_COUNT, min_t(u64, b.conflicts, U32_MAX)) ||
	    nla_put_u32(msg, BFLY_A_FAULTS_COUNT, b.faults) ||
	    nla_put_u64_64bit(msg, BFLY_A_AFFECTED_COUNT, b.affected, BFLY_A_PAD)) {
		nlmsg_free(msg);
		err = -EMSGSIZE;
		goto out_put;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out_put:
	bfly_fabric_put(fab);
	return bfly_nl_answered(info->extack, err);
}
