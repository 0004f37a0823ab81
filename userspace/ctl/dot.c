// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl: a 2 x 2 fabric as a Graphviz picture (DOT, or SVG through
 * Graphviz's neato): the switches of every node stage with their states,
 * the wiring between stages as the algorithm library gives it
 * (kmod/lib/wiring.c), each packet's path through the settings in its own
 * colour, stuck nodes and broken links marked, conflicts marked, link loads
 * as line widths. Every node has a fixed position, so a fabric of
 * thousands of nodes renders at once (neato -n2); a window of node stages
 * keeps a large one readable.
 */
#include <errno.h>
#include <limits.h>
#include <sys/wait.h>

#include "lib/topology.h"
#include "lib/wiring.h"

#include "bflyctl.h"

/* Points between node stages and between rows of nodes */
#define DOT_DX 90
#define DOT_DY_SMALL 56
#define DOT_DY_LARGE 14
/* Above this many ports nodes are drawn small and without labels */
#define DOT_LABELS_MAX 64

/* The state node @k of node stage @s routes with: a stuck one's, else its bit */
static unsigned int node_state(const struct fabric *f, const struct dot_view *v,
			       unsigned int s, unsigned int k)
{
	int st = stuck_state(f, s, k);

	if (st >= 0)
		return st;
	if (v->matrix)
		return (v->matrix[((unsigned long long)s * f->nodes_per_stage + k) / 64] >>
			(((unsigned long long)s * f->nodes_per_stage + k) % 64)) & 1;
	return matrix_bit(f, s, k);
}

static bool broken(const struct fabric *f, unsigned int s, unsigned int pos)
{
	unsigned int j;

	for (j = 0; j < f->nfaults; j++)
		if (f->faults[j].kind == BFLY_FAULT_LINK && f->faults[j].stage == s &&
		    f->faults[j].index == pos)
			return true;
	return false;
}

static bool in_conflict(const struct dot_view *v, unsigned int s, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < v->nconflicts; j++)
		if (v->conflicts[j].stage == s && v->conflicts[j].node == k)
			return true;
	return false;
}

/* Packet @i's colour: hues around the circle, as Graphviz reads "H S V" */
static void colour(FILE *out, unsigned int i, unsigned int ports)
{
	fprintf(out, "\"%.3f 0.85 0.80\"", (double)i / ports);
}

/*
 * Each link's packet: @carry[s * N + pos], the input whose packet leaves
 * node stage @s on link position @pos, following the settings from every
 * input (a broken link loses its packet: UINT_MAX after it).
 */
static void trace_packets(const struct fabric *f, const struct dot_view *v,
			  const struct bfly_geometry *geo, unsigned int *carry)
{
	unsigned int n = f->ports, *at = xcalloc(n, sizeof(*at)), s, i;

	for (i = 0; i < n; i++)
		at[i] = i;	/* input position of packet i at the current stage */
	for (s = 0; s < f->node_stages; s++) {
		for (i = 0; i < n; i++) {
			unsigned int p = at[i], out;

			if (p == UINT_MAX)
				continue;
			out = (p & ~1U) | ((p & 1) ^ node_state(f, v, s, p / 2));
			carry[(unsigned long long)s * n + out] = i;
			if (broken(f, s, out))
				at[i] = UINT_MAX;
			else if (s + 1 < f->node_stages)
				at[i] = bfly_wiring_link(geo, s, out);
		}
	}
	free(at);
}

/* The picture of @f as DOT on @out */
static void dot_write(FILE *out, const struct fabric *f, const struct dot_view *v,
		      const struct bfly_geometry *geo)
{
	unsigned int n = f->ports, first = v->first, last = v->last, s, k, p, maxload = 0;
	unsigned long long links = (unsigned long long)f->node_stages * n;
	unsigned int *carry = xcalloc(links, sizeof(*carry));
	bool small = n <= DOT_LABELS_MAX, loads = f->ll && f->ll_got == f->ll_entries;
	int dy = small ? DOT_DY_SMALL : DOT_DY_LARGE;

	for (p = 0; p < links; p++)
		carry[p] = UINT_MAX;
	trace_packets(f, v, geo, carry);
	for (p = 0; loads && p < links; p++)
		maxload = f->ll[p] > maxload ? f->ll[p] : maxload;

	fprintf(out, "digraph \"%s\" {\n", f->dev);
	fprintf(out, "  graph [splines=false, outputorder=edgesfirst, fontname=Helvetica,\n");
	fprintf(out, "         labelloc=t,\n");
	fprintf(out, "         label=\"%s: %s, N = %u, node stages %u to %u of %u%s%s%s\"];\n",
		f->dev, topo_name(f->topology), n, first, last, f->node_stages,
		v->nconflicts ? ", conflicts in red" : "",
		f->nfaults ? ", faults in red" : "", loads ? ", line width = link load" : "");
	fprintf(out, "  node [shape=box, fixedsize=true, fontname=Helvetica, fontsize=11, %s];\n",
		small ? "width=0.45, height=0.6" : "width=0.12, height=0.16, label=\"\"");
	fprintf(out, "  edge [arrowhead=none, penwidth=1.4];\n");

	/* terminals: inputs before the first node stage, outputs after the last */
	for (p = 0; p < n && first == 0; p++)
		fprintf(out, "  in%u [shape=plaintext, %slabel=\"%u\", pos=\"0,%d!\"];\n", p,
			small ? "" : "fontsize=8, width=0.2, ", p, -(int)(p * dy / 2 + dy / 4));
	for (p = 0; p < n && last + 1 == f->node_stages; p++)
		fprintf(out, "  out%u [shape=plaintext, %slabel=\"%u\", pos=\"%u,%d!\"];\n", p,
			small ? "" : "fontsize=8, width=0.2, ", p, (last - first + 2) * DOT_DX,
			-(int)(p * dy / 2 + dy / 4));

	/* nodes: their state; stuck ones doubled and red, conflicts red and bold */
	for (s = first; s <= last; s++)
		for (k = 0; k < f->nodes_per_stage; k++) {
			int st = stuck_state(f, s, k);

			fprintf(out, "  s%un%u [pos=\"%u,%d!\"", s, k, (s - first + 1) * DOT_DX,
				-(int)(k * dy + dy / 2));
			if (small)
				fprintf(out, ", label=\"%s\"", node_state(f, v, s, k) ? "X" : "=");
			if (st >= 0)
				fprintf(out, ", peripheries=2, color=red, tooltip=\"stuck %s\"",
					st ? "cross" : "straight");
			if (in_conflict(v, s, k))
				fprintf(out, ", color=red, penwidth=3, style=filled, %s",
					"fillcolor=\"#ffd0d0\"");
			fprintf(out, "];\n");
		}

	/* links: into the first stage, between stages, out of the last */
	for (p = 0; p < n && first == 0; p++) {
		fprintf(out, "  in%u -> s0n%u:%s [color=", p, p / 2, p & 1 ? "sw" : "nw");
		colour(out, p, n);
		fprintf(out, "];\n");
	}
	for (s = first; s <= last; s++)
		for (p = 0; p < n; p++) {
			unsigned long long l = (unsigned long long)s * n + p;
			bool lost = broken(f, s, p);
			unsigned int q;

			if (s == last && s + 1 != f->node_stages)
				continue;
			fprintf(out, "  s%un%u:%s -> ", s, p / 2, p & 1 ? "se" : "ne");
			if (s + 1 == f->node_stages) {
				fprintf(out, "out%u [", p);
			} else {
				q = bfly_wiring_link(geo, s, p);
				fprintf(out, "s%un%u:%s [", s + 1, q / 2, q & 1 ? "sw" : "nw");
			}
			if (lost) {
				fprintf(out, "color=red, style=dashed, tooltip=\"broken link\"");
			} else if (carry[l] != UINT_MAX) {
				fprintf(out, "color=");
				colour(out, carry[l], n);
				if (v->deflected && v->deflected[carry[l]])
					fprintf(out, ", style=dashed");
			} else {
				fprintf(out, "color=gray");
			}
			if (loads)
				fprintf(out, ", penwidth=%.2f, tooltip=\"load %u\"",
					0.5 + 5.0 * f->ll[l] / (maxload ? maxload : 1), f->ll[l]);
			fprintf(out, "];\n");
		}
	fprintf(out, "}\n");
	free(carry);
}

/* A fabric of 2 x 2 nodes set by a bit matrix, wired by the library */
bool picture_fabric(const struct fabric *f)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(f->topology);

	return ops && bfly_topology_2x2(ops) && !f->port_maps && !f->up;
}

/* A filled cell's colour: white for @t 0, to red for 1 and above */
void picture_heat(FILE *out, double t)
{
	fprintf(out, "\"0.000 %.3f 1.000\"", 0.85 * (t > 1 ? 1 : t));
}

/* Where a picture goes: standard output, or neato's input for SVG */
FILE *picture_open(bool svg)
{
	FILE *out;

	fflush(stdout);
	if (!svg)
		return stdout;
	out = popen("neato -n2 -Tsvg", "w");
	if (!out)
		die("format svg: cannot run neato: %s", strerror(errno));
	return out;
}

/* The picture written: for SVG, neato has rendered it (or the program dies) */
void picture_close(FILE *out, bool svg)
{
	int status;

	fflush(out);
	if (!svg)
		return;
	status = pclose(out);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		die("format svg needs Graphviz's neato (Debian package graphviz)");
	if (WEXITSTATUS(status))
		die("neato failed (exit %d)", WEXITSTATUS(status));
}

/*
 * Write @f as DOT (@svg false) or as SVG through "neato -n2 -Tsvg" to
 * standard output. Dies with a message on a fabric that has no 2 x 2
 * picture, a bad stage window or a missing Graphviz.
 */
void dot_fabric(const struct fabric *f, const struct dot_view *v, bool svg)
{
	struct bfly_geometry geo;
	struct dot_view view = *v;
	const char *why = NULL;
	FILE *out;

	if (!picture_fabric(f))
		die("%s: pictures show 2 x 2 fabrics (butterfly, bfly2, bfly-twice, benes)",
		    f->dev);
	if (!f->matrix || f->matrix_got != f->matrix_bytes)
		die("%s: the switch matrix did not arrive whole", f->dev);
	if (bfly_geometry_init(&geo, f->topology, 2, f->ports, &why))
		die("%s: %s", f->dev, why ? why : "no geometry");
	if (!view.stages_set) {
		view.first = 0;
		view.last = f->node_stages - 1;
	}
	if (view.first > view.last || view.last >= f->node_stages)
		die("stages %u-%u: %s has node stages 0 to %u", view.first, view.last, f->dev,
		    f->node_stages - 1);
	out = picture_open(svg);
	dot_write(out, f, &view, &geo);
	picture_close(out, svg);
}

/* "dot" or "svg" into *@svg (anything else is an error); returns true */
bool parse_format(const char *s, bool *svg)
{
	if (!strcmp(s, "dot"))
		*svg = false;
	else if (!strcmp(s, "svg"))
		*svg = true;
	else
		die("format '%s': expected dot or svg", s);
	return true;
}

/* "A-B" (or "A") into a stage window */
void parse_stages(const char *s, struct dot_view *v)
{
	char *end;

	errno = 0;
	v->first = strtoul(s, &end, 10);
	v->last = v->first;
	if (*end == '-')
		v->last = strtoul(end + 1, &end, 10);
	if (errno || *end || end == s || s[0] == '-')
		die("stages '%s': expected FIRST-LAST, node stage numbers", s);
	v->stages_set = true;
}
