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

/* The state of one network cycle. */
struct bfly_lcan_cycle {
	const struct bfly_lcan *g;
	unsigned long *used;	/* connectors' outgoing wires taken */
	unsigned long *sent;	/* processors that sent */
	u64 claim[BFLY_LCAN_MAX_HOPS];
	u32 claims;
	u64 rng;
	u32 tags[BFLY_LCAN_MAX_LEVELS];
	u32 wires[BFLY_LCAN_MAX_LEVELS];
};

/* splitmix64: the on-line strategy's random numbers */
static u64 bfly_lcan_rand(struct bfly_lcan_cycle *st)
{
	u64 z = (st->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool bfly_lcan_taken(const struct bfly_lcan_cycle *st, u32 i, u32 sw, u32 c)
{
	return test_bit(bfly_lcan_entry(st->g, i, sw, c), st->used);
}

/* Take the outgoing wire of connector @c of a switch, if free. */
static bool bfly_lcan_claim(struct bfly_lcan_cycle *st, u32 i, u32 sw, u32 c)
{
	u64 e = bfly_lcan_entry(st->g, i, sw, c);

	if (__test_and_set_bit(e, st->used))
		return false;
	st->claim[st->claims++] = e;
	return true;
}

/* Give back the wires taken since @keep. */
static void bfly_lcan_release(struct bfly_lcan_cycle *st, u32 keep)
{
	while (st->claims > keep)
		__clear_bit(st->claim[--st->claims], st->used);
}

/* The first free wire of a tree's channel down from switch @sw of level @i. */
static bool bfly_lcan_claim_down_wire(struct bfly_lcan_cycle *st, u32 i, u32 sw, u32 b,
				      u32 *out)
{
	u32 w;

	for (w = 0; w < st->g->up[i - 1]; w++) {
		*out = bfly_lcan_downer_to(st->g, i, b, w);
		if (bfly_lcan_claim(st, i, sw, *out)) {
			st->wires[i - 1] = w;
			return true;
		}
	}
	return false;
}

/* Down from switch @sw of level @lca to @b, the first free wire of each channel. */
static bool bfly_lcan_descend(struct bfly_lcan_cycle *st, u32 lca, u32 sw, u32 b)
{
	const struct bfly_lcan *g = st->g;
	u32 i, out, to, upper;

	for (i = lca; i > 0; i--) {
		if (g->kind == BFLY_LCAN_CB) {
			out = bfly_lcan_downer_to(g, i, b, 0);
			st->wires[i - 1] = 0;
			if (!bfly_lcan_claim(st, i, sw, out))
				return false;
		} else if (!bfly_lcan_claim_down_wire(st, i, sw, b, &out)) {
			return false;
		}
		bfly_lcan_down(g, i, sw, out, &to, &upper);
		sw = to;
	}
	return bfly_lcan_claim(st, 0, sw, b % g->d);
}

/*
 * On-line, and off-line on a tree: up by a random free upper (the first
 * free one off-line: a tree's uppers all reach one parent), then down.
 */
static bool bfly_lcan_route_greedy(struct bfly_lcan_cycle *st, u32 a, u32 b, bool random)
{
	const struct bfly_lcan *g = st->g;
	u32 lca = bfly_lcan_lca_level(g, a, b), sw = a / g->d, i;

	for (i = 0; i < lca; i++) {
		u32 k, free = 0, pick, to, downer;

		for (k = 0; k < g->up[i]; k++)
			free += !bfly_lcan_taken(st, i, sw, g->down[i] + k);
		if (!free)
			return false;
		pick = random ? bfly_lcan_rand(st) % free : 0;
		for (k = 0;; k++)
			if (!bfly_lcan_taken(st, i, sw, g->down[i] + k) && !pick--)
				break;
		bfly_lcan_claim(st, i, sw, g->down[i] + k);
		st->tags[i] = k;
		bfly_lcan_up(g, i, sw, k, &to, &downer);
		sw = to;
	}
	return bfly_lcan_descend(st, lca, sw, b);
}

/* Base-d digit @i of @x. */
static u32 bfly_lcan_digit(const struct bfly_lcan *g, u32 x, u32 i)
{
	while (i--)
		x /= g->d;
	return x % g->d;
}

/*
 * Off-line on a CB-LCAN: choose the up-choices k_0, k_1, ... depth first.
 * With k_0 .. k_j chosen, the way up leaves its level-j switch by upper
 * k_j and the way down leaves the level-(j + 1) switch with the same base-u
 * part on @b's side by downer b_(j+1): both wires are tried at once.
 */
static bool bfly_lcan_route_search(struct bfly_lcan_cycle *st, u32 b, u32 lca, u32 j,
				   u32 upsw, u64 prefix)
{
	const struct bfly_lcan *g = st->g;
	u64 hb = bfly_lcan_group(g, b, j + 1);
	u32 k;

	if (j == lca)
		return true;
	for (k = 0; k < g->u; k++) {
		u32 keep = st->claims, to, downer;
		u64 lo = prefix * g->u + k;

		if (!bfly_lcan_claim(st, j, upsw, g->down[j] + k))
			continue;
		bfly_lcan_up(g, j, upsw, k, &to, &downer);
		if (bfly_lcan_claim(st, j + 1, hb * g->upow[j + 1] + lo,
				    bfly_lcan_digit(g, b, j + 1))) {
			st->tags[j] = k;
			st->wires[j] = 0;
			if (bfly_lcan_route_search(st, b, lca, j + 1, to, lo))
				return true;
		}
		bfly_lcan_release(st, keep);
	}
	return false;
}

static bool bfly_lcan_route_uni(struct bfly_lcan_cycle *st, u32 a, u32 out)
{
	struct bfly_lcan_path path;
	u32 h;

	bfly_lcan_uni_path(st->g, a, out, &path);
	for (h = 0; h < path.count; h++) {
		const struct bfly_lcan_hop *x = &path.hops[h];

		if (!bfly_lcan_claim(st, x->level, x->sw, x->out))
			return false;
		st->tags[h] = x->out - st->g->down[x->level];
	}
	return true;
}

/* Route message @m in the cycle @st, or take nothing. */
static bool bfly_lcan_route_one(struct bfly_lcan_cycle *st, const struct bfly_lcan_msgset *ms,
				u32 m)
{
	const struct bfly_lcan *g = st->g;
	u32 a = ms->src[m], b = ms->dst[m];
	bool ok;

	if (test_bit(a, st->sent))
		return false;
	st->claims = 0;
	if (ms->mode == BFLY_LCAN_UNIDIR)
		ok = bfly_lcan_route_uni(st, a, b);
	else if (ms->strategy == BFLY_LCAN_ONLINE || g->kind != BFLY_LCAN_CB)
		ok = bfly_lcan_route_greedy(st, a, b, ms->strategy == BFLY_LCAN_ONLINE);
	else
		ok = bfly_lcan_claim(st, 0, b / g->d, b % g->d) &&
		     bfly_lcan_route_search(st, b, bfly_lcan_lca_level(g, a, b), 0, a / g->d, 0);
	if (!ok) {
		bfly_lcan_release(st, 0);
		return false;
	}
	__set_bit(a, st->sent);
	if (ms->choices) {
		u32 *c = ms->choices + (u64)m * 2 * g->levels;

		memset(c, 0, 2 * g->levels * sizeof(*c));
		memcpy(c, st->tags, g->levels * sizeof(*c));
		if (ms->mode == BFLY_LCAN_BIDIR)
			memcpy(c + g->levels, st->wires, g->levels * sizeof(*c));
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
	return (u64)g->switches[i] * g->up[i] / g->groups[i];
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_channel_cap);

/* The bundle up from the group of @p at level @i, and @half on for down. */
static u64 bfly_lcan_bundle(const struct bfly_lcan *g, u32 p, u32 i, u64 half)
{
	u64 ch = half + g->ports;
	u32 j;

	for (j = 0; j < i; j++)
		ch += g->groups[j];
	return ch + bfly_lcan_group(g, p, i);
}

/* Every channel's load, from the set alone (the paths of a uni-directional one). */
static void bfly_lcan_loads(const struct bfly_lcan *g, const struct bfly_lcan_msgset *ms,
			    u32 *load)
{
	u64 half = bfly_lcan_channels(g, ms->mode) / 2;
	u32 m, i;

	memset(load, 0, bfly_lcan_channels(g, ms->mode) * sizeof(*load));
	for (m = 0; m < ms->count; m++) {
		u32 a = ms->src[m], b = ms->dst[m];

		load[a]++;
		if (ms->mode == BFLY_LCAN_UNIDIR) {
			struct bfly_lcan_path path;
			u64 base = g->ports;

			bfly_lcan_uni_path(g, a, b, &path);
			for (i = 0; i < path.count; i++) {
				const struct bfly_lcan_hop *x = &path.hops[i];

				load[base + (u64)x->sw * g->up[i] + x->out - g->down[i]]++;
				base += (u64)g->switches[i] * g->up[i];
			}
			continue;
		}
		load[half + b]++;
		for (i = 0; i < bfly_lcan_lca_level(g, a, b); i++) {
			load[bfly_lcan_bundle(g, a, i, 0)]++;
			load[bfly_lcan_bundle(g, b, i, half)]++;
		}
	}
}

/**
 * bfly_lcan_msgset_check() - is a message set one this LCAN can route?
 * @g: the shape
 * @ms: the set: @src, @dst, @count, @mode, @strategy
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
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_msgset_check);

/**
 * bfly_lcan_msgset_workspace_size() - bytes bfly_lcan_msgset_route() needs
 * @g: the shape
 * @count: messages
 *
 * Return: a bit per connector and per processor, the waiting list and the
 * loads of every channel of either mode.
 */
size_t bfly_lcan_msgset_workspace_size(const struct bfly_lcan *g, u32 count)
{
	u64 ch = max_t(u64, bfly_lcan_channels(g, BFLY_LCAN_BIDIR),
		       bfly_lcan_channels(g, BFLY_LCAN_UNIDIR));

	return (BITS_TO_LONGS(g->first_conn[g->levels]) + BITS_TO_LONGS(g->ports)) *
		sizeof(unsigned long) + ((size_t)count + ch) * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_msgset_workspace_size);

/* The waiting list: in order, or off-line by LCA level, highest first. */
static void bfly_lcan_order(const struct bfly_lcan *g, const struct bfly_lcan_msgset *ms,
			    u32 *order)
{
	u32 m, n = 0;
	int level;

	if (ms->strategy == BFLY_LCAN_ONLINE || ms->mode == BFLY_LCAN_UNIDIR) {
		for (m = 0; m < ms->count; m++)
			order[m] = m;
		return;
	}
	for (level = g->levels - 1; level >= 0; level--)
		for (m = 0; m < ms->count; m++)
			if (bfly_lcan_lca_level(g, ms->src[m], ms->dst[m]) == (u32)level)
				order[n++] = m;
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
 * Return: 0; -EINTR when a signal stopped it (the result then holds the
 * cycles done).
 */
int bfly_lcan_msgset_route(const struct bfly_lcan *g, struct bfly_lcan_msgset *ms, void *work)
{
	size_t uw = BITS_TO_LONGS(g->first_conn[g->levels]);
	struct bfly_lcan_cycle st = {
		.g = g, .used = work, .sent = (unsigned long *)work + uw, .rng = ms->seed,
	};
	u32 *order = (u32 *)(st.sent + BITS_TO_LONGS(g->ports)), *load = order + ms->count;
	u64 ch, channels = bfly_lcan_channels(g, ms->mode);
	u32 waiting = ms->count, m;

	bfly_lcan_loads(g, ms, load);
	ms->lambda_load = 0;
	ms->lambda_cap = 1;
	for (ch = 0; ch < channels; ch++) {
		u32 cap = bfly_lcan_channel_cap(g, ms->mode, ch);

		if ((u64)load[ch] * ms->lambda_cap > (u64)ms->lambda_load * cap) {
			ms->lambda_load = load[ch];
			ms->lambda_cap = cap;
		}
	}
	ms->bound = (ms->lambda_load + ms->lambda_cap - 1) / ms->lambda_cap;
	if (ms->load)
		memcpy(ms->load, load, channels * sizeof(*load));

	bfly_lcan_order(g, ms, order);
	for (m = 0; m < ms->count; m++)
		ms->cycle[m] = U32_MAX;
	ms->cycles = 0;
	ms->routed = 0;
	while (waiting && (!ms->max_cycles || ms->cycles < ms->max_cycles)) {
		u32 kept = 0, w;

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
