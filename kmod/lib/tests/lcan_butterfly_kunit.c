// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: CB-LCAN(2,2) routed uni-directionally is the butterfly (LCAN
 * paper, Sections 2.2 and 3.3). An explicit relabelling of switches and
 * fabric inputs maps the CB-LCAN's wires (lcan.c) one to one onto the
 * butterfly's (wiring.c, and kfly.c with k = 2), for N = 2 .. 2^10 (2^16
 * natively); the uni-directional path to an output crosses the switches
 * destination-digit routing crosses in the butterfly; and every setting of
 * N = 2, 4, 8 (random ones up to N = 2^10, 2^16 natively), carried over by
 * the relabelling, traces to the same permutation on both, as a port map
 * and as a bit matrix: 2^((N/2) n) = 4096 distinct ones for N = 8 on each.
 * Wrong relabellings (the identity among them) are refused, so the checks
 * are not vacuous.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/geometry.h"
#include "lib/kfly.h"
#include "lib/lcan.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "lib/wiring.h"
#include "kunit_util.h"

/*
 * The relabelling, N = 2^n, both networks having n levels (node stages)
 * of N/2 switches with 2 inputs and 2 outputs, switch labels of n - 1 bits.
 *
 * CB-LCAN(2,2), Definition 3 with d = u = 2: switch s of level i is
 * (H, Lo), s = H 2^i + Lo, and its upper k (connector 2 + k) reaches
 * switch (H >> 1) 2^(i+1) + 2 Lo + k of level i + 1 on downer H & 1. So
 * going up drops bit i of the label (it becomes the downer), shifts the
 * bits below it up by one and puts k in bit 0; bits i + 1 .. n - 2 stay.
 * At level i, Lo holds the uppers taken at levels 0 .. i - 1, that of
 * level t in bit i - 1 - t; H holds bits i .. n - 2 of the level-0 switch
 * (PE p's switch is p >> 1); the low bits were used up as downers, the
 * lowest first.
 *
 * The butterfly (Documentation/routing.rst, "Links and edge stages"):
 * output port o of node v of node stage i reaches the node of stage i + 1
 * that is v with bit n - 2 - i set to o, on input port the old value of
 * that bit. At stage i the top i bits
 * hold the output ports taken at stages 0 .. i - 1, that of stage t in
 * bit n - 2 - t, i.e. bit i - 1 - t of v >> (n - 1 - i): Lo, as is. The
 * low n - 1 - i bits are bits 0 .. n - 2 - i of the stage-0 node (input
 * q's node is q >> 1); the high bits were used up as input ports, the
 * highest first.
 *
 * The two use up the first switch's bits in opposite orders: reverse
 * them. With rev_m(x) the m-bit reversal of x,
 *
 *	sigma_i(s) = Lo << (n - 1 - i) | rev_(n-1-i)(H)
 *
 * and the wires agree: the butterfly's input port, the top bit of
 * rev_(n-1-i)(H), is H & 1, the CB-LCAN's downer; setting that bit to k
 * gives (2 Lo + k) << (n - 2 - i) | rev_(n-2-i)(H >> 1) = sigma_(i+1) of
 * the CB-LCAN's next switch. So no port needs relabelling: downer j is
 * input port j and upper k (connector 2 + k) output port k at every
 * switch.
 *
 * Fabric inputs: PE p enters switch p >> 1 of level 0 on downer p & 1, so
 * it is butterfly input 2 sigma_0(p >> 1) + (p & 1) = 2 rev_(n-1)(p >> 1)
 * + (p & 1). Fabric outputs: sigma_(n-1) is the identity (H is empty), so
 * the CB-LCAN's top output 2 s + k (bfly_lcan_trace()) is butterfly
 * output 2 s + k: no relabelling.
 */

/* The low @bits bits of @x in reverse order. */
static u32 bfly_lb_rev(u32 x, u32 bits)
{
	u32 r = 0;

	while (bits--) {
		r = r << 1 | (x & 1);
		x >>= 1;
	}
	return r;
}

/* sigma_i: the butterfly node of CB-LCAN switch @sw of level @i. */
static u32 bfly_lb_node(u32 n, u32 i, u32 sw)
{
	return (sw & (BIT(i) - 1)) << (n - 1 - i) | bfly_lb_rev(sw >> i, n - 1 - i);
}

/* The butterfly input of PE @p. */
static u32 bfly_lb_input(u32 n, u32 p)
{
	return 2 * bfly_lb_node(n, 0, p >> 1) + (p & 1);
}

/*
 * A relabelling under test: sigma, or a wrong one the checks must refuse.
 * Ports and fabric outputs keep their numbers in all of them.
 */
enum bfly_lb_kind {
	BFLY_LB_SIGMA,
	BFLY_LB_IDENTITY,		/* switches and PEs as they are */
	BFLY_LB_SIGMA_SAME_INPUTS,	/* sigma, but PE p is input p */
	BFLY_LB_NO_REVERSAL,		/* Lo << (n - 1 - i) | H: no rev */
};

/* The butterfly node of switch @sw of level @i under @kind. */
static u32 bfly_lb_relabel_node(u32 kind, u32 n, u32 i, u32 sw)
{
	switch (kind) {
	case BFLY_LB_IDENTITY:
		return sw;
	case BFLY_LB_NO_REVERSAL:
		return (sw & (BIT(i) - 1)) << (n - 1 - i) | sw >> i;
	default:
		return bfly_lb_node(n, i, sw);
	}
}

/* The butterfly input of PE @p under @kind. */
static u32 bfly_lb_relabel_input(u32 kind, u32 n, u32 p)
{
	switch (kind) {
	case BFLY_LB_IDENTITY:
	case BFLY_LB_SIGMA_SAME_INPUTS:
		return p;
	case BFLY_LB_NO_REVERSAL:
		return 2 * bfly_lb_relabel_node(kind, n, 0, p >> 1) + (p & 1);
	default:
		return bfly_lb_input(n, p);
	}
}

/* Everything one size's checks need. */
struct bfly_lb {
	struct bfly_lcan g;
	struct bfly_kfly fly;
	struct bfly_geometry geo;
	u32 n;
	u8 *cb;			/* a CB-LCAN setting */
	u8 *map;		/* the butterfly's port map */
	unsigned long *matrix;	/* the butterfly's bit matrix */
	unsigned long *seen;
	u32 *cb_out, *map_out, *matrix_out;
};

static void bfly_lb_init(struct kunit *test, struct bfly_lb *c, u32 n)
{
	u32 ports = 1U << n;
	const char *why = NULL;

	c->n = n;
	KUNIT_ASSERT_EQ_MSG(test, 0, bfly_lcan_init(&c->g, BFLY_LCAN_CB, 2, 2, ports, &why),
			    "N=%u: %s", ports, why);
	KUNIT_ASSERT_EQ(test, 0, bfly_kfly_init(&c->fly, 2, ports, &why));
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&c->geo, BFLY_TOPO_BUTTERFLY, 2, ports, &why));
	KUNIT_ASSERT_EQ(test, n, c->g.levels);
	KUNIT_ASSERT_EQ(test, n, c->fly.n);
	KUNIT_ASSERT_EQ(test, n, c->geo.node_stages);
	KUNIT_ASSERT_FALSE(test, c->geo.port_map);
	c->cb = bfly_test_alloc(test, bfly_lcan_settings_size(&c->g));
	c->map = bfly_test_alloc(test, bfly_kfly_settings_size(&c->fly));
	c->matrix = bfly_test_alloc(test, bfly_matrix_bytes(&c->geo));
	c->seen = bfly_test_alloc(test, BITS_TO_LONGS(ports) * sizeof(long));
	c->cb_out = bfly_test_alloc(test, ports * sizeof(u32));
	c->map_out = bfly_test_alloc(test, ports * sizeof(u32));
	c->matrix_out = bfly_test_alloc(test, ports * sizeof(u32));
}

/*
 * Wires of the two networks that do not correspond under relabelling
 * @kind: every upper below the top level, every PE's entry, every top
 * output; and labels mapped twice within a level.
 */
static u32 bfly_lb_wiring_misses(struct bfly_lb *c, u32 kind)
{
	u32 half = c->g.ports / 2, n = c->n, miss = 0, i, sw, k, p, v;

	for (i = 0; i < n; i++) {
		bitmap_zero(c->seen, half);
		for (sw = 0; sw < half; sw++) {
			v = bfly_lb_relabel_node(kind, n, i, sw);
			miss += __test_and_set_bit(v, c->seen);
		}
	}
	for (i = 0; i + 1 < n; i++)
		for (sw = 0; sw < half; sw++)
			for (k = 0; k < 2; k++) {
				u32 to, j, a, b;

				/* upper k of sw is output port k of its node */
				a = 2 * bfly_lb_relabel_node(kind, n, i, sw) + k;
				bfly_lcan_up(&c->g, i, sw, k, &to, &j);
				b = bfly_kfly_link(&c->fly, i, a);
				/* downer j of to is input port j of its node */
				v = bfly_lb_relabel_node(kind, n, i + 1, to);
				miss += b != 2 * v + j;
				miss += bfly_wiring_link(&c->geo, i, a) != b;
			}
	/* PE p: downer p & 1 of switch p >> 1; input q: port q & 1 of node q >> 1 */
	bitmap_zero(c->seen, c->g.ports);
	for (p = 0; p < c->g.ports; p++) {
		u32 q = bfly_lb_relabel_input(kind, n, p);

		v = bfly_lb_relabel_node(kind, n, 0, p >> 1);
		miss += __test_and_set_bit(q, c->seen);
		miss += q >> 1 != v || (q & 1) != (p & 1);
	}
	/* top output 2 sw + k is butterfly output 2 node + k: node = sw */
	for (sw = 0; sw < half; sw++)
		miss += bfly_lb_relabel_node(kind, n, n - 1, sw) != sw;
	return miss;
}

/*
 * The relabelling maps each level's switches one to one and every wire
 * onto a wire, the same as the butterfly's two wirings: N = 2 .. 2^10
 * (2^16 natively).
 */
static void bfly_lcan_butterfly_wiring(struct kunit *test)
{
	u32 n, top = BFLY_TEST_LARGE ? 16 : 10;
	struct bfly_lb *c = bfly_test_alloc(test, sizeof(*c));

	KUNIT_EXPECT_EQ(test, 0x1U, bfly_lb_rev(0x8, 4));
	KUNIT_EXPECT_EQ(test, 0x6U, bfly_lb_rev(0x3, 3));
	/* N = 16, level 1: H = 10b, Lo = 1: sigma = 1 << 2 | 01b */
	KUNIT_EXPECT_EQ(test, 5U, bfly_lb_node(4, 1, 5));
	KUNIT_EXPECT_EQ(test, 6U, bfly_lb_node(4, 0, 3));
	KUNIT_EXPECT_EQ(test, 13U, bfly_lb_input(4, 7));
	for (n = 1; n <= top; n++) {
		bfly_lb_init(test, c, n);
		KUNIT_EXPECT_EQ_MSG(test, 0, bfly_lb_wiring_misses(c, BFLY_LB_SIGMA), "N=%u",
				    c->g.ports);
	}
}

/*
 * Uni-directional routing is destination-digit routing: the path from PE
 * a to top output o crosses, level by level, the switches sigma maps to
 * the nodes the butterfly's packet from input(a) to output o crosses,
 * entering and leaving on the same ports. Every pair, N = 2 .. 64.
 */
static void bfly_lcan_butterfly_routes(struct kunit *test)
{
	struct bfly_lcan_path *path = bfly_test_alloc(test, sizeof(*path));
	struct bfly_lb *c = bfly_test_alloc(test, sizeof(*c));
	u32 n, a, o, i, miss;

	for (n = 1; n <= 6; n++) {
		bfly_lb_init(test, c, n);
		miss = 0;
		for (a = 0; a < c->g.ports; a++)
			for (o = 0; o < c->g.ports; o++) {
				u32 addr = bfly_lb_input(n, a);

				KUNIT_ASSERT_EQ(test, 0, bfly_lcan_uni_path(&c->g, a, o, path));
				KUNIT_ASSERT_EQ(test, n, path->count);
				for (i = 0; i < n; i++) {
					const struct bfly_lcan_hop *h = &path->hops[i];
					u32 port = o >> (n - 1 - i) & 1;

					miss += h->level != i;
					miss += addr >> 1 != bfly_lb_node(n, i, h->sw);
					miss += (addr & 1) != h->in;
					miss += h->out != 2 + port;
					addr = (addr & ~1U) | port;
					if (i + 1 < n)
						addr = bfly_kfly_link(&c->fly, i, addr);
				}
				miss += addr != o;
			}
		KUNIT_EXPECT_EQ_MSG(test, 0, miss, "N=%u", c->g.ports);
	}
}

/*
 * Set every CB-LCAN switch straight or crossed, bit @i N/2 + @sw of
 * @cross: downer 0 to upper 0 (connector 2) and downer 1 to upper 1 when
 * straight, the other way round when crossed. Nothing arrives from above.
 */
static void bfly_lb_cb_setting(struct bfly_lb *c, const unsigned long *cross)
{
	u32 half = c->g.ports / 2, i, sw, x;

	memset(c->cb, BFLY_KFLY_UNSET, bfly_lcan_settings_size(&c->g));
	for (i = 0; i < c->n; i++)
		for (sw = 0; sw < half; sw++) {
			x = test_bit(i * half + sw, cross);
			c->cb[bfly_lcan_entry(&c->g, i, sw, 0)] = 2 + x;
			c->cb[bfly_lcan_entry(&c->g, i, sw, 1)] = 3 - x;
		}
}

/*
 * Carry the CB-LCAN setting over by relabelling @kind onto the butterfly,
 * as a port map and as a bit matrix, trace all three and count the PEs
 * whose outputs differ: the butterfly input of PE p must reach the output
 * p reaches.
 */
static u32 bfly_lb_trace_misses(struct kunit *test, struct bfly_lb *c, u32 kind)
{
	u32 half = c->g.ports / 2, n = c->n, miss = 0, i, sw, j, p;
	struct bfly_lcan_trace_end end;
	const char *why;
	u64 bad;

	memset(c->map, BFLY_KFLY_UNSET, bfly_kfly_settings_size(&c->fly));
	memset(c->matrix, 0, bfly_matrix_bytes(&c->geo));
	for (i = 0; i < n; i++)
		for (sw = 0; sw < half; sw++) {
			u32 node = bfly_lb_relabel_node(kind, n, i, sw);

			for (j = 0; j < 2; j++) {
				u32 out = c->cb[bfly_lcan_entry(&c->g, i, sw, j)] - 2;

				c->map[(i * half + node) * 2 + j] = out;
				if (!j)
					__assign_bit(bfly_matrix_bit(&c->geo, i, node), c->matrix,
						     out != 0);
			}
		}
	KUNIT_ASSERT_EQ(test, 0, bfly_lcan_settings_check(&c->g, c->cb, &bad, &why));
	bfly_kfly_trace(&c->fly, c->map, c->map_out);
	KUNIT_ASSERT_EQ(test, 0, bfly_trace(&c->geo, c->matrix, c->matrix_out));
	for (p = 0; p < c->g.ports; p++) {
		u32 q = bfly_lb_relabel_input(kind, n, p);

		bfly_lcan_trace(&c->g, c->cb, p, &end);
		KUNIT_ASSERT_EQ(test, (u32)BFLY_LCAN_END_TOP, end.end);
		KUNIT_ASSERT_EQ(test, n, end.hops);
		c->cb_out[p] = end.index;
		miss += c->map_out[q] != c->cb_out[p];
		miss += c->matrix_out[q] != c->cb_out[p];
	}
	return miss;
}

/* Lexicographic rank of a permutation of 0 .. @n - 1 (@n <= 12). */
static u32 bfly_lb_rank(const u32 *p, u32 n)
{
	u32 r = 0, i, j, less;

	for (i = 0; i < n; i++) {
		for (less = 0, j = i + 1; j < n; j++)
			less += p[j] < p[i];
		r = r * (n - i) + less;
	}
	return r;
}

/*
 * Every straight-or-crossed setting of N = 2, 4, 8 traces to the same
 * permutation on both networks under sigma; for N = 8 the 2^12 settings
 * give 2^((N/2) n) = 4096 distinct permutations on each.
 */
static void bfly_lcan_butterfly_all_settings(struct kunit *test)
{
	unsigned long *cross, *hit_cb, *hit_fly;
	u32 n, x, all, miss, distinct_cb, distinct_fly;
	struct bfly_lb *c = bfly_test_alloc(test, sizeof(*c));

	cross = bfly_test_alloc(test, sizeof(long));
	hit_cb = bfly_test_alloc(test, BITS_TO_LONGS(40320) * sizeof(long));
	hit_fly = bfly_test_alloc(test, BITS_TO_LONGS(40320) * sizeof(long));
	for (n = 1; n <= 3; n++) {
		bfly_lb_init(test, c, n);
		all = 1U << (c->g.ports / 2 * n);
		miss = 0;
		distinct_cb = 0;
		distinct_fly = 0;
		bitmap_zero(hit_cb, 40320);
		bitmap_zero(hit_fly, 40320);
		for (x = 0; x < all; x++) {
			*cross = x;
			bfly_lb_cb_setting(c, cross);
			miss += bfly_lb_trace_misses(test, c, BFLY_LB_SIGMA);
			distinct_cb += !__test_and_set_bit(bfly_lb_rank(c->cb_out, c->g.ports),
							   hit_cb);
			distinct_fly += !__test_and_set_bit(bfly_lb_rank(c->matrix_out, c->g.ports),
							    hit_fly);
		}
		KUNIT_EXPECT_EQ_MSG(test, 0, miss, "N=%u, %u settings", c->g.ports, all);
		KUNIT_EXPECT_EQ_MSG(test, all, distinct_cb, "N=%u", c->g.ports);
		KUNIT_EXPECT_EQ_MSG(test, all, distinct_fly, "N=%u", c->g.ports);
	}
	KUNIT_EXPECT_EQ(test, 4096U, distinct_cb);
	KUNIT_EXPECT_EQ(test, 4096U, distinct_fly);
}

/*
 * Random straight-or-crossed settings, N = 16 .. 2^10 (2^16 natively),
 * trace to the same permutation on both networks under sigma.
 */
static void bfly_lcan_butterfly_random(struct kunit *test)
{
	u32 n, r, w, top = BFLY_TEST_LARGE ? 16 : 10, reps = BFLY_TEST_REPS(16, 2);
	unsigned long *cross;
	struct rnd_state rnd;
	struct bfly_lb *c = bfly_test_alloc(test, sizeof(*c));
	size_t words;

	prandom_seed_state(&rnd, 2026);
	for (n = 4; n <= top; n++) {
		bfly_lb_init(test, c, n);
		words = BITS_TO_LONGS((c->g.ports / 2) * n);
		cross = bfly_test_alloc(test, words * sizeof(long));
		for (r = 0; r < reps; r++) {
			for (w = 0; w < words; w++)
				cross[w] = (unsigned long)prandom_u32_state(&rnd) << 16 << 16 |
					   prandom_u32_state(&rnd);
			bfly_lb_cb_setting(c, cross);
			KUNIT_EXPECT_EQ_MSG(test, 0, bfly_lb_trace_misses(test, c, BFLY_LB_SIGMA),
					    "N=%u, repetition %u", c->g.ports, r);
		}
	}
}

/*
 * Not vacuous: for N = 8 each wrong relabelling breaks some wire, and
 * settings carried over by it trace to different permutations.
 */
static void bfly_lcan_butterfly_wrong(struct kunit *test)
{
	static const u32 wrong[] = {
		BFLY_LB_IDENTITY, BFLY_LB_SIGMA_SAME_INPUTS, BFLY_LB_NO_REVERSAL,
	};
	u32 t, x, differ;
	unsigned long *cross;
	struct bfly_lb *c = bfly_test_alloc(test, sizeof(*c));

	cross = bfly_test_alloc(test, sizeof(long));
	bfly_lb_init(test, c, 3);
	for (t = 0; t < ARRAY_SIZE(wrong); t++) {
		KUNIT_EXPECT_TRUE_MSG(test, bfly_lb_wiring_misses(c, wrong[t]) > 0,
				      "relabelling %u", wrong[t]);
		differ = 0;
		for (x = 0; x < 4096; x++) {
			*cross = x;
			bfly_lb_cb_setting(c, cross);
			differ += !!bfly_lb_trace_misses(test, c, wrong[t]);
		}
		/* at least one; in fact every setting tells them apart */
		KUNIT_EXPECT_TRUE_MSG(test, differ > 0, "relabelling %u", wrong[t]);
		KUNIT_EXPECT_EQ_MSG(test, 4096U, differ, "relabelling %u", wrong[t]);
	}
}

static struct kunit_case bfly_lcan_butterfly_cases[] = {
	KUNIT_CASE(bfly_lcan_butterfly_wiring),
	KUNIT_CASE(bfly_lcan_butterfly_routes),
	KUNIT_CASE(bfly_lcan_butterfly_all_settings),
	KUNIT_CASE(bfly_lcan_butterfly_random),
	KUNIT_CASE(bfly_lcan_butterfly_wrong),
	{}
};

static struct kunit_suite bfly_lcan_butterfly_suite = {
	.name = "bfly_lcan_butterfly",
	.test_cases = bfly_lcan_butterfly_cases,
};

kunit_test_suite(bfly_lcan_butterfly_suite);
