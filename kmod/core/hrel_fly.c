// SPDX-License-Identifier: GPL-2.0
/*
 * The colours of an h-relation on the k-ary n-fly and on the flattened
 * butterfly; hrel.c numbers their rounds and moves the payload.
 *
 * k-ary n-fly: a colour's packets self-route by destination digits, one
 * path each; where two share a link the colour is split into conflict-
 * free sub-rounds, greedy first fit (lib/kfly_split.c), each sub-round
 * one injection: n + R - 1 cycles for R sub-rounds in all.
 *
 * Flattened butterfly: a colour is one round on the routers, each packet
 * on its minimal dimension-order route, store and forward, a channel one
 * packet a cycle (lib/flatfly.c, as an all-to-all batch routes a round of
 * a schedule other than RLS on radix 2). The routers queue what meets on
 * a channel, so a colour is never split: contention costs cycles, which
 * add up round by round. The all-to-all exchange runs the RLS rounds as a
 * batch runs them: on radix 2 by bfly2's RLS labels as the RLS paper maps
 * them, otherwise by minimal routes.
 */
#include <linux/mm.h>

#include "lib/kfly.h"
#include "lib/schedule.h"
#include "hrel_fly.h"

static_assert(BFLY_FLATFLY_IDLE == BFLY_HREL_IDLE);

/**
 * bfly_hrel_fly_takes() - does this file run a family's colours?
 * @geo: the fabric's geometry
 *
 * Return: true for the k-ary n-fly and the flattened butterfly.
 */
bool bfly_hrel_fly_takes(const struct bfly_geometry *geo)
{
	return geo->port_map && !geo->lcan;
}

/**
 * bfly_hrel_fly_alloc() - set up and size the buffers
 * @x: receives the state; bfly_hrel_fly_free() frees it
 * @geo: a k-ary n-fly or flattened butterfly geometry
 * @mem: where the buffers are charged
 *
 * Return: 0, or the memory error.
 */
int bfly_hrel_fly_alloc(struct bfly_hrel_fly *x, const struct bfly_geometry *geo,
			struct bfly_mem *mem)
{
	const char *why;
	size_t work;

	x->geo = geo;
	x->routers = bfly_topology_find(geo->topology)->routers;
	x->cycles = 0;
	if (x->routers) {
		/* the fabric's own shape: this cannot fail */
		bfly_flatfly_init(&x->flat, geo->radix, geo->ports, &why);
		work = bfly_flatfly_rls_workspace_size(&x->flat);
		x->labels = bfly_mem_alloc_array(mem, geo->ports, sizeof(u64), false);
	} else {
		work = bfly_kfly_split_workspace_size(&geo->fly);
	}
	x->work = bfly_mem_alloc(mem, work, false);
	return mem->err;
}

/**
 * bfly_hrel_fly_exchange() - does the all-to-all exchange run as a batch?
 * @geo: a k-ary n-fly or flattened butterfly geometry
 *
 * Return: true on a flattened butterfly of N = 2^n terminals, where an
 * all-to-all batch runs the RLS rounds; the k-ary n-fly runs no batch.
 */
bool bfly_hrel_fly_exchange(const struct bfly_geometry *geo)
{
	return bfly_topology_find(geo->topology)->routers && geo->ports_log2;
}

/* A colour on the routers: one round; an exchange round as a batch runs it. */
static int bfly_hrel_fly_routers(struct bfly_hrel_fly *x, const u32 *part, bool exchange,
				 u32 round)
{
	struct bfly_flatfly_round_stats st;
	int err;

	if (exchange && x->flat.fly.k == 2)
		err = bfly_flatfly_rls_run(&x->flat, round, part, x->labels, false, &st, x->work);
	else
		err = bfly_flatfly_round(&x->flat, part, NULL, &st, x->work);
	if (err)
		return err;
	x->cycles += st.cycles;
	return 1;
}

/**
 * bfly_hrel_fly_colour() - route one colour
 * @x: the state
 * @part: N entries, the output of each input or %BFLY_HREL_IDLE
 * @exchange: @part is round @round of the RLS schedule
 *	(bfly_hrel_fly_exchange())
 * @round: with @exchange, the round
 * @sub: receives each sending input's sub-round
 *
 * Return: the rounds the colour takes, 1 on the routers; -EINVAL for a
 * bad @part; -EINTR.
 */
int bfly_hrel_fly_colour(struct bfly_hrel_fly *x, const u32 *part, bool exchange, u32 round,
			 u32 *sub)
{
	u32 i;

	if (!x->routers)
		return bfly_kfly_split(&x->geo->fly, part, sub, x->work);
	for (i = 0; i < x->geo->ports; i++)
		sub[i] = 0;
	return bfly_hrel_fly_routers(x, part, exchange, round);
}

/**
 * bfly_hrel_fly_cycles() - the cycles of the rounds routed
 * @x: the state
 * @rounds: the rounds (sub-rounds) in all
 *
 * Return: on the routers the rounds' cycles added up; on the k-ary n-fly
 * n + @rounds - 1, one injection a cycle, pipelined.
 */
u64 bfly_hrel_fly_cycles(const struct bfly_hrel_fly *x, u32 rounds)
{
	return x->routers ? x->cycles : bfly_sched_cycles(x->geo, rounds);
}

/**
 * bfly_hrel_fly_free() - free the buffers
 * @x: set up by bfly_hrel_fly_alloc(), or zeroed
 */
void bfly_hrel_fly_free(struct bfly_hrel_fly *x)
{
	kvfree(x->labels);
	kvfree(x->work);
	x->labels = NULL;
	x->work = NULL;
}
