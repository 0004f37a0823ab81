// SPDX-License-Identifier: GPL-2.0
/*
 * Step 2 of the colouring of h = 2^L (hrel.c), with right vertices in
 * u16: each message takes the next slot of its left group, and its right
 * vertex goes to that slot. The
 * slots are in random order of the messages, and a store to a random
 * slot of the whole array misses the cache every time. So the stores go
 * first, in message order, to runs of (slot, right vertex), one run a
 * bucket of 2^BFLY_HREL_BUCKET_SHIFT consecutive slots (run b at offset
 * b 2^BFLY_HREL_BUCKET_SHIFT: a bucket holds at most that many messages),
 * then bucket by bucket to their slots, whose bucket stays in the cache.
 * The array receives the same entries as stores in message order give.
 * The runs and their ends stay for the final gather (hrel_unwind.c), which
 * reads each run entry's slot in its bucket.
 *
 * The messages go two at a time: both runs' ends are loaded before either
 * is stored (the second one past the first's entry when both share a
 * run), so that the next message's end does not wait on the store of the
 * one before, whose address came from a random load; and each store
 * prefetches its run a few lines ahead.
 */
#include "compat.h"
#include "hrel_scatter.h"

/*
 * Run entries ahead of a store that the scatter prefetches: four lines. The
 * runs, one a bucket, are more streams than the hardware prefetcher
 * follows. The runs end where buffer 1 starts (hrel.c), so the
 * prefetches stay inside the workspace.
 */
#define HREL_RUN_AHEAD 64

/**
 * bfly_hrel_scatter() - each message's slot, and its right vertex at it
 * @count: messages
 * @src: each message's source
 * @dst: each message's destination
 * @slots: the slots of @rv
 * @gs: per source port, its next slot; advanced past its messages
 * @gd: per destination port, its right vertex, below 2^16
 * @run: receives the runs: @slots entries of 4 bytes, run b from
 *	b 2^BFLY_HREL_BUCKET_SHIFT, each entry a message's right vertex << 16
 *	and its slot's low BFLY_HREL_BUCKET_SHIFT bits, in message order
 * @cur: receives each run's end: one entry a bucket of slots
 * @rv: receives each message's right vertex at its slot (u16 entries)
 * @slot_of: receives each message's slot
 */
void bfly_hrel_scatter(u32 count, const u32 *src, const u32 *dst, u32 slots, u32 *gs,
		       const u32 *gd, u32 *run, u32 *cur, u16 *rv, u32 *slot_of)
{
	u32 nb = (u32)(((size_t)slots + BIT(BFLY_HREL_BUCKET_SHIFT) - 1) >>
		       BFLY_HREL_BUCKET_SHIFT), b, i, j;

	for (b = 0; b < nb; b++)
		cur[b] = b << BFLY_HREL_BUCKET_SHIFT;
	/* a run entry: the right vertex, the slot in its bucket */
	for (i = 0; i + 1 < count; i += 2) {
		u32 k0 = gs[src[i]]++, k1 = gs[src[i + 1]]++;
		u32 b0 = k0 >> BFLY_HREL_BUCKET_SHIFT, b1 = k1 >> BFLY_HREL_BUCKET_SHIFT;
		/* both ends loaded before either store; in one run, one after the other */
		u32 j0 = cur[b0], j1 = cur[b1] + (b0 == b1);

		cur[b0] = j0 + 1;
		cur[b1] = j1 + 1;
		slot_of[i] = k0;
		slot_of[i + 1] = k1;
		run[j0] = gd[dst[i]] << 16 | (k0 & (BIT(BFLY_HREL_BUCKET_SHIFT) - 1));
		run[j1] = gd[dst[i + 1]] << 16 | (k1 & (BIT(BFLY_HREL_BUCKET_SHIFT) - 1));
		prefetchw(&run[j0 + HREL_RUN_AHEAD]);
		prefetchw(&run[j1 + HREL_RUN_AHEAD]);
	}
	for (; i < count; i++) {
		u32 k = gs[src[i]]++;

		slot_of[i] = k;
		run[cur[k >> BFLY_HREL_BUCKET_SHIFT]++] =
			gd[dst[i]] << 16 | (k & (BIT(BFLY_HREL_BUCKET_SHIFT) - 1));
	}
	for (b = 0; b < nb; b++) {
		u16 *o = rv + ((size_t)b << BFLY_HREL_BUCKET_SHIFT);
		u32 end = cur[b];

		for (j = b << BFLY_HREL_BUCKET_SHIFT; j < end; j++)
			o[run[j] & (BIT(BFLY_HREL_BUCKET_SHIFT) - 1)] = run[j] >> 16;
	}
}
