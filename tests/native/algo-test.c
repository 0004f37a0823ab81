// SPDX-License-Identifier: GPL-2.0
/*
 * Native tests of the bfly algorithm layer: the routing checks of
 * fabric-model.md. Prints one "ok N - ..." or "not ok N - ..." line per
 * check, then "P passed, F failed"; exits non-zero on any failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "benes.h"
#include "linkload.h"
#include "selfroute.h"
#include "trace.h"
#include "wiring.h"

#define NATIVE_TEST_SEED 0x9e3779b97f4a7c15ULL
#include "native-test.h"

/* Definition III.1 taken literally, independent of wiring.c */
static void test_wiring(void)
{
	enum bfly_topology topo;
	u32 n;

	for (topo = BFLY_TOPO_BUTTERFLY; topo <= BFLY_TOPO_BENES; topo++) {
		for (n = 1; n <= 6; n++) {
			struct bfly_geometry g = geom(topo, n);
			bool ok = true;
			u32 e, p;

			for (e = 0; e + 1 < g.node_stages; e++) {
				int b = bfly_wiring_flip(&g, e);
				u32 seen = 0;

				for (p = 0; p < g.ports; p++) {
					u32 v = p >> 1, o = p & 1, q, want;

					q = bfly_wiring_link(&g, e, p);
					seen |= 1U << (q & 31);
					if (bfly_wiring_link(&g, e, q) != p)
						ok = false;
					if (b < 0) {
						want = p;
					} else {
						u32 old = (v >> b) & 1;
						u32 v2 = (v & ~(1U << b)) |
							 (o << b);

						want = 2 * v2 + old;
					}
					if (q != want)
						ok = false;
				}
				if (g.ports <= 32 && seen != (u32)((1ULL << g.ports) - 1))
					ok = false;
			}
			/* the expected flipped bits per topology */
			for (e = 0; e + 1 < g.node_stages; e++) {
				int b = bfly_wiring_flip(&g, e), want;

				if (topo == BFLY_TOPO_BUTTERFLY)
					want = n - 2 - e;
				else if (topo == BFLY_TOPO_BFLY2)
					want = n - 2 - e % (n - 1);
				else if (topo == BFLY_TOPO_BENES)
					want = e < n - 1 ? (int)(n - 2 - e) :
					       (int)(e - (n - 1));
				else
					want = e < n - 1 ? (int)(n - 2 - e) :
					       e == n - 1 ? -1 :
					       (int)(n - 2 - (e - n));
				if (b != want)
					ok = false;
			}
			check(ok, "wiring %s N=%u: edges per Def. III.1, involutions",
			      topo_name(topo), g.ports);
		}
	}
}

static void test_fig3(void)
{
	static const u32 fig3[16] = { 0, 14, 2, 12, 4, 10, 6, 8,
				      7, 3, 5, 11, 9, 13, 1, 15 };
	struct bfly_geometry g = geom(BFLY_TOPO_BUTTERFLY, 4);
	struct bfly_conflict list[2];
	struct bfly_conflicts c = { .list = list, .capacity = 2 };
	void *work = xalloc(bfly_selfroute_workspace_size(&g));
	unsigned long seen[1];
	int ret;

	ret = bfly_selfroute_dest(&g, fig3, NULL, NULL, &c, work);
	check(!ret && c.count > 0 && c.first_stage == 0 &&
	      list[0].stage == 0 && list[0].node == 4 &&
	      list[0].input[0] == 8 && list[0].input[1] == 9,
	      "Fig. 3: first conflict node stage 0, node 4, inputs 8 and 9 (got stage %u node %u inputs %u %u, %u conflicts)",
	      list[0].stage, list[0].node, list[0].input[0],
	      list[0].input[1], c.count);
	check(bfly_window_first_conflict(&g, fig3, seen) == 0,
	      "Fig. 3: window W1 has a repeated row");
	check(c.count > 2, "conflict count goes on past a full array (%u > capacity 2)",
	      c.count);
	free(work);
}

static void test_butterfly_exhaustive(u32 n)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BUTTERFLY, n);
	u32 ports = g.ports, p[8], got[8], del[8], i;
	void *work = xalloc(bfly_selfroute_workspace_size(&g));
	unsigned long m[4], seen[1];
	struct bfly_conflicts c = { 0 };
	u64 realizable = 0, total = 0, window_bad = 0, trace_bad = 0;
	u64 expect = 1ULL << ((ports / 2) * n);

	for (i = 0; i < ports; i++)
		p[i] = i;
	do {
		u32 w = bfly_window_first_conflict(&g, p, seen);

		total++;
		bfly_selfroute_dest(&g, p, m, del, &c, work);
		if (c.first_stage != w)
			window_bad++;
		if (!c.count) {
			realizable++;
			bfly_trace(&g, m, got);
			if (memcmp(got, p, ports * sizeof(u32)) ||
			    memcmp(del, p, ports * sizeof(u32)))
				trace_bad++;
		} else {
			bfly_trace(&g, m, got);
			if (memcmp(got, del, ports * sizeof(u32)))
				trace_bad++;
		}
	} while (next_perm(p, ports));
	check(realizable == expect,
	      "butterfly N=%u: %llu of %llu permutations realizable, expected 2^((N/2)n) = %llu",
	      ports, (unsigned long long)realizable,
	      (unsigned long long)total, (unsigned long long)expect);
	check(!window_bad,
	      "butterfly N=%u: first conflict stage equals the window test for all %llu (%llu differ)",
	      ports, (unsigned long long)total,
	      (unsigned long long)window_bad);
	check(!trace_bad,
	      "butterfly N=%u: trace(matrix) == p when realizable, == delivered otherwise",
	      ports);
	free(work);
}

static void test_butterfly_random(u32 n, int reps)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BUTTERFLY, n);
	u32 *p = xalloc(g.ports * 4), *got = xalloc(g.ports * 4);
	unsigned long *m = xalloc(matrix_bytes(&g));
	unsigned long *seen = xalloc(BITS_TO_LONGS(g.ports) * sizeof(long));
	void *work = xalloc(bfly_selfroute_workspace_size(&g));
	struct bfly_conflicts c = { 0 };
	int r, bad = 0;
	u32 i, k;

	for (r = 0; r < reps; r++) {
		/* half random, half realizable: a random matrix's trace */
		if (r & 1) {
			for (i = 0; i < BITS_TO_LONGS(g.switches); i++)
				m[i] = rnd();
			bfly_trace(&g, m, p);
		} else {
			random_perm(p, g.ports);
		}
		bfly_selfroute_dest(&g, p, m, NULL, &c, work);
		if (c.first_stage != bfly_window_first_conflict(&g, p, seen))
			bad++;
		if ((r & 1) && c.count)
			bad++;
		if (!c.count) {
			bfly_trace(&g, m, got);
			for (k = 0; k < g.ports; k++)
				if (got[k] != p[k])
					bad++;
		}
	}
	check(!bad, "butterfly N=%u: %d random perms: window test, trace",
	      g.ports, reps);
	free(p);
	free(got);
	free(m);
	free(seen);
	free(work);
}

static void test_benes_exhaustive(u32 n)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BENES, n);
	u32 ports = g.ports, p[8], got[8], i;
	void *work = xalloc(bfly_benes_workspace_size(&g));
	unsigned long m[4];
	u64 total = 0, bad = 0;

	for (i = 0; i < ports; i++)
		p[i] = i;
	do {
		total++;
		if (bfly_benes_route(&g, p, m, work) ||
		    bfly_trace(&g, m, got) ||
		    memcmp(got, p, ports * sizeof(u32)))
			bad++;
	} while (next_perm(p, ports));
	check(!bad, "benes N=%u: all %llu permutations route and trace back (%llu fail)",
	      ports, (unsigned long long)total, (unsigned long long)bad);
	free(work);
}

static void test_benes_random(u32 n, int reps)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BENES, n);
	u32 *p = xalloc(g.ports * 4), *got = xalloc(g.ports * 4);
	unsigned long *m = xalloc(matrix_bytes(&g));
	void *work = xalloc(bfly_benes_workspace_size(&g));
	int r, bad = 0;
	u32 i;

	for (r = 0; r < reps; r++) {
		if (r == 0) {
			for (i = 0; i < g.ports; i++)
				p[i] = i;
		} else if (r == 1) {
			for (i = 0; i < g.ports; i++)
				p[i] = g.ports - 1 - i;
		} else if (r == 2) {
			for (i = 0; i < g.ports; i++) {
				u32 v = 0, b;

				for (b = 0; b < n; b++)
					v |= ((i >> b) & 1) << (n - 1 - b);
				p[i] = v;
			}
		} else {
			random_perm(p, g.ports);
		}
		if (bfly_benes_route(&g, p, m, work) ||
		    bfly_trace(&g, m, got) ||
		    memcmp(got, p, g.ports * sizeof(u32)))
			bad++;
	}
	check(!bad, "benes N=%u: 3 fixed and %d random perms trace back",
	      g.ports, reps - 3);
	free(p);
	free(got);
	free(m);
	free(work);
}

static void test_benes_invalid(void)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BENES, 4);
	struct bfly_geometry b = geom(BFLY_TOPO_BUTTERFLY, 4);
	u32 p[16], i;
	void *work = xalloc(bfly_benes_workspace_size(&g));
	unsigned long m[1] = { 0x5a5a };
	int r1, r2, r3;

	for (i = 0; i < 16; i++)
		p[i] = i;
	p[3] = 5;
	r1 = bfly_benes_route(&g, p, m, work);
	p[3] = 16;
	r2 = bfly_benes_route(&g, p, m, work);
	p[3] = 3;
	r3 = bfly_benes_route(&b, p, m, work);
	check(r1 == -EINVAL && r2 == -EINVAL && r3 == -EINVAL &&
	      m[0] == 0x5a5a,
	      "benes refuses a repeated entry, an out-of-range entry and a non-Benes geometry, matrix untouched");
	free(work);
}

/* The output port each input takes at each node stage under a matrix. */
static void labels_of_matrix(const struct bfly_geometry *g,
			     const unsigned long *m, u64 *labels)
{
	u32 i, s;

	for (i = 0; i < g->ports; i++) {
		u32 pos = i;

		labels[i] = 0;
		for (s = 0; s < g->node_stages; s++) {
			pos ^= test_bit((u64)s * g->nodes_per_stage +
					(pos >> 1), m);
			labels[i] = (labels[i] << 1) | (pos & 1);
			if (s + 1 < g->node_stages)
				pos = bfly_wiring_link(g, s, pos);
		}
	}
}

static void test_labels(enum bfly_topology topo, u32 n, int reps)
{
	struct bfly_geometry g = geom(topo, n);
	u32 *want = xalloc(g.ports * 4), *got = xalloc(g.ports * 4);
	u32 *del = xalloc(g.ports * 4);
	u64 *labels = xalloc(g.ports * 8);
	unsigned long *m = xalloc(matrix_bytes(&g));
	unsigned long *m2 = xalloc(matrix_bytes(&g));
	void *work = xalloc(bfly_selfroute_workspace_size(&g));
	struct bfly_conflicts c = { 0 };
	int r, bad = 0, conflicted = 0;
	u32 i, bits = g.node_stages;

	for (r = 0; r < reps; r++) {
		/* conflict-free labels: read off a random matrix */
		for (i = 0; i < BITS_TO_LONGS(g.switches); i++)
			m[i] = rnd();
		if (g.switches % BITS_PER_LONG)
			m[g.switches / BITS_PER_LONG] &=
				(1UL << (g.switches % BITS_PER_LONG)) - 1;
		bfly_trace(&g, m, want);
		labels_of_matrix(&g, m, labels);
		if (bfly_selfroute_labels(&g, labels, m2, del, &c, work) ||
		    c.count || c.first_stage != BFLY_NO_CONFLICT ||
		    memcmp(m, m2, matrix_bytes(&g)) ||
		    memcmp(del, want, g.ports * 4))
			bad++;
		bfly_trace(&g, m2, got);
		if (memcmp(got, want, g.ports * 4))
			bad++;
		/* random labels: delivered must match the produced matrix */
		for (i = 0; i < g.ports; i++)
			labels[i] = rnd() & ((1ULL << bits) - 1);
		bfly_selfroute_labels(&g, labels, m2, del, &c, work);
		conflicted += c.count > 0;
		bfly_trace(&g, m2, got);
		if (memcmp(got, del, g.ports * 4))
			bad++;
	}
	labels[0] = 1ULL << bits;
	check(!bad && bfly_selfroute_labels(&g, labels, m2, del, &c, work) ==
	      -EINVAL,
	      "labels on %s N=%u: %d matrices round-trip, %d conflicted",
	      topo_name(topo), g.ports, reps, conflicted);
	free(want);
	free(got);
	free(del);
	free(labels);
	free(m);
	free(m2);
	free(work);
}

static void test_linkload(enum bfly_topology topo, u32 n)
{
	struct bfly_geometry g = geom(topo, n);
	u32 *p = xalloc(g.ports * 4);
	u32 *load = xalloc((size_t)g.node_stages * g.ports * 4);
	u32 *smax = xalloc(g.node_stages * 4), mll = 0, s, i;
	u64 *labels = xalloc(g.ports * 8);
	unsigned long *m = xalloc(matrix_bytes(&g));
	unsigned long *active = xalloc(BITS_TO_LONGS(g.ports) * sizeof(long));
	void *work = xalloc(bfly_linkload_workspace_size(&g));
	void *sw = xalloc(bfly_selfroute_workspace_size(&g));
	struct bfly_conflicts c = { 0 };
	bool ok = true, shared;

	/* a full routed set through a matrix: every link carries one */
	for (i = 0; i < BITS_TO_LONGS(g.switches); i++)
		m[i] = rnd();
	if (bfly_linkload_matrix(&g, m, NULL, load, smax, &mll, work) ||
	    mll != 1)
		ok = false;
	for (s = 0; s < (size_t)g.node_stages * g.ports; s++)
		if (load[s] != 1)
			ok = false;
	/* half the inputs: each stage carries exactly that many */
	for (i = 0; i < g.ports; i += 2)
		__set_bit(i, active);
	bfly_linkload_matrix(&g, m, active, load, smax, &mll, work);
	for (s = 0; s < g.node_stages; s++) {
		u32 sum = 0;

		for (i = 0; i < g.ports; i++)
			sum += load[(size_t)s * g.ports + i];
		if (sum != g.ports / 2 || smax[s] > 1)
			ok = false;
	}
	/* labels: MLL 1 iff no conflict; sums preserved */
	for (i = 0; i < g.ports; i++)
		labels[i] = rnd() & ((1ULL << g.node_stages) - 1);
	bfly_selfroute_labels(&g, labels, NULL, NULL, &c, sw);
	bfly_linkload_labels(&g, labels, NULL, load, smax, &mll, work);
	shared = mll > 1;
	if (shared != (bool)c.count)
		ok = false;
	for (s = 0; s < g.node_stages; s++) {
		u32 sum = 0;

		for (i = 0; i < g.ports; i++)
			sum += load[(size_t)s * g.ports + i];
		if (sum != g.ports)
			ok = false;
	}
	if (topo == BFLY_TOPO_BUTTERFLY) {
		/*
		 * adversarial (seed note): the top half sends to the bottom
		 * half and back; the two packets of a stage-0 node then ask
		 * for one output port, so some link carries two or more
		 */
		for (i = 0; i < g.ports; i++)
			labels[i] = i < g.ports / 2 ? i + g.ports / 2 :
				    i - g.ports / 2;
		bfly_linkload_labels(&g, labels, NULL, NULL, NULL, &mll,
				     work);
		if (n >= 2 && mll < 2)
			ok = false;
	}
	check(ok, "link loads on %s N=%u: sane, MLL > 1 iff conflicts",
	      topo_name(topo), g.ports);
	free(p);
	free(load);
	free(smax);
	free(labels);
	free(m);
	free(active);
	free(work);
	free(sw);
}

int main(void)
{
	enum bfly_topology topo;
	u32 n;

	test_wiring();
	test_fig3();
	test_butterfly_exhaustive(2);
	test_butterfly_exhaustive(3);
	for (n = 4; n <= 12; n += 4)
		test_butterfly_random(n, 200);
	test_benes_exhaustive(1);
	test_benes_exhaustive(2);
	test_benes_exhaustive(3);
	for (n = 1; n <= 16; n++)
		test_benes_random(n, n <= 10 ? 300 : n <= 13 ? 40 : 8);
	/* beyond one cache block: the several-walkers-per-cycle path */
	test_benes_random(17, 5);
	test_benes_random(20, 4);
	test_benes_invalid();
	for (topo = BFLY_TOPO_BUTTERFLY; topo <= BFLY_TOPO_BENES; topo++)
		for (n = 1; n <= 9; n += 2) {
			test_labels(topo, n, 50);
			test_linkload(topo, n);
		}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
