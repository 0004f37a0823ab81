// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: conjecture (b), the same permutations on CB-LCAN(d,u)
 * and on its d-ary fat tree, compared one by one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lcan-exp.h"

/* Differences CB - fat tree kept in the histogram: -HIST .. HIST */
#define HIST 8

/* Per-permutation comparison of CB-LCAN(d,u) with its d-ary fat tree. */
struct cmp {
	struct sample cb;
	struct sample ft;
	struct sample cbb;
	struct sample ftb;
	u32 equal;
	u32 cb_more;
	u32 ft_more;
	int dmin;
	int dmax;
	double dsum;
	u32 hist[2 * HIST + 1];
};

static void cmp_run(struct net *cb, struct net *ft, const struct opts *o, bool worst,
		    struct cmp *c)
{
	u64 rng = stream_seed(o->seed, worst ? "worst" : "random");
	u64 route_seed = stream_seed(o->seed, "route");
	u32 *dst = xcalloc(cb->g.ports, sizeof(u32));
	u32 i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < o->runs; i++) {
		struct result a, b;
		int diff;

		if (worst)
			perm_worst(cb, dst, &rng);
		else
			perm_random(dst, cb->g.ports, &rng);
		net_route(cb, dst, BFLY_LCAN_BIDIR, o->strategy, route_seed + i, &a);
		net_route(ft, dst, BFLY_LCAN_BIDIR, o->strategy, route_seed + i, &b);
		if (a.bound != b.bound)
			die("compare: ceil(lambda) %u on the CB-LCAN, %u on the fat tree",
			    a.bound, b.bound);
		sample_add(&c->cb, a.cycles);
		sample_add(&c->ft, b.cycles);
		sample_add(&c->cbb, a.bound);
		sample_add(&c->ftb, b.bound);
		diff = (int)a.cycles - (int)b.cycles;
		c->equal += !diff;
		c->cb_more += diff > 0;
		c->ft_more += diff < 0;
		if (!i || diff < c->dmin)
			c->dmin = diff;
		if (!i || diff > c->dmax)
			c->dmax = diff;
		c->dsum += diff;
		c->hist[HIST + (diff < -HIST ? -HIST : diff > HIST ? HIST : diff)]++;
	}
	free(dst);
}

static struct json_object *json_cmp(const char *set, const struct cmp *c)
{
	struct json_object *j = json_object_new_object(), *h = json_object_new_object();
	char key[16];
	int i;

	json_object_object_add(j, "set", json_object_new_string(set));
	json_object_object_add(j, "runs", json_object_new_int64(c->cb.n));
	json_object_object_add(j, "cb_cycles", json_sample(&c->cb, true));
	json_object_object_add(j, "fattree_cycles", json_sample(&c->ft, true));
	json_object_object_add(j, "ceil_lambda", json_sample(&c->cbb, false));
	json_object_object_add(j, "equal", json_object_new_int64(c->equal));
	json_object_object_add(j, "cb_more", json_object_new_int64(c->cb_more));
	json_object_object_add(j, "fattree_more", json_object_new_int64(c->ft_more));
	json_object_object_add(j, "diff_mean", json_object_new_double(c->dsum / c->cb.n));
	json_object_object_add(j, "diff_min", json_object_new_int(c->dmin));
	json_object_object_add(j, "diff_max", json_object_new_int(c->dmax));
	for (i = -HIST; i <= HIST; i++)
		if (c->hist[HIST + i]) {
			snprintf(key, sizeof(key), "%d", i);
			json_object_object_add(h, key, json_object_new_int64(c->hist[HIST + i]));
		}
	json_object_object_add(j, "diff_histogram", h);
	return j;
}

static void print_cmp(const char *set, const struct cmp *c)
{
	char a[64], b[64], ci[40];
	int i;

	snprintf(a, sizeof(a), "%.3f %s", sample_mean(&c->cb), ci_text(&c->cb, 3, ci, sizeof(ci)));
	snprintf(b, sizeof(b), "%.3f %s", sample_mean(&c->ft), ci_text(&c->ft, 3, ci, sizeof(ci)));
	printf("  %-7s %5u %-24s %-24s %8.3f %5u %5u %5u %+7.3f %+4d %+4d  ", set, c->cb.n, a, b,
	       sample_mean(&c->cbb), c->equal, c->cb_more, c->ft_more, c->dsum / c->cb.n,
	       c->dmin, c->dmax);
	for (i = -HIST; i <= HIST; i++)
		if (c->hist[HIST + i])
			printf(" %+d:%u", i, c->hist[HIST + i]);
	printf("\n");
}

void exp_compare(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	struct net other, *cb, *ft;
	struct cmp c[2];
	u32 s;

	net_init(&other, n->g.kind == BFLY_LCAN_CB ? BFLY_LCAN_FATTREE : BFLY_LCAN_CB, n->g.d,
		 n->g.u, n->g.ports);
	cb = n->g.kind == BFLY_LCAN_CB ? n : &other;
	ft = n->g.kind == BFLY_LCAN_CB ? &other : n;
	for (s = 0; s < 2; s++)
		if (s == 0 || n->g.levels > 1)
			cmp_run(cb, ft, o, s, &c[s]);
	if (o->json) {
		struct json_object *j = json_object_new_object(), *a = json_object_new_array();

		for (s = 0; s < 2; s++)
			if (s == 0 || n->g.levels > 1)
				json_object_array_add(a, json_cmp(s ? "worst" : "random", &c[s]));
		json_object_object_add(j, "rows", a);
		report_add(rep, "compare", j);
	} else {
		printf("\nconjecture (b): CB-LCAN(%u,%u) against its %u-ary fat tree,", n->g.d,
		       n->g.u, n->g.d);
		printf(" the same permutations, %s\n", strategy_name(o->strategy));
		printf("  %-7s %5s %-24s %-24s %8s %5s %5s %5s %7s %4s %4s   %s\n", "set", "runs",
		       "CB mean [95% CI]", "fat tree mean [95% CI]", "ceil(L)", "equal", "CB>",
		       "FT>",
		       "CB-FT", "min", "max", "CB-FT: count");
		for (s = 0; s < 2; s++)
			if (s == 0 || n->g.levels > 1)
				print_cmp(s ? "worst" : "random", &c[s]);
	}
	net_free(&other);
}
