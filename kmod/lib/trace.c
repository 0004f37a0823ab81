// SPDX-License-Identifier: GPL-2.0
/*
 * The permutation a switch matrix realizes, and a permutation check.
 */
#include "compat.h"
#include "kfly.h"
#include "lcan.h"
#include "trace.h"
#include "wiring.h"

/* An LCAN's processors, one by one (bfly_trace()). */
static int bfly_trace_lcan(const struct bfly_geometry *geo, const u8 *set, u32 *perm)
{
	struct bfly_lcan_trace_end end;
	struct bfly_lcan g;
	u32 i;

	if (!geo->port_map)
		return -EOPNOTSUPP;
	bfly_lcan_of(geo, &g);
	for (i = 0; i < geo->ports; i++) {
		bfly_lcan_trace(&g, set, i, &end);
		perm[i] = end.end == BFLY_LCAN_END_PE ? end.index :
			  end.end == BFLY_LCAN_END_TOP ? BFLY_TRACE_TOP | end.index :
			  BFLY_TRACE_LOST;
	}
	return 0;
}

/**
 * bfly_trace() - the permutation a switch matrix realizes
 * @geo: the fabric geometry
 * @matrix: the switch matrix, @geo->switches bits (see trace.h)
 * @perm: receives @geo->ports entries: @perm[input] = output
 *
 * Follows every input through the node stages, one stage at a time (the
 * stage's bits and @perm stay in cache), using @perm as the working array.
 *
 * Port maps (@geo->port_map) are followed by bfly_kfly_trace(): a packet
 * meeting a port set to nothing reads %BFLY_TRACE_LOST.
 *
 * An LCAN's processors are followed by bfly_lcan_trace(): @perm gives the
 * processor reached, %BFLY_TRACE_TOP or'ed with the output for a packet
 * leaving the top level, or %BFLY_TRACE_LOST.
 *
 * Return: 0, -EOPNOTSUPP on a fat tree or a multibutterfly (no
 * settings), or -EINTR when bfly_should_stop() asked to stop; @perm is
 * then meaningless.
 */
int bfly_trace(const struct bfly_geometry *geo, const unsigned long *matrix,
	       u32 *perm)
{
	s32 flips[2 * BFLY_MAX_PORTS_LOG2];
	u32 ports = geo->ports;
	u32 s, i;

	if (geo->mbfly)
		return -EOPNOTSUPP;
	if (geo->lcan)
		return bfly_trace_lcan(geo, (const u8 *)matrix, perm);
	if (geo->port_map) {
		bfly_kfly_trace(&geo->fly, (const u8 *)matrix, perm);
		return 0;
	}

	bfly_wiring_flips(geo, flips);
	for (i = 0; i < ports; i++)
		perm[i] = i;
	for (s = 0; s < geo->node_stages; s++) {
		u64 base = bfly_matrix_bit(geo, s, 0);
		s32 flip = s + 1 < geo->node_stages ? flips[s] :
			   BFLY_WIRING_IDENTITY;

		for (i = 0; i < ports; i++) {
			u32 pos = perm[i];

			pos ^= test_bit(base + (pos >> 1), matrix);
			perm[i] = bfly_wiring_apply(flip, pos);
		}
		if (bfly_should_stop())
			return -EINTR;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_trace);

/**
 * bfly_perm_check() - check that an array is a permutation of 0 .. N-1
 * @geo: the fabric geometry; N = @geo->ports
 * @perm: @geo->ports entries
 * @seen: scratch bitmap of @geo->ports bits
 *
 * Return: 0 for a permutation; -EINVAL for an entry of N or more or a
 * repeated entry.
 */
int bfly_perm_check(const struct bfly_geometry *geo, const u32 *perm,
		    unsigned long *seen)
{
	u32 i;

	bitmap_zero(seen, geo->ports);
	for (i = 0; i < geo->ports; i++) {
		if (perm[i] >= geo->ports || __test_and_set_bit(perm[i], seen))
			return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_perm_check);
