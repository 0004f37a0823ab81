// SPDX-License-Identifier: GPL-2.0
/*
 * deleted-test DEV NAME: every ioctl on an open file of a deleted fabric
 * answers ENODEV (bad-input.rst, the common table; bflyctl.8, "del").
 *
 * It opens DEV, reads what it needs while the fabric lives, deletes it
 * with "bflyctl del NAME" and then sends each request the fabric's family
 * takes, each one valid: GET_INFO, GET_STATS, GET_MATRIX, SET_MATRIX,
 * TRACE, a dry-run ROUTE, LINK_LOAD by the matrix and by labels,
 * RLS_LABELS, BATCH, MSGSET and HREL (without payload; on a 2 x 2 fabric
 * also the full exchange, whose rounds route at once). The buffers a
 * request writes stay as they were.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "e2e-util.h"

static struct bfly_info info;
static int fd;

/* The requests each family takes (the others it refuses with EOPNOTSUPP). */
static bool is_lcan(void)
{
	return info.topology == BFLY_TOPO_CB_LCAN || info.topology == BFLY_TOPO_T_LCAN ||
	       info.topology == BFLY_TOPO_FATTREE;
}

static bool is_mbfly(void)
{
	return info.topology == BFLY_TOPO_MBFLY;
}

static bool has_settings(void)
{
	return !is_mbfly() && info.topology != BFLY_TOPO_FATTREE;
}

static bool routes_perm(void)
{
	return !is_lcan() && !is_mbfly() && info.topology != BFLY_TOPO_BFLY2 &&
	       info.topology != BFLY_TOPO_BFLY_TWICE;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "deleted-test: out of memory\n");
		exit(1);
	}
	return p;
}

/* Whether the @n bytes at @p still hold the 0xa5 they were filled with. */
static bool untouched(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0xa5)
			return false;
	return true;
}

/* HREL of @count messages, no payload: what ioctl() returns. */
static int hrel(const struct bfly_msgset_msg *msgs, __u32 count)
{
	struct bfly_hrel h = { .size = sizeof(h), .count = count };

	h.msgs_ptr = (uintptr_t)msgs;
	return ioctl(fd, BFLY_IOC_HREL, &h);
}

/* The settings as port maps, read while the fabric lives. */
static __u8 *settings;

static void settings_requests(void)
{
	struct bfly_matrix m = { .size = sizeof(m), .flags = BFLY_MATRIX_PORT_MAP };
	__u32 *perm = xcalloc(info.ports, sizeof(*perm));
	__u8 *out = xcalloc(info.port_map_bytes, 1);

	memset(out, 0xa5, info.port_map_bytes);
	m.matrix_ptr = (uintptr_t)out;
	m.matrix_bytes = info.port_map_bytes;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_MATRIX, &m), ENODEV, "GET_MATRIX (port maps)");
	tap_check(untouched(out, info.port_map_bytes), "GET_MATRIX: the buffer untouched");
	free(out);
	m = (struct bfly_matrix){ .size = sizeof(m), .flags = BFLY_MATRIX_PORT_MAP };
	m.matrix_ptr = (uintptr_t)settings;
	m.matrix_bytes = info.port_map_bytes;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_SET_MATRIX, &m), ENODEV, "SET_MATRIX (port maps)");
	TAP_ERRNO(trace(fd, perm, info.ports, NULL), ENODEV, "TRACE");
	free(perm);
}

static void route_requests(void)
{
	struct bfly_link_load ll = { .size = sizeof(ll), .ports = info.ports };
	__u32 *perm = xcalloc(info.ports, sizeof(*perm));
	__u64 *labels = xcalloc(info.ports, sizeof(*labels));
	struct bfly_route r = { .size = sizeof(r), .ports = info.ports };
	__u32 i;

	for (i = 0; i < info.ports; i++) {
		perm[i] = i;
		labels[i] = i;
	}
	if (routes_perm()) {
		r.flags = BFLY_ROUTE_DRY_RUN;
		r.perm_ptr = (uintptr_t)perm;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_ROUTE, &r), ENODEV, "ROUTE (dry run)");
	}
	TAP_ERRNO(ioctl(fd, BFLY_IOC_LINK_LOAD, &ll), ENODEV, "LINK_LOAD (the matrix)");
	ll = (struct bfly_link_load){ .size = sizeof(ll), .ports = info.ports,
				      .flags = BFLY_ROUTE_LABELS,
				      .label_bits = info.node_stages };
	ll.labels_ptr = (uintptr_t)labels;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_LINK_LOAD, &ll), ENODEV, "LINK_LOAD (labels)");
	free(perm);
	free(labels);
}

static void batch_requests(void)
{
	__u64 size = 8, bytes = (__u64)info.ports * info.ports * size;
	void *send = xcalloc(bytes, 1), *recv = xcalloc(bytes, 1);
	struct bfly_batch b = batch_args(BFLY_SCHED_DEFAULT, info.ports, size, send, recv);

	memset(recv, 0xa5, bytes);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), ENODEV, "BATCH");
	tap_check(untouched(recv, bytes), "BATCH: the receive buffer untouched");
	free(send);
	free(recv);
}

static void msg_requests(void)
{
	struct bfly_msgset_msg *msgs = xcalloc(info.ports * info.ports, sizeof(*msgs));
	struct bfly_msgset s = { .size = sizeof(s), .count = 1 };
	__u32 i, j, n = 0;

	/* One message to the next port: a permutation, h = 1 */
	for (i = 0; i < info.ports; i++) {
		msgs[i].src = i;
		msgs[i].dst = (i + 1) % info.ports;
	}
	if (is_lcan()) {
		s.msgs_ptr = (uintptr_t)msgs;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_MSGSET, &s), ENODEV, "MSGSET (no payload)");
	}
	TAP_ERRNO(hrel(msgs, info.ports), ENODEV, "HREL (a permutation, no payload)");
	if (is_lcan() || is_mbfly() || info.radix != 2 || info.ports > 64)
		goto out;
	/* The full exchange: on bfly2 and bfly-twice its rounds route at once */
	for (i = 0; i < info.ports; i++)
		for (j = 0; j < info.ports; j++)
			if (i != j) {
				msgs[n].src = i;
				msgs[n++].dst = j;
			}
	TAP_ERRNO(hrel(msgs, n), ENODEV, "HREL (the full exchange, no payload)");
out:
	free(msgs);
}

int main(int argc, char **argv)
{
	struct bfly_rls_labels rl = { .size = sizeof(rl), .count = 1 };
	struct bfly_info again = { .size = sizeof(again) };
	struct bfly_stats st = { .size = sizeof(st) };
	char cmd[128];
	__u64 label;

	if (argc != 3) {
		fprintf(stderr, "usage: deleted-test DEV NAME\n");
		return 2;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	settings = xcalloc(info.port_map_bytes, 1);
	if (has_settings()) {
		struct bfly_matrix m = { .size = sizeof(m), .flags = BFLY_MATRIX_PORT_MAP };

		m.matrix_ptr = (uintptr_t)settings;
		m.matrix_bytes = info.port_map_bytes;
		tap_check(!ioctl(fd, BFLY_IOC_GET_MATRIX, &m), "GET_MATRIX while it lives");
	}
	snprintf(cmd, sizeof(cmd), "bflyctl del %s", argv[2]);
	tap_check(system(cmd) == 0, "%s", cmd);

	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &again), ENODEV, "GET_INFO");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_STATS, &st), ENODEV, "GET_STATS");
	if (has_settings())
		settings_requests();
	if (!is_lcan() && !is_mbfly())
		route_requests();
	if (info.ports_log2) {
		memset(&label, 0xa5, sizeof(label));
		rl.labels_ptr = (uintptr_t)&label;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_RLS_LABELS, &rl), ENODEV, "RLS_LABELS");
		tap_check(untouched(&label, sizeof(label)), "RLS_LABELS: the label untouched");
	}
	if (!is_lcan() && !is_mbfly() && info.topology != BFLY_TOPO_KFLY && info.ports_log2 &&
	    info.ports <= 64)
		batch_requests();
	msg_requests();
	free(settings);
	close(fd);
	return tap_failed ? 1 : 0;
}
