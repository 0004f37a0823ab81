// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end test of the all-to-all ioctls through the real device node:
 * RLS labels, batches with every schedule, tagged messages checked in every
 * receive slot, strict mode, a signal in the middle of a long batch, and
 * every bad input. On a flattened butterfly: every schedule that runs
 * there, its payload and its figures per round.
 *
 *   batch-test DEVICE [long]     "long": only the interrupted-batch test
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

static int fd;
static struct bfly_info info;

static const char * const sched_names[] = {
	"default", "rls", "lls", "xor", "square", "systolic",
};

/* Every slot holds its message (or, with @done, exactly the done ones). */
static int check_recv(const __u8 *recv, __u64 size, const __u64 *done, __u32 *filled)
{
	__u32 s, d, n = 0;
	__u64 off, t;
	int bad = 0;

	for (d = 0; d < info.ports; d++)
		for (s = 0; s < info.ports; s++) {
			__u64 bit = (__u64)d * info.ports + s;
			int is_done = !done || (done[bit / 64] >> (bit % 64) & 1);

			off = bit * size;
			memcpy(&t, recv + off, 8);
			if (is_done) {
				n++;
				if (t != msg_tag(s, d) || recv[off + size - 1] != ((s + d) & 0xff))
					bad++;
			} else if (t != 0) {
				bad++;
			}
		}
	if (filled)
		*filled = n;
	return bad;
}

static struct bfly_batch batch_req(__u32 schedule, __u64 size, void *send, void *recv)
{
	return batch_args(schedule, info.ports, size, send, recv);
}

/* A random Latin square: L[i][k] = sigma((tau(i) + k) mod N). */
static __u32 *latin_square(void)
{
	__u32 n = info.ports, *sq = malloc((size_t)n * n * 4), *sigma = malloc(n * 4),
	      *tau = malloc(n * 4), i, k, j, t;

	for (i = 0; i < n; i++) {
		sigma[i] = i;
		tau[i] = i;
	}
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = sigma[i];
		sigma[i] = sigma[j];
		sigma[j] = t;
		j = rand() % (i + 1);
		t = tau[i];
		tau[i] = tau[j];
		tau[j] = t;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++)
			sq[(size_t)i * n + k] = sigma[(tau[i] + k) % n];
	free(sigma);
	free(tau);
	return sq;
}

static void test_rls_labels(void)
{
	/* 0111111 1000000 0110001 1010010 */
	static const __u64 k1_n16[4] = { 0x3f, 0x40, 0x31, 0x52 };
	struct bfly_rls_labels rl = { .size = sizeof(rl) };
	__u64 *round = calloc(info.ports, 8), *proc = calloc(info.ports, 8);
	__u32 i, k, bad = 0;
	int r;

	rl.flags = BFLY_RLS_BY_ROTATION;
	rl.rotation = 1;
	rl.count = info.ports;
	rl.labels_ptr = (uintptr_t)round;
	r = ioctl(fd, BFLY_IOC_RLS_LABELS, &rl);
	tap_check(r == 0 && rl.label_bits == 2 * info.ports_log2 - 1,
		  "RLS labels of rotation 1 (%u bits)", rl.label_bits);
	if (info.ports == 16)
		tap_check(!memcmp(round, k1_n16, sizeof(k1_n16)),
			  "RLS labels k=1 N=16 i=0..3: 0111111 1000000 0110001 1010010");
	/* By processor agrees with by rotation, for every (i, k) */
	for (i = 0; i < info.ports && i < 64; i++) {
		memset(&rl, 0, sizeof(rl));
		rl.size = sizeof(rl);
		rl.processor = i;
		rl.count = info.ports;
		rl.labels_ptr = (uintptr_t)proc;
		if (ioctl(fd, BFLY_IOC_RLS_LABELS, &rl)) {
			bad++;
			continue;
		}
		for (k = 0; k < info.ports && k < 64; k++) {
			struct bfly_rls_labels r2 = { .size = sizeof(r2) };

			r2.flags = BFLY_RLS_BY_ROTATION;
			r2.rotation = k;
			r2.count = info.ports;
			r2.labels_ptr = (uintptr_t)round;
			if (ioctl(fd, BFLY_IOC_RLS_LABELS, &r2) || round[i] != proc[k])
				bad++;
		}
	}
	tap_check(!bad, "RLS labels by processor agree with labels by rotation");

	memset(&rl, 0, sizeof(rl));
	rl.size = sizeof(rl);
	rl.labels_ptr = (uintptr_t)proc;
	rl.processor = info.ports;
	rl.count = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), EINVAL, "RLS labels: processor N");
	rl.processor = 0;
	rl.rotation = info.ports - 1;
	rl.count = 2;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), EINVAL, "RLS labels: range past N-1");
	rl.flags = BFLY_RLS_BY_ROTATION;
	rl.rotation = 0;
	rl.count = info.ports - 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), EINVAL, "RLS labels: short round");
	rl.count = info.ports;
	rl.flags = 2;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), EINVAL, "RLS labels: unknown flag");
	rl.flags = BFLY_RLS_BY_ROTATION;
	rl.labels_ptr = 8;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), EFAULT, "RLS labels: bad pointer");
	free(round);
	free(proc);
}

static void test_schedules(void)
{
	__u32 n = info.ports, n_log = info.ports_log2, sched;
	__u64 size = 16, bytes = (__u64)n * n * size;
	__u8 *send = malloc(bytes), *recv = malloc(bytes);
	__u64 *done = malloc(((__u64)n * n + 63) / 64 * 8);
	struct bfly_stats st = { .size = sizeof(st) };
	__u32 *square = latin_square();
	struct bfly_batch b;
	__u32 filled = 0;
	int bad;

	fill_messages(send, info.ports, size);
	for (sched = BFLY_SCHED_DEFAULT; sched <= BFLY_SCHED_SYSTOLIC; sched++) {
		const char *name = sched_names[sched];

		memset(recv, 0, bytes);
		memset(done, 0, ((__u64)n * n + 63) / 64 * 8);
		b = batch_req(sched, size, send, recv);
		if (sched == BFLY_SCHED_SQUARE)
			b.square_ptr = (uintptr_t)square;
		b.done_ptr = (uintptr_t)done;
		tap_check(ioctl(fd, BFLY_IOC_BATCH, &b) == 0, "%s batch", name);
		tap_check(b.rounds == n && b.sub_rounds >= n, "%s: %u rounds, %u sub-rounds",
			  name, b.rounds, b.sub_rounds);
		tap_check(b.cycles == info.node_stages + b.sub_rounds - 1, "%s: %llu cycles",
			  name, (unsigned long long)b.cycles);
		tap_check(b.bytes_moved == bytes, "%s: %llu bytes moved", name,
			  (unsigned long long)b.bytes_moved);
		tap_check(check_recv(recv, size, NULL, NULL) == 0,
			  "%s: every receive slot holds its tagged message", name);
		bad = check_recv(recv, size, done, &filled);
		tap_check(!bad && filled == n * n, "%s: the done bitmap marks all %u slots",
			  name, filled);
		if ((sched <= BFLY_SCHED_RLS || sched == BFLY_SCHED_SYSTOLIC) &&
		    (info.topology == BFLY_TOPO_BFLY2 || info.topology == BFLY_TOPO_BFLY_TWICE)) {
			__u64 stages = info.topology == BFLY_TOPO_BFLY2 ? 2 * n_log - 1 : 2 * n_log;
			__u64 want = stages + (n - 1);

			tap_check(b.conflicts == 0 && b.sub_rounds == n &&
				  b.first_conflict_round == BFLY_NO_CONFLICT,
				  "%s: rounds conflict-free", name);
			tap_check(b.cycles == want, "%s: Remark V.1: %llu cycles", name,
				  (unsigned long long)want);
			tap_check(b.max_link_load == 1, "%s: MLL 1", name);
		}
		if (sched == BFLY_SCHED_LLS && info.topology == BFLY_TOPO_BUTTERFLY && n > 2)
			tap_check(b.conflicts > 0 && b.sub_rounds > n && b.max_link_load >= 2,
				  "lls on a butterfly: %llu conflicts split into %u sub-rounds, MLL %u",
				  (unsigned long long)b.conflicts, b.sub_rounds, b.max_link_load);
	}

	/* Schedule only */
	b = batch_req(BFLY_SCHED_RLS, 0, NULL, NULL);
	tap_check(ioctl(fd, BFLY_IOC_BATCH, &b) == 0 && b.rounds == n && b.bytes_moved == 0,
		  "schedule-only batch (0-byte messages)");

	/* Strict mode where rounds conflict */
	if (info.topology == BFLY_TOPO_BUTTERFLY && n > 2) {
		struct bfly_conflict c[8];

		memset(recv, 0, bytes);
		memset(done, 0, ((__u64)n * n + 63) / 64 * 8);
		b = batch_req(BFLY_SCHED_LLS, size, send, recv);
		b.flags = BFLY_BATCH_STRICT;
		b.done_ptr = (uintptr_t)done;
		b.conflicts_ptr = (uintptr_t)c;
		b.conflicts_max = 8;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b),
			  n > 4 ? EOVERFLOW : EBUSY, "strict lls batch on a butterfly");
		tap_check(b.rounds == b.first_conflict_round && b.conflicts > 0,
			  "strict: stopped at round %u with %llu conflicts", b.first_conflict_round,
			  (unsigned long long)b.conflicts);
		bad = check_recv(recv, size, done, &filled);
		tap_check(!bad && filled == b.rounds * n,
			  "strict: the %u filled slots are exactly the done ones", filled);
	}
	tap_check(ioctl(fd, BFLY_IOC_GET_STATS, &st) == 0 && st.batches >= 6,
		  "stats count %llu batches", (unsigned long long)st.batches);
	free(send);
	free(recv);
	free(done);
	free(square);
}

/*
 * A flattened butterfly: each schedule that runs there (all of them when
 * N is a power of two, else the systolic one alone) delivers every
 * message; the rounds' figures come back in @rounds_ptr; the systolic
 * rounds load each channel once and take N + n cycles in all, the others
 * at least the bound, which is N + 2 or a little more.
 */
static void test_flat(void)
{
	__u32 n = info.ports, sched, r, most, digits = 0, p;
	__u64 size = 16, bytes = (__u64)n * n * size;
	__u8 *send = malloc(bytes), *recv = malloc(bytes);
	struct bfly_round *rounds = calloc(n, sizeof(*rounds));
	__u32 *square = latin_square();
	struct bfly_batch b;
	int err;

	for (p = 1; p < n; p *= info.radix)
		digits++;
	fill_messages(send, n, size);
	for (sched = BFLY_SCHED_DEFAULT; sched <= BFLY_SCHED_SYSTOLIC; sched++) {
		const char *name = sched_names[sched];

		memset(recv, 0, bytes);
		b = batch_req(sched, size, send, recv);
		if (sched == BFLY_SCHED_SQUARE)
			b.square_ptr = (uintptr_t)square;
		memset(rounds, 0, n * sizeof(*rounds));
		b.rounds_ptr = (uintptr_t)rounds;
		err = ioctl(fd, BFLY_IOC_BATCH, &b) ? errno : 0;
		if (!info.ports_log2 && sched != BFLY_SCHED_SYSTOLIC) {
			tap_check(err == EOPNOTSUPP && b.rounds == 0,
				  "flatfly %s, N no power of two: refused (%s)", name,
				  err ? strerrorname_np(err) : "0");
			continue;
		}
		tap_check(!err && b.rounds == n && b.bytes_moved == bytes,
			  "flatfly %s: %u rounds, %llu bytes (%s)", name, b.rounds,
			  (unsigned long long)b.bytes_moved, err ? strerrorname_np(err) : "0");
		tap_check(check_recv(recv, size, NULL, NULL) == 0,
			  "flatfly %s: every receive slot holds its tagged message", name);
		for (r = 0, most = 0; r < n; r++)
			most = rounds[r].max_load > most ? rounds[r].max_load : most;
		tap_check(most == b.max_link_load && b.cycles_bound >= n + 2,
			  "flatfly %s: rounds' most load %u = max_link_load %u, bound %llu",
			  name, most, b.max_link_load, (unsigned long long)b.cycles_bound);
		if (sched == BFLY_SCHED_SYSTOLIC)
			tap_check(b.max_link_load == 1 && b.conflicts == 0 &&
				  b.cycles == n + digits && rounds[n - 1].cycles == digits + 1,
				  "flatfly systolic: load 1, %llu cycles = N + n, bound %llu",
				  (unsigned long long)b.cycles,
				  (unsigned long long)b.cycles_bound);
		else
			tap_check(b.cycles >= b.cycles_bound, "flatfly %s: %llu cycles >= bound",
				  name, (unsigned long long)b.cycles);
	}
	free(send);
	free(recv);
	free(rounds);
	free(square);
}

static void test_bad_input(void)
{
	__u32 n = info.ports;
	__u64 size = 8, bytes = (__u64)n * n * size;
	__u8 *send = calloc(1, bytes + 16), *recv = calloc(1, bytes + 16);
	__u32 *square = latin_square();
	int rofd = open("/dev/bfly0", O_RDONLY);
	struct bfly_batch b;
	void *unmapped = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *ro;

	munmap(unmapped, bytes);
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.buf_bytes -= 8;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: short buffers");
	b = batch_req(BFLY_SCHED_RLS, 1ULL << 62, send, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), E2BIG, "batch: N*N*size overflows");
	b = batch_req(BFLY_SCHED_RLS, 1ULL << 40, send, recv);
	b.buf_bytes = (__u64)n * n << 40;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), E2BIG, "batch: over batch_max_bytes");
	b = batch_req(BFLY_SCHED_RLS, size, send + 4, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: misaligned send buffer");
	b = batch_req(BFLY_SCHED_RLS, size, send, send + 8);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: overlapping buffers");
	b = batch_req(BFLY_SCHED_RLS, size, NULL, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: payload without a send buffer");
	b = batch_req(BFLY_SCHED_RLS, size, send, NULL);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: payload without a receive buffer");
	b = batch_req(BFLY_SCHED_RLS, size, NULL, NULL);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: payload without buffers");
	b = batch_req(BFLY_SCHED_RLS, size, unmapped, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT, "batch: unmapped send buffer");
	tap_check(b.rounds == 0 && b.bytes_moved == 0, "batch: unmapped: nothing moved");
	ro = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	b = batch_req(BFLY_SCHED_RLS, size, send, ro);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT, "batch: read-only receive buffer");
	tap_check(b.rounds == 0 && b.bytes_moved == 0, "batch: read-only: nothing moved");
	munmap(ro, bytes);
	b = batch_req(BFLY_SCHED_RLS, size, (void *)0xffffffff81000000UL, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT, "batch: kernel address");
	b = batch_req(BFLY_SCHED_SYSTOLIC + 1, size, send, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: unknown schedule");
	b = batch_req(BFLY_SCHED_SQUARE, size, send, recv);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: square schedule without a square");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.square_ptr = (uintptr_t)square;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: a square with another schedule");
	if (n > 2) {
		__u32 save = square[1];

		square[1] = square[0];
		b = batch_req(BFLY_SCHED_SQUARE, size, send, recv);
		b.square_ptr = (uintptr_t)square;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: not a Latin square");
		square[1] = n;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: square entry N");
		square[1] = save;
	}
	b = batch_req(BFLY_SCHED_SQUARE, size, send, recv);
	b.square_ptr = (uintptr_t)unmapped;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT, "batch: unmapped square");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.flags = BFLY_BATCH_MINIMAL << 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: unknown flag");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.reserved[3] = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: non-zero reserved");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.ports = n * 2;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: ports not the fabric's");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.conflicts_max = 4;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: conflict count without array");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.size = BFLY_BATCH_SIZE_VER0 - 8;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "batch: truncated struct");
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	TAP_ERRNO(ioctl(rofd, BFLY_IOC_BATCH, &b), EBADF, "batch: read-only descriptor");
	close(rofd);
	free(send);
	free(recv);
	free(square);
}

/* The schedule of test_line_payload(): systolic where N is no power of 2 */
static __u32 line_sched = BFLY_SCHED_RLS;

/*
 * Messages of @size bytes, whole cache lines (the 16-byte streaming copy
 * where the module streams, up to 4 KiB strip by strip, longer ones in
 * interleaved groups; runs of messages in one user-access section where
 * it does not): a receive buffer no page of which is present yet (the
 * vector copy, which cannot wait for a page, hands those lines to the
 * word copy, which can); with messages longer than 16 KiB, receive slots
 * present in their first 20 KiB only (a streaming group of long messages
 * faults past its first piece); the second half (from a page boundary)
 * of the receive or the send buffer not writable or not readable:
 * EFAULT, and the bytes moved and the done bitmap are exactly the
 * messages that arrived.
 */
static void test_line_payload(__u64 size)
{
	__u32 n = info.ports, filled = 0, k;
	__u64 bytes = (__u64)n * n * size, dbytes = ((__u64)n * n + 63) / 64 * 8;
	/* the second half, from a page boundary */
	__u64 cut = (bytes / 2 + 4095) & ~4095ULL;
	__u8 *send = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	__u8 *recv = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	__u64 *done = calloc(1, dbytes);
	struct bfly_batch b;
	int r, e, side, bad;

	if (send == MAP_FAILED || recv == MAP_FAILED || !done) {
		tap_check(0, "line payload: no memory");
		return;
	}
	fill_messages(send, n, size);
	b = batch_req(line_sched, size, send, recv);
	tap_check(ioctl(fd, BFLY_IOC_BATCH, &b) == 0 && b.bytes_moved == bytes &&
		  slots_whole(send, recv, info.ports, size) == 0,
		  "%llu-byte messages into a receive buffer not yet faulted in",
		  (unsigned long long)size);
	if (size > 16384) {
		munmap(recv, bytes);
		recv = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			    0);
		if (recv == MAP_FAILED) {
			tap_check(0, "line payload: no memory");
			munmap(send, bytes);
			free(done);
			return;
		}
		for (k = 0; k < n * n; k++)
			memset(recv + k * size, 0, 20480);
		b = batch_req(line_sched, size, send, recv);
		tap_check(ioctl(fd, BFLY_IOC_BATCH, &b) == 0 && b.bytes_moved == bytes &&
			  slots_whole(send, recv, info.ports, size) == 0,
			  "%llu-byte messages into receive slots present in their first 20 KiB only",
			  (unsigned long long)size);
	}
	for (side = 0; side < 2; side++) {
		__u8 *half_buf = (side ? send : recv) + cut;

		memset(recv, 0, bytes);
		memset(done, 0, dbytes);
		mprotect(half_buf, bytes - cut, side ? PROT_NONE : PROT_READ);
		b = batch_req(line_sched, size, send, recv);
		b.done_ptr = (uintptr_t)done;
		r = ioctl(fd, BFLY_IOC_BATCH, &b);
		e = errno;
		mprotect(half_buf, bytes - cut, PROT_READ | PROT_WRITE);
		tap_check(r == -1 && e == EFAULT,
			  "%llu-byte messages, %s half of the %s buffer: EFAULT (got %d, %s)",
			  (unsigned long long)size, side ? "an unreadable" : "a read-only",
			  side ? "send" : "receive", r,
			  r == -1 ? strerror(e) : "success");
		bad = check_recv(recv, size, done, &filled);
		tap_check(!bad && b.bytes_moved == (__u64)filled * size && filled < n * n &&
			  (__u64)b.rounds * n * size <= b.bytes_moved,
			  "%llu-byte messages, %s fault: %u of %u messages arrived, %llu bytes moved, %u rounds, the done bitmap exact",
			  (unsigned long long)size, side ? "send" : "receive", filled, n * n,
			  (unsigned long long)b.bytes_moved, b.rounds);
	}
	munmap(send, bytes);
	munmap(recv, bytes);
	free(done);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* A signal in the middle of a long batch: -EINTR, nothing lost. */
static void test_interrupted(void)
{
	__u32 n = info.ports;
	__u64 size = 64, bytes = (__u64)n * n * size;
	__u8 *send = malloc(bytes), *recv = calloc(1, bytes);
	__u64 *done = calloc(1, ((__u64)n * n + 63) / 64 * 8);
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	pid_t child;
	struct bfly_batch b;
	__u32 filled = 0;
	int r, e, bad;

	fill_messages(send, info.ports, size);
	sigaction(SIGUSR1, &sa, NULL);
	b = batch_req(BFLY_SCHED_RLS, size, send, recv);
	b.done_ptr = (uintptr_t)done;
	/*
	 * A second process signals this one every 20 ms until the batch
	 * returns: one signal alone could land before the ioctl starts, on a
	 * VM the host has paused for a while, and be handled in user space.
	 */
	child = fork();
	if (child == 0) {
		for (;;) {
			usleep(20000);
			kill(getppid(), SIGUSR1);
		}
	}
	if (child < 0) {
		tap_check(0, "fork: %s", strerror(errno));
		goto out;
	}
	r = ioctl(fd, BFLY_IOC_BATCH, &b);
	e = errno;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	tap_check(r == -1 && e == EINTR,
		  "a signal stops a long batch with EINTR (after %u of %u rounds)",
		  b.rounds, n);
	tap_check(b.rounds < n && b.bytes_moved == (__u64)b.rounds * n * size,
		  "interrupted: %u rounds completed, %llu bytes moved", b.rounds,
		  (unsigned long long)b.bytes_moved);
	bad = check_recv(recv, size, done, &filled);
	tap_check(!bad && filled == b.rounds * n,
		  "interrupted: the %u filled slots are exactly the done ones", filled);
out:
	free(send);
	free(recv);
	free(done);
}

/* The fabric's own memory now, from sysfs; -1 if unreadable. */
static long long fabric_mem_bytes(void)
{
	char path[64];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/mem_bytes", info.id);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * SIGKILL in the middle of one huge message (64 MiB): the kernel checks
 * for a fatal signal between its 64 KiB chunks. The process dies, its
 * batch's memory is given back and the fabric works on.
 */
static void test_killed(void)
{
	__u32 n = info.ports;
	__u64 size = (64ULL << 20) / ((__u64)n * n) * 4, bytes = (__u64)n * n * size;
	long long base = fabric_mem_bytes();
	struct bfly_batch b;
	int ready[2], st = 0;
	__u8 *send, *recv;
	pid_t child;
	char c;

	if (pipe(ready)) {
		tap_check(0, "pipe: %s", strerror(errno));
		return;
	}
	child = fork();
	if (child == 0) {
		send = malloc(bytes);
		recv = malloc(bytes);
		if (!send || !recv)
			_exit(2);
		memset(send, 1, bytes);
		memset(recv, 0, bytes);
		b = batch_req(BFLY_SCHED_RLS, size, send, recv);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		for (;;)
			ioctl(fd, BFLY_IOC_BATCH, &b);
	}
	if (child < 0) {
		tap_check(0, "fork: %s", strerror(errno));
		return;
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) == 1)
		usleep(100000);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	close(ready[0]);
	tap_check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		  "SIGKILL during batches of %llu MiB messages: the process dies",
		  (unsigned long long)(size >> 20));
	tap_check(fabric_mem_bytes() == base,
		  "killed batch: the fabric holds its own memory only (%lld bytes)",
		  fabric_mem_bytes());
	b = batch_req(BFLY_SCHED_RLS, 0, NULL, NULL);
	tap_check(ioctl(fd, BFLY_IOC_BATCH, &b) == 0 && b.rounds == n,
		  "killed batch: a schedule-only batch runs after it");
}

int main(int argc, char **argv)
{
	__u64 n;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEVICE [long | killed | strips]\n", argv[0]);
		return 2;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	srand(info.ports);

	if (argc > 2 && !strcmp(argv[2], "strips")) {
		/* streaming strips of 1 and 4 KiB messages, N below or no multiple of 8 */
		if (!info.ports_log2)
			line_sched = BFLY_SCHED_SYSTOLIC;
		test_line_payload(1024);
		test_line_payload(4096);
	} else if (argc > 2 && !strcmp(argv[2], "long")) {
		test_interrupted();
	} else if (argc > 2 && !strcmp(argv[2], "killed")) {
		test_killed();
	} else if (info.topology == BFLY_TOPO_FLATFLY) {
		test_flat();
	} else {
		test_rls_labels();
		test_schedules();
		test_bad_input();
		n = info.ports;
		/* at least 256 bytes and 8 KiB in all; one line where halves are whole pages */
		test_line_payload(8192 / (n * n) > 256 ? 8192 / (n * n) : 256);
		if (!(n * n * 64 % 8192))
			test_line_payload(64);
		/* long messages with a 32-byte tail, the buffers' halves whole pages */
		if (n == 16)
			test_line_payload(69664);
	}
	close(fd);
	return tap_failed ? 1 : 0;
}
