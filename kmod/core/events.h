/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way events leave the core: a frontend registers a set of
 * callbacks, and the core calls them when fabrics, matrices and faults
 * change, when a route meets conflicts and when a batch ends.
 */
#ifndef _BFLY_EVENTS_H
#define _BFLY_EVENTS_H

#include <linux/types.h>

struct bfly_fabric;

/**
 * struct bfly_event_ops - what a frontend does with the core's events
 * @fabric: a fabric was created (@created) or deleted
 * @matrix: a fabric's switch matrix changed; its lock is held for writing
 * @faults: a fabric's faults changed; its lock is held for writing
 * @conflicts: a route on a fabric met @count internal conflicts, the first
 *	in node stage @first_stage
 * @batch_done: a batch ended after @rounds rounds and @cycles cycles,
 *	following the Latin square @latin and meeting @conflicts conflicts
 *
 * Callbacks run in process context and must not sleep for long; they may
 * be called with the fabric's lock held.
 */
struct bfly_event_ops {
	void (*fabric)(struct bfly_fabric *fab, bool created);
	void (*matrix)(struct bfly_fabric *fab);
	void (*faults)(struct bfly_fabric *fab);
	void (*conflicts)(struct bfly_fabric *fab, u32 count, u32 first_stage);
	void (*batch_done)(struct bfly_fabric *fab, u32 latin, u32 rounds,
			   u64 cycles, u32 conflicts);
};

void bfly_events_register(const struct bfly_event_ops *ops);
void bfly_events_unregister(void);

void bfly_event_fabric(struct bfly_fabric *fab, bool created);
void bfly_event_matrix(struct bfly_fabric *fab);
void bfly_event_faults(struct bfly_fabric *fab);
void bfly_event_conflicts(struct bfly_fabric *fab, u32 count, u32 first_stage);
void bfly_event_batch_done(struct bfly_fabric *fab, u32 latin, u32 rounds,
			   u64 cycles, u32 conflicts);

#endif /* _BFLY_EVENTS_H */
