// SPDX-License-Identifier: GPL-2.0
/*
 * Link loads of a routed set of packets and the maximum link load (MLL).
 *
 * Links are named by the node stage they leave and the link position there:
 * link (s, p) leaves node s's stage at position p (node p >> 1, output port
 * p & 1) and goes to node stage s + 1 through the wiring, or, for the last
 * node stage, is fabric output p. The load of a link is the number of
 * packets crossing it; the MLL is the largest load.
 *
 * A packet routed by labels follows its label whatever other packets do, so
 * packets asking for the same output port of a node share that link (a
 * conflict shows up as a load of 2 or more). A packet routed by a switch
 * matrix follows the switch states, so no link carries two packets.
 * Fabrics of k x k switches (port maps) name a link by its k-ary n-fly
 * link address instead (lib/kfly.c).
 */
#include "compat.h"
#include "kfly.h"
#include "linkload.h"
#include "trace.h"
#include "wiring.h"

/**
 * bfly_linkload_workspace_size() - memory the link-load functions need
 * @geo: the fabric geometry
 *
 * Return: the workspace size in bytes: two arrays of N u32.
 */
size_t bfly_linkload_workspace_size(const struct bfly_geometry *geo)
{
	return 2 * (size_t)geo->ports * sizeof(u32);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_linkload_workspace_size);

static __always_inline int linkload(const struct bfly_geometry *geo,
				    const u64 *labels,
				    const unsigned long *matrix,
				    const unsigned long *active, u32 *load,
				    u32 *stage_max, u32 *mll, void *work)
{
	s32 flips[2 * BFLY_MAX_PORTS_LOG2];
	u32 ports = geo->ports, stages = geo->node_stages;
	u32 *pos = work, *count = pos + ports;
	u32 s, i, best = 0;

	for (i = 0; i < ports; i++) {
		if (labels && stages < 64 && (labels[i] >> stages))
			return -EINVAL;
		pos[i] = i;
	}
	bfly_wiring_flips(geo, flips);
	for (s = 0; s < stages; s++) {
		u32 *cnt = load ? load + (size_t)s * ports : count;
		u64 bit = (u64)s * geo->nodes_per_stage;
		s32 flip = s + 1 < stages ? flips[s] : BFLY_WIRING_IDENTITY;
		u32 top = 0;

		memset(cnt, 0, ports * sizeof(*cnt));
		for (i = 0; i < ports; i++) {
			u32 p = pos[i];

			if (active && !test_bit(i, active))
				continue;
			if (labels)
				p = (p & ~1U) |
				    ((labels[i] >> (stages - 1 - s)) & 1);
			else
				p ^= test_bit(bit + (p >> 1), matrix);
			if (++cnt[p] > top)
				top = cnt[p];
			pos[i] = bfly_wiring_apply(flip, p);
		}
		if (stage_max)
			stage_max[s] = top;
		if (top > best)
			best = top;
		if (bfly_should_stop())
			return -EINTR;
	}
	if (mll)
		*mll = best;
	return 0;
}

/**
 * bfly_linkload_labels() - link loads of packets following their labels
 * @geo: the fabric geometry
 * @labels: @geo->ports labels of @geo->node_stages bits, as for
 *	bfly_selfroute_labels()
 * @active: bitmap of the inputs that send a packet, or NULL for all
 * @load: if not NULL, receives @geo->node_stages * @geo->ports loads,
 *	@load[s * N + p] for link (s, p) (see the top of linkload.c)
 * @stage_max: if not NULL, receives the largest load per node stage
 * @mll: if not NULL, receives the maximum link load
 * @work: bfly_linkload_workspace_size() bytes
 *
 * Return: 0; -EINVAL for a label wider than @geo->node_stages bits; -EINTR
 * when bfly_should_stop() said to stop.
 */
int bfly_linkload_labels(const struct bfly_geometry *geo, const u64 *labels,
			 const unsigned long *active, u32 *load,
			 u32 *stage_max, u32 *mll, void *work)
{
	if (geo->port_map)
		return bfly_kfly_link_load(&geo->fly, labels, NULL, active, load,
					   stage_max, mll, work);
	return linkload(geo, labels, NULL, active, load, stage_max, mll, work);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_linkload_labels);

/**
 * bfly_linkload_matrix() - link loads of packets following a switch matrix
 * @geo: the fabric geometry
 * @matrix: the switch matrix (@geo->switches bits)
 * @active: bitmap of the inputs that send a packet, or NULL for all
 * @load: if not NULL, receives @geo->node_stages * @geo->ports loads
 * @stage_max: if not NULL, receives the largest load per node stage
 * @mll: if not NULL, receives the maximum link load (at most 1)
 * @work: bfly_linkload_workspace_size() bytes
 *
 * Return: 0, or -EINTR when bfly_should_stop() said to stop.
 */
int bfly_linkload_matrix(const struct bfly_geometry *geo,
			 const unsigned long *matrix,
			 const unsigned long *active, u32 *load,
			 u32 *stage_max, u32 *mll, void *work)
{
	if (geo->port_map)
		return bfly_kfly_link_load(&geo->fly, NULL, (const u8 *)matrix, active,
					   load, stage_max, mll, work);
	return linkload(geo, NULL, matrix, active, load, stage_max, mll, work);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_linkload_matrix);
