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
 * the call succeeded and was one that changes them.
 *
 * The operations run in phases of 64 to 320. Each phase (as root, through
 * the netlink family) gives the fabric a new random set of faults: none,
 * stuck nodes, broken links or both, up to BFLY_MAX_FAULTS; and one phase
 * in four runs every fuzzed call under a tight fabric_mem_max (the
 * fabric's own memory plus 1 byte to 64 KiB), lifted again for the checks.
 * After every call the fabric's charged memory (sysfs mem_bytes) must be
 * back to its own. The fault reports of calls whose argument was not
 * broken are checked against the faults set: ROUTE's and BATCH's count of
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

#define ARENA_PAGES 64
#define MAX_ERRNO 134
#define MAX_REPORTS 10
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Every byte of a batch's receive slot that no message reached */
#define RECV_FILL 0xa5

enum { IOC_INFO, IOC_GETM, IOC_SETM, IOC_TRACE, IOC_ROUTE, IOC_LL,
	IOC_STATS, IOC_RLS, IOC_BATCH, IOC_BOGUS, NIOC };

static const char * const ioc_name[NIOC] = {
	"GET_INFO", "GET_MATRIX", "SET_MATRIX", "TRACE", "ROUTE", "LINK_LOAD",
	"GET_STATS", "RLS_LABELS", "BATCH", "unknown request",
};

static const unsigned long ioc_cmd[NIOC] = {
	BFLY_IOC_GET_INFO, BFLY_IOC_GET_MATRIX, BFLY_IOC_SET_MATRIX,
	BFLY_IOC_TRACE, BFLY_IOC_ROUTE, BFLY_IOC_LINK_LOAD,
	BFLY_IOC_GET_STATS, BFLY_IOC_RLS_LABELS, BFLY_IOC_BATCH, 0,
};

static const size_t ioc_size[NIOC] = {
	sizeof(struct bfly_info), sizeof(struct bfly_matrix),
	sizeof(struct bfly_matrix), sizeof(struct bfly_trace),
	sizeof(struct bfly_route), sizeof(struct bfly_link_load),
	sizeof(struct bfly_stats), sizeof(struct bfly_rls_labels),
	sizeof(struct bfly_batch), 64,
};

static const size_t ioc_ver0[NIOC] = {
	BFLY_INFO_SIZE_VER0, BFLY_MATRIX_SIZE_VER0, BFLY_MATRIX_SIZE_VER0,
	BFLY_TRACE_SIZE_VER0, BFLY_ROUTE_SIZE_VER0, BFLY_LINK_LOAD_SIZE_VER0,
	BFLY_STATS_SIZE_VER0, BFLY_RLS_SIZE_VER0, BFLY_BATCH_SIZE_VER0, 64,
};

/* Later published sizes (interface version 4), or 0 */
static const size_t ioc_ver1[NIOC] = {
	[IOC_ROUTE] = BFLY_ROUTE_SIZE_VER1, [IOC_BATCH] = BFLY_BATCH_SIZE_VER1,
};

static_assert(sizeof(struct bfly_route) == BFLY_ROUTE_SIZE_VER1, "route size");
static_assert(sizeof(struct bfly_batch) == BFLY_BATCH_SIZE_VER1, "batch size");

/* The errnos uapi/linux/bfly.h documents for each ioctl. */
static int allowed(int ioc, int e)
{
	switch (e) {
	case EFAULT: case EINVAL: case E2BIG: case ENODEV:
		return ioc != IOC_BOGUS;
	case ENOTTY:
		return ioc == IOC_BOGUS;
	case ENOMEM:
		return ioc != IOC_INFO && ioc != IOC_STATS && ioc != IOC_BOGUS;
	case EBADF:
		return ioc == IOC_SETM || ioc == IOC_ROUTE || ioc == IOC_BATCH;
	case EBUSY: case EOVERFLOW:
		return ioc == IOC_ROUTE || ioc == IOC_BATCH;
	case EINTR:
		return ioc == IOC_ROUTE || ioc == IOC_LL || ioc == IOC_BATCH;
	case EOPNOTSUPP:
		return ioc == IOC_ROUTE;
	case EHOSTUNREACH:	/* a fault hit the route or messages */
		return ioc == IOC_ROUTE || ioc == IOC_BATCH;
	}
	return 0;
}

static int fd, rofd;
static struct bfly_info info;
static size_t mbytes;
static unsigned char *arena, *ropage;
static void *unmapped;
static __u64 cur_gen, *cur_m, *now_m, *scratch_m;
static __u32 *trace_buf;
static unsigned long long counts[NIOC][MAX_ERRNO + 1], ops_ok[NIOC];
static unsigned long long total_ops, refusals_checked, reports;

static __u64 rnd_state;

static __u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

static __u64 rndn(__u64 n)
{
	return n ? rnd() % n : 0;
}

/* A failed check: the first MAX_REPORTS are printed. */
#define REPORT(...)							\
	do {								\
		if (++reports <= MAX_REPORTS)				\
			tap_check(0, __VA_ARGS__);			\
	} while (0)

/* A pointer that is bad in one of several ways, for @len bytes. */
static __u64 bad_ptr(size_t len)
{
	switch (rndn(8)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)unmapped + rndn(4096);
	case 2:
		return 0xffffffff81000000ULL + rndn(1 << 20);
	case 3:
		return 0xffff888000000000ULL;
	case 4:
		return 0x8000000000000000ULL + rndn(4096);
	case 5:
		return (uintptr_t)ropage;	/* fine for input, not for output */
	case 6:	/* runs into the guard page after the arena */
		return (uintptr_t)arena + ARENA_PAGES * 4096 - (len > 1 ? len / 2 : 1);
	default:
		return (uintptr_t)arena + 1 + rndn(7);	/* misaligned */
	}
}

/* Arena layout: [0, 4096) the argument; then buffers from 4096 on. */
static unsigned char *buf_at;

static void *buf(size_t len)
{
	void *p;

	len = (len + 63) & ~63UL;
	if (buf_at + len > arena + ARENA_PAGES * 4096)
		buf_at = arena + 4096;
	p = buf_at;
	buf_at += len;
	return p;
}

static __u64 boundary(void)
{
	static const __u64 v[] = {
		0, 1, 2, 7, 8, 63, 64, 4095, 4096, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, ~0ULL,
	};
	__u64 x = v[rndn(ARRAY_SIZE(v))];

	switch (rndn(4)) {
	case 0:
		return info.ports + rndn(3) - 1;
	case 1:
		return rnd();
	default:
		return x;
	}
}

/* Sometimes break a permutation: a repeat or an entry out of range. */
static void maybe_break_perm(__u32 *p)
{
	if (rndn(4))
		return;
	if (rndn(2))
		p[rndn(info.ports)] = p[rndn(info.ports)];
	else
		p[rndn(info.ports)] = info.ports + rndn(3);
}

static void fill_labels(__u64 *lab, __u32 bits)
{
	__u32 i;

	for (i = 0; i < info.ports; i++)
		lab[i] = bits >= 64 ? rnd() : rnd() & ((1ULL << bits) - 1);
	if (!rndn(8))
		lab[rndn(info.ports)] |= 1ULL << (bits + rndn(64 - bits));
}

/* A valid (mostly) argument for @ioc in @a; returns its known size. */
static void build(int ioc, void *a)
{
	__u32 n = info.ports, i;

	memset(a, 0, 4096);
	switch (ioc) {
	case IOC_GETM:
	case IOC_SETM: {
		struct bfly_matrix *m = a;
		__u64 *mb = buf(mbytes);

		random_matrix(mb, mbytes, info.switches, &rnd_state);
		if (ioc == IOC_SETM && !rndn(4))
			mb[rndn(mbytes / 8)] |= 1ULL << rndn(64);
		m->matrix_ptr = (uintptr_t)mb;
		m->matrix_bytes = mbytes;
		break;
	}
	case IOC_TRACE: {
		struct bfly_trace *t = a;

		t->ports = n;
		t->perm_ptr = (uintptr_t)buf(n * 4);
		break;
	}
	case IOC_ROUTE: {
		struct bfly_route *r = a;

		r->ports = n;
		r->flags = rndn(2) ? BFLY_ROUTE_DRY_RUN : 0;
		if (rndn(2))
			r->flags |= BFLY_ROUTE_ALLOW_FAULTS;
		if (info.topology == BFLY_TOPO_BFLY2 ||
		    info.topology == BFLY_TOPO_BFLY_TWICE || !rndn(3)) {
			__u64 *lab = buf(n * 8);

			r->flags |= BFLY_ROUTE_LABELS;
			r->label_bits = info.node_stages;
			fill_labels(lab, info.node_stages);
			r->labels_ptr = (uintptr_t)lab;
		} else {
			__u32 *p = buf(n * 4);

			random_perm(p, n, &rnd_state);
			maybe_break_perm(p);
			r->perm_ptr = (uintptr_t)p;
		}
		if (rndn(2)) {
			r->matrix_ptr = (uintptr_t)buf(mbytes);
			r->matrix_bytes = mbytes;
		}
		if (rndn(2)) {
			r->conflicts_max = rndn(2) ? 1 + rndn(4) : 1 + rndn(info.switches);
			r->conflicts_ptr = (uintptr_t)buf(r->conflicts_max *
							  sizeof(struct bfly_conflict));
		}
		if (rndn(2)) {
			__u64 *aff = buf(BFLY_MATRIX_BYTES(n));

			/* stale bits the call must clear */
			for (i = 0; i < BFLY_MATRIX_BYTES(n) / 8; i++)
				aff[i] = rnd();
			r->affected_ptr = (uintptr_t)aff;
		}
		break;
	}
	case IOC_LL: {
		struct bfly_link_load *l = a;

		l->ports = n;
		if (rndn(2)) {
			__u64 *lab = buf(n * 8);

			l->flags = BFLY_ROUTE_LABELS;
			l->label_bits = info.node_stages;
			fill_labels(lab, info.node_stages);
			l->labels_ptr = (uintptr_t)lab;
		}
		if (rndn(2)) {
			__u64 *act = buf(BFLY_MATRIX_BYTES(n));

			for (i = 0; i < BFLY_MATRIX_BYTES(n) / 8; i++)
				act[i] = rnd();
			l->active_ptr = (uintptr_t)act;
		}
		if (rndn(2)) {
			l->load_entries = (__u64)info.node_stages * n;
			l->load_ptr = (uintptr_t)buf(l->load_entries * 4);
		}
		break;
	}
	case IOC_RLS: {
		struct bfly_rls_labels *r = a;

		if (rndn(2)) {
			r->flags = BFLY_RLS_BY_ROTATION;
			r->rotation = rndn(n);
			r->count = n;
		} else {
			r->processor = rndn(n);
			r->rotation = rndn(n);
			r->count = rndn(n - r->rotation + 1);
		}
		r->labels_ptr = (uintptr_t)buf((r->count + 1) * 8);
		break;
	}
	case IOC_BATCH: {
		struct bfly_batch *b = a;
		__u64 msg = rndn(3) ? 8 * rndn(3) : rndn(17);
		__u64 total = (__u64)n * n * msg;
		__u64 *send;
		size_t j;

		b->ports = n;
		b->schedule = rndn(5);
		b->flags = rndn(4) ? 0 : BFLY_BATCH_STRICT;
		b->msg_size = msg;
		b->buf_bytes = total;
		if (total > 8 * 4096)	/* keep to the arena */
			b->msg_size = 0;
		if (total > 8 * 4096)
			b->buf_bytes = 0;
		total = b->buf_bytes;
		send = buf(total + 8);
		for (j = 0; j < total / 8; j++)
			send[j] = rnd();
		b->send_ptr = (uintptr_t)send;
		b->recv_ptr = (uintptr_t)buf(total + 8);
		/* receive slots never written keep this pattern */
		memset((void *)(uintptr_t)b->recv_ptr, RECV_FILL, total + 8);
		if (b->schedule == BFLY_SCHED_SQUARE) {
			__u32 *sq = buf((size_t)n * n * 4);
			__u32 k, s = rndn(n);

			for (i = 0; i < n; i++)
				for (k = 0; k < n; k++)
					sq[i * n + k] = (i + k + s) % n;
			if (!rndn(4))
				sq[rndn(n * n)] = rndn(n + 1);
			b->square_ptr = (uintptr_t)sq;
		}
		if (rndn(2))
			b->done_ptr = (uintptr_t)buf(BFLY_MATRIX_BYTES((__u64)n * n));
		if (rndn(2)) {
			b->conflicts_max = 1 + rndn(8);
			b->conflicts_ptr = (uintptr_t)buf(b->conflicts_max *
							  sizeof(struct bfly_conflict));
		}
		if (rndn(2)) {
			b->affected_max = rndn(4) ? 1 + rndn(2 * n) : n * n;
			b->affected_ptr = (uintptr_t)buf(b->affected_max *
							 sizeof(struct bfly_msg_ref));
		}
		break;
	}
	default:
		break;
	}
}

/* Offsets of the pointer fields of each argument. */
static const size_t ptr_offs[NIOC][8] = {
	[IOC_GETM] = { offsetof(struct bfly_matrix, matrix_ptr) },
	[IOC_SETM] = { offsetof(struct bfly_matrix, matrix_ptr) },
	[IOC_TRACE] = { offsetof(struct bfly_trace, perm_ptr) },
	[IOC_ROUTE] = { offsetof(struct bfly_route, perm_ptr),
		offsetof(struct bfly_route, labels_ptr),
		offsetof(struct bfly_route, matrix_ptr),
		offsetof(struct bfly_route, conflicts_ptr),
		offsetof(struct bfly_route, affected_ptr) },
	[IOC_LL] = { offsetof(struct bfly_link_load, labels_ptr),
		offsetof(struct bfly_link_load, active_ptr),
		offsetof(struct bfly_link_load, load_ptr) },
	[IOC_RLS] = { offsetof(struct bfly_rls_labels, labels_ptr) },
	[IOC_BATCH] = { offsetof(struct bfly_batch, send_ptr),
		offsetof(struct bfly_batch, recv_ptr),
		offsetof(struct bfly_batch, square_ptr),
		offsetof(struct bfly_batch, done_ptr),
		offsetof(struct bfly_batch, conflicts_ptr),
		offsetof(struct bfly_batch, affected_ptr) },
};

/* Break the argument; returns the size to put in its size field. */
static __u32 mutate(int ioc, unsigned char *a)
{
	__u32 ksize = ioc_size[ioc], usize = ksize;
	int nmut = rndn(4), i;
	size_t off, j;

	for (i = 0; i < nmut; i++) {
		switch (rndn(7)) {
		case 0:	/* size */
			switch (rndn(8)) {
			case 0:
				usize = rndn(ioc_ver0[ioc]);
				break;
			case 1:	/* a published size */
				usize = ioc_ver1[ioc] && rndn(2) ? ioc_ver1[ioc] : ioc_ver0[ioc];
				break;
			case 2:	/* newer uapi, zero tail */
				usize = ksize + 8 * (1 + rndn(64));
				break;
			case 3:	/* newer uapi, random tail */
				usize = ksize + 8 * (1 + rndn(64));
				for (j = ksize; j < usize; j++)
					a[j] = rndn(3) ? 0 : rnd();
				break;
			case 4:
				usize = 4096;
				break;
			case 5:	/* past the arena: into the guard page */
				usize = ARENA_PAGES * 4096 + rndn(8192);
				break;
			case 6:	/* between two published sizes */
				if (ioc_ver1[ioc]) {
					usize = ioc_ver0[ioc] +
						rndn(ioc_ver1[ioc] - ioc_ver0[ioc]);
					break;
				}
				usize = boundary();
				break;
			default:
				usize = boundary();
				break;
			}
			break;
		case 1:	/* flags */
			((__u32 *)a)[1] = rndn(2) ? rnd() : 1U << rndn(32);
			break;
		case 2:	/* a random byte anywhere past size and flags */
			a[8 + rndn(ksize - 8)] = rnd();
			break;
		case 3:	/* any 32-bit field */
			off = 8 + 4 * rndn((ksize - 8) / 4);
			*(__u32 *)(a + off) = boundary();
			break;
		case 4:	/* any 64-bit field */
			off = 8 + 8 * rndn((ksize - 8) / 8);
			*(__u64 *)(a + off) = boundary();
			break;
		default:	/* a pointer */
			for (j = 0; j < 8 && ptr_offs[ioc][j]; j++)
				;
			if (j) {
				off = ptr_offs[ioc][rndn(j)];
				*(__u64 *)(a + off) = bad_ptr(64);
			}
			break;
		}
	}
	return usize;
}

/* The permutation a ROUTE call was given, as it was before the call */
static __u32 *perm_copy;

/*
 * Copy @len bytes at @addr, which may be unreadable (a guard page): true
 * when all could be read. process_vm_readv() fails instead of faulting.
 */
static int safe_read(void *dst, __u64 addr, size_t len)
{
	struct iovec local = { .iov_base = dst, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len;
}

/* ---- A phase's faults (set through the netlink family) and memory limit ---- */

struct fault {
	__u32 kind, stage, index, state;
};

/* The faults the fabric has: how many, of which kind */
static __u32 nfaults, nlinks, nstuck;
static int faults_known, tight, limit_fd = -1, mem_fd = -1;
static char limit_orig[32], limit_tight[32];
static long long own_mem = -1;
static unsigned long long phase_left, phases, fault_phases, tight_phases;
static unsigned long long route_reports, batch_reports, trace_reports, route_hits;
static unsigned long long batch_hits, dry_hits_refused, dry_hits_ok, traces_skipped;
static unsigned long long hit_traces;
static unsigned char *seen;

/* Repair every fault of the fabric: 0 or -errno. */
static int nl_faults_clear(void)
{
	msg_start(family, NLM_F_ACK, BFLY_CMD_FAULT_DEL);
	put_u32(BFLY_A_ID, info.id);
	put(BFLY_A_ALL_FAULTS, NULL, 0);
	return nl_call();
}

/*
 * Fault injection needs the family and CAP_NET_ADMIN; without them the
 * fabric keeps the faults it has (none, freshly loaded) and the fault
 * reports are not checked.
 */
static void nl_init(void)
{
	int err = nl_open() ? -ENOENT : nl_faults_clear();

	if (!err) {
		faults_known = 1;
		return;
	}
	printf("# no fault injection (netlink: %s): fault reports not checked\n",
	       strerror(-err));
	if (nlfd > 0)
		close(nlfd);
	nlfd = -1;
}

/* A new random set of faults: none, stuck nodes, broken links, or both. */
static void new_faults(void)
{
	struct fault f[BFLY_MAX_FAULTS];
	__u32 want, n = 0, tries, j, mode = rndn(3);
	size_t nest;
	int err;

	switch (rndn(8)) {
	case 0:
	case 1:
		want = 0;
		break;
	case 2:
	case 3:
		want = 1;
		break;
	case 4:
		want = 1 + rndn(BFLY_MAX_FAULTS);
		break;
	default:
		want = 2 + rndn(6);
		break;
	}
	for (tries = 0; n < want && tries < 4 * want; tries++) {
		int link = mode == 2 ? (int)rndn(2) : (int)mode;
		struct fault x = {
			.kind = link ? BFLY_FAULT_LINK : BFLY_FAULT_STUCK,
			.stage = rndn(info.node_stages),
			.index = rndn(link ? info.ports : info.nodes_per_stage),
			.state = link ? 0 : rndn(2),
		};

		for (j = 0; j < n; j++)
			if (f[j].kind == x.kind && f[j].stage == x.stage &&
			    f[j].index == x.index)
				break;
		if (j == n)
			f[n++] = x;
	}

	err = nl_faults_clear();
	nfaults = 0;
	nlinks = 0;
	nstuck = 0;
	if (err) {
		REPORT("op %llu: netlink fault-del all-faults: %s", total_ops, strerror(-err));
		faults_known = 0;
		return;
	}
	if (!n)
		return;
	msg_start(family, NLM_F_ACK, BFLY_CMD_FAULT_ADD);
	put_u32(BFLY_A_ID, info.id);
	for (j = 0; j < n; j++) {
		nest = put(BFLY_A_FAULT | NLA_F_NESTED, NULL, 0);
		put_u32(BFLY_A_FAULT_KIND, f[j].kind);
		put_u32(BFLY_A_FAULT_STAGE, f[j].stage);
		put_u32(BFLY_A_FAULT_INDEX, f[j].index);
		if (f[j].kind == BFLY_FAULT_STUCK || rndn(2))
			put_u32(BFLY_A_FAULT_STATE, f[j].state);
		nest_end(nest);
	}
	err = nl_call();
	if (err) {
		REPORT("op %llu: netlink fault-add of %u faults: %s", total_ops, n,
		       strerror(-err));
		faults_known = 0;
		return;
	}
	nfaults = n;
	for (j = 0; j < n; j++) {
		nlinks += f[j].kind == BFLY_FAULT_LINK;
		nstuck += f[j].kind == BFLY_FAULT_STUCK;
	}
	fault_phases++;
}

static long long sysfs_read(int sfd)
{
	char b[32];
	ssize_t n = pread(sfd, b, sizeof(b) - 1, 0);

	if (n <= 0)
		return -1;
	b[n] = 0;
	return strtoll(b, NULL, 10);
}

/* Set fabric_mem_max */
static void set_limit(const char *v)
{
	if (pwrite(limit_fd, v, strlen(v), 0) < 0) {
		REPORT("op %llu: writing fabric_mem_max %s: %s", total_ops, v, strerror(errno));
		tight = 0;
	}
}

/*
 * The fabric's charged memory (its own, with no request running) and the
 * module's fabric_mem_max, when the module has them and we may write it.
 */
static void mem_init(void)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/mem_bytes", info.id);
	mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (mem_fd >= 0)
		own_mem = sysfs_read(mem_fd);
	limit_fd = open("/sys/module/bfly/parameters/fabric_mem_max", O_RDWR | O_CLOEXEC);
	if (limit_fd < 0)
		return;
	n = pread(limit_fd, limit_orig, sizeof(limit_orig) - 1, 0);
	if (n <= 0 || own_mem < 0) {
		close(limit_fd);
		limit_fd = -1;
		return;
	}
	limit_orig[n] = 0;
}

/* After each call no request holds memory: the fabric's charge is its own. */
static void check_mem(int ioc)
{
	long long now;

	/* (GET_INFO, GET_STATS and unknown requests allocate nothing) */
	if (mem_fd < 0 || ioc == IOC_INFO || ioc == IOC_STATS || ioc == IOC_BOGUS)
		return;
	now = sysfs_read(mem_fd);
	if (now != own_mem) {
		REPORT("op %llu: %s: the fabric's mem_bytes is %lld after the call, its own %lld",
		       total_ops, ioc_name[ioc], now, own_mem);
		own_mem = now;
	}
}

static void new_phase(void)
{
	__u64 gen;

	phases++;
	phase_left = 64 + rndn(256);
	if (faults_known) {
		new_faults();
		/* Faults change what the fabric does, never its matrix. */
		if (get_matrix(fd, now_m, mbytes, &gen) || gen != cur_gen ||
		    memcmp(now_m, cur_m, mbytes)) {
			REPORT("op %llu: fault-add/fault-del changed the matrix or generation",
			       total_ops);
			if (!get_matrix(fd, cur_m, mbytes, &gen))
				cur_gen = gen;
		}
	}
	tight = limit_fd >= 0 && !rndn(4);
	if (tight) {
		snprintf(limit_tight, sizeof(limit_tight), "%llu",
			 (unsigned long long)own_mem + (1ULL << rndn(17)));
		tight_phases++;
	}
}

static const void *uptr(__u64 p)
{
	return (const void *)(uintptr_t)p;
}

static unsigned long long bits_set(const __u64 *w, __u64 bits)
{
	unsigned long long c = 0;
	__u64 j;

	for (j = 0; j < bits / 64; j++)
		c += __builtin_popcountll(w[j]);
	if (bits % 64)
		c += __builtin_popcountll(w[j] & ((1ULL << (bits % 64)) - 1));
	return c;
}

static int bit(const __u64 *w, __u64 i)
{
	return w[i / 64] >> (i % 64) & 1;
}

/*
 * ROUTE's fault report, for an argument as built (the size aside): the
 * verdict, the counts and the affected bitmap.
 */
static void check_route_report(const struct bfly_route *r, __u32 usize, int e)
{
	const __u64 *aff = uptr(r->affected_ptr);
	__u32 n = info.ports;

	if (e && e != EBUSY && e != EOVERFLOW && e != EHOSTUNREACH)
		return;
	route_reports++;
	if (e == EHOSTUNREACH && r->flags & BFLY_ROUTE_ALLOW_FAULTS)
		REPORT("op %llu: ROUTE: EHOSTUNREACH with BFLY_ROUTE_ALLOW_FAULTS", total_ops);
	if (usize < BFLY_ROUTE_SIZE_VER1)
		return;
	if (r->faults != nfaults)
		REPORT("op %llu: ROUTE: faults %u, the fabric has %u", total_ops, r->faults,
		       nfaults);
	if (r->stuck_unmet > nstuck || (!nlinks && !r->stuck_unmet != !r->affected_count) ||
	    (r->stuck_unmet && !r->affected_count))
		REPORT("op %llu: ROUTE: %u inputs hit, %u stuck unmet; %u stuck, %u links",
		       total_ops, r->affected_count, r->stuck_unmet, nstuck, nlinks);
	if (e == EHOSTUNREACH && (!r->affected_count || r->conflicts_count))
		REPORT("op %llu: ROUTE: EHOSTUNREACH with %u inputs hit and %u conflicts",
		       total_ops, r->affected_count, r->conflicts_count);
	if (!e && r->affected_count &&
	    !(r->flags & (BFLY_ROUTE_ALLOW_FAULTS | BFLY_ROUTE_DRY_RUN)))
		REPORT("op %llu: ROUTE applied, %u inputs hit, without ALLOW_FAULTS",
		       total_ops, r->affected_count);
	if (r->affected_count) {
		route_hits++;
		if (r->flags & BFLY_ROUTE_DRY_RUN && !(r->flags & BFLY_ROUTE_ALLOW_FAULTS))
			e ? dry_hits_refused++ : dry_hits_ok++;
	}
	if (!aff)
		return;
	if (bits_set(aff, n) != r->affected_count ||
	    (n % 64 && aff[n / 64] >> (n % 64)))
		REPORT("op %llu: ROUTE: affected: %llu bits, %llu past ports; count %u",
		       total_ops, bits_set(aff, n),
		       bits_set(aff, BFLY_MATRIX_BYTES(n) * 8) - bits_set(aff, n),
		       r->affected_count);
}

static int untouched(const __u8 *p, __u64 len)
{
	__u64 j;

	for (j = 0; j < len; j++)
		if (p[j] != RECV_FILL)
			return 0;
	return 1;
}

/*
 * A batch that ran every round, its argument as built: each message is in
 * its receive slot, or was hit by a fault and its slot is untouched; the
 * done bits, the count and the list of messages hit agree.
 */
static void check_batch_report(const struct bfly_batch *b, __u32 usize, int e)
{
	const __u8 *send = uptr(b->send_ptr), *recv = uptr(b->recv_ptr);
	const struct bfly_msg_ref *ref = uptr(b->affected_ptr);
	const __u64 *done = uptr(b->done_ptr);
	__u64 ms = b->msg_size, n = info.ports, i, d, j, missing = 0, ndone = 0;
	int data = ms >= 8, known = usize >= BFLY_BATCH_SIZE_VER1;

	if (e && e != EHOSTUNREACH)
		return;
	batch_reports++;
	batch_hits += e == EHOSTUNREACH;
	for (i = 0; data && i < n; i++) {
		for (d = 0; d < n; d++) {
			const __u8 *rs = recv + (d * n + i) * ms;

			if (!memcmp(rs, send + (i * n + d) * ms, ms))
				continue;
			missing++;
			if (!untouched(rs, ms)) {
				REPORT("op %llu: BATCH: slot %llu -> %llu: neither sent nor intact",
				       total_ops, (unsigned long long)i, (unsigned long long)d);
				return;
			}
		}
	}
	if (done)
		ndone = bits_set(done, n * n);
	if (!!e != (data ? missing != 0 : done ? ndone != n * n : e != 0) ||
	    (data && done && ndone != n * n - missing))
		REPORT("op %llu: BATCH: %s with %llu messages missing, %llu done bits",
		       total_ops, e ? strerrorname_np(e) : "success",
		       (unsigned long long)missing, (unsigned long long)ndone);
	if (!known)
		return;
	if (b->faults != nfaults || !!e != !!b->affected ||
	    (data && b->affected != missing) || (done && ndone != n * n - b->affected))
		REPORT("op %llu: BATCH: %s, faults %u/%u, affected %llu, missing %llu, done %llu",
		       total_ops, e ? strerrorname_np(e) : "success", b->faults, nfaults,
		       (unsigned long long)b->affected, (unsigned long long)missing,
		       (unsigned long long)ndone);
	for (j = 0; ref && j < b->affected && j < b->affected_max; j++) {
		if (ref[j].source >= n || ref[j].dest >= n ||
		    (data && !untouched(recv + (ref[j].dest * n + ref[j].source) * ms, ms)) ||
		    (done && bit(done, ref[j].dest * n + ref[j].source))) {
			REPORT("op %llu: BATCH: message hit #%llu, %u -> %u: delivered or none",
			       total_ops, (unsigned long long)j, ref[j].source, ref[j].dest);
			return;
		}
	}
}

/* A trace: a permutation, but for the packets broken links lose. */
static void check_trace(const struct bfly_trace *t)
{
	const __u32 *p = uptr(t->perm_ptr);
	__u32 i, lost = 0;

	trace_reports++;
	memset(seen, 0, info.ports);
	for (i = 0; i < info.ports; i++) {
		if (p[i] == BFLY_TRACE_LOST) {
			lost++;
		} else if (p[i] >= info.ports || seen[p[i]]++) {
			REPORT("op %llu: TRACE: output %u of input %u is out of range or repeated",
			       total_ops, p[i], i);
			return;
		}
	}
	if (lost && faults_known && !nlinks)
		REPORT("op %llu: TRACE: %u packets lost without a broken link", total_ops, lost);
}

/*
 * After a route of @perm was applied: TRACE gives @perm back, but for the
 * inputs in @aff (a fault hit them), or NULL.
 */
static int trace_is(const __u32 *perm, const __u64 *aff)
{
	struct bfly_trace t = { .size = sizeof(t), .ports = info.ports };
	__u32 i;

	t.perm_ptr = (uintptr_t)trace_buf;
	if (ioctl(fd, BFLY_IOC_TRACE, &t))
		return 0;
	for (i = 0; i < info.ports; i++)
		if (trace_buf[i] != perm[i] && !(aff && bit(aff, i)))
			return 0;
	return 1;
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
		case 0:	/* a number past the last */
			cmd = _IOWR(BFLY_IOC_MAGIC, 0x09 + rndn(0xf7), struct bfly_info);
			break;
		case 1:	/* a known number with other direction bits */
			cmd = _IO(BFLY_IOC_MAGIC, rndn(9));
			if (rndn(2))
				cmd = _IOR(BFLY_IOC_MAGIC, rndn(9), struct bfly_info);
			break;
		default:	/* another type byte */
			cmd = _IOWR(BFLY_IOC_MAGIC ^ (1 + rndn(255)), rndn(9),
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
	if (ioc == IOC_SETM) {
		struct bfly_matrix *m = (void *)a;

		/* Unless it overlapped the argument, which the call rewrote. */
		if (m->matrix_ptr >= (uintptr_t)arena + 4096 &&
		    m->matrix_ptr < (uintptr_t)arena + ARENA_PAGES * 4096 &&
		    memcmp(now_m, (void *)(uintptr_t)m->matrix_ptr, mbytes))
			REPORT("op %llu: %s: matrix read back differs", total_ops,
			       ioc_name[ioc]);
	}
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
	seen = calloc(info.ports, 1);
	if (!cur_m || !now_m || !scratch_m || !trace_buf || !perm_copy || !seen ||
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
	tap_check(reports == 0,
		  "%llu operations (%llu refused), every errno documented, fabric unchanged by every refusal%s",
		  total_ops, refusals_checked,
		  reports > MAX_REPORTS ? " (more failures not shown)" : "");
	return reports ? 1 : 0;
}
