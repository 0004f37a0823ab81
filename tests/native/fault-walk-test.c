// SPDX-License-Identifier: GPL-2.0
/*
 * Native tests of the fault walk and fault checks (kmod/fault.c) against an
 * independent reference: each packet followed alone, stage by stage, with
 * the wiring rebuilt from the node-label rule of fabric-model.md (edge stage
 * flips node bit b: port o of node v goes to v with bit b set to o, entering
 * on the old bit b of v) and the faults looked up in per-place tables.
 * Every topology, N = 2 .. 1024 (and one N = 65536 round), exhaustive pairs
 * of faults for N <= 4. Prints one "ok"/"not ok" line per check, then
 * "P passed, F failed"; exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "fault.h"
#include "selfroute.h"
#include "trace.h"
#include "wiring.h"

#define NATIVE_TEST_SEED 0x9e3779b97f4a7c15ULL
#include "native-test.h"

#define MAX_N_LOG2 10

static const enum bfly_topology topos[] = {
	BFLY_TOPO_BUTTERFLY, BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE, BFLY_TOPO_BENES,
};

/* Node stages per topology, from fabric-model.md. */
static u32 ref_stages(enum bfly_topology t, u32 n)
{
	switch (t) {
	case BFLY_TOPO_BUTTERFLY:
		return n;
	case BFLY_TOPO_BFLY_TWICE:
		return 2 * n;
	default:
		return 2 * n - 1;
	}
}

/*
 * The node-label bit edge stage e (node stage e to e + 1) flips, or -1 for
 * the identity link between the two passes of bfly-twice. Butterfly edge
 * stage of size l flips bit n - 1 - l; a butterfly has sizes 1 .. n - 1 in
 * order, the reverse butterfly (second half of Benes) n - 1 .. 1.
 */
static int ref_edge_bit(enum bfly_topology t, int n, int e)
{
	int l;

	if (e < n - 1)
		l = e + 1;			/* first butterfly */
	else if (t == BFLY_TOPO_BFLY2)
		l = e - (n - 1) + 1;		/* second, sharing stage n - 1 */
	else if (t == BFLY_TOPO_BFLY_TWICE)
		l = e == n - 1 ? 0 : e - n + 1;	/* identity, then again */
	else if (t == BFLY_TOPO_BENES)
		l = (n - 1) - (e - (n - 1));	/* reverse butterfly */
	else
		l = 0;
	return l ? n - 1 - l : -1;
}

/* Follow link position @pos (node v, port o) through an edge flipping @b. */
static u32 ref_link(int b, u32 pos)
{
	u32 v = pos >> 1, o = pos & 1, nv, port;

	if (b < 0)
		return pos;
	port = (v >> b) & 1;
	nv = (v & ~(1U << b)) | (o << b);
	return 2 * nv + port;
}

/* The faults, as tables per place. */
struct ref {
	const struct bfly_geometry *g;
	int bits[2 * BFLY_MAX_PORTS_LOG2];
	s32 *stuck;	/* [stage * N/2 + node]: -1, or the stuck state */
	u8 *broken;	/* [stage * N + link position]: 1 when broken */
};

static void ref_init(struct ref *r, const struct bfly_geometry *g)
{
	u32 e;

	r->g = g;
	for (e = 0; e + 1 < g->node_stages; e++)
		r->bits[e] = ref_edge_bit(g->topology, g->ports_log2, e);
	r->stuck = malloc(g->switches * sizeof(s32));
	r->broken = malloc((size_t)g->node_stages * g->ports);
	if (!r->stuck || !r->broken)
		exit(2);
}

static void ref_free(struct ref *r)
{
	free(r->stuck);
	free(r->broken);
}

static void ref_set(struct ref *r, const struct bfly_faults *fl)
{
	const struct bfly_geometry *g = r->g;
	u32 j;

	memset(r->stuck, 0xff, g->switches * sizeof(s32));
	memset(r->broken, 0, (size_t)g->node_stages * g->ports);
	for (j = 0; j < fl->count; j++) {
		const struct bfly_fault *f = &fl->list[j];

		if (f->kind == BFLY_FAULT_STUCK)
			r->stuck[(u64)f->stage * g->nodes_per_stage + f->index] = f->state;
		else
			r->broken[(u64)f->stage * g->ports + f->index] = 1;
	}
}

/*
 * One packet, alone: entering at input @i, it asks each node for the port
 * its label bit or the node's matrix bit names. ROUTE: it goes where it
 * asks, and is hit when a node on that path is stuck in the other state or
 * the link it leaves on is broken. REAL: a stuck node sends it by its stuck
 * state (hit when that is not where it asked to go), a broken link loses it
 * (hit). Returns whether it is hit; *@out gets its output or LOST.
 */
static bool ref_packet(const struct ref *r, bool real, const u64 *labels,
		       const unsigned long *matrix, u32 i, u32 *out)
{
	const struct bfly_geometry *g = r->g;
	u32 s, p = i, node, want, go, leave;
	bool hit = false;
	s32 st;

	for (s = 0; s < g->node_stages; s++) {
		node = p >> 1;
		if (labels)
			want = (labels[i] >> (g->node_stages - 1 - s)) & 1;
		else
			want = (p & 1) ^ test_bit((u64)s * g->nodes_per_stage + node, matrix);
		go = want;
		st = r->stuck[(u64)s * g->nodes_per_stage + node];
		if (st >= 0 && (u32)st != ((p & 1) ^ want)) {
			hit = true;
			if (real)
				go = (p & 1) ^ st;
		}
		leave = 2 * node + go;
		if (r->broken[(u64)s * g->ports + leave]) {
			hit = true;
			if (real) {
				*out = BFLY_TRACE_LOST;
				return true;
			}
		}
		p = s + 1 < g->node_stages ? ref_link(r->bits[s], leave) : leave;
	}
	*out = p;
	return hit;
}

/* Every active packet; sets the hit bits, returns the count. */
static u32 ref_walk(const struct ref *r, bool real, const u64 *labels,
		    const unsigned long *matrix, const unsigned long *active,
		    unsigned long *hit, u32 *out)
{
	u32 i, n = 0;

	for (i = 0; i < r->g->ports; i++) {
		if (active && !test_bit(i, active))
			continue;
		if (ref_packet(r, real, labels, matrix, i, &out[i])) {
			__set_bit(i, hit);
			n++;
		}
	}
	return n;
}

/* ---- helpers ---- */

static size_t bitmap_bytes(u32 bits)
{
	return BITS_TO_LONGS(bits) * sizeof(unsigned long);
}

static u32 popcount(const unsigned long *b, u32 bits)
{
	u32 i, n = 0;

	for (i = 0; i < bits; i++)
		n += test_bit(i, b);
	return n;
}

static bool bits_equal(const unsigned long *a, const unsigned long *b, u32 bits)
{
	u32 i;

	for (i = 0; i < bits; i++)
		if (test_bit(i, a) != test_bit(i, b))
			return false;
	return true;
}

static void random_bits(unsigned long *b, u64 bits)
{
	size_t w;

	for (w = 0; w < BITS_TO_LONGS(bits); w++)
		b[w] = (unsigned long)rnd();
}

/* Is place (kind, stage, index) already in @fl? */
static bool has_place(const struct bfly_faults *fl, u32 kind, u32 stage, u32 index)
{
	u32 j;

	for (j = 0; j < fl->count; j++)
		if (fl->list[j].kind == kind && fl->list[j].stage == stage &&
		    fl->list[j].index == index)
			return true;
	return false;
}

static void add_fault(struct bfly_faults *fl, u32 kind, u32 stage, u32 index, u32 state)
{
	struct bfly_fault *f = &fl->list[fl->count++];

	f->kind = kind;
	f->stage = stage;
	f->index = index;
	f->state = kind == BFLY_FAULT_STUCK ? state : 0;
}

/*
 * Up to @want faults at random distinct places; stuck ones with probability
 * @stuck_pct percent. With @cluster, all in at most two stages and a few
 * nodes, so that faults share nodes and packets meet several of them.
 */
static void random_faults(const struct bfly_geometry *g, struct bfly_faults *fl,
			  u32 want, u32 stuck_pct, bool cluster)
{
	u32 s0 = rnd() % g->node_stages, s1 = rnd() % g->node_stages;
	u32 v0 = rnd() % g->nodes_per_stage, tries;

	fl->count = 0;
	for (tries = 0; fl->count < want && tries < 64 * want; tries++) {
		u32 kind = rnd() % 100 < stuck_pct ? BFLY_FAULT_STUCK : BFLY_FAULT_LINK;
		u32 stage = cluster ? (rnd() & 1 ? s0 : s1) : rnd() % g->node_stages;
		u32 node = cluster ? (v0 + rnd() % 4) % g->nodes_per_stage :
				     rnd() % g->nodes_per_stage;
		u32 index = kind == BFLY_FAULT_STUCK ? node : 2 * node + (rnd() & 1);

		if (!has_place(fl, kind, stage, index))
			add_fault(fl, kind, stage, index, rnd() & 1);
	}
}

/* @m with every stuck node's bit set to its state. */
static void force_matrix(const struct bfly_geometry *g, const struct bfly_faults *fl,
			 const unsigned long *m, unsigned long *forced)
{
	u32 j;

	memcpy(forced, m, bitmap_bytes(g->switches));
	for (j = 0; j < fl->count; j++) {
		const struct bfly_fault *f = &fl->list[j];
		u64 bit = bfly_matrix_bit(g, f->stage, f->index);

		if (f->kind != BFLY_FAULT_STUCK)
			continue;
		if (f->state)
			__set_bit(bit, forced);
		else
			__clear_bit(bit, forced);
	}
}

/* Everything one geometry's checks need. */
struct ctx {
	struct bfly_geometry g;
	struct ref r;
	struct bfly_faults fl;
	unsigned long *m, *forced, *m2, *active;
	unsigned long *hit, *rhit, *pre;
	u32 *out, *rout, *perm, *perm2;
	u64 *labels;
	void *srwork;
};

static void ctx_init(struct ctx *c, enum bfly_topology t, u32 n)
{
	u32 N = 1U << n;

	c->g = geom(t, n);
	ref_init(&c->r, &c->g);
	c->m = xalloc(matrix_bytes(&c->g));
	c->forced = xalloc(matrix_bytes(&c->g));
	c->m2 = xalloc(matrix_bytes(&c->g));
	c->active = xalloc(bitmap_bytes(N));
	c->hit = xalloc(bitmap_bytes(N));
	c->rhit = xalloc(bitmap_bytes(N));
	c->pre = xalloc(bitmap_bytes(N));
	c->out = xalloc(N * sizeof(u32));
	c->rout = xalloc(N * sizeof(u32));
	c->perm = xalloc(N * sizeof(u32));
	c->perm2 = xalloc(N * sizeof(u32));
	c->labels = xalloc(N * sizeof(u64));
	c->srwork = xalloc(bfly_selfroute_workspace_size(&c->g));
	c->fl.count = 0;
}

static void ctx_free(struct ctx *c)
{
	ref_free(&c->r);
	free(c->m);
	free(c->forced);
	free(c->m2);
	free(c->active);
	free(c->hit);
	free(c->rhit);
	free(c->pre);
	free(c->out);
	free(c->rout);
	free(c->perm);
	free(c->perm2);
	free(c->labels);
	free(c->srwork);
}

/*
 * bfly_fault_walk() with a workspace of exactly the size asked for, filled
 * with garbage, so ASan sees an overrun and nothing relies on zeroes.
 */
static int walk(const struct ctx *c, enum bfly_walk_mode mode, const u64 *labels,
		const unsigned long *matrix, const unsigned long *active,
		unsigned long *hit, u32 *out)
{
	struct bfly_fault_walk w = {
		.mode = mode, .labels = labels, .matrix = matrix, .active = active,
	};
	size_t sz = bfly_fault_walk_workspace_size(&c->g);
	void *work = malloc(sz);
	int ret;

	if (!work)
		exit(2);
	memset(work, 0xa5, sz);
	ret = bfly_fault_walk(&c->g, &c->fl, &w, hit, out, work);
	free(work);
	return ret;
}

/* Property failures, per topology; the first few print a diagnostic. */
enum prop {
	P_REAL_NONE, P_REAL_STUCK, P_REAL_LINK, P_ROUTE, P_ONCE, P_ONE_LINK,
	P_STUCK_ZERO, P_LABELS, P_LABELS_CF, P_ACTIVE, P_NULLS, P_UNMET, P_EXHAUST,
	P_COUNT
};

static const char * const prop_text[P_COUNT] = {
	[P_REAL_NONE] = "REAL without faults == bfly_trace(), nothing hit",
	[P_REAL_STUCK] = "REAL, stuck nodes: == bfly_trace() of the forced matrix, hits as ref.",
	[P_REAL_LINK] = "REAL, broken links: exactly their packets lost, others as forced trace",
	[P_ROUTE] = "ROUTE on a matrix: hit set == reference, count == popcount, out == trace",
	[P_ONCE] = "ROUTE: a packet meeting many faults is counted once",
	[P_ONE_LINK] = "ROUTE: full permutation, one broken link: exactly 1 hit, the right one",
	[P_STUCK_ZERO] = "ROUTE with stuck nodes only: no hit iff no stuck node unmet",
	[P_LABELS] = "ROUTE and REAL with random (conflicting) labels == per-packet reference",
	[P_LABELS_CF] = "conflict-free labels == matrix mode on bfly_selfroute_labels()'s matrix",
	[P_ACTIVE] = "active restricts the walk: inactive never hit, their bits left alone",
	[P_NULLS] = "hit and out NULL or not: the same count and hit set",
	[P_UNMET] = "bfly_faults_stuck_unmet() == bits differing from the forced matrix",
	[P_EXHAUST] = "N <= 4: every matrix with every single fault and pair of faults",
};

static u32 fails[P_COUNT], runs[P_COUNT], printed[P_COUNT];

static void result(enum prop p, bool ok, const struct ctx *c, const char *what)
{
	runs[p]++;
	if (ok)
		return;
	fails[p]++;
	if (printed[p]++ < 4)
		printf("#   %s N=%u %s: %s (%u faults)\n", topo_name(c->g.topology),
		       c->g.ports, prop_text[p], what, c->fl.count);
}

static bool out_equal(const u32 *a, const u32 *b, u32 n, const unsigned long *active)
{
	u32 i;

	for (i = 0; i < n; i++)
		if ((!active || test_bit(i, active)) && a[i] != b[i])
			return false;
	return true;
}

/* Walk and compare hit, count and out with the reference. */
static bool walk_vs_ref(struct ctx *c, enum bfly_walk_mode mode, const u64 *labels,
			const unsigned long *matrix, const unsigned long *active)
{
	u32 N = c->g.ports;
	int ret;
	u32 want;

	memset(c->hit, 0, bitmap_bytes(N));
	memset(c->rhit, 0, bitmap_bytes(N));
	ret = walk(c, mode, labels, matrix, active, c->hit, c->out);
	want = ref_walk(&c->r, mode == BFLY_WALK_REAL, labels, matrix, active, c->rhit,
			c->rout);
	return ret == (int)want && popcount(c->hit, N) == want &&
	       bits_equal(c->hit, c->rhit, N) && out_equal(c->out, c->rout, N, active);
}

/* REAL: no faults, stuck nodes only, then a mix with broken links. */
static void check_real(struct ctx *c)
{
	u32 N = c->g.ports, i;
	bool ok;
	int ret;

	c->fl.count = 0;
	ref_set(&c->r, &c->fl);
	memset(c->hit, 0, bitmap_bytes(N));
	bfly_trace(&c->g, c->m, c->perm);
	ret = walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->hit, c->out);
	ok = !ret && !popcount(c->hit, N) && !memcmp(c->out, c->perm, N * sizeof(u32));
	result(P_REAL_NONE, ok, c, "out or hit differ");

	random_faults(&c->g, &c->fl, 1 + rnd() % BFLY_MAX_FAULTS, 100, rnd() & 1);
	ref_set(&c->r, &c->fl);
	force_matrix(&c->g, &c->fl, c->m, c->forced);
	bfly_trace(&c->g, c->forced, c->perm);
	ok = walk_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL) &&
	     !memcmp(c->out, c->perm, N * sizeof(u32));
	result(P_REAL_STUCK, ok, c, "differs");

	random_faults(&c->g, &c->fl, 1 + rnd() % BFLY_MAX_FAULTS, rnd() % 80, rnd() & 1);
	ref_set(&c->r, &c->fl);
	force_matrix(&c->g, &c->fl, c->m, c->forced);
	bfly_trace(&c->g, c->forced, c->perm);
	ok = walk_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL);
	/* the lost ones cross a broken link on their forced path */
	for (i = 0; ok && i < N; i++) {
		u32 p = i, s;
		bool crosses = false;

		for (s = 0; s < c->g.node_stages; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->g, s, p >> 1), c->forced);
			crosses |= c->r.broken[(u64)s * N + p];
			if (s + 1 < c->g.node_stages)
				p = bfly_wiring_link(&c->g, s, p);
		}
		ok = crosses ? c->out[i] == BFLY_TRACE_LOST : c->out[i] == c->perm[i];
	}
	result(P_REAL_LINK, ok, c, "differs");
}

/* ROUTE on a matrix, with and without out/hit, and the unmet count. */
static void check_route(struct ctx *c)
{
	u32 N = c->g.ports, i, unmet;
	int ret, ret2;
	bool ok;

	random_faults(&c->g, &c->fl, rnd() % (BFLY_MAX_FAULTS + 1), rnd() % 101, rnd() & 1);
	ref_set(&c->r, &c->fl);
	bfly_trace(&c->g, c->m, c->perm);
	ok = walk_vs_ref(c, BFLY_WALK_ROUTE, NULL, c->m, NULL) &&
	     !memcmp(c->out, c->perm, N * sizeof(u32));
	result(P_ROUTE, ok, c, "differs");

	/* the same without out (the walk stops after the last faulty stage) */
	memcpy(c->rhit, c->hit, bitmap_bytes(N));
	ret = walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, c->hit, c->out);
	memset(c->hit, 0, bitmap_bytes(N));
	ret2 = walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, c->hit, NULL);
	ok = ret == ret2 && bits_equal(c->hit, c->rhit, N) &&
	     walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, NULL, NULL) == ret &&
	     walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, NULL, c->out) == ret;
	memset(c->hit, 0, bitmap_bytes(N));
	memset(c->rhit, 0, bitmap_bytes(N));
	ret = walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->hit, c->out);
	ret2 = walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->rhit, NULL);
	ok = ok && ret == ret2 && bits_equal(c->hit, c->rhit, N) &&
	     walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, NULL, NULL) == ret;
	result(P_NULLS, ok, c, "count or hits differ");

	force_matrix(&c->g, &c->fl, c->m, c->forced);
	unmet = 0;
	for (i = 0; i < c->g.switches; i++)
		unmet += test_bit(i, c->m) != test_bit(i, c->forced);
	result(P_UNMET, bfly_faults_stuck_unmet(&c->g, &c->fl, c->m) == unmet, c, "count");

	/* stuck nodes only: something is hit iff one is unmet */
	random_faults(&c->g, &c->fl, 1 + rnd() % 8, 100, false);
	if (rnd() & 1) {
		force_matrix(&c->g, &c->fl, c->m, c->forced);
		memcpy(c->m, c->forced, matrix_bytes(&c->g));
	}
	ret = walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, NULL, NULL);
	unmet = bfly_faults_stuck_unmet(&c->g, &c->fl, c->m);
	result(P_STUCK_ZERO, (ret == 0) == (unmet == 0) && ret <= (int)(2 * unmet), c,
	       "count");
}

/*
 * One packet's path gets faults at every node and link it uses (up to the
 * limit), plus random others: it and every other packet counted once.
 */
static void check_once(struct ctx *c)
{
	u32 N = c->g.ports, i = rnd() % N, p = i, s, k;
	bool ok;

	c->fl.count = 0;
	for (s = 0; s < c->g.node_stages && c->fl.count + 2 <= BFLY_MAX_FAULTS; s++) {
		u32 node = p >> 1, bit = test_bit(bfly_matrix_bit(&c->g, s, node), c->m);

		p ^= bit;
		add_fault(&c->fl, BFLY_FAULT_STUCK, s, node, bit ^ 1);
		add_fault(&c->fl, BFLY_FAULT_LINK, s, p, 0);
		if (s + 1 < c->g.node_stages)
			p = bfly_wiring_link(&c->g, s, p);
	}
	for (k = 0; k < 8 && c->fl.count < BFLY_MAX_FAULTS; k++) {
		u32 st = rnd() % c->g.node_stages, node = rnd() % c->g.nodes_per_stage;

		if (!has_place(&c->fl, BFLY_FAULT_STUCK, st, node))
			add_fault(&c->fl, BFLY_FAULT_STUCK, st, node, rnd() & 1);
	}
	ref_set(&c->r, &c->fl);
	ok = walk_vs_ref(c, BFLY_WALK_ROUTE, NULL, c->m, NULL) && test_bit(i, c->hit) &&
	     popcount(c->hit, N) <= N;
	ok = ok && walk_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL) && test_bit(i, c->hit);
	result(P_ONCE, ok, c, "differs");
}

/* A full permutation and one broken link: exactly the packet on it. */
static void check_one_link(struct ctx *c, u32 stage, u32 index)
{
	u32 N = c->g.ports, i, p = 0, s, on = U32_MAX;
	int ret;
	bool ok;

	c->fl.count = 0;
	add_fault(&c->fl, BFLY_FAULT_LINK, stage, index, 0);
	for (i = 0; i < N && on == U32_MAX; i++) {
		for (p = i, s = 0; s <= stage; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->g, s, p >> 1), c->m);
			if (s < stage)
				p = bfly_wiring_link(&c->g, s, p);
		}
		if (p == index)
			on = i;
	}
	memset(c->hit, 0, bitmap_bytes(N));
	ret = walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, c->hit, NULL);
	ok = ret == 1 && on < N && popcount(c->hit, N) == 1 && test_bit(on, c->hit);
	memset(c->hit, 0, bitmap_bytes(N));
	bfly_trace(&c->g, c->m, c->perm);
	ret = walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->hit, c->out);
	for (i = 0; ok && i < N; i++)
		ok = c->out[i] == (i == on ? BFLY_TRACE_LOST : c->perm[i]);
	ok = ok && ret == 1 && popcount(c->hit, N) == 1 && test_bit(on, c->hit);
	result(P_ONE_LINK, ok, c, "not exactly the packet on the link");
}

/* Labels: random ones, then conflict-free ones read off a matrix. */
static void check_labels(struct ctx *c)
{
	struct bfly_conflicts conf = { 0 };
	u32 N = c->g.ports, S = c->g.node_stages, i, s, p;
	u64 mask = S >= 64 ? ~0ULL : (1ULL << S) - 1;
	bool ok;
	int ret;

	random_faults(&c->g, &c->fl, rnd() % (BFLY_MAX_FAULTS + 1), rnd() % 101, rnd() & 1);
	ref_set(&c->r, &c->fl);
	for (i = 0; i < N; i++)
		c->labels[i] = rnd() & mask;
	/* some packets share a label: sure conflicts */
	for (i = 0; i + 1 < N; i += 2 + rnd() % 4)
		c->labels[i + 1] = c->labels[i];
	ok = walk_vs_ref(c, BFLY_WALK_ROUTE, c->labels, c->m, NULL);
	ok = ok && walk_vs_ref(c, BFLY_WALK_REAL, c->labels, c->m, NULL);
	result(P_LABELS, ok, c, "differs");

	/* each packet's ports along the matrix's paths */
	for (i = 0; i < N; i++) {
		c->labels[i] = 0;
		for (p = i, s = 0; s < S; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->g, s, p >> 1), c->m);
			c->labels[i] = (c->labels[i] << 1) | (p & 1);
			if (s + 1 < S)
				p = bfly_wiring_link(&c->g, s, p);
		}
	}
	ret = bfly_selfroute_labels(&c->g, c->labels, c->m2, NULL, &conf, c->srwork);
	ok = !ret && !conf.count;
	/*
	 * In REAL mode a packet a stuck node deflects follows its label on,
	 * not the matrix: the two agree there only without stuck nodes.
	 */
	for (i = 0; ok && i < (bfly_faults_have_stuck(&c->fl) ? 1 : 2); i++) {
		enum bfly_walk_mode mode = i ? BFLY_WALK_REAL : BFLY_WALK_ROUTE;
		int a, b;

		memset(c->hit, 0, bitmap_bytes(N));
		memset(c->rhit, 0, bitmap_bytes(N));
		a = walk(c, mode, c->labels, NULL, NULL, c->hit, c->out);
		b = walk(c, mode, NULL, c->m2, NULL, c->rhit, c->rout);
		ok = a == b && bits_equal(c->hit, c->rhit, N) &&
		     !memcmp(c->out, c->rout, N * sizeof(u32));
	}
	result(P_LABELS_CF, ok, c, "differs");
}

/* active: only the active inputs walked, the other bits left alone. */
static void check_active(struct ctx *c)
{
	u32 N = c->g.ports, i, j, want;
	unsigned long *tmp = xalloc(bitmap_bytes(N));
	int pick = rnd() % 4, ret;
	bool ok;

	random_faults(&c->g, &c->fl, rnd() % (BFLY_MAX_FAULTS + 1), rnd() % 101, rnd() & 1);
	ref_set(&c->r, &c->fl);
	if (pick == 0)
		memset(c->active, 0, bitmap_bytes(N));
	else if (pick == 1)
		memset(c->active, 0xff, bitmap_bytes(N));
	else
		random_bits(c->active, N);
	for (i = 0; i < N; i++)
		c->labels[i] = rnd() & ((1ULL << c->g.node_stages) - 1);
	for (j = 0; j < 4; j++) {
		enum bfly_walk_mode mode = j & 1 ? BFLY_WALK_REAL : BFLY_WALK_ROUTE;
		const u64 *labels = j & 2 ? c->labels : NULL;

		random_bits(c->pre, N);
		memcpy(c->hit, c->pre, bitmap_bytes(N));
		memset(tmp, 0, bitmap_bytes(N));
		ret = walk(c, mode, labels, c->m, c->active, c->hit, c->out);
		want = ref_walk(&c->r, mode == BFLY_WALK_REAL, labels, c->m, c->active, tmp,
				c->rout);
		ok = ret == (int)want && out_equal(c->out, c->rout, N, c->active);
		/* every bit, even past N in the last word */
		for (i = 0; ok && i < BITS_TO_LONGS(N) * BITS_PER_LONG; i++) {
			bool exp = test_bit(i, c->pre);

			if (i < N && test_bit(i, c->active))
				exp |= test_bit(i, tmp);
			ok = test_bit(i, c->hit) == exp;
		}
		result(P_ACTIVE, ok, c, mode == BFLY_WALK_REAL ? "REAL" : "ROUTE");
		if (!ok)
			break;
	}
	free(tmp);
}

static void check_geometry(enum bfly_topology t, u32 n, u32 rounds)
{
	struct ctx c;
	u32 r, s, idx;

	ctx_init(&c, t, n);
	for (r = 0; r < rounds; r++) {
		random_bits(c.m, c.g.switches);
		check_real(&c);
		random_bits(c.m, c.g.switches);
		check_route(&c);
		random_bits(c.m, c.g.switches);
		check_once(&c);
		random_bits(c.m, c.g.switches);
		check_labels(&c);
		random_bits(c.m, c.g.switches);
		check_active(&c);
	}
	random_bits(c.m, c.g.switches);
	if (c.g.switches * 2 <= 2048) {
		for (s = 0; s < c.g.node_stages; s++)
			for (idx = 0; idx < c.g.ports; idx++)
				check_one_link(&c, s, idx);
	} else {
		for (r = 0; r < 32; r++)
			check_one_link(&c, r ? rnd() % c.g.node_stages : c.g.node_stages - 1,
				       rnd() % c.g.ports);
	}
	ctx_free(&c);
}

/* Every single fault and pair of faults on every matrix, N <= 4. */
static void check_exhaustive(enum bfly_topology t, u32 n)
{
	struct bfly_fault all[256];
	u32 nall = 0, s, v, a, b, cases = 0;
	u64 m;
	struct ctx c;
	bool ok = true;

	ctx_init(&c, t, n);
	for (s = 0; s < c.g.node_stages; s++) {
		for (v = 0; v < c.g.nodes_per_stage; v++) {
			all[nall++] = (struct bfly_fault){ BFLY_FAULT_STUCK, s, v, 0 };
			all[nall++] = (struct bfly_fault){ BFLY_FAULT_STUCK, s, v, 1 };
		}
		for (v = 0; v < c.g.ports; v++)
			all[nall++] = (struct bfly_fault){ BFLY_FAULT_LINK, s, v, 0 };
	}
	for (m = 0; ok && m < 1ULL << c.g.switches; m++) {
		c.m[0] = m;
		for (a = 0; ok && a < nall; a++) {
			for (b = a; ok && b < nall; b++) {
				c.fl.count = 0;
				c.fl.list[c.fl.count++] = all[a];
				if (b != a && !bfly_fault_same_place(&all[a], &all[b]))
					c.fl.list[c.fl.count++] = all[b];
				ref_set(&c.r, &c.fl);
				cases++;
				ok = walk_vs_ref(&c, BFLY_WALK_ROUTE, NULL, c.m, NULL) &&
				     walk_vs_ref(&c, BFLY_WALK_REAL, NULL, c.m, NULL);
				if (!ok)
					printf("#   matrix %#llx, faults %u and %u of the list\n",
					       m, a, b);
			}
		}
	}
	/* one case per matrix and fault set */
	runs[P_EXHAUST] += cases - 1;
	result(P_EXHAUST, ok, &c, "differs");
	ctx_free(&c);
}

/* The reference wiring agrees with the module's. */
static void check_wiring(void)
{
	u32 t, n, e, p, bad = 0;

	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		for (n = 1; n <= 12; n++) {
			struct bfly_geometry g = geom(topos[t], n);

			if (g.node_stages != ref_stages(topos[t], n))
				bad++;
			for (e = 0; e + 1 < g.node_stages; e++)
				for (p = 0; p < g.ports; p++)
					if (bfly_wiring_link(&g, e, p) !=
					    ref_link(ref_edge_bit(topos[t], n, e), p))
						bad++;
		}
	}
	check(!bad, "reference wiring (node-label rule) == bfly_wiring_link(), N=2..4096 (%u bad)",
	      bad);
}

/* Whether bfly_fault_check() takes @f exactly when it names a real place. */
static bool fault_check_right(const struct bfly_geometry *g, const struct bfly_fault *f)
{
	const char *why = NULL;
	bool valid;
	int ret;

	if (f->kind == BFLY_FAULT_STUCK)
		valid = f->stage < g->node_stages && f->index < g->nodes_per_stage &&
			f->state <= 1;
	else if (f->kind == BFLY_FAULT_LINK)
		valid = f->stage < g->node_stages && f->index < g->ports && !f->state;
	else
		valid = false;
	ret = bfly_fault_check(g, f, &why);
	if (valid ? !ret : ret == -EINVAL && why && *why)
		return true;
	printf("#   %s N=%u fault %u/%u/%u/%u: %d\n", topo_name(g->topology), g->ports,
	       f->kind, f->stage, f->index, f->state, ret);
	return false;
}

/* bfly_fault_check() at every boundary of kind, stage, index and state. */
static void check_fault_check(void)
{
	static const u32 ns[] = { 1, 2, 3, 10, 20 };
	u32 t, k, i, bad = 0, cases = 0;

	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		for (k = 0; k < ARRAY_SIZE(ns); k++) {
			struct bfly_geometry g = geom(topos[t], ns[k]);
			u32 S = g.node_stages, half = g.nodes_per_stage;
			const u32 stages[] = { 0, S - 1, S, S + 1, 2 * S, U32_MAX };
			const u32 idx[] = { 0, half - 1, half, g.ports - 1, g.ports,
					    g.ports + 1, U32_MAX };
			const u32 states[] = { 0, 1, 2, 0x80000000U, U32_MAX };
			const u32 kinds[] = { 0, BFLY_FAULT_STUCK, BFLY_FAULT_LINK,
					      __BFLY_FAULT_MAX, 0x80000001U, U32_MAX };
			u32 nx = ARRAY_SIZE(states), ni = ARRAY_SIZE(idx), nst = ARRAY_SIZE(stages);

			for (i = 0; i < ARRAY_SIZE(kinds) * nst * ni * nx; i++) {
				struct bfly_fault f = {
					.kind = kinds[i / (nx * ni * nst)],
					.stage = stages[i / (nx * ni) % nst],
					.index = idx[i / nx % ni],
					.state = states[i % nx],
				};

				cases++;
				if (!fault_check_right(&g, &f) && ++bad > 4)
					break;
			}
		}
	}
	check(!bad, "bfly_fault_check(): %u kind/stage/index/state boundary cases (%u wrong)",
	      cases, bad);
}

static void check_small_helpers(void)
{
	struct bfly_fault a = { BFLY_FAULT_STUCK, 2, 3, 0 }, b = a;
	struct bfly_faults *fl = xalloc(sizeof(*fl));
	struct bfly_geometry g = geom(BFLY_TOPO_BENES, 5);
	bool ok;

	b.state = 1;
	ok = bfly_fault_same_place(&a, &b);
	b.kind = BFLY_FAULT_LINK;
	ok = ok && !bfly_fault_same_place(&a, &b);
	b = a;
	b.stage = 3;
	ok = ok && !bfly_fault_same_place(&a, &b);
	b = a;
	b.index = 2;
	ok = ok && !bfly_fault_same_place(&a, &b);
	check(ok, "bfly_fault_same_place(): kind, stage and index, not state");

	ok = !bfly_faults_have_stuck(NULL) && !bfly_faults_have_stuck(fl);
	add_fault(fl, BFLY_FAULT_LINK, 0, 0, 0);
	add_fault(fl, BFLY_FAULT_LINK, 1, 0, 0);
	ok = ok && !bfly_faults_have_stuck(fl);
	add_fault(fl, BFLY_FAULT_STUCK, 1, 0, 0);
	ok = ok && bfly_faults_have_stuck(fl);
	fl->count = 2;
	ok = ok && !bfly_faults_have_stuck(fl);
	check(ok, "bfly_faults_have_stuck(): NULL, empty, links only, one stuck, count honoured");

	check(bfly_fault_walk_workspace_size(&g) ==
	      g.ports * sizeof(u32) + bitmap_bytes(g.ports),
	      "bfly_fault_walk_workspace_size(): N u32 and an N-bit bitmap");
	free(fl);
}

/* One large fabric: the walks agree with the reference at N = 65536. */
static void check_large(void)
{
	struct ctx c;
	bool ok;

	ctx_init(&c, BFLY_TOPO_BENES, 16);
	random_bits(c.m, c.g.switches);
	random_faults(&c.g, &c.fl, BFLY_MAX_FAULTS, 50, false);
	ref_set(&c.r, &c.fl);
	ok = walk_vs_ref(&c, BFLY_WALK_ROUTE, NULL, c.m, NULL) &&
	     walk_vs_ref(&c, BFLY_WALK_REAL, NULL, c.m, NULL);
	check(ok, "benes N=65536, 64 random faults: ROUTE and REAL == reference");
	ctx_free(&c);
}

int main(void)
{
	u32 t, n, p;

	check_wiring();
	check_fault_check();
	check_small_helpers();
	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		memset(fails, 0, sizeof(fails));
		memset(runs, 0, sizeof(runs));
		memset(printed, 0, sizeof(printed));
		for (n = 1; n <= MAX_N_LOG2; n++)
			check_geometry(topos[t], n, n <= 4 ? 256 : n <= 7 ? 64 : 16);
		for (n = 1; n <= 2; n++)
			check_exhaustive(topos[t], n);
		for (p = 0; p < P_COUNT; p++)
			check(runs[p] && !fails[p], "%s, N=2..%u: %s (%u cases, %u fail)",
			      topo_name(topos[t]), 1U << MAX_N_LOG2, prop_text[p], runs[p],
			      fails[p]);
	}
	check_large();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
