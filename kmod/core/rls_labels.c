// SPDX-License-Identifier: GPL-2.0
/*
 * The RLS labels service (Algorithm 1 of the RLS paper, lib/rls.c) with
 * its rules: rounds and processors below N, a run of rounds that stays
 * within the N rounds.
 */
#include <linux/minmax.h>
#include <linux/mm.h>

#include "core.h"
#include "lib/rls.h"
#include "rls_labels.h"

/**
 * bfly_rls_labels() - RLS labels of a processor or of a round
 * @fab: the fabric (its number of ports)
 * @m: the request's memory, charged with the labels
 * @req: which labels
 * @res: the labels and their width
 *
 * Return: 0; -EINVAL for a round or processor past N, a run of rounds past
 * the last, or a round's labels asked with a processor or fewer than N;
 * -EOPNOTSUPP when N is no power of two; -ENODEV for a deleted fabric;
 * -E2BIG or -ENOMEM.
 */
int bfly_rls_labels(struct bfly_fabric *fab, struct bfly_mem *m,
		    const struct bfly_rls_labels_req *req, struct bfly_rls_labels_res *res)
{
	u32 ports = fab->geo.ports;
	int err;

	res->labels = NULL;
	if (!fab->geo.ports_log2)
		return -EOPNOTSUPP;
	if (req->rotation >= ports)
		return -EINVAL;
	if (req->by_rotation ? req->processor || req->count != ports
			     : req->processor >= ports || req->count > ports - req->rotation)
		return -EINVAL;
	if (READ_ONCE(fab->dead))
		return -ENODEV;

	res->labels = bfly_mem_alloc_array(m, max(req->count, 1U), sizeof(u64), false);
	if (!res->labels)
		return m->err;
	if (req->by_rotation)
		err = bfly_rls_labels_round(ports, req->rotation, res->labels);
	else
		err = bfly_rls_labels_proc(ports, req->processor, req->rotation, req->count,
					   res->labels);
	if (err) {
		kvfree(res->labels);
		res->labels = NULL;
		return err;
	}
	res->label_bits = 2 * fab->geo.ports_log2 - 1;
	return 0;
}
