// SPDX-License-Identifier: GPL-2.0
/*
 * A block of all-to-all rounds moved together (issues 14 and 15).
 *
 * Round by round, every message starts a new stream on both sides: it is
 * read from its own send row and written to its own receive row, N rows
 * from the one before. Once a block of consecutive rounds is scheduled and
 * checked, their messages may go in any order, as no round depends on
 * another's payload: each source's in the order of the rounds that makes
 * the destinations ascend (on RLS, the rounds backwards). Long messages
 * go source row by source row: each source's messages of the block lie
 * side by side in its send row, so the reads are one stream per row, and
 * the writes of consecutive rows land side by side in the receive rows.
 * Small messages with cached stores go in tiles of sources and
 * destinations (bfly_msg_block_tile()), so the pages a tile writes are
 * filled before the walk moves on; streaming blocks of messages of at
 * most 4 KiB go by strips of sources (bfly_msg_block_move_strips()), the
 * order of a blocked transpose.
 *
 * Built natively too: tests/bench/bench-a2a times the kernel's own code.
 */
#include "msgblock.h"
#include "msgcopy.h"

#ifdef __KERNEL__
#include <linux/bitops.h>
#include "core.h"
#endif

/**
 * bfly_msg_block_rounds() - how many rounds a block of an exchange holds
 * @ports: N
 * @size: bytes per message
 * @stream: whether the exchange is copied with streaming stores
 *
 * About %BFLY_MSG_BLOCK_CACHED bytes of payload with cached stores (the
 * size of one core's L2), %BFLY_MSG_BLOCK_STREAM with streaming ones,
 * whole rounds, one at least and N at most, and a destination table of
 * %BFLY_MSG_BLOCK_ENTRIES entries at most; streaming messages of at most
 * %BFLY_MSG_STRIP_MAX bytes, which go strip by strip, a table of
 * %BFLY_MSG_STRIP_ENTRIES.
 *
 * Return: the rounds, 1 to @ports (0 for no port).
 */
u32 bfly_msg_block_rounds(u32 ports, u64 size, bool stream)
{
	u64 round_bytes = (u64)ports * max_t(u64, size, 1);
	u64 want = stream ? BFLY_MSG_BLOCK_STREAM : BFLY_MSG_BLOCK_CACHED;
	u64 entries = BFLY_MSG_BLOCK_ENTRIES;
	u64 rounds = want / round_bytes;

	if (!ports)
		return 0;
	if (stream && size <= BFLY_MSG_STRIP_MAX)
		entries = BFLY_MSG_STRIP_ENTRIES;
	rounds = min_t(u64, rounds, entries / ports);
	return max_t(u64, 1, min_t(u64, rounds, ports));
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_block_rounds);

/* Where the message from @i to @d is read and written */
static struct bfly_msg bfly_msg_block_msg(const struct bfly_msg_block *blk, u32 i, u32 d)
{
	u64 ports = blk->ports;

	return (struct bfly_msg) {
		.src = blk->send + (i * ports + d) * blk->size,
		.dst = blk->recv + (d * ports + i) * blk->size,
	};
}

/*
 * Do most sources send to lower destinations from one round to the next?
 * Then the rounds are walked backwards, so each row's reads ascend.
 */
static bool bfly_msg_block_backwards(const struct bfly_msg_block *blk)
{
	const u32 *d0 = blk->dest, *d1 = blk->dest + blk->ports;
	u32 i, down = 0, up = 0;

	if (blk->rounds < 2)
		return false;
	for (i = 0; i < blk->ports; i++) {
		if (d0[i] == BFLY_MSG_NONE || d1[i] == BFLY_MSG_NONE)
			continue;
		if (d1[i] < d0[i])
			down++;
		else
			up++;
	}
	return down > up;
}

/*
 * Do @row[@i] .. @row[@end - 1] differ from @v, @v + 1, ...? Nonzero if so:
 * two entries an 8-byte load, each half of the expected word counting up
 * by 2 (values below 2^31: neither half carries into the other, on either
 * byte order), no branch per entry. Under QEMU's TCG, the test VMs' CPU,
 * half the loads of an entry at a time and two thirds of the instructions
 * (9 per two entries in the 6.12 module, 7 per entry before).
 */
static u64 bfly_msg_counts_up(const u32 *row, u32 i, u32 end, u32 v)
{
	const u32 two[2] = { 2, 2 };
	u32 pair[2] = { v, v + 1 };
	u64 x, step, w, bad = 0;

	memcpy(&x, pair, sizeof(x));
	memcpy(&step, two, sizeof(step));
	for (; i + 2 <= end; i += 2, v += 2, x += step) {
		memcpy(&w, row + i, sizeof(w));
		bad |= w ^ x;
	}
	if (i < end)
		bad |= row[i] ^ v;
	return bad;
}

/**
 * bfly_msg_rotation() - whether a round's destinations are a rotation
 * @dest: the round's N destinations (%BFLY_MSG_NONE for a message it does
 *	not move)
 * @ports: N, at most 2^31
 *
 * Return: s when @dest[i] = (i + s) mod N for every source i (an RLS or LLS
 * round without faults), else %BFLY_MSG_NONE.
 */
u32 bfly_msg_rotation(const u32 *dest, u32 ports)
{
	u32 s;

	if (!ports || dest[0] >= ports)
		return BFLY_MSG_NONE;
	s = dest[0];
	/* sources 0 .. N - 1 - s send to s .., the others to 0 .. */
	if (bfly_msg_counts_up(dest, 0, ports - s, s) |
	    bfly_msg_counts_up(dest, ports - s, ports, 0))
		return BFLY_MSG_NONE;
	return s;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_rotation);

/*
 * The destination of source @i in the @r-th round of the block's walk:
 * computed for a block of rotations, where the strips' walk down a column
 * of @blk->dest (a cache line per round) cost as much as the copy at
 * 64 bytes.
 */
static u32 bfly_msg_block_dest(const struct bfly_msg_block *blk, u32 i, u32 r, bool back)
{
	u32 row = back ? blk->rounds - 1 - r : r, d;

	if (blk->shift) {
		d = i + blk->shift[row];
		return d < blk->ports ? d : d - blk->ports;
	}
	return blk->dest[(u64)row * blk->ports + i];
}

/*
 * Where to prefetch for the message @distance after source @i's @r-th in
 * the walk: false when that is past the block or moves nothing.
 */
static bool bfly_msg_block_ahead(const struct bfly_msg_block *blk, u32 i, u32 r, u32 distance,
				 bool back, struct bfly_msg *ahead)
{
	u32 d;

	r += distance;
	while (r >= blk->rounds) {
		r -= blk->rounds;
		if (++i >= blk->ports)
			return false;
	}
	d = bfly_msg_block_dest(blk, i, r, back);
	if (d == BFLY_MSG_NONE)
		return false;
	*ahead = bfly_msg_block_msg(blk, i, d);
	return true;
}

/* Messages a block copies in one bfly_msg_copy_run() */
#define BFLY_MSG_RUN 32
/* Messages a run lists past its end to prefetch: bfly_msg_prefetch_distance() at most */
#define BFLY_MSG_RUN_AHEAD 8

/* Messages of at most this many bytes are walked in tiles */
#define BFLY_MSG_TILE_MAX 512
/* The bytes of a receive row a tile's group of sources fills */
#define BFLY_MSG_TILE_PAGE 4096
/* Sources of a tile, at most */
#define BFLY_MSG_TILE_SOURCES 64
/* Destinations of a tile */
#define BFLY_MSG_TILE_DESTS 16

/*
 * The walk of a block's messages in tiles of sources and destinations
 * (see bfly_msg_block_tile()): the group of @sources sources from
 * @first, their messages to destinations less than @end after @base
 * (counted on from @base, past N - 1 to 0), source by source; then the
 * next @dests destinations, and so on up to N, before the next group.
 * @base is where the group's first source begins: a block's destinations
 * of a source ascend from there, past N - 1 on to the lowest ones (on
 * RLS), which from 0 would all wait for the last tile and go to as many
 * receive rows one after another. @pos[k] is where source @first + k is
 * in its own walk of the block's rounds, @k the source being listed. A
 * walk of one source and N destinations is the plain source-row order.
 */
struct bfly_msg_walk {
	u32 first;
	u32 base;
	u32 end;
	u32 k;
	u32 sources;
	u32 dests;
	u32 pos[BFLY_MSG_TILE_SOURCES];
};

/*
 * Where a tile walk's group beginning with source @i starts: the first
 * destination of that source in the walk (0 if it sends nothing, or the
 * tiles span every destination).
 */
static u32 bfly_msg_walk_base(const struct bfly_msg_block *blk, const struct bfly_msg_walk *w,
			      u32 i, bool back)
{
	u32 pos, d;

	if (w->dests >= blk->ports || i >= blk->ports)
		return 0;
	for (pos = 0; pos < blk->rounds; pos++) {
		d = bfly_msg_block_dest(blk, i, pos, back);
		if (d != BFLY_MSG_NONE)
			return d;
	}
	return 0;
}

/*
 * The messages of the walk from @w on, up to @max of them and, with
 * @row, not past the end of the source group, into @msgs (and, if @src
 * is not NULL, their sources and destinations into @src and @dest); @w
 * moves past them. A source's messages follow its rounds in the walk's
 * order; one to a destination at or past @w->end (after @w->base) waits,
 * with those after it, for the tile that holds its destination, so every
 * message is listed once whatever the order of the destinations.
 */
static u32 bfly_msg_block_list(const struct bfly_msg_block *blk, struct bfly_msg_walk *w,
			       bool back, u32 max, bool row, struct bfly_msg *msgs, u32 *src,
			       u32 *dest)
{
	/* in locals: for the compiler, the stores to @msgs may change *@blk and *@w */
	const struct bfly_msg_block b = *blk;
	u32 ports = b.ports, rounds = b.rounds, base = w->base, end = w->end, n = 0;
	u32 group, i, d, k = w->k, pos;

	while (w->first < ports) {
		group = min_t(u32, w->sources, ports - w->first);
		for (; k < group; k++) {
			i = w->first + k;
			for (pos = w->pos[k]; pos < rounds; pos++) {
				d = bfly_msg_block_dest(&b, i, pos, back);
				if (d == BFLY_MSG_NONE)
					continue;
				/* d's place after base: this tile's, or a later one's */
				if ((d >= base ? d - base : d + ports - base) >= end)
					break;
				if (n == max) {
					w->pos[k] = pos;
					goto out;
				}
				msgs[n] = bfly_msg_block_msg(&b, i, d);
				if (src) {
					src[n] = i;
					dest[n] = d;
				}
				n++;
			}
			w->pos[k] = pos;
		}
		k = 0;
		if (end < ports) {
			end = min_t(u32, end, ports - w->dests) + w->dests;
			continue;
		}
		memset(w->pos, 0, group * sizeof(w->pos[0]));
		w->first += group;
		base = bfly_msg_walk_base(&b, w, w->first, back);
		end = min_t(u32, w->dests, ports);
		if (row)
			break;
	}
out:
	w->base = base;
	w->end = end;
	w->k = k;
	return n;
}

/*
 * The shape of the tiles a block of @blk's messages is walked in: with
 * cached stores and messages of at most %BFLY_MSG_TILE_MAX bytes, groups
 * of sources whose messages to one destination fill about a page of its
 * receive row (at most %BFLY_MSG_TILE_SOURCES), %BFLY_MSG_TILE_DESTS
 * destinations at a time. Source by source, each source's messages of a
 * block go to as many receive rows, one small piece each: a block of
 * 128 rounds of 64-byte messages writes 128 pages per source. In tiles
 * the pages a group writes are filled before it moves on, and those it
 * reads stay few. Longer messages, and streaming copies, go source row
 * by source row.
 */
static void bfly_msg_block_tile(const struct bfly_msg_block *blk, struct bfly_msg_walk *w,
				bool back)
{
	memset(w, 0, sizeof(*w));
	w->sources = 1;
	w->dests = blk->ports;
	if (!blk->stream && blk->size && blk->size <= BFLY_MSG_TILE_MAX) {
		w->sources = max_t(u64, 1, min_t(u64, BFLY_MSG_TILE_PAGE / blk->size,
						 BFLY_MSG_TILE_SOURCES));
		w->dests = min_t(u32, BFLY_MSG_TILE_DESTS, blk->ports);
	}
	w->base = bfly_msg_walk_base(blk, w, 0, back);
	w->end = w->dests;
}

/*
 * The first @copied messages listed with their sources @src and
 * destinations @dest have arrived: count their bytes, and mark them in
 * the done bitmap if there is one.
 */
static void bfly_msg_block_arrived(struct bfly_msg_block *blk, const u32 *src, const u32 *dest,
				   u32 copied)
{
	u32 k;

	blk->moved += (u64)copied * blk->size;
	if (blk->done)
		for (k = 0; k < copied; k++)
			__set_bit((u64)dest[k] * blk->ports + src[k], blk->done);
}

/*
 * A block of messages of at most %BFLY_MSG_PREFETCH_MAX bytes with cached
 * stores: runs of %BFLY_MSG_RUN messages, each with one access check and
 * one user-access section (bfly_msg_copy_run()), for which a message
 * alone pays as much as for its copy when it is small.
 */
static int bfly_msg_block_move_runs(struct bfly_msg_block *blk, bool back, u32 distance)
{
	struct bfly_msg msgs[BFLY_MSG_RUN + BFLY_MSG_RUN_AHEAD];
	u32 src[BFLY_MSG_RUN], dest[BFLY_MSG_RUN];
	u64 ports = blk->ports;
	struct bfly_msg_run run = {
		.msgs = msgs, .len = blk->size,
		.distance = min_t(u32, distance, BFLY_MSG_RUN_AHEAD),
		.bounds = { .src = blk->send, .dst = blk->recv },
		.bytes = ports * ports * blk->size,
	};
	struct bfly_msg_walk w, peek;
	int err;

	bfly_msg_block_tile(blk, &w, back);
	while (w.first < blk->ports) {
		/* sources and destinations only for the done bitmap */
		run.count = bfly_msg_block_list(blk, &w, back, BFLY_MSG_RUN, false, msgs,
						blk->done ? src : NULL, dest);
		run.listed = run.count;
		if (run.distance) {
			memcpy(&peek, &w, offsetof(struct bfly_msg_walk, pos) +
					  w.sources * sizeof(w.pos[0]));
			run.listed += bfly_msg_block_list(blk, &peek, back, run.distance, false,
							  msgs + run.count, NULL, NULL);
		}
		err = bfly_msg_copy_run(&run);
		bfly_msg_block_arrived(blk, src, dest, run.copied);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A streaming block of messages longer than %BFLY_MSG_PREFETCH_MAX: each
 * row's messages in groups of %BFLY_MSG_GROUP, consecutive in the walk
 * (their sources side by side, their destinations N slots apart), each
 * group interleaved by bfly_msg_copy_group_stream(). The stores are
 * fenced and a fatal signal stops the block at the end of every row (and
 * between the pieces of a group).
 */
static int bfly_msg_block_move_groups(struct bfly_msg_block *blk, bool back)
{
	struct bfly_msg msgs[BFLY_MSG_GROUP];
	u32 src[BFLY_MSG_GROUP], dest[BFLY_MSG_GROUP];
	struct bfly_msg_walk w;
	u32 row, n, copied;
	int err;

	bfly_msg_block_tile(blk, &w, back);
	while (w.first < blk->ports) {
		row = w.first;
		n = bfly_msg_block_list(blk, &w, back, BFLY_MSG_GROUP, true, msgs, src, dest);
		err = bfly_msg_copy_group_stream(msgs, n, blk->size, &copied);
		bfly_msg_block_arrived(blk, src, dest, copied);
		if (err)
			return err;
		/* the end of a row */
		if (w.first != row && w.first < blk->ports) {
			bfly_msg_stream_fence(true);
			if (bfly_should_stop())
				return -EINTR;
		}
	}
	return 0;
}

/*
 * Sources of a strip: a streaming block of line-sized messages goes strip
 * by strip. Eight: natively as fast as 16 (tests/bench/bench-a2a), and a
 * wave touches 9 pages, not 17. QEMU's TLB for a kernel's user accesses
 * was found at its 64 direct-mapped entries (Documentation/batch-speed.rst, "In
 * the VM"), where send rows N * 64 bytes apart share 4 entries: 8 rows fit
 * with its 8-entry victim TLB, 16 evict each other at every message.
 */
#define BFLY_MSG_STRIP 8

/*
 * The messages of the strip of @width sources from @i0 in wave order, from
 * wave @*t, its source @*j, up to @max of them, into @msgs (and, if @src
 * is not NULL, their sources and destinations into @src and @dest); @*t
 * and @*j move past them. Wave t holds the messages the walk
 * takes p-th from source i0 + j for every j + p = t, j ascending.
 */
static u32 bfly_msg_strip_list(const struct bfly_msg_block *blk, u32 i0, u32 width, bool back,
			       u32 *t, u32 *j, u32 max, struct bfly_msg *msgs, u32 *src, u32 *dest)
{
	/* in locals: for the compiler, the stores to @msgs may change *@blk, @t and @j */
	const struct bfly_msg_block b = *blk;
	u32 waves = width + b.rounds - 1, n = 0, tw = *t, jw = *j, i, d;

	while (n < max && tw < waves) {
		i = i0 + jw;
		d = bfly_msg_block_dest(&b, i, tw - jw, back);
		if (d != BFLY_MSG_NONE) {
			msgs[n] = bfly_msg_block_msg(&b, i, d);
			if (src) {
				src[n] = i;
				dest[n] = d;
			}
			n++;
		}
		if (jw + 1 < width && jw < tw) {
			jw++;
			continue;
		}
		tw++;
		jw = tw >= b.rounds ? tw - b.rounds + 1 : 0;
	}
	*t = tw;
	*j = jw;
	return n;
}

/*
 * A streaming block of messages of at most %BFLY_MSG_STRIP_MAX bytes:
 * strips of %BFLY_MSG_STRIP sources, each in waves (bfly_msg_strip_list()).
 * Where a source's destinations ascend from round to round of the walk
 * (RLS: d = i - k, the rounds backwards), a wave's messages all go to one
 * receive row, side by side, so the streaming stores fill one stretch of
 * it and the strip's send rows are read as %BFLY_MSG_STRIP ascending
 * streams: the blocked transpose's order. Source row by source row, every
 * message would go to another receive row. Runs of %BFLY_MSG_RUN messages
 * (bfly_msg_copy_run()); the stores are fenced, and a fatal signal stops
 * the block, at the end of each strip and every %BFLY_MSG_STRIP_STOP
 * bytes within one.
 */
static int bfly_msg_block_move_strips(struct bfly_msg_block *blk, bool back)
{
	struct bfly_msg msgs[BFLY_MSG_RUN];
	u32 src[BFLY_MSG_RUN], dest[BFLY_MSG_RUN];
	u64 ports = blk->ports;
	struct bfly_msg_run run = {
		.msgs = msgs, .len = blk->size, .stream = true,
		.bounds = { .src = blk->send, .dst = blk->recv },
		.bytes = ports * ports * blk->size,
	};
	u64 since = 0;
	u32 i0, width, t, j;
	int err;

	for (i0 = 0; i0 < blk->ports; i0 += width) {
		width = min_t(u32, BFLY_MSG_STRIP, blk->ports - i0);
		t = 0;
		j = 0;
		while (t < width + blk->rounds - 1) {
			if (since >= BFLY_MSG_STRIP_STOP) {
				bfly_msg_stream_fence(true);
				if (bfly_should_stop())
					return -EINTR;
				since = 0;
			}
			/* sources and destinations only for the done bitmap */
			run.count = bfly_msg_strip_list(blk, i0, width, back, &t, &j, BFLY_MSG_RUN,
							msgs, blk->done ? src : NULL, dest);
			run.listed = run.count;
			err = bfly_msg_copy_run(&run);
			bfly_msg_block_arrived(blk, src, dest, run.copied);
			if (err)
				return err;
			since += (u64)run.count * blk->size;
		}
		if (i0 + width < blk->ports) {
			bfly_msg_stream_fence(true);
			if (bfly_should_stop())
				return -EINTR;
			since = 0;
		}
	}
	return 0;
}

/**
 * bfly_msg_block_move() - move the payload of a block of rounds
 * @blk: the block; @blk->moved and @blk->done record each message as it
 *	arrives
 *
 * Source row by source row (see the top of this file), or strip by strip
 * for streaming messages of at most %BFLY_MSG_STRIP_MAX bytes; messages of
 * at most %BFLY_MSG_PREFETCH_MAX bytes in runs of %BFLY_MSG_RUN, one access
 * check and user-access section each (bfly_msg_copy_run()). With cached
 * stores each copy prefetches the message bfly_msg_prefetch_distance()
 * further on in this walk; streaming copies prefetch nothing (the reads are one
 * stream per row, which the CPU's own prefetchers follow, and a software
 * prefetch there only competes with them). Streaming stores are fenced
 * before the function returns. Long blocks give the CPU away between rows
 * (strips, and within a strip every %BFLY_MSG_STRIP_STOP bytes) and stop
 * for a fatal signal there; other signals wait for the block's end.
 *
 * Return: 0; -EFAULT (the messages before it have arrived); -EINTR for a
 * fatal signal.
 */
int bfly_msg_block_move(struct bfly_msg_block *blk)
{
	u32 distance = bfly_msg_prefetch_distance(blk->size);
	bool back = bfly_msg_block_backwards(blk);
	struct bfly_msg msg, ahead;
	const struct bfly_msg *pf;
	u32 i, r, d;
	int err;

	/* the shifts serve only a block whose rounds all are rotations */
	for (r = 0; blk->shift && r < blk->rounds; r++)
		if (blk->shift[r] == BFLY_MSG_NONE)
			blk->shift = NULL;
	if (blk->stream) {
		if (blk->size <= BFLY_MSG_STRIP_MAX)
			err = bfly_msg_block_move_strips(blk, back);
		else
			err = bfly_msg_block_move_groups(blk, back);
		bfly_msg_stream_fence(true);
		return err;
	}
	if (blk->size <= BFLY_MSG_PREFETCH_MAX)
		return bfly_msg_block_move_runs(blk, back, distance);
	/* longer messages with cached stores: source row by source row */
	for (i = 0; i < blk->ports; i++) {
		for (r = 0; r < blk->rounds; r++) {
			d = bfly_msg_block_dest(blk, i, r, back);
			if (d == BFLY_MSG_NONE)
				continue;
			msg = bfly_msg_block_msg(blk, i, d);
			pf = NULL;
			if (bfly_msg_block_ahead(blk, i, r, distance, back, &ahead))
				pf = &ahead;
			err = bfly_msg_copy_chunked(&msg, blk->size, pf, false);
			if (err)
				return err;
			blk->moved += blk->size;
			if (blk->done)
				__set_bit((u64)d * blk->ports + i, blk->done);
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_msg_block_move);
