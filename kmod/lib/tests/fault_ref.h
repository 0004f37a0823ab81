/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent reference for the fault walk (fault_kunit.c): each packet
 * followed alone, stage by stage, through a wiring rebuilt from the
 * node-label rule of Documentation/routing.rst (edge stage flips node bit
 * b: port o of node v goes to node v with bit b set to o, entering on the
 * old bit b of v), with the faults looked up in per-place tables. It uses
 * nothing of lib/ but the geometry and the fault list.
 */
#ifndef BFLY_FAULT_REF_H
#define BFLY_FAULT_REF_H

#include <linux/bitmap.h>

#include "lib/fault.h"
#include "lib/geometry.h"
#include "lib/topology.h"
#include "kunit_util.h"

/* Node stages per topology. */
static inline u32 bfly_ref_stages(enum bfly_topology t, u32 n)
{
	switch (t) {
	case BFLY_TOPO_BUTTERFLY:
		return n;
	case BFLY_TOPO_BFLY_TWICE:
		return 2 * n;
	default:
		return 2 * n - 1;
	}
}

/*
 * The node-label bit edge stage e (node stage e to e + 1) flips, or -1 for
 * the identity link between the two passes of bfly-twice. The butterfly
 * edge stage of size l flips bit n - 1 - l; a butterfly has sizes
 * 1 .. n - 1 in order, the reverse butterfly (Benes' second half)
 * n - 1 .. 1.
 */
static inline int bfly_ref_edge_bit(enum bfly_topology t, int n, int e)
{
	int l;

	if (e < n - 1)
		l = e + 1;			/* first butterfly */
	else if (t == BFLY_TOPO_BFLY2)
		l = e - (n - 1) + 1;		/* second, sharing stage n - 1 */
	else if (t == BFLY_TOPO_BFLY_TWICE)
		l = e == n - 1 ? 0 : e - n + 1;	/* identity, then again */
	else if (t == BFLY_TOPO_BENES)
		l = (n - 1) - (e - (n - 1));	/* reverse butterfly */
	else
		l = 0;
	return l ? n - 1 - l : -1;
}

/* Follow link position @pos (node v, port o) through an edge flipping @b. */
static inline u32 bfly_ref_link(int b, u32 pos)
{
	u32 v = pos >> 1, o = pos & 1;

	if (b < 0)
		return pos;
	return 2 * ((v & ~(1U << b)) | (o << b)) + ((v >> b) & 1);
}

/* The faults, as tables per place. */
struct bfly_ref {
	const struct bfly_geometry *geo;
	int bits[2 * BFLY_MAX_PORTS_LOG2];
	s32 *stuck;	/* [stage * N/2 + node]: -1, or the stuck state */
	u8 *broken;	/* [stage * N + link position]: 1 when broken */
};

static inline void bfly_ref_init(struct kunit *test, struct bfly_ref *r,
				 const struct bfly_geometry *geo)
{
	u32 e;

	r->geo = geo;
	for (e = 0; e + 1 < geo->node_stages; e++)
		r->bits[e] = bfly_ref_edge_bit(geo->topology, geo->ports_log2, e);
	r->stuck = bfly_test_alloc(test, geo->switches * sizeof(s32));
	r->broken = bfly_test_alloc(test, (size_t)geo->node_stages * geo->ports);
}

static inline void bfly_ref_set(struct bfly_ref *r, const struct bfly_faults *fl)
{
	const struct bfly_geometry *geo = r->geo;
	const struct bfly_fault *f;
	u32 j;

	memset(r->stuck, 0xff, geo->switches * sizeof(s32));
	memset(r->broken, 0, (size_t)geo->node_stages * geo->ports);
	for (j = 0; j < fl->count; j++) {
		f = &fl->list[j];
		if (f->kind == BFLY_FAULT_STUCK)
			r->stuck[(u64)f->stage * geo->nodes_per_stage + f->index] = f->state;
		else
			r->broken[(u64)f->stage * geo->ports + f->index] = 1;
	}
}

/*
 * One packet, alone: entering at input @i, it asks each node for the port
 * its label bit or the node's matrix bit names. ROUTE: it goes where it
 * asks, and is hit when a node on that path is stuck in the other state or
 * the link it leaves on is broken. REAL: a stuck node sends it by its stuck
 * state (hit when that is not where it asked to go), a broken link loses
 * it (hit). Returns whether it is hit; *@out gets its output or
 * BFLY_TRACE_LOST.
 */
static inline bool bfly_ref_packet(const struct bfly_ref *r, bool real, const u64 *labels,
				   const unsigned long *matrix, u32 i, u32 *out)
{
	const struct bfly_geometry *geo = r->geo;
	u32 s, p = i, node, want, go, leave;
	bool hit = false;
	s32 st;

	for (s = 0; s < geo->node_stages; s++) {
		node = p >> 1;
		if (labels)
			want = (labels[i] >> (geo->node_stages - 1 - s)) & 1;
		else
			want = (p & 1) ^ test_bit((u64)s * geo->nodes_per_stage + node, matrix);
		go = want;
		st = r->stuck[(u64)s * geo->nodes_per_stage + node];
		if (st >= 0 && (u32)st != ((p & 1) ^ want)) {
			hit = true;
			if (real)
				go = (p & 1) ^ st;
		}
		leave = 2 * node + go;
		if (r->broken[(u64)s * geo->ports + leave]) {
			hit = true;
			if (real) {
				*out = BFLY_TRACE_LOST;
				return true;
			}
		}
		p = s + 1 < geo->node_stages ? bfly_ref_link(r->bits[s], leave) : leave;
	}
	*out = p;
	return hit;
}

/* Every active packet; sets the hit bits, returns the count. */
static inline u32 bfly_ref_walk(const struct bfly_ref *r, bool real, const u64 *labels,
				const unsigned long *matrix, const unsigned long *active,
				unsigned long *hit, u32 *out)
{
	u32 i, n = 0;

	for (i = 0; i < r->geo->ports; i++) {
		if (active && !test_bit(i, active))
			continue;
		if (bfly_ref_packet(r, real, labels, matrix, i, &out[i])) {
			__set_bit(i, hit);
			n++;
		}
	}
	return n;
}

#endif /* BFLY_FAULT_REF_H */
