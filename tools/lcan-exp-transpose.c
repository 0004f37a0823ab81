// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the transpose at every N = d^l, l even, up to N,
 * uni-directionally against sqrt(N) and bi-directionally.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lcan-exp.h"

/*
 * The butterfly's label of PE p on a CB-LCAN with d = u: p_0, then p's
 * digits 1 .. l - 1 reversed. Uni-directionally the wire out of level i
 * carries the packets whose source digits l - 1 .. i + 1 and destination
 * digits l - 1 .. l - 1 - i are its own; on the butterfly of routing.rst
 * (N = 2^n inputs, node stage j setting destination bit n - 1 - j) the
 * link out of node stage j holds source bits n - 1 - j .. 1 instead.
 */
static u32 bfly_label(const struct net *n, u32 p)
{
	u32 x = p / n->g.d, y = 0, i;

	for (i = 1; i < n->g.levels; i++) {
		y = y * n->g.d + x % n->g.d;
		x /= n->g.d;
	}
	return y * n->g.d + p % n->g.d;
}

/* Uni-directional cycles of @dst, into @c[0] (cycles) and @c[1] (bound). */
static void uni_cycles(struct net *n, const struct opts *o, const u32 *dst, u32 *c)
{
	struct result res;

	net_route(n, dst, BFLY_LCAN_UNIDIR, o->strategy, 0, &res);
	c[0] = res.cycles;
	c[1] = res.bound;
}

/* "<prefix>uni_cycles", "..._ceil_lambda", "..._per_sqrt_n" of @c into @j. */
static void json_uni(struct json_object *j, const char *prefix, const u32 *c, double root)
{
	char key[48];

	snprintf(key, sizeof(key), "%suni_cycles", prefix);
	json_object_object_add(j, key, json_object_new_int64(c[0]));
	snprintf(key, sizeof(key), "%suni_ceil_lambda", prefix);
	json_object_object_add(j, key, json_object_new_int64(c[1]));
	snprintf(key, sizeof(key), "%suni_per_sqrt_n", prefix);
	json_object_object_add(j, key, json_object_new_double(c[0] / root));
}

/*
 * The transpose at every N = d^l, l even, up to N: uni-directionally on a
 * CB-LCAN with d = u (a delta network; CB-LCAN(2,2) is the butterfly)
 * against sqrt(N), with the paper's labels and with the butterfly's
 * (bfly_label()), the identity uni-directionally, and the transpose
 * bi-directionally.
 */
void exp_transpose(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	bool uni = n->g.kind == BFLY_LCAN_CB && n->g.d == n->g.u;
	u32 l, first = n->g.kind == BFLY_LCAN_TREE ? n->g.levels : 2;
	struct json_object *a = NULL;

	if (o->json) {
		a = json_object_new_array();
	} else {
		puts("\ntranspose: p = H B + L -> L (N / B) + H, L the low floor(l/2) digits,");
		if (n->g.kind == BFLY_LCAN_TREE)
			puts("B their range (N itself; radices differ: a matrix transpose)");
		else
			puts("B their range (every N = d^l, l even, up to N: digit halves swap)");
		if (uni) {
			puts("uni: up through every level; T: the transpose of the PE labels;");
			puts("T-bfly: of the butterfly's labels (PE p_(l-1) .. p_1 p_0 is");
			puts("butterfly input p_1 .. p_(l-1) p_0); id: the identity");
		}
		printf("  %6s %3s %15s %8s %15s %8s %8s %24s %5s\n", "N", "l", "T uni ceil(L)",
		       "/sqrtN", "T-bfly ceil(L)", "/sqrtN", "id uni", "T bi mean [95% CI]",
		       "ceil");
	}
	for (l = first; l <= n->g.levels; l++) {
		u32 t[2] = { 0 }, tb[2] = { 0 }, id[2] = { 0 }, *dst, *tmp, p;
		double root;
		struct net m, *x = n;
		struct row r;
		bool bi;

		if (n->g.kind != BFLY_LCAN_TREE && l % 2)
			continue;
		if (l != n->g.levels) {
			u32 ports = 1, i;

			for (i = 0; i < l; i++)
				ports *= n->g.d;
			net_init(&m, n->g.kind, n->g.d, n->g.u, ports);
			x = &m;
		}
		root = sqrt(x->g.ports);
		dst = xcalloc(x->g.ports, sizeof(u32));
		tmp = xcalloc(x->g.ports, sizeof(u32));
		if (uni) {
			perm_transpose(x, tmp);
			for (p = 0; p < x->g.ports; p++)
				dst[p] = tmp[bfly_label(x, p)];
			uni_cycles(x, o, dst, tb);
			for (p = 0; p < x->g.ports; p++)
				dst[p] = p;
			uni_cycles(x, o, dst, id);
		}
		perm_transpose(x, dst);
		if (uni)
			uni_cycles(x, o, dst, t);
		memset(&r, 0, sizeof(r));
		snprintf(r.name, sizeof(r.name), "transpose");
		bi = x->g.ports <= SMALL_N_MAX || o->large;
		if (bi)
			run_fixed(x, o, dst, BFLY_LCAN_BIDIR, stream_seed(o->seed, "transpose"),
				  &r);
		if (o->json) {
			struct json_object *j = json_object_new_object();

			json_object_object_add(j, "n", json_object_new_int64(x->g.ports));
			json_object_object_add(j, "levels", json_object_new_int64(l));
			if (uni) {
				json_uni(j, "", t, root);
				json_uni(j, "bfly_labels_", tb, root);
				json_uni(j, "identity_", id, root);
			}
			if (bi)
				json_object_object_add(j, "bi", json_row(&r));
			json_object_array_add(a, j);
		} else {
			char u1[24] = "-", u2[16] = "-", u3[24] = "-", u4[16] = "-", u5[24] = "-";
			char b1[64] = "-", b2[16] = "-", ci[40];

			if (uni) {
				snprintf(u1, sizeof(u1), "%u %u", t[0], t[1]);
				snprintf(u2, sizeof(u2), "%.4f", t[0] / root);
				snprintf(u3, sizeof(u3), "%u %u", tb[0], tb[1]);
				snprintf(u4, sizeof(u4), "%.4f", tb[0] / root);
				snprintf(u5, sizeof(u5), "%u %u", id[0], id[1]);
			}
			if (bi) {
				snprintf(b1, sizeof(b1), "%.3f %s", sample_mean(&r.cycles),
					 ci_text(&r.cycles, 3, ci, sizeof(ci)));
				snprintf(b2, sizeof(b2), "%u", r.bound.max);
			}
			printf("  %6u %3u %15s %8s %15s %8s %8s %24s %5s\n", x->g.ports, l, u1, u2,
			       u3, u4, u5, b1, b2);
		}
		free(tmp);
		free(dst);
		if (x != n)
			net_free(&m);
	}
	if (o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "rows", a);
		report_add(rep, "transpose", j);
	}
}
