/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Least common ancestor networks (LCAN paper): CB-LCAN(d, u), T-LCAN(d, u)
 * and the d-ary fat tree. Their shape, wiring, counts, pair routes and
 * settings (lcan.c) and message sets routed in network cycles
 * (lcan_cycles.c).
 */
#ifndef _BFLY_LCAN_H
#define _BFLY_LCAN_H

#include "compat.h"
#include "geometry.h"

/* Levels of an LCAN: l <= log_2 N, as d >= 2 (a tree's arity >= 2) */
#define BFLY_LCAN_MAX_LEVELS BFLY_MAX_PORTS_LOG2

/**
 * enum bfly_lcan_kind - the level interconnects bfly builds (LCAN paper)
 * @BFLY_LCAN_CB: complete bipartite (Definition 3): CB-LCAN(d, u)
 * @BFLY_LCAN_TREE: a (d/u)-ary tree whose edges are u connectors
 *	(Definition 2): T-LCAN(d, u)
 * @BFLY_LCAN_FATTREE: the d-ary fat tree equivalent to CB-LCAN(d, u)
 *	(Definitions 9 and 10): a d-ary tree whose switch at level i has
 *	d u^i downers and u^(i+1) uppers
 */
enum bfly_lcan_kind {
	BFLY_LCAN_CB,
	BFLY_LCAN_TREE,
	BFLY_LCAN_FATTREE,
};

/**
 * struct bfly_lcan - the shape of a least common ancestor network
 * @kind: one of &enum bfly_lcan_kind
 * @d: downers of a switch (of a level-0 switch on a fat tree)
 * @u: uppers of a switch (of a level-0 switch on a fat tree)
 * @levels: l, levels of switches, 0 (next to the PEs) .. l - 1
 * @ports: N, the processors (PEs), one per downer of level 0
 * @arity: processors' groups a level-(i+1) group holds: d on a CB-LCAN and
 *	a fat tree, d / u on a T-LCAN; group g at level i serves PEs p with
 *	p / d / arity^i = g
 * @switches: S_i, switches in level i (Equation 1 on CB and T-LCANs)
 * @down: downers of a switch in level i
 * @up: uppers of a switch in level i
 * @groups: groups in level i, N / d / arity^i: a group is one switch of a
 *	tree, the u^i switches of a CB-LCAN that share their base-d digits
 * @first_switch: switches in the levels below i (switch ids are global)
 * @first_conn: connectors of the switches in the levels below i
 * @upow: u^i on a CB-LCAN (its switch labels' base-u part)
 */
struct bfly_lcan {
	u32 kind;
	u32 d;
	u32 u;
	u32 levels;
	u32 ports;
	u32 arity;
	u32 switches[BFLY_LCAN_MAX_LEVELS];
	u32 down[BFLY_LCAN_MAX_LEVELS];
	u32 up[BFLY_LCAN_MAX_LEVELS];
	u32 groups[BFLY_LCAN_MAX_LEVELS];
	u64 first_switch[BFLY_LCAN_MAX_LEVELS + 1];
	u64 first_conn[BFLY_LCAN_MAX_LEVELS + 1];
	u64 upow[BFLY_LCAN_MAX_LEVELS + 1];
};

/* Connectors of all switches at most: 2^26 */
#define BFLY_LCAN_MAX_CONNECTORS BIT(26)

/* Hops of a path: up l - 1 levels, turn, down l - 1, or l up uni-directionally */
#define BFLY_LCAN_MAX_HOPS (2 * BFLY_LCAN_MAX_LEVELS - 1)

/**
 * struct bfly_lcan_hop - one switch a path crosses
 * @level: its level
 * @sw: the switch within its level
 * @in: the connector the path enters by (downers 0 .. d - 1, then uppers)
 * @out: the connector the path leaves by
 */
struct bfly_lcan_hop {
	u32 level;
	u32 sw;
	u32 in;
	u32 out;
};

/**
 * struct bfly_lcan_path - a path between two processors
 * @hops: the switches crossed, in order
 * @count: entries in @hops
 * @lca_level: the level where it turns (bi-directional), or l - 1
 */
struct bfly_lcan_path {
	struct bfly_lcan_hop hops[BFLY_LCAN_MAX_HOPS];
	u32 count;
	u32 lca_level;
};

int bfly_lcan_theorem1(u32 d, u32 u, u32 ports);
int bfly_lcan_init(struct bfly_lcan *g, u32 kind, u32 d, u32 u, u32 ports, const char **why);
void bfly_lcan_of(const struct bfly_geometry *geo, struct bfly_lcan *g);

/* Connectors of one switch of level @i */
static inline u32 bfly_lcan_conns(const struct bfly_lcan *g, u32 i)
{
	return g->down[i] + g->up[i];
}

/* Bytes of a setting: a byte per connector of every switch */
static inline size_t bfly_lcan_settings_size(const struct bfly_lcan *g)
{
	return g->first_conn[g->levels];
}

/* The setting's entry of connector @c of switch @sw of level @i */
static inline u64 bfly_lcan_entry(const struct bfly_lcan *g, u32 i, u32 sw, u32 c)
{
	return g->first_conn[i] + (u64)sw * bfly_lcan_conns(g, i) + c;
}

/* The group of processor @p at level @i (&bfly_lcan.arity) */
static inline u32 bfly_lcan_group(const struct bfly_lcan *g, u32 p, u32 i)
{
	u32 x = p / g->d;

	while (i--)
		x /= g->arity;
	return x;
}

void bfly_lcan_up(const struct bfly_lcan *g, u32 i, u32 sw, u32 k, u32 *to, u32 *downer);
void bfly_lcan_down(const struct bfly_lcan *g, u32 i, u32 sw, u32 j, u32 *to, u32 *upper);
u32 bfly_lcan_lca_level(const struct bfly_lcan *g, u32 a, u32 b);
u32 bfly_lcan_tag_limit(const struct bfly_lcan *g, u32 i);
u32 bfly_lcan_downer_to(const struct bfly_lcan *g, u32 i, u32 b, u32 wire);
int bfly_lcan_pair_path(const struct bfly_lcan *g, u32 a, u32 b, const u32 *tags,
			const u32 *wires, struct bfly_lcan_path *path);
int bfly_lcan_uni_path(const struct bfly_lcan *g, u32 a, u64 out, struct bfly_lcan_path *path);
void bfly_lcan_path_apply(const struct bfly_lcan *g, const struct bfly_lcan_path *path, u8 *set);
int bfly_lcan_settings_check(const struct bfly_lcan *g, const u8 *set, u64 *bad,
			     const char **why);

/**
 * enum bfly_lcan_end - where a traced packet ends
 * @BFLY_LCAN_END_PE: at a processor (its index)
 * @BFLY_LCAN_END_TOP: out of an upper of level l - 1, the uni-directional
 *	network's output (switch * u + upper)
 * @BFLY_LCAN_END_LOST: at a connector set to nothing
 */
enum bfly_lcan_end {
	BFLY_LCAN_END_PE,
	BFLY_LCAN_END_TOP,
	BFLY_LCAN_END_LOST,
};

/**
 * struct bfly_lcan_trace_end - where one processor's packet goes
 * @end: one of &enum bfly_lcan_end
 * @index: the processor or top output reached; for a lost packet the
 *	setting entry (bfly_lcan_entry()) it met
 * @hops: switches crossed
 */
struct bfly_lcan_trace_end {
	u32 end;
	u32 hops;
	u64 index;
};

void bfly_lcan_trace(const struct bfly_lcan *g, const u8 *set, u32 src,
		     struct bfly_lcan_trace_end *end);

/**
 * struct bfly_lcan_counts - the paper's counts for one pair, by search
 * @reach: switches processor a reaches at each level going up (Lemma 1)
 * @lca_level: the pair's LCA level (Definition 7)
 * @lca_switches: switches of that level both reach (Lemmas 2 and 3)
 * @paths: non-redundant switch paths between the two (Theorem 2): up,
 *	one turn, down, no switch twice
 */
struct bfly_lcan_counts {
	u32 reach[BFLY_LCAN_MAX_LEVELS];
	u32 lca_level;
	u32 lca_switches;
	u64 paths;
};

size_t bfly_lcan_counts_workspace_size(const struct bfly_lcan *g);
int bfly_lcan_counts(const struct bfly_lcan *g, u32 a, u32 b, struct bfly_lcan_counts *c,
		     void *work);
u64 bfly_lcan_lemma_reach(const struct bfly_lcan *g, u32 i);
u64 bfly_lcan_lemma_lca_switches(const struct bfly_lcan *g, u32 level);

/**
 * enum bfly_lcan_mode - how a message set's paths run
 * @BFLY_LCAN_BIDIR: up to the LCA level and back down (Section 3.1)
 * @BFLY_LCAN_UNIDIR: up through every level of a CB-LCAN to an output
 *	of the top level (bfly_lcan_uni_path())
 */
enum bfly_lcan_mode {
	BFLY_LCAN_BIDIR,
	BFLY_LCAN_UNIDIR,
};

/**
 * enum bfly_lcan_strategy - how a network cycle picks its paths
 * @BFLY_LCAN_ONLINE: messages in order, each up-choice random among the
 *	free uppers, the way down the first free wire; a message whose way
 *	is blocked waits for the next cycle
 * @BFLY_LCAN_OFFLINE: with the whole set known: messages of the highest
 *	LCA level first, each on the first free path of all its paths
 *	(a search over the up-choices, pruned by the wires up and down at
 *	once)
 */
enum bfly_lcan_strategy {
	BFLY_LCAN_ONLINE,
	BFLY_LCAN_OFFLINE,
};

/**
 * struct bfly_lcan_msgset - a message set routed in network cycles
 * @src: in: the source processor of each message
 * @dst: in: the destination processor (or top output, uni-directional)
 * @count: in: messages
 * @mode: in: one of &enum bfly_lcan_mode
 * @strategy: in: one of &enum bfly_lcan_strategy
 * @max_cycles: in: stop after this many cycles; 0 for no limit
 * @seed: in: the on-line strategy's random choices
 * @given: in, or NULL: each message's path as 2 l choices, laid out as
 *	@choices reports them, taken as given (bi-directional only): a
 *	message whose path is blocked waits for a later cycle
 * @cycle: out: each message's cycle (from 0), U32_MAX if not routed
 * @choices: out, or NULL: each message's 2 l choices, the up-choice of
 *	each level, then the wire of each channel down (bfly_lcan_pair_path())
 * @load: out, or NULL: each channel's load (bfly_lcan_channels())
 * @cycles: out: cycles used
 * @routed: out: messages routed
 * @lambda_load: out: load of the channel of the greatest load factor
 * @lambda_cap: out: its capacity: lambda(M) = @lambda_load / @lambda_cap
 * @bound: out: ceil(lambda(M)), Theorem 3's lower bound on @cycles
 */
struct bfly_lcan_msgset {
	const u32 *src;
	const u32 *dst;
	u32 count;
	u32 mode;
	u32 strategy;
	u32 max_cycles;
	u64 seed;
	const u32 *given;
	u32 *cycle;
	u32 *choices;
	u32 *load;
	u32 cycles;
	u32 routed;
	u32 lambda_load;
	u32 lambda_cap;
	u32 bound;
};

/*
 * Message tries a set may take at least: count times ceil(lambda(M)) (or
 * the cycle limit, if lower), as each cycle tries every waiting message
 */
#define BFLY_LCAN_MAX_TRIES BIT_ULL(30)

u64 bfly_lcan_channels(const struct bfly_lcan *g, u32 mode);
u32 bfly_lcan_channel_cap(const struct bfly_lcan *g, u32 mode, u64 ch);
int bfly_lcan_msgset_check(const struct bfly_lcan *g, const struct bfly_lcan_msgset *ms,
			   u32 *bad, const char **why);
size_t bfly_lcan_msgset_workspace_size(const struct bfly_lcan *g, u32 count);
int bfly_lcan_msgset_route(const struct bfly_lcan *g, struct bfly_lcan_msgset *ms, void *work);

#endif /* _BFLY_LCAN_H */
