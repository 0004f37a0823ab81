// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input and signals on a multibutterfly's BFLY_IOC_HREL:
 *
 *   mbfly-hrel-bad DEV bad      every refusal the ioctl can give on an
 *                               mbfly: errno, bad_msg, the receive buffer
 *                               untouched, the fabric's memory back to what
 *                               it was; what a bad path_ptr leaves written;
 *                               overlapping receive slots (the later
 *                               message's bytes remain)
 *   mbfly-hrel-bad DEV signal   a caught timer signal during big relations
 *                               with payload: EINTR, whole messages moved in
 *                               message order, bytes_moved what arrived
 *   mbfly-hrel-bad DEV kill     SIGKILL to a child inside a big HREL: it
 *                               dies, the fabric's memory comes back
 *   mbfly-hrel-bad DEV others   the requests of the other fabrics, valid
 *                               but for the fabric: EOPNOTSUPP (mbfly.rst)
 *
 * Each mode ends with the fabric unchanged: GET_INFO as before, and a
 * reference relation routed along the same paths as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/bfly.h>

#include "e2e-util.h"

static struct bfly_info info = { .size = sizeof(info) };
static const char *dev;
static char mem_path[96];
static int fd;

/* A relation: h random permutations, each message @len bytes of payload. */
struct rel {
	__u32 n, len;
	struct bfly_msgset_msg *msgs;
	__u8 *send, *recv, *want;
	__u64 bytes;
};

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	if (!p) {
		perror("calloc");
		exit(1);
	}
	return p;
}

/* Message m's byte k: never 0x5a or 0xee, which fill unwritten buffers. */
static __u8 tag(__u32 m, __u32 k)
{
	__u8 t = (__u8)(m * 131 + k * 7 + (m >> 8));

	return t == 0x5a || t == 0xee ? 0x11 : t;
}

static void rel_make(struct rel *r, __u32 h, __u32 len, unsigned int seed)
{
	__u32 ports = info.ports, i, j, k, t, m, *perm = xcalloc(ports, 4);

	r->n = ports * h;
	r->len = len;
	r->bytes = (__u64)r->n * len;
	r->msgs = xcalloc(r->n, sizeof(*r->msgs));
	r->send = xcalloc(r->bytes + 8, 1);
	r->recv = xcalloc(r->bytes + 8, 1);
	r->want = xcalloc(r->bytes + 8, 1);
	srand(seed);
	for (k = 0; k < h; k++) {
		for (i = 0; i < ports; i++)
			perm[i] = i;
		for (i = ports - 1; i > 0; i--) {
			j = rand() % (i + 1);
			t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < ports; i++) {
			struct bfly_msgset_msg *x = &r->msgs[k * ports + i];

			m = k * ports + i;
			x->src = i;
			x->dst = perm[i];
			x->len = len;
			x->send_off = (__u64)m * len;
			/* slot k of the destination's h */
			x->recv_off = ((__u64)perm[i] * h + k) * len;
			for (j = 0; j < len; j++) {
				r->send[x->send_off + j] = tag(m, j);
				r->want[x->recv_off + j] = tag(m, j);
			}
		}
	}
	free(perm);
}

static void rel_free(struct rel *r)
{
	free(r->msgs);
	free(r->send);
	free(r->recv);
	free(r->want);
}

static struct bfly_hrel args(const struct rel *r)
{
	struct bfly_hrel a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.count = r->n;
	a.msgs_ptr = (uintptr_t)r->msgs;
	if (r->len) {
		a.send_ptr = (uintptr_t)r->send;
		a.send_bytes = r->bytes;
		a.recv_ptr = (uintptr_t)r->recv;
		a.recv_bytes = r->bytes;
	}
	return a;
}

/* The fabric's charged memory (sysfs mem_bytes). */
static long long mem_bytes(void)
{
	return read_num(mem_path);
}

/* The fabric: GET_INFO, and the paths of a fixed relation, h = 2. */
struct fabric_state {
	struct bfly_info info;
	__u32 *paths;
	int err;
};

static void fabric_state(struct fabric_state *s)
{
	__u32 cols = info.ports_log2 + 1;
	struct bfly_hrel a;
	struct rel r;

	memset(s, 0, sizeof(*s));
	s->info.size = sizeof(s->info);
	s->err = ioctl(fd, BFLY_IOC_GET_INFO, &s->info) ? errno : 0;
	rel_make(&r, 2, 0, 4242);
	s->paths = xcalloc((size_t)r.n * cols, 4);
	a = args(&r);
	a.path_ptr = (uintptr_t)s->paths;
	a.path_entries = (__u64)r.n * cols;
	if (!s->err && ioctl(fd, BFLY_IOC_HREL, &a))
		s->err = errno;
	rel_free(&r);
}

static void fabric_unchanged(const struct fabric_state *before, const char *what)
{
	size_t bytes = (size_t)2 * info.ports * (info.ports_log2 + 1) * 4;
	struct fabric_state now;

	fabric_state(&now);
	tap_check(!before->err && !now.err && !memcmp(&before->info, &now.info, sizeof(now.info)) &&
		  !memcmp(before->paths, now.paths, bytes),
		  "%s: the fabric unchanged (GET_INFO, a relation's paths)", what);
	free(now.paths);
}

/*
 * One refused request: @want errno, @bad_msg where one is named, nothing
 * in the receive buffer, no payload reported, the memory given back.
 */
static void refused_on(int f, struct rel *r, struct bfly_hrel *a, int want, __u32 bad_msg,
		       const char *what)
{
	long long mem = mem_bytes();
	int res, e, same = 1;
	__u64 i;

	memset(r->recv, 0x5a, r->bytes + 8);
	res = ioctl(f, BFLY_IOC_HREL, a);
	e = errno;
	for (i = 0; i < r->bytes + 8; i++)
		same &= r->recv[i] == 0x5a;
	tap_check(res == -1 && e == want && (bad_msg == ~0U || a->bad_msg == bad_msg) &&
		  !a->bytes_moved && same && mem >= 0 && mem_bytes() == mem,
		  "mbfly HREL refuses %s: errno %s (got %s), bad_msg %u, receive buffer untouched (%s), memory %lld -> %lld",
		  what, strerrorname_np(want), res ? strerrorname_np(e) : "success", a->bad_msg,
		  same ? "yes" : "no", mem, mem_bytes());
}

#define refused(r, a, want, bad, what) refused_on(fd, r, a, want, bad, what)

/* A page with nothing mapped at it. */
static void *unmapped_page(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	return p;
}

static void part_bad_args(struct rel *r, const struct bfly_hrel *b)
{
	__u32 cols = info.ports_log2 + 1;
	struct bfly_hrel a;
	__u8 *ro;

	a = *b;
	a.count = 0;
	refused(r, &a, EINVAL, ~0U, "count 0");
	a = *b;
	a.count = BFLY_HREL_MAX_MSGS + 1;
	refused(r, &a, E2BIG, ~0U, "count over 2^24");
	a = *b;
	a.count = info.ports * 256 + 1;
	refused(r, &a, E2BIG, ~0U, "count over N x 256");
	a = *b;
	a.flags = 1;
	refused(r, &a, EINVAL, ~0U, "flags 1");
	a = *b;
	a.reserved[0] = 1;
	refused(r, &a, EINVAL, ~0U, "a reserved word set");
	a = *b;
	a.stages = 1;
	refused(r, &a, EINVAL, ~0U, "an output (stages) non-zero on the way in");
	a = *b;
	a.path_ptr = (uintptr_t)r->want;
	refused(r, &a, EINVAL, ~0U, "path_ptr without path_entries");
	a = *b;
	a.path_entries = (__u64)r->n * cols;
	refused(r, &a, EINVAL, ~0U, "path_entries without path_ptr");
	a = *b;
	a.recv_ptr += 4;
	refused(r, &a, EINVAL, ~0U, "a misaligned receive buffer");
	a = *b;
	a.msgs_ptr = 8;
	refused(r, &a, EFAULT, ~0U, "messages at a bad address");
	a = *b;
	a.msgs_ptr = 0xffff888000000000ULL;
	refused(r, &a, EFAULT, ~0U, "messages at a kernel address");
	a = *b;
	a.msgs_ptr = (uintptr_t)unmapped_page();
	refused(r, &a, EFAULT, ~0U, "messages on an unmapped page");
	a = *b;
	a.send_ptr = (uintptr_t)unmapped_page();
	a.send_bytes = 4096;
	a.count = 1;
	{
		__u64 off = r->msgs[0].send_off;

		r->msgs[0].send_off = 0;
		refused(r, &a, EFAULT, ~0U, "a send buffer unmapped: the first message faults");
		r->msgs[0].send_off = off;
	}
	ro = mmap(NULL, r->bytes + 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a = *b;
	a.recv_ptr = (uintptr_t)ro;
	refused(r, &a, EFAULT, ~0U, "a read-only receive buffer");
	munmap(ro, r->bytes + 4096);
	a = *b;
	a.recv_ptr = (uintptr_t)unmapped_page();
	a.recv_bytes = 4096;
	a.count = 1;
	refused(r, &a, EFAULT, ~0U, "a receive buffer unmapped");
	{
		int rd = open(dev, O_RDONLY);

		a = *b;
		refused_on(rd, r, &a, EBADF, ~0U, "payload on a read-only descriptor");
		close(rd);
	}
}

/* Bad messages: the first is named, nothing moves. */
static void part_bad_msgs(struct rel *r, const struct bfly_hrel *b)
{
	__u32 n = info.ports, m = r->n - 1;
	struct bfly_hrel a = *b;
	struct bfly_msgset_msg keep;

	keep = r->msgs[5];
	r->msgs[5].src = n;
	refused(r, &a, EINVAL, 5, "a source port out of range (N)");
	r->msgs[5] = keep;
	keep = r->msgs[m];
	r->msgs[m].dst = ~0U;
	refused(r, &a, EINVAL, m, "a destination port out of range (2^32 - 1)");
	r->msgs[m] = keep;
	r->msgs[m].pad = 1;
	refused(r, &a, EINVAL, m, "a message's pad set");
	r->msgs[m] = keep;
	r->msgs[m].recv_off = ~0ULL - 7;
	refused(r, &a, EINVAL, m, "recv_off + len past 2^64 (wraps)");
	r->msgs[m] = keep;
	r->msgs[m].send_off = ~0ULL - 7;
	refused(r, &a, EINVAL, m, "send_off + len past 2^64 (wraps)");
	r->msgs[m] = keep;
	r->msgs[m].len = ~0U - 7;
	refused(r, &a, EINVAL, m, "len 2^32 - 8: past both buffers");
	r->msgs[m] = keep;
	r->msgs[m].recv_off = r->bytes - r->len + 8;
	refused(r, &a, EINVAL, m, "a payload one word past the receive buffer");
	r->msgs[m] = keep;
	r->msgs[m].recv_off = 4;
	refused(r, &a, EINVAL, m, "a receive offset no multiple of 8");
	r->msgs[m] = keep;
	a.recv_ptr = 0;
	a.recv_bytes = 0;
	refused(r, &a, EINVAL, 0, "payload without a receive buffer");
}

/* h above 256; h = 256 itself routes. */
static void part_bad_h(void)
{
	struct bfly_msgset_msg *msgs = xcalloc(257, sizeof(*msgs));
	struct rel r = { .n = 257, .msgs = msgs };
	struct bfly_hrel a;
	__u32 m;
	int res;

	r.recv = xcalloc(8, 1);
	for (m = 0; m < 257; m++)
		msgs[m].dst = m % info.ports;
	a = args(&r);
	refused(&r, &a, E2BIG, ~0U, "h 257, all from port 0 (above 256)");
	for (m = 0; m < 257; m++) {
		msgs[m].src = m % info.ports;
		msgs[m].dst = 0;
	}
	a = args(&r);
	refused(&r, &a, E2BIG, ~0U, "h 257, all to port 0");
	a = args(&r);
	a.count = 256;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	tap_check(!res && a.h == 256, "h 256 to port 0 routes: h %u, %u stages (%s)", a.h,
		  a.stages, res ? strerrorname_np(errno) : "ok");
	free(msgs);
	free(r.recv);
}

/*
 * Round permutations: the one round carries the whole relation, a
 * partial permutation only for h = 1. With h = 2 perm_ptr is refused
 * (EINVAL, nothing moved) rather than given entries that lose messages;
 * with h = 1 the round's permutation is the relation's.
 */
static void part_bad_perms(struct rel *r, const struct bfly_hrel *b)
{
	__u32 n = info.ports, *perm = xcalloc(n, 4), i, bad = 0;
	struct bfly_hrel a = *b;
	struct rel one;
	int res;

	a.perm_ptr = (uintptr_t)perm;
	a.perm_entries = n;
	refused(r, &a, EINVAL, ~0U, "perm_ptr with h 2 (one round, no permutation)");
	rel_make(&one, 1, 8, 9);
	a = args(&one);
	a.perm_ptr = (uintptr_t)perm;
	a.perm_entries = n;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	for (i = 0; i < n; i++)
		bad += perm[one.msgs[i].src] != one.msgs[i].dst;
	tap_check(!res && a.h == 1 && a.rounds == 1 && !bad,
		  "perm_ptr with h 1: runs (%s), the round's permutation the relation's (%u wrong)",
		  res ? strerrorname_np(errno) : "0", bad);
	rel_free(&one);
	free(perm);
}

/* A bad path_ptr: EFAULT after the payload moved; what is written. */
static void part_bad_paths(struct rel *r, const struct bfly_hrel *b, __u32 h)
{
	struct bfly_hrel a = *b;
	long long mem = mem_bytes(), after;
	int res, e, whole;

	memset(r->recv, 0x5a, r->bytes);
	a.path_ptr = (uintptr_t)unmapped_page();
	a.path_entries = ~0ULL;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	e = errno;
	whole = !memcmp(r->recv, r->want, r->bytes);
	after = mem_bytes();
	tap_check(res == -1 && e == EFAULT && a.bytes_moved == r->bytes && a.h == h && whole &&
		  after == mem,
		  "a bad path_ptr: EFAULT (got %s) after the payload moved (%llu of %llu bytes, in place: %s), figures written (h %u), memory %lld -> %lld",
		  res ? strerrorname_np(e) : "success", (unsigned long long)a.bytes_moved,
		  (unsigned long long)r->bytes, whole ? "yes" : "no", a.h, mem, after);
}

/* Two messages to the same receive slot: the later one's bytes remain. */
static void part_overlap(struct rel *r, const struct bfly_hrel *b)
{
	struct bfly_hrel a = *b;
	__u64 slot = r->msgs[1].recv_off, off0 = r->msgs[0].recv_off;
	__u32 k, bad = 0;
	int res;

	memset(r->recv, 0x5a, r->bytes);
	r->msgs[0].recv_off = slot;
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	for (k = 0; k < r->len; k++)
		bad += r->recv[slot + k] != tag(1, k);
	for (k = 0; k < r->len; k++)
		bad += r->recv[off0 + k] != 0x5a;
	tap_check(!res && !bad && a.bytes_moved == r->bytes,
		  "overlapping receive slots (messages 0 and 1): runs, message 1's bytes remain, message 0's own slot untouched (%u wrong)",
		  bad);
	r->msgs[0].recv_off = off0;
}

static void part_bad(void)
{
	struct fabric_state before;
	struct bfly_hrel b, good;
	struct rel r;
	int res;

	fabric_state(&before);
	rel_make(&r, 2, 24, 1);
	good = args(&r);
	res = ioctl(fd, BFLY_IOC_HREL, &good);
	tap_check(!res && good.h == 2 && !memcmp(r.recv, r.want, r.bytes),
		  "bad: the good relation runs, h %u, %u stages", good.h, good.stages);
	b = args(&r);
	part_bad_args(&r, &b);
	part_bad_msgs(&r, &b);
	part_bad_h();
	part_bad_perms(&r, &b);
	part_bad_paths(&r, &b, good.h);
	part_overlap(&r, &b);
	rel_free(&r);
	fabric_unchanged(&before, "bad");
	free(before.paths);
}

/*
 * A periodic caught signal: EINTR. The routing notices only a fatal
 * signal; the payload moves in message order (one round) and stops
 * between two messages: what arrived is a prefix, each message whole.
 */
static void part_signal(void)
{
	struct sigaction sa = { .sa_handler = count_signal };
	__u32 tries, eintr = 0, midway = 0, bad = 0, m, k;
	long long mem = mem_bytes();
	struct fabric_state before;
	double t0, full;
	struct rel r;

	fabric_state(&before);
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
	rel_make(&r, 8, 8192, 0x516);
	{
		struct bfly_hrel a = args(&r);

		/* the second run's time: the first one faults the buffers in */
		ioctl(fd, BFLY_IOC_HREL, &a);
		a = args(&r);
		t0 = now_s();
		ioctl(fd, BFLY_IOC_HREL, &a);
		full = now_s() - t0;
	}
	printf("# signal: %u messages, %llu payload bytes, %.3f s a relation\n", r.n,
	       (unsigned long long)r.bytes, full);
	for (tries = 0; tries < 20; tries++) {
		struct bfly_hrel a = args(&r);
		__u32 firstout = ~0U, lastin = 0;
		__u64 arrived = 0, at_us = full * (0.05 + 0.05 * tries) * 1e6 + 1;
		/* one signal, then one every 300 us */
		struct itimerval it = { { 0, 300 }, { at_us / 1000000, at_us % 1000000 } };
		int res;

		memset(r.recv, 0xee, r.bytes);
		setitimer(ITIMER_REAL, &it, NULL);
		res = ioctl(fd, BFLY_IOC_HREL, &a);
		k = errno;
		setitimer(ITIMER_REAL, &(struct itimerval){}, NULL);
		if (!res) {
			bad += memcmp(r.recv, r.want, r.bytes) != 0;
			continue;
		}
		eintr += k == EINTR;
		bad += k != EINTR;
		for (m = 0; m < r.n; m++) {
			const struct bfly_msgset_msg *x = &r.msgs[m];
			const __u8 *at = r.recv + x->recv_off;
			int in = !memcmp(at, r.want + x->recv_off, x->len);
			int out = at[0] == 0xee && at[x->len - 1] == 0xee &&
				  !memcmp(at, at + 1, x->len - 1);

			bad += in == out;
			arrived += in ? x->len : 0;
			if (in)
				lastin = m + 1;
			if (!in && m < firstout)
				firstout = m;
		}
		bad += arrived != a.bytes_moved || (arrived && lastin > firstout);
		midway += arrived != 0;
	}
	tap_check(eintr > 0 && !bad,
		  "signal: %u of %u mbfly relations stopped with EINTR (%u signals, %u amid the payload), each moved a prefix of whole messages in message order, bytes_moved what arrived (%u wrong)",
		  eintr, tries, __atomic_load_n(&signals_caught, __ATOMIC_RELAXED), midway, bad);
	{
		struct bfly_hrel a = args(&r);

		tap_check(!ioctl(fd, BFLY_IOC_HREL, &a) && a.bytes_moved == r.bytes &&
			  !memcmp(r.recv, r.want, r.bytes) && mem_bytes() == mem,
			  "signal: the next relation runs whole, memory back (%lld -> %lld)", mem,
			  mem_bytes());
	}
	rel_free(&r);
	fabric_unchanged(&before, "signal");
	free(before.paths);
}

/* A child runs @r; killed after @delay s. Returns 1 when it died inside the ioctl. */
static int kill_child(struct rel *r, double delay, int *died)
{
	int p[2], status;
	char c = 0;
	pid_t pid;

	if (pipe(p))
		return 0;
	pid = fork();
	if (!pid) {
		struct bfly_hrel a = args(r);

		close(p[0]);
		if (write(p[1], "S", 1) != 1)
			_exit(1);
		ioctl(fd, BFLY_IOC_HREL, &a);
		if (write(p[1], "E", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1 || c != 'S')
		c = 0;
	usleep(delay * 1e6);
	kill(pid, SIGKILL);
	*died = waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
		WTERMSIG(status) == SIGKILL;
	c = read(p[0], &c, 1) == 0;
	close(p[0]);
	return c;
}

/* SIGKILL inside a big relation: no leak, the fabric unchanged. */
static void part_kill(void)
{
	long long mem = mem_bytes();
	__u32 tries, inside = 0, died = 0;
	struct fabric_state before;
	struct bfly_hrel a;
	double t0, full;
	struct rel r;
	int res;

	fabric_state(&before);
	rel_make(&r, 64, 256, 0x4b1);
	a = args(&r);
	t0 = now_s();
	res = ioctl(fd, BFLY_IOC_HREL, &a);
	full = now_s() - t0;
	tap_check(!res && a.h == 64 && !memcmp(r.recv, r.want, r.bytes),
		  "kill: %u messages, h %u, route and move in %.3f s", r.n, a.h, full);
	for (tries = 0; tries < 6; tries++) {
		int d = 0;

		inside += kill_child(&r, full * (0.2 + 0.12 * tries), &d);
		died += d;
	}
	tap_check(died == tries && inside > 0,
		  "kill: %u of %u children died of SIGKILL, %u inside the HREL", died, tries,
		  inside);
	tap_check(mem >= 0 && mem_bytes() == mem, "kill: the fabric's memory back (%lld -> %lld)",
		  mem, mem_bytes());
	rel_free(&r);
	fabric_unchanged(&before, "kill");
	free(before.paths);
}

/*
 * The other requests, each valid on a 2 x 2 fabric of N ports, refused: an
 * mbfly has no settings to read, set or trace, no route, link loads,
 * batch or message set (mbfly.rst, "The fabric mbfly").
 */
static void part_others(void)
{
	__u32 *perm = xcalloc(info.ports, sizeof(*perm)), i;
	__u64 mbytes = (info.switches + 63) / 64 * 8, *m = xcalloc(mbytes, 1);
	struct bfly_route r = { .size = sizeof(r), .ports = info.ports };
	struct bfly_link_load ll = { .size = sizeof(ll), .ports = info.ports };
	struct bfly_msgset_msg msg = { .src = 0, .dst = 1 };
	struct bfly_msgset s = { .size = sizeof(s), .count = 1 };
	struct bfly_batch ba = batch_args(BFLY_SCHED_DEFAULT, info.ports, 0, NULL, NULL);
	struct fabric_state before;

	fabric_state(&before);
	for (i = 0; i < info.ports; i++)
		perm[i] = i;
	r.perm_ptr = (uintptr_t)perm;
	r.flags = BFLY_ROUTE_DRY_RUN;
	s.msgs_ptr = (uintptr_t)&msg;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_ROUTE, &r), EOPNOTSUPP, "others: ROUTE (dry run)");
	TAP_ERRNO(get_matrix(fd, m, mbytes, NULL), EOPNOTSUPP, "others: GET_MATRIX");
	TAP_ERRNO(set_matrix(fd, m, mbytes), EOPNOTSUPP, "others: SET_MATRIX");
	TAP_ERRNO(trace(fd, perm, info.ports, NULL), EOPNOTSUPP, "others: TRACE");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_LINK_LOAD, &ll), EOPNOTSUPP, "others: LINK_LOAD");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &ba), EOPNOTSUPP, "others: BATCH (no data)");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_MSGSET, &s), EOPNOTSUPP, "others: MSGSET");
	fabric_unchanged(&before, "others");
	free(before.paths);
	free(perm);
	free(m);
}

int main(int argc, char **argv)
{
	const char *base;

	if (argc != 3) {
		fprintf(stderr, "usage: mbfly-hrel-bad DEV bad|signal|kill|others\n");
		return 2;
	}
	dev = argv[1];
	base = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	snprintf(mem_path, sizeof(mem_path), "/sys/class/bfly/%s/mem_bytes", base);
	fd = open(dev, O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info) || info.topology != BFLY_TOPO_MBFLY) {
		fprintf(stderr, "mbfly-hrel-bad: %s is no multibutterfly\n", dev);
		return 2;
	}
	if (!strcmp(argv[2], "bad"))
		part_bad();
	else if (!strcmp(argv[2], "signal"))
		part_signal();
	else if (!strcmp(argv[2], "kill"))
		part_kill();
	else if (!strcmp(argv[2], "others"))
		part_others();
	else
		return 2;
	return tap_failed != 0;
}
