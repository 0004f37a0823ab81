/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: routing requests, their conflicts, and link loads. Included by
 * <linux/bfly.h>, which holds the ioctls; see the extensible structures
 * described there.
 */
#ifndef _UAPI_LINUX_BFLY_ROUTE_H
#define _UAPI_LINUX_BFLY_ROUTE_H

#include <linux/const.h>
#include <linux/types.h>

/**
 * struct bfly_conflict - one internal conflict
 * @stage: node stage of the conflict
 * @node: node within that stage
 * @input: the fabric inputs of the two packets that ask for the same output
 *	port of the node: @input[0] arrived on input port 0, @input[1] on 1;
 *	on a k x k node, @input[0] holds the port (it arrived on the lower
 *	input port) and @input[1] is refused
 *
 * An internal conflict (RLS paper, Definition III.3) is two packets in one
 * node asking for the same output port. After a conflict, routing goes on
 * as the port-0 packet asks and the port-1 packet takes the other output,
 * so conflicts at later stages are counted consistently. On a k x k node
 * every refused packet takes the lowest port left free once the others
 * are placed.
 */
struct bfly_conflict {
	__u32 stage;
	__u32 node;
	__u32 input[2];
};

/**
 * struct bfly_port_conflict - one internal conflict, with the port
 * @stage: as in &struct bfly_conflict
 * @node: as in &struct bfly_conflict
 * @input: as in &struct bfly_conflict
 * @port: the output port both packets ask for
 * @pad: zero
 *
 * The entries of &bfly_route.conflicts_ptr with %BFLY_ROUTE_CONFLICT_PORTS.
 */
struct bfly_port_conflict {
	__u32 stage;
	__u32 node;
	__u32 input[2];
	__u32 port;
	__u32 pad;
};

/**
 * define BFLY_NO_CONFLICT - &bfly_route.first_conflict_stage without conflict
 */
#define BFLY_NO_CONFLICT 0xffffffffU

/**
 * define BFLY_ROUTE_DRY_RUN - compute the settings, do not apply them
 */
#define BFLY_ROUTE_DRY_RUN _BITUL(0)

/**
 * define BFLY_ROUTE_LABELS - route labelled packets, not a permutation
 *
 * Each input i carries the label at @labels_ptr[i], of
 * &bfly_info.node_stages bits used most significant first: node stage j
 * sends the packet to output port ``(label >> (node_stages - 1 - j)) & 1``.
 * On a fabric of radix k the label is node_stages base-k digits (below
 * k^node_stages), used most significant first in the same way: node stage
 * j sends the packet to output port ``label / k^(node_stages - 1 - j) % k``.
 */
#define BFLY_ROUTE_LABELS _BITUL(1)

/**
 * define BFLY_ROUTE_ALLOW_FAULTS - apply a route even if faults hit packets
 *
 * Without it, a route that a fault would hit (a packet crossing a node
 * stuck in the other state, or a broken link) fails with -EHOSTUNREACH and
 * changes nothing. With it, such a route is applied, and the inputs hit
 * are reported all the same.
 */
#define BFLY_ROUTE_ALLOW_FAULTS _BITUL(2)

/**
 * define BFLY_ROUTE_PORT_MAP - the computed settings as port maps
 *
 * &bfly_route.matrix_ptr receives the settings as %BFLY_MATRIX_PORT_MAP
 * lays them out, &bfly_info.port_map_bytes bytes. Fabrics whose switches
 * are k x k with k > 2 need it to get their settings.
 */
#define BFLY_ROUTE_PORT_MAP _BITUL(3)

/**
 * define BFLY_ROUTE_CONFLICT_PORTS - conflicts with the port asked for
 *
 * The entries at &bfly_route.conflicts_ptr are &struct bfly_port_conflict
 * instead of &struct bfly_conflict.
 */
#define BFLY_ROUTE_CONFLICT_PORTS _BITUL(4)

/**
 * enum bfly_route_method - how a route was computed
 * @BFLY_METHOD_NONE: nothing was routed
 * @BFLY_METHOD_SELF_ROUTING: butterfly self-routing by destination
 *	(RLS paper, Property III.2)
 * @BFLY_METHOD_LOOPING: the Benes looping algorithm
 * @BFLY_METHOD_LABELS: self-routing by caller-given labels
 */
enum bfly_route_method {
	BFLY_METHOD_NONE = 0,
	BFLY_METHOD_SELF_ROUTING = 1,
	BFLY_METHOD_LOOPING = 2,
	BFLY_METHOD_LABELS = 3,
};

/**
 * struct bfly_route - route a permutation or labelled packets
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_ROUTE_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_ROUTE_DRY_RUN, %BFLY_ROUTE_LABELS,
 *	%BFLY_ROUTE_ALLOW_FAULTS, %BFLY_ROUTE_PORT_MAP,
 *	%BFLY_ROUTE_CONFLICT_PORTS; other bits must be zero
 * @ports: in: entries at @perm_ptr or @labels_ptr; must equal the ports
 * @label_bits: in: with %BFLY_ROUTE_LABELS, the label width in digits
 *	(bits on a fabric of radix 2), which must equal
 *	&bfly_info.node_stages; zero otherwise
 * @perm_ptr: in, without %BFLY_ROUTE_LABELS: user address of @ports __u32,
 *	entry i the output input i must reach: a permutation of 0..ports-1
 * @labels_ptr: in, with %BFLY_ROUTE_LABELS: user address of @ports __u64
 *	labels, each below radix^label_bits; zero otherwise
 * @matrix_ptr: in: zero, or a user buffer receiving the computed switch
 *	matrix (laid out as for %BFLY_IOC_GET_MATRIX, or as port maps with
 *	%BFLY_ROUTE_PORT_MAP), written even when the route is refused for its
 *	conflicts
 * @matrix_bytes: in: with @matrix_ptr, BFLY_MATRIX_BYTES(switches), or
 *	&bfly_info.port_map_bytes with %BFLY_ROUTE_PORT_MAP; else 0
 * @conflicts_ptr: in: zero, or a user array of @conflicts_max
 *	&struct bfly_conflict (&struct bfly_port_conflict with
 *	%BFLY_ROUTE_CONFLICT_PORTS) receiving the first conflicts, in stage
 *	order
 * @conflicts_max: in: entries at @conflicts_ptr; zero without it
 * @conflicts_count: out: the total number of internal conflicts
 * @first_conflict_stage: out: node stage of the first conflict, or
 *	%BFLY_NO_CONFLICT
 * @method: out: one of &enum bfly_route_method
 * @generation: out: the matrix generation after the call
 * @reserved: must be zero
 * @affected_ptr: in: zero, or a user bitmap of @ports bits (__u64 words, as
 *	the switch matrix) receiving the inputs whose packet a fault hits
 * @affected_count: out: the number of those inputs
 * @stuck_unmet: out: stuck nodes the route needs in the other state than
 *	they are stuck in. On the Benes network the looping algorithm uses its
 *	free choices to meet stuck nodes; this counts those it could not
 * @faults: out: the faults of the fabric the route was checked against
 * @pad: must be zero
 * @reserved2: must be zero
 *
 * The fields from @affected_ptr on are new in version 4 of this interface
 * (%BFLY_ROUTE_SIZE_VER1).
 *
 * Argument of %BFLY_IOC_ROUTE.
 */
struct bfly_route {
	__u32 size;
	__u32 flags;
	__u32 ports;
	__u32 label_bits;
	__u64 perm_ptr;
	__u64 labels_ptr;
	__u64 matrix_ptr;
	__u64 matrix_bytes;
	__u64 conflicts_ptr;
	__u32 conflicts_max;
	__u32 conflicts_count;
	__u32 first_conflict_stage;
	__u32 method;
	__u64 generation;
	__u64 reserved[2];
	__u64 affected_ptr;
	__u32 affected_count;
	__u32 stuck_unmet;
	__u32 faults;
	__u32 pad;
	__u64 reserved2[2];
};

/**
 * define BFLY_ROUTE_SIZE_VER0 - size of the first published &struct bfly_route
 */
#define BFLY_ROUTE_SIZE_VER0 96

/**
 * define BFLY_ROUTE_SIZE_VER1 - size of &struct bfly_route with the fault
 * report (interface version 4)
 */
#define BFLY_ROUTE_SIZE_VER1 136

/**
 * struct bfly_link_load - link loads of a routed set of packets
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_LINK_LOAD_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_ROUTE_LABELS to route labels; without it the packets
 *	follow the current switch matrix. Other bits must be zero
 * @ports: in: must equal the fabric's ports
 * @label_bits: in: with %BFLY_ROUTE_LABELS, &bfly_info.node_stages (the
 *	label's digits, as for %BFLY_ROUTE_LABELS); else 0
 * @labels_ptr: in: with %BFLY_ROUTE_LABELS, user address of @ports __u64
 *	labels; zero otherwise
 * @active_ptr: in: zero for a packet at every input, or a user bitmap of
 *	@ports bits (__u64 words, as the switch matrix) of the inputs that
 *	carry a packet
 * @load_ptr: in: zero, or a user array of @load_entries __u32 receiving the
 *	load of every link entering node stages 1..node_stages-1 and of the
 *	fabric outputs: entry ``e * ports + p`` is the number of packets on
 *	link position p after node stage e
 * @load_entries: in: with @load_ptr, node_stages * ports; else 0
 * @max_link_load: out: the maximum link load (MLL) over all those links
 * @pad: must be zero
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_LINK_LOAD.
 */
struct bfly_link_load {
	__u32 size;
	__u32 flags;
	__u32 ports;
	__u32 label_bits;
	__u64 labels_ptr;
	__u64 active_ptr;
	__u64 load_ptr;
	__u64 load_entries;
	__u32 max_link_load;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * define BFLY_LINK_LOAD_SIZE_VER0 - size of the first &struct bfly_link_load
 */
#define BFLY_LINK_LOAD_SIZE_VER0 72

#endif /* _UAPI_LINUX_BFLY_ROUTE_H */
