// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: manage bfly switching fabrics through the "bfly" generic netlink
 * family (Documentation/netlink/specs/bfly.yaml), with libnl-3.
 *
 *   bflyctl [-j [-p]] COMMAND [ARGS]     see bflyctl --help, bflyctl.8
 *
 * Output is for people by default; -j prints JSON, -j -p pretty JSON (as
 * in iproute2, -p alone changes nothing). Errors are one line on stderr,
 * with the kernel's extended ack message, and a non-zero exit status.
 * This file: the command line, the help texts and the command table.
 */
#include "bflyctl.h"

const char *prog = "bflyctl";
const char *cmd_name = "";
/* ---- commands ---- */

void usage_main(FILE *out)
{
	fprintf(out,
		"usage: bflyctl [-j [-p]] COMMAND [ARGS]\n"
		"       bflyctl COMMAND --help\n"
		"       bflyctl --version\n"
		"\n"
		"Manage bfly switching fabrics through the \"bfly\" generic netlink family.\n"
		"\n"
		"commands:\n"
		"  list                       every fabric, one line each\n"
		"  show DEV [matrix] [loads] [format dot|svg]\n"
		"                             one fabric; draws its switches when N <= 32,\n"
		"                             or as a Graphviz picture\n"
		"  new TOPOLOGY PORTS [radix K]\n"
		"                             create a fabric (butterfly, bfly2, bfly-twice,\n"
		"                             benes, kfly, flatfly)\n"
		"  del DEV                    delete a fabric\n"
		"  set DEV ...                set switches\n"
		"  route DEV [dry-run] [allow-faults] [format dot|svg] PERM\n"
		"                             route a permutation or labels\n"
		"  a2a DEV [latin rls|lls|xor] [minimal]\n"
		"                             run an all-to-all schedule\n"
		"  chart DEV [latin rls|lls|xor] format dot|svg\n"
		"                             an all-to-all's conflicts per round and stage\n"
		"  msgset DEV (pattern P|file F) [mode M] [strategy S] [seed S] [reps K]\n"
		"                             route message sets on an LCAN in network cycles\n"
		"  msgset DEV (pattern P|file F) [OPTION]... format dot|svg\n"
		"                             a message set's channel loads as a heat map\n"
		"  hrel DEV (file F|random H|alltoall|one-to-one H) [seed S] [perms]\n"
		"                             run an h-relation in rounds\n"
		"  fault add|del DEV FAULT... inject or repair faults (stuck nodes, broken links)\n"
		"  fault clear|list DEV       repair every fault, list them\n"
		"  stats DEV [reset]          counters, or zero them\n"
		"  monitor [count N]          print events as they happen\n"
		"  raw CMD [TYPE:KIND[:VALUE]]...  send a raw request (for testing)\n"
		"\n"
		"options:\n"
		"  -j, --json     JSON output\n"
		"  -p, --pretty   with -j, indented JSON\n"
		"  -h, --help     this help\n"
		"  -V, --version  the version\n"
		"\n"
		"DEV is bflyN, /dev/bflyN or N. Numbers are decimal, or hexadecimal\n"
		"after 0x. Changing commands need CAP_NET_ADMIN.\n"
		"See bflyctl(8).\n");
}

bool want_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "help"))
			return true;
	return false;
}

/* --help anywhere in a command's arguments: print @text, true */
bool help(int argc, char **argv, const char *text)
{
	if (!want_help(argc, argv))
		return false;
	fputs(text, stdout);
	return true;
}

const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "list", cmd_list }, { "show", cmd_show }, { "new", cmd_new },
	{ "del", cmd_del }, { "set", cmd_set }, { "route", cmd_route },
	{ "a2a", cmd_a2a }, { "chart", cmd_chart }, { "msgset", cmd_msgset },
	{ "hrel", cmd_hrel },
	{ "fault", cmd_fault },
	{ "stats", cmd_stats },
	{ "monitor", cmd_monitor }, { "raw", cmd_raw },
};

int main(int argc, char **argv)
{
	size_t i;
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-j") || !strcmp(argv[a], "--json")) {
			json = true;
			continue;
		}
		/* As in iproute2, -p only prettifies -j. */
		if (!strcmp(argv[a], "-p") || !strcmp(argv[a], "--pretty")) {
			pretty = true;
			continue;
		}
		if (!strcmp(argv[a], "-jp") || !strcmp(argv[a], "-pj")) {
			json = true;
			pretty = true;
			continue;
		}
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage_main(stdout);
			return 0;
		}
		if (!strcmp(argv[a], "-V") || !strcmp(argv[a], "--version")) {
			print_version(prog);
			return 0;
		}
		fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[a]);
		usage_main(stderr);
		return 2;
	}
	if (a == argc) {
		usage_main(stderr);
		return 2;
	}
	if (!strcmp(argv[a], "help")) {
		usage_main(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[a], commands[i].name)) {
			cmd_name = commands[i].name;
			return commands[i].fn(argc - a - 1, argv + a + 1);
		}
	}
	fprintf(stderr, "%s: unknown command '%s' (see bflyctl --help)\n", prog, argv[a]);
	return 2;
}
