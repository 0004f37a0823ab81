/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The textbook baseline for Benes routing: plain recursive looping. See
 * textbook-benes.c.
 */
#ifndef BFLY_TEXTBOOK_BENES_H
#define BFLY_TEXTBOOK_BENES_H

#include "compat.h"
#include "geometry.h"

struct textbook_benes;

struct textbook_benes *textbook_benes_alloc(u32 ports_log2);
void textbook_benes_free(struct textbook_benes *tb);
void textbook_benes_route(struct textbook_benes *tb,
			  const struct bfly_geometry *geo, const u32 *perm,
			  unsigned long *matrix);

#endif /* BFLY_TEXTBOOK_BENES_H */
