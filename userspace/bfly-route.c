// SPDX-License-Identifier: GPL-2.0
/*
 * bfly-route: route a permutation (or labelled packets) through a bfly
 * fabric with BFLY_IOC_ROUTE, then print the switch matrix stage by stage
 * and the permutation it realizes (BFLY_IOC_TRACE). An example of the
 * routing ioctls.
 *
 *   bfly-route [-n] [-l] [-d DEVICE] VALUE...
 *
 * VALUE i is the output input i must reach, or with -l its label (a
 * binary string of node_stages bits, most significant first, or a number;
 * on a fabric of radix k, node_stages base-k digits).
 * -n computes the settings without applying them (a dry run). Every value
 * is checked here first: a permutation of 0 .. N-1, labels of node_stages
 * digits; the message names the value.
 *
 * On the k-ary n-fly and the flattened butterfly (kfly, flatfly) the
 * settings are port maps (BFLY_ROUTE_PORT_MAP) and the conflicts name
 * their port (BFLY_ROUTE_CONFLICT_PORTS); the 2 x 2 fabrics keep the bit
 * matrix, so that this works against kernels without those flags.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "cmdline.h"

#define MAX_CONFLICTS 16

static const char *method_name(__u32 method)
{
	switch (method) {
	case BFLY_METHOD_SELF_ROUTING:
		return "self-routing by destination";
	case BFLY_METHOD_LOOPING:
		return "looping algorithm";
	case BFLY_METHOD_LABELS:
		return "label self-routing";
	default:
		return "none";
	}
}

/*
 * Did the kernel write the radix and the figures? It sets size to the
 * bytes it wrote; those fields came together, in BFLY_INFO_SIZE_VER1.
 */
#define GOT_FIGURES(info) ((info).size >= BFLY_INFO_SIZE_VER1)

static void print_help(FILE *f)
{
	fprintf(f, "usage: bfly-route [-n] [-l] [-d DEVICE] VALUE...\n"
		   "Route a permutation through a bfly fabric (default /dev/bfly0).\n"
		   "  VALUE i              the output input i must reach, one per port:\n"
		   "                       a permutation of 0 .. N-1 (with -l: its label,\n"
		   "                       node-stages binary digits, base-k digits on\n"
		   "                       a fabric of radix k <= 10, or a number)\n"
		   "  -n, --dry-run        compute the settings, do not apply them\n"
		   "  -l, --labels         the values are labels\n"
		   "  -d, --device DEVICE  the fabric\n"
		   "  -h, --help           this help\n"
		   "  -V, --version        the version\n"
		   "Numbers are decimal, or hexadecimal after 0x. See bfly-route(1).\n");
}

/* Exit with status 2 and "bfly-route: value @i: ..." */
static void bad_value(int i, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bfly-route: value %d: ", i);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* The largest label of @bits digits base @radix: radix^bits - 1, or 2^64 - 1 */
static unsigned long long label_max(__u32 radix, __u32 bits)
{
	unsigned long long max = 1;
	__u32 j;

	for (j = 0; j < bits; j++) {
		if (max > ~0ULL / radix)
			return ~0ULL;
		max *= radix;
	}
	return max - 1;
}

/* Is @s exactly @bits digits base @radix (radix up to 10)? */
static int is_digits(const char *s, __u32 bits, __u32 radix)
{
	const char *digits = "0123456789";
	char set[11];

	if (radix > 10 || strlen(s) != bits)
		return 0;
	memcpy(set, digits, radix);
	set[radix] = 0;
	return strspn(s, set) == bits;
}

/*
 * Check VALUE @i (from 1) against the fabric: with @labels a label of
 * @bits digits base @radix (exactly @bits digits, or a number), else an
 * output port not given before (@seen, @ports entries). Exits with status
 * 2 and a message naming the value when it is not.
 */
static __u64 parse_value(int i, const char *s, int labels, __u32 bits, __u32 radix,
			 __u32 ports, int *seen)
{
	unsigned long long v = 0, max;

	if (labels && is_digits(s, bits, radix))
		return strtoull(s, NULL, radix);
	max = labels ? label_max(radix, bits) : ports - 1;
	switch (parse_num(s, max, &v)) {
	case NUM_OK:
		break;
	case NUM_NAN:
		bad_value(i, "'%s' is not a number", s);
		break;
	case NUM_RANGE:
		if (labels && radix == 2)
			bad_value(i, "label %s is out of range (0 .. %llu, %u bits)", s, max, bits);
		if (labels)
			bad_value(i, "label %s is out of range (0 .. %llu, %u base-%u digits)",
				  s, max, bits, radix);
		bad_value(i, "%s is out of range: not a permutation of 0 .. %u", s, ports - 1);
		break;
	}
	if (!labels) {
		if (seen[v])
			bad_value(i, "%llu repeats value %d: not a permutation of 0 .. %u",
				  v, seen[v], ports - 1);
		seen[v] = i;
	}
	return v;
}

static void print_matrix(const struct bfly_info *info, const __u64 *m)
{
	__u32 s, v;

	for (s = 0; s < info->node_stages; s++) {
		printf("  stage %2u: ", s);
		for (v = 0; v < info->nodes_per_stage; v++) {
			__u64 b = (__u64)s * info->nodes_per_stage + v;

			putchar('0' + ((m[b / 64] >> (b % 64)) & 1));
		}
		putchar('\n');
	}
}

/* Port maps: one line per stage, each switch's map, '-' for none */
static void print_port_maps(const struct bfly_info *info, const __u8 *m)
{
	__u32 s, v, p;
	const __u8 *map;

	for (s = 0; s < info->node_stages; s++) {
		printf("  stage %2u:", s);
		for (v = 0; v < info->nodes_per_stage; v++) {
			map = m + ((__u64)s * info->nodes_per_stage + v) * info->radix;
			printf(" [");
			for (p = 0; p < info->radix; p++) {
				if (map[p] == BFLY_PORT_UNSET)
					printf("%s-", p ? " " : "");
				else
					printf("%s%u", p ? " " : "", map[p]);
			}
			putchar(']');
		}
		putchar('\n');
	}
}

/* The conflicts of a refused route, with their port on a k x k fabric */
static void print_conflicts(const struct bfly_route *r, const void *buf, int ports)
{
	const struct bfly_port_conflict *pc = buf;
	const struct bfly_conflict *c = buf;
	__u32 i;

	printf("refused: %u internal conflicts, the first in node stage %u\n",
	       r->conflicts_count, r->first_conflict_stage);
	for (i = 0; i < r->conflicts_count && i < MAX_CONFLICTS; i++) {
		if (ports)
			printf("  stage %u node %u: inputs %u and %u ask for port %u\n",
			       pc[i].stage, pc[i].node, pc[i].input[0], pc[i].input[1],
			       pc[i].port);
		else
			printf("  stage %u node %u: inputs %u and %u ask for the same port\n",
			       c[i].stage, c[i].node, c[i].input[0], c[i].input[1]);
	}
}

int main(int argc, char **argv)
{
	/* Room for either kind of conflict entry */
	struct bfly_port_conflict conflicts[MAX_CONFLICTS];
	struct bfly_info info = { .size = sizeof(info) };
	const char *dev = "/dev/bfly0";
	struct bfly_trace tr = { .size = sizeof(tr) };
	struct bfly_route r = { .size = sizeof(r) };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "labels", no_argument, NULL, 'l' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	int labels = 0, dry = 0, kxk, opt, fd, ret, i, *seen;
	__u64 *lab, *hit, matrix_bytes;
	__u32 *perm, *back;
	void *m;

	/*
	 * Options before the values ('+'); a negative number is a value, to
	 * be refused as such, not an unknown option.
	 */
	while ((optind >= argc || !is_negative_number(argv[optind])) &&
	       (opt = getopt_long(argc, argv, "+nld:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			dry = 1;
			break;
		case 'l':
			labels = 1;
			break;
		case 'd':
			dev = optarg;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		case 'V':
			print_version("bfly-route");
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	fd = open(dev, dry ? O_RDONLY : O_RDWR);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		fprintf(stderr, "bfly-route: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	/* An older kernel writes no radix: its fabrics are all 2 x 2. */
	if (!GOT_FIGURES(info) || !info.radix)
		info.radix = 2;
	kxk = info.topology == BFLY_TOPO_KFLY || info.topology == BFLY_TOPO_FLATFLY ||
	      info.radix != 2;
	matrix_bytes = kxk ? info.port_map_bytes : BFLY_MATRIX_BYTES(info.switches);
	if (argc - optind != (int)info.ports) {
		fprintf(stderr, "bfly-route: %s has %u ports: give %u values\n",
			dev, info.ports, info.ports);
		return 2;
	}
	perm = calloc(info.ports, sizeof(*perm));
	back = calloc(info.ports, sizeof(*back));
	lab = calloc(info.ports, sizeof(*lab));
	seen = calloc(info.ports, sizeof(*seen));
	m = calloc(1, matrix_bytes ? matrix_bytes : 1);
	if (!perm || !back || !lab || !seen || !m) {
		fprintf(stderr, "bfly-route: out of memory\n");
		return 1;
	}
	for (i = 0; i < (int)info.ports; i++) {
		lab[i] = parse_value(i + 1, argv[optind + i], labels, info.node_stages,
				     info.radix, info.ports, seen);
		perm[i] = lab[i];
	}

	r.flags = (dry ? BFLY_ROUTE_DRY_RUN : 0) | (labels ? BFLY_ROUTE_LABELS : 0) |
		  (kxk ? BFLY_ROUTE_PORT_MAP | BFLY_ROUTE_CONFLICT_PORTS : 0);
	r.ports = info.ports;
	if (labels) {
		r.labels_ptr = (uintptr_t)lab;
		r.label_bits = info.node_stages;
	} else {
		r.perm_ptr = (uintptr_t)perm;
	}
	r.matrix_ptr = (uintptr_t)m;
	r.matrix_bytes = matrix_bytes;
	r.conflicts_ptr = (uintptr_t)conflicts;
	r.conflicts_max = MAX_CONFLICTS;
	hit = calloc(1, BFLY_MATRIX_BYTES(info.ports));
	if (!hit) {
		fprintf(stderr, "bfly-route: out of memory\n");
		return 1;
	}
	r.affected_ptr = (uintptr_t)hit;
	ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
	if (ret && errno == EHOSTUNREACH) {
		printf("%s: %u ports, %s: refused: %u packets would meet a fault\n",
		       dev, info.ports, method_name(r.method), r.affected_count);
		printf("  (%u faults on the fabric, %u stuck nodes set otherwise)\n",
		       r.faults, r.stuck_unmet);
		printf("  inputs hit:");
		for (i = 0; i < (int)info.ports; i++)
			if (hit[i / 64] >> (i % 64) & 1)
				printf(" %d", i);
		printf("\n");
		return 3;
	}
	if (ret && errno != EBUSY && errno != EOVERFLOW) {
		fprintf(stderr, "bfly-route: BFLY_IOC_ROUTE: %s\n", strerror(errno));
		return 1;
	}

	printf("%s: %u ports, %s%s\n", dev, info.ports, method_name(r.method),
	       dry ? " (dry run)" : "");
	if (kxk)
		print_port_maps(&info, m);
	else
		print_matrix(&info, m);
	if (ret) {
		print_conflicts(&r, conflicts, kxk);
		return 3;
	}
	if (dry)
		return 0;

	tr.ports = info.ports;
	tr.perm_ptr = (uintptr_t)back;
	if (ioctl(fd, BFLY_IOC_TRACE, &tr)) {
		fprintf(stderr, "bfly-route: BFLY_IOC_TRACE: %s\n", strerror(errno));
		return 1;
	}
	printf("generation %llu; trace:", (unsigned long long)tr.generation);
	for (i = 0; i < (int)info.ports; i++)
		if (back[i] == BFLY_TRACE_LOST)
			printf(" %d->lost", i);
		else
			printf(" %d->%u", i, back[i]);
	printf("\n");
	close(fd);
	return 0;
}
