// SPDX-License-Identifier: GPL-2.0
/*
 * The character devices: one /dev/bfly<id> per fabric, a dynamic major,
 * the "bfly" device class with read-only attributes describing the fabric.
 */
#include <linux/cdev.h>
#include <linux/compat.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/module.h>

#include "core/core.h"

static dev_t bfly_devt;
/* Registered statically: class_create() changed signature in 6.4. */
static struct class bfly_class = {
	.name = "bfly",
};

static int bfly_open(struct inode *inode, struct file *file)
{
	struct bfly_fabric *fab = container_of(inode->i_cdev, struct bfly_fabric, cdev);

	bfly_fabric_get(fab);
	file->private_data = fab;
	return nonseekable_open(inode, file);
}

static int bfly_release(struct inode *inode, struct file *file)
{
	bfly_fabric_put(file->private_data);
	return 0;
}

static const struct file_operations bfly_fops = {
	.owner = THIS_MODULE,
	.open = bfly_open,
	.release = bfly_release,
	.unlocked_ioctl = bfly_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct bfly_fabric *to_fabric(struct device *dev)
{
	return container_of(dev, struct bfly_fabric, dev);
}

static ssize_t topology_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", bfly_topology_name(to_fabric(dev)->geo.topology));
}
static DEVICE_ATTR_RO(topology);

static ssize_t ports_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", to_fabric(dev)->geo.ports);
}
static DEVICE_ATTR_RO(ports);

static ssize_t radix_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", to_fabric(dev)->geo.radix);
}
static DEVICE_ATTR_RO(radix);

static ssize_t node_stages_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_fabric(dev)->geo.node_stages);
}
static DEVICE_ATTR_RO(node_stages);

/* Kernel memory charged to the fabric now and at most (memlimit.c) */
static ssize_t mem_bytes_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(&to_fabric(dev)->mem.used));
}
static DEVICE_ATTR_RO(mem_bytes);

static ssize_t mem_peak_bytes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(&to_fabric(dev)->mem.peak));
}
static DEVICE_ATTR_RO(mem_peak_bytes);

/* The kept route workspace's part of mem_bytes; writing 0 frees it. */
static ssize_t route_ws_bytes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(&to_fabric(dev)->mem.kept));
}

static ssize_t route_ws_bytes_store(struct device *dev, struct device_attribute *attr,
				    const char *buf, size_t count)
{
	unsigned int v;
	int err = kstrtouint(buf, 0, &v);

	if (err)
		return err;
	if (v)
		return -EINVAL;
	bfly_fabric_route_ws_drop(to_fabric(dev));
	return count;
}
static DEVICE_ATTR_RW(route_ws_bytes);

static struct attribute *bfly_fabric_attrs[] = {
	&dev_attr_topology.attr,
	&dev_attr_ports.attr,
	&dev_attr_radix.attr,
	&dev_attr_node_stages.attr,
	&dev_attr_mem_bytes.attr,
	&dev_attr_mem_peak_bytes.attr,
	&dev_attr_route_ws_bytes.attr,
	NULL
};
ATTRIBUTE_GROUPS(bfly_fabric);

/* Makes a fabric's device and its node visible; the core calls it. */
static int bfly_chardev_add(struct bfly_fabric *fab)
{
	int err;

	fab->dev.class = &bfly_class;
	fab->dev.devt = MKDEV(MAJOR(bfly_devt), fab->id);
	fab->dev.groups = bfly_fabric_groups;
	err = dev_set_name(&fab->dev, "bfly%u", fab->id);
	if (err)
		return err;

	cdev_init(&fab->cdev, &bfly_fops);
	fab->cdev.owner = THIS_MODULE;
	return cdev_device_add(&fab->cdev, &fab->dev);
}

/* Removes a fabric's device node; open files keep the fabric referenced. */
static void bfly_chardev_del(struct bfly_fabric *fab)
{
	cdev_device_del(&fab->cdev, &fab->dev);
}

static const struct bfly_node_ops bfly_chardev_node_ops = {
	.add = bfly_chardev_add,
	.del = bfly_chardev_del,
};

int bfly_chardev_init(void)
{
	int err;

	err = alloc_chrdev_region(&bfly_devt, 0, BFLY_MAX_FABRICS, "bfly");
	if (err)
		return err;

	err = class_register(&bfly_class);
	if (err) {
		unregister_chrdev_region(bfly_devt, BFLY_MAX_FABRICS);
		return err;
	}
	bfly_nodes_register(&bfly_chardev_node_ops);
	return 0;
}

void bfly_chardev_exit(void)
{
	bfly_nodes_register(NULL);
	class_unregister(&bfly_class);
	unregister_chrdev_region(bfly_devt, BFLY_MAX_FABRICS);
}
