// SPDX-License-Identifier: GPL-2.0
/*
 * hrel-test's batch lists at their edges: the all-to-all listed in order
 * in a batch's layout (which the kernel reads a chunk of 1024 messages at
 * a time and keeps nowhere on bfly2 and bfly-twice) with one message
 * changed at the chunks' borders, one field at a time; and a list whose
 * read faults at a border.
 */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "hrel-test.h"

/* Messages changed: around the borders of the read's 1024-message chunks */
#define NEAR_POSITIONS 8

/* Bytes of each message of the list */
#define NEAR_SIZE 16

/* The changes to message p (and what the model then holds) */
enum near_kind {
	NEAR_SHORT,	/* 8 bytes, the first half of its slots */
	NEAR_EMPTY,	/* no payload */
	NEAR_SEND_HALF,	/* 8 bytes from the second half of its send slot */
	NEAR_RECV_HALF,	/* 8 bytes to the second half of its receive slot */
	NEAR_SEND_OTHER, /* its send slot another pair's */
	NEAR_SWAP,	/* swapped with the message before it (message 0: after) */
	NEAR_ALL_EMPTY,	/* the only one with payload (the others offsets 0) */
	NEAR_KINDS,
};

static const char * const near_names[] = {
	"8 bytes short", "no payload", "8 bytes from the send slot's second half",
	"8 bytes to the receive slot's second half", "another pair's send slot",
	"swapped with the one before (0: after)",
	"the only one with payload",
};

/*
 * The exchange listed in order with @size-byte payload in a batch's
 * layout, message @p changed by @kind, the model rebuilt for it.
 */
static void near_list(struct rel *r, __u32 p, enum near_kind kind)
{
	__u32 n = info.ports, nn = n * n, m;
	struct bfly_msgset_msg *x, t;

	rel_alloc(r, nn);
	for (m = 0; m < nn; m++) {
		r->msgs[m].src = m / n;
		r->msgs[m].dst = m % n;
	}
	add_slots(r, NEAR_SIZE);
	x = &r->msgs[p];
	switch (kind) {
	case NEAR_SHORT:
		x->len = 8;
		break;
	case NEAR_EMPTY:
		x->len = 0;
		break;
	case NEAR_SEND_HALF:
		x->len = 8;
		x->send_off += 8;
		break;
	case NEAR_RECV_HALF:
		x->len = 8;
		x->recv_off += 8;
		break;
	case NEAR_SEND_OTHER:
		x->send_off = (x->send_off + (__u64)17 * NEAR_SIZE) % r->send_bytes;
		break;
	case NEAR_SWAP:
		t = r->msgs[p ? p - 1 : 1];
		r->msgs[p ? p - 1 : 1] = *x;
		*x = t;
		break;
	case NEAR_ALL_EMPTY:
		for (m = 0; m < nn; m++) {
			if (m == p)
				continue;
			r->msgs[m].len = 0;
			r->msgs[m].send_off = 0;
			r->msgs[m].recv_off = 0;
		}
		break;
	default:
		break;
	}
	r->total = 0;
	memset(r->want, 0xee, r->recv_bytes);
	for (m = 0; m < nn; m++) {
		x = &r->msgs[m];
		r->total += x->len;
		memcpy(r->want + x->recv_off, r->send + x->send_off, x->len);
	}
}

/* Every pair in round (src - dst) mod N, as in BFLY_IOC_BATCH's RLS rounds */
static __u32 near_rounds_off(const struct rel *r)
{
	__u32 n = info.ports, m, bad = 0;

	for (m = 0; m < r->n; m++)
		bad += r->round[m] != ((r->msgs[m].src - r->msgs[m].dst) & (n - 1));
	return bad;
}

/*
 * A refused list: -EINVAL naming message @p, nothing written (the
 * receive buffer and the rounds as they were).
 */
static void near_refused(struct rel *r, __u32 p, const char *what)
{
	struct bfly_hrel a = args(r, 3);
	__u32 m, touched = 0;
	int res, e;

	memset(r->round, 0xa5, r->n * 4ULL);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	e = errno;
	for (m = 0; m < r->n; m++)
		touched += r->round[m] != 0xa5a5a5a5;
	for (m = 0; m < r->recv_bytes; m++)
		touched += r->recv[m] != 0xee;
	tap_check(res == -1 && e == EINVAL && a.bad_msg == p && !a.bytes_moved && !touched,
		  "%s: EINVAL (got %s), bad_msg %u (want %u), %llu bytes moved, %u outputs touched",
		  what, res ? strerrorname_np(e) : "success", a.bad_msg, p,
		  (unsigned long long)a.bytes_moved, touched);
}

/*
 * The list read faulting at message @p (its page not mapped): -EFAULT,
 * nothing written.
 */
static void near_fault(__u32 p)
{
	__u32 n = info.ports, nn = n * n, m, touched = 0;
	size_t page = sysconf(_SC_PAGESIZE), head, span;
	struct bfly_msgset_msg *list;
	struct bfly_hrel a;
	struct rel r;
	char what[96];
	__u8 *map;
	int res, e;

	near_list(&r, 1, NEAR_KINDS);
	/* messages 0 .. p - 1 end a mapped page; message p starts the next */
	head = ((size_t)p * sizeof(*list) + page - 1) / page * page;
	span = head + (size_t)nn * sizeof(*list) + page;
	map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		tap_check(0, "list fault at %u: no memory", p);
		rel_free(&r);
		return;
	}
	list = (struct bfly_msgset_msg *)(map + head) - p;
	memcpy(list, r.msgs, (size_t)nn * sizeof(*list));
	mprotect(map + head, span - head, PROT_NONE);
	a = args(&r, 3);
	a.msgs_ptr = (uintptr_t)list;
	memset(r.round, 0xa5, nn * 4ULL);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	e = errno;
	for (m = 0; m < nn; m++)
		touched += r.round[m] != 0xa5a5a5a5;
	for (m = 0; m < r.recv_bytes; m++)
		touched += r.recv[m] != 0xee;
	snprintf(what, sizeof(what), "batch list, N = %u, its read faulting at message %u", n, p);
	tap_check(res == -1 && e == EFAULT && !a.bytes_moved && !touched,
		  "%s: EFAULT (got %s), %llu bytes moved, %u outputs touched", what,
		  res ? strerrorname_np(e) : "success", (unsigned long long)a.bytes_moved,
		  touched);
	munmap(map, span);
	rel_free(&r);
}

/*
 * A batch list of @size-byte messages into a receive buffer whose second
 * half (from a page border) is read-only: EFAULT, the rounds reported,
 * bytes_moved whole messages, each of which arrived whole.
 */
static void near_efault(__u32 size)
{
	__u32 n = info.ports, nn = n * n, m, whole = 0, bad = 0;
	struct bfly_hrel a;
	__u64 bytes, half;
	char what[96];
	struct rel r;
	int res, e;

	rel_alloc(&r, nn);
	for (m = 0; m < nn; m++) {
		r.msgs[m].src = m / n;
		r.msgs[m].dst = m % n;
	}
	add_slots(&r, size);
	bytes = r.recv_bytes;
	free(r.recv);
	r.recv = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.recv == MAP_FAILED) {
		tap_check(0, "efault, %u B: no memory", size);
		r.recv = NULL;
		rel_free(&r);
		return;
	}
	a = args(&r, 3);
	half = (bytes / 2 + 4095) / 4096 * 4096;
	mprotect(r.recv + half, bytes - half, PROT_READ);
	memset(r.round, 0xa5, nn * 4ULL);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	e = errno;
	mprotect(r.recv + half, bytes - half, PROT_READ | PROT_WRITE);
	for (m = 0; m < nn; m++) {
		whole += !memcmp(r.recv + r.msgs[m].recv_off, r.want + r.msgs[m].recv_off, size);
		bad += r.round[m] != ((r.msgs[m].src - r.msgs[m].dst) & (n - 1));
	}
	snprintf(what, sizeof(what), "batch list, N = %u, %u B, a read-only half", n, size);
	tap_check(res == -1 && e == EFAULT && a.rounds == n && !bad && a.bytes_moved % size == 0 &&
		  a.bytes_moved < r.total && a.bytes_moved / size <= whole,
		  "%s: EFAULT (got %s), %u rounds, %u rounds wrong, %llu bytes moved, %u messages whole",
		  what, res ? strerrorname_np(e) : "success", a.rounds, bad,
		  (unsigned long long)a.bytes_moved, whole);
	munmap(r.recv, bytes);
	r.recv = NULL;
	rel_free(&r);
}

/*
 * @r (a batch list) again with the round permutations and without
 * round_ptr (each message's round then kept nowhere): round k is
 * i -> i - k mod N, the payload the same.
 */
static void near_perms_only(struct rel *r, const char *what)
{
	__u32 n = info.ports, k, i, bad = 0;
	struct bfly_hrel a;
	int res;

	r->perm_entries = (__u64)n * n;
	r->perms = xmalloc(r->perm_entries * 4);
	a = args(r, 3);
	a.round_ptr = 0;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			bad += r->perms[k * n + i] != ((i - k) & (n - 1));
	tap_check(!res && a.rounds == n && !bad && a.bytes_moved == r->total &&
		  !memcmp(r->recv, r->want, r->recv_bytes),
		  "%s: without round_ptr, with perm_ptr: %s, %u rounds, %u entries wrong, payload %s",
		  what, res ? strerrorname_np(errno) : "0", a.rounds, bad,
		  memcmp(r->recv, r->want, r->recv_bytes) ? "wrong" : "byte-exact");
	free(r->perms);
	r->perms = NULL;
}

void part_near(void)
{
	__u32 n = info.ports, nn = n * n;
	const __u32 pos[NEAR_POSITIONS] = { 0, 1, 1023, 1024, 1025, 2047, 2048, nn - 1 };
	__u32 k, j, rounds;
	char what[128];
	struct rel r;

	if (!runs_exchange() || nn < 4096) {
		tap_check(1, "near: # SKIP wants N >= 64 on a fabric that runs the exchange");
		return;
	}
	near_list(&r, 1, NEAR_KINDS);
	snprintf(what, sizeof(what), "batch list, N = %u, %u B", n, NEAR_SIZE);
	rounds = run_check(&r, 3, what);
	tap_check(rounds == n && !near_rounds_off(&r), "%s: round (src - dst) mod N", what);
	near_perms_only(&r, what);
	rel_free(&r);
	for (j = 0; j < NEAR_POSITIONS; j++) {
		for (k = 0; k < NEAR_KINDS; k++) {
			near_list(&r, pos[j], k);
			snprintf(what, sizeof(what), "batch list, N = %u, message %u %s", n,
				 pos[j], near_names[k]);
			rounds = run_check(&r, 3, what);
			tap_check(rounds == n && !near_rounds_off(&r),
				  "%s: every pair in round (src - dst) mod N", what);
			rel_free(&r);
		}
		near_list(&r, pos[j], NEAR_KINDS);
		r.msgs[pos[j]].pad = 1;
		snprintf(what, sizeof(what), "batch list, N = %u, message %u's pad", n, pos[j]);
		near_refused(&r, pos[j], what);
		r.msgs[pos[j]].pad = 0;
		r.msgs[pos[j]].dst = n;
		snprintf(what, sizeof(what), "batch list, N = %u, message %u to port N", n,
			 pos[j]);
		near_refused(&r, pos[j], what);
		r.msgs[pos[j]].dst = pos[j] % n;
		r.msgs[pos[j]].recv_off = r.recv_bytes - 8;
		snprintf(what, sizeof(what), "batch list, N = %u, message %u past the receive end",
			 n, pos[j]);
		near_refused(&r, pos[j], what);
		rel_free(&r);
	}
	near_efault(16);
	near_efault(64);
	near_efault(4096);
	near_fault(1023);
	near_fault(1024);
	near_fault(2000);
	near_fault(nn - 1);
}

/*
 * Under a fabric_mem_max the fabric alone fills (hrel-batch.test.sh sets
 * it), the exchange listed in order without payload: E2BIG with and
 * without round_ptr, as for the list one swap from it (the general path).
 * The batch list keeps no list, but its read buffer is charged
 * (hrel.rst): nothing past the limit is allocated.
 */
void part_limit(void)
{
	static const char * const kinds[] = {
		"without round_ptr", "with round_ptr", "1023 and 1024 swapped",
	};
	__u32 n = info.ports, nn = n * n, m, k;
	struct bfly_hrel a;
	struct rel r;
	int res;

	rel_alloc(&r, nn);
	for (k = 0; k < 3; k++) {
		for (m = 0; m < nn; m++) {
			__u32 p = k == 2 && (m == 1023 || m == 1024) ? 2047 - m : m;

			r.msgs[m].src = p / n;
			r.msgs[m].dst = p % n;
		}
		a = args(&r, 3);
		if (!k)
			a.round_ptr = 0;
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		tap_check(res == -1 && errno == E2BIG && !a.h,
			  "limit: the exchange, N = %u, no payload, %s: E2BIG (got %s), h %u",
			  n, kinds[k], res ? strerrorname_np(errno) : "success", a.h);
	}
	rel_free(&r);
}

/* @r's rounds and permutations (the batch list's) against (src - dst) mod N */
static __u32 list_wrong(const struct rel *r)
{
	__u32 n = info.ports, m, bad = 0;

	for (m = 0; m < r->n; m++)
		bad += r->round[m] != ((m / n - m % n) & (n - 1)) ||
		       r->perms[m] != ((m % n - m / n) & (n - 1));
	return bad;
}

/*
 * A periodic signal during the exchange listed in order without payload
 * (a batch list, kept nowhere; N x N messages to read and rounds to
 * write): EINTR between two chunks of the read, nothing written, no
 * figure; a run to its end writes every round. Then one without signals
 * runs whole.
 */
void part_listsignal(void)
{
	struct itimerval it = { { 0, 300 }, { 0, 300 } };
	struct sigaction sa = { .sa_handler = count_signal };
	__u32 n = info.ports, nn = n * n, m, tries, eintr = 0, bad = 0, e;
	struct bfly_hrel a;
	struct rel r;
	int res;

	if (!runs_exchange()) {
		tap_check(1, "listsignal: # SKIP wants a fabric that runs the exchange");
		return;
	}
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	rel_alloc(&r, nn);
	for (m = 0; m < nn; m++) {
		r.msgs[m].src = m / n;
		r.msgs[m].dst = m % n;
	}
	r.perm_entries = nn;
	r.perms = xmalloc(nn * 4ULL);
	for (tries = 0; tries < 20 && eintr < 3; tries++) {
		a = args(&r, 3);
		memset(r.round, 0xa5, nn * 4ULL);
		memset(r.perms, 0xa5, nn * 4ULL);
		setitimer(ITIMER_REAL, &it, NULL);
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		e = errno;
		setitimer(ITIMER_REAL, &(struct itimerval){}, NULL);
		if (!res) {
			bad += a.rounds != n || list_wrong(&r);
			continue;
		}
		eintr += e == EINTR;
		for (m = 0; m < nn; m++)
			bad += r.round[m] != 0xa5a5a5a5 || r.perms[m] != 0xa5a5a5a5;
		bad += e != EINTR || a.rounds || a.h;
	}
	tap_check(eintr && !bad,
		  "listsignal, N = %u: the exchange listed in order without payload, a signal every 300 us: %u of %u stopped with EINTR (%u signals), nothing written then, every round written else (%u wrong)",
		  n, eintr, tries, __atomic_load_n(&signals_caught, __ATOMIC_RELAXED), bad);
	a = args(&r, 3);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	tap_check(!res && a.rounds == n && !list_wrong(&r),
		  "listsignal, N = %u: the next list runs whole (%s)", n,
		  res ? strerrorname_np(errno) : "0");
	rel_free(&r);
}
