// SPDX-License-Identifier: GPL-2.0
/*
 * All-to-all personalized exchange schedules: Latin squares of order N.
 *
 * Entry a(i, k) of a square is the destination of source i in round k, so
 * round k is the permutation i -> a(i, k), and a square is Latin exactly
 * when every round is a permutation (column k) and every source meets every
 * destination once (row i). Schedules (&enum bfly_latin):
 *
 *   rls     a(i, k) = (i - k) mod N   rotation k of the RLS paper
 *   lls     a(i, k) = (i + k) mod N   the same rotations, in LLS order:
 *                                     round k of lls is round N - k of rls
 *   xor     a(i, k) = i XOR k
 *   square  a(i, k) = square[i * N + k], checked by bfly_latin_check()
 *
 * Labels per topology (bfly_sched_round()). A label has one bit per node
 * stage, used most significant first (selfroute.c).
 *
 *   butterfly    the destination (self-routing, Property III.2)
 *   bfly2        rls and lls: the RLS label of rls.c (2n - 1 bits)
 *                xor and square: (pihat(i) >> 1) followed by d (n bits)
 *   bfly-twice   rls and lls: the RLS label with its middle bit doubled,
 *                i.e. I (n bits) followed by all n bits of d (2n bits)
 *                xor and square: pihat(i) followed by d (2n bits)
 *   benes        none: the looping algorithm (benes.c) routes the round's
 *                permutation and never conflicts
 *
 * The Butterfly-Butterfly shares node stage n - 1: its first n - 1 node
 * stages route to the intermediate output I of the first butterfly, and the
 * shared node leaves on the port the second butterfly's first node would
 * take, d's leftmost bit; so in general the bfly2 label of a route through
 * I is (I >> 1) followed by d. For RLS the last bit of I equals the leftmost
 * bit of d, and that is the paper's label. A single butterfly used twice
 * has no shared stage: node stages 0 .. n - 1 route to I, an identity link
 * keeps the position, node stages n .. 2n - 1 route I to d, so the label is
 * I followed by d, the RLS label with the shared bit used at node stages
 * n - 1 and n (node stage n then is all straight). That is the one extra
 * stage of Remark V.1: 2n + (N - 1) cycles instead of (2n - 1) + (N - 1).
 *
 * For xor and caller squares the first butterfly routes pi-hat, which it
 * always can (rls.c), and the second routes pihat(i) -> d. The butterfly's
 * realizable permutations are closed under XOR with a constant on either
 * side (it XORs every row of the paper's conflict windows with the same
 * bits), so for xor, where pihat(i) -> pihat(pihat(i)) XOR k, no round
 * conflicts. A caller square may: its rounds are then split.
 *
 * Link keys (bfly_sched_check(), bfly_sched_split()). Write the bits of a
 * packet's source i without its lowest bit, then its label L:
 * X = (i >> 1) followed by L. On the butterfly the packet leaves node stage
 * s on the link named by the n-bit window of X starting at bit s from the
 * left (its node holds the label bits used so far and the source bits not
 * yet replaced, and the window adds the output port: the paper's conflict
 * windows). On bfly2 the second butterfly carries on the same string, so
 * key(s) = (X >> (stages - 1 - s)) mod N for every s. On bfly-twice the
 * second butterfly starts afresh from position I: for s >= n the string is
 * (I >> 1) followed by d. Two packets conflict at node stage s exactly when
 * their keys there are equal, so a round (or a subset of its packets) is
 * conflict-free exactly when every node stage's keys are distinct: an
 * O(stages) check per packet with no routing state and no division.
 *
 * Sub-rounds (bfly_sched_split()): greedy first fit in input order. Pass r
 * takes the packets still unplaced, in input order, and keeps each one
 * whose links (one key per node stage) are all unused in this pass; the
 * rest wait for pass r + 1. The first waiting packet always fits an empty
 * pass, so every pass places at least one packet and the split ends after
 * at most N passes with every packet placed once. Each sub-round's packets
 * use disjoint links, so they self-route with no internal conflict and
 * arrive at their destinations; idle inputs carry nothing. A packet in
 * pass r was refused by r earlier passes because of a link it shares with
 * another packet, so the number of sub-rounds is at most
 * 1 + stages * (maximum link load - 1); it is not always minimal (that is
 * a graph colouring problem).
 *
 * Cycles (bfly_sched_cycles()): a packet needs one stage-traversal cycle
 * per node stage and the fabric accepts one injection (a round or a
 * sub-round) per cycle, pipelined, so R injections take
 * node_stages + (R - 1) cycles: Remark V.1's (2n - 1) + (N - 1) for the N
 * RLS rounds on bfly2 and 2n + (N - 1) on bfly-twice. Every sub-round is
 * one more injection.
 */
#include "compat.h"
#include "rls.h"
#include "schedule.h"
#include "topology.h"

/*
 * Node stages whose links bfly_sched_check() marks in one pass over the
 * packets: two tables of 2N bytes, each for two node stages.
 */
#define SCHED_GROUP 4

/**
 * bfly_sched_default() - the schedule used when the caller names none
 * @geo: the fabric geometry
 *
 * rls on every topology: conflict-free on bfly2 and bfly-twice (the RLS
 * paper's Theorem IV.3), on benes every schedule is, and on the butterfly
 * every schedule of rotations needs sub-rounds.
 *
 * Return: %BFLY_LATIN_RLS.
 */
enum bfly_latin bfly_sched_default(const struct bfly_geometry *geo)
{
	(void)geo;
	return BFLY_LATIN_RLS;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_default);

/**
 * bfly_latin_check_workspace_size() - memory bfly_latin_check() needs
 * @ports: the order N of the square
 *
 * Return: the workspace size in bytes: a bitmap of N bits.
 */
size_t bfly_latin_check_workspace_size(u32 ports)
{
	return BITS_TO_LONGS(ports) * sizeof(unsigned long);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_latin_check_workspace_size);

/**
 * bfly_latin_check() - is a square a Latin square of order N
 * @ports: the order N, at least 1
 * @square: N * N entries, entry i * N + k for row i (a source), column k
 *	(a round)
 * @work: bfly_latin_check_workspace_size() bytes
 *
 * Every entry must be below N, every row and every column must hold each
 * value once. O(N^2) time; the columns are read with stride N, which
 * reuses every cache line of the square for 64 / 4 consecutive columns.
 *
 * Return: 0 for a Latin square; -EINVAL otherwise; -EINTR when
 * bfly_should_stop() said to stop.
 */
int bfly_latin_check(u32 ports, const u32 *square, void *work)
{
	unsigned long *seen = work;
	u32 i, k;

	if (!ports || !square)
		return -EINVAL;
	for (i = 0; i < ports; i++) {
		const u32 *row = square + (size_t)i * ports;

		bitmap_zero(seen, ports);
		for (k = 0; k < ports; k++)
			if (row[k] >= ports || __test_and_set_bit(row[k], seen))
				return -EINVAL;
		if (bfly_should_stop())
			return -EINTR;
	}
	for (k = 0; k < ports; k++) {
		bitmap_zero(seen, ports);
		for (i = 0; i < ports; i++)
			if (__test_and_set_bit(square[(size_t)i * ports + k],
					       seen))
				return -EINVAL;
		if (bfly_should_stop())
			return -EINTR;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_latin_check);

static bool sched_geo_ok(const struct bfly_geometry *geo)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);
	u32 n = geo->ports_log2;

	if (n < BFLY_MIN_PORTS_LOG2 || n > BFLY_MAX_PORTS_LOG2 ||
	    geo->ports != 1U << n || geo->nodes_per_stage != geo->ports / 2)
		return false;
	return ops && !ops->port_map && !ops->lcan && geo->node_stages == ops->node_stages(n);
}

/**
 * bfly_sched_init() - validate and set up a schedule
 * @sched: receives the schedule
 * @geo: the fabric geometry
 * @latin: one of &enum bfly_latin
 * @square: %BFLY_LATIN_SQUARE: N * N entries, row i (source i), column k
 *	(round k): round k sends source i to @square[i * N + k]; kept by
 *	reference. Ignored for the other schedules.
 * @work: %BFLY_LATIN_SQUARE: bfly_latin_check_workspace_size(N) bytes;
 *	ignored (may be NULL) for the other schedules
 *
 * Return: 0; -EINVAL for a bad geometry, an unknown @latin or a @square
 * that is not a Latin square of order N; -EINTR when bfly_should_stop()
 * said to stop.
 */
int bfly_sched_init(struct bfly_sched *sched,
		    const struct bfly_geometry *geo, enum bfly_latin latin,
		    const u32 *square, void *work)
{
	int ret;

	if (!sched_geo_ok(geo))
		return -EINVAL;
	switch (latin) {
	case BFLY_LATIN_RLS:
	case BFLY_LATIN_LLS:
	case BFLY_LATIN_XOR:
	case BFLY_LATIN_SYSTOLIC:
		square = NULL;
		break;
	case BFLY_LATIN_SQUARE:
		ret = bfly_latin_check(geo->ports, square, work);
		if (ret)
			return ret;
		break;
	default:
		return -EINVAL;
	}
	sched->geo = *geo;
	sched->latin = latin;
	sched->square = square;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_init);

/**
 * bfly_sched_has_labels() - whether rounds on a topology route by labels
 * @geo: the fabric geometry
 *
 * Return: true on the butterfly, bfly2 and bfly-twice; false on benes,
 * whose rounds the looping algorithm routes from the destinations.
 */
bool bfly_sched_has_labels(const struct bfly_geometry *geo)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);

	return ops && ops->sched_labels;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_has_labels);

/**
 * bfly_sched_proven() - whether a schedule's rounds are conflict-free by
 *	theorem
 * @sched: the schedule (bfly_sched_init())
 *
 * The RLS paper's Theorem IV.3: every rls round self-routes on bfly2 with
 * no conflict, and so every lls round (the same rotations); bfly-twice
 * routes the same intermediate outputs with one more, all-straight, node
 * stage. A caller may skip bfly_sched_check() on these rounds when it did
 * not ask for the check itself (strict mode) and no fault changes the
 * routes; schedule_kunit.c checks the claim round by round.
 *
 * Return: true for rls and lls on bfly2 and bfly-twice; false otherwise.
 */
bool bfly_sched_proven(const struct bfly_sched *sched)
{
	enum bfly_topology topo = sched->geo.topology;

	return (sched->latin == BFLY_LATIN_RLS || sched->latin == BFLY_LATIN_LLS) &&
	       (topo == BFLY_TOPO_BFLY2 || topo == BFLY_TOPO_BFLY_TWICE);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_proven);

static __always_inline u32 sched_dest(const struct bfly_sched *sched,
				      u32 i, u32 k, u32 mask)
{
	switch (sched->latin) {
	case BFLY_LATIN_RLS:
		return (i - k) & mask;
	case BFLY_LATIN_LLS:
		return (i + k) & mask;
	case BFLY_LATIN_XOR:
		return i ^ k;
	case BFLY_LATIN_SYSTOLIC:
		return i ^ k ^ (i & 1 ? mask - 1 : 0);
	default:
		return sched->square[(size_t)i * (mask + 1) + k];
	}
}

/**
 * bfly_sched_round() - destinations and labels of one round
 * @sched: the schedule (bfly_sched_init())
 * @k: the round, below N
 * @dest: if not NULL, receives N entries: @dest[i] is the destination of
 *	source i in round @k, a permutation
 * @labels: if not NULL, receives N labels, one per source, of
 *	@sched->geo.node_stages bits (see the comment at the top of
 *	schedule.c); must be NULL on benes
 *
 * The labels route round @k by self-routing (bfly_selfroute_labels());
 * rls, lls and xor rounds never conflict on bfly2 and bfly-twice.
 *
 * Return: 0; -EINVAL for @k >= N; -EOPNOTSUPP for @labels on benes.
 */
int bfly_sched_round(const struct bfly_sched *sched, u32 k, u32 *dest,
		     u64 *labels)
{
	const struct bfly_geometry *geo = &sched->geo;
	u32 ports = geo->ports, n = geo->ports_log2, mask = ports - 1;
	enum bfly_topology topo = geo->topology;
	u32 i;

	if (k >= ports)
		return -EINVAL;
	if (labels && !bfly_sched_has_labels(geo))
		return -EOPNOTSUPP;
	if (dest) {
		for (i = 0; i < ports; i++)
			dest[i] = sched_dest(sched, i, k, mask);
	}
	if (!labels)
		return 0;
	if (topo == BFLY_TOPO_BUTTERFLY) {
		for (i = 0; i < ports; i++)
			labels[i] = dest ? dest[i] : sched_dest(sched, i, k, mask);
		return 0;
	}
	if (sched->latin == BFLY_LATIN_RLS || sched->latin == BFLY_LATIN_LLS) {
		u64 low = (ports >> 1) - 1;

		if (sched->latin == BFLY_LATIN_LLS)
			k = (ports - k) & mask;
		bfly_rls_labels_round(ports, k, labels);
		if (topo != BFLY_TOPO_BFLY_TWICE)
			return 0;
		/* I (n bits), then all of d: d's leftmost bit is I's last */
		for (i = 0; i < ports; i++) {
			u64 l = labels[i], top = l >> (n - 1);

			labels[i] = (top << n) | ((top & 1) << (n - 1)) |
				    (l & low);
		}
		return 0;
	}
	/* xor, systolic and caller squares: the first butterfly routes pi-hat */
	for (i = 0; i < ports; i++) {
		u64 p = bfly_rls_pihat(n, i);
		u32 d = dest ? dest[i] : sched_dest(sched, i, k, mask);

		if (topo == BFLY_TOPO_BFLY2)
			p >>= 1;
		labels[i] = (p << n) | d;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_round);

/**
 * bfly_sched_check_workspace_size() - memory bfly_sched_check() needs
 * @geo: the fabric geometry
 *
 * Return: the workspace size in bytes: N u64 and 4 * N bytes (two tables
 * of 2N bytes).
 */
size_t bfly_sched_check_workspace_size(const struct bfly_geometry *geo)
{
	return (size_t)geo->ports * (sizeof(u64) + SCHED_GROUP);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_check_workspace_size);

/* X of the comment at the top: (i >> 1) followed by the label */
static __always_inline u64 sched_string(u32 stages, u32 i, u64 label)
{
	return ((u64)(i >> 1) << stages) | label;
}

/* bfly-twice, node stages n and up: (I >> 1) followed by d */
static __always_inline u64 sched_string2(u32 n, u64 label)
{
	u64 mask = (1ULL << n) - 1;

	return ((label >> (n + 1)) << n) | (label & mask);
}

/* The sum of the 8 bytes of @acc, each at most 255 */
static __always_inline u32 sched_fold(u64 acc)
{
	acc = (acc & 0x00ff00ff00ff00ffULL) +
	      ((acc >> 8) & 0x00ff00ff00ff00ffULL);
	return (acc * 0x0001000100010001ULL) >> 48;
}

/*
 * The number of bytes set among the @len bytes of @seen, each 0 or 1;
 * @seen is 8-byte aligned. Eight bytes per addition, folded every 128
 * words, before a byte of the sum can pass 255.
 */
static u32 sched_count_marks(const u8 *seen, u32 len)
{
	u32 j, words = len / 8, total = 0;
	u64 acc = 0;

	for (j = 0; j < words; j++) {
		acc += bfly_load_le64(seen + 8 * j);
		if ((j & 127) == 127) {
			total += sched_fold(acc);
			acc = 0;
		}
	}
	total += sched_fold(acc);
	for (j = words * 8; j < len; j++)
		total += seen[j];
	return total;
}

/*
 * Mark the links of the @g (2 or 4) node stages s .. s + @g - 1 whose keys
 * are @x shifted right by @sh, @sh - 1, ... @sh - @g + 1. One table of 2N
 * bytes serves two node stages: a packet's key at node stage s + 1 is its
 * key at s shifted left, plus one bit, so the (n + 1)-bit window @mask2
 * of its string there holds both, the key at s in its top n bits and the
 * key at s + 1 in its low n bits; the table gets a 1 at every window.
 * Stores only, no load of the tables: packets are independent, and one
 * load of @x serves @g node stages.
 */
static __always_inline void sched_mark(const u64 *x, u32 nact, u32 sh,
				       u32 mask2, u8 *seen, u32 ports, u32 g)
{
	u8 *t1 = seen + 2 * ports;
	u32 lo = sh + 1 - g, i;

	for (i = 0; i < nact; i++) {
		u64 y = x[i] >> lo;

		seen[(y >> (g - 2)) & mask2] = 1;
		if (g > 2)
			t1[y & mask2] = 1;
	}
}

/*
 * The distinct keys of the two node stages of a table of sched_mark():
 * @top receives the number of n-bit values u with window 2u or 2u + 1
 * marked (adjacent bytes), @low the number with window u or u + N marked
 * (the two halves). @t is 8-byte aligned; eight bytes per addition,
 * folded every 64 words, before a byte of a sum can pass 255.
 */
static void sched_count_pair(const u8 *t, u32 ports, u32 *top, u32 *low)
{
	const u64 even = 0x00ff00ff00ff00ffULL;
	u32 j, words = ports / 8, a = 0, b = 0;
	u64 acc_top = 0, acc_low = 0;

	for (j = 0; j < words; j++) {
		u64 w = bfly_load_le64(t + 8 * j);
		u64 v = bfly_load_le64(t + ports + 8 * j);

		acc_low += w | v;
		acc_top += ((w | (w >> 8)) & even) + ((v | (v >> 8)) & even);
		if ((j & 63) == 63) {
			a += sched_fold(acc_top);
			b += sched_fold(acc_low);
			acc_top = 0;
			acc_low = 0;
		}
	}
	a += sched_fold(acc_top);
	b += sched_fold(acc_low);
	for (j = words * 8; j < ports; j++) {
		a += t[2 * j] | t[2 * j + 1];
		b += t[j] | t[j + ports];
	}
	*top = a;
	*low = b;
}

/*
 * The strings X of the active packets (the comment at the top), packed
 * into @x; the bfly-twice strings of node stages n and up with @second.
 */
static __always_inline u32 sched_strings(const struct bfly_geometry *geo,
					 u64 *x, const unsigned long *active,
					 const u64 *labels, bool second)
{
	u32 ports = geo->ports, stages = geo->node_stages, i, nact = 0;

	for (i = 0; i < ports; i++) {
		if (active && !test_bit(i, active))
			continue;
		x[nact++] = second ? sched_string2(geo->ports_log2, labels[i]) :
				     sched_string(stages, i, labels[i]);
	}
	return nact;
}

/*
 * Up to %SCHED_GROUP node stages at a time: their tables are cleared,
 * every active packet's links are marked (sched_mark(); a lone last node
 * stage of a butterfly gets a table of N bytes of its own) and the
 * distinct links of each node stage are counted: a node stage with D
 * distinct links for its P packets has P - D link requests too many,
 * exactly the packets that find their link already taken.
 */
static __always_inline u32 sched_check(const struct bfly_geometry *geo,
				       u64 *x, u8 *seen,
				       const unsigned long *active,
				       const u64 *labels, u32 *first_stage,
				       int *err)
{
	u32 ports = geo->ports, stages = geo->node_stages;
	u32 n = geo->ports_log2, mask = ports - 1, mask2 = 2 * ports - 1;
	bool twice = geo->topology == BFLY_TOPO_BFLY_TWICE;
	u32 s, i, j, g, end, nact, total = 0;

	nact = sched_strings(geo, x, active, labels, false);
	end = twice ? n : stages;
	for (s = 0; s < stages; s += g) {
		u32 sh = stages - 1 - s, dist[SCHED_GROUP];

		if (s == end) {
			/* bfly-twice: the second butterfly starts at I */
			sched_strings(geo, x, active, labels, true);
			end = stages;
		}
		g = min_t(u32, end - s, SCHED_GROUP) & ~1U;
		if (!g) {
			memset(seen, 0, ports);
			for (i = 0; i < nact; i++)
				seen[(x[i] >> sh) & mask] = 1;
			dist[0] = sched_count_marks(seen, ports);
			g = 1;
		} else {
			memset(seen, 0, (size_t)g * ports);
			if (g == 2)
				sched_mark(x, nact, sh, mask2, seen, ports, 2);
			else
				sched_mark(x, nact, sh, mask2, seen, ports, 4);
			for (j = 0; j < g; j += 2)
				sched_count_pair(seen + j * ports, ports,
						 &dist[j], &dist[j + 1]);
		}
		for (j = 0; j < g; j++) {
			if (nact != dist[j] && !total)
				*first_stage = s + j;
			total += nact - dist[j];
		}
		if (bfly_should_stop()) {
			*err = -EINTR;
			return 0;
		}
	}
	return total;
}

/**
 * bfly_sched_check() - fast conflict check of labelled packets
 * @geo: a butterfly, bfly2 or bfly-twice geometry
 * @labels: N labels of @geo->node_stages bits, one per input
 * @active: if not NULL, only the inputs whose bit is set carry a packet
 * @first_stage: if not NULL, receives the first node stage where two
 *	packets ask for the same link, or %BFLY_NO_CONFLICT
 * @work: bfly_sched_check_workspace_size() bytes, 8-byte aligned
 *
 * Follows every packet's label (link keys, see the comment at the top of
 * schedule.c) without building a switch matrix: per packet and pair of
 * node stages a shift, a mask and a one-byte store into the workspace,
 * four node stages per pass over the packets, then the links used are
 * counted, eight bytes per addition. Zero means the packets self-route
 * with no internal conflict (bfly_selfroute_labels() then finds none
 * either, and delivers every packet to its label's destination). A
 * non-zero count is the number of links asked for by one packet too many,
 * following the labels; after a first conflict it may differ from
 * bfly_selfroute_labels()'s count, which deflects packets.
 *
 * Return: the number of extra link requests (0: conflict-free); -EINVAL
 * for a benes @geo or a label wider than @geo->node_stages bits; -EINTR
 * when bfly_should_stop() said to stop.
 */
int bfly_sched_check(const struct bfly_geometry *geo, const u64 *labels,
		     const unsigned long *active, u32 *first_stage,
		     void *work)
{
	u32 ports = geo->ports, stages = geo->node_stages, i, fs;
	u64 *x = work, acc = 0;
	u8 *seen = (u8 *)(x + ports);
	int err = 0;
	u32 total;

	if (!bfly_sched_has_labels(geo))
		return -EINVAL;
	for (i = 0; i < ports; i++)
		acc |= labels[i];
	if (stages < 64 && (acc >> stages))
		return -EINVAL;
	fs = BFLY_NO_CONFLICT;
	if (active)
		total = sched_check(geo, x, seen, active, labels, &fs, &err);
	else
		total = sched_check(geo, x, seen, NULL, labels, &fs, &err);
	if (err)
		return err;
	if (first_stage)
		*first_stage = fs;
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_check);

/**
 * bfly_sched_split_workspace_size() - memory bfly_sched_split() needs
 * @geo: the fabric geometry
 *
 * Return: the workspace size in bytes: a bitmap of node_stages * N bits
 * and N u32.
 */
size_t bfly_sched_split_workspace_size(const struct bfly_geometry *geo)
{
	u64 bits = (u64)geo->node_stages * geo->ports;

	return BITS_TO_LONGS(bits) * sizeof(unsigned long) +
	       (size_t)geo->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_split_workspace_size);

/**
 * bfly_sched_split() - split a round into conflict-free sub-rounds
 * @geo: a butterfly, bfly2 or bfly-twice geometry
 * @labels: N labels of @geo->node_stages bits, one per input
 * @active: if not NULL, only the inputs whose bit is set carry a packet
 * @subround: receives N entries: the sub-round (0 ..) of each active input,
 *	%BFLY_SCHED_NO_SUBROUND for the others
 * @work: bfly_sched_split_workspace_size() bytes
 *
 * Greedy first fit in input order (see the comment at the top of
 * schedule.c): the packets of each sub-round use disjoint links, so each
 * sub-round self-routes with no internal conflict, and every active input
 * is in exactly one sub-round. A conflict-free round gives one sub-round.
 * bfly_sched_subround_active() turns @subround into one sub-round's
 * inputs.
 *
 * Return: the number of sub-rounds (0 when no input is active); -EINVAL
 * for a benes @geo or a label wider than @geo->node_stages bits; -EINTR
 * when bfly_should_stop() said to stop.
 */
int bfly_sched_split(const struct bfly_geometry *geo, const u64 *labels,
		     const unsigned long *active, u32 *subround, void *work)
{
	u32 ports = geo->ports, stages = geo->node_stages;
	u32 n = geo->ports_log2, mask = ports - 1;
	bool twice = geo->topology == BFLY_TOPO_BFLY_TWICE;
	u64 bits = (u64)stages * ports;
	unsigned long *used = work;
	u32 *pending = (u32 *)(used + BITS_TO_LONGS(bits));
	u32 npend = 0, r = 0, i, j, s;
	u64 acc = 0;

	if (!bfly_sched_has_labels(geo))
		return -EINVAL;
	for (i = 0; i < ports; i++)
		acc |= labels[i];
	if (stages < 64 && (acc >> stages))
		return -EINVAL;
	for (i = 0; i < ports; i++) {
		subround[i] = BFLY_SCHED_NO_SUBROUND;
		if (!active || test_bit(i, active))
			pending[npend++] = i;
	}
	while (npend) {
		u32 left = 0;

		bitmap_zero(used, bits);
		for (j = 0; j < npend; j++) {
			u32 p = pending[j];
			u64 x = sched_string(stages, p, labels[p]);
			u64 x2 = twice ? sched_string2(n, labels[p]) : x;
			bool fits = true;

			for (s = 0; s < stages && fits; s++) {
				u64 w = s < n ? x : x2;
				u32 key = (w >> (stages - 1 - s)) & mask;

				fits = !test_bit((u64)s * ports + key, used);
			}
			if (!fits) {
				pending[left++] = p;
				continue;
			}
			for (s = 0; s < stages; s++) {
				u64 w = s < n ? x : x2;
				u32 key = (w >> (stages - 1 - s)) & mask;

				__set_bit((u64)s * ports + key, used);
			}
			subround[p] = r;
		}
		npend = left;
		r++;
		if (bfly_should_stop())
			return -EINTR;
	}
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_split);

/**
 * bfly_sched_subround_active() - the inputs of one sub-round
 * @ports: N
 * @subround: bfly_sched_split()'s output
 * @r: the sub-round
 * @active: receives a bitmap of @ports bits: the inputs of sub-round @r
 */
void bfly_sched_subround_active(u32 ports, const u32 *subround, u32 r,
				unsigned long *active)
{
	u32 i;

	bitmap_zero(active, ports);
	for (i = 0; i < ports; i++)
		if (subround[i] == r)
			__set_bit(i, active);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_subround_active);

/**
 * bfly_sched_cycles() - pipelined stage-traversal cycles of a batch
 * @geo: the fabric geometry
 * @injections: rounds plus extra sub-rounds: the number of times the
 *	inputs inject a set of packets (N for a batch with no split round)
 *
 * One injection per cycle, each packet taking one cycle per node stage
 * (Remark V.1): (2n - 1) + (N - 1) for the N rounds of RLS on bfly2,
 * 2n + (N - 1) on bfly-twice.
 *
 * Return: @geo->node_stages + @injections - 1, or 0 for no injection.
 */
u64 bfly_sched_cycles(const struct bfly_geometry *geo, u64 injections)
{
	return injections ? geo->node_stages + injections - 1 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_sched_cycles);
