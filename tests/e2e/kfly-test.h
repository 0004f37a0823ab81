/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kfly-test: the k-ary n-fly and the flattened butterfly end to end
 * (kfly-test.c: fabrics, port maps, routes, k = 2 against the butterfly;
 * kfly-route.c: destination-digit routing for k > 2; kfly-info.c: the
 * figures and port maps on every fabric; kfly-bad.c: refused input).
 */
#ifndef BFLY_KFLY_TEST_H
#define BFLY_KFLY_TEST_H

#include <stdbool.h>

#include <linux/bfly.h>

#include "nl-kit.h"

/* One fabric made by netlink fabric-new, open read-write */
struct fab {
	__u32 id;
	int fd;
	struct bfly_info info;
	char dev[32];
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* fab_new() without the radix attribute */
#define RADIX_ABSENT 0xffffffffU

/* The figures a fabric reports (GET_INFO or a netlink reply) */
struct figures {
	__u32 id, topology, ports, ports_log2, node_stages, nodes_per_stage;
	__u32 radix, degree, diameter, routers;
	__u64 switches, channels, bisection, port_map_bytes;
};

/* Settings and generation, to check that a refused request left them */
struct maps_snapshot {
	__u8 *maps;
	__u64 gen;
};

extern __u64 rnd_state;

__u32 rnd(__u32 n);
bool sane_info(const struct bfly_info *in);
int fab_new(struct fab *f, __u32 topology, __u32 ports, __u32 radix,
	    struct figures *reply);
void fab_del(struct fab *f);
void nl_figures(struct nlmsghdr *h, void *arg);
int get_maps(int fd, __u8 *maps, __u64 bytes, __u64 *gen);
int set_maps(int fd, const __u8 *maps, __u64 bytes);
void straight_maps(const struct fab *f, __u8 *maps);
void random_maps(const struct fab *f, __u8 *maps);
bool snap_take(const struct fab *f, struct maps_snapshot *s);
bool snap_same(const struct fab *f, struct maps_snapshot *s);
struct bfly_route route_args(const struct fab *f, __u32 flags, const __u32 *perm,
			     void *set, __u64 set_bytes, void *conflicts, __u32 max);
void report_time(const char *part, double t0);
__u32 digit(__u32 v, __u32 k, __u32 i);
void info_figures(const struct bfly_info *in, struct figures *f);
void expected_figures(__u32 topology, __u32 k, __u32 ports, struct figures *f);
bool same_figures(const char *what, const struct figures *got, const struct figures *want);

void test_device(const char *path, __u32 topology, __u32 k, __u32 ports);
void test_route(bool apply);
void test_exhaustive(__u32 stride);
void test_info(void);
void test_maps(void);
void test_bad(void);

#endif /* BFLY_KFLY_TEST_H */
