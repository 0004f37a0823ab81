// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl a2a: an all-to-all schedule without data.
 */
#include "bflyctl.h"

struct a2a_reply {
	unsigned int latin, rounds, conflicts, faults;
	unsigned long long cycles, affected;
	/* Sent by kernels that run exchanges on flatfly routers */
	bool has_bound, has_mll;
	unsigned long long cycles_bound;
	unsigned int mll;
};

int parse_a2a(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];
	struct a2a_reply *r = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		return NL_SKIP;
	r->latin = get_u32(tb, BFLY_A_LATIN);
	r->rounds = get_u32(tb, BFLY_A_ROUNDS);
	r->cycles = get_u64(tb, BFLY_A_CYCLES);
	r->conflicts = get_u32(tb, BFLY_A_CONFLICTS_COUNT);
	r->faults = get_u32(tb, BFLY_A_FAULTS_COUNT);
	r->affected = get_u64(tb, BFLY_A_AFFECTED_COUNT);
	r->has_bound = tb[BFLY_A_CYCLES_BOUND];
	r->cycles_bound = get_u64(tb, BFLY_A_CYCLES_BOUND);
	r->has_mll = tb[BFLY_A_MAX_LINK_LOAD];
	r->mll = get_u32(tb, BFLY_A_MAX_LINK_LOAD);
	return NL_OK;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_a2a(int argc, char **argv)
{
	bool tty = isatty(STDERR_FILENO);
	struct a2a_reply r = {};
	struct pollfd pfd;
	struct nl_msg *msg;
	bool minimal = false;
	int latin = 0, err, a;
	double start;
	unsigned int id;

	if (help(argc, argv,
		 "usage: bflyctl [-j] a2a DEV [latin rls|lls|xor|systolic] [minimal]\n"
		 "Run an all-to-all schedule on a fabric: every input sends to every\n"
		 "output, round by round along a Latin square (default: the module's\n"
		 "choice for the topology). On a terminal, the elapsed time is shown\n"
		 "while it runs; piped, nothing but the result is printed. On a fabric\n"
		 "with faults, the faults and the messages they would hit are counted.\n"
		 "On a flatfly the rounds run on its routers, by the RLS paper's mapping\n"
		 "or with 'minimal' by minimal routes, one round after another; the\n"
		 "systolic square's rounds are pipelined, one a cycle, and run on any\n"
		 "flatfly. The cycles' lower bound and the maximum channel load are\n"
		 "printed too. Not on kfly.\n"))
		return 0;
	if (argc < 1)
		die("expected DEV [latin rls|lls|xor|systolic] [minimal] (see bflyctl a2a --help)");
	id = parse_dev(argv[0]);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "minimal")) {
			minimal = true;
			continue;
		}
		if (strcmp(argv[a], "latin"))
			die("unexpected argument '%s'", argv[a]);
		if (++a == argc)
			die("latin: missing the square (rls, lls, xor, systolic)");
		latin = lookup(bfly_latin_names, bfly_latin_names_count, argv[a]);
		if (latin < 0)
			die("unknown Latin square '%s' (rls, lls, xor, systolic)", argv[a]);
	}
	connect_family();
	msg = new_msg(BFLY_CMD_A2A, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	if (latin)
		put_or_die(nla_put_u32(msg, BFLY_A_LATIN, latin));
	if (minimal)
		put_or_die(nla_put_flag(msg, BFLY_A_MINIMAL));

	/* Progress on a terminal while the kernel works. */
	start = now();
	if (tty) {
		pfd.fd = nl_socket_get_fd(sk);
		pfd.events = POLLIN;
		nl_send_auto(sk, msg);
		while (poll(&pfd, 1, 200) == 0)
			fprintf(stderr, "\rbflyctl: a2a on bfly%u: running, %.1f s", id,
				now() - start);
		fprintf(stderr, "\r\033[K");
		/* The request went out; read its answer. */
		{
			struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
			int done = 0;

			kerr = 0;
			last_req = msg;
			nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, parse_a2a, &r);
			nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &done);
			nl_cb_err(cb, NL_CB_CUSTOM, on_error, &done);
			while (!done && !kerr) {
				await_answer();
				if (nl_recvmsgs(sk, cb) < 0)
					break;
			}
			nl_cb_put(cb);
			nlmsg_free(msg);
			last_req = NULL;
			err = kerr;
		}
	} else {
		err = transact(msg, parse_a2a, &r);
	}
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jks("latin", latin_name(r.latin));
		jkn("rounds", r.rounds);
		jkn("cycles", r.cycles);
		if (r.has_bound)
			jkn("cycles_bound", r.cycles_bound);
		if (r.has_mll)
			jkn("max_link_load", r.mll);
		jkn("conflicts", r.conflicts);
		jkn("faults", r.faults);
		jkn("affected", r.affected);
		jclose('}');
	} else {
		printf("bfly%u: all-to-all (%s): %u rounds, %llu cycles", id,
		       latin_name(r.latin), r.rounds, r.cycles);
		/* The bound comes from flatfly exchanges only (0 elsewhere). */
		if (r.cycles_bound)
			printf(" (at least %llu), max link load %u", r.cycles_bound, r.mll);
		printf(", %u conflicts", r.conflicts);
		if (r.faults)
			printf(", faults %u, affected %llu", r.faults, r.affected);
		printf(", %.2f s\n", now() - start);
	}
	return 0;
}

/*
 * One fault from argv[*@a] on: "stuck STAGE NODE straight|cross" (the state
 * only with @state) or "link STAGE POS". Moves *@a past it.
 */
