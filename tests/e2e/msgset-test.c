// SPDX-License-Identifier: GPL-2.0
/*
 * BFLY_IOC_MSGSET end to end, on the LCAN behind a device:
 *
 *   msgset-test DEV route     sets routed by the device and by the library
 *                             built natively (model.c): the same figures,
 *                             cycles, paths and loads; identity in one cycle
 *   msgset-test DEV payload   tagged payload checked byte by byte; partial
 *                             sets (max-cycles) move only what they routed
 *   msgset-test DEV bad       bad input: errno, bad_msg, nothing moved
 *   msgset-test DEV signal    SIGKILL during a long routing: the child dies,
 *                             the device answers the next request
 */
#include <signal.h>
#include <sys/wait.h>

#include "e2e-util.h"
#include "model.h"

static struct bfly_info info;
static int fd;

/* The arrays of one set, device and model side by side. */
struct set {
	__u32 n;
	struct bfly_msgset_msg *msgs;
	__u32 *src, *dst, *cycle, *paths, *load;
	__u32 *mcycle, *mpaths, *mload;
};

static void set_alloc(struct set *s, __u32 n)
{
	__u64 entries = (__u64)n * 2 * info.node_stages, ch = 64ULL * info.ports * 32;

	s->n = n;
	s->msgs = calloc(n, sizeof(*s->msgs));
	s->src = calloc(n, 4);
	s->dst = calloc(n, 4);
	s->cycle = calloc(n, 4);
	s->mcycle = calloc(n, 4);
	s->paths = calloc(entries, 4);
	s->mpaths = calloc(entries, 4);
	s->load = calloc(ch, 4);
	s->mload = calloc(ch, 4);
	if (!s->msgs || !s->src || !s->dst || !s->cycle || !s->mcycle || !s->paths ||
	    !s->mpaths || !s->load || !s->mload) {
		fprintf(stderr, "msgset-test: out of memory\n");
		exit(1);
	}
}

static void set_free(struct set *s)
{
	free(s->msgs);
	free(s->src);
	free(s->dst);
	free(s->cycle);
	free(s->mcycle);
	free(s->paths);
	free(s->mpaths);
	free(s->load);
	free(s->mload);
}

/* The request for @s, every output wanted. */
static struct bfly_msgset request(struct set *s, __u32 mode, __u32 strategy, __u64 seed)
{
	__u32 m;

	for (m = 0; m < s->n; m++) {
		s->msgs[m].src = s->src[m];
		s->msgs[m].dst = s->dst[m];
	}
	return (struct bfly_msgset){
		.size = sizeof(struct bfly_msgset), .count = s->n, .mode = mode,
		.strategy = strategy, .seed = seed, .msgs_ptr = (uintptr_t)s->msgs,
		.cycle_ptr = (uintptr_t)s->cycle, .path_ptr = (uintptr_t)s->paths,
		.path_entries = (__u64)s->n * 2 * info.node_stages,
		.load_ptr = (uintptr_t)s->load, .load_entries = 64ULL * info.ports * 32,
	};
}

/* Route @s on the device and in the model; compare everything. */
static void route_compare(struct set *s, __u32 mode, __u32 strategy, __u64 seed,
			  const char *what)
{
	struct bfly_msgset a = request(s, mode, strategy, seed);
	struct model_msgset ms = {
		.src = s->src, .dst = s->dst, .count = s->n, .mode = mode,
		.strategy = strategy, .seed = seed, .cycle = s->mcycle, .paths = s->mpaths,
		.load = s->mload,
	};
	int r = ioctl(fd, BFLY_IOC_MSGSET, &a);
	__u64 pe = (__u64)s->n * 2 * info.node_stages;

	tap_check(r == 0, "%s: MSGSET (%s)", what, r ? strerror(errno) : "0");
	if (r)
		return;
	tap_check(model_lcan_msgset(&info, &ms) == 0, "%s: the model routes it", what);
	tap_check(a.levels == ms.levels && a.cycles == ms.cycles && a.routed == ms.routed &&
		  a.lambda_load == ms.lambda_load && a.lambda_cap == ms.lambda_cap &&
		  a.bound == ms.bound && a.channels == ms.channels,
		  "%s: device and model agree: %u cycles (model %u), %u routed, lambda %u/%u, bound %u, %llu channels",
		  what, a.cycles, ms.cycles, a.routed, a.lambda_load, a.lambda_cap, a.bound,
		  (unsigned long long)a.channels);
	tap_check(!memcmp(s->cycle, s->mcycle, s->n * 4ULL) &&
		  !memcmp(s->paths, s->mpaths, pe * 4) &&
		  !memcmp(s->load, s->mload, a.channels * 4),
		  "%s: each message's cycle and path and each channel's load agree", what);
	tap_check(a.routed == s->n && a.cycles >= a.bound && a.bound >= 1,
		  "%s: all routed, cycles >= ceil(lambda) >= 1", what);
}

static void part_route(void)
{
	__u32 n = info.ports, m, mode;
	__u64 seed = 0x5eed;
	struct set s;

	set_alloc(&s, 4 * n);
	s.n = n;
	for (m = 0; m < n; m++) {
		s.src[m] = m;
		s.dst[m] = m;
	}
	route_compare(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, 1, "identity");
	{
		struct bfly_msgset a = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_OFFLINE, 0);

		int r = ioctl(fd, BFLY_IOC_MSGSET, &a);

		tap_check(!r && a.cycles == 1 && a.bound == 1,
			  "identity, off-line: one cycle (%u), ceil(lambda) 1", a.cycles);
	}
	for (mode = 0; mode < 2; mode++) {
		if (mode == BFLY_MSGSET_UNIDIR &&
		    (info.topology != BFLY_TOPO_CB_LCAN || info.uppers != info.radix))
			break;
		random_perm(s.dst, n, &seed);
		route_compare(&s, mode, BFLY_MSGSET_ONLINE, seed,
			      mode ? "random permutation, uni-directional" :
				     "random permutation, on-line");
		route_compare(&s, mode, BFLY_MSGSET_OFFLINE, seed,
			      mode ? "random permutation, uni-directional, off-line" :
				     "random permutation, off-line");
	}
	/* Given paths: the paths of a routing, given back, route every message */
	{
		__u64 pe = (__u64)n * 2 * info.node_stages;
		__u32 *given = malloc(pe * 4);
		struct bfly_msgset a = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, 5);
		struct model_msgset ms = {
			.src = s.src, .dst = s.dst, .count = n, .given = given,
			.strategy = BFLY_MSGSET_OFFLINE,
			.cycle = s.mcycle, .paths = s.mpaths, .load = s.mload,
		};
		int r = ioctl(fd, BFLY_IOC_MSGSET, &a);

		tap_check(!r && given, "given paths: a routing to take them from");
		memcpy(given, s.paths, pe * 4);
		a = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_OFFLINE, 0);
		a.flags = BFLY_MSGSET_GIVEN_PATHS;
		r = ioctl(fd, BFLY_IOC_MSGSET, &a);
		tap_check(!r && a.routed == n && !memcmp(s.paths, given, pe * 4),
			  "given paths: all %u routed in %u cycles, each on its given path",
			  a.routed, a.cycles);
		tap_check(!model_lcan_msgset(&info, &ms) && ms.cycles == a.cycles &&
			  !memcmp(s.cycle, s.mcycle, n * 4ULL),
			  "given paths: the model routes them in the same cycles");
		given[0] = info.uppers;
		if (s.src[0] / info.radix != s.dst[0] / info.radix) {
			memcpy(s.paths, given, pe * 4);
			TAP_ERRNO(ioctl(fd, BFLY_IOC_MSGSET, &a), EINVAL,
				  "given paths: a tag past the uppers");
		}
		free(given);
	}

	/* A 4-relation: every PE sends 4 and receives 4 */
	s.n = 4 * n;
	for (m = 0; m < s.n; m++) {
		s.src[m] = m % n;
		s.dst[m] = (m % n + m / n * 3 + 1) % n;
	}
	route_compare(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, 7, "a 4-relation, on-line");
	route_compare(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_OFFLINE, 7, "a 4-relation, off-line");
	set_free(&s);
}

/* Payload: message m carries len bytes of tag m + 1; receive slots by message. */
static void part_payload(void)
{
	__u32 n = info.ports, m, len = 40, cap = 1;
	__u64 seed = 99, bytes = (__u64)n * 48;
	__u8 *send = aligned_alloc(8, bytes), *recv = aligned_alloc(8, bytes);
	struct bfly_msgset a;
	struct set s;
	int bad = 0, r;

	set_alloc(&s, n);
	random_perm(s.dst, n, &seed);
	for (m = 0; m < n; m++)
		s.src[m] = m;
	for (m = 0; m < n; m++) {
		memset(send + m * 48ULL, (m + 1) & 0xff, 48);
		s.msgs[m].len = len;
		s.msgs[m].send_off = m * 48ULL;
		s.msgs[m].recv_off = (n - 1 - m) * 48ULL;
	}
	memset(recv, 0, bytes);
	a = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, seed);
	a.send_ptr = (uintptr_t)send;
	a.send_bytes = bytes;
	a.recv_ptr = (uintptr_t)recv;
	a.recv_bytes = bytes;
	r = ioctl(fd, BFLY_IOC_MSGSET, &a);
	tap_check(!r && a.routed == n && a.bytes_moved == (__u64)n * len,
		  "payload: %llu bytes moved over %u cycles", (unsigned long long)a.bytes_moved,
		  a.cycles);
	for (m = 0; m < n; m++) {
		const __u8 *slot = recv + (n - 1 - m) * 48ULL;
		__u32 b;

		for (b = 0; b < 48; b++)
			bad += slot[b] != (b < len ? (m + 1) & 0xff : 0);
	}
	tap_check(!bad, "payload: each slot holds its tag, nothing past it (%d bad)", bad);

	/* Stopped after @cap cycles: only the messages routed moved */
	memset(recv, 0, bytes);
	memset(s.paths, 0xaa, (size_t)n * 2 * info.node_stages * 4);
	a.max_cycles = cap;
	a.bytes_moved = 0;
	r = ioctl(fd, BFLY_IOC_MSGSET, &a);
	tap_check(!r && a.cycles <= cap && a.routed <= n,
		  "payload, max_cycles %u: %u cycles, %u of %u routed", cap, a.cycles, a.routed, n);
	bad = 0;
	for (m = 0; m < n; m++) {
		const __u8 *slot = recv + (n - 1 - m) * 48ULL;
		int want = s.cycle[m] != BFLY_MSGSET_NOT_ROUTED ? (m + 1) & 0xff : 0;

		bad += slot[0] != want || slot[len - 1] != want;
	}
	tap_check(!bad && a.bytes_moved == (__u64)a.routed * len,
		  "payload, max_cycles %u: exactly the routed messages moved (%d wrong)", cap, bad);
	bad = 0;
	for (m = 0; m < n; m++) {
		__u32 c, *p = s.paths + (size_t)m * 2 * info.node_stages;

		for (c = 0; s.cycle[m] == BFLY_MSGSET_NOT_ROUTED && c < 2 * info.node_stages; c++)
			bad += p[c] != 0;
	}
	tap_check(!bad, "max_cycles %u: an unrouted message's path is zeros (%d words not)",
		  cap, bad);
	set_free(&s);
	free(send);
	free(recv);
}

/* One refused request: @want errno, @bad_msg where one is named, nothing moved. */
static void refused(struct bfly_msgset *a, int want, __u32 bad_msg, const char *what)
{
	int r = ioctl(fd, BFLY_IOC_MSGSET, a), e = errno;

	tap_check(r == -1 && e == want && (bad_msg == ~0U || a->bad_msg == bad_msg) &&
		  !a->bytes_moved,
		  "MSGSET refuses %s: errno %s (got %s), bad_msg %u", what, strerrorname_np(want),
		  r ? strerrorname_np(e) : "success", a->bad_msg);
}

static void part_bad(void)
{
	__u32 n = info.ports, m;
	static __u64 sendw[8], recvw[8];
	__u8 *send = (__u8 *)sendw, *recv = (__u8 *)recvw;
	struct bfly_msgset a, b;
	struct set s;

	set_alloc(&s, n);
	for (m = 0; m < n; m++) {
		s.src[m] = m;
		s.dst[m] = n - 1 - m;
	}
	b = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, 1);
	memset(recv, 0x5a, sizeof(recvw));

	a = b;
	a.flags = 2;
	refused(&a, EINVAL, ~0U, "unknown flags");
	a = b;
	a.flags = BFLY_MSGSET_GIVEN_PATHS;
	a.path_ptr = 0;
	a.path_entries = 0;
	refused(&a, EINVAL, ~0U, "given paths without path_ptr");
	a = b;
	a.reserved[1] = 1;
	refused(&a, EINVAL, ~0U, "reserved word set");
	a = b;
	a.count = 0;
	refused(&a, EINVAL, ~0U, "no messages");
	a = b;
	a.count = BFLY_MSGSET_MAX_MSGS + 1;
	refused(&a, E2BIG, ~0U, "more than 2^24 messages");
	a = b;
	a.count = BFLY_MSGSET_MAX_MSGS;
	a.path_ptr = 0;
	a.path_entries = 0;
	refused(&a, E2BIG, ~0U, "2^24 messages: more memory than fabric_mem_max");
	a = b;
	a.mode = 2;
	refused(&a, EINVAL, ~0U, "mode 2");
	a = b;
	a.strategy = 9;
	refused(&a, EINVAL, ~0U, "strategy 9");
	a = b;
	a.msgs_ptr = 0;
	refused(&a, EINVAL, ~0U, "no messages pointer");
	a = b;
	a.msgs_ptr = 8;
	refused(&a, EFAULT, ~0U, "messages at a bad address");
	a = b;
	a.path_entries = 1;
	refused(&a, EINVAL, ~0U, "path_entries too small");
	a = b;
	a.load_entries = 1;
	refused(&a, EINVAL, ~0U, "load_entries too small");
	a = b;
	a.send_ptr = (uintptr_t)send;
	refused(&a, EINVAL, ~0U, "send_ptr without send_bytes");
	a = b;
	a.size = BFLY_MSGSET_SIZE_VER0 - 8;
	refused(&a, EINVAL, ~0U, "size below the first version");

	s.msgs[n / 2].src = n;
	a = b;
	refused(&a, EINVAL, n / 2, "a source past the last PE");
	s.msgs[n / 2].src = n / 2;
	s.msgs[n - 1].dst = ~0U;
	a = b;
	refused(&a, EINVAL, n - 1, "a destination past the last PE");
	s.msgs[n - 1].dst = 0;
	s.msgs[3].pad = 1;
	a = b;
	refused(&a, EINVAL, 3, "a message's pad set");
	s.msgs[3].pad = 0;

	/* The first bad message is named, whatever is wrong with it */
	s.msgs[2].pad = 1;
	s.msgs[1].src = n;
	a = b;
	refused(&a, EINVAL, 1, "a bad source before a bad pad: the first is named");
	s.msgs[1].src = 1;
	s.msgs[2].pad = 0;

	/* count x ceil(lambda) past 2^30: 40000 messages to one PE */
	{
		__u32 many = 40000;
		struct bfly_msgset_msg *one = calloc(many, sizeof(*one));

		a = b;
		a.msgs_ptr = (uintptr_t)one;
		a.count = many;
		a.path_ptr = 0;
		a.path_entries = 0;
		a.cycle_ptr = 0;	/* room for the n messages of b only */
		for (m = 0; one && m < many; m++)
			one[m].src = m % n;
		refused(&a, E2BIG, ~0U, "40000 messages to one PE: over 2^30 tries");
		tap_check(a.bound == many, "the refusal reports ceil(lambda) %u", a.bound);
		/* few cycles: each tries all 40000 messages */
		a.max_cycles = 8;
		tap_check(!ioctl(fd, BFLY_IOC_MSGSET, &a) && a.cycles == 8 && a.routed == 8,
			  "the same with max_cycles 8: 8 cycles, one message each");
		free(one);
	}

	/* Payload outside its buffers: nothing moves, not even the good ones */
	a = b;
	a.send_ptr = (uintptr_t)send;
	a.send_bytes = sizeof(sendw);
	a.recv_ptr = (uintptr_t)recv;
	a.recv_bytes = sizeof(recvw);
	s.msgs[0].len = 8;
	s.msgs[1].len = 8;
	s.msgs[1].recv_off = 60;
	refused(&a, EINVAL, 1, "a payload past the receive buffer");
	s.msgs[1].recv_off = 4;
	refused(&a, EINVAL, 1, "a payload offset no multiple of 8");
	s.msgs[1].recv_off = 8;
	s.msgs[1].send_off = 64;
	refused(&a, EINVAL, 1, "a payload past the send buffer");
	s.msgs[1].len = 0;
	s.msgs[1].send_off = 0;
	s.msgs[1].recv_off = 0;
	a.recv_ptr = (uintptr_t)recv + 4;
	refused(&a, EINVAL, ~0U, "a misaligned receive buffer");
	a.recv_ptr = a.send_ptr;
	refused(&a, EINVAL, ~0U, "a receive buffer over the send buffer");
	a.recv_ptr = 0;
	a.recv_bytes = 0;
	refused(&a, EINVAL, 0, "payload without a receive buffer");
	for (m = 0; m < sizeof(recvw) && recv[m] == 0x5a; m++)
		;
	tap_check(m == sizeof(recvw), "the refused requests moved nothing");

	if (info.topology != BFLY_TOPO_CB_LCAN) {
		a = b;
		a.mode = BFLY_MSGSET_UNIDIR;
		refused(&a, EINVAL, ~0U, "uni-directional on other than a CB-LCAN");
	}
	/* A read-only descriptor routes, but moves no payload */
	{
		int ro = open(getenv("BFLY_DEV"), O_RDONLY);

		int r;

		a = b;
		s.msgs[0].len = 0;
		r = ro >= 0 ? ioctl(ro, BFLY_IOC_MSGSET, &a) : -1;
		tap_check(!r, "read-only: a set without payload");
		a.send_ptr = (uintptr_t)send;
		a.send_bytes = sizeof(sendw);
		a.recv_ptr = (uintptr_t)recv;
		a.recv_bytes = sizeof(recvw);
		TAP_ERRNO(ioctl(ro, BFLY_IOC_MSGSET, &a), EBADF, "read-only: payload");
		close(ro);
	}
	set_free(&s);
}

/*
 * SIGKILL during a long routing: the child dies in the ioctl, the device
 * still answers. 32767 messages to PE 0 need 32767 cycles (PE 0's wire
 * down carries one a cycle), each trying every waiting message: 2^30
 * tries less 65535 (2^30 is refused with E2BIG), half a minute natively,
 * so the kill 1.5 s in lands during the routing. The child writes 'S' to
 * a pipe before the ioctl and 'E' after it: the kill must find it between
 * the two.
 */
static void part_signal(void)
{
	__u32 n = info.ports, count = (1U << 15) - 1, m;
	char said[2] = "";
	int status, p[2];
	struct set s;
	pid_t pid;

	if (pipe(p)) {
		tap_check(0, "signal: pipe");
		return;
	}
	pid = fork();
	if (!pid) {
		struct bfly_msgset_msg *msgs = calloc(count, sizeof(*msgs));
		struct bfly_msgset a = {
			.size = sizeof(a), .count = count, .strategy = BFLY_MSGSET_ONLINE,
			.msgs_ptr = (uintptr_t)msgs,
		};
		int r;

		close(p[0]);
		if (!msgs)
			_exit(1);
		for (m = 0; m < count; m++)
			msgs[m].src = m % n;	/* every destination 0 */
		printf("# child: routing %u messages\n", count);
		fflush(stdout);
		if (write(p[1], "S", 1) != 1)
			_exit(1);
		r = ioctl(fd, BFLY_IOC_MSGSET, &a);
		printf("# child: the routing ended before the kill (%d %s, %u cycles)\n", r,
		       r ? strerrorname_np(errno) : "", a.cycles);
		fflush(stdout);
		if (write(p[1], "E", 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	tap_check(read(p[0], said, 1) == 1 && said[0] == 'S', "signal: the child starts routing");
	usleep(1500 * 1000);
	kill(pid, SIGKILL);
	tap_check(waitpid(pid, &status, 0) == pid, "signal: the child is reaped");
	tap_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "signal: the child died of SIGKILL (%s)",
		  WIFSIGNALED(status) ? "killed" : "it exited first");
	tap_check(read(p[0], said, 1) == 0, "signal: the kill landed during the routing");
	close(p[0]);
	set_alloc(&s, n);
	for (m = 0; m < n; m++) {
		s.src[m] = m;
		s.dst[m] = m;
	}
	{
		struct bfly_msgset a = request(&s, BFLY_MSGSET_BIDIR, BFLY_MSGSET_ONLINE, 0);

		int r = ioctl(fd, BFLY_IOC_MSGSET, &a);

		tap_check(!r && a.cycles == 1, "signal: the device answers the next set");
	}
	set_free(&s);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: msgset-test DEV route|payload|bad|signal\n");
		return 2;
	}
	setenv("BFLY_DEV", argv[1], 1);
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	if (!strcmp(argv[2], "route"))
		part_route();
	else if (!strcmp(argv[2], "payload"))
		part_payload();
	else if (!strcmp(argv[2], "bad"))
		part_bad();
	else if (!strcmp(argv[2], "signal"))
		part_signal();
	else
		return 2;
	close(fd);
	return 0;
}
