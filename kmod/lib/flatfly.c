// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-flat (Documentation/routing.rst): the k-ary n-fly of
 * kfly.c with row r of switches (switch label r, n - 1 base-k digits)
 * combined into router r. Terminal t sits on router t / k. Links local
 * to a row vanish; every other link becomes a channel between two
 * routers whose labels differ in one digit, used in both directions: a
 * directed channel from router r to each of the k - 1 routers that differ
 * from r in digit b, for every b.
 *
 * Directed channel index: (r * dims + b) * (k - 1) + slot, where slot is
 * the target's digit b, less one when above r's own.
 *
 * The RLS paper (Section V-B) routes its all-to-all exchange on the 2-ary
 * n-flat by the Butterfly-Butterfly's labels: a packet that crosses an
 * edge stage of bfly2 that changes its row takes the channel of that
 * digit; a straight edge stays in the router: two dimension-order walks,
 * through the router the first butterfly leaves the packet on.
 * bfly_flatfly_rls_round() loads the channels so; bfly_flatfly_disjoint()
 * searches every routing, minimal or not, for one that uses no directed
 * channel twice.
 */
#include "compat.h"
#include "flatfly.h"
#include "rls.h"

/**
 * bfly_flatfly_init() - the shape of a k-ary n-flat
 * @f: receives the shape
 * @k: the radix of the k-ary n-fly
 * @ports: N, a power of @k with two digits or more
 * @why: on error, a short reason
 *
 * Return: 0, or -EINVAL as bfly_kfly_init() and for a single router.
 */
int bfly_flatfly_init(struct bfly_flatfly *f, u32 k, u32 ports, const char **why)
{
	int err = bfly_kfly_init(&f->fly, k, ports, why);

	if (err)
		return err;
	if (f->fly.n < 2) {
		*why = "ports: a flattened butterfly needs N >= k^2";
		return -EINVAL;
	}
	f->routers = f->fly.switches;
	f->dims = f->fly.n - 1;
	f->channels = f->routers * f->dims * (k - 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_init);

/**
 * bfly_flatfly_channel() - the directed channel between two routers
 * @f: the shape
 * @from: a router
 * @to: a router that differs from @from in exactly one digit
 *
 * Return: the channel's index, below @f->channels, or U32_MAX when the
 * routers are not neighbours.
 */
u32 bfly_flatfly_channel(const struct bfly_flatfly *f, u32 from, u32 to)
{
	u32 k = f->fly.k, b, m, df, dt, diff = U32_MAX;

	for (b = 0; b < f->dims; b++) {
		m = f->fly.pow[b];
		df = from / m % k;
		dt = to / m % k;
		if (df == dt)
			continue;
		if (diff != U32_MAX)
			return U32_MAX;
		diff = bfly_flatfly_channel_index(f, from, b, df, dt);
	}
	return diff;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_channel);

/**
 * bfly_flatfly_distance() - router hops on a minimal path
 * @f: the shape
 * @a: a router
 * @b: a router
 *
 * Return: the number of digits in which @a and @b differ.
 */
u32 bfly_flatfly_distance(const struct bfly_flatfly *f, u32 a, u32 b)
{
	u32 i, d = 0;

	for (i = 0; i < f->dims; i++)
		d += a / f->fly.pow[i] % f->fly.k != b / f->fly.pow[i] % f->fly.k;
	return d;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_distance);

/**
 * bfly_flatfly_dor_path() - a minimal dimension-order path
 * @f: the shape
 * @a: the router it starts on
 * @b: the router it ends on
 * @path: receives the channels, at most @f->dims
 *
 * The digits that differ are corrected from the top one down.
 *
 * Return: the hops.
 */
u32 bfly_flatfly_dor_path(const struct bfly_flatfly *f, u32 a, u32 b, u32 *path)
{
	u32 k = f->fly.k, d, m, da, db, diff, hops = 0;

	if (k == 2) {
		/* channel r dims + d per digit d: the bits that differ, top one first */
		for (diff = a ^ b; diff; diff ^= 1U << d) {
			d = ilog2(diff);
			path[hops++] = a * f->dims + d;
			a ^= 1U << d;
		}
		return hops;
	}
	for (d = f->dims; d-- > 0;) {
		da = bfly_flatfly_digit(f, a, d);
		db = bfly_flatfly_digit(f, b, d);
		if (da == db)
			continue;
		path[hops++] = bfly_flatfly_channel_index(f, a, d, da, db);
		m = f->fly.pow[d];
		a += (db - da) * m;
	}
	return hops;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_dor_path);

/* The router between the mapped path's two walks: label >> n. */
static inline u32 bfly_flatfly_mapped_mid(const struct bfly_flatfly *f, u64 label)
{
	return (label >> f->fly.n) & (f->routers - 1);
}

/* The terminal the mapped path ends on: the label's low n bits. */
static inline u32 bfly_flatfly_mapped_end(const struct bfly_flatfly *f, u64 label)
{
	return label & (f->fly.ports - 1);
}

/*
 * The channels a packet from terminal @src takes when it follows @label
 * through bfly2 as the RLS paper maps it: an edge stage that moves it to
 * another row is a hop on the channel of the digit that edge stage flips,
 * from its row's router. The channels go to @path, the terminal it
 * reaches to *@end. Return: the hops.
 *
 * The first butterfly corrects the row's digits from the top one down to
 * the label's bits 2n-2 .. n, the second to bits n-1 .. 1 (the last node
 * stage sets bit 0, the port): two dimension-order walks, the first to
 * router label >> n, the second on to router (label mod N) >> 1
 * (Documentation/routing.rst derives it).
 */
static u32 bfly_flatfly_mapped_path(const struct bfly_flatfly *f, u32 src, u64 label, u32 *path,
				    u32 *end)
{
	u32 mid = bfly_flatfly_mapped_mid(f, label), hops;

	*end = bfly_flatfly_mapped_end(f, label);
	hops = bfly_flatfly_dor_path(f, src >> 1, mid, path);
	return hops + bfly_flatfly_dor_path(f, mid, *end >> 1, path + hops);
}

/* The most router hops a path of either kind takes: 2n - 2 (mapped). */
static u32 bfly_flatfly_path_max(const struct bfly_flatfly *f)
{
	return 2 * f->dims;
}

/**
 * bfly_flatfly_round_workspace_size() - memory bfly_flatfly_round() needs
 * @f: the shape
 *
 * Return: bytes: two arrays of one u32 per channel (or one of u64), and
 * per terminal a path of 2n - 2 channels, its length, its place among the
 * packets that move and its position on its path.
 */
size_t bfly_flatfly_round_workspace_size(const struct bfly_flatfly *f)
{
	return ((size_t)2 * f->channels +
		(size_t)f->fly.ports * (bfly_flatfly_path_max(f) + 3)) * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_round_workspace_size);

/*
 * Move the packets along their paths, store and forward: each cycle every
 * channel takes the lowest-numbered packet waiting for it, and a packet
 * crosses one channel a cycle. @pos holds, in increasing order, the
 * packets that still move (@moving of them), @at how far each got; each
 * cycle drops those that arrived. Return: the cycles until the last hop,
 * or -EINTR.
 */
static int bfly_flatfly_forward(const struct bfly_flatfly *f, const u32 *path, const u32 *len,
				u32 *pos, u32 *at, u32 *stamp, u32 moving)
{
	u32 i, j, kept, ch, cycle = 0, stride = bfly_flatfly_path_max(f);

	memset(stamp, 0, f->channels * sizeof(u32));
	for (i = 0, j = 0; i < f->fly.ports; i++)
		if (len[i])
			pos[j++] = i;
	memset(at, 0, moving * sizeof(u32));
	while (moving) {
		cycle++;
		for (j = 0, kept = 0; j < moving; j++) {
			i = pos[j];
			ch = path[(size_t)i * stride + at[j]];
			if (stamp[ch] != cycle) {
				stamp[ch] = cycle;
				if (++at[j] == len[i])
					continue;
			}
			pos[kept] = i;
			at[kept++] = at[j];
		}
		moving = kept;
		if (bfly_should_stop())
			return -EINTR;
	}
	return cycle;
}

/*
 * The same run as bfly_flatfly_forward(), placed packet by packet: a
 * packet never waits for a higher-numbered one, so in increasing order
 * each crosses every channel of its path in the first cycle after its
 * previous hop's @t that no lower-numbered packet took. @busy holds one
 * u64 per channel, bit t for cycle t. Return: the hop's cycle, or 64 when
 * it would need cycle 64 or later.
 */
static __always_inline u32 bfly_flatfly_place_hop(u64 *busy, u32 ch, u32 t)
{
	u64 free;

	if (t >= 63)
		return 64;
	free = ~busy[ch] & (~0ULL << (t + 1));
	if (!free)
		return 64;
	t = __builtin_ctzll(free);
	busy[ch] |= 1ULL << t;
	return t;
}

/*
 * Radix 2: the dimension-order walk from router @a to router @b placed
 * hop by hop after cycle @t (bfly_flatfly_place_hop()), the path never
 * stored; its hops are added to *@hops. Return: the last hop's cycle, 64
 * when a hop would need cycle 64 or later.
 */
static __always_inline u32 bfly_flatfly_place_walk2(u64 *busy, u32 dims, u32 a, u32 b, u32 t,
						    u32 *hops)
{
	u32 d, diff;

	for (diff = a ^ b; diff && t < 64; diff ^= 1U << d) {
		d = ilog2(diff);
		t = bfly_flatfly_place_hop(busy, a * dims + d, t);
		a ^= 1U << d;
		(*hops)++;
	}
	return t;
}

/*
 * Packet @i's path in a round, its hops to *@len: mapped by its label, or
 * a minimal one. Return: false for a label that does not deliver it to
 * @dest.
 */
static __always_inline bool bfly_flatfly_path(const struct bfly_flatfly *f, u32 i, u32 dest,
					      const u64 *labels, u32 *path, u32 *len)
{
	u32 end;

	if (!labels) {
		*len = bfly_flatfly_dor_path(f, bfly_flatfly_router(f, i),
					     bfly_flatfly_router(f, dest), path);
		return true;
	}
	*len = bfly_flatfly_mapped_path(f, i, labels[i], path, &end);
	return end == dest;
}

/**
 * bfly_flatfly_round() - one round of an exchange on the k-ary n-flat
 * @f: the shape
 * @dest: N destinations, a permutation of the terminals, or a partial
 *	one: %BFLY_FLATFLY_IDLE for a terminal that sends nothing
 * @labels: NULL for minimal dimension-order routes; or, on the 2-ary
 *	n-flat, the round's bfly2 labels, followed as the RLS paper maps them
 * @st: receives the round's figures
 * @work: bfly_flatfly_round_workspace_size() bytes
 *
 * A cycle lets every channel carry one packet: a terminal's injection
 * channel, each directed channel between routers, a terminal's ejection
 * channel. Every terminal injects its packet in cycle 0; the packets
 * cross the routers store and forward (bfly_flatfly_forward()) and are
 * ejected the cycle after their last hop. A message to the sender's own
 * terminal takes no channel unless its path leaves the router.
 *
 * Each packet is placed as its path is made (bfly_flatfly_place_hop()); a
 * channel's load is the cycles it is busy. A round whose last hop would
 * pass cycle 63 runs again by the cycle-by-cycle simulation.
 *
 * Return: 0; -EINVAL for a destination of N or more, labels on a radix
 * other than 2, or a label that does not deliver its packet to @dest;
 * -EINTR.
 */
int bfly_flatfly_round(const struct bfly_flatfly *f, const u32 *dest, const u64 *labels,
		       struct bfly_flatfly_round_stats *st, void *work)
{
	u32 *stamp = (u32 *)work + f->channels, *len = stamp + f->channels;
	u32 *pos = len + f->fly.ports, *at = pos + f->fly.ports, *path = at + f->fly.ports;
	u32 i, c, h, t, n, stride = bfly_flatfly_path_max(f), moving = 0, last = 0;
	u32 hop[2 * BFLY_MAX_PORTS_LOG2];
	bool network = false;
	u64 *busy = work;
	int cycles;

	if (labels && f->fly.k != 2)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	memset(busy, 0, f->channels * sizeof(u64));
	for (i = 0; i < f->fly.ports; i++) {
		if (dest[i] == BFLY_FLATFLY_IDLE)
			continue;
		if (dest[i] >= f->fly.ports)
			return -EINVAL;
		if (f->fly.k == 2) {
			u32 a = i >> 1, b = dest[i] >> 1;
			u32 m = labels ? bfly_flatfly_mapped_mid(f, labels[i]) : b;

			if (labels && bfly_flatfly_mapped_end(f, labels[i]) != dest[i])
				return -EINVAL;
			n = 0;
			t = bfly_flatfly_place_walk2(busy, f->dims, a, m, 0, &n);
			t = bfly_flatfly_place_walk2(busy, f->dims, m, b, t, &n);
		} else {
			if (!bfly_flatfly_path(f, i, dest[i], labels, hop, &n))
				return -EINVAL;
			for (h = 0, t = 0; h < n && t < 64; h++)
				t = bfly_flatfly_place_hop(busy, hop[h], t);
		}
		if (t >= 64)
			goto simulate;
		network |= dest[i] != i || n;
		st->hops += n;
		if (t > last)
			last = t;
	}
	/* a channel's load is its busy cycles; the excess, hops past one each */
	st->excess = st->hops;
	st->max_load = !!st->hops;
	for (c = 0; c < f->channels; c++) {
		st->excess -= !!busy[c];
		if (busy[c] & (busy[c] - 1)) {
			t = hweight64(busy[c]);
			if (t > st->max_load)
				st->max_load = t;
		}
	}
	st->cycles = network ? last + 2 : 0;
	return 0;

simulate:
	memset(st, 0, sizeof(*st));
	memset(stamp, 0, f->channels * sizeof(u32));
	for (i = 0; i < f->fly.ports; i++) {
		len[i] = 0;
		if (dest[i] == BFLY_FLATFLY_IDLE)
			continue;
		if (!bfly_flatfly_path(f, i, dest[i], labels, path + (size_t)i * stride, &n))
			return -EINVAL;
		len[i] = n;
		network |= dest[i] != i || n;
		moving += n > 0;
		st->hops += n;
		for (c = 0; c < n; c++)
			stamp[path[(size_t)i * stride + c]]++;
	}
	for (c = 0; c < f->channels; c++) {
		if (stamp[c] > st->max_load)
			st->max_load = stamp[c];
		st->excess += stamp[c] > 1 ? stamp[c] - 1 : 0;
	}
	cycles = bfly_flatfly_forward(f, path, len, pos, at, stamp, moving);
	if (cycles < 0)
		return cycles;
	st->cycles = network ? cycles + 2 : 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_round);

/**
 * bfly_flatfly_rls_round() - an RLS round on the 2-ary n-flat, as the paper
 *	maps it
 * @f: a 2-ary n-flat
 * @k: the round, 0 .. N-1
 * @labels: scratch, N u64: the round's labels (Algorithm 1)
 * @load: receives @f->channels counts: the packets on each directed channel
 * @hops: receives the channel hops of the round's packets in all
 * @delivered: receives N entries: the terminal each input reaches
 *
 * Each packet follows its label through bfly2 (2n - 1 node stages): an
 * edge stage that moves it to another row is a hop on the channel of the
 * digit that edge stage flips.
 *
 * Return: 0, or -EINVAL for k != 2 or a round past N - 1.
 */
int bfly_flatfly_rls_round(const struct bfly_flatfly *f, u32 k, u64 *labels, u32 *load,
			   u32 *hops, u32 *delivered)
{
	u32 path[2 * BFLY_MAX_PORTS_LOG2];
	u32 i, s, n, ports = f->fly.ports;
	int err;

	if (f->fly.k != 2 || k >= ports)
		return -EINVAL;
	err = bfly_rls_labels_round(ports, k, labels);
	if (err)
		return err;
	memset(load, 0, f->channels * sizeof(u32));
	*hops = 0;
	for (i = 0; i < ports; i++) {
		n = bfly_flatfly_mapped_path(f, i, labels[i], path, &delivered[i]);
		for (s = 0; s < n; s++)
			load[path[s]]++;
		*hops += n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_rls_round);

/* The search's state: which packet, where it is, the routers it visited. */
struct bfly_flatfly_search {
	const struct bfly_flatfly *f;
	const u32 *perm;
	u8 *used;
	u32 steps;
	u32 max_steps;
};

static int bfly_flatfly_next(struct bfly_flatfly_search *x, u32 i);

/* Extend packet @i's path from router @at; the rest follow when it arrives. */
static int bfly_flatfly_walk(struct bfly_flatfly_search *x, u32 i, u32 at, u64 visited)
{
	const struct bfly_flatfly *f = x->f;
	u32 k = f->fly.k, b, v, m, to, ch;
	int ret;

	if (at == x->perm[i] / k)
		return bfly_flatfly_next(x, i + 1);
	for (b = 0; b < f->dims; b++) {
		m = f->fly.pow[b];
		for (v = 0; v < k; v++) {
			to = at - at / m % k * m + v * m;
			if (to == at || (visited & (1ULL << to)))
				continue;
			ch = bfly_flatfly_channel(f, at, to);
			if (x->used[ch])
				continue;
			if (++x->steps > x->max_steps)
				return -E2BIG;
			x->used[ch] = 1;
			ret = bfly_flatfly_walk(x, i, to, visited | (1ULL << to));
			if (ret)
				return ret;
			x->used[ch] = 0;
		}
	}
	return 0;
}

/* Route packet @i and every later one; 1 when all found a path. */
static int bfly_flatfly_next(struct bfly_flatfly_search *x, u32 i)
{
	u32 from;

	if (i == x->f->fly.ports)
		return 1;
	from = i / x->f->fly.k;
	return bfly_flatfly_walk(x, i, from, 1ULL << from);
}

/**
 * bfly_flatfly_disjoint() - is there a routing that loads no channel twice
 * @f: the shape, its channels + 2 N at most %BFLY_FLATFLY_SEARCH_DEPTH
 * @perm: N destinations
 * @max_steps: the most channel choices to try
 * @used: @f->channels bytes, zeroed: on success, the channels the routing
 *	found uses (1)
 * @steps: receives the channel choices tried
 *
 * Depth-first over every simple path (minimal or not) of every packet in
 * input order; a packet whose destination shares its router uses no
 * channel. A walk that repeats a router frees nothing a simple path needs,
 * so simple paths are enough.
 *
 * Return: 1 when such a routing exists, 0 when none does, -E2BIG when
 * @max_steps ran out, -EINVAL for a fabric too large to search.
 */
int bfly_flatfly_disjoint(const struct bfly_flatfly *f, const u32 *perm, u32 max_steps,
			  u8 *used, u32 *steps)
{
	struct bfly_flatfly_search x = {
		.f = f, .perm = perm, .used = used, .max_steps = max_steps,
	};
	int ret;

	if (f->channels + 2 * f->fly.ports > BFLY_FLATFLY_SEARCH_DEPTH)
		return -EINVAL;
	ret = bfly_flatfly_next(&x, 0);
	*steps = x.steps;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_flatfly_disjoint);
