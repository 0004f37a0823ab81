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
 * binary string of node_stages bits, most significant first, or a number).
 * -n computes the settings without applying them (a dry run). Every value
 * is checked here first: a permutation of 0 .. N-1, labels of node_stages
 * bits; the message names the value.
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

static void print_help(FILE *f)
{
	fprintf(f, "usage: bfly-route [-n] [-l] [-d DEVICE] VALUE...\n"
		   "Route a permutation through a bfly fabric (default /dev/bfly0).\n"
		   "  VALUE i              the output input i must reach, one per port:\n"
		   "                       a permutation of 0 .. N-1 (with -l: its label,\n"
		   "                       node-stages binary digits or a number)\n"
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

/*
 * Check VALUE @i (from 1) against the fabric: with @labels a label of
 * @bits bits (exactly @bits binary digits, or a number), else an output
 * port not given before (@seen, @ports entries). Exits with status 2 and
 * a message naming the value when it is not.
 */
static __u64 parse_value(int i, const char *s, int labels, __u32 bits, __u32 ports,
			 int *seen)
{
	unsigned long long v = 0, max;

	if (labels && strlen(s) == bits && strspn(s, "01") == bits)
		return strtoull(s, NULL, 2);
	max = labels ? (bits >= 64 ? ~0ULL : (1ULL << bits) - 1) : ports - 1;
	switch (parse_num(s, max, &v)) {
	case NUM_OK:
		break;
	case NUM_NAN:
		bad_value(i, "'%s' is not a number", s);
		break;
	case NUM_RANGE:
		if (labels)
			bad_value(i, "label %s is out of range (0 .. %llu, %u bits)", s, max, bits);
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

int main(int argc, char **argv)
{
	struct bfly_conflict conflicts[MAX_CONFLICTS];
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
	int labels = 0, dry = 0, opt, fd, ret, i, *seen;
	__u32 *perm, *back;
	__u64 *lab, *m, *hit;

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
	if (argc - optind != (int)info.ports) {
		fprintf(stderr, "bfly-route: %s has %u ports: give %u values\n",
			dev, info.ports, info.ports);
		return 2;
	}
	perm = calloc(info.ports, sizeof(*perm));
	back = calloc(info.ports, sizeof(*back));
	lab = calloc(info.ports, sizeof(*lab));
	seen = calloc(info.ports, sizeof(*seen));
	m = calloc(1, BFLY_MATRIX_BYTES(info.switches));
	if (!perm || !back || !lab || !seen || !m) {
		fprintf(stderr, "bfly-route: out of memory\n");
		return 1;
	}
	for (i = 0; i < (int)info.ports; i++) {
		lab[i] = parse_value(i + 1, argv[optind + i], labels, info.node_stages,
				     info.ports, seen);
		perm[i] = lab[i];
	}

	r.flags = (dry ? BFLY_ROUTE_DRY_RUN : 0) | (labels ? BFLY_ROUTE_LABELS : 0);
	r.ports = info.ports;
	if (labels) {
		r.labels_ptr = (uintptr_t)lab;
		r.label_bits = info.node_stages;
	} else {
		r.perm_ptr = (uintptr_t)perm;
	}
	r.matrix_ptr = (uintptr_t)m;
	r.matrix_bytes = BFLY_MATRIX_BYTES(info.switches);
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
	print_matrix(&info, m);
	if (ret) {
		printf("refused: %u internal conflicts, the first in node stage %u\n",
		       r.conflicts_count, r.first_conflict_stage);
		for (i = 0; i < (int)r.conflicts_count && i < MAX_CONFLICTS; i++)
			printf("  stage %u node %u: inputs %u and %u ask for the same port\n",
			       conflicts[i].stage, conflicts[i].node,
			       conflicts[i].input[0], conflicts[i].input[1]);
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
