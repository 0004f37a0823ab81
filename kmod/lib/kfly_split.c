// SPDX-License-Identifier: GPL-2.0
/*
 * A partial permutation on the k-ary n-fly split into sub-rounds that
 * destination-digit routing carries with no internal conflict.
 *
 * Each packet has one path: node stage j sends it out on digit n-1-j of
 * its destination, so it leaves node stage j on the link of the conflict
 * window W_j(s, d) = d / m * m + (s / k) mod m, m = k^(n-1-j) (kfly.c).
 * Two packets conflict at node stage j exactly when their windows there
 * are equal. The split is greedy first fit in input order, as for the
 * butterfly (schedule.c): pass r keeps each waiting packet whose n links
 * are all unused in pass r; the first waiting packet always fits, so the
 * split ends, every packet in one sub-round.
 */
#include "compat.h"
#include "kfly.h"

/* BFLY_HREL_IDLE (uapi): an input that sends nothing */
#include <uapi/linux/bfly.h>

/* The link packet @s -> @d leaves node stage @j on, as an index of n * N. */
static inline size_t bfly_kfly_split_link(const struct bfly_kfly *g, u32 j, u32 s, u32 d)
{
	u32 m = g->pow[g->n - 1 - j];

	return (size_t)j * g->ports + d / m * m + s / g->k % m;
}

/**
 * bfly_kfly_split_workspace_size() - memory bfly_kfly_split() needs
 * @g: the shape
 *
 * Return: bytes: one u32 per link of every node stage, n * N, and the N
 * packets still waiting.
 */
size_t bfly_kfly_split_workspace_size(const struct bfly_kfly *g)
{
	return ((size_t)g->n + 1) * g->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_split_workspace_size);

/**
 * bfly_kfly_split() - conflict-free sub-rounds of a partial permutation
 * @g: the shape
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @sub: receives N entries: each sending input's sub-round (the idle
 *	inputs' entries are left alone)
 * @work: bfly_kfly_split_workspace_size() bytes
 *
 * Return: the sub-rounds, 0 when no input sends; -EINVAL for an output of
 * N or more or one output twice; -EINTR when bfly_should_stop() said to
 * stop.
 */
int bfly_kfly_split(const struct bfly_kfly *g, const u32 *part, u32 *sub, void *work)
{
	u32 *mark = work, *wait = mark + (size_t)g->n * g->ports;
	u32 i, j, w, left = 0, kept, pass = 0, d;

	memset(mark, 0, (size_t)g->n * g->ports * sizeof(u32));
	for (i = 0; i < g->ports; i++) {
		if (part[i] == BFLY_HREL_IDLE)
			continue;
		if (part[i] >= g->ports)
			return -EINVAL;
		/* the last node stage's link is the output itself */
		w = bfly_kfly_split_link(g, g->n - 1, i, part[i]);
		if (mark[w])
			return -EINVAL;
		mark[w] = 1;
		wait[left++] = i;
	}
	memset(mark, 0, (size_t)g->n * g->ports * sizeof(u32));
	while (left) {
		pass++;
		for (i = 0, kept = 0; i < left; i++) {
			u32 s = wait[i];

			d = part[s];
			for (j = 0; j < g->n; j++)
				if (mark[bfly_kfly_split_link(g, j, s, d)] == pass)
					break;
			if (j < g->n) {
				wait[kept++] = s;
				continue;
			}
			for (j = 0; j < g->n; j++)
				mark[bfly_kfly_split_link(g, j, s, d)] = pass;
			sub[s] = pass - 1;
		}
		left = kept;
		if (bfly_should_stop())
			return -EINTR;
	}
	return pass;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_split);

/**
 * bfly_kfly_subround_settings() - the port maps of one sub-round
 * @g: the shape
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @sub: each sending input's sub-round (bfly_kfly_split())
 * @r: the sub-round
 * @set: receives the setting, bfly_kfly_settings_size() bytes: the ports
 *	the packets of sub-round @r take, %BFLY_KFLY_UNSET elsewhere
 */
void bfly_kfly_subround_settings(const struct bfly_kfly *g, const u32 *part, const u32 *sub,
				 u32 r, u8 *set)
{
	u32 i, s, a, o;

	memset(set, BFLY_KFLY_UNSET, bfly_kfly_settings_size(g));
	for (i = 0; i < g->ports; i++) {
		if (part[i] == BFLY_HREL_IDLE || sub[i] != r)
			continue;
		for (s = 0, a = i; s < g->n; s++) {
			o = part[i] / g->pow[g->n - 1 - s] % g->k;
			set[(size_t)s * g->ports + a] = o;
			a = a - a % g->k + o;
			if (s + 1 < g->n)
				a = bfly_kfly_link(g, s, a);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_subround_settings);
