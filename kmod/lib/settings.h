/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Switch settings in their two layouts: a bit matrix of 2 x 2 nodes and
 * port maps (a byte per input port of every node). See settings.c.
 */
#ifndef _BFLY_SETTINGS_H
#define _BFLY_SETTINGS_H

#include "compat.h"
#include "geometry.h"

/* Bytes of the settings in the layout @port_map names. */
static inline size_t bfly_settings_bytes(const struct bfly_geometry *geo, bool port_map)
{
	return port_map ? bfly_port_map_bytes(geo) : bfly_bit_matrix_bytes(geo);
}

/**
 * struct bfly_settings_bad - where refused settings are at fault
 * @set: an entry is named (an LCAN's settings only)
 * @byte: the setting's byte at fault (bfly_lcan_entry())
 */
struct bfly_settings_bad {
	bool set;
	u64 byte;
};

void bfly_settings_straight(const struct bfly_geometry *geo, void *settings);
int bfly_settings_check(const struct bfly_geometry *geo, const void *settings,
			const char **why);
int bfly_settings_check_at(const struct bfly_geometry *geo, const void *settings,
			   struct bfly_settings_bad *bad, const char **why);
int bfly_settings_layout_ok(const struct bfly_geometry *geo, bool port_map,
			    const char **why);
int bfly_settings_export(const struct bfly_geometry *geo, const void *held,
			 bool port_map, void *out, const char **why);
int bfly_settings_import(const struct bfly_geometry *geo, const void *in,
			 bool port_map, void *held, const char **why);

#endif /* _BFLY_SETTINGS_H */
