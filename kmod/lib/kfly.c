// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-fly (Documentation/routing.rst): N = k^n terminals, n node
 * stages of N/k switches, each k x k.
 *
 * A link address is an n-digit base-k number, switch * k + port, digit 0
 * the least significant. Terminal i enters node stage 0 at address i.
 * Between node stage e and e + 1 (edge e = 0 .. n-2) digit 0 (the port)
 * and digit n-1-e trade places; the last stage's output address is the
 * fabric output. With k = 2 this is the butterfly's wiring.
 *
 * A setting gives every input port of every switch its output port: byte
 * (stage * N/k + switch) * k + input port, %BFLY_KFLY_UNSET for none.
 *
 * Destination-digit routing: node stage j sends a packet out on port
 * digit n-1-j of its destination, most significant first. Two packets of
 * one switch asking for one port are an internal conflict: the packet on
 * the lower input port keeps the port, the other is counted and, once
 * every request that can be met is placed, takes the lowest free port. So
 * every setting routing produces is a permutation of each switch's ports,
 * and with k = 2 the rule is the butterfly's (the port-0 packet decides).
 */
#include "compat.h"
#include "kfly.h"

/**
 * bfly_kfly_init() - the shape of a k-ary n-fly
 * @g: receives the shape
 * @k: the switch radix
 * @ports: N, a power of @k
 * @why: on error, a short reason
 *
 * Return: 0, or -EINVAL for a radix outside 2 .. %BFLY_KFLY_MAX_K or a port
 * count that is no power of @k (k^1 at least) or passes
 * 2^%BFLY_MAX_PORTS_LOG2.
 */
int bfly_kfly_init(struct bfly_kfly *g, u32 k, u32 ports, const char **why)
{
	u32 n = 0;
	u64 p = 1;

	if (k < 2 || k > BFLY_KFLY_MAX_K) {
		*why = "radix: the switch radix is 2 to 64";
		return -EINVAL;
	}
	if (ports > 1U << BFLY_MAX_PORTS_LOG2) {
		*why = "ports: at most 2^20";
		return -EINVAL;
	}
	g->pow[0] = 1;
	while (p < ports) {
		p *= k;
		g->pow[++n] = p;
	}
	if (!n || p != ports) {
		*why = "ports: not a power of k (k^1 at least)";
		return -EINVAL;
	}
	g->k = k;
	g->log2k = is_power_of_2(k) ? ilog2(k) : 0;
	g->n = n;
	g->ports = ports;
	g->switches = ports / k;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_init);

/**
 * bfly_kfly_link() - follow a link between two node stages
 * @g: the shape
 * @edge: the edge stage, 0 .. n-2 (from node stage @edge to @edge + 1)
 * @addr: the link address leaving node stage @edge
 *
 * Return: the link address entering node stage @edge + 1.
 */
u32 bfly_kfly_link(const struct bfly_kfly *g, u32 edge, u32 addr)
{
	u32 m = g->pow[g->n - 1 - edge], port, digit, sh;

	if (g->log2k) {
		sh = g->log2k * (g->n - 1 - edge);
		port = addr & (g->k - 1);
		digit = (addr >> sh) & (g->k - 1);
		return (addr & ~((g->k - 1) | ((g->k - 1) << sh))) | digit | (port << sh);
	}
	port = addr % g->k;
	digit = addr / m % g->k;
	return addr - port - digit * m + digit + port * m;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_link);

/**
 * bfly_kfly_settings_check() - is every switch's map a partial permutation
 * @g: the shape
 * @set: a setting, bfly_kfly_settings_size() bytes
 * @bad: on error, the index in @set of the first bad entry
 *
 * Return: 0, or -EINVAL for an entry that is neither below k nor
 * %BFLY_KFLY_UNSET, or two input ports of one switch sent to one output.
 */
int bfly_kfly_settings_check(const struct bfly_kfly *g, const u8 *set, u32 *bad)
{
	u64 used, bit;
	u32 sw, p, i;

	for (sw = 0; sw < g->n * g->switches; sw++) {
		used = 0;
		for (p = 0; p < g->k; p++) {
			i = sw * g->k + p;
			if (set[i] == BFLY_KFLY_UNSET)
				continue;
			if (set[i] >= g->k || (used & (1ULL << set[i]))) {
				*bad = i;
				return -EINVAL;
			}
			bit = 1ULL << set[i];
			used |= bit;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_settings_check);

/**
 * bfly_kfly_trace() - where every terminal's packet arrives
 * @g: the shape
 * @set: a setting that passes bfly_kfly_settings_check()
 * @out: receives N entries: the output input i reaches, or
 *	%BFLY_TRACE_LOST when it meets an input port connected to nothing
 */
void bfly_kfly_trace(const struct bfly_kfly *g, const u8 *set, u32 *out)
{
	u32 i, s, a, o;

	for (i = 0; i < g->ports; i++) {
		a = i;
		for (s = 0; s < g->n; s++) {
			o = set[(size_t)s * g->ports + a];
			if (o == BFLY_KFLY_UNSET)
				break;
			a = a - a % g->k + o;
			if (s + 1 < g->n)
				a = bfly_kfly_link(g, s, a);
		}
		out[i] = s < g->n ? BFLY_TRACE_LOST : a;
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_trace);

/**
 * bfly_kfly_route_workspace_size() - memory bfly_kfly_route_dest() needs
 * @g: the shape
 *
 * Return: bytes: two arrays of N u32, a packet each.
 */
size_t bfly_kfly_route_workspace_size(const struct bfly_kfly *g)
{
	return 2 * (size_t)g->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_route_workspace_size);

static void bfly_kfly_conflict(struct bfly_kfly_conflicts *c, u32 stage, u32 node,
			       u32 holder, u32 refused, u32 port)
{
	struct bfly_port_conflict *e;

	if (!c)
		return;
	if (c->count < c->capacity) {
		e = &c->list[c->count];
		e->stage = stage;
		e->node = node;
		e->input[0] = holder;
		e->input[1] = refused;
		e->port = port;
		e->pad = 0;
	}
	if (!c->count)
		c->first_stage = stage;
	c->count++;
}

/*
 * A packet in routing is a u32 of n base-k digits. Entering node stage j
 * at address a, its digits n-1-j .. 0 are its destination's, still to be
 * used; the others are its source's digits that a no longer holds: the
 * input port digit a loses at each node stage takes the place of the
 * destination digit used there. Digit i of the source is digit i of a for
 * 1 <= i < n-j; digit n-j (j > 0) is digit 0 of a, digit 0 is the
 * packet's digit n-1, and digit i > n-j is the packet's digit i-1. After
 * the last node stage the packet is the source rotated right one digit.
 */

/* The source of packet @pk entering node stage @j at address @a. */
static u32 bfly_kfly_source(const struct bfly_kfly *g, u32 j, u32 a, u32 pk)
{
	u32 i, n = g->n, src = 0, from, at;

	if (!j)
		return a;
	for (i = 0; i < n; i++) {
		if (!i || i > n - j) {
			from = pk;
			at = !i ? n - 1 : i - 1;
		} else {
			from = a;
			at = i < n - j ? i : 0;
		}
		src += from / g->pow[at] % g->k * g->pow[i];
	}
	return src;
}

/* The port packet @pk asks for: bits @sh up for power-of-two @k, else @pk / @div. */
static __always_inline u32 bfly_kfly_want(u32 k, bool pow2, u32 sh, u32 div, u32 pk)
{
	return pow2 ? (pk >> sh) & (k - 1) : pk / div % k;
}

/* The shift of byte @p in a word of setting bytes, which are in memory order. */
static __always_inline u32 bfly_kfly_byte(u32 p)
{
	return BFLY_BIG_ENDIAN ? 56 - 8 * (p % 8) : 8 * (p % 8);
}

/*
 * One switch of node stage @s, its packets at @in: every packet to the
 * port its destination's digit names, or after the others to the lowest
 * free port. Output port o leads to address @base + o * @stride of the
 * next node stage. The setting's k bytes go to @set, 8 at a time. The
 * lowest packet asking for a port holds it; the refused ones, in input
 * port order, take the free ports in order. With @list, each refused
 * packet is listed as a conflict of switch @node. Branch-free without
 * @list.
 *
 * Return: the refused packets.
 */
static __always_inline u32 bfly_kfly_switch(const struct bfly_kfly *g, u32 k, bool pow2,
					    u32 sh, u32 div, const u32 *in, u8 *set, u32 *next,
					    u32 base, u32 stride,
					    struct bfly_kfly_conflicts *list, u32 s, u32 node)
{
	u64 taken = 0, refused = 0, free, bit, word, r;
	u32 p, q, h, w, o, pk;

	for (p = 0; p < k; p++) {
		bit = 1ULL << bfly_kfly_want(k, pow2, sh, div, in[p]);
		refused |= (u64)!!(taken & bit) << p;
		taken |= bit;
	}
	for (r = refused; list && r; r &= r - 1) {
		p = __builtin_ctzll(r);
		w = bfly_kfly_want(k, pow2, sh, div, in[p]);
		for (h = 0; bfly_kfly_want(k, pow2, sh, div, in[h]) != w; h++)
			;
		bfly_kfly_conflict(list, s, node, bfly_kfly_source(g, s, node * k + h, in[h]),
				   bfly_kfly_source(g, s, node * k + p, in[p]), w);
	}
	free = ~taken;
	for (q = 0; q < k; q += 8) {
		word = 0;
		for (p = q; p < q + 8 && p < k; p++) {
			pk = in[p];
			r = refused >> p & 1;
			w = bfly_kfly_want(k, pow2, sh, div, pk);
			o = r ? (u32)__builtin_ctzll(free) : w;
			free &= free - r;
			next[base + o * stride] = pow2 ? pk ^ ((w ^ p) << sh) : pk + (p - w) * div;
			word |= (u64)o << bfly_kfly_byte(p);
		}
		memcpy(set + q, &word, k - q < 8 ? k - q : 8);
	}
	return hweight64(refused);
}

/*
 * Node stage @s, every switch. The link after it trades the port digit
 * and digit e = n-1-s (none after the last stage): output port o of the
 * switch at address a, whose digit e is d, leads to a - d k^e + d + o k^e.
 * Conflicts are listed while the list has room at the stage's start, else
 * only counted.
 */
static __always_inline void bfly_kfly_stage(const struct bfly_kfly *g, u32 k, bool pow2,
					    u32 s, const u32 *cur, u8 *row, u32 *next,
					    struct bfly_kfly_conflicts *conflicts)
{
	u32 e = g->n - 1 - s, m = g->pow[e], sh = g->log2k * e, sw, a, d, count = 0;
	struct bfly_kfly_conflicts *list = NULL;

	if (conflicts && conflicts->count < conflicts->capacity)
		list = conflicts;
	for (sw = 0, a = 0; sw < g->switches; sw++, a += k) {
		d = !e ? 0 : pow2 ? (a >> sh) & (k - 1) : a / m % k;
		count += bfly_kfly_switch(g, k, pow2, sh, m, cur + a, row + a, next,
					  a - d * m + d, e ? m : 1, list, s, sw);
	}
	if (conflicts && !list && count) {
		if (!conflicts->count)
			conflicts->first_stage = s;
		conflicts->count += count;
	}
}

/* Node stage @s with k a constant where it is 4, 8 or 16, so loops unroll. */
static void bfly_kfly_stage_k(const struct bfly_kfly *g, u32 s, const u32 *cur, u8 *row,
			      u32 *next, struct bfly_kfly_conflicts *conflicts)
{
	switch (g->k) {
	case 4:
		bfly_kfly_stage(g, 4, true, s, cur, row, next, conflicts);
		break;
	case 8:
		bfly_kfly_stage(g, 8, true, s, cur, row, next, conflicts);
		break;
	case 16:
		bfly_kfly_stage(g, 16, true, s, cur, row, next, conflicts);
		break;
	default:
		if (g->log2k)
			bfly_kfly_stage(g, g->k, true, s, cur, row, next, conflicts);
		else
			bfly_kfly_stage(g, g->k, false, s, cur, row, next, conflicts);
	}
}

/**
 * bfly_kfly_route_dest() - destination-digit routing, finding conflicts
 * @g: the shape
 * @perm: N destinations, @perm[input] = output
 * @set: receives the setting, bfly_kfly_settings_size() bytes
 * @delivered: if not NULL, receives where each input arrives under @set
 *	(its destination unless a conflict deflected it)
 * @conflicts: if not NULL, receives the conflicts
 * @work: bfly_kfly_route_workspace_size() bytes
 *
 * See the comment at the top of kfly.c for the conflict rule. Each packet
 * is a u32 that carries what its address does not tell of its source and
 * destination, so a stage reads no other array.
 *
 * Return: 0; -EINVAL for an entry of N or more (nothing written); -EINTR
 * when bfly_should_stop() said to stop.
 */
int bfly_kfly_route_dest(const struct bfly_kfly *g, const u32 *perm, u8 *set,
			 u32 *delivered, struct bfly_kfly_conflicts *conflicts, void *work)
{
	u32 *cur = work, *next = cur + g->ports, *tmp;
	u32 i, s, a, top = g->pow[g->n - 1], sh = g->log2k * (g->n - 1);

	for (i = 0; i < g->ports; i++) {
		if (perm[i] >= g->ports)
			return -EINVAL;
		cur[i] = perm[i];
	}
	if (conflicts) {
		conflicts->count = 0;
		conflicts->first_stage = BFLY_NO_CONFLICT;
	}
	for (s = 0; s < g->n; s++) {
		u8 *row = set + (size_t)s * g->ports;

		bfly_kfly_stage_k(g, s, cur, row, next, conflicts);
		tmp = cur;
		cur = next;
		next = tmp;
		if (bfly_should_stop())
			return -EINTR;
	}
	if (delivered && g->log2k)
		for (a = 0; a < g->ports; a++)
			delivered[(cur[a] & (top - 1)) << g->log2k | cur[a] >> sh] = a;
	else if (delivered)
		for (a = 0; a < g->ports; a++)
			delivered[cur[a] % top * g->k + cur[a] / top] = a;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_route_dest);

/* Where the packet leaving node stage @s at address @a enters the next one. */
static __always_inline u32 bfly_kfly_next(const struct bfly_kfly *g, u32 s, u32 a)
{
	return s + 1 < g->n ? bfly_kfly_link(g, s, a) : a;
}

/**
 * bfly_kfly_link_load() - link loads of packets following labels or a setting
 * @g: the shape
 * @labels: N labels, each below N: node stage j sends a packet out on port
 *	digit n-1-j of its label whatever the other packets do; or NULL
 * @set: without @labels, a setting the packets follow; a packet meeting a
 *	port set to nothing is lost
 * @active: NULL, or N bits: the inputs that carry a packet
 * @load: NULL, or n * N u32: @load[s * N + a] receives the packets on the
 *	link address a leaving node stage s
 * @stage_max: NULL, or n u32 receiving each node stage's largest load
 * @mll: receives the largest load of all
 * @work: two arrays of N u32
 *
 * Return: 0; -EINVAL for a label of N or more; -EINTR.
 */
int bfly_kfly_link_load(const struct bfly_kfly *g, const u64 *labels, const u8 *set,
			const unsigned long *active, u32 *load, u32 *stage_max, u32 *mll,
			void *work)
{
	u32 *pos = work, *count = pos + g->ports;
	u32 s, i, a, o, top, best = 0;

	for (i = 0; i < g->ports; i++) {
		if (labels && labels[i] >= g->ports)
			return -EINVAL;
		pos[i] = active && !test_bit(i, active) ? BFLY_TRACE_LOST : i;
	}
	for (s = 0; s < g->n; s++) {
		u32 *cnt = load ? load + (size_t)s * g->ports : count;

		memset(cnt, 0, g->ports * sizeof(*cnt));
		top = 0;
		for (i = 0; i < g->ports; i++) {
			a = pos[i];
			if (a == BFLY_TRACE_LOST)
				continue;
			o = labels ? labels[i] / g->pow[g->n - 1 - s] % g->k :
				     set[(size_t)s * g->ports + a];
			if (o == BFLY_KFLY_UNSET) {
				pos[i] = BFLY_TRACE_LOST;
				continue;
			}
			a = a - a % g->k + o;
			if (++cnt[a] > top)
				top = cnt[a];
			pos[i] = bfly_kfly_next(g, s, a);
		}
		if (stage_max)
			stage_max[s] = top;
		if (top > best)
			best = top;
		if (bfly_should_stop())
			return -EINTR;
	}
	*mll = best;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_link_load);

/**
 * bfly_kfly_window_first_conflict() - the conflict-window test, base k
 * @g: the shape
 * @perm: a permutation, @perm[source] = destination
 * @seen: scratch bitmap of N bits
 *
 * Independent of the routing code, for cross-checking it. Routed by its
 * destination's digits, the packet from s to d leaves node stage j on the
 * link whose address holds d's top j + 1 digits and s's digits n-1-j .. 1
 * (Documentation/routing.rst derives it). Window W_j is that n-digit
 * number; the permutation is realizable iff every window W_0 .. W_(n-2)
 * has N distinct values, and the first window with a repeat is the first
 * node stage with a conflict. With k = 2 these are the RLS paper's windows.
 *
 * Return: the first conflicting node stage, or %BFLY_NO_CONFLICT.
 */
u32 bfly_kfly_window_first_conflict(const struct bfly_kfly *g, const u32 *perm,
				    unsigned long *seen)
{
	u32 j, s, m;

	for (j = 0; j + 1 < g->n; j++) {
		m = g->pow[g->n - 1 - j];
		bitmap_zero(seen, g->ports);
		for (s = 0; s < g->ports; s++)
			if (__test_and_set_bit(perm[s] / m * m + s / g->k % m, seen))
				return j;
	}
	return BFLY_NO_CONFLICT;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_window_first_conflict);

/**
 * bfly_kfly_cut() - the channels a cut of the switches crosses
 * @g: the shape
 * @side: one bit per switch, stage-major (stage * N/k + switch): the
 *	side it is on
 *
 * A cut must leave half the inputs and half the outputs on each side
 * (with N even). Each terminal sits with its switch where it can; the
 * imbalance the switches leave moves that many terminals across, each
 * moved one adding its channel to the cut.
 *
 * Return: channels between node stages whose ends lie on different sides,
 * plus the terminals moved; U64_MAX for odd N.
 */
u64 bfly_kfly_cut(const struct bfly_kfly *g, const unsigned long *side)
{
	u32 s, a, b, in_side = 0, out_side = 0, last = (g->n - 1) * g->switches;
	u64 cut = 0;

	if (g->ports % 2)
		return U64_MAX;
	for (s = 0; s + 1 < g->n; s++) {
		for (a = 0; a < g->ports; a++) {
			b = bfly_kfly_link(g, s, a);
			cut += test_bit(s * g->switches + a / g->k, side) !=
			       test_bit((s + 1) * g->switches + b / g->k, side);
		}
	}
	for (a = 0; a < g->switches; a++) {
		in_side += test_bit(a, side) ? g->k : 0;
		out_side += test_bit(last + a, side) ? g->k : 0;
	}
	cut += in_side > g->ports / 2 ? in_side - g->ports / 2 : g->ports / 2 - in_side;
	cut += out_side > g->ports / 2 ? out_side - g->ports / 2 : g->ports / 2 - out_side;
	return cut;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_cut);

/**
 * bfly_kfly_figures() - the butterfly note's figures for a shape
 * @g: the shape
 * @f: receives them
 *
 * The standard cut splits by the top digit of the link address, which
 * only edge 0 changes: of its N channels, those from a top digit below
 * k/2 to one at k/2 or above and back cross, N/2 for even k (the
 * terminals stay with their switches). Documentation/routing.rst compares
 * it with the note's N/k and with the minimum found by search. With one
 * node stage the cut moves half the inputs and half the outputs: N.
 */
void bfly_kfly_figures(const struct bfly_kfly *g, struct bfly_kfly_figures *f)
{
	f->terminals = g->ports;
	f->switches = g->n * g->switches;
	f->channels = (u64)(g->n + 1) * g->ports;
	f->degree = 2 * g->k;
	f->diameter = g->n + 1;
	f->half_cut = g->k % 2 ? 0 : g->n < 2 ? g->ports : g->ports / 2;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_figures);

/* The channel the packet from @s to @d leaves node stage @j on (window W_j). */
static inline u32 bfly_kfly_window(const struct bfly_kfly *g, u32 j, u32 s, u32 d)
{
	u32 m = g->pow[g->n - 1 - j];

	return d / m * m + s / g->k % m;
}

/**
 * bfly_kfly_perm_mll() - the maximum link load of a permutation
 * @g: the shape
 * @perm: N destinations (each below N)
 * @count: scratch, N u32
 *
 * Each packet follows its one path (destination-digit routing); a
 * channel's load is the number of paths through it. The permutation is
 * realizable iff the load is 1, since two paths on one channel are a
 * conflict of the switch it leaves.
 *
 * Return: the largest load of a channel between node stages or out of
 * the last one.
 */
u32 bfly_kfly_perm_mll(const struct bfly_kfly *g, const u32 *perm, u32 *count)
{
	u32 j, s, c, mll = 1;

	for (j = 0; j + 1 < g->n; j++) {
		memset(count, 0, g->ports * sizeof(u32));
		for (s = 0; s < g->ports; s++) {
			c = ++count[bfly_kfly_window(g, j, s, perm[s])];
			if (c > mll)
				mll = c;
		}
	}
	return mll;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_perm_mll);

/* Whether @a is in the top half: its top digit below k/2. */
static inline bool bfly_kfly_top(const struct bfly_kfly *g, u32 a)
{
	return a / g->pow[g->n - 1] < g->k / 2;
}

/**
 * bfly_kfly_traffic_mll() - the maximum link load of a traffic pattern
 * @g: the shape (even k for %BFLY_KFLY_HALVES)
 * @traffic: the pattern
 * @load: scratch, N u64
 *
 * Every terminal injects one unit, spread alike over its destinations;
 * a channel carries the units of the pairs whose path uses it. Loads are
 * counted in units of 1/N, so that they stay whole.
 *
 * Return: N times the maximum link load, or 0 for %BFLY_KFLY_HALVES with
 * odd k.
 */
u64 bfly_kfly_traffic_mll(const struct bfly_kfly *g, enum bfly_kfly_traffic traffic,
			  u64 *load)
{
	u32 j, s, d, w = traffic == BFLY_KFLY_HALVES ? 2 : 1;
	u64 mll = 0;

	if (traffic == BFLY_KFLY_HALVES && g->k % 2)
		return 0;
	for (j = 0; j < g->n; j++) {
		memset(load, 0, g->ports * sizeof(u64));
		for (s = 0; s < g->ports; s++)
			for (d = 0; d < g->ports; d++)
				if (traffic == BFLY_KFLY_UNIFORM ||
				    bfly_kfly_top(g, s) != bfly_kfly_top(g, d))
					load[bfly_kfly_window(g, j, s, d)] += w;
		for (s = 0; s < g->ports; s++)
			if (load[s] > mll)
				mll = load[s];
		if (bfly_should_stop())
			break;
	}
	return mll;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_traffic_mll);

/**
 * bfly_kfly_pattern() - a classic permutation on the terminals
 * @g: the shape
 * @pattern: which
 * @perm: receives N destinations
 *
 * Return: 0, or -EINVAL for a transpose with odd n.
 */
int bfly_kfly_pattern(const struct bfly_kfly *g, enum bfly_kfly_pattern pattern, u32 *perm)
{
	u32 s, i, d, h = g->pow[g->n / 2];

	if (pattern == BFLY_KFLY_TRANSPOSE && g->n % 2)
		return -EINVAL;
	for (s = 0; s < g->ports; s++) {
		if (pattern == BFLY_KFLY_TRANSPOSE) {
			perm[s] = s % h * h + s / h;
			continue;
		}
		for (d = 0, i = 0; i < g->n; i++)
			d += s / g->pow[i] % g->k * g->pow[g->n - 1 - i];
		perm[s] = d;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_kfly_pattern);
