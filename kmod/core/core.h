/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfly internal interfaces shared between the module's files.
 */
#ifndef _BFLY_H
#define _BFLY_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <kunit/visibility.h>
#include <uapi/linux/bfly.h>

#include "lib/fault.h"
#include "lib/selfroute.h"

/* Largest fabric id; ids are also the char device minors. */
#define BFLY_MAX_FABRICS 1024

/* The reason a request on a deleted fabric gets with -ENODEV */
#define BFLY_WHY_DELETED "id: the fabric was deleted meanwhile"

#include "lib/geometry.h"
#include "lib/topology.h"

/* param.c: kinds of module parameter */
extern const struct kernel_param_ops bfly_param_ops_bytes;
extern const struct kernel_param_ops bfly_param_ops_figure;

/* topology.c: names as parameters spell them; lib/topology.h: geometry */
int bfly_topology_parse(const char *name, enum bfly_topology *topology);

struct bfly_fabric;

/**
 * struct bfly_node_ops - how a frontend gives a fabric its device node
 * @add: makes the node of a fabric whose device is initialised; 0 or an
 *	errno, which fails the creation
 * @del: removes it; open files keep the fabric referenced
 */
struct bfly_node_ops {
	int (*add)(struct bfly_fabric *fab);
	void (*del)(struct bfly_fabric *fab);
};

/**
 * struct bfly_mbfly_measured - a multibutterfly splitter's expansion,
 *	measured at creation (mbfly_fabric.c)
 * @col: the splitter's column
 * @inputs: its inputs M
 * @kmax: subset sizes measured, 1 .. @kmax: alpha = @kmax / @inputs
 * @beta_fp16: the beta observed up to @kmax, 16.16 fixed point
 * @exhaustive: every subset measured (else sampled: an upper bound)
 * @subsets: subsets measured
 */
struct bfly_mbfly_measured {
	u32 col;
	u32 inputs;
	u32 kmax;
	u32 beta_fp16;
	bool exhaustive;
	u64 subsets;
};

/*
 * The largest route workspace a fabric keeps between routes, in charged
 * bytes: a Benes fabric of up to 2^17 ports. Larger ones are freed after
 * every route.
 */
#define BFLY_ROUTE_WS_KEEP_MAX (4UL << 20)

/**
 * struct bfly_route_ws - the buffers of a route a fabric keeps between routes
 * @in: the input array, @in_bytes long, or NULL
 * @in_bytes: the size of @in
 * @work: the algorithm's workspace, @work_bytes long, or NULL
 * @work_bytes: the size of @work
 * @matrix: a switch matrix of bfly_matrix_bytes(), or NULL
 * @charged: their footprint, charged to the fabric (memlimit.c)
 */
struct bfly_route_ws {
	void *in;
	size_t in_bytes;
	void *work;
	size_t work_bytes;
	unsigned long *matrix;
	u64 charged;
};

/**
 * struct bfly_fabric - one fabric instance and its character device
 * @dev: the device; its reference count owns the structure
 * @cdev: the character device /dev/bfly<id>
 * @lock: the fabric's lock; readers share it. Protects @dead, @matrix,
 *	@generation and @faults. Routes are computed without it, on private
 *	buffers, and applied under it by swapping @matrix.
 * @dead: set under @lock when the fabric is deleted; open files then fail
 *	every operation with -ENODEV
 * @matrix: the switch matrix, bfly_matrix_bytes() bytes (see uapi)
 * @generation: number of changes of @matrix since creation
 * @faults: the injected faults; protected by @lock
 * @mem: kernel memory charged to the fabric (memlimit.c): @mem.used now
 *	(its own @mem.base, its kept route workspace @mem.kept and its
 *	requests' buffers) and @mem.peak, the most it held at once
 * @route_ws: the route workspace kept between routes (route.c), owned by
 *	whoever set bit 0 of @route_ws_busy; returned under @lock
 * @route_ws_busy: bit 0 set while a route or bfly_fabric_route_ws_drop()
 *	holds @route_ws
 * @stats: counters, updated without @lock
 * @id: fabric id and device minor
 * @geo: the fabric's geometry, fixed at creation
 * @mbfly_exp: on a multibutterfly, its expansion measured at creation
 * @list: entry in the module's list of fabrics
 * @node_ops: the frontend that made its device node, or NULL for none
 */
struct bfly_fabric {
	struct device dev;
	struct cdev cdev;
	struct rw_semaphore lock;
	bool dead;
	unsigned long *matrix;
	u64 generation;
	struct bfly_faults faults;
	struct {
		atomic64_t used;
		atomic64_t peak;
		u64 base;
		atomic64_t kept;
	} mem;
	struct bfly_route_ws route_ws;
	unsigned long route_ws_busy;
	struct {
		atomic64_t routes;
		atomic64_t refusals;
		atomic64_t conflicts;
		atomic64_t matrix_writes;
		atomic64_t batches;
	} stats;
	u32 id;
	struct bfly_geometry geo;
	struct bfly_mbfly_measured mbfly_exp;
	struct list_head list;
	const struct bfly_node_ops *node_ops;
};

/**
 * struct bfly_mem - the memory one request has charged to its fabric
 * @fab: the fabric charged
 * @charged: bytes charged so far, given back by bfly_mem_release()
 * @err: the first refused charge or failed allocation: -E2BIG or -ENOMEM
 */
struct bfly_mem {
	struct bfly_fabric *fab;
	u64 charged;
	int err;
};

/* memlimit.c: kernel memory limits per fabric and per module */
size_t bfly_mem_footprint(size_t size);
void *bfly_kvalloc(size_t size, gfp_t gfp);
int bfly_mem_charge_fabric(struct bfly_fabric *fab, u64 bytes);
void bfly_mem_uncharge_fabric(struct bfly_fabric *fab);
void *bfly_mem_alloc(struct bfly_mem *m, size_t size, bool zero);
void *bfly_mem_alloc_array(struct bfly_mem *m, size_t n, size_t size, bool zero);
void bfly_mem_release(struct bfly_mem *m);
const char *bfly_mem_why(int err);

/* fabric.c: instance lifecycle */
struct bfly_fabric *bfly_fabric_create_up(enum bfly_topology topology, u32 radix, u32 up,
					  u32 ports, const char **why);

struct bfly_fabric *bfly_fabric_create_mbfly(u32 ports, u32 d, u64 seed, const char **why);

/* mbfly_fabric.c: what a multibutterfly's splitters show */
int bfly_mbfly_measure(const struct bfly_geometry *geo, struct bfly_mbfly_measured *m,
		       struct bfly_mem *mem);

/* A fabric without uppers: every family but the LCANs. */
static inline struct bfly_fabric *bfly_fabric_create(enum bfly_topology topology, u32 radix,
						     u32 ports, const char **why)
{
	return bfly_fabric_create_up(topology, radix, 0, ports, why);
}

void bfly_fabric_destroy(struct bfly_fabric *fab);
void bfly_fabric_destroy_all(void);
bool bfly_fabric_route_ws_get(struct bfly_fabric *fab, struct bfly_route_ws *ws);
bool bfly_fabric_route_ws_put(struct bfly_fabric *fab, const struct bfly_route_ws *ws);
u64 bfly_fabric_route_ws_drop(struct bfly_fabric *fab);
u64 bfly_fabrics_route_ws_drop(void);
void bfly_fabric_get(struct bfly_fabric *fab);
void bfly_fabric_put(struct bfly_fabric *fab);

/* fabric.c: lookup by id, iteration and deletion by id (netlink.c) */
struct bfly_fabric *bfly_fabric_find(u32 id);
struct bfly_fabric *bfly_fabric_find_next(u32 id);
int bfly_fabric_delete(u32 id);
u64 bfly_fabrics_generation(void);
void bfly_fabrics_generation_bump(void);

/* faults.c: a fabric's injected faults */

/**
 * struct bfly_faults_req - a fault-add or fault-del request
 * @list: the faults, named by kind, stage and index (and state, to add)
 * @count: how many at @list; a request may name more than a fabric holds
 * @add: add the faults; otherwise repair them
 * @all: repair every fault (with @count 0)
 */
struct bfly_faults_req {
	const struct bfly_fault *list;
	u32 count;
	bool add;
	bool all;
};

/* &bfly_faults_res.bad when the request as a whole is refused */
#define BFLY_FAULTS_WHOLE U32_MAX

/**
 * struct bfly_faults_res - what a fault-add or fault-del did
 * @count: the fabric's faults after the request
 * @bad: on error, the index in &bfly_faults_req.list of the fault refused,
 *	 or %BFLY_FAULTS_WHOLE
 * @why: on error, a short reason for the user, or NULL
 */
struct bfly_faults_res {
	u32 count;
	u32 bad;
	const char *why;
};

int bfly_faults_change(struct bfly_fabric *fab, const struct bfly_faults_req *req,
		       struct bfly_faults_res *res);
int bfly_fabric_faults_add(struct bfly_fabric *fab, const struct bfly_fault *f,
			   u32 n, u32 *bad, const char **why);
int bfly_fabric_faults_del(struct bfly_fabric *fab, const struct bfly_fault *f,
			   u32 n, u32 *bad);
int bfly_fabric_fault_clear(struct bfly_fabric *fab);
struct bfly_faults *bfly_fabric_faults_snapshot(struct bfly_fabric *fab, int *err);

/* fabric.c: the frontend that makes device nodes */
void bfly_nodes_register(const struct bfly_node_ops *ops);

/* chardev.c: device numbers, class and file operations */
int bfly_chardev_init(void);
void bfly_chardev_exit(void);

/* fabric.c: the switch matrix */
void bfly_fabric_swap_matrix(struct bfly_fabric *fab, unsigned long **matrix);
unsigned long *bfly_fabric_matrix_snapshot(struct bfly_fabric *fab, struct bfly_mem *m,
					   u64 *generation, int *err);

/* ioctl.c: ioctl dispatch and extensible arguments */
long bfly_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int bfly_arg_in(void *karg, size_t ksize, size_t minsize,
		const void __user *uarg, u32 *usize);
int bfly_arg_out(void __user *uarg, void *karg, size_t ksize, u32 usize);
int bfly_user_read(void *to, const void __user *from, size_t bytes);
int bfly_user_write(void __user *to, const void *from, size_t bytes);

/* ioctl_matrix.c: reading and writing the switch matrix */
int bfly_ioctl_get_matrix(struct bfly_fabric *fab, void __user *uarg);
int bfly_ioctl_set_matrix(struct file *file, struct bfly_fabric *fab,
			  void __user *uarg);
int bfly_ioctl_trace(struct bfly_fabric *fab, void __user *uarg);

/* ioctl_route.c: routing requests and link loads */
int bfly_ioctl_route(struct file *file, struct bfly_fabric *fab,
		     void __user *uarg);
int bfly_ioctl_link_load(struct bfly_fabric *fab, void __user *uarg);

/* netlink.c: the generic netlink family "bfly" */
int bfly_netlink_init(void);
void bfly_netlink_exit(void);

/* ioctl_msgset.c: message sets on an LCAN */
int bfly_ioctl_msgset(struct file *file, struct bfly_fabric *fab, void __user *uarg);

/* ioctl_hrel.c: h-relations in rounds */
int bfly_ioctl_hrel(struct file *file, struct bfly_fabric *fab, void __user *uarg);

/* ioctl_batch.c: RLS labels and all-to-all batches */
int bfly_ioctl_rls_labels(struct bfly_fabric *fab, void __user *uarg);
int bfly_ioctl_batch(struct file *file, struct bfly_fabric *fab,
		     void __user *uarg);

#endif /* _BFLY_H */
