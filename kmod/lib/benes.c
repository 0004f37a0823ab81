// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing: the looping algorithm (seed note on Benes, Theorem 1),
 * iterative and cache-conscious.
 *
 * Wiring (wiring.c): a butterfly on node stages 0..n-1 followed by a reverse
 * butterfly on node stages n-1..2n-2. The edge stage leaving node stage t
 * (t < n - 1) and the one entering node stage 2n-2-t both swap link position
 * bits 0 and n-1-t. So, at depth t, the fabric between node stages t and
 * 2n-2-t is 2^t independent Benes networks of M = N / 2^t ports, subnetwork
 * s using the nodes s * M/2 .. (s+1) * M/2 - 1 of each of its stages.
 *
 * Subproblem at depth t. Each subnetwork has a local permutation P (local
 * input position x -> local output position y, both below M) and its inverse
 * Q. Node x >> 1 of stage t holds inputs x and x ^ 1; node y >> 1 of stage
 * 2n-2-t holds outputs y and y ^ 1. The looping algorithm colours every
 * packet 0 (upper half network) or 1 (lower): the two packets of an input
 * node, and the two of an output node, get different colours. A node of
 * stage t is crossed when its colour-0 packet is on port 1; a node of stage
 * 2n-2-t when its colour-0 packet leaves on port 1. A colour-c packet at
 * local input x enters half network c at local position
 * L(x) = (x & (M/2 - 2)) | (x >> (m - 1)), m = log2(M) (its node x >> 1
 * with the top bit dropped, on the port given by that top bit), and leaves
 * it at L(y): the half networks' permutations are P_c(L(x)) = L(P(x)).
 *
 * Memory layout. Every depth works on flat arrays of N u32 holding all 2^t
 * subproblems side by side (subproblem s at s * M .. s * M + M - 1, values
 * stored as global indices, so the walk needs no base arithmetic); the next
 * depth's P is built by a sequential pass (two entries per 64-bit word),
 * writing Q as its inverse up to BENES_INV_PORTS ports (Q's own pass
 * beyond), with the colours kept as one byte per node and
 * packed 64 at a time into the matrix words. Nothing recurses: depths are
 * a loop. The depths whose subproblems are larger than BENES_BLOCK ports
 * sweep the whole arrays; after that the fabric is done block by block of
 * BENES_BLOCK ports, every remaining depth of a block in turn while the
 * block is in cache.
 *
 * The walk. Colouring follows cycles: a colour-0 packet x sends its output
 * partner's packet Q(P(x) ^ 1) to colour 1, whose input partner is the next
 * colour-0 packet. These are chains of dependent loads, so several walkers
 * run interleaved to overlap their latencies:
 *  - small subproblems (at most 64 nodes a stage): four at a time in
 *    lockstep, without data-dependent branches (benes_walk_small());
 *  - as many subproblems as walkers or more: one walker per subproblem,
 *    in order so that the walkers sweep memory together (in a block: four
 *    or two in lockstep, benes_walk_lock());
 *  - fewer subproblems than walkers (the first depths, and the first
 *    depths of a block): several walkers per subproblem, each starting its
 *    cycles in its own stripe of the nodes. Walks (segments) of one cycle
 *    may then meet, possibly walking in opposite directions. A segment
 *    stops on reaching a node another one coloured; afterwards, both ends
 *    of every segment are compared with the neighbouring segments, a
 *    union-find with parity decides which segments to complement, and the
 *    output nodes are derived from the input colours.
 *
 * The last depth (M = 4) is solved in closed form, with the middle stage.
 *
 * Speed: tests/bench/bench.c times this against a textbook recursive
 * looping (tests/bench/textbook-benes.c), alternated call by call; the
 * ratios are in Documentation/routing-speed.rst.
 */
#include "compat.h"
#include "benes.h"
#include "trace.h"

/*
 * Tuning for a 2 MiB L2 per core and a small usable L3 (see tests/bench).
 * The block and the walkers within it are chosen at run time from the
 * size by benes_block_ports() and benes_walkers(); the native tests
 * also build with a tiny BENES_BLOCK and BENES_WALKERS_BLOCK to run the
 * out-of-cache paths on small fabrics.
 */
#ifndef BENES_WALKERS
/* interleaved walkers over the whole arrays; a power of two */
#define BENES_WALKERS 16
#endif
#ifndef BENES_BLOCK
/*
 * most ports per block: 16 bytes of P and Q arrays per port and 8 more of
 * node bytes and segments fill about 384 KiB of the L2 at 16384 ports.
 * Blocks of 32768 and 65536 ports, which also fit in 2 MiB, were not
 * faster at N = 2^16 and 2^18 (tests/bench/bench.c, 2026-11-27).
 */
#define BENES_BLOCK 16384
#endif
#ifndef BENES_INV_PORTS
/*
 * most ports of a pass that writes the next Q as the inverse of the next
 * P: its scattered stores then stay within 256 KiB, in L2
 */
#define BENES_INV_PORTS 65536
#endif
#define BENES_UNSET 0xff
#define BENES_UNSET32 U32_MAX
/* link[] of a segment that closed its own cycle */
#define BENES_SELF U32_MAX
#define BENES_ODD BIT(31)

struct benes_ws {
	u32 *pa, *qa, *pb, *qb;
	u32 *st, *link, *start, *parent;
	u8 *in, *out, *flip;
};

static size_t benes_align(size_t sz)
{
	return (sz + 63) & ~(size_t)63;
}

/* Carve @bytes (64-byte aligned) at *@off of @base, which may be NULL. */
static void *benes_part(u8 *base, size_t *off, size_t bytes)
{
	void *p = base ? base + *off : NULL;

	*off += benes_align(bytes);
	return p;
}

static size_t benes_layout(const struct bfly_geometry *geo, void *work,
			   struct benes_ws *ws)
{
	size_t n = geo->ports, half = n / 2, off = 0;
	struct benes_ws sizing;
	u8 *base = work;

	if (!ws)
		ws = &sizing;
	ws->pa = benes_part(base, &off, n * sizeof(u32));
	ws->qa = benes_part(base, &off, n * sizeof(u32));
	ws->pb = benes_part(base, &off, n * sizeof(u32));
	ws->qb = benes_part(base, &off, n * sizeof(u32));
	ws->st = benes_part(base, &off, half * sizeof(u32));
	ws->link = benes_part(base, &off, half * sizeof(u32));
	ws->start = benes_part(base, &off, half * sizeof(u32));
	ws->parent = benes_part(base, &off, half * sizeof(u32));
	ws->in = benes_part(base, &off, half);
	ws->out = benes_part(base, &off, half);
	ws->flip = benes_part(base, &off, half);
	return off;
}

/**
 * bfly_benes_workspace_size() - memory bfly_benes_route() needs
 * @geo: a Benes fabric geometry
 *
 * About 25.5 bytes per port (26.7 MB at N = 2^20); the caller allocates it.
 *
 * Return: the size in bytes of the workspace, 64-byte aligned parts.
 */
size_t bfly_benes_workspace_size(const struct bfly_geometry *geo)
{
	return benes_layout(geo, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_benes_workspace_size);

/* Pack bytes (0 or 1) of nodes @klo..@khi-1 into node stage @stage. */
static void benes_pack(const struct bfly_geometry *geo, unsigned long *matrix,
		       u32 stage, const u8 *bits, u32 klo, u32 khi)
{
	u64 bit = (u64)stage * geo->nodes_per_stage;
	u32 k, j;

	if (geo->nodes_per_stage % 64 || (khi - klo) % 64) {
		for (k = klo; k < khi; k++) {
			if (bits[k])
				__set_bit(bit + k, matrix);
			else
				__clear_bit(bit + k, matrix);
		}
		return;
	}
	for (k = klo; k < khi; k += 64) {
		u64 w = 0;

		/* byte j of an 8-byte group lands on bit j of the product */
		for (j = 0; j < 8; j++)
			w |= ((bfly_load_le64(bits + k + 8 * j) *
			       0x0102040810204080ULL) >> 56) << (8 * j);
		if (BITS_PER_LONG == 64) {
			matrix[(bit + k) / BITS_PER_LONG] = (unsigned long)w;
		} else {
			matrix[(bit + k) / BITS_PER_LONG] = (u32)w;
			matrix[(bit + k) / BITS_PER_LONG + 1] = (u32)(w >> 32);
		}
	}
}

/*
 * Colour the input nodes (in[]) and output nodes (out[]) of the
 * subproblems in nodes @klo..@khi-1 of one depth, one walker per subproblem
 * of @task nodes; see the comment at the top. The subproblems are handed to
 * the walkers in order, so that the walkers sweep the arrays together.
 */
static void benes_walk(const u32 *p, const u32 *q, u8 *in, u8 *out, u32 klo,
		       u32 khi, u32 task, u32 walkers)
{
	u32 wx[BENES_WALKERS], wscan[BENES_WALKERS], wend[BENES_WALKERS];
	u32 next = klo;
	int active, w;

	memset(in + klo, BENES_UNSET, khi - klo);
	for (w = 0; w < (int)walkers; w++) {
		in[next] = 0;
		wx[w] = 2 * next;
		wscan[w] = next + 1;
		wend[w] = next + task;
		next += task;
	}
	active = walkers;
	while (active) {
		for (w = 0; w < active; w++) {
			u32 x = wx[w], y = p[x], nx, k;

			out[y >> 1] = y & 1;
			nx = q[y ^ 1] ^ 1;
			k = nx >> 1;
			if (likely(in[k] == BENES_UNSET)) {
				in[k] = nx & 1;
				wx[w] = nx;
				continue;
			}
			/* cycle done: start the next one in this subproblem */
			k = wscan[w];
			while (k < wend[w] && in[k] != BENES_UNSET)
				k++;
			if (k == wend[w]) {
				if (next == khi) {
					active--;
					wx[w] = wx[active];
					wscan[w] = wscan[active];
					wend[w] = wend[active];
					w--;
					continue;
				}
				/* or the next subproblem */
				k = next;
				next += task;
				wend[w] = k + task;
			}
			wscan[w] = k + 1;
			in[k] = 0;
			wx[w] = 2 * k;
		}
	}
}

/*
 * Colour the input nodes of the subproblems in nodes @klo..@khi-1 when they
 * are fewer than the walkers: each walker starts its cycles in its own
 * stripe of @stripe nodes, following f[x] = q[p[x] ^ 1] ^ 1, the next
 * colour-0 packet. st[k] records node k's colouring as (segment << 1) |
 * port of the colour-0 packet, and link[] how each segment ended, for
 * benes_reconcile().
 * Return: the number of segments.
 */
static u32 benes_walk_merge(const u32 *f, u32 *st, u32 *link, u32 *start,
			    u32 klo, u32 khi, u32 stripe, u32 walkers)
{
	u32 wx[BENES_WALKERS], wscan[BENES_WALKERS], wend[BENES_WALKERS];
	u32 wseg[BENES_WALKERS];
	u32 segs = 0;
	int active, w;

	memset(st + klo, 0xff, (khi - klo) * sizeof(*st));
	for (w = 0; w < (int)walkers; w++) {
		u32 k = klo + w * stripe;

		st[k] = segs << 1;
		start[segs] = k;
		wseg[w] = segs++;
		wx[w] = 2 * k;
		wscan[w] = k + 1;
		wend[w] = k + stripe;
	}
	active = walkers;
	while (active) {
		for (w = 0; w < active; w++) {
			u32 nx = f[wx[w]], k = nx >> 1, v = st[k];

			if (likely(v == BENES_UNSET32)) {
				st[k] = (wseg[w] << 1) | (nx & 1);
				wx[w] = nx;
				continue;
			}
			/* ran into a coloured node: its own start, or another */
			if (v >> 1 == wseg[w])
				link[wseg[w]] = BENES_SELF;
			else
				link[wseg[w]] = (v >> 1) |
					((v & 1) != (nx & 1) ? BENES_ODD : 0);
			k = wscan[w];
			while (k < wend[w] && st[k] != BENES_UNSET32)
				k++;
			if (k == wend[w]) {
				active--;
				wx[w] = wx[active];
				wscan[w] = wscan[active];
				wend[w] = wend[active];
				wseg[w] = wseg[active];
				w--;
				continue;
			}
			wscan[w] = k + 1;
			st[k] = segs << 1;
			start[segs] = k;
			wseg[w] = segs++;
			wx[w] = 2 * k;
		}
	}
	return segs;
}

/*
 * The walk for small subproblems (M/2 <= 64 nodes), without branches that
 * depend on the data: a 64-bit mask holds the uncoloured input nodes, and
 * when a cycle closes the walk jumps to the lowest one (colour 0 on its port
 * 0). Four subproblems advance in lockstep for instruction-level
 * parallelism.
 */
struct benes_small {
	u64 mask;
	u32 x, base;
};

static __always_inline void benes_small_start(struct benes_small *w,
					      u8 *in, u32 base, u32 sub)
{
	w->mask = (sub == 64 ? ~0ULL : (1ULL << sub) - 1) & ~1ULL;
	w->base = base;
	w->x = 2 * base;
	in[base] = 0;
}

static __always_inline void benes_small_step(struct benes_small *w,
					     const u32 *p, const u32 *q,
					     u8 *in, u8 *out, bool last)
{
	u32 y = p[w->x], nx, k, r;

	out[y >> 1] = y & 1;
	if (last)
		return;
	nx = q[y ^ 1] ^ 1;
	k = (nx >> 1) - w->base;
	r = __builtin_ctzll(w->mask);
	if (!((w->mask >> k) & 1)) {
		k = r;
		nx = 2 * (w->base + r);
	}
	w->mask &= ~(1ULL << k);
	in[w->base + k] = nx & 1;
	w->x = nx;
}

static void benes_walk_small(const u32 *p, const u32 *q, u8 *in, u8 *out,
			     u32 klo, u32 khi, u32 sub)
{
	struct benes_small w0, w1, w2, w3;
	u32 k, i;

	for (k = klo; k < khi; k += 4 * sub) {
		benes_small_start(&w0, in, k, sub);
		benes_small_start(&w1, in, k + sub, sub);
		benes_small_start(&w2, in, k + 2 * sub, sub);
		benes_small_start(&w3, in, k + 3 * sub, sub);
		for (i = 0; i + 1 < sub; i++) {
			benes_small_step(&w0, p, q, in, out, false);
			benes_small_step(&w1, p, q, in, out, false);
			benes_small_step(&w2, p, q, in, out, false);
			benes_small_step(&w3, p, q, in, out, false);
		}
		benes_small_step(&w0, p, q, in, out, true);
		benes_small_step(&w1, p, q, in, out, true);
		benes_small_step(&w2, p, q, in, out, true);
		benes_small_step(&w3, p, q, in, out, true);
	}
}

/*
 * The walk for larger subproblems in a block in cache, four in lockstep as
 * in benes_walk_small(), one walker each. Every step colours one input
 * node, so a subproblem of @sub nodes takes @sub steps; when a cycle
 * closes before the last step, an uncoloured node is left at or after the
 * walker's scan position (the nodes before it are all coloured).
 */
struct benes_lock {
	u32 x, scan;
};

static __always_inline void benes_lock_start(struct benes_lock *w, u8 *in,
					     u32 base)
{
	in[base] = 0;
	w->x = 2 * base;
	w->scan = base + 1;
}

static __always_inline void benes_lock_step(struct benes_lock *w,
					    const u32 *p, const u32 *q,
					    u8 *in, u8 *out, bool last)
{
	u32 y = p[w->x], nx, k;

	out[y >> 1] = y & 1;
	if (last)
		return;
	nx = q[y ^ 1] ^ 1;
	k = nx >> 1;
	if (likely(in[k] == BENES_UNSET)) {
		in[k] = nx & 1;
		w->x = nx;
		return;
	}
	k = w->scan;
	while (in[k] != BENES_UNSET)
		k++;
	w->scan = k + 1;
	in[k] = 0;
	w->x = 2 * k;
}

static __always_inline void benes_walk_lanes(const u32 *p, const u32 *q,
					     u8 *in, u8 *out, u32 klo,
					     u32 khi, u32 sub, bool four)
{
	struct benes_lock w0, w1, w2, w3;
	u32 k, i;

	memset(in + klo, BENES_UNSET, khi - klo);
	for (k = klo; k < khi; k += (four ? 4 : 2) * sub) {
		benes_lock_start(&w0, in, k);
		benes_lock_start(&w1, in, k + sub);
		if (four) {
			benes_lock_start(&w2, in, k + 2 * sub);
			benes_lock_start(&w3, in, k + 3 * sub);
		}
		for (i = 0; i + 1 < sub; i++) {
			benes_lock_step(&w0, p, q, in, out, false);
			benes_lock_step(&w1, p, q, in, out, false);
			if (four) {
				benes_lock_step(&w2, p, q, in, out, false);
				benes_lock_step(&w3, p, q, in, out, false);
			}
		}
		benes_lock_step(&w0, p, q, in, out, true);
		benes_lock_step(&w1, p, q, in, out, true);
		if (four) {
			benes_lock_step(&w2, p, q, in, out, true);
			benes_lock_step(&w3, p, q, in, out, true);
		}
	}
}

/* Four subproblems in lockstep, or two when there are only two. */
static void benes_walk_lock(const u32 *p, const u32 *q, u8 *in, u8 *out,
			    u32 klo, u32 khi, u32 sub)
{
	if ((khi - klo) / sub >= 4)
		benes_walk_lanes(p, q, in, out, klo, khi, sub, true);
	else
		benes_walk_lanes(p, q, in, out, klo, khi, sub, false);
}

/* Union-find with parity: root of @s; *@par gets the parity of @s to it. */
static u32 benes_find(u32 *parent, u8 *flip, u32 s, u8 *par)
{
	u32 r = s, next;
	u8 p = 0, q;

	while (parent[r] != r) {
		p ^= flip[r];
		r = parent[r];
	}
	/* compress: everything on the path now points at the root */
	*par = p;
	while (parent[s] != r && s != r) {
		next = parent[s];
		q = flip[s];
		parent[s] = r;
		flip[s] = p;
		p ^= q;
		s = next;
	}
	return r;
}

/* Record that segments @a and @b agree (@odd false) or disagree. */
static bool benes_union(u32 *parent, u8 *flip, u32 a, u32 b, bool odd)
{
	u32 ra, rb;
	u8 pa, pb;

	ra = benes_find(parent, flip, a, &pa);
	rb = benes_find(parent, flip, b, &pb);
	if (ra == rb)
		return false;
	parent[ra] = rb;
	flip[ra] = pa ^ pb ^ odd;
	return flip[ra];
}

/*
 * Make the segments' colourings agree, write the input node colours and
 * derive the output node colours from them.
 */
static void benes_reconcile(struct benes_ws *ws, const u32 *p, const u32 *q,
			    u32 klo, u32 khi, u32 segs)
{
	u32 *parent = ws->parent, *link = ws->link, *st = ws->st;
	u8 *flip = ws->flip, *in = ws->in, *out = ws->out;
	bool any = false;
	u32 s, k;

	for (s = 0; s < segs; s++) {
		parent[s] = s;
		flip[s] = 0;
	}
	for (s = 0; s < segs; s++) {
		u32 l = link[s], x, v;

		/* where the segment ended: on another one's node */
		if (l != BENES_SELF)
			any |= benes_union(parent, flip, s, l & ~BENES_ODD,
					   l & BENES_ODD);
		/*
		 * Where it started: a walk going the other way round the same
		 * cycle may have started on the node just before, and then
		 * neither walk crossed that boundary. The colour-0 packet
		 * x before the start node (colour 0 on port 0) is the output
		 * partner of the start node's port-1 packet.
		 */
		x = q[p[2 * ws->start[s] + 1] ^ 1];
		v = st[x >> 1];
		if (v >> 1 != s)
			any |= benes_union(parent, flip, s, v >> 1,
					   (v & 1) != (x & 1));
	}
	if (any) {
		for (s = 0; s < segs; s++) {
			u8 par;

			benes_find(parent, flip, s, &par);
			flip[s] = par;
		}
		for (k = klo; k < khi; k++)
			in[k] = (st[k] & 1) ^ flip[st[k] >> 1];
	} else {
		for (k = klo; k < khi; k++)
			in[k] = st[k] & 1;
	}
	/* output node y/2 is crossed iff the packet on its port 0 has colour 1 */
	for (k = klo; k < khi; k++) {
		u32 x = q[2 * k];

		out[k] = (x & 1) ^ in[x >> 1];
	}
}

static __always_inline u64 benes_ror64(u64 w, u32 shift)
{
	return (w >> (shift & 63)) | (w << ((0U - shift) & 63));
}

/* Two consecutive u32 entries, entry 2j in the low half. */
static __always_inline u64 benes_load2(const u32 *p)
{
	u64 w;

	memcpy(&w, p, sizeof(w));
	return BFLY_BIG_ENDIAN ? benes_ror64(w, 32) : w;
}

static __always_inline void benes_store2(u32 *p, u64 w)
{
	if (BFLY_BIG_ENDIAN)
		w = benes_ror64(w, 32);
	memcpy(p, &w, sizeof(w));
}

/*
 * One array of the next depth: P (with in[]) or Q (with out[]). Values are
 * global indices; a subproblem's base is a multiple of its size M, so
 * base + L(v - base) = base | (v & (M/2 - 2)) | ((v >> (m - 1)) & 1).
 * Entries are handled two at a time in 64-bit words. With @inv, the next
 * Q is also written, as the inverse of the next P (for a block in cache).
 */
static __always_inline void benes_split(const u32 *p, const u8 *col,
					u32 *p2, u32 *q2, u32 lo, u32 hi,
					u32 m, bool inv)
{
	u32 big = 1U << m, half = big / 2, quarter = big / 4;
	u64 low = (half - 2) * 0x100000001ULL, one = 0x100000001ULL;
	u32 sh = m - 1, base, j;

	for (base = lo; base < hi; base += big) {
		const u8 *c0 = col + base / 2, *c1 = c0 + quarter;
		const u32 *pl = p + base, *ph = pl + half;
		u32 *d0 = p2 + base, *d1 = d0 + half;
		u64 b0 = base * one, b1 = (base + half) * one;

		for (j = 0; j < quarter; j++) {
			/* colour 0 is the packet on port c: rotate it low */
			u64 e = benes_ror64(benes_load2(pl + 2 * j), 32 * c0[j]);
			u64 f = benes_ror64(benes_load2(ph + 2 * j), 32 * c1[j]);
			u64 top = (e & 0xffffffffULL) | (f << 32);
			u64 bot = (e >> 32) | (f & 0xffffffff00000000ULL);

			top = b0 | (top & low) | ((top >> sh) & one);
			bot = b1 | (bot & low) | ((bot >> sh) & one);
			benes_store2(d0 + 2 * j, top);
			benes_store2(d1 + 2 * j, bot);
			if (inv) {
				u32 x = base + 2 * j;

				q2[(u32)top] = x;
				q2[top >> 32] = x + 1;
				q2[(u32)bot] = x + half;
				q2[bot >> 32] = x + half + 1;
			}
		}
	}
}

/* Depth n - 2 (M = 4) and the middle stage in closed form. */
static void benes_last(const u32 *p, u8 *in, u8 *out, u8 *mid, u32 lo,
		       u32 hi)
{
	u32 base;

	for (base = lo; base < hi; base += 4) {
		u32 p0 = p[base] & 3, p1 = p[base + 1] & 3;
		u32 p2 = p[base + 2] & 3, p3 = p[base + 3] & 3;
		u32 a = p0 >> 1, k = base / 2;
		/*
		 * Packet 0 takes colour 0; then the packet of input node 1
		 * sharing an output node with packet 0 takes colour 1.
		 */
		u32 in1 = (p2 >> 1) == a;
		u32 top1 = in1 ? p3 : p2;

		in[k] = 0;
		in[k + 1] = in1;
		out[k + a] = p0 & 1;
		out[k + (a ^ 1)] = top1 & 1;
		mid[k] = a;
		mid[k + 1] = p1 >> 1;
	}
}

/* Ports per block, done depth after depth while in cache; a power of 2. */
static u32 benes_block_ports(u32 ports)
{
	return min_t(u32, ports, BENES_BLOCK);
}

/*
 * Walkers for a pass over @span ports: many while the arrays are out of
 * cache (their loads miss), fewer in a block in cache, where latency is
 * short and extra walkers only add segments to reconcile.
 */
static u32 benes_walkers(u32 span)
{
#ifdef BENES_WALKERS_BLOCK
	if (span <= BENES_BLOCK)
		return BENES_WALKERS_BLOCK;
#endif
	if (span > BENES_BLOCK)
		return BENES_WALKERS;
	if (span <= 2048)
		return 2;
	return 4;
}

/* Depth @t of the subproblems in elements @lo..@hi-1: colour, pack, split. */
static void benes_level(const struct bfly_geometry *geo, struct benes_ws *ws,
			unsigned long *matrix, u32 t, u32 lo, u32 hi,
			const u32 *p, const u32 *q, u32 *p2, u32 *q2)
{
	u32 n = geo->ports_log2, m = n - t, klo = lo / 2, khi = hi / 2;
	u32 sub = 1U << (m - 1), nsub = (khi - klo) / sub;
	u32 walkers = benes_walkers(hi - lo);
	u32 segs, x;

	walkers = min_t(u32, walkers, khi - klo);

	if (sub <= 64 && nsub >= 4) {
		benes_walk_small(p, q, ws->in, ws->out, klo, khi, sub);
	} else if (nsub >= walkers && nsub >= 2 && walkers <= 4) {
		/* in a block in cache: four (or two) subproblems in lockstep */
		benes_walk_lock(p, q, ws->in, ws->out, klo, khi, sub);
	} else if (nsub >= walkers) {
		/* enough subproblems: one walker each */
		benes_walk(p, q, ws->in, ws->out, klo, khi, sub, walkers);
	} else {
		/*
		 * Few subproblems: several walkers in each, on the next
		 * colour-0 packet precomputed into p2 (free until the split).
		 */
		for (x = lo; x < hi; x++)
			p2[x] = q[p[x] ^ 1] ^ 1;
		segs = benes_walk_merge(p2, ws->st, ws->link, ws->start,
					klo, khi, (khi - klo) / walkers,
					walkers);
		benes_reconcile(ws, p, q, klo, khi, segs);
	}
	benes_pack(geo, matrix, t, ws->in, klo, khi);
	benes_pack(geo, matrix, 2 * n - 2 - t, ws->out, klo, khi);
	if (hi - lo > max_t(u32, BENES_BLOCK, BENES_INV_PORTS)) {
		benes_split(p, ws->in, p2, NULL, lo, hi, m, false);
		benes_split(q, ws->out, q2, NULL, lo, hi, m, false);
	} else {
		benes_split(p, ws->in, p2, q2, lo, hi, m, true);
	}
}

/**
 * bfly_benes_route() - switch settings routing a permutation on a Benes
 * @geo: a Benes fabric geometry (2n - 1 node stages)
 * @perm: @geo->ports entries, @perm[input] = output; must be a permutation
 * @matrix: receives the switch matrix, @geo->switches bits (trace.h);
 *	written only on success
 * @work: workspace of bfly_benes_workspace_size() bytes, 8-byte aligned
 *
 * The looping algorithm (see the comment at the top of benes.c); every
 * permutation routes. Runs in O(N log N) time without recursion and
 * without allocating. Calls bfly_should_stop() after every pass over the
 * whole arrays and after every block of ports in cache.
 *
 * Return: 0; -EINVAL for a @geo that is not a Benes or a @perm that is not
 * a permutation (then @matrix is untouched); -EINTR when bfly_should_stop()
 * said to stop (then @matrix may be partly written).
 */
int bfly_benes_route(const struct bfly_geometry *geo, const u32 *perm,
		     unsigned long *matrix, void *work)
{
	u32 n = geo->ports_log2, ports = geo->ports;
	u32 *q, *p2, *q2, t, i, lo, blk;
	const u32 *p = perm;
	struct benes_ws ws;

	if (geo->topology != BFLY_TOPO_BENES || n < 1 || ports != 1U << n)
		return -EINVAL;
	benes_layout(geo, work, &ws);

	/* the inverse, checking that @perm is a permutation */
	q = ws.qa;
	memset(q, 0xff, ports * sizeof(*q));
	for (i = 0; i < ports; i++) {
		u32 v = perm[i];

		if (v >= ports || q[v] != U32_MAX)
			return -EINVAL;
		q[v] = i;
	}
	if (n == 1) {
		if (perm[0])
			__set_bit(0, matrix);
		else
			__clear_bit(0, matrix);
		return 0;
	}

	/* the first depths over the whole arrays */
	p2 = ws.pb;
	q2 = ws.qb;
	blk = benes_block_ports(ports);
	for (t = 0; t + 2 < n && (ports >> t) > blk; t++) {
		benes_level(geo, &ws, matrix, t, 0, ports, p, q, p2, q2);
		if (bfly_should_stop())
			return -EINTR;
		p = p2;
		q = q2;
		p2 = p == ws.pb ? ws.pa : ws.pb;
		q2 = q == ws.qb ? ws.qa : ws.qb;
	}
	/* then, block by block, all remaining depths while it is in cache */
	for (lo = 0; lo < ports; lo += blk) {
		const u32 *bp = p, *bq = q;
		u32 *bp2 = p2, *bq2 = q2, tt;

		for (tt = t; tt + 2 < n; tt++) {
			benes_level(geo, &ws, matrix, tt, lo, lo + blk, bp, bq,
				    bp2, bq2);
			bp = bp2;
			bq = bq2;
			bp2 = bp == ws.pb ? ws.pa : ws.pb;
			bq2 = bq == ws.qb ? ws.qa : ws.qb;
		}
		/* the middle stage's bytes go to the free flip[] */
		benes_last(bp, ws.in, ws.out, ws.flip, lo, lo + blk);
		benes_pack(geo, matrix, n - 2, ws.in, lo / 2, (lo + blk) / 2);
		benes_pack(geo, matrix, n, ws.out, lo / 2, (lo + blk) / 2);
		benes_pack(geo, matrix, n - 1, ws.flip, lo / 2,
			   (lo + blk) / 2);
		if (bfly_should_stop())
			return -EINTR;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_benes_route);
