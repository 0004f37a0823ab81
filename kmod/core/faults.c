// SPDX-License-Identifier: GPL-2.0
/*
 * A fabric's injected faults: adding, deleting, clearing, and the private
 * copy every route, trace and batch works with.
 *
 * The list lives in the fabric under its lock. A route or batch takes a
 * snapshot when it starts and is checked against that; a fault added while
 * it runs counts from the next one.
 */
#include <linux/slab.h>

#include "events.h"
#include "core.h"

/* The fault list changed: bump the dumps' generation and tell listeners. */
static void bfly_fabric_faults_changed(struct bfly_fabric *fab)
{
	lockdep_assert_held_write(&fab->lock);
	bfly_fabrics_generation_bump();
	bfly_event_faults(fab);
}

/* Index in @fl of the fault at @f's place, or -1. */
static int bfly_faults_find(const struct bfly_fault *list, u32 count,
			    const struct bfly_fault *f)
{
	u32 j;

	for (j = 0; j < count; j++) {
		if (bfly_fault_same_place(&list[j], f))
			return j;
	}
	return -1;
}

/**
 * bfly_fabric_faults_add() - inject faults, all of them or none
 * @fab: the fabric
 * @f: the faults
 * @n: the number of faults at @f
 * @bad: on error, set to the index in @f of the fault refused
 * @why: on -EINVAL, -EEXIST or -ENOSPC, set to a short reason for the user
 *
 * Return: 0; -EINVAL for a fault bfly_fault_check() refuses; -EEXIST when
 * the node or link already has a fault, or two of @f name it; -ENOSPC when
 * the fabric would hold more than %BFLY_MAX_FAULTS; -ENODEV for a deleted
 * fabric. Nothing is added on error.
 */
int bfly_fabric_faults_add(struct bfly_fabric *fab, const struct bfly_fault *f,
			   u32 n, u32 *bad, const char **why)
{
	struct bfly_faults *fl = &fab->faults;
	int err = 0;
	u32 i;

	for (i = 0; i < n; i++) {
		*bad = i;
		err = bfly_fault_check(&fab->geo, &f[i], why);
		if (err)
			return err;
		if (bfly_faults_find(f, i, &f[i]) >= 0) {
			*why = "fault: the request names this node or link twice";
			return -EEXIST;
		}
	}
	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
		goto out;
	}
	for (i = 0; i < n; i++) {
		*bad = i;
		if (bfly_faults_find(fl->list, fl->count, &f[i]) >= 0) {
			*why = f[i].kind == BFLY_FAULT_STUCK ? "fault: the node already has a fault"
							     : "fault: the link is already broken";
			err = -EEXIST;
			goto out;
		}
	}
	if (n > BFLY_MAX_FAULTS - fl->count) {
		*bad = BFLY_MAX_FAULTS - fl->count;
		*why = "fault: a fabric holds at most 64 faults";
		err = -ENOSPC;
		goto out;
	}
	memcpy(&fl->list[fl->count], f, n * sizeof(*f));
	fl->count += n;
	if (n)
		bfly_fabric_faults_changed(fab);
out:
	up_write(&fab->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_faults_add);

/**
 * bfly_fabric_faults_del() - repair faults, all of them or none
 * @fab: the fabric
 * @f: names the faults by kind, stage and index (states are ignored)
 * @n: the number of faults at @f
 * @bad: on -ENOENT, set to the index in @f of the fault not found
 *
 * Return: 0; -ENOENT when one of @f is not a fault of the fabric (or is
 * named twice); -ENODEV. Nothing is repaired on error.
 */
int bfly_fabric_faults_del(struct bfly_fabric *fab, const struct bfly_fault *f,
			   u32 n, u32 *bad)
{
	struct bfly_faults *fl = &fab->faults;
	int err = 0, j;
	u32 i;

	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
		goto out;
	}
	for (i = 0; i < n; i++) {
		*bad = i;
		if (bfly_faults_find(fl->list, fl->count, &f[i]) < 0 ||
		    bfly_faults_find(f, i, &f[i]) >= 0) {
			err = -ENOENT;
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		j = bfly_faults_find(fl->list, fl->count, &f[i]);
		memmove(&fl->list[j], &fl->list[j + 1],
			(fl->count - j - 1) * sizeof(fl->list[0]));
		fl->count--;
	}
	if (n)
		bfly_fabric_faults_changed(fab);
out:
	up_write(&fab->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_faults_del);

/**
 * bfly_fabric_fault_clear() - repair every fault
 * @fab: the fabric
 *
 * Return: 0 or -ENODEV.
 */
int bfly_fabric_fault_clear(struct bfly_fabric *fab)
{
	int err = 0;

	down_write(&fab->lock);
	if (fab->dead) {
		err = -ENODEV;
	} else if (fab->faults.count) {
		fab->faults.count = 0;
		bfly_fabric_faults_changed(fab);
	}
	up_write(&fab->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_fault_clear);

/**
 * bfly_fabric_faults_snapshot() - a private copy of the fault list
 * @fab: the fabric
 * @err: set to 0 when NULL means no faults; to -ENOMEM or -ENODEV
 *
 * Return: the copy, to free with kfree(), or NULL when the fabric has no
 * faults or on error.
 */
struct bfly_faults *bfly_fabric_faults_snapshot(struct bfly_fabric *fab, int *err)
{
	struct bfly_faults *snap;

	*err = 0;
	if (!READ_ONCE(fab->faults.count))
		return NULL;
	snap = kmalloc(sizeof(*snap), GFP_KERNEL_ACCOUNT);
	if (!snap) {
		*err = -ENOMEM;
		return NULL;
	}
	down_read(&fab->lock);
	if (fab->dead)
		*err = -ENODEV;
	else
		memcpy(snap, &fab->faults, sizeof(*snap));
	up_read(&fab->lock);
	if (*err || !snap->count) {
		kfree(snap);
		return NULL;
	}
	return snap;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_faults_snapshot);

/**
 * bfly_faults_change() - the fault-add and fault-del service
 * @fab: the fabric
 * @req: the faults to add or repair
 * @res: the fabric's fault count after the change; on error what was
 *	 refused and why
 *
 * One set of rules: an add names one fault or more, at most
 * %BFLY_MAX_FAULTS; a delete names faults or asks for all of them, not
 * both. The request changes all the faults it names or none.
 *
 * Return: 0, or a negative errno as bfly_fabric_faults_add() and
 * bfly_fabric_faults_del() give, -EINVAL for a request against the rules.
 */
int bfly_faults_change(struct bfly_fabric *fab, const struct bfly_faults_req *req,
		       struct bfly_faults_res *res)
{
	u32 n = req->count;
	int err;

	res->bad = BFLY_FAULTS_WHOLE;
	res->why = NULL;
	if (fab->geo.mbfly) {
		res->why = "id: a multibutterfly routes h-relations (hrel) only: no faults";
		return -EOPNOTSUPP;
	}
	if (fab->geo.port_map || fab->geo.lcan) {
		res->why = "id: faults are modelled on fabrics of 2 x 2 switches only";
		return -EOPNOTSUPP;
	}
	if (req->add && !n) {
		res->why = "fault: missing: give one fault nest or more";
		return -EINVAL;
	}
	if (!req->add && !n == !req->all) {
		res->why = req->all ? "all-faults: give fault nests or all-faults, not both" :
			   "fault, all-faults: missing: name the faults to repair, or all-faults";
		return -EINVAL;
	}
	if (n > BFLY_MAX_FAULTS) {
		res->bad = BFLY_MAX_FAULTS;
		res->why = req->add ? "fault: a fabric holds at most 64 faults" :
			   "fault: names more faults than a fabric holds (64)";
		return req->add ? -ENOSPC : -ENOENT;
	}
	if (req->add)
		err = bfly_fabric_faults_add(fab, req->list, n, &res->bad, &res->why);
	else if (req->all)
		err = bfly_fabric_fault_clear(fab);
	else
		err = bfly_fabric_faults_del(fab, req->list, n, &res->bad);
	if (err == -ENODEV) {
		res->bad = BFLY_FAULTS_WHOLE;
		res->why = BFLY_WHY_DELETED;
	} else if (err == -ENOENT) {
		res->why = "fault: the fabric has no such fault (or it is named twice)";
	}
	res->count = READ_ONCE(fab->faults.count);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_faults_change);
