/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The k-ary n-flat (flattened butterfly): the k-ary n-fly with each row of
 * switches combined into one router. Its channels, the RLS rounds mapped
 * onto it, and a search for routings that load no channel twice (see
 * flatfly.c); the whole exchange's lower bound and the systolic schedule
 * (see flatfly_exchange.c).
 */
#ifndef _BFLY_FLATFLY_H
#define _BFLY_FLATFLY_H

#include "compat.h"
#include "kfly.h"

/*
 * bfly_flatfly_disjoint() recurses once per channel taken and twice per
 * packet: channels + 2 N may not pass this, so that a kernel stack holds it
 */
#define BFLY_FLATFLY_SEARCH_DEPTH 128

/* A terminal that sends nothing in a round (bfly_flatfly_round()) */
#define BFLY_FLATFLY_IDLE 0xffffffffU

/**
 * struct bfly_flatfly - the shape of a k-ary n-flat
 * @fly: the k-ary n-fly it flattens (n >= 2)
 * @routers: N / k routers, one per row; terminal t sits on router t / k
 * @dims: n - 1 digits of a router label; router r has a channel to each of
 *	the k - 1 routers that differ from it in one digit, for every digit
 * @channels: directed channels between routers, routers * dims * (k - 1)
 */
struct bfly_flatfly {
	struct bfly_kfly fly;
	u32 routers;
	u32 dims;
	u32 channels;
};

/* Digit @b (0: the lowest) of router label @r. */
static inline u32 bfly_flatfly_digit(const struct bfly_flatfly *f, u32 r, u32 b)
{
	if (f->fly.log2k)
		return (r >> (f->fly.log2k * b)) & (f->fly.k - 1);
	return r / f->fly.pow[b] % f->fly.k;
}

/* The router terminal @t sits on. */
static inline u32 bfly_flatfly_router(const struct bfly_flatfly *f, u32 t)
{
	return f->fly.log2k ? t >> f->fly.log2k : t / f->fly.k;
}

/*
 * The directed channel from router @r across digit @b to the router whose
 * digit @b is @to (@r's own is @own): slot @to, less one above @own.
 */
static inline u32 bfly_flatfly_channel_index(const struct bfly_flatfly *f, u32 r, u32 b,
					     u32 own, u32 to)
{
	return (r * f->dims + b) * (f->fly.k - 1) + to - (to > own);
}

int bfly_flatfly_init(struct bfly_flatfly *f, u32 k, u32 ports, const char **why);
u32 bfly_flatfly_channel(const struct bfly_flatfly *f, u32 from, u32 to);
u32 bfly_flatfly_distance(const struct bfly_flatfly *f, u32 a, u32 b);
u32 bfly_flatfly_dor_path(const struct bfly_flatfly *f, u32 a, u32 b, u32 *path);
/**
 * struct bfly_flatfly_round_stats - one round of an exchange, as it runs
 * @max_load: the most packets one directed channel between routers carries
 * @excess: the packets past one per channel, over every channel
 * @hops: the channel hops of the round's packets in all
 * @cycles: the cycles the round takes, injection and ejection included
 *	(bfly_flatfly_round()); 0 when every message stays with its sender
 */
struct bfly_flatfly_round_stats {
	u32 max_load;
	u32 excess;
	u32 hops;
	u32 cycles;
};

size_t bfly_flatfly_round_workspace_size(const struct bfly_flatfly *f);
int bfly_flatfly_round(const struct bfly_flatfly *f, const u32 *dest, const u64 *labels,
		       struct bfly_flatfly_round_stats *st, void *work);
size_t bfly_flatfly_rls_workspace_size(const struct bfly_flatfly *f);
int bfly_flatfly_rls_run(const struct bfly_flatfly *f, u32 k, const u32 *dest, u64 *labels,
			 bool minimal, struct bfly_flatfly_round_stats *st, void *work);
u64 bfly_flatfly_exchange_bound(const struct bfly_flatfly *f);
u32 bfly_flatfly_systolic_dest(const struct bfly_flatfly *f, u32 i, u32 s);
size_t bfly_flatfly_systolic_workspace_size(const struct bfly_flatfly *f);
int bfly_flatfly_systolic_round(const struct bfly_flatfly *f, u32 s, u32 *dest,
				struct bfly_flatfly_round_stats *st, void *work);
u64 bfly_flatfly_systolic_cycles(const struct bfly_flatfly *f, u32 rounds);
int bfly_flatfly_rls_round(const struct bfly_flatfly *f, u32 k, u64 *labels, u32 *load,
			   u32 *hops, u32 *delivered);
int bfly_flatfly_disjoint(const struct bfly_flatfly *f, const u32 *perm, u32 max_steps,
			  u8 *used, u32 *steps);

#endif /* _BFLY_FLATFLY_H */
