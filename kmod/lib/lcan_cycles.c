// SPDX-License-Identifier: GPL-2.0
/*
 * Message sets routed on an LCAN in network cycles (LCAN paper, Section
 * 3; Documentation/lcan.rst). A message set is any list of (source,
 * destination) pairs: repeated sources and destinations make an
 * h-relation. Switches hold no buffers: a cycle routes a set of paths
 * that share no wire, each processor sending and receiving once at most;
 * a message whose way is blocked waits for a later cycle.
 *
 * The load factor of a channel is its load over its capacity (Section
 * 3.2). Bi-directionally a channel is the bundle of wires from a group of
 * level i (bfly_lcan_group()) up to level i + 1, or the bundle down, or a
 * processor's own wire; a message of LCA level L crosses the bundles of
 * its source's groups up and its destination's groups down below L,
 * whatever its path. Uni-directionally every wire is a channel of
 * capacity one on the message's one path. No cycle carries more than the
 * capacity of a channel, so ceil(lambda(M)) cycles at least (Theorem 3).
 */
#include "compat.h"
#include "lcan.h"
#include "rand.h"

/*
 * The state of one network cycle, with the shape's per-level constants
 * and the groups of the message in hand. Connectors number 2^26 at most,
 * so a setting entry fits in a u32.
 */
struct bfly_lcan_cycle {
	const struct bfly_lcan *g;
	unsigned long *used;	/* connectors' outgoing wires taken */
	unsigned long *sent;	/* processors that sent */
	u64 rng;
	u32 claim[BFLY_LCAN_MAX_HOPS];
	u32 claims;
	u32 tags[BFLY_LCAN_MAX_LEVELS];
	u32 wires[BFLY_LCAN_MAX_LEVELS];
	bool pow2;		/* d and the arity powers of 2: shifts */
	u32 dshift;		/* log2 d */
	u32 ashift;		/* log2 arity */
	u32 conn0[BFLY_LCAN_MAX_LEVELS];	/* first_conn[i] */
	u32 conns[BFLY_LCAN_MAX_LEVELS];	/* connectors of a switch */
	u32 swmul[BFLY_LCAN_MAX_LEVELS];	/* u^i on a CB-LCAN, else 1 */
	/* pa[0] = a, pa[i + 1] its group at level i; pb the same of b */
	u32 pa[BFLY_LCAN_MAX_LEVELS + 1];
	u32 pb[BFLY_LCAN_MAX_LEVELS + 1];
	u32 lo[BFLY_LCAN_MAX_LEVELS];	/* base-u part of the switch going up */
	u32 lca;
	struct bfly_lcan_path *path;	/* a given path, in the workspace */
};

static void bfly_lcan_cycle_init(struct bfly_lcan_cycle *st, const struct bfly_lcan *g,
				 void *work, u64 seed)
{
	u32 i;

	memset(st, 0, sizeof(*st));
	st->g = g;
	st->used = work;
	st->sent = st->used + BITS_TO_LONGS(g->first_conn[g->levels]);
	st->rng = seed;
	st->pow2 = is_power_of_2(g->d) && is_power_of_2(g->arity);
	if (st->pow2) {
		st->dshift = ilog2(g->d);
		st->ashift = ilog2(g->arity);
	}
	for (i = 0; i < g->levels; i++) {
		st->conn0[i] = g->first_conn[i];
		st->conns[i] = bfly_lcan_conns(g, i);
		st->swmul[i] = g->kind == BFLY_LCAN_CB ? g->upow[i] : 1;
	}
}

/* The on-line strategy's random numbers */
static u64 bfly_lcan_rand(struct bfly_lcan_cycle *st)
{
	return bfly_splitmix64(&st->rng);
}

/* @z mod @f (f > 0) with no 64-bit division. */
static u32 bfly_lcan_mod(u64 z, u32 f)
{
	u32 hi = z >> 32, lo = z, i;
	u64 r;

	if (is_power_of_2(f))
		return lo & (f - 1);
	if (f <= 0xffff)
		return (hi % f * ((0U - f) % f) + lo % f) % f;
	r = hi % f;
	for (i = 32; i--;) {
		r = r << 1 | (lo >> i & 1);
		if (r >= f)
			r -= f;
	}
	return r;
}

/* The setting entry of connector 0 of a switch: group @h, base-u part @lo. */
static u32 bfly_lcan_at(const struct bfly_lcan_cycle *st, u32 i, u32 h, u32 lo)
{
	return st->conn0[i] + (h * st->swmul[i] + lo) * st->conns[i];
}

/*
 * The LCA level of @a and @b, also to st->lca; their groups up to it go
 * to st->pa and st->pb.
 */
static u32 bfly_lcan_pair(struct bfly_lcan_cycle *st, u32 a, u32 b)
{
	const struct bfly_lcan *g = st->g;
	u32 i, x = a, y = b, s = st->dshift;

	st->pa[0] = a;
	st->pb[0] = b;
	for (i = 0;; i++) {
		if (st->pow2) {
			x = a >> s;
			y = b >> s;
			s += st->ashift;
		} else {
			x /= i ? g->arity : g->d;
			y /= i ? g->arity : g->d;
		}
		st->pa[i + 1] = x;
		st->pb[i + 1] = y;
		if (x == y || i + 1 >= g->levels)
			break;
	}
	st->lca = i;
	return i;
}

/* The setting entry of the downer of level 0 to st->pb[0], the last wire. */
static u32 bfly_lcan_last(const struct bfly_lcan_cycle *st)
{
	return bfly_lcan_at(st, 0, st->pb[1], 0) + st->pb[0] - st->pb[1] * st->g->d;
}

/* The groups of @a at every level, to st->pa. */
static void bfly_lcan_groups(struct bfly_lcan_cycle *st, u32 a)
{
	const struct bfly_lcan *g = st->g;
	u32 i, s = st->dshift;

	st->pa[0] = a;
	for (i = 0; i < g->levels; i++) {
		if (st->pow2) {
			st->pa[i + 1] = a >> s;
			s += st->ashift;
		} else {
			st->pa[i + 1] = st->pa[i] / (i ? g->arity : g->d);
		}
	}
}

/* The base-u digits of output @out, most significant first, to st->tags. */
static void bfly_lcan_out_digits(struct bfly_lcan_cycle *st, u32 out)
{
	const struct bfly_lcan *g = st->g;
	u32 i;

	for (i = g->levels; i-- > 0; out /= g->u)
		st->tags[i] = out % g->u;
}

/* The free ones of the @n (1 .. BITS_PER_LONG) bits from @e, in one word. */
static unsigned long bfly_lcan_free_bits(const unsigned long *used, u32 e, u32 n)
{
	return ~used[BIT_WORD(e)] >> (e % BITS_PER_LONG) & (~0UL >> (BITS_PER_LONG - n));
}

/*
 * The place of set bit @pick (from 0) of @bits, whose bits lie below @n:
 * a binary search in fixed steps, with no branch on the bits.
 */
static u32 bfly_lcan_select(unsigned long bits, u32 n, u32 pick)
{
	u32 width, at = 0, c, upper;

	for (width = n > 1 ? 1U << ilog2(n - 1) : 0; width; width >>= 1) {
		c = hweight64(bits & ((1UL << width) - 1));
		upper = 0U - (pick >= c);
		pick -= c & upper;
		bits >>= width & upper;
		at += width & upper;
	}
	return at;
}

/* bfly_lcan_pick() when the @n bits from @e spread over words: count, then find. */
static u32 bfly_lcan_pick_wide(struct bfly_lcan_cycle *st, u32 e, u32 n, bool random)
{
	u32 x, take, free = 0, pick = 0;
	unsigned long bits;

	for (x = e; random && x < e + n; x += take) {
		take = min_t(u32, BITS_PER_LONG - x % BITS_PER_LONG, e + n - x);
		free += hweight64(bfly_lcan_free_bits(st->used, x, take));
	}
	if (random) {
		if (!free)
			return U32_MAX;
		pick = bfly_lcan_mod(bfly_lcan_rand(st), free);
	}
	for (x = e; x < e + n; x += take) {
		take = min_t(u32, BITS_PER_LONG - x % BITS_PER_LONG, e + n - x);
		bits = bfly_lcan_free_bits(st->used, x, take);
		free = hweight64(bits);
		if (pick < free)
			return x - e + bfly_lcan_select(bits, take, pick);
		pick -= free;
	}
	return U32_MAX;
}

/*
 * A free connector of the @n from entry @e: a random one, or the first;
 * U32_MAX when none is free.
 */
static u32 bfly_lcan_pick(struct bfly_lcan_cycle *st, u32 e, u32 n, bool random)
{
	unsigned long bits;
	u32 pick = 0;

	if (e % BITS_PER_LONG + n > BITS_PER_LONG)
		return bfly_lcan_pick_wide(st, e, n, random);
	bits = bfly_lcan_free_bits(st->used, e, n);
	if (!bits)
		return U32_MAX;
	if (random)
		pick = bfly_lcan_mod(bfly_lcan_rand(st), hweight64(bits));
	return bfly_lcan_select(bits, n, pick);
}

/* Note entry @e, tested free, for bfly_lcan_commit(). */
static void bfly_lcan_note(struct bfly_lcan_cycle *st, u32 e)
{
	st->claim[st->claims++] = e;
}

/* Take the noted wires. */
static void bfly_lcan_commit(struct bfly_lcan_cycle *st)
{
	u32 c;

	for (c = 0; c < st->claims; c++)
		__set_bit(st->claim[c], st->used);
}

/* Take the outgoing wire of entry @e at once, if free. */
static bool bfly_lcan_claim(struct bfly_lcan_cycle *st, u32 e)
{
	if (__test_and_set_bit(e, st->used))
		return false;
	bfly_lcan_note(st, e);
	return true;
}

/* Give back the wires taken since @keep. */
static void bfly_lcan_release(struct bfly_lcan_cycle *st, u32 keep)
{
	while (st->claims > keep)
		__clear_bit(st->claim[--st->claims], st->used);
}

/*
 * On-line, and off-line on a tree: up by a random free upper (the first
 * free one off-line: a tree's uppers all reach one parent), then down by
 * the first free wire of each channel (a CB-LCAN's way down has one).
 * The wires up are uppers and those down downers, each level's its own,
 * so the path is tested whole and taken at the end.
 */
static bool bfly_lcan_route_greedy(struct bfly_lcan_cycle *st, u32 a, u32 b, bool random)
{
	const struct bfly_lcan *g = st->g;
	u32 lca = bfly_lcan_pair(st, a, b), lo = 0, i, e, k;
	bool cb = g->kind == BFLY_LCAN_CB;

	for (i = 0; i < lca; i++) {
		e = bfly_lcan_at(st, i, st->pa[i + 1], lo) + g->down[i];
		k = bfly_lcan_pick(st, e, g->up[i], random);
		if (k == U32_MAX)
			return false;
		bfly_lcan_note(st, e + k);
		st->tags[i] = k;
		st->lo[i] = lo;
		if (cb)
			lo = lo * g->u + k;
	}
	for (i = lca; i > 0; i--) {
		/* the child group that holds b */
		u32 child = st->pb[i] - st->pb[i + 1] * g->arity, w = 0;

		e = bfly_lcan_at(st, i, st->pb[i + 1], lo);
		if (cb) {
			e += child;
			if (test_bit(e, st->used))
				return false;
		} else {
			e += child * g->up[i - 1];
			w = bfly_lcan_pick(st, e, g->up[i - 1], false);
			if (w == U32_MAX)
				return false;
			e += w;
		}
		bfly_lcan_note(st, e);
		st->wires[i - 1] = w;
		lo = st->lo[i - 1];
	}
	e = bfly_lcan_last(st);
	if (test_bit(e, st->used))
		return false;
	bfly_lcan_note(st, e);
	bfly_lcan_commit(st);
	return true;
}

/*
 * Off-line on a CB-LCAN: choose the up-choices k_0, k_1, ... depth first.
 * With k_0 .. k_j chosen, the way up leaves its level-j switch (base-u
 * part @lo) by upper k_j and the way down leaves the level-(j + 1) switch
 * with the same base-u part on b's side by downer b_(j+1): both wires are
 * tried at once.
 */
static bool bfly_lcan_route_search(struct bfly_lcan_cycle *st, u32 j, u32 lo)
{
	const struct bfly_lcan *g = st->g;
	u32 up, digit, k;

	if (j == st->lca)
		return true;
	up = bfly_lcan_at(st, j, st->pa[j + 1], lo) + g->d;
	digit = st->pb[j + 1] - st->pb[j + 2] * g->d;
	for (k = 0; k < g->u; k++) {
		u32 keep = st->claims, next = lo * g->u + k;

		if (!bfly_lcan_claim(st, up + k))
			continue;
		if (bfly_lcan_claim(st, bfly_lcan_at(st, j + 1, st->pb[j + 2], next) + digit)) {
			st->tags[j] = k;
			st->wires[j] = 0;
			if (bfly_lcan_route_search(st, j + 1, next))
				return true;
		}
		bfly_lcan_release(st, keep);
	}
	return false;
}

/* Uni-directionally: up by the output's digits, every wire free. */
static bool bfly_lcan_route_uni(struct bfly_lcan_cycle *st, u32 a, u32 out)
{
	const struct bfly_lcan *g = st->g;
	u32 lo = 0, i, e;

	bfly_lcan_groups(st, a);
	bfly_lcan_out_digits(st, out);
	for (i = 0; i < g->levels; i++) {
		e = bfly_lcan_at(st, i, st->pa[i + 1], lo) + g->d + st->tags[i];
		if (test_bit(e, st->used))
			return false;
		bfly_lcan_note(st, e);
		lo = lo * g->u + st->tags[i];
	}
	bfly_lcan_commit(st);
	return true;
}

/*
 * The caller's path @c (2 l choices) from @a to @b, if all its wires are
 * free: the tags up, the turn, the wires down (bfly_lcan_pair_path()).
 */
static bool bfly_lcan_route_given(struct bfly_lcan_cycle *st, u32 a, u32 b, const u32 *c)
{
	const struct bfly_lcan *g = st->g;
	struct bfly_lcan_path *path = st->path;
	u32 h, e;

	if (bfly_lcan_pair_path(g, a, b, c, c + g->levels, path))
		return false;
	for (h = 0; h < path->count; h++) {
		const struct bfly_lcan_hop *x = &path->hops[h];

		e = bfly_lcan_entry(g, x->level, x->sw, x->out);
		if (test_bit(e, st->used))
			return false;
		bfly_lcan_note(st, e);
	}
	bfly_lcan_commit(st);
	st->lca = path->lca_level;
	for (h = 0; h < st->lca; h++) {
		st->tags[h] = c[h];
		st->wires[h] = g->kind == BFLY_LCAN_CB ? 0 : c[g->levels + h];
	}
	return true;
}

/* Route message @m in the cycle @st, or take nothing. */
static bool bfly_lcan_route_one(struct bfly_lcan_cycle *st, const struct bfly_lcan_msgset *ms,
				u32 m)
{
	const struct bfly_lcan *g = st->g;
	u32 a = ms->src[m], b = ms->dst[m], l = g->levels, tags = l, wires = 0, i;
	bool ok;

	if (test_bit(a, st->sent))
		return false;
	st->claims = 0;
	if (ms->given) {
		ok = bfly_lcan_route_given(st, a, b, ms->given + (u64)m * 2 * l);
	} else if (ms->mode == BFLY_LCAN_UNIDIR) {
		ok = bfly_lcan_route_uni(st, a, b);
	} else if (ms->strategy == BFLY_LCAN_ONLINE || g->kind != BFLY_LCAN_CB) {
		ok = bfly_lcan_route_greedy(st, a, b, ms->strategy == BFLY_LCAN_ONLINE);
	} else {
		bfly_lcan_pair(st, a, b);
		ok = bfly_lcan_claim(st, bfly_lcan_last(st)) && bfly_lcan_route_search(st, 0, 0);
		if (!ok)
			bfly_lcan_release(st, 0);
	}
	if (!ok)
		return false;
	__set_bit(a, st->sent);
	if (ms->choices) {
		u32 *c = ms->choices + (u64)m * 2 * l;

		if (ms->mode == BFLY_LCAN_BIDIR) {
			tags = st->lca;
			wires = st->lca;
		}
		for (i = 0; i < l; i++) {
			c[i] = i < tags ? st->tags[i] : 0;
			c[l + i] = i < wires ? st->wires[i] : 0;
		}
	}
	return true;
}

/**
 * bfly_lcan_channels() - channels of the load report
 * @g: the shape
 * @mode: one of &enum bfly_lcan_mode
 *
 * Bi-directionally: the N processors' wires up, then for each level i
 * below l - 1 its groups' bundles up, group by group; then the same down.
 * Uni-directionally: the processors' wires, then each level's uppers,
 * switch by switch (the top level's are the outputs).
 *
 * Return: the number of channels.
 */
u64 bfly_lcan_channels(const struct bfly_lcan *g, u32 mode)
{
	u64 n = g->ports;
	u32 i;

	for (i = 0; i < g->levels; i++) {
		if (mode == BFLY_LCAN_UNIDIR)
			n += (u64)g->switches[i] * g->up[i];
		else if (i + 1 < g->levels)
			n += g->groups[i];
	}
	return mode == BFLY_LCAN_UNIDIR ? n : 2 * n;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_channels);

/* The wires of a group's bundle at level @i: a group is whole switches. */
static u32 bfly_lcan_bundle_cap(const struct bfly_lcan *g, u32 i)
{
	return g->switches[i] / g->groups[i] * g->up[i];
}

/**
 * bfly_lcan_channel_cap() - the capacity of a channel
 * @g: the shape
 * @mode: one of &enum bfly_lcan_mode
 * @ch: the channel, as bfly_lcan_channels() orders them
 *
 * Return: its wires: 1 for a processor's and every uni-directional one;
 * the bundle of a group of level i has S_i up[i] / groups_i (u^(i+1) on a
 * CB-LCAN and a fat tree, u on a T-LCAN).
 */
u32 bfly_lcan_channel_cap(const struct bfly_lcan *g, u32 mode, u64 ch)
{
	u32 i;

	if (mode == BFLY_LCAN_UNIDIR)
		return 1;
	ch %= bfly_lcan_channels(g, mode) / 2;
	if (ch < g->ports)
		return 1;
	ch -= g->ports;
	for (i = 0; ch >= g->groups[i]; i++)
		ch -= g->groups[i];
	return bfly_lcan_bundle_cap(g, i);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_channel_cap);

/*
 * Every channel's load, from the set alone (the paths of a uni-directional
 * one), in one pass over a message's groups level by level; the channels
 * of level i start at base[i].
 */
static void bfly_lcan_loads(struct bfly_lcan_cycle *st, const struct bfly_lcan_msgset *ms,
			    u32 *load)
{
	const struct bfly_lcan *g = st->g;
	u32 half = bfly_lcan_channels(g, ms->mode) / 2, base[BFLY_LCAN_MAX_LEVELS];
	u32 m, i, n = g->ports, lo;

	for (i = 0; i < g->levels; i++) {
		base[i] = n;
		n += ms->mode == BFLY_LCAN_UNIDIR ? g->switches[i] * g->up[i] : g->groups[i];
	}
	memset(load, 0, bfly_lcan_channels(g, ms->mode) * sizeof(*load));
	for (m = 0; m < ms->count; m++) {
		u32 a = ms->src[m], b = ms->dst[m];

		load[a]++;
		if (ms->mode == BFLY_LCAN_UNIDIR) {
			bfly_lcan_groups(st, a);
			bfly_lcan_out_digits(st, b);
			for (i = 0, lo = 0; i < g->levels; i++) {
				load[base[i] + (st->pa[i + 1] * st->swmul[i] + lo) * g->u +
				     st->tags[i]]++;
				lo = lo * g->u + st->tags[i];
			}
			continue;
		}
		load[half + b]++;
		n = bfly_lcan_pair(st, a, b);
		for (i = 0; i < n; i++) {
			load[base[i] + st->pa[i + 1]]++;
			load[half + base[i] + st->pb[i + 1]]++;
		}
	}
}

/*
 * lambda(M): the first channel of the greatest load over capacity, found
 * as the greatest load of each run of channels of one capacity.
 */
static void bfly_lcan_lambda(const struct bfly_lcan *g, struct bfly_lcan_msgset *ms,
			     const u32 *load)
{
	u32 channels = bfly_lcan_channels(g, ms->mode), ch = 0, end, cap, top, i;

	ms->lambda_load = 0;
	ms->lambda_cap = 1;
	for (i = 0; ch < channels; i++) {
		/* bi-directionally: PEs' wires, each level's bundles; twice */
		u32 at = i % g->levels;

		cap = 1;
		end = channels;
		if (ms->mode == BFLY_LCAN_BIDIR) {
			end = ch + (at ? g->groups[at - 1] : g->ports);
			cap = at ? bfly_lcan_bundle_cap(g, at - 1) : 1;
		}
		for (top = 0; ch < end; ch++)
			top = max_t(u32, top, load[ch]);
		if ((u64)top * ms->lambda_cap > (u64)ms->lambda_load * cap) {
			ms->lambda_load = top;
			ms->lambda_cap = cap;
		}
	}
	ms->bound = (ms->lambda_load + ms->lambda_cap - 1) / ms->lambda_cap;
}

/* Are message @m's given tags (and wires on a tree) below the uppers? */
static bool bfly_lcan_given_ok(const struct bfly_lcan *g, const struct bfly_lcan_msgset *ms,
			       u32 m)
{
	const u32 *c = ms->given + (u64)m * 2 * g->levels;
	u32 lca = bfly_lcan_lca_level(g, ms->src[m], ms->dst[m]), i;

	for (i = 0; i < lca; i++)
		if (c[i] >= g->up[i] ||
		    (g->kind != BFLY_LCAN_CB && c[g->levels + i] >= g->up[i]))
			return false;
	return true;
}

/**
 * bfly_lcan_msgset_check() - is a message set one this LCAN can route?
 * @g: the shape
 * @ms: the set: @src, @dst, @count, @mode, @strategy, @given
 * @bad: on error, receives the message at fault (or 0)
 * @why: on error, a short reason
 *
 * Return: 0, or -EINVAL.
 */
int bfly_lcan_msgset_check(const struct bfly_lcan *g, const struct bfly_lcan_msgset *ms,
			   u32 *bad, const char **why)
{
	u64 outs = g->ports;
	u32 m;

	*bad = 0;
	if (ms->strategy > BFLY_LCAN_OFFLINE) {
		*why = "strategy: on-line or off-line";
		return -EINVAL;
	}
	if (ms->mode == BFLY_LCAN_UNIDIR) {
		if (g->kind != BFLY_LCAN_CB) {
			*why = "mode: uni-directional routing runs on a CB-LCAN only";
			return -EINVAL;
		}
		outs = g->upow[g->levels];
	} else if (ms->mode != BFLY_LCAN_BIDIR) {
		*why = "mode: bi-directional or uni-directional";
		return -EINVAL;
	}
	if (ms->given && ms->mode != BFLY_LCAN_BIDIR) {
		*why = "mode: given paths are bi-directional";
		return -EINVAL;
	}
	for (m = 0; m < ms->count; m++) {
		*bad = m;
		if (ms->src[m] >= g->ports) {
			*why = "a source past the last processor";
			return -EINVAL;
		}
		if (ms->dst[m] >= outs) {
			*why = ms->mode == BFLY_LCAN_UNIDIR ?
				"a destination past the last output (u^l)" :
				"a destination past the last processor";
			return -EINVAL;
		}
		if (ms->given && !bfly_lcan_given_ok(g, ms, m)) {
			*why = "a given path's tag or wire past the uppers of its level";
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_msgset_check);

/**
 * bfly_lcan_msgset_workspace_size() - bytes bfly_lcan_msgset_route() needs
 * @g: the shape
 * @count: messages
 *
 * Return: a bit per connector and per processor, the waiting list, the
 * loads of every channel of either mode and a path.
 */
size_t bfly_lcan_msgset_workspace_size(const struct bfly_lcan *g, u32 count)
{
	u64 ch = max_t(u64, bfly_lcan_channels(g, BFLY_LCAN_BIDIR),
		       bfly_lcan_channels(g, BFLY_LCAN_UNIDIR));

	return (BITS_TO_LONGS(g->first_conn[g->levels]) + BITS_TO_LONGS(g->ports)) *
		sizeof(unsigned long) + ((size_t)count + ch) * sizeof(u32) +
		sizeof(struct bfly_lcan_path);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_msgset_workspace_size);

/* The waiting list: in order, or off-line by LCA level, highest first. */
static void bfly_lcan_order(struct bfly_lcan_cycle *st, const struct bfly_lcan_msgset *ms,
			    u32 *order)
{
	u32 at[BFLY_LCAN_MAX_LEVELS] = { 0 }, m, n = 0, level;

	if (ms->strategy == BFLY_LCAN_ONLINE || ms->mode == BFLY_LCAN_UNIDIR) {
		for (m = 0; m < ms->count; m++)
			order[m] = m;
		return;
	}
	for (m = 0; m < ms->count; m++)
		at[bfly_lcan_pair(st, ms->src[m], ms->dst[m])]++;
	for (level = st->g->levels; level-- > 0;) {
		m = at[level];
		at[level] = n;
		n += m;
	}
	for (m = 0; m < ms->count; m++)
		order[at[bfly_lcan_pair(st, ms->src[m], ms->dst[m])]++] = m;
}

/**
 * bfly_lcan_msgset_route() - route a message set in network cycles
 * @g: the shape
 * @ms: the set, checked by bfly_lcan_msgset_check(); receives the result
 * @work: bfly_lcan_msgset_workspace_size() bytes
 *
 * Each cycle starts with every wire free and tries the waiting messages
 * in turn (&enum bfly_lcan_strategy); the first always passes, so at most
 * @count cycles run.
 *
 * Return: 0; -E2BIG, with lambda(M) and the loads filled in, when @count
 * times ceil(lambda(M)) (or @max_cycles, if lower) passes
 * %BFLY_LCAN_MAX_TRIES; -EINTR when a signal stopped it (the result then
 * holds the cycles done).
 */
int bfly_lcan_msgset_route(const struct bfly_lcan *g, struct bfly_lcan_msgset *ms, void *work)
{
	struct bfly_lcan_cycle st;
	u32 *order, *load, waiting = ms->count, m;
	u64 ch;

	bfly_lcan_cycle_init(&st, g, work, ms->seed);
	order = (u32 *)(st.sent + BITS_TO_LONGS(g->ports));
	load = order + ms->count;
	ch = max_t(u64, bfly_lcan_channels(g, BFLY_LCAN_BIDIR),
		   bfly_lcan_channels(g, BFLY_LCAN_UNIDIR));
	st.path = (struct bfly_lcan_path *)(load + ch);
	bfly_lcan_loads(&st, ms, load);
	bfly_lcan_lambda(g, ms, load);
	if (ms->load)
		memcpy(ms->load, load, bfly_lcan_channels(g, ms->mode) * sizeof(*load));
	/* Each cycle tries every waiting message: refuse sets that take hours. */
	if ((u64)ms->count * (ms->max_cycles ? min_t(u32, ms->max_cycles, ms->bound) : ms->bound) >
	    BFLY_LCAN_MAX_TRIES)
		return -E2BIG;

	bfly_lcan_order(&st, ms, order);
	for (m = 0; m < ms->count; m++)
		ms->cycle[m] = U32_MAX;
	ms->cycles = 0;
	ms->routed = 0;
	while (waiting && (!ms->max_cycles || ms->cycles < ms->max_cycles)) {
		u32 kept = 0, w;

		if (bfly_should_stop())
			return -EINTR;
		bitmap_zero(st.used, g->first_conn[g->levels]);
		bitmap_zero(st.sent, g->ports);
		for (w = 0; w < waiting; w++) {
			m = order[w];
			if (bfly_lcan_route_one(&st, ms, m)) {
				ms->cycle[m] = ms->cycles;
				ms->routed++;
			} else {
				order[kept++] = m;
			}
			if (w % 4096 == 4095 && bfly_should_stop()) {
				ms->cycles++;
				return -EINTR;
			}
		}
		waiting = kept;
		ms->cycles++;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_msgset_route);
