/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the native test programs share: TAP-style checks with a running
 * count, a seeded xorshift generator (each program defines
 * NATIVE_TEST_SEED before including this), zeroed aligned allocation, and
 * a fabric geometry built without the kernel's topology.c.
 */
#ifndef BFLY_NATIVE_TEST_H
#define BFLY_NATIVE_TEST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "geometry.h"
#include "topology.h"

#ifndef NATIVE_TEST_SEED
#error "define NATIVE_TEST_SEED before including native-test.h"
#endif

static int passed, failed;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
}

static u64 rng_state = NATIVE_TEST_SEED;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void *xalloc(size_t sz)
{
	void *p = aligned_alloc(64, (sz + 63) & ~(size_t)63);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	memset(p, 0, sz);
	return p;
}

static struct bfly_geometry geom(enum bfly_topology topo, u32 n)
{
	struct bfly_geometry g = { .topology = topo, .ports_log2 = n };

	g.ports = 1U << n;
	g.nodes_per_stage = g.ports / 2;
	switch (topo) {
	case BFLY_TOPO_BUTTERFLY:
		g.node_stages = n;
		break;
	case BFLY_TOPO_BFLY_TWICE:
		g.node_stages = 2 * n;
		break;
	default:
		g.node_stages = 2 * n - 1;
		break;
	}
	g.switches = (u64)g.node_stages * g.nodes_per_stage;
	return g;
}

static size_t matrix_bytes(const struct bfly_geometry *g)
{
	return BITS_TO_LONGS(g->switches) * sizeof(unsigned long);
}

/* A uniformly random permutation of 0 .. n-1 (Fisher-Yates, rnd()). */
static inline void random_perm(u32 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		u32 j = rnd() % (i + 1), t = p[i];

		p[i] = p[j];
		p[j] = t;
	}
}

/* The next permutation in lexicographic order; false after the last. */
static inline bool next_perm(u32 *p, u32 n)
{
	int i = n - 2, j;
	u32 t;

	while (i >= 0 && p[i] > p[i + 1])
		i--;
	if (i < 0)
		return false;
	j = n - 1;
	while (p[j] < p[i])
		j--;
	t = p[i];
	p[i] = p[j];
	p[j] = t;
	for (i++, j = n - 1; i < j; i++, j--) {
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return true;
}

/* The topology's name, from the ops table */
static inline const char *topo_name(enum bfly_topology t)
{
	const char *name = bfly_topology_name(t);

	return name ? name : "?";
}

#endif /* BFLY_NATIVE_TEST_H */
