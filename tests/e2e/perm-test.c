// SPDX-License-Identifier: GPL-2.0
/*
 * Permission checks on a bfly device node, run as an unprivileged user
 * (through runas).
 *
 *   perm-test DEVICE denied   every open fails with EACCES
 *   perm-test DEVICE ro       read-only opens work: GET_INFO, GET_MATRIX,
 *                             TRACE, a dry-run ROUTE; SET_MATRIX, ROUTE
 *                             and BATCH fail with EBADF; read-write opens
 *                             fail with EACCES
 *   perm-test DEVICE rw       read-write opens work and SET_MATRIX too
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "tap.h"

static struct bfly_info info;

static void read_only(int fd)
{
	__u32 *perm = calloc(info.ports, 4), i;
	__u64 *m = calloc(1, BFLY_MATRIX_BYTES(info.switches));
	struct bfly_matrix gm = { .size = sizeof(gm) };
	struct bfly_trace t = { .size = sizeof(t), .ports = info.ports };
	struct bfly_route r = { .size = sizeof(r), .ports = info.ports };
	struct bfly_batch b = { .size = sizeof(b), .ports = info.ports };

	gm.matrix_ptr = (uintptr_t)m;
	gm.matrix_bytes = BFLY_MATRIX_BYTES(info.switches);
	tap_check(!ioctl(fd, BFLY_IOC_GET_MATRIX, &gm), "read-only fd: GET_MATRIX");
	t.perm_ptr = (uintptr_t)perm;
	tap_check(!ioctl(fd, BFLY_IOC_TRACE, &t), "read-only fd: TRACE");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_SET_MATRIX, &gm), EBADF, "read-only fd: SET_MATRIX");
	for (i = 0; i < info.ports; i++)
		perm[i] = i;
	r.perm_ptr = (uintptr_t)perm;
	if (info.topology == BFLY_TOPO_BENES || info.topology == BFLY_TOPO_BUTTERFLY) {
		TAP_ERRNO(ioctl(fd, BFLY_IOC_ROUTE, &r), EBADF, "read-only fd: ROUTE");
		r.flags = BFLY_ROUTE_DRY_RUN;
		tap_check(!ioctl(fd, BFLY_IOC_ROUTE, &r), "read-only fd: dry-run ROUTE");
	}
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EBADF, "read-only fd: BATCH");
	free(perm);
	free(m);
}

int main(int argc, char **argv)
{
	const char *mode;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE denied|ro|rw\n", argv[0]);
		return 2;
	}
	mode = argv[2];
	printf("# uid %d gid %d, %s\n", getuid(), getgid(), mode);
	if (!strcmp(mode, "denied")) {
		TAP_ERRNO(open(argv[1], O_RDONLY), EACCES, "open read-only");
		TAP_ERRNO(open(argv[1], O_RDWR), EACCES, "open read-write");
		return tap_failed != 0;
	}
	fd = open(argv[1], O_RDONLY);
	info.size = sizeof(info);
	tap_check(fd >= 0 && !ioctl(fd, BFLY_IOC_GET_INFO, &info),
		  "open read-only, GET_INFO (%s)", fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0 && info.ports)
		read_only(fd);
	if (!strcmp(mode, "ro")) {
		TAP_ERRNO(open(argv[1], O_RDWR), EACCES, "open read-write");
		return tap_failed != 0;
	}
	fd = open(argv[1], O_RDWR);
	tap_check(fd >= 0, "open read-write");
	if (fd >= 0) {
		__u64 *m = calloc(1, BFLY_MATRIX_BYTES(info.switches));
		struct bfly_matrix sm = { .size = sizeof(sm) };

		sm.matrix_ptr = (uintptr_t)m;
		sm.matrix_bytes = BFLY_MATRIX_BYTES(info.switches);
		tap_check(!ioctl(fd, BFLY_IOC_SET_MATRIX, &sm), "read-write fd: SET_MATRIX");
		free(m);
	}
	return tap_failed != 0;
}
