// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the fault walk and the fault checks (fault.c) against the
 * independent reference of fault_ref.h, on every topology, N = 2 .. 1024
 * natively (.. 128 in the kernel), with exhaustive pairs of faults on
 * every matrix for N <= 4 and one large fabric. Each property is a case;
 * a failure names the topology, the size and the property.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/fault.h"
#include "lib/geometry.h"
#include "lib/selfroute.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "fault_ref.h"
#include "kunit_util.h"

#define BFLY_FW_MAX_LOG2 (BFLY_TEST_LARGE ? 10 : 7)

/* Everything one geometry's checks need. */
struct bfly_fw {
	struct bfly_geometry geo;
	struct bfly_ref ref;
	struct bfly_faults *fl;
	struct rnd_state rnd;
	unsigned long *m, *forced, *m2, *active;
	unsigned long *hit, *rhit, *pre, *tmp;
	u32 *out, *rout, *perm;
	u64 *labels;
	void *sr_work, *work;
	size_t work_size;
};

static u64 bfly_fw_rnd(struct bfly_fw *c)
{
	return (u64)prandom_u32_state(&c->rnd) << 32 | prandom_u32_state(&c->rnd);
}

static size_t bfly_fw_bytes(u32 bits)
{
	return BITS_TO_LONGS(bits) * sizeof(unsigned long);
}

static void bfly_fw_init(struct kunit *test, struct bfly_fw *c, enum bfly_topology topo,
			 u32 n, u64 seed)
{
	u32 N = 1U << n;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&c->geo, topo, 2, N, &why));
	bfly_ref_init(test, &c->ref, &c->geo);
	prandom_seed_state(&c->rnd, seed);
	c->fl = bfly_test_alloc(test, sizeof(*c->fl));
	c->m = bfly_test_alloc(test, bfly_matrix_bytes(&c->geo));
	c->forced = bfly_test_alloc(test, bfly_matrix_bytes(&c->geo));
	c->m2 = bfly_test_alloc(test, bfly_matrix_bytes(&c->geo));
	c->active = bfly_test_alloc(test, bfly_fw_bytes(N));
	c->hit = bfly_test_alloc(test, bfly_fw_bytes(N));
	c->rhit = bfly_test_alloc(test, bfly_fw_bytes(N));
	c->pre = bfly_test_alloc(test, bfly_fw_bytes(N));
	c->tmp = bfly_test_alloc(test, bfly_fw_bytes(N));
	c->out = bfly_test_alloc(test, N * sizeof(u32));
	c->rout = bfly_test_alloc(test, N * sizeof(u32));
	c->perm = bfly_test_alloc(test, N * sizeof(u32));
	c->labels = bfly_test_alloc(test, N * sizeof(u64));
	c->sr_work = bfly_test_alloc(test, bfly_selfroute_workspace_size(&c->geo));
	c->work_size = bfly_fault_walk_workspace_size(&c->geo);
	c->work = bfly_test_alloc(test, c->work_size);
}

static void bfly_fw_random_bits(struct bfly_fw *c, unsigned long *b, u64 bits)
{
	size_t w;

	for (w = 0; w < BITS_TO_LONGS(bits); w++)
		b[w] = (unsigned long)bfly_fw_rnd(c);
}

/* Is place (kind, stage, index) already in @fl? */
static bool bfly_fw_has(const struct bfly_faults *fl, u32 kind, u32 stage, u32 index)
{
	u32 j;

	for (j = 0; j < fl->count; j++)
		if (fl->list[j].kind == kind && fl->list[j].stage == stage &&
		    fl->list[j].index == index)
			return true;
	return false;
}

static void bfly_fw_add(struct bfly_faults *fl, u32 kind, u32 stage, u32 index, u32 state)
{
	struct bfly_fault *f = &fl->list[fl->count++];

	f->kind = kind;
	f->stage = stage;
	f->index = index;
	f->state = kind == BFLY_FAULT_STUCK ? state : 0;
}

/*
 * Up to @want faults at random distinct places, stuck ones with
 * probability @stuck_pct percent; with @cluster all in at most two stages
 * and a few nodes, so that faults share nodes and packets meet several.
 * The reference takes them too.
 */
static void bfly_fw_random_faults(struct bfly_fw *c, u32 want, u32 stuck_pct, bool cluster)
{
	const struct bfly_geometry *geo = &c->geo;
	u32 s0 = bfly_fw_rnd(c) % geo->node_stages, s1 = bfly_fw_rnd(c) % geo->node_stages;
	u32 v0 = bfly_fw_rnd(c) % geo->nodes_per_stage, tries, kind, stage, node, index;

	c->fl->count = 0;
	for (tries = 0; c->fl->count < want && tries < 64 * want; tries++) {
		kind = bfly_fw_rnd(c) % 100 < stuck_pct ? BFLY_FAULT_STUCK : BFLY_FAULT_LINK;
		if (cluster)
			stage = bfly_fw_rnd(c) & 1 ? s0 : s1;
		else
			stage = bfly_fw_rnd(c) % geo->node_stages;
		node = cluster ? (v0 + bfly_fw_rnd(c) % 4) % geo->nodes_per_stage :
				 bfly_fw_rnd(c) % geo->nodes_per_stage;
		index = kind == BFLY_FAULT_STUCK ? node : 2 * node + (bfly_fw_rnd(c) & 1);
		if (!bfly_fw_has(c->fl, kind, stage, index))
			bfly_fw_add(c->fl, kind, stage, index, bfly_fw_rnd(c) & 1);
	}
	bfly_ref_set(&c->ref, c->fl);
}

/* Random faults of every kind mix, cluster or not, 0 .. 64 of them */
static void bfly_fw_any_faults(struct bfly_fw *c)
{
	bfly_fw_random_faults(c, bfly_fw_rnd(c) % (BFLY_MAX_FAULTS + 1), bfly_fw_rnd(c) % 101,
			      bfly_fw_rnd(c) & 1);
}

/* c->forced: c->m with every stuck node's bit set to its state. */
static void bfly_fw_force(struct bfly_fw *c)
{
	const struct bfly_fault *f;
	u32 j;

	bitmap_copy(c->forced, c->m, c->geo.switches);
	for (j = 0; j < c->fl->count; j++) {
		f = &c->fl->list[j];
		if (f->kind == BFLY_FAULT_STUCK)
			__assign_bit(bfly_matrix_bit(&c->geo, f->stage, f->index), c->forced,
				     f->state);
	}
}

/* bfly_fault_walk() with a workspace of its exact size, full of garbage. */
static int bfly_fw_walk(struct bfly_fw *c, enum bfly_walk_mode mode, const u64 *labels,
			const unsigned long *matrix, const unsigned long *active,
			unsigned long *hit, u32 *out)
{
	struct bfly_fault_walk w = {
		.mode = mode, .labels = labels, .matrix = matrix, .active = active,
	};

	memset(c->work, 0xa5, c->work_size);
	return bfly_fault_walk(&c->geo, c->fl, &w, hit, out, c->work);
}

static bool bfly_fw_out_equal(const u32 *a, const u32 *b, u32 n, const unsigned long *active)
{
	u32 i;

	for (i = 0; i < n; i++)
		if ((!active || test_bit(i, active)) && a[i] != b[i])
			return false;
	return true;
}

/* Walk; hit set, count and outputs are the reference's. */
static bool bfly_fw_vs_ref(struct bfly_fw *c, enum bfly_walk_mode mode, const u64 *labels,
			   const unsigned long *matrix, const unsigned long *active)
{
	u32 N = c->geo.ports, want;
	int ret;

	bitmap_zero(c->hit, N);
	bitmap_zero(c->rhit, N);
	ret = bfly_fw_walk(c, mode, labels, matrix, active, c->hit, c->out);
	want = bfly_ref_walk(&c->ref, mode == BFLY_WALK_REAL, labels, matrix, active, c->rhit,
			     c->rout);
	return ret == (int)want && bitmap_weight(c->hit, N) == want &&
	       bitmap_equal(c->hit, c->rhit, N) && bfly_fw_out_equal(c->out, c->rout, N, active);
}

/* REAL without faults is bfly_trace(), nothing hit. */
static bool bfly_fw_real_none(struct bfly_fw *c)
{
	u32 N = c->geo.ports;

	c->fl->count = 0;
	bfly_ref_set(&c->ref, c->fl);
	bitmap_zero(c->hit, N);
	bfly_trace(&c->geo, c->m, c->perm);
	return !bfly_fw_walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->hit, c->out) &&
	       !bitmap_weight(c->hit, N) && !memcmp(c->out, c->perm, N * sizeof(u32));
}

/* REAL with stuck nodes: the trace of the forced matrix, hits as the reference's. */
static bool bfly_fw_real_stuck(struct bfly_fw *c)
{
	bfly_fw_random_faults(c, 1 + bfly_fw_rnd(c) % BFLY_MAX_FAULTS, 100, bfly_fw_rnd(c) & 1);
	bfly_fw_force(c);
	bfly_trace(&c->geo, c->forced, c->perm);
	return bfly_fw_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL) &&
	       !memcmp(c->out, c->perm, c->geo.ports * sizeof(u32));
}

/*
 * REAL with broken links too: exactly the packets whose forced path
 * crosses one are lost, the others go as the forced matrix traces.
 */
static bool bfly_fw_real_link(struct bfly_fw *c)
{
	u32 N = c->geo.ports, i, p, s;
	bool crosses;

	bfly_fw_random_faults(c, 1 + bfly_fw_rnd(c) % BFLY_MAX_FAULTS, bfly_fw_rnd(c) % 80,
			      bfly_fw_rnd(c) & 1);
	bfly_fw_force(c);
	bfly_trace(&c->geo, c->forced, c->perm);
	if (!bfly_fw_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL))
		return false;
	for (i = 0; i < N; i++) {
		crosses = false;
		for (p = i, s = 0; s < c->geo.node_stages; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->geo, s, p >> 1), c->forced);
			crosses |= c->ref.broken[(u64)s * N + p];
			if (s + 1 < c->geo.node_stages)
				p = bfly_wiring_link(&c->geo, s, p);
		}
		if (c->out[i] != (crosses ? BFLY_TRACE_LOST : c->perm[i]))
			return false;
	}
	return true;
}

/* ROUTE on a matrix: hit set, count and outputs (the trace) as the reference's. */
static bool bfly_fw_route(struct bfly_fw *c)
{
	bfly_fw_any_faults(c);
	bfly_trace(&c->geo, c->m, c->perm);
	return bfly_fw_vs_ref(c, BFLY_WALK_ROUTE, NULL, c->m, NULL) &&
	       !memcmp(c->out, c->perm, c->geo.ports * sizeof(u32));
}

/* hit and out NULL or not: the same count and hit set, ROUTE and REAL. */
static bool bfly_fw_nulls(struct bfly_fw *c)
{
	enum bfly_walk_mode mode;
	u32 N = c->geo.ports;
	int ret;

	bfly_fw_any_faults(c);
	for (mode = BFLY_WALK_ROUTE; mode <= BFLY_WALK_REAL; mode++) {
		bitmap_zero(c->hit, N);
		bitmap_zero(c->rhit, N);
		ret = bfly_fw_walk(c, mode, NULL, c->m, NULL, c->hit, c->out);
		if (bfly_fw_walk(c, mode, NULL, c->m, NULL, c->rhit, NULL) != ret ||
		    !bitmap_equal(c->hit, c->rhit, N) ||
		    bfly_fw_walk(c, mode, NULL, c->m, NULL, NULL, NULL) != ret ||
		    bfly_fw_walk(c, mode, NULL, c->m, NULL, NULL, c->out) != ret)
			return false;
	}
	return true;
}

/* bfly_faults_stuck_unmet() counts the bits that differ from the forced matrix. */
static bool bfly_fw_unmet(struct bfly_fw *c)
{
	u32 i, unmet = 0;

	bfly_fw_any_faults(c);
	bfly_fw_force(c);
	for (i = 0; i < c->geo.switches; i++)
		unmet += test_bit(i, c->m) != test_bit(i, c->forced);
	return bfly_faults_stuck_unmet(&c->geo, c->fl, c->m) == unmet;
}

/* ROUTE with stuck nodes only: something is hit iff some stuck node is unmet. */
static bool bfly_fw_stuck_zero(struct bfly_fw *c)
{
	u32 unmet;
	int ret;

	bfly_fw_random_faults(c, 1 + bfly_fw_rnd(c) % 8, 100, false);
	if (bfly_fw_rnd(c) & 1) {
		bfly_fw_force(c);
		bitmap_copy(c->m, c->forced, c->geo.switches);
	}
	ret = bfly_fw_walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, NULL, NULL);
	unmet = bfly_faults_stuck_unmet(&c->geo, c->fl, c->m);
	return (ret == 0) == (unmet == 0) && ret <= (int)(2 * unmet);
}

/*
 * One packet's path gets a fault at every node and link it uses (up to the
 * limit), plus random stuck nodes: it, and every other packet, counts once.
 */
static bool bfly_fw_once(struct bfly_fw *c)
{
	u32 N = c->geo.ports, i = bfly_fw_rnd(c) % N, p = i, s, k, node, bit, st;

	c->fl->count = 0;
	for (s = 0; s < c->geo.node_stages && c->fl->count + 2 <= BFLY_MAX_FAULTS; s++) {
		node = p >> 1;
		bit = test_bit(bfly_matrix_bit(&c->geo, s, node), c->m);
		p ^= bit;
		bfly_fw_add(c->fl, BFLY_FAULT_STUCK, s, node, bit ^ 1);
		bfly_fw_add(c->fl, BFLY_FAULT_LINK, s, p, 0);
		if (s + 1 < c->geo.node_stages)
			p = bfly_wiring_link(&c->geo, s, p);
	}
	for (k = 0; k < 8 && c->fl->count < BFLY_MAX_FAULTS; k++) {
		st = bfly_fw_rnd(c) % c->geo.node_stages;
		node = bfly_fw_rnd(c) % c->geo.nodes_per_stage;
		if (!bfly_fw_has(c->fl, BFLY_FAULT_STUCK, st, node))
			bfly_fw_add(c->fl, BFLY_FAULT_STUCK, st, node, bfly_fw_rnd(c) & 1);
	}
	bfly_ref_set(&c->ref, c->fl);
	return bfly_fw_vs_ref(c, BFLY_WALK_ROUTE, NULL, c->m, NULL) && test_bit(i, c->hit) &&
	       bfly_fw_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL) && test_bit(i, c->hit);
}

/* ROUTE and REAL with random labels, some shared (sure conflicts). */
static bool bfly_fw_labels(struct bfly_fw *c)
{
	u32 N = c->geo.ports, S = c->geo.node_stages, i;

	bfly_fw_any_faults(c);
	for (i = 0; i < N; i++)
		c->labels[i] = bfly_fw_rnd(c) & ((1ULL << S) - 1);
	for (i = 0; i + 1 < N; i += 2 + bfly_fw_rnd(c) % 4)
		c->labels[i + 1] = c->labels[i];
	return bfly_fw_vs_ref(c, BFLY_WALK_ROUTE, c->labels, c->m, NULL) &&
	       bfly_fw_vs_ref(c, BFLY_WALK_REAL, c->labels, c->m, NULL);
}

/*
 * Conflict-free labels (read off the matrix) walk as the matrix
 * bfly_selfroute_labels() makes of them; in REAL mode only without stuck
 * nodes (a deflected packet follows its label, not the matrix).
 */
static bool bfly_fw_labels_cf(struct bfly_fw *c)
{
	u32 N = c->geo.ports, S = c->geo.node_stages, i, s, p;
	struct bfly_conflicts conf = { 0 };
	enum bfly_walk_mode mode;
	int a, b;

	bfly_fw_any_faults(c);
	for (i = 0; i < N; i++) {
		c->labels[i] = 0;
		for (p = i, s = 0; s < S; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->geo, s, p >> 1), c->m);
			c->labels[i] = (c->labels[i] << 1) | (p & 1);
			if (s + 1 < S)
				p = bfly_wiring_link(&c->geo, s, p);
		}
	}
	if (bfly_selfroute_labels(&c->geo, c->labels, c->m2, NULL, &conf, c->sr_work) ||
	    conf.count)
		return false;
	for (mode = BFLY_WALK_ROUTE; mode <= (bfly_faults_have_stuck(c->fl) ? BFLY_WALK_ROUTE :
					      BFLY_WALK_REAL); mode++) {
		bitmap_zero(c->hit, N);
		bitmap_zero(c->rhit, N);
		a = bfly_fw_walk(c, mode, c->labels, NULL, NULL, c->hit, c->out);
		b = bfly_fw_walk(c, mode, NULL, c->m2, NULL, c->rhit, c->rout);
		if (a != b || !bitmap_equal(c->hit, c->rhit, N) ||
		    memcmp(c->out, c->rout, N * sizeof(u32)))
			return false;
	}
	return true;
}

/* active restricts the walk: inactive inputs are never hit, their bits left alone. */
static bool bfly_fw_active(struct bfly_fw *c)
{
	u32 N = c->geo.ports, i, j, want, pick = bfly_fw_rnd(c) % 4;
	enum bfly_walk_mode mode;
	const u64 *labels;
	bool exp;
	int ret;

	bfly_fw_any_faults(c);
	if (pick == 0)
		memset(c->active, 0, bfly_fw_bytes(N));
	else if (pick == 1)
		memset(c->active, 0xff, bfly_fw_bytes(N));
	else
		bfly_fw_random_bits(c, c->active, N);
	for (i = 0; i < N; i++)
		c->labels[i] = bfly_fw_rnd(c) & ((1ULL << c->geo.node_stages) - 1);
	for (j = 0; j < 4; j++) {
		mode = j & 1 ? BFLY_WALK_REAL : BFLY_WALK_ROUTE;
		labels = j & 2 ? c->labels : NULL;
		bfly_fw_random_bits(c, c->pre, N);
		memcpy(c->hit, c->pre, bfly_fw_bytes(N));
		memset(c->tmp, 0, bfly_fw_bytes(N));
		ret = bfly_fw_walk(c, mode, labels, c->m, c->active, c->hit, c->out);
		want = bfly_ref_walk(&c->ref, mode == BFLY_WALK_REAL, labels, c->m, c->active,
				     c->tmp, c->rout);
		if (ret != (int)want || !bfly_fw_out_equal(c->out, c->rout, N, c->active))
			return false;
		/* every bit, even past N in the last word */
		for (i = 0; i < BITS_TO_LONGS(N) * BITS_PER_LONG; i++) {
			exp = test_bit(i, c->pre);
			if (i < N && test_bit(i, c->active))
				exp |= test_bit(i, c->tmp);
			if (test_bit(i, c->hit) != exp)
				return false;
		}
	}
	return true;
}

/*
 * Run @prop on every topology, N = 2 .. 2^BFLY_FW_MAX_LOG2, on random
 * matrices: more rounds on small fabrics; one expectation per topology.
 */
static void bfly_fw_sweep(struct kunit *test, bool (*prop)(struct bfly_fw *c), const char *what)
{
	u32 n, r, rounds, fails, runs, first;
	enum bfly_topology topo;
	struct bfly_fw c;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		fails = 0;
		runs = 0;
		first = 0;
		for (n = 1; n <= BFLY_FW_MAX_LOG2; n++) {
			bfly_fw_init(test, &c, topo, n, 1000 * topo + n);
			rounds = n <= 4 ? BFLY_TEST_REPS(256, 16) : n <= 7 ? BFLY_TEST_REPS(64, 4) :
				 BFLY_TEST_REPS(16, 2);
			for (r = 0; r < rounds; r++) {
				bfly_fw_random_bits(&c, c.m, c.geo.switches);
				runs++;
				if (!prop(&c) && !fails++)
					first = c.geo.ports;
			}
			cond_resched();
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, fails, "%s N=2..%u: %s (%u cases, first at N=%u)",
				    bfly_topology_name(topo), 1U << BFLY_FW_MAX_LOG2, what, runs,
				    first);
	}
}

#define BFLY_FW_CASE(name, what)					\
	static void bfly_fw_case_##name(struct kunit *test)		\
	{								\
		bfly_fw_sweep(test, bfly_fw_##name, what);		\
	}

BFLY_FW_CASE(real_none, "REAL without faults == bfly_trace(), nothing hit")
BFLY_FW_CASE(real_stuck, "REAL, stuck nodes: the forced matrix's trace, hits as the reference")
BFLY_FW_CASE(real_link, "REAL, broken links: exactly their packets lost")
BFLY_FW_CASE(route, "ROUTE on a matrix: hits, count and outputs as the reference")
BFLY_FW_CASE(nulls, "hit and out NULL or not: the same count and hits")
BFLY_FW_CASE(unmet, "bfly_faults_stuck_unmet() == bits differing from the forced matrix")
BFLY_FW_CASE(stuck_zero, "ROUTE, stuck nodes only: no hit iff no stuck node unmet")
BFLY_FW_CASE(once, "ROUTE and REAL: a packet meeting many faults counts once")
BFLY_FW_CASE(labels, "ROUTE and REAL with random labels as the reference")
BFLY_FW_CASE(labels_cf, "conflict-free labels walk as their matrix")
BFLY_FW_CASE(active, "active restricts the walk, other bits left alone")

/* The input whose packet leaves node stage @stage on link @index, or U32_MAX. */
static u32 bfly_fw_packet_on(struct bfly_fw *c, u32 stage, u32 index)
{
	u32 i, p, s;

	for (i = 0; i < c->geo.ports; i++) {
		for (p = i, s = 0; s <= stage; s++) {
			p ^= test_bit(bfly_matrix_bit(&c->geo, s, p >> 1), c->m);
			if (s < stage)
				p = bfly_wiring_link(&c->geo, s, p);
		}
		if (p == index)
			return i;
	}
	return U32_MAX;
}

/*
 * One broken link under a full permutation (c->perm, the trace of c->m):
 * ROUTE hits exactly the packet on it, REAL loses exactly it.
 */
static bool bfly_fw_link_hits_one(struct bfly_fw *c, u32 stage, u32 index)
{
	u32 N = c->geo.ports, on, i;
	bool ok;
	int ret;

	c->fl->count = 0;
	bfly_fw_add(c->fl, BFLY_FAULT_LINK, stage, index, 0);
	on = bfly_fw_packet_on(c, stage, index);
	bitmap_zero(c->hit, N);
	ret = bfly_fw_walk(c, BFLY_WALK_ROUTE, NULL, c->m, NULL, c->hit, NULL);
	ok = ret == 1 && on < N && bitmap_weight(c->hit, N) == 1 && test_bit(on, c->hit);
	bitmap_zero(c->hit, N);
	ret = bfly_fw_walk(c, BFLY_WALK_REAL, NULL, c->m, NULL, c->hit, c->out);
	for (i = 0; ok && i < N; i++)
		ok = c->out[i] == (i == on ? BFLY_TRACE_LOST : c->perm[i]);
	return ok && ret == 1 && bitmap_weight(c->hit, N) == 1 && test_bit(on, c->hit);
}

/*
 * A full permutation and one broken link: every link for fabrics of up to
 * 1024 switches, 32 random ones (one in the last stage) on larger ones.
 */
static void bfly_fw_one_link(struct kunit *test)
{
	u32 n, r, links, stage, index, fails, runs;
	enum bfly_topology topo;
	struct bfly_fw c;
	bool every;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		fails = 0;
		runs = 0;
		for (n = 1; n <= BFLY_FW_MAX_LOG2; n++) {
			bfly_fw_init(test, &c, topo, n, 2000 * topo + n);
			bfly_fw_random_bits(&c, c.m, c.geo.switches);
			bfly_trace(&c.geo, c.m, c.perm);
			every = c.geo.switches <= 1024;
			links = every ? c.geo.node_stages * c.geo.ports : 32;
			for (r = 0; r < links; r++) {
				if (every) {
					stage = r / c.geo.ports;
					index = r % c.geo.ports;
				} else {
					stage = r ? bfly_fw_rnd(&c) % c.geo.node_stages :
						c.geo.node_stages - 1;
					index = bfly_fw_rnd(&c) % c.geo.ports;
				}
				runs++;
				fails += !bfly_fw_link_hits_one(&c, stage, index);
			}
			cond_resched();
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, fails, "%s: one broken link, %u cases",
				    bfly_topology_name(topo), runs);
	}
}

/* Every fault a geometry can have, into @all; returns how many. */
static u32 bfly_fw_every_fault(const struct bfly_geometry *geo, struct bfly_fault *all)
{
	u32 s, v, n = 0;

	for (s = 0; s < geo->node_stages; s++) {
		for (v = 0; v < geo->nodes_per_stage; v++) {
			all[n++] = (struct bfly_fault){ BFLY_FAULT_STUCK, s, v, 0 };
			all[n++] = (struct bfly_fault){ BFLY_FAULT_STUCK, s, v, 1 };
		}
		for (v = 0; v < geo->ports; v++)
			all[n++] = (struct bfly_fault){ BFLY_FAULT_LINK, s, v, 0 };
	}
	return n;
}

/* On c->m, every single fault of @all and every pair: the failures. */
static u32 bfly_fw_pairs(struct bfly_fw *c, const struct bfly_fault *all, u32 nall)
{
	u32 a, b, fails = 0;

	for (a = 0; a < nall; a++) {
		for (b = a; b < nall; b++) {
			c->fl->count = 0;
			c->fl->list[c->fl->count++] = all[a];
			if (b != a && !bfly_fault_same_place(&all[a], &all[b]))
				c->fl->list[c->fl->count++] = all[b];
			bfly_ref_set(&c->ref, c->fl);
			fails += !bfly_fw_vs_ref(c, BFLY_WALK_ROUTE, NULL, c->m, NULL) ||
				 !bfly_fw_vs_ref(c, BFLY_WALK_REAL, NULL, c->m, NULL);
		}
	}
	return fails;
}

/*
 * N = 2 and 4 (2 in the kernel): every matrix with every single fault and
 * every pair of faults, ROUTE and REAL as the reference.
 */
static void bfly_fw_exhaustive(struct kunit *test)
{
	struct bfly_fault *all = bfly_test_alloc(test, 256 * sizeof(*all));
	enum bfly_topology topo;
	u32 n, nall, fails;
	struct bfly_fw c;
	u64 m;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		for (n = 1; n <= (BFLY_TEST_LARGE ? 2 : 1); n++) {
			bfly_fw_init(test, &c, topo, n, n);
			nall = bfly_fw_every_fault(&c.geo, all);
			fails = 0;
			for (m = 0; m < 1ULL << c.geo.switches; m++) {
				c.m[0] = m;
				fails += bfly_fw_pairs(&c, all, nall);
				cond_resched();
			}
			KUNIT_EXPECT_EQ_MSG(test, 0, fails, "%s N=%u: every matrix, %u faults",
					    bfly_topology_name(topo), c.geo.ports, nall);
		}
	}
}

/* The reference's wiring and stage counts are the library's, N = 2 .. 4096. */
static void bfly_fw_ref_wiring(struct kunit *test)
{
	enum bfly_topology topo;
	struct bfly_geometry geo;
	u32 n, e, p, bad;
	const char *why;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		bad = 0;
		for (n = 1; n <= 12; n++) {
			KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, topo, 2, 1U << n, &why));
			bad += geo.node_stages != bfly_ref_stages(topo, n);
			for (e = 0; e + 1 < geo.node_stages; e++)
				for (p = 0; p < geo.ports; p++)
					bad += bfly_wiring_link(&geo, e, p) !=
					       bfly_ref_link(bfly_ref_edge_bit(topo, n, e), p);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s", bfly_topology_name(topo));
	}
}

/* bfly_fault_check() takes a fault exactly when it names a real place. */
static void bfly_fw_fault_check(struct kunit *test)
{
	static const u32 ns[] = { 1, 2, 3, 10, 20 };
	u32 k, i, S, half, ports, bad, cases;
	enum bfly_topology topo;
	struct bfly_geometry geo;
	struct bfly_fault f;
	const char *why;
	bool valid;
	int ret;

	for (topo = BFLY_TOPO_BUTTERFLY; topo < __BFLY_TOPO_MAX; topo++) {
		if (!bfly_topology_2x2(bfly_topology_find(topo)))
			continue;	/* k x k fabrics: kfly_kunit.c */
		bad = 0;
		cases = 0;
		for (k = 0; k < ARRAY_SIZE(ns); k++) {
			KUNIT_ASSERT_EQ(test, 0,
					bfly_geometry_init(&geo, topo, 2, 1U << ns[k], &why));
			S = geo.node_stages;
			half = geo.nodes_per_stage;
			ports = geo.ports;
			{
				const u32 stages[] = { 0, S - 1, S, S + 1, 2 * S, U32_MAX };
				const u32 idx[] = { 0, half - 1, half, ports - 1, ports, ports + 1,
						    U32_MAX };
				const u32 states[] = { 0, 1, 2, 0x80000000U, U32_MAX };
				const u32 kinds[] = { 0, BFLY_FAULT_STUCK, BFLY_FAULT_LINK,
						      __BFLY_FAULT_MAX, 0x80000001U, U32_MAX };
				u32 nx = ARRAY_SIZE(states), ni = ARRAY_SIZE(idx);
				u32 nst = ARRAY_SIZE(stages);

				for (i = 0; i < ARRAY_SIZE(kinds) * nst * ni * nx; i++) {
					f.kind = kinds[i / (nx * ni * nst)];
					f.stage = stages[i / (nx * ni) % nst];
					f.index = idx[i / nx % ni];
					f.state = states[i % nx];
					if (f.kind == BFLY_FAULT_STUCK)
						valid = f.stage < S && f.index < half &&
							f.state <= 1;
					else if (f.kind == BFLY_FAULT_LINK)
						valid = f.stage < S && f.index < ports && !f.state;
					else
						valid = false;
					why = NULL;
					ret = bfly_fault_check(&geo, &f, &why);
					cases++;
					bad += valid ? ret != 0 : ret != -EINVAL || !why || !*why;
				}
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "%s: %u kind/stage/index/state boundary cases",
				    bfly_topology_name(topo), cases);
	}
}

/* bfly_fault_same_place(), bfly_faults_have_stuck(), the walk's workspace size. */
static void bfly_fw_small_helpers(struct kunit *test)
{
	struct bfly_faults *fl = bfly_test_alloc(test, sizeof(*fl));
	struct bfly_fault a = { BFLY_FAULT_STUCK, 2, 3, 0 }, b = a;
	struct bfly_geometry geo;
	const char *why;

	b.state = 1;
	KUNIT_EXPECT_TRUE(test, bfly_fault_same_place(&a, &b));
	b.kind = BFLY_FAULT_LINK;
	KUNIT_EXPECT_FALSE(test, bfly_fault_same_place(&a, &b));
	b = a;
	b.stage = 3;
	KUNIT_EXPECT_FALSE(test, bfly_fault_same_place(&a, &b));
	b = a;
	b.index = 2;
	KUNIT_EXPECT_FALSE(test, bfly_fault_same_place(&a, &b));

	KUNIT_EXPECT_FALSE(test, bfly_faults_have_stuck(NULL));
	KUNIT_EXPECT_FALSE(test, bfly_faults_have_stuck(fl));
	bfly_fw_add(fl, BFLY_FAULT_LINK, 0, 0, 0);
	bfly_fw_add(fl, BFLY_FAULT_LINK, 1, 0, 0);
	KUNIT_EXPECT_FALSE(test, bfly_faults_have_stuck(fl));
	bfly_fw_add(fl, BFLY_FAULT_STUCK, 1, 0, 0);
	KUNIT_EXPECT_TRUE(test, bfly_faults_have_stuck(fl));
	fl->count = 2;
	KUNIT_EXPECT_FALSE(test, bfly_faults_have_stuck(fl));

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 32, &why));
	KUNIT_EXPECT_EQ(test, geo.ports * sizeof(u32) + bfly_fw_bytes(geo.ports),
			bfly_fault_walk_workspace_size(&geo));
}

/* One large fabric, 64 random faults: ROUTE and REAL as the reference. */
static void bfly_fw_large(struct kunit *test)
{
	struct bfly_fw c;

	bfly_fw_init(test, &c, BFLY_TOPO_BENES, BFLY_TEST_LARGE ? 16 : 12, 16);
	bfly_fw_random_bits(&c, c.m, c.geo.switches);
	bfly_fw_random_faults(&c, BFLY_MAX_FAULTS, 50, false);
	KUNIT_EXPECT_TRUE_MSG(test, bfly_fw_vs_ref(&c, BFLY_WALK_ROUTE, NULL, c.m, NULL),
			      "benes N=%u, ROUTE", c.geo.ports);
	KUNIT_EXPECT_TRUE_MSG(test, bfly_fw_vs_ref(&c, BFLY_WALK_REAL, NULL, c.m, NULL),
			      "benes N=%u, REAL", c.geo.ports);
}

static struct kunit_case bfly_fault_walk_cases[] = {
	KUNIT_CASE(bfly_fw_ref_wiring),
	KUNIT_CASE(bfly_fw_fault_check),
	KUNIT_CASE(bfly_fw_small_helpers),
	KUNIT_CASE_SLOW(bfly_fw_case_real_none),
	KUNIT_CASE_SLOW(bfly_fw_case_real_stuck),
	KUNIT_CASE_SLOW(bfly_fw_case_real_link),
	KUNIT_CASE_SLOW(bfly_fw_case_route),
	KUNIT_CASE_SLOW(bfly_fw_case_nulls),
	KUNIT_CASE_SLOW(bfly_fw_case_unmet),
	KUNIT_CASE_SLOW(bfly_fw_case_stuck_zero),
	KUNIT_CASE_SLOW(bfly_fw_case_once),
	KUNIT_CASE_SLOW(bfly_fw_case_labels),
	KUNIT_CASE_SLOW(bfly_fw_case_labels_cf),
	KUNIT_CASE_SLOW(bfly_fw_case_active),
	KUNIT_CASE_SLOW(bfly_fw_one_link),
	KUNIT_CASE_SLOW(bfly_fw_exhaustive),
	KUNIT_CASE(bfly_fw_large),
	{}
};

static struct kunit_suite bfly_fault_walk_suite = {
	.name = "bfly_fault_walk",
	.test_cases = bfly_fault_walk_cases,
};

kunit_test_suite(bfly_fault_walk_suite);
