// SPDX-License-Identifier: GPL-2.0
/*
 * The library's model of a fabric for end-to-end tests: wiring from
 * lib/wiring.c, plain traces from lib/trace.c and the walk of packets
 * through faults from lib/fault.c; the k-ary n-fly from lib/kfly.c.
 */
#include <stdlib.h>

#include "compat.h"
#include "fault.h"
#include "kfly.h"
#include "lcan.h"
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

static struct bfly_kfly kfly;
static void *kfly_work;
static unsigned long *kfly_seen;

/**
 * model_kfly_init() - model the k-ary n-fly of radix @k with @ports ports
 * @k: the radix
 * @ports: N, a power of @k
 *
 * Return: 0, or -1 for a shape the library refuses or without memory.
 */
int model_kfly_init(__u32 k, __u32 ports)
{
	const char *why;

	if (bfly_kfly_init(&kfly, k, ports, &why))
		return -1;
	free(kfly_work);
	free(kfly_seen);
	kfly_work = malloc(bfly_kfly_route_workspace_size(&kfly));
	kfly_seen = calloc(BITS_TO_LONGS(ports), sizeof(long));
	return kfly_work && kfly_seen ? 0 : -1;
}

/* The link address @addr leaving node stage @edge reaches in the next. */
__u32 model_kfly_link(__u32 edge, __u32 addr)
{
	return bfly_kfly_link(&kfly, edge, addr);
}

/* Where every input's packet arrives under the port maps @set. */
void model_kfly_trace(const __u8 *set, __u32 *out)
{
	bfly_kfly_trace(&kfly, set, out);
}

/*
 * Destination-digit routing of @perm: the port maps into @set, the first
 * @max conflicts into @list (pad zero), their number and first stage.
 * Returns 0 or -1.
 */
int model_kfly_route(const __u32 *perm, __u8 *set, struct bfly_port_conflict *list,
		     __u32 max, __u32 *count, __u32 *first_stage)
{
	struct bfly_kfly_conflicts c = {
		.list = calloc(max ? max : 1, sizeof(*c.list)),
		.capacity = max,
	};
	__u32 i;
	int ret;

	if (!c.list)
		return -1;
	ret = bfly_kfly_route_dest(&kfly, perm, set, NULL, &c, kfly_work);
	for (i = 0; !ret && i < max && i < c.count; i++)
		list[i] = (struct bfly_port_conflict) {
			.stage = c.list[i].stage,
			.node = c.list[i].node,
			.input = { c.list[i].input[0], c.list[i].input[1] },
			.port = c.list[i].port,
		};
	*count = c.count;
	*first_stage = c.first_stage;
	free(c.list);
	return ret ? -1 : 0;
}

/* The conflict-window test: @perm's first conflicting node stage. */
__u32 model_kfly_window_first_conflict(const __u32 *perm)
{
	return bfly_kfly_window_first_conflict(&kfly, perm, kfly_seen);
}

/* The maximum link load of @perm routed by its destinations. */
__u32 model_kfly_perm_mll(const __u32 *perm)
{
	__u32 *count = malloc(kfly.ports * sizeof(*count)), mll;

	if (!count)
		return 0;
	mll = bfly_kfly_perm_mll(&kfly, perm, count);
	free(count);
	return mll;
}

/* The LCAN of @info, or -1 when it is none. */
static int model_lcan_shape(const struct bfly_info *info, struct bfly_lcan *g)
{
	static const u32 kinds[] = {
		[BFLY_TOPO_CB_LCAN] = BFLY_LCAN_CB,
		[BFLY_TOPO_T_LCAN] = BFLY_LCAN_TREE,
		[BFLY_TOPO_FATTREE] = BFLY_LCAN_FATTREE,
	};
	const char *why;

	if (info->topology < BFLY_TOPO_CB_LCAN || info->topology > BFLY_TOPO_FATTREE)
		return -1;
	return bfly_lcan_init(g, kinds[info->topology], info->radix, info->uppers,
			      info->ports, &why);
}

int model_lcan_msgset(const struct bfly_info *info, struct model_msgset *ms)
{
	struct bfly_lcan g;
	struct bfly_lcan_msgset m = {
		.src = ms->src, .dst = ms->dst, .count = ms->count, .mode = ms->mode,
		.strategy = ms->strategy, .max_cycles = ms->max_cycles, .seed = ms->seed,
		.cycle = ms->cycle, .choices = ms->paths, .load = ms->load, .given = ms->given,
	};
	const char *why;
	void *work;
	u32 bad;
	int err;

	if (model_lcan_shape(info, &g))
		return -1;
	if (bfly_lcan_msgset_check(&g, &m, &bad, &why))
		return -1;
	work = malloc(bfly_lcan_msgset_workspace_size(&g, ms->count));
	if (!work)
		return -1;
	err = bfly_lcan_msgset_route(&g, &m, work);
	free(work);
	ms->levels = g.levels;
	ms->channels = bfly_lcan_channels(&g, ms->mode);
	ms->cycles = m.cycles;
	ms->routed = m.routed;
	ms->lambda_load = m.lambda_load;
	ms->lambda_cap = m.lambda_cap;
	ms->bound = m.bound;
	return err;
}
