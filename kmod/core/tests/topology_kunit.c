// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: topology names and fabric geometry for every topology and size.
 */
#include <kunit/test.h>
#include <linux/kernel.h>

#include "core/core.h"

static const struct {
	const char *name;
	enum bfly_topology topology;
	u32 stages_a, stages_b;	/* node stages = a * n - b */
	u32 min_n;		/* the smallest n for N = 2^n, radix 2 */
} topology_cases[] = {
	{ "butterfly", BFLY_TOPO_BUTTERFLY, 1, 0, 1 },
	{ "bfly2", BFLY_TOPO_BFLY2, 2, 1, 1 },
	{ "bfly-twice", BFLY_TOPO_BFLY_TWICE, 2, 0, 1 },
	{ "benes", BFLY_TOPO_BENES, 2, 1, 1 },
	{ "kfly", BFLY_TOPO_KFLY, 1, 0, 1 },
	{ "flatfly", BFLY_TOPO_FLATFLY, 1, 0, 2 },
};

static void bfly_topology_names_round_trip(struct kunit *test)
{
	enum bfly_topology topo;
	int i;

	for (i = 0; i < ARRAY_SIZE(topology_cases); i++) {
		KUNIT_EXPECT_EQ(test, 0, bfly_topology_parse(topology_cases[i].name, &topo));
		KUNIT_EXPECT_EQ(test, topology_cases[i].topology, topo);
		KUNIT_EXPECT_STREQ(test, topology_cases[i].name,
				   bfly_topology_name(topology_cases[i].topology));
	}
	/* A trailing newline, as echo writes it, is accepted. */
	KUNIT_EXPECT_EQ(test, 0, bfly_topology_parse("bfly-twice\n", &topo));
	KUNIT_EXPECT_EQ(test, BFLY_TOPO_BFLY_TWICE, topo);
}

static void bfly_topology_bad_names(struct kunit *test)
{
	static const char * const bad[] = {
		"", "Benes", "benes ", "bfly", "butterfly2", "bfly_twice", "\n",
	};
	enum bfly_topology topo = BFLY_TOPO_BENES;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, bfly_topology_parse(bad[i], &topo),
				    "name \"%s\"", bad[i]);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_topology_parse(NULL, &topo));
	KUNIT_EXPECT_EQ(test, BFLY_TOPO_BENES, topo);

	KUNIT_EXPECT_NULL(test, bfly_topology_name(0));
	KUNIT_EXPECT_NULL(test, bfly_topology_name(__BFLY_TOPO_MAX));
	KUNIT_EXPECT_NULL(test, bfly_topology_name((enum bfly_topology)-1));
}

static void bfly_geometry_every_size(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why;
	u32 n, stages;
	int i;

	for (i = 0; i < ARRAY_SIZE(topology_cases); i++) {
		for (n = topology_cases[i].min_n; n <= BFLY_MAX_PORTS_LOG2; n++) {
			why = NULL;
			KUNIT_ASSERT_EQ(test, 0,
					bfly_geometry_init(&geo, topology_cases[i].topology, 2,
							   1U << n, &why));
			KUNIT_EXPECT_NULL(test, why);
			stages = topology_cases[i].stages_a * n - topology_cases[i].stages_b;
			KUNIT_EXPECT_EQ(test, topology_cases[i].topology, geo.topology);
			KUNIT_EXPECT_EQ(test, n, geo.ports_log2);
			KUNIT_EXPECT_EQ(test, 1U << n, geo.ports);
			KUNIT_EXPECT_EQ_MSG(test, stages, geo.node_stages, "%s n=%u",
					    topology_cases[i].name, n);
			KUNIT_EXPECT_EQ(test, 1U << (n - 1), geo.nodes_per_stage);
			KUNIT_EXPECT_EQ(test, (u64)stages << (n - 1), geo.switches);
			KUNIT_EXPECT_EQ(test, 2, geo.radix);
			KUNIT_EXPECT_EQ(test, (size_t)stages << n, bfly_port_map_bytes(&geo));
		}
	}
}

/* k x k fabrics: N = k^n, n node stages of N/k switches. */
static void bfly_geometry_radix(struct kunit *test)
{
	static const struct {
		enum bfly_topology topology;
		u32 k, ports, stages, ports_log2;
	} good[] = {
		{ BFLY_TOPO_KFLY, 3, 3, 1, 0 },
		{ BFLY_TOPO_KFLY, 3, 9, 2, 0 },
		{ BFLY_TOPO_KFLY, 4, 4096, 6, 12 },
		{ BFLY_TOPO_KFLY, 64, 1U << 18, 3, 18 },
		{ BFLY_TOPO_KFLY, 5, 390625, 8, 0 },
		{ BFLY_TOPO_FLATFLY, 2, 16, 4, 4 },
		{ BFLY_TOPO_FLATFLY, 7, 49, 2, 0 },
	};
	struct bfly_geometry geo;
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, good[i].topology, good[i].k,
							    good[i].ports, &why));
		KUNIT_EXPECT_TRUE(test, geo.port_map);
		KUNIT_EXPECT_EQ(test, good[i].k, geo.radix);
		KUNIT_EXPECT_EQ(test, good[i].stages, geo.node_stages);
		KUNIT_EXPECT_EQ(test, good[i].ports / good[i].k, geo.nodes_per_stage);
		KUNIT_EXPECT_EQ(test, (u64)good[i].stages * (good[i].ports / good[i].k),
				geo.switches);
		KUNIT_EXPECT_EQ(test, good[i].ports_log2, geo.ports_log2);
		KUNIT_EXPECT_EQ(test, (size_t)good[i].stages * good[i].ports,
				bfly_matrix_bytes(&geo));
	}
	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_KFLY, 2, 8, &why));
	KUNIT_EXPECT_EQ(test, 2, geo.radix);
}

static void bfly_geometry_bad_radix(struct kunit *test)
{
	static const struct {
		enum bfly_topology topology;
		u32 k, ports;
		const char *why;
	} bad[] = {
		{ BFLY_TOPO_KFLY, 0, 8, "radix: the switch radix is 2 to 64" },
		{ BFLY_TOPO_KFLY, 1, 8, "radix: the switch radix is 2 to 64" },
		{ BFLY_TOPO_BENES, 0, 8, "radix: the switches of this topology are 2 x 2" },
		{ BFLY_TOPO_KFLY, 65, 65, "radix: the switch radix is 2 to 64" },
		{ BFLY_TOPO_KFLY, U32_MAX, 8, "radix: the switch radix is 2 to 64" },
		{ BFLY_TOPO_KFLY, 3, 12, "ports: not a power of k (k^1 at least)" },
		{ BFLY_TOPO_KFLY, 3, 1, "ports: not a power of k (k^1 at least)" },
		{ BFLY_TOPO_KFLY, 3, 0, "ports: not a power of k (k^1 at least)" },
		{ BFLY_TOPO_KFLY, 64, 1U << 24, "ports: at most 2^20" },
		{ BFLY_TOPO_KFLY, 2, U32_MAX, "ports: at most 2^20" },
		{ BFLY_TOPO_FLATFLY, 8, 8,
		  "ports: a flattened butterfly needs k^2 ports at least" },
		{ BFLY_TOPO_BUTTERFLY, 4, 16, "radix: the switches of this topology are 2 x 2" },
		{ BFLY_TOPO_BENES, 3, 9, "radix: the switches of this topology are 2 x 2" },
	};
	struct bfly_geometry geo = { .ports = 12345 };
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    bfly_geometry_init(&geo, bad[i].topology, bad[i].k,
						       bad[i].ports, &why),
				    "topology %u k=%u ports=%u", bad[i].topology, bad[i].k,
				    bad[i].ports);
		KUNIT_EXPECT_STREQ(test, bad[i].why, why);
	}
	KUNIT_EXPECT_EQ(test, 12345, geo.ports);
}

/* The figures of each family, written out for small cases. */
static void bfly_figures_known_values(struct kunit *test)
{
	static const struct {
		enum bfly_topology topology;
		u32 k, ports;
		struct bfly_figures f;
	} cases[] = {
		/* degree, diameter, routers, channels, bisection */
		{ BFLY_TOPO_BUTTERFLY, 2, 8, { 4, 4, 0, 32, 4 } },
		{ BFLY_TOPO_BUTTERFLY, 2, 2, { 4, 2, 0, 4, 2 } },
		{ BFLY_TOPO_BENES, 2, 8, { 4, 6, 0, 48, 0 } },
		{ BFLY_TOPO_BFLY2, 2, 16, { 4, 8, 0, 128, 0 } },
		{ BFLY_TOPO_KFLY, 2, 8, { 4, 4, 0, 32, 4 } },
		{ BFLY_TOPO_KFLY, 4, 16, { 8, 3, 0, 48, 8 } },
		{ BFLY_TOPO_KFLY, 3, 27, { 6, 4, 0, 108, 0 } },
		{ BFLY_TOPO_KFLY, 8, 8, { 16, 2, 0, 16, 8 } },
		{ BFLY_TOPO_FLATFLY, 2, 16, { 5, 5, 8, 24, 8 } },
		{ BFLY_TOPO_FLATFLY, 4, 16, { 7, 3, 4, 12, 8 } },
		{ BFLY_TOPO_FLATFLY, 3, 27, { 7, 4, 9, 36, 0 } },
	};
	struct bfly_geometry geo;
	struct bfly_figures f;
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, cases[i].topology, cases[i].k,
							    cases[i].ports, &why));
		bfly_figures(&geo, &f);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].f.degree, f.degree, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].f.diameter, f.diameter, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].f.routers, f.routers, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].f.channels, f.channels, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].f.bisection, f.bisection, "case %d", i);
	}
}

/* Spot values written out, independent of the formula above. */
static void bfly_geometry_known_values(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 8, &why));
	KUNIT_EXPECT_EQ(test, 5, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 4, geo.nodes_per_stage);
	KUNIT_EXPECT_EQ(test, 20, geo.switches);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 2, 16, &why));
	KUNIT_EXPECT_EQ(test, 4, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 32, geo.switches);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY_TWICE, 2, 2, &why));
	KUNIT_EXPECT_EQ(test, 2, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 1, geo.nodes_per_stage);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, 2, 1U << 20, &why));
	KUNIT_EXPECT_EQ(test, 39, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 39ULL << 19, geo.switches);
}

static void bfly_geometry_bad_ports(struct kunit *test)
{
	static const u32 bad[] = {
		0, 1, 3, 6, 12, 1000, (1U << 20) + 1, 1U << 21, 1U << 31, U32_MAX,
	};
	struct bfly_geometry geo = { .ports = 12345 };
	const char *why;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, bad[i], &why),
				    "ports=%u", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
	/* A refused request leaves the output untouched. */
	KUNIT_EXPECT_EQ(test, 12345, geo.ports);

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 3, &why));
	KUNIT_EXPECT_STREQ(test, "ports: not a power of two", why);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 1, &why));
	KUNIT_EXPECT_STREQ(test, "ports: fewer than 2 ports", why);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, 1U << 21, &why));
	KUNIT_EXPECT_STREQ(test, "ports: more than 2^20 ports", why);
}

static void bfly_geometry_bad_topology(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, 0, 2, 8, &why));
	KUNIT_EXPECT_STREQ(test, "unknown topology", why);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, __BFLY_TOPO_MAX, 2, 8, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, 1000, 2, 8, &why));
}

static struct kunit_case bfly_topology_cases[] = {
	KUNIT_CASE(bfly_topology_names_round_trip),
	KUNIT_CASE(bfly_topology_bad_names),
	KUNIT_CASE(bfly_geometry_every_size),
	KUNIT_CASE(bfly_geometry_known_values),
	KUNIT_CASE(bfly_geometry_bad_ports),
	KUNIT_CASE(bfly_geometry_bad_topology),
	KUNIT_CASE(bfly_geometry_radix),
	KUNIT_CASE(bfly_geometry_bad_radix),
	KUNIT_CASE(bfly_figures_known_values),
	{}
};

static struct kunit_suite bfly_topology_suite = {
	.name = "bfly_topology",
	.test_cases = bfly_topology_cases,
};

kunit_test_suite(bfly_topology_suite);
