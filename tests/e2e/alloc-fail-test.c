// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures at every allocation site of every bfly ioctl, with
 * the kernel's systematic fault injection (/proc/thread-self/fail-nth).
 *
 * For each ioctl with a valid argument using every optional buffer, the
 * call is made with the 1st, 2nd, ... fault-injection point failing,
 * until a call runs with no point left to fail. After every injected
 * failure the call must fail with ENOMEM (or give the result it gives
 * without faults, when the failed allocation had a fallback), and the
 * fabric's matrix and generation must be unchanged.
 *
 *   alloc-fail-test DEVICE
 *
 * The caller makes failslab and fail_page_alloc apply to sleeping
 * allocations (ignore-gfp-wait = N in /sys/kernel/debug/failslab and
 * fail_page_alloc). Prints "# IOCTL: F faults injected" and TAP lines;
 * without fail-nth, one skipped line.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

#define MAX_NTH 1000

static int fd, nth_fd;
/* sysfs route_ws_bytes, or -1: writing 0 frees the kept route workspace */
static int ws_fd = -1;
static struct bfly_info info;
static size_t mbytes;
static __u64 *base_m, *now_m, *chk_m, *mbuf, *labels, *active, *send, *recv, *done;
static __u32 *perm, *load, *square;
static struct bfly_conflict conflicts[8];
static unsigned long long total_faults;

/* One ioctl with a valid argument using every optional buffer. */
static int call(int which)
{
	__u32 n = info.ports;

	switch (which) {
	case 0: {
		struct bfly_info a = { .size = sizeof(a) };

		return ioctl(fd, BFLY_IOC_GET_INFO, &a);
	}
	case 1: {
		struct bfly_matrix a = { .size = sizeof(a), .matrix_bytes = mbytes };

		a.matrix_ptr = (uintptr_t)mbuf;
		return ioctl(fd, BFLY_IOC_GET_MATRIX, &a);
	}
	case 2: {
		struct bfly_matrix a = { .size = sizeof(a), .matrix_bytes = mbytes };

		a.matrix_ptr = (uintptr_t)mbuf;
		return ioctl(fd, BFLY_IOC_SET_MATRIX, &a);
	}
	case 3: {
		struct bfly_trace a = { .size = sizeof(a), .ports = n };

		a.perm_ptr = (uintptr_t)perm;
		return ioctl(fd, BFLY_IOC_TRACE, &a);
	}
	case 4:
	case 5: {
		struct bfly_route a = { .size = sizeof(a), .ports = n };

		if (which == 4 && (info.topology == BFLY_TOPO_BENES ||
				   info.topology == BFLY_TOPO_BUTTERFLY)) {
			a.perm_ptr = (uintptr_t)perm;
		} else {
			a.flags = BFLY_ROUTE_LABELS;
			a.label_bits = info.node_stages;
			a.labels_ptr = (uintptr_t)labels;
		}
		a.matrix_ptr = (uintptr_t)mbuf;
		a.matrix_bytes = mbytes;
		a.conflicts_ptr = (uintptr_t)conflicts;
		a.conflicts_max = 8;
		return ioctl(fd, BFLY_IOC_ROUTE, &a);
	}
	case 6: {
		struct bfly_link_load a = { .size = sizeof(a), .ports = n };

		a.flags = BFLY_ROUTE_LABELS;
		a.label_bits = info.node_stages;
		a.labels_ptr = (uintptr_t)labels;
		a.active_ptr = (uintptr_t)active;
		a.load_entries = (__u64)info.node_stages * n;
		a.load_ptr = (uintptr_t)load;
		return ioctl(fd, BFLY_IOC_LINK_LOAD, &a);
	}
	case 7: {
		struct bfly_link_load a = { .size = sizeof(a), .ports = n };

		a.active_ptr = (uintptr_t)active;
		a.load_entries = (__u64)info.node_stages * n;
		a.load_ptr = (uintptr_t)load;
		return ioctl(fd, BFLY_IOC_LINK_LOAD, &a);
	}
	case 8: {
		struct bfly_stats a = { .size = sizeof(a) };

		return ioctl(fd, BFLY_IOC_GET_STATS, &a);
	}
	case 9: {
		struct bfly_rls_labels a = { .size = sizeof(a), .count = n };

		a.flags = BFLY_RLS_BY_ROTATION;
		a.labels_ptr = (uintptr_t)labels;
		return ioctl(fd, BFLY_IOC_RLS_LABELS, &a);
	}
	default: {
		struct bfly_batch a = { .size = sizeof(a), .ports = n, .msg_size = 8 };

		a.schedule = which == 10 ? BFLY_SCHED_SQUARE : BFLY_SCHED_DEFAULT;
		a.flags = which == 10 ? 0 : BFLY_BATCH_STRICT;
		a.send_ptr = (uintptr_t)send;
		a.recv_ptr = (uintptr_t)recv;
		a.buf_bytes = (__u64)n * n * 8;
		if (which == 10)
			a.square_ptr = (uintptr_t)square;
		a.done_ptr = (uintptr_t)done;
		a.conflicts_ptr = (uintptr_t)conflicts;
		a.conflicts_max = 8;
		return ioctl(fd, BFLY_IOC_BATCH, &a);
	}
	}
}

static const char * const call_name[] = {
	"GET_INFO", "GET_MATRIX", "SET_MATRIX", "TRACE", "ROUTE",
	"ROUTE labels", "LINK_LOAD labels", "LINK_LOAD matrix", "GET_STATS",
	"RLS_LABELS", "BATCH square", "BATCH strict",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NCALLS ((int)ARRAY_SIZE(call_name))

static int set_nth(unsigned int n)
{
	char b[16];
	int len = snprintf(b, sizeof(b), "%u", n);

	return pwrite(nth_fd, b, len, 0) == len ? 0 : -1;
}

static int get_nth(void)
{
	char b[16] = "";

	if (pread(nth_fd, b, sizeof(b) - 1, 0) <= 0)
		return -1;
	return atoi(b);
}

static void run(int which)
{
	int ret, e, want_ret, want_errno, left, injected = 0, enomem = 0, bad = 0;
	__u64 gen0, gen, nth;
	const char *why = "";

	/* The result without faults, from the base state. */
	set_matrix(fd, base_m, mbytes);
	want_ret = call(which);
	want_errno = want_ret ? errno : 0;
	set_matrix(fd, base_m, mbytes);

	for (nth = 1; nth <= MAX_NTH; nth++) {
		if (get_matrix(fd, now_m, mbytes, &gen0)) {
			why = "GET_MATRIX";
			bad++;
			break;
		}
		/*
		 * Every call allocates all its buffers, as on a fabric
		 * that keeps no route workspace: each one's failure runs.
		 */
		if (ws_fd >= 0 && pwrite(ws_fd, "0", 1, 0) != 1) {
			why = "write route_ws_bytes";
			bad++;
			break;
		}
		if (set_nth(nth)) {
			why = "write fail-nth";
			bad++;
			break;
		}
		ret = call(which);
		e = ret ? errno : 0;
		left = get_nth();
		set_nth(0);
		if (left != 0)	/* no point left to fail: done */
			break;
		injected++;
		if (ret && e == ENOMEM) {
			enomem++;
		} else if (ret != want_ret || e != want_errno) {
			bad++;
			why = strerrorname_np(e) ?: "success";
			continue;
		}
		if (ret == 0) {
			/*
			 * A fault with a fallback: kvmalloc's vmalloc after
			 * its kmalloc failed, or a routing path that has
			 * another way. The call did its work; start again
			 * from the base state.
			 */
			set_matrix(fd, base_m, mbytes);
			continue;
		}
		if (get_matrix(fd, chk_m, mbytes, &gen) || gen != gen0 ||
		    memcmp(chk_m, now_m, mbytes)) {
			bad++;
			why = "fabric changed";
		}
	}
	if (nth > MAX_NTH) {
		bad++;
		why = "never ran without a fault";
	}
	total_faults += injected;
	printf("# %s: %d faults injected, %d ENOMEM, %d other\n",
	       call_name[which], injected, enomem, injected - enomem);
	tap_check(!bad,
		  "%s: %d allocation failures injected, each ENOMEM or survived, fabric unchanged%s%s",
		  call_name[which], injected, bad ? ": " : "", why);
}

int main(int argc, char **argv)
{
	char path[64];
	__u32 n, i, k;
	__u64 gen;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE\n", argv[0]);
		return 2;
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		tap_check(1, "faults skipped: no fail-nth");
		return 0;
	}
	fd = open(argv[1], O_RDWR);
	info.size = sizeof(info);
	if (fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		tap_check(0, "open %s: %s", argv[1], strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "/sys/class/bfly/bfly%u/route_ws_bytes", info.id);
	ws_fd = open(path, O_WRONLY);
	n = info.ports;
	mbytes = BFLY_MATRIX_BYTES(info.switches);
	base_m = calloc(1, mbytes);
	now_m = calloc(1, mbytes);
	chk_m = calloc(1, mbytes);
	mbuf = calloc(1, mbytes);
	perm = calloc(n, 4);
	labels = calloc(n, 8);
	active = calloc(1, BFLY_MATRIX_BYTES(n));
	load = calloc((size_t)info.node_stages * n, 4);
	send = calloc((size_t)n * n, 8);
	recv = calloc((size_t)n * n, 8);
	done = calloc(1, BFLY_MATRIX_BYTES((__u64)n * n));
	square = calloc((size_t)n * n, 4);
	if (!base_m || !now_m || !chk_m || !mbuf || !perm || !labels || !active || !load ||
	    !send || !recv || !done || !square)
		return 1;
	/* Inputs; every buffer touched now, so no page fault allocates later. */
	for (i = 0; i < n; i++) {
		perm[i] = n - 1 - i;
		labels[i] = (i * 2654435761U) & ((1ULL << info.node_stages) - 1);
		for (k = 0; k < n; k++)
			square[i * n + k] = (i + k) % n;
	}
	memset(active, 0x55, BFLY_MATRIX_BYTES(n));
	memset(send, 1, (size_t)n * n * 8);
	memset(recv, 0, (size_t)n * n * 8);
	memset(load, 0, (size_t)info.node_stages * n * 4);
	memset(done, 0, BFLY_MATRIX_BYTES((__u64)n * n));
	memset(conflicts, 0, sizeof(conflicts));
	for (i = 0; i < mbytes / 8; i++)
		mbuf[i] = 0;
	if (get_matrix(fd, base_m, mbytes, &gen)) {
		tap_check(0, "GET_MATRIX");
		return 1;
	}
	for (i = 0; i < (__u32)NCALLS; i++)
		run(i);
	printf("# %llu faults injected in all\n", total_faults);
	return 0;
}
