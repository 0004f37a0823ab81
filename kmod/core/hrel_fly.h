/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The colours of an h-relation on the k-ary n-fly (port-map switches) and
 * on the flattened butterfly (routers). See hrel_fly.c.
 */
#ifndef _BFLY_CORE_HREL_FLY_H
#define _BFLY_CORE_HREL_FLY_H

#include <linux/types.h>

#include "lib/flatfly.h"
#include "lib/geometry.h"
#include "core.h"

/**
 * struct bfly_hrel_fly - what routing a colour on these fabrics keeps
 * @geo: the fabric's geometry
 * @routers: a flattened butterfly: a colour is one round on its routers
 * @flat: the routers' shape, with @routers
 * @labels: the RLS labels of an exchange round (2-ary n-flat)
 * @work: the algorithms' workspace
 * @cycles: the routers' cycles of the rounds so far
 */
struct bfly_hrel_fly {
	const struct bfly_geometry *geo;
	bool routers;
	struct bfly_flatfly flat;
	u64 *labels;
	void *work;
	u64 cycles;
};

bool bfly_hrel_fly_takes(const struct bfly_geometry *geo);
int bfly_hrel_fly_alloc(struct bfly_hrel_fly *x, const struct bfly_geometry *geo,
			struct bfly_mem *mem);
int bfly_hrel_fly_colour(struct bfly_hrel_fly *x, const u32 *part, bool exchange, u32 round,
			 u32 *sub);
bool bfly_hrel_fly_exchange(const struct bfly_geometry *geo);
u64 bfly_hrel_fly_cycles(const struct bfly_hrel_fly *x, u32 rounds);
void bfly_hrel_fly_free(struct bfly_hrel_fly *x);

#endif /* _BFLY_CORE_HREL_FLY_H */
