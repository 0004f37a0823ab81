// SPDX-License-Identifier: GPL-2.0
/*
 * The walks of a split of the colouring (hrel.c, step 3): the pairs of
 * slots at the left vertices and at the right vertices chain a d-regular
 * graph's edges into even cycles, whose edges alternate between the two
 * halves. Pair p's even slot goes to half st & 1 in the frame of segment
 * st >> 1 (struct hrel_pair). HREL_WALKERS walkers, each starting in its
 * own stripe of pairs, take a step in turn so that their cache misses
 * overlap, each prefetching its next pair; a walk (a segment) ends at a
 * pair some walk reached, and the parity between the two frames goes to a
 * union-find. The frames are then made one.
 */
#include "compat.h"
#include "hrel_walk.h"

/* A segment's parent is in the other frame */
#define HREL_ODD BIT(31)

/* Root of segment @s; its frame's parity to the root's in *@par. */
static u32 hrel_find(u32 *parent, u32 s, u32 *par)
{
	u32 r = s, p = 0, x, next, q;

	while ((parent[r] & ~HREL_ODD) != r) {
		p ^= parent[r] & HREL_ODD;
		r = parent[r] & ~HREL_ODD;
	}
	*par = p;
	/* path compression, each keeping its parity to the root */
	for (x = s; x != r; x = next) {
		next = parent[x] & ~HREL_ODD;
		q = parent[x] & HREL_ODD;
		parent[x] = r | p;
		p ^= q;
	}
	return r;
}

/* Join segments @a and @b, whose frames differ by @odd. */
static void hrel_union(u32 *parent, u32 a, u32 b, u32 odd)
{
	u32 pa, pb, ra = hrel_find(parent, a, &pa), rb = hrel_find(parent, b, &pb);

	if (ra != rb)
		parent[ra] = rb | (pa ^ pb ^ (odd ? HREL_ODD : 0));
}

/*
 * A walker's next start: the first pair of its stripe no walk reached,
 * its even slot in half 0. If the even slot's right partner g is in a
 * walk already, that walk will not come back to it: join them now (g is
 * in half 1).
 */
static bool hrel_start(struct hrel_walker *w, struct hrel_pair *pr, u32 *parent,
		       u32 *nseg)
{
	u32 g, v;

	while (w->next < w->end && (pr[w->next].rp[0] & HREL_SEEN))
		w->next++;
	if (w->next == w->end)
		return false;
	w->seg = (*nseg)++;
	parent[w->seg] = w->seg;
	w->f = pr[w->next].rp[1];
	g = pr[w->next].rp[0];
	pr[w->next].rp[0] = HREL_SEEN | w->seg << 1;
	prefetchw(&pr[w->f >> 1]);
	v = pr[g >> 1].rp[0];
	if (v & HREL_SEEN)
		hrel_union(parent, w->seg, (v & ~HREL_SEEN) >> 1, !((v ^ g) & 1));
	return true;
}

/**
 * bfly_hrel_walk() - 2-colour the Euler circuits of a split's pairs
 * @pr: the pairs of @m slots, each slot's right partner; receives each
 *	pair's state (struct hrel_pair)
 * @parent: room for a union-find entry a pair; receives each segment's
 *	parity to its root's frame in bit 0
 * @w: room for HREL_WALKERS walkers
 * @m: slots, even
 *
 * Afterwards pair p's even slot is in half (st ^ @parent[seg]) & 1, with
 * st = @pr[p].rp[0] and seg = (st & ~HREL_SEEN) >> 1, its odd slot in the
 * other.
 *
 * Return: 0, or -EINTR when bfly_should_stop() said to stop.
 */
int bfly_hrel_walk(struct hrel_pair *pr, u32 *parent, struct hrel_walker *w, u32 m)
{
	u32 pairs = m / 2, k, p, nseg = 0, live = 0, steps = 0;

	if (bfly_should_stop())
		return -EINTR;
	for (k = 0; k < HREL_WALKERS; k++) {
		w[k].next = (u32)((u64)pairs * k / HREL_WALKERS);
		w[k].end = (u32)((u64)pairs * (k + 1) / HREL_WALKERS);
		w[k].live = hrel_start(&w[k], pr, parent, &nseg);
		live += w[k].live;
	}
	while (live) {
		for (k = 0; k < HREL_WALKERS; k++) {
			struct hrel_walker *a = &w[k];
			u32 f, j, v;

			if (!a->live)
				continue;
			f = a->f;
			j = f >> 1;
			v = pr[j].rp[0];
			if (!(v & HREL_SEEN)) {
				a->f = pr[j].rp[!(f & 1)];
				pr[j].rp[0] = HREL_SEEN | a->seg << 1 | (f & 1);
				prefetchw(&pr[a->f >> 1]);
				continue;
			}
			/* met a walk: frames differ by the two views of pair j */
			hrel_union(parent, a->seg, (v & ~HREL_SEEN) >> 1, (v ^ f) & 1);
			if (!hrel_start(a, pr, parent, &nseg)) {
				a->live = false;
				live--;
			}
		}
		if (!(++steps & HREL_POLL) && bfly_should_stop())
			return -EINTR;
	}
	/* every segment's parity to its root, then alone in bit 0 */
	for (k = 0; k < nseg; k++)
		hrel_find(parent, k, &p);
	for (k = 0; k < nseg; k++)
		parent[k] >>= 31;
	return 0;
}
