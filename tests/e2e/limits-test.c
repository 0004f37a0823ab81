// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end test of bfly's memory limits (kmod/core/memlimit.c), driven by
 * limits.test.sh, which sets the module parameters:
 *
 *   limits-test DEVICE largest SECONDS
 *	the batch that needs the most kernel memory a fabric allows (every
 *	buffer at its largest: the whole conflict list), stopped by a signal
 *	after SECONDS unless it finishes; prints the fabric's memory figures
 *   limits-test DEVICE e2big
 *	with fabric_mem_max below what any request needs: every request
 *	fails with E2BIG and the fabric is unchanged
 *   limits-test DEVICE enomem
 *	with fabric_mem_max just above what a running batch holds: a route
 *	that alone would fit fails with ENOMEM while the batch runs, and
 *	succeeds after it; the fabric then keeps the route's workspace
 *	(sysfs route_ws_bytes), which gives way to a request that fits only
 *	without it, and which writing 0 to route_ws_bytes frees
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

#define PARAM "/sys/module/bfly/parameters/"

static int fd;
static struct bfly_info info;
static char sysdir[64];

static long long fabric_mem(const char *what)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", sysdir, what);
	return read_num(path);
}

static void on_signal(int sig)
{
	(void)sig;
}

/* The batch with every kernel buffer at its largest, schedule only. */
static struct bfly_batch largest_batch(struct bfly_conflict **list)
{
	struct bfly_batch b = {
		.size = sizeof(b),
		.flags = BFLY_BATCH_STRICT,
		.ports = info.ports,
		.conflicts_max = info.switches,
	};

	*list = calloc(info.switches, sizeof(**list));
	b.conflicts_ptr = (uintptr_t)*list;
	return b;
}

/* Matrix changes so far: read without any allocation in the kernel */
static __u64 matrix_writes(void)
{
	struct bfly_stats st = { .size = sizeof(st) };

	if (ioctl(fd, BFLY_IOC_GET_STATS, &st))
		return ~0ULL;
	return st.matrix_writes;
}

static int route_identity(int dry_run)
{
	__u32 *perm = malloc(info.ports * sizeof(*perm)), i;
	struct bfly_route r = { .size = sizeof(r), .ports = info.ports };
	int ret;

	for (i = 0; i < info.ports; i++)
		perm[i] = i;
	r.perm_ptr = (uintptr_t)perm;
	r.flags = dry_run ? BFLY_ROUTE_DRY_RUN : 0;
	ret = ioctl(fd, BFLY_IOC_ROUTE, &r);
	free(perm);
	return ret;
}

static void test_largest(int seconds)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	long long base = fabric_mem("mem_bytes");
	struct bfly_conflict *list;
	struct bfly_batch b = largest_batch(&list);
	struct timespec t0, t1;
	pid_t child;
	int r, e;

	/* A second process signals this one after @seconds. */
	sigaction(SIGUSR1, &sa, NULL);
	child = fork();
	if (child == 0) {
		sleep(seconds);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = ioctl(fd, BFLY_IOC_BATCH, &b);
	e = errno;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	tap_check(r == 0 || (r == -1 && e == EINTR),
		  "largest batch on %u ports runs under the limits (%s after %u of %u rounds, %.1f s)",
		  info.ports, r ? strerrorname_np(e) : "finished", b.rounds, info.ports,
		  (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	tap_check(b.rounds > 0, "largest batch: %u rounds completed", b.rounds);
	printf("# fabric memory: %lld bytes own, peak %lld bytes; module %lld now, peak %lld\n",
	       base, fabric_mem("mem_peak_bytes"), read_num(PARAM "mem_bytes"),
	       read_num(PARAM "mem_peak_bytes"));
	printf("# limits: %lld bytes per fabric, %lld per module\n",
	       read_num(PARAM "fabric_mem_max"), read_num(PARAM "module_mem_max"));
	tap_check(fabric_mem("mem_peak_bytes") <= read_num(PARAM "fabric_mem_max"),
		  "peak fabric memory within fabric_mem_max");
	tap_check(fabric_mem("mem_bytes") == base,
		  "after the batch the fabric holds its own memory only (%lld bytes)",
		  fabric_mem("mem_bytes"));
	free(list);
}

static void test_e2big(void)
{
	long long base = fabric_mem("mem_bytes"), peak = fabric_mem("mem_peak_bytes");
	__u64 writes = matrix_writes();
	struct bfly_conflict *list;
	struct bfly_batch b = largest_batch(&list);
	__u32 *perm = calloc(info.ports, sizeof(*perm));
	struct bfly_trace t = { .size = sizeof(t), .ports = info.ports };
	struct bfly_matrix m = { .size = sizeof(m) };

	TAP_ERRNO(ioctl(fd, BFLY_IOC_BATCH, &b), E2BIG, "batch over fabric_mem_max");
	TAP_ERRNO(route_identity(0), E2BIG, "route over fabric_mem_max");
	t.perm_ptr = (uintptr_t)perm;
	TAP_ERRNO(ioctl(fd, BFLY_IOC_TRACE, &t), E2BIG, "trace over fabric_mem_max");
	m.matrix_ptr = (uintptr_t)calloc(1, BFLY_MATRIX_BYTES(info.switches));
	m.matrix_bytes = BFLY_MATRIX_BYTES(info.switches);
	TAP_ERRNO(ioctl(fd, BFLY_IOC_SET_MATRIX, &m), E2BIG, "set matrix over fabric_mem_max");
	TAP_ERRNO(ioctl(fd, BFLY_IOC_GET_MATRIX, &m), E2BIG, "get matrix over fabric_mem_max");
	free((void *)(uintptr_t)m.matrix_ptr);
	tap_check(fabric_mem("mem_bytes") == base && fabric_mem("mem_peak_bytes") == peak,
		  "refused requests charged nothing (%lld bytes, peak %lld)",
		  fabric_mem("mem_bytes"), fabric_mem("mem_peak_bytes"));
	tap_check(matrix_writes() == writes, "the matrix is unchanged");
	free(perm);
	free(list);
}

/*
 * After a route the fabric holds its own memory @base and the route's
 * workspace; a request that fits only without the workspace frees it.
 */
static void test_kept_ws(long long base)
{
	long long kept = fabric_mem("route_ws_bytes");
	struct bfly_matrix m = { .size = sizeof(m) };
	char path[128];
	int r;

	tap_check(kept > 0 && fabric_mem("mem_bytes") == base + kept,
		  "after the route the fabric holds its own memory and the route's workspace (%lld + %lld bytes, mem_bytes %lld)",
		  base, kept, fabric_mem("mem_bytes"));
	write_num(PARAM "fabric_mem_max", base + kept);
	m.matrix_bytes = BFLY_MATRIX_BYTES(info.switches);
	m.matrix_ptr = (uintptr_t)calloc(1, m.matrix_bytes);
	r = ioctl(fd, BFLY_IOC_GET_MATRIX, &m);
	tap_check(r == 0 && fabric_mem("route_ws_bytes") == 0 && fabric_mem("mem_bytes") == base,
		  "fabric_mem_max = own + workspace: GET_MATRIX runs (%s), the workspace freed (%lld bytes kept, mem_bytes %lld)",
		  r ? strerror(errno) : "ok", fabric_mem("route_ws_bytes"),
		  fabric_mem("mem_bytes"));
	free((void *)(uintptr_t)m.matrix_ptr);
	r = route_identity(1);
	tap_check(r == 0 && fabric_mem("route_ws_bytes") == kept,
		  "the next route runs under the same limit (%s) and keeps its workspace again (%lld bytes)",
		  r ? strerror(errno) : "ok", fabric_mem("route_ws_bytes"));
	snprintf(path, sizeof(path), "%s/route_ws_bytes", sysdir);
	write_num(path, 1);
	tap_check(fabric_mem("route_ws_bytes") == kept,
		  "writing 1 to route_ws_bytes changes nothing");
	write_num(path, 0);
	tap_check(fabric_mem("route_ws_bytes") == 0 && fabric_mem("mem_bytes") == base,
		  "writing 0 to route_ws_bytes frees it: the fabric holds its own memory only (%lld bytes)",
		  fabric_mem("mem_bytes"));
}

static void test_enomem(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long long base = fabric_mem("mem_bytes"), held = 0, max;
	long long list_bytes = (long long)info.switches * sizeof(struct bfly_conflict);
	pid_t child;
	int i, same, status;
	char buf[32];
	FILE *f;

	sigaction(SIGUSR1, &sa, NULL);
	child = fork();
	if (child == 0) {
		struct bfly_conflict *list;
		struct bfly_batch b = largest_batch(&list);

		sigaction(SIGUSR1, &sa, NULL);
		ioctl(fd, BFLY_IOC_BATCH, &b);
		_exit(0);
	}
	/*
	 * Wait until the child's batch holds all its buffers: it charges them
	 * one by one, the conflict list (the largest) last but for fault
	 * buffers this fabric has none of, and nothing once its rounds run.
	 * So: the list is charged and the figure stays put for 60 ms.
	 */
	for (i = 0, same = 0; i < 2000 && same < 3; i++) {
		long long now;

		usleep(20000);
		now = fabric_mem("mem_bytes");
		same = now == held && now - base >= list_bytes ? same + 1 : 0;
		held = now;
	}
	tap_check(held > base, "a running batch holds %lld bytes beyond the fabric's %lld",
		  held - base, base);
	max = held + 4096;
	f = fopen(PARAM "fabric_mem_max", "w");
	snprintf(buf, sizeof(buf), "%lld", max);
	if (f) {
		fputs(buf, f);
		fclose(f);
	}
	TAP_ERRNO(route_identity(1), ENOMEM,
		  "a route that fits alone, while a batch holds the memory");
	kill(child, SIGUSR1);
	waitpid(child, &status, 0);
	i = route_identity(1);
	tap_check(i == 0, "the same route once the batch ended%s%s", i ? ": " : "",
		  i ? strerror(errno) : "");
	test_kept_ws(base);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE largest SECONDS | e2big | enomem\n", argv[0]);
		return 2;
	}
	fd = open_fabric(argv[1], &info);
	if (fd < 0)
		return 1;
	snprintf(sysdir, sizeof(sysdir), "/sys/class/bfly/bfly%u", info.id);

	if (!strcmp(argv[2], "largest") && argc > 3)
		test_largest(atoi(argv[3]));
	else if (!strcmp(argv[2], "e2big"))
		test_e2big();
	else if (!strcmp(argv[2], "enomem"))
		test_enomem();
	else
		return 2;
	return tap_failed ? 1 : 0;
}
