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
	u32 *src, *dst, *colour, *rounds, *seen, *got, *msg;
	void *work, *bwork;
	unsigned long *m;
	struct bfly_geometry geo;
};

/*
 * Round c of the colouring to rounds[c * N ..], completed to a full
 * permutation; false when a round is not a partial permutation or a
 * message is in none or in two.
 */
static bool hrel_bench_rounds(struct hrel_bench *b)
{
	u32 n = b->n, c, s, d, i, total = 0;
	bool ok = true;

	memset(b->got, 0, b->count * sizeof(u32));
	for (c = 0; c < b->h; c++) {
		u32 *p = b->rounds + (size_t)c * n;
		int sent = bfly_hrel_round(n, b->count, b->src, b->dst, b->colour, c, p, b->msg);

		if (sent <= 0)
			return false;
		total += sent;
		memset(b->seen, 0, n * sizeof(u32));
		for (s = 0; s < n; s++) {
			if (p[s] == BFLY_HREL_IDLE)
				continue;
			ok &= !b->seen[p[s]]++;
			b->got[b->msg[s]]++;
		}
		/* idle sources take the free destinations in order */
		for (s = 0, d = 0; s < n; s++) {
			if (p[s] != BFLY_HREL_IDLE)
				continue;
			while (b->seen[d])
				d++;
			b->seen[d] = 1;
			p[s] = d;
		}
	}
	for (i = 0; i < b->count; i++)
		ok &= b->got[i] == 1;
	return ok && total == b->count;
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

int main(int argc, char **argv)
{
	static const u32 hs[] = { 16, 64 };
	int reps = argc > 1 ? atoi(argv[1]) : 7, bad = 0, r;
	double tc[BENCH_MAX_REPS], tb[BENCH_MAX_REPS], c, be;
	const char *why;
	unsigned int k;

	if (reps < 1 || reps > BENCH_MAX_REPS)
		reps = 7;
	printf("h-relation into h rounds (colouring) against h Benes looping routes\n");
	printf("N = 2^16, union of h random permutations; median of %d, alternated\n", reps);
	printf("%6s %9s %12s %12s %10s %10s %8s\n", "h", "messages", "colour ms", "benes ms",
	       "colour ns/m", "benes ns/m", "ratio");
	for (k = 0; k < ARRAY_SIZE(hs); k++) {
		struct hrel_bench b = { .n = 1U << 16, .h = hs[k] };
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
		b.msg = bench_alloc(b.n * sizeof(u32));
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
		c = bench_median(tc, reps);
		be = bench_median(tb, reps);
		printf("%6u %9u %12.2f %12.2f %10.2f %10.2f %8.3f\n", b.h, b.count, c / 1e6,
		       be / 1e6, c / b.count, be / b.count, c / be);
		free(b.src);
		free(b.dst);
		free(b.colour);
		free(b.got);
		free(b.rounds);
		free(b.seen);
		free(b.msg);
		free(b.work);
		free(b.bwork);
		free(b.m);
	}
	printf("%d failed checks\n", bad);
	return bad ? 1 : 0;
}
