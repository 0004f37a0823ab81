/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The link-load service: the load of every link and the maximum, for
 * packets routed by labels or following the fabric's switch matrix.
 */
#ifndef _BFLY_LINK_LOAD_H
#define _BFLY_LINK_LOAD_H

#include <linux/types.h>

struct bfly_fabric;
struct bfly_mem;

/**
 * struct bfly_link_load_req - what to load the links with
 * @labels: N labels of node-stages bits, or NULL to follow the matrix
 * @active: the inputs that carry a packet (N bits), or NULL for every input
 * @load: NULL, or node_stages * N u32 receiving every link's load (entry
 *	``e * N + p``: link position p after node stage e)
 */
struct bfly_link_load_req {
	const u64 *labels;
	const unsigned long *active;
	u32 *load;
};

int bfly_link_load(struct bfly_fabric *fab, struct bfly_mem *m,
		   const struct bfly_link_load_req *req, u32 *mll);

#endif /* _BFLY_LINK_LOAD_H */
