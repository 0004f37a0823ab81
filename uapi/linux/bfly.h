/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: a virtual interconnect device modelling butterfly,
 * Butterfly-Butterfly, Benes, k-ary n-fly and flattened butterfly
 * switching fabrics.
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
 * - a @size over 4096 (a page, as clone3() and openat2() allow) fails
 *   with -E2BIG;
 * - a @size smaller than the first published version of the structure
 *   fails with -EINVAL.
 *
 * The size bits of the ioctl request number are ignored, so the request
 * numbers below stay valid when a structure grows. Fields named reserved or
 * pad must be zero on input (-EINVAL otherwise) and are zero on output.
 */
#ifndef _UAPI_LINUX_BFLY_H
#define _UAPI_LINUX_BFLY_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * define BFLY_UAPI_VERSION - version of this interface
 *
 * Reported by %BFLY_IOC_GET_INFO in &bfly_info.uapi_version. It grows when
 * ioctls or fields are added; existing ones never change meaning.
 */
#define BFLY_UAPI_VERSION 9

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
 * define BFLY_MAX_RADIX - the largest switch radix k of a k x k switch
 */
#define BFLY_MAX_RADIX 64

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
 * @BFLY_TOPO_KFLY: the k-ary n-fly: N = k^n ports, n node stages of N/k
 *	switches, each k x k, for a radix k from 2 to %BFLY_MAX_RADIX; with
 *	k = 2 it is the butterfly
 * @BFLY_TOPO_FLATFLY: the k-ary n-flat (flattened butterfly): the k-ary
 *	n-fly (n >= 2) with each row of switches combined into one router,
 *	N/k routers joined by bidirectional channels. Its switch settings,
 *	trace and routes are those of the k-ary n-fly it flattens
 * @BFLY_TOPO_CB_LCAN: CB-LCAN(d, u), the complete-bipartite least common
 *	ancestor network (LCAN paper, Definition 3): N = d^l processors,
 *	l levels of switches with d downers and u uppers, bi-directional
 *	connectors. The radix is d; &bfly_info.uppers is u
 * @BFLY_TOPO_T_LCAN: T-LCAN(d, u), a (d/u)-ary tree of such switches
 *	whose edges are u connectors (Definition 2): u < d, u divides d,
 *	N = u (d/u)^l
 * @BFLY_TOPO_FATTREE: the d-ary fat tree equivalent to CB-LCAN(d, u)
 *	(Definitions 9 and 10): N = d^l, a switch of level i has d u^i
 *	downers and u^(i+1) uppers. Its switches pass 255 connectors: it has
 *	no port maps, and routes message sets only
 * @BFLY_TOPO_MBFLY: the (N, d)-multibutterfly (Documentation/mbfly.rst):
 *	N = 2^n rows, n + 1 columns, splitters whose inputs have d up- and d
 *	down-neighbours wired from a seed; it routes h-relations only
 * @__BFLY_TOPO_MAX: one past the last topology; not a topology
 *
 * Values start at 1 so that a zeroed structure names no topology.
 * The first four have 2 x 2 switches: N = 2^n ports and N/2 nodes in
 * every node stage. See Documentation/routing.rst for the wiring.
 */
enum bfly_topology {
	BFLY_TOPO_BUTTERFLY = 1,
	BFLY_TOPO_BFLY2 = 2,
	BFLY_TOPO_BFLY_TWICE = 3,
	BFLY_TOPO_BENES = 4,
	BFLY_TOPO_KFLY = 5,
	BFLY_TOPO_FLATFLY = 6,
	BFLY_TOPO_CB_LCAN = 7,
	BFLY_TOPO_T_LCAN = 8,
	BFLY_TOPO_FATTREE = 9,
	BFLY_TOPO_MBFLY = 10,
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
 * @ports_log2: out: log2(N), or 0 when N is no power of two (a k-ary
 *	n-fly of odd k)
 * @node_stages: out: number of node (switch) stages
 * @nodes_per_stage: out: number of nodes (switches) in every node stage,
 *	N / @radix
 * @pad: must be zero
 * @switches: out: total number of nodes, node_stages * nodes_per_stage;
 *	one bit each in the switch matrix of a fabric of 2 x 2 switches
 * @reserved: must be zero
 * @radix: out: k, the ports of each switch on either side (2 for the
 *	2 x 2 fabrics)
 * @degree: out: channels at a switch, 2k; at a router of the flattened
 *	butterfly, its k terminals and (k - 1) (n - 1) channels to routers
 * @diameter: out: the most channels a packet crosses from an input to an
 *	output, terminal channels included
 * @routers: out: routers of the flattened butterfly, N / k; else 0
 * @channels: out: channels in all. Indirect fabrics count every link: N
 *	into the first node stage, N between each pair of node stages and N
 *	out of the last. The flattened butterfly counts its directed channels
 *	between routers
 * @bisection: out: the fewest channels a cut crosses that leaves half the
 *	inputs and half the outputs on each side (a flattened butterfly: half
 *	the routers), as Documentation/routing.rst derives it; 0 where bfly
 *	does not compute it (bfly2, bfly-twice, Benes; odd N)
 * @port_map_bytes: out: bytes of the switch settings as port maps
 *	(%BFLY_MATRIX_PORT_MAP): one byte per input port of every switch,
 *	node_stages * N; on an LCAN one byte per connector of every switch
 * @reserved2: must be zero
 * @uppers: out: on an LCAN, u, the uppers of a switch (of level 0 on a
 *	fat tree); the radix is d, its downers; 0 on the other fabrics
 * @pad2: must be zero
 * @reserved3: must be zero
 * @mbfly_d: out: on a multibutterfly, d; else 0
 * @mbfly_exp_kmax: out: on a multibutterfly, the largest subset size
 *	whose expansion was measured at creation: alpha = @mbfly_exp_kmax /
 *	@mbfly_exp_inputs
 * @mbfly_seed: out: on a multibutterfly, the seed of its wiring (the
 *	caller's, or the one the device picked)
 * @mbfly_exp_col: out: the column of the splitter measured
 * @mbfly_exp_inputs: out: its inputs M
 * @mbfly_exp_beta: out: the beta observed, min over k <= @mbfly_exp_kmax
 *	of the fewest outputs of either half adjacent to k inputs, over k, in
 *	16.16 fixed point
 * @mbfly_exp_exhaustive: out: 1 when every subset was measured, 0 when
 *	sampled (the beta is then an upper bound of the true one)
 * @mbfly_exp_subsets: out: subsets measured
 *
 * On an LCAN @node_stages is its levels l, @nodes_per_stage the switches
 * of level 0 (N/d) and @switches all of them.
 *
 * The fields from @radix on are new in version 5 of this interface
 * (%BFLY_INFO_SIZE_VER1); from @uppers on in version 6
 * (%BFLY_INFO_SIZE_VER2); from @mbfly_d on in version 9
 * (%BFLY_INFO_SIZE_VER3).
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
	__u32 radix;
	__u32 degree;
	__u32 diameter;
	__u32 routers;
	__u64 channels;
	__u64 bisection;
	__u64 port_map_bytes;
	__u64 reserved2[2];
	__u32 uppers;
	__u32 pad2;
	__u64 reserved3[2];
	__u32 mbfly_d;
	__u32 mbfly_exp_kmax;
	__u64 mbfly_seed;
	__u32 mbfly_exp_col;
	__u32 mbfly_exp_inputs;
	__u32 mbfly_exp_beta;
	__u32 mbfly_exp_exhaustive;
	__u64 mbfly_exp_subsets;
};

/**
 * define BFLY_INFO_SIZE_VER0 - size of the first published &struct bfly_info
 */
#define BFLY_INFO_SIZE_VER0 64

/**
 * define BFLY_INFO_SIZE_VER1 - size of &struct bfly_info with the radix and
 * the figures (interface version 5)
 */
#define BFLY_INFO_SIZE_VER1 120

/**
 * define BFLY_INFO_SIZE_VER2 - size of &struct bfly_info with the uppers
 * of an LCAN (interface version 6)
 */
#define BFLY_INFO_SIZE_VER2 144

/**
 * define BFLY_INFO_SIZE_VER3 - size of &struct bfly_info with the
 * multibutterfly's d, seed and measured expansion (interface version 9)
 */
#define BFLY_INFO_SIZE_VER3 184

/**
 * enum bfly_fault_kind - faults a fabric can be given (netlink fault-add)
 * @BFLY_FAULT_STUCK: a node stuck in one state: it ignores its bit of the
 *	switch matrix and stays straight (state 0) or cross (state 1). Node
 *	@index of node stage @stage.
 * @BFLY_FAULT_LINK: a broken link: the packet on link position @index
 *	leaving node stage @stage is lost (after the last node stage, the
 *	link to fabric output @index).
 * @__BFLY_FAULT_MAX: one past the last kind; not a kind
 *
 * Faults are injected to study fault tolerance; they change what the
 * fabric does, never what it is told: %BFLY_IOC_GET_MATRIX still returns
 * the matrix as set, %BFLY_IOC_TRACE shows where packets really go. See
 * Documentation/bfly.rst, "Faults". Fabrics of 2 x 2 switches take
 * faults; the k-ary n-fly and the flattened butterfly do not.
 */
enum bfly_fault_kind {
	BFLY_FAULT_STUCK = 1,
	BFLY_FAULT_LINK = 2,
	__BFLY_FAULT_MAX,
};

/**
 * define BFLY_MAX_FAULTS - most faults one fabric holds at a time
 */
#define BFLY_MAX_FAULTS 64

/**
 * define BFLY_MATRIX_BYTES - bytes of a switch matrix of @switches nodes
 * @switches: &bfly_info.switches
 *
 * The switch matrix has one bit per node, stage-major: node @node of node
 * stage @stage is bit ``stage * nodes_per_stage + node``, and bit ``b`` is
 * bit ``b % 64`` of the ``b / 64``-th __u64 word. 0 means straight, 1
 * cross. Bits past @switches in the last word are zero. Fabrics whose
 * switches are k x k with k > 2 have no such matrix: their settings are
 * port maps (%BFLY_MATRIX_PORT_MAP).
 */
#define BFLY_MATRIX_BYTES(switches) ((((__u64)(switches) + 63) / 64) * 8)

/**
 * define BFLY_MATRIX_PORT_MAP - switch settings as port maps
 *
 * A &struct bfly_matrix flag (and %BFLY_ROUTE_PORT_MAP for a route): the
 * buffer holds &bfly_info.port_map_bytes bytes, one per input port of
 * every switch, stage-major: byte ``(stage * nodes_per_stage + node) * k
 * + p`` is the output port that input port p of that node connects to,
 * or %BFLY_PORT_UNSET for none (a packet arriving there is lost). Each
 * node's map is one-to-one. A 2 x 2 node that is straight maps 0 to 0 and
 * 1 to 1, one that is cross 0 to 1 and 1 to 0; a 2 x 2 fabric takes no
 * %BFLY_PORT_UNSET. Every fabric reads and writes its settings this way;
 * the bit matrix serves fabrics of radix 2 whose nodes are all set.
 *
 * An LCAN (%BFLY_TOPO_CB_LCAN, %BFLY_TOPO_T_LCAN) has a byte per
 * connector of every switch instead, level by level, switch by switch:
 * the connectors are the downers 0 .. d-1, then the uppers d .. d+u-1, and
 * the byte of a connector is the connector its incoming wire leaves by.
 * A packet that came down on an upper only goes on down; nothing arrives
 * on an upper of the top level, and one leaving by it leaves the network
 * (the uni-directional network's output). Documentation/lcan.rst.
 */
#define BFLY_MATRIX_PORT_MAP _BITUL(0)

/**
 * define BFLY_PORT_UNSET - a port map entry connecting its input to nothing
 */
#define BFLY_PORT_UNSET 0xff

/**
 * struct bfly_matrix - the whole switch matrix
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_MATRIX_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_MATRIX_PORT_MAP or zero; other bits must be zero
 * @matrix_ptr: user address of the matrix: %BFLY_MATRIX_BYTES bytes, laid
 *	out as described there, or with %BFLY_MATRIX_PORT_MAP the port maps
 * @matrix_bytes: in: size of the buffer at @matrix_ptr; must equal
 *	BFLY_MATRIX_BYTES(switches), or &bfly_info.port_map_bytes with
 *	%BFLY_MATRIX_PORT_MAP
 * @switches: out: number of valid bits (&bfly_info.switches)
 * @generation: out: the matrix generation read or written; it grows by one
 *	with every change of the matrix
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_GET_MATRIX and %BFLY_IOC_SET_MATRIX.
 */
struct bfly_matrix {
	__u32 size;
	__u32 flags;
	__u64 matrix_ptr;
	__u64 matrix_bytes;
	__u64 switches;
	__u64 generation;
	__u64 reserved[3];
};

/**
 * define BFLY_MATRIX_SIZE_VER0 - size of the first published &struct bfly_matrix
 */
#define BFLY_MATRIX_SIZE_VER0 64

/**
 * struct bfly_trace - the permutation the current matrix realizes
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_TRACE_SIZE_VER0); out: number of bytes written
 * @flags: must be zero
 * @ports: in: number of entries at @perm_ptr; must equal the fabric's ports
 * @pad: must be zero
 * @perm_ptr: user address of @ports __u32: out: entry i is the output that
 *	input i reaches, or %BFLY_TRACE_LOST when a broken link loses it.
 *	Stuck nodes act in their stuck state (&enum bfly_fault_kind)
 * @generation: out: the matrix generation traced
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_TRACE.
 */
struct bfly_trace {
	__u32 size;
	__u32 flags;
	__u32 ports;
	__u32 pad;
	__u64 perm_ptr;
	__u64 generation;
	__u64 reserved[4];
};

/**
 * define BFLY_TRACE_LOST - &bfly_trace.perm_ptr entry of a lost packet
 */
#define BFLY_TRACE_LOST 0xffffffffU

/**
 * define BFLY_TRACE_TOP - on an LCAN, a &bfly_trace.perm_ptr entry for a
 * packet that leaves by an upper of the top level: this bit, or'ed with
 * the output (switch * u + upper)
 */
#define BFLY_TRACE_TOP 0x80000000U

/**
 * define BFLY_TRACE_SIZE_VER0 - size of the first published &struct bfly_trace
 */
#define BFLY_TRACE_SIZE_VER0 64

/**
 * struct bfly_stats - counters of one fabric since it was created
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_STATS_SIZE_VER0); out: number of bytes written
 * @flags: must be zero
 * @routes: routes computed (%BFLY_IOC_ROUTE calls that got past
 *	argument checks), dry runs included
 * @refusals: routes refused for internal conflicts
 * @conflicts: internal conflicts found, summed over all routes
 * @matrix_writes: changes of the switch matrix (set or applied route)
 * @batches: all-to-all batches run (%BFLY_IOC_BATCH), finished or not
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_GET_STATS.
 */
struct bfly_stats {
	__u32 size;
	__u32 flags;
	__u64 routes;
	__u64 refusals;
	__u64 conflicts;
	__u64 matrix_writes;
	__u64 batches;
	__u64 reserved[2];
};

/**
 * define BFLY_STATS_SIZE_VER0 - size of the first published &struct bfly_stats
 */
#define BFLY_STATS_SIZE_VER0 64

/* Routing requests and link loads: their structures */
#include "bfly_route.h"
/* RLS labels and all-to-all batches: their structures */
#include "bfly_batch.h"
/* Message sets on an LCAN: their structures */
#include "bfly_msgset.h"
/* h-relations in rounds: their structure */
#include "bfly_hrel.h"

/**
 * define BFLY_IOC_MAGIC - ioctl type byte of bfly devices
 */
#define BFLY_IOC_MAGIC 0xbf

/**
 * define BFLY_IOC_GET_INFO - describe the fabric behind this device
 *
 * Argument: &struct bfly_info, with @size set and every other field zero.
 * Needs read access to the device (-EBADF otherwise).
 *
 * Return: 0 on success; -EBADF; -EFAULT for a bad pointer; -EINVAL for a @size
 * below %BFLY_INFO_SIZE_VER0 or non-zero input fields; -E2BIG for a larger
 * structure with non-zero bytes this kernel does not know; -ENODEV if the
 * fabric was deleted.
 */
#define BFLY_IOC_GET_INFO _IOWR(BFLY_IOC_MAGIC, 0x00, struct bfly_info)

/**
 * define BFLY_IOC_GET_MATRIX - read the switch matrix
 *
 * Argument: &struct bfly_matrix. Needs read access (-EBADF otherwise). The
 * matrix is read as one consistent snapshot, never half of an update.
 *
 * Return: 0; -EBADF; -EINVAL for a wrong @matrix_bytes, unknown flags or
 * non-zero reserved fields; -EOPNOTSUPP for the bit matrix of a fabric
 * whose switches are not 2 x 2 or have ports set to nothing; -EFAULT for
 * a bad pointer; -E2BIG or -ENOMEM for the memory limits; -ENOMEM;
 * -ENODEV.
 */
#define BFLY_IOC_GET_MATRIX _IOWR(BFLY_IOC_MAGIC, 0x01, struct bfly_matrix)

/**
 * define BFLY_IOC_SET_MATRIX - replace the whole switch matrix at once
 *
 * Argument: &struct bfly_matrix. Needs write access (-EBADF otherwise).
 * Readers see the old matrix or the new one, never a mix.
 *
 * Return: 0; -EINVAL for a wrong @matrix_bytes, set bits past the last
 * node, a port map that is not one-to-one on a node or names a port of k
 * or more (%BFLY_PORT_UNSET on a 2 x 2 fabric), unknown flags or non-zero
 * reserved fields; -EOPNOTSUPP for the bit matrix of a fabric whose
 * switches are not 2 x 2; -EFAULT; -EBADF; -E2BIG or -ENOMEM for the
 * memory limits; -ENOMEM; -ENODEV. On error the matrix is unchanged.
 */
#define BFLY_IOC_SET_MATRIX _IOWR(BFLY_IOC_MAGIC, 0x02, struct bfly_matrix)

/**
 * define BFLY_IOC_TRACE - the permutation the current matrix realizes
 *
 * Argument: &struct bfly_trace. Needs read access (-EBADF otherwise).
 *
 * Return: 0; -EBADF; -EINVAL for @ports other than the fabric's, non-zero flags,
 * pad or reserved; -EOPNOTSUPP on a fat tree or a multibutterfly (no
 * settings); -EFAULT; -E2BIG or -ENOMEM for the memory limits; -ENOMEM;
 * -ENODEV.
 */
#define BFLY_IOC_TRACE _IOWR(BFLY_IOC_MAGIC, 0x03, struct bfly_trace)

/**
 * define BFLY_IOC_ROUTE - compute switch settings for a routing request
 *
 * Argument: &struct bfly_route. A permutation is routed by self-routing on
 * the butterfly, by destination-digit self-routing on the k-ary n-fly and
 * the flattened butterfly, and by the looping algorithm on the Benes
 * network; on bfly2 and bfly-twice, route labels (%BFLY_ROUTE_LABELS). Needs read
 * access. Unless %BFLY_ROUTE_DRY_RUN is set, a route without conflicts
 * replaces the switch matrix; that needs write access too. The outputs (@conflicts_count,
 * @first_conflict_stage, @method, the fault report, the conflicts and the
 * matrix) are written on success and on -EBUSY, -EOVERFLOW and
 * -EHOSTUNREACH. A dry run fails as the route would.
 *
 * Return: 0; -EBUSY when the request has internal conflicts (the matrix is
 * unchanged); -EOVERFLOW when it has more conflicts than @conflicts_max
 * entries at a non-zero @conflicts_ptr (the first ones are written);
 * -EINVAL for wrong sizes, a non-permutation, labels too wide, unknown
 * flags or non-zero reserved fields; -EOPNOTSUPP for the bit matrix of a
 * fabric whose switches are not 2 x 2; -EHOSTUNREACH when a fault would hit
 * a packet of the route and %BFLY_ROUTE_ALLOW_FAULTS is not set;
 * -EOPNOTSUPP for a permutation on bfly2 or bfly-twice; -EBADF without
 * read access, or without write access unless a dry run; -EFAULT; -E2BIG
 * or -ENOMEM for the memory limits (see Documentation/bfly.rst); -ENOMEM;
 * -EINTR when a fatal signal stopped it;
 * -ENODEV. On any error the matrix is unchanged.
 */
#define BFLY_IOC_ROUTE _IOWR(BFLY_IOC_MAGIC, 0x04, struct bfly_route)

/**
 * define BFLY_IOC_LINK_LOAD - link loads of a set of packets
 *
 * Argument: &struct bfly_link_load. Needs read access (-EBADF otherwise).
 * Packets follow their labels (conflicting packets then share a link), or
 * the current switch matrix.
 *
 * Return: 0; -EBADF; -EINVAL for wrong sizes, labels too wide, unknown flags or
 * non-zero reserved fields; -EFAULT; -ENOMEM; -EINTR; -ENODEV once the
 * fabric is deleted (by labels too, which read no matrix).
 */
#define BFLY_IOC_LINK_LOAD _IOWR(BFLY_IOC_MAGIC, 0x05, struct bfly_link_load)

/**
 * define BFLY_IOC_GET_STATS - read the fabric's counters
 *
 * Argument: &struct bfly_stats. Needs read access (-EBADF otherwise).
 *
 * Return: 0; -EBADF; -EINVAL for non-zero flags or reserved; -EFAULT; -ENODEV.
 */
#define BFLY_IOC_GET_STATS _IOWR(BFLY_IOC_MAGIC, 0x06, struct bfly_stats)

/**
 * define BFLY_IOC_RLS_LABELS - RLS labels of Algorithm 1
 *
 * Argument: &struct bfly_rls_labels. Needs read access (-EBADF otherwise).
 * Works on every topology whose N is a power of two: the labels depend
 * only on N.
 *
 * Return: 0; -EBADF; -EINVAL for a processor or rotation of N or more, a range
 * past N - 1, a @count other than N with %BFLY_RLS_BY_ROTATION, unknown
 * flags or non-zero reserved fields; -EOPNOTSUPP when N is no power of
 * two; -EFAULT; -E2BIG or -ENOMEM for the memory limits; -ENOMEM; -ENODEV.
 */
#define BFLY_IOC_RLS_LABELS _IOWR(BFLY_IOC_MAGIC, 0x07, struct bfly_rls_labels)

/**
 * define BFLY_IOC_BATCH - run a complete exchange, every processor to every one
 *
 * Argument: &struct bfly_batch. Needs write access (-EBADF otherwise);
 * read access is not needed. Runs the N rounds of
 * the schedule, each routed through the fabric and checked for conflicts,
 * moving every message from its send slot to its receive slot. The
 * fabric's switch matrix is not changed. The messages of a block of
 * consecutive rounds move together once those rounds are scheduled. A
 * pending signal stops the batch between blocks with -EINTR, and deleting
 * the fabric with -ENODEV; the outputs then say how many rounds completed
 * (whole blocks) and, with @done_ptr, which receive slots hold data.
 *
 * Return: 0; -EOPNOTSUPP on the k-ary n-fly, and on a flattened butterfly
 * whose N is no power of two; -EINVAL for wrong sizes, misaligned or
 * overlapping buffers, @rounds_ptr on a fabric other than a flattened
 * butterfly, an unknown schedule, a square that is not a Latin square of order N,
 * unknown flags or non-zero reserved fields; -E2BIG for a fabric of more
 * than 2^%BFLY_BATCH_MAX_PORTS_LOG2 ports, N * N * @msg_size over the
 * batch_max_bytes module parameter or overflowing; -EBUSY in strict mode
 * for a round with conflicts; -EOVERFLOW when it has more conflicts than
 * @conflicts_max; -EHOSTUNREACH after the last round when a fault hit
 * messages (they were not delivered); -E2BIG or -ENOMEM for the memory
 * limits; -EINTR; -EFAULT; -EBADF; -ENOMEM; -ENODEV. The outputs are
 * written on success and on every error after the batch started.
 */
#define BFLY_IOC_BATCH _IOWR(BFLY_IOC_MAGIC, 0x08, struct bfly_batch)

/**
 * define BFLY_IOC_MSGSET - route a message set on an LCAN in network cycles
 *
 * Argument: &struct bfly_msgset. Needs read access, and write access when
 * messages carry payload (-EBADF otherwise). Each network cycle starts
 * with every wire free and routes a set of paths that share no wire, each
 * processor sending and receiving once at most; a blocked message waits
 * for a later cycle. The fabric's settings are neither read nor changed.
 * Payload moves after the routing, cycle by cycle. New in version 7 of
 * this interface.
 *
 * Return: 0; -EOPNOTSUPP on a fabric other than an LCAN; -EINVAL for
 * wrong sizes, unknown flags, non-zero reserved fields, a pointer without
 * its size or the reverse, @path_entries or @load_entries too small, a
 * bad mode or strategy, or a bad message (its index in @bad_msg: a source
 * or destination out of range, uni-directional routing on other than a
 * CB-LCAN, a payload outside its buffer or at an offset no multiple of
 * 8), misaligned buffers; -E2BIG for more than %BFLY_MSGSET_MAX_MSGS
 * messages, for @count times ceil(lambda(M)) (or @max_cycles, if lower)
 * past 2^30, as each cycle tries every waiting message (@lambda_load,
 * @lambda_cap and @bound are then written), or -E2BIG or -ENOMEM for the
 * memory limits; -EINTR when a
 * signal stopped it (a fatal one during the routing, any while payload
 * moves: the outputs then say what was routed and moved); -ENODEV once
 * the fabric is deleted, before the request (also without payload) or
 * while payload moves; -EFAULT; -EBADF. The outputs are written on success
 * and on every error after the arguments were read.
 */
#define BFLY_IOC_MSGSET _IOWR(BFLY_IOC_MAGIC, 0x09, struct bfly_msgset)

/**
 * define BFLY_IOC_HREL - run a sparse exchange (an h relation) in rounds
 *
 * Argument: &struct bfly_hrel. Needs read access, and write access when
 * messages carry payload (-EBADF otherwise). The messages are split by
 * edge colouring into h rounds, h the relation's degree, each a partial
 * permutation (each processor sends and receives once at most); each
 * round is routed on the fabric: on ``benes`` by the looping algorithm, so
 * @rounds is h; on ``butterfly``, ``bfly2``, ``bfly-twice`` and ``kfly`` by
 * self-routing, a round with internal conflicts split into conflict-free
 * sub-rounds; on ``flatfly`` on its routers, one round per colour; on an
 * LCAN in network cycles. On ``mbfly`` the whole relation is routed at
 * once by the multibutterfly paper's algorithm (@stages and the figures
 * after it). The fabric's settings are neither read nor changed. Payload
 * moves after the routing, in blocks of consecutive rounds. New in
 * version 8 of this interface.
 *
 * Return: 0; -EOPNOTSUPP on a fabric with faults; -EAGAIN (stage limit)
 * or -EOVERFLOW (a node's buffers) when a multibutterfly's routing left
 * messages undelivered, nothing moved; -EINVAL for wrong sizes, flags,
 * non-zero reserved fields, a pointer without its size or the reverse, no
 * messages, misaligned buffers, or a bad message (its index in @bad_msg:
 * a source or destination of N or more, a non-zero pad, a payload outside
 * its buffer or at an offset no multiple of 8); -E2BIG for more than
 * %BFLY_HREL_MAX_MSGS messages, for h times N past 2^30 (@h is then
 * written), or for the memory limits; -ENOMEM; -EINTR when a signal
 * stopped it (any signal, between colours while routing and between two
 * messages while payload moves, each message whole and in round order:
 * the outputs then say what was routed and moved); -ENODEV once the
 * fabric is deleted, before the request (also without payload, and on
 * ``mbfly``) or between colours and blocks; -EFAULT; -EBADF. The outputs
 * are written on success and on every error after the arguments were
 * read.
 */
#define BFLY_IOC_HREL _IOWR(BFLY_IOC_MAGIC, 0x0a, struct bfly_hrel)

#endif /* _UAPI_LINUX_BFLY_H */
