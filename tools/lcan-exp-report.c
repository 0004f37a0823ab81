// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the report, text tables on stdout or the experiments
 * of the JSON document; the text header and the wiring listing.
 */
#include <math.h>
#include <stdio.h>

#include <json-c/json.h>

#include "lcan-exp.h"

static const char *const topo_titles[] = {
	[BFLY_LCAN_CB] = "CB-LCAN",
	[BFLY_LCAN_TREE] = "T-LCAN",
	[BFLY_LCAN_FATTREE] = "fat tree",
};

const char *strategy_name(u32 strategy)
{
	return strategy == BFLY_LCAN_OFFLINE ? "off-line" : "on-line";
}

/* "CB-LCAN(2,2)", "the 2-ary fat tree of CB-LCAN(2,2)" */
const char *net_title(const struct net *n, char *buf, size_t size)
{
	if (n->g.kind == BFLY_LCAN_FATTREE)
		snprintf(buf, size, "the %u-ary fat tree of CB-LCAN(%u,%u)", n->g.d, n->g.d,
			 n->g.u);
	else
		snprintf(buf, size, "%s(%u,%u)", topo_titles[n->g.kind], n->g.d, n->g.u);
	return buf;
}

struct json_object *json_sample(const struct sample *s, bool ci)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "mean", json_object_new_double(sample_mean(s)));
	if (ci) {
		struct json_object *a = NULL;
		double h = sample_ci(s);

		/* null without an interval (a single on-line run) */
		if (!isnan(h)) {
			a = json_object_new_array();
			json_object_array_add(a, json_object_new_double(sample_mean(s) - h));
			json_object_array_add(a, json_object_new_double(sample_mean(s) + h));
		}
		json_object_object_add(j, "sd", json_object_new_double(sample_sd(s)));
		json_object_object_add(j, "ci95", a);
	}
	json_object_object_add(j, "min", json_object_new_int64(s->min));
	json_object_object_add(j, "max", json_object_new_int64(s->max));
	return j;
}

struct json_object *json_row(const struct row *r)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "set", json_object_new_string(r->name));
	json_object_object_add(j, "mode", json_object_new_string(r->mode));
	json_object_object_add(j, "in_worst_set", json_object_new_boolean(r->worst));
	json_object_object_add(j, "runs", json_object_new_int64(r->cycles.n));
	json_object_object_add(j, "cycles", json_sample(&r->cycles, true));
	json_object_object_add(j, "ceil_lambda", json_sample(&r->bound, false));
	json_object_object_add(j, "lambda_mean",
			       json_object_new_double(r->lambda_sum / r->cycles.n));
	return j;
}

/* Add experiment @name's object @j to the JSON report. */
void report_add(struct report *rep, const char *name, struct json_object *j)
{
	json_object_object_add(j, "experiment", json_object_new_string(name));
	json_object_array_add(rep->list, j);
}

static void print_row_head(void)
{
	printf("  %-22s %-5s %5s %8s %7s %19s %5s %5s %8s %7s %8s\n", "set", "mode", "runs",
	       "mean", "sd", "95% CI", "min", "max", "ceil(L)", "range", "lambda");
}

static void print_row(const struct row *r)
{
	char ci[40], range[24];

	ci_text(&r->cycles, 3, ci, sizeof(ci));
	snprintf(range, sizeof(range), "%u-%u", r->bound.min, r->bound.max);
	printf("  %-22s %-5s %5u %8.3f %7.3f %19s %5u %5u %8.3f %7s %8.3f%s\n", r->name, r->mode,
	       r->cycles.n, sample_mean(&r->cycles), sample_sd(&r->cycles), ci, r->cycles.min,
	       r->cycles.max, sample_mean(&r->bound), range, r->lambda_sum / r->cycles.n,
	       r->worst ? "  *" : "");
}

/* A table of rows under a title. */
void report_rows(struct report *rep, const char *exp, const char *title,
		 const struct row *rows, u32 count)
{
	u32 i;

	if (rep->o->json) {
		struct json_object *j = json_object_new_object(), *a = json_object_new_array();

		for (i = 0; i < count; i++)
			json_object_array_add(a, json_row(&rows[i]));
		json_object_object_add(j, "rows", a);
		report_add(rep, exp, j);
		return;
	}
	printf("\n%s\n", title);
	print_row_head();
	for (i = 0; i < count; i++)
		print_row(&rows[i]);
}

void header(const struct net *n, const struct opts *o)
{
	char t[48];

	printf("%s, N = %u, l = %u levels, %s, K = %u, seed %llu\n",
	       net_title(n, t, sizeof(t)), n->g.ports, n->g.levels, strategy_name(o->strategy),
	       o->runs, (unsigned long long)o->seed);
	printf("PE p = p_(l-1) .. p_0, most significant first; p_0 base %u", n->g.d);
	printf(" (the downer of level-0 switch p / %u), p_1 .. p_(l-1) base %u\n", n->g.d,
	       n->g.arity);
	fputs("cycles: network cycles; ceil(L): ceil(lambda(M)), its range over the runs;",
	      stdout);
	puts(" lambda: mean lambda(M); * every pair has LCA level l - 1");
}

/* Print the wiring: every PE and every upper, and where it arrives. */
void exp_wiring(struct net *n, struct report *rep)
{
	const struct bfly_lcan *g = &n->g;
	struct json_object *a = NULL;
	u32 i, sw, k, p;

	if (rep->o->json) {
		a = json_object_new_array();
	} else {
		printf("\nwiring: PE p -> level 0 switch p / d, downer p %% d\n");
		for (p = 0; p < g->ports; p++)
			printf("  PE %u -> L0 s%u d%u\n", p, p / g->d, p % g->d);
		puts("wiring: upper k of switch s of level i -> switch t of level i + 1, downer j");
		puts("(connectors of a switch: downers 0 .. d - 1, then uppers d .. d + u - 1)");
	}
	for (i = 0; i + 1 < g->levels; i++)
		for (sw = 0; sw < g->switches[i]; sw++)
			for (k = 0; k < g->up[i]; k++) {
				u32 to, j;

				bfly_lcan_up(g, i, sw, k, &to, &j);
				if (a) {
					struct json_object *w = json_object_new_array();

					json_object_array_add(w, json_object_new_int64(i));
					json_object_array_add(w, json_object_new_int64(sw));
					json_object_array_add(w, json_object_new_int64(k));
					json_object_array_add(w, json_object_new_int64(to));
					json_object_array_add(w, json_object_new_int64(j));
					json_object_array_add(a, w);
				} else {
					printf("  L%u s%u u%u -> L%u s%u d%u\n", i, sw, k,
					       i + 1, to, j);
				}
			}
	if (a) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "fields",
				       json_object_new_string("level switch upper to downer"));
		json_object_object_add(j, "uppers", a);
		report_add(rep, "wiring", j);
	}
}
