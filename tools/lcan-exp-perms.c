// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the permutations routed, from the random streams
 * (splitmix64): random ones, the worst-case sampler and the structured ones.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lcan-exp.h"

/* splitmix64 */
static u64 rng_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in 0 .. @n - 1 (n >= 1), without bias. */
static u32 rng_below(u64 *state, u32 n)
{
	u64 limit = U64_MAX - U64_MAX % n, x;

	do {
		x = rng_next(state);
	} while (x >= limit);
	return x % n;
}

/* The stream of experiment @name under @seed (FNV-1a of the name, mixed). */
u64 stream_seed(u64 seed, const char *name)
{
	u64 h = 0xcbf29ce484222325ULL, s;

	while (*name)
		h = (h ^ (u8)*name++) * 0x100000001b3ULL;
	s = seed ^ h;
	return rng_next(&s);
}

/* Does every pair of @dst have LCA level l - 1? */
bool in_worst_set(const struct net *n, const u32 *dst)
{
	u32 p;

	for (p = 0; p < n->g.ports; p++)
		if (bfly_lcan_lca_level(&n->g, p, dst[p]) != n->g.levels - 1)
			return false;
	return true;
}

void perm_random(u32 *dst, u32 ports, u64 *rng)
{
	u32 i;

	for (i = 0; i < ports; i++)
		dst[i] = i;
	for (i = ports; i > 1; i--) {
		u32 j = rng_below(rng, i), t = dst[i - 1];

		dst[i - 1] = dst[j];
		dst[j] = t;
	}
}

/* Swaps per permutation the worst-case walk takes (d / u > 2). */
static u64 worst_walk_steps(u32 ports)
{
	return 16ULL * ports * (ilog2(ports) + 1);
}

/*
 * A permutation drawn uniformly from the worst-case set: every pair has
 * LCA level l - 1, i.e. the destination's top digit differs from the
 * source's. The top digit splits the PEs into a blocks of N / a (a the
 * arity, d or d / u). With a = 2: a random bijection of each half onto
 * the other, exactly uniform. With a > 2: a random walk from the block
 * shift p -> p + N / a; each step draws x, y, z and rotates their
 * destinations (z's to y, y's to x, x's to z; with y = z the two swap)
 * when all three stay in the set. The steps are symmetric, so the walk
 * tends to the uniform distribution; it takes worst_walk_steps() of them.
 * (Swaps alone never leave the block shift for a = 3.)
 */
void perm_worst(const struct net *n, u32 *dst, u64 *rng)
{
	u32 ports = n->g.ports, a = n->radix[n->g.levels - 1], block = ports / a, i;
	u64 s, steps;

	if (a == 2) {
		u32 *half = xcalloc(block, sizeof(u32));
		u32 h;

		for (h = 0; h < 2; h++) {
			perm_random(half, block, rng);
			for (i = 0; i < block; i++)
				dst[h * block + i] = (1 - h) * block + half[i];
		}
		free(half);
		return;
	}
	for (i = 0; i < ports; i++)
		dst[i] = (i + block) % ports;
	steps = worst_walk_steps(ports);
	for (s = 0; s < steps; s++) {
		u32 x = rng_below(rng, ports), y = rng_below(rng, ports), z = rng_below(rng, ports);
		u32 t = dst[x];

		if (x == y || x == z)
			continue;
		if (dst[y] / block == x / block || dst[z] / block == y / block ||
		    dst[x] / block == z / block)
			continue;
		dst[x] = dst[y];
		dst[y] = dst[z];
		dst[z] = t;
	}
}

/* Digit reversal in the network's mixed radix. */
static void perm_reversal(const struct net *n, u32 *dst)
{
	u32 l = n->g.levels, p, i;

	for (p = 0; p < n->g.ports; p++) {
		u32 x = p, y = 0;

		/* digit i of p becomes digit l - 1 - i, radices reversed */
		for (i = 0; i < l; i++) {
			y = y * n->radix[i] + x % n->radix[i];
			x /= n->radix[i];
		}
		dst[p] = y;
	}
}

/* Transpose: p = H B + L -> L (N / B) + H, B the low floor(l / 2) digits. */
void perm_transpose(const struct net *n, u32 *dst)
{
	u32 b = 1, p, i;

	for (i = 0; i < n->g.levels / 2; i++)
		b *= n->radix[i];
	for (p = 0; p < n->g.ports; p++)
		dst[p] = p % b * (n->g.ports / b) + p / b;
}

/* Perfect shuffle: the top digit rotated to the bottom. */
static void perm_shuffle(const struct net *n, u32 *dst)
{
	u32 a = n->radix[n->g.levels - 1], rest = n->g.ports / a, p;

	for (p = 0; p < n->g.ports; p++)
		dst[p] = p % rest * a + p / rest;
}

static void perm_shift(u32 *dst, u32 ports, u32 by)
{
	u32 p;

	for (p = 0; p < ports; p++)
		dst[p] = (p + by) % ports;
}

/*
 * Structured permutation @which into @dst, its name into @name. Return:
 * false for a shift equal to an earlier one.
 */
bool perm_structured(const struct net *n, u32 which, u32 *dst, char *name, size_t size)
{
	u32 ports = n->g.ports, block = ports / n->radix[n->g.levels - 1], p;

	switch (which) {
	case PERM_REVERSAL:
		perm_reversal(n, dst);
		snprintf(name, size, "digit reversal");
		return true;
	case PERM_TRANSPOSE:
		perm_transpose(n, dst);
		snprintf(name, size, "transpose");
		return true;
	case PERM_SHUFFLE:
		perm_shuffle(n, dst);
		snprintf(name, size, "shuffle");
		return true;
	case PERM_COMPLEMENT:
		for (p = 0; p < ports; p++)
			dst[p] = ports - 1 - p;
		snprintf(name, size, "complement");
		return true;
	case PERM_SHIFT_1:
		perm_shift(dst, ports, 1);
		snprintf(name, size, "shift 1");
		return true;
	case PERM_SHIFT_HALF:
		if (ports % 2 || ports / 2 == 1)
			return false;
		perm_shift(dst, ports, ports / 2);
		snprintf(name, size, "shift N/2 = %u", ports / 2);
		return true;
	default:
		if (block == ports / 2 || block == 1)
			return false;
		perm_shift(dst, ports, block);
		snprintf(name, size, "shift N/%u = %u", ports / block, block);
		return true;
	}
}
