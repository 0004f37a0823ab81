/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by bfly's KUnit suites: how far sweeps go, zeroed memory
 * freed when the test ends, faults, and permutations (the lexicographic
 * next one, a random one, a random partial one).
 */
#ifndef BFLY_KUNIT_UTIL_H
#define BFLY_KUNIT_UTIL_H

#include <kunit/test.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "lib/fault.h"
#include "lib/hrel_round.h"
#include "lib/rand.h"

/*
 * The test kernel runs under emulation with sanitizers: there the sweeps
 * stop at smaller fabrics and fewer repetitions than natively, where the
 * <kunit/test.h> stand-in sets BFLY_TEST_LARGE.
 */
#ifndef BFLY_TEST_LARGE
#define BFLY_TEST_LARGE 0
#endif

/* @native repetitions natively, @kernel in the test kernel */
#define BFLY_TEST_REPS(native, kernel) (BFLY_TEST_LARGE ? (native) : (kernel))

static inline void bfly_kvfree_action(void *p)
{
	kvfree(p);
}

/* Zeroed memory freed when the test ends. */
static inline void *bfly_test_alloc(struct kunit *test, size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bfly_kvfree_action, p));
	return p;
}

/* A node of node stage @stage stuck in @state (0 straight, 1 cross). */
static inline struct bfly_fault bfly_test_stuck(u32 stage, u32 node, u32 state)
{
	struct bfly_fault f = {
		.kind = BFLY_FAULT_STUCK, .stage = stage, .index = node, .state = state
	};

	return f;
}

/* The broken link leaving node stage @stage at link position @pos. */
static inline struct bfly_fault bfly_test_link(u32 stage, u32 pos)
{
	struct bfly_fault f = { .kind = BFLY_FAULT_LINK, .stage = stage, .index = pos };

	return f;
}

/* Lexicographic next permutation; false after the last one. */
static inline bool bfly_next_perm(u32 *p, u32 n)
{
	u32 i = n - 1, j;

	while (i > 0 && p[i - 1] >= p[i])
		i--;
	if (!i)
		return false;
	j = n - 1;
	while (p[j] <= p[i - 1])
		j--;
	swap(p[i - 1], p[j]);
	for (j = n - 1; i < j; i++, j--)
		swap(p[i], p[j]);
	return true;
}

/* A random permutation of 0..@n-1 (Fisher-Yates, drawing from @rnd). */
static inline void bfly_random_perm(struct rnd_state *rnd, u32 *p, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		/* swap() evaluates its arguments twice: draw first. */
		j = prandom_u32_state(rnd) % (i + 1);
		swap(p[i], p[j]);
	}
}

/*
 * A random partial permutation of 0..@ports-1, drawing from @rng: each
 * input sends with chance @pct %, the others are BFLY_HREL_IDLE.
 */
static inline void bfly_random_partial_perm(u32 ports, u32 pct, u64 *rng, u32 *part)
{
	u32 i, j;

	for (i = 0; i < ports; i++)
		part[i] = i;
	for (i = ports - 1; i > 0; i--) {
		j = bfly_splitmix64(rng) % (i + 1);
		swap(part[i], part[j]);
	}
	for (i = 0; i < ports; i++)
		if (bfly_splitmix64(rng) % 100 >= pct)
			part[i] = BFLY_HREL_IDLE;
}

#endif /* BFLY_KUNIT_UTIL_H */
