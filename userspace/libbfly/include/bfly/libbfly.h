/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbfly: bfly's schedules for user programs, built from the same
 * algorithm files as bfly.ko (kmod/lib). A program that moves data on a
 * real network (MPI, sockets) takes its rounds from here and gets the
 * rounds the device would run.
 *
 * Every function returns 0 or a negative errno: -EINVAL for a bad
 * argument, -ENOMEM when it could not allocate its workspace.
 */
#ifndef _LIBBFLY_H
#define _LIBBFLY_H

#include <stddef.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * define LIBBFLY_IDLE - a source that sends nothing in a round
 */
#define LIBBFLY_IDLE 0xffffffffU

/**
 * enum libbfly_a2a - the Latin square of an all-to-all exchange
 * @LIBBFLY_A2A_RLS: round k sends i to (i - k) mod N (the RLS paper's,
 *	the device's default on bfly2 and bfly-twice)
 * @LIBBFLY_A2A_LLS: round k sends i to (i + k) mod N
 * @LIBBFLY_A2A_XOR: round k sends i to i XOR k
 */
enum libbfly_a2a {
	LIBBFLY_A2A_RLS,
	LIBBFLY_A2A_LLS,
	LIBBFLY_A2A_XOR,
};

/**
 * libbfly_version() - the version of bfly the library was built from
 *
 * Return: a string such as "0.9.0".
 */
const char *libbfly_version(void);

/**
 * libbfly_a2a_round() - one round of an all-to-all exchange
 * @ports: N, a power of two from 2 to 2^20
 * @latin: one of &enum libbfly_a2a
 * @k: the round, 0 .. N - 1
 * @dest: N entries: receives, for each source i, its destination
 *
 * Over the N rounds every source sends to every destination once, and in
 * each round every destination receives once (a permutation).
 *
 * Return: 0 or -EINVAL.
 */
int libbfly_a2a_round(__u32 ports, int latin, __u32 k, __u32 *dest);

/**
 * libbfly_benes_matrix_bytes() - size of a Benes fabric's switch settings
 * @ports: N, a power of two from 2 to 2^20
 *
 * Return: bytes of the bit matrix libbfly_benes_route() writes (as
 * BFLY_IOC_GET_MATRIX reads it from a benes fabric), or 0 for a bad N.
 */
size_t libbfly_benes_matrix_bytes(__u32 ports);

/**
 * libbfly_benes_route() - the looping algorithm's settings for a permutation
 * @ports: N, a power of two from 2 to 2^20
 * @perm: N entries: input i goes to output @perm[i]
 * @matrix: libbfly_benes_matrix_bytes() bytes, 8-byte aligned: receives
 *	the settings, bit s * (N / 2) + j for node j of stage s, set when it
 *	crosses
 *
 * Return: 0, -EINVAL (N or @perm not a permutation) or -ENOMEM.
 */
int libbfly_benes_route(__u32 ports, const __u32 *perm, __u64 *matrix);

/**
 * libbfly_hrel_rounds() - split an h-relation into h partial permutations
 * @ports: N, the processors, 1 .. 2^24
 * @count: messages, 1 .. 2^24
 * @src: @count sources, each below N
 * @dst: @count destinations, each below N
 * @h: receives the relation's degree: the most messages a processor
 *	sends or receives
 * @round: @count entries: receives each message's round, 0 .. h - 1;
 *	in each round every processor sends once and receives once at most
 *
 * Exactly h rounds, the fewest possible (bipartite edge colouring, as
 * BFLY_IOC_HREL colours a relation).
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int libbfly_hrel_rounds(__u32 ports, __u32 count, const __u32 *src,
			const __u32 *dst, __u32 *h, __u32 *round);

#ifdef __cplusplus
}
#endif

#endif /* _LIBBFLY_H */
