// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl chart: an all-to-all's rounds as a Graphviz chart, rounds down,
 * node stages across, each cell the internal conflicts the device reports
 * for that round at that node stage (one dry-run route per round), from
 * white (none) to red (the most).
 */
#include <limits.h>

#include "lib/schedule.h"
#include "lib/topology.h"

#include "bflyctl.h"

/* Ports (and so rounds) a chart shows at most */
#define CHART_MAX 64
/* Points between columns and between rows */
#define CHART_DX 46
#define CHART_DY 22

static const char * const latin_names[] = { "rls", "lls", "xor" };
static const enum bfly_latin latins[] = { BFLY_LATIN_RLS, BFLY_LATIN_LLS, BFLY_LATIN_XOR };

/*
 * Round @k's conflicts at each node stage, as the device reports them for
 * a dry run of the round's labels (or its permutation where the family
 * routes permutations); *@partial when the report listed only the first.
 */
static void round_conflicts(unsigned int id, const struct bfly_sched *sched, unsigned int k,
			    unsigned int *per_stage, bool *partial)
{
	const struct bfly_geometry *geo = &sched->geo;
	unsigned long long *labels = xcalloc(geo->ports, sizeof(*labels));
	unsigned int *dest = xcalloc(geo->ports, sizeof(*dest));
	bool use_labels = bfly_sched_has_labels(geo);
	struct route_reply r;
	unsigned int i;

	if (bfly_sched_round(sched, k, dest, use_labels ? (u64 *)labels : NULL))
		die("round %u: the schedule has no such round", k);
	route_send(id, use_labels ? (void *)labels : (void *)dest, geo->ports, use_labels,
		   true, true, &r);
	for (i = 0; i < r.n; i++)
		if (r.conflicts[i][0] < geo->node_stages)
			per_stage[r.conflicts[i][0]]++;
	*partial |= r.n < r.count;
	free(labels);
	free(dest);
}

/* A heading: "WHAT N" (or "WHAT" for @n UINT_MAX) at (@x, @y) */
static void text_node(FILE *out, const char *what, unsigned int n, int x, int y)
{
	fprintf(out, "  \"%s%u\" [shape=plaintext, style=\"\", label=\"%s", what, n, what);
	if (n != UINT_MAX)
		fprintf(out, " %u", n);
	fprintf(out, "\", pos=\"%d,%d!\"];\n", x, y);
}

/* The Latin square named @s */
static unsigned int parse_latin(const char *s)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, latin_names[i]))
			return i;
	die("latin '%s': expected rls, lls or xor", s);
}

int cmd_chart(int argc, char **argv)
{
	unsigned int id, k, s, max = 0, latin = 0, *grid, *total;
	struct bfly_geometry geo;
	struct bfly_sched sched;
	struct fabrics fs = {};
	const struct fabric *f;
	const char *why = NULL;
	bool svg = false, picture = false, partial = false;
	FILE *out;
	int a;

	if (help(argc, argv,
		 "usage: bflyctl chart DEV [latin rls|lls|xor] format dot|svg\n"
		 "Chart an all-to-all on a 2 x 2 fabric of at most 64 ports: one row per\n"
		 "round, one column per node stage, each cell the internal conflicts the\n"
		 "device reports for a dry run of that round (its labels, or its\n"
		 "permutation on benes), white for none to red for the most, and the\n"
		 "round's total. The fabric's settings do not change. The Latin square\n"
		 "is the schedule's (default rls).\n"))
		return 0;
	if (argc < 1)
		die("missing DEV (see bflyctl chart --help)");
	id = parse_dev(argv[0]);
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "format") && a + 1 < argc)
			picture = parse_format(argv[++a], &svg);
		else if (!strcmp(argv[a], "latin") && a + 1 < argc)
			latin = parse_latin(argv[++a]);
		else
			die("unexpected argument '%s' (see bflyctl chart --help)", argv[a]);
	}
	if (!picture)
		die("missing format dot or format svg (see bflyctl chart --help)");
	if (json)
		die("format: a picture has no JSON form (drop -j)");
	connect_family();
	read_fabrics(&fs, true, id, 0);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];
	if (!picture_fabric(f) || bfly_geometry_init(&geo, f->topology, 2, f->ports, &why))
		die("%s: charts show 2 x 2 fabrics (butterfly, bfly2, bfly-twice, benes)", f->dev);
	if (f->ports > CHART_MAX)
		die("%s: %u ports: a chart shows at most %u", f->dev, f->ports, CHART_MAX);
	if (bfly_sched_init(&sched, &geo, latins[latin], NULL, NULL))
		die("%s: no %s schedule", f->dev, latin_names[latin]);

	grid = xcalloc((size_t)f->ports * f->node_stages, sizeof(*grid));
	total = xcalloc(f->ports, sizeof(*total));
	for (k = 0; k < f->ports; k++) {
		round_conflicts(id, &sched, k, grid + (size_t)k * f->node_stages, &partial);
		for (s = 0; s < f->node_stages; s++) {
			total[k] += grid[(size_t)k * f->node_stages + s];
			if (grid[(size_t)k * f->node_stages + s] > max)
				max = grid[(size_t)k * f->node_stages + s];
		}
	}

	out = picture_open(svg);
	fprintf(out, "digraph \"%s-chart\" {\n", f->dev);
	fprintf(out, "  graph [fontname=Helvetica, labelloc=t, %s=\"%s: %s, N = %u, %s %s%s\"];\n",
		"label", f->dev, topo_name(f->topology), f->ports, latin_names[latin],
		"rounds: internal conflicts per round and node stage",
		partial ? " (the first 64 of a round)" : "");
	fprintf(out, "  node [shape=box, fixedsize=true, width=0.6, height=0.3, %s];\n",
		"fontname=Helvetica, fontsize=10, style=filled, color=gray");
	for (s = 0; s < f->node_stages; s++)
		text_node(out, "stage", s, (s + 1) * CHART_DX, 0);
	text_node(out, "total", UINT_MAX, (f->node_stages + 1) * CHART_DX + 8, 0);
	for (k = 0; k < f->ports; k++) {
		int y = -(int)((k + 1) * CHART_DY);

		text_node(out, "round", k, 0, y);
		for (s = 0; s < f->node_stages; s++) {
			unsigned int v = grid[(size_t)k * f->node_stages + s];

			fprintf(out, "  c%us%u [label=\"%u\", pos=\"%u,%d!\", fillcolor=", k, s,
				v, (s + 1) * CHART_DX, y);
			picture_heat(out, max ? (double)v / max : 0);
			fprintf(out, "];\n");
		}
		fprintf(out, "  t%u [shape=plaintext, style=\"\", label=\"%u\", pos=\"%u,%d!\"];\n",
			k, total[k], (f->node_stages + 1) * CHART_DX + 8, y);
	}
	fprintf(out, "}\n");
	picture_close(out, svg);
	free(grid);
	free(total);
	fabrics_free(&fs);
	return 0;
}
