// SPDX-License-Identifier: GPL-2.0
/*
 * Least common ancestor networks (LCAN paper; Documentation/lcan.rst).
 *
 * l levels of switches, 0 next to the N processors (PEs). A switch of
 * level i has down[i] downers (connectors 0 .. down - 1) to level i - 1
 * and up[i] uppers (connectors down .. down + up - 1) to level i + 1; PE p
 * sits on downer p % d of switch p / d of level 0. Every connector is a
 * pair of wires, one each way.
 *
 * CB-LCAN(d, u), Definition 3: the switch label of level i is l - 1 - i
 * base-d digits over i base-u digits, the number H u^i + Lo. Upper k of
 * (H, Lo) goes to switch (H / d, Lo u + k) of level i + 1, arriving on its
 * downer H % d.
 *
 * T-LCAN(d, u), Definition 2, and the d-ary fat tree, Definitions 9 and
 * 10: trees of arity a (d / u, or d). The up[i] uppers of switch s all go
 * to switch s / a of level i + 1, upper k arriving on downer
 * (s % a) up[i] + k.
 *
 * A setting gives each connector's incoming wire the connector it leaves
 * by: a byte per connector of every switch (bfly_lcan_entry()),
 * %BFLY_KFLY_UNSET for none. A packet that came up on a downer may turn
 * down on any downer or go on up; one that came down on an upper goes on
 * down. An upper of level l - 1 is the uni-directional network's output.
 */
#include "compat.h"
#include "lcan.h"

/* The exponent of prime @p in @x (x > 0). */
static u32 bfly_valuation(u32 x, u32 p)
{
	u32 e = 0;

	while (x % p == 0) {
		x /= p;
		e++;
	}
	return e;
}

/**
 * bfly_lcan_theorem1() - the bound of Theorem 1 on the levels of an
 *	LCAN(d, u, l, Pi) of @ports PEs
 * @d: downers per switch
 * @u: uppers per switch
 * @ports: N
 *
 * S_i = N/d (u/d)^i switches in level i (Equation 1) must be whole for
 * every level. For each prime p of d whose exponent e_u in u is below its
 * exponent e_d in d, S_i stays whole while i <= (e_N - e_d) / (e_d - e_u);
 * a is one past the least such bound.
 *
 * Return: a, the most levels; 0 when no level makes S_i fractional (every
 * prime of d at least as often in u: d = u among others), so Theorem 1
 * bounds nothing; -1 when N/d is not whole.
 */
int bfly_lcan_theorem1(u32 d, u32 u, u32 ports)
{
	u32 x = d, p, best = U32_MAX;

	if (d < 2 || !u || !ports || ports % d)
		return -1;
	for (p = 2; x > 1; p++) {
		u32 ed, eu, en;

		if (x % p)
			continue;
		ed = bfly_valuation(d, p);
		eu = bfly_valuation(u, p);
		en = bfly_valuation(ports, p);
		while (x % p == 0)
			x /= p;
		if (eu < ed)
			best = min_t(u32, best, (en - ed) / (ed - eu));
	}
	return best == U32_MAX ? 0 : best + 1;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_theorem1);

/* The levels l with @base^l = @x, or 0 when there is none (l >= 1). */
static u32 bfly_log_exact(u32 x, u32 base)
{
	u32 l = 0;
	u64 p = 1;

	while (p < x) {
		p *= base;
		l++;
	}
	return p == x ? l : 0;
}

/* Fill the per-level arrays from switches and connectors of level 0. */
static int bfly_lcan_levels(struct bfly_lcan *g, const char **why)
{
	u64 conns = 0, sw = 0;
	u32 i;

	for (i = 0; i < g->levels; i++) {
		u64 c = (u64)g->switches[i] * (g->down[i] + g->up[i]);

		g->first_switch[i] = sw;
		g->first_conn[i] = conns;
		sw += g->switches[i];
		conns += c;
		if (conns > BFLY_LCAN_MAX_CONNECTORS) {
			*why = "ports: more than 2^26 connectors in all";
			return -EINVAL;
		}
	}
	g->first_switch[g->levels] = sw;
	g->first_conn[g->levels] = conns;
	return 0;
}

/* The groups of each level: N / d / arity^i (&bfly_lcan.arity and levels set). */
static void bfly_lcan_init_groups(struct bfly_lcan *g)
{
	u32 i, s = g->ports / g->d;

	for (i = 0; i < g->levels; i++) {
		g->groups[i] = s;
		s /= g->arity;
	}
}

static int bfly_lcan_init_cb(struct bfly_lcan *g, const char **why)
{
	u32 l = bfly_log_exact(g->ports, g->d), i;
	u64 up = 1;

	if (!l) {
		*why = "ports: a CB-LCAN(d,u) has N = d^l PEs, l >= 1 (Corollary 1)";
		return -EINVAL;
	}
	g->levels = l;
	g->arity = g->d;
	bfly_lcan_init_groups(g);
	for (i = 0; i <= l; i++) {
		g->upow[i] = up;
		if (i < l) {
			if (g->groups[i] * up > BFLY_LCAN_MAX_CONNECTORS) {
				*why = "ports: more than 2^26 connectors in all";
				return -EINVAL;
			}
			g->switches[i] = g->groups[i] * up;
			g->down[i] = g->d;
			g->up[i] = g->u;
		}
		up *= g->u;
	}
	return 0;
}

static int bfly_lcan_init_tree(struct bfly_lcan *g, const char **why)
{
	u32 l, i;

	if (g->u >= g->d || g->d % g->u) {
		*why = "up: a T-LCAN(d,u) needs u < d and u dividing d (Definition 2)";
		return -EINVAL;
	}
	g->arity = g->d / g->u;
	l = g->ports % g->u ? 0 : bfly_log_exact(g->ports / g->u, g->arity);
	if (!l) {
		*why = "ports: a T-LCAN(d,u) has N = u (d/u)^l PEs, l >= 1 (Corollary 2)";
		return -EINVAL;
	}
	g->levels = l;
	bfly_lcan_init_groups(g);
	for (i = 0; i < l; i++) {
		g->switches[i] = g->groups[i];
		g->down[i] = g->d;
		g->up[i] = g->u;
		g->upow[i] = 1;
	}
	return 0;
}

static int bfly_lcan_init_fattree(struct bfly_lcan *g, const char **why)
{
	u32 l = bfly_log_exact(g->ports, g->d), i;
	u64 up = 1;

	if (!l) {
		*why = "ports: a d-ary fat tree has N = d^l PEs, l >= 1";
		return -EINVAL;
	}
	g->levels = l;
	g->arity = g->d;
	bfly_lcan_init_groups(g);
	for (i = 0; i < l; i++) {
		g->switches[i] = g->groups[i];
		g->upow[i] = up;
		if (up * g->u * (g->d + g->u) > BFLY_LCAN_MAX_CONNECTORS) {
			*why = "ports: more than 2^26 connectors in all";
			return -EINVAL;
		}
		g->down[i] = g->d * up;
		up *= g->u;
		g->up[i] = up;
	}
	return 0;
}

/**
 * bfly_lcan_init() - the shape of an LCAN
 * @g: receives the shape
 * @kind: one of &enum bfly_lcan_kind
 * @d: downers per switch (level 0 on a fat tree), 2 .. %BFLY_MAX_RADIX
 * @u: uppers per switch (level 0 on a fat tree), 1 .. %BFLY_MAX_RADIX
 * @ports: N, at most 2^%BFLY_MAX_PORTS_LOG2
 * @why: on error, a short reason
 *
 * The levels follow from N: l = log_d N on a CB-LCAN (Corollary 1) and a
 * fat tree, l = log_(d/u) (N/u) on a T-LCAN (Corollary 2). The CB and T
 * shapes also meet Theorem 1 (l <= a), which KUnit checks.
 *
 * Return: 0, or -EINVAL with @why set.
 */
int bfly_lcan_init(struct bfly_lcan *g, u32 kind, u32 d, u32 u, u32 ports, const char **why)
{
	int err, a;

	if (d < 2 || d > BFLY_MAX_RADIX) {
		*why = "radix: the downers d of a switch are 2 to 64";
		return -EINVAL;
	}
	if (u < 1 || u > BFLY_MAX_RADIX) {
		*why = "up: the uppers u of a switch are 1 to 64";
		return -EINVAL;
	}
	if (ports > 1U << BFLY_MAX_PORTS_LOG2) {
		*why = "ports: at most 2^20";
		return -EINVAL;
	}
	memset(g, 0, sizeof(*g));
	g->kind = kind;
	g->d = d;
	g->u = u;
	g->ports = ports;
	switch (kind) {
	case BFLY_LCAN_CB:
		err = bfly_lcan_init_cb(g, why);
		break;
	case BFLY_LCAN_TREE:
		err = bfly_lcan_init_tree(g, why);
		break;
	case BFLY_LCAN_FATTREE:
		err = bfly_lcan_init_fattree(g, why);
		break;
	default:
		*why = "unknown LCAN kind";
		return -EINVAL;
	}
	if (err)
		return err;
	a = bfly_lcan_theorem1(d, u, ports);
	if (kind != BFLY_LCAN_FATTREE && (a < 0 || (a > 0 && g->levels > (u32)a))) {
		*why = "ports: more levels than Theorem 1 allows";
		return -EINVAL;
	}
	return bfly_lcan_levels(g, why);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_init);

/**
 * bfly_lcan_of() - the shape of an LCAN fabric
 * @geo: its geometry (&bfly_geometry.lcan), made by bfly_lcan_init()'s
 *	checks, so this cannot fail
 * @g: receives the shape
 */
void bfly_lcan_of(const struct bfly_geometry *geo, struct bfly_lcan *g)
{
	const char *why;

	bfly_lcan_init(g, geo->lcan_kind, geo->radix, geo->up, geo->ports, &why);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_of);

/**
 * bfly_lcan_up() - follow an upper
 * @g: the shape
 * @i: the level, below l - 1
 * @sw: the switch of level @i
 * @k: its upper, 0 .. up[i] - 1
 * @to: receives the switch of level @i + 1 reached
 * @downer: receives the downer of @to the wire arrives on
 */
void bfly_lcan_up(const struct bfly_lcan *g, u32 i, u32 sw, u32 k, u32 *to, u32 *downer)
{
	if (g->kind == BFLY_LCAN_CB) {
		u32 h = sw / g->upow[i], lo = sw % g->upow[i];

		*downer = h % g->d;
		*to = (h / g->d) * g->upow[i + 1] + lo * g->u + k;
		return;
	}
	*to = sw / g->arity;
	*downer = (sw % g->arity) * g->up[i] + k;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_up);

/**
 * bfly_lcan_down() - follow a downer
 * @g: the shape
 * @i: the level, 1 or more
 * @sw: the switch of level @i
 * @j: its downer, 0 .. down[i] - 1
 * @to: receives the switch of level @i - 1 reached
 * @upper: receives the upper of @to the wire arrives on (0 .. up - 1)
 */
void bfly_lcan_down(const struct bfly_lcan *g, u32 i, u32 sw, u32 j, u32 *to, u32 *upper)
{
	if (g->kind == BFLY_LCAN_CB) {
		u32 h = sw / g->upow[i], lo = sw % g->upow[i];

		*upper = lo % g->u;
		*to = (h * g->d + j) * g->upow[i - 1] + lo / g->u;
		return;
	}
	*to = sw * g->arity + j / g->up[i - 1];
	*upper = j % g->up[i - 1];
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_down);

/**
 * bfly_lcan_lca_level() - the LCA level of two processors (Definition 7)
 * @g: the shape
 * @a: one processor
 * @b: the other
 *
 * The lowest level whose group holds both; on a CB-LCAN the place of the
 * most significant base-d digit where @a and @b differ (0 when they differ
 * in digit 0 only, or not at all).
 *
 * Return: the level.
 */
u32 bfly_lcan_lca_level(const struct bfly_lcan *g, u32 a, u32 b)
{
	u32 i = 0;

	a /= g->d;
	b /= g->d;
	while (a != b) {
		a /= g->arity;
		b /= g->arity;
		i++;
	}
	return i;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_lca_level);

/**
 * bfly_lcan_tag_limit() - how many up-choices a path has at level @i
 * @g: the shape
 * @i: the level
 *
 * Return: up[@i]: a tag's digit for level @i is below it.
 */
u32 bfly_lcan_tag_limit(const struct bfly_lcan *g, u32 i)
{
	return g->up[i];
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_tag_limit);

/* Append a hop; the next hop enters @to by @in. */
static void bfly_lcan_hop(struct bfly_lcan_path *path, u32 level, u32 sw, u32 in, u32 out)
{
	struct bfly_lcan_hop *h = &path->hops[path->count++];

	h->level = level;
	h->sw = sw;
	h->in = in;
	h->out = out;
}

/*
 * The downer of a switch of level @i towards processor @b: on a tree, the
 * wire @wire of the channel to the child group that holds @b.
 */
u32 bfly_lcan_downer_to(const struct bfly_lcan *g, u32 i, u32 b, u32 wire)
{
	u32 x = b;

	if (!i)
		return b % g->d;
	if (g->kind == BFLY_LCAN_CB) {
		while (i--)
			x /= g->d;
		return x % g->d;
	}
	return bfly_lcan_group(g, b, i - 1) % g->arity * g->up[i - 1] + wire;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_downer_to);

/**
 * bfly_lcan_pair_path() - the bi-directional path of one pair
 * @g: the shape
 * @a: the source processor
 * @b: the destination processor
 * @tags: the up-choices, tags[i] < up[i] for the levels i below the LCA
 *	level (bfly_lcan_tag_limit())
 * @wires: on a tree, the wire of each channel down, wires[i] < up[i] for
 *	the channel from level i + 1 to level i; NULL for the wires of
 *	@tags. Unused on a CB-LCAN, whose way down has no choice
 * @path: receives the path
 *
 * Up from @a by the tags to a switch of the LCA level, turn, then down by
 * @b's digits (Section 3.1).
 *
 * Return: 0, or -EINVAL for a tag or wire out of range.
 */
int bfly_lcan_pair_path(const struct bfly_lcan *g, u32 a, u32 b, const u32 *tags,
			const u32 *wires, struct bfly_lcan_path *path)
{
	u32 lca = bfly_lcan_lca_level(g, a, b), sw = a / g->d, in = a % g->d, i;

	if (g->kind == BFLY_LCAN_CB || !wires)
		wires = tags;
	for (i = 0; i < lca; i++)
		if (tags[i] >= g->up[i] || wires[i] >= g->up[i])
			return -EINVAL;
	path->count = 0;
	path->lca_level = lca;
	for (i = 0; i < lca; i++) {
		u32 to, downer;

		bfly_lcan_hop(path, i, sw, in, g->down[i] + tags[i]);
		bfly_lcan_up(g, i, sw, tags[i], &to, &downer);
		sw = to;
		in = downer;
	}
	for (i = lca + 1; i-- > 0;) {
		u32 out = bfly_lcan_downer_to(g, i, b, i ? wires[i - 1] : 0), to, upper;

		bfly_lcan_hop(path, i, sw, in, out);
		if (!i)
			break;
		bfly_lcan_down(g, i, sw, out, &to, &upper);
		sw = to;
		in = g->down[i - 1] + upper;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_pair_path);

/**
 * bfly_lcan_uni_path() - the uni-directional path of a CB-LCAN
 * @g: the shape
 * @a: the source processor
 * @out: the output, 0 .. u^l - 1: upper out % u of switch out / u of
 *	level l - 1
 * @path: receives the path
 *
 * Up through every level, upper by upper as @out's base-u digits say,
 * most significant first: a delta network (Section 3.1).
 *
 * Return: 0, or -EINVAL on a tree or for @out out of range.
 */
int bfly_lcan_uni_path(const struct bfly_lcan *g, u32 a, u64 out, struct bfly_lcan_path *path)
{
	u32 sw = a / g->d, in = a % g->d, i;

	if (g->kind != BFLY_LCAN_CB || out >= g->upow[g->levels])
		return -EINVAL;
	path->count = 0;
	path->lca_level = g->levels - 1;
	for (i = 0; i < g->levels; i++) {
		u32 k = out / g->upow[g->levels - 1 - i] % g->u, to, downer;

		bfly_lcan_hop(path, i, sw, in, g->down[i] + k);
		if (i + 1 == g->levels)
			break;
		bfly_lcan_up(g, i, sw, k, &to, &downer);
		sw = to;
		in = downer;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_uni_path);

/**
 * bfly_lcan_path_apply() - set the connections of a path in a setting
 * @g: the shape
 * @path: the path
 * @set: the setting (bfly_lcan_settings_size() bytes)
 */
void bfly_lcan_path_apply(const struct bfly_lcan *g, const struct bfly_lcan_path *path, u8 *set)
{
	u32 h;

	for (h = 0; h < path->count; h++) {
		const struct bfly_lcan_hop *x = &path->hops[h];

		set[bfly_lcan_entry(g, x->level, x->sw, x->in)] = x->out;
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_path_apply);

/**
 * bfly_lcan_settings_check() - is a setting one a switch can hold?
 * @g: the shape (a fat tree's switches high up may have more connectors
 *	than a byte names: such a shape is refused)
 * @set: the setting
 * @bad: on error, receives the entry at fault
 * @why: on error, a short reason
 *
 * Each entry is a connector of its switch or %BFLY_KFLY_UNSET; no two
 * entries of a switch name the same connector; an upper's incoming wire
 * goes down only; no wire arrives on an upper of level l - 1.
 *
 * Return: 0, or -EINVAL with @bad and @why set.
 */
int bfly_lcan_settings_check(const struct bfly_lcan *g, const u8 *set, u64 *bad,
			     const char **why)
{
	u32 i, sw, c;

	for (i = 0; i < g->levels; i++) {
		u32 conns = bfly_lcan_conns(g, i);

		if (conns > BFLY_KFLY_UNSET && g->switches[i]) {
			*bad = bfly_lcan_entry(g, i, 0, 0);
			*why = "a switch of over 255 connectors has no byte setting";
			return -EINVAL;
		}
		for (sw = 0; sw < g->switches[i]; sw++) {
			u64 e = bfly_lcan_entry(g, i, sw, 0), used[4] = { 0 };

			for (c = 0; c < conns; c++) {
				u32 out = set[e + c];

				if (out == BFLY_KFLY_UNSET)
					continue;
				*bad = e + c;
				if (out >= conns) {
					*why = "a connector the switch does not have";
					return -EINVAL;
				}
				if (c >= g->down[i] && i + 1 == g->levels) {
					*why = "no wire arrives on an upper of the top level";
					return -EINVAL;
				}
				if (c >= g->down[i] && out >= g->down[i]) {
					*why = "a packet that came down can only go down";
					return -EINVAL;
				}
				if (used[out / 64] & BIT_ULL(out % 64)) {
					*why = "a connector used twice in one switch";
					return -EINVAL;
				}
				used[out / 64] |= BIT_ULL(out % 64);
			}
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_settings_check);

/**
 * bfly_lcan_trace() - follow one processor's packet through a setting
 * @g: the shape
 * @set: a checked setting (bfly_lcan_settings_check())
 * @src: the processor
 * @end: receives where it ends
 */
void bfly_lcan_trace(const struct bfly_lcan *g, const u8 *set, u32 src,
		     struct bfly_lcan_trace_end *end)
{
	u32 i = 0, sw = src / g->d, in = src % g->d;

	end->hops = 0;
	for (;;) {
		u64 e = bfly_lcan_entry(g, i, sw, in);
		u32 out = set[e], to, c;

		if (out == BFLY_KFLY_UNSET || end->hops == BFLY_LCAN_MAX_HOPS) {
			end->end = BFLY_LCAN_END_LOST;
			end->index = e;
			return;
		}
		end->hops++;
		if (out < g->down[i]) {
			if (!i) {
				end->end = BFLY_LCAN_END_PE;
				end->index = (u64)sw * g->d + out;
				return;
			}
			bfly_lcan_down(g, i, sw, out, &to, &c);
			i--;
			in = g->down[i] + c;
		} else {
			if (i + 1 == g->levels) {
				end->end = BFLY_LCAN_END_TOP;
				end->index = (u64)sw * g->up[i] + out - g->down[i];
				return;
			}
			bfly_lcan_up(g, i, sw, out - g->down[i], &to, &c);
			i++;
			in = c;
		}
		sw = to;
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_trace);

/**
 * bfly_lcan_lemma_reach() - Lemma 1: switches of level @i a processor
 *	reaches going up
 * @g: the shape
 * @i: the level
 *
 * Return: u^i on a CB-LCAN, 1 on a tree.
 */
u64 bfly_lcan_lemma_reach(const struct bfly_lcan *g, u32 i)
{
	return g->kind == BFLY_LCAN_CB ? g->upow[i] : 1;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_lemma_reach);

/**
 * bfly_lcan_lemma_lca_switches() - Lemmas 2 and 3: the LCA switches of a
 *	pair whose LCA level is @level
 * @g: the shape
 * @level: the LCA level
 *
 * Return: u^level on a CB-LCAN (Lemma 2), 1 on a tree (Lemma 3).
 */
u64 bfly_lcan_lemma_lca_switches(const struct bfly_lcan *g, u32 level)
{
	return bfly_lcan_lemma_reach(g, level);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_lemma_lca_switches);

/* The most switches one level has. */
static u32 bfly_lcan_widest(const struct bfly_lcan *g)
{
	u32 i, w = 0;

	for (i = 0; i < g->levels; i++)
		w = max_t(u32, w, g->switches[i]);
	return w;
}

/**
 * bfly_lcan_counts_workspace_size() - bytes bfly_lcan_counts() needs
 * @g: the shape
 *
 * Return: four bitmaps as wide as the widest level.
 */
size_t bfly_lcan_counts_workspace_size(const struct bfly_lcan *g)
{
	return 4 * BITS_TO_LONGS(bfly_lcan_widest(g)) * sizeof(unsigned long);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_counts_workspace_size);

/*
 * One level up from the switches in @from: every upper of each, into
 * @to. Return: how many switches @to holds.
 */
static u32 bfly_lcan_reach_up(const struct bfly_lcan *g, u32 i, const unsigned long *from,
			      unsigned long *to)
{
	u32 sw, k, n = 0;

	bitmap_zero(to, g->switches[i + 1]);
	for (sw = 0; sw < g->switches[i]; sw++) {
		if (!test_bit(sw, from))
			continue;
		for (k = 0; k < g->up[i]; k++) {
			u32 next, downer;

			bfly_lcan_up(g, i, sw, k, &next, &downer);
			if (!__test_and_set_bit(next, to))
				n++;
			if (g->kind != BFLY_LCAN_CB)
				break;	/* a tree's uppers share one parent */
		}
	}
	return n;
}

/*
 * Does the descent from switch @sw of level @i reach @b without crossing
 * a switch of the way up @upsw (the up path's switch at each level)?
 */
static bool bfly_lcan_descent_clear(const struct bfly_lcan *g, u32 i, u32 sw, u32 b,
				    const u32 *upsw)
{
	while (i > 0) {
		u32 out = bfly_lcan_downer_to(g, i, b, 0), to, upper;

		bfly_lcan_down(g, i, sw, out, &to, &upper);
		sw = to;
		i--;
		if (sw == upsw[i])
			return false;
	}
	return sw == b / g->d;
}

/* Switch paths up from @a's level-0 switch, turning once, down to @b. */
static int bfly_lcan_count_paths(const struct bfly_lcan *g, u32 a, u32 b, u64 *paths)
{
	u32 upsw[BFLY_LCAN_MAX_LEVELS], next[BFLY_LCAN_MAX_LEVELS];
	u32 branches = g->kind == BFLY_LCAN_CB ? g->u : 1;
	u64 steps = 0;
	int i = 0;

	*paths = 0;
	upsw[0] = a / g->d;
	next[0] = 0;
	while (i >= 0) {
		if (!next[i]) {
			/* first visit: may the path turn here? */
			if (bfly_lcan_group(g, b, i) == bfly_lcan_group(g, a, i) &&
			    bfly_lcan_descent_clear(g, i, upsw[i], b, upsw))
				(*paths)++;
			if (++steps % 4096 == 0 && bfly_should_stop())
				return -EINTR;
		}
		if ((u32)i + 1 < g->levels && next[i] < branches) {
			u32 downer;

			bfly_lcan_up(g, i, upsw[i], next[i]++, &upsw[i + 1], &downer);
			next[++i] = 0;
			continue;
		}
		i--;
	}
	return 0;
}

/**
 * bfly_lcan_counts() - count, by search, what Lemmas 1 to 3 and Theorem 2
 *	state for a pair
 * @g: the shape
 * @a: one processor
 * @b: the other
 * @c: receives the counts
 * @work: bfly_lcan_counts_workspace_size() bytes
 *
 * The reach of each processor is a breadth-first walk up every upper; the
 * LCA switches are the switches of the LCA level both walks reach; the
 * paths are every switch sequence that goes up from @a, turns once and
 * goes down to @b without a switch twice. Paths that turn more than once
 * are not counted: Theorem 2 is about the first kind. The path search
 * visits every switch reachable up from @a (u^l on a CB-LCAN).
 *
 * Return: 0; -EINTR when a signal stopped the search.
 */
int bfly_lcan_counts(const struct bfly_lcan *g, u32 a, u32 b, struct bfly_lcan_counts *c,
		     void *work)
{
	size_t words = BITS_TO_LONGS(bfly_lcan_widest(g));
	unsigned long *ra = work, *rb = ra + words, *na = rb + words, *nb = na + words;
	u32 i, w;

	memset(c, 0, sizeof(*c));
	c->lca_level = bfly_lcan_lca_level(g, a, b);
	bitmap_zero(ra, g->switches[0]);
	bitmap_zero(rb, g->switches[0]);
	__set_bit(a / g->d, ra);
	__set_bit(b / g->d, rb);
	c->reach[0] = 1;
	for (i = 0; i < g->levels; i++) {
		unsigned long *t;

		if (i == c->lca_level)
			for (w = 0; w < g->switches[i]; w++)
				c->lca_switches += test_bit(w, ra) && test_bit(w, rb);
		if (i + 1 == g->levels)
			break;
		c->reach[i + 1] = bfly_lcan_reach_up(g, i, ra, na);
		bfly_lcan_reach_up(g, i, rb, nb);
		t = ra;
		ra = na;
		na = t;
		t = rb;
		rb = nb;
		nb = t;
	}
	return bfly_lcan_count_paths(g, a, b, &c->paths);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_lcan_counts);
