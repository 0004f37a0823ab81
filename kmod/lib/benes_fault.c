// SPDX-License-Identifier: GPL-2.0
/*
 * Benes routing around stuck nodes: the looping algorithm, with its free
 * choices steered so that stuck nodes keep the state they are stuck in.
 *
 * Used only for fabrics with stuck nodes; benes.c is the fast path. This
 * file favours plainness over speed, but stays O(N log N) (plus O(F^2) per
 * depth for F faults, F <= %BFLY_MAX_FAULTS) and allocates nothing.
 *
 * The recursion (benes.c has the details): at depth t = 0 .. n-2 the fabric
 * between node stages t and 2n-2-t is 2^t Benes networks of M = N / 2^t
 * ports. Each packet of a subproblem is coloured 0 (upper half network) or
 * 1 (lower), the two packets of an input node and the two of an output node
 * differently. A node of stage t is crossed when its colour-0 packet is on
 * port 1; a node of stage 2n-2-t when its colour-0 packet leaves on port 1.
 * A colour-c packet at local input x enters half network c at
 * L(x) = (x & (M/2 - 2)) | (x >> (m - 1)), m = log2(M), and leaves it at
 * L(y), y its local output: that gives the subproblems of depth t + 1.
 *
 * The free choices. The colouring constraints link the input and output
 * nodes of a subproblem into cycles (colour-0 packet x, its output partner's
 * packet Q(P(x) ^ 1) in colour 1, that packet's input partner in colour 0,
 * and so on). Every cycle can be coloured in exactly two ways, one the
 * complement of the other: complementing a cycle flips the setting of each
 * input node (stage t) and each output node (stage 2n-2-t) on it and of
 * nothing else at this depth. All settings realize the permutation; they
 * differ in what the next depths are given to route.
 *
 * The method, one depth at a time:
 *  - walk every cycle in a default orientation (the cycle's first input
 *    node straight), writing stages t and 2n-2-t and recording, for every
 *    input node, its cycle (the id of an output node is that of the input
 *    node sending its port-0 packet);
 *  - every stuck node of stage t or 2n-2-t votes for complementing its
 *    cycle (when the default disagrees with its stuck state) or keeping it;
 *    a cycle is complemented when the votes for it are more, and on a tie
 *    when the cycle's earliest fault in the list wants it. Stuck nodes of a
 *    cycle that disagree about it cannot all be honoured;
 *  - split into the next depth's subproblems.
 * The last depth with a choice, t = n-2 (M = 4: two input nodes, two output
 * nodes and the two middle-stage nodes below them; the middle stage n-1 has
 * no choice of its own), is decided exhaustively per subproblem: among its
 * at most four colourings, the one leaving the fewest stuck nodes of stages
 * n-2, n-1 and n unhonoured (the first such one on a tie). So for N = 4 the
 * result is optimal.
 *
 * Limits. This is greedy: a stuck node is honoured as far as the choices of
 * its own depth allow, given what the earlier depths chose. The earlier
 * depths do not look ahead (their choices only serve their own stages'
 * stuck nodes), and no combinations are searched across depths, except
 * within the exhaustive last depth. So a stuck node of an inner stage,
 * above all of the middle stage, which has no choice of its own, may be
 * left unhonoured although some other routing would honour it. Whatever the
 * faults, the result always realizes the permutation; stuck nodes only
 * steer the free choices, and the caller is told how many went unhonoured.
 */
#include "compat.h"
#include "benes_fault.h"
#include "trace.h"

/* cyc[] of an input node not walked yet */
#define BFAULT_UNSET U32_MAX

struct bfault_ws {
	u32 *pa, *pb, *q, *cyc;
};

/* Carve @bytes (rounded up to 64) at *@off of @base, which may be NULL. */
static u32 *bfault_part(u8 *base, size_t *off, size_t bytes)
{
	void *p = base ? base + *off : NULL;

	*off += (bytes + 63) & ~(size_t)63;
	return p;
}

static size_t bfault_layout(const struct bfly_geometry *geo, void *work,
			    struct bfault_ws *ws)
{
	size_t ports = geo->ports, off = 0;
	struct bfault_ws sizing;
	u8 *base = work;

	if (!ws)
		ws = &sizing;
	ws->pa = bfault_part(base, &off, ports * sizeof(u32));
	ws->pb = bfault_part(base, &off, ports * sizeof(u32));
	ws->q = bfault_part(base, &off, ports * sizeof(u32));
	ws->cyc = bfault_part(base, &off, ports / 2 * sizeof(u32));
	return off;
}

/**
 * bfly_benes_fault_workspace_size() - memory bfly_benes_route_stuck() needs
 * @geo: a Benes fabric geometry
 *
 * 14 bytes per port (three arrays of N u32 and one of N/2), each part
 * rounded up to 64 bytes: 14 MiB and 256 bytes at N = 2^20. The caller
 * allocates it.
 *
 * Return: the size in bytes of the workspace.
 */
size_t bfly_benes_fault_workspace_size(const struct bfly_geometry *geo)
{
	return bfault_layout(geo, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_benes_fault_workspace_size);

static void bfault_assign(unsigned long *matrix, u64 bit, bool val)
{
	if (val)
		__set_bit(bit, matrix);
	else
		__clear_bit(bit, matrix);
}

static void bfault_toggle(unsigned long *matrix, u64 bit)
{
	bfault_assign(matrix, bit, !test_bit(bit, matrix));
}

/* A stuck node of the fabric; everything else is ignored here. */
static bool bfault_stuck(const struct bfly_geometry *geo,
			 const struct bfly_fault *f)
{
	return f->kind == BFLY_FAULT_STUCK && f->stage < geo->node_stages &&
	       f->index < geo->nodes_per_stage;
}

/* Whether stuck node @f is in another state in @matrix. */
static bool bfault_unmet(const struct bfly_geometry *geo,
			 const unsigned long *matrix,
			 const struct bfly_fault *f)
{
	return test_bit(bfly_matrix_bit(geo, f->stage, f->index), matrix) !=
	       (f->state != 0);
}

/* A stuck node whose setting depth @t chooses (t < n - 2). */
static bool bfault_at_depth(const struct bfly_geometry *geo,
			    const struct bfly_fault *f, u32 t)
{
	return bfault_stuck(geo, f) &&
	       (f->stage == t || f->stage == 2 * geo->ports_log2 - 2 - t);
}

/*
 * The cycle of stuck node @f at depth @t: that of its input node, or for an
 * output node that of the input node its port-0 packet comes from.
 */
static u32 bfault_cycle(const u32 *q, const u32 *cyc,
			const struct bfly_fault *f, u32 t)
{
	return f->stage == t ? cyc[f->index] : cyc[q[2 * f->index] >> 1];
}

/*
 * Depth @t, the default orientation: colour every cycle starting from its
 * lowest input node, straight, writing stages t and 2n-2-t of @matrix; the
 * cycle of input node k is cyc[k], the first input node of the cycle.
 * Values of @p and @q are global positions, so cycles need no base.
 */
static void bfault_colour(const struct bfly_geometry *geo,
			  unsigned long *matrix, u32 t, const u32 *p,
			  const u32 *q, u32 *cyc)
{
	u64 ib = bfly_matrix_bit(geo, t, 0);
	u64 ob = bfly_matrix_bit(geo, 2 * geo->ports_log2 - 2 - t, 0);
	u32 half = geo->nodes_per_stage, k, x, y;

	for (k = 0; k < half; k++)
		cyc[k] = BFAULT_UNSET;
	for (k = 0; k < half; k++) {
		if (cyc[k] != BFAULT_UNSET)
			continue;
		/* x: the colour-0 packet of its input node */
		x = 2 * k;
		do {
			cyc[x >> 1] = k;
			bfault_assign(matrix, ib + (x >> 1), x & 1);
			y = p[x];
			bfault_assign(matrix, ob + (y >> 1), y & 1);
			x = q[y ^ 1] ^ 1;
		} while (x >> 1 != k);
	}
}

/* Complement the cycle of input node @k at depth @t. */
static void bfault_flip_cycle(const struct bfly_geometry *geo,
			      unsigned long *matrix, u32 t, const u32 *p,
			      const u32 *q, u32 k)
{
	u64 ib = bfly_matrix_bit(geo, t, 0);
	u64 ob = bfly_matrix_bit(geo, 2 * geo->ports_log2 - 2 - t, 0);
	u32 x = 2 * k, y;

	do {
		bfault_toggle(matrix, ib + (x >> 1));
		y = p[x];
		bfault_toggle(matrix, ob + (y >> 1));
		x = q[y ^ 1] ^ 1;
	} while (x >> 1 != k);
}

/*
 * Depth @t: let the stuck nodes of stages t and 2n-2-t vote on their
 * cycles' orientations. A cycle's votes are counted when its earliest
 * fault in the list comes up; complementing it changes no other cycle's
 * settings, so the order of the cycles does not matter.
 */
static void bfault_steer(const struct bfly_geometry *geo,
			 unsigned long *matrix, u32 t, const u32 *p,
			 const u32 *q, const u32 *cyc,
			 const struct bfly_fault *faults, u32 nfaults)
{
	u32 i, j, c;
	int votes;

	for (i = 0; i < nfaults; i++) {
		if (!bfault_at_depth(geo, &faults[i], t))
			continue;
		c = bfault_cycle(q, cyc, &faults[i], t);
		for (j = 0; j < i; j++)
			if (bfault_at_depth(geo, &faults[j], t) &&
			    bfault_cycle(q, cyc, &faults[j], t) == c)
				break;
		if (j < i)
			continue;	/* counted with an earlier fault */
		votes = 0;
		for (j = i; j < nfaults; j++)
			if (bfault_at_depth(geo, &faults[j], t) &&
			    bfault_cycle(q, cyc, &faults[j], t) == c)
				votes += bfault_unmet(geo, matrix, &faults[j]) ?
					 1 : -1;
		if (votes > 0 ||
		    (!votes && bfault_unmet(geo, matrix, &faults[i])))
			bfault_flip_cycle(geo, matrix, t, p, q, c);
	}
}

/*
 * The subproblems of depth @t + 1, @p2, from those of depth @t (M = 2^m
 * ports each) and the input nodes' settings in @matrix.
 */
static void bfault_split(const struct bfly_geometry *geo,
			 const unsigned long *matrix, u32 t, const u32 *p,
			 u32 *p2)
{
	u32 m = geo->ports_log2 - t, big = 1U << m, half = big / 2;
	u64 ib = bfly_matrix_bit(geo, t, 0);
	u32 i, x, y, c, base;

	for (i = 0; i < geo->ports; i++) {
		x = i & (big - 1);
		y = p[i] & (big - 1);
		/* the colour-0 packet is on the port the setting names */
		c = (x & 1) ^ test_bit(ib + (i >> 1), matrix);
		base = (i & ~(big - 1)) + c * half;
		p2[base + ((x & (half - 2)) | (x >> (m - 1)))] =
			base + ((y & (half - 2)) | (y >> (m - 1)));
	}
}

/*
 * The M = 4 subproblem at positions @b .. @b + 3 of depth n - 2 with its
 * input nodes set to the bits of @in (bit j: node j of the subproblem):
 * the settings of its output nodes go to *@out and those of its middle
 * nodes to *@mid. Middle node c, the whole M = 2 subproblem of colour c, is
 * crossed when the colour-c packet of input node 0 leaves by output node 1.
 * Return: false when @in gives some output node two packets of one colour,
 * i.e. is no colouring at all.
 */
static bool bfault_quad(const u32 *p, u32 b, u32 in, u32 *out, u32 *mid)
{
	u32 seen = 0, x, y, c, bit;

	*out = 0;
	*mid = 0;
	for (x = 0; x < 4; x++) {
		y = p[b + x] & 3;
		c = (x & 1) ^ ((in >> (x >> 1)) & 1);
		bit = 1U << (2 * c + (y >> 1));
		if (seen & bit)
			return false;
		seen |= bit;
		if (!c)
			*out |= (y & 1) << (y >> 1);
		if (!(x >> 1))
			*mid |= (y >> 1) << c;
	}
	return true;
}

/* Stuck nodes of subproblem @sub of depth n - 2 a colouring leaves unmet. */
static u32 bfault_quad_cost(const struct bfly_geometry *geo,
			    const struct bfly_fault *faults, u32 nfaults,
			    u32 sub, u32 in, u32 out, u32 mid)
{
	u32 n = geo->ports_log2, cost = 0, i, set;
	const struct bfly_fault *f;

	for (i = 0; i < nfaults; i++) {
		f = &faults[i];
		if (!bfault_stuck(geo, f) || f->index >> 1 != sub)
			continue;
		if (f->stage == n - 2)
			set = in;
		else if (f->stage == n - 1)
			set = mid;
		else if (f->stage == n)
			set = out;
		else
			continue;
		cost += ((set >> (f->index & 1)) & 1) != (f->state != 0);
	}
	return cost;
}

static void bfault_quad_write(const struct bfly_geometry *geo,
			      unsigned long *matrix, u32 sub, u32 in, u32 out,
			      u32 mid)
{
	u32 n = geo->ports_log2, j, node;

	for (j = 0; j < 2; j++) {
		node = 2 * sub + j;
		bfault_assign(matrix, bfly_matrix_bit(geo, n - 2, node),
			      (in >> j) & 1);
		bfault_assign(matrix, bfly_matrix_bit(geo, n - 1, node),
			      (mid >> j) & 1);
		bfault_assign(matrix, bfly_matrix_bit(geo, n, node),
			      (out >> j) & 1);
	}
}

/*
 * Depth n - 2 and the middle stage: every subproblem in its first valid
 * colouring, then, for each subproblem holding stuck nodes, the best one.
 */
static void bfault_last(const struct bfly_geometry *geo, const u32 *p,
			const struct bfly_fault *faults, u32 nfaults,
			unsigned long *matrix)
{
	u32 n = geo->ports_log2, b, i, j, in, out, mid, sub, cost;
	u32 best, best_in, best_out, best_mid;
	const struct bfly_fault *f;

	for (b = 0; b < geo->ports; b += 4) {
		/* input node 0 straight; node 1 straight unless that fails */
		in = 0;
		if (!bfault_quad(p, b, in, &out, &mid)) {
			in = 2;
			bfault_quad(p, b, in, &out, &mid);
		}
		bfault_quad_write(geo, matrix, b / 4, in, out, mid);
	}

	for (i = 0; i < nfaults; i++) {
		f = &faults[i];
		if (!bfault_stuck(geo, f) || f->stage + 2 < n || f->stage > n)
			continue;
		sub = f->index >> 1;
		for (j = 0; j < i; j++)
			if (bfault_stuck(geo, &faults[j]) &&
			    faults[j].stage + 2 >= n && faults[j].stage <= n &&
			    faults[j].index >> 1 == sub)
				break;
		if (j < i)
			continue;	/* decided with an earlier fault */
		best = U32_MAX;
		best_in = 0;
		best_out = 0;
		best_mid = 0;
		for (in = 0; in < 4; in++) {
			if (!bfault_quad(p, 4 * sub, in, &out, &mid))
				continue;
			cost = bfault_quad_cost(geo, faults, nfaults, sub, in,
						out, mid);
			if (cost < best) {
				best = cost;
				best_in = in;
				best_out = out;
				best_mid = mid;
			}
		}
		bfault_quad_write(geo, matrix, sub, best_in, best_out,
				  best_mid);
	}
}

/**
 * bfly_benes_route_stuck() - route a permutation on a Benes, steering the
 * free choices by stuck nodes
 * @geo: a Benes fabric geometry (2n - 1 node stages)
 * @perm: @geo->ports entries, @perm[input] = output; must be a permutation
 *	(not checked)
 * @faults: the fabric's faults; stuck nodes (%BFLY_FAULT_STUCK) steer the
 *	routing, earlier entries winning ties; other kinds, and stuck nodes
 *	naming no node of @geo, are ignored
 * @nfaults: entries in @faults, at most %BFLY_MAX_FAULTS
 * @matrix: receives the switch matrix, @geo->switches bits (trace.h), every
 *	one written
 * @work: workspace of bfly_benes_fault_workspace_size() bytes, 4-byte
 *	aligned
 * @unmet: on success, receives the number of stuck nodes in @faults whose
 *	stuck state differs from their setting in @matrix
 *
 * The looping algorithm with its free choices made greedily, depth by
 * depth, for the stuck nodes (see the comment at the top of
 * benes_fault.c). The matrix always realizes @perm (bfly_trace() gives
 * @perm back), faults or not; it honours as many stuck nodes as the greedy
 * choices manage. Runs in O(N log N + F^2 log N) time without allocating,
 * calling bfly_should_stop() after every depth.
 *
 * Return: 0; -EINVAL for a @geo that is not a Benes (@matrix untouched);
 * -EINTR when bfly_should_stop() said to stop (then @matrix may be partly
 * written and *@unmet is not).
 */
int bfly_benes_route_stuck(const struct bfly_geometry *geo, const u32 *perm,
			   const struct bfly_fault *faults, u32 nfaults,
			   unsigned long *matrix, void *work, u32 *unmet)
{
	u32 n = geo->ports_log2, t, i, count = 0;
	const u32 *p = perm;
	struct bfault_ws ws;
	u32 *p2;

	if (geo->topology != BFLY_TOPO_BENES || n < 1 ||
	    geo->ports != 1U << n)
		return -EINVAL;
	bfault_layout(geo, work, &ws);

	if (n == 1) {
		/* one node, no choice */
		bfault_assign(matrix, 0, perm[0]);
	} else {
		p2 = ws.pa;
		for (t = 0; t + 2 < n; t++) {
			/* this depth's inverse */
			for (i = 0; i < geo->ports; i++)
				ws.q[p[i]] = i;
			bfault_colour(geo, matrix, t, p, ws.q, ws.cyc);
			bfault_steer(geo, matrix, t, p, ws.q, ws.cyc, faults,
				     nfaults);
			bfault_split(geo, matrix, t, p, p2);
			if (bfly_should_stop())
				return -EINTR;
			p = p2;
			p2 = p == ws.pa ? ws.pb : ws.pa;
		}
		bfault_last(geo, p, faults, nfaults, matrix);
		if (bfly_should_stop())
			return -EINTR;
	}

	for (i = 0; i < nfaults; i++)
		if (bfault_stuck(geo, &faults[i]) &&
		    bfault_unmet(geo, matrix, &faults[i]))
			count++;
	*unmet = count;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_benes_route_stuck);
