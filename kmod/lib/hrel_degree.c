// SPDX-License-Identifier: GPL-2.0
/*
 * The h of an h-relation: the most messages a port sends or receives,
 * counted per port on either side. bfly_hrel_colour() counts with it too:
 * its workspace starts with the same two counter arrays.
 */
#include "compat.h"
#include "hrel.h"

/* One side's counters, 64-byte aligned */
static size_t hrel_degree_align(u32 ports)
{
	return ((size_t)ports * sizeof(u32) + 63) & ~(size_t)63;
}

/**
 * bfly_hrel_degree_workspace_size() - memory bfly_hrel_degree() needs
 * @ports: ports on either side
 *
 * Return: the workspace size in bytes: two counters per port.
 */
size_t bfly_hrel_degree_workspace_size(u32 ports)
{
	return hrel_degree_align(ports) * 2;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_degree_workspace_size);

/**
 * bfly_hrel_degree() - the h of an h-relation
 * @ports: ports on either side; sources and destinations are below it
 * @count: messages
 * @src: each message's source
 * @dst: each message's destination
 * @h: receives the most messages a port sends or receives (0 for none)
 * @bad: receives the first message with an endpoint out of range
 * @work: bfly_hrel_degree_workspace_size() bytes
 *
 * Return: 0; -EINVAL when an endpoint is @ports or more (*@bad says which
 * message).
 */
int bfly_hrel_degree(u32 ports, u32 count, const u32 *src, const u32 *dst,
		     u32 *h, u32 *bad, void *work)
{
	u32 *gs = work;
	u32 *gd = (u32 *)((u8 *)work + hrel_degree_align(ports));
	u32 i, deg = 0;

	memset(gs, 0, (size_t)ports * sizeof(u32));
	memset(gd, 0, (size_t)ports * sizeof(u32));
	for (i = 0; i < count; i++) {
		u32 s = src[i], d = dst[i];

		if (s >= ports || d >= ports) {
			*bad = i;
			return -EINVAL;
		}
		deg = max_t(u32, deg, ++gs[s]);
		deg = max_t(u32, deg, ++gd[d]);
	}
	*h = deg;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_hrel_degree);
