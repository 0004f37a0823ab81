// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the experiments on sets of permutations, random,
 * worst-case, the identity and the structured ones, and conjecture (a).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lcan-exp.h"

void random_rows(struct net *n, struct report *rep, struct row *out)
{
	const struct opts *o = rep->o;
	struct row r[2];
	u32 rows = 1;

	memset(r, 0, sizeof(r));
	run_random(n, o, false, BFLY_LCAN_BIDIR, "random", &r[0]);
	/* the paper reduces the worst-case set to this (Section 3.3) */
	if (n->g.kind == BFLY_LCAN_CB && n->g.d == n->g.u)
		run_random(n, o, false, BFLY_LCAN_UNIDIR, "random", &r[rows++]);
	report_rows(rep, "random", rows > 1 ?
		    "random permutations (uni: up through every level to output = destination)" :
		    "random permutations", r, rows);
	if (out)
		*out = r[0];
}

void worst_rows(struct net *n, struct report *rep, struct row *out)
{
	const struct opts *o = rep->o;
	struct row r;
	char title[160];

	memset(&r, 0, sizeof(r));
	run_random(n, o, true, BFLY_LCAN_BIDIR, "worst", &r);
	snprintf(title, sizeof(title),
		 "random permutations of the worst-case set (every pair has LCA level %u)%s",
		 n->g.levels - 1, n->radix[n->g.levels - 1] > 2 ?
		 ": by a walk of rotations from the block shift" : "");
	report_rows(rep, "worst", title, &r, 1);
	if (out)
		*out = r;
}

void exp_random(struct net *n, struct report *rep)
{
	random_rows(n, rep, NULL);
}

void exp_worst(struct net *n, struct report *rep)
{
	worst_rows(n, rep, NULL);
}

void exp_identity(struct net *n, struct report *rep)
{
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct row r;
	u32 p;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "identity");
	for (p = 0; p < n->g.ports; p++)
		dst[p] = p;
	run_fixed(n, rep->o, dst, BFLY_LCAN_BIDIR, stream_seed(rep->o->seed, "identity"), &r);
	if (r.cycles.max != 1)
		die("identity: %u cycles, not 1", r.cycles.max);
	report_rows(rep, "identity", "the identity (one cycle)", &r, 1);
	free(dst);
}

/* The structured permutations, once each. Return: how many rows. */
u32 run_structured(struct net *n, struct report *rep, struct row *rows)
{
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	u32 count = 0, i;

	memset(rows, 0, PERM_STRUCTURED * sizeof(*rows));
	for (i = 0; i < PERM_STRUCTURED; i++) {
		struct row *r = &rows[count];

		if (!perm_structured(n, i, dst, r->name, sizeof(r->name)))
			continue;
		run_fixed(n, rep->o, dst, BFLY_LCAN_BIDIR, stream_seed(rep->o->seed, r->name), r);
		count++;
	}
	report_rows(rep, "structured", "structured permutations", rows, count);
	free(dst);
	return count;
}

void exp_structured(struct net *n, struct report *rep)
{
	struct row rows[PERM_STRUCTURED];

	run_structured(n, rep, rows);
}

/*
 * Conjecture (a): does the worst-case set need the most cycles on average?
 * Against the sets outside it (random permutations, the structured ones
 * not in it), and its hardest member for reference.
 */
void conjecture_a(struct report *rep, const struct row *worst, const struct row *rows,
		  u32 count)
{
	const struct row *top = NULL, *member = NULL;
	double w = sample_mean(&worst->cycles);
	u32 i;

	for (i = 0; i < count; i++) {
		const struct row *r = &rows[i];

		if (r->worst) {
			if (!member || sample_mean(&r->cycles) > sample_mean(&member->cycles))
				member = r;
		} else if (!top || sample_mean(&r->cycles) > sample_mean(&top->cycles)) {
			top = r;
		}
	}
	if (rep->o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "worst_mean", json_object_new_double(w));
		if (top) {
			bool overlap = ci_overlap(&worst->cycles, &top->cycles);
			double t = sample_mean(&top->cycles);

			json_object_object_add(j, "hardest_other",
					       json_object_new_string(top->name));
			json_object_object_add(j, "hardest_other_mean", json_object_new_double(t));
			json_object_object_add(j, "worst_needs_more",
					       json_object_new_boolean(w > t));
			json_object_object_add(j, "ci95_overlap",
					       json_object_new_boolean(overlap));
		}
		if (member) {
			double t = sample_mean(&member->cycles);

			json_object_object_add(j, "hardest_member",
					       json_object_new_string(member->name));
			json_object_object_add(j, "hardest_member_mean", json_object_new_double(t));
		}
		report_add(rep, "conjecture-a", j);
		return;
	}
	printf("\nconjecture (a): worst-case set %.3f cycles on average", w);
	if (top)
		printf("; hardest set outside it: %s, %.3f: %s", top->name,
		       sample_mean(&top->cycles),
		       w > sample_mean(&top->cycles) ? "the worst-case set needs more" :
		       w < sample_mean(&top->cycles) ? "the worst-case set needs FEWER" :
		       "a tie");
	if (top && ci_overlap(&worst->cycles, &top->cycles))
		printf(" (95%% CIs overlap)");
	if (member)
		printf("; hardest member: %s, %.3f", member->name, sample_mean(&member->cycles));
	printf("\n");
}
