/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RLS labels service: the labels Algorithm 1 of the RLS paper gives a
 * processor for a run of rounds, or every processor for one round.
 */
#ifndef _BFLY_RLS_LABELS_H
#define _BFLY_RLS_LABELS_H

#include <linux/types.h>

struct bfly_fabric;
struct bfly_mem;

/**
 * struct bfly_rls_labels_req - which labels
 * @by_rotation: every processor's label for round @rotation (then
 *	@processor is 0 and @count is N); otherwise @count labels of
 *	@processor, for rounds @rotation on
 * @rotation: the (first) round, below N
 * @processor: the processor, below N
 * @count: how many labels
 */
struct bfly_rls_labels_req {
	bool by_rotation;
	u32 rotation;
	u32 processor;
	u32 count;
};

/**
 * struct bfly_rls_labels_res - the labels
 * @labels: @count labels, charged to the request's &struct bfly_mem; the
 *	caller frees them with kvfree()
 * @label_bits: the bits of a label (2 log2 N - 1)
 */
struct bfly_rls_labels_res {
	u64 *labels;
	u32 label_bits;
};

int bfly_rls_labels(struct bfly_fabric *fab, struct bfly_mem *m,
		    const struct bfly_rls_labels_req *req, struct bfly_rls_labels_res *res);

#endif /* _BFLY_RLS_LABELS_H */
