/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The base tree's functions bench-compare.c times, as compare.sh renames
 * them (prefix base_); their signatures are the same as this tree's.
 */
#ifndef BFLY_BENCH_BASE_H
#define BFLY_BENCH_BASE_H

size_t base_bfly_benes_workspace_size(const struct bfly_geometry *geo);
int base_bfly_benes_route(const struct bfly_geometry *geo, const u32 *perm,
			  unsigned long *matrix, void *work);
int base_bfly_sched_init(struct bfly_sched *sched, const struct bfly_geometry *geo,
			 enum bfly_latin latin, const u32 *square, void *work);
int base_bfly_sched_round(const struct bfly_sched *sched, u32 k, u32 *dest, u64 *labels);
int base_bfly_sched_check(const struct bfly_geometry *geo, const u64 *labels,
			  const unsigned long *active, u32 *first_stage, void *work);
size_t base_bfly_sched_check_workspace_size(const struct bfly_geometry *geo);
int base_bfly_msg_copy(const struct bfly_msg *msg, u64 len, const struct bfly_msg *ahead);

#endif /* BFLY_BENCH_BASE_H */
