// SPDX-License-Identifier: GPL-2.0
/*
 * bflyctl route ... format dot|svg: the picture of a route. An applied
 * route is drawn from the device's settings; a dry run or a refused one
 * from the settings the algorithm library computes for the same
 * permutation or labels (self-routing, or looping on benes), with the
 * conflicts the device reported in red and, for a permutation, the
 * packets a conflict deflected dashed.
 */
#include "lib/benes.h"
#include "lib/selfroute.h"
#include "lib/topology.h"

#include "bflyctl.h"

void route_picture(unsigned int id, const void *buf, bool labels, bool applied,
		   const struct bfly_conflict *conflicts, unsigned int nconflicts, bool svg)
{
	struct dot_view view = { .conflicts = conflicts, .nconflicts = nconflicts };
	struct fabrics fs = {};
	struct bfly_geometry geo;
	const struct fabric *f;
	const char *why = NULL;
	unsigned int *delivered, i;
	bool *deflected;
	void *work;
	int err;

	read_fabrics(&fs, true, id, BFLY_WANT_MATRIX);
	if (fs.n != 1)
		die("bfly%u: no such fabric", id);
	f = &fs.v[0];
	if (applied) {
		dot_fabric(f, &view, svg);
		fabrics_free(&fs);
		return;
	}
	if (!picture_fabric(f) || bfly_geometry_init(&geo, f->topology, 2, f->ports, &why))
		die("%s: pictures show 2 x 2 fabrics (butterfly, bfly2, bfly-twice, benes)",
		    f->dev);
	delivered = xcalloc(f->ports, sizeof(*delivered));
	deflected = xcalloc(f->ports, sizeof(*deflected));
	view.matrix = xcalloc(BFLY_MATRIX_BYTES(geo.switches) / 8 + 1, 8);
	if (!labels && bfly_topology_find(f->topology)->perm_method == BFLY_METHOD_LOOPING) {
		work = xcalloc(1, bfly_benes_workspace_size(&geo) + 64);
		err = bfly_benes_route(&geo, buf, (unsigned long *)view.matrix, work);
	} else {
		struct bfly_conflicts none = {};

		work = xcalloc(1, bfly_selfroute_workspace_size(&geo) + 64);
		err = labels ? bfly_selfroute_labels(&geo, buf, (unsigned long *)view.matrix,
						     delivered, &none, work)
			     : bfly_selfroute_dest(&geo, buf, (unsigned long *)view.matrix,
						   delivered, &none, work);
		for (i = 0; !labels && !err && i < f->ports; i++)
			deflected[i] = delivered[i] != ((const unsigned int *)buf)[i];
		view.deflected = deflected;
	}
	if (err)
		die("%s: the route's settings: error %d", f->dev, err);
	dot_fabric(f, &view, svg);
	free(work);
	free(delivered);
	free(deflected);
	free((void *)view.matrix);
	fabrics_free(&fs);
}
