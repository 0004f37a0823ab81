/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of fuzz-ioctl share: the ioctls and the fabric's state
 * (fuzz-ioctl.c), the arguments built and broken (fuzz-ioctl-args.c), a
 * phase's faults and memory limit and the checks of fault reports
 * (fuzz-ioctl-faults.c), the message lists of MSGSET and HREL and the
 * check of an HREL's outputs (fuzz-ioctl-hrel.c).
 */
#ifndef BFLY_FUZZ_IOCTL_H
#define BFLY_FUZZ_IOCTL_H

#include <stddef.h>

#include <linux/bfly.h>
#include <linux/types.h>

#include "tap.h"

#define ARENA_PAGES 64
#define MAX_ERRNO 134
#define MAX_REPORTS 10
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Every byte of a batch's receive slot that no message reached */
#define RECV_FILL 0xa5

enum { IOC_INFO, IOC_GETM, IOC_SETM, IOC_TRACE, IOC_ROUTE, IOC_LL,
	IOC_STATS, IOC_RLS, IOC_BATCH, IOC_MSGSET, IOC_HREL, IOC_BOGUS, NIOC };

/* A failed check: the first MAX_REPORTS are printed. */
#define REPORT(...)							\
	do {								\
		if (++reports <= MAX_REPORTS)				\
			tap_check(0, __VA_ARGS__);			\
	} while (0)

/* fuzz-ioctl.c */
extern const char * const ioc_name[NIOC];
extern __u64 rnd_state;
extern const size_t ioc_size[NIOC];
extern const size_t ioc_ver0[NIOC];
extern const size_t ioc_ver1[NIOC];
extern int fd, rofd;
extern struct bfly_info info;
extern size_t mbytes;
extern unsigned char *arena, *ropage;
extern void *unmapped;
extern __u64 cur_gen, *cur_m, *now_m, *scratch_m;
extern __u32 *trace_buf;
extern unsigned long long counts[NIOC][MAX_ERRNO + 1], ops_ok[NIOC];
extern unsigned long long total_ops, refusals_checked, reports;
__u64 rnd(void);
__u64 rndn(__u64 n);

/* fuzz-ioctl-args.c */
__u64 bad_ptr(size_t len);
extern unsigned char *buf_at;
void *buf(size_t len);
__u64 boundary(void);
void build(int ioc, void *a);
__u32 mutate(int ioc, unsigned char *a);

/* fuzz-ioctl-faults.c */
extern __u32 *perm_copy;
int safe_read(void *dst, __u64 addr, size_t len);
extern __u32 nfaults, nlinks, nstuck;
extern int faults_known, tight, limit_fd, mem_fd;
extern char limit_orig[32], limit_tight[32];
extern unsigned long long phase_left, phases, fault_phases, tight_phases;
extern unsigned long long route_reports, batch_reports, trace_reports, route_hits;
extern unsigned long long batch_hits, dry_hits_refused, dry_hits_ok, traces_skipped;
extern unsigned long long hit_traces;
extern unsigned char *seen;
int nl_faults_clear(void);
void nl_init(void);
void set_limit(const char *v);
void mem_init(void);
void check_mem(int ioc);
void new_phase(void);
const void *uptr(__u64 p);
void check_route_report(const struct bfly_route *r, __u32 usize, int e);
void check_batch_report(const struct bfly_batch *b, __u32 usize, int e);
void check_trace(const struct bfly_trace *t);

/* fuzz-ioctl-hrel.c */
void build_msgset(struct bfly_msgset *s);
void build_hrel(struct bfly_hrel *r);
void check_hrel(const struct bfly_hrel *r, __u32 usize, int e);
extern unsigned long long hrel_checked;
int trace_is(const __u32 *perm, const __u64 *aff);

#endif /* BFLY_FUZZ_IOCTL_H */
