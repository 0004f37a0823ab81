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
