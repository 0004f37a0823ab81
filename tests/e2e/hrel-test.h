/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hrel-test: the relations it sends (messages, tagged payload, the model
 * of what arrives) and the checked run of one (hrel-test-rel.c), shared by
 * the parts in hrel-test.c.
 */
#ifndef _BFLY_HREL_TEST_H
#define _BFLY_HREL_TEST_H

#include "e2e-util.h"

extern struct bfly_info info;
extern int fd;
extern const char *dev;

/* A relation: its messages, payload buffers, the outputs and the model. */
struct rel {
	__u32 n, h;
	struct bfly_msgset_msg *msgs;
	__u8 *send, *recv, *want;
	__u64 send_bytes, recv_bytes, total;
	__u32 *round, *perms;
	__u64 perm_entries;
};

void *xmalloc(size_t bytes);
void rel_free(struct rel *r);
void rel_alloc(struct rel *r, __u32 n);
__u32 degree(const struct rel *r);
__u8 tag(__u32 m, __u32 k);
void add_payload(struct rel *r, __u32 maxlen, __u64 *seed);
void add_slots(struct rel *r, __u32 size);
struct bfly_hrel args(struct rel *r, __u64 seed);
int perms_agree(const struct rel *r, __u32 rounds);
__u32 run_check(struct rel *r, __u64 seed, const char *what);
void union_of_perms(struct rel *r, __u32 h, __u64 *seed);
int runs_exchange(void);

/* hrel-test-mem.c: the payload's memory edges */
void part_lines(void);
void part_top(void);
void part_paramrace(void);
void part_overlap_units(void);
void part_permlimit(void);

/* hrel-test-batch.c: batch lists at their edges */
void part_near(void);
void part_limit(void);
void part_listsignal(void);

#endif /* _BFLY_HREL_TEST_H */
