// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl msgset ... format: a routed message set's channel loads on an
 * LCAN as a Graphviz heat map. One row per channel level (the PEs' wires,
 * then each level's group bundles, or each level's uppers uni-directionally),
 * up and down as two panels; each cell one channel, as wide as the PEs it
 * serves, coloured by load / capacity from white (0) to red (lambda(M)).
 */
#include "lib/lcan.h"

#include "bflyctl.h"

/* PEs a heat map shows at most */
#define HEAT_MAX_PORTS 1024
/* A row's width in points, and a PE wire's cell at most */
#define HEAT_WIDTH 1536.0
#define HEAT_CELL_MAX 24.0
/* A cell's height and the distance between rows, in points */
#define HEAT_CELL_H 20
#define HEAT_DY 23
/* Cells this wide and more show their load / capacity */
#define HEAT_LABEL_MIN 24.0

/* A row's width: HEAT_CELL_MAX a PE, HEAT_WIDTH at most */
static double heat_width(const struct bfly_lcan *g)
{
	return g->ports < HEAT_WIDTH / HEAT_CELL_MAX ? g->ports * HEAT_CELL_MAX : HEAT_WIDTH;
}

/* The LCAN @f is, into @g; dies for another fabric or one too large */
void msgset_heat_shape(const struct fabric *f, struct bfly_lcan *g)
{
	const char *why = NULL;
	unsigned int kind;

	switch (f->topology) {
	case BFLY_TOPO_CB_LCAN:
		kind = BFLY_LCAN_CB;
		break;
	case BFLY_TOPO_T_LCAN:
		kind = BFLY_LCAN_TREE;
		break;
	case BFLY_TOPO_FATTREE:
		kind = BFLY_LCAN_FATTREE;
		break;
	default:
		die("%s: heat maps show LCANs (cb-lcan, t-lcan, fattree)", f->dev);
	}
	if (f->ports > HEAT_MAX_PORTS)
		die("%s: %u PEs: a heat map shows at most %u", f->dev, f->ports, HEAT_MAX_PORTS);
	if (bfly_lcan_init(g, kind, f->radix, f->up, f->ports, &why))
		die("%s: no LCAN of d = %u, u = %u, N = %u: %s", f->dev, f->radix, f->up,
		    f->ports, why ? why : "?");
}

/* A cell's fill: white for a load factor 0, to red for lambda(M) */
static void heat_colour(FILE *out, unsigned int load, unsigned int cap,
			const struct msgset_heat *h)
{
	double t = 0;

	if (h->lambda_load && cap)
		t = (double)load * h->lambda_cap / ((double)cap * h->lambda_load);
	picture_heat(out, t);
}

/* A heading at (@x, @y), named "h@n" */
static void heat_text(FILE *out, unsigned int n, double x, int y, const char *text)
{
	fprintf(out, "  h%u [shape=plaintext, style=\"\", fixedsize=false, ", n);
	fprintf(out, "label=\"%s\", pos=\"%.1f,%d!\"];\n", text, x, y);
}

/*
 * One row of @count channels from @first: cells side by side over the
 * row's width, each its load / capacity; @what names the row's channels in
 * the tooltips
 */
static void heat_row(FILE *out, const struct bfly_lcan *g, const struct msgset_heat *h,
		     unsigned int first, unsigned int count, int y, const char *what)
{
	double w = heat_width(g) / count;
	unsigned int k, c, cap;

	for (k = 0; k < count; k++) {
		c = first + k;
		cap = bfly_lcan_channel_cap(g, h->mode, c);
		fprintf(out, "  c%u [pos=\"%.1f,%d!\", width=%.3f, label=\"", c,
			w * k + w / 2, y, w / 72);
		if (w >= HEAT_LABEL_MIN)
			fprintf(out, "%u/%u", h->load[c], cap);
		fprintf(out, "\", tooltip=\"channel %u, %s %u: load %u, capacity %u\", fillcolor=",
			c, what, k, h->load[c], cap);
		heat_colour(out, h->load[c], cap, h);
		fprintf(out, "];\n");
	}
}

/*
 * A panel of rows from the top down: the highest level's channels first,
 * the PEs' wires last; the rows' first channels from @base. Returns the
 * y below the panel.
 */
static int heat_panel(FILE *out, const struct bfly_lcan *g, const struct msgset_heat *h,
		      unsigned int base, const char *dir, int y, unsigned int *text)
{
	unsigned int first[BFLY_LCAN_MAX_LEVELS + 1], count[BFLY_LCAN_MAX_LEVELS + 1];
	unsigned int rows = 0, i, r;
	bool uni = h->mode == BFLY_LCAN_UNIDIR;
	char what[64], head[96];

	/* row 0 the PEs' wires, row i + 1 level i's bundles (or uppers) */
	first[0] = base;
	count[rows++] = g->ports;
	for (i = 0; i < g->levels && (uni || i + 1 < g->levels); i++) {
		first[rows] = first[rows - 1] + count[rows - 1];
		count[rows++] = uni ? g->switches[i] * g->up[i] : g->groups[i];
	}
	snprintf(head, sizeof(head), "%s: load / capacity", dir);
	heat_text(out, (*text)++, heat_width(g) / 2, y, head);
	for (r = rows; r-- > 0; ) {
		y -= HEAT_DY;
		if (!r) {
			snprintf(what, sizeof(what), "PE wire %s of PE", dir);
			snprintf(head, sizeof(head), "PE wires");
		} else if (uni) {
			snprintf(what, sizeof(what), "level %u upper", r - 1);
			snprintf(head, sizeof(head), "level %u uppers", r - 1);
		} else {
			snprintf(what, sizeof(what), "level %u bundle %s of group", r - 1, dir);
			snprintf(head, sizeof(head), "level %u (cap %u)", r - 1,
				 bfly_lcan_channel_cap(g, h->mode, first[r]));
		}
		heat_text(out, (*text)++, -60, y, head);
		heat_row(out, g, h, first[r], count[r], y, what);
	}
	return y - HEAT_DY;
}

/* The heat map of @h on @f, as DOT, or SVG rendered by neato */
void msgset_heatmap(const struct fabric *f, const struct msgset_heat *h, bool svg)
{
	struct bfly_lcan g;
	unsigned int text = 0;
	FILE *out;
	int y = 0;

	msgset_heat_shape(f, &g);
	if (h->channels != bfly_lcan_channels(&g, h->mode))
		die("%s: the reply has %u loads, not the %llu channels of a %s set", f->dev,
		    h->channels, (unsigned long long)bfly_lcan_channels(&g, h->mode),
		    h->mode == BFLY_LCAN_UNIDIR ? "uni-directional" : "bi-directional");
	out = picture_open(svg);
	fprintf(out, "digraph \"%s-loads\" {\n", f->dev);
	fprintf(out, "  graph [fontname=Helvetica, labelloc=t, label=\"%s: %s(%u, %u), N = %u, ",
		f->dev, topo_name(f->topology), f->radix, f->up, f->ports);
	fprintf(out, "%s, %s %s, seed %llu: %u of %u messages in %llu cycles, ", h->pattern,
		h->mode == BFLY_LCAN_UNIDIR ? "unidir" : "bidir", h->strategy, h->seed,
		h->routed, h->messages, h->cycles);
	fprintf(out, "ceil(lambda) = %u (lambda = %u/%u); white 0 to red lambda\"];\n",
		h->bound, h->lambda_load, h->lambda_cap);
	fprintf(out, "  node [shape=box, fixedsize=true, height=%.3f, %s];\n",
		HEAT_CELL_H / 72.0,
		"fontname=Helvetica, fontsize=8, style=filled, color=gray, penwidth=0.5");
	if (h->mode == BFLY_LCAN_UNIDIR) {
		heat_panel(out, &g, h, 0, "up", y, &text);
	} else {
		y = heat_panel(out, &g, h, 0, "up", y, &text);
		heat_panel(out, &g, h, h->channels / 2, "down", y, &text);
	}
	fprintf(out, "}\n");
	picture_close(out, svg);
}
