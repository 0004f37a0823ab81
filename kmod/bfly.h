/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bfly internal interfaces shared between the module's files.
 */
#ifndef _BFLY_H
#define _BFLY_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <kunit/visibility.h>
#include <uapi/linux/bfly.h>

/* Largest fabric id; ids are also the char device minors. */
#define BFLY_MAX_FABRICS 1024

#include "geometry.h"

/* topology.c: names and geometry, no state */
const char *bfly_topology_name(enum bfly_topology topology);
int bfly_topology_parse(const char *name, enum bfly_topology *topology);
int bfly_geometry_init(struct bfly_geometry *geo, enum bfly_topology topology,
		       u32 ports, const char **why);

/**
 * struct bfly_fabric - one fabric instance and its character device
 * @dev: the device; its reference count owns the structure
 * @cdev: the character device /dev/bfly<id>
 * @lock: the fabric's lock; readers share it. Protects @dead and, as they
 *	are added, the switch matrix and the statistics.
 * @dead: set under @lock when the fabric is deleted; open files then fail
 *	every operation with -ENODEV
 * @id: fabric id and device minor
 * @geo: the fabric's geometry, fixed at creation
 * @list: entry in the module's list of fabrics
 */
struct bfly_fabric {
	struct device dev;
	struct cdev cdev;
	struct rw_semaphore lock;
	bool dead;
	u32 id;
	struct bfly_geometry geo;
	struct list_head list;
};

/* fabric.c: instance lifecycle */
struct bfly_fabric *bfly_fabric_create(enum bfly_topology topology, u32 ports,
				       const char **why);
void bfly_fabric_destroy(struct bfly_fabric *fab);
void bfly_fabric_destroy_all(void);
void bfly_fabric_get(struct bfly_fabric *fab);
void bfly_fabric_put(struct bfly_fabric *fab);

/* chardev.c: device numbers, class and file operations */
int bfly_chardev_init(void);
void bfly_chardev_exit(void);
int bfly_chardev_add(struct bfly_fabric *fab);
void bfly_chardev_del(struct bfly_fabric *fab);

/* ioctl.c: ioctl dispatch */
long bfly_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

#endif /* _BFLY_H */
