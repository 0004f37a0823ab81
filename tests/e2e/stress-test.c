// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency stress of one fabric: several processes, each with many
 * threads, run every ioctl at once and check every result.
 *
 * Setup picks K permutations p_k the fabric realizes and their matrices
 * M_k = ROUTE(p_k), with TRACE(M_k) == p_k. Then, until the deadline:
 * setters SET_MATRIX a random M_k; routers ROUTE a random p_k (applied or
 * dry run) and check the computed matrix is M_k; getters GET_MATRIX and
 * check they read one of the M_k (never a half-written matrix) with a
 * generation that never goes back; tracers TRACE and check they get one
 * of the p_k; link-load threads check every link carries exactly one
 * packet; batch threads run all-to-all batches and check every message
 * arrived in its slot; a last kind reads GET_INFO, GET_STATS (counters
 * never go back) and RLS_LABELS.
 *
 *   stress-test DEVICE SECONDS PROCESSES THREADS
 *
 * The fabric must be a butterfly or a Benes network. Prints the
 * operations completed per ioctl and TAP lines.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bfly.h>

#include "e2e-util.h"
#include "tap.h"

#define K 4
#define MAX_REPORTS 20

enum { OP_SET, OP_GET, OP_ROUTE, OP_TRACE, OP_LL, OP_BATCH, OP_INFO, NOPS };

static const char * const op_name[NOPS] = {
	"SET_MATRIX", "GET_MATRIX", "ROUTE", "TRACE", "LINK_LOAD", "BATCH",
	"GET_INFO/GET_STATS/RLS_LABELS",
};

/* Shared between the processes. */
struct shared {
	unsigned long long ops[NOPS];
	unsigned long long failures;
	double end;
};

static struct shared *sh;
static struct bfly_info info;
static size_t mbytes;
static __u64 *mat[K];
static __u32 *perm[K];
static const char *dev;

static __thread __u64 rnd_state;

static __u64 rnd(void)
{
	return xorshift64(&rnd_state);
}

/* A failed check: one line written at once, the first few only. */
#define fail(...) fail_shared(&sh->failures, MAX_REPORTS, __VA_ARGS__)

static int route(int fd, const __u32 *p, __u64 *m, __u32 flags)
{
	struct bfly_route r = { .size = sizeof(r), .flags = flags, .ports = info.ports };

	r.perm_ptr = (uintptr_t)p;
	r.matrix_ptr = (uintptr_t)m;
	r.matrix_bytes = mbytes;
	return ioctl(fd, BFLY_IOC_ROUTE, &r);
}

static int which_matrix(const __u64 *m)
{
	int k;

	for (k = 0; k < K; k++)
		if (!memcmp(m, mat[k], mbytes))
			return k;
	return -1;
}

static int which_perm(const __u32 *p)
{
	int k;

	for (k = 0; k < K; k++)
		if (!memcmp(p, perm[k], info.ports * 4))
			return k;
	return -1;
}

static void do_batch(int fd, __u64 *send, __u64 *recv)
{
	__u32 n = info.ports, i, d;
	struct bfly_batch b = { .size = sizeof(b), .ports = n, .msg_size = 8 };
	__u64 salt = rnd();

	for (i = 0; i < n; i++)
		for (d = 0; d < n; d++)
			send[i * n + d] = ((__u64)i << 32 | d) ^ salt;
	memset(recv, 0, (size_t)n * n * 8);
	b.schedule = 1 + rnd() % 3;
	b.send_ptr = (uintptr_t)send;
	b.recv_ptr = (uintptr_t)recv;
	b.buf_bytes = (__u64)n * n * 8;
	if (ioctl(fd, BFLY_IOC_BATCH, &b)) {
		fail("BATCH: %s", strerror(errno));
		return;
	}
	if (b.rounds != n)
		fail("BATCH: %u rounds of %u", b.rounds, n);
	for (d = 0; d < n; d++)
		for (i = 0; i < n; i++)
			if (recv[d * n + i] != (((__u64)i << 32 | d) ^ salt)) {
				fail("BATCH: message %u -> %u wrong", i, d);
				return;
			}
}

static void do_info(int fd, struct bfly_stats *last)
{
	struct bfly_info in = { .size = sizeof(in) };
	struct bfly_stats st = { .size = sizeof(st) };
	struct bfly_rls_labels rl = { .size = sizeof(rl) };
	__u64 lab[64];

	if (ioctl(fd, BFLY_IOC_GET_INFO, &in) || in.ports != info.ports ||
	    in.switches != info.switches)
		fail("GET_INFO: %s", strerror(errno));
	if (ioctl(fd, BFLY_IOC_GET_STATS, &st))
		fail("GET_STATS: %s", strerror(errno));
	else if (st.routes < last->routes || st.matrix_writes < last->matrix_writes ||
		 st.batches < last->batches)
		fail("GET_STATS: a counter went back");
	else
		*last = st;
	rl.processor = rnd() % info.ports;
	rl.count = info.ports < 64 ? info.ports : 64;
	rl.labels_ptr = (uintptr_t)lab;
	if (ioctl(fd, BFLY_IOC_RLS_LABELS, &rl))
		fail("RLS_LABELS: %s", strerror(errno));
}

static void do_link_load(int fd, __u32 *load)
{
	struct bfly_link_load ll = { .size = sizeof(ll), .ports = info.ports };
	__u64 i;

	ll.load_entries = (__u64)info.node_stages * info.ports;
	ll.load_ptr = (uintptr_t)load;
	if (ioctl(fd, BFLY_IOC_LINK_LOAD, &ll)) {
		fail("LINK_LOAD: %s", strerror(errno));
		return;
	}
	if (ll.max_link_load != 1)
		fail("LINK_LOAD: max link load %u, not 1", ll.max_link_load);
	for (i = 0; i < ll.load_entries; i++)
		if (load[i] != 1) {
			fail("LINK_LOAD: link %llu carries %u packets",
			     (unsigned long long)i, load[i]);
			break;
		}
}

static void *worker(void *arg)
{
	long role = (long)arg % NOPS;
	__u32 n = info.ports, *p = calloc(n, 4);
	__u64 *m = calloc(1, mbytes), gen = 0, last_gen = 0, *send = NULL, *recv = NULL;
	__u32 *load = calloc((size_t)info.node_stages * n, 4);
	struct bfly_stats last = { 0 };
	unsigned long long ops = 0;
	int fd, k;

	rnd_state = (getpid() * 0x9e3779b97f4a7c15ULL) ^ ((long)arg + 1) * 0xbf58476d1ce4e5b9ULL;
	fd = open(dev, O_RDWR);
	if (fd < 0 || !p || !m || !load) {
		fail("open %s: %s", dev, strerror(errno));
		return NULL;
	}
	if (role == OP_BATCH) {
		send = malloc((size_t)n * n * 8);
		recv = malloc((size_t)n * n * 8);
	}
	while (now_s() < sh->end) {
		k = rnd() % K;
		switch (role) {
		case OP_SET:
			if (set_matrix(fd, mat[k], mbytes))
				fail("SET_MATRIX: %s", strerror(errno));
			break;
		case OP_GET:
			if (get_matrix(fd, m, mbytes, &gen))
				fail("GET_MATRIX: %s", strerror(errno));
			else if (which_matrix(m) < 0)
				fail("GET_MATRIX read a matrix that was never written");
			else if (gen < last_gen)
				fail("GET_MATRIX: generation went back");
			last_gen = gen;
			break;
		case OP_ROUTE:
			if (route(fd, perm[k], m, rnd() % 4 ? 0 : BFLY_ROUTE_DRY_RUN))
				fail("ROUTE: %s", strerror(errno));
			else if (memcmp(m, mat[k], mbytes))
				fail("ROUTE computed another matrix for p_%d", k);
			break;
		case OP_TRACE:
			if (trace(fd, p, info.ports, &gen))
				fail("TRACE: %s", strerror(errno));
			else if (which_perm(p) < 0)
				fail("TRACE gave a permutation no written matrix realizes");
			else if (gen < last_gen)
				fail("TRACE: generation went back");
			last_gen = gen;
			break;
		case OP_LL:
			do_link_load(fd, load);
			break;
		case OP_BATCH:
			do_batch(fd, send, recv);
			break;
		default:
			do_info(fd, &last);
			break;
		}
		ops++;
	}
	__atomic_add_fetch(&sh->ops[role], ops, __ATOMIC_RELAXED);
	close(fd);
	free(p);
	free(m);
	free(load);
	free(send);
	free(recv);
	return NULL;
}

static void child(int threads)
{
	pthread_t *t = calloc(threads, sizeof(*t));
	long i;

	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			fail("pthread_create");
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	exit(0);
}

/* K permutations the fabric realizes and the matrices routing gives. */
static int setup(int fd)
{
	__u64 *r = calloc(1, mbytes), *dry = calloc(1, mbytes), gen;
	__u32 *back = calloc(info.ports, 4);
	size_t i;
	int k;

	for (k = 0; k < K; k++) {
		mat[k] = calloc(1, mbytes);
		perm[k] = calloc(info.ports, 4);
		for (i = 0; i < mbytes / 8; i++)
			r[i] = k ? rnd() : 0;
		if (info.switches % 64)
			r[mbytes / 8 - 1] &= (1ULL << (info.switches % 64)) - 1;
		if (set_matrix(fd, r, mbytes) || trace(fd, perm[k], info.ports, &gen) ||
		    route(fd, perm[k], mat[k], BFLY_ROUTE_DRY_RUN))
			return -1;
		/* The routed matrix realizes p_k too, and routing is repeatable. */
		if (set_matrix(fd, mat[k], mbytes) || trace(fd, back, info.ports, &gen) ||
		    memcmp(back, perm[k], info.ports * 4) ||
		    route(fd, perm[k], dry, BFLY_ROUTE_DRY_RUN) || memcmp(dry, mat[k], mbytes))
			return -1;
	}
	free(r);
	free(dry);
	free(back);
	return 0;
}

int main(int argc, char **argv)
{
	int procs, threads, fd, i, status, bad = 0;
	unsigned long long total = 0;
	__u64 gen = 0, *fin;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEVICE SECONDS PROCESSES THREADS\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	procs = atoi(argv[3]);
	threads = atoi(argv[4]);
	alarm(atoi(argv[2]) + 120);
	rnd_state = 0x2545f4914f6cdd1dULL;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd = open(dev, O_RDWR);
	info.size = sizeof(info);
	if (sh == MAP_FAILED || fd < 0 || ioctl(fd, BFLY_IOC_GET_INFO, &info)) {
		tap_check(0, "open %s: %s", dev, strerror(errno));
		return 1;
	}
	mbytes = BFLY_MATRIX_BYTES(info.switches);
	if (setup(fd)) {
		tap_check(0, "setup: %d permutations and their matrices", K);
		return 1;
	}
	tap_check(1, "setup: %d permutations, route(p_k) traces back to p_k", K);

	sh->end = now_s() + atof(argv[2]);
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid == 0)
			child(threads);
		if (pid < 0)
			fail("fork: %s", strerror(errno));
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;

	for (i = 0; i < NOPS; i++) {
		printf("# %-30s %llu\n", op_name[i], sh->ops[i]);
		total += sh->ops[i];
	}
	fin = calloc(1, mbytes);
	i = fin && !get_matrix(fd, fin, mbytes, &gen) && which_matrix(fin) >= 0;
	tap_check(i,
		  "after the stress the matrix is one of those written (generation %llu)",
		  (unsigned long long)gen);
	free(fin);
	tap_check(!bad, "%d processes exited cleanly", procs);
	tap_check(sh->failures == 0,
		  "%llu concurrent operations by %d processes x %d threads, every result checked (%llu failures)",
		  total, procs, threads, sh->failures);
	return sh->failures || bad;
}
