// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: the names of topologies, methods, Latin squares, fault kinds,
 * attributes and commands, as the spec spells them.
 */
#include "bflyctl.h"

const char * const topo_names[__BFLY_TOPO_MAX] = {
	[BFLY_TOPO_BUTTERFLY] = "butterfly",
	[BFLY_TOPO_BFLY2] = "bfly2",
	[BFLY_TOPO_BFLY_TWICE] = "bfly-twice",
	[BFLY_TOPO_BENES] = "benes",
};

const char * const method_names[BFLY_METHOD_LABELS + 1] = {
	[BFLY_METHOD_NONE] = "none",
	[BFLY_METHOD_SELF_ROUTING] = "self-routing",
	[BFLY_METHOD_LOOPING] = "looping",
	[BFLY_METHOD_LABELS] = "labels",
};

const char * const latin_names[BFLY_NL_LATIN_SQUARE + 1] = {
	[BFLY_NL_LATIN_RLS] = "rls",
	[BFLY_NL_LATIN_LLS] = "lls",
	[BFLY_NL_LATIN_XOR] = "xor",
	[BFLY_NL_LATIN_SQUARE] = "square",
};

/* Attribute names as in the spec, to name the attribute an error points at */
const char * const attr_names[BFLY_A_MAX + 1] = {
	[BFLY_A_PAD] = "pad", [BFLY_A_ID] = "id", [BFLY_A_DEV_NAME] = "dev-name",
	[BFLY_A_TOPOLOGY] = "topology", [BFLY_A_PORTS] = "ports",
	[BFLY_A_PORTS_LOG2] = "ports-log2", [BFLY_A_NODE_STAGES] = "node-stages",
	[BFLY_A_NODES_PER_STAGE] = "nodes-per-stage", [BFLY_A_SWITCHES] = "switches",
	[BFLY_A_GENERATION] = "generation", [BFLY_A_STATS] = "stats",
	[BFLY_A_WANT] = "want", [BFLY_A_MATRIX_BYTES] = "matrix-bytes",
	[BFLY_A_MATRIX_OFFSET] = "matrix-offset", [BFLY_A_MATRIX] = "matrix",
	[BFLY_A_MAX_LINK_LOAD] = "max-link-load",
	[BFLY_A_LINK_LOAD_ENTRIES] = "link-load-entries",
	[BFLY_A_LINK_LOAD_OFFSET] = "link-load-offset", [BFLY_A_LINK_LOAD] = "link-load",
	[BFLY_A_PERM] = "perm", [BFLY_A_LABELS] = "labels", [BFLY_A_DRY_RUN] = "dry-run",
	[BFLY_A_METHOD] = "method", [BFLY_A_CONFLICTS_COUNT] = "conflicts-count",
	[BFLY_A_FIRST_CONFLICT_STAGE] = "first-conflict-stage",
	[BFLY_A_CONFLICT] = "conflict", [BFLY_A_SWITCH] = "switch",
	[BFLY_A_LATIN] = "latin", [BFLY_A_ROUNDS] = "rounds", [BFLY_A_CYCLES] = "cycles",
	[BFLY_A_FAULT] = "fault", [BFLY_A_FAULTS_COUNT] = "faults-count",
	[BFLY_A_ALL_FAULTS] = "all-faults", [BFLY_A_ALLOW_FAULTS] = "allow-faults",
	[BFLY_A_AFFECTED_COUNT] = "affected-count", [BFLY_A_STUCK_UNMET] = "stuck-unmet",
	[BFLY_A_APPLIED] = "applied",
};

const char * const switch_attr_names[BFLY_A_SWITCH_MAX + 1] = {
	[BFLY_A_SWITCH_STAGE] = "stage", [BFLY_A_SWITCH_NODE] = "node",
	[BFLY_A_SWITCH_STATE] = "state",
};

const char * const fault_attr_names[BFLY_A_FAULT_MAX + 1] = {
	[BFLY_A_FAULT_KIND] = "kind", [BFLY_A_FAULT_STAGE] = "stage",
	[BFLY_A_FAULT_INDEX] = "index", [BFLY_A_FAULT_STATE] = "state",
};

const char * const cmd_names[BFLY_CMD_MAX + 1] = {
	[BFLY_CMD_FABRIC_GET] = "fabric-get", [BFLY_CMD_FABRIC_NEW] = "fabric-new",
	[BFLY_CMD_FABRIC_DEL] = "fabric-del", [BFLY_CMD_SWITCH_SET] = "switch-set",
	[BFLY_CMD_ROUTE] = "route", [BFLY_CMD_A2A] = "a2a",
	[BFLY_CMD_STATS_RESET] = "stats-reset",
	[BFLY_CMD_FABRIC_CREATED_NTF] = "created",
	[BFLY_CMD_FABRIC_DELETED_NTF] = "deleted",
	[BFLY_CMD_MATRIX_CHANGED_NTF] = "matrix-changed",
	[BFLY_CMD_BATCH_DONE_NTF] = "batch-done",
	[BFLY_CMD_CONFLICTS_NTF] = "conflicts",
	[BFLY_CMD_FAULT_ADD] = "fault-add", [BFLY_CMD_FAULT_DEL] = "fault-del",
	[BFLY_CMD_FAULTS_CHANGED_NTF] = "faults-changed",
};

const char * const fault_kind_names[BFLY_FAULT_LINK + 1] = {
	[BFLY_FAULT_STUCK] = "stuck",
	[BFLY_FAULT_LINK] = "link",
};

const char *name_of(const char * const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

const char *topo_name(unsigned int v)
{
	return name_of(topo_names, ARRAY_SIZE(topo_names), v);
}

const char *method_name(unsigned int v)
{
	return name_of(method_names, ARRAY_SIZE(method_names), v);
}

const char *latin_name(unsigned int v)
{
	return name_of(latin_names, ARRAY_SIZE(latin_names), v);
}

const char *fault_kind_name(unsigned int v)
{
	return name_of(fault_kind_names, ARRAY_SIZE(fault_kind_names), v);
}

const char *cmd_name_of(unsigned int v)
{
	return name_of(cmd_names, ARRAY_SIZE(cmd_names), v);
}

int lookup(const char * const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}
