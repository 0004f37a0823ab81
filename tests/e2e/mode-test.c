// SPDX-License-Identifier: GPL-2.0
/*
 * Access modes: every ioctl on a descriptor opened O_RDONLY, O_WRONLY and
 * O_RDWR succeeds or fails with EBADF as uapi/linux/bfly.h says. Run as
 * root on a benes or butterfly fabric of at most 64 ports:
 *
 *   mode-test DEVICE
 *
 * Reading needs read access (GET_INFO, GET_MATRIX, TRACE, a dry-run ROUTE,
 * LINK_LOAD, GET_STATS, RLS_LABELS, HREL without payload); SET_MATRIX and
 * BATCH need write access; an applied ROUTE and HREL with payload need
 * both.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "tap.h"
#include "e2e-util.h"

enum { R = 1, W = 2 };

static struct bfly_info info;
static __u64 *matrix;
static __u32 *perm;
static __u64 *labels;
static __u8 *sendbuf, *recvbuf;

/* Run ioctl @name; it must work when the mode has @needs, else EBADF. */
static void try(int fd, int mode, const char *mname, const char *name,
		unsigned long cmd, void *arg, int needs)
{
	int r = ioctl(fd, cmd, arg), e = errno;

	if ((mode & needs) == needs)
		tap_check(r == 0, "%s: %s works (%s)", mname, name,
			  r ? strerrorname_np(e) : "ok");
	else
		tap_check(r == -1 && e == EBADF, "%s: %s fails with EBADF (%s)",
			  mname, name, r ? strerrorname_np(e) : "success");
}

static void all_ioctls(int fd, int mode, const char *mname)
{
	size_t mbytes = BFLY_MATRIX_BYTES(info.switches);
	struct bfly_info in = { .size = sizeof(in) };
	struct bfly_matrix m = { .size = sizeof(m) };
	struct bfly_trace t = { .size = sizeof(t) };
	struct bfly_route r = { .size = sizeof(r) };
	struct bfly_link_load ll = { .size = sizeof(ll) };
	struct bfly_stats st = { .size = sizeof(st) };
	struct bfly_rls_labels rl = { .size = sizeof(rl) };
	struct bfly_hrel h = { .size = sizeof(h) };
	struct bfly_msgset_msg msg = { .len = 0 };
	struct bfly_batch b;
	__u32 i;

	try(fd, mode, mname, "GET_INFO", BFLY_IOC_GET_INFO, &in, R);
	m.matrix_ptr = (uintptr_t)matrix;
	m.matrix_bytes = mbytes;
	try(fd, mode, mname, "GET_MATRIX", BFLY_IOC_GET_MATRIX, &m, R);
	memset(matrix, 0, mbytes);
	m.size = sizeof(m);
	try(fd, mode, mname, "SET_MATRIX", BFLY_IOC_SET_MATRIX, &m, W);
	t.ports = info.ports;
	t.perm_ptr = (uintptr_t)perm;
	try(fd, mode, mname, "TRACE", BFLY_IOC_TRACE, &t, R);

	for (i = 0; i < info.ports; i++)
		perm[i] = i;
	r.ports = info.ports;
	r.flags = BFLY_ROUTE_DRY_RUN;
	r.perm_ptr = (uintptr_t)perm;
	try(fd, mode, mname, "dry-run ROUTE", BFLY_IOC_ROUTE, &r, R);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.ports = info.ports;
	r.perm_ptr = (uintptr_t)perm;
	try(fd, mode, mname, "applied ROUTE", BFLY_IOC_ROUTE, &r, R | W);

	ll.ports = info.ports;
	try(fd, mode, mname, "LINK_LOAD", BFLY_IOC_LINK_LOAD, &ll, R);
	try(fd, mode, mname, "GET_STATS", BFLY_IOC_GET_STATS, &st, R);
	rl.count = 1;
	rl.labels_ptr = (uintptr_t)labels;
	memset(labels, 0, info.ports * sizeof(*labels));
	try(fd, mode, mname, "RLS_LABELS", BFLY_IOC_RLS_LABELS, &rl, R);
	b = batch_args(BFLY_SCHED_DEFAULT, info.ports, 8, sendbuf, recvbuf);
	try(fd, mode, mname, "BATCH", BFLY_IOC_BATCH, &b, W);

	h.count = 1;
	h.msgs_ptr = (uintptr_t)&msg;
	try(fd, mode, mname, "HREL", BFLY_IOC_HREL, &h, R);
	msg.len = 8;
	h = (struct bfly_hrel){
		.size = sizeof(h), .count = 1, .msgs_ptr = (uintptr_t)&msg,
		.send_ptr = (uintptr_t)sendbuf, .send_bytes = 8,
		.recv_ptr = (uintptr_t)recvbuf, .recv_bytes = 8,
	};
	try(fd, mode, mname, "HREL with payload", BFLY_IOC_HREL, &h, R | W);
}

int main(int argc, char **argv)
{
	static const struct { int flags, mode; const char *name; } modes[3] = {
		{ O_RDONLY, R, "O_RDONLY" },
		{ O_WRONLY, W, "O_WRONLY" },
		{ O_RDWR, R | W, "O_RDWR" },
	};
	unsigned int k;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
		return 2;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	close(fd);
	if (info.ports > 64) {
		fprintf(stderr, "mode-test: at most 64 ports\n");
		return 2;
	}
	matrix = calloc(1, BFLY_MATRIX_BYTES(info.switches));
	perm = calloc(info.ports, sizeof(*perm));
	labels = calloc(info.ports, sizeof(*labels));
	sendbuf = calloc((size_t)info.ports * info.ports, 8);
	recvbuf = calloc((size_t)info.ports * info.ports, 8);
	for (k = 0; k < 3; k++) {
		fd = open(argv[1], modes[k].flags);
		tap_check(fd >= 0, "open %s", modes[k].name);
		if (fd < 0)
			continue;
		all_ioctls(fd, modes[k].mode, modes[k].name);
		close(fd);
	}
	return tap_failed != 0;
}
