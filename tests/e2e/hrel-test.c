// SPDX-License-Identifier: GPL-2.0
/*
 * BFLY_IOC_HREL end to end, on the fabric behind a device:
 *
 *   hrel-test DEV run       random h-relations with tagged payload of many
 *                           lengths checked byte by byte against a model;
 *                           h, colours, rounds (h on benes and flatfly,
 *                           h or more elsewhere), each message's round and each
 *                           round's partial permutation; h = 1, all-to-all
 *                           (h = N) in order and almost (the same rounds
 *                           where still the exchange), the all-to-all in a
 *                           batch's layout (the batch's block copy) and
 *                           lists almost like it, all h messages
 *                           of a source to one destination
 *   hrel-test DEV bad       bad input: errno, bad_msg, nothing written
 *   hrel-test DEV refused   a fabric that runs none (one with a fault):
 *                           EOPNOTSUPP, nothing written
 *   hrel-test DEV hxn       h x N past 2^30 (N = 65536): E2BIG, h reported
 *   hrel-test DEV signal    a periodic signal during long relations:
 *                           EINTR, whole rounds moved, bytes_moved agrees
 *   hrel-test DEV table     rounds and cycles against h for the docs
 *   hrel-test DEV overlap   messages that share receive bytes: the later
 *                           round's bytes remain (in one round the later
 *                           message's), though rounds move in blocks
 *   hrel-test DEV lines     messages of one length, whole lines and a
 *                           tail, to shuffled slots (the streaming copy's
 *                           interleaved groups): into pages not present
 *                           yet, and a read-only half: EFAULT, bytes_moved
 *                           whole messages that arrived
 *   hrel-test DEV top       one message in a batch's layout, its buffers
 *                           at the top of the address space, where the
 *                           N x N slots would pass its end: it arrives
 *   hrel-test DEV paramrace one message in a batch's layout, run again and
 *                           again while a child flips payload_stream_bytes
 *                           between 0 and 32M (N = 1024: a block holds
 *                           more rounds with cached stores): each arrives
 *   hrel-test DEV near      the exchange in a batch's layout with one
 *                           message changed at the read's chunk borders
 *                           (length, offsets, order, pad, port), and its
 *                           read faulting there: payload, rounds, refusals
 *   hrel-test DEV units     messages sharing receive bytes from different
 *                           starts, mixed lengths, regions near or far
 *                           apart: each byte the latest round's
 *   hrel-test DEV limit     the exchange without payload under a
 *                           fabric_mem_max the fabric fills: E2BIG
 *   hrel-test DEV permlimit the round permutations' buffer charged: under
 *                           the least fabric_mem_max a relation runs under
 *                           without perm_ptr, with it E2BIG, nothing written
 *   hrel-test DEV listsignal a periodic signal during the exchange listed
 *                           in order without payload (a batch list):
 *                           EINTR, nothing written
 */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>

#include "hrel-test.h"

struct bfly_info info;
int fd;
const char *dev;

/*
 * The all-to-all (h = N) listed in order, source by source (the kernel
 * takes the exchange's rounds without a look at the pairs), then lists
 * almost like it: reversed, the first two messages swapped, the last one
 * missing, one pair twice. Each runs with payload of random lengths to
 * shuffled receive slots, checked against its model; where the fabric
 * runs the exchange as a batch does, the lists that are still the
 * exchange give every pair the round of the list in order.
 */
static void part_a2a(__u64 *seed)
{
	static const char * const kinds[] = {
		"listed in order", "reversed", "first two swapped", "last missing",
		"one pair twice",
	};
	__u32 n = info.ports, nn = n * n, m, p, k, rounds, ref_rounds = 0, bad;
	__u32 *ref = xmalloc(nn * 4ULL);
	char what[96];
	struct rel r;

	for (k = 0; k < 5; k++) {
		rel_alloc(&r, k == 3 ? nn - 1 : nn);
		for (m = 0; m < r.n; m++) {
			p = k == 1 ? nn - 1 - m : k == 2 && m < 2 ? 1 - m : m;
			r.msgs[m].src = p / n;
			r.msgs[m].dst = p % n;
		}
		if (k == 4)
			r.msgs[nn - 1].dst = 0;
		add_payload(&r, 24, seed);
		snprintf(what, sizeof(what), "all-to-all, N = %u, %s", n, kinds[k]);
		rounds = run_check(&r, 9, what);
		if (k == 0) {
			ref_rounds = rounds;
			memcpy(ref, r.round, nn * 4ULL);
		}
		if (k && k < 3 && runs_exchange()) {
			for (m = 0, bad = 0; m < r.n; m++)
				bad += r.round[m] != ref[r.msgs[m].src * n + r.msgs[m].dst];
			tap_check(rounds == ref_rounds && !bad,
				  "%s: the rounds of the list in order (%u rounds, %u of %u pairs differ)",
				  what, rounds, bad, nn);
		}
		rel_free(&r);
	}
	free(ref);
}

/*
 * The all-to-all with its payload in a batch's layout, which the kernel
 * moves with the batch's own block copy: listed in order, reversed, one
 * pair twice, each against its model; then lists almost like it that take
 * the general copy (one message 8 bytes short; the list in order and one
 * message of no payload more), byte for byte the same bytes where they
 * send the same.
 */
static void part_slots(void)
{
	static const char * const kinds[] = {
		"listed in order", "reversed", "one pair twice", "one message 8 bytes short",
		"one empty message more",
	};
	__u32 n = info.ports, nn = n * n, m, p, k, size = 24;
	__u8 *ref = NULL;
	char what[112];
	struct rel r;

	for (k = 0; k < 5; k++) {
		rel_alloc(&r, k == 4 ? nn + 1 : nn);
		for (m = 0; m < nn; m++) {
			p = k == 1 ? nn - 1 - m : m;
			r.msgs[m].src = p / n;
			r.msgs[m].dst = p % n;
		}
		if (k == 2)
			r.msgs[nn - 1].dst = 0;
		add_slots(&r, size);
		if (k == 3) {
			/* the last 8 bytes of message 5's slot stay 0xee */
			r.msgs[5].len -= 8;
			r.total -= 8;
			memset(r.want + r.msgs[5].recv_off + r.msgs[5].len, 0xee, 8);
		}
		if (k == 4) {
			r.msgs[nn].src = 1;
			r.msgs[nn].dst = 2;
		}
		snprintf(what, sizeof(what), "batch layout, N = %u, %u B, %s", n, size, kinds[k]);
		run_check(&r, 3, what);
		if (k == 0) {
			ref = xmalloc(r.recv_bytes);
			memcpy(ref, r.recv, r.recv_bytes);
		}
		if (k == 1 || k == 4)
			tap_check(!memcmp(ref, r.recv, r.recv_bytes),
				  "%s: the receive buffer of the list in order, byte for byte",
				  what);
		rel_free(&r);
	}
	free(ref);
}

static void part_run(void)
{
	__u32 n = info.ports, h, m, i;
	__u64 seed = 0x4e1;
	char what[80];
	struct rel r;

	for (h = 1; h <= 8; h *= 2) {
		union_of_perms(&r, h, &seed);
		add_payload(&r, 300, &seed);
		snprintf(what, sizeof(what), "%s%u random permutations", h == 1 ? "h = 1: " : "",
			 h);
		run_check(&r, seed, what);
		rel_free(&r);
	}
	/* Random pairs: degrees differ from processor to processor */
	rel_alloc(&r, 3 * n);
	for (m = 0; m < r.n; m++) {
		r.msgs[m].src = xorshift64(&seed) % n;
		r.msgs[m].dst = xorshift64(&seed) % n;
	}
	add_payload(&r, 1000, &seed);
	run_check(&r, 5, "3N random pairs");
	rel_free(&r);
	if (n <= 128) {
		part_a2a(&seed);
		part_slots();
	}
	/* Every source sends its h messages to one destination */
	h = 6;
	rel_alloc(&r, h * n);
	{
		__u32 *p = xmalloc(n * 4ULL);

		random_perm(p, n, &seed);
		for (i = 0; i < n; i++)
			for (m = 0; m < h; m++) {
				r.msgs[i * h + m].src = i;
				r.msgs[i * h + m].dst = p[i];
			}
		free(p);
	}
	add_payload(&r, 64, &seed);
	run_check(&r, 11, "one-to-one: all 6 messages of a source to one destination");
	rel_free(&r);
	/* Whole rounds only: room for all but one entry */
	union_of_perms(&r, 3, &seed);
	{
		struct bfly_hrel a = args(&r, 1);
		__u32 rounds;

		tap_check(!ioctl(fd, BFLY_IOC_HREL, &a), "perms: a 3-relation");
		rounds = a.rounds;
		r.perm_entries = (__u64)rounds * n - 1;
		r.perms = xmalloc(r.perm_entries * 4);
		memset(r.perms, 0x5a, r.perm_entries * 4);
		a = args(&r, 1);
		tap_check(!ioctl(fd, BFLY_IOC_HREL, &a) &&
			  r.perms[r.perm_entries - 1] == 0x5a5a5a5a &&
			  r.perms[(rounds - 1ULL) * n - 1] != 0x5a5a5a5a,
			  "perms: room for %u rounds less one entry: the last round not written",
			  rounds);
	}
	rel_free(&r);
}

/* The fabric's matrix generation (GET_MATRIX; port maps on an LCAN). */
static __u64 generation(void)
{
	struct bfly_matrix a = { .size = sizeof(a) };
	__u64 gen = ~0ULL;

	a.matrix_bytes = info.port_map_bytes ?: BFLY_MATRIX_BYTES(info.switches);
	a.flags = info.port_map_bytes ? BFLY_MATRIX_PORT_MAP : 0;
	a.matrix_ptr = (uintptr_t)xmalloc(a.matrix_bytes);
	if (!ioctl(fd, BFLY_IOC_GET_MATRIX, &a))
		gen = a.generation;
	free((void *)(uintptr_t)a.matrix_ptr);
	return gen;
}

/* One refused request: @want errno, @bad_msg where one is named, nothing written. */
static void refused_on(int f, struct rel *r, struct bfly_hrel *a, int want, __u32 bad_msg,
		       const char *what)
{
	__u64 gen = generation();
	__u8 *before = r->recv ? xmalloc(r->recv_bytes) : NULL;
	__u32 *round = xmalloc(r->n * 4ULL);
	int res, e, same;

	if (before) {
		memset(r->recv, 0x5a, r->recv_bytes);
		memcpy(before, r->recv, r->recv_bytes);
	}
	memset(r->round, 0x77, r->n * 4ULL);
	memcpy(round, r->round, r->n * 4ULL);
	res = ioctl(f, BFLY_IOC_HREL, a);
	e = errno;
	same = (!before || !memcmp(before, r->recv, r->recv_bytes)) &&
	       !memcmp(round, r->round, r->n * 4ULL) && gen != ~0ULL && generation() == gen;
	tap_check(res == -1 && e == want && (bad_msg == ~0U || a->bad_msg == bad_msg) &&
		  !a->bytes_moved && same,
		  "HREL refuses %s: errno %s (got %s), bad_msg %u, nothing written (%s)", what,
		  strerrorname_np(want), res ? strerrorname_np(e) : "success", a->bad_msg,
		  same ? "yes" : "no");
	free(before);
	free(round);
}

#define refused(r, a, want, bad, what) refused_on(fd, r, a, want, bad, what)

/*
 * @r's list and outputs at their edges: a count one past a list that ends
 * at an unmapped page (EFAULT, nothing written); a message of no payload
 * whose offsets lie past both buffers and are no multiple of 8 (runs:
 * offsets count with a length only); perm_entries one short of the
 * rounds (whole rounds only, the last one's entries untouched); perm_ptr
 * unmapped (EFAULT after the payload moved, bytes_moved written).
 */
static void part_bad_list(struct rel *r)
{
	size_t bytes = (size_t)r->n * sizeof(*r->msgs), span = (bytes + 4095) / 4096 * 4096;
	__u8 *map = mmap(NULL, span + 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	__u32 n = info.ports, keep_len, rounds, k, last = r->n - 1, bad = 0;
	__u64 keep_send, keep_recv;
	struct bfly_msgset_msg *msgs = r->msgs;
	struct bfly_hrel a;
	int res;

	if (map == MAP_FAILED) {
		tap_check(0, "bad list: no memory");
		return;
	}
	munmap(map + span, 4096);
	r->msgs = (struct bfly_msgset_msg *)(map + span - bytes);
	memcpy(r->msgs, msgs, bytes);
	a = args(r, 1);
	a.count = r->n + 1;
	refused(r, &a, EFAULT, ~0U, "count one past a list that ends at an unmapped page");
	r->msgs = msgs;
	munmap(map, span);

	keep_len = msgs[last].len;
	keep_send = msgs[last].send_off;
	keep_recv = msgs[last].recv_off;
	msgs[last].len = 0;
	msgs[last].send_off = r->send_bytes + 4;
	msgs[last].recv_off = ~0ULL;
	r->total -= keep_len;
	memset(r->want + keep_recv, 0xee, keep_len);
	a = args(r, 1);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	tap_check(!res && a.bytes_moved == r->total && !memcmp(r->recv, r->want, r->recv_bytes),
		  "a message of no payload, its offsets past both buffers and misaligned: runs (%s), %llu of %llu bytes moved",
		  res ? strerrorname_np(errno) : "0", (unsigned long long)a.bytes_moved,
		  (unsigned long long)r->total);
	msgs[last].len = keep_len;
	msgs[last].send_off = keep_send;
	msgs[last].recv_off = keep_recv;
	r->total += keep_len;
	memcpy(r->want + keep_recv, r->send + keep_send, keep_len);

	a = args(r, 1);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	rounds = res ? 0 : a.rounds;
	r->perm_entries = (__u64)rounds * n - 1;
	r->perms = xmalloc(r->perm_entries * 4);
	memset(r->perms, 0x77, r->perm_entries * 4);
	a = args(r, 1);
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	for (k = (rounds - 1) * n; k < r->perm_entries; k++)
		bad += r->perms[k] != 0x77777777;
	for (k = 0; k < (rounds - 1) * n; k++)
		bad += r->perms[k] == 0x77777777;
	tap_check(rounds && !res && !bad,
		  "perm_entries one short of %u rounds: %u whole rounds written, the last untouched (%u entries wrong)",
		  rounds, rounds - 1, bad);
	free(r->perms);
	r->perms = NULL;
	r->perm_entries = 0;

	a = args(r, 1);
	a.perm_ptr = (uintptr_t)(map + span);
	a.perm_entries = (__u64)rounds * n;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	tap_check(res == -1 && errno == EFAULT && a.bytes_moved == r->total &&
		  !memcmp(r->recv, r->want, r->recv_bytes),
		  "perm_ptr unmapped: EFAULT (got %s) after the payload moved (%llu of %llu bytes)",
		  res ? strerrorname_np(errno) : "success", (unsigned long long)a.bytes_moved,
		  (unsigned long long)r->total);
}

static void part_bad(void)
{
	__u32 n = info.ports, m, len;
	__u64 seed = 0xbad;
	struct bfly_hrel a, b;
	struct rel r;
	__u8 big[256], *both;

	union_of_perms(&r, 2, &seed);
	add_payload(&r, 40, &seed);
	b = args(&r, 1);
	tap_check(!ioctl(fd, BFLY_IOC_HREL, &b), "bad: the good relation runs");
	b = args(&r, 1);

	a = b;
	a.count = 0;
	refused(&r, &a, EINVAL, ~0U, "count 0");
	a = b;
	a.count = BFLY_HREL_MAX_MSGS + 1;
	refused(&r, &a, E2BIG, ~0U, "more than 2^24 messages");
	a = b;
	a.count = BFLY_HREL_MAX_MSGS;
	refused(&r, &a, E2BIG, ~0U, "2^24 messages: more memory than fabric_mem_max");
	a = b;
	a.flags = 1;
	refused(&r, &a, EINVAL, ~0U, "flags 1");
	a = b;
	a.pad = 1;
	refused(&r, &a, EINVAL, ~0U, "the struct's pad set");
	a = b;
	a.reserved[1] = 1;
	refused(&r, &a, EINVAL, ~0U, "a reserved word set");
	a = b;
	a.msgs_ptr = 0;
	refused(&r, &a, EINVAL, ~0U, "no messages pointer");
	a = b;
	a.msgs_ptr = 8;
	refused(&r, &a, EFAULT, ~0U, "messages at a bad address");
	a = b;
	a.send_bytes = 0;
	refused(&r, &a, EINVAL, ~0U, "send_ptr without send_bytes");
	a = b;
	a.recv_ptr = 0;
	refused(&r, &a, EINVAL, ~0U, "recv_bytes without recv_ptr");
	a = b;
	a.perm_ptr = (uintptr_t)big;
	refused(&r, &a, EINVAL, ~0U, "perm_ptr without perm_entries");
	a = b;
	a.perm_entries = n;
	refused(&r, &a, EINVAL, ~0U, "perm_entries without perm_ptr");
	a = b;
	a.recv_ptr += 4;
	a.recv_bytes -= 8;
	refused(&r, &a, EINVAL, ~0U, "a misaligned receive buffer");
	a = b;
	a.send_ptr += 4;
	a.send_bytes -= 8;
	refused(&r, &a, EINVAL, ~0U, "a misaligned send buffer");
	both = xmalloc(r.send_bytes + r.recv_bytes);
	memcpy(both, r.send, r.send_bytes);
	a = b;
	a.send_ptr = (uintptr_t)both;
	a.recv_ptr = a.send_ptr + a.send_bytes - 8;
	refused(&r, &a, EINVAL, ~0U, "a receive buffer over the send buffer's last word");
	a = b;
	a.recv_ptr = (uintptr_t)both;
	a.send_ptr = a.recv_ptr + a.recv_bytes - 8;
	refused(&r, &a, EINVAL, ~0U, "a send buffer over the receive buffer's last word");
	free(both);
	a = b;
	a.size = BFLY_HREL_SIZE_VER0 - 8;
	refused(&r, &a, EINVAL, ~0U, "size below the first version");

	/* Bad messages: the first one is named */
	a = b;
	r.msgs[n / 2].src = n;
	refused(&r, &a, EINVAL, n / 2, "a source past the last port");
	r.msgs[n / 2].src = 0;
	r.msgs[n - 1].dst = ~0U;
	refused(&r, &a, EINVAL, n - 1, "a destination past the last port");
	r.msgs[n - 1].dst = 0;
	r.msgs[3].pad = 1;
	refused(&r, &a, EINVAL, 3, "a message's pad set");
	r.msgs[2].src = n;
	refused(&r, &a, EINVAL, 2, "a bad source before a bad pad: the first is named");
	r.msgs[2].src = 2;
	r.msgs[3].pad = 0;
	m = r.n - 1;
	r.msgs[m].recv_off = r.recv_bytes;
	refused(&r, &a, EINVAL, m, "a payload past the receive buffer's end");
	r.msgs[m].recv_off = 4;
	refused(&r, &a, EINVAL, m, "a receive offset no multiple of 8");
	r.msgs[m].recv_off = 8;
	r.msgs[m].send_off = r.send_bytes;
	refused(&r, &a, EINVAL, m, "a payload past the send buffer's end");
	r.msgs[m].send_off = 12;
	refused(&r, &a, EINVAL, m, "a send offset no multiple of 8");
	r.msgs[m].send_off = ~0ULL - 7;
	refused(&r, &a, EINVAL, m, "send_off + len past 2^64 (wraps)");
	r.msgs[m].send_off = 0;
	r.msgs[m].recv_off = ~0ULL - 7;
	refused(&r, &a, EINVAL, m, "recv_off + len past 2^64 (wraps)");
	r.msgs[m].recv_off = 8;
	len = r.msgs[m].len;
	r.msgs[m].len = ~0U;
	refused(&r, &a, EINVAL, m, "len 2^32 - 1: past both buffers");
	r.msgs[m].len = len;
	r.msgs[m].send_off = 0;
	a.recv_ptr = 0;
	a.recv_bytes = 0;
	refused(&r, &a, EINVAL, 0, "payload without a receive buffer");

	rel_free(&r);
	union_of_perms(&r, 2, &seed);
	add_payload(&r, 40, &seed);
	part_bad_list(&r);

	/* Sizes: the first version works, a longer struct needs a zero tail */
	rel_free(&r);
	union_of_perms(&r, 2, &seed);
	b = args(&r, 1);
	b.size = BFLY_HREL_SIZE_VER0;
	m = ioctl(fd, BFLY_IOC_HREL, &b);
	tap_check(!m && b.h == 2 && b.size == BFLY_HREL_SIZE_VER0,
		  "size BFLY_HREL_SIZE_VER0 (%u) works: h %u", BFLY_HREL_SIZE_VER0, b.h);
	memset(big, 0, sizeof(big));
	b = args(&r, 1);
	memcpy(big, &b, sizeof(b));
	((struct bfly_hrel *)big)->size = sizeof(big);
	tap_check(!ioctl(fd, BFLY_IOC_HREL, big), "a longer struct with a zero tail works");
	big[sizeof(b) + 3] = 1;
	((struct bfly_hrel *)big)->size = sizeof(big);
	{
		__u64 gen = generation();
		int res = ioctl(fd, BFLY_IOC_HREL, big), e = errno;

		tap_check(res == -1 && e == E2BIG && generation() == gen,
			  "a longer struct with a non-zero tail: E2BIG (got %s)",
			  res ? strerrorname_np(e) : "success");
	}

	/* Read-only: a relation without payload runs, one with payload EBADF */
	{
		int ro = open(dev, O_RDONLY);

		rel_free(&r);
		union_of_perms(&r, 2, &seed);
		a = args(&r, 3);
		tap_check(ro >= 0 && !ioctl(ro, BFLY_IOC_HREL, &a) && a.h == 2,
			  "read-only: a relation without payload runs");
		add_payload(&r, 16, &seed);
		a = args(&r, 3);
		refused_on(ro, &r, &a, EBADF, ~0U, "payload on a read-only descriptor");
		close(ro);
	}
	rel_free(&r);
}

/* A fabric that runs no h-relation: EOPNOTSUPP, nothing written. */
static void part_refused(void)
{
	__u64 seed = 7;
	struct bfly_hrel a;
	struct rel r;

	union_of_perms(&r, 1, &seed);
	add_payload(&r, 16, &seed);
	a = args(&r, 1);
	refused(&r, &a, EOPNOTSUPP, ~0U, "this fabric");
	rel_free(&r);
}

/* h x N past 2^30: 16384 messages to one port of 65536. */
static void part_hxn(void)
{
	__u32 h = (1U << 30) / info.ports, m;
	struct bfly_hrel a;
	struct rel r;

	rel_alloc(&r, h);
	for (m = 0; m < h; m++)
		r.msgs[m].src = m % info.ports;
	a = args(&r, 1);
	refused(&r, &a, E2BIG, ~0U, "h x N = 2^30");
	tap_check(a.h == h, "h x N: the refusal reports h %u (want %u)", a.h, h);
	rel_free(&r);
}

/*
 * A periodic signal during @r: EINTR. The payload stops between blocks of
 * rounds (within a block moving round by round, between two messages):
 * what arrived is a prefix of the order by (round, index), each message
 * whole.
 */
static void signal_runs(struct rel *r, const char *what)
{
	struct itimerval it = { { 0, 300 }, { 0, 300 } };
	__u32 tries, eintr = 0, midway = 0, bad = 0, m, k;

	printf("# signal, %s: %u messages, %llu payload bytes\n", what, r->n,
	       (unsigned long long)r->total);
	for (tries = 0; tries < 20; tries++) {
		struct bfly_hrel a = args(r, tries);
		__u64 arrived = 0, lastin = 0, firstout = ~0ULL;
		int res;

		memset(r->round, 0xff, r->n * 4ULL);
		setitimer(ITIMER_REAL, &it, NULL);
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		k = errno;
		setitimer(ITIMER_REAL, &(struct itimerval){}, NULL);
		if (!res) {
			bad += memcmp(r->recv, r->want, r->recv_bytes) != 0;
			continue;
		}
		eintr += k == EINTR;
		bad += k != EINTR;
		/* Each message whole or untouched; the moved ones a prefix by (round, index) */
		for (m = 0; m < r->n; m++) {
			__u64 key = (__u64)r->round[m] * r->n + m;
			const struct bfly_msgset_msg *x = &r->msgs[m];
			int in = !memcmp(r->recv + x->recv_off, r->want + x->recv_off, x->len);
			const __u8 *at = r->recv + x->recv_off;
			int out = at[0] == 0xee && at[x->len - 1] == 0xee;

			bad += in == out;
			arrived += in ? x->len : 0;
			if (in && key + 1 > lastin)
				lastin = key + 1;
			if (!in && key < firstout)
				firstout = key;
		}
		bad += arrived != a.bytes_moved || (arrived && lastin > firstout);
		midway += arrived != 0;
	}
	tap_check(eintr > 0 && !bad,
		  "signal, %s: %u of %u relations stopped with EINTR (%u signals, %u amid the payload), each moved whole messages in order, bytes_moved what arrived (%u wrong)",
		  what, eintr, tries, __atomic_load_n(&signals_caught, __ATOMIC_RELAXED), midway,
		  bad);
	{
		struct bfly_hrel a = args(r, 0);

		tap_check(!ioctl(fd, BFLY_IOC_HREL, &a) && a.bytes_moved == r->total &&
			  !memcmp(r->recv, r->want, r->recv_bytes),
			  "signal, %s: the next relation runs whole", what);
	}
}

/*
 * Signals during a random 32-relation with payload of random lengths, and
 * during the all-to-all in a batch's layout (the batch's block copy).
 */
static void part_signal(void)
{
	struct sigaction sa = { .sa_handler = count_signal };
	__u64 seed = 0x516;
	__u32 n = info.ports, m;
	struct rel r;

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	union_of_perms(&r, 32, &seed);
	add_payload(&r, 16384, &seed);
	signal_runs(&r, "random lengths");
	rel_free(&r);
	if (n > 128)
		return;
	rel_alloc(&r, n * n);
	for (m = 0; m < n * n; m++) {
		r.msgs[m].src = m / n;
		r.msgs[m].dst = m % n;
	}
	add_slots(&r, 4096);
	signal_runs(&r, "all-to-all in a batch's layout");
	rel_free(&r);
}

/*
 * Messages that share receive bytes: every message to destination d lands
 * at d's one 64-byte slot, 8 to 64 bytes of it, so they overlap in part or
 * whole. Each byte must hold the message with the latest (round, index)
 * among those covering it, as the interface promises, whatever order the
 * payload of a block of rounds takes.
 */
static void part_overlap(void)
{
	__u64 seed = 0x0e1a, b;
	__u32 h, m, k, bad;
	struct bfly_hrel a;
	struct rel r;
	int res;

	for (h = 2; h <= 8; h *= 2) {
		union_of_perms(&r, h, &seed);
		r.send_bytes = (__u64)r.n * 64;
		r.recv_bytes = (__u64)info.ports * 64;
		r.send = xmalloc(r.send_bytes);
		r.recv = xmalloc(r.recv_bytes);
		r.want = xmalloc(r.recv_bytes);
		for (m = 0; m < r.n; m++) {
			r.msgs[m].len = 8 * (1 + xorshift64(&seed) % 8);
			r.msgs[m].send_off = (__u64)m * 64;
			r.msgs[m].recv_off = (__u64)r.msgs[m].dst * 64;
			r.total += r.msgs[m].len;
			for (k = 0; k < r.msgs[m].len; k++)
				r.send[r.msgs[m].send_off + k] = tag(m, k);
		}
		a = args(&r, h);
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		tap_check(!res && a.bytes_moved == r.total,
			  "overlap, h = %u: ran, %llu of %llu bytes moved (%s)", h,
			  (unsigned long long)a.bytes_moved, (unsigned long long)r.total,
			  res ? strerror(errno) : "ok");
		/* The model: each byte from the latest (round, index) covering it */
		memset(r.want, 0xee, r.recv_bytes);
		for (b = 0; b < r.recv_bytes; b++) {
			__u64 best = 0, key;

			for (m = 0; m < r.n; m++) {
				const struct bfly_msgset_msg *x = &r.msgs[m];

				if (b < x->recv_off || b >= x->recv_off + x->len)
					continue;
				key = ((__u64)r.round[m] << 32 | m) + 1;
				if (key > best) {
					best = key;
					r.want[b] = tag(m, b - x->recv_off);
				}
			}
		}
		for (b = 0, bad = 0; b < r.recv_bytes; b++)
			bad += r.recv[b] != r.want[b];
		tap_check(!res && !bad,
			  "overlap, h = %u: %u messages on %u shared slots, the latest round's bytes remain (%u bytes wrong)",
			  h, r.n, info.ports, bad);
		rel_free(&r);
	}
}

/* Rounds and cycles of random h-relations (unions of h permutations). */
static void part_table(void)
{
	__u32 h, rounds, lo, hi, s;
	__u64 cycles, sum;
	struct rel r;

	for (h = 1; h <= 16; h *= 2) {
		lo = ~0U;
		hi = 0;
		sum = 0;
		cycles = 0;
		for (s = 1; s <= 5; s++) {
			__u64 seed = s;
			struct bfly_hrel a;

			union_of_perms(&r, h, &seed);
			a = args(&r, s);
			if (ioctl(fd, BFLY_IOC_HREL, &a)) {
				tap_check(0, "table: h %u seed %u: %s", h, s,
					  strerrorname_np(errno));
				rel_free(&r);
				return;
			}
			rounds = a.rounds;
			lo = rounds < lo ? rounds : lo;
			hi = rounds > hi ? rounds : hi;
			sum += rounds;
			cycles += a.cycles;
			rel_free(&r);
		}
		printf("# table: %s N %u h %u: rounds %u .. %u, mean %.1f, %s %.1f\n",
		       getenv("BFLY_TOPO") ?: "?", info.ports, h, lo, hi, sum / 5.0,
		       "cycles mean (seeds 1..5)", cycles / 5.0);
	}
	tap_check(1, "table: N %u, h 1 .. 16", info.ports);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: hrel-test DEV %s\n",
			"run|bad|refused|hxn|signal|table|overlap|lines|top|paramrace|near|limit|units|permlimit|listsignal");
		return 2;
	}
	dev = argv[1];
	fd = open_fabric(dev, &info);
	if (fd < 0)
		return 1;
	if (!strcmp(argv[2], "run"))
		part_run();
	else if (!strcmp(argv[2], "bad"))
		part_bad();
	else if (!strcmp(argv[2], "refused"))
		part_refused();
	else if (!strcmp(argv[2], "hxn"))
		part_hxn();
	else if (!strcmp(argv[2], "signal"))
		part_signal();
	else if (!strcmp(argv[2], "table"))
		part_table();
	else if (!strcmp(argv[2], "overlap"))
		part_overlap();
	else if (!strcmp(argv[2], "lines"))
		part_lines();
	else if (!strcmp(argv[2], "top"))
		part_top();
	else if (!strcmp(argv[2], "paramrace"))
		part_paramrace();
	else if (!strcmp(argv[2], "near"))
		part_near();
	else if (!strcmp(argv[2], "limit"))
		part_limit();
	else if (!strcmp(argv[2], "units"))
		part_overlap_units();
	else if (!strcmp(argv[2], "permlimit"))
		part_permlimit();
	else if (!strcmp(argv[2], "listsignal"))
		part_listsignal();
	else
		return 2;
	close(fd);
	return tap_failed != 0;
}
