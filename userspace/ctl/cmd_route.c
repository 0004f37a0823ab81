// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl route: one request, its report, then its refusal if any.
 */
#include "lib/rls.h"

#include "bflyctl.h"

int parse_route(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1], *c[BFLY_A_CONFLICT_MAX + 1], *a;
	struct route_reply *r = arg;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->method = get_u32(tb, BFLY_A_METHOD);
	r->count = get_u32(tb, BFLY_A_CONFLICTS_COUNT);
	r->first_stage = get_u32(tb, BFLY_A_FIRST_CONFLICT_STAGE);
	r->generation = get_u64(tb, BFLY_A_GENERATION);
	r->faults = get_u32(tb, BFLY_A_FAULTS_COUNT);
	r->affected = get_u64(tb, BFLY_A_AFFECTED_COUNT);
	r->stuck_unmet = get_u32(tb, BFLY_A_STUCK_UNMET);
	r->applied = tb[BFLY_A_APPLIED] && nla_get_u8(tb[BFLY_A_APPLIED]);
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		if (nla_type(a) != BFLY_A_CONFLICT || r->n >= BFLY_CONFLICTS_MAX)
			continue;
		if (nla_parse_nested(c, BFLY_A_CONFLICT_MAX, a, NULL))
			continue;
		r->conflicts[r->n][0] = get_u32(c, BFLY_A_CONFLICT_STAGE);
		r->conflicts[r->n][1] = get_u32(c, BFLY_A_CONFLICT_NODE);
		r->conflicts[r->n][2] = get_u32(c, BFLY_A_CONFLICT_INPUT0);
		r->conflicts[r->n][3] = get_u32(c, BFLY_A_CONFLICT_INPUT1);
		r->conflicts[r->n][4] = get_u32(c, BFLY_A_CONFLICT_PORT);
		r->has_port[r->n] = c[BFLY_A_CONFLICT_PORT];
		r->n++;
	}
	return NL_OK;
}

/*
 * A comma-separated list of exactly @n numbers (an empty entry is not
 * one). A perm's entries are outputs, 0 .. @n - 1; that no entry repeats
 * is left to the kernel's check. Labels are u64; their width too.
 */
void parse_list(const char *what, const char *s, unsigned int n,
		unsigned long long *out)
{
	bool perm = !strcmp(what, "perm");
	unsigned long long max = perm ? n - 1 : ~0ULL;
	char *copy = strdup(s), *tok, *next;
	unsigned int i = 0;

	if (!copy)
		die("out of memory");
	for (tok = copy; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = 0;
		if (i == n)
			die("%s: more than %u entries", what, n);
		switch (parse_num(tok, max, &out[i++])) {
		case NUM_OK:
			break;
		case NUM_NAN:
			die("%s: entry %u: '%s' is not a number", what, i, tok);
			break;
		case NUM_RANGE:
			if (perm)
				die("%s: entry %u: %s is out of range: %s of 0 .. %u",
				    what, i, tok, "not a permutation", n - 1);
			die("%s: entry %u: %s is out of range (0 .. %llu)", what, i, tok, max);
			break;
		}
	}
	if (i != n)
		die("%s: %u entries, the fabric has %u ports", what, i, n);
	free(copy);
}

/*
 * Send one route request (@n entries of @buf: u32 outputs, or u64 labels)
 * and read its report into @r. A refused route is answered with its
 * report, then the error: returns 0, EBUSY (conflicts) or EHOSTUNREACH
 * (faults); any other error ends the program.
 */
int route_send(unsigned int id, const void *buf, unsigned int n, bool labels, bool dry_run,
	       bool allow_faults, struct route_reply *r)
{
	struct nl_msg *msg = new_msg(BFLY_CMD_ROUTE, 0);
	int err;

	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	put_or_die(nla_put(msg, labels ? BFLY_A_LABELS : BFLY_A_PERM,
			   n * (labels ? 8 : 4), buf));
	if (dry_run)
		put_or_die(nla_put_flag(msg, BFLY_A_DRY_RUN));
	if (allow_faults)
		put_or_die(nla_put_flag(msg, BFLY_A_ALLOW_FAULTS));
	memset(r, 0, sizeof(*r));
	err = transact(msg, parse_route, r);
	if (err && err != EBUSY && err != EHOSTUNREACH)
		die_kernel(err);
	return err;
}

int cmd_route(int argc, char **argv)
{
	bool dry_run = false, labels = false, allow_faults = false, picture = false, svg = false;
	struct route_reply r = {};
	struct fabrics fs = {};
	unsigned long long *v;
	unsigned int id, n, i, j, t;
	void *buf;
	int a, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] route DEV [dry-run] [allow-faults] [format dot|svg] PERM\n"
		 "PERM is one of:\n"
		 "  perm P0,P1,...      input i goes to output Pi\n"
		 "  identity | reverse  i -> i, i -> N-1-i\n"
		 "  shift K | xor K     i -> (i + K) mod N, i -> i XOR K\n"
		 "  random [seed S]     a random permutation\n"
		 "  labels L0,L1,...    route labels (node-stages bits each, first stage\n"
		 "                      most significant; base-k digits on kfly and\n"
		 "                      flatfly): any topology\n"
		 "  rls K               the labels of round K of the RLS all-to-all\n"
		 "                      (bfly2, bfly-twice; N a power of two)\n"
		 "A permutation routes by self-routing on butterfly, by destination-digit\n"
		 "self-routing on kfly and flatfly, and by looping on benes. xor needs N a\n"
		 "power of two.\n"
		 "A route without conflicts replaces the switch matrix unless dry-run;\n"
		 "a route with conflicts is refused (exit 1) and its conflicts listed.\n"
		 "On a fabric with faults, the inputs a fault would hit are counted\n"
		 "(affected) with the stuck nodes the route needs in the other state\n"
		 "(stuck unmet); such a route is refused (exit 1) unless allow-faults.\n"
		 "'format dot' or 'format svg' prints the route as a picture instead of\n"
		 "the report (see bflyctl show --help): the device's settings once\n"
		 "applied, else the settings the route would set, its conflicts in red\n"
		 "and the packets they deflect dashed.\n"))
		return 0;
	if (argc < 2)
		die("expected DEV and a permutation (see bflyctl route --help)");
	id = parse_dev(argv[0]);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "dry-run"))
			dry_run = true;
		else if (!strcmp(argv[a], "allow-faults"))
			allow_faults = true;
		else if (!strcmp(argv[a], "format") && a + 1 < argc)
			picture = parse_format(argv[++a], &svg);
		else
			break;
	}
	if (a >= argc)
		die("missing the permutation (see bflyctl route --help)");
	if (picture && json)
		die("format: a picture has no JSON form (drop -j)");
	connect_family();
	read_fabrics(&fs, true, id, 0);
	n = fs.v[0].ports;
	fabrics_free(&fs);
	v = xcalloc(n, sizeof(*v));

	if (!strcmp(argv[a], "perm") && a + 1 < argc) {
		parse_list("perm", argv[++a], n, v);
	} else if (!strcmp(argv[a], "labels") && a + 1 < argc) {
		parse_list("labels", argv[++a], n, v);
		labels = true;
	} else if (!strcmp(argv[a], "identity") || !strcmp(argv[a], "reverse")) {
		for (i = 0; i < n; i++)
			v[i] = argv[a][0] == 'i' ? i : n - 1 - i;
	} else if ((!strcmp(argv[a], "shift") || !strcmp(argv[a], "xor")) && a + 1 < argc) {
		/* shift is modulo N; xor K past N - 1 would leave 0 .. N-1 */
		unsigned int k = parse_max(argv[a], argv[a + 1],
					   argv[a][0] == 's' ? 0xffffffffULL : n - 1);

		/* i XOR K stays below N for every K < N only if N is 2^n */
		if (argv[a][0] == 'x' && (n & (n - 1)))
			die("xor: N = %u is no power of two: i XOR K would leave 0 .. %u",
			    n, n - 1);

		for (i = 0; i < n; i++)
			v[i] = argv[a][0] == 's' ? (i + k) % n : i ^ k;
		a++;
	} else if (!strcmp(argv[a], "rls") && a + 1 < argc) {
		unsigned int k = parse_max("rls", argv[a + 1], n - 1);

		if (bfly_rls_labels_round(n, k, v))
			die("rls: N = %u is no power of two", n);
		labels = true;
		a++;
	} else if (!strcmp(argv[a], "random")) {
		unsigned int seed = time(NULL);

		if (a + 2 < argc && !strcmp(argv[a + 1], "seed")) {
			seed = parse_u32("seed", argv[a + 2]);
			a += 2;
		}
		srand(seed);
		for (i = 0; i < n; i++)
			v[i] = i;
		for (i = n - 1; i > 0; i--) {
			j = rand() % (i + 1);
			t = v[i];
			v[i] = v[j];
			v[j] = t;
		}
	} else {
		die("unknown permutation '%s' (see bflyctl route --help)", argv[a]);
	}
	if (a + 1 != argc)
		die("unexpected argument '%s'", argv[a + 1]);

	if (labels) {
		unsigned long long *l = xcalloc(n, sizeof(*l));

		memcpy(l, v, n * sizeof(*l));
		buf = l;
	} else {
		unsigned int *p = xcalloc(n, sizeof(*p));

		/* Each entry is below n (parse_list) */
		for (i = 0; i < n; i++)
			p[i] = v[i];
		buf = p;
	}
	free(v);
	/* One attribute holds at most 64 KiB. */
	if ((unsigned long long)n * (labels ? 8 : 4) > 65535 - NLA_HDRLEN)
		die("%s: %u ports do not fit in one netlink attribute %s",
		    labels ? "labels" : "perm", n, "(at most 8192 ports, 4096 with labels)");
	err = route_send(id, buf, n, labels, dry_run, allow_faults, &r);

	if (picture) {
		struct bfly_conflict *c = xcalloc(r.n + 1, sizeof(*c));

		for (i = 0; i < r.n; i++) {
			c[i].stage = r.conflicts[i][0];
			c[i].node = r.conflicts[i][1];
		}
		route_picture(id, buf, labels, r.applied, c, r.n, svg);
		free(c);
	} else if (json) {
		jopen('{');
		jkn("id", id);
		jks("method", method_name(r.method));
		jk("applied");
		jbool(r.applied);
		jkn("conflicts", r.count);
		if (r.count)
			jkn("first_conflict_stage", r.first_stage);
		jkn("generation", r.generation);
		jkn("faults", r.faults);
		jkn("affected", r.affected);
		jkn("stuck_unmet", r.stuck_unmet);
		jk("conflict_list");
		jopen('[');
		for (i = 0; i < r.n; i++) {
			jopen('{');
			jkn("stage", r.conflicts[i][0]);
			jkn("node", r.conflicts[i][1]);
			jk("inputs");
			jopen('[');
			jnum(r.conflicts[i][2]);
			jnum(r.conflicts[i][3]);
			jclose(']');
			if (r.has_port[i])
				jkn("port", r.conflicts[i][4]);
			jclose('}');
		}
		jclose(']');
		jclose('}');
	} else {
		printf("bfly%u: %s, %s", id, method_name(r.method),
		       err ? "refused" : r.applied ? "applied" : "dry run");
		if (r.count)
			printf(", %u conflicts, first at node stage %u", r.count, r.first_stage);
		else
			printf(", no conflicts");
		printf(", generation %llu\n", r.generation);
		if (r.faults)
			printf("  faults %u: affected %llu, stuck unmet %u%s\n", r.faults,
			       r.affected, r.stuck_unmet,
			       r.affected && r.applied ? " (allowed)" : "");
		for (i = 0; i < r.n; i++) {
			printf("  conflict: stage %u node %u, inputs %u and %u",
			       r.conflicts[i][0], r.conflicts[i][1], r.conflicts[i][2],
			       r.conflicts[i][3]);
			if (r.has_port[i])
				printf(", port %u", r.conflicts[i][4]);
			putchar('\n');
		}
		if (r.n < r.count)
			printf("  (%u more)\n", r.count - r.n);
	}
	free(buf);
	fflush(stdout);
	if (err)
		die_kernel(err);
	return 0;
}
