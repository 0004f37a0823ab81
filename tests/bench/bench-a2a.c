// SPDX-License-Identifier: GPL-2.0
/*
 * Native stand-in for an all-to-all batch (this machine cannot load
 * bfly.ko): the same per-round work as the kernel's BFLY_IOC_BATCH on
 * bfly2 with the RLS schedule — bfly_sched_round() for destinations and
 * labels, bfly_sched_check() for conflicts — and every message copied from
 * its [source][dest] send slot to its [dest][source] receive slot by the
 * kernel's own bfly_msg_copy() (kmod/core/msgcopy.c, built natively), with the
 * kernel's prefetch distance, next to one memcpy of the same bytes. Prints
 * GB/s for N = 256 and 1024 and 64 B, 1 KiB, 4 KiB.
 */
#include "compat.h"
#include "core/msgcopy.h"
#include "schedule.h"
#include "bench.h"

/* As bfly_batch_deliver() in kmod/core/batch.c */
#define PREFETCH_DISTANCE 2

static struct bfly_msg msg_of(u8 *send, u8 *recv, u32 N, u64 size, u32 i, u32 d)
{
	return (struct bfly_msg) {
		.src = send + ((u64)i * N + d) * size,
		.dst = recv + ((u64)d * N + i) * size,
	};
}

/* The copies of one round, as bfly_batch_deliver() makes them */
static void move_round(u8 *send, u8 *recv, u32 N, u64 size, const u32 *dest)
{
	struct bfly_msg m, ahead;
	u32 i, next;

	for (i = 0; i < N; i++) {
		m = msg_of(send, recv, N, size, i, dest[i]);
		next = i + PREFETCH_DISTANCE;
		if (next < N)
			ahead = msg_of(send, recv, N, size, next, dest[next]);
		bfly_msg_copy(&m, size, next < N ? &ahead : NULL);
	}
}

int main(void)
{
	static const u32 logs[] = { 8, 10 };
	static const u64 sizes[] = { 64, 1024, 4096 };
	unsigned int li, si, r;

	printf("native all-to-all stand-in, bfly2, rls: best of 3\n");
	for (li = 0; li < ARRAY_SIZE(logs); li++) {
		u32 n = logs[li], N = 1U << n, k;
		struct bfly_geometry g = {
			.topology = BFLY_TOPO_BFLY2, .ports_log2 = n, .ports = N,
			.node_stages = 2 * n - 1, .nodes_per_stage = N / 2,
			.switches = (u64)(2 * n - 1) * (N / 2),
		};
		struct bfly_sched sched;
		u32 *dest = malloc(N * sizeof(u32));
		u64 *labels = malloc(N * sizeof(u64));
		void *work = malloc(bfly_sched_check_workspace_size(&g));

		bfly_sched_init(&sched, &g, BFLY_LATIN_RLS, NULL, NULL);
		for (si = 0; si < ARRAY_SIZE(sizes); si++) {
			u64 size = sizes[si], bytes = (u64)N * N * size;
			u8 *send = bench_map(bytes), *recv = bench_map(bytes);
			double best_copy = 1e30, best_batch = 1e30, t0, t;

			memset(send, 1, bytes);
			for (r = 0; r < 3; r++) {
				t0 = now_ns();
				memcpy(recv, send, bytes);
				t = now_ns() - t0;
				best_copy = t < best_copy ? t : best_copy;
			}
			for (r = 0; r < 3; r++) {
				t0 = now_ns();
				for (k = 0; k < N; k++) {
					bfly_sched_round(&sched, k, dest, labels);
					if (bfly_sched_check(&g, labels, NULL, NULL, work)) {
						fprintf(stderr, "conflict in round %u\n", k);
						return 1;
					}
					move_round(send, recv, N, size, dest);
				}
				t = now_ns() - t0;
				best_batch = t < best_batch ? t : best_batch;
			}
			printf("N=%-5u %5llu B: memcpy %6.2f GB/s, batch %6.2f GB/s, ratio %.2f\n",
			       N, (unsigned long long)size, bytes / best_copy, bytes / best_batch,
			       best_copy / best_batch);
			munmap(send, bytes);
			munmap(recv, bytes);
		}
		free(dest);
		free(labels);
		free(work);
	}
	return 0;
}
