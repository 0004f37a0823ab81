/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bfly: the all-to-all part of the contract, RLS labels and batches.
 * Included by <linux/bfly.h>, which holds the ioctls; see the extensible
 * structures described there.
 */
#ifndef _UAPI_LINUX_BFLY_BATCH_H
#define _UAPI_LINUX_BFLY_BATCH_H

#include <linux/const.h>
#include <linux/types.h>

/**
 * struct bfly_rls_labels - RLS labels of Algorithm 1 (RLS paper)
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_RLS_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_RLS_BY_ROTATION for every processor of one rotation;
 *	without it, one processor over a range of rotations
 * @processor: in: the processor i (without %BFLY_RLS_BY_ROTATION); else 0
 * @rotation: in: the rotation k, or the first one of the range
 * @count: in: labels at @labels_ptr: the number of rotations from
 *	@rotation (at most N - @rotation), or N with %BFLY_RLS_BY_ROTATION
 * @label_bits: out: 2n - 1, the width of every label
 * @labels_ptr: user address of @count __u64 receiving the labels
 * @reserved: must be zero
 *
 * For processor i and rotation k (0 .. N-1; 0 is the identity) the label
 * is the intermediate output I (n bits) followed by the destination
 * d = (i - k) mod N without its leftmost bit (n - 1 bits), used most
 * significant first, one bit per node stage of a Butterfly-Butterfly.
 * The labels are generated from (i, k) alone; no square is stored.
 * Argument of %BFLY_IOC_RLS_LABELS.
 */
struct bfly_rls_labels {
	__u32 size;
	__u32 flags;
	__u32 processor;
	__u32 rotation;
	__u32 count;
	__u32 label_bits;
	__u64 labels_ptr;
	__u64 reserved[4];
};

/**
 * define BFLY_RLS_SIZE_VER0 - size of the first &struct bfly_rls_labels
 */
#define BFLY_RLS_SIZE_VER0 64

/**
 * define BFLY_RLS_BY_ROTATION - labels of every processor for one rotation
 */
#define BFLY_RLS_BY_ROTATION _BITUL(0)

/**
 * enum bfly_schedule - the Latin square an all-to-all batch follows
 * @BFLY_SCHED_DEFAULT: %BFLY_SCHED_RLS
 * @BFLY_SCHED_RLS: round k sends i to (i - k) mod N, routed by the RLS
 *	labels of Algorithm 1 on bfly2 and bfly-twice
 * @BFLY_SCHED_LLS: round k sends i to (i + k) mod N
 * @BFLY_SCHED_XOR: round k sends i to i XOR k
 * @BFLY_SCHED_SQUARE: a caller-supplied Latin square of order N: round k
 *	sends i to square[i * N + k]
 * @BFLY_SCHED_SYSTOLIC: round k sends i to the port whose base-r digits
 *	(r the fabric's radix: 2 for 2 x 2 switches) are those of i plus
 *	those of k plus, in every digit but the lowest, the lowest digit of
 *	i, each mod r. On a flattened butterfly its rounds enter the routers
 *	one a cycle and no channel ever carries two packets in a cycle
 *	(Documentation/routing.rst); it is the one schedule for a
 *	flattened butterfly whose N is no power of two
 *
 * On the butterfly the destinations are the labels; on bfly2 and
 * bfly-twice the RLS schedule uses the labels of Algorithm 1 and the
 * other schedules the labels Documentation/batch.rst describes; on the
 * Benes network every round is routed by the looping algorithm.
 */
enum bfly_schedule {
	BFLY_SCHED_DEFAULT = 0,
	BFLY_SCHED_RLS = 1,
	BFLY_SCHED_LLS = 2,
	BFLY_SCHED_XOR = 3,
	BFLY_SCHED_SQUARE = 4,
	BFLY_SCHED_SYSTOLIC = 5,
};

/**
 * struct bfly_msg_ref - one message of an all-to-all exchange
 * @source: the processor that sends it
 * @dest: the processor it is for
 */
struct bfly_msg_ref {
	__u32 source;
	__u32 dest;
};

/**
 * define BFLY_BATCH_STRICT - fail on a round with conflicts
 *
 * Without it, a round whose packets conflict is split into conflict-free
 * sub-rounds. With it, the batch stops at that round with -EBUSY and its
 * conflicts reported.
 */
#define BFLY_BATCH_STRICT _BITUL(0)

/**
 * define BFLY_BATCH_MINIMAL - on a flattened butterfly, minimal routes
 *
 * The rounds route by minimal dimension-order routes (the digits that
 * differ corrected from the top one down) instead of the RLS paper's
 * mapping of bfly2's labels onto the routers. Other schedules and radixes
 * route minimally anyway. Fabrics of 2 x 2 switches ignore it.
 */
#define BFLY_BATCH_MINIMAL _BITUL(1)

/**
 * struct bfly_round - one round of an exchange on a flattened butterfly
 * @max_load: the most packets one directed channel between routers
 *	carries in the round
 * @cycles: the cycles the round takes when every channel carries one
 *	packet a cycle and packets move store and forward, injection and
 *	ejection included (Documentation/routing.rst)
 */
struct bfly_round {
	__u32 max_load;
	__u32 cycles;
};

/**
 * define BFLY_BATCH_MAX_PORTS_LOG2 - log2 of the largest fabric for batches
 */
#define BFLY_BATCH_MAX_PORTS_LOG2 16

/**
 * struct bfly_batch - an all-to-all personalized exchange
 * @size: in: size of this structure as the caller knows it
 *	(at least %BFLY_BATCH_SIZE_VER0); out: number of bytes written
 * @flags: in: %BFLY_BATCH_STRICT, %BFLY_BATCH_MINIMAL; other bits must
 *	be zero
 * @schedule: in: one of &enum bfly_schedule
 * @ports: in: must equal the fabric's ports
 * @msg_size: in: bytes per message; 0 runs the schedule only
 * @send_ptr: in: user address of the send buffer, laid out [source][dest]:
 *	the message from i to d at byte (i * N + d) * @msg_size; 8-byte
 *	aligned; not zero when @msg_size is not
 * @recv_ptr: in: user address of the receive buffer, laid out
 *	[dest][source]: the message from i to d lands at byte
 *	(d * N + i) * @msg_size; 8-byte aligned, not overlapping @send_ptr,
 *	not zero when @msg_size is not
 * @buf_bytes: in: the size of each buffer; must equal N * N * @msg_size
 * @square_ptr: in: with %BFLY_SCHED_SQUARE, user address of N * N __u32;
 *	zero otherwise
 * @done_ptr: in: zero, or a user bitmap of N * N bits (__u64 words, as
 *	the switch matrix) receiving the receive slots that hold their
 *	message, bit d * N + i for the message from i to d; written on
 *	success and on failure. N must be at most 2^13 with it
 * @conflicts_ptr: in: zero, or a user array of @conflicts_max
 *	&struct bfly_conflict receiving, in strict mode, the conflicts of
 *	the round that stopped the batch
 * @conflicts_max: in: entries at @conflicts_ptr; zero without it
 * @rounds: out: rounds completed (N for a whole batch)
 * @sub_rounds: out: injections: rounds plus the extra sub-rounds of split
 *	rounds
 * @cycles: out: pipelined stage-traversal cycles: node_stages +
 *	@sub_rounds - 1 (RLS paper, Remark V.1)
 * @conflicts: out: internal conflicts found in the rounds as scheduled,
 *	before splitting
 * @max_link_load: out: the maximum link load of the rounds as scheduled
 * @first_conflict_round: out: the first round with a conflict, or
 *	%BFLY_NO_CONFLICT
 * @pad: must be zero
 * @bytes_moved: out: bytes copied from send to receive slots
 * @elapsed_ns: out: time the batch took in the kernel
 * @reserved: must be zero
 * @affected: out: messages a fault hit on their way (see &struct
 *	bfly_route): they are not copied, and their receive slots stay as
 *	they were
 * @affected_ptr: in: zero, or a user array of @affected_max &struct
 *	bfly_msg_ref receiving the first messages hit, in round order
 * @affected_max: in: entries at @affected_ptr; zero without it
 * @faults: out: the faults of the fabric the batch ran with
 * @reserved2: must be zero
 * @rounds_ptr: in: zero, or on a flattened butterfly a user array of N
 *	&struct bfly_round receiving each round's figures
 * @cycles_bound: out: on a flattened butterfly, a lower bound on the
 *	cycles any schedule of the whole exchange takes (N + 2 or a little
 *	more, derived in Documentation/routing.rst); else 0
 *
 * The fields from @affected on are new in version 4 of this interface
 * (%BFLY_BATCH_SIZE_VER1), those from @rounds_ptr on in version 5
 * (%BFLY_BATCH_SIZE_VER2). On a flattened butterfly the rounds run on the
 * routers one after another, except those of %BFLY_SCHED_SYSTOLIC, which
 * are pipelined: @cycles is the sum of the rounds' cycles, or for the
 * systolic schedule the cycle its last round is ejected in,
 * @max_link_load the most packets on a channel between routers in a
 * round, @conflicts the packets past one per channel summed over the
 * rounds, and a strict batch stops at the first round that puts two
 * packets on one channel.
 *
 * Argument of %BFLY_IOC_BATCH.
 */
struct bfly_batch {
	__u32 size;
	__u32 flags;
	__u32 schedule;
	__u32 ports;
	__u64 msg_size;
	__u64 send_ptr;
	__u64 recv_ptr;
	__u64 buf_bytes;
	__u64 square_ptr;
	__u64 done_ptr;
	__u64 conflicts_ptr;
	__u32 conflicts_max;
	__u32 rounds;
	__u32 sub_rounds;
	__u32 max_link_load;
	__u64 cycles;
	__u64 conflicts;
	__u32 first_conflict_round;
	__u32 pad;
	__u64 bytes_moved;
	__u64 elapsed_ns;
	__u64 reserved[4];
	__u64 affected;
	__u64 affected_ptr;
	__u32 affected_max;
	__u32 faults;
	__u64 reserved2[2];
	__u64 rounds_ptr;
	__u64 cycles_bound;
};

/**
 * define BFLY_BATCH_SIZE_VER0 - size of the first published &struct bfly_batch
 */
#define BFLY_BATCH_SIZE_VER0 160

/**
 * define BFLY_BATCH_SIZE_VER1 - size of &struct bfly_batch with the fault
 * report (interface version 4)
 */
#define BFLY_BATCH_SIZE_VER1 200

/**
 * define BFLY_BATCH_SIZE_VER2 - size of &struct bfly_batch with the rounds of
 * a flattened butterfly (interface version 5)
 */
#define BFLY_BATCH_SIZE_VER2 216

#endif /* _UAPI_LINUX_BFLY_BATCH_H */
