/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: message sets routed on a least common ancestor network (LCAN) in
 * network cycles. Included by <linux/bfly.h>, which holds the ioctls; see
 * the extensible structures described there.
 */
#ifndef _UAPI_LINUX_BFLY_MSGSET_H
#define _UAPI_LINUX_BFLY_MSGSET_H

#include <linux/const.h>
#include <linux/types.h>

/**
 * define BFLY_MSGSET_MAX_MSGS - the most messages one message set holds
 */
#define BFLY_MSGSET_MAX_MSGS 16777216U

/**
 * enum bfly_msgset_mode - which way a message set's paths run
 * @BFLY_MSGSET_BIDIR: up to the pair's LCA level and back down (LCAN
 *	paper, Section 3.1); destinations are processors
 * @BFLY_MSGSET_UNIDIR: up through every level of a CB-LCAN, as the
 *	uni-directional multistage network it contains; destinations are the
 *	top level's outputs, 0 .. u^l - 1 (switch * u + upper)
 */
enum bfly_msgset_mode {
	BFLY_MSGSET_BIDIR = 0,
	BFLY_MSGSET_UNIDIR = 1,
};

/**
 * enum bfly_msgset_strategy - how each network cycle picks its paths
 * @BFLY_MSGSET_ONLINE: messages in the caller's order; each goes up by a
 *	random free upper (random from @seed), down by the first free wire; a
 *	message whose way is blocked waits for the next cycle
 * @BFLY_MSGSET_OFFLINE: the whole set known in advance: messages of the
 *	highest LCA level first, each on the first free path among all its
 *	paths
 */
enum bfly_msgset_strategy {
	BFLY_MSGSET_ONLINE = 0,
	BFLY_MSGSET_OFFLINE = 1,
};

/**
 * define BFLY_MSGSET_GIVEN_PATHS - the caller gives each message's path
 *
 * @path_ptr is read as well as written: each message's path as 2 l
 * choices (its layout in &struct bfly_msgset), taken as given; a message
 * whose path is blocked waits for a later cycle. Bi-directional only. On
 * return @path_ptr holds the routed messages' paths and zeros for the
 * others.
 */
#define BFLY_MSGSET_GIVEN_PATHS 0x1U

/**
 * struct bfly_msgset_msg - one message of a message set
 * @src: the source processor, 0 .. N - 1
 * @dst: the destination: a processor, or a top output with
 *	%BFLY_MSGSET_UNIDIR
 * @len: bytes of payload it carries; 0 for none
 * @pad: must be zero
 * @send_off: with @len, where its payload starts in the send buffer: a
 *	multiple of 8, and @send_off + @len within the buffer
 * @recv_off: with @len, where its payload lands in the receive buffer: a
 *	multiple of 8, and @recv_off + @len within the buffer
 *
 * Sources and destinations may repeat (an h-relation). Payload moves
 * cycle by cycle: where two messages land on the same bytes, the later
 * cycle's (in the same cycle the later message's) remains.
 */
struct bfly_msgset_msg {
	__u32 src;
	__u32 dst;
	__u32 len;
	__u32 pad;
	__u64 send_off;
	__u64 recv_off;
};

/**
 * struct bfly_msgset - route a message set in network cycles
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_MSGSET_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_MSGSET_GIVEN_PATHS; other bits must be zero
 * @count: in: messages at @msgs_ptr, 1 .. %BFLY_MSGSET_MAX_MSGS
 * @mode: in: one of &enum bfly_msgset_mode
 * @strategy: in: one of &enum bfly_msgset_strategy
 * @max_cycles: in: stop after this many cycles, 0 for no limit; messages
 *	not routed by then have cycle %BFLY_MSGSET_NOT_ROUTED
 * @seed: in: the on-line strategy's random choices: one seed, one result
 * @msgs_ptr: in: user address of @count &struct bfly_msgset_msg
 * @send_ptr: in: zero, or the send buffer (8-byte aligned) when messages
 *	carry payload
 * @send_bytes: in: bytes at @send_ptr; zero without it
 * @recv_ptr: in: zero, or the receive buffer (8-byte aligned, apart from
 *	the send buffer)
 * @recv_bytes: in: bytes at @recv_ptr; zero without it
 * @cycle_ptr: in: zero, or a user array of @count __u32 receiving each
 *	message's cycle (from 0)
 * @path_ptr: in: zero, or a user array of @path_entries __u32 receiving
 *	each message's path as 2 l choices: its upper at each level 0 .. l - 1
 *	(the tag), then the wire of each channel down (always 0 on a CB-LCAN),
 *	0 past the message's LCA level; with %BFLY_MSGSET_GIVEN_PATHS also
 *	read first
 * @path_entries: in: with @path_ptr, at least @count * 2 * l; else 0
 * @load_ptr: in: zero, or a user array of @load_entries __u32 receiving
 *	each channel's load, in the order Documentation/lcan.rst gives under
 *	"Channels and lambda(M)", where each position fixes the capacity
 * @load_entries: in: with @load_ptr, at least @channels; else 0
 * @levels: out: l, the levels of the network
 * @cycles: out: network cycles used
 * @routed: out: messages routed (all of them unless @max_cycles stopped
 *	the routing)
 * @lambda_load: out: the load of the channel with the greatest load factor
 * @lambda_cap: out: that channel's capacity: lambda(M) = @lambda_load /
 *	@lambda_cap
 * @bound: out: ceil(lambda(M)), the LCAN paper's Theorem 3 lower bound
 *	on @cycles
 * @channels: out: the channels of the load report (the same for every
 *	set in one mode)
 * @bytes_moved: out: payload bytes moved
 * @bad_msg: out: on -EINVAL for a message, the index of the first bad one
 * @pad: must be zero
 * @reserved: must be zero
 *
 * Argument of %BFLY_IOC_MSGSET.
 */
struct bfly_msgset {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 mode;
	__u32 strategy;
	__u32 max_cycles;
	__u64 seed;
	__u64 msgs_ptr;
	__u64 send_ptr;
	__u64 send_bytes;
	__u64 recv_ptr;
	__u64 recv_bytes;
	__u64 cycle_ptr;
	__u64 path_ptr;
	__u64 path_entries;
	__u64 load_ptr;
	__u64 load_entries;
	__u32 levels;
	__u32 cycles;
	__u32 routed;
	__u32 lambda_load;
	__u32 lambda_cap;
	__u32 bound;
	__u64 channels;
	__u64 bytes_moved;
	__u32 bad_msg;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * define BFLY_MSGSET_NOT_ROUTED - the cycle of a message not routed
 */
#define BFLY_MSGSET_NOT_ROUTED 0xffffffffU

/**
 * define BFLY_MSGSET_SIZE_VER0 - size of the first published &struct bfly_msgset
 */
#define BFLY_MSGSET_SIZE_VER0 176

#endif /* _UAPI_LINUX_BFLY_MSGSET_H */
