// SPDX-License-Identifier: GPL-2.0
/*
 * The route service, for the ioctl and the netlink family alike.
 *
 * A route is computed without the fabric's lock, on buffers of its own
 * sized up front, so routes on one fabric run in parallel. The input, the
 * algorithm's workspace and the matrix come from the fabric's kept route
 * workspace when no other route holds it, and go back to it afterwards
 * (fabric.c); the buffers that depend on the request (the conflict lists,
 * the other layout's report, the fault buffers) are allocated for each
 * route. The complete report goes to the frontend before the new matrix
 * is installed: a request that fails for any reason leaves the fabric
 * unchanged.
 */
#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "lib/benes.h"
#include "lib/benes_fault.h"
#include "lib/kfly.h"
#include "lib/selfroute.h"
#include "lib/settings.h"
#include "lib/topology.h"
#include "lib/trace.h"
#include "events.h"
#include "route.h"

/**
 * bfly_route_method() - how a route request on a fabric is computed
 * @geo: the fabric geometry
 * @labels: the request routes labels, not a permutation
 * @method: receives one of &enum bfly_route_method
 *
 * Return: 0, or -EOPNOTSUPP for a permutation on bfly2 or bfly-twice.
 */
int bfly_route_method(const struct bfly_geometry *geo, bool labels, u32 *method)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);

	*method = labels ? BFLY_METHOD_LABELS : ops ? ops->perm_method : BFLY_METHOD_NONE;
	return *method == BFLY_METHOD_NONE ? -EOPNOTSUPP : 0;
}

/*
 * Give @b's input, workspace and matrix back to the fabric's kept route
 * workspace, with their charge; what the fabric does not keep stays in @b.
 */
static void bfly_route_ws_return(struct bfly_route_buf *b)
{
	struct bfly_fabric *fab = b->mem.fab;
	struct bfly_route_ws ws = {
		.in = b->in, .in_bytes = b->in_bytes,
		.work = b->work, .work_bytes = b->work_bytes,
		.matrix = b->matrix,
	};

	if (ws.in)
		ws.charged += bfly_mem_footprint(ws.in_bytes);
	if (ws.work)
		ws.charged += bfly_mem_footprint(ws.work_bytes);
	if (ws.matrix)
		ws.charged += bfly_mem_footprint(bfly_matrix_bytes(&fab->geo));
	b->ws_held = false;
	if (!bfly_fabric_route_ws_put(fab, &ws))
		return;
	b->mem.charged -= ws.charged;
	b->in = NULL;
	b->work = NULL;
	b->matrix = NULL;
}

/**
 * bfly_route_buf_free() - free what bfly_route_buf_alloc() allocated
 * @b: the buffers; may be partly allocated
 *
 * The input, workspace and matrix go back to the fabric's kept route
 * workspace when they came from it and the fabric keeps them.
 */
void bfly_route_buf_free(struct bfly_route_buf *b)
{
	if (b->ws_held)
		bfly_route_ws_return(b);
	kvfree(b->in);
	kvfree(b->report);
	kvfree(b->matrix);
	kvfree(b->pconf);
	kvfree(b->work);
	kvfree(b->conflicts.list);
	kfree(b->faults);
	kvfree(b->affected);
	kvfree(b->fault_work);
	bfly_mem_release(&b->mem);
}

/*
 * A buffer of @bytes for @m: @kept when it has that size (zeroed if
 * @zero), else a new one; a kept buffer of another size is freed first,
 * with its charge.
 */
static void *bfly_route_buf_reuse(struct bfly_mem *m, void *kept, size_t kept_bytes,
				  size_t bytes, bool zero)
{
	struct bfly_mem old = { .fab = m->fab };

	if (kept && kept_bytes == bytes) {
		if (zero)
			memset(kept, 0, bytes);
		return kept;
	}
	if (kept) {
		kvfree(kept);
		old.charged = bfly_mem_footprint(kept_bytes);
		m->charged -= old.charged;
		bfly_mem_release(&old);
	}
	return bfly_mem_alloc(m, bytes, zero);
}

/**
 * bfly_route_buf_alloc() - allocate everything one route needs
 * @b: zeroed buffers to fill; free them with bfly_route_buf_free(), also
 *	on failure
 * @fab: the fabric; its faults are copied to @b->faults, and the memory is
 *	charged to it. The input, the workspace and the matrix are those of
 *	its kept route workspace when it is free and they have the sizes
 *	needed.
 * @req: the request: the conflicts to list, with their ports or not, and
 *	the layout of the reported settings
 * @method: from bfly_route_method()
 *
 * Return: 0; -E2BIG or -ENOMEM from the memory limits; -ENOMEM; -ENODEV.
 */
int bfly_route_buf_alloc(struct bfly_route_buf *b, struct bfly_fabric *fab,
			 const struct bfly_route_req *req, u32 method)
{
	const struct bfly_geometry *geo = &fab->geo;
	size_t elem = method == BFLY_METHOD_LABELS ? sizeof(u64) : sizeof(u32);
	struct bfly_route_ws ws;
	size_t work;
	u32 nconf;
	int err;

	b->faults = bfly_fabric_faults_snapshot(fab, &err);
	if (err)
		return err;
	if (geo->port_map)
		work = bfly_kfly_route_workspace_size(&geo->fly);
	else if (method == BFLY_METHOD_LOOPING)
		work = bfly_faults_have_stuck(b->faults) ?
		       bfly_benes_fault_workspace_size(geo) :
		       bfly_benes_workspace_size(geo);
	else
		work = bfly_selfroute_workspace_size(geo);
	/* A node refuses at most k - 1 of its packets. */
	nconf = min_t(u64, req->conflicts_max, geo->switches * (geo->radix - 1));

	b->in_bytes = array_size(geo->ports, elem);
	b->work_bytes = max_t(size_t, work, BITS_TO_LONGS(geo->ports) * sizeof(long));

	/* The kept buffers' charge passes to this route with them. */
	b->mem.fab = fab;
	b->ws_held = bfly_fabric_route_ws_get(fab, &ws);
	b->mem.charged = ws.charged;
	b->in = bfly_route_buf_reuse(&b->mem, ws.in, ws.in_bytes, b->in_bytes, false);
	b->matrix = bfly_route_buf_reuse(&b->mem, ws.matrix, bfly_matrix_bytes(geo),
					 bfly_matrix_bytes(geo), true);
	if (req->port_map != geo->port_map)
		b->report = bfly_mem_alloc(&b->mem, bfly_settings_bytes(geo, req->port_map),
					   false);
	b->work = bfly_route_buf_reuse(&b->mem, ws.work, ws.work_bytes, b->work_bytes, false);
	if (nconf && !geo->port_map)
		b->conflicts.list = bfly_mem_alloc_array(&b->mem, nconf,
							 sizeof(*b->conflicts.list), true);
	if (nconf && (geo->port_map || req->conflict_ports))
		b->pconf = bfly_mem_alloc_array(&b->mem, nconf, sizeof(*b->pconf), true);
	b->conflicts.capacity = nconf;
	if (b->faults) {
		b->affected = bfly_mem_alloc(&b->mem, BFLY_MATRIX_BYTES(geo->ports), true);
		b->fault_work = bfly_mem_alloc(&b->mem, bfly_fault_walk_workspace_size(geo),
					       false);
	}
	return b->mem.err;
}

/* The inputs of a computed route that @b->faults hit. */
static int bfly_route_check_faults(const struct bfly_geometry *geo,
				   struct bfly_route_buf *b)
{
	struct bfly_fault_walk walk = {
		.mode = BFLY_WALK_ROUTE,
		.matrix = b->matrix,
	};
	int hit;

	b->stuck_unmet = bfly_faults_stuck_unmet(geo, b->faults, b->matrix);
	bitmap_zero(b->affected, geo->ports);
	hit = bfly_fault_walk(geo, b->faults, &walk, b->affected, NULL, b->fault_work);
	if (hit < 0)
		return hit;
	b->affected_count = hit;
	return 0;
}

/*
 * Destination-digit routing on a port-map fabric: labels (each below N,
 * its base-k digits the ports) route as destinations that may repeat.
 */
static int bfly_route_run_kfly(const struct bfly_geometry *geo, u32 method,
			       struct bfly_route_buf *b)
{
	struct bfly_kfly_conflicts kc = { .list = b->pconf,
					  .capacity = b->conflicts.capacity };
	u64 *labels = b->in;
	u32 *dest = b->in, i;
	int err;

	if (method == BFLY_METHOD_LABELS) {
		/* In place, in ascending order: entry i overwrites only read ones. */
		for (i = 0; i < geo->ports; i++) {
			if (labels[i] >= geo->ports)
				return -EINVAL;
			dest[i] = labels[i];
		}
	}
	err = bfly_kfly_route_dest(&geo->fly, dest, (u8 *)b->matrix, NULL, &kc, b->work);
	b->conflicts.count = kc.count;
	b->conflicts.first_stage = kc.first_stage;
	return err;
}

/*
 * The listed conflicts of a 2 x 2 fabric with the port each pair asks
 * for: the bit of node stage j in the destination or label of the packet
 * that holds it, taken most significant first.
 */
static void bfly_route_conflict_ports(const struct bfly_geometry *geo, u32 method,
				      struct bfly_route_buf *b)
{
	u32 i, n = min(b->conflicts.count, b->conflicts.capacity);
	const struct bfly_conflict *c;
	u64 want;

	for (i = 0; i < n; i++) {
		c = &b->conflicts.list[i];
		want = method == BFLY_METHOD_LABELS ? ((u64 *)b->in)[c->input[0]] :
						      ((u32 *)b->in)[c->input[0]];
		b->pconf[i] = (struct bfly_port_conflict){
			.stage = c->stage,
			.node = c->node,
			.input = { c->input[0], c->input[1] },
			.port = (want >> (geo->node_stages - 1 - c->stage)) & 1,
		};
	}
}

/**
 * bfly_route_run() - compute a route whose input is in @b->in
 * @geo: the fabric geometry
 * @method: from bfly_route_method()
 * @b: buffers from bfly_route_buf_alloc(), @b->in filled with N u32 (a
 *	permutation) or N u64 (labels)
 *
 * With @b->faults, the looping algorithm steers its free choices by the
 * stuck nodes, and the inputs a fault hits go to @b->affected.
 *
 * Return: 0, with the matrix, conflicts and fault report in @b; -EINVAL
 * for a non-permutation or labels too wide; -EINTR.
 */
int bfly_route_run(const struct bfly_geometry *geo, u32 method,
		   struct bfly_route_buf *b)
{
	bool stuck = bfly_faults_have_stuck(b->faults);
	int err;

	/*
	 * The looping algorithm checks the permutation itself as it builds
	 * the inverse; the others get it checked here, the workspace doubling
	 * as the "seen" bitmap.
	 */
	if (method != BFLY_METHOD_LABELS &&
	    (method != BFLY_METHOD_LOOPING || geo->port_map || stuck)) {
		err = bfly_perm_check(geo, b->in, b->work);
		if (err)
			return err;
	}

	b->conflicts.count = 0;
	b->conflicts.first_stage = BFLY_NO_CONFLICT;
	if (geo->port_map)
		return bfly_route_run_kfly(geo, method, b);
	switch (method) {
	case BFLY_METHOD_SELF_ROUTING:
		err = bfly_selfroute_dest(geo, b->in, b->matrix, NULL,
					  &b->conflicts, b->work);
		break;
	case BFLY_METHOD_LABELS:
		err = bfly_selfroute_labels(geo, b->in, b->matrix, NULL,
					    &b->conflicts, b->work);
		break;
	default:
		if (stuck)
			err = bfly_benes_route_stuck(geo, b->in, b->faults->list,
						     b->faults->count, b->matrix,
						     b->work, &b->stuck_unmet);
		else
			err = bfly_benes_route(geo, b->in, b->matrix, b->work);
		break;
	}
	if (!err && b->pconf)
		bfly_route_conflict_ports(geo, method, b);
	if (err || !b->faults)
		return err;
	return bfly_route_check_faults(geo, b);
}

/*
 * bfly_route_account() - count a computed route in the fabric's statistics
 * @fab: the fabric
 * @b: the computed route
 *
 * A route with conflicts is also announced to netlink listeners.
 */
static void bfly_route_account(struct bfly_fabric *fab,
			       const struct bfly_route_buf *b)
{
	atomic64_inc(&fab->stats.routes);
	if (b->conflicts.count) {
		atomic64_inc(&fab->stats.refusals);
		atomic64_add(b->conflicts.count, &fab->stats.conflicts);
		bfly_event_conflicts(fab, b->conflicts.count,
				     b->conflicts.first_stage);
	}
}

/*
 * bfly_route_apply() - install a computed route's matrix
 * @fab: the fabric
 * @b: the computed route; its matrix is swapped with the old one
 * @apply: false to only read the generation (dry runs, refused routes)
 * @generation: receives the matrix generation after the call
 *
 * Return: 0 or -ENODEV.
 */
static int bfly_route_apply(struct bfly_fabric *fab, struct bfly_route_buf *b,
			    bool apply, u64 *generation)
{
	int err = 0;

	down_write(&fab->lock);
	if (fab->dead)
		err = -ENODEV;
	else if (apply)
		bfly_fabric_swap_matrix(fab, &b->matrix);
	*generation = fab->generation;
	up_write(&fab->lock);
	return err;
}

/* Word a refusal: @why for the user, @err returned. */
static int bfly_route_why(struct bfly_route_res *res, int err, const char *why)
{
	res->err = err;
	res->why = why;
	return err;
}

/**
 * bfly_route() - route a permutation or labels on a fabric
 * @fab: the fabric, referenced by the caller
 * @req: the request
 * @res: zeroed; receives the report. Free it with bfly_route_done().
 *
 * Checks the request, reads its input through @req->read_input, routes
 * it, counts it in the fabric's statistics, hands the report to
 * @req->publish and, unless it is refused or a dry run, installs the
 * matrix. @res->why words every refusal.
 *
 * Return: 0 (applied, or a dry run); with @res->reported set, -EBUSY for
 * internal conflicts or -EHOSTUNREACH for packets a fault hits (the
 * matrix is unchanged), or @req->publish's error; before routing,
 * -EOPNOTSUPP (a permutation on a fabric that routes labels only),
 * @req->deny_apply,
 * -EINVAL (not a permutation, labels too wide), -E2BIG or -ENOMEM (memory
 * limits), -ENODEV (the fabric is deleted), -EINTR, or @req->read_input's
 * error.
 */
int bfly_route(struct bfly_fabric *fab, const struct bfly_route_req *req,
	       struct bfly_route_res *res)
{
	const struct bfly_geometry *geo = &fab->geo;
	struct bfly_route_buf *b = &res->b;
	bool apply;
	int err;

	if (geo->mbfly)
		return bfly_route_why(res, -EOPNOTSUPP,
				      "id: a multibutterfly routes h-relations (hrel) only, not permutations or labels");
	if (geo->lcan)
		return bfly_route_why(res, -EOPNOTSUPP,
				      "id: an LCAN routes pairs and message sets (msgset), not permutations or labels by stage");
	if (bfly_route_method(geo, req->labels, &res->method))
		return bfly_route_why(res, -EOPNOTSUPP,
				      "perm: a permutation routes on butterfly, benes, kfly and flatfly only; route labels on bfly2 and bfly-twice");
	err = bfly_settings_layout_ok(geo, req->port_map, &res->why);
	if (err)
		return bfly_route_why(res, err, res->why);
	if (!req->dry_run && req->deny_apply)
		return bfly_route_why(res, req->deny_apply,
				      "dry-run: missing: this caller may read the fabric, not change it");
	if (READ_ONCE(fab->dead))
		return bfly_route_why(res, -ENODEV, BFLY_WHY_DELETED);
	err = bfly_route_buf_alloc(b, fab, req, res->method);
	if (err)
		return bfly_route_why(res, err, err == -ENODEV ? BFLY_WHY_DELETED :
					   bfly_mem_why(err));
	err = req->read_input(req->ctx, b->in,
			      array_size(geo->ports, req->labels ? sizeof(u64) : sizeof(u32)));
	if (err)
		return err;
	err = bfly_route_run(geo, res->method, b);
	if (err == -EINVAL && req->labels)
		return bfly_route_why(res, err, geo->port_map ?
				      "labels: a label is not below radix^node-stages" :
				      "labels: a label is wider than node-stages bits");
	if (err == -EINVAL)
		return bfly_route_why(res, err,
				      "perm: not a permutation of 0 .. ports - 1");
	if (err)
		return err;

	if (b->report)
		bfly_settings_export(geo, b->matrix, req->port_map, b->report, &res->why);
	bfly_route_account(fab, b);
	res->faults = b->faults ? b->faults->count : 0;
	if (b->conflicts.count)
		bfly_route_why(res, -EBUSY,
			       "perm, labels: internal conflicts: route refused, matrix unchanged");
	else if (b->affected_count && !req->allow_faults)
		bfly_route_why(res, -EHOSTUNREACH,
			       "faults: packets of the route would meet a fault: route refused, matrix unchanged (allow-faults applies it)");
	res->verdict = res->why ? res->err : 0;
	res->generation = 0;
	res->reported = true;
	if (req->publish) {
		err = req->publish(req->ctx, res);
		if (err)
			return err;
	}

	apply = !res->verdict && !req->dry_run;
	err = bfly_route_apply(fab, b, apply, &res->generation);
	if (err) {
		res->reported = false;
		return bfly_route_why(res, err, BFLY_WHY_DELETED);
	}
	res->applied = apply;
	return res->verdict;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_route);

/**
 * bfly_route_done() - free what a route holds
 * @res: the report of bfly_route()
 */
void bfly_route_done(struct bfly_route_res *res)
{
	bfly_route_buf_free(&res->b);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_route_done);
