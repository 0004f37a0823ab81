// SPDX-License-Identifier: GPL-2.0
/*
 * One colour of an h-relation on bfly2 or bfly-twice, its middle rows
 * chosen while it is split into conflict-free sub-rounds.
 *
 * A label there is a middle row (the first butterfly's output, the bits
 * before the destination's n) followed by the destination, and the links
 * a packet takes are the keys of schedule.c's comment: one per node
 * stage. Drawing each row at random once and splitting afterwards
 * (bfly_hrel_labels(), bfly_sched_split()) leaves a packet stuck with a
 * row that meets a packet of an earlier sub-round. Here the split is
 * first fit in input order as in bfly_sched_split(), but a packet that
 * does not fit sub-round r with one row tries others: up to @tries rows
 * drawn from the caller's sequence, then its sub-round waits for the
 * next pass, where it draws again. Every sub-round's packets use disjoint
 * links, so they self-route without conflict; one seed, one result.
 */
#include "compat.h"
#include "hrel_round.h"
#include "rand.h"

/* The link key of node stage @s for the packet of input @i with @label. */
static __always_inline u32 bfly_hrel_key(u32 n, u32 stages, bool twice, u32 i, u64 label,
					 u32 s)
{
	u64 x;

	if (twice && s >= n)
		x = ((label >> (n + 1)) << n) | (label & ((1ULL << n) - 1));
	else
		x = ((u64)(i >> 1) << stages) | label;
	return (x >> (stages - 1 - s)) & ((1U << n) - 1);
}

/* Do @label's links from input @i miss every link in @used? */
static bool bfly_hrel_fits(const struct bfly_geometry *geo, bool twice, const unsigned long *used,
			   u32 i, u64 label)
{
	u32 s, n = geo->ports_log2, stages = geo->node_stages;

	for (s = 0; s < stages; s++)
		if (test_bit((size_t)s * geo->ports + bfly_hrel_key(n, stages, twice, i, label, s),
			     used))
			return false;
	return true;
}

static void bfly_hrel_take(const struct bfly_geometry *geo, bool twice, unsigned long *used,
			   u32 i, u64 label)
{
	u32 s, n = geo->ports_log2, stages = geo->node_stages;

	for (s = 0; s < stages; s++)
		__set_bit((size_t)s * geo->ports + bfly_hrel_key(n, stages, twice, i, label, s),
			  used);
}

/**
 * bfly_hrel_choose_workspace_size() - memory bfly_hrel_choose() needs
 * @geo: the fabric geometry
 *
 * Return: bytes: a bitmap of node_stages * N bits and N u32.
 */
size_t bfly_hrel_choose_workspace_size(const struct bfly_geometry *geo)
{
	u64 bits = (u64)geo->node_stages * geo->ports;

	return BITS_TO_LONGS(bits) * sizeof(unsigned long) + (size_t)geo->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_choose_workspace_size);

/**
 * bfly_hrel_choose() - labels and conflict-free sub-rounds of a colour
 * @geo: a bfly2 or bfly-twice geometry (N = 2^n)
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @rng: the random sequence's state (bfly_splitmix64())
 * @tries: rows a packet tries per sub-round, 1 or more
 * @labels: receives N labels; 0 for the idle inputs
 * @active: receives N bits: the inputs that send
 * @sub: receives each sending input's sub-round
 * @work: bfly_hrel_choose_workspace_size() bytes
 *
 * Return: the sub-rounds, 0 when no input sends; -EINVAL for an output of
 * N or more or a geometry with no middle row; -EINTR when
 * bfly_should_stop() said to stop.
 */
int bfly_hrel_choose(const struct bfly_geometry *geo, const u32 *part, u64 *rng, u32 tries,
		     u64 *labels, unsigned long *active, u32 *sub, void *work)
{
	u32 n = geo->ports_log2, mid = geo->node_stages - n, i, j, t, npend = 0, r = 0;
	bool twice = geo->topology == BFLY_TOPO_BFLY_TWICE;
	u64 bits = (u64)geo->node_stages * geo->ports, mask, label;
	unsigned long *used = work;
	u32 *pending = (u32 *)(used + BITS_TO_LONGS(bits));

	if (!mid || mid >= 32 || !tries)
		return -EINVAL;
	mask = (1ULL << mid) - 1;
	bitmap_zero(active, geo->ports);
	for (i = 0; i < geo->ports; i++) {
		labels[i] = 0;
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		if (part[i] >= geo->ports)
			return -EINVAL;
		__set_bit(i, active);
		pending[npend++] = i;
	}
	while (npend) {
		u32 left = 0;

		bitmap_zero(used, bits);
		for (j = 0; j < npend; j++) {
			u32 p = pending[j];

			for (t = 0; t < tries; t++) {
				label = ((bfly_splitmix64(rng) & mask) << n) | part[p];
				if (bfly_hrel_fits(geo, twice, used, p, label))
					break;
			}
			if (t == tries) {
				pending[left++] = p;
				continue;
			}
			bfly_hrel_take(geo, twice, used, p, label);
			labels[p] = label;
			sub[p] = r;
		}
		npend = left;
		r++;
		if (bfly_should_stop())
			return -EINTR;
	}
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_choose);
