// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl set: switch states, port maps of k x k switches, or all the
 * switches at once.
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

/*
 * The port map after "map": argv[*a] on, up to the next "stage" or the
 * end, which *@a is left at. Exactly @k entries, entry p the output port
 * of input port p: below @k, or '-' or 255 for none.
 */
static void parse_map(int argc, char **argv, int *a, unsigned int k,
		      unsigned char *map)
{
	unsigned long long v;
	enum num_err err;
	unsigned int n = 0;
	const char *s;

	for (; *a < argc && strcmp(argv[*a], "stage"); ++*a, n++) {
		s = argv[*a];
		v = BFLY_PORT_UNSET;
		err = strcmp(s, "-") ? parse_num(s, BFLY_PORT_UNSET, &v) : NUM_OK;
		if (err == NUM_NAN)
			die("map: entry %u: '%s' is not a port", n + 1, s);
		if (err == NUM_RANGE || (v >= k && v != BFLY_PORT_UNSET))
			die("map: entry %u: %s is out of range (0 .. %u, or - or %u for none)",
			    n + 1, s, k - 1, BFLY_PORT_UNSET);
		if (n < k)
			map[n] = v;
	}
	if (n != k)
		die("map: %u entries, the switches have %u ports (a map has one per input port)",
		    n, k);
}

/*
 * "all STATE" or "all map P0 ... Pk-1" on the fabric @f: the message
 * that sets every switch so, as a whole matrix or port maps.
 */
static struct nl_msg *set_all(const struct fabric *f, int argc, char **argv)
{
	unsigned char map[BFLY_MAX_RADIX], *m;
	unsigned long long i, bytes;
	struct nl_msg *msg;
	unsigned int p;
	int a = 1, state = -1;

	if (argc == 1 && strcmp(argv[0], "map")) {
		state = parse_state(argv[0]);
	} else if (!strcmp(argv[0], "map")) {
		parse_map(argc, argv, &a, f->radix, map);
		if (a != argc)
			die("unexpected argument '%s' after 'all map'", argv[a]);
	} else {
		die("expected 'all straight', 'all cross' or 'all map P0 ... Pk-1'");
	}
	msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, f->id));
	if (!topo_kxk(f->topology)) {
		/* A 2 x 2 fabric's map is a state: {0, 1} straight, {1, 0} cross */
		if (state < 0 && map[0] < 2 && map[1] == 1 - map[0])
			state = map[0];
		if (state < 0)
			die("map: a switch of %s is straight (0 1) or cross (1 0)", f->dev);
		bytes = f->matrix_bytes;
		if (bytes > BFLY_CHUNK_BYTES)
			die("%s: the matrix is too large for one request", f->dev);
		m = xcalloc(bytes, 1);
		for (i = 0; state && i < f->switches; i++)
			m[i / 8] |= 1 << (i % 8);
		put_or_die(nla_put(msg, BFLY_A_MATRIX, bytes, m));
		free(m);
		return msg;
	}
	if (state == 1 && f->radix != 2)
		die("cross: %s has %u x %u switches: give 'all map P0 ... P%u'",
		    f->dev, f->radix, f->radix, f->radix - 1);
	for (p = 0; state >= 0 && p < f->radix; p++)
		map[p] = state ? 1 - p : p;
	bytes = f->port_map_bytes;
	if (!bytes || bytes > BFLY_CHUNK_BYTES)
		die("%s: the port maps are too large for one request", f->dev);
	m = xcalloc(bytes, 1);
	for (i = 0; i < bytes; i++)
		m[i] = map[i % f->radix];
	put_or_die(nla_put(msg, BFLY_A_PORT_MAP, bytes, m));
	free(m);
	return msg;
}

#define LCAN_SET_WHY \
	"%s: an LCAN's settings are a byte per connector, not switch states or maps: " \
	"give them whole with 'bflyctl set %s settings B0 ... Bn-1'"

/*
 * "settings B0 ... Bn-1" on an LCAN: its whole settings, a byte per
 * connector of every switch, level by level (bflyctl show DEV matrix),
 * each a connector of its switch or '-' / 255 for none; the kernel
 * checks the rules (Documentation/lcan.rst, "Settings").
 */
static struct nl_msg *set_lcan(const struct fabric *f, int argc, char **argv)
{
	unsigned long long v, i, bytes = f->port_map_bytes;
	struct nl_msg *msg;
	unsigned char *m;

	if (!f->up || !bytes)
		die("%s: %s", f->dev,
		    "'settings' sets an LCAN's connectors (cb-lcan, t-lcan; a fat tree has none)");
	if ((unsigned long long)argc != bytes)
		die("settings: %d bytes, %s has %llu (a byte per connector of every switch)",
		    argc, f->dev, bytes);
	if (bytes > BFLY_CHUNK_BYTES)
		die("%s: the settings are too large for one request", f->dev);
	m = xcalloc(bytes, 1);
	for (i = 0; i < bytes; i++) {
		v = BFLY_PORT_UNSET;
		if (strcmp(argv[i], "-") && parse_num(argv[i], BFLY_PORT_UNSET, &v) != NUM_OK)
			die("settings: byte %llu: '%s' is not a connector %s", i, argv[i],
			    "(0 .. 254, - or 255 for none)");
		m[i] = v;
	}
	msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, f->id));
	put_or_die(nla_put(msg, BFLY_A_PORT_MAP, bytes, m));
	free(m);
	return msg;
}

/* Does a "stage S node K map ..." switch need the fabric's radix? */
static bool has_map(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "map"))
			return true;
	return false;
}

int cmd_set(int argc, char **argv)
{
	unsigned char map[BFLY_MAX_RADIX];
	unsigned long long generation = 0;
	unsigned int id, radix = 2;
	struct fabrics fs = {};
	struct nl_msg *msg;
	struct nlattr *nest;
	int i, err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] set DEV stage S node K SETTING [stage S node K SETTING]...\n"
		 "       bflyctl [-j] set DEV all straight|cross\n"
		 "       bflyctl [-j] set DEV all map P0 ... Pk-1\n"
		 "       bflyctl [-j] set DEV settings B0 ... Bn-1\n"
		 "Set switches of a fabric in one change of its matrix: the listed nodes,\n"
		 "or every node. SETTING is straight or cross (2 x 2 switches), or\n"
		 "'map P0 ... Pk-1' for a k x k switch (kfly, flatfly): input port p goes\n"
		 "to output port Pp, '-' or 255 for none; k numbers, one-to-one.\n"
		 "An LCAN (cb-lcan, t-lcan) takes its whole settings: 'settings' and a\n"
		 "byte per connector of every switch, level by level, in the order\n"
		 "'bflyctl show DEV matrix' prints them ('-' or 255 for none).\n"
		 "Prints the new matrix generation.\n"))
		return 0;
	if (argc < 3)
		die("expected DEV and switches (see bflyctl set --help)");
	id = parse_dev(argv[0]);
	connect_family();
	if (!strcmp(argv[1], "all") || !strcmp(argv[1], "settings") || has_map(argc, argv)) {
		read_fabrics(&fs, true, id, 0);
		if (fs.n != 1)
			die("bfly%u: no such fabric", id);
		radix = fs.v[0].radix;
		if (radix < 2 || radix > BFLY_MAX_RADIX)
			die("%s: the kernel says radix %u", fs.v[0].dev, radix);
		if (fs.v[0].up && strcmp(argv[1], "settings"))
			die(LCAN_SET_WHY, fs.v[0].dev, fs.v[0].dev);
	}
	if (!strcmp(argv[1], "settings")) {
		msg = set_lcan(&fs.v[0], argc - 2, argv + 2);
	} else if (!strcmp(argv[1], "all")) {
		msg = set_all(&fs.v[0], argc - 2, argv + 2);
	} else {
		msg = new_msg(BFLY_CMD_SWITCH_SET, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		for (i = 1; i < argc;) {
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
			if (!strcmp(argv[i + 4], "map")) {
				i += 5;
				parse_map(argc, argv, &i, radix, map);
				put_or_die(nla_put(msg, BFLY_A_SWITCH_MAP, radix, map));
			} else {
				put_or_die(nla_put_u32(msg, BFLY_A_SWITCH_STATE,
						       parse_state(argv[i + 4])));
				i += 5;
			}
			nla_nest_end(msg, nest);
		}
	}
	fabrics_free(&fs);
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
