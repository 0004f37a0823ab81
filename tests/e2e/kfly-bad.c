// SPDX-License-Identifier: GPL-2.0
/*
 * kfly-test bad: refused input, each with its errno, the settings and
 * generation unchanged where a fabric exists, and the netlink refusals
 * with an extended ack: fabric-new shapes, the bit matrix on k > 2, port
 * maps not one-to-one or naming no port, labels of the wrong width or
 * too large, faults on kfly and flatfly, batches and a2a on kfly and on
 * a flatfly of N no power of two, unset ports on the 2 x 2 fabrics.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "e2e-util.h"
#include "kfly-test.h"

/* Run @call, which must fail with @want, and check it changed nothing. */
#define REFUSED_MAPS(f, call, want, what)				\
	do {								\
		const struct fab *__f = (f);				\
		const char *__what = (what);				\
		struct maps_snapshot __s;				\
		bool __ok = snap_take(__f, &__s);			\
		TAP_ERRNO(call, want, __what);				\
		tap_check(__ok && snap_same(__f, &__s),			\
			  "%s: settings and generation unchanged", __what);	\
	} while (0)

/* The bfly device nodes in /dev. */
static int count_devs(void)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, "bfly", 4);
	if (d)
		closedir(d);
	return n;
}

/* A netlink answer as ioctl() gives it: 0, or -1 with errno set. */
static int nl_errno(int err)
{
	if (!err)
		return 0;
	errno = -err;
	return -1;
}

/* A netlink request answered @err must be refused with @want and say why. */
static void nl_refused(const char *what, int err, int want)
{
	tap_check(err == -want && nl_extack[0], "%s: %s with an extack (got %s: \"%s\")", what,
		  strerrorname_np(want), err ? strerrorname_np(-err) : "0", nl_extack);
}

/* fabric-new of a shape the contract refuses: EINVAL, a reason, no fabric. */
static void new_refused(const char *what, __u32 topology, __u32 ports, __u32 radix)
{
	int before = count_devs(), err;
	struct fab f;

	err = fab_new(&f, topology, ports, radix, NULL);
	nl_refused(what, err, EINVAL);
	tap_check(count_devs() == before, "%s: no fabric made", what);
	if (!err)
		fab_del(&f);
}

static void bad_new(void)
{
	new_refused("new kfly radix 0", BFLY_TOPO_KFLY, 8, 0);
	new_refused("new kfly radix 1", BFLY_TOPO_KFLY, 1, 1);
	new_refused("new kfly radix 65", BFLY_TOPO_KFLY, 65, 65);
	new_refused("new flatfly radix 65", BFLY_TOPO_FLATFLY, 65 * 65, 65);
	new_refused("new butterfly radix 3", BFLY_TOPO_BUTTERFLY, 9, 3);
	new_refused("new butterfly radix 4", BFLY_TOPO_BUTTERFLY, 16, 4);
	new_refused("new bfly2 radix 3", BFLY_TOPO_BFLY2, 9, 3);
	new_refused("new bfly-twice radix 4", BFLY_TOPO_BFLY_TWICE, 16, 4);
	new_refused("new benes radix 3", BFLY_TOPO_BENES, 9, 3);
	new_refused("new benes radix 0", BFLY_TOPO_BENES, 8, 0);
	new_refused("new kfly radix 3 ports 12", BFLY_TOPO_KFLY, 12, 3);
	new_refused("new kfly radix 3 ports 1", BFLY_TOPO_KFLY, 1, 3);
	new_refused("new kfly radix 3 ports 0", BFLY_TOPO_KFLY, 0, 3);
	new_refused("new kfly radix 4 ports 8", BFLY_TOPO_KFLY, 8, 4);
	new_refused("new kfly without radix (2) ports 27", BFLY_TOPO_KFLY, 27, RADIX_ABSENT);
	new_refused("new kfly radix 64 ports 64^4", BFLY_TOPO_KFLY, 1U << 24, 64);
	new_refused("new kfly radix 2 ports 2^21", BFLY_TOPO_KFLY, 1U << 21, 2);
	new_refused("new kfly radix 3 ports 3^13", BFLY_TOPO_KFLY, 1594323, 3);
	new_refused("new flatfly radix 5 ports 5 (n = 1)", BFLY_TOPO_FLATFLY, 5, 5);
	new_refused("new flatfly radix 2 ports 2 (n = 1)", BFLY_TOPO_FLATFLY, 2, 2);
	new_refused("new flatfly radix 64 ports 64 (n = 1)", BFLY_TOPO_FLATFLY, 64, 64);
	new_refused("new flatfly radix 3 ports 12", BFLY_TOPO_FLATFLY, 12, 3);
}

/* ROUTE by labels, the settings as port maps into @set: what ioctl() returns. */
static int route_labels(const struct fab *f, __u32 flags, const __u64 *labels, __u32 bits,
			__u8 *set)
{
	struct bfly_route r = route_args(f, flags | BFLY_ROUTE_LABELS | BFLY_ROUTE_PORT_MAP, NULL,
					 set, f->info.port_map_bytes, NULL, 0);

	r.labels_ptr = (uintptr_t)labels;
	r.label_bits = bits;
	return ioctl(f->fd, BFLY_IOC_ROUTE, &r);
}

/* ROUTE of @perm with @flags and a settings buffer of @bytes. */
static int route_perm(const struct fab *f, __u32 flags, const __u32 *perm, void *set,
		      __u64 bytes)
{
	struct bfly_route r = route_args(f, flags, perm, set, bytes, NULL, 0);

	return ioctl(f->fd, BFLY_IOC_ROUTE, &r);
}

/* LINK_LOAD by labels of @bits digits: what ioctl() returns. */
static int load_labels(const struct fab *f, const __u64 *labels, __u32 bits)
{
	struct bfly_link_load l = {
		.size = sizeof(l),
		.flags = BFLY_ROUTE_LABELS,
		.ports = f->info.ports,
		.label_bits = bits,
		.labels_ptr = (uintptr_t)labels,
	};

	return ioctl(f->fd, BFLY_IOC_LINK_LOAD, &l);
}

/* SET_MATRIX of port maps with other flags or size: what ioctl() returns. */
static int set_maps_as(const struct fab *f, __u32 flags, const __u8 *maps, __u64 bytes)
{
	struct bfly_matrix a = {
		.size = sizeof(a),
		.flags = flags,
		.matrix_ptr = (uintptr_t)maps,
		.matrix_bytes = bytes,
	};

	return ioctl(f->fd, BFLY_IOC_SET_MATRIX, &a);
}

static int get_maps_as(const struct fab *f, __u32 flags, __u8 *maps, __u64 bytes)
{
	struct bfly_matrix a = {
		.size = sizeof(a),
		.flags = flags,
		.matrix_ptr = (uintptr_t)maps,
		.matrix_bytes = bytes,
	};

	return ioctl(f->fd, BFLY_IOC_GET_MATRIX, &a);
}

/* A k x k fabric's refusals (kfly or flatfly of radix @k, @ports ports). */
static void bad_kxk(__u32 topology, __u32 k, __u32 ports)
{
	struct fab f;
	char what[160], name[48];
	__u64 pmb, mbytes, *m, *labels, i, top = 1;
	__u32 *perm, n;
	__u8 *maps, *bad, *out;
	struct bfly_batch b;
	bool batches = topology == BFLY_TOPO_FLATFLY && !(ports & (ports - 1));
	int err, ll_bad = EINVAL;
	size_t at;

	snprintf(name, sizeof(name), "%s k=%u N=%u",
		 topology == BFLY_TOPO_KFLY ? "kfly" : "flatfly", k, ports);
	if (fab_new(&f, topology, ports, k, NULL)) {
		tap_check(0, "%s: fabric-new (%s)", name, nl_extack);
		fab_del(&f);
		return;
	}
	n = f.info.node_stages;
	for (i = 0; i < n; i++)
		top *= k;
	pmb = f.info.port_map_bytes;
	mbytes = BFLY_MATRIX_BYTES(f.info.switches);
	maps = malloc(pmb);
	bad = malloc(pmb);
	out = malloc(pmb);
	m = calloc(1, mbytes);
	perm = malloc(ports * sizeof(*perm));
	labels = malloc(ports * sizeof(*labels));
	random_maps(&f, maps);
	tap_check(!set_maps(f.fd, maps, pmb), "%s: random settings to keep", name);

#define SAY(...) snprintf(what, sizeof(what), __VA_ARGS__)
	if (k > 2) {
		SAY("%s: GET_MATRIX as bits", name);
		TAP_ERRNO(get_matrix(f.fd, m, mbytes, NULL), EOPNOTSUPP, what);
		SAY("%s: SET_MATRIX as bits", name);
		REFUSED_MAPS(&f, set_matrix(f.fd, m, mbytes), EOPNOTSUPP, what);
	}
	memcpy(bad, maps, pmb);
	bad[k] = bad[k + 1];
	SAY("%s: SET_MATRIX, two inputs of switch 1 to one output", name);
	REFUSED_MAPS(&f, set_maps(f.fd, bad, pmb), EINVAL, what);
	memcpy(bad, maps, pmb);
	at = pmb - 1 - rnd(k);
	bad[at] = k;
	SAY("%s: SET_MATRIX, an entry %u (k)", name, k);
	REFUSED_MAPS(&f, set_maps(f.fd, bad, pmb), EINVAL, what);
	bad[at] = BFLY_PORT_UNSET - 1;
	SAY("%s: SET_MATRIX, an entry 0xfe", name);
	REFUSED_MAPS(&f, set_maps(f.fd, bad, pmb), EINVAL, what);
	SAY("%s: SET_MATRIX, matrix_bytes one short", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, pmb - 1), EINVAL, what);
	SAY("%s: SET_MATRIX, matrix_bytes one over", name);
	REFUSED_MAPS(&f, set_maps_as(&f, BFLY_MATRIX_PORT_MAP, bad, pmb + 1), EINVAL, what);
	SAY("%s: SET_MATRIX, matrix_bytes 0", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, 0), EINVAL, what);
	SAY("%s: SET_MATRIX, an unknown flag", name);
	REFUSED_MAPS(&f, set_maps_as(&f, BFLY_MATRIX_PORT_MAP | 2, maps, pmb), EINVAL, what);
	SAY("%s: GET_MATRIX as port maps, matrix_bytes one short", name);
	TAP_ERRNO(get_maps_as(&f, BFLY_MATRIX_PORT_MAP, bad, pmb - 1), EINVAL, what);

	random_perm(perm, ports, &rnd_state);
	for (i = 0; i < ports; i++)
		labels[i] = perm[i];
	/* a flatfly may refuse LINK_LOAD altogether (kfly-route.c) */
	if (topology == BFLY_TOPO_FLATFLY && load_labels(&f, labels, n) && errno == EOPNOTSUPP)
		ll_bad = EOPNOTSUPP;
	labels[rnd(ports)] = top;
	SAY("%s: ROUTE, a label k^n = %llu", name, (unsigned long long)top);
	REFUSED_MAPS(&f, route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, n, out), EINVAL, what);
	SAY("%s: ROUTE applied, a label k^n", name);
	REFUSED_MAPS(&f, route_labels(&f, 0, labels, n, out), EINVAL, what);
	labels[0] = ~0ULL;
	SAY("%s: ROUTE, a label 2^64 - 1", name);
	REFUSED_MAPS(&f, route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, n, out), EINVAL, what);
	SAY("%s: LINK_LOAD, a label 2^64 - 1", name);
	TAP_ERRNO(load_labels(&f, labels, n), ll_bad, what);
	for (i = 0; i < ports; i++)
		labels[i] = perm[i];
	tap_check(!route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, n, out) || errno == EBUSY,
		  "%s: ROUTE, labels below k^n of %u digits are taken", name, n);
	SAY("%s: ROUTE, label_bits %u", name, n - 1);
	REFUSED_MAPS(&f, route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, n - 1, out), EINVAL, what);
	SAY("%s: ROUTE, label_bits %u", name, n + 1);
	REFUSED_MAPS(&f, route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, n + 1, out), EINVAL, what);
	if (k > 2) {
		i = 0;
		while ((1ULL << i) < top)
			i++;
		SAY("%s: ROUTE, label_bits %llu (bits, not digits)", name,
		    (unsigned long long)i);
		REFUSED_MAPS(&f, route_labels(&f, BFLY_ROUTE_DRY_RUN, labels, i, out), EINVAL,
			     what);
	}
	SAY("%s: LINK_LOAD, label_bits %u", name, n + 1);
	TAP_ERRNO(load_labels(&f, labels, n + 1), ll_bad, what);

	SAY("%s: ROUTE, a permutation with a repeated entry", name);
	perm[0] = perm[1];
	REFUSED_MAPS(&f, route_perm(&f, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP, perm, out, pmb),
		     EINVAL, what);
	perm[0] = ports;
	SAY("%s: ROUTE, a permutation with an entry N", name);
	REFUSED_MAPS(&f, route_perm(&f, BFLY_ROUTE_PORT_MAP, perm, out, pmb), EINVAL, what);
	for (i = 0; i < ports; i++)
		perm[i] = i;
	err = route_perm(&f, BFLY_ROUTE_DRY_RUN, perm, NULL, 0) ? errno : 0;
	tap_check(!err || err == EBUSY,
		  "%s: ROUTE dry run without a settings buffer needs no BFLY_ROUTE_PORT_MAP (%s)",
		  name, err ? strerrorname_np(err) : "0");
	if (k > 2) {
		SAY("%s: ROUTE dry run into a bit matrix", name);
		REFUSED_MAPS(&f, route_perm(&f, BFLY_ROUTE_DRY_RUN, perm, m, mbytes),
			     EOPNOTSUPP, what);
		SAY("%s: ROUTE applied into a bit matrix", name);
		REFUSED_MAPS(&f, route_perm(&f, 0, perm, m, mbytes), EOPNOTSUPP, what);
	}
	SAY("%s: ROUTE with port maps, matrix_bytes one short", name);
	REFUSED_MAPS(&f, route_perm(&f, BFLY_ROUTE_PORT_MAP, perm, bad, pmb - 1), EINVAL, what);

	/* batches run on a flatfly of N = 2^m (interface 5), nowhere else */
	b = batch_args(BFLY_SCHED_DEFAULT, ports, 0, NULL, NULL);
	SAY("%s: BATCH", name);
	if (batches) {
		struct maps_snapshot sn;
		bool same = snap_take(&f, &sn);

		err = ioctl(f.fd, BFLY_IOC_BATCH, &b) ? errno : 0;
		tap_check(!err && b.rounds == ports && b.cycles_bound >= ports + 2,
			  "%s (N a power of two) runs: %s, %u rounds, cycles bound %llu", what,
			  err ? strerrorname_np(err) : "0", b.rounds,
			  (unsigned long long)b.cycles_bound);
		tap_check(same && snap_same(&f, &sn), "%s: settings and generation unchanged",
			  what);
	} else {
		REFUSED_MAPS(&f, ioctl(f.fd, BFLY_IOC_BATCH, &b), EOPNOTSUPP, what);
	}
	if (ports & (ports - 1)) {
		struct bfly_rls_labels rl = {
			.size = sizeof(rl), .flags = BFLY_RLS_BY_ROTATION,
			.count = ports, .labels_ptr = (uintptr_t)labels,
		};

		SAY("%s: RLS_LABELS (N no power of two)", name);
		TAP_ERRNO(ioctl(f.fd, BFLY_IOC_RLS_LABELS, &rl), EOPNOTSUPP, what);
	}

	msg_start(family, NLM_F_ACK, BFLY_CMD_FAULT_ADD);
	put_u32(BFLY_A_ID, f.id);
	at = put(BFLY_A_FAULT | NLA_F_NESTED, NULL, 0);
	put_u32(BFLY_A_FAULT_KIND, BFLY_FAULT_STUCK);
	put_u32(BFLY_A_FAULT_STAGE, 0);
	put_u32(BFLY_A_FAULT_INDEX, 0);
	put_u32(BFLY_A_FAULT_STATE, 1);
	nest_end(at);
	SAY("%s: netlink fault-add (stuck node)", name);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EOPNOTSUPP, what);
	nl_refused(what, err, EOPNOTSUPP);
	msg_start(family, NLM_F_ACK, BFLY_CMD_FAULT_ADD);
	put_u32(BFLY_A_ID, f.id);
	at = put(BFLY_A_FAULT | NLA_F_NESTED, NULL, 0);
	put_u32(BFLY_A_FAULT_KIND, BFLY_FAULT_LINK);
	put_u32(BFLY_A_FAULT_STAGE, 0);
	put_u32(BFLY_A_FAULT_INDEX, 1);
	nest_end(at);
	SAY("%s: netlink fault-add (broken link)", name);
	err = nl_call();
	nl_refused(what, err, EOPNOTSUPP);
	msg_start(family, NLM_F_ACK, BFLY_CMD_A2A);
	put_u32(BFLY_A_ID, f.id);
	put_u32(BFLY_A_LATIN, BFLY_NL_LATIN_RLS);
	SAY("%s: netlink a2a", name);
	if (batches) {
		err = nl_call();
		tap_check(!err, "%s (N a power of two) runs (%d %s)", what, err, nl_extack);
	} else {
		REFUSED_MAPS(&f, nl_errno(err = nl_call()), EOPNOTSUPP, what);
		nl_refused(what, err, EOPNOTSUPP);
	}
	for (i = 0; i < ports; i++)
		labels[i] = top;
	msg_start(family, NLM_F_ACK, BFLY_CMD_ROUTE);
	put_u32(BFLY_A_ID, f.id);
	put(BFLY_A_LABELS, labels, ports * sizeof(*labels));
	put(BFLY_A_DRY_RUN, NULL, 0);
	SAY("%s: netlink route, labels k^n", name);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EINVAL, what);
	nl_refused(what, err, EINVAL);
	SAY("%s: netlink switch-set, a map not one-to-one", name);
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	at = put(BFLY_A_SWITCH | NLA_F_NESTED, NULL, 0);
	put_u32(BFLY_A_SWITCH_STAGE, 0);
	put_u32(BFLY_A_SWITCH_NODE, 0);
	memset(bad, 0, k);
	put(BFLY_A_SWITCH_MAP, bad, k);
	nest_end(at);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EINVAL, what);
	nl_refused(what, err, EINVAL);
	SAY("%s: netlink switch-set, a map of k - 1 bytes", name);
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	at = put(BFLY_A_SWITCH | NLA_F_NESTED, NULL, 0);
	put_u32(BFLY_A_SWITCH_STAGE, 0);
	put_u32(BFLY_A_SWITCH_NODE, 0);
	put(BFLY_A_SWITCH_MAP, maps, k - 1);
	nest_end(at);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EINVAL, what);
	nl_refused(what, err, EINVAL);
	SAY("%s: netlink switch-set, port-map one byte short", name);
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	put(BFLY_A_PORT_MAP, maps, pmb - 1);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EINVAL, what);
	nl_refused(what, err, EINVAL);
	memcpy(bad, maps, pmb);
	bad[pmb - 1] = k;
	SAY("%s: netlink switch-set, port-map with an entry k", name);
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	put(BFLY_A_PORT_MAP, bad, pmb);
	REFUSED_MAPS(&f, nl_errno(err = nl_call()), EINVAL, what);
	nl_refused(what, err, EINVAL);
#undef SAY
	free(maps), free(bad), free(out), free(m), free(perm), free(labels);
	fab_del(&f);
}

/* A 2 x 2 fabric takes no unset port and no port of 2 or more. */
static void bad_2x2(__u32 topology, const char *name)
{
	struct fab f;
	char what[96];
	__u8 *maps;
	__u64 pmb;

	if (fab_new(&f, topology, 8, RADIX_ABSENT, NULL)) {
		tap_check(0, "%s: fabric-new (%s)", name, nl_extack);
		fab_del(&f);
		return;
	}
	pmb = f.info.port_map_bytes;
	maps = malloc(pmb);
	random_maps(&f, maps);
	tap_check(!set_maps(f.fd, maps, pmb), "%s: random port maps to keep", name);
	maps[3] = BFLY_PORT_UNSET;
	maps[2] = BFLY_PORT_UNSET;
	snprintf(what, sizeof(what), "%s: SET_MATRIX, a switch of unset ports (0xff)", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, pmb), EINVAL, what);
	maps[2] = 0;
	snprintf(what, sizeof(what), "%s: SET_MATRIX, one unset port (0xff)", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, pmb), EINVAL, what);
	maps[3] = 2;
	snprintf(what, sizeof(what), "%s: SET_MATRIX, an entry 2", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, pmb), EINVAL, what);
	maps[3] = 0;
	snprintf(what, sizeof(what), "%s: SET_MATRIX, {0, 0}", name);
	REFUSED_MAPS(&f, set_maps(f.fd, maps, pmb), EINVAL, what);
	free(maps);
	fab_del(&f);
}

void test_bad(void)
{
	double t0 = now_s();

	bad_new();
	bad_kxk(BFLY_TOPO_KFLY, 3, 27);
	bad_kxk(BFLY_TOPO_KFLY, 2, 8);
	bad_kxk(BFLY_TOPO_KFLY, 4, 64);
	bad_kxk(BFLY_TOPO_FLATFLY, 4, 16);
	bad_kxk(BFLY_TOPO_FLATFLY, 3, 9);
	bad_2x2(BFLY_TOPO_BUTTERFLY, "butterfly 8");
	bad_2x2(BFLY_TOPO_BFLY2, "bfly2 8");
	bad_2x2(BFLY_TOPO_BFLY_TWICE, "bfly-twice 8");
	bad_2x2(BFLY_TOPO_BENES, "benes 8");
	report_time("bad", t0);
}
