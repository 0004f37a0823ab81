// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: names to values and back. The tables (topologies, methods,
 * Latin squares, fault kinds, attributes, commands) are generated from the
 * YNL spec into names.gen.c by gen-names.py.
 */
#include "bflyctl.h"

const char *name_of(const char * const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

const char *topo_name(unsigned int v)
{
	return name_of(bfly_topo_names, bfly_topo_names_count, v);
}

/* Is @topology one of k x k switches, whose settings are port maps? */
bool topo_kxk(unsigned int topology)
{
	return topology == BFLY_TOPO_KFLY || topology == BFLY_TOPO_FLATFLY;
}

/* Every topology name, in uapi order: "butterfly, bfly2, ..." */
const char *topo_list(void)
{
	static char buf[256];
	size_t i, len = 0;

	for (i = 0; i < bfly_topo_names_count; i++)
		if (bfly_topo_names[i] && len < sizeof(buf))
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
					len ? ", " : "", bfly_topo_names[i]);
	return buf;
}

const char *method_name(unsigned int v)
{
	return name_of(bfly_method_names, bfly_method_names_count, v);
}

const char *latin_name(unsigned int v)
{
	return name_of(bfly_latin_names, bfly_latin_names_count, v);
}

const char *fault_kind_name(unsigned int v)
{
	return name_of(bfly_fault_kind_names, bfly_fault_kind_names_count, v);
}

const char *cmd_name_of(unsigned int v)
{
	return name_of(bfly_cmd_names, bfly_cmd_names_count, v);
}

int lookup(const char * const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}
