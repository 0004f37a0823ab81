// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end test of BFLY_IOC_GET_INFO: good calls and every bad input,
 * through the real device node.
 *
 *   ioctl-info-test DEVICE TOPOLOGY-ID PORTS NODE-STAGES
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "tap.h"

/* A caller compiled against a newer uapi: the struct grew by 64 bytes. */
struct bfly_info_next {
	struct bfly_info v1;
	__u8 future[64];
};

static struct bfly_info fresh(void)
{
	struct bfly_info info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	return info;
}

int main(int argc, char **argv)
{
	struct bfly_info_next next;
	struct bfly_info info;
	unsigned int topology, ports, stages;
	void *unmapped;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEVICE TOPOLOGY-ID PORTS NODE-STAGES\n", argv[0]);
		return 2;
	}
	topology = strtoul(argv[2], NULL, 0);
	ports = strtoul(argv[3], NULL, 0);
	stages = strtoul(argv[4], NULL, 0);

	fd = open(argv[1], O_RDONLY);
	tap_check(fd >= 0, "open %s read-only", argv[1]);
	if (fd < 0)
		return 1;

	tap_check(sizeof(struct bfly_info) == BFLY_INFO_SIZE_VER3,
		  "struct bfly_info is %zu bytes", sizeof(struct bfly_info));

	info = fresh();
	tap_check(ioctl(fd, BFLY_IOC_GET_INFO, &info) == 0, "GET_INFO succeeds");
	tap_check(info.size == sizeof(info), "size written back: %u", info.size);
	tap_check(info.uapi_version == BFLY_UAPI_VERSION, "uapi_version %u", info.uapi_version);
	tap_check(info.topology == topology, "topology %u", info.topology);
	tap_check(info.ports == ports, "ports %u", info.ports);
	tap_check((1U << info.ports_log2) == ports, "ports_log2 %u", info.ports_log2);
	tap_check(info.node_stages == stages, "node_stages %u", info.node_stages);
	tap_check(info.nodes_per_stage == ports / 2, "nodes_per_stage %u", info.nodes_per_stage);
	tap_check(info.switches == (__u64)stages * (ports / 2), "switches %llu",
		  (unsigned long long)info.switches);
	tap_check(!info.flags && !info.pad && !info.reserved[0] && !info.reserved[1] &&
		  !info.reserved2[0] && !info.reserved2[1],
		  "flags, pad and reserved are zero on output");

	/* The size bits of the request number are ignored. */
	info = fresh();
	tap_check(ioctl(fd, _IOWR(BFLY_IOC_MAGIC, 0x00, struct bfly_info_next), &info) == 0,
		  "GET_INFO with other size bits in the request succeeds");

	/* Sizes */
	info = fresh();
	info.size = 0;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "size 0");
	info.size = BFLY_INFO_SIZE_VER0 - 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "size below VER0");
	{
		/* A size reaching into an unmapped page: the tail check faults. */
		char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		/* 256 bytes before the hole: the known fields are mapped */
		struct bfly_info *edge = (struct bfly_info *)(two + 4096 - 256);

		munmap(two + 4096, 4096);
		*edge = fresh();
		edge->size = 4096;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, edge), EFAULT,
			  "size reaching an unmapped page");
		edge = (struct bfly_info *)two;
		*edge = fresh();
		edge->size = 4096 + 8;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, edge), E2BIG, "size 4104: over a page");
		edge->size = UINT32_MAX;
		TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, edge), E2BIG, "size 4 GiB");
		munmap(two, 4096);
	}

	/* Reserved input */
	info = fresh();
	info.flags = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "unknown flag");
	info = fresh();
	info.pad = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "non-zero pad");
	info = fresh();
	info.reserved[1] = 1ULL << 63;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "non-zero reserved");
	info = fresh();
	info.reserved2[1] = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &info), EINVAL, "non-zero reserved2");

	/* A newer caller's larger struct */
	memset(&next, 0, sizeof(next));
	next.v1.size = sizeof(next);
	tap_check(ioctl(fd, BFLY_IOC_GET_INFO, &next) == 0,
		  "larger struct with zero tail succeeds");
	tap_check(next.v1.size == BFLY_INFO_SIZE_VER3 && next.v1.ports == ports,
		  "larger struct: kernel wrote %u bytes", next.v1.size);
	memset(&next, 0, sizeof(next));
	next.v1.size = sizeof(next);
	next.future[63] = 1;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, &next), E2BIG, "larger struct with non-zero tail");
	tap_check(next.v1.ports == 0, "refused call wrote nothing");

	/* Pointers */
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, NULL), EFAULT, "NULL pointer");
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, unmapped), EFAULT, "unmapped pointer");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, (void *)0xffffffff81000000UL), EFAULT,
		  "kernel address");
	{
		/* Readable but not writable: the write-back must fail cleanly. */
		struct bfly_info *ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		*ro = fresh();
		mprotect(ro, 4096, PROT_READ);
		TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_INFO, ro), EFAULT, "read-only buffer");
		munmap(ro, 4096);
	}

	/* Unknown requests */
	TAP_ERRNO(ioctl(fd, _IOWR(BFLY_IOC_MAGIC, 0x7f, struct bfly_info), &info), ENOTTY,
		  "unknown request number");
	TAP_ERRNO(ioctl(fd, _IOWR('x', 0x00, struct bfly_info), &info), ENOTTY,
		  "other ioctl type");
	TAP_ERRNO(ioctl(fd, _IOR(BFLY_IOC_MAGIC, 0x00, struct bfly_info), &info), ENOTTY,
		  "GET_INFO number with another direction");

	/* Not a seekable file */
	TAP_ERRNO((int)lseek(fd, 0, SEEK_SET), ESPIPE, "lseek");

	close(fd);
	return tap_failed ? 1 : 0;
}
