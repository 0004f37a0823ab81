/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: h-relation batches, sparse exchanges of messages of any sizes
 * (as MPI_Alltoallv's counts and displacements give them), split into
 * rounds and run on a fabric. Included by <linux/bfly.h>, which holds the
 * ioctls; see the extensible structures described there. The messages are
 * &struct bfly_msgset_msg, as for message sets.
 */
#ifndef _UAPI_LINUX_BFLY_HREL_H
#define _UAPI_LINUX_BFLY_HREL_H

#include <linux/const.h>
#include <linux/types.h>

/**
 * define BFLY_HREL_MAX_MSGS - the most messages one relation holds
 */
#define BFLY_HREL_MAX_MSGS 16777216U

/**
 * define BFLY_HREL_IDLE - an input that sends nothing in a round
 *
 * The destination of such an input in a round's permutation, and the round
 * of a message that no round carried.
 */
#define BFLY_HREL_IDLE 0xffffffffU

/**
 * struct bfly_hrel - a sparse exchange (an h relation) run in rounds
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_HREL_SIZE_VER0); out: number of bytes written
 * @flags: in: must be zero
 * @count: in: messages at @msgs_ptr, 1 .. %BFLY_HREL_MAX_MSGS
 * @h: out: the relation's degree: the most messages one processor sends
 *	or receives
 * @seed: in: on ``bfly2`` and ``bfly-twice``, the random middle rows of the
 *	messages' labels: one seed, one result
 * @msgs_ptr: in: user address of @count &struct bfly_msgset_msg (its
 *	@dst a processor)
 * @send_ptr: in: zero, or the send buffer (8-byte aligned) when messages
 *	carry payload
 * @send_bytes: in: bytes at @send_ptr; zero without it
 * @recv_ptr: in: zero, or the receive buffer (8-byte aligned, apart from
 *	the send buffer)
 * @recv_bytes: in: bytes at @recv_ptr; zero without it
 * @round_ptr: in: zero, or a user array of @count __u32 receiving each
 *	message's round (from 0), %BFLY_HREL_IDLE for one no round carried
 * @perm_ptr: in: zero, or a user array of @perm_entries __u32 receiving,
 *	round after round, the N destinations of the round's inputs
 *	(%BFLY_HREL_IDLE for an idle one): the partial permutation each round
 *	routed; whole rounds only, as many as fit (with room for one round
 *	at least, the kernel's N-entry copy buffer counts against the
 *	memory limits, charged before anything runs); on a multibutterfly,
 *	whose one round is a partial permutation only for h = 1, a relation
 *	of h above 1 with @perm_ptr is refused (-EINVAL, nothing moved)
 * @perm_entries: in: with @perm_ptr, its room; else 0
 * @colours: out: the rounds of the edge colouring, h (every one a partial
 *	permutation)
 * @rounds: out: rounds run on the fabric: @colours, plus the rounds of a
 *	colour that the fabric cannot route at once split off it
 * @cycles: out: the fabric's cycles for the rounds as run, pipelined as
 *	for an all-to-all batch (one round injected a cycle)
 * @bytes_moved: out: payload bytes moved: the bytes of the messages known
 *	to have arrived whole (after -EFAULT, a message of the streaming group
 *	the fault hit may have arrived whole all the same)
 * @bad_msg: out: on -EINVAL for a message, the index of the first bad one
 * @pad: must be zero
 * @reserved: must be zero
 * @path_ptr: in: zero, or, on a multibutterfly, a user array of
 *	@path_entries __u32 receiving each message's row in columns 0 .. log N,
 *	message after message: whole paths only, as many as fit
 * @path_entries: in: with @path_ptr, its room; else 0
 * @stages: out: on a multibutterfly, the routing's stages; else 0
 * @max_through: out: on a multibutterfly, the most messages through a node
 * @hbar: out: on a multibutterfly, h-bar (Theorem 2)
 * @bound_ok: out: on a multibutterfly, 1 when @max_through <= 2 @hbar
 *	(Theorem 2's bound held); else 0
 * @forced: out: on a multibutterfly, inputs that selected neighbours
 *	without permission (the fallback beyond the paper)
 * @max_w: out: on a multibutterfly, the largest counter W set
 *
 * @colours, @rounds and @cycles (and @round_ptr's and @perm_ptr's
 * arrays) are written once the routing finished, also when the payload
 * after it fails; a request refused or stopped before reports 0 there
 * (@h is written whenever it is known, e.g. for a refusal of h x N).
 *
 * On a multibutterfly the whole relation routes at once with the paper's
 * algorithm: @colours is 0, @rounds 1, @cycles the stages. The fields from
 * @path_ptr on are new in version 9 (%BFLY_HREL_SIZE_VER1).
 *
 * Argument of %BFLY_IOC_HREL.
 */
struct bfly_hrel {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 h;
	__u64 seed;
	__u64 msgs_ptr;
	__u64 send_ptr;
	__u64 send_bytes;
	__u64 recv_ptr;
	__u64 recv_bytes;
	__u64 round_ptr;
	__u64 perm_ptr;
	__u64 perm_entries;
	__u32 colours;
	__u32 rounds;
	__u64 cycles;
	__u64 bytes_moved;
	__u32 bad_msg;
	__u32 pad;
	__u64 reserved[2];
	__u64 path_ptr;
	__u64 path_entries;
	__u32 stages;
	__u32 max_through;
	__u32 hbar;
	__u32 bound_ok;
	__u32 forced;
	__u32 max_w;
};

/**
 * define BFLY_HREL_SIZE_VER0 - size of the first published &struct bfly_hrel
 */
#define BFLY_HREL_SIZE_VER0 136

/**
 * define BFLY_HREL_SIZE_VER1 - size of &struct bfly_hrel with the
 * multibutterfly's paths and figures (interface version 9)
 */
#define BFLY_HREL_SIZE_VER1 176

#endif /* _UAPI_LINUX_BFLY_HREL_H */
