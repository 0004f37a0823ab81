// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl msgset: route message sets on an LCAN in network cycles, one
 * set or K generated ones (the LCAN paper's experiments), and print the
 * cycles next to ceil(lambda(M)), or draw one set's loads (msgset_heat.c).
 */
#include <math.h>

#include "lib/lcan.h"

#include "bflyctl.h"

/* The most messages one netlink request carries: one attribute of u32 pairs */
#define MSGSET_MAX_NL 8191

/* Mixed into a set's seed for its routing: patterns and routes draw apart */
#define ROUTE_SEED_SALT 0x6c63616e726f7574ULL

enum pattern { PAT_FILE, PAT_IDENTITY, PAT_RANDOM, PAT_TRANSPOSE, PAT_WORST, PAT_SHIFT };

static const char *const pattern_names[] = {
	"file", "identity", "random", "transpose", "worst", "shift",
};

static const char *const mode_names[] = { "bidir", "unidir" };
static const char *const strategy_names[] = { "online", "offline" };

static const char *const want_names[] = { "none", "paths", "load", "all" };

struct msgset_opts {
	enum pattern pattern;
	unsigned int shift, mode, strategy, max_cycles, reps;
	unsigned int want;	/* BFLY_MSGSET_WANT_PATHS, _LOAD */
	unsigned long long seed;
	const char *file;
	bool picture, svg;	/* format dot|svg: the loads' heat map */
};

struct msgset_reply {
	unsigned int levels, routed, lambda_load, lambda_cap, bound;
	unsigned long long cycles;
	unsigned int *cycle, count;
	/* With want: 2 l choices per message, and each channel's load */
	unsigned int *paths, npaths, *load, channels;
};

/* A copy of a u32 array attribute: its entries in *@n, NULL if absent */
static unsigned int *copy_u32s(struct nlattr *a, unsigned int *n)
{
	unsigned int *v;

	*n = a ? (unsigned int)nla_len(a) / 4 : 0;
	if (!*n)
		return NULL;
	v = xcalloc(*n, 4);
	memcpy(v, nla_data(a), *n * 4ULL);
	return v;
}

static int parse_msgset(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];
	struct msgset_reply *r = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->levels = get_u32(tb, BFLY_A_LEVELS);
	r->cycles = get_u64(tb, BFLY_A_CYCLES);
	r->routed = get_u32(tb, BFLY_A_ROUTED);
	r->lambda_load = get_u32(tb, BFLY_A_LAMBDA_LOAD);
	r->lambda_cap = get_u32(tb, BFLY_A_LAMBDA_CAP);
	r->bound = get_u32(tb, BFLY_A_BOUND);
	if (tb[BFLY_A_MSG_CYCLE] && (unsigned int)nla_len(tb[BFLY_A_MSG_CYCLE]) == r->count * 4)
		memcpy(r->cycle, nla_data(tb[BFLY_A_MSG_CYCLE]), r->count * 4);
	free(r->paths);
	free(r->load);
	r->paths = copy_u32s(tb[BFLY_A_MSG_PATHS], &r->npaths);
	r->load = copy_u32s(tb[BFLY_A_LOAD], &r->channels);
	return NL_OK;
}

/*
 * The children of the top switch: PEs a and b have LCA level l - 1 when
 * a / block and b / block differ, block = N / children.
 */
static unsigned int top_children(const struct fabric *f)
{
	return f->topology == BFLY_TOPO_T_LCAN ? f->radix / f->up : f->radix;
}

/* Destinations of a generated permutation, message i from PE i. */
static void gen_perm(const struct fabric *f, const struct msgset_opts *o,
		     unsigned long long seed, unsigned int *dst)
{
	unsigned int n = f->ports, i, r, kids, block, shift, *sigma;

	switch (o->pattern) {
	case PAT_IDENTITY:
	case PAT_SHIFT:
		for (i = 0; i < n; i++)
			dst[i] = (i + (o->pattern == PAT_SHIFT ? o->shift : 0)) % n;
		return;
	case PAT_RANDOM:
		for (i = 0; i < n; i++)
			dst[i] = i;
		shuffle(dst, n, &seed);
		return;
	case PAT_TRANSPOSE:
		for (r = 1; r * r < n; r++)
			;
		if (r * r != n)
			die("transpose: N = %u is no square", n);
		for (i = 0; i < n; i++)
			dst[i] = i % r * r + i / r;
		return;
	case PAT_WORST:
		/* Blocks move by one random shift, PEs within by one shuffle. */
		kids = top_children(f);
		if (kids < 2 || f->node_stages < 2)
			die("worst: the network has one level or one top child");
		block = n / kids;
		shift = 1 + random_next(&seed) % (kids - 1);
		sigma = xcalloc(block, sizeof(*sigma));
		for (i = 0; i < block; i++)
			sigma[i] = i;
		shuffle(sigma, block, &seed);
		for (i = 0; i < n; i++)
			dst[i] = (i / block + shift) % kids * block + sigma[i % block];
		free(sigma);
		return;
	case PAT_FILE:
		break;
	}
}

static void parse_msgset_args(int argc, char **argv, struct msgset_opts *o)
{
	int a, v;

	for (a = 1; a < argc; a++) {
		const char *key = argv[a];

		if (a + 1 == argc)
			die("%s: missing its value", key);
		if (!strcmp(key, "pattern")) {
			v = lookup(pattern_names, ARRAY_SIZE(pattern_names), argv[++a]);
			if (v <= PAT_FILE)
				die("unknown pattern '%s' (%s)", argv[a],
				    "identity, random, transpose, worst, shift K");
			o->pattern = v;
			if (v == PAT_SHIFT) {
				if (++a == argc)
					die("shift: missing K");
				o->shift = parse_u32("shift", argv[a]);
			}
		} else if (!strcmp(key, "file")) {
			o->pattern = PAT_FILE;
			o->file = argv[++a];
		} else if (!strcmp(key, "mode")) {
			v = lookup(mode_names, ARRAY_SIZE(mode_names), argv[++a]);
			if (v < 0)
				die("unknown mode '%s' (bidir, unidir)", argv[a]);
			o->mode = v;
		} else if (!strcmp(key, "strategy")) {
			v = lookup(strategy_names, ARRAY_SIZE(strategy_names), argv[++a]);
			if (v < 0)
				die("unknown strategy '%s' (online, offline)", argv[a]);
			o->strategy = v;
		} else if (!strcmp(key, "seed")) {
			o->seed = parse_u64("seed", argv[++a]);
		} else if (!strcmp(key, "reps")) {
			o->reps = parse_range("reps", argv[++a], 1, 100000);
		} else if (!strcmp(key, "max-cycles")) {
			o->max_cycles = parse_u32("max-cycles", argv[++a]);
		} else if (!strcmp(key, "want")) {
			v = lookup(want_names, ARRAY_SIZE(want_names), argv[++a]);
			if (v < 0)
				die("unknown want '%s' (paths, load, all, none)", argv[a]);
			o->want = v;	/* paths 1, load 2, all 3 */
		} else if (!strcmp(key, "format")) {
			o->picture = parse_format(argv[++a], &o->svg);
		} else {
			die("unexpected argument '%s'", key);
		}
	}
	if (o->pattern == PAT_FILE && !o->file)
		die("expected pattern NAME or file PATH (see bflyctl msgset --help)");
	if (o->pattern == PAT_FILE && o->reps > 1)
		die("reps: a file gives one set");
	if (o->picture && o->reps > 1)
		die("format: a heat map shows one set (drop reps)");
	if (o->picture && o->want)
		die("format: a heat map draws the loads alone (drop want)");
	if (o->picture && json)
		die("format: a picture has no JSON form (drop -j)");
}

/* Route one set; the reply in @r (its cycle array sized by the caller). */
static void route_set(unsigned int id, const struct msgset_opts *o, unsigned long long seed,
		      const unsigned int *src, const unsigned int *dst, unsigned int n,
		      struct msgset_reply *r)
{
	unsigned int *pairs = xcalloc(2 * (size_t)n, sizeof(*pairs)), i;
	struct nl_msg *msg;
	int err;

	for (i = 0; i < n; i++) {
		pairs[2 * i] = src[i];
		pairs[2 * i + 1] = dst[i];
	}
	msg = new_msg(BFLY_CMD_MSGSET, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	put_or_die(nla_put(msg, BFLY_A_MSGS, 2 * n * sizeof(*pairs), pairs));
	put_or_die(nla_put_u32(msg, BFLY_A_MODE, o->mode));
	put_or_die(nla_put_u32(msg, BFLY_A_STRATEGY, o->strategy));
	put_or_die(nla_put_u64(msg, BFLY_A_SEED, seed));
	if (o->max_cycles)
		put_or_die(nla_put_u32(msg, BFLY_A_MAX_CYCLES, o->max_cycles));
	if (o->want)
		put_or_die(nla_put_u32(msg, BFLY_A_MSGSET_WANT, o->want));
	free(pairs);
	r->count = n;
	err = transact(msg, parse_msgset, r);
	if (err)
		die_kernel(err);
}

/* A JSON array of @n u32 */
static void json_u32s(const char *key, const unsigned int *v, unsigned int n)
{
	unsigned int i;

	jk(key);
	jopen('[');
	for (i = 0; i < n; i++)
		jnum(v[i]);
	jclose(']');
}

/*
 * Each message's cycle and path: the upper taken at each level, then the
 * wire of each channel down (BFLY_IOC_MSGSET's layout, 2 l choices).
 */
static void print_paths(const struct msgset_reply *r, const unsigned int *src,
			const unsigned int *dst)
{
	unsigned int m, k, l = r->levels;

	if (!l || r->npaths != r->count * 2 * l) {
		printf("  (no paths in the reply)\n");
		return;
	}
	for (m = 0; m < r->count; m++) {
		if (r->cycle[m] == BFLY_MSGSET_NOT_ROUTED) {
			printf("    %u -> %u: not routed\n", src[m], dst[m]);
			continue;
		}
		printf("    %u -> %u: cycle %u, up", src[m], dst[m], r->cycle[m]);
		for (k = 0; k < l; k++)
			printf(" %u", r->paths[m * 2 * l + k]);
		printf(", down");
		for (k = 0; k < l; k++)
			printf(" %u", r->paths[m * 2 * l + l + k]);
		putchar('\n');
	}
}

/* Each channel's load, 16 a line, in the order of Documentation/lcan.rst */
static void print_loads(const struct msgset_reply *r)
{
	unsigned int c;

	printf("    %u channels' loads (order: Documentation/lcan.rst, \"Channels\"):",
	       r->channels);
	for (c = 0; c < r->channels; c++)
		printf("%s%u", c % 16 ? " " : "\n     ", r->load[c]);
	putchar('\n');
}

static void print_one(unsigned int rep, const struct msgset_reply *r, unsigned int n,
		      const struct msgset_opts *o, const unsigned int *src,
		      const unsigned int *dst)
{
	if (json) {
		jopen('{');
		jkn("rep", rep);
		jkn("cycles", r->cycles);
		jkn("routed", r->routed);
		jkn("bound", r->bound);
		jkn("lambda_load", r->lambda_load);
		jkn("lambda_cap", r->lambda_cap);
		if (o->want) {
			jkn("levels", r->levels);
			json_u32s("msg_cycle", r->cycle, n);
		}
		if (o->want & BFLY_MSGSET_WANT_PATHS)
			json_u32s("paths", r->paths, r->npaths);
		if (o->want & BFLY_MSGSET_WANT_LOAD)
			json_u32s("loads", r->load, r->channels);
		jclose('}');
		return;
	}
	printf("  set %u: %llu cycles, ceil(lambda) %u (lambda %u/%u), %u of %u routed\n",
	       rep, r->cycles, r->bound, r->lambda_load, r->lambda_cap, r->routed, n);
	if (o->want & BFLY_MSGSET_WANT_PATHS)
		print_paths(r, src, dst);
	if (o->want & BFLY_MSGSET_WANT_LOAD)
		print_loads(r);
}

/* Route the set of seed o->seed and draw its loads */
static void draw_set(const struct fabric *f, const struct msgset_opts *o, const unsigned int *src,
		     unsigned int *dst, unsigned int n, struct msgset_reply *r)
{
	struct msgset_heat h = {
		.strategy = strategy_names[o->strategy], .mode = o->mode, .seed = o->seed,
		.messages = n,
	};
	char name[64], *p;

	if (o->pattern == PAT_SHIFT)
		snprintf(name, sizeof(name), "shift %u", o->shift);
	else if (o->pattern == PAT_FILE)
		snprintf(name, sizeof(name), "file %.50s", o->file);
	else
		snprintf(name, sizeof(name), "%s", pattern_names[o->pattern]);
	for (p = name; *p; p++)	/* the title's quotes stay closed */
		if (*p == '"' || *p == '\\')
			*p = '_';
	h.pattern = name;
	if (o->pattern != PAT_FILE)
		gen_perm(f, o, o->seed, dst);
	route_set(f->id, o, o->seed ^ ROUTE_SEED_SALT, src, dst, n, r);
	h.routed = r->routed;
	h.cycles = r->cycles;
	h.bound = r->bound;
	h.lambda_load = r->lambda_load;
	h.lambda_cap = r->lambda_cap;
	h.load = r->load;
	h.channels = r->channels;
	msgset_heatmap(f, &h, o->svg);
}

int cmd_msgset(int argc, char **argv)
{
	struct msgset_opts o = { .pattern = PAT_FILE, .reps = 1 };
	unsigned int *src = NULL, *dst = NULL, n, id, rep, i;
	double sum = 0, sum2 = 0, bsum = 0, mean, sd;
	unsigned long long lo = ~0ULL, hi = 0;
	struct msgset_reply r = {};
	struct fabrics fs = {};
	const struct fabric *f;

	if (help(argc, argv,
		 "usage: bflyctl [-j] msgset DEV (pattern P | file PATH|-) [mode bidir|unidir]\n"
		 "                 [strategy online|offline] [seed S] [reps K] [max-cycles C]\n"
		 "                 [want paths|load|all]\n"
		 "       bflyctl msgset DEV (pattern P | file PATH|-) [mode M] [strategy S]\n"
		 "                 [seed S] [max-cycles C] format dot|svg\n"
		 "Route a message set on an LCAN (cb-lcan, t-lcan, fattree) in network\n"
		 "cycles: each cycle routes paths that share no wire; a blocked message\n"
		 "waits for the next. Prints the cycles used next to ceil(lambda(M)), the\n"
		 "LCAN paper's lower bound. A file holds 'SRC DST' lines; a pattern is a\n"
		 "permutation, message i from PE i:\n"
		 "  identity     i to i\n"
		 "  random       a random permutation (seed S, S+1, ... for K sets; the\n"
		 "               routing's random choices come from a seed derived from it)\n"
		 "  transpose    i = r * sqrt(N) + c to c * sqrt(N) + r\n"
		 "  worst        every pair's LCA is the top level: the top switch's\n"
		 "               children move by one random shift, PEs within them by\n"
		 "               one random permutation\n"
		 "  shift K      i to (i + K) mod N\n"
		 "mode unidir routes up through every level of a CB-LCAN; destinations\n"
		 "are then the top level's outputs. With reps K, prints each set and the\n"
		 "mean, standard deviation and range of the cycles. At most 8191 messages\n"
		 "(BFLY_IOC_MSGSET takes larger sets and moves payload).\n"
		 "want paths also prints each message's cycle and path (the upper taken\n"
		 "at each level, then the wire of each channel down); want load each\n"
		 "channel's load, in the order Documentation/lcan.rst gives with the\n"
		 "capacities (\"Channels and lambda(M)\"); each must fit in 64 KiB.\n"
		 "format dot|svg draws the set's loads as a Graphviz heat map (svg\n"
		 "rendered by neato -n2) instead: one row per channel level (the PEs'\n"
		 "wires, then each level's group bundles, or uni-directionally each\n"
		 "level's uppers), up and down as two panels, each cell one channel\n"
		 "coloured by load / capacity from white (0) to red (lambda(M)), labelled\n"
		 "load/capacity where wide enough; at most 1024 PEs, one set.\n"))
		return 0;
	if (argc < 1)
		die("expected DEV and a pattern or file (see bflyctl msgset --help)");
	id = parse_dev(argv[0]);
	parse_msgset_args(argc, argv, &o);
	connect_family();
	if (o.want)	/* msg-cycle, msg-paths and load: 64 KiB each at most */
		nl_socket_set_msg_buf_size(sk, 256 * 1024);
	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];
	if (o.picture) {
		struct bfly_lcan shape;

		msgset_heat_shape(f, &shape);
		o.want = BFLY_MSGSET_WANT_LOAD;
	}
	if (o.pattern == PAT_FILE) {
		src = xcalloc(MSGSET_MAX_NL, sizeof(*src));
		dst = xcalloc(MSGSET_MAX_NL, sizeof(*dst));
		n = read_pairs(o.file, src, dst, MSGSET_MAX_NL, "BFLY_IOC_MSGSET");
	} else {
		n = f->ports;
		if (n > MSGSET_MAX_NL)
			die("bfly%u: %u PEs: a pattern of more than %u messages (%s)", id, n,
			    MSGSET_MAX_NL, "BFLY_IOC_MSGSET takes more");
		src = xcalloc(n, sizeof(*src));
		dst = xcalloc(n, sizeof(*dst));
		for (i = 0; i < n; i++)
			src[i] = i;
	}
	/* Other LCANs than a CB-LCAN: the kernel refuses uni-directional sets. */
	if (o.mode == BFLY_MSGSET_UNIDIR && o.pattern != PAT_FILE &&
	    f->topology == BFLY_TOPO_CB_LCAN) {
		unsigned long long outs = 1;

		for (i = 0; i < f->node_stages && outs <= f->ports; i++)
			outs *= f->up;
		if (outs != f->ports)
			die("mode unidir: the top level has u^l = %llu outputs, not N = %u: %s",
			    outs, f->ports, "give the destinations in a file");
	}
	r.cycle = xcalloc(n, sizeof(*r.cycle));
	if (o.picture) {
		draw_set(f, &o, src, dst, n, &r);
		goto out;
	}
	if (json) {
		jopen('{');
		jkn("id", id);
		jks("pattern", pattern_names[o.pattern]);
		jks("mode", mode_names[o.mode]);
		jks("strategy", strategy_names[o.strategy]);
		jkn("seed", o.seed);
		jkn("messages", n);
		jk("sets");
		jopen('[');
	} else {
		printf("bfly%u: %s, %u messages, %s, %s, seed %llu\n", id,
		       pattern_names[o.pattern], n, mode_names[o.mode],
		       strategy_names[o.strategy], o.seed);
	}
	for (rep = 0; rep < o.reps; rep++) {
		if (o.pattern != PAT_FILE)
			gen_perm(f, &o, o.seed + rep, dst);
		/* The routing's random choices: a stream of their own. */
		route_set(id, &o, (o.seed + rep) ^ ROUTE_SEED_SALT, src, dst, n, &r);
		print_one(rep, &r, n, &o, src, dst);
		sum += r.cycles;
		sum2 += (double)r.cycles * r.cycles;
		bsum += r.bound;
		lo = r.cycles < lo ? r.cycles : lo;
		hi = r.cycles > hi ? r.cycles : hi;
	}
	mean = sum / o.reps;
	sd = o.reps > 1 ? sqrt(fmax(0, (sum2 - sum * mean) / (o.reps - 1))) : 0;
	if (json) {
		jclose(']');
		jk("mean_cycles");
		jdouble(mean);
		jk("sd_cycles");
		jdouble(sd);
		jkn("min_cycles", lo);
		jkn("max_cycles", hi);
		jk("mean_bound");
		jdouble(bsum / o.reps);
		jclose('}');
	} else if (o.reps > 1) {
		printf("cycles: mean %.3f, sd %.3f, range %llu .. %llu over %u sets;",
		       mean, sd, lo, hi, o.reps);
		printf(" ceil(lambda) mean %.3f\n", bsum / o.reps);
	}
out:
	free(r.cycle);
	free(r.paths);
	free(r.load);
	free(src);
	free(dst);
	fabrics_free(&fs);
	return 0;
}
