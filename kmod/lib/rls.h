/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RLS all-to-all labels (RLS paper, Algorithm 1), generated from (N, i, k)
 * alone. See rls.c.
 */
#ifndef _BFLY_RLS_H
#define _BFLY_RLS_H

#include "compat.h"

/**
 * bfly_rls_pihat() - the permutation pi-hat of the RLS paper, Section IV-A
 * @n: log2 of the port count N, 1 .. %BFLY_MAX_PORTS_LOG2
 * @x: an input, 0 .. N - 1
 *
 * pi-hat keeps @x where its lowest and highest bits are equal and
 * complements all n bits of @x where they differ (see rls.c).
 *
 * Return: pi-hat(@x).
 */
static inline u32 bfly_rls_pihat(u32 n, u32 x)
{
	u32 mask = (1U << n) - 1;

	return x ^ (mask & -((x ^ (x >> (n - 1))) & 1));
}

u32 bfly_rls_intermediate(u32 ports, u32 i, u32 k);
u64 bfly_rls_label(u32 ports, u32 i, u32 k);
int bfly_rls_labels_proc(u32 ports, u32 i, u32 k_first, u32 count,
			 u64 *labels);
int bfly_rls_labels_round(u32 ports, u32 k, u64 *labels);

#endif /* _BFLY_RLS_H */
