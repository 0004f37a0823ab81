// SPDX-License-Identifier: GPL-2.0
/*
 * Link loads for BFLY_IOC_LINK_LOAD and fabric-get's link-load, one path:
 * the workspace and a snapshot of the matrix charged to the caller's
 * request, the walk in lib/linkload.c.
 */
#include <linux/mm.h>

#include "lib/linkload.h"
#include "core.h"
#include "link_load.h"

/**
 * bfly_link_load() - the link loads of a set of packets on a fabric
 * @fab: the fabric, referenced by the caller
 * @m: the caller's request, charged for the workspace and the snapshot
 * @req: the packets and where the loads go
 * @mll: receives the maximum link load
 *
 * Return: 0; -EOPNOTSUPP on an LCAN (its message sets report loads);
 * -EINVAL for a label wider than node-stages bits; -E2BIG or
 * -ENOMEM from the memory limits; -ENODEV when the fabric is deleted;
 * -EINTR.
 */
int bfly_link_load(struct bfly_fabric *fab, struct bfly_mem *m,
		   const struct bfly_link_load_req *req, u32 *mll)
{
	const struct bfly_geometry *geo = &fab->geo;
	unsigned long *matrix = NULL;
	void *work;
	int err = 0;

	if (geo->lcan || geo->mbfly)
		return -EOPNOTSUPP;	/* message sets report an LCAN's loads */
	/* Labels read no matrix: the snapshot would not notice a deletion. */
	if (READ_ONCE(fab->dead))
		return -ENODEV;
	work = bfly_mem_alloc(m, bfly_linkload_workspace_size(geo), false);
	if (!work)
		return m->err;
	if (req->labels) {
		err = bfly_linkload_labels(geo, req->labels, req->active, req->load,
					   NULL, mll, work);
	} else {
		matrix = bfly_fabric_matrix_snapshot(fab, m, NULL, &err);
		if (matrix)
			err = bfly_linkload_matrix(geo, matrix, req->active, req->load,
						   NULL, mll, work);
	}
	kvfree(matrix);
	kvfree(work);
	return err;
}
