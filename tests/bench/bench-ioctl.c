// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing through the ioctl: the median time of one BFLY_IOC_ROUTE
 * (a dry run, so only routing and argument copies are timed, and applied,
 * which also installs the matrix) over random permutations, and the time
 * per node setting ((2n - 1) N / 2 nodes).
 *
 *   bench-ioctl DEVICE [reps]
 *
 * Run next to the bench-O2 program in the same VM to compare the kernel
 * path with the same algorithm code run as a user program.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "bench.h"

static double median_route(int fd, __u32 *perm, __u32 ports, __u32 flags, int reps)
{
	double *t = calloc(reps, sizeof(*t)), med;
	struct bfly_route r;
	int i;

	for (i = -2; i < reps; i++) {
		__u32 *p = perm + (size_t)((i + 4) % 4) * ports;
		double t0;

		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.flags = flags;
		r.ports = ports;
		r.perm_ptr = (uintptr_t)p;
		t0 = now_ns();
		if (ioctl(fd, BFLY_IOC_ROUTE, &r)) {
			perror("BFLY_IOC_ROUTE");
			exit(1);
		}
		if (i >= 0)
			t[i] = now_ns() - t0;
	}
	med = bench_median(t, reps);
	free(t);
	return med;
}

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	__u32 *perm, k;
	double dry, applied;
	int fd, reps;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEVICE [reps]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		perror(argv[1]);
		return 1;
	}
	if (info.topology != BFLY_TOPO_BENES) {
		fprintf(stderr, "%s: not a benes fabric\n", argv[1]);
		return 1;
	}
	reps = argc > 2 ? atoi(argv[2]) :
	       info.ports_log2 <= 13 ? 301 : info.ports_log2 <= 16 ? 61 : 21;
	perm = malloc((size_t)4 * info.ports * sizeof(*perm));
	for (k = 0; k < 4; k++)
		bench_random_perm(perm + (size_t)k * info.ports, info.ports);
	dry = median_route(fd, perm, info.ports, BFLY_ROUTE_DRY_RUN, reps);
	applied = median_route(fd, perm, info.ports, 0, reps);
	printf("%8u %6d %12.1f %14.2f %12.1f %14.2f\n", info.ports, reps,
	       dry / 1e3, dry / info.switches, applied / 1e3, applied / info.switches);
	free(perm);
	close(fd);
	return 0;
}
