/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The (N, d)-multibutterfly (Documentation/mbfly.rst): its seeded wiring
 * and the expansion its splitters show (mbfly.c), and h-relations routed
 * with the stages, ghosts and counters of the multibutterfly paper's
 * Section 3 (mbfly_route.c).
 */
#ifndef _BFLY_MBFLY_H
#define _BFLY_MBFLY_H

#include "compat.h"

/* log2 N at most: N = 2^20 rows */
#define BFLY_MBFLY_MAX_LOG 20
/* d, up- (and down-) neighbours of a splitter input, at most */
#define BFLY_MBFLY_MAX_D 64
/* R: neighbours an input selects, the smallest power of 2 above 4 */
#define BFLY_MBFLY_R 8
/* h, messages a port sends or receives, at most */
#define BFLY_MBFLY_MAX_H 256
/* Splitters up to this many inputs are measured over every subset */
#define BFLY_MBFLY_EXHAUSTIVE_MAX 16
/* Subset sizes the expansion is measured for, at most */
#define BFLY_MBFLY_MAX_K 64
/* A neighbour table (bfly_mbfly_table_fill()) has at most 2^24 entries, 64 MiB */
#define BFLY_MBFLY_TABLE_MAX BIT(24)

/**
 * struct bfly_mbfly - the wiring of an (N, d)-multibutterfly
 * @log: log2 N; columns 0 .. @log, splitters in columns 0 .. @log - 1
 * @ports: N, rows
 * @d: up-neighbours (and down-neighbours) of each splitter input
 * @seed: the caller's seed; the same seed gives the same wiring
 *
 * The wiring is a function of (@seed, column, splitter, half, k): it takes
 * no memory (bfly_mbfly_neighbour()).
 */
struct bfly_mbfly {
	u32 log;
	u32 ports;
	u32 d;
	u64 seed;
};

int bfly_mbfly_init(struct bfly_mbfly *g, u32 ports, u32 d, u64 seed, const char **why);
u32 bfly_mbfly_neighbour(const struct bfly_mbfly *g, u32 col, u32 row, u32 half, u32 k);
u32 bfly_mbfly_in_neighbour(const struct bfly_mbfly *g, u32 col, u32 row, u32 k);
void bfly_mbfly_keys(const struct bfly_mbfly *g, u32 col, u32 splitter, u32 half, u64 *keys);
u32 bfly_mbfly_neighbour_key(const struct bfly_mbfly *g, u32 col, u32 row, u32 half, u64 key);
size_t bfly_mbfly_table_size(const struct bfly_mbfly *g);
int bfly_mbfly_table_fill(const struct bfly_mbfly *g, u32 *table);

/**
 * struct bfly_mbfly_expansion - what one splitter's expansion measured
 * @kmax: subset sizes measured: 1 .. @kmax
 * @exhaustive: every subset of up to @kmax inputs was measured
 * @subsets: subsets measured (each for both halves)
 * @min_up: @min_up[k], fewest distinct upper outputs adjacent to a
 *	measured subset of k inputs (k = 1 .. @kmax)
 * @min_down: the same for the lower outputs
 *
 * min(@min_up[k], @min_down[k]) / k is the beta observed at size k; a
 * sampled measure is an upper bound of the true minimum.
 */
struct bfly_mbfly_expansion {
	u32 kmax;
	bool exhaustive;
	u64 subsets;
	u32 min_up[BFLY_MBFLY_MAX_K + 1];
	u32 min_down[BFLY_MBFLY_MAX_K + 1];
};

size_t bfly_mbfly_expansion_workspace_size(const struct bfly_mbfly *g, u32 col);
int bfly_mbfly_expansion(const struct bfly_mbfly *g, u32 col, u32 splitter, u32 kmax,
			 u32 samples, u64 seed, struct bfly_mbfly_expansion *e, void *work);
u32 bfly_mbfly_beta_fp16(const struct bfly_mbfly_expansion *e, u32 kmax);

/**
 * struct bfly_mbfly_msg - one message of an h-relation
 * @src: its source port, a row of column 0
 * @dst: its destination port, a row of column log N
 */
struct bfly_mbfly_msg {
	u32 src;
	u32 dst;
};

/**
 * struct bfly_mbfly_params - the routing's constants (0: the default)
 * @z: rounds of requests in Phase 1 (default: Theorem 2's
 *	log_(1/(1 - delta)) (32 d / R) with delta = 1/33)
 * @y: rounds of sending in Phase 2 (default 3, Theorem 2's Y > 2)
 * @patience: stages an input waits for permissions before it selects R
 *	neighbours without them (default 1 + log N / log2(32 d / R))
 * @max_stages: stages before the routing gives up (default
 *	2 log N + @patience + 8)
 * @table: NULL, or the multibutterfly's neighbour table from
 *	bfly_mbfly_table_fill(): the same neighbours, looked up instead of
 *	computed from the keyed permutations
 */
struct bfly_mbfly_params {
	u32 z;
	u32 y;
	u32 patience;
	u32 max_stages;
	const u32 *table;
};

/**
 * struct bfly_mbfly_result - what a routing did
 * @h: the relation's degree: most messages a port sends or receives
 * @hbar: the smallest power of 2 greater than 4 d h / (R - 4)
 * @stages: stages run
 * @delivered: messages that reached their destination
 * @left: messages not delivered when the stage limit stopped the routing
 * @forced: inputs that selected neighbours without permission (patience
 *	spent): the fallback beyond the paper's algorithm
 * @ghost_misses: messages that arrived where no ghost held their place
 * @cap_overflows: buffers assigned to a neighbour beyond W / R
 * @path_errors: hops off the message's logical path (always 0)
 * @max_through: most messages through any node
 * @max_w: the largest counter W_u or W_l set (Lemma 3: at most @hbar)
 * @bound_ok: @max_through <= 2 @hbar (Theorem 2)
 * @z: the Z used
 * @y: the Y used
 * @patience: the patience used
 * @max_stages: the stage limit used
 */
struct bfly_mbfly_result {
	u32 h;
	u32 hbar;
	u32 stages;
	u32 delivered;
	u32 left;
	u32 forced;
	u32 ghost_misses;
	u32 cap_overflows;
	u32 path_errors;
	u32 max_through;
	u32 max_w;
	bool bound_ok;
	u32 z;
	u32 y;
	u32 patience;
	u32 max_stages;
};

size_t bfly_mbfly_route_workspace_size(const struct bfly_mbfly *g, u32 count);
int bfly_mbfly_route(const struct bfly_mbfly *g, const struct bfly_mbfly_params *p,
		     const struct bfly_mbfly_msg *msgs, u32 count, u32 *paths,
		     struct bfly_mbfly_result *res, void *work);

/* The half (0 upper, 1 lower) a message for @dst takes leaving column @col */
static inline u32 bfly_mbfly_half(const struct bfly_mbfly *g, u32 col, u32 dst)
{
	return (dst >> (g->log - 1 - col)) & 1;
}

#endif /* _BFLY_MBFLY_H */
