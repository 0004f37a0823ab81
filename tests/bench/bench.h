/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks share: a monotonic clock in nanoseconds, the median
 * of a set of timings, a seeded xorshift generator and random
 * permutations, and buffers. Plain C library only, so that both the native
 * benchmarks (built with kmod/lib/compat.h) and the static programs run
 * in the VM (built with the uapi header alone) can include it.
 */
#ifndef BFLY_BENCH_H
#define BFLY_BENCH_H

#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n timings; sorts @t. */
static inline double bench_median(double *t, int n)
{
	qsort(t, n, sizeof(*t), bench_cmp_double);
	return t[n / 2];
}

static __u64 bench_rng_state = 0x2545f4914f6cdd1dULL;

static inline __u64 bench_rnd(void)
{
	bench_rng_state ^= bench_rng_state << 13;
	bench_rng_state ^= bench_rng_state >> 7;
	bench_rng_state ^= bench_rng_state << 17;
	return bench_rng_state;
}

/* A uniformly random permutation of 0 .. @n - 1 in @p (Fisher-Yates). */
static inline void bench_random_perm(__u32 *p, __u32 n)
{
	__u32 i, j, x;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = bench_rnd() % (i + 1);
		x = p[i];
		p[i] = p[j];
		p[j] = x;
	}
}

/* Zeroed, 64-byte aligned: for the small arrays an algorithm works on. */
static inline void *bench_alloc(size_t sz)
{
	void *p = aligned_alloc(64, (sz + 63) & ~(size_t)63);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	memset(p, 0, sz);
	return p;
}

/*
 * Zeroed, 2 MiB aligned and, where the kernel allows it, backed by
 * transparent huge pages, so that the figures measure the algorithm more
 * than TLB misses.
 */
static inline void *bench_alloc_huge(size_t sz)
{
	size_t big = 2UL << 20, len = (sz + big - 1) & ~(big - 1);
	void *p = aligned_alloc(big, len);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 0, len);
	return p;
}

/*
 * A message buffer of @bytes, faulted in up front and backed by huge pages
 * where allowed, as a real application's large buffers would be. Free it
 * with munmap().
 */
static inline void *bench_map(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

/*
 * The machine's context for the ratios: memcpy bandwidth in GB/s over
 * @bytes (median of @reps copies, the copy checked), and the latency in ns
 * of one load in a random pointer chase over @bytes (a single cycle, so
 * every load misses as far as @bytes reaches).
 */
static inline double bench_memcpy_gbps(size_t bytes, int reps)
{
	unsigned char *a = bench_map(bytes), *b = bench_map(bytes);
	double t[64], med;
	int r;

	if (reps > 64)
		reps = 64;
	for (size_t i = 0; i < bytes; i++)
		a[i] = (unsigned char)(i * 131 + 7);
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		memcpy(b, a, bytes);
		t[r] = now_ns() - t0;
		if (memcmp(a, b, bytes)) {
			fprintf(stderr, "memcpy: copy differs\n");
			exit(1);
		}
	}
	med = bench_median(t, reps);
	munmap(a, bytes);
	munmap(b, bytes);
	return bytes / med;
}

static inline double bench_chase_ns(size_t bytes, long loads)
{
	size_t n = bytes / sizeof(size_t), i, j, x;
	size_t *next = bench_map(n * sizeof(size_t));
	__u32 *order = malloc(n * sizeof(*order));
	double t0, t;

	/* one random cycle through all slots (Sattolo) */
	for (i = 0; i < n; i++)
		order[i] = (__u32)i;
	for (i = n - 1; i > 0; i--) {
		j = bench_rnd() % i;
		x = order[i];
		order[i] = order[j];
		order[j] = (__u32)x;
	}
	for (i = 0; i < n; i++)
		next[order[i]] = order[(i + 1) % n];
	x = 0;
	t0 = now_ns();
	for (long l = 0; l < loads; l++)
		x = next[x];
	t = now_ns() - t0;
	if (x >= n)
		exit(1);
	free(order);
	munmap(next, n * sizeof(size_t));
	return t / loads;
}

#endif /* BFLY_BENCH_H */
