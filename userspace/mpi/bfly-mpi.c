// SPDX-License-Identifier: GPL-2.0
/*
 * bfly's schedules on a real cluster: a personalized all-to-all and an
 * h-relation run over MPI in the rounds libbfly gives (one MPI_Sendrecv
 * per rank and round), each compared with MPI's own collective
 * (MPI_Alltoall, MPI_Alltoallv) on the same data. Every received byte is
 * checked after every call, timed or not.
 *
 *   bfly-mpi [check|bench] [a2a|hrel|both] [-s BYTES[,BYTES...]] [-h H]
 *            [-n ITERS] [-S SEED]
 *
 * check (the default) runs each way once per size and prints TAP lines;
 * bench alternates the two ways call by call (which goes first swaps each
 * iteration), takes the slowest rank's time of each call, and prints per
 * size the median ratio of bfly's time to MPI's with its spread.
 */
#include <errno.h>
#include <mpi.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>

#include "bfly/libbfly.h"

static int rank, nranks;

/* The byte j of message (or block) m: distinct for nearby m and j */
static inline unsigned char tag(__u64 m, __u64 j)
{
	return (unsigned char)(m * 151 + j * 7 + (m >> 8) + 1);
}

static void *xalloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p) {
		fprintf(stderr, "bfly-mpi: rank %d: out of memory (%zu bytes)\n", rank, bytes);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	return p;
}

/* ---- the all-to-all: N blocks of @bytes from every rank to every rank ---- */

struct a2a {
	size_t bytes;
	unsigned char *send, *recv;
	int *to, *from;		/* per round: this rank's destination and source */
};

static int a2a_init(struct a2a *a, size_t bytes)
{
	__u32 *dest = xalloc(nranks * sizeof(*dest));
	int k, i;

	a->bytes = bytes;
	a->send = xalloc(bytes * nranks);
	a->recv = xalloc(bytes * nranks);
	a->to = xalloc(nranks * sizeof(int));
	a->from = xalloc(nranks * sizeof(int));
	for (k = 0; k < nranks; k++) {
		if (libbfly_a2a_round(nranks, LIBBFLY_A2A_RLS, k, dest)) {
			free(dest);
			return -1;
		}
		for (i = 0; i < nranks; i++) {
			if (i == rank)
				a->to[k] = dest[i];
			if ((int)dest[i] == rank)
				a->from[k] = i;
		}
	}
	free(dest);
	/* block d of rank s: message s * N + d */
	for (i = 0; i < nranks; i++)
		for (size_t j = 0; j < bytes; j++)
			a->send[i * bytes + j] = tag((__u64)rank * nranks + i, j);
	return 0;
}

static void a2a_bfly(struct a2a *a)
{
	int k;

	for (k = 0; k < nranks; k++)
		MPI_Sendrecv(a->send + a->to[k] * a->bytes, a->bytes, MPI_BYTE, a->to[k], k,
			     a->recv + a->from[k] * a->bytes, a->bytes, MPI_BYTE, a->from[k], k,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void a2a_mpi(struct a2a *a)
{
	MPI_Alltoall(a->send, a->bytes, MPI_BYTE, a->recv, a->bytes, MPI_BYTE, MPI_COMM_WORLD);
}

/* Wrong bytes received, and the buffer cleared for the next call */
static long a2a_wrong(struct a2a *a)
{
	long wrong = 0;
	int s;

	for (s = 0; s < nranks; s++)
		for (size_t j = 0; j < a->bytes; j++)
			wrong += a->recv[s * a->bytes + j] != tag((__u64)s * nranks + rank, j);
	memset(a->recv, 0, a->bytes * nranks);
	return wrong;
}

static void a2a_free(struct a2a *a)
{
	free(a->send);
	free(a->recv);
	free(a->to);
	free(a->from);
}

/* ---- the h-relation: h random permutations' messages of random sizes ---- */

struct hrel {
	__u32 count, h;
	__u32 *src, *dst, *len, *round;
	__u64 *soff, *roff;	/* where each message leaves and lands */
	__u32 *out, *in;	/* per round: this rank's message, or LIBBFLY_IDLE */
	int *scount, *sdispl, *rcount, *rdispl;	/* MPI_Alltoallv's */
	unsigned char *send, *recv;
	__u64 send_bytes, recv_bytes;
};

static __u64 rng;

static __u32 rnd(__u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (__u32)(rng % n);
}

/*
 * Every rank builds the same list from the seed: for each of @h random
 * permutations, rank s sends one message to perm(s), of 1 .. @bytes bytes
 * (@bytes exactly with @fixed). Sources and destinations repeat; a pair
 * may carry several messages. A rank's outgoing messages are laid out by
 * destination, its incoming ones by source, each in list order, as
 * MPI_Alltoallv lays them out; bfly's rounds move each message alone.
 */
static int hrel_init(struct hrel *r, __u32 h, size_t bytes, int fixed, __u64 seed)
{
	__u32 n = nranks, m, k, i, *perm = xalloc(n * sizeof(*perm));
	__u64 *spos = xalloc(n * sizeof(__u64)), *rpos = xalloc(n * sizeof(__u64));
	int err;

	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	r->count = h * n;
	r->src = xalloc(r->count * sizeof(__u32));
	r->dst = xalloc(r->count * sizeof(__u32));
	r->len = xalloc(r->count * sizeof(__u32));
	r->round = xalloc(r->count * sizeof(__u32));
	r->soff = xalloc(r->count * sizeof(__u64));
	r->roff = xalloc(r->count * sizeof(__u64));
	for (k = 0, m = 0; k < h; k++) {
		for (i = 0; i < n; i++)
			perm[i] = i;
		for (i = n - 1; i > 0; i--) {
			__u32 j = rnd(i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < n; i++, m++) {
			r->src[m] = i;
			r->dst[m] = perm[i];
			r->len[m] = fixed ? bytes : 1 + rnd(bytes);
		}
	}
	free(perm);
	err = libbfly_hrel_rounds(n, r->count, r->src, r->dst, &r->h, r->round);
	if (err)
		return err;

	r->scount = calloc(n, sizeof(int));
	r->sdispl = calloc(n, sizeof(int));
	r->rcount = calloc(n, sizeof(int));
	r->rdispl = calloc(n, sizeof(int));
	r->out = xalloc(r->h * sizeof(__u32));
	r->in = xalloc(r->h * sizeof(__u32));
	if (!r->scount || !r->sdispl || !r->rcount || !r->rdispl)
		return -ENOMEM;
	for (m = 0; m < r->count; m++) {
		if ((int)r->src[m] == rank)
			r->scount[r->dst[m]] += r->len[m];
		if ((int)r->dst[m] == rank)
			r->rcount[r->src[m]] += r->len[m];
	}
	r->send_bytes = 0;
	r->recv_bytes = 0;
	for (i = 0; i < n; i++) {
		r->sdispl[i] = r->send_bytes;
		r->rdispl[i] = r->recv_bytes;
		spos[i] = r->send_bytes;
		rpos[i] = r->recv_bytes;
		r->send_bytes += r->scount[i];
		r->recv_bytes += r->rcount[i];
	}
	if (r->send_bytes > INT_MAX || r->recv_bytes > INT_MAX)
		return -E2BIG;
	r->send = xalloc(r->send_bytes);
	r->recv = xalloc(r->recv_bytes);
	for (k = 0; k < r->h; k++) {
		r->out[k] = LIBBFLY_IDLE;
		r->in[k] = LIBBFLY_IDLE;
	}
	for (m = 0; m < r->count; m++) {
		if ((int)r->src[m] == rank) {
			r->soff[m] = spos[r->dst[m]];
			spos[r->dst[m]] += r->len[m];
			for (__u32 j = 0; j < r->len[m]; j++)
				r->send[r->soff[m] + j] = tag(m, j);
			r->out[r->round[m]] = m;
		}
		if ((int)r->dst[m] == rank) {
			r->roff[m] = rpos[r->src[m]];
			rpos[r->src[m]] += r->len[m];
			r->in[r->round[m]] = m;
		}
	}
	free(spos);
	free(rpos);
	return 0;
}

static void hrel_bfly(struct hrel *r)
{
	__u32 k;

	for (k = 0; k < r->h; k++) {
		__u32 o = r->out[k], i = r->in[k];

		MPI_Sendrecv(o == LIBBFLY_IDLE ? NULL : r->send + r->soff[o],
			     o == LIBBFLY_IDLE ? 0 : r->len[o], MPI_BYTE,
			     o == LIBBFLY_IDLE ? MPI_PROC_NULL : (int)r->dst[o], k,
			     i == LIBBFLY_IDLE ? NULL : r->recv + r->roff[i],
			     i == LIBBFLY_IDLE ? 0 : r->len[i], MPI_BYTE,
			     i == LIBBFLY_IDLE ? MPI_PROC_NULL : (int)r->src[i], k,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
}

static void hrel_mpi(struct hrel *r)
{
	MPI_Alltoallv(r->send, r->scount, r->sdispl, MPI_BYTE,
		      r->recv, r->rcount, r->rdispl, MPI_BYTE, MPI_COMM_WORLD);
}

static long hrel_wrong(struct hrel *r)
{
	long wrong = 0;
	__u32 m;

	for (m = 0; m < r->count; m++)
		if ((int)r->dst[m] == rank)
			for (__u32 j = 0; j < r->len[m]; j++)
				wrong += r->recv[r->roff[m] + j] != tag(m, j);
	memset(r->recv, 0, r->recv_bytes);
	return wrong;
}

static void hrel_free(struct hrel *r)
{
	free(r->src);
	free(r->dst);
	free(r->len);
	free(r->round);
	free(r->soff);
	free(r->roff);
	free(r->out);
	free(r->in);
	free(r->scount);
	free(r->sdispl);
	free(r->rcount);
	free(r->rdispl);
	free(r->send);
	free(r->recv);
}

/* ---- running and timing ---- */

static long total_wrong(long wrong)
{
	long all;

	MPI_Allreduce(&wrong, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	return all;
}

static int failures;

static void report(int ok, const char *fmt, const char *what, size_t bytes, long wrong)
{
	if (!ok)
		failures++;
	if (rank)
		return;
	printf("%s - ", ok ? "ok" : "not ok");
	printf(fmt, what, bytes, wrong);
	printf("\n");
	fflush(stdout);
}

/* One call, timed from a common start to the slowest rank's end */
static double timed(void (*run)(void *), void *arg)
{
	double t0, dt, worst;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	run(arg);
	dt = MPI_Wtime() - t0;
	MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return worst;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct way {
	void (*run)(void *arg);
	long (*wrong)(void *arg);
};

static void run_a2a_bfly(void *a) { a2a_bfly(a); }
static void run_a2a_mpi(void *a) { a2a_mpi(a); }
static long wrong_a2a(void *a) { return a2a_wrong(a); }
static void run_hrel_bfly(void *r) { hrel_bfly(r); }
static void run_hrel_mpi(void *r) { hrel_mpi(r); }
static long wrong_hrel(void *r) { return hrel_wrong(r); }

/*
 * @iters calls of each way, alternated; every call checked. Prints the
 * median ratio bfly / MPI and its spread; returns the wrong bytes.
 */
static long bench(const char *figure, const struct way *bfly, const struct way *mpi,
		  void *arg, int iters)
{
	double *ratio = xalloc(iters * sizeof(double)), tb, tm;
	long wrong = 0;
	int i;

	/* one call each first: pages touched, connections made */
	bfly->run(arg);
	wrong += total_wrong(bfly->wrong(arg));
	mpi->run(arg);
	wrong += total_wrong(mpi->wrong(arg));
	for (i = 0; i < iters; i++) {
		if (i & 1) {
			tm = timed(mpi->run, arg);
			wrong += total_wrong(mpi->wrong(arg));
			tb = timed(bfly->run, arg);
			wrong += total_wrong(bfly->wrong(arg));
		} else {
			tb = timed(bfly->run, arg);
			wrong += total_wrong(bfly->wrong(arg));
			tm = timed(mpi->run, arg);
			wrong += total_wrong(mpi->wrong(arg));
		}
		ratio[i] = tb / tm;
	}
	qsort(ratio, iters, sizeof(double), cmp_double);
	if (!rank)
		printf("ratio: %s | %.2fx | spread %.2fx-%.2fx | target - | %s\n", figure,
		       ratio[iters / 2], ratio[0], ratio[iters - 1],
		       wrong ? "WRONG BYTES" : "checked");
	free(ratio);
	return wrong;
}

static void print_usage(void)
{
	if (!rank)
		fprintf(stderr, "usage: bfly-mpi [check|bench] [a2a|hrel|both] %s\n",
			"[-s BYTES[,BYTES...]] [-h H] [-n ITERS] [-S SEED]");
	MPI_Finalize();
	exit(2);
}

static const struct way a2a_bfly_way = { run_a2a_bfly, wrong_a2a };
static const struct way a2a_mpi_way = { run_a2a_mpi, wrong_a2a };
static const struct way hrel_bfly_way = { run_hrel_bfly, wrong_hrel };
static const struct way hrel_mpi_way = { run_hrel_mpi, wrong_hrel };

/* One call of @way, its bytes checked */
static void check_once(const struct way *way, void *arg, const char *what, size_t bytes)
{
	long w;

	way->run(arg);
	w = total_wrong(way->wrong(arg));
	report(!w, "%s, %zu B: every byte received (%ld wrong)", what, bytes, w);
}

static void run_a2a(size_t bytes, int do_bench, int iters)
{
	struct a2a a = { 0 };
	char figure[128];
	long w;

	if (a2a_init(&a, bytes)) {
		report(0, "%s, %zu B: libbfly has no rounds for %ld ranks (a power of two)",
		       "a2a", bytes, nranks);
	} else if (do_bench) {
		snprintf(figure, sizeof(figure),
			 "mpi a2a bfly rounds / MPI_Alltoall, %d ranks, %zu B", nranks, bytes);
		w = bench(figure, &a2a_bfly_way, &a2a_mpi_way, &a, iters);
		report(!w, "%s, %zu B: every call's bytes checked (%ld wrong)", "a2a", bytes, w);
	} else {
		check_once(&a2a_bfly_way, &a, "a2a in N rounds of MPI_Sendrecv", bytes);
		check_once(&a2a_mpi_way, &a, "a2a by MPI_Alltoall", bytes);
	}
	a2a_free(&a);
}

static void run_hrel(size_t bytes, __u32 h, __u64 seed, int do_bench, int iters)
{
	struct hrel r = { 0 };
	char figure[128];
	int err = hrel_init(&r, h, bytes, do_bench, seed);
	long w;

	if (err) {
		report(0, "%s, %zu B: libbfly_hrel_rounds: error %ld", "hrel", bytes, err);
	} else if (do_bench) {
		report(r.h == h, "%s, %zu B: h rounds (%ld)", "hrel", bytes, r.h);
		snprintf(figure, sizeof(figure),
			 "mpi hrel bfly rounds / MPI_Alltoallv, %d ranks, h=%u, %zu B",
			 nranks, h, bytes);
		w = bench(figure, &hrel_bfly_way, &hrel_mpi_way, &r, iters);
		report(!w, "%s, %zu B: every call's bytes checked (%ld wrong)", "hrel", bytes, w);
	} else {
		report(r.h == h, "%s, up to %zu B: h rounds (%ld)", "hrel", bytes, r.h);
		check_once(&hrel_bfly_way, &r, "hrel in h rounds of MPI_Sendrecv, up to", bytes);
		check_once(&hrel_mpi_way, &r, "hrel by MPI_Alltoallv, up to", bytes);
	}
	hrel_free(&r);
}

int main(int argc, char **argv)
{
	static const size_t check_sizes[] = { 1, 13, 64, 1024, 4096 };
	static const size_t bench_sizes[] = { 64, 256, 1024, 4096, 16384, 65536 };
	size_t sizes[32] = { 0 };
	int nsizes = 0, do_bench = 0, do_a2a = 1, do_hrel = 1, iters = 15, opt, s;
	__u32 h = 4;
	__u64 seed = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	while ((opt = getopt(argc, argv, "s:h:n:S:")) != -1) {
		char *p;

		switch (opt) {
		case 's':
			for (p = strtok(optarg, ","); p && nsizes < 32; p = strtok(NULL, ","))
				sizes[nsizes++] = strtoul(p, NULL, 0);
			break;
		case 'h':
			h = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			iters = atoi(optarg);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			print_usage();
		}
	}
	for (; optind < argc; optind++) {
		if (!strcmp(argv[optind], "bench"))
			do_bench = 1;
		else if (!strcmp(argv[optind], "a2a"))
			do_hrel = 0;
		else if (!strcmp(argv[optind], "hrel"))
			do_a2a = 0;
		else if (strcmp(argv[optind], "check") && strcmp(argv[optind], "both"))
			print_usage();
	}
	if (!nsizes) {
		const size_t *from = do_bench ? bench_sizes : check_sizes;

		nsizes = do_bench ? 6 : 5;
		memcpy(sizes, from, nsizes * sizeof(*sizes));
	}
	if (iters < 1 || !h || h > 1024)
		print_usage();
	if (!rank)
		printf("# bfly-mpi %s (libbfly %s): %d ranks, %s, seed %llu\n",
		       do_bench ? "bench" : "check", libbfly_version(), nranks,
		       do_a2a ? (do_hrel ? "all-to-all and h-relations" : "all-to-all")
			      : "h-relations", (unsigned long long)seed);
	for (s = 0; s < nsizes; s++) {
		if (do_a2a)
			run_a2a(sizes[s], do_bench, iters);
		if (do_hrel)
			run_hrel(sizes[s], h, seed + s, do_bench, iters);
	}
	MPI_Finalize();
	return failures ? 1 : 0;
}
