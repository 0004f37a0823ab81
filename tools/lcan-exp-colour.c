// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: every permutation in one cycle on a CB-LCAN with
 * d <= u, by recursive edge colouring (the one-cycle experiment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcan-exp.h"

/*
 * Every permutation in one cycle on a CB-LCAN with d <= u, by recursive
 * edge colouring (not one of the library's strategies): the messages that
 * go on up from level i are the edges of a bipartite multigraph between
 * the level-i switch each crosses going up and the one it crosses coming
 * down. A switch has d downers, so at most d edges meet it on either side
 * and u colours suffice (Koenig). Colour k is the message's upper at level
 * i; its switches of level i + 1, up and down, are those upper k of its
 * two switches reaches, and they meet at its LCA level.
 */
struct colouring {
	u32 u;
	s32 *at[2];	/* [side][switch * u + colour]: the edge there, or -1 */
	u32 *end[2];	/* [side][edge]: its switch on that side */
	u32 *colour;	/* [edge] */
	u32 *path;
};

static u32 free_colour(const struct colouring *c, u32 side, u32 v)
{
	u32 k;

	for (k = 0; k < c->u; k++)
		if (c->at[side][(u64)v * c->u + k] < 0)
			return k;
	die("internal: no free colour at switch %u", v);
}

static void colour_set(struct colouring *c, u32 e, u32 k, s32 what)
{
	c->colour[e] = k;
	c->at[0][(u64)c->end[0][e] * c->u + k] = what;
	c->at[1][(u64)c->end[1][e] * c->u + k] = what;
}

/* Colour edge @e: colour a free at its left end, swapped free at its right. */
static void colour_add(struct colouring *c, u32 e)
{
	u32 a = free_colour(c, 0, c->end[0][e]), b = free_colour(c, 1, c->end[1][e]);
	u32 side = 1, v = c->end[1][e], k = a, len = 0, i;
	s32 f;

	/* the a-b path from the right end cannot reach the left one */
	while ((f = c->at[side][(u64)v * c->u + k]) >= 0) {
		c->path[len++] = f;
		side ^= 1;
		v = c->end[side][f];
		k = k == a ? b : a;
	}
	for (i = 0; i < len; i++)
		colour_set(c, c->path[i], c->colour[c->path[i]], -1);
	for (i = 0; i < len; i++)
		colour_set(c, c->path[i], c->colour[c->path[i]] == a ? b : a, c->path[i]);
	colour_set(c, e, a, e);
}

/* Route @dst in one cycle by colouring; check it as a routed set. */
static void route_colouring(struct net *n, const u32 *dst, struct result *res)
{
	const struct bfly_lcan *g = &n->g;
	struct bfly_lcan_msgset ms = {
		.src = n->src, .dst = dst, .count = g->ports, .strategy = BFLY_LCAN_OFFLINE,
		.max_cycles = 1, .cycle = n->cycle, .choices = n->choices,
	};
	struct colouring c = { .u = g->u };
	u32 i, m, side, *lca = xcalloc(g->ports, sizeof(u32));
	u32 widest = 0;

	for (i = 0; i < g->levels; i++)
		widest = max_t(u32, widest, g->switches[i]);
	for (side = 0; side < 2; side++) {
		c.at[side] = xcalloc((size_t)widest * g->u, sizeof(s32));
		c.end[side] = xcalloc(g->ports, sizeof(u32));
	}
	c.colour = xcalloc(g->ports, sizeof(u32));
	c.path = xcalloc(g->ports, sizeof(u32));
	/* the bound and lambda(M) from the library; the cycle is ours */
	if (bfly_lcan_msgset_route(g, &ms, n->work))
		die("routing: interrupted");
	memset(n->choices, 0, (size_t)g->ports * 2 * g->levels * sizeof(u32));
	for (m = 0; m < g->ports; m++) {
		lca[m] = bfly_lcan_lca_level(g, m, dst[m]);
		c.end[0][m] = m / g->d;
		c.end[1][m] = dst[m] / g->d;
		n->cycle[m] = 0;
	}
	for (i = 0; i + 1 < g->levels; i++) {
		for (side = 0; side < 2; side++)
			memset(c.at[side], 0xff, (size_t)g->switches[i] * g->u * sizeof(s32));
		for (m = 0; m < g->ports; m++)
			if (lca[m] > i)
				colour_add(&c, m);
		for (m = 0; m < g->ports; m++) {
			u32 to, downer;

			if (lca[m] <= i)
				continue;
			n->choices[(u64)m * 2 * g->levels + i] = c.colour[m];
			for (side = 0; side < 2; side++) {
				bfly_lcan_up(g, i, c.end[side][m], c.colour[m], &to, &downer);
				c.end[side][m] = to;
			}
		}
	}
	ms.cycles = 1;
	ms.routed = g->ports;
	net_verify(n, &ms);
	res->cycles = ms.cycles;
	res->bound = ms.bound;
	res->lambda = (double)ms.lambda_load / ms.lambda_cap;
	for (side = 0; side < 2; side++) {
		free(c.at[side]);
		free(c.end[side]);
	}
	free(c.colour);
	free(c.path);
	free(lca);
}

void exp_one_cycle(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct row r[2 + PERM_STRUCTURED];
	u32 rows = 0, s, i;

	memset(r, 0, sizeof(r));
	for (s = 0; s < 2; s++) {
		u64 rng = stream_seed(o->seed, s ? "worst" : "random");
		struct result res;

		if (s && n->g.levels < 2)
			continue;
		snprintf(r[rows].name, sizeof(r[rows].name), "%s", s ? "worst" : "random");
		r[rows].mode = "bi";
		r[rows].worst = s;
		for (i = 0; i < o->runs; i++) {
			if (s)
				perm_worst(n, dst, &rng);
			else
				perm_random(dst, n->g.ports, &rng);
			route_colouring(n, dst, &res);
			row_add(&r[rows], &res);
		}
		rows++;
	}
	for (i = 0; i < PERM_STRUCTURED; i++) {
		struct result res;

		if (!perm_structured(n, i, dst, r[rows].name, sizeof(r[rows].name)))
			continue;
		r[rows].mode = "bi";
		r[rows].worst = n->g.levels > 1 && in_worst_set(n, dst);
		r[rows].cycles.exact = true;
		route_colouring(n, dst, &res);
		row_add(&r[rows++], &res);
	}
	report_rows(rep, "one-cycle",
		    "one cycle by recursive edge colouring (global knowledge; not a library strategy)",
		    r, rows);
	free(dst);
}
