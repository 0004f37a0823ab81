// SPDX-License-Identifier: GPL-2.0
/*
 * The (N, d)-multibutterfly's wiring and its splitters' expansion
 * (Documentation/mbfly.rst).
 *
 * The c-splitter j joins the M = N / 2^c inputs of rows j M .. j M + M - 1
 * in column c to the M / 2 upper outputs (rows j M .. j M + M/2 - 1) and
 * the M / 2 lower outputs of column c + 1. For each half and each
 * k < d, a random permutation sigma of the M inputs numbers the 2 (M / 2)
 * in-edges of the half's outputs (two per output, as in one butterfly):
 * input u's k-th neighbour in the half is output sigma(u) mod M / 2. Each
 * input has d neighbours in each half and each output exactly 2 d input
 * neighbours: the d butterflies superimposed with their edges permuted.
 * Parallel edges are kept (a splitter of two inputs has one output per
 * half); the expansion counts distinct neighbours.
 *
 * sigma is a keyed Feistel permutation of [0, M), cycle-walking when
 * log2 M is odd, its key drawn from the caller's seed, the column, the
 * splitter, the half and k: the wiring takes no memory and the same seed
 * gives the same wiring.
 */
#include "compat.h"
#include "mbfly.h"

#define BFLY_MBFLY_GOLDEN 0x9e3779b97f4a7c15ULL
#define BFLY_MBFLY_ROUNDS 4

/* splitmix64's output function */
static u64 bfly_mbfly_mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The next number of a splitmix64 stream. */
static u64 bfly_mbfly_rand(u64 *state)
{
	*state += BFLY_MBFLY_GOLDEN;
	return bfly_mbfly_mix(*state);
}

/* A number below @n (n <= 2^32) from the stream. */
static u32 bfly_mbfly_below(u64 *state, u32 n)
{
	return ((bfly_mbfly_rand(state) >> 32) * n) >> 32;
}

static u64 bfly_mbfly_key(const struct bfly_mbfly *g, u32 col, u32 splitter, u32 half, u32 k)
{
	u64 t = (u64)col << 56 | (u64)half << 55 | (u64)k << 48 | splitter;

	return bfly_mbfly_mix(g->seed + bfly_mbfly_mix(t + BFLY_MBFLY_GOLDEN));
}

/* One Feistel pass over 2 @h bits, forward or back. */
static u32 bfly_mbfly_feistel(u64 key, u32 h, u32 x, bool back)
{
	u32 mask = (1U << h) - 1, l = x >> h, r = x & mask, t, n;

	for (t = 0; t < BFLY_MBFLY_ROUNDS; t++) {
		u32 rt = back ? BFLY_MBFLY_ROUNDS - 1 - t : t;

		if (!back) {
			n = l ^ (bfly_mbfly_mix(key + rt * BFLY_MBFLY_GOLDEN + r) & mask);
			l = r;
			r = n;
		} else {
			n = r ^ (bfly_mbfly_mix(key + rt * BFLY_MBFLY_GOLDEN + l) & mask);
			r = l;
			l = n;
		}
	}
	return l << h | r;
}

/* The keyed permutation of [0, 2^@b), or its inverse; cycle-walks. */
static u32 bfly_mbfly_perm(u64 key, u32 b, u32 x, bool back)
{
	u32 h = (b + 1) / 2;

	if (b == 1)
		return x ^ (key & 1);
	do
		x = bfly_mbfly_feistel(key, h, x, back);
	while (x >> b);
	return x;
}

/**
 * bfly_mbfly_init() - the shape of an (N, d)-multibutterfly
 * @g: filled
 * @ports: N, a power of 2 from 2 to 2^%BFLY_MBFLY_MAX_LOG
 * @d: neighbours of an input in each half, 1 to %BFLY_MBFLY_MAX_D
 * @seed: picks the random permutations; the same seed, the same wiring
 * @why: set to the reason on error
 *
 * Return: 0, or -EINVAL with @why set.
 */
int bfly_mbfly_init(struct bfly_mbfly *g, u32 ports, u32 d, u64 seed, const char **why)
{
	if (ports < 2 || !is_power_of_2(ports) || ports > 1U << BFLY_MBFLY_MAX_LOG) {
		*why = "ports: N is a power of 2 from 2 to 2^20";
		return -EINVAL;
	}
	if (d < 1 || d > BFLY_MBFLY_MAX_D) {
		*why = "degree: d is 1 to 64";
		return -EINVAL;
	}
	g->log = ilog2(ports);
	g->ports = ports;
	g->d = d;
	g->seed = seed;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_init);

/**
 * bfly_mbfly_neighbour() - an input's k-th neighbour in one half
 * @g: the multibutterfly
 * @col: the input's column, below log N
 * @row: the input's row
 * @half: 0 for its up-neighbours, 1 for its down-neighbours
 * @k: which of its d neighbours, below d
 *
 * Return: the neighbour's row in column @col + 1.
 */
u32 bfly_mbfly_neighbour(const struct bfly_mbfly *g, u32 col, u32 row, u32 half, u32 k)
{
	u32 b = g->log - col, j = row >> b, m = 1U << b;
	u32 p = bfly_mbfly_perm(bfly_mbfly_key(g, col, j, half, k), b, row & (m - 1), false);

	return j << b | half << (b - 1) | (p & (m / 2 - 1));
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_neighbour);

/**
 * bfly_mbfly_keys() - the keys of one splitter half's d permutations
 * @g: the multibutterfly
 * @col: the splitter's column, below log N
 * @splitter: which of the column's 2^@col splitters
 * @half: 0 upper, 1 lower
 * @keys: filled with d keys, for bfly_mbfly_neighbour_key()
 *
 * The keys of a splitter half serve all its inputs: a caller that needs
 * the neighbours of many inputs of one splitter computes them once.
 */
void bfly_mbfly_keys(const struct bfly_mbfly *g, u32 col, u32 splitter, u32 half, u64 *keys)
{
	u32 k;

	for (k = 0; k < g->d; k++)
		keys[k] = bfly_mbfly_key(g, col, splitter, half, k);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_keys);

/**
 * bfly_mbfly_neighbour_key() - bfly_mbfly_neighbour() with its key given
 * @g: the multibutterfly
 * @col: the input's column, below log N
 * @row: the input's row
 * @half: 0 for its up-neighbours, 1 for its down-neighbours
 * @key: bfly_mbfly_keys()' k-th key of @row's splitter in @col and @half
 *
 * Return: the row of the k-th neighbour, as bfly_mbfly_neighbour().
 */
u32 bfly_mbfly_neighbour_key(const struct bfly_mbfly *g, u32 col, u32 row, u32 half, u64 key)
{
	u32 b = g->log - col, j = row >> b, m = 1U << b;
	u32 p = bfly_mbfly_perm(key, b, row & (m - 1), false);

	return j << b | half << (b - 1) | (p & (m / 2 - 1));
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_neighbour_key);

/**
 * bfly_mbfly_table_size() - bytes of the multibutterfly's neighbour table
 * @g: the multibutterfly
 *
 * One u32 per (column, row, half, k): 8 d N log N bytes.
 *
 * Return: the size, or 0 above %BFLY_MBFLY_TABLE_MAX entries (then the
 * routing computes the neighbours from the keyed permutations).
 */
size_t bfly_mbfly_table_size(const struct bfly_mbfly *g)
{
	u64 n = 2ULL * g->d * g->ports * g->log;

	return n > BFLY_MBFLY_TABLE_MAX ? 0 : n * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_table_size);

/**
 * bfly_mbfly_table_fill() - the multibutterfly's neighbours, tabulated
 * @g: the multibutterfly
 * @table: bfly_mbfly_table_size() bytes; entry ((col N + row) 2 + half) d
 *	+ k is bfly_mbfly_neighbour(@g, col, row, half, k)
 *
 * Context: polls bfly_should_stop().
 * Return: 0, -E2BIG when the table is above its limit, -EINTR when stopped.
 */
int bfly_mbfly_table_fill(const struct bfly_mbfly *g, u32 *table)
{
	u32 c, j, r, h, k, b;
	u64 key;

	if (!bfly_mbfly_table_size(g))
		return -E2BIG;
	for (c = 0; c < g->log; c++) {
		b = g->log - c;
		for (j = 0; j < 1U << c; j++) {
			/* one key per splitter half and k, for all its inputs */
			for (h = 0; h < 2; h++) {
				for (k = 0; k < g->d; k++) {
					size_t at = ((size_t)c * g->ports * 2 + h) * g->d + k;

					key = bfly_mbfly_key(g, c, j, h, k);
					for (r = j << b; r < (j + 1) << b; r++)
						table[at + (size_t)r * 2 * g->d] =
							bfly_mbfly_neighbour_key(g, c, r, h, key);
				}
			}
			if (bfly_should_stop())
				return -EINTR;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_table_fill);

/**
 * bfly_mbfly_in_neighbour() - an output's k-th input neighbour
 * @g: the multibutterfly
 * @col: the output's column, 1 to log N
 * @row: the output's row
 * @k: which of its 2 d input neighbours, below 2 d: k / 2 is the
 *	butterfly (permutation) it comes from, k % 2 its in-edge there
 *
 * Return: the row in column @col - 1 whose neighbour bfly_mbfly_neighbour()
 * (k / 2) is @row.
 */
u32 bfly_mbfly_in_neighbour(const struct bfly_mbfly *g, u32 col, u32 row, u32 k)
{
	u32 b = g->log - col + 1, j = row >> b, m = 1U << b;
	u32 half = (row >> (b - 1)) & 1, w = (row & (m / 2 - 1)) + (k & 1) * (m / 2);

	return j << b | bfly_mbfly_perm(bfly_mbfly_key(g, col - 1, j, half, k / 2), b, w, true);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_in_neighbour);

/*
 * The expansion's workspace: for the M inputs of a splitter their distinct
 * neighbours per half (@nb, @cnt), a stamp per output of a half, a flag
 * per input.
 */
struct bfly_mbfly_xw {
	u32 *nb;
	u8 *cnt;
	u32 *stamp;
	u8 *in;
	u32 gen;
	u32 m;
	u32 d;
};

/**
 * bfly_mbfly_expansion_workspace_size() - bytes bfly_mbfly_expansion() needs
 * @g: the multibutterfly
 * @col: the column of the splitters measured
 *
 * Return: the size, or 0 for a column out of range.
 */
size_t bfly_mbfly_expansion_workspace_size(const struct bfly_mbfly *g, u32 col)
{
	u64 m, sz;

	if (col >= g->log)
		return 0;
	m = 1ULL << (g->log - col);
	/* m <= 2^20, d <= 64: no overflow in u64 */
	sz = 2 * m * g->d * sizeof(u32) + 2 * m + m / 2 * sizeof(u32) + m + 64;
	if (sz > (size_t)-1)
		return 0;
	return sz;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_expansion_workspace_size);

/* Neighbour masks, every subset of the (at most 16) inputs. */
static int bfly_mbfly_exhaustive(const struct bfly_mbfly *g, u32 col, u32 base,
				 struct bfly_mbfly_expansion *e)
{
	u32 m = 1U << (g->log - col), mask[2][BFLY_MBFLY_EXHAUSTIVE_MAX];
	u32 x, u, half, k;

	for (half = 0; half < 2; half++) {
		for (u = 0; u < m; u++) {
			mask[half][u] = 0;
			for (k = 0; k < g->d; k++)
				mask[half][u] |= 1U << (bfly_mbfly_neighbour(g, col, base + u, half,
									     k) & (m / 2 - 1));
		}
	}
	for (x = 1; x < 1U << m; x++) {
		u32 n = hweight64((u64)x), up = 0, down = 0;

		if (n > e->kmax)
			continue;
		for (u = 0; u < m; u++) {
			if (x >> u & 1) {
				up |= mask[0][u];
				down |= mask[1][u];
			}
		}
		e->min_up[n] = min_t(u32, e->min_up[n], hweight64((u64)up));
		e->min_down[n] = min_t(u32, e->min_down[n], hweight64((u64)down));
		e->subsets++;
		if (!(x & 0xfff) && bfly_should_stop())
			return -EINTR;
	}
	e->exhaustive = true;
	return 0;
}

static void bfly_mbfly_newgen(struct bfly_mbfly_xw *w)
{
	if (!++w->gen) {
		memset(w->stamp, 0, w->m / 2 * sizeof(u32));
		w->gen = 1;
	}
}

/* Marks @u's neighbours in @half; returns how many were new. */
static u32 bfly_mbfly_mark(struct bfly_mbfly_xw *w, u32 half, u32 u, bool mark)
{
	const u32 *nb = w->nb + ((u64)half * w->m + u) * w->d;
	u32 i, n = 0;

	for (i = 0; i < w->cnt[half * w->m + u]; i++) {
		if (w->stamp[nb[i]] != w->gen) {
			n++;
			if (mark)
				w->stamp[nb[i]] = w->gen;
		}
	}
	return n;
}

/* Greedy worst case in @half from a random start: fewest new outputs each step. */
static int bfly_mbfly_greedy(struct bfly_mbfly_xw *w, u32 half, u64 *rng, u32 kmax,
			     u32 *mins)
{
	u32 k, u, best, bn, total = 0;

	memset(w->in, 0, w->m);
	bfly_mbfly_newgen(w);
	best = bfly_mbfly_below(rng, w->m);
	for (k = 1; k <= kmax; k++) {
		w->in[best] = 1;
		total += bfly_mbfly_mark(w, half, best, true);
		mins[k] = min_t(u32, mins[k], total);
		bn = U32_MAX;
		for (u = 0; u < w->m && k < kmax; u++) {
			u32 n;

			if (w->in[u])
				continue;
			n = bfly_mbfly_mark(w, half, u, false);
			if (n < bn) {
				bn = n;
				best = u;
			}
		}
		if (bfly_should_stop())
			return -EINTR;
	}
	return 0;
}

/* @samples random subsets of each size, then @samples greedy searches. */
static int bfly_mbfly_sampled(const struct bfly_mbfly *g, u32 col, u32 base, u32 samples,
			      u64 seed, struct bfly_mbfly_expansion *e, struct bfly_mbfly_xw *w)
{
	u32 u, half, k, s, i;
	u64 rng = seed;
	int err;

	for (half = 0; half < 2; half++) {
		for (u = 0; u < w->m; u++) {
			u32 *nb = w->nb + ((u64)half * w->m + u) * w->d, n = 0;

			for (k = 0; k < g->d; k++) {
				u32 v = bfly_mbfly_neighbour(g, col, base + u, half, k) &
					(w->m / 2 - 1);

				for (i = 0; i < n && nb[i] != v; i++)
					;
				if (i == n)
					nb[n++] = v;
			}
			w->cnt[half * w->m + u] = n;
		}
	}
	for (k = 1; k <= e->kmax; k++) {
		for (s = 0; s < samples; s++) {
			u32 tot[2] = { 0, 0 }, picked = 0;

			memset(w->in, 0, w->m);
			while (picked < k) {
				u = bfly_mbfly_below(&rng, w->m);
				if (!w->in[u]) {
					w->in[u] = 1;
					picked++;
				}
			}
			for (half = 0; half < 2; half++) {
				bfly_mbfly_newgen(w);
				for (u = 0; u < w->m; u++)
					if (w->in[u])
						tot[half] += bfly_mbfly_mark(w, half, u, true);
			}
			e->min_up[k] = min_t(u32, e->min_up[k], tot[0]);
			e->min_down[k] = min_t(u32, e->min_down[k], tot[1]);
			e->subsets++;
		}
		if (bfly_should_stop())
			return -EINTR;
	}
	for (s = 0; s < samples; s++) {
		err = bfly_mbfly_greedy(w, 0, &rng, e->kmax, e->min_up);
		if (!err)
			err = bfly_mbfly_greedy(w, 1, &rng, e->kmax, e->min_down);
		if (err)
			return err;
		e->subsets += e->kmax;
	}
	return 0;
}

/**
 * bfly_mbfly_expansion() - measure one splitter's expansion
 * @g: the multibutterfly
 * @col: the splitter's column, below log N
 * @splitter: which of the column's 2^@col splitters
 * @kmax: subset sizes 1 .. @kmax (clamped to the splitter's inputs and
 *	%BFLY_MBFLY_MAX_K)
 * @samples: on a splitter of more than %BFLY_MBFLY_EXHAUSTIVE_MAX inputs:
 *	random subsets per size, and greedy worst-case searches
 * @seed: the sampling's random numbers
 * @e: filled: the fewest distinct outputs per subset size
 * @work: bfly_mbfly_expansion_workspace_size() bytes (unused when
 *	exhaustive)
 *
 * Splitters of up to %BFLY_MBFLY_EXHAUSTIVE_MAX inputs are measured over
 * every subset of up to @kmax inputs; larger ones over @samples random
 * subsets of each size and @samples greedy searches, each growing a set
 * from a random input by the input that adds the fewest outputs.
 *
 * Context: polls bfly_should_stop().
 * Return: 0, -EINVAL for a splitter out of range or no samples on a
 * sampled splitter, -EINTR when stopped.
 */
int bfly_mbfly_expansion(const struct bfly_mbfly *g, u32 col, u32 splitter, u32 kmax,
			 u32 samples, u64 seed, struct bfly_mbfly_expansion *e, void *work)
{
	struct bfly_mbfly_xw w = { 0 };
	u32 m, k;
	u8 *p = work;

	if (col >= g->log || splitter >= 1U << col || !kmax)
		return -EINVAL;
	m = 1U << (g->log - col);
	memset(e, 0, sizeof(*e));
	e->kmax = min_t(u32, min_t(u32, kmax, m), BFLY_MBFLY_MAX_K);
	for (k = 0; k <= e->kmax; k++) {
		e->min_up[k] = k ? U32_MAX : 0;
		e->min_down[k] = k ? U32_MAX : 0;
	}
	if (m <= BFLY_MBFLY_EXHAUSTIVE_MAX)
		return bfly_mbfly_exhaustive(g, col, splitter * m, e);
	if (!samples)
		return -EINVAL;
	w.m = m;
	w.d = g->d;
	w.nb = (u32 *)p;
	p += 2 * (size_t)m * g->d * sizeof(u32);
	w.stamp = (u32 *)p;
	p += m / 2 * sizeof(u32);
	w.cnt = p;
	p += 2 * (size_t)m;
	w.in = p;
	memset(w.stamp, 0, m / 2 * sizeof(u32));
	return bfly_mbfly_sampled(g, col, splitter * m, samples, seed, e, &w);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_expansion);

/**
 * bfly_mbfly_beta_fp16() - the beta a measure shows up to a subset size
 * @e: a measure from bfly_mbfly_expansion()
 * @kmax: sizes 1 .. @kmax (clamped to @e->kmax): alpha = @kmax / M
 *
 * Return: min over k of min(@e->min_up[k], @e->min_down[k]) / k in 16.16
 * fixed point.
 */
u32 bfly_mbfly_beta_fp16(const struct bfly_mbfly_expansion *e, u32 kmax)
{
	u32 k, best = U32_MAX;

	for (k = 1; k <= min_t(u32, kmax, e->kmax); k++) {
		u32 n = min_t(u32, e->min_up[k], e->min_down[k]);
		u32 fp = n >= 1U << 16 ? U32_MAX : (n << 16) / k;

		best = min_t(u32, best, fp);
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_beta_fp16);
