// SPDX-License-Identifier: GPL-2.0
/*
 * The rounds of random h-relations on bfly2 and bfly-twice for
 * Documentation/hrel.rst, on the algorithm library: each colour of the
 * edge colouring (lib/hrel.c) labelled with random middle rows and split
 * afterwards (bfly_hrel_labels(), bfly_sched_split()), against the middle
 * rows chosen while splitting (bfly_hrel_choose(), 1, 4, 16 and 64 tries), the
 * butterfly's split alongside.
 *
 *   hrel-rows [seeds [max-log2-N]]
 *	N = 2^10 .. 2^max (default 16), h = 1, 4, 16, seeds 1 .. seeds
 *	(default 2): one line per fabric, N and h with the mean rounds
 */
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "hrel.h"
#include "hrel_round.h"
#include "rand.h"
#include "schedule.h"
#include "topology.h"

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);

	if (!p) {
		perror("hrel-rows");
		exit(2);
	}
	return p;
}

/* The union of @h random permutations of @ports. */
static void relation(u32 ports, u32 h, u64 *rng, u32 *src, u32 *dst, u32 *perm)
{
	u32 r, i, j, t;

	for (r = 0; r < h; r++) {
		for (i = 0; i < ports; i++)
			perm[i] = i;
		for (i = ports - 1; i > 0; i--) {
			j = bfly_splitmix64(rng) % (i + 1);
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < ports; i++) {
			src[r * ports + i] = i;
			dst[r * ports + i] = perm[i];
		}
	}
}

/* Rounds of every colour: @tries 0 labels then splits, else chooses. */
static u32 rounds(const struct bfly_geometry *geo, u32 count, const u32 *src, const u32 *dst,
		  const u32 *colour, u32 h, u32 tries, u64 seed)
{
	u32 ports = geo->ports, c, m, *part = xcalloc(ports, 4), *sub = xcalloc(ports, 4);
	u64 *labels = xcalloc(ports, 8), rng = seed;
	unsigned long *active = xcalloc(BITS_TO_LONGS(ports), sizeof(long));
	void *work = xcalloc(1, bfly_sched_split_workspace_size(geo) +
			     bfly_hrel_choose_workspace_size(geo));
	u32 total = 0;
	int r;

	for (c = 0; c < h; c++) {
		for (m = 0; m < ports; m++)
			part[m] = BFLY_HREL_IDLE;
		for (m = 0; m < count; m++)
			if (colour[m] == c)
				part[src[m]] = dst[m];
		if (tries) {
			r = bfly_hrel_choose(geo, part, &rng, tries, labels, active, sub, work);
		} else {
			r = bfly_hrel_labels(geo, part, &rng, labels, active);
			if (!r)
				r = bfly_sched_split(geo, labels, active, sub, work);
		}
		if (r < 0) {
			fprintf(stderr, "hrel-rows: colour %u: error %d\n", c, r);
			exit(1);
		}
		total += r;
	}
	free(part);
	free(sub);
	free(labels);
	free(active);
	free(work);
	return total;
}

int main(int argc, char **argv)
{
	static const u32 topos[] = { BFLY_TOPO_BUTTERFLY, BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE };
	static const char *const names[] = { "butterfly", "bfly2", "bfly-twice" };
	static const u32 hs[] = { 1, 4, 16 }, tries[] = { 0, 1, 4, 16, 64 };
	u32 seeds = argc > 1 ? atoi(argv[1]) : 2, top = argc > 2 ? atoi(argv[2]) : 16;
	u32 n, hi, t, k, s, f;

	printf("# fabric N h: mean rounds over %u seeds: %s\n", seeds,
	       "random rows, then chosen with 1, 4, 16, 64 tries");
	for (n = 10; n <= top; n += 2)
		for (hi = 0; hi < 3; hi++) {
			u32 ports = 1U << n, h = hs[hi], count = ports * h;
			u32 *src = xcalloc(count, 4), *dst = xcalloc(count, 4);
			u32 *colour = xcalloc(count, 4), *perm = xcalloc(ports, 4);
			void *work = xcalloc(1, bfly_hrel_workspace_size(ports, count, h));
			double sum[3][5] = { { 0 } };

			for (s = 1; s <= seeds; s++) {
				u64 rng = s;

				relation(ports, h, &rng, src, dst, perm);
				if (bfly_hrel_colour(ports, count, src, dst, h, colour, work)) {
					fprintf(stderr, "hrel-rows: colouring failed\n");
					return 1;
				}
				for (f = 0; f < 3; f++) {
					struct bfly_geometry geo;
					const char *why;

					if (bfly_geometry_init(&geo, topos[f], 2, ports, &why)) {
						fprintf(stderr, "hrel-rows: %s\n", why);
						return 1;
					}
					for (t = 0; t < (f ? 5 : 1); t++)
						sum[f][t] += rounds(&geo, count, src, dst, colour,
								    h, tries[t], s);
				}
			}
			for (f = 0; f < 3; f++) {
				printf("%-10s N 2^%u h %2u:", names[f], n, h);
				for (k = 0; k < (f ? 5 : 1); k++)
					printf(" %8.1f", sum[f][k] / seeds);
				printf("\n");
			}
			fflush(stdout);
			free(src);
			free(dst);
			free(colour);
			free(perm);
			free(work);
		}
	return 0;
}
