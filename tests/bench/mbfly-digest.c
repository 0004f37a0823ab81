// SPDX-License-Identifier: GPL-2.0
/*
 * A digest of what the multibutterfly routing computes over 1000
 * routings: N = 2^2 .. 2^12, h = 1, 2, 3, 4, 8, d = 2, 3, 4, 8, three
 * seeds (the third a partial relation; the second with patience and Z
 * set), with and without the neighbour table. Each routing's return
 * value, every field of its result and every message's path go into one
 * FNV-1a hash. A change that must not alter the routing prints the same
 * digest before and after; not timed, not a test.
 *
 *   mbfly-digest [-v]   (-v: one line per routing)
 */
#include "compat.h"
#include "mbfly.h"
#include "bench.h"

static u64 digest = 1469598103934665603ULL;

static void mix(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--) {
		digest ^= *b++;
		digest *= 1099511628211ULL;
	}
}

static u64 rng;

static u32 below(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* One routing: its return value, result and paths mixed in; 0, or -1 when skipped */
static int one(u32 log, u32 h, u32 d, u32 seed, bool table, bool verbose)
{
	u32 n = 1U << log, cnt = n * h, i, j, k, *paths, *tab = NULL, *perm;
	struct bfly_mbfly_params p = { 0 };
	struct bfly_mbfly_result res;
	struct bfly_mbfly_msg *msg;
	struct bfly_mbfly g;
	const char *why;
	u64 before;
	void *work;
	int err;

	if (bfly_mbfly_init(&g, n, d, seed * 77 + log, &why))
		return -1;
	rng = seed * 1000003ULL + log * 31 + h * 7 + d;
	msg = bench_alloc((size_t)cnt * sizeof(*msg));
	perm = bench_alloc((size_t)n * sizeof(u32));
	for (k = 0; k < h; k++) {	/* h permutations */
		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = n - 1; i > 0; i--) {
			u32 t = perm[i];

			j = below(i + 1);
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < n; i++) {
			msg[k * n + i].src = i;
			msg[k * n + i].dst = perm[i];
		}
	}
	if (seed == 3 && h > 1)
		cnt = cnt * 3 / 4;	/* a partial relation */
	paths = bench_alloc((size_t)cnt * (log + 1) * sizeof(u32));
	work = bench_alloc(bfly_mbfly_route_workspace_size(&g, cnt));
	if (table && bfly_mbfly_table_size(&g)) {
		tab = bench_alloc(bfly_mbfly_table_size(&g));
		bfly_mbfly_table_fill(&g, tab);
		p.table = tab;
	}
	if (seed == 2) {
		p.patience = 1 + h % 3;
		p.z = 3;
	}
	err = bfly_mbfly_route(&g, &p, msg, cnt, paths, &res, work);
	before = digest;
	mix(&err, sizeof(err));
	mix(&res.h, sizeof(res.h));
	mix(&res.hbar, sizeof(res.hbar));
	mix(&res.stages, sizeof(res.stages));
	mix(&res.delivered, sizeof(res.delivered));
	mix(&res.left, sizeof(res.left));
	mix(&res.forced, sizeof(res.forced));
	mix(&res.ghost_misses, sizeof(res.ghost_misses));
	mix(&res.cap_overflows, sizeof(res.cap_overflows));
	mix(&res.path_errors, sizeof(res.path_errors));
	mix(&res.max_through, sizeof(res.max_through));
	mix(&res.max_w, sizeof(res.max_w));
	mix(&res.bound_ok, sizeof(res.bound_ok));
	mix(&res.z, sizeof(res.z));
	mix(&res.y, sizeof(res.y));
	mix(&res.patience, sizeof(res.patience));
	mix(&res.max_stages, sizeof(res.max_stages));
	mix(paths, (size_t)cnt * (log + 1) * sizeof(u32));
	if (verbose) {
		printf("N=2^%u h=%u d=%u seed=%u table=%d: ", log, h, d, seed, table);
		printf("%d, %u stages, %u forced, %u left, %016llx\n", err, res.stages,
		       res.forced, res.left, (unsigned long long)(digest ^ before));
	}
	free(msg);
	free(perm);
	free(paths);
	free(work);
	free(tab);
	return 0;
}

int main(int argc, char **argv)
{
	static const u32 logs[] = { 2, 3, 4, 5, 6, 7, 8, 10, 12 };
	static const u32 hs[] = { 1, 2, 3, 4, 8 };
	static const u32 ds[] = { 2, 3, 4, 8 };
	bool verbose = argc > 1 && !strcmp(argv[1], "-v");
	unsigned int k, all = ARRAY_SIZE(logs) * ARRAY_SIZE(hs) * ARRAY_SIZE(ds) * 6, cases = 0;

	/* log N slowest, then h, d, seed 1 .. 3, without and with the table */
	for (k = 0; k < all; k++) {
		u32 log = logs[k / (ARRAY_SIZE(hs) * ARRAY_SIZE(ds) * 6)];
		u32 h = hs[k / (ARRAY_SIZE(ds) * 6) % ARRAY_SIZE(hs)];
		u32 d = ds[k / 6 % ARRAY_SIZE(ds)], seed = k / 2 % 3 + 1;

		if (log >= 12 && seed > 1)
			continue;
		cases += !one(log, h, d, seed, k & 1, verbose);
	}
	printf("%u routings, digest %016llx\n", cases, (unsigned long long)digest);
	return 0;
}
