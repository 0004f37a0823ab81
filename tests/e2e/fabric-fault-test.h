/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of fabric-fault-test share: the fabric, its faults and
 * the walk of packets (fabric-fault-test.c), the route mode
 * (fabric-fault-route.c) and the batch mode (fabric-fault-batch.c).
 */
#ifndef BFLY_FABRIC_FAULT_TEST_H
#define BFLY_FABRIC_FAULT_TEST_H

#include <stddef.h>

#include <linux/bfly.h>
#include <linux/types.h>

#include "model.h"

#define MSG_SIZE 16
/* What BATCH must leave in the receive slots of messages hit */
#define RECV_FILL 0xee

/* Run a request that must fail with @want and leave the fabric alone. */
#define REFUSED(call, want, what) REFUSED_ON(fd, mbytes, call, want, what)

/* fabric-fault-test.c */
extern int fd, rofd;
extern struct bfly_info info;
extern size_t mbytes, abytes;
extern struct model_fault faults[BFLY_MAX_FAULTS];
extern unsigned int nfaults;
extern __u64 rnd_state;
int test_bit64(const __u64 *m, __u64 b);
void put_bit64(__u64 *m, __u64 b, int v);
__u64 node_bit(__u32 stage, __u32 node);
void to_bitmap(const unsigned char *hit, __u64 *bm);
unsigned int count_flags(const unsigned char *hit);
unsigned int bitmap_weight(const __u64 *bm);
unsigned int count_kind(__u32 kind);
unsigned int walk(const __u64 *m, const __u64 *labels, int real, int use_faults,
		  __u32 *out, unsigned char *hit);
void plain_trace(const __u64 *m, __u32 *out);
void random_realizable_perm(__u32 *perm, __u64 *rm);
unsigned int stuck_unmet(const __u64 *m);

/* fabric-fault-route.c */
struct bfly_route route_req(const __u32 *perm, __u32 flags, __u64 *m, __u64 *aff);
int route_report_bad(const struct bfly_route *r, int ret, int err,
		     const __u64 *m, const __u64 *aff, const char *what);
void mode_route(void);

/* fabric-fault-batch.c */
struct batch_bufs {
	__u8 *send, *recv;
	__u64 *done;
	struct bfly_msg_ref *refs;	/* room for N * N + 1 */
	__u64 bytes;
};

__u32 expected_hits(struct bfly_msg_ref *refs, int *bad);
void bufs_alloc(struct batch_bufs *bb);
void bufs_free(struct batch_bufs *bb);
struct bfly_batch batch_req(struct batch_bufs *bb, __u32 refs_max);
int recv_bad(const struct batch_bufs *bb, const struct bfly_msg_ref *hits, __u32 nhit);
void mode_batch(void);

#endif /* BFLY_FABRIC_FAULT_TEST_H */
