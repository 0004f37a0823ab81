// SPDX-License-Identifier: GPL-2.0
/*
 * Decomposing an h-relation into h rounds (hrel.c) against routing those
 * rounds on a Benes by looping (benes.c), alternated call by call: at
 * N = 2^16, a random h-relation (the union of h random permutations, its
 * messages in random order) for h = 16 and 64; the median time of one
 * bfly_hrel_colour() and of the h bfly_benes_route() calls of its rounds,
 * each round completed to a full permutation, and their ratio (issue 14
 * asks for 1.0 at most). Every result is checked: each colouring gives h
 * partial permutations holding every message once, and each route traced
 * delivers its permutation.
 *
 *   bench-hrel [reps]
 */
#include "compat.h"
#include "benes.h"
#include "hrel.h"
#include "topology.h"
#include "trace.h"
#include "bench.h"

#define BENCH_MAX_REPS 101

struct hrel_bench {
	u32 n, h, count;
	u32 *src, *dst, *colour, *rounds, *seen, *got;
	void *work, *bwork;
	unsigned long *m;
	struct bfly_geometry geo;
};

/*
 * The colouring's rounds to rounds[c * N ..], each completed to a full
 * permutation; false when a colour is h or more, two messages of a colour
 * share a source or a destination, or the colours do not hold every
 * message once. One pass over the messages: got[c * N + d] marks
 * destination d taken in round c.
 */
static bool hrel_bench_rounds(struct hrel_bench *b)
{
	u32 n = b->n, c, s, d, i;
	size_t slots = (size_t)b->h * n;
	bool ok = true;

	memset(b->rounds, 0xff, slots * sizeof(u32));
	memset(b->got, 0, slots * sizeof(u32));
	for (i = 0; i < b->count; i++) {
		size_t at;

		c = b->colour[i];
		if (c >= b->h)
			return false;
		at = (size_t)c * n;
		if (b->rounds[at + b->src[i]] != BFLY_HREL_IDLE || b->got[at + b->dst[i]]++)
			return false;
		b->rounds[at + b->src[i]] = b->dst[i];
	}
	/* exactly h colours, each a partial permutation; idle sources take the
	 * free destinations in order
	 */
	for (c = 0; c < b->h; c++) {
		u32 *p = b->rounds + (size_t)c * n, *seen = b->got + (size_t)c * n, used = 0;

		for (s = 0, d = 0; s < n; s++) {
			if (p[s] != BFLY_HREL_IDLE) {
				used++;
				continue;
			}
			while (seen[d])
				d++;
			seen[d] = 1;
			p[s] = d;
		}
		ok &= used > 0;
	}
	return ok;
}

/* Route every round; check each by tracing. Returns the routing time. */
static double hrel_bench_benes(struct hrel_bench *b, int *bad)
{
	double t = 0, t0;
	u32 c;

	for (c = 0; c < b->h; c++) {
		const u32 *p = b->rounds + (size_t)c * b->n;

		t0 = now_ns();
		if (bfly_benes_route(&b->geo, p, b->m, b->bwork))
			(*bad)++;
		t += now_ns() - t0;
		bfly_trace(&b->geo, b->m, b->seen);
		*bad += !!memcmp(p, b->seen, b->n * sizeof(u32));
	}
	return t;
}

static void hrel_bench_relation(struct hrel_bench *b)
{
	u32 k, i, n = b->n;

	for (k = 0; k < b->h; k++)
		bench_random_perm(b->dst + (size_t)k * n, n);
	/* the messages in random order: sources from random permutations too */
	for (k = 0; k < b->h; k++)
		bench_random_perm(b->src + (size_t)k * n, n);
	for (i = b->count - 1; i > 0; i--) {
		u32 j = bench_rnd() % (i + 1), x = b->dst[i];

		b->dst[i] = b->dst[j];
		b->dst[j] = x;
	}
}

/* Median of @n ratios and their spread. */
static double hrel_bench_ratio(const double *tc, const double *tb, int n, double *lo,
			       double *hi)
{
	double q[BENCH_MAX_REPS];
	int r;

	*lo = 1e300;
	*hi = 0;
	for (r = 0; r < n; r++) {
		q[r] = tc[r] / tb[r];
		*lo = q[r] < *lo ? q[r] : *lo;
		*hi = q[r] > *hi ? q[r] : *hi;
	}
	return bench_median(q, n);
}

int main(int argc, char **argv)
{
	static const struct { u32 lg, h; bool figure; } runs[] = {
		{ 12, 16, false }, { 14, 16, false }, { 14, 64, false },
		{ 16, 16, true }, { 16, 64, true },
	};
	int reps = argc > 1 ? atoi(argv[1]) : 7, bad = 0, r;
	double tc[BENCH_MAX_REPS], tb[BENCH_MAX_REPS], c, be, q, lo, hi;
	char figures[ARRAY_SIZE(runs)][160];
	const char *why;
	unsigned int k, nfig = 0;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 7;
	printf("h-relation into h rounds (colouring) against its h Benes looping routes\n");
	printf("union of h random permutations in random order; median of %d, alternated\n",
	       reps);
	printf("%6s %4s %9s %10s %10s %11s %10s %7s %15s\n", "N", "h", "messages", "colour ms",
	       "benes ms", "colour ns/m", "benes ns/m", "ratio", "(min .. max)");
	for (k = 0; k < ARRAY_SIZE(runs); k++) {
		struct hrel_bench b = { .n = 1U << runs[k].lg, .h = runs[k].h };
		u32 deg, where;

		b.count = b.n * b.h;
		if (bfly_geometry_init(&b.geo, BFLY_TOPO_BENES, 2, b.n, &why)) {
			fprintf(stderr, "bench-hrel: %s\n", why);
			return 2;
		}
		b.src = bench_alloc_huge((size_t)b.count * sizeof(u32));
		b.dst = bench_alloc_huge((size_t)b.count * sizeof(u32));
		b.colour = bench_alloc_huge((size_t)b.count * sizeof(u32));
		b.got = bench_alloc_huge((size_t)b.count * sizeof(u32));
		b.rounds = bench_alloc_huge((size_t)b.count * sizeof(u32));
		b.seen = bench_alloc(b.n * sizeof(u32));
		b.work = bench_alloc_huge(bfly_hrel_workspace_size(b.n, b.count, b.h));
		b.bwork = bench_alloc_huge(bfly_benes_workspace_size(&b.geo));
		b.m = bench_alloc(bfly_matrix_bytes(&b.geo));
		for (r = -1; r < reps; r++) {
			double t0;

			hrel_bench_relation(&b);
			if (bfly_hrel_degree(b.n, b.count, b.src, b.dst, &deg, &where, b.work) ||
			    deg != b.h) {
				fprintf(stderr, "bench-hrel: degree %u, not %u\n", deg, b.h);
				return 1;
			}
			memset(b.colour, 0xff, (size_t)b.count * sizeof(u32));
			t0 = now_ns();
			bad += !!bfly_hrel_colour(b.n, b.count, b.src, b.dst, b.h, b.colour,
						  b.work);
			c = now_ns() - t0;
			bad += !hrel_bench_rounds(&b);
			be = hrel_bench_benes(&b, &bad);
			if (r >= 0) {
				tc[r] = c;
				tb[r] = be;
			}
		}
		q = hrel_bench_ratio(tc, tb, reps, &lo, &hi);
		c = bench_median(tc, reps);
		be = bench_median(tb, reps);
		printf("%4s%-2u %4u %9u %10.2f %10.2f %11.2f %10.2f %7.3f %6.3f .. %.3f\n", "2^",
		       runs[k].lg, b.h, b.count, c / 1e6, be / 1e6, c / b.count, be / b.count, q,
		       lo, hi);
		if (runs[k].figure)
			snprintf(figures[nfig++], sizeof(figures[0]),
				 "ratio: hrel colouring / h benes routes, N=2^%u h=%u | %.2fx | spread %.2fx-%.2fx | target <= 1.0x | %s",
				 runs[k].lg, b.h, q, lo, hi, q <= 1.0 ? "met" : "MISSED");
		free(b.src);
		free(b.dst);
		free(b.colour);
		free(b.got);
		free(b.rounds);
		free(b.seen);
		free(b.work);
		free(b.bwork);
		free(b.m);
	}
	printf("%d failed checks\n", bad);
	for (k = 0; k < nfig; k++)
		printf("%s\n", figures[k]);
	return bad ? 1 : 0;
}
