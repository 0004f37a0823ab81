// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile callers of the payload-moving ioctls (hostile.test.sh), on a
 * fabric loaded with payload_stream_bytes=0 so every payload streams:
 *
 *   sizes    BATCH with message sizes at and around 8, 64, 1024, 4096
 *            and (N <= 4) 1 MiB, odd ones too, every byte checked; a
 *            receive buffer read-only from a page in the middle of a
 *            slot: EFAULT, bytes moved and the done bitmap exact
 *   race     BATCHes while another thread mprotect()s receive pages,
 *            munmap()s and maps send pages back: 0 or EFAULT, the
 *            accounts exact, the done slots whole
 *   signals  BATCHes under SIGUSR1 (a handler, no SA_RESTART), SIGSTOP
 *            and SIGCONT from another process: 0 or EINTR, the accounts
 *            exact, the done slots whole; then SIGKILL mid-batch: the
 *            fabric's memory given back
 *   churn    processes running BATCH and HREL with payload until the
 *            fabric is deleted (by the script, through netlink): each
 *            answers 0 or ENODEV, and ENODEV in the end
 *
 *   hostile-test DEVICE sizes|race|signals|churn [SECONDS]
 */
#include <fcntl.h>
#include <pthread.h>
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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static int fd;
static struct bfly_info info;
/* The schedule: systolic where N is no power of two */
static __u32 sched = BFLY_SCHED_RLS;

static void *map(__u64 bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int bit(const __u64 *done, __u64 b)
{
	return done[b / 64] >> (b % 64) & 1;
}

/*
 * The accounts of a batch that moved some messages: every done slot (whose
 * receive bytes are readable: @readable_end) holds its message whole, the
 * bytes moved are the done slots' bytes, the rounds reported all arrived.
 * Returns the done slots, or -1 when the accounts are wrong.
 */
static long long accounts(const struct bfly_batch *b, const __u8 *send, const __u8 *recv,
			  const __u64 *done, __u64 readable_end, int whole)
{
	__u32 n = info.ports, s, d;
	__u64 size = b->msg_size, filled = 0, off;
	int bad = 0;

	for (d = 0; d < n; d++)
		for (s = 0; s < n; s++) {
			if (!bit(done, (__u64)d * n + s))
				continue;
			filled++;
			off = ((__u64)d * n + s) * size;
			if (whole && off + size <= readable_end &&
			    memcmp(recv + off, send + ((__u64)s * n + d) * size, size))
				bad++;
		}
	if (bad || b->bytes_moved != filled * size || (__u64)b->rounds * n * size > b->bytes_moved)
		return -1;
	return filled;
}

/* ---- sizes ---- */

static void one_size(__u64 size)
{
	__u32 n = info.ports;
	__u64 bytes = (__u64)n * n * size, dbytes = ((__u64)n * n + 63) / 64 * 8, cut;
	__u8 *send = map(bytes), *recv = map(bytes);
	__u64 *done = calloc(1, dbytes);
	struct bfly_batch b;
	long long filled;
	int r, e;

	if (!send || !recv || !done) {
		tap_check(0, "%llu-byte messages: no memory", (unsigned long long)size);
		goto out;
	}
	fill_messages(send, n, size);
	b = batch_args(sched, n, size, send, recv);
	b.done_ptr = (uintptr_t)done;
	r = ioctl(fd, BFLY_IOC_BATCH, &b);
	e = errno;
	filled = accounts(&b, send, recv, done, bytes, 1);
	tap_check(r == 0 && filled == (long long)n * n && b.rounds == n,
		  "%llu-byte messages: every one arrives whole (%d %s, %lld slots, %llu bytes moved)",
		  (unsigned long long)size, r, r ? strerror(e) : "", filled,
		  (unsigned long long)b.bytes_moved);
	/* read-only from the page after the middle of the buffer: within a slot, mostly */
	cut = (bytes / 2 + size / 2 + 4095) & ~4095ULL;
	if (cut >= bytes)
		goto out;
	memset(recv, 0, bytes);
	memset(done, 0, dbytes);
	mprotect(recv + cut, bytes - cut, PROT_READ);
	b = batch_args(sched, n, size, send, recv);
	b.done_ptr = (uintptr_t)done;
	r = ioctl(fd, BFLY_IOC_BATCH, &b);
	e = errno;
	mprotect(recv + cut, bytes - cut, PROT_READ | PROT_WRITE);
	filled = accounts(&b, send, recv, done, bytes, 1);
	tap_check(r == -1 && e == EFAULT && filled >= 0 && filled < (long long)n * n,
		  "%llu-byte messages, receive read-only from byte %llu: EFAULT (%d %s), %lld slots done, %llu bytes moved, %u rounds",
		  (unsigned long long)size, (unsigned long long)cut, r, r ? strerror(e) : "",
		  filled, (unsigned long long)b.bytes_moved, b.rounds);
out:
	if (send)
		munmap(send, bytes);
	if (recv)
		munmap(recv, bytes);
	free(done);
}

static void test_sizes(void)
{
	static const __u64 sizes[] = {
		3, 60, 64, 72, 1020, 1024, 1032, 4088, 4095, 4096, 4097, 4104, 8200,
	};
	static const __u64 big[] = { (1 << 20) + 4 };
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(sizes); k++)
		one_size(sizes[k]);
	if (info.ports <= 4)
		for (k = 0; k < ARRAY_SIZE(big); k++)
			one_size(big[k]);
}

/* ---- struct sizes ---- */

/*
 * @req's argument @arg of @ksize bytes (this uapi's) at sizes the kernel
 * may meet: @ver0 (the first), between two versions (@ver0 + 4, where a
 * u64 is half given), this one, larger with a zero tail, larger with a
 * non-zero tail (E2BIG), 4097 (E2BIG). The bytes past the size stay as
 * they were; the size written back is the bytes written.
 */
static void struct_sizes(const char *what, unsigned long req, const void *arg, __u32 ksize,
			 __u32 ver0)
{
	const __u32 sizes[] = { ver0, ver0 + 4, ksize, ksize + 8, ksize + 8, 4097 };
	__u8 *buf = calloc(1, 8192), canary[64];
	unsigned int k;
	int r, e, want;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		__u32 usize = sizes[k], written;

		memset(buf, 0, 8192);
		memcpy(buf, arg, ksize < usize ? ksize : usize);
		memcpy(buf, &usize, 4);
		/* the fifth: a non-zero byte past this kernel's struct */
		if (k == 4)
			buf[ksize + 3] = 1;
		memset(canary, 0xa5, sizeof(canary));
		if (usize < ksize)
			memcpy(buf + usize, canary, sizeof(canary));
		r = ioctl(fd, req, buf);
		e = errno;
		want = k >= 4 ? E2BIG : 0;
		memcpy(&written, buf, 4);
		tap_check(want ? r == -1 && e == want :
			  r == 0 && written == (usize < ksize ? usize : ksize) &&
			  (usize >= ksize ? !buf[ksize + 3] :
			   !memcmp(buf + usize, canary, sizeof(canary))),
			  "%s of size %u: %s (got %d %s, size %u), bytes past it untouched", what,
			  usize, want ? "E2BIG" : "accepted", r, r ? strerror(e) : "", written);
	}
	free(buf);
}

static void test_struct_sizes(void)
{
	__u32 n = info.ports;
	__u8 *send = map(65536), *recv = map(65536);
	struct bfly_msgset_msg m[2] = {
		{ .src = 0, .dst = n - 1, .len = 64, .send_off = 0, .recv_off = 0 },
		{ .src = n - 1, .dst = 0, .len = 64, .send_off = 64, .recv_off = 64 },
	};
	struct bfly_hrel h = {
		.size = sizeof(h), .count = 2, .msgs_ptr = (uintptr_t)m,
		.send_ptr = (uintptr_t)send, .send_bytes = 65536,
		.recv_ptr = (uintptr_t)recv, .recv_bytes = 65536,
	};
	struct bfly_batch b = batch_args(sched, n, 8, send, recv);

	if (!send || !recv || (__u64)n * n * 8 > 65536) {
		tap_check(0, "struct sizes: no memory, or N too large");
		return;
	}
	struct_sizes("HREL", BFLY_IOC_HREL, &h, sizeof(h), BFLY_HREL_SIZE_VER0);
	struct_sizes("BATCH", BFLY_IOC_BATCH, &b, sizeof(b), BFLY_BATCH_SIZE_VER0);
	munmap(send, 65536);
	munmap(recv, 65536);
}

/* ---- outputs ---- */

/*
 * A BATCH whose done bitmap cannot be written (read-only, unmapped): the
 * batch runs, then EFAULT, and the struct's outputs are written all the
 * same (BFLY_IOC_BATCH: "written on success and on every error after the
 * batch started"), as HREL and MSGSET write theirs.
 */
static void test_batch_outputs(void)
{
	__u32 n = info.ports;
	__u64 size = 64, bytes = (__u64)n * n * size;
	__u8 *send = map(bytes), *recv = map(bytes), *done = map(8192);
	struct bfly_batch b;
	int side, r, e;

	if (!send || !recv || !done) {
		tap_check(0, "batch outputs: no memory");
		return;
	}
	fill_messages(send, n, size);
	mprotect(done, 4096, PROT_READ);
	munmap(done + 4096, 4096);
	for (side = 0; side < 2; side++) {
		memset(recv, 0, bytes);
		b = batch_args(sched, n, size, send, recv);
		b.done_ptr = (uintptr_t)(done + side * 4096);
		r = ioctl(fd, BFLY_IOC_BATCH, &b);
		e = errno;
		tap_check(r == -1 && e == EFAULT && b.rounds == n && b.bytes_moved == bytes &&
			  b.sub_rounds >= n && !slots_whole(send, recv, n, size),
			  "BATCH with %s done bitmap: EFAULT (got %d %s), the outputs written: %u rounds, %llu bytes moved (want %u, %llu)",
			  side ? "an unmapped" : "a read-only", r, r ? strerror(e) : "", b.rounds,
			  (unsigned long long)b.bytes_moved, n, (unsigned long long)bytes);
	}
	munmap(send, bytes);
	munmap(recv, bytes);
	munmap(done, 4096);
}

/* ---- race ---- */

struct race {
	__u8 *send, *recv;
	__u64 bytes;
	int recv_only;
	int stop, hold, held;
	unsigned long changes;
};

/* Receive pages read-only and back, send pages unmapped and mapped again */
static void *race_thread(void *arg)
{
	struct race *rc = arg;
	__u64 pages = rc->bytes / 4096, seed = 7, p, len;

	while (!LOAD(rc->stop)) {
		/* every page writable while the other thread clears the buffer */
		if (LOAD(rc->hold)) {
			STORE(rc->held, 1);
			usleep(50);
			continue;
		}
		p = xorshift64(&seed) % pages;
		len = 1 + xorshift64(&seed) % 8;
		if (p + len > pages)
			len = pages - p;
		if (rc->recv_only || xorshift64(&seed) & 1) {
			mprotect(rc->recv + p * 4096, len * 4096, PROT_READ);
			usleep(200);
			mprotect(rc->recv + p * 4096, len * 4096, PROT_READ | PROT_WRITE);
		} else {
			munmap(rc->send + p * 4096, len * 4096);
			usleep(200);
			mmap(rc->send + p * 4096, len * 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		}
		rc->changes++;
		usleep(300);
	}
	return NULL;
}

static void race_size(__u64 size, double secs)
{
	__u32 n = info.ports;
	__u64 dbytes = ((__u64)n * n + 63) / 64 * 8;
	struct race rc = { .bytes = ((__u64)n * n * size + 4095) & ~4095ULL };
	unsigned long calls = 0, ok = 0, efault = 0, other = 0, wrong = 0;
	__u64 *done = calloc(1, dbytes);
	struct bfly_batch b;
	pthread_t t;
	double end;
	int r;

	rc.send = map(rc.bytes);
	rc.recv = map(rc.bytes);
	if (!rc.send || !rc.recv || !done ||
	    pthread_create(&t, NULL, race_thread, &rc)) {
		tap_check(0, "race: no memory or thread");
		return;
	}
	end = now_s() + secs;
	while (now_s() < end || calls < 4) {
		memset(done, 0, dbytes);
		b = batch_args(sched, n, size, rc.send, rc.recv);
		b.done_ptr = (uintptr_t)done;
		r = ioctl(fd, BFLY_IOC_BATCH, &b);
		calls++;
		if (!r)
			ok++;
		else if (errno == EFAULT)
			efault++;
		else
			other++;
		/* the data races with the unmapping: the accounts only */
		if (accounts(&b, rc.send, rc.recv, done, 0, 0) < 0 ||
		    (!r && b.bytes_moved != (__u64)n * n * size))
			wrong++;
	}
	STORE(rc.stop, 1);
	pthread_join(t, NULL);
	tap_check(!other && !wrong,
		  "race, %llu-byte messages: %lu batches (%lu whole, %lu EFAULT, %lu other errors) under %lu mapping changes, %lu with wrong accounts",
		  (unsigned long long)size, calls, ok, efault, other, rc.changes, wrong);
	/* and the fabric works on */
	fill_messages(rc.send, n, size);
	memset(done, 0, dbytes);
	b = batch_args(sched, n, size, rc.send, rc.recv);
	b.done_ptr = (uintptr_t)done;
	r = ioctl(fd, BFLY_IOC_BATCH, &b);
	tap_check(r == 0 && accounts(&b, rc.send, rc.recv, done, rc.bytes, 1) == (long long)n * n,
		  "race, %llu-byte messages: a batch afterwards moves every message",
		  (unsigned long long)size);
	munmap(rc.send, rc.bytes);
	munmap(rc.recv, rc.bytes);
	free(done);
}

/* ---- signals ---- */

static void on_usr1(int sig)
{
	(void)sig;
}

/*
 * A process sending this one SIGUSR1, or SIGSTOP and 2 ms later SIGCONT,
 * every 3 to 9 ms, until pester_stop()
 */
static int *pester_quit;

static pid_t pester_start(void)
{
	pid_t parent = getpid(), child;

	if (!pester_quit) {
		pester_quit = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (pester_quit == MAP_FAILED)
			exit(2);
	}
	STORE(*pester_quit, 0);
	child = fork();
	if (child == 0) {
		for (unsigned int k = 0; !LOAD(*pester_quit); k++) {
			usleep(3000 + k % 7 * 1000);
			kill(parent, k % 3 ? SIGUSR1 : SIGSTOP);
			if (k % 3 == 0) {
				usleep(2000);
				kill(parent, SIGCONT);
			}
		}
		/* a SIGSTOP sent as this one was told to quit is undone */
		kill(parent, SIGCONT);
		_exit(0);
	}
	return child;
}

static void pester_stop(pid_t child)
{
	STORE(*pester_quit, 1);
	waitpid(child, NULL, 0);
}

static void signals_size(__u64 size, double secs)
{
	__u32 n = info.ports;
	__u64 bytes = (__u64)n * n * size, dbytes = ((__u64)n * n + 63) / 64 * 8;
	__u8 *send = map(bytes), *recv = map(bytes);
	__u64 *done = calloc(1, dbytes);
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	unsigned long calls = 0, ok = 0, eintr = 0, other = 0, wrong = 0;
	struct bfly_batch b;
	pid_t child;
	double end;
	int r;

	if (!send || !recv || !done) {
		tap_check(0, "signals: no memory");
		return;
	}
	fill_messages(send, n, size);
	sigaction(SIGUSR1, &sa, NULL);
	child = pester_start();
	end = now_s() + secs;
	while (now_s() < end || calls < 4) {
		memset(recv, 0, bytes);
		memset(done, 0, dbytes);
		b = batch_args(sched, n, size, send, recv);
		b.done_ptr = (uintptr_t)done;
		r = ioctl(fd, BFLY_IOC_BATCH, &b);
		calls++;
		if (!r)
			ok++;
		else if (errno == EINTR)
			eintr++;
		else
			other++;
		if (accounts(&b, send, recv, done, bytes, 1) < 0 ||
		    (!r && b.bytes_moved != bytes) || (r && b.rounds == n))
			wrong++;
	}
	pester_stop(child);
	tap_check(!other && !wrong,
		  "signals, %llu-byte messages: %lu batches (%lu whole, %lu EINTR, %lu other errors) under SIGUSR1, SIGSTOP and SIGCONT, %lu with wrong accounts",
		  (unsigned long long)size, calls, ok, eintr, other, wrong);
	munmap(send, bytes);
	munmap(recv, bytes);
	free(done);
}

/*
 * The all-to-all list in a batch's layout (@batch: a batch list), or each
 * source to the next @h - 1 in slots of their own, @size bytes each
 */
static __u32 hrel_list(struct bfly_msgset_msg *m, int batch, __u32 h, __u64 size)
{
	__u32 n = info.ports, i, k, c = 0;

	for (i = 0; i < n; i++)
		for (k = 0; k < (batch ? n : h); k++, c++) {
			m[c].src = i;
			m[c].dst = batch ? k : (i + 1 + k) % n;
			m[c].len = size;
			m[c].pad = 0;
			m[c].send_off = ((__u64)i * n + k) * size;
			m[c].recv_off = batch ? ((__u64)k * n + i) * size :
						((__u64)m[c].dst * n + k) * size;
		}
	return c;
}

/*
 * Messages a fault may leave whole but uncounted: one group of streaming
 * copies in flight (BFLY_MSG_GROUP), whose pieces may have written a
 * message whole before its re-copy from the faulting piece faulted.
 */
#define HREL_FAULT_UNCOUNTED 4

/*
 * An HREL that stopped or failed: the messages whose receive bytes hold
 * their send bytes, and those whose first byte was written (@touched);
 * -1 when bytes_moved is not the arrived messages' bytes (after a fault,
 * @fault: more than those, or fewer by more than HREL_FAULT_UNCOUNTED
 * messages).
 */
static long long hrel_accounts(const struct bfly_hrel *r, const struct bfly_msgset_msg *m,
			       const __u8 *send, const __u8 *recv, __u32 *touched, int fault)
{
	__u64 moved = 0;
	long long arrived = 0;
	__u32 k;

	*touched = 0;
	for (k = 0; k < r->count; k++) {
		if (!memcmp(recv + m[k].recv_off, send + m[k].send_off, m[k].len)) {
			arrived++;
			moved += m[k].len;
		} else if (recv[m[k].recv_off]) {
			(*touched)++;
		}
	}
	if (fault && r->bytes_moved <= moved &&
	    moved - r->bytes_moved <= HREL_FAULT_UNCOUNTED * (__u64)(r->count ? m[0].len : 0))
		return arrived;
	return moved == r->bytes_moved ? arrived : -1;
}

/*
 * HRELs with streaming payload under SIGUSR1, SIGSTOP and SIGCONT, or
 * (@race) while another thread makes receive pages read-only and back
 */
static void hrel_hostile(int batch, __u64 size, double secs, int race)
{
	__u32 n = info.ports, h = batch ? n : 4, count, touched;
	__u64 bytes = (__u64)n * n * size;
	__u8 *send = map(bytes), *recv = map(bytes);
	struct bfly_msgset_msg *m = calloc((size_t)n * n, sizeof(*m));
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned long calls = 0, ok = 0, eintr = 0, other = 0, wrong = 0;
	struct race rc_race = { .bytes = (bytes + 4095) & ~4095ULL, .recv_only = 1 };
	pid_t child = -1;
	struct bfly_hrel r;
	pthread_t t;
	long long arrived;
	double end;
	int rc;

	if (!send || !recv || !m) {
		tap_check(0, "hrel signals: no memory");
		return;
	}
	fill_messages(send, n, size);
	count = hrel_list(m, batch, h, size);
	sigaction(SIGUSR1, &sa, NULL);
	rc_race.send = send;
	rc_race.recv = recv;
	if (race && pthread_create(&t, NULL, race_thread, &rc_race)) {
		tap_check(0, "hrel race: no thread");
		return;
	}
	if (!race)
		child = pester_start();
	end = now_s() + secs;
	while (now_s() < end || calls < 4) {
		STORE(rc_race.held, 0);
		STORE(rc_race.hold, 1);
		while (race && !LOAD(rc_race.held))
			usleep(50);
		memset(recv, 0, bytes);
		STORE(rc_race.hold, 0);
		memset(&r, 0, sizeof(r));
		r.size = sizeof(r);
		r.count = count;
		r.msgs_ptr = (uintptr_t)m;
		r.send_ptr = (uintptr_t)send;
		r.send_bytes = bytes;
		r.recv_ptr = (uintptr_t)recv;
		r.recv_bytes = bytes;
		rc = ioctl(fd, BFLY_IOC_HREL, &r);
		calls++;
		if (!rc)
			ok++;
		else if (errno == (race ? EFAULT : EINTR))
			eintr++;
		else
			other++;
		/* a fault may leave messages in part, a signal not */
		arrived = hrel_accounts(&r, m, send, recv, &touched, race && rc);
		if (arrived < 0 || (touched && !race) || (!rc && arrived != count))
			wrong++;
	}
	if (race) {
		STORE(rc_race.stop, 1);
		pthread_join(t, NULL);
	} else {
		pester_stop(child);
	}
	tap_check(!other && !wrong,
		  "%s, HREL %s of %llu-byte messages: %lu calls (%lu whole, %lu %s, %lu other errors), %lu with wrong accounts (bytes_moved not the arrived messages'%s)",
		  race ? "race" : "signals", batch ? "batch list" : "h = 4",
		  (unsigned long long)size, calls, ok, eintr, race ? "EFAULT" : "EINTR", other,
		  wrong, race ? ", or more than 4 below them" : ", or a message in part");
	munmap(send, bytes);
	munmap(recv, bytes);
	free(m);
}

/* SIGKILL while streaming batches run: the fabric's memory comes back */
static void killed_size(__u64 size)
{
	char path[64];
	long long base;
	struct bfly_batch b;
	int st = 0, ready[2];
	pid_t child;
	char c;

	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/mem_bytes", info.id);
	base = read_num(path);
	if (pipe(ready)) {
		tap_check(0, "pipe: %s", strerror(errno));
		return;
	}
	child = fork();
	if (child == 0) {
		__u64 bytes = (__u64)info.ports * info.ports * size;
		__u8 *send = map(bytes), *recv = map(bytes);

		if (!send || !recv)
			_exit(2);
		fill_messages(send, info.ports, size);
		b = batch_args(sched, info.ports, size, send, recv);
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		for (;;)
			ioctl(fd, BFLY_IOC_BATCH, &b);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) == 1)
		usleep(50000);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	close(ready[0]);
	tap_check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && read_num(path) == base,
		  "SIGKILL during %llu-byte batches: the process dies, the fabric holds %lld bytes (before %lld)",
		  (unsigned long long)size, read_num(path), base);
}

/* ---- churn ---- */

/* An h-relation with payload: i sends to i + 1 .. i + h, @len bytes each */
static int hrel_once(__u32 h, __u32 len, __u8 *send, __u8 *recv, struct bfly_msgset_msg *m)
{
	__u32 n = info.ports, i, k;
	struct bfly_hrel r;

	for (i = 0; i < n; i++)
		for (k = 0; k < h; k++) {
			struct bfly_msgset_msg *x = &m[i * h + k];

			x->src = i;
			x->dst = (i + 1 + k) % n;
			x->len = len;
			x->pad = 0;
			x->send_off = ((__u64)i * h + k) * len;
			x->recv_off = ((__u64)x->dst * h + k) * len;
		}
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.count = n * h;
	r.msgs_ptr = (uintptr_t)m;
	r.send_ptr = (uintptr_t)send;
	r.send_bytes = (__u64)n * h * len;
	r.recv_ptr = (uintptr_t)recv;
	r.recv_bytes = r.send_bytes;
	return ioctl(fd, BFLY_IOC_HREL, &r);
}

/* Runs until ENODEV or @secs: exit 0 when every answer was 0, then ENODEV */
static int churn_child(int kind, double secs)
{
	__u32 n = info.ports, h = n < 8 ? n - 1 : 8, len = kind ? 1024 : 4096;
	__u64 bytes = (__u64)n * n * len;
	__u8 *send = map(bytes), *recv = map(bytes);
	struct bfly_msgset_msg *m = calloc((size_t)n * h, sizeof(*m));
	struct bfly_batch b;
	double end = now_s() + secs;
	int r;

	if (!send || !recv || !m)
		return 2;
	fill_messages(send, n, len);
	while (now_s() < end) {
		if (kind == 0) {
			b = batch_args(sched, n, len, send, recv);
			r = ioctl(fd, BFLY_IOC_BATCH, &b);
		} else {
			r = hrel_once(h, len, send, recv, m);
		}
		if (r && errno == ENODEV)
			return 0;
		if (r) {
			printf("# churn: %s answered %s\n", kind ? "HREL" : "BATCH",
			       strerror(errno));
			return 1;
		}
	}
	printf("# churn: no ENODEV within %.0f s\n", secs);
	return 1;
}

static void test_churn(double secs)
{
	pid_t kids[4];
	int k, st, bad = 0;

	for (k = 0; k < 4; k++) {
		kids[k] = fork();
		if (kids[k] == 0)
			_exit(churn_child(k % 2, secs));
	}
	for (k = 0; k < 4; k++) {
		if (kids[k] < 0 || waitpid(kids[k], &st, 0) != kids[k] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	tap_check(!bad, "churn: two BATCH, two HREL processes answered 0 until ENODEV (%d did not)",
		  bad);
}

int main(int argc, char **argv)
{
	double secs = argc > 3 ? atof(argv[3]) : 2;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE sizes|race|signals|churn [SECONDS]\n", argv[0]);
		return 2;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	if (!info.ports_log2)
		sched = BFLY_SCHED_SYSTOLIC;
	if (!strcmp(argv[2], "sizes")) {
		test_batch_outputs();
		test_struct_sizes();
		test_sizes();
	} else if (!strcmp(argv[2], "race")) {
		race_size(1024, secs);
		race_size(8200, secs);
		hrel_hostile(1, 1024, secs, 1);
		hrel_hostile(0, 8200, secs, 1);
	} else if (!strcmp(argv[2], "signals")) {
		signals_size(1024, secs);
		signals_size(8192, secs);
		hrel_hostile(1, 4096, secs, 0);
		hrel_hostile(0, 1024, secs, 0);
		killed_size(4096);
	} else if (!strcmp(argv[2], "churn")) {
		test_churn(secs);
	}
	close(fd);
	return tap_failed ? 1 : 0;
}
