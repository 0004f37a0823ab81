/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by bfly's end-to-end test programs: the xorshift64
 * generator they draw from, random permutations and switch matrices, the
 * clock, failure lines from several processes, the GET_MATRIX,
 * SET_MATRIX and TRACE ioctls, snapshots of a fabric to check a refused
 * request left it alone, the messages of an all-to-all BATCH, numbers in
 * sysfs files, opening the device, and a counting signal handler. Every
 * function takes what it works on as arguments.
 */
#ifndef BFLY_E2E_UTIL_H
#define BFLY_E2E_UTIL_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "tap.h"

/* ---- random numbers ---- */

/* The next number of the xorshift64 generator with state *@s. */
static inline __u64 xorshift64(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A random permutation of 0..@n-1 (Fisher-Yates, drawing from *@s). */
static inline void random_perm(__u32 *p, __u32 n, __u64 *s)
{
	__u32 i, j, t;

	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = xorshift64(s) % (i + 1);
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
}

/* Random settings of @switches switches, no bit past the last (*@s draws). */
static inline void random_matrix(__u64 *m, size_t mbytes, __u64 switches, __u64 *s)
{
	size_t i;

	for (i = 0; i < mbytes / 8; i++)
		m[i] = xorshift64(s);
	if (switches % 64)
		m[mbytes / 8 - 1] &= (1ULL << (switches % 64)) - 1;
}

/* ---- time and failures ---- */

/* Seconds on the monotonic clock. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Caught signals counted by count_signal(), a handler for sigaction() */
static unsigned int signals_caught;

static inline void count_signal(int sig)
{
	(void)sig;
	__atomic_add_fetch(&signals_caught, 1, __ATOMIC_RELAXED);
}

/*
 * A failed check in a program of several processes: one "not ok" line
 * written at once, counted in *@failures (shared memory), the first @max
 * only.
 */
static inline void fail_shared(unsigned long long *failures, unsigned long long max,
			       const char *fmt, ...)
{
	unsigned long long n = __atomic_add_fetch(failures, 1, __ATOMIC_RELAXED);
	char line[512];
	va_list ap;
	int len;

	if (n > max)
		return;
	len = snprintf(line, sizeof(line), "not ok - pid %d: ", getpid());
	va_start(ap, fmt);
	len += vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
	va_end(ap);
	if (len > (int)sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	if (write(1, line, len) < 0)
		return;
}

/* ---- the matrix and trace ioctls ---- */

/* GET_MATRIX of @mbytes into @m, the generation in *@gen (if not NULL): 0 or -1. */
static inline int get_matrix(int fd, __u64 *m, size_t mbytes, __u64 *gen)
{
	struct bfly_matrix a = { .size = sizeof(a) };

	a.matrix_ptr = (uintptr_t)m;
	a.matrix_bytes = mbytes;
	if (ioctl(fd, BFLY_IOC_GET_MATRIX, &a))
		return -1;
	if (gen)
		*gen = a.generation;
	return 0;
}

/* SET_MATRIX of @mbytes from @m: what ioctl() returns. */
static inline int set_matrix(int fd, const __u64 *m, size_t mbytes)
{
	struct bfly_matrix a = { .size = sizeof(a) };

	a.matrix_ptr = (uintptr_t)m;
	a.matrix_bytes = mbytes;
	return ioctl(fd, BFLY_IOC_SET_MATRIX, &a);
}

/*
 * TRACE of a fabric of @ports ports into @perm, the generation in *@gen
 * (if not NULL, and only on success): what ioctl() returns.
 */
static inline int trace(int fd, __u32 *perm, __u32 ports, __u64 *gen)
{
	struct bfly_trace t = { .size = sizeof(t), .ports = ports };
	int ret;

	t.perm_ptr = (uintptr_t)perm;
	ret = ioctl(fd, BFLY_IOC_TRACE, &t);
	if (!ret && gen)
		*gen = t.generation;
	return ret;
}

/* ---- snapshots: the fabric's matrix and generation, before and after ---- */

struct snapshot {
	int fd;
	size_t mbytes;
	__u64 *m;
	__u64 gen;
};

/* Take a snapshot of the fabric open as @fd, its matrix @mbytes long. */
static inline void take_snapshot(struct snapshot *s, int fd, size_t mbytes)
{
	s->fd = fd;
	s->mbytes = mbytes;
	if (!s->m)
		s->m = calloc(1, mbytes);
	get_matrix(fd, s->m, mbytes, &s->gen);
}

/* True when the fabric's matrix and generation are still those of @before. */
static inline int unchanged(const struct snapshot *before)
{
	struct snapshot now = { 0 };
	int same;

	take_snapshot(&now, before->fd, before->mbytes);
	same = now.gen == before->gen && !memcmp(now.m, before->m, before->mbytes);
	free(now.m);
	return same;
}

/*
 * Run a request that must fail with @want and leave the fabric open as
 * @fd (matrix @mbytes long) alone.
 */
#define REFUSED_ON(fd, mbytes, call, want, what)			\
	do {								\
		const char *__what = (what);				\
		struct snapshot __s = { 0 };				\
		take_snapshot(&__s, fd, mbytes);			\
		TAP_ERRNO(call, want, __what);				\
		tap_check(unchanged(&__s), "%s: fabric unchanged", __what);	\
		free(__s.m);						\
	} while (0)

/* ---- the messages of an all-to-all BATCH ---- */

/* The tag a message from @s to @d carries in its first 8 bytes. */
static inline __u64 msg_tag(__u32 s, __u32 d)
{
	return ((__u64)s << 32 | d) ^ 0x5a5a5a5a00000000ULL;
}

/*
 * Fill the send buffer of @ports * @ports messages of @size bytes: each
 * message all (s + d) & 0xff, its tag first when it has room.
 */
static inline void fill_messages(__u8 *send, __u32 ports, __u64 size)
{
	__u32 s, d;
	__u64 off;

	for (s = 0; s < ports; s++)
		for (d = 0; d < ports; d++) {
			off = ((__u64)s * ports + d) * size;
			memset(send + off, (s + d) & 0xff, size);
			if (size >= 8)
				memcpy(send + off, &(__u64){ msg_tag(s, d) }, 8);
		}
}

/* The receive slots of a BATCH among @ports ports that do not hold their message */
static inline __u64 slots_whole(const __u8 *send, const __u8 *recv, __u32 ports, __u64 size)
{
	__u64 bad = 0;
	__u32 i, d;

	for (i = 0; i < ports; i++)
		for (d = 0; d < ports; d++)
			bad += !!memcmp(recv + ((__u64)d * ports + i) * size,
					send + ((__u64)i * ports + d) * size, size);
	return bad;
}

/* A BATCH of every message among @ports ports, @size bytes each. */
static inline struct bfly_batch batch_args(__u32 schedule, __u32 ports, __u64 size,
					   void *send, void *recv)
{
	struct bfly_batch b;

	memset(&b, 0, sizeof(b));
	b.size = sizeof(b);
	b.schedule = schedule;
	b.ports = ports;
	b.msg_size = size;
	b.send_ptr = (uintptr_t)send;
	b.recv_ptr = (uintptr_t)recv;
	b.buf_bytes = (__u64)ports * ports * size;
	return b;
}

/* ---- numbers in sysfs files (module parameters, fabric attributes) ---- */

/* The number in the file at @path, or -1. */
static inline long long read_num(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* @v written to the file at @path; 0 when that failed. */
static inline int write_num(const char *path, long long v)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return 0;
	ok = fprintf(f, "%lld", v) > 0;
	return !fclose(f) && ok;
}

/* ---- the device ---- */

/*
 * Open @path read-write and GET_INFO into *@info, a TAP line for each:
 * the descriptor, or -1 when the open failed.
 */
static inline int open_fabric(const char *path, struct bfly_info *info)
{
	int fd = open(path, O_RDWR);

	tap_check(fd >= 0, "open %s", path);
	if (fd < 0)
		return -1;
	info->size = sizeof(*info);
	tap_check(ioctl(fd, BFLY_IOC_GET_INFO, info) == 0, "GET_INFO");
	return fd;
}

#endif /* BFLY_E2E_UTIL_H */
