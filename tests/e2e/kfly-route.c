// SPDX-License-Identifier: GPL-2.0
/*
 * kfly-test route, apply and exhaustive: destination-digit routing on
 * k-ary n-flies and flattened butterflies of radix 2 to 8. A setting made
 * at random realizes a permutation (TRACE) that routes back to that very
 * setting without conflict, by destination and by labels, dry and (apply)
 * applied; random permutations get the library's conflicts and settings,
 * their first stage is the window test's, and the settings of a refused
 * route, set and traced, deliver exactly the packets never refused.
 * LINK_LOAD follows the settings and the labels. Applied routes come last,
 * in a part of their own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "e2e-util.h"
#include "kfly-test.h"
#include "model.h"

#define CAP 16384

/* The buffers of one fabric's checks */
struct bufs {
	__u8 *set, *got, *exp;
	__u32 *perm, *back, *want, *load, *walk;
	__u64 *labels;
	struct bfly_port_conflict *list, *exp_list;
	unsigned char *refused;
};

static bool is_perm(const __u32 *p, __u32 n)
{
	unsigned char *seen = calloc(n, 1);
	bool ok = seen;
	__u32 i;

	for (i = 0; ok && i < n; i++) {
		ok = p[i] < n && !seen[p[i]];
		if (ok)
			seen[p[i]] = 1;
	}
	free(seen);
	return ok;
}

/* " at byte I: G, expected W" for the first byte where @got and @want differ */
static const char *first_diff(const __u8 *got, const __u8 *want, __u64 bytes)
{
	static char why[80];
	__u64 i;

	for (i = 0; i < bytes && got[i] == want[i]; i++)
		;
	if (i == bytes)
		return "";
	snprintf(why, sizeof(why), " (byte %llu: %u, expected %u)", (unsigned long long)i,
		 got[i], want[i]);
	return why;
}

/*
 * The link loads of packets sent by destination digits (@dest[i] from
 * input i), walked through the library's wiring: entry e * N + a counts
 * the packets on link address a after node stage e.
 */
static void label_loads(const struct fab *f, const __u32 *dest, __u32 *load)
{
	__u32 k = f->info.radix, n = f->info.node_stages, N = f->info.ports, i, e, a;

	memset(load, 0, (size_t)n * N * sizeof(*load));
	for (i = 0; i < N; i++) {
		a = i;
		for (e = 0; e < n; e++) {
			a = a - a % k + digit(dest[i], k, n - 1 - e);
			load[(size_t)e * N + a]++;
			if (e + 1 < n)
				a = model_kfly_link(e, a);
		}
	}
}

/*
 * LINK_LOAD by the labels @labels, or by the settings without them: 0, -1
 * on error, 1 when a flatfly refuses it with EOPNOTSUPP (the contract
 * names link loads for the k-ary n-fly only).
 */
static int link_load(const struct fab *f, const __u64 *labels, __u32 *load, __u32 *mll)
{
	struct bfly_link_load l = {
		.size = sizeof(l),
		.flags = labels ? BFLY_ROUTE_LABELS : 0,
		.ports = f->info.ports,
		.label_bits = labels ? f->info.node_stages : 0,
		.labels_ptr = (uintptr_t)labels,
		.load_ptr = (uintptr_t)load,
		.load_entries = (__u64)f->info.node_stages * f->info.ports,
	};
	int ret = ioctl(f->fd, BFLY_IOC_LINK_LOAD, &l);

	*mll = l.max_link_load;
	if (ret && errno == EOPNOTSUPP && f->info.topology == BFLY_TOPO_FLATFLY) {
		printf("# bfly%u: flatfly: LINK_LOAD is EOPNOTSUPP\n", f->id);
		return 1;
	}
	return ret;
}

/* SET_MATRIX of random maps and their permutation (TRACE) in b->perm. */
static bool set_random(const struct fab *f, struct bufs *b, const char *what, __u64 *gen)
{
	__u64 pmb = f->info.port_map_bytes;
	__u32 N = f->info.ports;
	bool ok;

	random_maps(f, b->set);
	tap_check(!set_maps(f->fd, b->set, pmb), "%s: SET_MATRIX random port maps", what);
	ok = !get_maps(f->fd, b->got, pmb, gen) && !memcmp(b->got, b->set, pmb);
	tap_check(ok, "%s: GET_MATRIX gives them back, generation %llu", what,
		  (unsigned long long)*gen);
	model_kfly_trace(b->set, b->want);
	ok = !trace(f->fd, b->perm, N, NULL) && !memcmp(b->perm, b->want, N * sizeof(__u32));
	tap_check(ok && is_perm(b->perm, N), "%s: TRACE is the library's permutation", what);
	return ok;
}

/* LINK_LOAD by the settings, all set: every link carries one packet. */
static void loads_of_settings(const struct fab *f, struct bufs *b, const char *what)
{
	__u32 i, mll = 0;
	bool ok;
	int ret;

	ret = link_load(f, NULL, b->load, &mll);
	ok = ret == 1 || (!ret && mll == 1);
	for (i = 0; !ret && ok && i < f->info.node_stages * f->info.ports; i++)
		ok = b->load[i] == 1;
	tap_check(ok, "%s: LINK_LOAD by the settings: every link carries 1 (MLL %u)", what, mll);
}

/*
 * A random setting's permutation routes back to that setting without
 * conflict, dry, by destination and by labels; LINK_LOAD follows the
 * settings.
 */
static void realizable(const struct fab *f, struct bufs *b, const char *what)
{
	__u32 N = f->info.ports, n = f->info.node_stages, i;
	__u64 pmb = f->info.port_map_bytes, gen = 0;
	struct bfly_route r;
	bool ok;

	set_random(f, b, what, &gen);
	loads_of_settings(f, b, what);
	memset(b->got, 0xee, pmb);
	r = route_args(f, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_CONFLICT_PORTS,
		       b->perm, b->got, pmb, b->list, CAP);
	ok = !ioctl(f->fd, BFLY_IOC_ROUTE, &r);
	tap_check(ok && !r.conflicts_count && r.first_conflict_stage == BFLY_NO_CONFLICT &&
		  r.method == BFLY_METHOD_SELF_ROUTING && r.generation == gen,
		  "%s: dry run routes it without conflict (%s, %u conflicts, method %u)", what,
		  ok ? "0" : strerrorname_np(errno), r.conflicts_count, r.method);
	tap_check(!memcmp(b->got, b->set, pmb), "%s: ... to exactly the random maps%s", what,
		  first_diff(b->got, b->set, pmb));

	for (i = 0; i < N; i++)
		b->labels[i] = b->perm[i];
	memset(b->got, 0xee, pmb);
	r = route_args(f, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_LABELS, NULL,
		       b->got, pmb, NULL, 0);
	r.labels_ptr = (uintptr_t)b->labels;
	r.label_bits = n;
	ok = !ioctl(f->fd, BFLY_IOC_ROUTE, &r);
	tap_check(ok && !r.conflicts_count && r.method == BFLY_METHOD_LABELS &&
		  !memcmp(b->got, b->set, pmb),
		  "%s: labels of %u digits (the destinations) route to the same maps (%s, method %u)",
		  what, n, ok ? "0" : strerrorname_np(errno), r.method);
}

/*
 * Routes applied: a random setting's permutation, routed on a straight
 * fabric, installs that setting (GET_MATRIX, TRACE, LINK_LOAD); a
 * permutation with conflicts is refused and changes nothing.
 */
static void applied(const struct fab *f, struct bufs *b, const char *what)
{
	__u32 N = f->info.ports, i, count = 0, first = 0;
	__u64 pmb = f->info.port_map_bytes, gen = 0, gen2 = ~0ULL;
	struct maps_snapshot s;
	struct bfly_route r;
	int err;
	bool ok;

	set_random(f, b, what, &gen);
	straight_maps(f, b->exp);
	model_kfly_trace(b->exp, b->want);
	ok = !set_maps(f->fd, b->exp, pmb) && !trace(f->fd, b->back, N, &gen) &&
	     !memcmp(b->back, b->want, N * sizeof(__u32));
	tap_check(ok, "%s: straight again: TRACE is the library's", what);
	memset(b->got, 0xee, pmb);
	r = route_args(f, BFLY_ROUTE_PORT_MAP, b->perm, b->got, pmb, NULL, 0);
	ok = !ioctl(f->fd, BFLY_IOC_ROUTE, &r);
	tap_check(ok && r.generation == gen + 1 && !memcmp(b->got, b->set, pmb),
		  "%s: ROUTE applies it: generation %llu -> %llu, the random maps%s", what,
		  (unsigned long long)gen, (unsigned long long)r.generation,
		  first_diff(b->got, b->set, pmb));
	memset(b->got, 0xee, pmb);
	ok = !get_maps(f->fd, b->got, pmb, &gen2);
	tap_check(ok && !memcmp(b->got, b->set, pmb) && gen2 == gen + 1,
		  "%s: GET_MATRIX after the route: the random maps, generation %llu%s", what,
		  (unsigned long long)gen2, first_diff(b->got, b->set, pmb));
	ok = !trace(f->fd, b->back, N, NULL);
	for (i = 0; ok && i < N && b->back[i] == b->perm[i]; i++)
		;
	tap_check(ok && i == N, "%s: TRACE after the route gives the permutation back%s", what,
		  i < N ? " (not all inputs)" : "");
	loads_of_settings(f, b, what);

	for (i = 0; i < 8 && !count; i++) {
		random_perm(b->perm, N, &rnd_state);
		model_kfly_route(b->perm, b->exp, b->exp_list, CAP, &count, &first);
	}
	if (!count)
		return;
	ok = snap_take(f, &s);
	r = route_args(f, BFLY_ROUTE_PORT_MAP, b->perm, b->got, pmb, NULL, 0);
	err = ioctl(f->fd, BFLY_IOC_ROUTE, &r) ? errno : 0;
	tap_check(err == EBUSY && r.conflicts_count == count,
		  "%s: applying a permutation with conflicts: EBUSY (%s), %u conflicts", what,
		  err ? strerrorname_np(err) : "0", r.conflicts_count);
	tap_check(ok && snap_same(f, &s), "%s: ... settings and generation unchanged", what);
}

/*
 * A random permutation: the library's conflicts and maps, the window
 * test's first stage; its maps, set and traced, deliver the packets never
 * refused and only those; LINK_LOAD by its labels is the walk's.
 */
static void random_route(const struct fab *f, struct bufs *b, const char *what,
			 unsigned long *bad)
{
	__u32 N = f->info.ports, n = f->info.node_stages, i, listed, count = 0, first = 0;
	__u32 mll = 0, win;
	__u64 pmb = f->info.port_map_bytes;
	struct bfly_route r;
	bool ok, delivered;
	int err, want;

	random_perm(b->perm, N, &rnd_state);
	memset(b->got, 0xee, pmb);
	memset(b->list, 0xee, CAP * sizeof(*b->list));
	r = route_args(f, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_CONFLICT_PORTS,
		       b->perm, b->got, pmb, b->list, CAP);
	err = ioctl(f->fd, BFLY_IOC_ROUTE, &r) ? errno : 0;
	if (model_kfly_route(b->perm, b->exp, b->exp_list, CAP, &count, &first)) {
		bad[0]++;
		return;
	}
	win = model_kfly_window_first_conflict(b->perm);
	want = !count ? 0 : count > CAP ? EOVERFLOW : EBUSY;
	listed = count < CAP ? count : CAP;
	if (err != want || r.method != BFLY_METHOD_SELF_ROUTING) {
		if (!bad[0]++)
			printf("#   %s: %s (expected %s), method %u\n", what,
			       err ? strerrorname_np(err) : "0", want ? strerrorname_np(want) : "0",
			       r.method);
	}
	if (r.first_conflict_stage != win || r.first_conflict_stage != first) {
		if (!bad[1]++)
			printf("#   %s: first conflict stage %d, window test %d\n", what,
			       (int)r.first_conflict_stage, (int)win);
	}
	if (r.conflicts_count != count ||
	    memcmp(b->list, b->exp_list, listed * sizeof(*b->list))) {
		if (!bad[2]++)
			printf("#   %s: %u conflicts, the library %u\n", what, r.conflicts_count,
			       count);
	}
	if (memcmp(b->got, b->exp, pmb) && !bad[3]++)
		printf("#   %s: the maps are not the library's\n", what);

	/* set the refused route's maps and trace them */
	memset(b->refused, 0, N);
	for (i = 0; i < listed; i++)
		if (b->list[i].input[1] < N)
			b->refused[b->list[i].input[1]] = 1;
	ok = !set_maps(f->fd, b->got, pmb) && !trace(f->fd, b->back, N, NULL);
	if (!ok && !bad[4]++)
		printf("#   %s: SET_MATRIX or TRACE of the route's maps: %s\n", what,
		       strerrorname_np(errno));
	for (i = 0; ok && count <= CAP && i < N; i++) {
		delivered = b->back[i] == b->perm[i];
		if (delivered == !b->refused[i])
			continue;
		ok = false;
		if (!bad[4]++)
			printf("#   %s: packet %u: traced to %u, destination %u, refused %u\n",
			       what, i, b->back[i], b->perm[i], b->refused[i]);
	}

	for (i = 0; i < N; i++)
		b->labels[i] = b->perm[i];
	label_loads(f, b->perm, b->walk);
	err = link_load(f, b->labels, b->load, &mll);
	ok = err == 1 || (!err && !memcmp(b->load, b->walk, (size_t)n * N * sizeof(__u32)) &&
			  mll == model_kfly_perm_mll(b->perm));
	if (!ok && !bad[5]++)
		printf("#   %s: LINK_LOAD by labels: MLL %u, the library %u\n", what, mll,
		       model_kfly_perm_mll(b->perm));
}

/* One fabric's dry checks, or with @apply its applied routes. */
static void route_shape(__u32 topology, __u32 k, __u32 ports, __u32 randoms, bool apply)
{
	static const char * const checks[] = {
		"verdict and method", "first conflict stage is the window test's",
		"conflicts (count, each entry with its port) are the library's",
		"settings are the library's",
		"their maps deliver exactly the packets never refused",
		"LINK_LOAD by labels is the walk's, MLL the library's",
	};
	unsigned long bad[6] = { 0 };
	struct bufs b;
	struct fab f;
	char what[64];
	double t0 = now_s();
	__u64 pmb, gen = ~0ULL;
	__u32 r, i;
	bool ok;

	snprintf(what, sizeof(what), "%s k=%u N=%u",
		 topology == BFLY_TOPO_KFLY ? "kfly" : "flatfly", k, ports);
	if (fab_new(&f, topology, ports, k, NULL) || model_kfly_init(k, ports)) {
		tap_check(0, "%s: fabric-new (%s)", what, nl_extack);
		fab_del(&f);
		return;
	}
	pmb = f.info.port_map_bytes;
	b.set = malloc(pmb);
	b.got = malloc(pmb);
	b.exp = malloc(pmb);
	b.perm = malloc(ports * sizeof(__u32));
	b.back = malloc(ports * sizeof(__u32));
	b.want = malloc(ports * sizeof(__u32));
	b.load = malloc((size_t)f.info.node_stages * ports * sizeof(__u32));
	b.walk = malloc((size_t)f.info.node_stages * ports * sizeof(__u32));
	b.labels = malloc(ports * sizeof(__u64));
	b.list = malloc(CAP * sizeof(*b.list));
	b.exp_list = calloc(CAP, sizeof(*b.exp_list));
	b.refused = malloc(ports);

	if (apply) {
		applied(&f, &b, what);
		goto out;
	}
	straight_maps(&f, b.exp);
	ok = !get_maps(f.fd, b.got, pmb, &gen) && !memcmp(b.got, b.exp, pmb);
	tap_check(ok, "%s: a new fabric is straight (generation %llu)", what,
		  (unsigned long long)gen);
	model_kfly_trace(b.exp, b.want);
	ok = !trace(f.fd, b.back, ports, NULL) &&
	     !memcmp(b.back, b.want, ports * sizeof(__u32));
	tap_check(ok, "%s: TRACE of a new fabric is the library's trace of straight maps", what);

	realizable(&f, &b, what);
	for (r = 0; r < randoms; r++)
		random_route(&f, &b, what, bad);
	for (i = 0; i < 6; i++)
		tap_check(!bad[i], "%s: %u random permutations: %s", what, randoms, checks[i]);
out:
	printf("# %s%s: %.1f s\n", what, apply ? ", applied" : "", now_s() - t0);
	free(b.set), free(b.got), free(b.exp), free(b.perm), free(b.back), free(b.want);
	free(b.load), free(b.walk), free(b.labels), free(b.list), free(b.exp_list);
	free(b.refused);
	fab_del(&f);
}

static const struct { __u32 topology, k, ports, randoms; } shapes[] = {
	{ BFLY_TOPO_KFLY, 3, 3, 4 }, { BFLY_TOPO_KFLY, 3, 9, 40 },
	{ BFLY_TOPO_KFLY, 3, 243, 20 }, { BFLY_TOPO_KFLY, 3, 59049, 2 },
	{ BFLY_TOPO_KFLY, 4, 16, 40 }, { BFLY_TOPO_KFLY, 4, 1024, 10 },
	{ BFLY_TOPO_KFLY, 4, 65536, 2 },
	{ BFLY_TOPO_KFLY, 5, 25, 40 }, { BFLY_TOPO_KFLY, 5, 3125, 4 },
	{ BFLY_TOPO_KFLY, 8, 64, 40 }, { BFLY_TOPO_KFLY, 8, 4096, 6 },
	{ BFLY_TOPO_KFLY, 8, 32768, 2 },
	{ BFLY_TOPO_FLATFLY, 3, 27, 20 }, { BFLY_TOPO_FLATFLY, 4, 256, 10 },
	{ BFLY_TOPO_FLATFLY, 2, 16, 20 },
};

/* Every shape's dry checks (route), or its applied routes (apply). */
void test_route(bool apply)
{
	double t0 = now_s();
	__u32 i;

	for (i = 0; i < ARRAY_SIZE(shapes); i++)
		route_shape(shapes[i].topology, shapes[i].k, shapes[i].ports, shapes[i].randoms,
			    apply);
	report_time(apply ? "apply" : "route", t0);
}

/* Set switch @m of @k ports to the @r-th permutation of them (@k! of them). */
static void switch_perm(__u8 *m, __u32 k, __u32 r)
{
	__u32 avail[8], i, j, f = 1;

	for (i = 0; i < k; i++)
		avail[i] = i;
	for (i = 2; i < k; i++)
		f *= i;
	for (i = 0; i < k; i++) {
		j = r / f;
		r %= f;
		m[i] = avail[j];
		memmove(&avail[j], &avail[j + 1], (k - 1 - j) * sizeof(avail[0]));
		if (k - 1 - i > 1)
			f /= k - 1 - i;
	}
}

/* Lexicographic rank of a permutation of 0 .. @n-1. */
static __u32 perm_rank(const __u32 *p, __u32 n)
{
	__u32 r = 0, i, j, less;

	for (i = 0; i < n; i++) {
		for (less = 0, j = i + 1; j < n; j++)
			less += p[j] < p[i];
		r = r * (n - i) + less;
	}
	return r;
}

/*
 * Every @stride-th of the 6^6 = 46656 settings of the 3-ary 2-fly, set
 * and traced: each its own permutation, the library's; every 97th routes
 * back to itself.
 */
void test_exhaustive(__u32 stride)
{
	const __u32 settings = 46656, N = 9, switches = 6;
	unsigned long distinct = 0, wrong = 0, failed = 0, routed = 0, unrouted = 0, tried = 0;
	unsigned char *seen = calloc(362880, 1);
	__u8 set[18], got[18];
	__u32 perm[9], want[9], s, r, sw;
	double t0 = now_s();
	struct bfly_route rt;
	struct fab f;

	if (fab_new(&f, BFLY_TOPO_KFLY, N, 3, NULL) || model_kfly_init(3, N) || !seen) {
		tap_check(0, "exhaustive: new kfly k=3 N=9 (%s)", nl_extack);
		fab_del(&f);
		return;
	}
	for (s = 0; s < settings; s += stride) {
		tried++;
		for (sw = 0, r = s; sw < switches; sw++, r /= 6)
			switch_perm(set + 3 * sw, 3, r % 6);
		if (set_maps(f.fd, set, sizeof(set)) || trace(f.fd, perm, N, NULL)) {
			failed++;
			continue;
		}
		model_kfly_trace(set, want);
		wrong += !is_perm(perm, N) || memcmp(perm, want, sizeof(perm));
		r = perm_rank(perm, N);
		distinct += !seen[r];
		seen[r] = 1;
		if (s % 97)
			continue;
		rt = route_args(&f, BFLY_ROUTE_DRY_RUN | BFLY_ROUTE_PORT_MAP, perm, got,
				sizeof(got), NULL, 0);
		routed++;
		unrouted += ioctl(f.fd, BFLY_IOC_ROUTE, &rt) || rt.conflicts_count ||
			    memcmp(got, set, sizeof(set));
	}
	tap_check(!failed, "3-ary 2-fly: %lu of the 46656 settings set and traced", tried);
	tap_check(!wrong, "3-ary 2-fly: every trace is a permutation, the library's");
	tap_check(distinct == tried, "3-ary 2-fly: %lu distinct permutations", distinct);
	tap_check(!unrouted, "3-ary 2-fly: %lu of them route back to their setting", routed);
	free(seen);
	fab_del(&f);
	report_time("exhaustive", t0);
}
