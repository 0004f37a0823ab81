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
#include "compat.h"
#include "mbfly.h"

#define BFLY_MBFLY_NOSLOT 0xff
#define BFLY_MBFLY_LOG_R 3

/* One message's place: its node, and the neighbour its buffer is assigned to. */
struct bfly_mbfly_m {
	u32 row;
	u32 next;
	u32 moved;	/* the round it last moved in */
	u8 col;
	u8 slot;	/* BFLY_MBFLY_NOSLOT until assigned */
	u8 done;
	u8 pad;
};

/*
 * One half (upper or lower buffers) of a node of columns 0 .. log N - 1,
 * 64 bytes: its counter W = 2^wexp, flag F, its selected neighbours
 * (slots) as offsets in the half of the next column they are in (low 16
 * bits in nlo, the 4 bits above in nhi), and per slot the buffers
 * assigned and the ghosts among them (u16: a slot past %U16_MAX buffers,
 * beyond Theorem 2's 2 h-bar, stops the routing with -EOVERFLOW).
 */
struct bfly_mbfly_port {
	u32 ghosts;
	u32 alive;	/* messages not yet forwarded */
	u8 wexp;
	u8 flag;	/* 0, 1 or 2 (set this stage, ghosts not yet assigned) */
	u8 s;
	u8 age;		/* stages spent asking */
	u32 nhi;
	u16 nlo[BFLY_MBFLY_R];
	u16 gs[BFLY_MBFLY_R];
	u16 load[BFLY_MBFLY_R];
};

/* The routing's state, all in the caller's workspace. */
struct bfly_mbfly_st {
	const struct bfly_mbfly *g;
	const struct bfly_mbfly_msg *msgs;
	struct bfly_mbfly_result *res;
	u32 *paths;
	u32 count;
	struct bfly_mbfly_m *m;
	struct bfly_mbfly_port *port;	/* (col N + row) 2 + half */
	u32 *gp;	/* g' per node, (col N + row) */
	u32 *gpp;	/* g'' per node */
	u32 *through;	/* messages through each node */
	u64 *m1;	/* batch sizes asked of an output, once */
	u64 *m2;	/* ... more than once */
	u32 *pend;	/* the inputs still asking in one column and half */
	u32 *nb;	/* their distinct neighbours, d each */
	u8 *nc;		/* how many */
	u8 *pw;		/* their W exponents (0xff once granted) */
	u8 *ps;		/* their slots s */
	const u32 *table;	/* the neighbour table, or NULL */
	u64 *keys;	/* the d keys of splitter half kid - 1 (0: none) */
	u64 kid;
	u32 *stamp;	/* per row: the distinct() call that last saw it */
	u32 gen;
	u64 *unf;	/* halves not flagged: bit (col 2 + half) N + row */
	u64 *nf;	/* halves flagged this stage (flag 2), the same bits */
	u64 *vis;	/* nodes whose ghosts may change: bit col N + row */
	u32 round;
	int err;	/* -EOVERFLOW: a slot's count past U16_MAX */
	u64 gtot[BFLY_MBFLY_MAX_LOG + 1];	/* ghosts per column */
	u64 wtot[BFLY_MBFLY_MAX_LOG + 1];	/* g' + g'' per column */
};

static inline struct bfly_mbfly_port *bfly_mbfly_port_at(struct bfly_mbfly_st *st, u32 col,
							 u32 row, u32 half)
{
	return &st->port[((size_t)col * st->g->ports + row) * 2 + half];
}

static inline void bfly_mbfly_bset(u64 *b, size_t i)
{
	b[i >> 6] |= BIT_ULL(i & 63);
}

static inline void bfly_mbfly_bclr(u64 *b, size_t i)
{
	b[i >> 6] &= ~BIT_ULL(i & 63);
}

/* The first set bit of @b from @i, or @end */
static size_t bfly_mbfly_bnext(const u64 *b, size_t i, size_t end)
{
	while (i < end) {
		u64 w = b[i >> 6] >> (i & 63);

		if (w)
			return min_t(size_t, i + __builtin_ctzll(w), end);
		i = (i | 63) + 1;
	}
	return end;
}

/* Bitmap words for @bits bits */
static inline u64 bfly_mbfly_words(u64 bits)
{
	return (bits + 63) / 64;
}

/* The row of slot @k's neighbour of half @half of node (@col, @row) */
static inline u32 bfly_mbfly_nbr(const struct bfly_mbfly_port *pt, u32 log, u32 col, u32 row,
				 u32 half, u32 k)
{
	u32 b = log - col, off = pt->nlo[k] | ((pt->nhi >> (4 * k)) & 15) << 16;

	return (row >> b) << b | half << (b - 1) | off;
}

/* The smallest power of 2 greater than @x, as an exponent */
static u8 bfly_mbfly_above(u32 x)
{
	return x ? ilog2(x) + 1 : 0;
}

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
	sz += n * g->log * 2 * sizeof(struct bfly_mbfly_port);
	sz += 3 * nodes * sizeof(u32) + 2 * n * sizeof(u64);
	sz += (2 * bfly_mbfly_words(2 * n * g->log) + bfly_mbfly_words(nodes)) * sizeof(u64);
	sz += n * sizeof(u32) + n * g->d * sizeof(u32) + 3 * n + 64;
	sz += BFLY_MBFLY_MAX_D * sizeof(u64) + n * sizeof(u32);
	if (sz > (size_t)-1)
		return 0;
	return sz;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_mbfly_route_workspace_size);

static void bfly_mbfly_carve(struct bfly_mbfly_st *st, void *work)
{
	u64 n = st->g->ports, nodes = n * (st->g->log + 1);
	u8 *p = work;

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
	st->vis = (u64 *)p;
	p += bfly_mbfly_words(nodes) * sizeof(u64);
	st->port = (struct bfly_mbfly_port *)p;
	p += n * st->g->log * 2 * sizeof(struct bfly_mbfly_port);
	st->m = (struct bfly_mbfly_m *)p;
	p += (u64)st->count * sizeof(struct bfly_mbfly_m);
	st->gp = (u32 *)p;
	st->gpp = st->gp + nodes;
	st->through = st->gpp + nodes;
	st->pend = st->through + nodes;
	st->nb = st->pend + n;
	st->stamp = st->nb + n * st->g->d;
	st->nc = (u8 *)(st->stamp + n);
	st->pw = st->nc + n;
	st->ps = st->pw + n;
	memset(work, 0, (u8 *)(st->ps + n) - (u8 *)work);
	memset(st->unf, 0xff, bfly_mbfly_words(2 * n * st->g->log) * sizeof(u64));
}

/* The distinct neighbours of input @row of column @col in @half, to @nb. */
static u32 bfly_mbfly_distinct(struct bfly_mbfly_st *st, u32 col, u32 row, u32 half, u32 *nb)
{
	const struct bfly_mbfly *g = st->g;
	u32 k, n = 0, spl = row >> (g->log - col);
	u64 id = (((u64)col << 21 | spl) << 1 | half) + 1;

	/* a new stamp: the rows seen so far carry it */
	if (!++st->gen) {
		memset(st->stamp, 0, g->ports * sizeof(u32));
		st->gen = 1;
	}
	if (st->table) {
		const u32 *t = st->table + (((size_t)col * g->ports + row) * 2 + half) * g->d;

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
	for (k = 0; k < g->d; k++) {
		u32 v = bfly_mbfly_neighbour_key(g, col, row, half, st->keys[k]);

		if (st->stamp[v] != st->gen) {
			st->stamp[v] = st->gen;
			nb[n++] = v;
		}
	}
	return n;
}

/* Slots an input with @n distinct neighbours selects: a power of 2 up to R */
static u32 bfly_mbfly_slots(u32 n)
{
	return n >= BFLY_MBFLY_R ? BFLY_MBFLY_R : 1U << ilog2(n);
}

/* W / s, at least 1: the buffers a selected neighbour takes at most */
static u32 bfly_mbfly_cap(const struct bfly_mbfly_port *pt)
{
	u32 e = ilog2(pt->s);

	return pt->wexp > e ? 1U << (pt->wexp - e) : 1;
}

/* Half @half of node (@col, row) selects @rows; flag 2, the bitmaps follow. */
static void bfly_mbfly_select(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 col,
			      const u32 *rows, u32 s)
{
	u32 i, mask = (1U << (st->g->log - col - 1)) - 1;

	pt->nhi = 0;
	for (i = 0; i < s; i++) {
		pt->nlo[i] = rows[i] & mask & 0xffff;
		pt->nhi |= ((rows[i] & mask) >> 16) << (4 * i);
	}
	pt->s = s;
	pt->flag = 2;
}

/* Half @half of (@col, @row) is flagged: out of the unflagged, new if @now. */
static void bfly_mbfly_flagged(struct bfly_mbfly_st *st, u32 col, u32 row, u32 half, bool now)
{
	size_t i = ((size_t)col * 2 + half) * st->g->ports + row;

	bfly_mbfly_bclr(st->unf, i);
	if (now)
		bfly_mbfly_bset(st->nf, i);
}

/*
 * @n new buffers (ghosts if @ghost) of a flagged half go to its slots, the
 * least loaded first, W / s each at most (beyond: counted). A half that
 * took Step 1 empty selects its neighbours now. Returns the last slot.
 */
static u32 bfly_mbfly_place(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 n,
			    bool ghost)
{
	u32 i, best = 0, cap, t;

	if (!pt->s) {
		size_t idx = pt - st->port, node = idx / 2;
		u32 col = node / st->g->ports, row = node % st->g->ports, n;

		n = bfly_mbfly_distinct(st, col, row, idx & 1, st->nb);
		bfly_mbfly_select(st, pt, col, st->nb, bfly_mbfly_slots(n));
		pt->flag = 1;
	}
	cap = bfly_mbfly_cap(pt);
	while (n) {
		for (i = 1, best = 0; i < pt->s; i++)
			if (pt->load[i] < pt->load[best])
				best = i;
		t = pt->load[best] < cap ? min_t(u32, n, cap - pt->load[best]) : n;
		if (pt->load[best] >= cap)
			st->res->cap_overflows += n;
		if (pt->load[best] + t > U16_MAX) {
			st->err = -EOVERFLOW;
			return best;
		}
		pt->load[best] += t;
		if (ghost)
			pt->gs[best] += t;
		n -= t;
	}
	return best;
}

/*
 * Phase 1 in one half of the c-splitters: Step 1 (or the fallback), Z
 * rounds of Step 2, and Step 4's g' for the outputs in that half.
 */
static int bfly_mbfly_phase1(struct bfly_mbfly_st *st, u32 col, u32 half)
{
	const struct bfly_mbfly *g = st->g;
	struct bfly_mbfly_result *res = st->res;
	size_t base = ((size_t)col * 2 + half) * g->ports, end = base + g->ports, x;
	u32 r, i, j, np = 0, z, *nb, pl[BFLY_MBFLY_R], polled = 0;

	/* the unflagged halves only, in row order */
	for (x = bfly_mbfly_bnext(st->unf, base, end); x < end;
	     x = bfly_mbfly_bnext(st->unf, x + 1, end)) {
		struct bfly_mbfly_port *pt;
		u32 n;

		r = x - base;
		pt = bfly_mbfly_port_at(st, col, r, half);
		if (!(++polled & 0xfff) && bfly_should_stop())
			return -EINTR;
		if (1U << pt->wexp <= res->h && !pt->alive && !pt->ghosts) {
			pt->flag = 1;	/* Step 1; selects when a buffer comes */
			bfly_mbfly_flagged(st, col, r, half, false);
			continue;
		}
		nb = st->nb + (size_t)np * g->d;
		n = bfly_mbfly_distinct(st, col, r, half, nb);
		if (1U << pt->wexp <= res->h || pt->age >= res->patience) {
			res->forced += 1U << pt->wexp > res->h;
			bfly_mbfly_select(st, pt, col, nb, bfly_mbfly_slots(n));
			bfly_mbfly_flagged(st, col, r, half, true);
			continue;
		}
		pt->s = bfly_mbfly_slots(n);
		st->nc[np] = n;
		st->pw[np] = pt->wexp;
		st->ps[np] = pt->s;
		st->pend[np++] = r;
	}
	for (z = 0; z <= res->z && np; z++) {
		u32 left = 0, granted = 0;

		/* 2.1: requests, each for one batch size 2^e */
		for (i = 0; i < np; i++) {
			u64 bit = BIT_ULL(st->pw[i]);

			nb = st->nb + (size_t)i * g->d;
			for (j = 0; j < st->nc[i]; j++) {
				st->m2[nb[j]] |= st->m1[nb[j]] & bit;
				st->m1[nb[j]] |= bit;
			}
		}
		if (z == res->z)
			break;	/* the last iteration's requests stand: Step 4 */
		/* 2.2, 2.3: grants; R of them set the flag and cancel */
		for (i = 0; i < np; i++) {
			u32 row = st->pend[i], n = 0;
			u64 bit = BIT_ULL(st->pw[i]);

			nb = st->nb + (size_t)i * g->d;
			for (j = 0; j < st->nc[i] && n < st->ps[i]; j++)
				if (!(st->m2[nb[j]] & bit))
					pl[n++] = nb[j];
			if (n == st->ps[i]) {
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, col, row, half);

				bfly_mbfly_select(st, pt, col, pl, n);
				bfly_mbfly_flagged(st, col, row, half, true);
				st->pw[i] = 0xff;
				granted++;
			}
		}
		for (i = 0; i < np; i++) {
			nb = st->nb + (size_t)i * g->d;
			for (j = 0; j < st->nc[i]; j++)
				st->m1[nb[j]] = st->m2[nb[j]] = 0;
			if (st->pw[i] == 0xff)
				continue;
			if (left != i) {
				st->pend[left] = st->pend[i];
				st->nc[left] = st->nc[i];
				st->pw[left] = st->pw[i];
				st->ps[left] = st->ps[i];
				memcpy(st->nb + (size_t)left * g->d, nb, g->d * sizeof(u32));
			}
			left++;
		}
		np = left;
		/* the same requests again would get the same answers */
		if (!granted)
			z = res->z - 1;
		if (bfly_should_stop())
			return -EINTR;
	}
	/* Step 4: g' = sum over the batch sizes still asked of 2^e / s */
	for (i = 0; i < np; i++) {
		struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, col, st->pend[i], half);

		nb = st->nb + (size_t)i * g->d;
		for (j = 0; j < st->nc[i]; j++) {
			u64 bits = st->m1[nb[j]];
			u32 b = ilog2(st->ps[i]);
			u32 *gp = &st->gp[(size_t)(col + 1) * g->ports + nb[j]];

			bfly_mbfly_bset(st->vis, (size_t)(col + 1) * g->ports + nb[j]);

			while (bits) {
				u32 e = __builtin_ctzll(bits);

				*gp += e >= b ? 1U << (e - b) : 0;
				st->wtot[col + 1] += e >= b ? 1U << (e - b) : 0;
				bits &= bits - 1;
			}
			st->m1[nb[j]] = st->m2[nb[j]] = 0;
		}
		pt->age++;
	}
	return 0;
}

/* Step 3: buffers of the inputs flagged this stage go to their slots. */
static void bfly_mbfly_assign(struct bfly_mbfly_st *st, u32 top)
{
	const struct bfly_mbfly *g = st->g;
	u32 i, c, h;

	for (i = 0; i < st->count; i++) {
		struct bfly_mbfly_m *m = &st->m[i];
		struct bfly_mbfly_port *pt;

		if (m->done || m->slot != BFLY_MBFLY_NOSLOT || m->col > top)
			continue;
		h = bfly_mbfly_half(g, m->col, st->msgs[i].dst);
		pt = bfly_mbfly_port_at(st, m->col, m->row, h);
		if (!pt->flag)
			continue;
		m->slot = bfly_mbfly_place(st, pt, 1, false);
		m->next = bfly_mbfly_nbr(pt, g->log, m->col, m->row, h, m->slot);
	}
	/* the halves flagged this stage, each on its own: any order */
	for (c = 0; c <= top; c++) {
		for (h = 0; h < 2; h++) {
			size_t base = ((size_t)c * 2 + h) * g->ports, end = base + g->ports, x;

			for (x = bfly_mbfly_bnext(st->nf, base, end); x < end;
			     x = bfly_mbfly_bnext(st->nf, x + 1, end)) {
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, c, x - base, h);

				bfly_mbfly_bclr(st->nf, x);
				pt->flag = 1;
				if (pt->ghosts)
					bfly_mbfly_place(st, pt, pt->ghosts, true);
			}
		}
	}
}

/* Sets a half's ghosts to @want, taken from or given to its slots if flagged. */
static void bfly_mbfly_ghosts(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 col,
			      u32 want)
{
	u32 i, n, t;

	if (pt->ghosts > want && pt->flag) {
		n = pt->ghosts - want;
		for (i = pt->s; n && i-- > 0;) {
			t = min_t(u32, n, pt->gs[i]);
			pt->gs[i] -= t;
			pt->load[i] -= t;
			n -= t;
		}
	}
	if (pt->ghosts < want && pt->flag)
		bfly_mbfly_place(st, pt, want - pt->ghosts, true);
	st->gtot[col] += want;
	st->gtot[col] -= pt->ghosts;
	pt->ghosts = want;
}

/*
 * g'' of columns 1 .. @last from the messages and ghosts assigned to
 * them, and their ghosts set to g' + g'' in both halves, column by column
 * upward so each sees its inputs' ghosts as they now are.
 */
static void bfly_mbfly_sweep(struct bfly_mbfly_st *st, u32 last)
{
	const struct bfly_mbfly *g = st->g;
	size_t n = g->ports, x, end;
	u64 gpp[BFLY_MBFLY_MAX_LOG + 1] = { 0 };
	u32 i, c, h, k;

	/* g'' is nonzero only where vis is set */
	for (x = bfly_mbfly_bnext(st->vis, n, (last + 1) * n); x < (last + 1) * n;
	     x = bfly_mbfly_bnext(st->vis, x + 1, (last + 1) * n))
		st->gpp[x] = 0;
	for (i = 0; i < st->count; i++) {
		const struct bfly_mbfly_m *m = &st->m[i];

		if (!m->done && m->slot != BFLY_MBFLY_NOSLOT && m->col < last) {
			x = (m->col + 1) * n + m->next;
			st->gpp[x]++;
			bfly_mbfly_bset(st->vis, x);
			gpp[m->col + 1]++;
		}
	}
	/* a column with no ghost that should hold none is skipped */
	for (c = 1; c <= last; c++) {
		end = c * n;
		for (x = bfly_mbfly_bnext(st->vis, end - n, end); x < end && st->gtot[c - 1];
		     x = bfly_mbfly_bnext(st->vis, x + 1, end)) {
			u32 r = x - (end - n);

			for (h = 0; h < 2; h++) {
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, c - 1, r, h);

				if (!pt->flag || !pt->ghosts)
					continue;
				for (k = 0; k < pt->s; k++) {
					size_t y = end + bfly_mbfly_nbr(pt, g->log, c - 1, r, h, k);

					st->gpp[y] += pt->gs[k];
					bfly_mbfly_bset(st->vis, y);
					gpp[c] += pt->gs[k];
				}
			}
		}
		if (c == g->log)
			break;
		if (!st->gtot[c] && !st->wtot[c] && !gpp[c])
			continue;
		/* every node with a ghost, a g' or a g'' has its vis bit */
		for (x = bfly_mbfly_bnext(st->vis, end, end + n); x < end + n;
		     x = bfly_mbfly_bnext(st->vis, x + 1, end + n)) {
			u32 want = st->gp[x] + st->gpp[x];

			for (h = 0; h < 2; h++) {
				struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, c, x - end, h);

				bfly_mbfly_ghosts(st, pt, c, want);
			}
			if (!want)
				bfly_mbfly_bclr(st->vis, x);
		}
	}
}

/* Phase 2, Step 1.1 and the arrival of 1.2: one round of sending. */
static void bfly_mbfly_send(struct bfly_mbfly_st *st)
{
	const struct bfly_mbfly *g = st->g;
	struct bfly_mbfly_result *res = st->res;
	u32 i, k;

	st->round++;
	for (i = 0; i < st->count; i++) {
		struct bfly_mbfly_m *m = &st->m[i];
		u32 dst = st->msgs[i].dst, c, h, b;
		struct bfly_mbfly_port *pt;

		if (m->done || m->slot == BFLY_MBFLY_NOSLOT || m->moved == st->round)
			continue;
		pt = bfly_mbfly_port_at(st, m->col, m->row, bfly_mbfly_half(g, m->col, dst));
		pt->alive--;
		m->moved = st->round;
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
			continue;
		}
		h = bfly_mbfly_half(g, c, dst);
		pt = bfly_mbfly_port_at(st, c, m->row, h);
		pt->alive++;
		if (!pt->ghosts) {
			res->ghost_misses++;
			if (pt->flag)
				m->slot = bfly_mbfly_place(st, pt, 1, false);
		} else {
			pt->ghosts--;
			st->gtot[c]--;
			for (k = 0; pt->flag && k < pt->s; k++) {
				if (pt->gs[k]) {
					pt->gs[k]--;
					m->slot = k;
					break;
				}
			}
			if (pt->flag && m->slot == BFLY_MBFLY_NOSLOT)
				m->slot = bfly_mbfly_place(st, pt, 1, false);
		}
		if (m->slot != BFLY_MBFLY_NOSLOT)
			m->next = bfly_mbfly_nbr(pt, g->log, c, m->row, h, m->slot);
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
		bfly_mbfly_port_at(st, 0, m->row, h)->alive++;
		r = ++st->through[m->row];
		res->max_through = max_t(u32, res->max_through, r);
		if (st->paths)
			st->paths[(size_t)i * (g->log + 1)] = m->row;
	}
	for (r = 0; r < g->ports; r++) {
		for (h = 0; h < 2; h++) {
			struct bfly_mbfly_port *pt = bfly_mbfly_port_at(st, 0, r, h);

			pt->wexp = bfly_mbfly_above(pt->alive);
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

	/* g' of columns 1 .. top + 1 anew: nonzero only where vis is set */
	for (x = bfly_mbfly_bnext(st->vis, n, (top + 2) * n); x < (top + 2) * n;
	     x = bfly_mbfly_bnext(st->vis, x + 1, (top + 2) * n))
		st->gp[x] = 0;
	for (c = 0; c <= top; c++) {
		st->wtot[c + 1] = 0;
		for (h = 0; h < 2; h++) {
			err = bfly_mbfly_phase1(st, c, h);
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

				pt->wexp = bfly_mbfly_above(pt->alive + pt->ghosts);
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
