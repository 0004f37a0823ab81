// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing through the ioctl next to the same code as a user
 * program: BFLY_IOC_ROUTE dry runs (routing and argument copies, the
 * matrix copied out) and bfly_benes_route() of the algorithm files linked
 * into this program, on the same random permutations. A sample is K
 * routes of K different permutations by one side, timed as one; the two
 * sides' samples of the same K permutations alternate sample by sample,
 * the order swapped every sample. K is chosen from a warm-up route so that
 * a sample takes at least SAMPLE_NS (one route at N = 2^10 takes about
 * 130 us under QEMU TCG, too short to time there: a host time slice lost
 * inside it alone moves the ratio by 10x). Both sides do the same work
 * as with one route per sample; only the clock reads are fewer.
 *
 * Every result is checked outside the timing: each of the K kernel
 * matrices must equal the user program's of the same permutation byte
 * for byte, and every few samples one of them is applied (BFLY_IOC_ROUTE
 * without dry run) and BFLY_IOC_TRACE must give back its permutation.
 *
 * Prints the median and spread of the per-sample time ratio ioctl / user
 * program (target at most 1.1x) as a `ratio:` line, the median times per
 * route, and the route workspace the fabric keeps between routes (sysfs
 * route_ws_bytes, part of mem_bytes): the memory the ioctl's speed costs.
 *
 *   bench-ioctl DEVICE [samples [K]]
 */
#include "compat.h"
#include "benes.h"
#include "topology.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "bench.h"
#include "bench-ratio.h"

#define IOCTL_TARGET 1.1
/* one permutation applied and traced every this many samples */
#define TRACE_EVERY 8
/* a sample takes at least this long (ns), at most MAX_K routes */
#define SAMPLE_NS 5e6
#define MAX_K 256

static void ioctl_route(int fd, const u32 *perm, u32 ports, u32 flags,
			void *matrix, u64 bytes)
{
	struct bfly_route r = {
		.size = sizeof(r), .flags = flags, .ports = ports,
		.perm_ptr = (uintptr_t)perm,
		.matrix_ptr = (uintptr_t)matrix, .matrix_bytes = bytes,
	};

	if (ioctl(fd, BFLY_IOC_ROUTE, &r)) {
		perror("BFLY_IOC_ROUTE");
		exit(1);
	}
}

/* A number from the fabric's sysfs directory, or -1. */
static long long sysfs_num(u32 id, const char *name)
{
	long long v = -1;
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/%s", id, name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* The permutation the applied matrix realizes must be @perm. */
static int traced_ok(int fd, const u32 *perm, u32 *got, u32 ports)
{
	struct bfly_trace tr = {
		.size = sizeof(tr), .ports = ports, .perm_ptr = (uintptr_t)got,
	};

	if (ioctl(fd, BFLY_IOC_TRACE, &tr)) {
		perror("BFLY_IOC_TRACE");
		exit(1);
	}
	return !memcmp(perm, got, ports * sizeof(*got));
}

/*
 * Routes per sample: enough for SAMPLE_NS by the fastest of a few warm-up
 * user routes (the first ones run cold).
 */
static int routes_per_sample(const struct bfly_geometry *g, u32 *perm,
			     unsigned long *um, void *work)
{
	double t0, t, best = 0;
	int j;

	for (j = 0; j < 6; j++) {
		bench_random_perm(perm, g->ports);
		t0 = now_ns();
		if (bfly_benes_route(g, perm, um, work)) {
			fprintf(stderr, "warm-up route failed\n");
			exit(1);
		}
		t = now_ns() - t0;
		if (j && (best <= 0 || t < best))
			best = t;
	}
	if (best <= 0 || SAMPLE_NS / best >= MAX_K)
		return MAX_K;
	return (int)(SAMPLE_NS / best) + 1;
}

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	double *ti, *tu, *ratio, t0, lo, hi, med;
	struct bfly_geometry g;
	const char *why = NULL;
	unsigned long *km, *um;
	u32 *perm, *got;
	u64 bytes, words, bad = 0;
	int fd, reps, k, i, j;
	char fig[80];
	void *work;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEVICE [samples [K]]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		perror(argv[1]);
		return 1;
	}
	if (info.topology != BFLY_TOPO_BENES ||
	    bfly_geometry_init(&g, BFLY_TOPO_BENES, 2, info.ports, &why)) {
		fprintf(stderr, "%s: not a benes fabric of 2^n ports\n", argv[1]);
		return 1;
	}
	reps = argc > 2 ? atoi(argv[2]) :
	       info.ports_log2 <= 13 ? 101 : info.ports_log2 <= 16 ? 31 : 11;
	if (reps < 1)
		reps = 1;
	bytes = bfly_matrix_bytes(&g);
	/* each route's matrix in its own 8-byte aligned slot */
	words = (bytes + sizeof(*km) - 1) / sizeof(*km);
	work = bench_alloc(bfly_benes_workspace_size(&g));
	got = bench_alloc(info.ports * sizeof(*got));
	perm = bench_alloc(info.ports * sizeof(*perm));
	um = bench_alloc(words * sizeof(*um));
	k = argc > 3 ? atoi(argv[3]) : routes_per_sample(&g, perm, um, work);
	if (k < 1 || k > MAX_K)
		k = k < 1 ? 1 : MAX_K;
	free(perm);
	free(um);
	km = bench_alloc(k * words * sizeof(*km));
	um = bench_alloc(k * words * sizeof(*um));
	perm = bench_alloc((size_t)k * info.ports * sizeof(*perm));
	ti = bench_alloc(reps * sizeof(double));
	tu = bench_alloc(reps * sizeof(double));
	ratio = bench_alloc(reps * sizeof(double));
	for (i = -2; i < reps; i++) {
		double a = 0, b = 0;
		int side;

		for (j = 0; j < k; j++)
			bench_random_perm(perm + (size_t)j * info.ports, info.ports);
		memset(km, 0, k * words * sizeof(*km));
		memset(um, 0, k * words * sizeof(*um));
		for (side = 0; side < 2; side++) {
			if ((side ^ i) & 1) {
				t0 = now_ns();
				for (j = 0; j < k; j++)
					ioctl_route(fd, perm + (size_t)j * info.ports, info.ports,
						    BFLY_ROUTE_DRY_RUN, km + j * words, bytes);
				a = now_ns() - t0;
			} else {
				t0 = now_ns();
				for (j = 0; j < k; j++)
					bad += bfly_benes_route(&g, perm + (size_t)j * info.ports,
								um + j * words, work) != 0;
				b = now_ns() - t0;
			}
		}
		bad += memcmp(km, um, k * words * sizeof(*km)) != 0;
		if (i % TRACE_EVERY == 0) {
			u32 *p = perm + (size_t)((i + 2) % k) * info.ports;

			ioctl_route(fd, p, info.ports, 0, NULL, 0);
			bad += !traced_ok(fd, p, got, info.ports);
		}
		if (i < 0)
			continue;
		ti[i] = a / k;
		tu[i] = b / k;
		ratio[i] = a / b;
	}
	med = bench_median(ratio, reps);
	lo = ratio[0];
	hi = ratio[reps - 1];
	snprintf(fig, sizeof(fig), "ioctl route / user program, benes N=2^%u (VM)",
		 info.ports_log2);
	bench_ratio_line(fig, med, lo, hi, true, IOCTL_TARGET, bad);
	printf("  N=%u %d samples of %d routes: ioctl dry run %.1f us, user program %.1f us",
	       info.ports, reps, k, bench_median(ti, reps) / 1e3, bench_median(tu, reps) / 1e3);
	printf(" a route (medians), %llu wrong\n", (unsigned long long)bad);
	printf("  kept route workspace %lld bytes of the fabric's %lld",
	       sysfs_num(info.id, "route_ws_bytes"), sysfs_num(info.id, "mem_bytes"));
	printf(" (route_ws_bytes, mem_bytes)\n");
	close(fd);
	return bad ? 1 : 0;
}
