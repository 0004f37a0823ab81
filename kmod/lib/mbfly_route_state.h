/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multibutterfly routing's state (mbfly_route.c, mbfly_route_book.c):
 * each message's place, each node half's counter, slots and ghosts, the
 * bitmaps of active halves and nodes, and the bookkeeping both files share.
 */
#ifndef _BFLY_MBFLY_ROUTE_STATE_H
#define _BFLY_MBFLY_ROUTE_STATE_H

#include "compat.h"
#include "mbfly.h"

#define BFLY_MBFLY_NOSLOT 0xff
#define BFLY_MBFLY_LOG_R 3

/* One message's place: its node, and the neighbour its buffer is assigned to. */
struct bfly_mbfly_m {
	u32 row;
	u32 next;
	u8 col;
	u8 slot;	/* BFLY_MBFLY_NOSLOT until assigned */
	u8 done;
	u8 pad;
};

/*
 * One half (upper or lower buffers) of a node of columns 0 .. log N - 1
 * (its messages and a copy of wexp are in the hot arrays alive and wexp,
 * read without it): its counter W = 2^wexp, flag F, and per slot (S of
 * them, S = min(d, R) rounded down to a power of 2: st->slots) in @v its
 * selected neighbour as an offset in the half of the next column it is
 * in (low 16 bits, v[0 .. S-1]), the buffers assigned to it (v[S ..
 * 2S-1]) and the ghosts among them (v[2S .. 3S-1]); at N > 2^17 the 4
 * bits above each offset follow (v[3S], v[3S + 1]). 16 bytes at S = 1,
 * 32 at S = 2 and 4, 64 at S = 8: both halves of a node in one cache line
 * where d < 8 (st->pshift). A slot past %U16_MAX buffers, beyond Theorem
 * 2's 2 h-bar, stops the routing with -EOVERFLOW.
 */
struct bfly_mbfly_port {
	u32 ghosts;
	u8 wexp;
	u8 flag;	/* 0, 1 or 2 (set this stage, ghosts not yet assigned) */
	u8 s;
	u8 unused;
	u16 v[];
};

/* The routing's state, all in the caller's workspace. */
struct bfly_mbfly_st {
	const struct bfly_mbfly *g;
	const struct bfly_mbfly_msg *msgs;
	struct bfly_mbfly_result *res;
	u32 *paths;
	u32 count;
	struct bfly_mbfly_m *m;
	struct bfly_mbfly_port *port;	/* (col N + row) 2 + half, 2^pshift bytes each */
	u32 slots;	/* S: slots a node half has room for */
	u32 pshift;
	bool wide;	/* offsets past 16 bits: N > 2^17 */
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
	u32 *rhead;	/* per output: its last request (i d + j of nb), U32_MAX: none */
	u32 *rnext;	/* per request: the output's request before it */
	u32 *cand;	/* the inputs a round of grants looks at */
	u32 *gl;	/* the inputs granted in a round */
	u32 *imark;	/* per input: the round (gen) that made it a candidate */
	const u32 *table;	/* the neighbour table, or NULL */
	u64 *keys;	/* the d keys of splitter half kid - 1 (0: none) */
	u64 kid;
	u32 *stamp;	/* per row: the distinct() call or round that last saw it */
	u32 gen;
	u64 *unf;	/* halves not flagged: bit (col 2 + half) N + row */
	u64 *nf;	/* halves flagged this stage (flag 2), the same bits */
	u64 *sent;	/* messages with a slot, sent next round: bit i */
	u32 *alive;	/* messages not yet forwarded, per half: (col 2 + half) N + row */
	u8 *wexp;	/* each half's W exponent (as in its port), the same index */
	u64 *vis;	/* nodes whose g' may be nonzero: bit col N + row */
	u64 *dirty;	/* nodes whose g' + g'' or ghosts changed: the same bits */
	/* per splitter half (col 2 + half): its last grant round granted nothing */
	bool quiet[2 * BFLY_MBFLY_MAX_LOG];
	/* per splitter half: its Phase 1 runs this stage */
	bool redo[2 * BFLY_MBFLY_MAX_LOG];
	int err;	/* -EOVERFLOW: a slot's count past U16_MAX */
};

static inline struct bfly_mbfly_port *bfly_mbfly_port_at(struct bfly_mbfly_st *st, u32 col,
							 u32 row, u32 half)
{
	size_t i = ((size_t)col * st->g->ports + row) * 2 + half;

	return (struct bfly_mbfly_port *)((u8 *)st->port + (i << st->pshift));
}

/* The index of half @pt: (col N + row) 2 + half */
static inline size_t bfly_mbfly_port_idx(const struct bfly_mbfly_st *st,
					 const struct bfly_mbfly_port *pt)
{
	return ((const u8 *)pt - (const u8 *)st->port) >> st->pshift;
}

/* The buffers assigned to each slot of @pt */
static inline u16 *bfly_mbfly_load(const struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt)
{
	return pt->v + st->slots;
}

/* The ghosts among them */
static inline u16 *bfly_mbfly_gs(const struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt)
{
	return pt->v + 2 * st->slots;
}

/* A half's index in the bitmaps and hot arrays: (@col 2 + @half) N + @row */
static inline size_t bfly_mbfly_hidx(const struct bfly_mbfly_st *st, u32 col, u32 row, u32 half)
{
	return ((size_t)col * 2 + half) * st->g->ports + row;
}

static inline void bfly_mbfly_bset(u64 *b, size_t i)
{
	b[i >> 6] |= BIT_ULL(i & 63);
}

static inline bool bfly_mbfly_btest(const u64 *b, size_t i)
{
	return b[i >> 6] >> (i & 63) & 1;
}

static inline void bfly_mbfly_bclr(u64 *b, size_t i)
{
	b[i >> 6] &= ~BIT_ULL(i & 63);
}

/* The first set bit of @b from @i, or @end */
static inline size_t bfly_mbfly_bnext(const u64 *b, size_t i, size_t end)
{
	while (i < end) {
		u64 w = b[i >> 6] >> (i & 63);

		if (w)
			return min_t(size_t, i + __builtin_ctzll(w), end);
		i = (i | 63) + 1;
	}
	return end;
}

/* The set bits of word @wi of @b that lie in [@start, @end) */
static inline u64 bfly_mbfly_word(const u64 *b, size_t wi, size_t start, size_t end)
{
	u64 mask = ~0ULL;

	if (wi == start >> 6)
		mask &= ~0ULL << (start & 63);
	if (wi == (end - 1) >> 6 && (end & 63))
		mask &= BIT_ULL(end & 63) - 1;
	return b[wi] & mask;
}

/*
 * The same bits, cleared in @b: a loop over them sees the bits set
 * meanwhile only on its next pass.
 */
static inline u64 bfly_mbfly_take(u64 *b, size_t wi, size_t start, size_t end)
{
	u64 w = bfly_mbfly_word(b, wi, start, end);

	b[wi] &= ~w;
	return w;
}

/* Bitmap words for @bits bits */
static inline u64 bfly_mbfly_words(u64 bits)
{
	return (bits + 63) / 64;
}

/* The offset of slot @k's neighbour of half @pt in the half of the next column it is in */
static inline u32 bfly_mbfly_off(const struct bfly_mbfly_st *st,
				 const struct bfly_mbfly_port *pt, u32 k)
{
	u32 off = pt->v[k];

	if (st->wide) {
		const u16 *hi = pt->v + 3 * st->slots;

		off |= (((hi[0] | (u32)hi[1] << 16) >> (4 * k)) & 15) << 16;
	}
	return off;
}

/* The row of slot @k's neighbour of half @half of node (@col, @row) */
static inline u32 bfly_mbfly_nbr(const struct bfly_mbfly_st *st,
				 const struct bfly_mbfly_port *pt, u32 col, u32 row, u32 half,
				 u32 k)
{
	u32 b = st->g->log - col;

	return (row >> b) << b | half << (b - 1) | bfly_mbfly_off(st, pt, k);
}

/*
 * The node index (col + 1) N + row of the first row of the half of column
 * col + 1 that half @pt's neighbours are in: a slot's neighbour is that
 * plus the slot's offset.
 */
static inline size_t bfly_mbfly_next_base(const struct bfly_mbfly_st *st,
					  const struct bfly_mbfly_port *pt)
{
	size_t idx = bfly_mbfly_port_idx(st, pt), node = idx >> 1;
	u32 log = st->g->log, col = node >> log, row = node & (st->g->ports - 1);
	u32 b = log - col;

	return (size_t)(col + 1) * st->g->ports + ((row >> b) << b | (idx & 1) << (b - 1));
}

/* A new stamp for st->stamp and st->imark: none of their entries holds it */
static inline u32 bfly_mbfly_gen(struct bfly_mbfly_st *st)
{
	if (!++st->gen) {
		memset(st->stamp, 0, st->g->ports * sizeof(u32));
		memset(st->imark, 0, st->g->ports * sizeof(u32));
		st->gen = 1;
	}
	return st->gen;
}

/*
 * Input @i (of the inputs asking) asks output @o for its batch size:
 * @o's masks, and @o's list of requests gets request @e unless U32_MAX.
 */
static inline void bfly_mbfly_ask(struct bfly_mbfly_st *st, u32 o, u32 i, u32 e)
{
	u64 bit = BIT_ULL(st->pw[i]);

	st->m2[o] |= st->m1[o] & bit;
	st->m1[o] |= bit;
	if (e != U32_MAX) {
		st->rnext[e] = st->rhead[o];
		st->rhead[o] = e;
	}
}

/* The smallest power of 2 greater than @x, as an exponent */
static inline u8 bfly_mbfly_above(u32 x)
{
	return x ? ilog2(x) + 1 : 0;
}

/*
 * g'' of node (@col, @row) changes by @delta (a message or ghosts assigned
 * to it or taken away): kept up to date, the node marked for Step 5.
 */
static inline void bfly_mbfly_gpp_add(struct bfly_mbfly_st *st, u32 col, u32 row, s32 delta)
{
	size_t x = (size_t)col * st->g->ports + row;

	st->gpp[x] += delta;
	bfly_mbfly_bset(st->dirty, x);
}

/*
 * Ghosts on slot @k of half @pt change by @delta: its neighbour's g'' too
 * (@base: bfly_mbfly_next_base() of @pt), the neighbour marked for Step 5.
 */
static inline void bfly_mbfly_gs_add(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt,
				     u32 k, s32 delta, size_t base)
{
	size_t x = base + bfly_mbfly_off(st, pt, k);

	bfly_mbfly_gs(st, pt)[k] += delta;
	st->gpp[x] += delta;
	bfly_mbfly_bset(st->dirty, x);
}

/* Slots an input with @n distinct neighbours selects: a power of 2 up to R */
static inline u32 bfly_mbfly_slots(u32 n)
{
	return n >= BFLY_MBFLY_R ? BFLY_MBFLY_R : 1U << ilog2(n);
}

/*
 * Half @pt of column @col takes @rows as its @s slots' neighbours; an
 * unflagged half's slots are read only once it is flagged.
 */
static inline void bfly_mbfly_choose(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt,
				     u32 col, const u32 *rows, u32 s)
{
	u32 i, mask = (1U << (st->g->log - col - 1)) - 1, hi = 0;

	for (i = 0; i < s; i++)
		pt->v[i] = rows[i] & mask & 0xffff;
	if (st->wide) {
		for (i = 0; i < s; i++)
			hi |= ((rows[i] & mask) >> 16) << (4 * i);
		pt->v[3 * st->slots] = hi & 0xffff;
		pt->v[3 * st->slots + 1] = hi >> 16;
	}
	pt->s = s;
}

/* Half @pt of column @col selects @rows; flag 2, the bitmaps follow. */
static inline void bfly_mbfly_select(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt,
				     u32 col, const u32 *rows, u32 s)
{
	bfly_mbfly_choose(st, pt, col, rows, s);
	pt->flag = 2;
}

/* Half @half of (@col, @row) is flagged: out of the unflagged, new if @now. */
static inline void bfly_mbfly_flagged(struct bfly_mbfly_st *st, u32 col, u32 row, u32 half,
				      bool now)
{
	size_t i = ((size_t)col * 2 + half) * st->g->ports + row;

	bfly_mbfly_bclr(st->unf, i);
	if (now)
		bfly_mbfly_bset(st->nf, i);
}

void bfly_mbfly_carve(struct bfly_mbfly_st *st, void *work);
u32 bfly_mbfly_distinct(struct bfly_mbfly_st *st, u32 col, u32 row, u32 half, u32 *nb);
u32 bfly_mbfly_port_shift(const struct bfly_mbfly *g);
u32 bfly_mbfly_place(struct bfly_mbfly_st *st, struct bfly_mbfly_port *pt, u32 n, bool ghost);
void bfly_mbfly_sweep(struct bfly_mbfly_st *st, u32 last);

#endif /* _BFLY_MBFLY_ROUTE_STATE_H */
