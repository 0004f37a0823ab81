// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing through the ioctl next to the same code as a user
 * program: per random permutation, one BFLY_IOC_ROUTE dry run (routing
 * and argument copies, the matrix copied out) and one bfly_benes_route()
 * of the algorithm files linked into this program, alternated call by
 * call, the order swapped every call. Every result is checked outside
 * the timing: the kernel's matrix must equal the user program's byte for
 * byte, and every few calls the matrix is applied (BFLY_IOC_ROUTE without
 * dry run) and BFLY_IOC_TRACE must give back the permutation.
 *
 * Prints the median and spread of the per-call time ratio ioctl / user
 * program (target at most 1.1x) as a `ratio:` line, the median times, and
 * the route workspace the fabric keeps between routes (sysfs
 * route_ws_bytes, part of mem_bytes): the memory the ioctl's speed costs.
 *
 *   bench-ioctl DEVICE [reps]
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
/* applied and traced every this many calls */
#define TRACE_EVERY 8

static double ioctl_route(int fd, const u32 *perm, u32 ports, u32 flags,
			  void *matrix, u64 bytes)
{
	struct bfly_route r = {
		.size = sizeof(r), .flags = flags, .ports = ports,
		.perm_ptr = (uintptr_t)perm,
		.matrix_ptr = (uintptr_t)matrix, .matrix_bytes = bytes,
	};
	double t0 = now_ns();

	if (ioctl(fd, BFLY_IOC_ROUTE, &r)) {
		perror("BFLY_IOC_ROUTE");
		exit(1);
	}
	return now_ns() - t0;
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

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	double *ti, *tu, *ratio, t0, lo, hi, med;
	struct bfly_geometry g;
	const char *why = NULL;
	unsigned long *km, *um;
	u32 *perm, *got;
	u64 bytes, bad = 0;
	int fd, reps, i;
	char fig[80];
	void *work;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEVICE [reps]\n", argv[0]);
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
	km = bench_alloc(bytes);
	um = bench_alloc(bytes);
	work = bench_alloc(bfly_benes_workspace_size(&g));
	perm = bench_alloc(info.ports * sizeof(*perm));
	got = bench_alloc(info.ports * sizeof(*got));
	ti = bench_alloc(reps * sizeof(double));
	tu = bench_alloc(reps * sizeof(double));
	ratio = bench_alloc(reps * sizeof(double));
	for (i = -2; i < reps; i++) {
		double a, b;

		bench_random_perm(perm, info.ports);
		memset(km, 0, bytes);
		memset(um, 0, bytes);
		if (i & 1) {
			a = ioctl_route(fd, perm, info.ports, BFLY_ROUTE_DRY_RUN, km, bytes);
			t0 = now_ns();
			bad += bfly_benes_route(&g, perm, um, work) != 0;
			b = now_ns() - t0;
		} else {
			t0 = now_ns();
			bad += bfly_benes_route(&g, perm, um, work) != 0;
			b = now_ns() - t0;
			a = ioctl_route(fd, perm, info.ports, BFLY_ROUTE_DRY_RUN, km, bytes);
		}
		bad += memcmp(km, um, bytes) != 0;
		if (i % TRACE_EVERY == 0) {
			ioctl_route(fd, perm, info.ports, 0, NULL, 0);
			bad += !traced_ok(fd, perm, got, info.ports);
		}
		if (i < 0)
			continue;
		ti[i] = a;
		tu[i] = b;
		ratio[i] = a / b;
	}
	med = bench_median(ratio, reps);
	lo = ratio[0];
	hi = ratio[reps - 1];
	snprintf(fig, sizeof(fig), "ioctl route / user program, benes N=2^%u (VM)",
		 info.ports_log2);
	bench_ratio_line(fig, med, lo, hi, true, IOCTL_TARGET, bad);
	printf("  N=%u %d calls: ioctl dry run %.1f us, user program %.1f us",
	       info.ports, reps, bench_median(ti, reps) / 1e3, bench_median(tu, reps) / 1e3);
	printf(" (medians), %llu wrong\n", (unsigned long long)bad);
	printf("  kept route workspace %lld bytes of the fabric's %lld",
	       sysfs_num(info.id, "route_ws_bytes"), sysfs_num(info.id, "mem_bytes"));
	printf(" (route_ws_bytes, mem_bytes)\n");
	close(fd);
	return bad ? 1 : 0;
}
