// SPDX-License-Identifier: GPL-2.0
/*
 * The k-ary n-fly (kfly) and the flattened butterfly (flatfly) end to end,
 * on fabrics made by netlink fabric-new (the module loaded with ports=0):
 *
 *   kfly-test butterfly [STRIDE]
 *                           k = 2 is the butterfly: every (STRIDE-th)
 *                           permutation of N = 8 and random ones of
 *                           N = 1024 and 2^16 route alike on both
 *                           (verdict, conflicts, settings)
 *   kfly-test route         destination-digit routing for k = 2 to 8, dry
 *                           (kfly-route.c)
 *   kfly-test apply         the same fabrics' routes applied
 *   kfly-test exhaustive [STRIDE]
 *                           every (STRIDE-th) setting of the 3-ary 2-fly
 *                           traced
 *   kfly-test info          the figures of a grid of fabrics (kfly-info.c)
 *   kfly-test maps          port maps on the 2 x 2 fabrics and k = 2
 *   kfly-test bad           refused input (kfly-bad.c)
 *   kfly-test device DEV TOPOLOGY-ID K N
 *                           the figures of a fabric made at load
 *
 * Expected settings, conflicts and windows come from the library
 * (kmod/lib/kfly.c, built natively: model.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e-util.h"
#include "kfly-test.h"
#include "model.h"

__u64 rnd_state = 0x9e3779b97f4a7c15ULL;

/* A random number below @n. */
__u32 rnd(__u32 n)
{
	return xorshift64(&rnd_state) % n;
}

/* Digit @i (0 the least significant) of @v in base @k. */
__u32 digit(__u32 v, __u32 k, __u32 i)
{
	while (i--)
		v /= k;
	return v % k;
}

void report_time(const char *part, double t0)
{
	printf("# kfly-test %s: %.1f s\n", part, now_s() - t0);
	fflush(stdout);
}

/* Collect the figures and the id of a fabric-new or fabric-get reply. */
void nl_figures(struct nlmsghdr *h, void *arg)
{
	struct figures *f = arg;
	struct nlattr *a;
	void *end;

	for (a = genl_attrs(h, &end); attr_ok(a, end); a = attr_next(a)) {
		__u64 v = attr_u64(a);

		switch (a->nla_type & NLA_TYPE_MASK) {
		case BFLY_A_ID:
			f->id = v;
			break;
		case BFLY_A_TOPOLOGY:
			f->topology = v;
			break;
		case BFLY_A_PORTS:
			f->ports = v;
			break;
		case BFLY_A_PORTS_LOG2:
			f->ports_log2 = v;
			break;
		case BFLY_A_NODE_STAGES:
			f->node_stages = v;
			break;
		case BFLY_A_NODES_PER_STAGE:
			f->nodes_per_stage = v;
			break;
		case BFLY_A_SWITCHES:
			f->switches = v;
			break;
		case BFLY_A_RADIX:
			f->radix = v;
			break;
		case BFLY_A_DEGREE:
			f->degree = v;
			break;
		case BFLY_A_DIAMETER:
			f->diameter = v;
			break;
		case BFLY_A_ROUTERS:
			f->routers = v;
			break;
		case BFLY_A_CHANNELS:
			f->channels = v;
			break;
		case BFLY_A_BISECTION:
			f->bisection = v;
			break;
		case BFLY_A_PORT_MAP_BYTES:
			f->port_map_bytes = v;
			break;
		}
	}
}

/* The radix and port map size the helpers need; a line when they are wrong. */
bool sane_info(const struct bfly_info *in)
{
	bool ok = in->radix >= 2 && in->radix <= BFLY_MAX_RADIX &&
		  in->port_map_bytes == (__u64)in->node_stages * in->ports &&
		  in->switches * in->radix == in->port_map_bytes;

	if (!ok)
		tap_check(0, "bfly%u: GET_INFO radix %u, port_map_bytes %llu: cannot go on",
			  in->id, in->radix, (unsigned long long)in->port_map_bytes);
	return ok;
}

/*
 * Make a fabric by netlink fabric-new (@radix RADIX_ABSENT: no radix
 * attribute), the reply's figures in *@reply when given, and open it:
 * 0 or -errno (the extended ack in nl_extack).
 */
int fab_new(struct fab *f, __u32 topology, __u32 ports, __u32 radix, struct figures *reply)
{
	struct figures r = { .id = ~0U };
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_NEW);
	put_u32(BFLY_A_TOPOLOGY, topology);
	put_u32(BFLY_A_PORTS, ports);
	if (radix != RADIX_ABSENT)
		put_u32(BFLY_A_RADIX, radix);
	err = nl_call_replies(nl_figures, &r);
	if (reply)
		*reply = r;
	if (err)
		return err;
	f->id = r.id;
	snprintf(f->dev, sizeof(f->dev), "/dev/bfly%u", r.id);
	f->fd = open(f->dev, O_RDWR);
	if (f->fd < 0)
		return -errno;
	f->info.size = sizeof(f->info);
	if (ioctl(f->fd, BFLY_IOC_GET_INFO, &f->info))
		return -errno;
	return sane_info(&f->info) ? 0 : -EPROTO;
}

/* Close and delete a fabric of fab_new(); a line only when that fails. */
void fab_del(struct fab *f)
{
	int err;

	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->id == ~0U || !f->dev[0])
		return;
	msg_start(family, NLM_F_ACK, BFLY_CMD_FABRIC_DEL);
	put_u32(BFLY_A_ID, f->id);
	err = nl_call();
	if (err)
		tap_check(0, "fabric-del bfly%u: %s", f->id, strerror(-err));
	f->dev[0] = 0;
}

/* GET_MATRIX as port maps: what ioctl() returns. */
int get_maps(int fd, __u8 *maps, __u64 bytes, __u64 *gen)
{
	struct bfly_matrix a = {
		.size = sizeof(a),
		.flags = BFLY_MATRIX_PORT_MAP,
		.matrix_ptr = (uintptr_t)maps,
		.matrix_bytes = bytes,
	};
	int ret = ioctl(fd, BFLY_IOC_GET_MATRIX, &a);

	if (!ret && gen)
		*gen = a.generation;
	return ret;
}

/* SET_MATRIX as port maps: what ioctl() returns. */
int set_maps(int fd, const __u8 *maps, __u64 bytes)
{
	struct bfly_matrix a = {
		.size = sizeof(a),
		.flags = BFLY_MATRIX_PORT_MAP,
		.matrix_ptr = (uintptr_t)maps,
		.matrix_bytes = bytes,
	};

	return ioctl(fd, BFLY_IOC_SET_MATRIX, &a);
}

/* Every switch straight: input port p to output port p. */
void straight_maps(const struct fab *f, __u8 *maps)
{
	__u64 i;

	for (i = 0; i < f->info.port_map_bytes; i++)
		maps[i] = i % f->info.radix;
}

/* Every switch a random permutation of its ports. */
void random_maps(const struct fab *f, __u8 *maps)
{
	__u32 k = f->info.radix, p, j;
	__u64 sw;
	__u8 t;

	for (sw = 0; sw < f->info.switches; sw++) {
		__u8 *m = maps + sw * k;

		for (p = 0; p < k; p++)
			m[p] = p;
		for (p = k - 1; p > 0; p--) {
			j = rnd(p + 1);
			t = m[p];
			m[p] = m[j];
			m[j] = t;
		}
	}
}

bool snap_take(const struct fab *f, struct maps_snapshot *s)
{
	s->maps = malloc(f->info.port_map_bytes);
	return s->maps && !get_maps(f->fd, s->maps, f->info.port_map_bytes, &s->gen);
}

/* True when the settings and generation are still those of @s (freed). */
bool snap_same(const struct fab *f, struct maps_snapshot *s)
{
	__u8 *now = malloc(f->info.port_map_bytes);
	__u64 gen = ~0ULL;
	bool same;

	same = now && !get_maps(f->fd, now, f->info.port_map_bytes, &gen) &&
	       gen == s->gen && !memcmp(now, s->maps, f->info.port_map_bytes);
	free(now);
	free(s->maps);
	s->maps = NULL;
	return same;
}

/* A ROUTE of the permutation @perm with the given outputs. */
struct bfly_route route_args(const struct fab *f, __u32 flags, const __u32 *perm,
			     void *set, __u64 set_bytes, void *conflicts, __u32 max)
{
	struct bfly_route r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.flags = flags;
	r.ports = f->info.ports;
	r.perm_ptr = (uintptr_t)perm;
	r.matrix_ptr = (uintptr_t)set;
	r.matrix_bytes = set ? set_bytes : 0;
	r.conflicts_ptr = (uintptr_t)conflicts;
	r.conflicts_max = conflicts ? max : 0;
	return r;
}

/* ---- k = 2 is the butterfly ---- */

/* What differed between the two fabrics, over every permutation tried */
struct same_count {
	unsigned long perms, verdict, conflicts, ports, settings, bits;
};

/* The next permutation in lexicographic order; false after the last. */
static bool next_perm(__u32 *p, __u32 n)
{
	__u32 i = n - 1, j = n - 1, t;

	while (i > 0 && p[i - 1] >= p[i])
		i--;
	if (!i)
		return false;
	while (p[j] <= p[i - 1])
		j--;
	t = p[i - 1];
	p[i - 1] = p[j];
	p[j] = t;
	for (j = n - 1; i < j; i++, j--) {
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return true;
}

static void say_perm(const char *what, const __u32 *perm, __u32 n)
{
	__u32 i;

	printf("#   %s:", what);
	for (i = 0; i < n && i < 16; i++)
		printf(" %u", perm[i]);
	printf("%s\n", n > 16 ? " ..." : "");
}

/*
 * Route @perm dry on the butterfly @bf and the 2-ary n-fly @kf: the same
 * verdict, conflicts and settings (the k-ary n-fly's port maps as bits);
 * each conflict's port is the destination digit of both packets. With
 * @bits, the 2-ary n-fly's bit matrix and plain conflicts too.
 */
static void same_route(const struct fab *bf, const struct fab *kf, const __u32 *perm,
		       __u32 cap, bool bits, struct same_count *c)
{
	static struct bfly_conflict *bl, *kb;
	static struct bfly_port_conflict *kl;
	static __u64 *bm, *km_bits;
	static __u8 *km;
	static __u32 have, have_ports;
	__u64 mbytes = BFLY_MATRIX_BYTES(bf->info.switches), i;
	struct bfly_route rb, rk, rk2;
	__u32 n = kf->info.node_stages, e, listed;
	int eb, ek, ek2 = 0;
	bool bad;

	if (have != cap || have_ports != kf->info.ports) {
		free(bl), free(kb), free(kl), free(bm), free(km_bits), free(km);
		bl = calloc(cap, sizeof(*bl));
		kb = calloc(cap, sizeof(*kb));
		kl = calloc(cap, sizeof(*kl));
		bm = calloc(1, mbytes);
		km_bits = calloc(1, mbytes);
		km = calloc(1, kf->info.port_map_bytes);
		have = cap;
		have_ports = kf->info.ports;
	}
	c->perms++;
	rb = route_args(bf, BFLY_ROUTE_DRY_RUN, perm, bm, mbytes, bl, cap);
	eb = ioctl(bf->fd, BFLY_IOC_ROUTE, &rb) ? errno : 0;
	rk = route_args(kf, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_CONFLICT_PORTS,
			perm, km, kf->info.port_map_bytes, kl, cap);
	ek = ioctl(kf->fd, BFLY_IOC_ROUTE, &rk) ? errno : 0;

	bad = eb != ek || (eb && eb != EBUSY && eb != EOVERFLOW) ||
	      rb.method != BFLY_METHOD_SELF_ROUTING || rk.method != BFLY_METHOD_SELF_ROUTING;
	if (bad && !c->verdict++)
		printf("#   verdict: butterfly %s method %u, kfly %s method %u\n",
		       eb ? strerrorname_np(eb) : "0", rb.method,
		       ek ? strerrorname_np(ek) : "0", rk.method);
	listed = rb.conflicts_count < cap ? rb.conflicts_count : cap;
	bad = rb.conflicts_count != rk.conflicts_count ||
	      rb.first_conflict_stage != rk.first_conflict_stage;
	for (i = 0; !bad && i < listed; i++)
		bad = bl[i].stage != kl[i].stage || bl[i].node != kl[i].node ||
		      bl[i].input[0] != kl[i].input[0] || bl[i].input[1] != kl[i].input[1];
	if (bad && !c->conflicts++) {
		printf("#   conflicts: butterfly %u (first stage %d), kfly %u (first stage %d)\n",
		       rb.conflicts_count, (int)rb.first_conflict_stage, rk.conflicts_count,
		       (int)rk.first_conflict_stage);
		say_perm("permutation", perm, kf->info.ports);
	}
	for (i = 0, bad = false; i < listed && i < rk.conflicts_count; i++) {
		e = n - 1 - kl[i].stage;
		bad |= kl[i].stage >= n || kl[i].pad ||
		       kl[i].input[0] >= kf->info.ports || kl[i].input[1] >= kf->info.ports ||
		       kl[i].port != digit(perm[kl[i].input[0]], 2, e) ||
		       kl[i].port != digit(perm[kl[i].input[1]], 2, e);
	}
	if (bad && !c->ports++)
		say_perm("a conflict's port is not both destinations' digit", perm,
			 kf->info.ports);
	for (i = 0, bad = false; i < bf->info.switches; i++)
		bad |= km[2 * i] > 1 || km[2 * i + 1] != 1 - km[2 * i] ||
		       ((bm[i / 64] >> (i % 64)) & 1) != km[2 * i];
	if (bad && !c->settings++)
		say_perm("settings differ", perm, kf->info.ports);
	if (!bits)
		return;
	memset(km_bits, 0xa5, mbytes);
	rk2 = route_args(kf, BFLY_ROUTE_DRY_RUN, perm, km_bits, mbytes, kb, cap);
	ek2 = ioctl(kf->fd, BFLY_IOC_ROUTE, &rk2) ? errno : 0;
	bad = ek2 != eb || memcmp(km_bits, bm, mbytes) ||
	      rk2.conflicts_count != rb.conflicts_count ||
	      memcmp(kb, bl, listed * sizeof(*bl));
	if (bad && !c->bits++)
		printf("#   2-ary n-fly with the bit matrix: %s, %u conflicts\n",
		       ek2 ? strerrorname_np(ek2) : "0", rk2.conflicts_count);
}

static void say_same(const char *what, const struct same_count *c)
{
	tap_check(!c->verdict, "%s: %lu permutations, same verdict and method", what, c->perms);
	tap_check(!c->conflicts, "%s: same conflicts (count, first stage, each entry)", what);
	tap_check(!c->ports, "%s: each conflict's port is both packets' destination digit",
		  what);
	tap_check(!c->settings, "%s: kfly port maps are the butterfly's bits", what);
	tap_check(!c->bits, "%s: kfly k = 2 routes to the same bit matrix and plain conflicts",
		  what);
}

static void test_butterfly(__u32 stride)
{
	static const struct { __u32 ports, randoms, cap; } sizes[] = {
		{ 1024, 6, 1 << 13 }, { 1 << 16, 3, 1 << 14 },
	};
	struct fab bf, kf;
	struct same_count c;
	double t0 = now_s();
	__u32 perm[8], i, r, a, *p;
	unsigned long at = 0;
	char what[80];

	tap_check(!fab_new(&bf, BFLY_TOPO_BUTTERFLY, 8, RADIX_ABSENT, NULL), "new butterfly 8");
	tap_check(!fab_new(&kf, BFLY_TOPO_KFLY, 8, 2, NULL), "new kfly radix 2, 8 ports");
	if (bf.fd < 0 || kf.fd < 0)
		return;
	memset(&c, 0, sizeof(c));
	for (i = 0; i < 8; i++)
		perm[i] = i;
	do {
		if (at++ % stride == 0)
			same_route(&bf, &kf, perm, 64, c.perms % 64 == 0, &c);
	} while (next_perm(perm, 8));
	snprintf(what, sizeof(what),
		 "k = 2 is the butterfly, N = 8, one in %u of all %lu permutations", stride, at);
	say_same(what, &c);
	fab_del(&bf);
	fab_del(&kf);
	report_time("butterfly N = 8", t0);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		__u32 ports = sizes[i].ports;

		if (fab_new(&bf, BFLY_TOPO_BUTTERFLY, ports, RADIX_ABSENT, NULL) ||
		    fab_new(&kf, BFLY_TOPO_KFLY, ports, 2, NULL)) {
			tap_check(0, "new butterfly and kfly radix 2 of %u ports", ports);
			fab_del(&bf);
			continue;
		}
		p = malloc(ports * sizeof(*p));
		memset(&c, 0, sizeof(c));
		/* the identity first, then random permutations */
		for (r = 0; r <= sizes[i].randoms; r++) {
			if (r)
				random_perm(p, ports, &rnd_state);
			else
				for (a = 0; a < ports; a++)
					p[a] = a;
			same_route(&bf, &kf, p, sizes[i].cap, r < 2, &c);
		}
		snprintf(what, sizeof(what), "k = 2 is the butterfly, N = %u", ports);
		say_same(what, &c);
		free(p);
		fab_del(&bf);
		fab_del(&kf);
	}
	report_time("butterfly", t0);
}

int main(int argc, char **argv)
{
	const char *part = argc > 1 ? argv[1] : "";
	__u32 stride = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
	int one = 1;

	if (!strcmp(part, "device") && argc == 6) {
		test_device(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			    strtoul(argv[5], NULL, 0));
		return 0;
	}
	if (nl_open()) {
		tap_check(0, "kfly-test %s: the netlink family bfly", part);
		return 1;
	}
	setsockopt(nlfd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nlfd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (!strcmp(part, "butterfly")) {
		test_butterfly(stride ? stride : 1);
	} else if (!strcmp(part, "route")) {
		test_route(false);
	} else if (!strcmp(part, "apply")) {
		test_route(true);
	} else if (!strcmp(part, "exhaustive")) {
		test_exhaustive(stride ? stride : 1);
	} else if (!strcmp(part, "info")) {
		test_info();
	} else if (!strcmp(part, "maps")) {
		test_maps();
	} else if (!strcmp(part, "bad")) {
		test_bad();
	} else {
		fprintf(stderr, "usage: %s butterfly|exhaustive [STRIDE]\n"
			"       %s route|apply|info|maps|bad\n"
			"       %s device DEV TOPOLOGY-ID K N\n", argv[0], argv[0], argv[0]);
		return 2;
	}
	return 0;
}
