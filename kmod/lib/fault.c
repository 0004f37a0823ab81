// SPDX-License-Identifier: GPL-2.0
/*
 * Injected faults (stuck nodes, broken links) and the packets they hit.
 *
 * A fault never changes what the fabric is told, only what it does: a
 * stuck node ignores its matrix bit, a broken link loses the packet on it.
 * Two questions are asked of a set of faults, both answered by one walk of
 * every packet through the node stages, O(N * stages):
 *
 *  - which packets of a route would a fault hit (bfly_fault_walk() with
 *    %BFLY_WALK_ROUTE): a packet is hit when its path, as routed, crosses a
 *    node stuck in the other state than the route sets it to, or a broken
 *    link. Routes and batches report and withhold exactly those packets;
 *  - where packets really go (%BFLY_WALK_REAL): stuck nodes act in their
 *    stuck state, and a packet on a broken link is lost (%BFLY_TRACE_LOST),
 *    for BFLY_IOC_TRACE.
 *
 * A packet's path either follows the switch matrix (its out port is its in
 * port, crossed when the node's bit is set) or its label (the node sends it
 * to the port its label bit names, whatever the other packet in the node
 * wants: the self-routing rule, under which two conflicting packets are
 * still checked one by one).
 *
 * Stages without faults cost one wiring step per packet; in stages with
 * faults, the link positions next to a fault are marked in a bitmap of N
 * bits, so that only packets on marked positions look through the (at
 * most %BFLY_MAX_FAULTS) faults.
 */
#include "compat.h"
#include "fault.h"
#include "trace.h"
#include "wiring.h"

/* Flags a packet already counted as hit, in the walk's position array */
#define BFLY_WALK_HIT BIT(30)

/**
 * bfly_fault_check() - check a fault against a fabric
 * @geo: the fabric geometry
 * @f: the fault
 * @why: on -EINVAL, set to a short reason for the user
 *
 * Return: 0, or -EINVAL for an unknown kind, a stage, node or link that
 * does not exist, or a state other than 0 or 1 (0 for a link).
 */
int bfly_fault_check(const struct bfly_geometry *geo, const struct bfly_fault *f,
		     const char **why)
{
	switch (f->kind) {
	case BFLY_FAULT_STUCK:
		if (f->stage >= geo->node_stages || f->index >= geo->nodes_per_stage) {
			*why = "fault: no such node";
			return -EINVAL;
		}
		if (f->state > 1) {
			*why = "fault: a stuck node is straight (0) or cross (1)";
			return -EINVAL;
		}
		return 0;
	case BFLY_FAULT_LINK:
		if (f->stage >= geo->node_stages || f->index >= geo->ports) {
			*why = "fault: no such link";
			return -EINVAL;
		}
		if (f->state) {
			*why = "fault: a broken link has no state";
			return -EINVAL;
		}
		return 0;
	default:
		*why = "fault: unknown fault kind";
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fault_check);

/**
 * bfly_fault_same_place() - whether two faults name the same node or link
 * @a: a fault
 * @b: another fault
 *
 * Return: true when both are of the same kind at the same stage and index.
 */
bool bfly_fault_same_place(const struct bfly_fault *a, const struct bfly_fault *b)
{
	return a->kind == b->kind && a->stage == b->stage && a->index == b->index;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fault_same_place);

/**
 * bfly_faults_have_stuck() - whether a fault list has a stuck node
 * @faults: the faults, or NULL for none
 *
 * Return: true when one of @faults is a stuck node.
 */
bool bfly_faults_have_stuck(const struct bfly_faults *faults)
{
	u32 j;

	for (j = 0; faults && j < faults->count; j++) {
		if (faults->list[j].kind == BFLY_FAULT_STUCK)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_faults_have_stuck);

/**
 * bfly_faults_stuck_unmet() - stuck nodes a switch matrix sets otherwise
 * @geo: the fabric geometry
 * @faults: the faults
 * @matrix: a switch matrix
 *
 * Return: the number of stuck nodes whose bit in @matrix is not the state
 * they are stuck in.
 */
u32 bfly_faults_stuck_unmet(const struct bfly_geometry *geo,
			    const struct bfly_faults *faults,
			    const unsigned long *matrix)
{
	u32 j, unmet = 0;

	for (j = 0; j < faults->count; j++) {
		const struct bfly_fault *f = &faults->list[j];

		if (f->kind == BFLY_FAULT_STUCK &&
		    test_bit(bfly_matrix_bit(geo, f->stage, f->index), matrix) != f->state)
			unmet++;
	}
	return unmet;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_faults_stuck_unmet);

/**
 * bfly_fault_walk_workspace_size() - memory bfly_fault_walk() needs
 * @geo: the fabric geometry
 *
 * Return: N u32 and an N-bit bitmap, in bytes (4.125 bytes per port).
 */
size_t bfly_fault_walk_workspace_size(const struct bfly_geometry *geo)
{
	return geo->ports * sizeof(u32) + BITS_TO_LONGS(geo->ports) * sizeof(long);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fault_walk_workspace_size);

/* Mark the link positions entering stage @s where a fault of @s may act. */
static bool bfly_fault_mark(const struct bfly_faults *faults, u32 s,
			    unsigned long *mark, bool set)
{
	bool any = false;
	u32 j, pos;

	for (j = 0; j < faults->count; j++) {
		const struct bfly_fault *f = &faults->list[j];

		if (f->stage != s)
			continue;
		/* either packet of the node can be on the fault */
		pos = f->kind == BFLY_FAULT_STUCK ? 2 * f->index : f->index & ~1U;
		if (set) {
			__set_bit(pos, mark);
			__set_bit(pos + 1, mark);
		} else {
			__clear_bit(pos, mark);
			__clear_bit(pos + 1, mark);
		}
		any = true;
	}
	return any;
}

/*
 * The faults of stage @s acting on a packet entering node @pos >> 1 on
 * port @pos & 1 that wants to leave on port *@out: sets *@struck when the
 * node is stuck in the other state (and, if @real, *@out to the port the
 * stuck node sends it to) and returns whether the link it then leaves on is
 * broken.
 */
static bool bfly_fault_at(const struct bfly_faults *faults, u32 s, u32 pos,
			  u32 *out, bool real, bool *struck)
{
	u32 j, node = pos >> 1, leave;

	for (j = 0; j < faults->count; j++) {
		const struct bfly_fault *f = &faults->list[j];

		if (f->stage != s || f->kind != BFLY_FAULT_STUCK || f->index != node)
			continue;
		if (((pos ^ *out) & 1) != f->state) {
			*struck = true;
			if (real)
				*out = (pos ^ f->state) & 1;
		}
	}
	leave = (node << 1) | *out;
	for (j = 0; j < faults->count; j++) {
		const struct bfly_fault *f = &faults->list[j];

		if (f->stage == s && f->kind == BFLY_FAULT_LINK && f->index == leave)
			return true;
	}
	return false;
}

/**
 * bfly_fault_walk() - the packets a set of faults hits
 * @geo: the fabric geometry
 * @faults: the faults, checked with bfly_fault_check()
 * @walk: the packets and what to find out, see &struct bfly_fault_walk
 * @hit: zero or a bitmap of N bits; receives the inputs whose packet a fault
 *	hits (bits of inputs without a packet are left alone)
 * @out: zero or N u32: receives the output each packet reaches, or
 *	%BFLY_TRACE_LOST (with %BFLY_WALK_REAL; with %BFLY_WALK_ROUTE, the
 *	output the route sends it to)
 * @work: bfly_fault_walk_workspace_size() bytes
 *
 * Return: the number of packets hit, or -EINTR when bfly_should_stop()
 * asked to stop.
 */
int bfly_fault_walk(const struct bfly_geometry *geo, const struct bfly_faults *faults,
		    const struct bfly_fault_walk *walk, unsigned long *hit, u32 *out,
		    void *work)
{
	s32 flips[2 * BFLY_MAX_PORTS_LOG2];
	bool real = walk->mode == BFLY_WALK_REAL;
	u32 ports = geo->ports, *pos = work;
	unsigned long *mark = (unsigned long *)(pos + ports);
	u32 s, i, last = geo->node_stages, nhit = 0;

	bfly_wiring_flips(geo, flips);
	bitmap_zero(mark, ports);
	for (i = 0; i < ports; i++)
		pos[i] = i;
	/* Past the last faulty stage nothing can be hit, only moved. */
	if (!out) {
		last = 0;
		for (i = 0; i < faults->count; i++)
			if (faults->list[i].stage >= last)
				last = faults->list[i].stage + 1;
	}
	for (s = 0; s < last; s++) {
		u64 base = bfly_matrix_bit(geo, s, 0);
		u32 shift = geo->node_stages - 1 - s;
		s32 flip = s + 1 < geo->node_stages ? flips[s] : BFLY_WIRING_IDENTITY;
		bool marked = bfly_fault_mark(faults, s, mark, true);

		for (i = 0; i < ports; i++) {
			u32 p = pos[i], flag = p & BFLY_WALK_HIT, o;
			bool struck = false, lost;

			if (p == BFLY_TRACE_LOST ||
			    (walk->active && !test_bit(i, walk->active)))
				continue;
			p &= ~BFLY_WALK_HIT;
			if (walk->labels)
				o = (walk->labels[i] >> shift) & 1;
			else
				o = (p ^ test_bit(base + (p >> 1), walk->matrix)) & 1;
			if (marked && test_bit(p, mark)) {
				lost = bfly_fault_at(faults, s, p, &o, real, &struck);
				/* a packet is hit once, however many faults it meets */
				if ((lost || struck) && !flag) {
					flag = BFLY_WALK_HIT;
					nhit++;
					if (hit)
						__set_bit(i, hit);
				}
				if (lost && real) {
					pos[i] = BFLY_TRACE_LOST;
					continue;
				}
			}
			pos[i] = bfly_wiring_apply(flip, (p & ~1U) | o) | flag;
		}
		if (marked)
			bfly_fault_mark(faults, s, mark, false);
		if (bfly_should_stop())
			return -EINTR;
	}
	if (out) {
		for (i = 0; i < ports; i++)
			out[i] = pos[i] == BFLY_TRACE_LOST ? pos[i] : pos[i] & ~BFLY_WALK_HIT;
	}
	return nhit;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_fault_walk);
