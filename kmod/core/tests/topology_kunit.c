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
} topology_cases[] = {
	{ "butterfly", BFLY_TOPO_BUTTERFLY, 1, 0 },
	{ "bfly2", BFLY_TOPO_BFLY2, 2, 1 },
	{ "bfly-twice", BFLY_TOPO_BFLY_TWICE, 2, 0 },
	{ "benes", BFLY_TOPO_BENES, 2, 1 },
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
		for (n = BFLY_MIN_PORTS_LOG2; n <= BFLY_MAX_PORTS_LOG2; n++) {
			why = NULL;
			KUNIT_ASSERT_EQ(test, 0,
					bfly_geometry_init(&geo, topology_cases[i].topology,
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
		}
	}
}

/* Spot values written out, independent of the formula above. */
static void bfly_geometry_known_values(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why;

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 8, &why));
	KUNIT_EXPECT_EQ(test, 5, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 4, geo.nodes_per_stage);
	KUNIT_EXPECT_EQ(test, 20, geo.switches);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BUTTERFLY, 16, &why));
	KUNIT_EXPECT_EQ(test, 4, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 32, geo.switches);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY_TWICE, 2, &why));
	KUNIT_EXPECT_EQ(test, 2, geo.node_stages);
	KUNIT_EXPECT_EQ(test, 1, geo.nodes_per_stage);

	KUNIT_ASSERT_EQ(test, 0, bfly_geometry_init(&geo, BFLY_TOPO_BFLY2, 1U << 20, &why));
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
				    bfly_geometry_init(&geo, BFLY_TOPO_BENES, bad[i], &why),
				    "ports=%u", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
	/* A refused request leaves the output untouched. */
	KUNIT_EXPECT_EQ(test, 12345, geo.ports);

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 3, &why));
	KUNIT_EXPECT_STREQ(test, "not a power of two", why);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 1, &why));
	KUNIT_EXPECT_STREQ(test, "fewer than 2 ports", why);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, BFLY_TOPO_BENES, 1U << 21, &why));
	KUNIT_EXPECT_STREQ(test, "more than 2^20 ports", why);
}

static void bfly_geometry_bad_topology(struct kunit *test)
{
	struct bfly_geometry geo;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, 0, 8, &why));
	KUNIT_EXPECT_STREQ(test, "unknown topology", why);
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, __BFLY_TOPO_MAX, 8, &why));
	KUNIT_EXPECT_EQ(test, -EINVAL, bfly_geometry_init(&geo, 1000, 8, &why));
}

static struct kunit_case bfly_topology_cases[] = {
	KUNIT_CASE(bfly_topology_names_round_trip),
	KUNIT_CASE(bfly_topology_bad_names),
	KUNIT_CASE(bfly_geometry_every_size),
	KUNIT_CASE(bfly_geometry_known_values),
	KUNIT_CASE(bfly_geometry_bad_ports),
	KUNIT_CASE(bfly_geometry_bad_topology),
	{}
};

static struct kunit_suite bfly_topology_suite = {
	.name = "bfly_topology",
	.test_cases = bfly_topology_cases,
};

kunit_test_suite(bfly_topology_suite);
