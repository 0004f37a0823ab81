// SPDX-License-Identifier: GPL-2.0
/*
 * h-relations: a list of messages (source, destination) in which every
 * port sends at most h and receives at most h of them is split into
 * exactly h rounds, each a partial permutation. The messages are the edges
 * of a bipartite multigraph of degree h (sources left, destinations
 * right), and a round is a colour class of a proper edge colouring, which
 * needs h colours and no more (Koenig).
 *
 * The method, in four steps:
 *
 *  1. Condense. On each side, the ports that have messages are packed in
 *     index order into groups whose degrees sum to at most h (next fit:
 *     a group closes when the next port does not fit). Two consecutive
 *     groups hold more than h edges, so a side has at most
 *     2 floor(count / (h + 1)) + 1 groups: the graph has n vertices a
 *     side, n h = O(count + h) edge slots, however many ports are idle.
 *     A colouring of the groups colours the ports: a port's edges are
 *     some of its group's, which all differ in colour.
 *  2. Fill. Dummy edges join deficient left and right groups in order
 *     until every group has degree h. The edges are stored left-major:
 *     left vertex u owns slots u d .. u d + d - 1 of a d-regular graph,
 *     each slot holding its right vertex and its message (or a dummy).
 *  3. Split (even d). The slots of a left vertex pair up (2k, 2k + 1), as
 *     do the edges of a right vertex in slot order (two sequential
 *     passes a slot at a time; at d = 2 by the XOR of a right vertex's
 *     two slots). Two edges paired at either end get different halves;
 *     the pairs chain the edges into even cycles
 *     (Euler circuits walked two edges at a time), which 32 interleaved
 *     walks, each prefetching its next pair, 2-colour; where walks meet,
 *     a union-find with parity reconciles them. Every vertex then has
 *     d / 2 edges of each half, and pair k's two edges land at slot k of
 *     either half: the halves are left-major again, written by one
 *     sequential pass. For h = 2^L the messages never move: the slots
 *     carry only right vertices (u16 where there are at most 2^16
 *     groups, placed through runs per bucket of slots: hrel_scatter.c),
 *     the caller's colour array holds each message's slot, each level
 *     keeps one bit a pair, the last its slots' colours, and sequential
 *     passes up give every slot its colour (u8 for h <= 256, u16 for
 *     h <= 2^16), which each message gathers (from 2^21 slots, bucket by
 *     bucket through the build's runs: hrel_unwind.c).
 *  4. Match (odd d). One perfect matching is taken out as a colour and
 *     the rest, (d - 1)-regular, compacted; d = 1 is a matching. The
 *     matching grows by random alternating walks (Goel, Kapralov and
 *     Khanna, "Perfect matchings in O(n log n) time in regular bipartite
 *     graphs"): from a random unmatched left vertex, a random edge other
 *     than the vertex's matched one, on to the right vertex's partner,
 *     until a right vertex is free; the loop-erased walk (last exits) is
 *     an augmenting path. The generator is seeded with a constant, so
 *     results are reproducible.
 *
 * Subgraphs are done depth first from an explicit stack, in two buffers
 * of slots used in turn: a subgraph's halves, or its rest after a
 * matching, go to the other buffer at the same offset. Degree 2 writes
 * its two colours straight to the caller's array.
 *
 * Cost: O(ports) to count and group, then O(count) per halving level:
 * O(ports + count log h) time for h a power of two. Each matching adds
 * O(n log n) expected steps and a pass over its subgraph; h has at most
 * h / 2 of them, so O(ports + count (log h + log count)) expected in
 * all. Memory: 8 bytes a port and 22 bytes an edge slot (for h = 2^L,
 * L / 16 more) (bfly_hrel_workspace_size()).
 */
#include "compat.h"
#include "hrel.h"
#include "hrel_entry.h"
#include "hrel_scatter.h"
#include "hrel_unwind.h"
#include "hrel_walk.h"

#define HREL_NONE U32_MAX
/* Messages ahead that a scatter or gather prefetches */
#define HREL_AHEAD 16
/*
 * Slots from which the final gather goes through the build's runs: below,
 * the slots' colours (a byte each for h <= 256) stay in the cache anyway
 */
#ifndef HREL_GATHER_RUNS
#define HREL_GATHER_RUNS BIT(21)
#endif
/* Depth of the subgraph stack: one entry per halving, and the current */
#define HREL_STACK 40

struct hrel_slot {
	u32 r;		/* the right vertex (group) */
	u32 msg;	/* the message, or BFLY_HREL_IDLE for a dummy */
};

struct hrel_job {
	u32 lo;		/* first slot */
	u32 d;		/* degree */
	u32 c;		/* first colour */
	u32 buf;	/* buffer holding the slots */
};

struct hrel_ws {
	u32 *gs, *gd;			/* per port: degree, then slot cursor, group */
	u32 *lcur, *rsum;		/* per group: end of messages, degree */
	u32 *pend, *mate_l, *mate_r, *last, *free;	/* per group */
	struct hrel_job *stack;
	struct hrel_slot *buf[2];
	struct hrel_pair *pr;		/* per pair: right partners, state */
	u32 *parent;			/* per segment: union-find */
	u32 *flip;			/* h = 2^L: per level, a bit a pair */
	struct hrel_walker *walker;
	u32 *run;			/* h = 2^L: the build's runs, or NULL */
	u32 rnd;
};

static size_t hrel_align(size_t sz)
{
	return (sz + 63) & ~(size_t)63;
}

/* Carve @bytes (64-byte aligned) at *@off of @base, which may be NULL. */
static void *hrel_part(u8 *base, size_t *off, size_t bytes)
{
	void *p = base ? base + *off : NULL;

	*off += hrel_align(bytes);
	return p;
}

/* Groups a side has at most: see step 1 of the file comment. */
static u64 hrel_groups(u32 ports, u32 count, u32 h)
{
	u64 n = 2 * (u64)(count / ((u64)h + 1)) + 1;

	n = min_t(u64, n, ports);
	return min_t(u64, n, count);
}

/* Words of one level's bits: one bit a pair. */
static u32 hrel_flip_words(size_t slots)
{
	return (u32)((slots / 2 + 31) / 32);
}

static size_t hrel_layout(u32 ports, u32 count, u32 h, void *work,
			  struct hrel_ws *ws)
{
	size_t n = hrel_groups(ports, count, h), slots = n * h, off = 0;
	struct hrel_ws sizing;
	u8 *base = work;

	if (!ws)
		ws = &sizing;
	ws->gs = hrel_part(base, &off, (size_t)ports * sizeof(u32));
	ws->gd = hrel_part(base, &off, (size_t)ports * sizeof(u32));
	ws->lcur = hrel_part(base, &off, n * sizeof(u32));
	ws->rsum = hrel_part(base, &off, n * sizeof(u32));
	ws->pend = hrel_part(base, &off, n * sizeof(u32));
	ws->mate_l = hrel_part(base, &off, n * sizeof(u32));
	ws->mate_r = hrel_part(base, &off, n * sizeof(u32));
	ws->last = hrel_part(base, &off, n * sizeof(u32));
	ws->free = hrel_part(base, &off, n * sizeof(u32));
	ws->stack = hrel_part(base, &off, HREL_STACK * sizeof(struct hrel_job));
	ws->buf[0] = hrel_part(base, &off, slots * sizeof(struct hrel_slot));
	ws->buf[1] = hrel_part(base, &off, slots * sizeof(struct hrel_slot));
	ws->pr = hrel_part(base, &off, slots / 2 * sizeof(struct hrel_pair));
	ws->parent = hrel_part(base, &off, slots / 2 * sizeof(u32));
	ws->walker = hrel_part(base, &off, HREL_WALKERS * sizeof(struct hrel_walker));
	ws->flip = hrel_part(base, &off, h > 1 && is_power_of_2(h) ?
			     (size_t)ilog2(h) * hrel_flip_words(slots) * sizeof(u32) : 0);
	return off;
}

/**
 * bfly_hrel_workspace_size() - memory bfly_hrel_colour() needs
 * @ports: ports on either side
 * @count: messages
 * @h: colours, at least the relation's degree
 *
 * With n = min(ports, count, 2 floor(count / (h + 1)) + 1) groups a side
 * and n h edge slots: 8 bytes a port, 28 bytes a group and 22 bytes
 * (and for h = 2^L, L / 16 more) a slot (two buffers of 8 bytes, 4 for
 * the pairs' right partners, which the walks overwrite with their state,
 * 2 for the union-find), in 64-byte aligned parts.
 *
 * Return: the size in bytes; 0 when @count is over
 * %BFLY_HREL_MAX_MESSAGES, @h is over @count, or the size overflows.
 */
size_t bfly_hrel_workspace_size(u32 ports, u32 count, u32 h)
{
	u64 slots = hrel_groups(ports, count, h) * h;

	if (count > BFLY_HREL_MAX_MESSAGES || h > count)
		return 0;
	/* slots <= 2 count + h: no overflow on 64 bits, but maybe on 32 */
	if (slots * 27 + (u64)ports * 8 > (size_t)-1 / 2)
		return 0;
	return hrel_layout(ports, count, h, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_workspace_size);

/* A random number below @k, from a xorshift generator. */
static u32 hrel_below(struct hrel_ws *ws, u32 k)
{
	u32 x = ws->rnd;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ws->rnd = x;
	return ((u64)x * k) >> 32;
}

/*
 * Steps 1 and 2: the groups, and the h-regular graph in buffer 0. With
 * @slot_of, buffer 0 holds only the right vertices (@w bytes a slot) and
 * @slot_of[i] receives message i's slot; else slots of struct hrel_slot.
 */
static __always_inline u32 hrel_build(u32 ports, u32 count, const u32 *src,
				      const u32 *dst, u32 h, struct hrel_ws *ws,
				      u32 *slot_of, unsigned int w)
{
	struct hrel_slot *s = ws->buf[0];
	void *rv = ws->buf[0];
	u32 p, i, g, nl = 0, nr = 0, n, sl = 0, sr = 0, v;

	for (p = 0; p < ports; p++) {
		u32 x = ws->gs[p], y = ws->gd[p];

		if (x) {
			if (!nl || sl + x > h) {
				nl++;
				sl = 0;
			}
			/* the port's first slot, then its cursor */
			ws->gs[p] = (nl - 1) * h + sl;
			sl += x;
			ws->lcur[nl - 1] = (nl - 1) * h + sl;
		}
		if (y) {
			if (!nr || sr + y > h) {
				ws->rsum[nr++] = 0;
				sr = 0;
			}
			sr += y;
			ws->rsum[nr - 1] += y;
			ws->gd[p] = nr - 1;
		}
	}
	n = max_t(u32, nl, nr);
	for (g = nl; g < n; g++)
		ws->lcur[g] = g * h;
	for (g = nr; g < n; g++)
		ws->rsum[g] = 0;
	ws->run = NULL;
	if (slot_of && w == 2 && (size_t)n * h >> BFLY_HREL_BUCKET_SHIFT >= 2) {
		/*
		 * The runs sit in buffer 0 after the u16 right vertices, and
		 * for h <= 2^16 their ends in mate_l[] (n h / 2^16 <= n
		 * entries): neither is used again before the final gather,
		 * which reads them (else the union-find, free until the
		 * levels start, holds the ends).
		 */
		u32 *run = (u32 *)((u8 *)ws->buf[0] + (size_t)4 * n * h);
		bool keep = h <= BIT(16);

		bfly_hrel_scatter(count, src, dst, n * h, ws->gs, ws->gd, run,
				  keep ? ws->mate_l : ws->parent, rv, slot_of);
		if (keep)
			ws->run = run;
	} else if (slot_of) {
		for (i = 0; i < count; i++)
			slot_of[i] = ws->gs[src[i]]++;
		for (i = 0; i < count; i++) {
			if (i + HREL_AHEAD < count)
				prefetchw((u8 *)rv + (size_t)slot_of[i + HREL_AHEAD] * w);
			hrel_put(rv, slot_of[i], ws->gd[dst[i]], w);
		}
	}
	for (i = 0; i < count && !slot_of; i++) {
		struct hrel_slot *e = &s[ws->gs[src[i]]++];

		e->r = ws->gd[dst[i]];
		e->msg = i;
	}
	/* dummies, in order on both sides */
	for (g = 0, v = 0; g < n; g++) {
		for (i = ws->lcur[g]; i < (g + 1) * h; i++) {
			while (ws->rsum[v] == h)
				v++;
			ws->rsum[v]++;
			if (slot_of) {
				hrel_put(rv, i, v, w);
				continue;
			}
			s[i].r = v;
			s[i].msg = BFLY_HREL_IDLE;
		}
	}
	return n;
}

static void hrel_set(u32 *colour, u32 msg, u32 c)
{
	if (msg != BFLY_HREL_IDLE)
		colour[msg] = c;
}

/*
 * hrel_pair_up() for d = 2, where each right vertex has two edges: the
 * first pass leaves the XOR of both slots and of HREL_NONE in pend[], the
 * second gives the first of the two its partner by that XOR, the second
 * by the slot the first left there, and resets the entry to HREL_NONE.
 */
static __always_inline void hrel_pair_two(struct hrel_ws *ws, u32 m, const void *r,
					  u32 stride, unsigned int w)
{
	u32 p, *pend = ws->pend, *rp = (u32 *)ws->pr;

	for (p = 0; p < m; p += 2) {
		pend[hrel_get(r, (size_t)p * stride, w)] ^= p;
		pend[hrel_get(r, (size_t)(p + 1) * stride, w)] ^= p + 1;
	}
	for (p = 0; p < m; p++) {
		u32 v = hrel_get(r, (size_t)p * stride, w), a = pend[v];
		/* all ones for the first of the two: a is ~(p ^ partner) */
		u32 first = -(a >> 31);

		rp[p] = a ^ (first & ~p);
		pend[v] = p | ~first;
	}
}

/*
 * Step 3's core, in two calls: hrel_pair_up() pairs the edges of each
 * right vertex of the d-regular graph (d even) of m slots whose right
 * vertices are @r[k * @stride] (@w bytes each), then bfly_hrel_walk()
 * (hrel_walk.c) 2-colours the Euler circuits. Afterwards pair p's even
 * slot is in half hrel_half(@ws, p), its odd slot in the other. Pair p's
 * partners are entries 2p and 2p + 1 of the pairs read as one u32 array.
 */
static __always_inline void hrel_pair_up(struct hrel_ws *ws, u32 m, const void *r,
					 u32 stride, bool two, unsigned int w)
{
	u32 p, *pend = ws->pend, *rp = (u32 *)ws->pr;

	if (two) {
		hrel_pair_two(ws, m, r, stride, w);
		return;
	}
	/*
	 * Each right vertex's edges paired in slot order, a slot a step,
	 * the same pass both ways: forward, the second edge of a pair learns
	 * the first and the first gets HREL_NONE (all ones); back, the first
	 * learns the second, which meets HREL_NONE in pend[] and keeps its
	 * entry (the AND). A select, not a branch: that would guess wrong
	 * half the time.
	 */
	for (p = 0; p < m; p += 2) {
		u32 v = hrel_get(r, (size_t)p * stride, w), e = pend[v];

		pend[v] = e == HREL_NONE ? p : HREL_NONE;
		rp[p] = e;
		v = hrel_get(r, (size_t)(p + 1) * stride, w);
		e = pend[v];
		pend[v] = e == HREL_NONE ? p + 1 : HREL_NONE;
		rp[p + 1] = e;
	}
	for (p = m; p > 0; p -= 2) {
		u32 v = hrel_get(r, (size_t)(p - 1) * stride, w), x = pend[v];

		pend[v] = x == HREL_NONE ? p - 1 : HREL_NONE;
		rp[p - 1] &= x;
		v = hrel_get(r, (size_t)(p - 2) * stride, w);
		x = pend[v];
		pend[v] = x == HREL_NONE ? p - 2 : HREL_NONE;
		rp[p - 2] &= x;
	}
}

/* The half pair @p's even slot goes to, after bfly_hrel_walk(). */
static u32 hrel_half(const struct hrel_ws *ws, u32 p)
{
	u32 v = ws->pr[p].rp[0];

	return (v ^ ws->parent[(v & ~HREL_SEEN) >> 1]) & 1;
}

/*
 * Step 3: split the d-regular graph @in (d even) into halves, written to
 * @out at slots 0 .. m / 2 - 1 and m / 2 .. m - 1 (m = n d), or for d = 2
 * straight to @colour as @c and @c + 1.
 */
static int hrel_split(struct hrel_ws *ws, u32 n, u32 d, const struct hrel_slot *in,
		      struct hrel_slot *out, u32 *colour, u32 c)
{
	u32 m = n * d, pairs = m / 2, p;
	int err;

	hrel_pair_up(ws, m, &in->r, sizeof(*in) / sizeof(u32), d == 2, sizeof(u32));
	err = bfly_hrel_walk(ws->pr, ws->parent, ws->walker, m);
	if (err)
		return err;
	for (p = 0; p < pairs; p++) {
		u32 f = hrel_half(ws, p);

		if (d == 2) {
			hrel_set(colour, in[2 * p + f].msg, c);
			hrel_set(colour, in[2 * p + 1 - f].msg, c + 1);
		} else {
			out[p] = in[2 * p + f];
			out[pairs + p] = in[2 * p + 1 - f];
		}
	}
	return 0;
}

/*
 * After bfly_hrel_walk() on a subgraph of @pairs pairs whose bits start at bit
 * @base: each pair's bit to @bits, a word at a time (no load-store chain),
 * and the halves of @in (@w-byte right vertices) to @out.
 * Pair p's two entries are read as one word and swapped when its even slot
 * goes to half 1.
 */
static __always_inline void hrel_halves(const struct hrel_ws *ws, u32 pairs, u32 base,
					u32 *bits, const u8 *in, u8 *out, unsigned int w)
{
	u32 p = 0;

	while (p < pairs) {
		u32 g = base + p, sh = g % 32, lim = min_t(u32, pairs, p + 32 - sh), word = 0;

		for (; p < lim; p++, sh++) {
			u32 f = hrel_half(ws, p);

			word |= f << sh;
			if (w == 2 && !BFLY_BIG_ENDIAN) {
				u32 x;

				memcpy(&x, in + (size_t)4 * p, sizeof(x));
				x = f ? x >> 16 | x << 16 : x;
				((u16 *)out)[p] = (u16)x;
				((u16 *)out)[pairs + p] = x >> 16;
			} else {
				hrel_put(out, p, hrel_get(in, 2 * p + f, w), w);
				hrel_put(out, pairs + p, hrel_get(in, 2 * p + 1 - f, w), w);
			}
		}
		bits[g / 32] |= word;
	}
}

/*
 * The last level's split (d = 2) of subgraph @c, @pairs pairs: its slots'
 * colours to @col (@w-byte entries from slot 2c @pairs), where the unwind
 * starts (hrel_unwind.c): the even slot's 2c ^ f, the odd slot's 2c + 1 ^ f.
 */
static __always_inline void hrel_last(const struct hrel_ws *ws, u32 pairs, u32 c, u8 *col,
				      unsigned int w)
{
	size_t o = (size_t)2 * c * pairs;
	u32 p;

	for (p = 0; p < pairs; p++) {
		u32 f = hrel_half(ws, p);

		if (w == 1 && !BFLY_BIG_ENDIAN) {
			u16 x = (u16)((2 * c | (2 * c + 1) << 8) ^ (0x0101 * f));

			memcpy(col + o + 2 * p, &x, sizeof(x));
		} else {
			hrel_put(col, o + 2 * p + f, 2 * c, w);
			hrel_put(col, o + 2 * p + 1 - f, 2 * c + 1, w);
		}
	}
}

/*
 * Step 3 for h = 2^levels, level by level: the halves of each subgraph
 * carry only their right vertices, and each split keeps one bit a pair
 * (the half of its even slot), the last level its slots' colours. The
 * slot at k of the h-regular graph sits at k >> L in its subgraph at level
 * L, so its colour is read from these at the end; the messages never move.
 */
static __always_inline int hrel_pow2(struct hrel_ws *ws, u32 n, u32 h, u32 count,
				     u32 *colour, unsigned int w)
{
	u32 levels = ilog2(h), slots = n * h, words = hrel_flip_words(slots);
	unsigned int wc = bfly_hrel_colour_width(levels);
	u8 *cur = (u8 *)ws->buf[1], *next = cur + (size_t)slots * w, *tmp;
	const u8 *e = (const u8 *)ws->buf[0];
	u32 lv, s;
	int err;

	for (lv = 0; lv < levels; lv++) {
		u32 d = h >> lv, m = n * d, pairs = m / 2;
		u32 *bits = ws->flip + (size_t)lv * words;

		memset(bits, 0, (size_t)words * sizeof(u32));
		for (s = 0; s < BIT(lv); s++) {
			const u8 *in = (lv ? cur : e) + (size_t)s * m * w;
			u8 *out = next + (size_t)s * m * w;
			u32 base = s * pairs;

			if (d == 2)
				hrel_pair_up(ws, m, in, 1, true, w);
			else
				hrel_pair_up(ws, m, in, 1, false, w);
			err = bfly_hrel_walk(ws->pr, ws->parent, ws->walker, m);
			if (err)
				return err;
			if (d > 2)
				hrel_halves(ws, pairs, base, bits, in, out, w);
			else if (wc == 1)
				hrel_last(ws, pairs, s, (u8 *)ws->buf[0], 1);
			else
				hrel_last(ws, pairs, s, (u8 *)ws->buf[0], wc);
		}
		tmp = cur;
		cur = next;
		next = tmp;
	}
	/* the last level's colours in buffer 0, where the first level's slots were */
	bfly_hrel_unwind(ws->flip, words, slots, levels, ws->buf[0], ws->buf[1], count, colour,
			 slots >= HREL_GATHER_RUNS ? ws->run : NULL, ws->mate_l);
	return 0;
}

/*
 * Step 4: a perfect matching of the d-regular graph @in (d odd, >= 3) to
 * @colour as @c, the rest to @out, (d - 1)-regular.
 */
static int hrel_match(struct hrel_ws *ws, u32 n, u32 d, const struct hrel_slot *in,
		      struct hrel_slot *out, u32 *colour, u32 c)
{
	u32 *mate_l = ws->mate_l, *mate_r = ws->mate_r, *last = ws->last;
	u32 nfree = n, u, u0, v, w, j, steps = 0;

	for (u = 0; u < n; u++) {
		mate_l[u] = HREL_NONE;
		mate_r[u] = HREL_NONE;
		ws->free[u] = u;
	}
	while (nfree) {
		j = hrel_below(ws, nfree);
		u0 = ws->free[j];
		ws->free[j] = ws->free[--nfree];
		/* walk until a free right vertex; last[] keeps the last exits */
		for (u = u0;; u = w) {
			if (mate_l[u] == HREL_NONE) {
				j = hrel_below(ws, d);
			} else {
				j = hrel_below(ws, d - 1);
				j += j >= mate_l[u];
			}
			last[u] = j;
			w = mate_r[in[(size_t)u * d + j].r];
			if (w == HREL_NONE)
				break;
			if (!(++steps & HREL_POLL) && bfly_should_stop())
				return -EINTR;
		}
		/* augment along the last exits */
		for (u = u0;; u = w) {
			v = in[(size_t)u * d + last[u]].r;
			w = mate_r[v];
			mate_r[v] = u;
			mate_l[u] = last[u];
			if (w == HREL_NONE)
				break;
		}
	}
	for (u = 0; u < n; u++) {
		const struct hrel_slot *e = in + (size_t)u * d;
		struct hrel_slot *o = out + (size_t)u * (d - 1);

		for (j = 0; j < d; j++) {
			if (j == mate_l[u])
				hrel_set(colour, e[j].msg, c);
			else
				*o++ = e[j];
		}
	}
	return 0;
}

/**
 * bfly_hrel_colour() - split an h-relation into h partial permutations
 * @ports: ports on either side; sources and destinations are below it
 * @count: messages, at most %BFLY_HREL_MAX_MESSAGES
 * @src: each message's source
 * @dst: each message's destination
 * @h: colours: at least the degree (bfly_hrel_degree()), at most @count
 * @colour: receives each message's colour (round), below @h
 * @work: bfly_hrel_workspace_size(@ports, @count, @h) bytes
 *
 * No two messages of one colour share a source or a destination; with @h
 * the degree, every colour of 0 .. @h - 1 is used. The method and its
 * cost are in the file comment.
 *
 * Return: 0; -EINVAL for an endpoint out of range, @h below the degree or
 * above @count, or @count over %BFLY_HREL_MAX_MESSAGES (@colour
 * untouched); -EINTR when bfly_should_stop() said to stop (@colour partly
 * written).
 */
int bfly_hrel_colour(u32 ports, u32 count, const u32 *src, const u32 *dst,
		     u32 h, u32 *colour, void *work)
{
	struct hrel_ws ws;
	u32 n, deg, bad, sp = 0;
	bool pow2, narrow;
	int err;

	if (count > BFLY_HREL_MAX_MESSAGES || h > count)
		return -EINVAL;
	hrel_layout(ports, count, h, work, &ws);
	/* gs and gd lead the workspace, as bfly_hrel_degree() lays them out */
	err = bfly_hrel_degree(ports, count, src, dst, &deg, &bad, work);
	if (err)
		return err;
	if (deg > h)
		return -EINVAL;
	if (!count)
		return 0;
	pow2 = h > 1 && is_power_of_2(h);
	/* h = 2^L: right vertices in u16 where the groups allow */
	narrow = hrel_groups(ports, count, h) <= U16_MAX + 1;
	if (pow2 && narrow)
		n = hrel_build(ports, count, src, dst, h, &ws, colour, sizeof(u16));
	else
		n = hrel_build(ports, count, src, dst, h, &ws, pow2 ? colour : NULL,
			       sizeof(u32));
	if (bfly_should_stop())
		return -EINTR;
	memset(ws.pend, 0xff, (size_t)n * sizeof(u32));
	if (pow2 && narrow)
		return hrel_pow2(&ws, n, h, count, colour, sizeof(u16));
	if (pow2)
		return hrel_pow2(&ws, n, h, count, colour, sizeof(u32));
	ws.rnd = 0x9e3779b9;
	ws.stack[sp++] = (struct hrel_job){ .lo = 0, .d = h, .c = 0, .buf = 0 };
	while (sp) {
		struct hrel_job jb = ws.stack[--sp];
		const struct hrel_slot *in = ws.buf[jb.buf] + jb.lo;
		struct hrel_slot *out = ws.buf[!jb.buf] + jb.lo;
		size_t k, m = (size_t)n * jb.d;

		if (jb.d == 1) {
			for (k = 0; k < m; k++)
				hrel_set(colour, in[k].msg, jb.c);
			continue;
		}
		if (jb.d & 1) {
			err = hrel_match(&ws, n, jb.d, in, out, colour, jb.c);
			if (err)
				return err;
			ws.stack[sp++] = (struct hrel_job){
				.lo = jb.lo, .d = jb.d - 1, .c = jb.c + 1, .buf = !jb.buf
			};
			continue;
		}
		err = hrel_split(&ws, n, jb.d, in, out, colour, jb.c);
		if (err)
			return err;
		if (jb.d == 2)
			continue;
		ws.stack[sp++] = (struct hrel_job){
			.lo = jb.lo + m / 2, .d = jb.d / 2, .c = jb.c + jb.d / 2, .buf = !jb.buf
		};
		ws.stack[sp++] = (struct hrel_job){
			.lo = jb.lo, .d = jb.d / 2, .c = jb.c, .buf = !jb.buf
		};
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_colour);
