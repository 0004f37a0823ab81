/* SPDX-License-Identifier: GPL-2.0 */
/*
 * All-to-all schedules as Latin squares: per-round destinations and labels,
 * fast conflict checks, sub-round splitting and pipelined cycle counts.
 * See schedule.c.
 */
#ifndef _BFLY_SCHEDULE_H
#define _BFLY_SCHEDULE_H

#include "compat.h"
#include "geometry.h"

/**
 * enum bfly_latin - the Latin square an all-to-all exchange follows
 * @BFLY_LATIN_RLS: round k sends i to (i - k) mod N (RLS paper's RLS)
 * @BFLY_LATIN_LLS: round k sends i to (i + k) mod N (the paper's LLS)
 * @BFLY_LATIN_XOR: round k sends i to i XOR k
 * @BFLY_LATIN_SQUARE: a caller-supplied square: round k sends i to
 *	square[i * N + k]
 * @BFLY_LATIN_SYSTOLIC: round k sends i to i XOR k, and XOR N - 2 when i
 *	is odd: the radix-2 case of the flattened butterfly's systolic
 *	schedule (flatfly_exchange.c)
 */
enum bfly_latin {
	BFLY_LATIN_RLS = BFLY_SCHED_RLS,
	BFLY_LATIN_LLS = BFLY_SCHED_LLS,
	BFLY_LATIN_XOR = BFLY_SCHED_XOR,
	BFLY_LATIN_SQUARE = BFLY_SCHED_SQUARE,
	BFLY_LATIN_SYSTOLIC = BFLY_SCHED_SYSTOLIC,
};

/**
 * struct bfly_sched - a validated schedule on one fabric
 * @geo: the fabric geometry
 * @latin: one of &enum bfly_latin
 * @square: %BFLY_LATIN_SQUARE only: N * N entries, row i for source i;
 *	not copied, so it must live as long as the schedule
 */
struct bfly_sched {
	struct bfly_geometry geo;
	enum bfly_latin latin;
	const u32 *square;
};

/* &bfly_sched_split() value for an input that is not active */
#define BFLY_SCHED_NO_SUBROUND U32_MAX

enum bfly_latin bfly_sched_default(const struct bfly_geometry *geo);
size_t bfly_latin_check_workspace_size(u32 ports);
int bfly_latin_check(u32 ports, const u32 *square, void *work);
int bfly_sched_init(struct bfly_sched *sched,
		    const struct bfly_geometry *geo, enum bfly_latin latin,
		    const u32 *square, void *work);
bool bfly_sched_has_labels(const struct bfly_geometry *geo);
bool bfly_sched_proven(const struct bfly_sched *sched);
int bfly_sched_round(const struct bfly_sched *sched, u32 k, u32 *dest,
		     u64 *labels);
size_t bfly_sched_check_workspace_size(const struct bfly_geometry *geo);
int bfly_sched_check(const struct bfly_geometry *geo, const u64 *labels,
		     const unsigned long *active, u32 *first_stage,
		     void *work);
size_t bfly_sched_split_workspace_size(const struct bfly_geometry *geo);
int bfly_sched_split(const struct bfly_geometry *geo, const u64 *labels,
		     const unsigned long *active, u32 *subround, void *work);
void bfly_sched_subround_active(u32 ports, const u32 *subround, u32 r,
				unsigned long *active);
u64 bfly_sched_cycles(const struct bfly_geometry *geo, u64 injections);

#endif /* _BFLY_SCHEDULE_H */
