// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl fault: add, del, list injected faults.
 */
#include "bflyctl.h"

void parse_fault_arg(int argc, char **argv, int *a, bool state, struct fault *x)
{
	const char *form;
	int i = *a, need = 3;

	memset(x, 0, sizeof(*x));
	if (!strcmp(argv[i], "stuck")) {
		x->kind = BFLY_FAULT_STUCK;
		need = state ? 4 : 3;
		form = state ? "stuck STAGE NODE straight|cross" : "stuck STAGE NODE";
	} else if (!strcmp(argv[i], "link")) {
		x->kind = BFLY_FAULT_LINK;
		form = "link STAGE POS";
	} else {
		die("expected 'stuck' or 'link', got '%s' (see bflyctl fault --help)", argv[i]);
	}
	if (i + need > argc)
		die("incomplete fault: expected '%s'", form);
	x->stage = parse_u32("stage", argv[i + 1]);
	x->index = parse_u32(x->kind == BFLY_FAULT_STUCK ? "node" : "pos", argv[i + 2]);
	if (need == 4)
		x->state = parse_state(argv[i + 3]);
	*a = i + need;
}

int parse_faults_count(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[BFLY_A_MAX + 1];

	if (!genlmsg_parse(nlmsg_hdr(msg), 0, tb, BFLY_A_MAX, NULL))
		*(unsigned int *)arg = get_u32(tb, BFLY_A_FAULTS_COUNT);
	return NL_OK;
}

/* fault list: the faults of one fabric */
void fault_list(unsigned int id)
{
	struct fabrics fs = {};
	const struct fabric *f;
	unsigned int j;

	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];
	if (json) {
		jopen('{');
		jkn("id", f->id);
		json_faults(f);
		jclose('}');
	} else {
		printf("%s: %u fault%s\n", f->dev, f->nfaults, f->nfaults == 1 ? "" : "s");
		for (j = 0; j < f->nfaults; j++)
			print_fault("  ", &f->faults[j]);
	}
	fabrics_free(&fs);
}

int cmd_fault(int argc, char **argv)
{
	static char name[32];
	struct fault *v = NULL;
	unsigned int id, count = 0, n = 0, j;
	struct nl_msg *msg;
	struct nlattr *nest;
	const char *sub;
	bool add;
	int a, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] fault add DEV FAULT...\n"
		 "       bflyctl [-j] fault del DEV FAULT...\n"
		 "       bflyctl [-j] fault clear DEV\n"
		 "       bflyctl [-j] fault list DEV\n"
		 "Inject faults into a fabric, repair them, or list them. A FAULT is\n"
		 "  stuck STAGE NODE straight|cross  node NODE of node stage STAGE stuck\n"
		 "                                   in that state (del: without the state)\n"
		 "  link STAGE POS                   the link at position POS leaving node\n"
		 "                                   stage STAGE broken: its packet is lost\n"
		 "add and del take several faults, all of them or none; clear repairs\n"
		 "every fault. A fabric holds at most 64. Prints the number of faults.\n"))
		return 0;
	if (argc < 2)
		die("expected add, del, clear or list, and DEV (see bflyctl fault --help)");
	sub = argv[0];
	if (strcmp(sub, "add") && strcmp(sub, "del") && strcmp(sub, "clear") &&
	    strcmp(sub, "list"))
		die("unknown fault command '%s' (add, del, clear, list)", sub);
	/* Errors name the subcommand: "bflyctl: fault add: ..." */
	snprintf(name, sizeof(name), "fault %s", sub);
	cmd_name = name;
	id = parse_dev(argv[1]);
	if (!strcmp(sub, "list") || !strcmp(sub, "clear")) {
		if (argc > 2)
			die("unexpected argument '%s' (see bflyctl fault --help)", argv[2]);
		connect_family();
		if (sub[0] == 'l') {
			fault_list(id);
			return 0;
		}
		msg = new_msg(BFLY_CMD_FAULT_DEL, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		put_or_die(nla_put_flag(msg, BFLY_A_ALL_FAULTS));
	} else {
		add = sub[0] == 'a';
		if (argc < 3)
			die("expected faults: '%s' or 'link STAGE POS' (see bflyctl fault --help)",
			    add ? "stuck STAGE NODE straight|cross" : "stuck STAGE NODE");
		v = xcalloc(argc, sizeof(*v));
		for (a = 2; a < argc; n++)
			parse_fault_arg(argc, argv, &a, add, &v[n]);
		connect_family();
		msg = new_msg(add ? BFLY_CMD_FAULT_ADD : BFLY_CMD_FAULT_DEL, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		for (j = 0; j < n; j++) {
			nest = nla_nest_start(msg, BFLY_A_FAULT);
			if (!nest)
				die("request too large");
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_KIND, v[j].kind));
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_STAGE, v[j].stage));
			put_or_die(nla_put_u32(msg, BFLY_A_FAULT_INDEX, v[j].index));
			if (add && v[j].kind == BFLY_FAULT_STUCK)
				put_or_die(nla_put_u32(msg, BFLY_A_FAULT_STATE, v[j].state));
			nla_nest_end(msg, nest);
		}
		free(v);
	}
	err = transact(msg, parse_faults_count, &count);
	if (err)
		die_kernel(err);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("faults", count);
		jclose('}');
	} else {
		printf("bfly%u: %u fault%s\n", id, count, count == 1 ? "" : "s");
	}
	return 0;
}
