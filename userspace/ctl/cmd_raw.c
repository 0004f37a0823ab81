// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl raw: a request of hand-written attributes, for testing.
 */
#include "bflyctl.h"

void put_raw(struct nl_msg *msg, const char *spec)
{
	char *copy = strdup(spec), *kind, *val;
	unsigned int type;
	int err = 0;

	if (!copy)
		die("out of memory");
	kind = strchr(copy, ':');
	if (!kind)
		die("raw attribute '%s': expected TYPE:KIND[:VALUE]", spec);
	*kind++ = 0;
	val = strchr(kind, ':');
	if (val)
		*val++ = 0;
	/* nla_type is 16 bits wide, the flag bits included */
	type = parse_max("attribute type", copy, 0xffff);
	if (!strcmp(kind, "flag")) {
		err = nla_put_flag(msg, type);
	} else if (!strcmp(kind, "nest")) {
		struct nlattr *nest = nla_nest_start(msg, type);
		char *sub, *save = NULL;

		if (!nest)
			die("request too large");
		for (sub = val ? strtok_r(val, "+", &save) : NULL; sub;
		     sub = strtok_r(NULL, "+", &save))
			put_raw(msg, sub);
		nla_nest_end(msg, nest);
	} else if (!val) {
		die("raw attribute '%s': missing VALUE", spec);
	} else if (!strcmp(kind, "u8")) {
		err = nla_put_u8(msg, type, parse_max("u8", val, 0xff));
	} else if (!strcmp(kind, "u16")) {
		err = nla_put_u16(msg, type, parse_max("u16", val, 0xffff));
	} else if (!strcmp(kind, "u32")) {
		err = nla_put_u32(msg, type, parse_u32("u32", val));
	} else if (!strcmp(kind, "u64")) {
		err = nla_put_u64(msg, type, parse_u64("u64", val));
	} else if (!strcmp(kind, "str")) {
		err = nla_put_string(msg, type, val);
	} else if (!strcmp(kind, "hex")) {
		size_t i, n = strlen(val) / 2;
		unsigned char *b;

		if (strlen(val) % 2 || strspn(val, "0123456789abcdefABCDEF") != strlen(val))
			die("hex: '%s' is not pairs of hex digits", val);
		b = xcalloc(n, 1);
		for (i = 0; i < n; i++) {
			char h[3] = { val[2 * i], val[2 * i + 1], 0 };

			b[i] = strtoul(h, NULL, 16);
		}
		err = nla_put(msg, type, n, b);
		free(b);
	} else {
		die("raw attribute '%s': unknown kind '%s'", spec, kind);
	}
	put_or_die(err);
	free(copy);
}

int print_raw(struct nl_msg *msg, void *arg)
{
	struct nlattr *a;
	int rem;

	(void)arg;
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem)
		printf("attr %d len %d\n", nla_type(a), nla_len(a));
	return NL_OK;
}

int cmd_raw(int argc, char **argv)
{
	struct nl_msg *msg;
	int cmd, i, err, flags = 0;

	if (help(argc, argv,
		 "usage: bflyctl raw [dump] CMD [TYPE:KIND[:VALUE]]...\n"
		 "Send a request built by hand, for testing the kernel's validation.\n"
		 "CMD is a command name (fabric-get, fabric-new, ...) or number; KIND\n"
		 "is u8, u16, u32, u64, str, flag, hex or nest, whose VALUE is its\n"
		 "attributes joined by '+' (31:nest:1:u32:1+2:u32:0). Prints the type and\n"
		 "length of each reply attribute; errors as every command does.\n"))
		return 0;
	if (argc && !strcmp(argv[0], "dump")) {
		flags = NLM_F_DUMP;
		argc--;
		argv++;
	}
	if (argc < 1)
		die("expected CMD (see bflyctl raw --help)");
	cmd = lookup(bfly_cmd_names, bfly_cmd_names_count, argv[0]);
	/* The genetlink header's command is 8 bits wide */
	if (cmd < 0)
		cmd = parse_max("command", argv[0], 0xff);
	connect_family();
	msg = new_msg(cmd, flags);
	for (i = 1; i < argc; i++)
		put_raw(msg, argv[i]);
	err = transact(msg, print_raw, NULL);
	if (err)
		die_kernel(err);
	return 0;
}
