/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The route service: one request routes a permutation or labelled packets
 * on a fabric and, unless refused or a dry run, installs the matrix.
 */
#ifndef _BFLY_ROUTE_H
#define _BFLY_ROUTE_H

#include <linux/types.h>

#include "core/core.h"

/**
 * struct bfly_route_buf - everything one route needs, allocated up front
 * @in: N u32 (a permutation) or N u64 (labels)
 * @matrix: the computed switch matrix, in the fabric's layout; an applied
 *	route swaps it with the fabric's
 * @report: the computed settings in the other layout when that one was
 *	asked for, else NULL (bfly_route_report())
 * @work: the algorithm's workspace
 * @conflicts: the conflicts found: their count and first stage; on a 2 x 2
 *	fabric also the list
 * @pconf: with the ports asked for, or on a port-map fabric: the listed
 *	conflicts with the port each pair asks for
 * @faults: the fabric's faults when the route started, or NULL for none
 * @affected: with @faults, N bits: the inputs a fault hits
 * @fault_work: with @faults, the fault walk's workspace
 * @affected_count: the number of inputs a fault hits
 * @stuck_unmet: stuck nodes the route sets to their other state
 * @in_bytes: the size of @in
 * @work_bytes: the size of @work
 * @ws_held: @in, @work and @matrix come from, and go back to, the
 *	fabric's kept route workspace (bfly_fabric_route_ws_get())
 * @mem: the memory charged for all this
 */
struct bfly_route_buf {
	void *in;
	unsigned long *matrix;
	void *report;
	void *work;
	struct bfly_conflicts conflicts;
	struct bfly_port_conflict *pconf;
	struct bfly_faults *faults;
	unsigned long *affected;
	void *fault_work;
	u32 affected_count;
	u32 stuck_unmet;
	size_t in_bytes;
	size_t work_bytes;
	bool ws_held;
	struct bfly_mem mem;
};

struct bfly_route_res;

/**
 * struct bfly_route_req - a route request, as a frontend hands it over
 * @labels: route labels (N u64), not a permutation (N u32)
 * @dry_run: compute and report, change nothing
 * @allow_faults: apply even when faults hit some packets
 * @conflicts_max: conflicts to list in the report (at most k - 1 per node)
 * @port_map: report the settings as port maps, else as a bit matrix
 * @conflict_ports: list the conflicts with their port (@b.pconf)
 * @deny_apply: 0, or the errno refusing a request that is no dry run: the
 *	frontend's answer to a caller allowed to read the fabric only
 * @read_input: copies the N entries (@bytes) into @in; returns 0 or an
 *	errno such as -EFAULT
 * @publish: optional; gets the complete report before the matrix changes
 *	and may refuse it (an errno, e.g. -EFAULT): nothing changes then
 * @ctx: the frontend's argument to @read_input and @publish
 */
struct bfly_route_req {
	bool labels;
	bool dry_run;
	bool allow_faults;
	u32 conflicts_max;
	bool port_map;
	bool conflict_ports;
	int deny_apply;
	int (*read_input)(void *ctx, void *in, size_t bytes);
	int (*publish)(void *ctx, const struct bfly_route_res *res);
	void *ctx;
};

/**
 * struct bfly_route_res - the report of a route
 * @reported: the route was computed: every field below is valid
 * @verdict: 0, or why the route is refused: -EBUSY (conflicts) or
 *	-EHOSTUNREACH (faults hit packets and @allow_faults was not given)
 * @applied: the matrix was replaced
 * @method: one of &enum bfly_route_method
 * @generation: the matrix generation after the request
 * @faults: the number of faults of the fabric when the route started
 * @why: with an error, a short reason for the user (netlink extack)
 * @err: the error @why words
 * @b: the buffers: bfly_route_report(), @b.conflicts (@b.pconf with the ports),
 *	@b.affected (NULL without faults), @b.affected_count and
 *	@b.stuck_unmet are the report
 *
 * Free with bfly_route_done(), whatever bfly_route() returned.
 */
struct bfly_route_res {
	bool reported;
	int verdict;
	bool applied;
	u32 method;
	u64 generation;
	u32 faults;
	const char *why;
	int err;
	struct bfly_route_buf b;
};

/**
 * bfly_route_report() - the computed settings in the layout asked for
 * @b: the route's buffers
 *
 * Valid until the route is applied: in &bfly_route_req.publish, or after
 * a route that was not applied.
 *
 * Return: @b->report, or @b->matrix when the layouts agree.
 */
static inline const void *bfly_route_report(const struct bfly_route_buf *b)
{
	return b->report ?: b->matrix;
}

int bfly_route(struct bfly_fabric *fab, const struct bfly_route_req *req,
	       struct bfly_route_res *res);
void bfly_route_done(struct bfly_route_res *res);

int bfly_route_method(const struct bfly_geometry *geo, bool labels, u32 *method);
int bfly_route_buf_alloc(struct bfly_route_buf *b, struct bfly_fabric *fab,
			 const struct bfly_route_req *req, u32 method);
void bfly_route_buf_free(struct bfly_route_buf *b);
int bfly_route_run(const struct bfly_geometry *geo, u32 method,
		   struct bfly_route_buf *b);

#endif /* _BFLY_ROUTE_H */
