// SPDX-License-Identifier: GPL-2.0
/*
 * The multibutterfly routing's bookkeeping (mbfly_route_state.h): the
 * workspace, each input's distinct neighbours, the slots a node half
 * selects and the buffers and ghosts placed on them, and Step 5's sweep
 * that sets every node's ghosts to g' + g''. The phases that use them
 * are in mbfly_route.c.
 */
#include "mbfly_route_state.h"

/**
 * bfly_mbfly_route_workspace_size() - bytes bfly_mbfly_route() needs
 * @g: the multibutterfly
 * @count: messages in the relation
 *
 * Return: the size, or 0 when @count is above N %BFLY_MBFLY_MAX_H or the
 * size overflows.
 */
size_t bfly_mbfly_route_workspace_size(const struct bfly_mbfly *g, u32 count)
{
	u64 n = g->ports, nodes = n * (g->log + 1), sz;

	if (count > n * BFLY_MBFLY_MAX_H)
		return 0;
	sz = (u64)count * sizeof(struct bfly_mbfly_m);
	sz += (n * g->log * 2 << bfly_mbfly_port_shift(g)) + 64;
	sz += 3 * nodes * sizeof(u32) + 2 * n * sizeof(u64);
	sz += (2 * bfly_mbfly_words(2 * n * g->log) + 2 * bfly_mbfly_words(nodes)) * sizeof(u64);
	sz += bfly_mbfly_words(count) * sizeof(u64);
	sz += n * sizeof(u32) + n * g->d * sizeof(u32) + 3 * n + 64;
	sz += BFLY_MBFLY_MAX_D * sizeof(u64) + n * sizeof(u32);
	sz += 2 * n * g->log * (sizeof(u32) + 1);
	sz += (4 * n + n * g->d) * sizeof(u32);
	if (sz > (size_t)-1)
		return 0;
	return sz;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_route_workspace_size);

/* log2 of a node half's bytes (struct bfly_mbfly_port): room for min(d, R) slots */
u32 bfly_mbfly_port_shift(const struct bfly_mbfly *g)
{
	u32 bytes = sizeof(struct bfly_mbfly_port), shift = 4;

	bytes += 3 * sizeof(u16) * bfly_mbfly_slots(min_t(u32, g->d, BFLY_MBFLY_R));
	if (g->log > 17)
		bytes += 2 * sizeof(u16);
	while (BIT(shift) < bytes)
		shift++;
	return shift;
}

void bfly_mbfly_carve(struct bfly_mbfly_st *st, void *work)
{
	u64 n = st->g->ports, nodes = n * (st->g->log + 1);
	u8 *p = work;

	/* the node halves first, on a cache line: a node's two share one when small */
	st->slots = bfly_mbfly_slots(min_t(u32, st->g->d, BFLY_MBFLY_R));
	st->pshift = bfly_mbfly_port_shift(st->g);
	st->wide = st->g->log > 17;
	p += -(unsigned long)p & 63;
	st->port = (struct bfly_mbfly_port *)p;
	p += n * st->g->log * 2 << st->pshift;
	st->m1 = (u64 *)p;
	p += n * sizeof(u64);
	st->m2 = (u64 *)p;
	p += n * sizeof(u64);
	st->keys = (u64 *)p;
	p += BFLY_MBFLY_MAX_D * sizeof(u64);
	st->unf = (u64 *)p;
	p += bfly_mbfly_words(2 * n * st->g->log) * sizeof(u64);
	st->nf = (u64 *)p;
	p += bfly_mbfly_words(2 * n * st->g->log) * sizeof(u64);
	st->sent = (u64 *)p;
	p += bfly_mbfly_words(st->count) * sizeof(u64);
	st->vis = (u64 *)p;
	p += bfly_mbfly_words(nodes) * sizeof(u64);
	st->dirty = (u64 *)p;
	p += bfly_mbfly_words(nodes) * sizeof(u64);
	st->m = (struct bfly_mbfly_m *)p;
	p += (u64)st->count * sizeof(struct bfly_mbfly_m);
	st->gp = (u32 *)p;
	st->gpp = st->gp + nodes;
	st->through = st->gpp + nodes;
	st->pend = st->through + nodes;
	st->nb = st->pend + n;
	st->stamp = st->nb + n * st->g->d;
	st->alive = st->stamp + n;
	st->rhead = st->alive + 2 * n * st->g->log;
	st->rnext = st->rhead + n;
	st->cand = st->rnext + n * st->g->d;
	st->gl = st->cand + n;
	st->imark = st->gl + n;
	st->nc = (u8 *)(st->imark + n);
	st->pw = st->nc + n;
	st->ps = st->pw + n;
	st->wexp = st->ps + n;
	memset(work, 0, (u8 *)(st->wexp + 2 * n * st->g->log) - (u8 *)work);
	memset(st->rhead, 0xff, n * sizeof(u32));
	memset(st->unf, 0xff, bfly_mbfly_words(2 * n * st->g->log) * sizeof(u64));
}

/* @nb gets the first of each row in @t[0 .. @d - 1], in order: returns how many */
static u32 bfly_mbfly_dedup(const u32 *t, u32 d, u32 *nb)
{
	u32 k, j, n = 0;

	/* without branches on the rows: a repeat is written and not counted */
	for (k = 0; k < d; k++) {
		bool seen = false;

		for (j = 0; j < k; j++)
			seen |= t[j] == t[k];
		nb[n] = t[k];
		n += !seen;
	}
	return n;
}

/* The distinct neighbours of input @row of column @col in @half, to @nb. */
u32 bfly_mbfly_distinct(struct bfly_mbfly_st *st, u32 col, u32 row, u32 half, u32 *nb)
{
	const struct bfly_mbfly *g = st->g;
	u32 k, n = 0, spl = row >> (g->log - col);
	u64 id = (((u64)col << 21 | spl) << 1 | half) + 1;

	if (st->table) {
		const u32 *t = st->table + (((size_t)col * g->ports + row) * 2 + half) * g->d;

		/* a few compared in pairs, more by stamp */
		if (g->d <= BFLY_MBFLY_R)
			return bfly_mbfly_dedup(t, g->d, nb);
		bfly_mbfly_gen(st);	/* a new stamp: the rows seen so far carry it */
		for (k = 0; k < g->d; k++) {
			if (st->stamp[t[k]] != st->gen) {
				st->stamp[t[k]] = st->gen;
				nb[n++] = t[k];
			}
		}
		return n;
	}
	/* the splitter half's keys, computed once for its inputs in a row */
	if (st->kid != id) {
		bfly_mbfly_keys(g, col, spl, half, st->keys);
		st->kid = id;
	}
	bfly_mbfly_gen(st);
	for (k = 0; k < g->d; k++) {
		u32 v = bfly_mbfly_neighbour_key(g, col, row, half, st->keys[k]);

		if (st->stamp[v] != st->gen) {
			st->stamp[v] = st->gen;
			nb[n++] = v;
		}
	}
	return n;
}

/* W / s, at least 1: the buffers a selected neighbour takes at most */
static u32 bfly_mbfly_cap(const struct bfly_mbfly_port *pt)
{
	u32 e = ilog2(pt->s);

	return pt->wexp > e ? 1U << (pt->wexp - e) : 1;
}

/*
 * @n new buffers (ghosts if @ghost) of a flagged half go to its slots, the
 * least loaded first, W / s each at most (beyond: counted). A half that
 * took Step 1 empty selects its neighbours now. Returns the last slot.
 */
u32 bfly_mbfly_place(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 n,
		     bool ghost)
{
	u32 i, best, cap, t, s, lo;
	u16 *load = bfly_mbfly_load(st, pt);
	size_t base;

	if (!pt->s) {
		size_t idx = bfly_mbfly_port_idx(st, pt), node = idx / 2;
		u32 col = node / st->g->ports, row = node % st->g->ports, n;

		n = bfly_mbfly_distinct(st, col, row, idx & 1, st->nb);
		bfly_mbfly_select(st, pt, col, st->nb, bfly_mbfly_slots(n));
		pt->flag = 1;
	}
	s = pt->s;
	cap = bfly_mbfly_cap(pt);
	base = ghost ? bfly_mbfly_next_base(st, pt) : 0;
	best = 0;
	while (n) {
		/* the least loaded slot, the first of those */
		for (i = 1, best = 0, lo = load[0]; i < s; i++) {
			if (load[i] < lo) {
				lo = load[i];
				best = i;
			}
		}
		t = lo < cap ? min_t(u32, n, cap - lo) : n;
		if (lo >= cap)
			st->res->cap_overflows += n;
		if (lo + t > U16_MAX) {
			st->err = -EOVERFLOW;
			return best;
		}
		load[best] = lo + t;
		if (ghost)
			bfly_mbfly_gs_add(st, pt, best, t, base);
		n -= t;
	}
	return best;
}

/* Sets a half's ghosts to @want, taken from or given to its slots if flagged. */
static void bfly_mbfly_ghosts(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 want)
{
	u32 i, n, t, have = pt->ghosts, skip = have == want;

	pt->ghosts = want;
	/* one test for the usual: no change, or an unflagged half */
	skip |= !pt->flag;
	if (skip)
		return;
	if (have > want) {
		u16 *gs = bfly_mbfly_gs(st, pt), *load = bfly_mbfly_load(st, pt);
		size_t base = bfly_mbfly_next_base(st, pt);

		n = have - want;
		for (i = pt->s; n && i-- > 0;) {
			t = min_t(u32, n, gs[i]);
			if (t)
				bfly_mbfly_gs_add(st, pt, i, -(s32)t, base);
			load[i] -= t;
			n -= t;
		}
	} else {
		bfly_mbfly_place(st, pt, want - have, true);
	}
}

/*
 * Step 5: the ghosts of columns 1 .. @last set to g' + g'' in both halves,
 * column by column upward so each sees its inputs' ghosts as they now
 * are. g'' is kept up to date as messages and ghosts are assigned
 * (bfly_mbfly_gpp_add()); only the nodes marked since are visited.
 */
void bfly_mbfly_sweep(struct bfly_mbfly_st *st, u32 last)
{
	size_t n = st->g->ports, x, wi;
	u64 w, t;
	u32 c, h, want;

	for (c = 1; c <= last && c < st->g->log; c++) {
		/* a column's updates mark only the next: a word's nodes fetched first */
		for (wi = c * n >> 6; wi <= ((c + 1) * n - 1) >> 6; wi++) {
			w = bfly_mbfly_take(st->dirty, wi, c * n, (c + 1) * n);
			for (t = w; t; t &= t - 1) {
				x = wi * 64 + __builtin_ctzll(t);
				prefetchw(bfly_mbfly_port_at(st, 0, x, 0));
				if (st->pshift > 5)
					prefetchw(bfly_mbfly_port_at(st, 0, x, 1));
			}
			for (t = w; t; t &= t - 1) {
				x = wi * 64 + __builtin_ctzll(t);
				want = st->gp[x] + st->gpp[x];
				for (h = 0; h < 2; h++)
					bfly_mbfly_ghosts(st, bfly_mbfly_port_at(st, 0, x, h),
							  want);
			}
		}
	}
}
