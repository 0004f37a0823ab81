/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/bfly.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_BFLY_GEN_H
#define _LINUX_BFLY_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/bfly_netlink.h>
#include <uapi/linux/bfly.h>

/* Common nested types */
extern const struct nla_policy bfly_fault_nl_policy[BFLY_A_FAULT_STATE + 1];
extern const struct nla_policy bfly_switch_nl_policy[BFLY_A_SWITCH_MAP + 1];

extern const struct nla_policy bfly_fabric_get_nl_policy[BFLY_A_WANT + 1];

extern const struct nla_policy bfly_fabric_new_nl_policy[BFLY_A_MBFLY_D + 1];

extern const struct nla_policy bfly_fabric_del_nl_policy[BFLY_A_ID + 1];

extern const struct nla_policy bfly_switch_set_nl_policy[BFLY_A_PORT_MAP + 1];

extern const struct nla_policy bfly_route_nl_policy[BFLY_A_ALLOW_FAULTS + 1];

extern const struct nla_policy bfly_a2a_nl_policy[BFLY_A_MINIMAL + 1];

extern const struct nla_policy bfly_stats_reset_nl_policy[BFLY_A_ID + 1];

extern const struct nla_policy bfly_fault_add_nl_policy[BFLY_A_FAULT + 1];

extern const struct nla_policy bfly_fault_del_nl_policy[BFLY_A_ALL_FAULTS + 1];

extern const struct nla_policy bfly_msgset_nl_policy[BFLY_A_MSGSET_WANT + 1];

extern const struct nla_policy bfly_hrel_nl_policy[BFLY_A_WANT_ROUND_PERMS + 1];

/* Ops table for bfly */
extern const struct genl_ops bfly_nl_ops[11];

int bfly_nl_fabric_get_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_fabric_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int bfly_nl_fabric_new_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_fabric_del_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_switch_set_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_route_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_a2a_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_fault_add_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_fault_del_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_msgset_doit(struct sk_buff *skb, struct genl_info *info);
int bfly_nl_hrel_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	BFLY_NLGRP_EVENTS,
};

extern const struct genl_multicast_group bfly_nl_mcgrps[1];

#endif /* _LINUX_BFLY_GEN_H */
