// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end test of injected faults (stuck nodes, broken links) through
 * the ioctls: ROUTE's fault report and refusal, TRACE, BATCH. Faults are
 * injected over netlink only, so the calling script adds them with bflyctl
 * and names them here again; this program never changes them.
 *
 *   fabric-fault-test MODE DEVICE [FAULT]...
 *
 * FAULT is stuck:STAGE:NODE:STATE (STATE 0 straight, 1 cross) or
 * link:STAGE:POS: every fault the fabric has, no other. MODE is
 *   route   ROUTE and TRACE against a walk of every packet in user space
 *           (the wiring of kmod/wiring.c): reports, refusals (dry runs
 *           too, as for conflicts), ALLOW_FAULTS, the old structure size;
 *           on the butterfly a stuck node hit and honoured, on the Benes
 *           network a single stuck node outside the middle stage honoured
 *           by every route, on bfly2 the RLS labels; a single broken link
 *           hitting exactly one packet of every permutation
 *   batch   BATCH (rls schedule) on the butterfly, bfly2 or benes: exactly
 *           the messages the faults hit withheld, in round order, the rest
 *           delivered; the old structure size; a short affected array
 *   clean   the fabric has no fault (any more): reports say so and the
 *           batch delivers everything
 *   bad     bad input on the fields of interface version 4
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "model.h"
#include "tap.h"

#define MSG_SIZE 16
/* What BATCH must leave in the receive slots of messages hit */
#define RECV_FILL 0xee

static int fd, rofd;
static struct bfly_info info;
static size_t mbytes, abytes;	/* switch matrix, bitmap of N bits */

static struct model_fault faults[BFLY_MAX_FAULTS];
static unsigned int nfaults;

static __u64 rnd_state = 0x2545f4914f6cdd1dULL;

/* ---- bits: the switch matrix and bitmaps of N bits ---- */

static int test_bit64(const __u64 *m, __u64 b)
{
	return (m[b / 64] >> (b % 64)) & 1;
}

static void put_bit64(__u64 *m, __u64 b, int v)
{
	if (v)
		m[b / 64] |= 1ULL << (b % 64);
	else
		m[b / 64] &= ~(1ULL << (b % 64));
}

static __u64 node_bit(__u32 stage, __u32 node)
{
	return (__u64)stage * info.nodes_per_stage + node;
}

/* A bitmap of N bits from one flag byte per input */
static void to_bitmap(const unsigned char *hit, __u64 *bm)
{
	__u32 i;

	memset(bm, 0, abytes);
	for (i = 0; i < info.ports; i++)
		put_bit64(bm, i, hit[i]);
}

static unsigned int count_flags(const unsigned char *hit)
{
	unsigned int i, n = 0;

	for (i = 0; i < info.ports; i++)
		n += hit[i];
	return n;
}

/* Set bits of a bitmap of N bits */
static unsigned int bitmap_weight(const __u64 *bm)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < abytes / 8; i++)
		n += __builtin_popcountll(bm[i]);
	return n;
}

/* ---- the fabric as the library models it (model.c) ---- */

static unsigned int count_kind(__u32 kind)
{
	unsigned int j, n = 0;

	for (j = 0; j < nfaults; j++)
		n += faults[j].kind == kind;
	return n;
}

/*
 * Follow every packet by its label (@labels) or by the matrix @m; @real:
 * where packets really go, else the path as routed with the packets a
 * fault hits flagged in @hit; @use_faults 0: the fabric without faults.
 * Returns the number of packets hit.
 */
static unsigned int walk(const __u64 *m, const __u64 *labels, int real, int use_faults,
			 __u32 *out, unsigned char *hit)
{
	return model_walk(m, labels, real, use_faults ? faults : NULL, nfaults, out, hit);
}

/* The plain trace of @m: the permutation it realizes without faults */
static void plain_trace(const __u64 *m, __u32 *out)
{
	walk(m, NULL, 0, 0, out, NULL);
}

/*
 * A random permutation: on the butterfly, which realizes only some, the
 * plain trace of a random matrix (set in @rm); any on the others.
 */
static void random_realizable_perm(__u32 *perm, __u64 *rm)
{
	if (info.topology == BFLY_TOPO_BUTTERFLY) {
		random_matrix(rm, mbytes, info.switches, &rnd_state);
		plain_trace(rm, perm);
	} else {
		random_perm(perm, info.ports, &rnd_state);
	}
}

/* Stuck nodes @m sets otherwise than they are stuck */
static unsigned int stuck_unmet(const __u64 *m)
{
	unsigned int j, n = 0;

	for (j = 0; j < nfaults; j++)
		if (faults[j].kind == BFLY_FAULT_STUCK &&
		    test_bit64(m, node_bit(faults[j].stage, faults[j].index)) !=
		    (int)faults[j].state)
			n++;
	return n;
}

/* ---- ioctls ---- */

static struct bfly_route route_req(const __u32 *perm, __u32 flags, __u64 *m, __u64 *aff)
{
	struct bfly_route r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.flags = flags;
	r.ports = info.ports;
	r.perm_ptr = (uintptr_t)perm;
	if (m) {
		r.matrix_ptr = (uintptr_t)m;
		r.matrix_bytes = mbytes;
	}
	r.affected_ptr = (uintptr_t)aff;
	return r;
}

/* Run a request that must fail with @want and leave the fabric alone. */
#define REFUSED(call, want, what) REFUSED_ON(fd, mbytes, call, want, what)

/*
 * Check a ROUTE's fault report against the walk of the matrix it
 * returned: affected bitmap and count, stuck_unmet, faults, and the
 * verdict @ret/@err: -EHOSTUNREACH exactly when packets are hit and
 * BFLY_ROUTE_ALLOW_FAULTS is not set; a dry run too, as a dry run with
 * conflicts gets -EBUSY. Returns the number of mismatches; explains the
 * first one when @what is given.
 */
static int route_report_bad(const struct bfly_route *r, int ret, int err,
			    const __u64 *m, const __u64 *aff, const char *what)
{
	unsigned char *hit = calloc(info.ports, 1);
	__u64 *want = calloc(1, abytes);
	unsigned int nhit, unmet;
	int refuse, bad = 0;

	nhit = walk(m, NULL, 0, 1, NULL, hit);
	to_bitmap(hit, want);
	unmet = stuck_unmet(m);
	refuse = nhit && !(r->flags & BFLY_ROUTE_ALLOW_FAULTS);
	if (memcmp(aff, want, abytes))
		bad++;
	if (r->affected_count != nhit || r->stuck_unmet != unmet || r->faults != nfaults)
		bad++;
	if (refuse ? ret != -1 || err != EHOSTUNREACH : ret != 0)
		bad++;
	if (bad && what) {
		printf("# %s: ret %d errno %d, affected %u (walk %u), stuck_unmet %u (%u),",
		       what, ret, ret ? err : 0, r->affected_count, nhit, r->stuck_unmet, unmet);
		printf(" faults %u (%u), bitmap %llx (%llx)\n", r->faults, nfaults,
		       (unsigned long long)aff[0], (unsigned long long)want[0]);
	}
	free(hit);
	free(want);
	return bad;
}

/* TRACE equals the real walk of GET_MATRIX under the faults. */
static void check_trace(const char *what)
{
	__u32 *got = calloc(info.ports, 4), *want = calloc(info.ports, 4), i, lost = 0;
	__u64 *m = calloc(1, mbytes);

	get_matrix(fd, m, mbytes, NULL);
	walk(m, NULL, 1, 1, want, NULL);
	tap_check(trace(rofd, got, info.ports, NULL) == 0 && !memcmp(got, want, info.ports * 4),
		  "%s: TRACE shows where packets really go", what);
	for (i = 0; i < info.ports; i++)
		lost += got[i] == BFLY_TRACE_LOST;
	if (!count_kind(BFLY_FAULT_LINK)) {
		/* Stuck nodes only: the trace of the matrix with their bits forced */
		for (i = 0; i < nfaults; i++)
			put_bit64(m, node_bit(faults[i].stage, faults[i].index), faults[i].state);
		plain_trace(m, want);
		tap_check(!memcmp(got, want, info.ports * 4) && !lost,
			  "%s: TRACE equals the trace of the matrix with the stuck bits forced",
			  what);
	} else if (count_kind(BFLY_FAULT_LINK) == 1) {
		tap_check(lost == 1, "%s: one broken link: TRACE loses exactly one packet (%u)",
			  what, lost);
	}
	free(got);
	free(want);
	free(m);
}

/* TRACE of random matrices, set with SET_MATRIX */
static void test_trace_random(void)
{
	__u64 *m = calloc(1, mbytes);
	int i;

	for (i = 0; i < 3; i++) {
		random_matrix(m, mbytes, info.switches, &rnd_state);
		set_matrix(fd, m, mbytes);
		check_trace("random matrix");
	}
	free(m);
}

/* ---- route mode ---- */

/* Dry runs of @count routes, their reports against the walks */
static void test_route_reports(int count)
{
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes), *rm = calloc(1, mbytes);
	__u32 *perm = calloc(info.ports, 4), *back = calloc(info.ports, 4);
	int i, ret, bad = 0, unreal = 0, hits = 0;
	struct bfly_route r;

	for (i = 0; i < count; i++) {
		random_realizable_perm(perm, rm);
		memset(aff, 0xa5, abytes);
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, m, aff);
		ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
		bad += !!route_report_bad(&r, ret, errno, m, aff, bad ? NULL : "dry run");
		plain_trace(m, back);
		unreal += !!memcmp(back, perm, info.ports * 4);
		hits += r.affected_count > 0;
	}
	tap_check(!bad,
		  "%d dry runs (%d hit): affected bitmap, counts and stuck_unmet match the walk of the returned matrix",
		  count, hits);
	tap_check(!unreal, "%d dry runs: the returned matrix realizes the permutation", count);
	free(m);
	free(aff);
	free(rm);
	free(perm);
	free(back);
}

/* A route the faults hit: refused, dry run, allowed; old structure size */
static void test_route_hit(const __u32 *perm, const char *what)
{
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes), *cur = calloc(1, mbytes);
	__u64 gen0 = 0, gen1 = 0;
	struct snapshot s = { 0 };
	struct bfly_route r;
	char name[128];
	int ret, err;

	take_snapshot(&s, fd, mbytes);
	memset(aff, 0xa5, abytes);
	r = route_req(perm, BFLY_ROUTE_DRY_RUN, m, aff);
	snprintf(name, sizeof(name), "%s: dry run refused like a route with conflicts", what);
	REFUSED(ioctl(rofd, BFLY_IOC_ROUTE, &r), EHOSTUNREACH, name);
	tap_check(r.affected_count > 0 && !route_report_bad(&r, -1, EHOSTUNREACH, m, aff, what),
		  "%s: dry run: the report written all the same", what);
	r = route_req(perm, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_ALLOW_FAULTS, m, aff);
	ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
	tap_check(ret == 0 && r.affected_count > 0 && unchanged(&s),
		  "%s: dry run with ALLOW_FAULTS: success, %u affected, nothing changed", what,
		  r.affected_count);
	memset(aff, 0xa5, abytes);
	r = route_req(perm, 0, m, aff);
	ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
	err = errno;
	tap_check(ret == -1 && err == EHOSTUNREACH, "%s: ROUTE refused with EHOSTUNREACH (%d, %s)",
		  what, ret, ret ? strerrorname_np(err) : "success");
	tap_check(unchanged(&s), "%s: refused: matrix and generation unchanged", what);
	tap_check(!route_report_bad(&r, ret, err, m, aff, what),
		  "%s: refused: %u inputs affected, stuck_unmet %u, the walk's", what,
		  r.affected_count, r.stuck_unmet);

	/* The old structure: refused all the same, nothing past it written */
	r = route_req(perm, 0, NULL, NULL);
	r.size = BFLY_ROUTE_SIZE_VER0;
	r.affected_count = 0xdead;
	snprintf(name, sizeof(name), "%s: old-size ROUTE", what);
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EHOSTUNREACH, name);
	tap_check(r.affected_count == 0xdead, "%s: old-size ROUTE: nothing written past its size",
		  what);

	/* Allowed: applied, reported the same */
	get_matrix(fd, cur, mbytes, &gen0);
	memset(aff, 0xa5, abytes);
	r = route_req(perm, BFLY_ROUTE_ALLOW_FAULTS, m, aff);
	ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
	err = errno;
	get_matrix(fd, cur, mbytes, &gen1);
	tap_check(ret == 0 && gen1 == gen0 + 1 && r.generation == gen1 && !memcmp(cur, m, mbytes),
		  "%s: ALLOW_FAULTS applies it (generation %llu -> %llu)", what,
		  (unsigned long long)gen0, (unsigned long long)gen1);
	tap_check(!route_report_bad(&r, ret, err, m, aff, what) && r.affected_count > 0,
		  "%s: allowed: still reports %u inputs affected", what, r.affected_count);
	check_trace(what);
	free(s.m);
	free(m);
	free(aff);
	free(cur);
}

/* Butterfly with one stuck node: a permutation that needs the other state */
static void test_butterfly_stuck(const struct model_fault *f)
{
	__u64 *rm = calloc(1, mbytes), *m = calloc(1, mbytes), *aff = malloc(abytes);
	__u32 *perm = calloc(info.ports, 4), *pos = calloc(info.ports, 4), i, s;
	unsigned char *through = calloc(info.ports, 1);
	__u64 *want = calloc(1, abytes);
	struct bfly_route r;
	int ret;

	/* A realizable permutation whose matrix sets the node otherwise */
	random_matrix(rm, mbytes, info.switches, &rnd_state);
	put_bit64(rm, node_bit(f->stage, f->index), !f->state);
	plain_trace(rm, perm);
	memset(aff, 0xa5, abytes);
	r = route_req(perm, BFLY_ROUTE_DRY_RUN, m, aff);
	ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
	tap_check(ret == -1 && errno == EHOSTUNREACH && !memcmp(m, rm, mbytes),
		  "butterfly stuck node: the dry run (EHOSTUNREACH) returns the permutation's one matrix");
	/* Which inputs pass the node: followed on the returned matrix */
	for (i = 0; i < info.ports; i++)
		pos[i] = i;
	for (s = 0; s < info.node_stages; s++)
		for (i = 0; i < info.ports; i++) {
			__u32 node = pos[i] >> 1, o;

			if (s == f->stage && node == f->index)
				through[i] = 1;
			o = (pos[i] ^ test_bit64(m, node_bit(s, node))) & 1;
			pos[i] = node << 1 | o;
			if (s + 1 < info.node_stages)
				pos[i] = model_wire(s, pos[i]);
		}
	to_bitmap(through, want);
	tap_check(count_flags(through) == 2 && !memcmp(aff, want, abytes) &&
		  r.affected_count == 2 && r.stuck_unmet == 1 && r.faults == nfaults,
		  "butterfly stuck node: affected = exactly the 2 inputs through stage %u node %u (bitmap %llx, want %llx; count %u, stuck_unmet %u)",
		  f->stage, f->index, (unsigned long long)aff[0], (unsigned long long)want[0],
		  r.affected_count, r.stuck_unmet);
	test_route_hit(perm, "butterfly stuck node");

	/* A permutation that fits the stuck state routes */
	put_bit64(rm, node_bit(f->stage, f->index), f->state);
	plain_trace(rm, perm);
	memset(aff, 0xa5, abytes);
	r = route_req(perm, 0, m, aff);
	ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
	tap_check(ret == 0 && r.affected_count == 0 && r.stuck_unmet == 0 && !bitmap_weight(aff),
		  "butterfly stuck node: a permutation fitting the stuck state routes (ret %d, affected %u)",
		  ret, r.affected_count);
	check_trace("butterfly, route fitting the stuck node");
	free(rm);
	free(m);
	free(aff);
	free(perm);
	free(pos);
	free(through);
	free(want);
}

/* Benes with one stuck node outside the middle stage: always honoured */
static void test_benes_honoured(const struct model_fault *f, int count)
{
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes), *cur = calloc(1, mbytes);
	__u32 *perm = calloc(info.ports, 4), *back = calloc(info.ports, 4);
	int i, ret, bad = 0, applied_bad = 0;
	struct bfly_route r;

	for (i = 0; i < count; i++) {
		random_perm(perm, info.ports, &rnd_state);
		memset(aff, 0xa5, abytes);
		/* Every tenth applied, the others dry runs */
		r = route_req(perm, i % 10 ? BFLY_ROUTE_DRY_RUN : 0, m, aff);
		ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
		plain_trace(m, back);
		if (ret || r.affected_count || r.stuck_unmet ||
		    test_bit64(m, node_bit(f->stage, f->index)) != (int)f->state ||
		    memcmp(back, perm, info.ports * 4) ||
		    route_report_bad(&r, ret, errno, m, aff, bad ? NULL : "benes honoured")) {
			bad++;
			continue;
		}
		if (i % 10)
			continue;
		/* Applied: the fabric really realizes the permutation */
		get_matrix(fd, cur, mbytes, NULL);
		if (trace(rofd, back, info.ports, NULL) || memcmp(back, perm, info.ports * 4) ||
		    memcmp(cur, m, mbytes))
			applied_bad++;
	}
	tap_check(!bad,
		  "benes, stage %u node %u stuck %s: %d random routes succeed, stuck bit kept, trace(matrix) = permutation (%d bad)",
		  f->stage, f->index, f->state ? "cross" : "straight", count, bad);
	tap_check(!applied_bad,
		  "benes, stuck node honoured: TRACE of the applied routes gives the permutation");
	free(m);
	free(aff);
	free(cur);
	free(perm);
	free(back);
}

/* One broken link: every full permutation loses exactly one packet */
static void test_one_link(int count)
{
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes), *rm = calloc(1, mbytes);
	__u32 *perm = calloc(info.ports, 4);
	int i, ret, bad = 0;
	struct bfly_route r;

	for (i = 0; i < count; i++) {
		random_realizable_perm(perm, rm);
		memset(aff, 0, abytes);
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, m, aff);
		ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
		if (ret != -1 || errno != EHOSTUNREACH || r.affected_count != 1 ||
		    bitmap_weight(aff) != 1)
			bad++;
	}
	tap_check(!bad,
		  "one broken link: %d dry runs of full permutations, each exactly 1 input affected",
		  count);
	free(m);
	free(aff);
	free(rm);
	free(perm);
}

/* bfly2: the RLS labels of every rotation, routed as dry runs */
static void test_route_labels(void)
{
	__u64 *labels = calloc(info.ports, 8), *m = calloc(1, mbytes), *aff = malloc(abytes);
	unsigned char *hit = calloc(info.ports, 1);
	struct bfly_rls_labels rl;
	struct bfly_route r;
	int ret, bad = 0, hits = 0;
	__u32 k;

	for (k = 0; k < info.ports; k++) {
		memset(&rl, 0, sizeof(rl));
		rl.size = sizeof(rl);
		rl.flags = BFLY_RLS_BY_ROTATION;
		rl.rotation = k;
		rl.count = info.ports;
		rl.labels_ptr = (uintptr_t)labels;
		if (ioctl(fd, BFLY_IOC_RLS_LABELS, &rl)) {
			bad++;
			continue;
		}
		memset(aff, 0xa5, abytes);
		r = route_req(NULL, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_LABELS, m, aff);
		r.labels_ptr = (uintptr_t)labels;
		r.label_bits = info.node_stages;
		ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
		/* Conflict-free: the labels' walk is the matrix's */
		if (route_report_bad(&r, ret, errno, m, aff, bad ? NULL : "labels") ||
		    walk(NULL, labels, 0, 1, NULL, hit) != r.affected_count)
			bad++;
		hits += r.affected_count > 0;
	}
	tap_check(!bad, "RLS labels of %u rotations (%d hit): the fault reports match the walks",
		  info.ports, hits);
	free(labels);
	free(m);
	free(aff);
	free(hit);
}

static void mode_route(void)
{
	__u32 *perm = calloc(info.ports, 4);
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes);
	unsigned int nstuck = count_kind(BFLY_FAULT_STUCK), nlink = count_kind(BFLY_FAULT_LINK);
	__u32 middle = info.ports_log2 - 1;
	struct bfly_route r;
	int i;

	test_trace_random();
	if (info.topology == BFLY_TOPO_BFLY2)
		test_route_labels();
	if (info.topology != BFLY_TOPO_BUTTERFLY && info.topology != BFLY_TOPO_BENES)
		goto out;
	test_route_reports(info.topology == BFLY_TOPO_BENES ? 200 : 100);
	if (nlink == 1 && !nstuck)
		test_one_link(100);
	if (info.topology == BFLY_TOPO_BUTTERFLY && nstuck == 1 && !nlink) {
		for (i = 0; faults[i].kind != BFLY_FAULT_STUCK; i++)
			;
		test_butterfly_stuck(&faults[i]);
	}
	if (info.topology == BFLY_TOPO_BENES && nstuck == 1 && !nlink &&
	    faults[0].stage != middle)
		test_benes_honoured(&faults[0], 200);

	/* Some route the faults hit (a random one; a broken link hits any) */
	for (i = 0; i < 200; i++) {
		random_realizable_perm(perm, m);
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, m, aff);
		if (ioctl(rofd, BFLY_IOC_ROUTE, &r) && errno == EHOSTUNREACH && r.affected_count)
			break;
	}
	if (i < 200)
		test_route_hit(perm, "a route the faults hit");
	else
		tap_check(nstuck == 1 && !nlink && info.topology == BFLY_TOPO_BENES,
			  "200 random routes, none hit (only a honoured stuck node)");
out:
	free(perm);
	free(m);
	free(aff);
}

/* ---- batch mode ---- */

/*
 * The messages the faults hit in an rls batch, in the order BATCH lists
 * them (round by round, sources ascending), as the kernel routes the
 * rounds: by destination labels on the butterfly, by the RLS labels
 * (BFLY_IOC_RLS_LABELS) on bfly2, by the looping algorithm on benes (a
 * dry-run ROUTE of the round's permutation, its report checked against
 * the walk). Returns the number; *@bad counts disagreements.
 */
static __u32 expected_hits(struct bfly_msg_ref *refs, int *bad)
{
	__u32 n = info.ports, k, i, count = 0, *dest = calloc(n, 4);
	__u64 *labels = calloc(n, 8), *m = calloc(1, mbytes), *aff = malloc(abytes);
	unsigned char *hit = calloc(n, 1);
	struct bfly_rls_labels rl;
	struct bfly_route r;
	int ret;

	for (k = 0; k < n; k++) {
		for (i = 0; i < n; i++)
			dest[i] = (i - k) & (n - 1);
		switch (info.topology) {
		case BFLY_TOPO_BUTTERFLY:
			for (i = 0; i < n; i++)
				labels[i] = dest[i];
			walk(NULL, labels, 0, 1, NULL, hit);
			break;
		case BFLY_TOPO_BFLY2:
			memset(&rl, 0, sizeof(rl));
			rl.size = sizeof(rl);
			rl.flags = BFLY_RLS_BY_ROTATION;
			rl.rotation = k;
			rl.count = n;
			rl.labels_ptr = (uintptr_t)labels;
			if (ioctl(fd, BFLY_IOC_RLS_LABELS, &rl))
				(*bad)++;
			walk(NULL, labels, 0, 1, NULL, hit);
			break;
		default:
			r = route_req(dest, BFLY_ROUTE_DRY_RUN, m, aff);
			ret = ioctl(rofd, BFLY_IOC_ROUTE, &r);
			if (route_report_bad(&r, ret, errno, m, aff, "batch round"))
				(*bad)++;
			walk(m, NULL, 0, 1, NULL, hit);
			break;
		}
		for (i = 0; i < n; i++) {
			if (!hit[i])
				continue;
			refs[count].source = i;
			refs[count].dest = dest[i];
			count++;
		}
	}
	free(dest);
	free(labels);
	free(m);
	free(aff);
	free(hit);
	return count;
}

struct batch_bufs {
	__u8 *send, *recv;
	__u64 *done;
	struct bfly_msg_ref *refs;	/* room for N * N + 1 */
	__u64 bytes;
};

static void bufs_alloc(struct batch_bufs *bb)
{
	__u64 n2 = (__u64)info.ports * info.ports;

	bb->bytes = n2 * MSG_SIZE;
	bb->send = malloc(bb->bytes);
	bb->recv = malloc(bb->bytes);
	bb->done = malloc((n2 + 63) / 64 * 8);
	bb->refs = malloc((n2 + 1) * sizeof(*bb->refs));
	fill_messages(bb->send, info.ports, MSG_SIZE);
}

static void bufs_free(struct batch_bufs *bb)
{
	free(bb->send);
	free(bb->recv);
	free(bb->done);
	free(bb->refs);
}

static struct bfly_batch batch_req(struct batch_bufs *bb, __u32 refs_max)
{
	struct bfly_batch b = batch_args(BFLY_SCHED_RLS, info.ports, MSG_SIZE, bb->send,
					 bb->recv);

	b.done_ptr = (uintptr_t)bb->done;
	if (refs_max) {
		b.affected_ptr = (uintptr_t)bb->refs;
		b.affected_max = refs_max;
	}
	memset(bb->recv, RECV_FILL, bb->bytes);
	memset(bb->done, 0xa5, ((__u64)info.ports * info.ports + 63) / 64 * 8);
	memset(bb->refs, 0xff, ((__u64)info.ports * info.ports + 1) * sizeof(*bb->refs));
	return b;
}

/*
 * The receive slots and done bits after a batch: the @nhit messages of
 * @hits untouched and not done, every other one delivered and done.
 */
static int recv_bad(const struct batch_bufs *bb, const struct bfly_msg_ref *hits, __u32 nhit)
{
	__u32 n = info.ports, s, d, j;
	unsigned char *withheld = calloc((size_t)n * n, 1);
	int bad = 0;

	for (j = 0; j < nhit; j++)
		withheld[(size_t)hits[j].dest * n + hits[j].source] = 1;
	for (d = 0; d < n; d++)
		for (s = 0; s < n; s++) {
			__u64 bit = (__u64)d * n + s, t;
			const __u8 *slot = bb->recv + bit * MSG_SIZE;
			int done = test_bit64(bb->done, bit), k, fill = 1;

			for (k = 0; k < MSG_SIZE; k++)
				fill &= slot[k] == RECV_FILL;
			memcpy(&t, slot, 8);
			if (withheld[bit] ? done || !fill
					  : !done || t != msg_tag(s, d) ||
					    slot[MSG_SIZE - 1] != ((s + d) & 0xff))
				bad++;
		}
	free(withheld);
	return bad;
}

static void mode_batch(void)
{
	__u64 n2 = (__u64)info.ports * info.ports;
	struct bfly_msg_ref *want = calloc(n2, sizeof(*want));
	struct batch_bufs bb;
	struct bfly_batch b;
	__u32 nhit, short_max;
	int bad = 0, ret, err;

	bufs_alloc(&bb);
	nhit = expected_hits(want, &bad);
	tap_check(!bad, "batch: the rounds' fault reports agree with the walks");
	if (count_kind(BFLY_FAULT_LINK) == 1 && !count_kind(BFLY_FAULT_STUCK))
		tap_check(nhit == info.ports,
			  "batch: one broken link hits one message a round (%u)", nhit);

	b = batch_req(&bb, n2);
	ret = ioctl(fd, BFLY_IOC_BATCH, &b);
	err = errno;
	if (nhit)
		tap_check(ret == -1 && err == EHOSTUNREACH,
			  "batch: EHOSTUNREACH when messages were hit (%d, %s)", ret,
			  ret ? strerrorname_np(err) : "success");
	else
		tap_check(ret == 0, "batch: no message hit, success (%d, %s)", ret,
			  ret ? strerrorname_np(err) : "success");
	tap_check(b.rounds == info.ports && b.faults == nfaults,
		  "batch: every round ran (%u of %u), faults %u", b.rounds, info.ports, b.faults);
	tap_check(b.affected == nhit && (!nhit || b.affected > 0),
		  "batch: affected %llu, expected %u", (unsigned long long)b.affected, nhit);
	tap_check(!memcmp(bb.refs, want, nhit * sizeof(*want)) && bb.refs[nhit].source == ~0U,
		  "batch: the affected list holds the messages hit, in round order");
	tap_check(!recv_bad(&bb, want, nhit),
		  "batch: hit messages' slots untouched and not done, the others delivered and done");
	tap_check(b.bytes_moved == (n2 - nhit) * MSG_SIZE,
		  "batch: bytes_moved %llu = (N*N - affected) * msg_size",
		  (unsigned long long)b.bytes_moved);

	if (nhit > 1) {
		/* A short affected array: the first ones, the total counted */
		short_max = nhit / 2;
		b = batch_req(&bb, short_max);
		ret = ioctl(fd, BFLY_IOC_BATCH, &b);
		tap_check(ret == -1 && errno == EHOSTUNREACH && b.affected == nhit &&
			  !memcmp(bb.refs, want, short_max * sizeof(*want)) &&
			  bb.refs[short_max].source == ~0U,
			  "batch: affected_max %u of %u: the first ones listed, all counted",
			  short_max, nhit);
	}

	/* No affected array: the same, without the list */
	b = batch_req(&bb, 0);
	ret = ioctl(fd, BFLY_IOC_BATCH, &b);
	tap_check((nhit ? ret == -1 && errno == EHOSTUNREACH : ret == 0) && b.affected == nhit &&
		  !recv_bad(&bb, want, nhit),
		  "batch without an affected array: same verdict and deliveries");

	/* The old structure size: the verdict all the same */
	b = batch_req(&bb, 0);
	b.size = BFLY_BATCH_SIZE_VER0;
	b.affected = 0xdead;
	b.faults = 0xbeef;
	ret = ioctl(fd, BFLY_IOC_BATCH, &b);
	err = errno;
	tap_check(nhit ? ret == -1 && err == EHOSTUNREACH : ret == 0,
		  "old-size batch: %s (%d, %s)", nhit ? "EHOSTUNREACH" : "success", ret,
		  ret ? strerrorname_np(err) : "success");
	tap_check(b.rounds == info.ports && b.bytes_moved == (n2 - nhit) * MSG_SIZE &&
		  !recv_bad(&bb, want, nhit),
		  "old-size batch: every round ran, the same messages delivered");
	tap_check(b.affected == 0xdead && b.faults == 0xbeef,
		  "old-size batch: nothing written past its size");
	bufs_free(&bb);
	free(want);
}

/* ---- clean mode: no fault ---- */

static void mode_clean(void)
{
	__u64 n2 = (__u64)info.ports * info.ports;
	__u32 *perm = calloc(info.ports, 4), *got = calloc(info.ports, 4);
	__u32 *want = calloc(info.ports, 4);
	__u64 *m = calloc(1, mbytes), *aff = malloc(abytes), *zero = calloc(1, abytes);
	struct batch_bufs bb;
	struct bfly_route r;
	struct bfly_batch b;
	int ret;

	random_matrix(m, mbytes, info.switches, &rnd_state);
	set_matrix(fd, m, mbytes);
	plain_trace(m, want);
	tap_check(trace(rofd, got, info.ports, NULL) == 0 && !memcmp(got, want, info.ports * 4),
		  "no faults: TRACE is the plain trace of the matrix");
	if (info.topology == BFLY_TOPO_BUTTERFLY || info.topology == BFLY_TOPO_BENES) {
		if (info.topology == BFLY_TOPO_BUTTERFLY)
			memcpy(perm, want, info.ports * 4);
		else
			random_perm(perm, info.ports, &rnd_state);
		memset(aff, 0xff, abytes);
		r = route_req(perm, 0, m, aff);
		r.affected_count = 7;
		r.stuck_unmet = 7;
		r.faults = 7;
		ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
		tap_check(ret == 0 && !r.affected_count && !r.stuck_unmet && !r.faults &&
			  !memcmp(aff, zero, abytes),
			  "no faults: ROUTE applies, reports no fault and clears the affected bitmap");
	}
	if (info.topology == BFLY_TOPO_BFLY_TWICE)
		goto out;
	bufs_alloc(&bb);
	b = batch_req(&bb, n2);
	b.affected = 7;
	b.faults = 7;
	ret = ioctl(fd, BFLY_IOC_BATCH, &b);
	tap_check(ret == 0 && b.rounds == info.ports && !b.affected && !b.faults &&
		  bb.refs[0].source == ~0U,
		  "no faults: BATCH succeeds, affected 0, faults 0, list untouched");
	tap_check(!recv_bad(&bb, NULL, 0) && b.bytes_moved == n2 * MSG_SIZE,
		  "no faults: every message delivered and done");
	bufs_free(&bb);
out:
	free(perm);
	free(got);
	free(want);
	free(m);
	free(aff);
	free(zero);
}

/* ---- bad mode: bad input on the new fields ---- */

static void mode_bad(void)
{
	__u64 n2 = (__u64)info.ports * info.ports;
	__u32 *perm = calloc(info.ports, 4);
	__u64 *aff = malloc(abytes);
	struct bfly_msg_ref *refs = calloc(n2, sizeof(*refs));
	void *unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *kaddr = (void *)0xffffffff81000000UL;
	struct batch_bufs bb;
	struct bfly_route r;
	struct bfly_batch b;
	int bad = 0;
	__u32 nhit;

	munmap(unmapped, 4096);
	random_perm(perm, info.ports, &rnd_state);
	if (info.topology == BFLY_TOPO_BUTTERFLY || info.topology == BFLY_TOPO_BENES) {
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, NULL, aff);
		r.pad = 1;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: non-zero pad");
		r.pad = 0;
		r.reserved2[0] = 1;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: non-zero reserved2[0]");
		r.reserved2[0] = 0;
		r.reserved2[1] = 1;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: non-zero reserved2[1]");
		r.reserved2[1] = 0;
		r.flags = BFLY_ROUTE_ALLOW_FAULTS << 1;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL,
			"ROUTE: the flag after ALLOW_FAULTS");
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, NULL, unmapped);
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EFAULT, "ROUTE: unmapped affected bitmap");
		r = route_req(perm, BFLY_ROUTE_ALLOW_FAULTS, NULL, unmapped);
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EFAULT,
			"ROUTE (applied): unmapped affected bitmap");
		r = route_req(perm, BFLY_ROUTE_DRY_RUN, NULL, kaddr);
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EFAULT,
			"ROUTE: kernel address as affected bitmap");
		/* A larger structure with a non-zero unknown byte */
		{
			struct {
				struct bfly_route r;
				__u64 more;
			} big;

			memset(&big, 0, sizeof(big));
			big.r = route_req(perm, BFLY_ROUTE_DRY_RUN, NULL, NULL);
			big.r.size = sizeof(big);
			big.more = 1;
			REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &big), E2BIG,
				"ROUTE: larger structure, non-zero byte past the known ones");
		}
	}
	if (info.topology == BFLY_TOPO_BFLY_TWICE)
		goto out;

	bufs_alloc(&bb);
	b = batch_req(&bb, n2);
	b.reserved2[0] = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "BATCH: non-zero reserved2[0]");
	b = batch_req(&bb, n2);
	b.reserved2[1] = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL, "BATCH: non-zero reserved2[1]");
	b = batch_req(&bb, n2);
	b.affected_max = 0;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL,
		  "BATCH: affected_ptr without affected_max");
	b = batch_req(&bb, 0);
	b.affected_max = 4;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EINVAL,
		  "BATCH: affected_max without affected_ptr");
	b = batch_req(&bb, n2);
	b.affected_ptr = (uintptr_t)kaddr;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT, "BATCH: kernel address as affected list");
	tap_check(b.rounds == 0 && b.affected == 0, "BATCH: refused before any round");
	b = batch_req(&bb, n2);
	b.affected_ptr = (uintptr_t)~0ULL - 64;
	b.affected_max = 0xffffffff;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT,
		  "BATCH: affected list past the address space");
	nhit = expected_hits(refs, &bad);
	if (nhit) {
		b = batch_req(&bb, n2);
		b.affected_ptr = (uintptr_t)unmapped;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), EFAULT,
			  "BATCH: unmapped affected list, messages hit");
		tap_check(b.rounds < info.ports,
			  "BATCH: unmapped affected list: stopped at the first hit (round %u)",
			  b.rounds);
	} else {
		tap_check(0, "bad: the faults given hit no message of the batch");
	}
	bufs_free(&bb);
out:
	free(perm);
	free(aff);
	free(refs);
}

/* ---- main ---- */

static int parse_faults(int argc, char **argv)
{
	struct model_fault *f;
	int i;

	for (i = 0; i < argc; i++) {
		if (nfaults == BFLY_MAX_FAULTS)
			return -1;
		f = &faults[nfaults++];
		if (sscanf(argv[i], "stuck:%u:%u:%u", &f->stage, &f->index, &f->state) == 3 &&
		    f->state <= 1)
			f->kind = BFLY_FAULT_STUCK;
		else if (sscanf(argv[i], "link:%u:%u", &f->stage, &f->index) == 2)
			f->kind = BFLY_FAULT_LINK;
		else
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode;

	if (argc < 3 || parse_faults(argc - 3, argv + 3)) {
		fprintf(stderr,
			"usage: %s route|batch|clean|bad DEVICE [stuck:S:K:STATE|link:S:P]...\n",
			argv[0]);
		return 2;
	}
	mode = argv[1];
	fd = open(argv[2], O_RDWR);
	rofd = open(argv[2], O_RDONLY);
	tap_check(fd >= 0 && rofd >= 0, "open %s", argv[2]);
	if (fd < 0 || rofd < 0)
		return 1;
	info.size = sizeof(info);
	if (ioctl(fd, BFLY_IOC_GET_INFO, &info))
		info.uapi_version = 0;
	tap_check(info.uapi_version >= 4, "GET_INFO: interface version %u", info.uapi_version);
	if (model_init(&info))
		return 1;
	mbytes = BFLY_MATRIX_BYTES(info.switches);
	abytes = BFLY_MATRIX_BYTES(info.ports);
	rnd_state ^= info.ports * 0x9e3779b97f4a7c15ULL + nfaults;

	if (!strcmp(mode, "route"))
		mode_route();
	else if (!strcmp(mode, "batch"))
		mode_batch();
	else if (!strcmp(mode, "clean"))
		mode_clean();
	else if (!strcmp(mode, "bad"))
		mode_bad();
	else
		tap_check(0, "unknown mode '%s'", mode);
	close(fd);
	close(rofd);
	return tap_failed ? 1 : 0;
}
