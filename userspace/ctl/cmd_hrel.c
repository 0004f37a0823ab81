// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl hrel: run an h-relation on a fabric in rounds (the edge
 * colouring's h colours, each routed on the fabric and split where it
 * cannot be routed at once) and print h, colours, rounds and cycles.
 */
#include "bflyctl.h"

/* The most messages one netlink request carries: one attribute of u32 pairs */
#define HREL_MAX_NL 8191

/* A round's input that sends nothing (BFLY_HREL_IDLE) */
#define IDLE 0xffffffffU

enum pattern { PAT_FILE, PAT_RANDOM, PAT_ALLTOALL, PAT_ONE_TO_ONE };

static const char *const pattern_names[] = { "file", "random", "alltoall", "one-to-one" };

struct hrel_opts {
	enum pattern pattern;
	unsigned int h;
	unsigned long long seed;
	bool perms;
	const char *file;
};

struct hrel_reply {
	unsigned int count, ports, h, colours, rounds, bad_msg, prounds;
	bool has_bad_msg, reported;
	/* a multibutterfly's routing (uapi 9) */
	bool mbfly, bound_ok;
	unsigned int stages, max_through, hbar;
	unsigned long long cycles;
	unsigned int *round, *perms;
};

static int parse_hrel(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];
	struct hrel_reply *r = arg;
	unsigned int len;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->h = get_u32(tb, BFLY_A_H);
	r->colours = get_u32(tb, BFLY_A_COLOURS);
	r->rounds = get_u32(tb, BFLY_A_ROUNDS);
	r->cycles = get_u64(tb, BFLY_A_CYCLES);
	r->reported = tb[BFLY_A_ROUNDS];
	r->mbfly = tb[BFLY_A_STAGES];
	r->stages = get_u32(tb, BFLY_A_STAGES);
	r->max_through = get_u32(tb, BFLY_A_MAX_THROUGH);
	r->hbar = get_u32(tb, BFLY_A_HBAR);
	r->bound_ok = tb[BFLY_A_BOUND_OK] && nla_get_u8(tb[BFLY_A_BOUND_OK]);
	r->has_bad_msg = tb[BFLY_A_BAD_MSG];
	r->bad_msg = get_u32(tb, BFLY_A_BAD_MSG);
	if (tb[BFLY_A_MSG_ROUND] && (unsigned int)nla_len(tb[BFLY_A_MSG_ROUND]) == r->count * 4)
		memcpy(r->round, nla_data(tb[BFLY_A_MSG_ROUND]), r->count * 4);
	len = tb[BFLY_A_ROUND_PERMS] ? nla_len(tb[BFLY_A_ROUND_PERMS]) : 0;
	if (len && len % (r->ports * 4) == 0) {
		r->prounds = len / (r->ports * 4);
		r->perms = xcalloc(len / 4, sizeof(*r->perms));
		memcpy(r->perms, nla_data(tb[BFLY_A_ROUND_PERMS]), len);
	}
	return NL_OK;
}

/* The messages of a pattern on @n processors; their number. */
static unsigned int gen_pattern(const struct hrel_opts *o, unsigned int n, unsigned int *src,
				unsigned int *dst)
{
	unsigned long long total, seed = o->seed;
	unsigned int *sigma, i, j, m = 0;

	total = o->pattern == PAT_ALLTOALL ? (unsigned long long)n * n :
					     (unsigned long long)n * o->h;
	if (total > HREL_MAX_NL)
		die("%s: %llu messages on %u processors, over %u (BFLY_IOC_HREL takes more)",
		    pattern_names[o->pattern], total, n, HREL_MAX_NL);
	sigma = xcalloc(n, sizeof(*sigma));
	switch (o->pattern) {
	case PAT_RANDOM:
		/* The union of h random permutations */
		for (j = 0; j < o->h; j++) {
			identity_perm(sigma, n);
		shuffle(sigma, n, &seed);
			for (i = 0; i < n; i++, m++) {
				src[m] = i;
				dst[m] = sigma[i];
			}
		}
		break;
	case PAT_ALLTOALL:
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++, m++) {
				src[m] = i;
				dst[m] = j;
			}
		break;
	case PAT_ONE_TO_ONE:
		/* Source i sends h messages to sigma(i), one random permutation */
		identity_perm(sigma, n);
		shuffle(sigma, n, &seed);
		for (i = 0; i < n; i++)
			for (j = 0; j < o->h; j++, m++) {
				src[m] = i;
				dst[m] = sigma[i];
			}
		break;
	case PAT_FILE:
		break;
	}
	free(sigma);
	return m;
}

static void parse_hrel_args(int argc, char **argv, struct hrel_opts *o)
{
	int a, v;

	for (a = 1; a < argc; a++) {
		const char *key = argv[a];

		if (!strcmp(key, "perms")) {
			o->perms = true;
			continue;
		}
		if (!strcmp(key, "alltoall")) {
			o->pattern = PAT_ALLTOALL;
			continue;
		}
		if (a + 1 == argc)
			die("%s: missing its value", key);
		v = lookup(pattern_names, ARRAY_SIZE(pattern_names), key);
		if (v == PAT_RANDOM || v == PAT_ONE_TO_ONE) {
			o->pattern = v;
			o->h = parse_range(key, argv[++a], 1, HREL_MAX_NL);
		} else if (!strcmp(key, "file")) {
			o->pattern = PAT_FILE;
			o->file = argv[++a];
		} else if (!strcmp(key, "seed")) {
			o->seed = parse_u64("seed", argv[++a]);
		} else {
			die("unexpected argument '%s'", key);
		}
	}
	if (o->pattern == PAT_FILE && !o->file)
		die("expected file PATH, random H, alltoall or one-to-one H (%s)",
		    "see bflyctl hrel --help");
}

/* Run the relation; the reply in @r (its arrays sized by the caller). */
static int run_hrel(unsigned int id, const struct hrel_opts *o, const unsigned int *src,
		    const unsigned int *dst, struct hrel_reply *r)
{
	unsigned int *pairs = xcalloc(2 * (size_t)r->count, sizeof(*pairs)), i;
	struct nl_msg *msg;

	for (i = 0; i < r->count; i++) {
		pairs[2 * i] = src[i];
		pairs[2 * i + 1] = dst[i];
	}
	msg = new_msg(BFLY_CMD_HREL, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	put_or_die(nla_put(msg, BFLY_A_MSGS, 2 * r->count * sizeof(*pairs), pairs));
	put_or_die(nla_put_u64(msg, BFLY_A_SEED, o->seed));
	if (o->perms)
		put_or_die(nla_put_flag(msg, BFLY_A_WANT_ROUND_PERMS));
	free(pairs);
	return transact(msg, parse_hrel, r);
}

static void json_u32s(const char *key, const unsigned int *v, unsigned int n)
{
	unsigned int i;

	if (key)
		jk(key);
	jopen('[');
	for (i = 0; i < n; i++) {
		if (v[i] == IDLE)
			jnull();
		else
			jnum(v[i]);
	}
	jclose(']');
}

static void print_json(unsigned int id, const struct hrel_opts *o, const struct hrel_reply *r)
{
	unsigned int k;

	jopen('{');
	jkn("id", id);
	jks("pattern", pattern_names[o->pattern]);
	jkn("seed", o->seed);
	jkn("messages", r->count);
	jkn("h", r->h);
	jkn("colours", r->colours);
	jkn("rounds", r->rounds);
	jkn("extra_rounds", r->rounds - r->colours);
	jkn("cycles", r->cycles);
	if (r->mbfly) {
		jkn("stages", r->stages);
		jkn("max_through", r->max_through);
		jkn("hbar", r->hbar);
		jkn("bound_ok", r->bound_ok);
	}
	if (o->perms) {
		json_u32s("msg_round", r->round, r->count);
		jk("round_perms");
		jopen('[');
		for (k = 0; k < r->prounds; k++)
			json_u32s(NULL, r->perms + (size_t)k * r->ports, r->ports);
		jclose(']');
	}
	jclose('}');
}

static void print_text(unsigned int id, const struct hrel_opts *o, const struct hrel_reply *r)
{
	unsigned int k, i;

	printf("bfly%u: %s", id, pattern_names[o->pattern]);
	if (o->pattern == PAT_RANDOM || o->pattern == PAT_ONE_TO_ONE)
		printf(" %u", o->h);
	printf(", %u messages, seed %llu\n", r->count, o->seed);
	printf("  h %u, %u colours, %u rounds (%u extra), %llu cycles\n", r->h, r->colours,
	       r->rounds, r->rounds - r->colours, r->cycles);
	if (r->mbfly) {
		printf("  multibutterfly: %u stages, at most %u messages through a node,",
		       r->stages, r->max_through);
		printf(" h-bar %u: %s\n", r->hbar,
		       r->bound_ok ? "Theorem 2's bound (<= 2 h-bar) held" :
		       "Theorem 2's bound (<= 2 h-bar) BROKEN");
	}
	for (k = 0; k < r->prounds; k++) {
		printf("  round %u:", k);
		for (i = 0; i < r->ports; i++) {
			unsigned int d = r->perms[(size_t)k * r->ports + i];

			if (d == IDLE)
				printf(" -");
			else
				printf(" %u", d);
		}
		putchar('\n');
	}
}

int cmd_hrel(int argc, char **argv)
{
	struct hrel_opts o = { .pattern = PAT_FILE };
	unsigned int *src, *dst, id;
	struct hrel_reply r = {};
	struct fabrics fs = {};
	int err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] hrel DEV (file PATH|- | random H | alltoall | one-to-one H)\n"
		 "                 [seed S] [perms]\n"
		 "Run an h-relation (each processor sends and receives h messages at\n"
		 "most) on a fabric in rounds: the edge colouring splits it into h\n"
		 "partial permutations, each routed on the fabric (benes: one round each;\n"
		 "butterfly, bfly2, bfly-twice: a colour with conflicts split into\n"
		 "sub-rounds; an LCAN: network cycles). Prints h, the colours, the rounds,\n"
		 "the extra rounds (rounds - colours) and the cycles. A file holds\n"
		 "'SRC DST' lines; the patterns:\n"
		 "  random H      the union of H random permutations (seed S)\n"
		 "  alltoall      every processor to every one: h = N\n"
		 "  one-to-one H  source i sends H messages to one destination, a random\n"
		 "                permutation of the sources (seed S)\n"
		 "seed S also picks the random middle rows of bfly2 and bfly-twice labels.\n"
		 "perms prints each round's partial permutation ('-' for an idle input;\n"
		 "with -j also each message's round); the kernel sends them when rounds x N\n"
		 "is at most 16382. At most 8191 messages (BFLY_IOC_HREL takes more and\n"
		 "moves payload). Not on a fabric with faults.\n"))
		return 0;
	if (argc < 1)
		die("expected DEV and a file or pattern (see bflyctl hrel --help)");
	id = parse_dev(argv[0]);
	parse_hrel_args(argc, argv, &o);
	connect_family();
	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	src = xcalloc(HREL_MAX_NL, sizeof(*src));
	dst = xcalloc(HREL_MAX_NL, sizeof(*dst));
	r.ports = fs.v[0].ports;
	if (o.pattern == PAT_FILE)
		r.count = read_pairs(o.file, src, dst, HREL_MAX_NL, "BFLY_IOC_HREL");
	else
		r.count = gen_pattern(&o, r.ports, src, dst);
	r.round = xcalloc(r.count, sizeof(*r.round));
	err = run_hrel(id, &o, src, dst, &r);
	if (err && r.has_bad_msg && r.bad_msg < r.count)
		die("message %u (%u %u): %s (%s)", r.bad_msg, src[r.bad_msg], dst[r.bad_msg],
		    *kmsg ? kmsg : "refused", strerror(err));
	if (err)
		die_kernel(err);
	if (json)
		print_json(id, &o, &r);
	else
		print_text(id, &o, &r);
	free(r.round);
	free(r.perms);
	free(src);
	free(dst);
	fabrics_free(&fs);
	return 0;
}
