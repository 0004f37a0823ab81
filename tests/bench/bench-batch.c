// SPDX-License-Identifier: GPL-2.0
/*
 * All-to-all batches through BFLY_IOC_BATCH next to two user-space
 * baselines on the same bytes, in the same process: memcpy of the whole
 * send buffer, and a plain all-to-all, a blocked transpose of the N x N
 * message matrix (the layout the batch writes). The three alternate call
 * by call, the order rotated every call; times are wall-clock around each
 * call.
 *
 * Every message is tagged: each 8-byte word of message i -> d holds i, d
 * and the word's index. After every call, outside the timing, the batch's
 * and the transpose's receive buffers are checked slot by slot, word by
 * word (slot (d * N + i) holds message i -> d), and memcpy's copy against
 * the send buffer; the batch must report N rounds, no conflict and every
 * byte moved. With SIZE 0 (schedule only) the batch's counts are checked.
 *
 * The same all-to-all as an h-relation with h = N (BFLY_IOC_HREL, the
 * N x N messages as a list: i -> d from slot i * N + d to slot d * N + i)
 * alternates call by call with the batch on the same fabric and send
 * buffer; both receive buffers are checked word by word and against each
 * other, and HREL must report h = N and every byte moved.
 *
 * The same batch as a user program (batch-user.c: the kernel's own
 * schedule and block-move files built into this program) alternates call
 * by call with BFLY_IOC_BATCH on the same send buffer, the order swapped
 * every call; both receive buffers are checked word by word and against
 * each other, and both must report N rounds and every byte moved.
 *
 * Figures (`ratio:` lines), median and spread over the calls: the ioctl's
 * time over the user program's (<= 1.1x, the VM target: the
 * ioctl against the same code as a user program); HREL's time over the
 * batch's (<= 1.1x); batch throughput over memcpy's (1 KiB and larger)
 * and over the transpose's (below 1 KiB), reported without a target:
 * under QEMU's TCG they compare the emulation of two different access
 * patterns more than the batch (Documentation/batch-speed.rst, "In the VM"),
 * and their targets are bench-a2a's, natively.
 *
 *   bench-batch DEVICE [-r REPS] SIZE...      message sizes in bytes
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "batch-user.h"
#include "bench.h"
#include "bench-ratio.h"

/* square blocks of messages the transpose moves at a time */
#define TBLOCK 8

static int batch(int fd, __u32 ports, __u64 size, void *send, void *recv,
		 struct bfly_batch *b)
{
	memset(b, 0, sizeof(*b));
	b->size = sizeof(*b);
	b->ports = ports;
	b->msg_size = size;
	b->send_ptr = (uintptr_t)send;
	b->recv_ptr = (uintptr_t)recv;
	b->buf_bytes = (__u64)ports * ports * size;
	return ioctl(fd, BFLY_IOC_BATCH, b);
}

static inline __u64 tag(__u32 i, __u32 d, __u64 w)
{
	return ((__u64)i << 44) | ((__u64)d << 24) | w;
}

static void fill(__u64 *send, __u32 ports, __u64 size)
{
	__u64 words = size / 8, w;
	__u32 i, d;

	for (i = 0; i < ports; i++)
		for (d = 0; d < ports; d++, send += words)
			for (w = 0; w < words; w++)
				send[w] = tag(i, d, w);
}

/* Wrong words of a receive buffer: slot d * N + i holds i -> d. */
static __u64 check_recv(const __u64 *recv, __u32 ports, __u64 size)
{
	__u64 words = size / 8, w, bad = 0;
	__u32 i, d;

	for (d = 0; d < ports; d++)
		for (i = 0; i < ports; i++, recv += words)
			for (w = 0; w < words; w++)
				bad += recv[w] != tag(i, d, w);
	return bad;
}

/* The plain all-to-all: message i -> d to slot d * N + i, in blocks. */
static void transpose(const __u8 *send, __u8 *recv, __u32 ports, __u64 size)
{
	__u32 i0, d0, i, d;

	for (i0 = 0; i0 < ports; i0 += TBLOCK)
		for (d0 = 0; d0 < ports; d0 += TBLOCK)
			for (i = i0; i < i0 + TBLOCK && i < ports; i++)
				for (d = d0; d < d0 + TBLOCK && d < ports; d++)
					memcpy(recv + ((__u64)d * ports + i) * size,
					       send + ((__u64)i * ports + d) * size, size);
}

static __u64 check_batch(const struct bfly_batch *b, __u32 ports, __u64 bytes)
{
	return (b->rounds != ports) + (b->conflicts != 0) + (b->bytes_moved != bytes);
}

/*
 * One BFLY_IOC_BATCH of @size-byte messages into @recv, cleared first: its
 * time in ns, the report's wrong figures added to *@bad.
 */
static double timed_batch(int fd, __u32 ports, __u64 size, void *send, void *recv,
			  struct bfly_batch *b, __u64 *bad)
{
	__u64 bytes = (__u64)ports * ports * size;
	double t0;

	memset(recv, 0, bytes);
	t0 = now_ns();
	if (batch(fd, ports, size, send, recv, b)) {
		perror("BFLY_IOC_BATCH");
		exit(1);
	}
	t0 = now_ns() - t0;
	*bad += check_batch(b, ports, bytes);
	return t0;
}

/* Schedule only: the batch's own time per message, its counts checked. */
static __u64 schedule_only(int fd, __u32 ports, int reps)
{
	double *t = bench_alloc(reps * sizeof(double));
	struct bfly_batch b;
	__u64 bad = 0;
	int r;

	for (r = 0; r < reps; r++) {
		if (batch(fd, ports, 0, NULL, NULL, &b)) {
			perror("BFLY_IOC_BATCH");
			exit(1);
		}
		bad += check_batch(&b, ports, 0);
		t[r] = b.elapsed_ns;
	}
	printf("  N=%u schedule only: %.2f ns/msg (median of %d), %u sub-rounds, %llu wrong\n",
	       ports, bench_median(t, reps) / ((double)ports * ports), reps, b.sub_rounds,
	       (unsigned long long)bad);
	free(t);
	return bad;
}

static __u64 payload(int fd, __u32 ports, __u64 size, int reps)
{
	__u64 msgs = (__u64)ports * ports, bytes = msgs * size, bad = 0;
	double *rm = bench_alloc(reps * sizeof(double));
	double *rt = bench_alloc(reps * sizeof(double));
	__u8 *send = bench_map(bytes), *recv = bench_map(bytes), *other = bench_map(bytes);
	double tb = 0, tm = 0, tt = 0, t0;
	struct bfly_batch b;
	char fig[96];
	int r, j;

	fill((__u64 *)send, ports, size);
	for (r = -1; r < reps; r++) {
		for (j = 0; j < 3; j++) {
			switch ((j + r + 3) % 3) {
			case 0:
				tb = timed_batch(fd, ports, size, send, recv, &b, &bad);
				bad += check_recv((__u64 *)recv, ports, size);
				break;
			case 1:
				memset(other, 0, bytes);
				t0 = now_ns();
				memcpy(other, send, bytes);
				tm = now_ns() - t0;
				bad += memcmp(other, send, bytes) != 0;
				break;
			default:
				memset(other, 0, bytes);
				t0 = now_ns();
				transpose(send, other, ports, size);
				tt = now_ns() - t0;
				bad += check_recv((__u64 *)other, ports, size);
				break;
			}
		}
		if (r < 0)
			continue;
		rm[r] = tm / tb;
		rt[r] = tt / tb;
	}
	bench_median(rm, reps);
	bench_median(rt, reps);
	snprintf(fig, sizeof(fig), "batch / memcpy throughput, bfly2 N=%u %llu B (VM)",
		 ports, (unsigned long long)size);
	if (size >= 1024)
		bench_ratio_checked(fig, rm[reps / 2], rm[0], rm[reps - 1], bad);
	snprintf(fig, sizeof(fig), "batch / blocked transpose throughput, bfly2 N=%u %llu B (VM)",
		 ports, (unsigned long long)size);
	if (size < 1024)
		bench_ratio_checked(fig, rt[reps / 2], rt[0], rt[reps - 1], bad);
	printf("  N=%u %llu B: batch %.2fx memcpy, %.2fx transpose (medians of %d), %llu wrong\n",
	       ports, (unsigned long long)size, rm[reps / 2], rt[reps / 2], reps,
	       (unsigned long long)bad);
	munmap(send, bytes);
	munmap(recv, bytes);
	munmap(other, bytes);
	free(rm);
	free(rt);
	return bad;
}

/* The all-to-all as HREL's message list: i -> d, slot i * N + d to slot d * N + i. */
static struct bfly_msgset_msg *a2a_msgs(__u32 ports, __u64 size)
{
	struct bfly_msgset_msg *msgs = bench_alloc((size_t)ports * ports * sizeof(*msgs));
	__u32 i, d;

	for (i = 0; i < ports; i++) {
		for (d = 0; d < ports; d++) {
			struct bfly_msgset_msg *m = &msgs[(size_t)i * ports + d];

			memset(m, 0, sizeof(*m));
			m->src = i;
			m->dst = d;
			m->len = size;
			m->send_off = ((__u64)i * ports + d) * size;
			m->recv_off = ((__u64)d * ports + i) * size;
		}
	}
	return msgs;
}

static int hrel(int fd, __u32 ports, __u64 size, const struct bfly_msgset_msg *msgs,
		void *send, void *recv, struct bfly_hrel *h)
{
	__u64 bytes = (__u64)ports * ports * size;

	memset(h, 0, sizeof(*h));
	h->size = sizeof(*h);
	h->count = ports * ports;
	h->msgs_ptr = (uintptr_t)msgs;
	h->send_ptr = (uintptr_t)send;
	h->send_bytes = bytes;
	h->recv_ptr = (uintptr_t)recv;
	h->recv_bytes = bytes;
	return ioctl(fd, BFLY_IOC_HREL, h);
}

/* HREL with h = N against BATCH, alternated call by call, results compared. */
static __u64 hrel_vs_batch(int fd, __u32 ports, __u64 size, int reps)
{
	__u64 msgs = (__u64)ports * ports, bytes = msgs * size, bad = 0;
	struct bfly_msgset_msg *list = a2a_msgs(ports, size);
	double *rh = bench_alloc(reps * sizeof(double));
	__u8 *send = bench_map(bytes), *rb = bench_map(bytes), *rhl = bench_map(bytes);
	double tb = 0, th = 0, t0;
	struct bfly_batch b;
	struct bfly_hrel h;
	char fig[96];
	int r, j;

	fill((__u64 *)send, ports, size);
	for (r = -1; r < reps; r++) {
		for (j = 0; j < 2; j++) {
			if ((j + r + 2) % 2 == 0) {
				tb = timed_batch(fd, ports, size, send, rb, &b, &bad);
			} else {
				memset(rhl, 0, bytes);
				t0 = now_ns();
				if (hrel(fd, ports, size, list, send, rhl, &h)) {
					perror("BFLY_IOC_HREL");
					exit(1);
				}
				th = now_ns() - t0;
				bad += (h.h != ports) + (h.bytes_moved != bytes);
			}
		}
		bad += check_recv((__u64 *)rb, ports, size);
		bad += check_recv((__u64 *)rhl, ports, size);
		bad += memcmp(rb, rhl, bytes) != 0;
		if (r >= 0)
			rh[r] = th / tb;
	}
	bench_median(rh, reps);
	snprintf(fig, sizeof(fig), "hrel all-to-all / batch, N=%u msg=%llu B (VM)",
		 ports, (unsigned long long)size);
	bench_ratio_line(fig, rh[reps / 2], rh[0], rh[reps - 1], true, 1.1, bad);
	printf("  N=%u %llu B: HREL (h = N, %u rounds) %.2fx the batch's time (median of %d)",
	       ports, (unsigned long long)size, h.rounds, rh[reps / 2], reps);
	printf(", %llu wrong\n", (unsigned long long)bad);
	munmap(send, bytes);
	munmap(rb, bytes);
	munmap(rhl, bytes);
	free(list);
	free(rh);
	return bad;
}

/* Is the user program's report that of a whole batch? */
static __u64 check_user(const struct batch_user_res *u, __u32 ports, __u64 bytes)
{
	return (u->rounds != ports) + (u->sub_rounds != ports) + (u->bytes_moved != bytes);
}

/*
 * BFLY_IOC_BATCH against the same code as a user program, alternated call
 * by call, the order swapped every call; both results checked and compared.
 */
static __u64 user_vs_batch(int fd, __u32 ports, __u64 size, int reps)
{
	__u64 msgs = (__u64)ports * ports, bytes = msgs * size, bad = 0;
	double *ru = bench_alloc(reps * sizeof(double));
	double *tbs = bench_alloc(reps * sizeof(double));
	double *tus = bench_alloc(reps * sizeof(double));
	double *tin = bench_alloc(reps * sizeof(double));
	__u8 *send = bench_map(bytes), *rb = bench_map(bytes), *rus = bench_map(bytes);
	double tb = 0, tu = 0, t0;
	struct batch_user_res u;
	struct bfly_batch b;
	char fig[112];
	int r, j, err;

	fill((__u64 *)send, ports, size);
	for (r = -1; r < reps; r++) {
		for (j = 0; j < 2; j++) {
			if ((j + r + 2) % 2 == 0) {
				tb = timed_batch(fd, ports, size, send, rb, &b, &bad);
			} else {
				memset(rus, 0, bytes);
				t0 = now_ns();
				err = batch_user(ports, size, send, rus, &u);
				tu = now_ns() - t0;
				if (err) {
					fprintf(stderr, "batch as a user program: error %d\n", err);
					exit(1);
				}
				bad += check_user(&u, ports, bytes);
			}
		}
		bad += check_recv((__u64 *)rb, ports, size);
		bad += check_recv((__u64 *)rus, ports, size);
		bad += memcmp(rb, rus, bytes) != 0;
		if (r < 0)
			continue;
		ru[r] = tb / tu;
		tbs[r] = tb;
		tus[r] = tu;
		tin[r] = b.elapsed_ns;
	}
	bench_median(ru, reps);
	snprintf(fig, sizeof(fig),
		 "batch ioctl / same code as a user program, bfly2 N=%u %llu B (VM)",
		 ports, (unsigned long long)size);
	bench_ratio_line(fig, ru[reps / 2], ru[0], ru[reps - 1], true, 1.1, bad);
	printf("  N=%u %llu B: ioctl %.2f ms (%.2f ms of it in its rounds), ",
	       ports, (unsigned long long)size, bench_median(tbs, reps) / 1e6,
	       bench_median(tin, reps) / 1e6);
	printf("user program %.2f ms a batch (medians of %d), %llu wrong\n",
	       bench_median(tus, reps) / 1e6, reps, (unsigned long long)bad);
	munmap(send, bytes);
	munmap(rb, bytes);
	munmap(rus, bytes);
	free(ru);
	free(tbs);
	free(tus);
	free(tin);
	return bad;
}

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	__u64 size, bad = 0;
	int fd, a = 2, reps = 5;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE [-r REPS] SIZE...\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		perror(argv[1]);
		return 1;
	}
	if (argc > 4 && !strcmp(argv[2], "-r")) {
		reps = atoi(argv[3]);
		a = 4;
	}
	if (reps < 1)
		reps = 1;
	for (; a < argc; a++) {
		size = strtoull(argv[a], NULL, 0);
		if (size % 8) {
			fprintf(stderr, "%s: message sizes are multiples of 8\n", argv[0]);
			return 2;
		}
		bad += size ? payload(fd, info.ports, size, reps) :
			      schedule_only(fd, info.ports, reps);
		/* the figures with a VM target: more calls */
		if (size)
			bad += user_vs_batch(fd, info.ports, size, 2 * reps + 1);
		if (size)
			bad += hrel_vs_batch(fd, info.ports, size, 2 * reps + 1);
	}
	close(fd);
	return bad ? 1 : 0;
}
