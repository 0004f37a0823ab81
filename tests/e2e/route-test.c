// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end test of the routing ioctls through the real device node:
 * SET/GET_MATRIX, TRACE, ROUTE (permutations and labels, dry runs,
 * conflicts), LINK_LOAD and GET_STATS, and every bad input, checking after
 * each refusal that the fabric is unchanged.
 *
 *   route-test DEVICE
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

static int fd, rofd;
static struct bfly_info info;
static size_t mbytes;

static __u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static struct bfly_route route_req(const __u32 *perm, __u32 flags)
{
	struct bfly_route r = { .size = sizeof(r), .flags = flags, .ports = info.ports };

	r.perm_ptr = (uintptr_t)perm;
	return r;
}

/* Run a request that must fail with @want and leave the fabric alone. */
#define REFUSED(call, want, what) REFUSED_ON(fd, mbytes, call, want, what)

static void test_matrix_and_trace(void)
{
	__u64 *m = calloc(1, mbytes), *back = calloc(1, mbytes), gen0 = 0, gen1 = 0;
	__u32 *perm = calloc(info.ports, 4), i;
	int ok = 1;

	tap_check(get_matrix(fd, m, mbytes, &gen0) == 0, "GET_MATRIX");
	random_matrix(m, mbytes, info.switches, &rnd_state);
	tap_check(set_matrix(fd, m, mbytes) == 0, "SET_MATRIX with random settings");
	tap_check(get_matrix(fd, back, mbytes, &gen1) == 0 && !memcmp(m, back, mbytes),
		  "GET_MATRIX reads back what SET_MATRIX wrote");
	tap_check(gen1 == gen0 + 1, "generation grew by one (%llu -> %llu)",
		  (unsigned long long)gen0, (unsigned long long)gen1);
	tap_check(trace(fd, perm, info.ports, NULL) == 0, "TRACE");
	{
		char *seen = calloc(info.ports, 1);

		for (i = 0; i < info.ports; i++) {
			if (perm[i] >= info.ports || seen[perm[i]])
				ok = 0;
			else
				seen[perm[i]] = 1;
		}
		free(seen);
	}
	tap_check(ok, "TRACE gives a permutation");
	tap_check(trace(rofd, perm, info.ports, NULL) == 0, "TRACE on a read-only descriptor");
	free(m);
	free(back);
	free(perm);
}

/* Route a permutation, check it traces back, and the dry run. */
static void test_route_perm(const __u32 *perm, const char *what)
{
	__u64 *m = calloc(1, mbytes), *dry = calloc(1, mbytes), gen0 = 0, gen1 = 0;
	__u32 *back = calloc(info.ports, 4);
	struct bfly_route r;
	struct snapshot s = { 0 };

	take_snapshot(&s, fd, mbytes);
	r = route_req(perm, BFLY_ROUTE_DRY_RUN);
	r.matrix_ptr = (uintptr_t)dry;
	r.matrix_bytes = mbytes;
	tap_check(ioctl(rofd, BFLY_IOC_ROUTE, &r) == 0, "%s: dry run on a read-only fd", what);
	tap_check(unchanged(&s), "%s: dry run changed nothing", what);
	tap_check(r.conflicts_count == 0 && r.first_conflict_stage == BFLY_NO_CONFLICT,
		  "%s: no conflict reported", what);

	get_matrix(fd, m, mbytes, &gen0);
	r = route_req(perm, 0);
	tap_check(ioctl(fd, BFLY_IOC_ROUTE, &r) == 0, "%s: ROUTE", what);
	get_matrix(fd, m, mbytes, &gen1);
	tap_check(gen1 == gen0 + 1 && r.generation == gen1, "%s: generation %llu",
		  what, (unsigned long long)gen1);
	tap_check(!memcmp(m, dry, mbytes), "%s: applied matrix equals the dry run's", what);
	tap_check(trace(fd, back, info.ports, NULL) == 0 && !memcmp(back, perm, info.ports * 4),
		  "%s: trace(route(p)) == p", what);
	free(s.m);
	free(m);
	free(dry);
	free(back);
}

static void test_route(void)
{
	__u32 *perm = calloc(info.ports, 4);
	int i;

	if (info.topology == BFLY_TOPO_BENES) {
		for (i = 0; i < 5; i++) {
			random_perm(perm, info.ports, &rnd_state);
			test_route_perm(perm, "benes random permutation");
		}
	}
	if (info.topology == BFLY_TOPO_BUTTERFLY) {
		/* A random matrix realizes some permutation: it must route. */
		__u64 *m = calloc(1, mbytes);

		random_matrix(m, mbytes, info.switches, &rnd_state);
		set_matrix(fd, m, mbytes);
		trace(fd, perm, info.ports, NULL);
		test_route_perm(perm, "butterfly realizable permutation");
		free(m);
	}
	if (info.topology == BFLY_TOPO_BFLY2 || info.topology == BFLY_TOPO_BFLY_TWICE) {
		struct bfly_route r;

		random_perm(perm, info.ports, &rnd_state);
		r = route_req(perm, 0);

		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EOPNOTSUPP,
			"plain permutation on bfly2/bfly-twice");
	}
	free(perm);
}

/* Paper Fig. 3 on a 16-port butterfly: first conflict stage 0, node 4. */
static void test_fig3(void)
{
	static const __u32 fig3[16] = { 0, 14, 2, 12, 4, 10, 6, 8, 7, 3, 5, 11, 9, 13, 1, 15 };
	struct bfly_conflict c[64];
	struct bfly_route r;
	struct bfly_stats st0 = { .size = sizeof(st0) }, st1 = { .size = sizeof(st1) };

	if (info.topology != BFLY_TOPO_BUTTERFLY || info.ports != 16)
		return;
	ioctl(fd, BFLY_IOC_GET_STATS, &st0);
	r = route_req(fig3, 0);
	r.conflicts_ptr = (uintptr_t)c;
	r.conflicts_max = 64;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EBUSY, "Fig. 3 permutation refused");
	tap_check(r.first_conflict_stage == 0, "Fig. 3: first conflict stage %u",
		  r.first_conflict_stage);
	tap_check(r.conflicts_count > 0 && c[0].stage == 0 && c[0].node == 4 &&
		  c[0].input[0] == 8 && c[0].input[1] == 9,
		  "Fig. 3: first conflict stage 0 node 4 inputs 8, 9 (got %u %u %u %u)",
		  c[0].stage, c[0].node, c[0].input[0], c[0].input[1]);
	ioctl(fd, BFLY_IOC_GET_STATS, &st1);
	tap_check(st1.routes == st0.routes + 1 && st1.refusals == st0.refusals + 1 &&
		  st1.conflicts == st0.conflicts + r.conflicts_count,
		  "stats count the refused route and its %u conflicts", r.conflicts_count);

	/* An undersized conflict array */
	r = route_req(fig3, 0);
	r.conflicts_ptr = (uintptr_t)c;
	r.conflicts_max = 1;
	c[1].stage = 0xdead;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EOVERFLOW, "undersized conflict array");
	tap_check(r.conflicts_count > 1 && c[1].stage == 0xdead,
		  "undersized conflict array: total %u, one entry written", r.conflicts_count);
}

/* Labels: conflicts, link loads, and on the butterfly labels = destinations. */
static void test_labels(void)
{
	__u64 *labels = calloc(info.ports, 8);
	struct bfly_link_load ll = { .size = sizeof(ll), .ports = info.ports };
	__u32 *load = calloc((size_t)info.ports * info.node_stages, 4);
	__u32 *perm = calloc(info.ports, 4), *back = calloc(info.ports, 4);
	struct bfly_route r;
	__u32 i;

	if (info.topology == BFLY_TOPO_BUTTERFLY) {
		/* The current matrix's permutation, routed by destination labels */
		trace(fd, perm, info.ports, NULL);
		for (i = 0; i < info.ports; i++)
			labels[i] = perm[i];
		r = route_req(NULL, BFLY_ROUTE_LABELS);
		r.perm_ptr = 0;
		r.labels_ptr = (uintptr_t)labels;
		r.label_bits = info.node_stages;
		tap_check(ioctl(fd, BFLY_IOC_ROUTE, &r) == 0 && r.method == BFLY_METHOD_LABELS,
			  "butterfly: destination labels of a realizable permutation route");
		tap_check(trace(fd, back, info.ports, NULL) == 0 &&
			  !memcmp(back, perm, info.ports * 4),
			  "butterfly: labels route traces back to the permutation");
		memset(labels, 0, info.ports * 8);
	}

	/* Labels of all zeros: conflicts in every node of stage 0 (N >= 2). */
	r = route_req(NULL, BFLY_ROUTE_LABELS | BFLY_ROUTE_DRY_RUN);
	r.perm_ptr = 0;
	r.labels_ptr = (uintptr_t)labels;
	r.label_bits = info.node_stages;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_ROUTE, &r), EBUSY, "all-zero labels conflict");
	tap_check(r.first_conflict_stage == 0 && r.conflicts_count >= info.nodes_per_stage,
		  "all-zero labels: %u conflicts from stage %u", r.conflicts_count,
		  r.first_conflict_stage);
	ll.flags = BFLY_ROUTE_LABELS;
	ll.label_bits = info.node_stages;
	ll.labels_ptr = (uintptr_t)labels;
	ll.load_ptr = (uintptr_t)load;
	ll.load_entries = (__u64)info.ports * info.node_stages;
	tap_check(ioctl(fd, BFLY_IOC_LINK_LOAD, &ll) == 0 && ll.max_link_load >= 2,
		  "link load of conflicting labels: MLL %u", ll.max_link_load);

	/* Label too wide */
	labels[0] = 1ULL << info.node_stages;
	r.flags = BFLY_ROUTE_LABELS;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "label wider than the stages");

	/* Link load following the matrix: at most one packet per link */
	memset(&ll, 0, sizeof(ll));
	ll.size = sizeof(ll);
	ll.ports = info.ports;
	tap_check(ioctl(fd, BFLY_IOC_LINK_LOAD, &ll) == 0 && ll.max_link_load == 1,
		  "link load along the matrix: MLL %u", ll.max_link_load);
	free(labels);
	free(load);
	free(perm);
	free(back);
}

/*
 * The errno a bad permutation request gets: plain permutations are not
 * routed on bfly2 and bfly-twice, which says so before looking at them.
 */
#define PERM_ERRNO(e)							\
	(info.topology == BFLY_TOPO_BFLY2 ||				\
	 info.topology == BFLY_TOPO_BFLY_TWICE ? EOPNOTSUPP : (e))

/*
 * A permutation, and a matrix buffer, that end 24 bytes into a page
 * without access: the copy faults part way through the array, after
 * whole words went through.
 */
static void test_bad_tail(const __u32 *perm, struct bfly_route *r)
{
	size_t pbytes = info.ports * sizeof(*perm);
	char *pages = mmap(NULL, 2 * 65536, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *hole = pages + 65536;

	tap_check(pages != MAP_FAILED, "ROUTE: maps for arrays ending on a page without access");
	if (pages == MAP_FAILED)
		return;
	/* Under a line, or over the map (N > 2^14), the other tests cover it. */
	if (pbytes < 64 || pbytes > 65536 || mbytes < 64 || mbytes > 65536) {
		munmap(pages, 2 * 65536);
		return;
	}
	mprotect(hole, 65536, PROT_NONE);
	memcpy(hole - pbytes + 24, perm, pbytes - 24);
	*r = route_req((__u32 *)(hole - pbytes + 24), 0);
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, r), EFAULT,
		"ROUTE: input ending on a page without access");
	*r = route_req(perm, 0);
	r->matrix_ptr = (uintptr_t)(hole - mbytes + 24);
	r->matrix_bytes = mbytes;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, r), EFAULT,
		"ROUTE: matrix output ending on a page without access");
	munmap(pages, 2 * 65536);
}

static void test_bad_input(void)
{
	__u32 *perm = calloc(info.ports + 1, 4);
	__u64 *m = calloc(1, mbytes + 8);
	struct bfly_conflict c[4];
	struct bfly_matrix ma;
	struct bfly_route r;
	struct bfly_trace t;
	void *unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(unmapped, 4096);
	random_perm(perm, info.ports, &rnd_state);

	r = route_req(perm, 0);
	r.ports = info.ports * 2;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: ports not the fabric's");
	r = route_req(perm, 0);
	r.ports = info.ports / 2;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: too few ports");
	if (info.ports > 2) {
		__u32 save = perm[1];

		perm[1] = perm[0];
		r = route_req(perm, 0);
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EINVAL), "ROUTE: repeated entry");
		perm[1] = save;
	}
	{
		__u32 save = perm[0];

		perm[0] = info.ports;
		r = route_req(perm, 0);
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EINVAL), "ROUTE: entry >= N");
		perm[0] = 0xffffffff;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EINVAL), "ROUTE: entry 2^32-1");
		perm[0] = save;
	}
	r = route_req(perm, 0);
	r.flags = 1U << 31;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: unknown flag");
	r = route_req(perm, 0);
	r.reserved[1] = 1;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: non-zero reserved");
	r = route_req(perm, 0);
	r.label_bits = info.node_stages;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: label_bits without labels");
	r = route_req(NULL, BFLY_ROUTE_LABELS);
	r.labels_ptr = (uintptr_t)m;
	r.label_bits = info.node_stages + 1;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: labels of the wrong width");
	r.label_bits = info.node_stages - 1;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: labels too narrow");
	r = route_req(perm, BFLY_ROUTE_LABELS);
	r.label_bits = info.node_stages;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: labels flag with a permutation");
	r = route_req(NULL, 0);
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: no permutation");
	r = route_req(unmapped, 0);
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EFAULT), "ROUTE: unmapped input");
	r = route_req((void *)0xffffffff81000000UL, 0);
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EFAULT), "ROUTE: kernel address");
	r = route_req(perm, BFLY_ROUTE_DRY_RUN);
	r.matrix_ptr = (uintptr_t)m;
	r.matrix_bytes = mbytes + 8;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: matrix buffer of the wrong size");
	r.matrix_bytes = 0;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: matrix buffer without a size");
	r = route_req(perm, 0);
	r.conflicts_ptr = (uintptr_t)c;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: conflict array without a size");
	r = route_req(perm, 0);
	REFUSED(ioctl(rofd, BFLY_IOC_ROUTE, &r), PERM_ERRNO(EBADF), "ROUTE: read-only fd");

	if (info.topology == BFLY_TOPO_BENES) {
		/* Outputs that fault: nothing may change. */
		r = route_req(perm, 0);
		r.matrix_ptr = (uintptr_t)unmapped;
		r.matrix_bytes = mbytes;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EFAULT, "ROUTE: unmapped matrix output");
		test_bad_tail(perm, &r);
	}

	/* Matrix */
	memset(&ma, 0, sizeof(ma));
	ma.size = sizeof(ma);
	ma.matrix_ptr = (uintptr_t)m;
	ma.matrix_bytes = mbytes - 8;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EINVAL, "SET_MATRIX: short buffer");
	ma.matrix_bytes = mbytes + 8;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EINVAL, "SET_MATRIX: long buffer");
	ma.matrix_bytes = mbytes;
	ma.flags = BFLY_MATRIX_PORT_MAP << 1;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EINVAL, "SET_MATRIX: unknown flag");
	ma.flags = 0;
	ma.reserved[0] = 1;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EINVAL, "SET_MATRIX: non-zero reserved");
	ma.reserved[0] = 0;
	if (info.switches % 64) {
		memset(m, 0, mbytes);
		m[mbytes / 8 - 1] = 1ULL << 63;
		REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EINVAL,
			"SET_MATRIX: a bit past the last node");
	}
	ma.matrix_ptr = (uintptr_t)unmapped;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EFAULT, "SET_MATRIX: unmapped buffer");
	ma.matrix_ptr = 0;
	REFUSED(ioctl(fd, BFLY_IOC_SET_MATRIX, &ma), EFAULT, "SET_MATRIX: NULL buffer");
	ma.matrix_ptr = (uintptr_t)m;
	memset(m, 0, mbytes);
	REFUSED(ioctl(rofd, BFLY_IOC_SET_MATRIX, &ma), EBADF, "SET_MATRIX: read-only fd");
	ma.matrix_ptr = (uintptr_t)unmapped;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_MATRIX, &ma), EFAULT, "GET_MATRIX: unmapped buffer");

	/* Trace */
	memset(&t, 0, sizeof(t));
	t.size = sizeof(t);
	t.ports = info.ports + 1;
	t.perm_ptr = (uintptr_t)perm;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_TRACE, &t), EINVAL, "TRACE: wrong ports");
	t.ports = info.ports;
	t.pad = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_TRACE, &t), EINVAL, "TRACE: non-zero pad");
	t.pad = 0;
	t.perm_ptr = (uintptr_t)unmapped;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_TRACE, &t), EFAULT, "TRACE: unmapped buffer");

	/* Truncated structs */
	r = route_req(perm, 0);
	r.size = BFLY_ROUTE_SIZE_VER0 - 8;
	REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL, "ROUTE: truncated struct");
	free(perm);
	free(m);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	rofd = open(argv[1], O_RDONLY);
	tap_check(fd >= 0 && rofd >= 0, "open %s", argv[1]);
	if (fd < 0 || rofd < 0)
		return 1;
	info.size = sizeof(info);
	tap_check(ioctl(fd, BFLY_IOC_GET_INFO, &info) == 0, "GET_INFO");
	mbytes = BFLY_MATRIX_BYTES(info.switches);

	test_matrix_and_trace();
	test_route();
	test_fig3();
	test_labels();
	test_bad_input();
	close(fd);
	close(rofd);
	return tap_failed ? 1 : 0;
}
