// SPDX-License-Identifier: GPL-2.0
/*
 * hrel-test's parts at the payload's memory edges: messages of whole lines
 * into pages not present yet or read-only (the streaming copy's groups), a
 * batch's layout at the top of the address space, and
 * payload_stream_bytes changing under running relations, and receive
 * ranges that overlap from different starts (the block sort's units).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hrel-test.h"

/*
 * Messages of one length @len (whole lines and a 32-byte tail; 69664 B is
 * several pieces of a streaming group) from consecutive send slots to
 * shuffled receive slots, 16-byte aligned: the streaming copy moves each
 * run of four in one interleaved group. Into a receive buffer no page of
 * which is present yet: every message whole. With the receive buffer's
 * second half read-only from a page boundary: EFAULT, and bytes_moved
 * counts messages that arrived whole.
 */
static void lines_run(__u32 len, __u64 *seed)
{
	__u32 m, k, t, whole, *slot;
	__u64 bytes, half;
	struct bfly_hrel a;
	struct rel r;
	int res, e;

	union_of_perms(&r, 4, seed);
	bytes = (__u64)r.n * len;
	slot = xmalloc(r.n * 4ULL);
	for (m = 0; m < r.n; m++)
		slot[m] = m;
	for (m = r.n - 1; m > 0; m--) {
		k = xorshift64(seed) % (m + 1);
		t = slot[m];
		slot[m] = slot[k];
		slot[k] = t;
	}
	r.send_bytes = bytes;
	r.recv_bytes = bytes;
	r.send = xmalloc(bytes);
	r.want = xmalloc(bytes);
	for (m = 0; m < r.n; m++) {
		r.msgs[m].len = len;
		r.msgs[m].send_off = (__u64)m * len;
		r.msgs[m].recv_off = (__u64)slot[m] * len;
		r.total += len;
		for (k = 0; k < len; k++)
			r.send[r.msgs[m].send_off + k] = tag(m, k);
		memcpy(r.want + r.msgs[m].recv_off, r.send + r.msgs[m].send_off, len);
	}
	r.recv = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.recv == MAP_FAILED) {
		tap_check(0, "lines: no memory");
		r.recv = NULL;
		free(slot);
		rel_free(&r);
		return;
	}
	/* not args(), which would touch the receive pages */
	a = (struct bfly_hrel) {
		.size = sizeof(a), .count = r.n, .seed = 1,
		.msgs_ptr = (uintptr_t)r.msgs, .round_ptr = (uintptr_t)r.round,
		.send_ptr = (uintptr_t)r.send, .send_bytes = bytes,
		.recv_ptr = (uintptr_t)r.recv, .recv_bytes = bytes,
	};
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	tap_check(!res && a.bytes_moved == r.total && !memcmp(r.recv, r.want, bytes),
		  "lines: %u messages of %u B into receive pages not present yet: all whole (%s)",
		  r.n, len, res ? strerror(errno) : "ok");
	half = (bytes / 2 + 4095) / 4096 * 4096;
	memset(r.recv, 0xee, bytes);
	mprotect(r.recv + half, bytes - half, PROT_READ);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	e = errno;
	mprotect(r.recv + half, bytes - half, PROT_READ | PROT_WRITE);
	for (m = 0, whole = 0; m < r.n; m++)
		whole += !memcmp(r.recv + r.msgs[m].recv_off, r.send + r.msgs[m].send_off, len);
	tap_check(res == -1 && e == EFAULT && a.bytes_moved % len == 0 &&
		  a.bytes_moved < r.total && a.bytes_moved / len <= whole,
		  "lines: %u B, a read-only half: EFAULT (got %s), %llu bytes moved, %u messages whole",
		  len, res ? strerrorname_np(e) : "success", (unsigned long long)a.bytes_moved,
		  whole);
	munmap(r.recv, bytes);
	r.recv = NULL;
	free(slot);
	rel_free(&r);
}

void part_lines(void)
{
	__u64 seed = 0x11e5;

	lines_run(4128, &seed);
	lines_run(69664, &seed);
}

/*
 * One message 0 -> 0 in a batch's layout (slot 0 of both buffers) of 8,
 * 64 and 4096 bytes, the send and the receive page the last two of the
 * address space: each message lies in user memory, the N x N slots of
 * the layout would not. It arrives, as any message in its buffers does.
 */
void part_top(void)
{
	/* x86-64's TASK_SIZE_MAX with 5-level page tables, then with 4 */
	static const uintptr_t tops[] = { 0xfffffffffff000ULL, 0x7ffffffff000ULL };
	static const __u32 sizes[] = { 8, 64, 4096 };
	struct bfly_msgset_msg msg = { 0 };
	__u8 *page = MAP_FAILED, *send, *recv;
	struct bfly_hrel a;
	__u32 k, round;
	int res;

	for (k = 0; k < 2 && page == MAP_FAILED; k++) {
		page = mmap((void *)(tops[k] - 8192), 8192, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (page != MAP_FAILED && (uintptr_t)page != tops[k] - 8192) {
			munmap(page, 8192);
			page = MAP_FAILED;
		}
	}
	if (page == MAP_FAILED) {
		tap_check(1, "top: # SKIP the last two pages are taken (%s)",
			  strerrorname_np(errno));
		return;
	}
	send = page;
	recv = page + 4096;
	for (k = 0; k < 3; k++) {
		memset(send, 0x5a + k, 4096);
		memset(recv, 0xee, 4096);
		msg.len = sizes[k];
		a = (struct bfly_hrel){
			.size = sizeof(a), .count = 1, .seed = 1,
			.msgs_ptr = (uintptr_t)&msg, .round_ptr = (uintptr_t)&round,
			.send_ptr = (uintptr_t)send, .send_bytes = 4096,
			.recv_ptr = (uintptr_t)recv, .recv_bytes = 4096,
		};
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		tap_check(!res && a.bytes_moved == sizes[k] && recv[0] == 0x5a + k &&
			  recv[sizes[k] - 1] == 0x5a + k &&
			  (sizes[k] == 4096 || recv[sizes[k]] == 0xee),
			  "top (%p), N = %u, %u B: HREL %s, %llu bytes moved, the slot's bytes arrived",
			  (void *)page, info.ports, sizes[k], res ? strerrorname_np(errno) : "0",
			  (unsigned long long)a.bytes_moved);
	}
	munmap(page, 8192);
}

/*
 * Flip payload_stream_bytes between 0 and 32M until killed: a relation
 * that sized its blocks for streaming stores may reach its copy with
 * cached ones, whose blocks hold more rounds.
 */
static void flip_stream_param(void)
{
	static const char * const v[] = { "0\n", "32M\n" };
	unsigned int k;
	int f;

	f = open("/sys/module/bfly/parameters/payload_stream_bytes", O_WRONLY);
	if (f < 0)
		_exit(1);
	for (k = 0;; k++)
		if (pwrite(f, v[k & 1], strlen(v[k & 1]), 0) < 0)
			_exit(1);
}

void part_paramrace(void)
{
	struct bfly_msgset_msg msg = { .len = 8 };
	__u64 send = 0x1122334455667788ULL, recv;
	__u32 k, bad = 0, round;
	struct bfly_hrel a;
	pid_t child;
	int f;

	child = fork();
	if (!child)
		flip_stream_param();
	for (k = 0; k < 1000; k++) {
		recv = 0;
		a = (struct bfly_hrel){
			.size = sizeof(a), .count = 1, .seed = k,
			.msgs_ptr = (uintptr_t)&msg, .round_ptr = (uintptr_t)&round,
			.send_ptr = (uintptr_t)&send, .send_bytes = 8,
			.recv_ptr = (uintptr_t)&recv, .recv_bytes = 8,
		};
		if (ioctl(fd, BFLY_IOC_HREL, &a) || a.bytes_moved != 8 || recv != send)
			bad++;
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	f = open("/sys/module/bfly/parameters/payload_stream_bytes", O_WRONLY);
	tap_check(f >= 0 && write(f, "32M\n", 4) == 4, "paramrace: payload_stream_bytes=32M");
	if (f >= 0)
		close(f);
	tap_check(!bad, "paramrace, N = %u: 1000 relations, payload_stream_bytes flips: %u wrong",
		  info.ports, bad);
}

/*
 * Messages that share receive bytes without sharing a start: message m
 * lands at its destination's region plus 8 j (j random, 0 .. 7), 8 to 64
 * bytes (with @long_min 64 to 128), so they overlap in part and start in
 * different units of the block's sort (the largest power of two at most
 * its shortest message), or in one; with @spread the regions lie 256 KiB
 * apart, so the receive check sorts by radix instead of a table of
 * units. Each byte holds the latest (round, index) covering it.
 */
static void overlap_units_run(__u32 h, int long_min, int spread, __u64 *seed)
{
	__u64 region = spread ? 256 << 10 : 256;
	__u32 m, k, maxr = 0;
	struct bfly_hrel a;
	struct rel r;
	int res;

	union_of_perms(&r, h, seed);
	r.send_bytes = (__u64)r.n * 128;
	r.recv_bytes = (__u64)info.ports * region;
	r.send = xmalloc(r.send_bytes);
	r.recv = xmalloc(r.recv_bytes);
	r.want = xmalloc(r.recv_bytes);
	for (m = 0; m < r.n; m++) {
		r.msgs[m].len = long_min ? 64 + 8 * (xorshift64(seed) % 9) :
					   8 * (1 + xorshift64(seed) % 8);
		r.msgs[m].send_off = (__u64)m * 128;
		r.msgs[m].recv_off = r.msgs[m].dst * region + 8 * (xorshift64(seed) % 8);
		r.total += r.msgs[m].len;
		for (k = 0; k < r.msgs[m].len; k++)
			r.send[r.msgs[m].send_off + k] = tag(m, k);
	}
	a = args(&r, h);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	memset(r.want, 0xee, r.recv_bytes);
	for (m = 0; m < r.n && !res; m++)
		maxr = r.round[m] > maxr ? r.round[m] : maxr;
	for (k = 0; k <= maxr && !res; k++)
		for (m = 0; m < r.n; m++)
			if (r.round[m] == k)
				memcpy(r.want + r.msgs[m].recv_off, r.send + r.msgs[m].send_off,
				       r.msgs[m].len);
	tap_check(!res && a.bytes_moved == r.total && !memcmp(r.recv, r.want, r.recv_bytes),
		  "overlap by units, h = %u, %s B, regions %llu B apart: %s, %llu of %llu bytes moved, each byte the latest round's",
		  h, long_min ? "64-128" : "8-64", (unsigned long long)region,
		  res ? strerrorname_np(errno) : "ran", (unsigned long long)a.bytes_moved,
		  (unsigned long long)r.total);
	rel_free(&r);
}

void part_overlap_units(void)
{
	__u64 seed = 0x0417;
	__u32 h;

	for (h = 2; h <= 8; h *= 2) {
		overlap_units_run(h, 0, 0, &seed);
		overlap_units_run(h, 1, 0, &seed);
		overlap_units_run(h, 0, 1, &seed);
		overlap_units_run(h, 1, 1, &seed);
	}
}

#define FABRIC_MEM_MAX "/sys/module/bfly/parameters/fabric_mem_max"

/*
 * @r under fabric_mem_max @max, with the round permutations or without
 * (@perms): its receive buffer, rounds and permutations filled first, so
 * that what the ioctl left is read after. Returns the ioctl's result.
 */
static int run_under(struct rel *r, long long max, int perms, struct bfly_hrel *a)
{
	int res;

	write_num(FABRIC_MEM_MAX, max);
	*a = args(r, 3);
	if (!perms) {
		a->perm_ptr = 0;
		a->perm_entries = 0;
	}
	memset(r->round, 0xa5, r->n * 4ULL);
	memset(r->perms, 0xa5, r->perm_entries * 4);
	res = ioctl(fd, BFLY_IOC_HREL, a);
	return res ? errno : 0;
}

/* The least fabric_mem_max @r runs under, from @lo (refused) to @hi (runs). */
static long long least_limit(struct rel *r, int perms, long long lo, long long hi)
{
	struct bfly_hrel a;

	while (hi - lo > 1) {
		long long mid = lo + (hi - lo) / 2;

		if (run_under(r, mid, perms, &a))
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* Nothing written: the receive buffer, rounds and permutations as filled. */
static int untouched(const struct rel *r, const struct bfly_hrel *a)
{
	__u64 k;

	for (k = 0; k < r->recv_bytes; k++)
		if (r->recv[k] != 0xee)
			return 0;
	for (k = 0; k < r->n; k++)
		if (r->round[k] != 0xa5a5a5a5)
			return 0;
	for (k = 0; k < r->perm_entries; k++)
		if (r->perms[k] != 0xa5a5a5a5)
			return 0;
	return !a->bytes_moved && !a->rounds;
}

/*
 * The round permutations' buffer (N entries, filled round by round) is
 * charged to the memory limits as any buffer of the request: under the
 * least fabric_mem_max the relation runs under without perm_ptr, with
 * perm_ptr E2BIG and nothing written (no figure, no round: the payload's
 * scratch, the last buffer, is charged before the report); it runs under
 * that limit plus the buffer's N x 4 bytes (a slab size for N = 64).
 */
static void permlimit_run(struct rel *r, const char *what)
{
	long long own, old = read_num(FABRIC_MEM_MAX), least, hi;
	__u32 n = info.ports, bytes = n * 4;
	struct bfly_hrel a;
	char path[96];
	int e;

	snprintf(path, sizeof(path), "/sys/class/bfly/%s/mem_bytes", strrchr(dev, '/') + 1);
	own = read_num(path);
	e = run_under(r, old, 1, &a);
	r->perm_entries = (__u64)a.rounds * n;
	free(r->perms);
	r->perms = xmalloc(r->perm_entries * 4);
	/* a short search: from 1 MiB over the fabric's own where that runs */
	hi = own + (1 << 20);
	if (run_under(r, hi, 0, &a))
		hi = old;
	least = least_limit(r, 0, own, hi);
	e = run_under(r, least, 1, &a);
	tap_check(e == E2BIG && untouched(r, &a),
		  "permlimit, %s: under the least fabric_mem_max it runs under without perm_ptr (%lld B over the fabric's own), with perm_ptr: E2BIG (got %s), nothing written",
		  what, least - own, e ? strerrorname_np(e) : "success");
	/* N x 4 bytes a slab size: the buffer's charge is exactly that */
	if (bytes >= 8 && bytes <= 4096 && !(bytes & (bytes - 1))) {
		e = run_under(r, least + bytes - 1, 1, &a);
		tap_check(e == E2BIG && untouched(r, &a),
			  "permlimit, %s: with perm_ptr, N x 4 - 1 = %u B more: E2BIG (got %s), nothing written",
			  what, bytes - 1, e ? strerrorname_np(e) : "success");
		least += bytes;
	} else {
		least = least_limit(r, 1, least, hi);
	}
	e = run_under(r, least, 1, &a);
	tap_check(!e && a.rounds && (!r->send || !memcmp(r->recv, r->want, r->recv_bytes)),
		  "permlimit, %s: with perm_ptr, N x 4 B more: runs (%s)", what,
		  e ? strerrorname_np(e) : "0");
	write_num(FABRIC_MEM_MAX, old);
}

void part_permlimit(void)
{
	__u32 n = info.ports, m;
	__u64 seed = 0x9e3;
	struct rel r;

	union_of_perms(&r, 4, &seed);
	add_payload(&r, 64, &seed);
	permlimit_run(&r, "4 permutations with payload");
	rel_free(&r);
	rel_alloc(&r, n * n);
	for (m = 0; m < n * n; m++) {
		r.msgs[m].src = m / n;
		r.msgs[m].dst = m % n;
	}
	permlimit_run(&r, "the exchange listed in order, no payload");
	add_slots(&r, 8);
	permlimit_run(&r, "the exchange listed in order, 8 B in a batch's layout");
	rel_free(&r);
}
