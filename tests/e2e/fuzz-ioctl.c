// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded, seeded, reproducible random ioctl fuzzer for /dev/bfly<id>.
 *
 * Every operation builds a valid argument for one bfly ioctl, then breaks
 * it at random: the size (truncated, first version, larger with zero or
 * random trailing bytes, huge), flags, pad and reserved fields, any field
 * set to a random or boundary value, pointers (NULL, unmapped, kernel,
 * non-canonical, read-only, misaligned, running into a guard page), the
 * permutation, labels or Latin square, the request number; it may also
 * pass the structure itself at a bad address. After every call the
 * returned errno must be one the uapi documents for that ioctl, and the
 * fabric's matrix and generation (GET_MATRIX) must be unchanged unless
 * the call succeeded and was one that changes them; one that did reads
 * back, as a bit matrix or as port maps (one in four), what it wrote.
 *
 * The operations run in phases of 64 to 320. Each phase (as root, through
 * the netlink family) gives the fabric a new random set of faults: none,
 * stuck nodes, broken links or both, up to BFLY_MAX_FAULTS; and one phase
 * in four runs every fuzzed call under a tight fabric_mem_max (the
 * fabric's own memory plus 1 byte to 64 KiB), lifted again for the checks.
 * After every call the fabric's charged memory (sysfs mem_bytes) must be
 * back to its own and its kept route workspace (route_ws_bytes). The
 * fault reports of calls whose argument was not broken are checked
 * against the faults set: ROUTE's and BATCH's count of
 * faults, EHOSTUNREACH exactly when a fault hit an unallowed route or a
 * batch message, the affected bitmap against affected_count, the traced
 * outputs of an applied route's unaffected inputs, the receive slots and
 * done bits of a batch's undelivered messages, lost packets in TRACE only
 * with broken links.
 *
 *   fuzz-ioctl DEVICE SECONDS MAX-OPS SEED
 *
 * Prints "# seed S" first: the same seed and device replay the same
 * operations. Stops after SECONDS or MAX-OPS operations, whichever is
 * first; prints the operations per ioctl and per errno and TAP lines.
 */
#include <assert.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "e2e-util.h"
#include "nl-kit.h"
#include "tap.h"

#include "fuzz-ioctl.h"

const char * const ioc_name[NIOC] = {
	"GET_INFO", "GET_MATRIX", "SET_MATRIX", "TRACE", "ROUTE", "LINK_LOAD",
	"GET_STATS", "RLS_LABELS", "BATCH", "MSGSET", "HREL", "unknown request",
};

static const unsigned long ioc_cmd[NIOC] = {
	BFLY_IOC_GET_INFO, BFLY_IOC_GET_MATRIX, BFLY_IOC_SET_MATRIX,
	BFLY_IOC_TRACE, BFLY_IOC_ROUTE, BFLY_IOC_LINK_LOAD,
	BFLY_IOC_GET_STATS, BFLY_IOC_RLS_LABELS, BFLY_IOC_BATCH, BFLY_IOC_MSGSET,
	BFLY_IOC_HREL, 0,
};

const size_t ioc_size[NIOC] = {
	sizeof(struct bfly_info), sizeof(struct bfly_matrix),
	sizeof(struct bfly_matrix), sizeof(struct bfly_trace),
	sizeof(struct bfly_route), sizeof(struct bfly_link_load),
	sizeof(struct bfly_stats), sizeof(struct bfly_rls_labels),
	sizeof(struct bfly_batch), sizeof(struct bfly_msgset),
	sizeof(struct bfly_hrel), 64,
};

const size_t ioc_ver0[NIOC] = {
	BFLY_INFO_SIZE_VER0, BFLY_MATRIX_SIZE_VER0, BFLY_MATRIX_SIZE_VER0,
	BFLY_TRACE_SIZE_VER0, BFLY_ROUTE_SIZE_VER0, BFLY_LINK_LOAD_SIZE_VER0,
	BFLY_STATS_SIZE_VER0, BFLY_RLS_SIZE_VER0, BFLY_BATCH_SIZE_VER0,
	BFLY_MSGSET_SIZE_VER0, BFLY_HREL_SIZE_VER0, 64,
};

/* A later published size (interface versions 4 and 5), or 0 */
const size_t ioc_ver1[NIOC] = {
	[IOC_INFO] = BFLY_INFO_SIZE_VER3, [IOC_HREL] = BFLY_HREL_SIZE_VER1,
	[IOC_ROUTE] = BFLY_ROUTE_SIZE_VER1, [IOC_BATCH] = BFLY_BATCH_SIZE_VER1,
};

static_assert(sizeof(struct bfly_info) == BFLY_INFO_SIZE_VER3, "info size");
static_assert(sizeof(struct bfly_hrel) == BFLY_HREL_SIZE_VER1, "hrel size");
static_assert(sizeof(struct bfly_route) == BFLY_ROUTE_SIZE_VER1, "route size");
static_assert(sizeof(struct bfly_batch) == BFLY_BATCH_SIZE_VER2, "batch size");

/* The errnos uapi/linux/bfly.h documents for each ioctl. */
static int allowed(int ioc, int e)
{
	int mh = ioc == IOC_MSGSET || ioc == IOC_HREL;

	switch (e) {
	case EFAULT: case EINVAL: case E2BIG: case ENODEV:
		return ioc != IOC_BOGUS;
	case ENOTTY:
		return ioc == IOC_BOGUS;
	case ENOMEM:
		return ioc != IOC_INFO && ioc != IOC_STATS && ioc != IOC_BOGUS;
	case EBADF:
		return ioc == IOC_SETM || ioc == IOC_ROUTE || ioc == IOC_BATCH || mh;
	case EBUSY: case EOVERFLOW:
		return ioc == IOC_ROUTE || ioc == IOC_BATCH;
	case EINTR:
		return ioc == IOC_ROUTE || ioc == IOC_LL || ioc == IOC_BATCH || mh;
	case EOPNOTSUPP:	/* MSGSET off an LCAN, HREL with faults */
		return ioc == IOC_ROUTE || mh;
	case EHOSTUNREACH:	/* a fault hit the route or messages */
		return ioc == IOC_ROUTE || ioc == IOC_BATCH;
	}
	return 0;
}

int fd, rofd;
struct bfly_info info;
size_t mbytes;
unsigned char *arena, *ropage;
void *unmapped;
__u64 cur_gen, *cur_m, *now_m, *scratch_m;
__u32 *trace_buf;
static unsigned char *port_map;
unsigned long long counts[NIOC][MAX_ERRNO + 1], ops_ok[NIOC];
unsigned long long total_ops, refusals_checked, reports;

__u64 rnd_state;

__u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

__u64 rndn(__u64 n)
{
	return n ? rnd() % n : 0;
}

/*
 * A SET_MATRIX that succeeded: GET_MATRIX in the same form (bit matrix or
 * port maps) reads back what it wrote, unless its buffer overlapped the
 * argument, which the call rewrote.
 */
static void check_set_matrix(const struct bfly_matrix *m)
{
	struct bfly_matrix g = { .size = sizeof(g), .flags = m->flags };
	const void *want = (const void *)(uintptr_t)m->matrix_ptr;
	void *got = now_m;

	if (m->matrix_ptr < (uintptr_t)arena + 4096 ||
	    m->matrix_ptr + m->matrix_bytes > (uintptr_t)arena + ARENA_PAGES * 4096)
		return;
	if (m->flags & BFLY_MATRIX_PORT_MAP) {
		g.matrix_ptr = (uintptr_t)port_map;
		g.matrix_bytes = info.port_map_bytes;
		if (ioctl(fd, BFLY_IOC_GET_MATRIX, &g)) {
			REPORT("op %llu: GET_MATRIX as port maps: %s", total_ops,
			       strerror(errno));
			return;
		}
		got = port_map;
	}
	if (memcmp(got, want, m->matrix_bytes))
		REPORT("op %llu: SET_MATRIX: %s read back differs", total_ops,
		       m->flags ? "port map" : "matrix");
}

static void one_op(void)
{
	int ioc = rndn(NIOC), ret, e, changes = 0, pristine;
	static unsigned char built[4096];
	unsigned char *a = arena;
	unsigned long cmd = ioc_cmd[ioc];
	__u32 usize;
	void *argp = a;
	__u64 gen;
	int f = rndn(6) ? fd : rofd;
	__u32 *route_perm = NULL;

	if (!phase_left--)
		new_phase();
	buf_at = arena + 4096;
	build(ioc, a);
	memcpy(built, a, ioc_size[ioc]);
	usize = mutate(ioc, a);
	*(__u32 *)a = usize;
	/* Not broken but for its size: the outputs can be checked. */
	pristine = !memcmp(a + 4, built + 4, ioc_size[ioc] - 4);

	if (ioc == IOC_BOGUS) {
		switch (rndn(3)) {
		case 0:	/* a number past the last (HREL, 0x0a) */
			cmd = _IOWR(BFLY_IOC_MAGIC, 0x0b + rndn(0xf5), struct bfly_info);
			break;
		case 1:	/* a known number with other direction bits */
			cmd = _IO(BFLY_IOC_MAGIC, rndn(0x0b));
			if (rndn(2))
				cmd = _IOR(BFLY_IOC_MAGIC, rndn(0x0b), struct bfly_info);
			break;
		default:	/* another type byte */
			cmd = _IOWR(BFLY_IOC_MAGIC ^ (1 + rndn(255)), rndn(10),
				    struct bfly_info);
			break;
		}
	} else if (!rndn(3)) {
		/* Other size bits in the request number: ignored. */
		cmd = (cmd & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		      (rndn(_IOC_SIZEMASK + 1) << _IOC_SIZESHIFT);
	}
	if (!rndn(16)) {	/* the argument itself at a bad address */
		__u64 p = bad_ptr(usize);

		if (p == (uintptr_t)ropage) {
			mprotect(ropage, 4096, PROT_READ | PROT_WRITE);
			memcpy(ropage, a, 4096);
			mprotect(ropage, 4096, PROT_READ);
		}
		argp = (void *)(uintptr_t)p;
		pristine = 0;
	}
	if (ioc == IOC_ROUTE && argp == a) {
		struct bfly_route *r = (void *)a;

		if (!(r->flags & BFLY_ROUTE_LABELS) && r->perm_ptr >= (uintptr_t)arena &&
		    r->perm_ptr + info.ports * 4 <= (uintptr_t)arena + ARENA_PAGES * 4096) {
			/*
			 * A copy: the call's outputs (the argument, the
			 * matrix or conflicts) may overlap the permutation
			 * and rewrite it.
			 */
			if (safe_read(perm_copy, r->perm_ptr, info.ports * 4))
				route_perm = perm_copy;
		}
	}

	if (tight)
		set_limit(limit_tight);
	ret = ioctl(f, cmd, argp);
	e = ret ? errno : 0;
	if (tight)
		set_limit(limit_orig);
	total_ops++;
	if (ret && (e > MAX_ERRNO || !allowed(ioc, e)))
		REPORT("op %llu: %s: unexpected errno %s (%d)", total_ops,
		       ioc_name[ioc], strerrorname_np(e) ?: "?", e);
	if (e == EHOSTUNREACH && faults_known && !nfaults)
		REPORT("op %llu: %s: EHOSTUNREACH on a fabric without faults", total_ops,
		       ioc_name[ioc]);
	counts[ioc][e > MAX_ERRNO ? MAX_ERRNO : e]++;
	if (!ret)
		ops_ok[ioc]++;
	check_mem(ioc);
	if (pristine && faults_known && ioc == IOC_ROUTE)
		check_route_report((void *)a, usize, e);
	if (pristine && faults_known && ioc == IOC_BATCH)
		check_batch_report((void *)a, usize, e);
	if (pristine && ioc == IOC_TRACE && !ret)
		check_trace((void *)a);
	if (pristine && ioc == IOC_HREL)
		check_hrel((void *)a, usize, e);

	/* Only a successful SET_MATRIX or applied ROUTE changes the fabric. */
	if (!ret && argp == a && f == fd) {
		if (ioc == IOC_SETM)
			changes = 1;
		if (ioc == IOC_ROUTE && !(((struct bfly_route *)a)->flags & BFLY_ROUTE_DRY_RUN))
			changes = 1;
	}
	if (get_matrix(fd, now_m, mbytes, &gen)) {
		REPORT("op %llu: %s: GET_MATRIX after it failed: %s", total_ops,
		       ioc_name[ioc], strerror(errno));
		return;
	}
	if (!changes) {
		if (ret)
			refusals_checked++;
		if (gen != cur_gen || memcmp(now_m, cur_m, mbytes)) {
			REPORT("op %llu: %s: fabric changed by a call that %s (%s)",
			       total_ops, ioc_name[ioc], ret ? "failed" : "changes nothing",
			       ret ? strerrorname_np(e) : "success");
			/* Go on from the new state. */
			cur_gen = gen;
			memcpy(cur_m, now_m, mbytes);
		}
		return;
	}
	if (gen != cur_gen + 1)
		REPORT("op %llu: %s succeeded: generation %llu -> %llu", total_ops,
		       ioc_name[ioc], (unsigned long long)cur_gen, (unsigned long long)gen);
	if (ioc == IOC_SETM)
		check_set_matrix((void *)a);
	if (route_perm) {
		struct bfly_route *r = (void *)a;
		const __u64 *aff = NULL;

		/* Faults hit inputs of a route applied with ALLOW_FAULTS only. */
		if (nfaults && r->flags & BFLY_ROUTE_ALLOW_FAULTS) {
			if (pristine && usize >= BFLY_ROUTE_SIZE_VER1 && r->affected_ptr)
				aff = uptr(r->affected_ptr);
			else
				route_perm = NULL;
		}
		if (!route_perm)
			traces_skipped++;
		else if (!trace_is(route_perm, aff))
			REPORT("op %llu: %s: trace(route(p)) != p%s", total_ops, ioc_name[ioc],
			       aff ? " for the inputs no fault hit" : "");
		else if (aff && r->affected_count)
			hit_traces++;
	}
	cur_gen = gen;
	memcpy(cur_m, now_m, mbytes);
}

static void print_counts(void)
{
	char line[2048];
	int i, e, n;

	for (i = 0; i < NIOC; i++) {
		unsigned long long ops = 0;

		for (e = 0; e <= MAX_ERRNO; e++)
			ops += counts[i][e];
		n = snprintf(line, sizeof(line), "# %-15s %8llu ops: %llu ok", ioc_name[i],
			     ops, ops_ok[i]);
		for (e = 1; e <= MAX_ERRNO && n < (int)sizeof(line) - 64; e++)
			if (counts[i][e])
				n += snprintf(line + n, sizeof(line) - n, ", %llu %s",
					      counts[i][e], strerrorname_np(e) ?: "?");
		printf("%s\n", line);
	}
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (limit_fd >= 0)
		pwrite(limit_fd, limit_orig, strlen(limit_orig), 0);
	printf("not ok - op %llu: signal %d at address %p\n", total_ops, sig, si->si_addr);
	print_counts();
	fflush(stdout);
	_exit(3);
}

int main(int argc, char **argv)
{
	unsigned long long max_ops;
	double end;
	__u64 seed;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEVICE SECONDS MAX-OPS SEED\n", argv[0]);
		return 2;
	}
	end = now_s() + atof(argv[2]);
	max_ops = strtoull(argv[3], NULL, 0);
	seed = strtoull(argv[4], NULL, 0);
	rnd_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	printf("# seed %llu\n", (unsigned long long)seed);
	{
		struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };

		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Never hang: a stuck ioctl ends the program. */
	alarm(atoi(argv[2]) + 60);

	fd = open(argv[1], O_RDWR);
	rofd = open(argv[1], O_RDONLY);
	info.size = sizeof(info);
	if (fd < 0 || rofd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		tap_check(0, "open and GET_INFO %s: %s", argv[1], strerror(errno));
		return 1;
	}
	mbytes = BFLY_MATRIX_BYTES(info.switches);

	/* The arena, then a guard page; a read-only page; an unmapped one. */
	arena = mmap(NULL, (ARENA_PAGES + 1) * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ropage = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || ropage == MAP_FAILED || unmapped == MAP_FAILED ||
	    mprotect(arena + ARENA_PAGES * 4096, 4096, PROT_NONE) ||
	    munmap(unmapped, 4096)) {
		tap_check(0, "mmap: %s", strerror(errno));
		return 1;
	}
	cur_m = calloc(1, mbytes);
	now_m = calloc(1, mbytes);
	scratch_m = calloc(1, mbytes);
	trace_buf = calloc(info.ports, 4);
	perm_copy = calloc(info.ports, 4);
	port_map = calloc(1, info.port_map_bytes);
	seen = calloc(info.ports, 1);
	if (!cur_m || !now_m || !scratch_m || !trace_buf || !perm_copy || !port_map || !seen ||
	    get_matrix(fd, cur_m, mbytes, &cur_gen)) {
		tap_check(0, "initial GET_MATRIX");
		return 1;
	}
	nl_init();
	mem_init();

	while (total_ops < max_ops && (total_ops % 64 || now_s() < end))
		one_op();

	/* Leave the fabric without faults, fabric_mem_max as it was. */
	if (faults_known && nl_faults_clear())
		REPORT("netlink fault-del all-faults at the end failed");
	if (limit_fd >= 0)
		set_limit(limit_orig);

	print_counts();
	printf("# %llu operations, %llu refusals checked for an unchanged fabric\n",
	       total_ops, refusals_checked);
	printf("# %llu phases: %llu with faults, %llu under a tight fabric_mem_max%s%s\n",
	       phases, fault_phases, tight_phases,
	       faults_known ? "" : " (no fault injection)",
	       limit_fd >= 0 ? "" : " (fabric_mem_max not writable)");
	printf("# fault reports: ROUTE %llu (%llu hit; dry runs hit: %llu refused, %llu not)\n",
	       route_reports, route_hits, dry_hits_refused, dry_hits_ok);
	printf("# BATCH %llu (%llu hit), TRACE %llu; applied routes: %llu hit traced, %llu not\n",
	       batch_reports, batch_hits, trace_reports, hit_traces, traces_skipped);
	printf("# HREL: %llu unbroken relations checked (rounds, h, payload)\n", hrel_checked);
	tap_check(reports == 0,
		  "%llu operations (%llu refused), every errno documented, fabric unchanged by every refusal%s",
		  total_ops, refusals_checked,
		  reports > MAX_REPORTS ? " (more failures not shown)" : "");
	return reports ? 1 : 0;
}
