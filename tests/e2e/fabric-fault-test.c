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
 *           (the library's wiring, through model.c): reports, refusals
 *           (dry runs too, as for conflicts), ALLOW_FAULTS, the old
 *           structure size;
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

#include "fabric-fault-test.h"

int fd, rofd;
struct bfly_info info;
size_t mbytes, abytes;	/* switch matrix, bitmap of N bits */

struct model_fault faults[BFLY_MAX_FAULTS];
unsigned int nfaults;

__u64 rnd_state = 0x2545f4914f6cdd1dULL;

/* ---- bits: the switch matrix and bitmaps of N bits ---- */

int test_bit64(const __u64 *m, __u64 b)
{
	return (m[b / 64] >> (b % 64)) & 1;
}

void put_bit64(__u64 *m, __u64 b, int v)
{
	if (v)
		m[b / 64] |= 1ULL << (b % 64);
	else
		m[b / 64] &= ~(1ULL << (b % 64));
}

__u64 node_bit(__u32 stage, __u32 node)
{
	return (__u64)stage * info.nodes_per_stage + node;
}

/* A bitmap of N bits from one flag byte per input */
void to_bitmap(const unsigned char *hit, __u64 *bm)
{
	__u32 i;

	memset(bm, 0, abytes);
	for (i = 0; i < info.ports; i++)
		put_bit64(bm, i, hit[i]);
}

unsigned int count_flags(const unsigned char *hit)
{
	unsigned int i, n = 0;

	for (i = 0; i < info.ports; i++)
		n += hit[i];
	return n;
}

/* Set bits of a bitmap of N bits */
unsigned int bitmap_weight(const __u64 *bm)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < abytes / 8; i++)
		n += __builtin_popcountll(bm[i]);
	return n;
}

/* ---- the fabric as the library models it (model.c) ---- */

unsigned int count_kind(__u32 kind)
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
unsigned int walk(const __u64 *m, const __u64 *labels, int real, int use_faults,
		  __u32 *out, unsigned char *hit)
{
	return model_walk(m, labels, real, use_faults ? faults : NULL, nfaults, out, hit);
}

/* The plain trace of @m: the permutation it realizes without faults */
void plain_trace(const __u64 *m, __u32 *out)
{
	walk(m, NULL, 0, 0, out, NULL);
}

/*
 * A random permutation: on the butterfly, which realizes only some, the
 * plain trace of a random matrix (set in @rm); any on the others.
 */
void random_realizable_perm(__u32 *perm, __u64 *rm)
{
	if (info.topology == BFLY_TOPO_BUTTERFLY) {
		random_matrix(rm, mbytes, info.switches, &rnd_state);
		plain_trace(rm, perm);
	} else {
		random_perm(perm, info.ports, &rnd_state);
	}
}

/* Stuck nodes @m sets otherwise than they are stuck */
unsigned int stuck_unmet(const __u64 *m)
{
	unsigned int j, n = 0;

	for (j = 0; j < nfaults; j++)
		if (faults[j].kind == BFLY_FAULT_STUCK &&
		    test_bit64(m, node_bit(faults[j].stage, faults[j].index)) !=
		    (int)faults[j].state)
			n++;
	return n;
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
		r.flags = BFLY_ROUTE_CONFLICT_PORTS << 1;
		REFUSED(ioctl(fd, BFLY_IOC_ROUTE, &r), EINVAL,
			"ROUTE: the flag after the last one (CONFLICT_PORTS)");
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
