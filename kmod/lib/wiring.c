// SPDX-License-Identifier: GPL-2.0
/*
 * Link maps between node stages, per topology.
 *
 * Conventions (Documentation/routing.rst): N = 2^n ports, every node stage has N/2
 * 2x2 nodes. A link position p entering or leaving a node stage names node
 * p >> 1, port p & 1. Fabric input i enters node stage 0 at position i; the
 * position leaving the last node stage is the fabric output. A node in state
 * 0 (straight) leaves on the port it entered on, in state 1 (cross) on the
 * other one.
 *
 * Edge stage e joins node stage e to node stage e + 1. A butterfly edge stage
 * of size l (RLS paper, Definition III.1) flips bit b = n - 1 - l of the
 * (n - 1)-bit node label: output port o of node v goes to the node v' equal
 * to v with bit b set to o, and arrives there on the input port equal to the
 * old bit b of v. On link positions (p = 2v + port) that is exactly a swap of
 * position bits 0 and b + 1, so every edge stage is its own inverse.
 *
 * Which bit edge stage e flips (e = 0 .. node_stages - 2):
 *
 *   butterfly   n - 2 - e              (edge stages of size 1 .. n - 1)
 *   bfly2       n - 2 - (e mod (n-1))  (sizes 1 .. n - 1, twice; the two
 *                                       butterflies share node stage n - 1)
 *   bfly-twice  e < n - 1:  n - 2 - e
 *               e = n - 1:  identity: position p goes to position p
 *               e > n - 1:  n - 2 - (e - n)
 *   benes       e < n - 1:  n - 2 - e  (a butterfly on node stages 0..n-1)
 *               e >= n - 1: e - (n - 1) (a reverse butterfly on node stages
 *                                       n-1 .. 2n-2: bit 0 first, bit n - 2
 *                                       last)
 *
 * The Benes network is thus a butterfly followed by a reverse butterfly
 * sharing the middle node stage n - 1 (the seed note's construction). After
 * node stage t < n - 1 the edge stage swaps position bits 0 and n - 1 - t,
 * and the edge stage into node stage 2n - 2 - t swaps the same two bits, so
 * node stages t + 1 .. 2n - 3 - t split into 2^(t+1) independent Benes
 * networks of N / 2^(t+1) ports, selected by the high position bits: the
 * recursive structure the looping algorithm (benes.c) walks.
 *
 * Benes for N = 8 (n = 3): node stages 0..4, nodes 0..3 each; "v.o" is node
 * v, port o. Edge stages 0 and 3 flip node bit 1, edge stages 1 and 2 bit 0:
 *
 *   leaving      edge 0      edge 1      edge 2      edge 3
 *   position     (bit 1)     (bit 0)     (bit 0)     (bit 1)
 *   0 = 0.0  ->  0 = 0.0     0 = 0.0     0 = 0.0     0 = 0.0
 *   1 = 0.1  ->  4 = 2.0     2 = 1.0     2 = 1.0     4 = 2.0
 *   2 = 1.0  ->  2 = 1.0     1 = 0.1     1 = 0.1     2 = 1.0
 *   3 = 1.1  ->  6 = 3.0     3 = 1.1     3 = 1.1     6 = 3.0
 *   4 = 2.0  ->  1 = 0.1     4 = 2.0     4 = 2.0     1 = 0.1
 *   5 = 2.1  ->  5 = 2.1     6 = 3.0     6 = 3.0     5 = 2.1
 *   6 = 3.0  ->  3 = 1.1     5 = 2.1     5 = 2.1     3 = 1.1
 *   7 = 3.1  ->  7 = 3.1     7 = 3.1     7 = 3.1     7 = 3.1
 *
 * So nodes 0 and 1 of node stages 1..3 form the upper N = 4 Benes network
 * (positions 0..3), nodes 2 and 3 the lower one (positions 4..7); each node
 * of stage 0 sends its port-0 output to the upper and its port-1 output to
 * the lower one, and each node of stage 4 takes port 0 from the upper and
 * port 1 from the lower one.
 */
#include "compat.h"
#include "topology.h"
#include "wiring.h"

/**
 * bfly_wiring_flip() - which node-label bit an edge stage flips
 * @geo: the fabric geometry
 * @edge: edge stage, joining node stage @edge to node stage @edge + 1;
 *	must be below @geo->node_stages - 1
 *
 * Return: the bit b (0 = least significant) of the (n-1)-bit node label the
 * edge stage flips, i.e. it swaps link position bits 0 and b + 1; or
 * %BFLY_WIRING_IDENTITY for the identity link in the middle of bfly-twice
 * (and for an out-of-range @edge).
 */
int bfly_wiring_flip(const struct bfly_geometry *geo, u32 edge)
{
	const struct bfly_topology_ops *ops;
	u32 n = geo->ports_log2;

	if (n < 2 || edge + 1 >= geo->node_stages)
		return BFLY_WIRING_IDENTITY;
	ops = bfly_topology_find(geo->topology);
	return ops && ops->edge_flip ? ops->edge_flip(n, edge) : BFLY_WIRING_IDENTITY;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_wiring_flip);

/**
 * bfly_wiring_flips() - the flipped bit of every edge stage
 * @geo: the fabric geometry
 * @flips: receives bfly_wiring_flip() of edge stages 0 .. node_stages - 2;
 *	room for 2 * %BFLY_MAX_PORTS_LOG2 entries is always enough
 */
void bfly_wiring_flips(const struct bfly_geometry *geo, s32 *flips)
{
	const struct bfly_topology_ops *ops = bfly_topology_find(geo->topology);
	u32 e, n = geo->ports_log2;

	/* Once per route: the family's wiring, looked up once. */
	for (e = 0; e + 1 < geo->node_stages; e++)
		flips[e] = ops && ops->edge_flip && n >= 2 ? ops->edge_flip(n, e) :
							     BFLY_WIRING_IDENTITY;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_wiring_flips);

/**
 * bfly_wiring_link() - follow a link through one edge stage
 * @geo: the fabric geometry
 * @edge: edge stage, joining node stage @edge to node stage @edge + 1
 * @pos: link position (2 * node + port) leaving node stage @edge
 *
 * Return: the link position entering node stage @edge + 1. The map is an
 * involution, so the same call also follows a link backwards.
 */
u32 bfly_wiring_link(const struct bfly_geometry *geo, u32 edge, u32 pos)
{
	return bfly_wiring_apply(bfly_wiring_flip(geo, edge), pos);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_wiring_link);
