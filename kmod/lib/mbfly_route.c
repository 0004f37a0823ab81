// SPDX-License-Identifier: GPL-2.0
/*
 * h-relations routed on the (N, d)-multibutterfly with the multibutterfly
 * paper's Section 3 algorithm in the word model (Documentation/mbfly.rst):
 * stages of two phases; in Phase 1 each splitter input that has not yet
 * chosen its R neighbours in a half either takes any R (W <= h) or asks
 * for permission to send batches of W / R, Z rounds; outputs grant a
 * batch size asked for by one input only; outputs hold ghosts for the
 * messages that may still come (g' for inputs still asking, g'' for those
 * assigned to them). In Phase 2 messages move Y rounds, each replacing a
 * ghost where it lands. The counters W_u, W_l bound the buffers a node
 * ever fills; Theorem 2 bounds the messages through a node by 2 h-bar,
 * checked on every run.
 *
 * Beyond the paper: an input that waited @patience stages takes its R
 * neighbours without permission (counted in @forced), and the routing
 * stops after @max_stages stages with the messages left counted.
 */
#include "mbfly_route_state.h"

/*
 * Phase 1 in one half of the c-splitters: Step 1 (or the fallback), Z
 * rounds of Step 2, and Step 4's g' for the outputs in that half.
 */
static int bfly_mbfly_phase1(struct bfly_mbfly_st *st, u32 col, u32 half, u32 stage)
{
	const struct bfly_mbfly *g = st->g;
	struct bfly_mbfly_result *res = st->res;
	size_t base = ((size_t)col * 2 + half) * g->ports, end = base + g->ports, x, wi;
	u64 bits;
	u32 r, i, j, k, np = 0, nc, left, z, *nb, pl[BFLY_MBFLY_R], polled = 0;
	/* e / d as (e ceil(2^32 / d)) >> 32: exact for e < 2^32 / d (e < N d <= 2^26) */
	u64 dinv = (u64)(U32_MAX / g->d) + 1;
	bool quiet = false;

	/* the unflagged halves only, in row order (a half leaves them only itself) */
	for (wi = base >> 6; wi <= (end - 1) >> 6; wi++) {
		/* the halves that will be read (not those asking), fetched first */
		for (bits = bfly_mbfly_word(st->unf, wi, base, end); bits; bits &= bits - 1) {
			x = wi * 64 + __builtin_ctzll(bits);
			if (1U << st->wexp[x] <= res->h || stage - col >= res->patience)
				prefetchw(bfly_mbfly_port_at(st, col, x - base, half));
		}
		for (bits = bfly_mbfly_word(st->unf, wi, base, end); bits; bits &= bits - 1) {
			u32 n, w;
			struct bfly_mbfly_port *pt;

			x = wi * 64 + __builtin_ctzll(bits);
			w = 1U << st->wexp[x];
			r = x - base;
			pt = bfly_mbfly_port_at(st, col, r, half);
			if (!(++polled & 0xfff) && bfly_should_stop())
				return -EINTR;
			/* a half still asking (W > h) reads its hot bytes, not its port */
			if (w <= res->h && !st->alive[x] && !pt->ghosts) {
				pt->flag = 1;	/* Step 1; selects when a buffer comes */
				bfly_mbfly_flagged(st, col, r, half, false);
				continue;
			}
			/* an input that asked took its first s distinct neighbours then */
			if (w > res->h && stage - col >= res->patience && pt->s) {
				res->forced++;
				pt->flag = 2;
				bfly_mbfly_flagged(st, col, r, half, true);
				continue;
			}
			nb = st->nb + (size_t)np * g->d;
			n = bfly_mbfly_distinct(st, col, r, half, nb);
			if (w <= res->h || stage - col >= res->patience) {
				res->forced += w > res->h;
				bfly_mbfly_select(st, pt, col, nb, bfly_mbfly_slots(n));
				bfly_mbfly_flagged(st, col, r, half, true);
				continue;
			}
			/* the fallback's choice (a grant's replaces it) */
			bfly_mbfly_choose(st, pt, col, nb, bfly_mbfly_slots(n));
			st->nc[np] = n;
			st->pw[np] = st->wexp[x];
			st->ps[np] = bfly_mbfly_slots(n);
			st->pend[np++] = r;
		}
	}
	/* 2.1: requests, each for one batch size 2^e; each output lists its asking inputs */
	for (i = 0; i < np; i++) {
		nb = st->nb + (size_t)i * g->d;
		for (j = 0; j < st->nc[i]; j++)
			bfly_mbfly_ask(st, nb[j], i, (size_t)i * g->d + j);
		st->cand[i] = i;
	}
	nc = np;
	left = np;
	/* 2.2, 2.3: rounds of grants while any; R of them set the flag and cancel */
	for (z = 0; z < res->z && left; z++) {
		u32 granted = 0, gen = bfly_mbfly_gen(st);

		for (k = 0; k < nc; k++) {
			u32 n = 0, spare;
			u64 bit;

			i = st->cand[k];
			nb = st->nb + (size_t)i * g->d;
			bit = BIT_ULL(st->pw[i]);
			/* granted by s of its neighbours: it stops once too many refused */
			spare = st->nc[i] - st->ps[i];
			for (j = 0; j < st->nc[i] && n < st->ps[i]; j++) {
				if (!(st->m2[nb[j]] & bit))
					pl[n++] = nb[j];
				else if (!spare--)
					break;
			}
			if (n == st->ps[i]) {
				u32 row = st->pend[i];
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, col, row, half);

				bfly_mbfly_select(st, pt, col, pl, n);
				bfly_mbfly_flagged(st, col, row, half, true);
				st->gl[granted++] = i;
			}
		}
		if (!granted) {
			quiet = true;
			break;	/* the same requests again would get the same answers */
		}
		left -= granted;
		for (k = 0; k < granted; k++)
			st->pw[st->gl[k]] = 0xff;
		/*
		 * Only the granted inputs' outputs change: their masks anew from
		 * the inputs still asking, which are the next round's candidates.
		 */
		nc = 0;
		for (k = 0; k < granted; k++) {
			i = st->gl[k];
			nb = st->nb + (size_t)i * g->d;
			for (j = 0; j < st->nc[i]; j++) {
				u32 o = nb[j], e;

				if (st->stamp[o] == gen)
					continue;
				st->stamp[o] = gen;
				st->m1[o] = 0;
				st->m2[o] = 0;
				for (e = st->rhead[o]; e != U32_MAX; e = st->rnext[e]) {
					u32 a = ((u64)e * dinv) >> 32;

					if (st->pw[a] == 0xff)
						continue;
					bfly_mbfly_ask(st, o, a, U32_MAX);
					if (st->imark[a] != gen) {
						st->imark[a] = gen;
						st->cand[nc++] = a;
					}
				}
			}
		}
		if (bfly_should_stop())
			return -EINTR;
	}
	/*
	 * Step 4: g' = sum over the batch sizes still asked of 2^e / s, on the
	 * first asking input's visit (it clears the masks: the others skip)
	 */
	for (i = 0; i < np; i++) {
		u32 b = ilog2(st->ps[i]);
		bool asking = st->pw[i] != 0xff;

		nb = st->nb + (size_t)i * g->d;
		for (j = 0; j < st->nc[i]; j++) {
			u32 o = nb[j];
			size_t x = (size_t)(col + 1) * g->ports + o;
			u64 bits = st->m1[o];

			st->rhead[o] = U32_MAX;
			if (!asking || !bits)
				continue;
			bfly_mbfly_bset(st->vis, x);
			bfly_mbfly_bset(st->dirty, x);
			for (; bits; bits &= bits - 1) {
				u32 e = __builtin_ctzll(bits);

				st->gp[x] += e >= b ? 1U << (e - b) : 0;
			}
			st->m1[o] = 0;
			st->m2[o] = 0;
		}
	}
	/* the requests and answers stay the same until the patience runs out */
	st->quiet[col * 2 + half] = quiet || !left;
	return 0;
}

/* Step 3: buffers of the inputs flagged this stage go to their slots. */
static void bfly_mbfly_assign(struct bfly_mbfly_st *st, u32 top)
{
	const struct bfly_mbfly *g = st->g;
	u32 i, j, k, n, c, h, end, idx[64];

	for (i = 0; i < st->count; i += 64) {
		end = min_t(u32, i + 64, st->count);
		/* 64 messages at a time: those to place found, their halves fetched first */
		for (n = 0, j = i; j < end; j++) {
			const struct bfly_mbfly_m *m = &st->m[j];

			if (m->done || m->slot != BFLY_MBFLY_NOSLOT || m->col > top)
				continue;
			h = bfly_mbfly_half(g, m->col, st->msgs[j].dst);
			/* a waiting message's half has a flag only if flagged this stage */
			if (!bfly_mbfly_btest(st->nf, bfly_mbfly_hidx(st, m->col, m->row, h)))
				continue;
			prefetchw(bfly_mbfly_port_at(st, m->col, m->row, h));
			idx[n++] = j;
		}
		for (k = 0; k < n; k++) {
			struct bfly_mbfly_m *m = &st->m[idx[k]];
			struct bfly_mbfly_port *pt;

			h = bfly_mbfly_half(g, m->col, st->msgs[idx[k]].dst);
			pt = bfly_mbfly_port_at(st, m->col, m->row, h);
			m->slot = bfly_mbfly_place(st, pt, 1, false);
			m->next = bfly_mbfly_nbr(st, pt, m->col, m->row, h, m->slot);
			bfly_mbfly_gpp_add(st, m->col + 1, m->next, 1);
			bfly_mbfly_bset(st->sent, idx[k]);
		}
	}
	/* the halves flagged this stage, each on its own: any order */
	for (c = 0; c <= top; c++) {
		for (h = 0; h < 2; h++) {
			size_t base = ((size_t)c * 2 + h) * g->ports, end = base + g->ports, wi;
			u64 w;

			for (wi = base >> 6; wi <= (end - 1) >> 6; wi++) {
				u64 t = bfly_mbfly_word(st->nf, wi, base, end);

				/* the word's halves fetched first */
				for (; t; t &= t - 1) {
					u32 r = wi * 64 + __builtin_ctzll(t) - base;

					prefetchw(bfly_mbfly_port_at(st, c, r, h));
				}
				for (w = bfly_mbfly_take(st->nf, wi, base, end); w; w &= w - 1) {
					u32 r = wi * 64 + __builtin_ctzll(w) - base;
					struct bfly_mbfly_port *pt;

					pt = bfly_mbfly_port_at(st, c, r, h);
					pt->flag = 1;
					if (pt->ghosts)
						bfly_mbfly_place(st, pt, pt->ghosts, true);
				}
			}
		}
	}
}

/* Phase 2, Step 1.1 and the arrival of 1.2: message @i, which has a slot, moves. */
static void bfly_mbfly_move(struct bfly_mbfly_st *st, u32 i)
{
	const struct bfly_mbfly *g = st->g;
	struct bfly_mbfly_result *res = st->res;
	struct bfly_mbfly_m *m = &st->m[i];
	u32 dst = st->msgs[i].dst, c, h, b, k;
	struct bfly_mbfly_port *pt;
	bool ghost = false;

	/*
	 * The half it leaves has the flag (it gave the slot) and its live
	 * count is read no more (only unflagged halves' are): not counted down.
	 */
	bfly_mbfly_gpp_add(st, m->col + 1, m->next, -1);
	m->row = m->next;
	m->slot = BFLY_MBFLY_NOSLOT;
	c = ++m->col;
	b = g->log - c;
	if ((m->row >> b) != (dst >> b))
		res->path_errors++;
	if (st->paths)
		st->paths[(size_t)i * (g->log + 1) + c] = m->row;
	k = ++st->through[(size_t)c * g->ports + m->row];
	res->max_through = max_t(u32, res->max_through, k);
	if (c == g->log) {
		m->done = 1;
		res->delivered++;
		res->left--;
		return;
	}
	h = bfly_mbfly_half(g, c, dst);
	pt = bfly_mbfly_port_at(st, c, m->row, h);
	/* live counts only where read: unflagged halves */
	if (!pt->flag)
		st->alive[bfly_mbfly_hidx(st, c, m->row, h)]++;
	if (!pt->ghosts) {
		res->ghost_misses++;
		if (pt->flag)
			m->slot = bfly_mbfly_place(st, pt, 1, false);
	} else {
		u16 *gs = bfly_mbfly_gs(st, pt);

		pt->ghosts--;
		for (k = 0; pt->flag && k < pt->s; k++) {
			if (gs[k]) {
				/*
				 * The message takes a ghost's buffer: its
				 * neighbour's g'' (ghosts and messages
				 * assigned) stays, so the node is not marked.
				 */
				gs[k]--;
				m->slot = k;
				ghost = true;
				break;
			}
		}
		if (pt->flag && m->slot == BFLY_MBFLY_NOSLOT)
			m->slot = bfly_mbfly_place(st, pt, 1, false);
	}
	if (m->slot != BFLY_MBFLY_NOSLOT) {
		m->next = bfly_mbfly_nbr(st, pt, c, m->row, h, m->slot);
		if (!ghost)
			bfly_mbfly_gpp_add(st, c + 1, m->next, 1);
		bfly_mbfly_bset(st->sent, i);
	}
}

/*
 * One round of sending: the messages with a slot, in order; one given a
 * slot on arrival waits for the next round.
 */
static void bfly_mbfly_send(struct bfly_mbfly_st *st)
{
	const struct bfly_mbfly *g = st->g;
	size_t wi;
	u64 w, t;

	for (wi = 0; wi < bfly_mbfly_words(st->count); wi++) {
		w = bfly_mbfly_take(st->sent, wi, 0, st->count);
		/* the halves the word's messages arrive at, fetched first */
		for (t = w; t; t &= t - 1) {
			u32 i = wi * 64 + __builtin_ctzll(t), c = st->m[i].col + 1, h;
			size_t x = (size_t)c * g->ports + st->m[i].next;

			prefetchw(&st->through[x]);
			prefetchw(&st->gpp[x]);
			if (c < g->log) {
				h = bfly_mbfly_half(g, c, st->msgs[i].dst);
				prefetchw(bfly_mbfly_port_at(st, c, st->m[i].next, h));
			}
		}
		for (; w; w &= w - 1)
			bfly_mbfly_move(st, wi * 64 + __builtin_ctzll(w));
	}
}

/* Theorem 2's Z: (33/32)^Z >= 32 d / R, delta = 1/33, in 16.16 fixed point */
static u32 bfly_mbfly_default_z(u32 d)
{
	u64 x = 1 << 16, want = (u64)(32 * d / BFLY_MBFLY_R) << 16;
	u32 z = 0;

	while (x < want) {
		x = x * 33 / 32;
		z++;
	}
	return max_t(u32, z, 2);
}

/* Checks the relation and finds h, using gp and gpp as counts. */
static int bfly_mbfly_degree(struct bfly_mbfly_st *st)
{
	u32 i, n = st->g->ports, h = 0;

	for (i = 0; i < st->count; i++) {
		u32 s = st->msgs[i].src, d = st->msgs[i].dst;

		if (s >= n || d >= n)
			return -EINVAL;
		h = max_t(u32, h, ++st->gp[s]);
		h = max_t(u32, h, ++st->gpp[d]);
	}
	if (h > BFLY_MBFLY_MAX_H)
		return -E2BIG;
	st->res->h = h;
	memset(st->gp, 0, (size_t)n * sizeof(u32));
	memset(st->gpp, 0, (size_t)n * sizeof(u32));
	return 0;
}

static void bfly_mbfly_start(struct bfly_mbfly_st *st, const struct bfly_mbfly_params *p)
{
	const struct bfly_mbfly *g = st->g;
	struct bfly_mbfly_result *res = st->res;
	u32 i, r, h, dh = g->d * res->h * 4 / (BFLY_MBFLY_R - 4);

	res->hbar = 1U << bfly_mbfly_above(dh);
	res->z = p && p->z ? p->z : bfly_mbfly_default_z(g->d);
	res->y = p && p->y ? p->y : 3;
	res->patience = p && p->patience ? p->patience :
		1 + (g->log + ilog2(4 * g->d) - 1) / ilog2(4 * g->d);
	res->max_stages = p && p->max_stages ? p->max_stages :
		2 * g->log + res->patience + 8;
	st->table = p ? p->table : NULL;
	res->left = st->count;
	for (i = 0; i < st->count; i++) {
		struct bfly_mbfly_m *m = &st->m[i];

		m->row = st->msgs[i].src;
		m->slot = BFLY_MBFLY_NOSLOT;
		h = bfly_mbfly_half(g, 0, st->msgs[i].dst);
		st->alive[bfly_mbfly_hidx(st, 0, m->row, h)]++;
		r = ++st->through[m->row];
		res->max_through = max_t(u32, res->max_through, r);
		if (st->paths)
			st->paths[(size_t)i * (g->log + 1)] = m->row;
	}
	for (r = 0; r < g->ports; r++) {
		for (h = 0; h < 2; h++) {
			struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, 0, r, h);
			size_t x = bfly_mbfly_hidx(st, 0, r, h);

			pt->wexp = bfly_mbfly_above(st->alive[x]);
			st->wexp[x] = pt->wexp;
			res->max_w = max_t(u32, res->max_w, 1U << pt->wexp);
		}
	}
}

/* One stage: Phase 1 in the splitters of columns 0 .. min(i, log N - 1), then Phase 2. */
static int bfly_mbfly_stage(struct bfly_mbfly_st *st, u32 i)
{
	const struct bfly_mbfly *g = st->g;
	u32 top = min_t(u32, i, g->log - 1), last = min_t(u32, i + 1, g->log);
	size_t x, n = g->ports;
	u32 c, h, y, r;
	int err;

	/*
	 * A splitter half whose last grant round granted nothing asks the
	 * same and is refused the same until its inputs' patience (all began
	 * asking in stage c) runs out: its Phase 1 and its outputs' g' would
	 * come out as they are.
	 */
	for (c = 0; c <= top; c++)
		for (h = 0; h < 2; h++)
			st->redo[c * 2 + h] = !st->quiet[c * 2 + h] || i == c ||
					      i - c >= st->res->patience;
	/* g' of the outputs of the other halves anew: nonzero only where vis is set */
	for (c = 0; c <= top; c++) {
		size_t end = (size_t)(c + 2) * n;
		u32 b = g->log - c - 1;

		if (!st->redo[c * 2] && !st->redo[c * 2 + 1])
			continue;
		for (x = bfly_mbfly_bnext(st->vis, end - n, end); x < end;
		     x = bfly_mbfly_bnext(st->vis, x + 1, end)) {
			if (!st->redo[c * 2 + ((x >> b) & 1)])
				continue;
			st->gp[x] = 0;
			bfly_mbfly_bclr(st->vis, x);
			bfly_mbfly_bset(st->dirty, x);
		}
	}
	for (c = 0; c <= top; c++) {
		for (h = 0; h < 2; h++) {
			if (!st->redo[c * 2 + h])
				continue;
			err = bfly_mbfly_phase1(st, c, h, i);
			if (err)
				return err;
		}
	}
	bfly_mbfly_assign(st, top);
	if (st->err)
		return st->err;
	/* Step 5: ghosts for what may come, on every active column */
	bfly_mbfly_sweep(st, last);
	for (y = 0; y < st->res->y && st->res->left; y++) {
		bfly_mbfly_send(st);
		bfly_mbfly_sweep(st, last);
		if (st->err)
			return st->err;
		if (bfly_should_stop())
			return -EINTR;
	}
	if (st->err)
		return st->err;
	/* Phase 2, Step 2: the newly active column's counters */
	if (i + 1 < g->log) {
		for (r = 0; r < g->ports; r++) {
			for (h = 0; h < 2; h++) {
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, i + 1, r, h);
				size_t x = bfly_mbfly_hidx(st, i + 1, r, h);

				pt->wexp = bfly_mbfly_above(st->alive[x] + pt->ghosts);
				st->wexp[x] = pt->wexp;
				st->res->max_w = max_t(u32, st->res->max_w, 1U << pt->wexp);
			}
		}
	}
	return 0;
}

/**
 * bfly_mbfly_route() - route an h-relation with the paper's algorithm
 * @g: the multibutterfly
 * @p: the constants, or NULL (zero fields take the defaults)
 * @msgs: the relation: @count (source, destination) pairs; sources and
 *	destinations may repeat (h of them each at most)
 * @count: messages, at most N %BFLY_MBFLY_MAX_H
 * @paths: NULL, or @count (log N + 1) rows: message i's row in column c
 *	goes to @paths[i (log N + 1) + c] (entries of undelivered messages
 *	past where they stopped are left as they were)
 * @res: filled with what the routing did
 * @work: bfly_mbfly_route_workspace_size() bytes
 *
 * Each message follows its logical path: leaving column c it goes to the
 * upper half of its splitter if bit log N - 1 - c of its destination is
 * 0, else to the lower; the algorithm picks among the d edges.
 *
 * Context: polls bfly_should_stop().
 * Return: 0 when every message was delivered, -EAGAIN when the stage limit
 * stopped the routing (@res->left counts what was not delivered), -EINVAL
 * for an endpoint out of range, -E2BIG for h above %BFLY_MBFLY_MAX_H or
 * too many messages, -EOVERFLOW when a node half assigned more than
 * %U16_MAX buffers to one neighbour (far beyond Theorem 2's 2 h-bar),
 * -EINTR when stopped.
 */
int bfly_mbfly_route(const struct bfly_mbfly *g, const struct bfly_mbfly_params *p,
		     const struct bfly_mbfly_msg *msgs, u32 count, u32 *paths,
		     struct bfly_mbfly_result *res, void *work)
{
	struct bfly_mbfly_st st = {
		.g = g, .msgs = msgs, .res = res, .paths = paths, .count = count,
	};
	u32 i;
	int err;

	memset(res, 0, sizeof(*res));
	if (!bfly_mbfly_route_workspace_size(g, count))
		return -E2BIG;
	bfly_mbfly_carve(&st, work);
	err = bfly_mbfly_degree(&st);
	if (err)
		return err;
	bfly_mbfly_start(&st, p);
	for (i = 0; res->left && i < res->max_stages; i++) {
		err = bfly_mbfly_stage(&st, i);
		if (err)
			return err;
		res->stages = i + 1;
	}
	res->bound_ok = res->max_through <= 2 * res->hbar;
	return res->left ? -EAGAIN : 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_route);
