/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fabric as the algorithm library (kmod/lib, built natively) models it,
 * for end-to-end tests that need expected values: the wiring and the walk
 * of packets through faults. No test keeps a copy of its own.
 */
#ifndef BFLY_E2E_MODEL_H
#define BFLY_E2E_MODEL_H

#include <linux/bfly.h>
#include <linux/types.h>

/* One injected fault, as struct bfly_fault of kmod/lib/fault.h */
struct model_fault {
	__u32 kind, stage, index, state;
};

int model_init(const struct bfly_info *info);
__u32 model_wire(__u32 edge, __u32 pos);
unsigned int model_walk(const __u64 *matrix, const __u64 *labels, int real,
			const struct model_fault *faults, unsigned int nfaults,
			__u32 *out, unsigned char *hit);

/* The k-ary n-fly of radix @k with @ports ports, for the model_kfly_*() */
int model_kfly_init(__u32 k, __u32 ports);
__u32 model_kfly_link(__u32 edge, __u32 addr);
void model_kfly_trace(const __u8 *set, __u32 *out);
int model_kfly_route(const __u32 *perm, __u8 *set, struct bfly_port_conflict *list,
		     __u32 max, __u32 *count, __u32 *first_stage);
__u32 model_kfly_window_first_conflict(const __u32 *perm);
__u32 model_kfly_perm_mll(const __u32 *perm);

/*
 * A message set routed on the LCAN of an info (lib/lcan_cycles.c): in:
 * the set as &struct bfly_msgset gives it; out: the figures and, where the
 * arrays are not NULL, each message's cycle and path and each channel's
 * load.
 */
struct model_msgset {
	const __u32 *src, *dst, *given;
	__u32 count, mode, strategy, max_cycles;
	__u64 seed;
	__u32 *cycle, *paths, *load;
	__u32 levels, cycles, routed, lambda_load, lambda_cap, bound;
	__u64 channels;
};

int model_lcan_msgset(const struct bfly_info *info, struct model_msgset *ms);

#endif /* BFLY_E2E_MODEL_H */
