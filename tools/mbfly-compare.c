// SPDX-License-Identifier: GPL-2.0
/*
 * The multibutterfly's figures for Documentation/mbfly.rst, on the
 * algorithm library (kmod/lib/mbfly.c, mbfly_route.c):
 *
 *   mbfly-compare table [seed [d [trials [L]]]]
 *	random h-relations (h random permutations superposed) at N = 64,
 *	256, 1024 and h = 1, 2, 4, 8: the multibutterfly's stages, the h
 *	rounds of Benes, and the rounds of the butterfly when conflicting
 *	messages are split greedily (first fit, one path per pair)
 *   mbfly-compare expansion N d [seed [samples]]
 *	each column's splitter 0 measured, the beta observed at each alpha
 *	and Fact 1's condition evaluated in floating point
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "mbfly.h"

static u64 rng;

static u32 rnd(u32 n)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return ((z ^ (z >> 31)) >> 32) * n >> 32;
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);

	if (!p) {
		perror("mbfly-compare");
		exit(2);
	}
	return p;
}

/* h random permutations superposed */
static void relation(struct bfly_mbfly_msg *m, u32 n, u32 h, u32 l)
{
	u32 j, i, k, t;
	u32 *p = xcalloc(n, sizeof(u32));

	for (j = 0; j < h; j++) {
		for (i = 0; i < n; i++)
			p[i] = i;
		for (i = n - 1; i > 0; i--) {
			k = rnd(i + 1);
			t = p[i];
			p[i] = p[k];
			p[k] = t;
		}
		for (i = 0; i < n; i++) {
			m[j * n + i].src = i * l;
			m[j * n + i].dst = p[i] * l;
		}
	}
	free(p);
}

/*
 * Rounds of the butterfly: messages in a random order, each in the first
 * round where its source, its destination and the edges of its one path
 * are free.
 */
static u32 bfly_rounds(const struct bfly_mbfly_msg *m, u32 count, u32 n, u32 log)
{
	u32 edges = 2 * n * log + 2 * n, rounds = 0, cap = 16, i, c, r;
	u32 *order = xcalloc(count, sizeof(u32)), *ids = xcalloc(log + 2, sizeof(u32));
	u8 **used = xcalloc(cap, sizeof(u8 *));

	for (i = 0; i < count; i++)
		order[i] = i;
	for (i = count; i > 1; i--) {
		u32 k = rnd(i), t = order[i - 1];

		order[i - 1] = order[k];
		order[k] = t;
	}
	for (i = 0; i < count; i++) {
		const struct bfly_mbfly_msg *x = &m[order[i]];
		u32 row = x->src, bit;

		ids[0] = 2 * n * log + x->src;
		ids[1] = 2 * n * log + n + x->dst;
		for (c = 0; c < log; c++) {
			bit = (x->dst >> (log - 1 - c)) & 1;
			ids[c + 2] = (c * n + row) * 2 + bit;
			row = (row & ~(1U << (log - 1 - c))) | bit << (log - 1 - c);
		}
		for (r = 0;; r++) {
			bool free_ = true;

			if (r == rounds) {
				if (rounds == cap) {
					cap *= 2;
					used = realloc(used, cap * sizeof(u8 *));
					if (!used)
						exit(2);
				}
				used[rounds++] = xcalloc(edges, 1);
			}
			for (c = 0; c < log + 2 && free_; c++)
				free_ = !used[r][ids[c]];
			if (free_) {
				for (c = 0; c < log + 2; c++)
					used[r][ids[c]] = 1;
				break;
			}
		}
	}
	for (r = 0; r < rounds; r++)
		free(used[r]);
	free(used);
	free(order);
	free(ids);
	return rounds;
}

static int table(u64 seed, u32 d, u32 trials, u32 l)
{
	u32 wover = 0;
	static const u32 ns[] = { 64, 256, 1024 }, hs[] = { 1, 2, 4, 8 };
	unsigned int a, b;
	u32 t;

	printf("seed %llu, d %u, %u random h-relations each (h permutations superposed),\n"
	       "rows i L active, L = %u\n", (unsigned long long)seed, d, trials, l);
	printf("%6s %3s %5s | %7s %7s %6s %6s %6s %9s | %5s | %9s %9s\n", "N", "h",
	       "log N", "stages", "max", "forced", "misses", "ovfl", "through", "Benes",
	       "bfly avg", "bfly max");
	for (a = 0; a < ARRAY_SIZE(ns); a++) {
		for (b = 0; b < ARRAY_SIZE(hs); b++) {
			u32 n = ns[a] / l, h = hs[b], smax = 0, bmax = 0, thr = 0, hbar = 0;
			u64 ssum = 0, bsum = 0, forced = 0, miss = 0, ovf = 0;
			struct bfly_mbfly_msg *m = xcalloc(n * h, sizeof(*m));
			struct bfly_mbfly g;
			const char *why;
			void *work;

			if (!n || bfly_mbfly_init(&g, ns[a], d, seed + a * 16 + b, &why)) {
				fprintf(stderr, "mbfly-compare: %s\n", why);
				return 2;
			}
			work = xcalloc(bfly_mbfly_route_workspace_size(&g, n * h), 1);
			rng = seed * 1000 + a * 16 + b;
			for (t = 0; t < trials; t++) {
				struct bfly_mbfly_result res;
				u32 br;
				int err;

				relation(m, n, h, l);
				err = bfly_mbfly_route(&g, NULL, m, n * h, NULL, &res, work);
				if (err || !res.bound_ok || res.path_errors) {
					fprintf(stderr, "N %u h %u: error %d, %u left, bound %d\n",
						n, h, err, res.left, res.bound_ok);
					return 1;
				}
				ssum += res.stages;
				smax = res.stages > smax ? res.stages : smax;
				forced += res.forced;
				miss += res.ghost_misses;
				ovf += res.cap_overflows;
				wover += res.max_w > res.hbar;
				thr = res.max_through > thr ? res.max_through : thr;
				hbar = res.hbar;
				br = bfly_rounds(m, n * h, ns[a], g.log);
				bsum += br;
				bmax = br > bmax ? br : bmax;
			}
			printf("%6u %3u %5u | %7.2f %7u %6.1f %6.1f %6.1f %4u/%-4u",
			       ns[a], h, g.log, (double)ssum / trials, smax,
			       (double)forced / trials, (double)miss / trials,
			       (double)ovf / trials, thr, 2 * hbar);
			printf(" | %5u | %9.2f %9u\n", h, (double)bsum / trials, bmax);
			free(work);
			free(m);
		}
	}
	printf("runs with a counter W above h-bar (Lemma 3): %u\n", wover);
	return 0;
}

/* Fact 1: 2 alpha beta < 1 and d > beta + 1 + (beta + 1 + ln 2 beta) / ln(1 / (2 alpha beta)) */
static double fact1_dmin(double alpha, double beta)
{
	if (2 * alpha * beta >= 1)
		return INFINITY;
	return beta + 1 + (beta + 1 + log(2 * beta)) / log(1 / (2 * alpha * beta));
}

static int expansion(u32 n, u32 d, u64 seed, u32 samples)
{
	struct bfly_mbfly_expansion e;
	struct bfly_mbfly g;
	const char *why;
	u32 c, k;

	if (bfly_mbfly_init(&g, n, d, seed, &why)) {
		fprintf(stderr, "mbfly-compare: %s\n", why);
		return 2;
	}
	printf("N %u d %u seed %llu, splitter 0 of each column, %u samples\n", n, d,
	       (unsigned long long)seed, samples);
	printf("%4s %7s %5s | %5s %7s %8s %11s\n", "col", "inputs", "how", "k", "alpha",
	       "beta", "Fact1 d >");
	for (c = 0; c < g.log; c++) {
		u32 m = n >> c;
		void *w = xcalloc(bfly_mbfly_expansion_workspace_size(&g, c), 1);

		if (bfly_mbfly_expansion(&g, c, 0, 32, samples, seed + c, &e, w))
			return 1;
		for (k = 1; k <= e.kmax; k *= 2) {
			double beta = bfly_mbfly_beta_fp16(&e, k) / 65536.0;
			double alpha = (double)k / m;

			printf("%4u %7u %5s | %5u %7.4f %8.3f %11.2f\n", c, m,
			       e.exhaustive ? "all" : "samp", k, alpha, beta,
			       fact1_dmin(alpha, beta));
		}
		free(w);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "table"))
		return table(argc > 2 ? strtoull(argv[2], NULL, 0) : 1,
			     argc > 3 ? atoi(argv[3]) : 8, argc > 4 ? atoi(argv[4]) : 5,
			     argc > 5 ? atoi(argv[5]) : 1);
	if (argc >= 4 && !strcmp(argv[1], "expansion"))
		return expansion(atoi(argv[2]), atoi(argv[3]),
				 argc > 4 ? strtoull(argv[4], NULL, 0) : 1,
				 argc > 5 ? atoi(argv[5]) : 8);
	fprintf(stderr, "usage: mbfly-compare table [seed [d [trials [L]]]]\n"
		"       mbfly-compare expansion N d [seed [samples]]\n");
	return 2;
}
