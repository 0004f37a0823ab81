// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the k-ary n-fly (kfly.c). With k = 2 it is the butterfly: same
 * wiring, same routes, same conflicts, same windows. The realizable
 * permutations number (k!)^((N/k) n), counted by tracing every setting and
 * by routing every permutation, and the window test finds the first
 * conflicting stage of every permutation; random settings' permutations
 * route back to the same settings at large N for several k.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/geometry.h"
#include "lib/kfly.h"
#include "lib/selfroute.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

/* Everything one k-ary n-fly's checks need. */
struct bfly_kf {
	struct bfly_kfly g;
	u32 *perm, *back, *del;
	u8 *set, *set2;
	unsigned long *seen;
	void *work;
	struct bfly_port_conflict *list;
	struct bfly_kfly_conflicts conflicts;
};

static void bfly_kf_init(struct kunit *test, struct bfly_kf *c, u32 k, u32 ports)
{
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&c->g, k, ports, &why));
	c->perm = bfly_test_alloc(test, ports * sizeof(u32));
	c->back = bfly_test_alloc(test, ports * sizeof(u32));
	c->del = bfly_test_alloc(test, ports * sizeof(u32));
	c->set = bfly_test_alloc(test, bfly_kfly_settings_size(&c->g));
	c->set2 = bfly_test_alloc(test, bfly_kfly_settings_size(&c->g));
	c->seen = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));
	c->work = bfly_test_alloc(test, bfly_kfly_route_workspace_size(&c->g));
	c->list = bfly_test_alloc(test, 64 * sizeof(*c->list));
	c->conflicts = (struct bfly_kfly_conflicts){ .list = c->list, .capacity = 64 };
}

/* Radix and port counts refused, and the shapes of good ones. */
static void bfly_kfly_shapes(struct kunit *test)
{
	static const u32 bad[][2] = {
		{ 1, 1 }, { 0, 8 }, { 65, 65 }, { 2, 1 }, { 2, 12 }, { 3, 27 * 2 },
		{ 4, 8 }, { 2, 1U << 21 }, { 64, 1U << 24 }, { 3, 0 },
	};
	struct bfly_kfly g;
	const char *why;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, bfly_kfly_init(&g, bad[i][0], bad[i][1], &why),
				    "k=%u N=%u", bad[i][0], bad[i][1]);
		KUNIT_EXPECT_TRUE(test, why && *why);
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, 3, 81, &why));
	KUNIT_EXPECT_EQ(test, 4, g.n);
	KUNIT_EXPECT_EQ(test, 27, g.switches);
	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, 64, 1U << 18, &why));
	KUNIT_EXPECT_EQ(test, 3, g.n);
	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, 5, 5, &why));
	KUNIT_EXPECT_EQ(test, 1, g.n);
	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, 2, 1U << 20, &why));
	KUNIT_EXPECT_EQ(test, 20, g.n);
}

/* A 2 x 2 setting as a butterfly matrix bit: 1 when the switch crosses. */
static bool bfly_kf_crossed(const u8 *set, u32 node)
{
	return set[2 * node] == 1;
}

/* The butterfly's conflicts and the k-ary n-fly's are the same list. */
static bool bfly_kf_same_conflicts(const struct bfly_conflicts *b,
				   const struct bfly_kfly_conflicts *c)
{
	u32 i;

	if (b->count != c->count || b->first_stage != c->first_stage)
		return false;
	for (i = 0; i < min(b->count, min(b->capacity, c->capacity)); i++)
		if (b->list[i].stage != c->list[i].stage || b->list[i].node != c->list[i].node ||
		    b->list[i].input[0] != c->list[i].input[0] ||
		    b->list[i].input[1] != c->list[i].input[1])
			return false;
	return true;
}

/*
 * k = 2 is the butterfly: the same links for N = 2 .. 4096; for every
 * permutation of N = 8 (and random ones of N = 1024) the same settings,
 * deliveries, conflicts and first window.
 */
static void bfly_kfly_binary_is_butterfly(struct kunit *test)
{
	struct bfly_conflict bl[64];
	struct bfly_conflicts bc = { .list = bl, .capacity = 64 };
	struct bfly_geometry geo;
	struct rnd_state rnd;
	u32 n, e, p, i, r, bad, perms;
	unsigned long *matrix;
	struct bfly_kf c;
	const char *why;
	void *bwork;
	u32 *bdel;

	for (n = 1; n <= 12; n++) {
		KUNIT_ASSERT_EQ(test, 0,
				bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, 1U << n, &why));
		KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&c.g, 2, 1U << n, &why));
		KUNIT_EXPECT_EQ(test, geo.node_stages, c.g.n);
		bad = 0;
		for (e = 0; e + 1 < geo.node_stages; e++)
			for (p = 0; p < geo.ports; p++)
				bad += bfly_wiring_link(&geo, e, p) != bfly_kfly_link(&c.g, e, p);
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "wiring, N=%u", geo.ports);
	}

	prandom_seed_state(&rnd, 2);
	for (n = 3; n <= 10; n += 7) {
		KUNIT_ASSERT_EQ(test, 0,
				bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, 1U << n, &why));
		bfly_kf_init(test, &c, 2, 1U << n);
		matrix = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
		bwork = bfly_test_alloc(test, bfly_selfroute_workspace_size(&geo));
		bdel = bfly_test_alloc(test, geo.ports * sizeof(u32));
		for (i = 0; i < geo.ports; i++)
			c.perm[i] = i;
		bad = 0;
		perms = 0;
		for (r = 0; n == 3 ? r == 0 || bfly_next_perm(c.perm, 8) : r < 64; r++) {
			if (n != 3)
				bfly_random_perm(&rnd, c.perm, geo.ports);
			perms++;
			KUNIT_ASSERT_EQ(test, 0, bfly_selfroute_dest(&geo, c.perm, matrix, bdel,
								     &bc, bwork));
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, c.del,
								      &c.conflicts, c.work));
			for (i = 0; i < geo.switches; i++)
				bad += test_bit(i, matrix) != bfly_kf_crossed(c.set, i);
			bad += !!memcmp(bdel, c.del, geo.ports * sizeof(u32));
			bad += !bfly_kf_same_conflicts(&bc, &c.conflicts);
			bad += bfly_window_first_conflict(&geo, c.perm, c.seen) !=
			       bfly_kfly_window_first_conflict(&c.g, c.perm, c.seen);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "N=%u, %u permutations", geo.ports, perms);
	}
}

/* Lexicographic rank of a permutation of 0 .. @n-1, @n <= 9. */
static u32 bfly_kf_rank(const u32 *p, u32 n)
{
	u32 r = 0, i, j, less;

	for (i = 0; i < n; i++) {
		less = 0;
		for (j = i + 1; j < n; j++)
			less += p[j] < p[i];
		r = r * (n - i) + less;
	}
	return r;
}

/* Set switch @sw of @set to the @r-th permutation of its k ports. */
static void bfly_kf_switch_perm(u8 *set, u32 k, u32 r)
{
	u32 avail[BFLY_KFLY_MAX_K], i, j, f = 1;

	for (i = 0; i < k; i++)
		avail[i] = i;
	for (i = 2; i < k; i++)
		f *= i;
	for (i = 0; i < k; i++) {
		j = r / f;
		r %= f;
		set[i] = avail[j];
		memmove(&avail[j], &avail[j + 1], (k - 1 - j) * sizeof(u32));
		if (k - 1 - i > 1)
			f /= k - 1 - i;
	}
}

/*
 * (k, n) = (2, 2), (2, 3), (3, 2): every setting (16, 4096, 46656 of them)
 * traces to a different permutation, (k!)^((N/k) n) in all; routing every
 * permutation finds exactly those conflict-free, each tracing back to
 * itself under the setting routing gives, and the window test finds every
 * permutation's first conflicting stage.
 */
static void bfly_kfly_realizable_counts(struct kunit *test)
{
	static const u32 shapes[][3] = { { 2, 4, 16 }, { 2, 8, 4096 }, { 3, 9, 46656 } };
	u32 t, sw, x, r, i, fact, nsw, distinct, realizable, bad_window, bad_trace, nperm;
	unsigned long *hit;
	struct bfly_kf c;

	hit = bfly_test_alloc(test, BITS_TO_LONGS(362880) * sizeof(long));
	for (t = 0; t < ARRAY_SIZE(shapes); t++) {
		bfly_kf_init(test, &c, shapes[t][0], shapes[t][1]);
		nsw = c.g.n * c.g.switches;
		for (fact = 1, i = 2; i <= c.g.k; i++)
			fact *= i;
		for (nperm = 1, i = 2; i <= c.g.ports; i++)
			nperm *= i;
		bitmap_zero(hit, nperm);
		distinct = 0;
		for (x = 0; x < shapes[t][2]; x++) {
			for (r = x, sw = 0; sw < nsw; sw++, r /= fact)
				bfly_kf_switch_perm(c.set + sw * c.g.k, c.g.k, r % fact);
			bfly_kfly_trace(&c.g, c.set, c.back);
			distinct += !__test_and_set_bit(bfly_kf_rank(c.back, c.g.ports), hit);
		}
		KUNIT_EXPECT_EQ_MSG(test, shapes[t][2], distinct, "k=%u N=%u: traced", c.g.k,
				    c.g.ports);

		for (i = 0; i < c.g.ports; i++)
			c.perm[i] = i;
		realizable = 0;
		bad_window = 0;
		bad_trace = 0;
		do {
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, c.del,
								      &c.conflicts, c.work));
			bad_window += bfly_kfly_window_first_conflict(&c.g, c.perm, c.seen) !=
				      c.conflicts.first_stage;
			bfly_kfly_trace(&c.g, c.set, c.back);
			bad_trace += !!memcmp(c.back, c.del, c.g.ports * sizeof(u32));
			if (!c.conflicts.count) {
				realizable++;
				bad_trace += !!memcmp(c.back, c.perm, c.g.ports * sizeof(u32));
				bad_trace += !test_bit(bfly_kf_rank(c.perm, c.g.ports), hit);
			}
		} while (bfly_next_perm(c.perm, c.g.ports));
		KUNIT_EXPECT_EQ_MSG(test, shapes[t][2], realizable, "k=%u N=%u: routed", c.g.k,
				    c.g.ports);
		KUNIT_EXPECT_EQ(test, 0, bad_window);
		KUNIT_EXPECT_EQ(test, 0, bad_trace);
	}
}

/*
 * k = 3 .. 16 at N up to 2^16 (4096 in the kernel): a random setting's
 * permutation routes without conflict to that very setting (one path per
 * input and output); a random permutation is delivered as its setting
 * traces and its first conflict is the window test's.
 */
static void bfly_kfly_random(struct kunit *test)
{
	static const u32 shapes[][2] = {
		{ 3, 729 }, { 4, 4096 }, { 8, 4096 }, { 16, 4096 }, { 5, 15625 },
		{ 4, 65536 }, { 16, 65536 },
	};
	u32 t, r, i, sw, reps, bad;
	struct rnd_state rnd;
	struct bfly_kf c;

	prandom_seed_state(&rnd, 16);
	for (t = 0; t < (BFLY_TEST_LARGE ? ARRAY_SIZE(shapes) : 4); t++) {
		bfly_kf_init(test, &c, shapes[t][0], shapes[t][1]);
		reps = BFLY_TEST_REPS(8, 2);
		bad = 0;
		for (r = 0; r < reps; r++) {
			for (sw = 0; sw < c.g.n * c.g.switches; sw++) {
				for (i = 0; i < c.g.k; i++)
					c.back[i] = i;
				bfly_random_perm(&rnd, c.back, c.g.k);
				for (i = 0; i < c.g.k; i++)
					c.set2[sw * c.g.k + i] = c.back[i];
			}
			bfly_kfly_trace(&c.g, c.set2, c.perm);
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, c.del,
								      &c.conflicts, c.work));
			bad += c.conflicts.count ||
			       memcmp(c.set, c.set2, bfly_kfly_settings_size(&c.g)) ||
			       memcmp(c.del, c.perm, c.g.ports * sizeof(u32)) ||
			       bfly_kfly_window_first_conflict(&c.g, c.perm, c.seen) !=
			       BFLY_NO_CONFLICT;

			bfly_random_perm(&rnd, c.perm, c.g.ports);
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, c.del,
								      &c.conflicts, c.work));
			bfly_kfly_trace(&c.g, c.set, c.back);
			bad += memcmp(c.back, c.del, c.g.ports * sizeof(u32)) ||
			       bfly_kfly_window_first_conflict(&c.g, c.perm, c.seen) !=
			       c.conflicts.first_stage;
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", c.g.k, c.g.ports);
		cond_resched();
	}
}

/*
 * Walk the packets stage by stage as the conflict rule says, without the
 * routing code: in each switch, in input-port order, a packet takes the
 * port its destination digit names unless a lower input port holds it;
 * the refused ones then take the lowest free ports in input-port order.
 * Return: the mismatches with @c's setting and conflict list.
 */
static u32 bfly_kf_check_conflicts(struct bfly_kf *c, u32 *at, u32 *next)
{
	struct bfly_port_conflict *e;
	u32 s, sw, p, w, src, free, a, bad = 0, count = 0, first = BFLY_NO_CONFLICT;
	u32 k = c->g.k, holder[BFLY_KFLY_MAX_K];
	u64 taken, refused;
	u8 want;

	for (a = 0; a < c->g.ports; a++)
		at[a] = a;
	for (s = 0; s < c->g.n; s++) {
		for (sw = 0; sw < c->g.switches; sw++) {
			u8 *set = c->set + (size_t)s * c->g.ports + sw * k;

			taken = 0;
			refused = 0;
			for (p = 0; p < k; p++) {
				src = at[sw * k + p];
				w = c->perm[src] / c->g.pow[c->g.n - 1 - s] % k;
				if (!(taken & (1ULL << w))) {
					taken |= 1ULL << w;
					holder[w] = src;
					bad += set[p] != w;
					continue;
				}
				refused |= 1ULL << p;
				if (!count++)
					first = s;
				if (count > c->conflicts.capacity)
					continue;
				e = &c->conflicts.list[count - 1];
				bad += e->stage != s || e->node != sw || e->input[0] != holder[w] ||
				       e->input[1] != src || e->port != w;
			}
			for (p = 0, free = 0; p < k; p++) {
				if (!(refused & (1ULL << p)))
					continue;
				while (taken & (1ULL << free))
					free++;
				taken |= 1ULL << free;
				bad += set[p] != free;
			}
			for (p = 0; p < k; p++) {
				want = set[p];
				a = sw * k + want;
				if (s + 1 < c->g.n)
					a = bfly_kfly_link(&c->g, s, a);
				next[a] = at[sw * k + p];
			}
		}
		memcpy(at, next, c->g.ports * sizeof(u32));
	}
	for (a = 0; a < c->g.ports; a++)
		bad += c->del[at[a]] != a;
	return bad + (count != c->conflicts.count) + (first != c->conflicts.first_stage);
}

/*
 * Conflicts of random permutations for several k: the setting, the list
 * (truncated to its capacity) and the count are those of the rule walked
 * packet by packet.
 */
static void bfly_kfly_conflict_lists(struct kunit *test)
{
	static const u32 shapes[][2] = {
		{ 3, 27 }, { 4, 64 }, { 5, 125 }, { 8, 512 }, { 16, 256 }, { 64, 4096 },
		{ 7, 2401 }, { 16, 65536 },
	};
	u32 t, r, bad, *at, *next;
	struct rnd_state rnd;
	struct bfly_kf c;

	prandom_seed_state(&rnd, 17);
	for (t = 0; t < (BFLY_TEST_LARGE ? ARRAY_SIZE(shapes) : 6); t++) {
		bfly_kf_init(test, &c, shapes[t][0], shapes[t][1]);
		at = bfly_test_alloc(test, c.g.ports * sizeof(u32));
		next = bfly_test_alloc(test, c.g.ports * sizeof(u32));
		bad = 0;
		for (r = 0; r < BFLY_TEST_REPS(16, 4); r++) {
			bfly_random_perm(&rnd, c.perm, c.g.ports);
			/* a small capacity on every other run: the list stops, the count not */
			c.conflicts.capacity = r % 2 ? 3 : 64;
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, c.del,
								      &c.conflicts, c.work));
			bad += bfly_kf_check_conflicts(&c, at, next);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", c.g.k, c.g.ports);
		cond_resched();
	}
}

/*
 * Settings: two inputs sent to one output or a port past k are refused
 * (naming the entry); an unset input port loses its packet; a destination
 * of N or more is refused.
 */
static void bfly_kfly_settings(struct kunit *test)
{
	struct bfly_kf c;
	u32 bad = 0, i;

	bfly_kf_init(test, &c, 3, 9);
	for (i = 0; i < 18; i++)
		c.set[i] = i % 3;
	KUNIT_EXPECT_EQ(test, 0, bfly_kfly_settings_check(&c.g, c.set, &bad));
	c.set[4] = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_kfly_settings_check(&c.g, c.set, &bad));
	KUNIT_EXPECT_EQ(test, 4, bad);
	c.set[4] = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_kfly_settings_check(&c.g, c.set, &bad));
	c.set[4] = BFLY_KFLY_UNSET;
	KUNIT_EXPECT_EQ(test, 0, bfly_kfly_settings_check(&c.g, c.set, &bad));
	bfly_kfly_trace(&c.g, c.set, c.back);
	KUNIT_EXPECT_EQ(test, BFLY_TRACE_LOST, c.back[4]);
	KUNIT_EXPECT_NE(test, BFLY_TRACE_LOST, c.back[3]);

	for (i = 0; i < 9; i++)
		c.perm[i] = i;
	c.perm[2] = 9;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_kfly_route_dest(&c.g, c.perm, c.set, NULL, NULL,
							    c.work));
}

/* The least cut over every side of every switch: 2^(n N/k) of them. */
static u64 bfly_kf_min_cut(const struct bfly_kfly *g, unsigned long *side)
{
	u64 m, cut, best = U64_MAX;
	u32 nsw = g->n * g->switches, i;

	for (m = 0; m < 1ULL << nsw; m++) {
		for (i = 0; i < nsw; i++)
			__assign_bit(i, side, (m >> i) & 1);
		cut = bfly_kfly_cut(g, side);
		best = min(best, cut);
		if (!(m & 0xffff))
			cond_resched();
	}
	return best;
}

/*
 * The note's figures: switches, channels, degree 2k, diameter n + 1. The
 * standard cut crosses N/2 channels (N for one stage), and no cut crosses
 * fewer: the least cut over every split of the switches is N/2 for k = 2,
 * 4, 6 (and 8 natively). The note's N/k holds for k = 2 only.
 */
static void bfly_kfly_figures_and_cuts(struct kunit *test)
{
	static const u32 shapes[][2] = {
		{ 2, 2 }, { 2, 4 }, { 2, 8 }, { 2, 1024 }, { 4, 16 }, { 4, 4096 }, { 6, 36 },
		{ 8, 64 }, { 16, 65536 }, { 64, 4096 }, { 3, 27 },
	};
	struct bfly_kfly_figures f;
	u32 t, s, sw, top;
	unsigned long *side;
	struct bfly_kfly g;
	const char *why;

	side = bfly_test_alloc(test, BITS_TO_LONGS(1U << 17) * sizeof(long));
	for (t = 0; t < ARRAY_SIZE(shapes); t++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&g, shapes[t][0], shapes[t][1], &why));
		bfly_kfly_figures(&g, &f);
		KUNIT_EXPECT_EQ(test, g.ports, f.terminals);
		KUNIT_EXPECT_EQ(test, g.n * g.ports / g.k, f.switches);
		KUNIT_EXPECT_EQ(test, (u64)(g.n + 1) * g.ports, f.channels);
		KUNIT_EXPECT_EQ(test, 2 * g.k, f.degree);
		KUNIT_EXPECT_EQ(test, g.n + 1, f.diameter);
		if (g.k % 2) {
			KUNIT_EXPECT_EQ(test, 0, f.half_cut);
			KUNIT_EXPECT_EQ(test, U64_MAX, bfly_kfly_cut(&g, side));
			continue;
		}
		for (s = 0; s < g.n; s++)
			for (sw = 0; sw < g.switches; sw++) {
				top = g.n < 2 ? 0 : sw / g.pow[g.n - 2];
				__assign_bit(s * g.switches + sw, side, top >= g.k / 2);
			}
		KUNIT_EXPECT_EQ_MSG(test, f.half_cut, bfly_kfly_cut(&g, side), "k=%u N=%u", g.k,
				    g.ports);
		if (g.n * g.switches <= (BFLY_TEST_LARGE ? 16 : 12))
			KUNIT_EXPECT_EQ_MSG(test, f.half_cut, bfly_kf_min_cut(&g, side),
					    "k=%u N=%u: least cut", g.k, g.ports);
	}
}

/* k^e */
static u32 bfly_kf_pow(u32 k, u32 e)
{
	u32 r = 1;

	while (e--)
		r *= k;
	return r;
}

/* @pattern is an involution and loads some channel with @want packets. */
static void bfly_kf_pattern_mll(struct kunit *test, struct bfly_kf *c,
				enum bfly_kfly_pattern pattern, u32 want)
{
	u32 i, bad = 0;

	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_pattern(&c->g, pattern, c->perm));
	KUNIT_EXPECT_EQ_MSG(test, want, bfly_kfly_perm_mll(&c->g, c->perm, c->back),
			    "pattern %u, k=%u N=%u", pattern, c->g.k, c->g.ports);
	for (i = 0; i < c->g.ports; i++)
		bad += c->perm[c->perm[i]] != i;
	KUNIT_EXPECT_EQ(test, 0, bad);
}

/*
 * Maximum link loads. A permutation's is 1 exactly when it routes without
 * conflict (every permutation of N = 8, and of N = 9 natively). Uniform
 * traffic loads every channel with exactly 1, the note's adversarial
 * halves with 2 (even k, two stages or more). Transpose and digit
 * reversal load k^floor((n-1)/2), sqrt(N)/k for even n: on the butterfly
 * the load grows as sqrt(N), measured up to N = 2^20 (2^12 in the kernel).
 */
static void bfly_kfly_mll(struct kunit *test)
{
	static const u32 shapes[][2] = {
		{ 2, 2 }, { 2, 8 }, { 2, 64 }, { 2, 1024 }, { 4, 16 }, { 4, 256 }, { 8, 64 },
		{ 3, 9 }, { 3, 81 }, { 6, 36 },
	};
	u32 t, i, n, bad, want;
	struct bfly_kf c;
	u64 *load;

	for (t = 0; t < (BFLY_TEST_LARGE ? 2 : 1); t++) {
		bfly_kf_init(test, &c, t ? 3 : 2, t ? 9 : 8);
		for (i = 0; i < c.g.ports; i++)
			c.perm[i] = i;
		bad = 0;
		do {
			KUNIT_ASSERT_EQ(test, 0, bfly_kfly_route_dest(&c.g, c.perm, c.set, NULL,
								      &c.conflicts, c.work));
			bad += (bfly_kfly_perm_mll(&c.g, c.perm, c.back) == 1) !=
			       !c.conflicts.count;
		} while (bfly_next_perm(c.perm, c.g.ports));
		KUNIT_EXPECT_EQ_MSG(test, 0, bad, "k=%u N=%u", c.g.k, c.g.ports);
	}

	load = bfly_test_alloc(test, 1024 * sizeof(u64));
	for (t = 0; t < ARRAY_SIZE(shapes); t++) {
		if (!BFLY_TEST_LARGE && shapes[t][1] > 64)
			continue;
		bfly_kf_init(test, &c, shapes[t][0], shapes[t][1]);
		KUNIT_EXPECT_EQ_MSG(test, c.g.ports,
				    bfly_kfly_traffic_mll(&c.g, BFLY_KFLY_UNIFORM, load),
				    "uniform, k=%u N=%u", c.g.k, c.g.ports);
		want = c.g.k % 2 ? 0 : c.g.n < 2 ? c.g.ports : 2 * c.g.ports;
		KUNIT_EXPECT_EQ_MSG(test, want, bfly_kfly_traffic_mll(&c.g, BFLY_KFLY_HALVES, load),
				    "halves, k=%u N=%u", c.g.k, c.g.ports);
	}

	for (t = 0; t < ARRAY_SIZE(shapes) + (BFLY_TEST_LARGE ? 20 : 12); t++) {
		if (t < ARRAY_SIZE(shapes))
			bfly_kf_init(test, &c, shapes[t][0], shapes[t][1]);
		else
			bfly_kf_init(test, &c, 2, 1U << (t - ARRAY_SIZE(shapes) + 1));
		n = c.g.n;
		want = bfly_kf_pow(c.g.k, (n - 1) / 2);
		bfly_kf_pattern_mll(test, &c, BFLY_KFLY_DIGIT_REVERSAL, want);
		if (n % 2)
			KUNIT_EXPECT_EQ(test, -EINVAL,
					bfly_kfly_pattern(&c.g, BFLY_KFLY_TRANSPOSE, c.perm));
		else
			bfly_kf_pattern_mll(test, &c, BFLY_KFLY_TRANSPOSE, want);
		cond_resched();
	}
}

static struct kunit_case bfly_kfly_cases[] = {
	KUNIT_CASE(bfly_kfly_shapes),
	KUNIT_CASE_SLOW(bfly_kfly_binary_is_butterfly),
	KUNIT_CASE_SLOW(bfly_kfly_realizable_counts),
	KUNIT_CASE_SLOW(bfly_kfly_random),
	KUNIT_CASE_SLOW(bfly_kfly_conflict_lists),
	KUNIT_CASE(bfly_kfly_settings),
	KUNIT_CASE_SLOW(bfly_kfly_figures_and_cuts),
	KUNIT_CASE_SLOW(bfly_kfly_mll),
	{}
};

static struct kunit_suite bfly_kfly_suite = {
	.name = "bfly_kfly",
	.test_cases = bfly_kfly_cases,
};

kunit_test_suite(bfly_kfly_suite);
