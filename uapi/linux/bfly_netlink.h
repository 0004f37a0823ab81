/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/bfly.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_BFLY_NETLINK_H
#define _UAPI_LINUX_BFLY_NETLINK_H

#define BFLY_FAMILY_NAME	"bfly"
#define BFLY_FAMILY_VERSION	1

#define BFLY_CHUNK_BYTES	32768
#define BFLY_CONFLICTS_MAX	64

/**
 * enum bfly_msgset_want - What a msgset request wants in its reply besides the
 *   figures and msg-cycle.
 * @BFLY_MSGSET_WANT_PATHS: msg-paths: each message's 2 l path choices
 *   (BFLY_IOC_MSGSET's path layout), zeros for a message not routed
 * @BFLY_MSGSET_WANT_LOAD: load: each channel's load, in the order of
 *   Documentation/lcan.rst ("Channels and lambda(M)")
 */
enum bfly_msgset_want {
	BFLY_MSGSET_WANT_PATHS = 1,
	BFLY_MSGSET_WANT_LOAD = 2,
};

/**
 * enum bfly_want - What a fabric-get request wants in its replies besides the
 *   description.
 * @BFLY_WANT_MATRIX: the switch settings, in chunks of at most chunk-bytes:
 *   the matrix of a 2 x 2 fabric, the port maps of kfly and flatfly
 * @BFLY_WANT_LINK_LOAD: the maximum link load and, for fabrics whose link-load
 *   array fits in 64 chunks, the load of every link, following the switch
 *   matrix with a packet at every input
 */
enum bfly_want {
	BFLY_WANT_MATRIX = 1,
	BFLY_WANT_LINK_LOAD = 2,
};

/**
 * enum bfly_nl_latin - The Latin square an all-to-all exchange follows.
 * @BFLY_NL_LATIN_RLS: round k sends i to (i - k) mod N
 * @BFLY_NL_LATIN_LLS: round k sends i to (i + k) mod N
 * @BFLY_NL_LATIN_XOR: round k sends i to i XOR k
 * @BFLY_NL_LATIN_SQUARE: a caller's Latin square: batches through
 *   BFLY_IOC_BATCH only (in batch-done-ntf); the a2a command refuses it
 * @BFLY_NL_LATIN_SYSTOLIC: round k sends i to i plus k plus, in every base-r
 *   digit but the lowest, i's lowest digit (digit by digit, mod the radix r);
 *   on a flattened butterfly the rounds are pipelined, one a cycle
 */
enum bfly_nl_latin {
	BFLY_NL_LATIN_RLS = 1,
	BFLY_NL_LATIN_LLS,
	BFLY_NL_LATIN_XOR,
	BFLY_NL_LATIN_SQUARE,
	BFLY_NL_LATIN_SYSTOLIC,
};

enum bfly_a_stats {
	BFLY_A_STATS_UNSPEC,
	BFLY_A_STATS_PAD,
	BFLY_A_STATS_ROUTES,
	BFLY_A_STATS_REFUSALS,
	BFLY_A_STATS_CONFLICTS,
	BFLY_A_STATS_MATRIX_WRITES,
	BFLY_A_STATS_BATCHES,

	__BFLY_A_STATS_MAX_PLUS1
};

#define BFLY_A_STATS_MAX (__BFLY_A_STATS_MAX_PLUS1 - 1)

enum bfly_a_conflict {
	BFLY_A_CONFLICT_UNSPEC,
	BFLY_A_CONFLICT_STAGE,
	BFLY_A_CONFLICT_NODE,
	BFLY_A_CONFLICT_INPUT0,
	BFLY_A_CONFLICT_INPUT1,
	BFLY_A_CONFLICT_PORT,

	__BFLY_A_CONFLICT_MAX_PLUS1
};

#define BFLY_A_CONFLICT_MAX (__BFLY_A_CONFLICT_MAX_PLUS1 - 1)

enum bfly_a_switch {
	BFLY_A_SWITCH_UNSPEC,
	BFLY_A_SWITCH_STAGE,
	BFLY_A_SWITCH_NODE,
	BFLY_A_SWITCH_STATE,
	BFLY_A_SWITCH_MAP,

	__BFLY_A_SWITCH_MAX_PLUS1
};

#define BFLY_A_SWITCH_MAX (__BFLY_A_SWITCH_MAX_PLUS1 - 1)

enum bfly_a_fault {
	BFLY_A_FAULT_UNSPEC,
	BFLY_A_FAULT_KIND,
	BFLY_A_FAULT_STAGE,
	BFLY_A_FAULT_INDEX,
	BFLY_A_FAULT_STATE,

	__BFLY_A_FAULT_MAX_PLUS1
};

#define BFLY_A_FAULT_MAX (__BFLY_A_FAULT_MAX_PLUS1 - 1)

enum bfly_a {
	BFLY_A_UNSPEC,
	BFLY_A_PAD,
	BFLY_A_ID,
	BFLY_A_DEV_NAME,
	BFLY_A_TOPOLOGY,
	BFLY_A_PORTS,
	BFLY_A_PORTS_LOG2,
	BFLY_A_NODE_STAGES,
	BFLY_A_NODES_PER_STAGE,
	BFLY_A_SWITCHES,
	BFLY_A_GENERATION,
	BFLY_A_STATS,
	BFLY_A_WANT,
	BFLY_A_MATRIX_BYTES,
	BFLY_A_MATRIX_OFFSET,
	BFLY_A_MATRIX,
	BFLY_A_MAX_LINK_LOAD,
	BFLY_A_LINK_LOAD_ENTRIES,
	BFLY_A_LINK_LOAD_OFFSET,
	BFLY_A_LINK_LOAD,
	BFLY_A_PERM,
	BFLY_A_LABELS,
	BFLY_A_DRY_RUN,
	BFLY_A_METHOD,
	BFLY_A_CONFLICTS_COUNT,
	BFLY_A_FIRST_CONFLICT_STAGE,
	BFLY_A_CONFLICT,
	BFLY_A_SWITCH,
	BFLY_A_LATIN,
	BFLY_A_ROUNDS,
	BFLY_A_CYCLES,
	BFLY_A_FAULT,
	BFLY_A_FAULTS_COUNT,
	BFLY_A_ALL_FAULTS,
	BFLY_A_ALLOW_FAULTS,
	BFLY_A_AFFECTED_COUNT,
	BFLY_A_STUCK_UNMET,
	BFLY_A_APPLIED,
	BFLY_A_RADIX,
	BFLY_A_DEGREE,
	BFLY_A_DIAMETER,
	BFLY_A_ROUTERS,
	BFLY_A_CHANNELS,
	BFLY_A_BISECTION,
	BFLY_A_PORT_MAP_BYTES,
	BFLY_A_MINIMAL,
	BFLY_A_CYCLES_BOUND,
	BFLY_A_PORT_MAP,
	BFLY_A_UP,
	BFLY_A_MSGS,
	BFLY_A_MODE,
	BFLY_A_STRATEGY,
	BFLY_A_SEED,
	BFLY_A_MAX_CYCLES,
	BFLY_A_LEVELS,
	BFLY_A_ROUTED,
	BFLY_A_LAMBDA_LOAD,
	BFLY_A_LAMBDA_CAP,
	BFLY_A_BOUND,
	BFLY_A_MSG_CYCLE,
	BFLY_A_BAD_MSG,
	BFLY_A_MSG_PATHS,
	BFLY_A_MSGSET_WANT,
	BFLY_A_LOAD,
	BFLY_A_H,
	BFLY_A_COLOURS,
	BFLY_A_MBFLY_D,
	BFLY_A_EXP_COL,
	BFLY_A_EXP_INPUTS,
	BFLY_A_EXP_KMAX,
	BFLY_A_EXP_BETA,
	BFLY_A_EXP_EXHAUSTIVE,
	BFLY_A_EXP_SUBSETS,
	BFLY_A_STAGES,
	BFLY_A_MAX_THROUGH,
	BFLY_A_HBAR,
	BFLY_A_BOUND_OK,
	BFLY_A_WANT_PATHS,
	BFLY_A_MBFLY_PATHS,
	BFLY_A_MSG_ROUND,
	BFLY_A_WANT_ROUND_PERMS,
	BFLY_A_ROUND_PERMS,

	__BFLY_A_MAX_PLUS1
};

#define BFLY_A_MAX (__BFLY_A_MAX_PLUS1 - 1)

enum bfly_cmd {
	BFLY_CMD_UNSPEC,
	BFLY_CMD_FABRIC_GET,
	BFLY_CMD_FABRIC_NEW,
	BFLY_CMD_FABRIC_DEL,
	BFLY_CMD_SWITCH_SET,
	BFLY_CMD_ROUTE,
	BFLY_CMD_A2A,
	BFLY_CMD_STATS_RESET,
	BFLY_CMD_FABRIC_CREATED_NTF,
	BFLY_CMD_FABRIC_DELETED_NTF,
	BFLY_CMD_MATRIX_CHANGED_NTF,
	BFLY_CMD_BATCH_DONE_NTF,
	BFLY_CMD_CONFLICTS_NTF,
	BFLY_CMD_FAULT_ADD,
	BFLY_CMD_FAULT_DEL,
	BFLY_CMD_FAULTS_CHANGED_NTF,
	BFLY_CMD_MSGSET,
	BFLY_CMD_HREL,

	__BFLY_CMD_MAX
};

#define BFLY_CMD_MAX (__BFLY_CMD_MAX - 1)

#define BFLY_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_BFLY_NETLINK_H */
