// SPDX-License-Identifier: GPL-2.0
/*
 * All-to-all batch throughput through BFLY_IOC_BATCH, next to a plain
 * memcpy of the same bytes in the same process, and the schedule-only time
 * per message (0-byte messages: labels, routing and conflict checks).
 *
 *   bench-batch DEVICE SIZE...      message sizes in bytes
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "bench.h"

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

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	struct bfly_batch b;
	double best, t0, t, copy_gbs, batch_gbs;
	__u64 size, bytes, msgs;
	int fd, a, r;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE SIZE...\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		perror(argv[1]);
		return 1;
	}
	msgs = (__u64)info.ports * info.ports;

	/* Schedule only: best of 5 */
	best = 1e30;
	for (r = 0; r < 5; r++) {
		if (batch(fd, info.ports, 0, NULL, NULL, &b)) {
			perror("BFLY_IOC_BATCH");
			return 1;
		}
		if (b.elapsed_ns < best)
			best = b.elapsed_ns;
	}
	printf("N=%u schedule only: %.2f ns per message (%u sub-rounds, %llu cycles)\n",
	       info.ports, best / msgs, b.sub_rounds, (unsigned long long)b.cycles);

	for (a = 2; a < argc; a++) {
		__u8 *send, *recv;

		size = strtoull(argv[a], NULL, 0);
		bytes = msgs * size;
		send = bench_map(bytes);
		recv = bench_map(bytes);
		memset(send, 1, bytes);
		/* memcpy of the same bytes: best of 3 */
		best = 1e30;
		for (r = 0; r < 3; r++) {
			t0 = now_ns();
			memcpy(recv, send, bytes);
			t = now_ns() - t0;
			if (t < best)
				best = t;
		}
		copy_gbs = bytes / best;
		best = 1e30;
		for (r = 0; r < 3; r++) {
			if (batch(fd, info.ports, size, send, recv, &b)) {
				perror(" BFLY_IOC_BATCH");
				return 1;
			}
			if (b.elapsed_ns < best)
				best = b.elapsed_ns;
		}
		batch_gbs = bytes / best;
		printf("N=%u %5llu B messages: memcpy %6.2f GB/s, batch %6.2f GB/s, ratio %.2f\n",
		       info.ports, (unsigned long long)size, copy_gbs, batch_gbs,
		       batch_gbs / copy_gbs);
		munmap(send, bytes);
		munmap(recv, bytes);
	}
	close(fd);
	return 0;
}
