// SPDX-License-Identifier: GPL-2.0
/*
 * Label self-routing with internal-conflict detection, on every topology,
 * and the butterfly conflict-window test of the RLS paper.
 *
 * Every fabric input carries a label of node_stages bits, used most
 * significant first: node stage j sends the packet to output port
 * (label >> (node_stages - 1 - j)) & 1. On the butterfly, labels equal to
 * the destinations are the self-routing of Property III.2.
 *
 * Conflicts (Definition III.3): two packets in one node asking for the same
 * output port. Each is counted and reported, and routing continues by a
 * fixed rule so that later stages are counted consistently: the packet on
 * input port 0 wins, i.e. every node is set as its port-0 packet asks (state
 * = that packet's requested port), and the port-1 packet takes the other
 * output. Every link position thus still carries exactly one packet, the
 * produced matrix is a valid configuration, and @delivered reports where
 * each input actually ends up. The first conflicting stage does not depend
 * on the rule, since no packet has been deflected before it.
 */
#include "compat.h"
#include "selfroute.h"
#include "trace.h"
#include "wiring.h"

/**
 * bfly_selfroute_workspace_size() - memory the self-routing functions need
 * @geo: the fabric geometry
 *
 * Return: the workspace size in bytes: two arrays of N u32.
 */
size_t bfly_selfroute_workspace_size(const struct bfly_geometry *geo)
{
	return 2 * (size_t)geo->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_selfroute_workspace_size);

static void selfroute_conflict(struct bfly_conflicts *c, u32 stage, u32 node,
			       u32 a, u32 b)
{
	if (!c)
		return;
	if (c->count < c->capacity) {
		struct bfly_conflict *e = &c->list[c->count];

		e->stage = stage;
		e->node = node;
		e->input[0] = a;
		e->input[1] = b;
	}
	if (!c->count)
		c->first_stage = stage;
	c->count++;
}

static __always_inline int selfroute(const struct bfly_geometry *geo,
				     const u64 *labels64, const u32 *labels32,
				     unsigned long *matrix, u32 *delivered,
				     struct bfly_conflicts *conflicts,
				     void *work)
{
	s32 flips[2 * BFLY_MAX_PORTS_LOG2];
	u32 ports = geo->ports, stages = geo->node_stages;
	u32 *cur = work, *next = cur + ports, *tmp;
	u32 s, k, i;

	for (i = 0; i < ports; i++) {
		u64 l = labels64 ? labels64[i] : labels32[i];

		if (stages < 64 && (l >> stages))
			return -EINVAL;
		cur[i] = i;
	}
	if (conflicts) {
		conflicts->count = 0;
		conflicts->first_stage = BFLY_NO_CONFLICT;
	}
	if (matrix)
		bitmap_zero(matrix, geo->switches);
	bfly_wiring_flips(geo, flips);

	for (s = 0; s < stages; s++) {
		u32 sh = stages - 1 - s;
		s32 flip = s + 1 < stages ? flips[s] : BFLY_WIRING_IDENTITY;
		u64 bit = (u64)s * geo->nodes_per_stage;

		for (k = 0; k < ports / 2; k++) {
			u32 a = cur[2 * k], b = cur[2 * k + 1];
			u32 ra, rb;

			if (labels64) {
				ra = (labels64[a] >> sh) & 1;
				rb = (labels64[b] >> sh) & 1;
			} else {
				ra = (labels32[a] >> sh) & 1;
				rb = (labels32[b] >> sh) & 1;
			}
			if (unlikely(ra == rb))
				selfroute_conflict(conflicts, s, k, a, b);
			/* the port-0 packet decides: state = its request */
			if (ra && matrix)
				__set_bit(bit + k, matrix);
			next[bfly_wiring_apply(flip, 2 * k + ra)] = a;
			next[bfly_wiring_apply(flip, 2 * k + (ra ^ 1))] = b;
		}
		tmp = cur;
		cur = next;
		next = tmp;
		if (bfly_should_stop())
			return -EINTR;
	}
	if (delivered) {
		for (i = 0; i < ports; i++)
			delivered[cur[i]] = i;
	}
	return 0;
}

/**
 * bfly_selfroute_labels() - self-route labelled packets, finding conflicts
 * @geo: the fabric geometry (any topology)
 * @labels: @geo->ports labels, one per input, @geo->node_stages bits each,
 *	used most significant first as the output port at each node stage
 * @matrix: if not NULL, receives the switch matrix (@geo->switches bits)
 * @delivered: if not NULL, receives @geo->ports entries: the fabric output
 *	each input reaches with @matrix (its label's route unless it was
 *	deflected by a conflict)
 * @conflicts: if not NULL, receives the conflicts
 * @work: bfly_selfroute_workspace_size() bytes
 *
 * See the comment at the top of selfroute.c for the conflict rule.
 *
 * Return: 0 (conflicts or not: see @conflicts->count); -EINVAL for a label
 * wider than @geo->node_stages bits (nothing written); -EINTR when
 * bfly_should_stop() said to stop.
 */
int bfly_selfroute_labels(const struct bfly_geometry *geo, const u64 *labels,
			  unsigned long *matrix, u32 *delivered,
			  struct bfly_conflicts *conflicts, void *work)
{
	return selfroute(geo, labels, NULL, matrix, delivered, conflicts,
			 work);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_selfroute_labels);

/**
 * bfly_selfroute_dest() - butterfly self-routing by destination
 * @geo: a butterfly geometry (n node stages)
 * @perm: @geo->ports destinations, @perm[input] = output; the labels
 * @matrix: if not NULL, receives the switch matrix
 * @delivered: if not NULL, receives where each input actually arrives
 * @conflicts: if not NULL, receives the conflicts
 * @work: bfly_selfroute_workspace_size() bytes
 *
 * Property III.2 of the RLS paper: node stage j uses destination bit
 * d_(n-1-j). The permutation is realizable iff @conflicts->count is 0, and
 * then @delivered equals @perm.
 *
 * Return: 0; -EINVAL for a non-butterfly @geo or an entry of N or more;
 * -EINTR when bfly_should_stop() said to stop.
 */
int bfly_selfroute_dest(const struct bfly_geometry *geo, const u32 *perm,
			unsigned long *matrix, u32 *delivered,
			struct bfly_conflicts *conflicts, void *work)
{
	if (geo->topology != BFLY_TOPO_BUTTERFLY)
		return -EINVAL;
	return selfroute(geo, NULL, perm, matrix, delivered, conflicts, work);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_selfroute_dest);

/**
 * bfly_window_first_conflict() - the RLS paper's conflict-window test
 * @geo: a butterfly geometry; only n = @geo->ports_log2 is used
 * @perm: a permutation, @perm[source] = destination
 * @seen: scratch bitmap of @geo->ports bits
 *
 * Independent of the self-routing code, for cross-checking it. Row of the
 * permutation matrix for source s and destination d: the n bits of s
 * rotated right by one, then the n bits of d (2n columns, most significant
 * first). Window W_j (j = 1 .. n-1) is columns j .. j+n-1. The permutation
 * is realizable iff every window has N distinct rows; if W_j is the first
 * window with a repeated row, node stage j - 1 is the first with a conflict.
 *
 * Return: the first conflicting node stage, or %BFLY_NO_CONFLICT.
 */
u32 bfly_window_first_conflict(const struct bfly_geometry *geo,
			       const u32 *perm, unsigned long *seen)
{
	u32 n = geo->ports_log2, ports = geo->ports, mask = ports - 1;
	u32 j, s;

	for (j = 1; j < n; j++) {
		bitmap_zero(seen, ports);
		for (s = 0; s < ports; s++) {
			u64 rot = ((s >> 1) | ((u64)(s & 1) << (n - 1)));
			u64 row = (rot << n) | perm[s];
			u32 w = (row >> (n - j)) & mask;

			if (__test_and_set_bit(w, seen))
				return j - 1;
		}
	}
	return BFLY_NO_CONFLICT;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_window_first_conflict);
