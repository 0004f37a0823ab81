// SPDX-License-Identifier: GPL-2.0
/*
 * The switch settings of a fabric, for the ioctl and the netlink family
 * alike: set whole or node by node, read in either layout (a bit matrix
 * of 2 x 2 nodes or port maps, lib/settings.c), and traced. A new matrix
 * is built on a buffer of its own and installed by one swap under the
 * fabric's lock.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lib/fault.h"
#include "lib/settings.h"
#include "lib/trace.h"
#include "core.h"
#include "matrix.h"

/* Read the caller's settings into @held, in the fabric's layout, checked. */
static int bfly_matrix_read(const struct bfly_geometry *geo, const struct bfly_matrix_req *req,
			    struct bfly_mem *mem, unsigned long *held,
			    struct bfly_matrix_res *res)
{
	const char **why = &res->why;
	size_t bytes = bfly_settings_bytes(geo, req->port_map);
	void *in = held;
	int err;

	err = bfly_settings_layout_ok(geo, req->port_map, why);
	if (err)
		return err;
	if (req->port_map != geo->port_map) {
		in = bfly_mem_alloc(mem, bytes, false);
		if (!in) {
			*why = bfly_mem_why(mem->err);
			return mem->err;
		}
	}
	err = req->read_matrix(req->ctx, in, bytes);
	if (!err)
		err = in == held ? bfly_settings_check_at(geo, held, &res->bad, why) :
				   bfly_settings_import(geo, in, req->port_map, held, why);
	if (in != held)
		kvfree(in);
	return err;
}

/**
 * bfly_matrix_set() - replace a fabric's switch matrix
 * @fab: the fabric, referenced by the caller
 * @req: the new matrix or the changes
 * @res: receives the generation, or the reason of a refusal
 *
 * Return: 0; -EINVAL for settings bfly_settings_import() refuses (bits set
 * past the last switch, port maps that are not one-to-one or name a port
 * past the radix, 2 x 2 maps neither straight nor cross) or an LCAN
 * setting bfly_settings_check_at() refuses (@res->bad names the byte);
 * -EOPNOTSUPP for a bit matrix of k x k nodes with k > 2; -E2BIG or -ENOMEM (memory
 * limits); -ENODEV (the fabric is deleted); or the error of a callback.
 * On error the matrix is unchanged.
 */
int bfly_matrix_set(struct bfly_fabric *fab, const struct bfly_matrix_req *req,
		    struct bfly_matrix_res *res)
{
	const struct bfly_geometry *geo = &fab->geo;
	size_t bytes = bfly_matrix_bytes(geo);
	struct bfly_mem mem = { .fab = fab };
	unsigned long *new;
	int err = 0;

	new = bfly_mem_alloc(&mem, bytes, false);
	if (!new) {
		res->why = bfly_mem_why(mem.err);
		err = mem.err;
		goto out;
	}
	if (req->read_matrix) {
		err = bfly_matrix_read(geo, req, &mem, new, res);
		if (err)
			goto out;
	}
	if (req->publish) {
		err = req->publish(req->ctx);
		if (err)
			goto out;
	}

	/* Read, modify and install under the lock: no change is lost. */
	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
		res->why = BFLY_WHY_DELETED;
	} else {
		if (req->edit) {
			memcpy(new, fab->matrix, bytes);
			req->edit(req->ctx, new);
		}
		bfly_fabric_swap_matrix(fab, &new);
		res->generation = fab->generation;
	}
	up_write(&fab->lock);
out:
	kvfree(new);
	bfly_mem_release(&mem);
	return err;
}

#define BFLY_SWITCH_MAP_WHY \
	"switch: a map names each output port below the radix once, or 255 for none"

/**
 * bfly_switch_check() - may one node be set so
 * @geo: the fabric's geometry
 * @sw: the node and its new setting
 * @why: on error, a short reason
 *
 * A 2 x 2 node takes a state, or a map that is straight ({0, 1}) or cross
 * ({1, 0}); a k x k node takes a map of k entries, each a port below k or
 * %BFLY_PORT_UNSET, no port twice.
 *
 * Return: 0; -EOPNOTSUPP on an LCAN; -ERANGE for a stage or node out of
 * range; -EINVAL for a map of the wrong length or not one-to-one, or a
 * state for a k x k node.
 */
int bfly_switch_check(const struct bfly_geometry *geo, const struct bfly_switch_set *sw,
		      const char **why)
{
	u64 used = 0;
	u32 p;

	if (geo->mbfly) {
		*why = "id: a multibutterfly routes h-relations (hrel) only: no switches";
		return -EOPNOTSUPP;
	}
	if (geo->lcan) {
		*why = "switch: an LCAN's switches are set through its whole settings (port maps)";
		return -EOPNOTSUPP;
	}
	if (sw->stage >= geo->node_stages) {
		*why = "switch: stage out of range (0 .. node-stages - 1)";
		return -ERANGE;
	}
	if (sw->node >= geo->nodes_per_stage) {
		*why = "switch: node out of range (0 .. nodes-per-stage - 1)";
		return -ERANGE;
	}
	if (!sw->map) {
		if (geo->radix == 2)
			return 0;
		*why = "switch: a k x k node takes a map, not a state";
		return -EINVAL;
	}
	if (sw->map_len != geo->radix) {
		*why = "switch: a map has one entry per port of the node (radix)";
		return -EINVAL;
	}
	for (p = 0; p < geo->radix; p++) {
		if (sw->map[p] == BFLY_PORT_UNSET && geo->port_map)
			continue;
		if (sw->map[p] >= geo->radix || (used & BIT_ULL(sw->map[p]))) {
			*why = geo->port_map ? BFLY_SWITCH_MAP_WHY :
			       "switch: a 2 x 2 node maps its ports 0 1 (straight) or 1 0 (cross)";
			return -EINVAL;
		}
		used |= BIT_ULL(sw->map[p]);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_switch_check);

/**
 * bfly_switch_apply() - set one node in a copy of the settings
 * @geo: the fabric's geometry
 * @matrix: the settings, in the fabric's layout
 * @sw: a change bfly_switch_check() accepted
 */
void bfly_switch_apply(const struct bfly_geometry *geo, unsigned long *matrix,
		       const struct bfly_switch_set *sw)
{
	u64 node = (u64)sw->stage * geo->nodes_per_stage + sw->node;
	u8 *map = (u8 *)matrix + node * geo->radix;
	u32 p;

	if (!geo->port_map) {
		if (sw->map ? sw->map[0] : sw->state)
			__set_bit(node, matrix);
		else
			__clear_bit(node, matrix);
		return;
	}
	for (p = 0; p < geo->radix; p++)
		map[p] = sw->map ? sw->map[p] : p ^ sw->state;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_switch_apply);

/**
 * bfly_matrix_get() - a copy of a fabric's settings in a layout
 * @fab: the fabric
 * @m: the request's memory account, charged for the copy
 * @port_map: port maps, else the bit matrix
 * @generation: if not NULL, receives the generation of the copy
 * @err: receives the error when NULL is returned
 * @why: receives a short reason with @err
 *
 * Return: bfly_settings_bytes() bytes of that layout, freed with kvfree();
 * or NULL with @err: -EOPNOTSUPP for a bit matrix of k x k nodes with
 * k > 2 or with ports set to nothing; -E2BIG, -ENOMEM, -ENODEV.
 */
void *bfly_matrix_get(struct bfly_fabric *fab, struct bfly_mem *m, bool port_map,
		      u64 *generation, int *err, const char **why)
{
	const struct bfly_geometry *geo = &fab->geo;
	unsigned long *snap;
	void *out;

	*err = bfly_settings_layout_ok(geo, port_map, why);
	if (*err)
		return NULL;
	snap = bfly_fabric_matrix_snapshot(fab, m, generation, err);
	if (!snap || port_map == geo->port_map)
		return snap;
	out = bfly_mem_alloc(m, bfly_settings_bytes(geo, port_map), false);
	*err = out ? bfly_settings_export(geo, snap, port_map, out, why) : m->err;
	kvfree(snap);
	if (*err) {
		kvfree(out);
		return NULL;
	}
	return out;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_matrix_get);

/**
 * bfly_matrix_trace() - where the packets of every input go now
 * @fab: the fabric
 * @m: the request's memory account
 * @perm: receives N entries: the output input i reaches, or
 *	%BFLY_TRACE_LOST when a broken link or a port set to nothing loses it
 * @generation: receives the generation traced
 *
 * The fabric's faults act: stuck nodes in their stuck state, broken links.
 *
 * Return: 0, or -E2BIG, -ENOMEM, -ENODEV, -EINTR.
 */
int bfly_matrix_trace(struct bfly_fabric *fab, struct bfly_mem *m, u32 *perm,
		      u64 *generation)
{
	struct bfly_fault_walk walk = { .mode = BFLY_WALK_REAL };
	struct bfly_faults *faults = NULL;
	unsigned long *snap;
	void *work = NULL;
	int err;

	snap = bfly_fabric_matrix_snapshot(fab, m, generation, &err);
	if (!snap)
		return err;
	faults = bfly_fabric_faults_snapshot(fab, &err);
	if (!faults && !err) {
		err = bfly_trace(&fab->geo, snap, perm);
	} else if (faults) {
		work = bfly_mem_alloc(m, bfly_fault_walk_workspace_size(&fab->geo), false);
		walk.matrix = snap;
		err = work ? bfly_fault_walk(&fab->geo, faults, &walk, NULL, perm, work) : m->err;
	}
	kvfree(work);
	kfree(faults);
	kvfree(snap);
	return err < 0 ? err : 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_matrix_trace);
