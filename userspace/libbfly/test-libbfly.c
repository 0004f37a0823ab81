// SPDX-License-Identifier: GPL-2.0
/*
 * libbfly's functions against what they promise: every all-to-all round a
 * permutation and every pair once in N rounds; Benes settings that trace
 * (kmod/lib/trace.c, linked from the static library) to the permutation;
 * h-relations in exactly h rounds, each a partial permutation. Prints
 * "ok - ..." or "not ok - ..." per check; exits 1 on any failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/topology.h"
#include "lib/trace.h"

#include "bfly/libbfly.h"

static int failed;

static void check(int cond, const char *what, unsigned int a, unsigned int b)
{
	printf("%s - %s (%u, %u)\n", cond ? "ok" : "not ok", what, a, b);
	failed += !cond;
}

static unsigned long long rng = 88172645463325252ULL;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* N rounds of @latin: each a permutation, every pair once */
static int a2a_ok(unsigned int n, int latin)
{
	unsigned int *dest = malloc(n * sizeof(*dest));
	unsigned char *seen = calloc((size_t)n * n, 1), *hit = malloc(n);
	unsigned int k, i;
	int ok = dest && seen && hit;

	for (k = 0; ok && k < n; k++) {
		memset(hit, 0, n);
		ok = !libbfly_a2a_round(n, latin, k, dest);
		for (i = 0; ok && i < n; i++) {
			ok = dest[i] < n && !hit[dest[i]]++ && !seen[(size_t)i * n + dest[i]]++;
			if (latin == LIBBFLY_A2A_RLS)
				ok = ok && dest[i] == (i + n - k) % n;
		}
	}
	free(dest);
	free(seen);
	free(hit);
	return ok;
}

/* A random permutation routed, its settings traced */
static int benes_ok(unsigned int n)
{
	struct bfly_geometry geo;
	const char *why;
	unsigned int *perm = malloc(n * sizeof(*perm)), *out = malloc(n * sizeof(*out));
	size_t bytes = libbfly_benes_matrix_bytes(n);
	unsigned long *m = aligned_alloc(8, (bytes + 7) & ~(size_t)7);
	unsigned int i;
	int ok = perm && out && m && bytes &&
		 !bfly_geometry_init(&geo, BFLY_TOPO_BENES, 2, n, &why);

	for (i = 0; ok && i < n; i++)
		perm[i] = i;
	for (i = n - 1; ok && i > 0; i--) {
		unsigned int j = rnd(i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	ok = ok && !libbfly_benes_route(n, perm, (__u64 *)m) && !bfly_trace(&geo, m, out) &&
	     !memcmp(perm, out, n * sizeof(*perm));
	if (ok && n > 2) {
		perm[0] = perm[1];	/* not a permutation */
		ok = libbfly_benes_route(n, perm, (__u64 *)m) == -EINVAL;
	}
	free(perm);
	free(out);
	free(m);
	return ok;
}

/* A random relation of @count messages on @n ports: h rounds, each partial */
static int hrel_ok(unsigned int n, unsigned int count, unsigned int *h_out)
{
	unsigned int *src = malloc(count * 4), *dst = malloc(count * 4), *round = malloc(count * 4);
	unsigned int *out = calloc(n, 4), *in = calloc(n, 4), *used = calloc((size_t)n * 2, 4);
	unsigned int i, h = 0, degree = 0;
	int ok = src && dst && round && out && in && used;

	for (i = 0; ok && i < count; i++) {
		src[i] = rnd(n);
		dst[i] = rnd(3) ? rnd(n) : src[i] % 4;	/* a few hot destinations */
		degree = ++out[src[i]] > degree ? out[src[i]] : degree;
		degree = ++in[dst[i]] > degree ? in[dst[i]] : degree;
	}
	ok = ok && !libbfly_hrel_rounds(n, count, src, dst, &h, round) && h == degree;
	/* per round: which round last used each source and destination, plus 1 */
	for (i = 0; ok && i < count; i++)
		ok = round[i] < h;
	for (unsigned int r = 0; ok && r < h; r++) {
		memset(used, 0, (size_t)n * 2 * 4);
		for (i = 0; ok && i < count; i++)
			if (round[i] == r)
				ok = !used[src[i]]++ && !used[n + dst[i]]++;
	}
	if (ok) {
		src[count / 2] = n;
		ok = libbfly_hrel_rounds(n, count, src, dst, &h, round) == -EINVAL;
	}
	*h_out = degree;
	free(src);
	free(dst);
	free(round);
	free(out);
	free(in);
	free(used);
	return ok;
}

int main(void)
{
	unsigned int n, h, d;
	unsigned int dummy;
	int latin;

	check(!strcmp(libbfly_version(), LIBBFLY_VERSION), "version", 0, 0);
	for (n = 2; n <= 512; n *= 2)
		for (latin = LIBBFLY_A2A_RLS; latin <= LIBBFLY_A2A_XOR; latin++)
			check(a2a_ok(n, latin),
			      "a2a: N rounds, each a permutation, every pair once", n, latin);
	check(libbfly_a2a_round(12, LIBBFLY_A2A_RLS, 0, &dummy) == -EINVAL,
	      "a2a: N not a power of two refused", 12, 0);
	check(libbfly_a2a_round(8, 3, 0, &dummy) == -EINVAL, "a2a: unknown square refused", 8, 3);
	for (n = 2; n <= 1U << 14; n *= 4)
		check(benes_ok(n), "benes: random permutation traced, a repeat refused", n, 0);
	check(libbfly_benes_matrix_bytes(6) == 0, "benes: N = 6 has no matrix", 6, 0);
	for (n = 1; n <= 4096; n *= 8)
		for (d = 1; d <= 16; d *= 4) {
			int ok = hrel_ok(n, n * d, &h);

			check(ok, "hrel: h rounds, each a partial permutation (N, messages/N)",
			      n, d);
		}
	printf("%s\n", failed ? "test-libbfly: failed" : "test-libbfly: every check passed");
	return failed ? 1 : 0;
}
