// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/bfly.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "bfly_nl.h"

#include <uapi/linux/bfly_netlink.h>
#include <uapi/linux/bfly.h>

/* Common nested types */
const struct nla_policy bfly_fault_nl_policy[BFLY_A_FAULT_STATE + 1] = {
	[BFLY_A_FAULT_KIND] = NLA_POLICY_RANGE(NLA_U32, 1, 2),
	[BFLY_A_FAULT_STAGE] = { .type = NLA_U32, },
	[BFLY_A_FAULT_INDEX] = { .type = NLA_U32, },
	[BFLY_A_FAULT_STATE] = NLA_POLICY_MAX(NLA_U32, 1),
};

const struct nla_policy bfly_switch_nl_policy[BFLY_A_SWITCH_MAP + 1] = {
	[BFLY_A_SWITCH_STAGE] = { .type = NLA_U32, },
	[BFLY_A_SWITCH_NODE] = { .type = NLA_U32, },
	[BFLY_A_SWITCH_STATE] = NLA_POLICY_MAX(NLA_U32, 1),
	[BFLY_A_SWITCH_MAP] = { .type = NLA_BINARY, },
};

/* BFLY_CMD_FABRIC_GET - do */
const struct nla_policy bfly_fabric_get_nl_policy[BFLY_A_WANT + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_WANT] = NLA_POLICY_MASK(NLA_U32, 0x3),
};

/* BFLY_CMD_FABRIC_NEW - do */
const struct nla_policy bfly_fabric_new_nl_policy[BFLY_A_MBFLY_D + 1] = {
	[BFLY_A_TOPOLOGY] = NLA_POLICY_RANGE(NLA_U32, 1, 10),
	[BFLY_A_PORTS] = { .type = NLA_U32, },
	[BFLY_A_RADIX] = { .type = NLA_U32, },
	[BFLY_A_UP] = { .type = NLA_U32, },
	[BFLY_A_MBFLY_D] = { .type = NLA_U32, },
	[BFLY_A_SEED] = { .type = NLA_U64, },
};

/* BFLY_CMD_FABRIC_DEL - do */
const struct nla_policy bfly_fabric_del_nl_policy[BFLY_A_ID + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
};

/* BFLY_CMD_SWITCH_SET - do */
const struct nla_policy bfly_switch_set_nl_policy[BFLY_A_PORT_MAP + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_SWITCH] = NLA_POLICY_NESTED(bfly_switch_nl_policy),
	[BFLY_A_MATRIX] = { .type = NLA_BINARY, },
	[BFLY_A_PORT_MAP] = { .type = NLA_BINARY, },
};

/* BFLY_CMD_ROUTE - do */
const struct nla_policy bfly_route_nl_policy[BFLY_A_ALLOW_FAULTS + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_PERM] = { .type = NLA_BINARY, },
	[BFLY_A_LABELS] = { .type = NLA_BINARY, },
	[BFLY_A_DRY_RUN] = { .type = NLA_FLAG, },
	[BFLY_A_ALLOW_FAULTS] = { .type = NLA_FLAG, },
};

/* BFLY_CMD_A2A - do */
const struct nla_policy bfly_a2a_nl_policy[BFLY_A_MINIMAL + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_LATIN] = NLA_POLICY_RANGE(NLA_U32, 1, 5),
	[BFLY_A_MINIMAL] = { .type = NLA_FLAG, },
};

/* BFLY_CMD_STATS_RESET - do */
const struct nla_policy bfly_stats_reset_nl_policy[BFLY_A_ID + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
};

/* BFLY_CMD_FAULT_ADD - do */
const struct nla_policy bfly_fault_add_nl_policy[BFLY_A_FAULT + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_FAULT] = NLA_POLICY_NESTED(bfly_fault_nl_policy),
};

/* BFLY_CMD_FAULT_DEL - do */
const struct nla_policy bfly_fault_del_nl_policy[BFLY_A_ALL_FAULTS + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_FAULT] = NLA_POLICY_NESTED(bfly_fault_nl_policy),
	[BFLY_A_ALL_FAULTS] = { .type = NLA_FLAG, },
};

/* BFLY_CMD_MSGSET - do */
const struct nla_policy bfly_msgset_nl_policy[BFLY_A_MSGSET_WANT + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_MSGS] = { .type = NLA_BINARY, },
	[BFLY_A_MODE] = NLA_POLICY_MAX(NLA_U32, 1),
	[BFLY_A_STRATEGY] = NLA_POLICY_MAX(NLA_U32, 1),
	[BFLY_A_SEED] = { .type = NLA_U64, },
	[BFLY_A_MAX_CYCLES] = { .type = NLA_U32, },
	[BFLY_A_MSG_PATHS] = { .type = NLA_BINARY, },
	[BFLY_A_MSGSET_WANT] = NLA_POLICY_MASK(NLA_U32, 0x3),
};

/* BFLY_CMD_HREL - do */
const struct nla_policy bfly_hrel_nl_policy[BFLY_A_WANT_ROUND_PERMS + 1] = {
	[BFLY_A_ID] = { .type = NLA_U32, },
	[BFLY_A_MSGS] = { .type = NLA_BINARY, },
	[BFLY_A_SEED] = { .type = NLA_U64, },
	[BFLY_A_WANT_ROUND_PERMS] = { .type = NLA_FLAG, },
	[BFLY_A_WANT_PATHS] = { .type = NLA_FLAG, },
};

/* Ops table for bfly */
const struct genl_ops bfly_nl_ops[11] = {
	{
		.cmd		= BFLY_CMD_FABRIC_GET,
		.doit		= bfly_nl_fabric_get_doit,
		.dumpit		= bfly_nl_fabric_get_dumpit,
		.policy		= bfly_fabric_get_nl_policy,
		.maxattr	= BFLY_A_WANT,
	},
	{
		.cmd		= BFLY_CMD_FABRIC_NEW,
		.doit		= bfly_nl_fabric_new_doit,
		.policy		= bfly_fabric_new_nl_policy,
		.maxattr	= BFLY_A_MBFLY_D,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_FABRIC_DEL,
		.doit		= bfly_nl_fabric_del_doit,
		.policy		= bfly_fabric_del_nl_policy,
		.maxattr	= BFLY_A_ID,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_SWITCH_SET,
		.doit		= bfly_nl_switch_set_doit,
		.policy		= bfly_switch_set_nl_policy,
		.maxattr	= BFLY_A_PORT_MAP,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_ROUTE,
		.doit		= bfly_nl_route_doit,
		.policy		= bfly_route_nl_policy,
		.maxattr	= BFLY_A_ALLOW_FAULTS,
	},
	{
		.cmd		= BFLY_CMD_A2A,
		.doit		= bfly_nl_a2a_doit,
		.policy		= bfly_a2a_nl_policy,
		.maxattr	= BFLY_A_MINIMAL,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_STATS_RESET,
		.doit		= bfly_nl_stats_reset_doit,
		.policy		= bfly_stats_reset_nl_policy,
		.maxattr	= BFLY_A_ID,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_FAULT_ADD,
		.doit		= bfly_nl_fault_add_doit,
		.policy		= bfly_fault_add_nl_policy,
		.maxattr	= BFLY_A_FAULT,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_FAULT_DEL,
		.doit		= bfly_nl_fault_del_doit,
		.policy		= bfly_fault_del_nl_policy,
		.maxattr	= BFLY_A_ALL_FAULTS,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= BFLY_CMD_MSGSET,
		.doit		= bfly_nl_msgset_doit,
		.policy		= bfly_msgset_nl_policy,
		.maxattr	= BFLY_A_MSGSET_WANT,
	},
	{
		.cmd		= BFLY_CMD_HREL,
		.doit		= bfly_nl_hrel_doit,
		.policy		= bfly_hrel_nl_policy,
		.maxattr	= BFLY_A_WANT_ROUND_PERMS,
	},
};

const struct genl_multicast_group bfly_nl_mcgrps[1] = {
	[BFLY_NLGRP_EVENTS] = { "events", },
};
