/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The colouring's arrays of 1-, 2- or 4-byte entries (hrel.c,
 * hrel_unwind.c): the narrowest width that holds the values.
 */
#ifndef _BFLY_HREL_ENTRY_H
#define _BFLY_HREL_ENTRY_H

#include "compat.h"

/* Entry @k of an array of @w-byte entries. */
static __always_inline u32 hrel_get(const void *a, size_t k, unsigned int w)
{
	if (w == 1)
		return ((const u8 *)a)[k];
	if (w == 2)
		return ((const u16 *)a)[k];
	return ((const u32 *)a)[k];
}

/* Sets entry @k of an array of @w-byte entries to @v. */
static __always_inline void hrel_put(void *a, size_t k, u32 v, unsigned int w)
{
	if (w == 1)
		((u8 *)a)[k] = v;
	else if (w == 2)
		((u16 *)a)[k] = v;
	else
		((u32 *)a)[k] = v;
}

#endif /* _BFLY_HREL_ENTRY_H */
