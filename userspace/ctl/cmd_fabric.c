// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl list, show, new, del and stats.
 */
#include <math.h>

#include "bflyctl.h"

int cmd_list(int argc, char **argv)
{
	struct fabrics fs = {};
	size_t i;

	if (help(argc, argv,
		 "usage: bflyctl [-j] list\n"
		 "List every fabric: id, device, topology, ports, node stages, switches,\n"
		 "matrix generation and routes computed.\n"))
		return 0;
	if (argc)
		die("unexpected argument '%s' (see bflyctl list --help)", argv[0]);
	connect_family();
	read_fabrics(&fs, false, 0, 0);
	if (json) {
		jopen('[');
		for (i = 0; i < fs.n; i++)
			json_fabric(&fs.v[i], false);
		jclose(']');
	} else {
		if (fs.n)
			printf("%-4s %-10s %-11s %8s %7s %10s %6s %8s\n", "ID", "DEV",
			       "TOPOLOGY", "PORTS", "STAGES", "SWITCHES", "GEN", "ROUTES");
		for (i = 0; i < fs.n; i++) {
			const struct fabric *f = &fs.v[i];

			printf("%-4u %-10s %-11s %8u %7u %10llu %6llu %8llu\n", f->id,
			       f->dev, topo_name(f->topology), f->ports,
			       f->node_stages, f->switches, f->generation,
			       f->stats[BFLY_A_STATS_ROUTES]);
		}
	}
	fabrics_free(&fs);
	return 0;
}

/*
 * A multibutterfly's d and seed, and the expansion measured at creation
 * next to Fact 1: a random splitter has (alpha, beta)-expansion when
 * 2 alpha beta < 1 and d > beta + 1 + (beta + 1 + ln(2 beta)) /
 * ln(1 / (2 alpha beta)).
 */
static void print_mbfly(const struct fabric *f)
{
	double beta = f->exp_beta / 65536.0, alpha = (double)f->exp_kmax / f->exp_inputs;
	double ab = 2 * alpha * beta;

	printf("  multibutterfly   d = %u, seed %llu\n", f->mbfly_d, f->seed);
	printf("  expansion        beta %.4f at alpha %u/%u (column %u, %s, %llu subsets)\n",
	       beta, f->exp_kmax, f->exp_inputs, f->exp_col,
	       f->exp_exhaustive ? "exhaustive" : "sampled", f->exp_subsets);
	if (ab < 1 && beta > 0)
		printf("  Fact 1           2 alpha beta = %.4f < 1; d > %.2f wanted: %s\n", ab,
		       beta + 1 + (beta + 1 + log(2 * beta)) / log(1 / ab),
		       f->mbfly_d > beta + 1 + (beta + 1 + log(2 * beta)) / log(1 / ab) ?
		       "met" : "not met");
	else
		printf("  Fact 1           2 alpha beta = %.4f >= 1: not met\n", ab);
}

int cmd_show(int argc, char **argv)
{
	bool want_matrix = false, want_loads = false, picture = false, svg = false;
	struct dot_view view = {};
	struct fabrics fs = {};
	const struct fabric *f;
	unsigned int id, want = 0, s, p, max, j;
	int i;

	if (help(argc, argv,
		 "usage: bflyctl [-j] show DEV [matrix] [loads] [format dot|svg] [stages A-B]\n"
		 "Describe one fabric: topology, ports, node stages, switches, radix and\n"
		 "figures (degree, diameter, routers, channels, bisection, port-map bytes),\n"
		 "matrix generation, counters and injected faults. For N <= 32 the switch\n"
		 "states are drawn (= straight, X cross; a stuck node as {=} or {X}, the\n"
		 "state it is stuck in; '/' after a node for a broken output link); on kfly\n"
		 "and flatfly the port maps are listed instead, one line per node stage.\n"
		 "'matrix' adds the switch matrix to JSON output (one string of 0/1 per\n"
		 "node stage; on kfly and flatfly \"port_maps\", per stage and switch an\n"
		 "array of output ports, null for none) and draws it for any N; 'loads'\n"
		 "adds the link loads following the matrix with a packet at every input.\n"
		 "'format dot' prints a 2 x 2 fabric as a Graphviz graph instead, 'format\n"
		 "svg' as the SVG Graphviz's neato renders of it: every node stage with its\n"
		 "switch states, the wiring, each packet's path through the settings in\n"
		 "its own colour, stuck nodes and broken links in red, and with 'loads'\n"
		 "the link loads as line widths; 'stages A-B' draws node stages A to B.\n"))
		return 0;
	if (argc < 1)
		die("missing DEV (see bflyctl show --help)");
	id = parse_dev(argv[0]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "matrix"))
			want_matrix = true;
		else if (!strcmp(argv[i], "loads"))
			want_loads = true;
		else if (!strcmp(argv[i], "format") && i + 1 < argc)
			picture = parse_format(argv[++i], &svg);
		else if (!strcmp(argv[i], "stages") && i + 1 < argc)
			parse_stages(argv[++i], &view);
		else
			die("unexpected argument '%s' (see bflyctl show --help)", argv[i]);
	}
	if (picture && json)
		die("format: a picture has no JSON form (drop -j)");
	if (view.stages_set && !picture)
		die("stages: only with format dot or svg");
	connect_family();
	/* The description first: its size decides whether to draw. */
	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	if (want_matrix || picture || (!json && fs.v[0].ports <= 32))
		want |= BFLY_WANT_MATRIX;
	if (want_loads)
		want |= BFLY_WANT_LINK_LOAD;
	if (want)
		read_fabrics(&fs, true, id, want);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];

	if (picture) {
		dot_fabric(f, &view, svg);
		fabrics_free(&fs);
		return 0;
	}
	if (json) {
		json_fabric(f, true);
		fabrics_free(&fs);
		return 0;
	}
	printf("%s: %s fabric, id %u\n", f->dev, topo_name(f->topology), f->id);
	if (f->up)
		printf("  ports            %u (d = %u downers, u = %u uppers, l = %u levels)\n",
		       f->ports, f->radix, f->up, f->node_stages);
	else if (topo_kxk(f->topology))
		printf("  ports            %u (k = %u, n = %u)\n", f->ports, f->radix,
		       radix_exponent(f->ports, f->radix));
	else
		printf("  ports            %u (n = %u)\n", f->ports, f->ports_log2);
	if (f->mbfly_d)
		print_mbfly(f);
	printf("  node stages      %u\n", f->node_stages);
	printf("  nodes per stage  %u\n", f->nodes_per_stage);
	printf("  switches         %llu\n", f->switches);
	if (f->has_figures)
		print_figures(f);
	printf("  generation       %llu\n", f->generation);
	printf("  routes %llu, refused %llu, conflicts %llu, matrix writes %llu, batches %llu\n",
	       f->stats[BFLY_A_STATS_ROUTES], f->stats[BFLY_A_STATS_REFUSALS],
	       f->stats[BFLY_A_STATS_CONFLICTS], f->stats[BFLY_A_STATS_MATRIX_WRITES],
	       f->stats[BFLY_A_STATS_BATCHES]);
	if (f->has_mll)
		printf("  max link load    %u\n", f->mll);
	if (f->has_faults) {
		printf("  faults           %u\n", f->nfaults);
		for (j = 0; j < f->nfaults; j++)
			print_fault("    ", &f->faults[j]);
	}
	if (f->matrix && f->matrix_got == f->matrix_bytes) {
		if (f->port_maps)
			print_port_maps(f);
		else
			draw_fabric(f);
	}
	if (f->ll && f->ll_got == f->ll_entries) {
		printf("\n  link loads after each node stage (max per stage):\n");
		for (s = 0; s < f->node_stages; s++) {
			max = 0;
			for (p = 0; p < f->ports; p++)
				if (f->ll[(unsigned long long)s * f->ports + p] > max)
					max = f->ll[(unsigned long long)s * f->ports + p];
			printf("  stage %3u: %u\n", s, max);
		}
	} else if (want_loads && f->up) {
		printf("\n  (an LCAN's loads come from message sets: bflyctl msgset)\n");
	} else if (want_loads && f->ll_entries && !f->ll) {
		printf("\n  (per-link loads are not sent for fabrics this large)\n");
	}
	fabrics_free(&fs);
	return 0;
}

int cmd_new(int argc, char **argv)
{
	const char *topo_s, *ports_s;
	struct fabrics fs = {};
	unsigned int ports, radix = 0, up = 0, d = 0;
	unsigned long long seed = 0;
	bool has_seed = false;
	struct nl_msg *msg;
	int topo, err, a;

	if (help(argc, argv,
		 "usage: bflyctl [-j] new TOPOLOGY PORTS [radix K] [up U] [d D] [seed S]\n"
		 "       bflyctl [-j] new topology TOPOLOGY ports PORTS [radix K] [up U]\n"
		 "                [d D] [seed S]\n"
		 "Create a fabric. TOPOLOGY is butterfly, bfly2, bfly-twice, benes (2 x 2\n"
		 "switches; PORTS a power of two from 2 to 2^20), kfly (the k-ary n-fly,\n"
		 "K x K switches; PORTS a power K^n of K up to 2^20) or flatfly (the\n"
		 "flattened butterfly of that kfly, n >= 2). K is 2 to 64, 2 without\n"
		 "radix. cb-lcan, t-lcan and fattree are least common ancestor networks\n"
		 "of switches with K = d downers and U = u uppers (1 to 64): PORTS is d^l\n"
		 "(cb-lcan, fattree) or u (d/u)^l (t-lcan, u < d dividing d). mbfly is\n"
		 "the (N, d)-multibutterfly: PORTS a power of two, D 1 to 64 (default 8),\n"
		 "S its wiring's seed (absent or 0: the device picks one; show reports it).\n"
		 "Prints the new device's name (/dev/<name> exists at once), or\n"
		 "with -j its description.\n"))
		return 0;
	if (argc >= 4 && !strcmp(argv[0], "topology") && !strcmp(argv[2], "ports")) {
		topo_s = argv[1];
		ports_s = argv[3];
		a = 4;
	} else if (argc >= 2) {
		topo_s = argv[0];
		ports_s = argv[1];
		a = 2;
	} else {
		die("expected TOPOLOGY PORTS (see bflyctl new --help)");
	}
	if (a < argc && !strcmp(argv[a], "radix")) {
		if (a + 1 == argc)
			die("radix: missing K, 2 .. %u (see bflyctl new --help)", BFLY_MAX_RADIX);
		radix = parse_range("radix", argv[a + 1], 2, BFLY_MAX_RADIX);
		a += 2;
	}
	if (a < argc && !strcmp(argv[a], "up")) {
		if (a + 1 == argc)
			die("up: missing U, 1 .. %u (see bflyctl new --help)", BFLY_MAX_RADIX);
		up = parse_range("up", argv[a + 1], 1, BFLY_MAX_RADIX);
		a += 2;
	}
	if (a < argc && !strcmp(argv[a], "d")) {
		if (a + 1 == argc)
			die("d: missing D, 1 .. 64 (see bflyctl new --help)");
		d = parse_range("d", argv[a + 1], 1, 64);
		a += 2;
	}
	if (a < argc && !strcmp(argv[a], "seed")) {
		if (a + 1 == argc)
			die("seed: missing S (see bflyctl new --help)");
		seed = parse_u64("seed", argv[a + 1]);
		has_seed = true;
		a += 2;
	}
	if (a != argc)
		die("unexpected argument '%s' (see bflyctl new --help)", argv[a]);
	topo = lookup(bfly_topo_names, bfly_topo_names_count, topo_s);
	if (topo < 0)
		die("unknown topology '%s' (%s)", topo_s, topo_list());
	ports = parse_u32("ports", ports_s);
	connect_family();
	msg = new_msg(BFLY_CMD_FABRIC_NEW, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_TOPOLOGY, topo));
	put_or_die(nla_put_u32(msg, BFLY_A_PORTS, ports));
	/* Absent, the kernel takes 2: older kernels know no radix. */
	if (radix)
		put_or_die(nla_put_u32(msg, BFLY_A_RADIX, radix));
	if (up)
		put_or_die(nla_put_u32(msg, BFLY_A_UP, up));
	if (d)
		put_or_die(nla_put_u32(msg, BFLY_A_MBFLY_D, d));
	if (has_seed)
		put_or_die(nla_put_u64(msg, BFLY_A_SEED, seed));
	err = transact(msg, parse_fabric, &fs);
	if (err)
		die_kernel(err);
	if (fs.n != 1)
		die("no reply from the kernel");
	if (json)
		json_fabric(&fs.v[0], false);
	else
		printf("%s\n", fs.v[0].dev);
	fabrics_free(&fs);
	return 0;
}

int cmd_del(int argc, char **argv)
{
	struct nl_msg *msg;
	unsigned int id;
	int err;

	if (help(argc, argv,
		 "usage: bflyctl del DEV\n"
		 "Delete a fabric. Its device node goes away at once; programs that\n"
		 "still have it open get ENODEV from then on.\n"))
		return 0;
	if (argc != 1)
		die("expected DEV (see bflyctl del --help)");
	id = parse_dev(argv[0]);
	connect_family();
	msg = new_msg(BFLY_CMD_FABRIC_DEL, 0);
	put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
	err = transact(msg, NULL, NULL);
	if (err)
		die_kernel(err);
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	struct fabrics fs = {};
	struct nl_msg *msg;
	unsigned int id;
	int err;

	if (help(argc, argv,
		 "usage: bflyctl [-j] stats DEV [reset]\n"
		 "Print a fabric's counters (routes, refusals, conflicts, matrix writes,\n"
		 "batches), or zero them with 'reset'.\n"))
		return 0;
	if (argc < 1 || argc > 2 || (argc == 2 && strcmp(argv[1], "reset")))
		die("expected DEV [reset] (see bflyctl stats --help)");
	id = parse_dev(argv[0]);
	connect_family();
	if (argc == 2) {
		msg = new_msg(BFLY_CMD_STATS_RESET, 0);
		put_or_die(nla_put_u32(msg, BFLY_A_ID, id));
		err = transact(msg, NULL, NULL);
		if (err)
			die_kernel(err);
		return 0;
	}
	read_fabrics(&fs, true, id, 0);
	if (json) {
		jopen('{');
		jkn("id", id);
		jkn("routes", fs.v[0].stats[BFLY_A_STATS_ROUTES]);
		jkn("refusals", fs.v[0].stats[BFLY_A_STATS_REFUSALS]);
		jkn("conflicts", fs.v[0].stats[BFLY_A_STATS_CONFLICTS]);
		jkn("matrix_writes", fs.v[0].stats[BFLY_A_STATS_MATRIX_WRITES]);
		jkn("batches", fs.v[0].stats[BFLY_A_STATS_BATCHES]);
		jclose('}');
	} else {
		printf("%s: routes %llu, refusals %llu, conflicts %llu, ", fs.v[0].dev,
		       fs.v[0].stats[BFLY_A_STATS_ROUTES],
		       fs.v[0].stats[BFLY_A_STATS_REFUSALS],
		       fs.v[0].stats[BFLY_A_STATS_CONFLICTS]);
		printf("matrix writes %llu, batches %llu\n",
		       fs.v[0].stats[BFLY_A_STATS_MATRIX_WRITES],
		       fs.v[0].stats[BFLY_A_STATS_BATCHES]);
	}
	fabrics_free(&fs);
	return 0;
}
