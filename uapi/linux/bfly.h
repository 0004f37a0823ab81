/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: a virtual interconnect device modelling butterfly,
 * Butterfly-Butterfly and Benes switching fabrics.
 *
 * This header is the contract between the bfly kernel module and its users.
 * See Documentation/bfly.rst for the fabric model and the ioctl semantics.
 *
 * Extensible structures
 * ---------------------
 * Every ioctl argument starts with a __u32 @size field that the caller sets
 * to the size of the structure it was compiled with. Structures only ever
 * grow at their end, so:
 *
 * - an older binary (smaller @size) gets the fields it knows about; the
 *   kernel treats the missing input fields as zero;
 * - a newer binary (larger @size) is accepted as long as every byte the
 *   kernel does not know is zero; otherwise the ioctl fails with -E2BIG;
 * - a @size smaller than the first published version of the structure
 *   fails with -EINVAL.
 *
 * The size bits of the ioctl request number are ignored, so the request
 * numbers below stay valid when a structure grows. Fields named reserved or
 * pad must be zero on input (-EINVAL otherwise) and are zero on output.
 */
#ifndef _UAPI_LINUX_BFLY_H
#define _UAPI_LINUX_BFLY_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * define BFLY_UAPI_VERSION - version of this interface
 *
 * Reported by %BFLY_IOC_GET_INFO in &bfly_info.uapi_version. It grows when
 * ioctls or fields are added; existing ones never change meaning.
 */
#define BFLY_UAPI_VERSION 1

/**
 * define BFLY_MIN_PORTS_LOG2 - log2 of the port count of the smallest fabric
 *
 * The smallest fabric has 2 ports: one node per node stage.
 */
#define BFLY_MIN_PORTS_LOG2 1

/**
 * define BFLY_MAX_PORTS_LOG2 - log2 of the port count of the largest fabric
 *
 * The largest fabric has 2^20 ports.
 */
#define BFLY_MAX_PORTS_LOG2 20

/**
 * enum bfly_topology - the switching fabrics bfly models
 * @BFLY_TOPO_BUTTERFLY: an n-stage butterfly (RLS paper, Definition III.1):
 *	n node stages
 * @BFLY_TOPO_BFLY2: Butterfly-Butterfly, two butterflies back to back
 *	sharing their middle node stage: 2n-1 node stages
 * @BFLY_TOPO_BFLY_TWICE: a single butterfly used twice, without the shared
 *	stage: 2n node stages
 * @BFLY_TOPO_BENES: the Benes network, a butterfly followed by a reverse
 *	butterfly sharing the middle stage: 2n-1 node stages
 * @__BFLY_TOPO_MAX: one past the last topology; not a topology
 *
 * Values start at 1 so that a zeroed structure names no topology.
 * Here N = 2^n is the number of ports and every node stage has N/2 nodes.
 */
enum bfly_topology {
	BFLY_TOPO_BUTTERFLY = 1,
	BFLY_TOPO_BFLY2 = 2,
	BFLY_TOPO_BFLY_TWICE = 3,
	BFLY_TOPO_BENES = 4,
	__BFLY_TOPO_MAX,
};

/**
 * struct bfly_info - description of one fabric
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_INFO_SIZE_VER0); out: number of bytes written
 * @flags: in: must be zero; out: zero (no flags are defined yet)
 * @uapi_version: out: %BFLY_UAPI_VERSION of the running module
 * @id: out: fabric id; the device node is /dev/bfly<id>
 * @topology: out: one of &enum bfly_topology
 * @ports: out: number of input ports N, equal to the number of output ports
 * @ports_log2: out: n = log2(N)
 * @node_stages: out: number of node (switch) stages
 * @nodes_per_stage: out: number of 2x2 nodes in every node stage, N/2
 * @pad: must be zero
 * @switches: out: total number of 2x2 nodes, node_stages * nodes_per_stage;
 *	one bit each in the switch matrix
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_GET_INFO.
 */
struct bfly_info {
	__u32 size;
	__u32 flags;
	__u32 uapi_version;
	__u32 id;
	__u32 topology;
	__u32 ports;
	__u32 ports_log2;
	__u32 node_stages;
	__u32 nodes_per_stage;
	__u32 pad;
	__u64 switches;
	__u64 reserved[2];
};

/**
 * define BFLY_INFO_SIZE_VER0 - size of the first published &struct bfly_info
 */
#define BFLY_INFO_SIZE_VER0 64

/**
 * define BFLY_IOC_MAGIC - ioctl type byte of bfly devices
 */
#define BFLY_IOC_MAGIC 0xbf

/**
 * define BFLY_IOC_GET_INFO - describe the fabric behind this device
 *
 * Argument: &struct bfly_info, with @size set and every other field zero.
 * Needs only read access to the device.
 *
 * Return: 0 on success; -EFAULT for a bad pointer; -EINVAL for a @size
 * below %BFLY_INFO_SIZE_VER0 or non-zero input fields; -E2BIG for a larger
 * structure with non-zero bytes this kernel does not know; -ENODEV if the
 * fabric was deleted.
 */
#define BFLY_IOC_GET_INFO _IOWR(BFLY_IOC_MAGIC, 0x00, struct bfly_info)

#endif /* _UAPI_LINUX_BFLY_H */
