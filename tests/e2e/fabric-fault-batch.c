// SPDX-License-Identifier: GPL-2.0
/*
 * fabric-fault-test's batch mode: BATCH withholds exactly the messages the
 * faults hit, in round order, and delivers the rest.
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

/*
 * The messages the faults hit in an rls batch, in the order BATCH lists
 * them (round by round, sources ascending), as the kernel routes the
 * rounds: by destination labels on the butterfly, by the RLS labels
 * (BFLY_IOC_RLS_LABELS) on bfly2, by the looping algorithm on benes (a
 * dry-run ROUTE of the round's permutation, its report checked against
 * the walk). Returns the number; *@bad counts disagreements.
 */
__u32 expected_hits(struct bfly_msg_ref *refs, int *bad)
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

void bufs_alloc(struct batch_bufs *bb)
{
	__u64 n2 = (__u64)info.ports * info.ports;

	bb->bytes = n2 * MSG_SIZE;
	bb->send = malloc(bb->bytes);
	bb->recv = malloc(bb->bytes);
	bb->done = malloc((n2 + 63) / 64 * 8);
	bb->refs = malloc((n2 + 1) * sizeof(*bb->refs));
	fill_messages(bb->send, info.ports, MSG_SIZE);
}

void bufs_free(struct batch_bufs *bb)
{
	free(bb->send);
	free(bb->recv);
	free(bb->done);
	free(bb->refs);
}

struct bfly_batch batch_req(struct batch_bufs *bb, __u32 refs_max)
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
int recv_bad(const struct batch_bufs *bb, const struct bfly_msg_ref *hits, __u32 nhit)
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

void mode_batch(void)
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
