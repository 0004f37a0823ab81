// SPDX-License-Identifier: GPL-2.0
/*
 * RLS round k on the 2-ary n-flat, as bfly_flatfly_round() runs it with
 * the round's destinations and labels, from k alone and without placing
 * every hop (Documentation/routing.rst, "Speed of the k-ary n-fly and
 * flatfly code").
 *
 * Mapped: packet i walks from router a = i >> 1 to m = label >> n, then
 * to b = dest >> 1, top digit first. bfly2's RLS rounds have no conflict,
 * so each butterfly crosses every cross edge once: every directed channel
 * carries one hop of a first walk and one of a second walk. The loads are
 * fixed (2 on every channel), and only the cycles need work. Undelayed, a
 * hop's cycle is 1 + its place on the path. A first-walk hop at digit e
 * has at most (n - 2) - e hops before it, so a second-walk hop can meet
 * one only when h1 + h2 + e0 <= n - 1 (h1, h2 the walks' hops, e0 the
 * lowest digit of the second walk): a few packets a round. Their partners
 * are found by inverting the route, and the packets a collision delays
 * are placed in order, each against the other user of its channels.
 *
 * Minimal, even k: both packets of router a go to router a - k / 2 on
 * one path that no other router uses (its channels determine a): the
 * second follows the first one cycle behind. Minimal, odd k: as
 * bfly_flatfly_round().
 */
#include "compat.h"
#include "flatfly.h"
#include "rls.h"

/* Packets whose placement the fast path tracks; more go the general way. */
#define RLS_TRACKED 64

/* A round: N - 1, n, the digits, k and pi-hat's argument for odd k */
struct rls_round {
	u32 mask;
	u32 n;
	u32 dims;
	u32 k;
	u32 c;
};

/* A packet's route: its routers, the walks' differing digits, hops */
struct rls_route {
	u32 a;
	u32 m;
	u32 b;
	u32 diff[2];
	u32 h1;
};

/* A delayed packet and the cycle of each hop, by walk and digit */
struct rls_placed {
	u32 i;
	u8 t[2][BFLY_MAX_PORTS_LOG2];
};

/* The workspace: packets to place (sorted) and packets placed */
struct rls_work {
	u32 pending[RLS_TRACKED];
	u32 npending;
	u32 ndone;
	struct rls_placed done[RLS_TRACKED];
};

/* Packet @i's route, as bfly_rls_labels_round() labels it */
static __always_inline void rls_route(const struct rls_round *r, u32 i, struct rls_route *p)
{
	u32 d = (i - r->k) & r->mask;
	u32 x = (r->k & 1) ? (r->c - i) & r->mask : d;
	u32 pi = x ^ (r->mask & -((x ^ (x >> (r->n - 1))) & 1));

	p->a = i >> 1;
	p->m = pi >> 1;
	p->b = d >> 1;
	p->diff[0] = p->a ^ p->m;
	p->diff[1] = p->m ^ p->b;
	p->h1 = hweight32(p->diff[0]);
}

/* The router walk @w of @p crosses digit @e from */
static inline u32 rls_router(const struct rls_route *p, u32 w, u32 e)
{
	u32 low = (2U << e) - 1;

	return w ? (p->b & ~low) | (p->m & low) : (p->m & ~low) | (p->a & low);
}

/* The undelayed cycle of walk @w's hop at digit @e */
static inline u32 rls_naive(const struct rls_route *p, u32 w, u32 e)
{
	return 1 + (w ? p->h1 : 0) + hweight32(p->diff[w] >> e >> 1);
}

/*
 * The packet whose walk @w crosses digit @e from router @y, or U32_MAX.
 * Walk 0 fixes the source's bits 1 .. e+1 and pi-hat's bits e+1 .. n-1;
 * walk 1 pi-hat's bits 1 .. e+1 and the destination's bits e+1 .. n-1.
 * The bits left (a source or destination bit 0, pi-hat's complement or
 * not) give four candidates; the one whose route matches is the packet.
 */
static u32 rls_user(const struct rls_round *r, u32 w, u32 y, u32 e)
{
	u32 low = (2U << e) - 1, hi = (y & ~low) | (~y & (1U << e));
	u32 xm = (r->k & 1) ? r->mask >> 1 : 0, j, d, x, i;
	struct rls_route p;

	for (j = 0; j < 4; j++) {
		u32 s = r->mask & -(j >> 1);

		if (!w) {
			/* source bits 0 .. e+1, then pi-hat's upper bits */
			u32 lo2 = (4U << e) - 1, src = ((y & low) << 1) | (j & 1);

			x = ((src - r->k) & lo2) ^ (xm & lo2);
			x = (x & low) | ((((hi << 1) ^ s) & r->mask) & ~low);
			d = x ^ xm;
		} else {
			x = (((y & low) << 1) ^ s) & (low << 1);
			d = ((hi << 1) & ~low) | ((x ^ xm) & (low << 1) & low) | (j & 1);
		}
		i = (d + r->k) & r->mask;
		rls_route(r, i, &p);
		if ((p.diff[w] >> e & 1) && rls_router(&p, w, e) == y)
			return i;
	}
	return U32_MAX;
}

/* Add @i to the packets to place, in order; false when full */
static bool rls_pend(struct rls_work *x, u32 i)
{
	u32 j = x->npending;

	while (j && x->pending[j - 1] >= i) {
		if (x->pending[j - 1] == i)
			return true;
		j--;
	}
	if (x->npending == RLS_TRACKED)
		return false;
	memmove(x->pending + j + 1, x->pending + j, (x->npending - j) * sizeof(u32));
	x->pending[j] = i;
	x->npending++;
	return true;
}

/* The cycle packet @q crosses walk @w's digit @e: placed, or undelayed */
static u32 rls_cycle(const struct rls_round *r, const struct rls_work *x, u32 q, u32 w, u32 e)
{
	struct rls_route p;
	u32 j;

	for (j = 0; j < x->ndone; j++)
		if (x->done[j].i == q)
			return x->done[j].t[w][e];
	rls_route(r, q, &p);
	return rls_naive(&p, w, e);
}

/*
 * Place packet @i: each hop the cycle after the previous one, or the one
 * after that when the channel's other packet, a lower one, holds it.
 * Packets above @i that a delayed hop now meets are added. Return: its
 * last hop's cycle, or 0 when the tracking or the inversion fails.
 */
static u32 rls_place(const struct rls_round *r, struct rls_work *x, u32 i)
{
	struct rls_placed *pl = &x->done[x->ndone];
	struct rls_route p, q;
	u32 w, e, y, o, t = 0;

	if (x->ndone == RLS_TRACKED)
		return 0;
	rls_route(r, i, &p);
	pl->i = i;
	for (w = 0; w < 2; w++) {
		for (e = r->dims; e-- > 0;) {
			if (!(p.diff[w] >> e & 1))
				continue;
			y = rls_router(&p, w, e);
			o = rls_user(r, !w, y, e);
			if (o == U32_MAX || t >= 250)
				return 0;
			t++;
			if (o < i && rls_cycle(r, x, o, !w, e) == t)
				t++;
			pl->t[w][e] = t;
			if (o > i && t != rls_naive(&p, w, e)) {
				rls_route(r, o, &q);
				if (rls_naive(&q, !w, e) == t && !rls_pend(x, o))
					return 0;
			}
		}
	}
	x->ndone++;
	return t;
}

/* Mapped round: the last hop's cycle, or 0 to run it the general way */
static u32 rls_mapped_last(const struct rls_round *r, struct rls_work *x)
{
	u32 i, e, y, o, t, last = 0;
	struct rls_route p, q;

	x->npending = 0;
	x->ndone = 0;
	for (i = 0; i <= r->mask; i++) {
		rls_route(r, i, &p);
		t = p.h1 + hweight32(p.diff[1]);
		if (t > last)
			last = t;
		if (likely(!p.diff[1] || t + __builtin_ctz(p.diff[1]) > r->dims))
			continue;
		/* a second-walk hop that may meet a first-walk hop */
		for (e = 0; e < r->dims; e++) {
			if (!(p.diff[1] >> e & 1))
				continue;
			y = rls_router(&p, 1, e);
			o = rls_user(r, 0, y, e);
			if (o == U32_MAX)
				return 0;
			rls_route(r, o, &q);
			if (rls_naive(&q, 0, e) != rls_naive(&p, 1, e))
				continue;
			if (!rls_pend(x, max_t(u32, i, o)))
				return 0;
		}
	}
	for (i = 0; i < x->npending; i++) {
		t = rls_place(r, x, x->pending[i]);
		if (!t)
			return 0;
		if (t > last)
			last = t;
	}
	return last;
}

/* Minimal round, even k: Documentation/routing.rst */
static void rls_minimal_even(const struct bfly_flatfly *f, u32 k,
			     struct bfly_flatfly_round_stats *st)
{
	u32 a, h, c = k >> 1, top = 0, hops = 0, rmask = f->routers - 1;

	for (a = 0; a < f->routers; a++) {
		h = hweight32(a ^ ((a - c) & rmask));
		hops += h;
		if (h > top)
			top = h;
	}
	st->hops = 2 * hops;
	st->excess = hops;
	st->max_load = hops ? 2 : 0;
	st->cycles = hops ? top + 3 : 0;
}

/**
 * bfly_flatfly_rls_workspace_size() - memory bfly_flatfly_rls_run() needs
 * @f: the shape
 *
 * Return: bytes: bfly_flatfly_round()'s and the fast path's.
 */
size_t bfly_flatfly_rls_workspace_size(const struct bfly_flatfly *f)
{
	return max_t(size_t, bfly_flatfly_round_workspace_size(f), sizeof(struct rls_work));
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_rls_workspace_size);

/**
 * bfly_flatfly_rls_run() - RLS round @k on the 2-ary n-flat
 * @f: a 2-ary n-flat
 * @k: the round, below N
 * @dest: the round's destinations, (i - @k) mod N for terminal i
 * @labels: scratch, N u64
 * @minimal: minimal dimension-order routes instead of the mapped ones
 * @st: receives the round's figures
 * @work: bfly_flatfly_rls_workspace_size() bytes
 *
 * The figures bfly_flatfly_round() gives for @dest with the round's RLS
 * labels (or none, for @minimal), which it runs when the fast path does
 * not apply.
 *
 * Return: 0; -EINVAL for a radix other than 2 or @k of N or more; -EINTR.
 */
int bfly_flatfly_rls_run(const struct bfly_flatfly *f, u32 k, const u32 *dest, u64 *labels,
			 bool minimal, struct bfly_flatfly_round_stats *st, void *work)
{
	struct rls_round r = {
		.mask = f->fly.ports - 1, .n = f->fly.n, .dims = f->dims, .k = k,
		.c = f->fly.ports / 2 + k - 1,
	};
	u32 last;
	int err;

	if (f->fly.k != 2 || k >= f->fly.ports)
		return -EINVAL;
	if (minimal && !(k & 1)) {
		rls_minimal_even(f, k, st);
		return 0;
	}
	if (!minimal) {
		last = rls_mapped_last(&r, work);
		if (last) {
			st->hops = f->fly.ports * f->dims;
			st->excess = f->channels;
			st->max_load = 2;
			st->cycles = last + 2;
			return 0;
		}
		err = bfly_rls_labels_round(f->fly.ports, k, labels);
		if (err)
			return err;
	}
	return bfly_flatfly_round(f, dest, minimal ? NULL : labels, st, work);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_rls_run);
