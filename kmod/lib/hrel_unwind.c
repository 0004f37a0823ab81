// SPDX-License-Identifier: GPL-2.0
/*
 * The colours of h = 2^L's slots from the bits of its levels (hrel.c,
 * step 3). Level lv splits each of its 2^lv subgraphs of S slots: pair p
 * of subgraph c sends its even slot to half f (its bit), its odd slot to
 * the other, as slot p of subgraph 2c + f and 2c + 1 - f of level lv + 1,
 * which sit at c S + p and c S + S / 2 + p. So each slot's colour follows
 * from the last level up, one sequential pass a level: a slot of level lv
 * takes the colour of the slot it became at level lv + 1. The last level
 * writes its slots' colours itself (hrel.c), so the passes start at the
 * level above it. The entries are
 * the narrowest that hold h colours; with u8 entries on a little-endian
 * machine a pass goes eight pairs a step in 64-bit words.
 *
 * Each message then takes its slot's colour. The slots are in random
 * order of the messages, so a load in message order misses the cache
 * every time. Where the build left its runs (hrel_scatter.c: per bucket
 * of slots, each message's slot in it, in message order), the colours
 * are read bucket by bucket into the runs' order, the bucket's colours
 * staying in the cache, and the messages take them in order from the
 * run of their slot's bucket: two passes of sequential streams for one
 * of random loads.
 */
#include "compat.h"
#include "hrel_entry.h"
#include "hrel_scatter.h"
#include "hrel_unwind.h"

/* Messages ahead that the gather prefetches */
#define HREL_UNWIND_AHEAD 16

static inline u64 hrel_load64(const u8 *p)
{
	u64 x;

	memcpy(&x, p, sizeof(x));
	return x;
}

static inline void hrel_store64(u8 *p, u64 x)
{
	memcpy(p, &x, sizeof(x));
}

/* Eight bits to eight bytes: byte i is 0xff where bit i is set. */
static inline u64 hrel_byte_mask(u32 bits)
{
	u64 x = ((u64)(bits & 0xff) * 0x0101010101010101ULL) & 0x8040201008040201ULL;

	x = ((x + 0x7f7f7f7f7f7f7f7fULL) | x) & 0x8080808080808080ULL;
	return (x >> 7) * 0xff;
}

/* The four bytes of @x to the even bytes of a 64-bit word. */
static inline u64 hrel_spread(u32 x)
{
	u64 y = x;

	y = (y | y << 16) & 0x0000ffff0000ffffULL;
	return (y | y << 8) & 0x00ff00ff00ff00ffULL;
}

/* The eight bits of pairs @g .. @g + 7, inside the level's @words. */
static inline u32 hrel_bits8(const u32 *bits, u32 g)
{
	u32 x = bits[g / 32] >> (g % 32);

	if (g % 32 > 24)
		x |= bits[g / 32 + 1] << (32 - g % 32);
	return x & 0xff;
}

/*
 * Pairs @p .. @p + 7 of a subgraph in u8 entries: @a and @z hold the
 * colours of their slots at the next level (the halves' slots p ..),
 * @bits their halves; writes their 16 slots at @out.
 */
static inline void hrel_unwind8(u64 a, u64 z, u32 bits, u8 *out)
{
	u64 t = (a ^ z) & hrel_byte_mask(bits);

	/* even slots take z where their bit is set, odd slots a */
	a ^= t;
	z ^= t;
	hrel_store64(out, hrel_spread((u32)a) | hrel_spread((u32)z) << 8);
	hrel_store64(out + 8, hrel_spread((u32)(a >> 32)) | hrel_spread((u32)(z >> 32)) << 8);
}

/* One level's pass over subgraph @c of @sz slots. */
static __always_inline void hrel_unwind_sub(const u32 *bits, u32 c, u32 sz, const u8 *cur,
					    u8 *next, unsigned int w)
{
	size_t o = (size_t)c * sz, lo = o, hi = lo + sz / 2;
	u32 p = 0, half = sz / 2;

	if (w == 1 && !BFLY_BIG_ENDIAN) {
		for (; p + 8 <= half; p += 8)
			hrel_unwind8(hrel_load64(cur + lo + p), hrel_load64(cur + hi + p),
				     hrel_bits8(bits, c * half + p), next + o + 2 * p);
	}
	for (; p < half; p++) {
		u32 g = c * half + p, f = (bits[g / 32] >> (g % 32)) & 1;
		u32 a = hrel_get(cur, lo + p, w);
		u32 z = hrel_get(cur, hi + p, w);

		hrel_put(next, o + 2 * p + f, a, w);
		hrel_put(next, o + 2 * p + 1 - f, z, w);
	}
}

/*
 * Each message's colour from @cur (@w-byte entries per slot) through the
 * runs @run and their ends @end (see the file comment); @out holds @slots
 * entries. Leaves @end[b] at the end of run b again.
 */
static __always_inline void hrel_gather_runs(const u8 *cur, u32 slots, u32 count, u32 *colour,
					     const u32 *run, u32 *end, u8 *out, unsigned int w)
{
	u32 nb = (u32)(((size_t)slots + BIT(BFLY_HREL_BUCKET_SHIFT) - 1) >>
		       BFLY_HREL_BUCKET_SHIFT), b, i, j;
	u32 low = BIT(BFLY_HREL_BUCKET_SHIFT) - 1;

	for (b = 0; b < nb; b++) {
		const u8 *c = cur + ((size_t)b << BFLY_HREL_BUCKET_SHIFT) * w;

		for (j = b << BFLY_HREL_BUCKET_SHIFT; j < end[b]; j++)
			hrel_put(out, j, hrel_get(c, run[j] & low, w), w);
		end[b] = b << BFLY_HREL_BUCKET_SHIFT;
	}
	for (i = 0; i < count; i++)
		colour[i] = hrel_get(out, end[colour[i] >> BFLY_HREL_BUCKET_SHIFT]++, w);
}

static __always_inline void hrel_unwind_w(const u32 *flip, u32 words, u32 slots, u32 levels,
					  u8 *last, u8 *space, u32 count, u32 *colour,
					  const u32 *run, u32 *end, unsigned int w)
{
	u8 *cur = last, *next = space, *tmp;
	u32 lv, i, c;

	for (lv = levels - 1; lv-- > 0;) {
		const u32 *bits = flip + (size_t)lv * words;
		u32 sz = slots >> lv;

		for (c = 0; c < BIT(lv); c++)
			hrel_unwind_sub(bits, c, sz, cur, next, w);
		tmp = cur;
		cur = next;
		next = tmp;
	}
	if (run) {
		hrel_gather_runs(cur, slots, count, colour, run, end, space + (size_t)slots * w,
				 w);
		return;
	}
	for (i = 0; i < count; i++) {
		if (i + HREL_UNWIND_AHEAD < count)
			prefetch(cur + (size_t)colour[i + HREL_UNWIND_AHEAD] * w);
		colour[i] = hrel_get(cur, colour[i], w);
	}
}

/**
 * bfly_hrel_unwind() - each message's colour from the bits of h = 2^L's levels
 * @flip: per level but the last, @words words of one bit a pair (the half of
 *	its even slot)
 * @words: words a level
 * @slots: the h-regular graph's slots, n h
 * @levels: L, at least 1
 * @last: the last level's slots' colours, in entries of
 *	bfly_hrel_colour_width(@levels) bytes; reused
 * @space: one array more of @slots such entries (with @run, two), apart
 *	from @last
 * @count: messages
 * @colour: each message's slot; receives its colour
 * @run: NULL, or bfly_hrel_scatter()'s runs of these messages (then
 *	@levels is at most 16)
 * @end: with @run, bfly_hrel_scatter()'s ends of the runs
 */
void bfly_hrel_unwind(const u32 *flip, u32 words, u32 slots, u32 levels, void *last,
		      void *space, u32 count, u32 *colour, const u32 *run, u32 *end)
{
	switch (bfly_hrel_colour_width(levels)) {
	case 1:
		hrel_unwind_w(flip, words, slots, levels, last, space, count, colour, run, end, 1);
		break;
	case 2:
		hrel_unwind_w(flip, words, slots, levels, last, space, count, colour, run, end, 2);
		break;
	default:
		hrel_unwind_w(flip, words, slots, levels, last, space, count, colour, NULL, NULL,
			      4);
	}
}
