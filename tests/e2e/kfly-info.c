// SPDX-License-Identifier: GPL-2.0
/*
 * kfly-test info, maps and device: the figures of kfly, flatfly and the
 * 2 x 2 fabrics in GET_INFO (the old 64-byte size gets 64 bytes), in the
 * fabric-new reply and in fabric-get; port maps on every fabric against
 * the bit matrix, and unset ports losing their packets.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "e2e-util.h"
#include "kfly-test.h"
#include "model.h"

/* The figures GET_INFO gave in @in. */
void info_figures(const struct bfly_info *in, struct figures *f)
{
	*f = (struct figures) {
		.id = in->id, .topology = in->topology, .ports = in->ports,
		.ports_log2 = in->ports_log2, .node_stages = in->node_stages,
		.nodes_per_stage = in->nodes_per_stage, .radix = in->radix,
		.degree = in->degree, .diameter = in->diameter, .routers = in->routers,
		.switches = in->switches, .channels = in->channels,
		.bisection = in->bisection, .port_map_bytes = in->port_map_bytes,
	};
}

/* The figures the contract gives a fabric of radix @k and @ports ports. */
void expected_figures(__u32 topology, __u32 k, __u32 ports, struct figures *f)
{
	__u32 n = 0, p, st;

	for (p = 1; p < ports; p *= k)
		n++;
	switch (topology) {
	case BFLY_TOPO_BFLY2:
	case BFLY_TOPO_BENES:
		st = 2 * n - 1;
		break;
	case BFLY_TOPO_BFLY_TWICE:
		st = 2 * n;
		break;
	default:
		st = n;
	}
	memset(f, 0, sizeof(*f));
	f->topology = topology;
	f->ports = ports;
	f->ports_log2 = ports & (ports - 1) ? 0 : __builtin_ctz(ports);
	f->node_stages = st;
	f->nodes_per_stage = ports / k;
	f->switches = (__u64)st * (ports / k);
	f->radix = k;
	f->port_map_bytes = (__u64)st * ports;
	f->degree = 2 * k;
	f->diameter = st + 1;
	f->channels = (__u64)(st + 1) * ports;
	if (topology == BFLY_TOPO_BUTTERFLY || topology == BFLY_TOPO_KFLY)
		f->bisection = k % 2 ? 0 : n < 2 ? ports : ports / 2;
	if (topology != BFLY_TOPO_FLATFLY)
		return;
	f->routers = ports / k;
	f->channels = (__u64)(ports / k) * (n - 1) * (k - 1);
	f->degree = k + (k - 1) * (n - 1);
	f->bisection = k % 2 ? 0 : (__u64)(ports / k) * (k / 2);
}

/* Append " NAME GOT (expected WANT)" to @diff at @len when they differ. */
static size_t fig(char *diff, size_t size, size_t len, const char *name, __u64 got,
		  __u64 want)
{
	if (got == want || len + 64 > size)
		return len;
	return len + snprintf(diff + len, size - len, " %s %llu (expected %llu)", name,
			      (unsigned long long)got, (unsigned long long)want);
}

/* One TAP line: @got is @want but for the id; the fields that differ. */
bool same_figures(const char *what, const struct figures *got, const struct figures *want)
{
	char d[512] = "";
	size_t n = 0, z = sizeof(d);

	n = fig(d, z, n, "topology", got->topology, want->topology);
	n = fig(d, z, n, "ports", got->ports, want->ports);
	n = fig(d, z, n, "ports_log2", got->ports_log2, want->ports_log2);
	n = fig(d, z, n, "node_stages", got->node_stages, want->node_stages);
	n = fig(d, z, n, "nodes_per_stage", got->nodes_per_stage, want->nodes_per_stage);
	n = fig(d, z, n, "switches", got->switches, want->switches);
	n = fig(d, z, n, "radix", got->radix, want->radix);
	n = fig(d, z, n, "degree", got->degree, want->degree);
	n = fig(d, z, n, "diameter", got->diameter, want->diameter);
	n = fig(d, z, n, "routers", got->routers, want->routers);
	n = fig(d, z, n, "channels", got->channels, want->channels);
	n = fig(d, z, n, "bisection", got->bisection, want->bisection);
	n = fig(d, z, n, "port_map_bytes", got->port_map_bytes, want->port_map_bytes);
	tap_check(!n, "%s: figures%s", what, n ? d : " as the contract gives them");
	return !n;
}

static const char *topo_name(__u32 topology)
{
	static const char * const names[] = {
		"?", "butterfly", "bfly2", "bfly-twice", "benes", "kfly", "flatfly",
	};

	return topology < ARRAY_SIZE(names) ? names[topology] : "?";
}

/* GET_INFO at the sizes of versions 5 and 0 and of a newer caller. */
static void info_sizes(const struct fab *f, const char *what)
{
	union {
		struct bfly_info info;
		__u8 b[sizeof(struct bfly_info) + 64];
	} u;
	struct bfly_info full = { .size = sizeof(full) };
	bool ok;
	int i;

	ok = !ioctl(f->fd, BFLY_IOC_GET_INFO, &full) && full.size == BFLY_INFO_SIZE_VER3 &&
	     !full.uppers && full.uapi_version == BFLY_UAPI_VERSION && !full.flags && !full.pad &&
	     !full.reserved[0] && !full.reserved[1] && !full.reserved2[0] && !full.reserved2[1];
	tap_check(ok, "%s: GET_INFO writes %u bytes, uapi version %u, zero flags and reserved",
		  what, full.size, full.uapi_version);

	memset(&u, 0x5a, sizeof(u));
	memset(&u, 0, BFLY_INFO_SIZE_VER0);
	u.info.size = BFLY_INFO_SIZE_VER0;
	ok = !ioctl(f->fd, BFLY_IOC_GET_INFO, &u) && u.info.size == BFLY_INFO_SIZE_VER0 &&
	     !memcmp(u.b + 4, (__u8 *)&full + 4, BFLY_INFO_SIZE_VER0 - 4);
	for (i = BFLY_INFO_SIZE_VER0; ok && i < (int)sizeof(u); i++)
		ok = u.b[i] == 0x5a;
	tap_check(ok, "%s: an old caller (size 64) gets exactly the first 64 bytes", what);

	memset(&u, 0, sizeof(u));
	u.info.size = sizeof(u);
	ok = !ioctl(f->fd, BFLY_IOC_GET_INFO, &u) && u.info.size == BFLY_INFO_SIZE_VER3 &&
	     !memcmp(u.b + 4, (__u8 *)&full + 4, BFLY_INFO_SIZE_VER3 - 4);
	for (i = BFLY_INFO_SIZE_VER3; ok && i < (int)sizeof(u); i++)
		ok = !u.b[i];
	tap_check(ok, "%s: a newer caller (size %zu, zero tail) gets %u bytes", what, sizeof(u),
		  u.info.size);
}

/* The figures of one fabric: fabric-new's reply, GET_INFO, fabric-get. */
static void info_one(__u32 topology, __u32 k, __u32 ports, __u32 radix)
{
	struct figures want, got;
	char what[80];
	struct fab f;
	int err;

	snprintf(what, sizeof(what), "%s k=%u N=%u%s", topo_name(topology), k, ports,
		 radix == RADIX_ABSENT ? " (no radix attribute)" : "");
	expected_figures(topology, k, ports, &want);
	err = fab_new(&f, topology, ports, radix, &got);
	tap_check(!err, "%s: fabric-new (%s %s)", what, err ? strerrorname_np(-err) : "0",
		  nl_extack);
	if (err && err != -EPROTO) {
		fab_del(&f);
		return;
	}
	same_figures(what, &got, &want);
	info_figures(&f.info, &got);
	snprintf(what + strlen(what), sizeof(what) - strlen(what), ": GET_INFO");
	same_figures(what, &got, &want);
	what[strlen(what) - strlen(": GET_INFO")] = 0;
	info_sizes(&f, what);

	memset(&got, 0, sizeof(got));
	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_GET);
	put_u32(BFLY_A_ID, f.id);
	err = nl_call_replies(nl_figures, &got);
	tap_check(!err && got.id == f.id, "%s: fabric-get answers (%d)", what, err);
	snprintf(what + strlen(what), sizeof(what) - strlen(what), ": fabric-get");
	same_figures(what, &got, &want);
	fab_del(&f);
}

void test_info(void)
{
	static const struct { __u32 topology, k, ports; } grid[] = {
		{ BFLY_TOPO_KFLY, 2, 2 }, { BFLY_TOPO_KFLY, 2, 8 }, { BFLY_TOPO_KFLY, 2, 1024 },
		{ BFLY_TOPO_KFLY, 3, 3 }, { BFLY_TOPO_KFLY, 3, 27 }, { BFLY_TOPO_KFLY, 3, 81 },
		{ BFLY_TOPO_KFLY, 4, 4 }, { BFLY_TOPO_KFLY, 4, 64 }, { BFLY_TOPO_KFLY, 5, 125 },
		{ BFLY_TOPO_KFLY, 6, 36 }, { BFLY_TOPO_KFLY, 7, 49 }, { BFLY_TOPO_KFLY, 8, 512 },
		{ BFLY_TOPO_KFLY, 16, 256 }, { BFLY_TOPO_KFLY, 64, 64 },
		{ BFLY_TOPO_KFLY, 64, 4096 }, { BFLY_TOPO_KFLY, 32, 1 << 20 },
		{ BFLY_TOPO_FLATFLY, 2, 4 }, { BFLY_TOPO_FLATFLY, 2, 16 },
		{ BFLY_TOPO_FLATFLY, 3, 9 }, { BFLY_TOPO_FLATFLY, 3, 27 },
		{ BFLY_TOPO_FLATFLY, 4, 16 }, { BFLY_TOPO_FLATFLY, 4, 256 },
		{ BFLY_TOPO_FLATFLY, 5, 25 }, { BFLY_TOPO_FLATFLY, 6, 216 },
		{ BFLY_TOPO_FLATFLY, 8, 64 }, { BFLY_TOPO_FLATFLY, 64, 4096 },
		{ BFLY_TOPO_BUTTERFLY, 2, 2 }, { BFLY_TOPO_BUTTERFLY, 2, 8 },
		{ BFLY_TOPO_BUTTERFLY, 2, 1024 }, { BFLY_TOPO_BFLY2, 2, 2 },
		{ BFLY_TOPO_BFLY2, 2, 16 }, { BFLY_TOPO_BFLY_TWICE, 2, 4 },
		{ BFLY_TOPO_BFLY_TWICE, 2, 64 }, { BFLY_TOPO_BENES, 2, 2 },
		{ BFLY_TOPO_BENES, 2, 256 },
	};
	double t0 = now_s();
	__u32 i;

	for (i = 0; i < ARRAY_SIZE(grid); i++)
		info_one(grid[i].topology, grid[i].k, grid[i].ports,
			 grid[i].topology < BFLY_TOPO_KFLY ? RADIX_ABSENT : grid[i].k);
	/* radix 2 given to a 2 x 2 fabric, none to a kfly: radix 2 */
	info_one(BFLY_TOPO_BUTTERFLY, 2, 16, 2);
	info_one(BFLY_TOPO_BENES, 2, 16, 2);
	info_one(BFLY_TOPO_KFLY, 2, 16, RADIX_ABSENT);
	info_one(BFLY_TOPO_FLATFLY, 2, 32, RADIX_ABSENT);
	report_time("info", t0);
}

/* A fabric made at load (insmod): its figures, and it starts straight. */
void test_device(const char *path, __u32 topology, __u32 k, __u32 ports)
{
	struct figures want, got;
	struct fab f = { .id = ~0U };
	__u8 *maps, *straight;
	char what[160];
	bool ok;

	snprintf(what, sizeof(what), "%s (%s k=%u N=%u)", path, topo_name(topology), k, ports);
	f.fd = open_fabric(path, &f.info);
	if (f.fd < 0)
		return;
	expected_figures(topology, k, ports, &want);
	info_figures(&f.info, &got);
	same_figures(what, &got, &want);
	if (!sane_info(&f.info)) {
		close(f.fd);
		return;
	}
	maps = malloc(f.info.port_map_bytes);
	straight = malloc(f.info.port_map_bytes);
	straight_maps(&f, straight);
	ok = !get_maps(f.fd, maps, f.info.port_map_bytes, NULL) &&
	     !memcmp(maps, straight, f.info.port_map_bytes);
	tap_check(ok, "%s: starts with every switch straight", what);
	free(maps);
	free(straight);
	close(f.fd);
}

/* ---- port maps on every fabric ---- */

/* The 2 x 2 maps of a bit matrix. */
static void bits_to_maps(const __u64 *m, __u64 switches, __u8 *maps)
{
	__u64 i;

	for (i = 0; i < switches; i++) {
		maps[2 * i] = (m[i / 64] >> (i % 64)) & 1;
		maps[2 * i + 1] = 1 - maps[2 * i];
	}
}

/* Port maps and the bit matrix of a 2 x 2 fabric (or a 2-ary n-fly) agree. */
static void maps_2x2(__u32 topology, __u32 ports)
{
	struct fab f;
	char what[64];
	__u64 *m, *m2, mbytes, pmb, gen = 0, gen2 = 0;
	__u32 *t1, *t2;
	__u8 *maps, *maps2;
	bool ok;

	snprintf(what, sizeof(what), "maps %s N=%u", topo_name(topology), ports);
	if (fab_new(&f, topology, ports, topology == BFLY_TOPO_KFLY ? 2 : RADIX_ABSENT, NULL)) {
		tap_check(0, "%s: fabric-new (%s)", what, nl_extack);
		fab_del(&f);
		return;
	}
	mbytes = BFLY_MATRIX_BYTES(f.info.switches);
	pmb = f.info.port_map_bytes;
	m = calloc(1, mbytes);
	m2 = calloc(1, mbytes);
	maps = malloc(pmb);
	maps2 = malloc(pmb);
	t1 = malloc(ports * sizeof(*t1));
	t2 = malloc(ports * sizeof(*t2));

	ok = !get_matrix(f.fd, m, mbytes, &gen) && !get_maps(f.fd, maps, pmb, &gen2);
	bits_to_maps(m, f.info.switches, maps2);
	tap_check(ok && gen == gen2 && !memcmp(maps, maps2, pmb),
		  "%s: GET_MATRIX as port maps is the bit matrix (straight {0,1}, cross {1,0})",
		  what);

	random_matrix(m, mbytes, f.info.switches, &rnd_state);
	ok = !set_matrix(f.fd, m, mbytes) && !get_maps(f.fd, maps, pmb, &gen2) &&
	     !trace(f.fd, t1, ports, NULL);
	bits_to_maps(m, f.info.switches, maps2);
	tap_check(ok && gen2 == gen + 1 && !memcmp(maps, maps2, pmb),
		  "%s: a random bit matrix reads back as its port maps, generation %llu", what,
		  (unsigned long long)gen2);

	straight_maps(&f, maps2);
	ok = !set_maps(f.fd, maps2, pmb) && !set_maps(f.fd, maps, pmb) &&
	     !get_matrix(f.fd, m2, mbytes, &gen) && !trace(f.fd, t2, ports, NULL);
	tap_check(ok && gen == gen2 + 2 && !memcmp(m, m2, mbytes) &&
		  !memcmp(t1, t2, ports * sizeof(*t1)),
		  "%s: the same settings written as port maps: the same bits and TRACE", what);
	free(m), free(m2), free(maps), free(maps2), free(t1), free(t2);
	fab_del(&f);
}

/*
 * Unset ports (BFLY_PORT_UNSET) on a k-ary n-fly: accepted, TRACE loses
 * the packets the library's trace loses; on k = 2 the bit matrix is then
 * EOPNOTSUPP.
 */
static void maps_unset(__u32 k, __u32 ports)
{
	struct fab f;
	char what[64];
	__u64 pmb, mbytes, *m, i;
	__u32 *t, *want, lost = 0;
	__u8 *maps, *got;
	bool ok;

	snprintf(what, sizeof(what), "unset ports kfly k=%u N=%u", k, ports);
	if (fab_new(&f, BFLY_TOPO_KFLY, ports, k, NULL) || model_kfly_init(k, ports)) {
		tap_check(0, "%s: fabric-new (%s)", what, nl_extack);
		fab_del(&f);
		return;
	}
	pmb = f.info.port_map_bytes;
	mbytes = BFLY_MATRIX_BYTES(f.info.switches);
	maps = malloc(pmb);
	got = malloc(pmb);
	m = calloc(1, mbytes);
	t = malloc(ports * sizeof(*t));
	want = malloc(ports * sizeof(*want));
	random_maps(&f, maps);
	/* input 1 dropped at stage 0, and a few ports anywhere */
	maps[1] = BFLY_PORT_UNSET;
	for (i = 0; i < 3; i++)
		maps[rnd(pmb)] = BFLY_PORT_UNSET;
	ok = !set_maps(f.fd, maps, pmb) && !get_maps(f.fd, got, pmb, NULL) &&
	     !memcmp(maps, got, pmb);
	tap_check(ok, "%s: SET_MATRIX with unset ports, read back", what);
	model_kfly_trace(maps, want);
	ok = !trace(f.fd, t, ports, NULL) && !memcmp(t, want, ports * sizeof(*t));
	for (i = 0; i < ports; i++)
		lost += t[i] == BFLY_TRACE_LOST;
	tap_check(ok && t[1] == BFLY_TRACE_LOST,
		  "%s: TRACE loses the packets that meet them (%u lost), as the library", what,
		  lost);
	if (k == 2) {
		TAP_ERRNO(get_matrix(f.fd, m, mbytes, NULL), EOPNOTSUPP,
			  "unset ports kfly k=2: GET_MATRIX as bits");
		straight_maps(&f, maps);
		ok = !set_maps(f.fd, maps, pmb) && !get_matrix(f.fd, m, mbytes, NULL);
		for (i = 0; ok && i < mbytes / 8; i++)
			ok = !m[i];
		tap_check(ok, "kfly k=2: all ports set again: the bit matrix reads, straight");
	}
	free(maps), free(got), free(m), free(t), free(want);
	fab_del(&f);
}

/* The port-map chunk of a fabric-get reply */
struct nl_maps {
	__u8 *maps;
	__u64 bytes, offset, got;
};

static void nl_port_map(struct nlmsghdr *h, void *arg)
{
	struct nl_maps *m = arg;
	struct nlattr *a;
	void *end;

	for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a)) {
		__u32 len = a->nla_len - NLA_HDRLEN;

		switch (a->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_MATRIX_BYTES:
			m->bytes = attr_u64(a);
			break;
		case BFLY_A_MATRIX_OFFSET:
			m->offset = attr_u64(a);
			break;
		case BFLY_A_PORT_MAP:
			if (len <= m->bytes) {
				memcpy(m->maps, (__u8 *)a + NLA_HDRLEN, len);
				m->got = len;
			}
			break;
		}
	}
}

/*
 * Netlink on a k-ary n-fly: switch-set of the whole port maps and of one
 * node's map, fabric-get with the matrix wanted carries the port maps.
 */
static void maps_netlink(__u32 topology, __u32 k, __u32 ports)
{
	struct nl_maps nm = { 0 };
	struct fab f;
	char what[64];
	__u64 pmb, gen = 0, gen2 = 0, at;
	__u8 *maps, *got, map[64];
	size_t nest;
	__u32 node, p;
	int err;

	snprintf(what, sizeof(what), "netlink maps %s k=%u N=%u", topo_name(topology), k, ports);
	if (fab_new(&f, topology, ports, k, NULL)) {
		tap_check(0, "%s: fabric-new (%s)", what, nl_extack);
		fab_del(&f);
		return;
	}
	pmb = f.info.port_map_bytes;
	maps = malloc(pmb);
	got = malloc(pmb);
	nm.maps = calloc(1, pmb);
	nm.bytes = pmb;
	get_maps(f.fd, got, pmb, &gen);
	random_maps(&f, maps);
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	put(BFLY_A_PORT_MAP, maps, pmb);
	err = nl_call();
	tap_check(!err && !get_maps(f.fd, got, pmb, &gen2) && !memcmp(got, maps, pmb) &&
		  gen2 == gen + 1, "%s: switch-set port-map replaces every map (%d)", what, err);

	node = rnd(f.info.nodes_per_stage);
	for (p = 0; p < k; p++)
		map[p] = k - 1 - p;
	msg_start(family, NLM_F_ACK, BFLY_CMD_SWITCH_SET);
	put_u32(BFLY_A_ID, f.id);
	nest = put(BFLY_A_SWITCH | NLA_F_NESTED, NULL, 0);
	put_u32(BFLY_A_SWITCH_STAGE, f.info.node_stages - 1);
	put_u32(BFLY_A_SWITCH_NODE, node);
	put(BFLY_A_SWITCH_MAP, map, k);
	nest_end(nest);
	err = nl_call();
	at = ((__u64)(f.info.node_stages - 1) * f.info.nodes_per_stage + node) * k;
	memcpy(maps + at, map, k);
	tap_check(!err && !get_maps(f.fd, got, pmb, &gen) && !memcmp(got, maps, pmb) &&
		  gen == gen2 + 1, "%s: switch-set of one node's map changes that node (%d)",
		  what, err);

	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_GET);
	put_u32(BFLY_A_ID, f.id);
	put_u32(BFLY_A_WANT, BFLY_WANT_MATRIX);
	err = nl_call_replies(nl_port_map, &nm);
	tap_check(!err && nm.bytes == pmb && !nm.offset && nm.got == pmb &&
		  !memcmp(nm.maps, maps, pmb),
		  "%s: fabric-get with the matrix: port-map of %llu bytes (%d)", what,
		  (unsigned long long)nm.got, err);
	free(maps), free(got), free(nm.maps);
	fab_del(&f);
}

void test_maps(void)
{
	static const __u32 two[] = {
		BFLY_TOPO_BUTTERFLY, BFLY_TOPO_BFLY2, BFLY_TOPO_BFLY_TWICE, BFLY_TOPO_BENES,
		BFLY_TOPO_KFLY,
	};
	double t0 = now_s();
	__u32 i;

	for (i = 0; i < ARRAY_SIZE(two); i++) {
		maps_2x2(two[i], 8);
		maps_2x2(two[i], 256);
	}
	maps_unset(2, 16);
	maps_unset(3, 27);
	maps_unset(5, 125);
	maps_netlink(BFLY_TOPO_KFLY, 4, 64);
	maps_netlink(BFLY_TOPO_KFLY, 3, 27);
	maps_netlink(BFLY_TOPO_FLATFLY, 5, 25);
	report_time("maps", t0);
}
