// SPDX-License-Identifier: GPL-2.0
/*
 * Switch settings in their two layouts (uapi BFLY_MATRIX_PORT_MAP).
 *
 * A fabric holds its settings in one layout (&bfly_geometry.port_map):
 * the 2 x 2 families a bit matrix, bit b = stage * nodes_per_stage + node,
 * 1 cross; the k x k families port maps, byte b * k + p the output port
 * of input port p of node b, or BFLY_KFLY_UNSET. Every fabric reads and
 * writes its settings in either layout where the other can say the same:
 * a 2 x 2 node is straight ({0, 1}) or cross ({1, 0}), so port maps of
 * radix 2 with every port set and bit matrices turn into each other.
 */
#include "compat.h"
#include "kfly.h"
#include "lcan.h"
#include "settings.h"

/**
 * bfly_settings_straight() - every node straight, in the held layout
 * @geo: the geometry
 * @settings: bfly_matrix_bytes() bytes; input port p of each node goes to
 *	output port p
 */
void bfly_settings_straight(const struct bfly_geometry *geo, void *settings)
{
	u8 *map = settings;
	size_t i;

	if (geo->lcan) {
		/* an LCAN starts with nothing connected */
		memset(settings, geo->port_map ? BFLY_KFLY_UNSET : 0, bfly_matrix_bytes(geo));
		return;
	}
	if (!geo->port_map) {
		memset(settings, 0, bfly_matrix_bytes(geo));
		return;
	}
	for (i = 0; i < bfly_port_map_bytes(geo); i++)
		map[i] = i % geo->radix;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_straight);

/* Whether a bit matrix has bits set past its last node (in its last word). */
static bool bfly_bits_past_end(u64 switches, const void *bits)
{
	const u64 *w = bits;

	return switches % 64 && (w[switches / 64] >> (switches % 64));
}

/* An LCAN's port maps, checked against its shape; @bad names the byte. */
static int bfly_settings_check_lcan(const struct bfly_geometry *geo, const void *settings,
				    struct bfly_settings_bad *bad, const char **why)
{
	struct bfly_lcan g;
	int err;

	bfly_lcan_of(geo, &g);
	err = bfly_lcan_settings_check(&g, settings, &bad->byte, why);
	bad->set = err;
	return err;
}

/**
 * bfly_settings_check_at() - are settings in the held layout valid, and
 *	where not
 * @geo: the geometry
 * @settings: bfly_matrix_bytes() bytes
 * @bad: receives the byte at fault of refused LCAN settings (@bad->set);
 *	@bad->set is false otherwise
 * @why: on error, a short reason
 *
 * Return: 0; -EINVAL for bits set past the last node of a bit matrix, a
 * port map that names a port of k or more or sends two input ports of a
 * node to one output, or an LCAN setting bfly_lcan_settings_check()
 * refuses.
 */
int bfly_settings_check_at(const struct bfly_geometry *geo, const void *settings,
			   struct bfly_settings_bad *bad, const char **why)
{
	u32 node;

	bad->set = false;
	if (geo->lcan && geo->port_map)
		return bfly_settings_check_lcan(geo, settings, bad, why);
	if (geo->port_map) {
		if (!bfly_kfly_settings_check(&geo->fly, settings, &node))
			return 0;
		*why = "port-map: a node's map names a port past the radix or one port twice";
		return -EINVAL;
	}
	if (bfly_bits_past_end(geo->switches, settings)) {
		*why = "matrix: bits set past the last switch";
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_check_at);

/**
 * bfly_settings_check() - are settings in the held layout valid
 * @geo: the geometry
 * @settings: bfly_matrix_bytes() bytes
 * @why: on error, a short reason
 *
 * Return: as bfly_settings_check_at().
 */
int bfly_settings_check(const struct bfly_geometry *geo, const void *settings,
			const char **why)
{
	struct bfly_settings_bad bad;

	return bfly_settings_check_at(geo, settings, &bad, why);
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_check);

/**
 * bfly_settings_layout_ok() - can a fabric's settings be read as a layout
 * @geo: the geometry
 * @port_map: port maps, else the bit matrix
 * @why: on error, a short reason
 *
 * Return: 0, or -EOPNOTSUPP for the bit matrix of nodes that are not 2 x 2.
 */
int bfly_settings_layout_ok(const struct bfly_geometry *geo, bool port_map,
			    const char **why)
{
	if (geo->mbfly) {
		*why = "id: a multibutterfly routes h-relations (hrel) only: no settings";
		return -EOPNOTSUPP;
	}
	if (geo->lcan && !geo->port_map) {
		*why = "id: a fat tree has no settings (switches past 255 connectors)";
		return -EOPNOTSUPP;
	}
	if (geo->lcan && !port_map) {
		*why = "matrix: an LCAN's settings are port maps, a byte per connector";
		return -EOPNOTSUPP;
	}
	if (port_map || geo->radix == 2)
		return 0;
	*why = "matrix: the switches are k x k with k > 2: their settings are port maps";
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_layout_ok);

/* 2 x 2 nodes from bits to port maps: straight {0, 1}, cross {1, 0}. */
static void bfly_bits_to_maps(u64 switches, const unsigned long *bits, u8 *map)
{
	u64 b;

	for (b = 0; b < switches; b++) {
		map[2 * b] = test_bit(b, bits);
		map[2 * b + 1] = !map[2 * b];
	}
}

/*
 * 2 x 2 nodes from port maps to bits: -EINVAL for a map neither straight
 * nor cross; a port set to nothing gives -EOPNOTSUPP with @unset_ok (the
 * maps are valid, the bit matrix cannot say them), else -EINVAL.
 */
static int bfly_maps_to_bits(u64 switches, const u8 *map, unsigned long *bits, bool unset_ok)
{
	u64 b;

	memset(bits, 0, BFLY_MATRIX_BYTES(switches));
	for (b = 0; b < switches; b++) {
		if (unset_ok && (map[2 * b] == BFLY_KFLY_UNSET ||
				 map[2 * b + 1] == BFLY_KFLY_UNSET))
			return -EOPNOTSUPP;
		if (map[2 * b] > 1 || map[2 * b + 1] != !map[2 * b])
			return -EINVAL;
		if (map[2 * b])
			__set_bit(b, bits);
	}
	return 0;
}

/**
 * bfly_settings_export() - settings in the layout a caller asks for
 * @geo: the geometry
 * @held: the settings as the fabric holds them, checked
 * @port_map: the layout wanted: port maps, else the bit matrix
 * @out: receives bfly_settings_bytes(@geo, @port_map) bytes
 * @why: on error, a short reason
 *
 * Return: 0; -EOPNOTSUPP for the bit matrix of k x k nodes with k > 2, or
 * of 2 x 2 nodes with a port set to nothing.
 */
int bfly_settings_export(const struct bfly_geometry *geo, const void *held,
			 bool port_map, void *out, const char **why)
{
	int err;

	err = bfly_settings_layout_ok(geo, port_map, why);
	if (err)
		return err;
	if (port_map == geo->port_map) {
		memcpy(out, held, bfly_settings_bytes(geo, port_map));
		return 0;
	}
	if (port_map) {
		bfly_bits_to_maps(geo->switches, held, out);
		return 0;
	}
	/* Held maps are checked: only a port set to nothing can fail. */
	err = bfly_maps_to_bits(geo->switches, held, out, true);
	if (err)
		*why = "matrix: a node has a port set to nothing: read its port maps";
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_export);

/**
 * bfly_settings_import() - settings in a caller's layout, checked and held
 * @geo: the geometry
 * @in: bfly_settings_bytes(@geo, @port_map) bytes
 * @port_map: the layout of @in: port maps, else the bit matrix
 * @held: receives bfly_matrix_bytes() bytes in the fabric's layout
 * @why: on error, a short reason
 *
 * Return: 0; -EINVAL for settings bfly_settings_check() refuses or port
 * maps of a 2 x 2 node that are neither straight nor cross; -EOPNOTSUPP
 * for the bit matrix of k x k nodes with k > 2.
 */
int bfly_settings_import(const struct bfly_geometry *geo, const void *in,
			 bool port_map, void *held, const char **why)
{
	int err;

	err = bfly_settings_layout_ok(geo, port_map, why);
	if (err)
		return err;
	if (port_map == geo->port_map) {
		memcpy(held, in, bfly_matrix_bytes(geo));
		return bfly_settings_check(geo, held, why);
	}
	if (!port_map) {
		if (bfly_bits_past_end(geo->switches, in)) {
			*why = "matrix: bits set past the last switch";
			return -EINVAL;
		}
		bfly_bits_to_maps(geo->switches, in, held);
		return 0;
	}
	err = bfly_maps_to_bits(geo->switches, in, held, false);
	if (err)
		*why = "port-map: a 2 x 2 node maps its ports 0 1 (straight) or 1 0 (cross)";
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(bfly_settings_import);
