// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: switch settings in their two layouts (settings.c). Bit matrices
 * and radix-2 port maps turn into each other and back; port maps a 2 x 2
 * fabric cannot hold, and bit matrices of k x k nodes, are refused;
 * links lost through ports set to nothing are traced as lost.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/geometry.h"
#include "lib/settings.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "kunit_util.h"

/* Random bits for every node of a 2 x 2 fabric, none past the last node. */
static void bfly_random_bits(struct rnd_state *rnd, const struct bfly_geometry *geo,
			     unsigned long *bits)
{
	u64 b;

	memset(bits, 0, bfly_bit_matrix_bytes(geo));
	for (b = 0; b < geo->switches; b++)
		if (prandom_u32_state(rnd) & 1)
			__set_bit(b, bits);
}

/* Bits to port maps and back, on a bit fabric and on a kfly of radix 2. */
static void bfly_settings_round_trip(struct kunit *test)
{
	static const enum bfly_topology topos[] = {
		BFLY_TOPO_BENES, BFLY_TOPO_BUTTERFLY, BFLY_TOPO_KFLY,
	};
	struct bfly_geometry geo;
	struct rnd_state rnd;
	unsigned long *bits, *bits2;
	const char *why;
	u8 *held, *map;
	int t, r;

	prandom_seed_state(&rnd, 7);
	for (t = 0; t < ARRAY_SIZE(topos); t++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, topos[t], 2, 64, &why));
		bits = bfly_test_alloc(test, bfly_bit_matrix_bytes(&geo));
		bits2 = bfly_test_alloc(test, bfly_bit_matrix_bytes(&geo));
		map = bfly_test_alloc(test, bfly_port_map_bytes(&geo));
		held = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
		for (r = 0; r < 20; r++) {
			bfly_random_bits(&rnd, &geo, bits);
			KUNIT_ASSERT_EQ(test, 0,
					bfly_settings_import(&geo, bits, false, held, &why));
			KUNIT_ASSERT_EQ(test, 0, bfly_settings_export(&geo, held, true, map, &why));
			/* Each node straight {0, 1} or cross {1, 0}, as its bit says. */
			KUNIT_EXPECT_EQ(test, test_bit(5, bits), map[10]);
			KUNIT_EXPECT_EQ(test, !test_bit(5, bits), map[11]);
			KUNIT_ASSERT_EQ(test, 0, bfly_settings_import(&geo, map, true, held, &why));
			KUNIT_ASSERT_EQ(test, 0,
					bfly_settings_export(&geo, held, false, bits2, &why));
			KUNIT_EXPECT_EQ(test, 0, memcmp(bits, bits2, bfly_bit_matrix_bytes(&geo)));
		}
	}
}

/* What each layout refuses, with the reason. */
static void bfly_settings_refused(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why = NULL;
	u8 map[5 * 16], held[5 * 16];
	u64 bits[2] = {};

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 8, &why));
	memset(map, 0, sizeof(map));
	map[1] = 1;
	/* Node 1 maps both its inputs to output 0. */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_import(&geo, map, true, held, &why));
	KUNIT_EXPECT_STREQ(test, why,
			   "port-map: a 2 x 2 node maps its ports 0 1 (straight) or 1 0 (cross)");
	bfly_settings_straight(&geo, held);
	KUNIT_ASSERT_EQ(test, 0, bfly_settings_export(&geo, held, true, map, &why));
	map[7] = BFLY_PORT_UNSET;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_import(&geo, map, true, held, &why));
	bits[0] = 1ULL << 20;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_import(&geo, bits, false, held, &why));
	KUNIT_EXPECT_STREQ(test, "matrix: bits set past the last switch", why);

	/* A kfly of radix 2 holds a port set to nothing, as port maps only. */
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_KFLY, 2, 8, &why));
	bfly_settings_straight(&geo, held);
	held[3] = BFLY_PORT_UNSET;
	KUNIT_EXPECT_EQ(test, 0, bfly_settings_check(&geo, held, &why));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_settings_export(&geo, held, false, bits, &why));
	held[3] = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_check(&geo, held, &why));

	/* Radix 3: no bit matrix at all; maps name ports below 3 once. */
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_KFLY, 3, 9, &why));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_settings_layout_ok(&geo, false, &why));
	KUNIT_EXPECT_EQ(test, 0, bfly_settings_layout_ok(&geo, true, &why));
	bfly_settings_straight(&geo, held);
	KUNIT_EXPECT_EQ(test, 1, held[4]);
	KUNIT_EXPECT_EQ(test, 2, held[17]);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, bfly_settings_export(&geo, held, false, bits, &why));
	memcpy(map, held, 18);
	map[4] = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_import(&geo, map, true, held, &why));
	map[4] = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_import(&geo, map, true, held, &why));
	map[4] = 0;
	map[3] = BFLY_PORT_UNSET;
	KUNIT_EXPECT_EQ(test, 0, bfly_settings_import(&geo, map, true, held, &why));
}

/*
 * Straight settings leave each packet's link address to the wiring: with
 * n = 3, edge 0 trades digits 0 and 2, edge 1 digits 0 and 1, so input
 * (d2 d1 d0) reaches output (d0 d2 d1). A port set to nothing loses.
 */
static void bfly_settings_trace(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why;
	u32 perm[27], i;
	u8 *held;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_KFLY, 3, 27, &why));
	held = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
	bfly_settings_straight(&geo, held);
	KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, (unsigned long *)held, perm));
	for (i = 0; i < 27; i++)
		KUNIT_EXPECT_EQ(test, i % 3 * 9 + i / 9 * 3 + i / 3 % 3, perm[i]);
	/* Input 5 enters stage 0 at address 5: switch 1, port 2. */
	held[5] = BFLY_PORT_UNSET;
	KUNIT_ASSERT_EQ(test, 0, bfly_trace(&geo, (unsigned long *)held, perm));
	KUNIT_EXPECT_EQ(test, BFLY_TRACE_LOST, perm[5]);
	KUNIT_EXPECT_EQ(test, 10, perm[4]);
}

/*
 * An LCAN's refused settings name the byte at fault: CB-LCAN(2,2) N = 8
 * has 4 connectors a switch, entry 16 level + 4 switch + connector.
 */
static void bfly_settings_lcan_bad(struct kunit *test)
{
	struct bfly_settings_bad bad;
	struct bfly_geometry geo;
	const char *why;
	u8 *held;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init_up(&geo, BFLY_TOPO_CB_LCAN, 2, 2, 8, &why));
	held = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
	bfly_settings_straight(&geo, held);
	KUNIT_EXPECT_EQ(test, 0, bfly_settings_check_at(&geo, held, &bad, &why));
	KUNIT_EXPECT_FALSE(test, bad.set);
	/* Level 0, switch 3: downers 0 and 1 both to upper 3 */
	held[12] = 3;
	held[13] = 3;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_check_at(&geo, held, &bad, &why));
	KUNIT_EXPECT_TRUE(test, bad.set);
	KUNIT_EXPECT_EQ(test, 13, bad.byte);
	KUNIT_EXPECT_STREQ(test, "a connector used twice in one switch", why);
	held[13] = BFLY_PORT_UNSET;
	/* Level 2, switch 0, upper 2: no wire arrives on a top upper */
	held[34] = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_check_at(&geo, held, &bad, &why));
	KUNIT_EXPECT_EQ(test, 34, bad.byte);
	/* bfly_settings_check() refuses the same */
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_check(&geo, held, &why));
	/* A kfly's refusal names no LCAN byte */
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_KFLY, 3, 9, &why));
	held = bfly_test_alloc(test, bfly_matrix_bytes(&geo));
	bfly_settings_straight(&geo, held);
	held[0] = 7;
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_settings_check_at(&geo, held, &bad, &why));
	KUNIT_EXPECT_FALSE(test, bad.set);
}

static struct kunit_case bfly_settings_cases[] = {
	KUNIT_CASE(bfly_settings_round_trip),
	KUNIT_CASE(bfly_settings_refused),
	KUNIT_CASE(bfly_settings_trace),
	KUNIT_CASE(bfly_settings_lcan_bad),
	{}
};

static struct kunit_suite bfly_settings_suite = {
	.name = "bfly_settings",
	.test_cases = bfly_settings_cases,
};

kunit_test_suite(bfly_settings_suite);
