// SPDX-License-Identifier: GPL-2.0
/*
 * HREL on a multibutterfly through the ioctl: h random permutations
 * delivered, each message's path on its logical path (leaving column c
 * its row has the destination's top c bits), Theorem 2's bound reported
 * held, the payload in place; the 136-byte struct of version 0 still
 * works; GET_INFO reports d, the seed and the expansion.
 *
 *   mbfly-hrel-test DEV D SEED H
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/bfly.h>

#include "tap.h"

int main(int argc, char **argv)
{
	struct bfly_info info = { .size = sizeof(info) };
	struct bfly_hrel a, b;
	struct bfly_msgset_msg *msgs;
	unsigned int d, h, n, cols, count, i, r, c, bad = 0, badpay = 0;
	unsigned long long seed;
	__u32 *paths, *perm;
	__u64 *send, *recv;
	int fd;

	if (argc != 5)
		return 2;
	d = atoi(argv[2]);
	seed = strtoull(argv[3], NULL, 0);
	h = atoi(argv[4]);
	fd = open(argv[1], O_RDWR);
	tap_check(fd >= 0, "open %s", argv[1]);
	if (fd < 0)
		return 1;
	tap_check(!ioctl(fd, BFLY_IOC_GET_INFO, &info) && info.size == BFLY_INFO_SIZE_VER3,
		  "GET_INFO writes %u bytes", info.size);
	tap_check(info.topology == BFLY_TOPO_MBFLY && info.mbfly_d == d && info.mbfly_seed == seed,
		  "mbfly, d %u, seed %llu", info.mbfly_d, (unsigned long long)info.mbfly_seed);
	tap_check(info.mbfly_exp_inputs && info.mbfly_exp_kmax && info.mbfly_exp_beta &&
		  info.mbfly_exp_subsets,
		  "expansion: beta %.4f at alpha %u/%u (column %u, %s, %llu subsets)",
		  info.mbfly_exp_beta / 65536.0, info.mbfly_exp_kmax, info.mbfly_exp_inputs,
		  info.mbfly_exp_col, info.mbfly_exp_exhaustive ? "exhaustive" : "sampled",
		  (unsigned long long)info.mbfly_exp_subsets);
	n = info.ports_log2;
	cols = n + 1;
	count = info.ports * h;
	msgs = calloc(count, sizeof(*msgs));
	paths = calloc((size_t)count * cols, sizeof(*paths));
	perm = calloc(info.ports, sizeof(*perm));
	send = calloc(count, sizeof(*send));
	recv = calloc(count, sizeof(*recv));
	srand(seed);
	for (r = 0; r < h; r++) {
		for (i = 0; i < info.ports; i++)
			perm[i] = i;
		for (i = info.ports - 1; i > 0; i--) {
			unsigned int j = rand() % (i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < info.ports; i++) {
			struct bfly_msgset_msg *m = &msgs[r * info.ports + i];

			m->src = i;
			m->dst = perm[i];
			m->len = 8;
			m->send_off = 8ULL * (r * info.ports + i);
			/* slot r of the destination's h */
			m->recv_off = 8ULL * (perm[i] * h + r);
			send[r * info.ports + i] = 0x1000000ULL * (i + 1) + r;
		}
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.count = count;
	a.msgs_ptr = (uintptr_t)msgs;
	a.send_ptr = (uintptr_t)send;
	a.send_bytes = 8ULL * count;
	a.recv_ptr = (uintptr_t)recv;
	a.recv_bytes = 8ULL * count;
	a.path_ptr = (uintptr_t)paths;
	a.path_entries = (__u64)count * cols;
	b = a;
	tap_check(!ioctl(fd, BFLY_IOC_HREL, &a) && a.size == BFLY_HREL_SIZE_VER1,
		  "HREL N=%u h=%u: %u stages, max through %u, h-bar %u, bound %s",
		  info.ports, h, a.stages, a.max_through, a.hbar, a.bound_ok ? "held" : "broken");
	tap_check(a.h == h && a.rounds == 1 && !a.colours && a.cycles == a.stages,
		  "h %u, rounds %u, colours %u, cycles %llu", a.h, a.rounds, a.colours,
		  (unsigned long long)a.cycles);
	tap_check(a.bound_ok == 1 && a.max_through <= 2 * a.hbar, "Theorem 2's bound held");
	for (i = 0; i < count; i++) {
		const __u32 *p = paths + (size_t)i * cols;

		if (p[0] != msgs[i].src)
			bad++;
		for (c = 1; c <= n; c++)
			if (p[c] >> (n - c) != msgs[i].dst >> (n - c))
				bad++;
		if (recv[msgs[i].recv_off / 8] != send[i])
			badpay++;
	}
	tap_check(!bad, "every path on its logical path (%u hops off)", bad);
	tap_check(!badpay && a.bytes_moved == 8ULL * count, "payload in place: %llu bytes",
		  (unsigned long long)a.bytes_moved);

	/* the version 0 struct: no paths, no new figures, still runs */
	b.size = BFLY_HREL_SIZE_VER0;
	b.path_ptr = 0;
	b.path_entries = 0;
	memset(recv, 0, 8ULL * count);
	tap_check(!ioctl(fd, BFLY_IOC_HREL, &b) && b.size == BFLY_HREL_SIZE_VER0 && b.h == h &&
		  b.bytes_moved == 8ULL * count,
		  "size BFLY_HREL_SIZE_VER0 works: %u bytes back, h %u", b.size, b.h);

	/* a path array without its room is refused */
	a.size = sizeof(a);
	a.path_entries = 0;
	a.stages = 0;
	memset(&a.stages, 0, sizeof(a) - offsetof(struct bfly_hrel, stages));
	tap_check(ioctl(fd, BFLY_IOC_HREL, &a) && errno == EINVAL,
		  "path_ptr without entries: EINVAL");
	return tap_failed;
}
