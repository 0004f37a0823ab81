// SPDX-License-Identifier: GPL-2.0
/*
 * bfly-info: print the description of a bfly fabric, read with the
 * BFLY_IOC_GET_INFO ioctl. An example of using the bfly uapi.
 *
 *   bfly-info [-k] [DEVICE]      DEVICE defaults to /dev/bfly0
 *
 * -k prints key=value lines for scripts instead of the table. It asks
 * for the whole struct bfly_info it was built with; an older kernel
 * answers fewer bytes (info.size), and only those fields are printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "cmdline.h"
#include "names.gen.h"

/* The spec's name of a topology (names.gen.c), or "unknown". */
static const char *topology_name(__u32 topology)
{
	if (topology < bfly_topo_names_count && bfly_topo_names[topology])
		return bfly_topo_names[topology];
	return "unknown";
}

/*
 * Did the kernel write the radix and the figures? It sets size to the
 * bytes it wrote; those fields came together, in BFLY_INFO_SIZE_VER1.
 */
#define GOT_FIGURES(info) ((info).size >= BFLY_INFO_SIZE_VER1)

/* "k = 4, n = 3" of N = k^n ports, or "k = 4" when N is no power of k */
static void print_kn(__u32 ports, __u32 radix)
{
	__u32 n = 0;

	while (radix >= 2 && ports > 1 && ports % radix == 0) {
		ports /= radix;
		n++;
	}
	if (ports == 1)
		printf(" (k = %u, n = %u)\n", radix, n);
	else
		printf(" (k = %u)\n", radix);
}

static void print_keys(const char *dev, const struct bfly_info *info)
{
	printf("device=%s\nuapi_version=%u\nid=%u\ntopology=%s\n"
	       "ports=%u\nports_log2=%u\nnode_stages=%u\n"
	       "nodes_per_stage=%u\nswitches=%llu\n",
	       dev, info->uapi_version, info->id,
	       topology_name(info->topology), info->ports, info->ports_log2,
	       info->node_stages, info->nodes_per_stage,
	       (unsigned long long)info->switches);
	if (!GOT_FIGURES(*info))
		return;
	printf("radix=%u\ndegree=%u\ndiameter=%u\nrouters=%u\nchannels=%llu\n"
	       "bisection=%llu\nport_map_bytes=%llu\n",
	       info->radix, info->degree, info->diameter, info->routers,
	       (unsigned long long)info->channels,
	       (unsigned long long)info->bisection,
	       (unsigned long long)info->port_map_bytes);
	if (info->size < BFLY_INFO_SIZE_VER3 || !info->mbfly_d)
		return;
	printf("mbfly_d=%u\nmbfly_seed=%llu\nmbfly_exp_col=%u\nmbfly_exp_inputs=%u\n"
	       "mbfly_exp_kmax=%u\nmbfly_exp_beta_fp16=%u\nmbfly_exp_exhaustive=%u\n"
	       "mbfly_exp_subsets=%llu\n",
	       info->mbfly_d, (unsigned long long)info->mbfly_seed, info->mbfly_exp_col,
	       info->mbfly_exp_inputs, info->mbfly_exp_kmax, info->mbfly_exp_beta,
	       info->mbfly_exp_exhaustive, (unsigned long long)info->mbfly_exp_subsets);
}

static void print_table(const char *dev, const struct bfly_info *info)
{
	int kxk = info->topology == BFLY_TOPO_KFLY || info->topology == BFLY_TOPO_FLATFLY;

	printf("%s: %s fabric\n", dev, topology_name(info->topology));
	printf("  uapi version     %u\n", info->uapi_version);
	printf("  fabric id        %u\n", info->id);
	printf("  ports            %u", info->ports);
	if (kxk && GOT_FIGURES(*info))
		print_kn(info->ports, info->radix);
	else
		printf(" (n = %u)\n", info->ports_log2);
	printf("  node stages      %u\n", info->node_stages);
	printf("  nodes per stage  %u\n", info->nodes_per_stage);
	printf("  switches         %llu\n", (unsigned long long)info->switches);
	if (!GOT_FIGURES(*info))
		return;
	printf("  radix            %u\n", info->radix);
	printf("  degree           %u\n", info->degree);
	printf("  diameter         %u\n", info->diameter);
	if (info->topology == BFLY_TOPO_FLATFLY || info->routers)
		printf("  routers          %u\n", info->routers);
	printf("  channels         %llu\n", (unsigned long long)info->channels);
	if (info->bisection)
		printf("  bisection        %llu\n", (unsigned long long)info->bisection);
	else
		printf("  bisection        not computed\n");
	printf("  port-map bytes   %llu\n", (unsigned long long)info->port_map_bytes);
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: bfly-info [-k] [DEVICE]\n"
		   "Print the description of a bfly fabric (default /dev/bfly0).\n"
		   "  -k, --keys     key=value lines for scripts, not the table\n"
		   "  -h, --help     this help\n"
		   "  -V, --version  the version\n"
		   "See bfly-info(1).\n");
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/bfly0";
	struct bfly_info info;
	static const struct option longopts[] = {
		{ "keys", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	int keys = 0, opt, fd;

	while ((opt = getopt_long(argc, argv, "khV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'k':
			keys = 1;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		case 'V':
			print_version("bfly-info");
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (optind < argc)
		dev = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "bfly-info: unexpected argument '%s'\n", argv[optind]);
		print_help(stderr);
		return 2;
	}

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bfly-info: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (ioctl(fd, BFLY_IOC_GET_INFO, &info) < 0) {
		fprintf(stderr, "bfly-info: %s: BFLY_IOC_GET_INFO: %s\n", dev,
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);

	if (keys)
		print_keys(dev, &info);
	else
		print_table(dev, &info);
	return 0;
}
