// SPDX-License-Identifier: GPL-2.0
/*
 * Fabric instances: creation, lookup-free teardown and lifetime.
 *
 * A fabric lives as long as its struct device is referenced: the module's
 * list holds one reference and every open file one more. Deleting a fabric
 * marks it dead, removes its device node and drops the list's reference;
 * files still open then fail with -ENODEV until they are closed, and the
 * last close frees the fabric.
 */
#include <linux/err.h>
#include <linux/export.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "lib/settings.h"
#include "events.h"
#include "core.h"

/* Serialises creation and deletion; protects bfly_fabrics. */
static DEFINE_MUTEX(bfly_fabrics_lock);
static LIST_HEAD(bfly_fabrics);
static DEFINE_IDA(bfly_ids);
/* Set at module exit, under bfly_fabrics_lock: no fabric is created after. */
static bool bfly_fabrics_closed;
/*
 * Grows with every creation, deletion and matrix change of any fabric:
 * netlink dumps flag themselves interrupted when it moved under them.
 */
static atomic64_t bfly_fabrics_gen = ATOMIC64_INIT(0);
/* The frontend that gives fabrics their device nodes, or NULL (KUnit). */
static const struct bfly_node_ops *bfly_node_ops;

/**
 * bfly_nodes_register() - give every fabric created from now on a node
 * @ops: the frontend's callbacks, or NULL to stop; set while no fabric
 *	exists (module init and exit)
 */
void bfly_nodes_register(const struct bfly_node_ops *ops)
{
	bfly_node_ops = ops;
}

/**
 * bfly_fabrics_generation() - the generation of the set of fabrics
 *
 * Return: a counter that grows with every creation, deletion and matrix
 * change of any fabric.
 */
u64 bfly_fabrics_generation(void)
{
	return atomic64_read(&bfly_fabrics_gen);
}

/**
 * bfly_fabrics_generation_bump() - note a change netlink dumps show
 */
void bfly_fabrics_generation_bump(void)
{
	atomic64_inc(&bfly_fabrics_gen);
}

void bfly_fabric_get(struct bfly_fabric *fab)
{
	get_device(&fab->dev);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_get);

void bfly_fabric_put(struct bfly_fabric *fab)
{
	put_device(&fab->dev);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_put);

static void bfly_fabric_node_del(struct bfly_fabric *fab)
{
	if (fab->node_ops)
		fab->node_ops->del(fab);
}

/* Free a route workspace's buffers and their charge. */
static void bfly_route_ws_free(struct bfly_fabric *fab, struct bfly_route_ws *ws)
{
	struct bfly_mem m = { .fab = fab, .charged = ws->charged };

	kvfree(ws->in);
	kvfree(ws->work);
	kvfree(ws->matrix);
	bfly_mem_release(&m);
	memset(ws, 0, sizeof(*ws));
}

/**
 * bfly_fabric_route_ws_get() - take the fabric's kept route workspace
 * @fab: the fabric
 * @ws: receives the kept buffers, with their charge; all NULL when the
 *	fabric keeps none or another route holds them
 *
 * Return: true when the caller holds the workspace until
 * bfly_fabric_route_ws_put(); false when another route holds it (the
 * caller allocates buffers of its own).
 */
bool bfly_fabric_route_ws_get(struct bfly_fabric *fab, struct bfly_route_ws *ws)
{
	memset(ws, 0, sizeof(*ws));
	if (test_and_set_bit_lock(0, &fab->route_ws_busy))
		return false;
	swap(*ws, fab->route_ws);
	atomic64_sub(ws->charged, &fab->mem.kept);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_route_ws_get);

/**
 * bfly_fabric_route_ws_put() - end a route's hold on the route workspace
 * @fab: the fabric; the caller holds its workspace (bfly_fabric_route_ws_get())
 * @ws: the buffers to keep, and their charge
 *
 * The fabric keeps them while it lives if they are charged at most
 * %BFLY_ROUTE_WS_KEEP_MAX bytes. Serialized with the fabric's deletion by
 * its lock: a deleted fabric keeps nothing.
 *
 * Return: true when the fabric keeps @ws, and their charge; false when
 * the caller frees them.
 */
bool bfly_fabric_route_ws_put(struct bfly_fabric *fab, const struct bfly_route_ws *ws)
{
	bool keep = ws->charged <= BFLY_ROUTE_WS_KEEP_MAX;

	down_write(&fab->lock);
	keep = keep && !fab->dead;
	if (keep) {
		fab->route_ws = *ws;
		atomic64_add(ws->charged, &fab->mem.kept);
	}
	clear_bit_unlock(0, &fab->route_ws_busy);
	up_write(&fab->lock);
	return keep;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_route_ws_put);

/**
 * bfly_fabric_route_ws_drop() - free the fabric's kept route workspace
 * @fab: the fabric
 *
 * Nothing happens while a route holds it.
 *
 * Return: the bytes given back to the memory limits.
 */
u64 bfly_fabric_route_ws_drop(struct bfly_fabric *fab)
{
	struct bfly_route_ws ws;
	u64 bytes;

	if (!bfly_fabric_route_ws_get(fab, &ws))
		return 0;
	clear_bit_unlock(0, &fab->route_ws_busy);
	bytes = ws.charged;
	bfly_route_ws_free(fab, &ws);
	return bytes;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_route_ws_drop);

/**
 * bfly_fabrics_route_ws_drop() - free every fabric's kept route workspace
 *
 * For a charge module_mem_max refuses (memlimit.c); not called under
 * bfly_fabrics_lock.
 *
 * Return: the bytes given back to the memory limits.
 */
u64 bfly_fabrics_route_ws_drop(void)
{
	struct bfly_fabric *fab;
	u64 bytes = 0;

	mutex_lock(&bfly_fabrics_lock);
	list_for_each_entry(fab, &bfly_fabrics, list)
		bytes += bfly_fabric_route_ws_drop(fab);
	mutex_unlock(&bfly_fabrics_lock);
	return bytes;
}

static void bfly_fabric_release(struct device *dev)
{
	struct bfly_fabric *fab = container_of(dev, struct bfly_fabric, dev);

	ida_free(&bfly_ids, fab->id);
	bfly_route_ws_free(fab, &fab->route_ws);
	kvfree(fab->matrix);
	bfly_mem_uncharge_fabric(fab);
	kfree(fab);
}

/* Publish @fab, whose geometry is set: its matrix, id, node and list entry. */
static struct bfly_fabric *bfly_fabric_add(struct bfly_fabric *fab, const char **why)
{
	struct bfly_geometry *geo = &fab->geo;
	int id, err;

	err = bfly_mem_charge_fabric(fab, bfly_mem_footprint(sizeof(*fab)) +
					  bfly_mem_footprint(bfly_matrix_bytes(geo)));
	if (err) {
		if (err == -E2BIG)
			*why = "ports: the fabric's switch matrix passes the memory limits";
		kfree(fab);
		return ERR_PTR(err);
	}
	/* A zeroed bit matrix is all straight; port maps are written so. */
	fab->matrix = bfly_kvalloc(bfly_matrix_bytes(geo),
				   GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_ZERO);
	if (fab->matrix && geo->port_map)
		bfly_settings_straight(geo, fab->matrix);
	id = fab->matrix ? ida_alloc_max(&bfly_ids, BFLY_MAX_FABRICS - 1, GFP_KERNEL)
			 : -ENOMEM;
	if (id < 0) {
		kvfree(fab->matrix);
		bfly_mem_uncharge_fabric(fab);
		kfree(fab);
		return ERR_PTR(id);
	}
	fab->id = id;
	init_rwsem(&fab->lock);
	INIT_LIST_HEAD(&fab->list);

	/* From here on the device's release frees the id and the fabric. */
	device_initialize(&fab->dev);
	fab->dev.release = bfly_fabric_release;
	fab->node_ops = bfly_node_ops;
	err = fab->node_ops ? fab->node_ops->add(fab) : 0;
	if (err) {
		bfly_fabric_put(fab);
		return ERR_PTR(err);
	}

	mutex_lock(&bfly_fabrics_lock);
	if (bfly_fabrics_closed) {
		mutex_unlock(&bfly_fabrics_lock);
		*why = "the module is being removed";
		bfly_fabric_node_del(fab);
		bfly_fabric_put(fab);
		return ERR_PTR(-ENODEV);
	}
	list_add_tail(&fab->list, &bfly_fabrics);
	atomic64_inc(&bfly_fabrics_gen);
	bfly_event_fabric(fab, true);
	bfly_fabric_get(fab);
	mutex_unlock(&bfly_fabrics_lock);
	return fab;
}

/**
 * bfly_fabric_create_up() - create a fabric and its device node
 * @topology: the fabric's topology
 * @radix: its switch radix k: 2 for the 2 x 2 families, 2 to
 *	%BFLY_MAX_RADIX for kfly and flatfly; d, the downers, on an LCAN
 * @up: on an LCAN, u, the uppers of a switch; 0 on the others
 * @ports: its number of ports
 * @why: on -EINVAL or -E2BIG, set to a short reason for the user
 *
 * The fabric lives until it is deleted; the caller also gets a reference
 * of its own, which it drops with bfly_fabric_put() (or bfly_fabric_destroy()
 * to delete the fabric as well), so that a concurrent fabric-del cannot
 * free the fabric under it.
 *
 * Every node starts straight: input port p to output port p; an LCAN
 * starts with nothing connected.
 *
 * Return: the fabric, or an ERR_PTR: -EINVAL for a bad topology, radix or
 * port count, -ENOSPC when every id is taken, -E2BIG when its matrix passes a
 * memory limit (memlimit.c), -ENOMEM, -ENODEV once the module is being
 * removed.
 */
struct bfly_fabric *bfly_fabric_create_up(enum bfly_topology topology, u32 radix, u32 up,
					  u32 ports, const char **why)
{
	struct bfly_fabric *fab;
	int err;

	fab = kzalloc(sizeof(*fab), GFP_KERNEL_ACCOUNT);
	if (!fab)
		return ERR_PTR(-ENOMEM);
	err = bfly_geometry_init_up(&fab->geo, topology, radix, up, ports, why);
	if (err) {
		kfree(fab);
		return ERR_PTR(err);
	}
	return bfly_fabric_add(fab, why);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_create_up);

/**
 * bfly_fabric_create_mbfly() - create a multibutterfly and its device node
 * @ports: N, a power of two from 2 to 2^20
 * @d: up- (and down-) neighbours of a splitter input, 1 to 64
 * @seed: the wiring's seed; 0: the device picks one (the fabric's
 *	@geo.mbfly_seed reports it)
 * @why: on -EINVAL or -E2BIG, set to a short reason for the user
 *
 * The splitters' expansion is measured before the fabric is published
 * (bfly_mbfly_measure()), its workspace charged to the fabric meanwhile,
 * as bfly_fabric_create_up() says otherwise.
 *
 * Return: the fabric, or an ERR_PTR as bfly_fabric_create_up()'s, or
 * -EINTR when a fatal signal stopped the measure.
 */
struct bfly_fabric *bfly_fabric_create_mbfly(u32 ports, u32 d, u64 seed, const char **why)
{
	struct bfly_fabric *fab;
	struct bfly_mem mem = { };
	int err;

	while (!seed)
		seed = get_random_u64();
	fab = kzalloc(sizeof(*fab), GFP_KERNEL_ACCOUNT);
	if (!fab)
		return ERR_PTR(-ENOMEM);
	err = bfly_geometry_init_mbfly(&fab->geo, ports, d, seed, why);
	if (!err) {
		/* The measure's workspace is charged to the fabric it makes. */
		mem.fab = fab;
		err = bfly_mbfly_measure(&fab->geo, &fab->mbfly_exp, &mem);
		bfly_mem_release(&mem);
	}
	if (err) {
		if (err == -EINTR)
			*why = "a signal stopped the measure of the expansion";
		else if (bfly_mem_why(err))
			*why = bfly_mem_why(err);
		kfree(fab);
		return ERR_PTR(err);
	}
	return bfly_fabric_add(fab, why);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_create_mbfly);

/* Caller holds bfly_fabrics_lock. */
static void bfly_fabric_unlink(struct bfly_fabric *fab)
{
	lockdep_assert_held(&bfly_fabrics_lock);
	list_del_init(&fab->list);

	down_write(&fab->lock);
	fab->dead = true;
	up_write(&fab->lock);
	/* A route holding the workspace now frees it when it ends. */
	bfly_fabric_route_ws_drop(fab);
	/*
	 * Only now, once the fabric is dead: a dump that read it alive then
	 * reads the older generation and is flagged interrupted. Bumped
	 * before, a dump could read the new generation, then the fabric's
	 * description, then find it dead for its matrix, and end unflagged.
	 */
	atomic64_inc(&bfly_fabrics_gen);

	bfly_event_fabric(fab, false);
	bfly_fabric_node_del(fab);
	bfly_fabric_put(fab);
}

/**
 * bfly_fabric_find() - look a fabric up by id
 * @id: the fabric id
 *
 * Return: the fabric with a reference the caller drops with
 * bfly_fabric_put(), or NULL when no fabric has that id.
 */
struct bfly_fabric *bfly_fabric_find(u32 id)
{
	struct bfly_fabric *fab;

	mutex_lock(&bfly_fabrics_lock);
	list_for_each_entry(fab, &bfly_fabrics, list) {
		if (fab->id == id) {
			bfly_fabric_get(fab);
			mutex_unlock(&bfly_fabrics_lock);
			return fab;
		}
	}
	mutex_unlock(&bfly_fabrics_lock);
	return NULL;
}

/**
 * bfly_fabric_find_next() - the fabric with the smallest id at least @id
 * @id: where to start; iterate with the returned fabric's id + 1
 *
 * Return: the fabric with a reference the caller drops with
 * bfly_fabric_put(), or NULL when there is none.
 */
struct bfly_fabric *bfly_fabric_find_next(u32 id)
{
	struct bfly_fabric *fab, *best = NULL;

	mutex_lock(&bfly_fabrics_lock);
	list_for_each_entry(fab, &bfly_fabrics, list) {
		if (fab->id >= id && (!best || fab->id < best->id))
			best = fab;
	}
	if (best)
		bfly_fabric_get(best);
	mutex_unlock(&bfly_fabrics_lock);
	return best;
}

/**
 * bfly_fabric_delete() - delete the fabric with a given id
 * @id: the fabric id
 *
 * Lookup and deletion happen under one lock, so two deletions of the same
 * fabric cannot both succeed.
 *
 * Return: 0, or -ENOENT when no fabric has that id.
 */
int bfly_fabric_delete(u32 id)
{
	struct bfly_fabric *fab;
	int err = -ENOENT;

	mutex_lock(&bfly_fabrics_lock);
	list_for_each_entry(fab, &bfly_fabrics, list) {
		if (fab->id == id) {
			bfly_fabric_unlink(fab);
			err = 0;
			break;
		}
	}
	mutex_unlock(&bfly_fabrics_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_delete);

/**
 * bfly_fabric_destroy() - delete a fabric created by bfly_fabric_create()
 * @fab: the fabric; the caller's reference from bfly_fabric_create() is
 *	dropped, and its pointer is invalid afterwards
 *
 * A fabric someone else deleted meanwhile is left as it is.
 */
void bfly_fabric_destroy(struct bfly_fabric *fab)
{
	mutex_lock(&bfly_fabrics_lock);
	if (!list_empty(&fab->list))
		bfly_fabric_unlink(fab);
	mutex_unlock(&bfly_fabrics_lock);
	bfly_fabric_put(fab);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fabric_destroy);

/**
 * bfly_fabric_destroy_all() - delete every fabric, at module exit
 *
 * No fabric is created afterwards. Called while the netlink family is
 * still registered, so that every deletion is announced.
 */
void bfly_fabric_destroy_all(void)
{
	struct bfly_fabric *fab, *tmp;

	mutex_lock(&bfly_fabrics_lock);
	bfly_fabrics_closed = true;
	list_for_each_entry_safe(fab, tmp, &bfly_fabrics, list)
		bfly_fabric_unlink(fab);
	mutex_unlock(&bfly_fabrics_lock);
}

/**
 * bfly_fabric_swap_matrix() - install a new switch matrix
 * @fab: the fabric; the caller holds its lock for writing
 * @matrix: in: the new matrix; out: the old one, for the caller to free
 *
 * The swap is one pointer store under the lock, so readers see either the
 * old matrix or the new one.
 */
void bfly_fabric_swap_matrix(struct bfly_fabric *fab, unsigned long **matrix)
{
	lockdep_assert_held_write(&fab->lock);
	swap(fab->matrix, *matrix);
	fab->generation++;
	atomic64_inc(&fab->stats.matrix_writes);
	atomic64_inc(&bfly_fabrics_gen);
	bfly_event_matrix(fab);
}

/**
 * bfly_fabric_matrix_snapshot() - a private copy of the switch matrix
 * @fab: the fabric
 * @m: the request's memory account, charged for the copy
 * @generation: if not NULL, receives the generation of the copy
 * @err: set to -E2BIG, -ENOMEM or -ENODEV (a deleted fabric) when NULL is
 *	returned
 *
 * The copy is taken under the fabric's lock held for reading, so it is
 * never half of an update; the caller works on it without the lock and
 * frees it with kvfree().
 *
 * Return: the copy, bfly_matrix_bytes() bytes, or NULL.
 */
unsigned long *bfly_fabric_matrix_snapshot(struct bfly_fabric *fab, struct bfly_mem *m,
					   u64 *generation, int *err)
{
	size_t bytes = bfly_matrix_bytes(&fab->geo);
	unsigned long *snap;

	snap = bfly_mem_alloc(m, bytes, false);
	if (!snap) {
		*err = m->err;
		return NULL;
	}
	down_read(&fab->lock);
	if (fab->dead) {
		up_read(&fab->lock);
		kvfree(snap);
		*err = -ENODEV;
		return NULL;
	}
	memcpy(snap, fab->matrix, bytes);
	if (generation)
		*generation = fab->generation;
	up_read(&fab->lock);
	return snap;
}
