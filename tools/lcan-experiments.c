// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the LCAN paper's permutation routing experiments
 * (Section 3.3) and its two conjectures, run natively on the algorithm
 * library (kmod/lib/lcan.c, lcan_cycles.c; Documentation/lcan.rst and
 * lcan-experiments.rst).
 *
 *   lcan-experiments [-o] [-k K] [-s SEED] [-j] [-L] TOPOLOGY D U N EXPERIMENT
 *
 * TOPOLOGY is cb-lcan, t-lcan or fattree (the d-ary fat tree equivalent to
 * CB-LCAN(D,U)); N is the processors (PEs). Every permutation routes in
 * network cycles (bfly_lcan_msgset_route()), on-line (random up-choices)
 * or, with -o, off-line; each result is checked here: every message
 * routed, no wire and no processor twice in a cycle, never fewer cycles
 * than ceil(lambda(M)).
 *
 * PE p is the number whose digits the paper writes, most significant
 * first: p = p_(l-1) .. p_1 p_0, p_0 (base d) the downer of level-0
 * switch p / d, p_i for i >= 1 base d on a CB-LCAN and a fat tree, base
 * d / u on a T-LCAN (the child group within the level-i group).
 *
 * Random numbers are splitmix64 streams seeded from SEED and the
 * experiment's name, so that every figure is reproducible and an
 * experiment gives the same figures alone or within "all".
 *
 * This file: main(), the options, the experiment table and "all", the
 * error exit; lcan-exp.h lists the others (lcan-exp-*.c).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmdline.h"
#include "lcan-exp.h"

const char *const topo_names[] = {
	[BFLY_LCAN_CB] = "cb-lcan",
	[BFLY_LCAN_TREE] = "t-lcan",
	[BFLY_LCAN_FATTREE] = "fattree",
};

noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* What an experiment needs of the network, checked before any output. */
enum needs {
	NEED_SMALL = 1,		/* N <= SMALL_N_MAX, or --large */
	NEED_LEVELS = 2,	/* l >= 2 */
	NEED_CB_OR_FT = 4,	/* a CB-LCAN or a fat tree */
	NEED_CB_D_LE_U = 8,	/* a CB-LCAN with d <= u */
};

static void exp_check(const struct net *n, const struct opts *o, const char *exp, u32 needs)
{
	if ((needs & NEED_SMALL) && n->g.ports > SMALL_N_MAX && !o->large)
		die("%s: N = %u is above %u; --large runs it", exp, n->g.ports, SMALL_N_MAX);
	if ((needs & NEED_LEVELS) && n->g.levels < 2)
		die("%s: needs two levels at least (every pair of one level has LCA level 0)",
		    exp);
	if ((needs & NEED_CB_OR_FT) && n->g.kind == BFLY_LCAN_TREE)
		die("%s: CB-LCAN(d,u) against its d-ary fat tree: cb-lcan or fattree", exp);
	if ((needs & NEED_CB_D_LE_U) && (n->g.kind != BFLY_LCAN_CB || n->g.d > n->g.u))
		die("%s: a CB-LCAN(d,u) with d <= u", exp);
}

static void exp_all(struct net *n, struct report *rep)
{
	struct row worst, rows[PERM_STRUCTURED + 1];
	u32 count;

	memset(rows, 0, sizeof(rows));
	exp_identity(n, rep);
	random_rows(n, rep, &rows[0]);
	if (n->g.levels > 1)
		worst_rows(n, rep, &worst);
	count = run_structured(n, rep, rows + 1) + 1;
	if (n->g.levels > 1)
		conjecture_a(rep, &worst, rows, count);
	if (n->g.kind != BFLY_LCAN_TREE)
		exp_compare(n, rep);
	if (n->g.kind == BFLY_LCAN_CB && n->g.d <= n->g.u)
		exp_one_cycle(n, rep);
	exp_transpose(n, rep);
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: " PROG " [OPTIONS] TOPOLOGY D U N EXPERIMENT\n"
		   "Route permutations on a least common ancestor network in network cycles\n"
		   "(LCAN paper, Section 3.3).\n"
		   "  TOPOLOGY          cb-lcan (CB-LCAN(D,U), N = D^l), t-lcan (T-LCAN(D,U),\n"
		   "                    N = U (D/U)^l), fattree (the D-ary fat tree of\n"
		   "                    CB-LCAN(D,U), N = D^l)\n"
		   "  EXPERIMENT        random      K random permutations (and uni-directionally\n"
		   "                                on a CB-LCAN with D = U)\n"
		   "                    worst       K random permutations of the worst-case set\n"
		   "                                (every pair has LCA level l - 1)\n"
		   "                    identity    the identity: one cycle\n"
		   "                    structured  digit reversal, transpose, shuffle,\n"
		   "                                complement, shifts\n"
		   "                    transpose   the transpose for N = D^2, D^4, ... up to N,\n"
		   "                                uni-directionally against sqrt(N)\n"
		   "                    compare     the same K permutations on CB-LCAN(D,U)\n"
		   "                                and its fat tree (conjecture b)\n"
		   "                    one-cycle   random, worst-case and structured permutations\n"
		   "                                in one cycle by edge colouring (CB, D <= U)\n"
		   "                    wiring      every upper and the downer it reaches\n"
		   "                    all         all of them but wiring, and conjecture (a)\n"
		   "  -o, --offline     off-line strategy (default: on-line, random up-choices)\n"
		   "  -k, --runs K      permutations (or on-line runs) per set, default 100\n"
		   "  -s, --seed SEED   the seed of every random choice, default 1\n"
		   "  -j, --json        one JSON document instead of tables\n"
		   "  -L, --large       allow random sets above N = 4096 (slow)\n"
		   "  -h, --help        this help\n"
		   "  -V, --version     the version\n");
}

static u64 parse_arg(const char *what, const char *s, u64 min, u64 max)
{
	unsigned long long v = 0;

	if (parse_num(s, max, &v) != NUM_OK || v < min)
		die("%s: '%s' is not a number from %llu to %llu", what, s,
		    (unsigned long long)min, (unsigned long long)max);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "offline", no_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "large", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	static const struct {
		const char *name;
		void (*run)(struct net *n, struct report *rep);
		u32 needs;
	} exps[] = {
		{ "random", exp_random, NEED_SMALL },
		{ "worst", exp_worst, NEED_SMALL | NEED_LEVELS },
		{ "identity", exp_identity, 0 },
		{ "structured", exp_structured, 0 },
		{ "transpose", exp_transpose, 0 },
		{ "compare", exp_compare, NEED_SMALL | NEED_CB_OR_FT },
		{ "one-cycle", exp_one_cycle, NEED_SMALL | NEED_CB_D_LE_U },
		{ "wiring", exp_wiring, 0 },
		{ "all", exp_all, NEED_SMALL },
	};
	struct opts o = { .runs = 100, .seed = 1, .strategy = BFLY_LCAN_ONLINE };
	struct report rep = { .o = &o };
	struct net n;
	u32 e, kind;
	int opt;

	/* "+": options before the operands, so that "-1" is an operand */
	while ((opt = getopt_long(argc, argv, "+ok:s:jLhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.strategy = BFLY_LCAN_OFFLINE;
			break;
		case 'k':
			o.runs = parse_arg("runs", optarg, 1, 1000000);
			break;
		case 's':
			o.seed = parse_arg("seed", optarg, 0, U64_MAX);
			break;
		case 'j':
			o.json = true;
			break;
		case 'L':
			o.large = true;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		case 'V':
			print_version(PROG);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (argc - optind != 5) {
		fprintf(stderr, PROG ": %d operands, expected 5: TOPOLOGY D U N EXPERIMENT%s\n",
			argc - optind, argc - optind > 5 ? " (options go before them)" : "");
		print_help(stderr);
		return 2;
	}
	for (kind = 0; kind < ARRAY_SIZE(topo_names); kind++)
		if (!strcmp(argv[optind], topo_names[kind]))
			break;
	if (kind == ARRAY_SIZE(topo_names))
		die("topology: '%s' is not cb-lcan, t-lcan or fattree", argv[optind]);
	o.kind = kind;
	o.d = parse_arg("D", argv[optind + 1], 2, BFLY_MAX_RADIX);
	o.u = parse_arg("U", argv[optind + 2], 1, BFLY_MAX_RADIX);
	o.ports = parse_arg("N", argv[optind + 3], 1, 1U << BFLY_MAX_PORTS_LOG2);
	for (e = 0; e < ARRAY_SIZE(exps); e++)
		if (!strcmp(argv[optind + 4], exps[e].name))
			break;
	if (e == ARRAY_SIZE(exps))
		die("experiment: '%s' is not one of those --help lists", argv[optind + 4]);

	net_init(&n, o.kind, o.d, o.u, o.ports);
	exp_check(&n, &o, exps[e].name, exps[e].needs);
	if (o.json) {
		char t[48];

		json_c_set_serialization_double_format("%.6g", JSON_C_OPTION_GLOBAL);
		rep.root = json_object_new_object();
		rep.list = json_object_new_array();
		json_object_object_add(rep.root, "network",
				       json_object_new_string(net_title(&n, t, sizeof(t))));
		json_object_object_add(rep.root, "topology",
				       json_object_new_string(topo_names[kind]));
		json_object_object_add(rep.root, "d", json_object_new_int64(o.d));
		json_object_object_add(rep.root, "u", json_object_new_int64(o.u));
		json_object_object_add(rep.root, "n", json_object_new_int64(o.ports));
		json_object_object_add(rep.root, "levels", json_object_new_int64(n.g.levels));
		json_object_object_add(rep.root, "strategy",
				       json_object_new_string(strategy_name(o.strategy)));
		json_object_object_add(rep.root, "runs", json_object_new_int64(o.runs));
		json_object_object_add(rep.root, "seed", json_object_new_uint64(o.seed));
		json_object_object_add(rep.root, "experiments", rep.list);
	} else {
		header(&n, &o);
	}
	exps[e].run(&n, &rep);
	if (o.json) {
		puts(json_object_to_json_string_ext(rep.root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(rep.root);
	}
	net_free(&n);
	return 0;
}
