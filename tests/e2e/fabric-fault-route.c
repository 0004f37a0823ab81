// SPDX-License-Identifier: GPL-2.0
/*
 * fabric-fault-test's route mode: ROUTE's fault reports and refusals and
 * TRACE against a walk of every packet in user space.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

#include "fabric-fault-test.h"

/* ---- ioctls ---- */

struct bfly_route route_req(const __u32 *perm, __u32 flags, __u64 *m, __u64 *aff)
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

/*
 * Check a ROUTE's fault report against the walk of the matrix it
 * returned: affected bitmap and count, stuck_unmet, faults, and the
 * verdict @ret/@err: -EHOSTUNREACH exactly when packets are hit and
 * BFLY_ROUTE_ALLOW_FAULTS is not set; a dry run too, as a dry run with
 * conflicts gets -EBUSY. Returns the number of mismatches; explains the
 * first one when @what is given.
 */
int route_report_bad(const struct bfly_route *r, int ret, int err,
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

void mode_route(void)
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
