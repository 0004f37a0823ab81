// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl set: switch states or a whole matrix.
 */
#include "bflyctl.h"

int parse_generation(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];

	if (!genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		*(unsigned long long *)arg = get_u64(tb, BFLY_A_GENERATION);
	return NL_OK;
}

int parse_state(const char *s)
{
	if (!strcmp(s, "straight") || !strcmp(s, "0") || !strcmp(s, "="))
		return 0;
	if (!strcmp(s, "cross") || !strcmp(s, "1") || !strcmp(s, "X") || !strcmp(s, "x"))
		return 1;
	die("'%s' is not a switch state (straight or cross)", s);
	return -1;
}

int cmd_set(int argc, char **argv)
{
	unsigned long long generation = 0;
	struct fabrics fs = {};
	struct nl_msg *msg;
	struct nlattr *nest;
	unsigned int id;
	int i, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] set DEV stage S node K straight|cross [stage S node K STATE]...\n"
		 "       bflyctl [-j] set DEV all straight|cross\n"
		 "Set switches of a fabric in one change of its matrix: the listed nodes,\n"
		 "or every node. Prints the new matrix generation.\n"))
		return 0;
	if (argc < 3)
		die("expected DEV and switches (see bflyctl set --help)");
	id = parse_dev(argv[0]);
	connect_family();
	msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	if (!strcmp(argv[1], "all")) {
		unsigned char *m;
		int state;

		if (argc != 3)
			die("expected 'all straight' or 'all cross'");
		state = parse_state(argv[2]);
		nlmsg_free(msg);
		read_fabrics(&fs, true, id, 0);
		if (fs.v[0].matrix_bytes > BFLY_CHUNK_BYTES)
			die("%s: the matrix is too large for one request", fs.v[0].dev);
		m = xcalloc(fs.v[0].matrix_bytes, 1);
		for (i = 0; state && (unsigned long long)i < fs.v[0].switches; i++)
			m[i / 8] |= 1 << (i % 8);
		msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		put_or_die(nla_put(msg, BFLY_A_MATRIX, fs.v[0].matrix_bytes, m));
		free(m);
		fabrics_free(&fs);
	} else {
		for (i = 1; i < argc; i += 5) {
			if (i + 5 > argc)
				die("incomplete switch: expected 'stage S node K STATE'");
			if (strcmp(argv[i], "stage") || strcmp(argv[i + 2], "node"))
				die("expected 'stage S node K STATE', got '%s'", argv[i]);
			nest = nla_nest_start(msg, BFLY_A_SWITCH);
			if (!nest)
				die("request too large");
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_STAGE,
					       parse_u32("stage", argv[i + 1])));
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_NODE,
					       parse_u32("node", argv[i + 3])));
			put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_STATE,
					       parse_state(argv[i + 4])));
			nla_nest_end(msg, nest);
		}
	}
	err = transact(msg, parse_generation, &generation);
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("generation", generation);
		jclose('}');
	} else {
		printf("bfly%u: generation %llu\n", id, generation);
	}
	return 0;
}
