// SPDX-License-Identifier: GPL-2.0
/*
 * Events: the core announces changes through the callbacks one frontend
 * registers (the netlink family's multicast group). Without a registered
 * frontend the events go nowhere.
 */
#include <linux/compiler.h>

#include "events.h"

static const struct bfly_event_ops *bfly_event_ops;

/**
 * bfly_events_register() - send the core's events to @ops
 * @ops: the callbacks; they stay in use until bfly_events_unregister()
 */
void bfly_events_register(const struct bfly_event_ops *ops)
{
	WRITE_ONCE(bfly_event_ops, ops);
}

/**
 * bfly_events_unregister() - stop sending events
 *
 * A callback that started before may still be running; the frontend waits
 * for it as it waits for its own requests.
 */
void bfly_events_unregister(void)
{
	WRITE_ONCE(bfly_event_ops, NULL);
}

void bfly_event_fabric(struct bfly_fabric *fab, bool created)
{
	const struct bfly_event_ops *ops = READ_ONCE(bfly_event_ops);

	if (ops)
		ops->fabric(fab, created);
}

void bfly_event_matrix(struct bfly_fabric *fab)
{
	const struct bfly_event_ops *ops = READ_ONCE(bfly_event_ops);

	if (ops)
		ops->matrix(fab);
}

void bfly_event_faults(struct bfly_fabric *fab)
{
	const struct bfly_event_ops *ops = READ_ONCE(bfly_event_ops);

	if (ops)
		ops->faults(fab);
}

void bfly_event_conflicts(struct bfly_fabric *fab, u32 count, u32 first_stage)
{
	const struct bfly_event_ops *ops = READ_ONCE(bfly_event_ops);

	if (ops)
		ops->conflicts(fab, count, first_stage);
}

void bfly_event_batch_done(struct bfly_fabric *fab, u32 latin, u32 rounds,
			   u64 cycles, u32 conflicts)
{
	const struct bfly_event_ops *ops = READ_ONCE(bfly_event_ops);

	if (ops)
		ops->batch_done(fab, latin, rounds, cycles, conflicts);
}
