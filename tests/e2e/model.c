// SPDX-License-Identifier: GPL-2.0
/*
 * The library's model of a fabric for end-to-end tests: wiring from
 * lib/wiring.c, plain traces from lib/trace.c and the walk of packets
 * through faults from lib/fault.c.
 */
#include <stdlib.h>

#include "compat.h"
#include "fault.h"
#include "trace.h"
#include "wiring.h"

#include "model.h"

static struct bfly_geometry geo;
static void *work;

/**
 * model_init() - model the fabric @info describes
 * @info: from BFLY_IOC_GET_INFO
 *
 * Return: 0, or -1 without memory.
 */
int model_init(const struct bfly_info *info)
{
	geo = (struct bfly_geometry) {
		.topology = info->topology,
		.ports_log2 = info->ports_log2,
		.ports = info->ports,
		.node_stages = info->node_stages,
		.nodes_per_stage = info->nodes_per_stage,
		.switches = info->switches,
	};
	free(work);
	work = malloc(bfly_fault_walk_workspace_size(&geo));
	return work ? 0 : -1;
}

/* The link position @pos leaving node stage @edge reaches in the next. */
__u32 model_wire(__u32 edge, __u32 pos)
{
	return bfly_wiring_link(&geo, edge, pos);
}

/*
 * Follow every packet by its label (@labels) or by @matrix. Without
 * faults: the plain trace into @out. With them: @real, where packets
 * really go (BFLY_TRACE_LOST for lost ones); otherwise the path as routed
 * with the packets a fault hits flagged in @hit. Returns the packets hit.
 */
unsigned int model_walk(const __u64 *matrix, const __u64 *labels, int real,
			const struct model_fault *faults, unsigned int nfaults,
			__u32 *out, unsigned char *hit)
{
	struct bfly_fault_walk walk = {
		.mode = real ? BFLY_WALK_REAL : BFLY_WALK_ROUTE,
		.labels = labels,
		.matrix = (const unsigned long *)matrix,
	};
	struct bfly_faults f = { .count = nfaults };
	unsigned long *bits;
	unsigned int i;
	int n;

	if (!faults && !labels) {
		bfly_trace(&geo, (const unsigned long *)matrix, out);
		return 0;
	}
	if (faults)
		memcpy(f.list, faults, nfaults * sizeof(*faults));
	else
		f.count = 0;
	bits = calloc(BITS_TO_LONGS(geo.ports), sizeof(long));
	n = bfly_fault_walk(&geo, &f, &walk, bits, out, work);
	for (i = 0; hit && i < geo.ports; i++)
		hit[i] = test_bit(i, bits);
	free(bits);
	return n < 0 ? 0 : n;
}
