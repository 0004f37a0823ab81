// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-ioctl: a phase's faults (set through the netlink family) and memory
 * limit, and the checks of the fault reports ROUTE, BATCH and TRACE give.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

#include "e2e-util.h"
#include "nl-kit.h"
#include "fuzz-ioctl.h"

/* The permutation a ROUTE call was given, as it was before the call */
__u32 *perm_copy;

/*
 * Copy @len bytes at @addr, which may be unreadable (a guard page): true
 * when all could be read. process_vm_readv() fails instead of faulting.
 */
int safe_read(void *dst, __u64 addr, size_t len)
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
__u32 nfaults, nlinks, nstuck;
int faults_known, tight, limit_fd = -1, mem_fd = -1;
char limit_orig[32], limit_tight[32];
static long long own_mem = -1;
/* sysfs route_ws_bytes: the kept route workspace's part of mem_bytes */
static int ws_fd = -1;
unsigned long long phase_left, phases, fault_phases, tight_phases;
unsigned long long route_reports, batch_reports, trace_reports, route_hits;
unsigned long long batch_hits, dry_hits_refused, dry_hits_ok, traces_skipped;
unsigned long long hit_traces;
unsigned char *seen;

/* Repair every fault of the fabric: 0 or -errno. */
int nl_faults_clear(void)
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
void nl_init(void)
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
void set_limit(const char *v)
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
void mem_init(void)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/mem_bytes", info.id);
	mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (mem_fd >= 0)
		own_mem = sysfs_read(mem_fd);
	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/route_ws_bytes", info.id);
	ws_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (mem_fd >= 0 && ws_fd >= 0)
		own_mem -= sysfs_read(ws_fd);
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

/*
 * After each call no request holds memory: the fabric's charge is its own
 * and its kept route workspace.
 */
void check_mem(int ioc)
{
	long long now, kept = 0;

	/* (GET_INFO, GET_STATS and unknown requests allocate nothing) */
	if (mem_fd < 0 || ioc == IOC_INFO || ioc == IOC_STATS || ioc == IOC_BOGUS)
		return;
	now = sysfs_read(mem_fd);
	if (ws_fd >= 0)
		kept = sysfs_read(ws_fd);
	if (now - kept != own_mem) {
		REPORT("op %llu: %s: mem_bytes %lld after the call, own %lld + route_ws_bytes %lld",
		       total_ops, ioc_name[ioc], now, own_mem, kept);
		own_mem = now - kept;
	}
}

void new_phase(void)
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

const void *uptr(__u64 p)
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
void check_route_report(const struct bfly_route *r, __u32 usize, int e)
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
void check_batch_report(const struct bfly_batch *b, __u32 usize, int e)
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
void check_trace(const struct bfly_trace *t)
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
int trace_is(const __u32 *perm, const __u64 *aff)
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
