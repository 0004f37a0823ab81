// SPDX-License-Identifier: GPL-2.0
/*
 * libbfly: the public functions, each a thin wrapper over the algorithm
 * files of kmod/lib (compiled into the library with hidden symbols): a
 * geometry from N, the workspace the algorithm asks for, its result.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/benes.h"
#include "lib/hrel.h"
#include "lib/schedule.h"
#include "lib/topology.h"

#include "bfly/libbfly.h"

#define LIBBFLY_API __attribute__((visibility("default")))

/* N = 2^n ports of @topology, n from 1 to 20 */
static int geometry(struct bfly_geometry *geo, enum bfly_topology topology, __u32 ports)
{
	const char *why;

	if (ports < 2 || ports > (1U << 20) || (ports & (ports - 1)))
		return -EINVAL;
	return bfly_geometry_init(geo, topology, 2, ports, &why) ? -EINVAL : 0;
}

LIBBFLY_API const char *libbfly_version(void)
{
	return LIBBFLY_VERSION;
}

LIBBFLY_API int libbfly_a2a_round(__u32 ports, int latin, __u32 k, __u32 *dest)
{
	static const enum bfly_latin squares[] = {
		[LIBBFLY_A2A_RLS] = BFLY_LATIN_RLS,
		[LIBBFLY_A2A_LLS] = BFLY_LATIN_LLS,
		[LIBBFLY_A2A_XOR] = BFLY_LATIN_XOR,
	};
	struct bfly_geometry geo;
	struct bfly_sched sched;
	int err;

	if (latin < 0 || latin > LIBBFLY_A2A_XOR || !dest)
		return -EINVAL;
	err = geometry(&geo, BFLY_TOPO_BFLY2, ports);
	if (err || k >= ports)
		return -EINVAL;
	if (bfly_sched_init(&sched, &geo, squares[latin], NULL, NULL))
		return -EINVAL;
	return bfly_sched_round(&sched, k, dest, NULL) ? -EINVAL : 0;
}

LIBBFLY_API size_t libbfly_benes_matrix_bytes(__u32 ports)
{
	struct bfly_geometry geo;

	return geometry(&geo, BFLY_TOPO_BENES, ports) ? 0 : bfly_bit_matrix_bytes(&geo);
}

LIBBFLY_API int libbfly_benes_route(__u32 ports, const __u32 *perm, __u64 *matrix)
{
	struct bfly_geometry geo;
	void *work;
	int err;

	if (!perm || !matrix || geometry(&geo, BFLY_TOPO_BENES, ports))
		return -EINVAL;
	work = aligned_alloc(64, (bfly_benes_workspace_size(&geo) + 64) & ~(size_t)63);
	if (!work)
		return -ENOMEM;
	err = bfly_benes_route(&geo, perm, (unsigned long *)matrix, work);
	free(work);
	return err;
}

LIBBFLY_API int libbfly_hrel_rounds(__u32 ports, __u32 count, const __u32 *src,
				    const __u32 *dst, __u32 *h, __u32 *round)
{
	__u32 bad, degree;
	void *work;
	int err;

	if (!ports || ports > (1U << 24) || !count || count > (1U << 24) ||
	    !src || !dst || !h || !round)
		return -EINVAL;
	work = aligned_alloc(64, (bfly_hrel_degree_workspace_size(ports) + 64) & ~(size_t)63);
	if (!work)
		return -ENOMEM;
	err = bfly_hrel_degree(ports, count, src, dst, &degree, &bad, work);
	free(work);
	if (err)
		return err;
	work = aligned_alloc(64, (bfly_hrel_workspace_size(ports, count, degree) + 64) &
			     ~(size_t)63);
	if (!work)
		return -ENOMEM;
	err = bfly_hrel_colour(ports, count, src, dst, degree, round, work);
	free(work);
	if (!err)
		*h = degree;
	return err;
}
