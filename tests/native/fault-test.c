// SPDX-License-Identifier: GPL-2.0
/*
 * Native tests of Benes routing around stuck nodes (kmod/benes_fault.c):
 * the matrix always realizes the permutation, the unmet count is right,
 * single stuck nodes outside the middle stage are always honoured, N = 4 is
 * optimal against brute force, the vote's majority and tie rules, and link
 * faults change nothing. Prints one "ok"/"not ok" line per check, then
 * "P passed, F failed"; exits non-zero on any failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "benes_fault.h"
#include "fault.h"
#include "trace.h"

#define NATIVE_TEST_SEED 0x2545f4914f6cdd1dULL
#include "native-test.h"

/* Lexicographic rank of a permutation of 0 .. n-1, n <= 8. */
static u32 perm_rank(const u32 *p, u32 n)
{
	u32 r = 0, i, j, less;

	for (i = 0; i < n; i++) {
		less = 0;
		for (j = i + 1; j < n; j++)
			less += p[j] < p[i];
		r = r * (n - i) + less;
	}
	return r;
}

static struct bfly_fault stuck(u32 stage, u32 index, u32 state)
{
	struct bfly_fault f = { BFLY_FAULT_STUCK, stage, index, state };

	return f;
}

static struct bfly_fault link_fault(u32 stage, u32 index)
{
	struct bfly_fault f = { BFLY_FAULT_LINK, stage, index, 0 };

	return f;
}

/* Stuck nodes in another state in @m, counted from the bits themselves. */
static u32 recount(const struct bfly_geometry *g, const unsigned long *m,
		   const struct bfly_fault *f, u32 nf)
{
	u32 i, c = 0;

	for (i = 0; i < nf; i++)
		if (f[i].kind == BFLY_FAULT_STUCK &&
		    test_bit((u64)f[i].stage * g->nodes_per_stage + f[i].index, m) !=
		    f[i].state)
			c++;
	return c;
}

/* Everything one routing needs. */
struct bufs {
	struct bfly_geometry g;
	u32 *p, *got;
	unsigned long *m, *m2;
	void *work;
};

static void bufs_init(struct bufs *b, u32 n)
{
	b->g = geom(BFLY_TOPO_BENES, n);
	b->p = xalloc(b->g.ports * sizeof(u32));
	b->got = xalloc(b->g.ports * sizeof(u32));
	b->m = xalloc(matrix_bytes(&b->g));
	b->m2 = xalloc(matrix_bytes(&b->g));
	b->work = xalloc(bfly_benes_fault_workspace_size(&b->g));
}

static void bufs_free(struct bufs *b)
{
	free(b->p);
	free(b->got);
	free(b->m);
	free(b->m2);
	free(b->work);
}

/*
 * Route b->p into b->m; true when it succeeds, realizes b->p and reports
 * the number of unmet stuck nodes the bits show, which goes to *@unmet.
 */
static bool route(struct bufs *b, const struct bfly_fault *f, u32 nf,
		  u32 *unmet)
{
	*unmet = U32_MAX;
	if (bfly_benes_route_stuck(&b->g, b->p, f, nf, b->m, b->work, unmet))
		return false;
	if (bfly_trace(&b->g, b->m, b->got) ||
	    memcmp(b->got, b->p, b->g.ports * sizeof(u32)))
		return false;
	return *unmet == recount(&b->g, b->m, f, nf);
}

static void test_nofault_exhaustive(u32 n)
{
	struct bufs b;
	u64 total = 0, bad = 0;
	u32 i, unmet;

	bufs_init(&b, n);
	for (i = 0; i < b.g.ports; i++)
		b.p[i] = i;
	do {
		total++;
		if (!route(&b, NULL, 0, &unmet) || unmet)
			bad++;
	} while (next_perm(b.p, b.g.ports));
	check(!bad, "no faults, N=%u: all %llu permutations trace back (%llu fail)",
	      b.g.ports, (unsigned long long)total, (unsigned long long)bad);
	bufs_free(&b);
}

static void test_nofault_random(u32 n, int reps)
{
	struct bufs b;
	int r, bad = 0;
	u32 i, unmet;

	bufs_init(&b, n);
	for (r = 0; r < reps; r++) {
		if (r == 0) {
			for (i = 0; i < b.g.ports; i++)
				b.p[i] = i;
		} else {
			random_perm(b.p, b.g.ports);
		}
		if (!route(&b, NULL, 0, &unmet) || unmet)
			bad++;
	}
	check(!bad, "no faults, N=%u: identity and %d random perms trace back",
	      b.g.ports, reps - 1);
	bufs_free(&b);
}

/*
 * N = 8, every permutation with every single stuck node: the matrix traces
 * back; a stuck node outside the middle stage is always honoured. The
 * middle stage's misses are counted, and compared with what any routing
 * could do: every one of the 2^20 matrices is traced once, and a stuck node
 * can be honoured iff some matrix realizing the permutation has its state.
 */
static void test_single_n8(void)
{
	struct bufs b;
	u32 *any_set = xalloc(40320 * sizeof(u32));
	u32 *any_clear = xalloc(40320 * sizeof(u32));
	u64 cases = 0, bad_trace = 0, bad_outer = 0;
	u64 mid_cases = 0, mid_miss = 0, mid_possible = 0;
	u32 mat, i, r, s, k, v, unmet, ms;
	struct bfly_fault f;

	bufs_init(&b, 3);
	/* which bits the matrices realizing each permutation set and clear */
	for (mat = 0; mat < 1U << 20; mat++) {
		b.m[0] = mat;
		bfly_trace(&b.g, b.m, b.got);
		r = perm_rank(b.got, 8);
		any_set[r] |= mat;
		any_clear[r] |= ~mat & 0xfffff;
	}

	for (i = 0; i < 8; i++)
		b.p[i] = i;
	do {
		r = perm_rank(b.p, 8);
		for (s = 0; s < 5; s++)
			for (k = 0; k < 4; k++)
				for (v = 0; v < 2; v++) {
					bool can;

					f = stuck(s, k, v);
					cases++;
					if (!route(&b, &f, 1, &unmet) || unmet > 1) {
						bad_trace++;
						continue;
					}
					can = ((v ? any_set[r] : any_clear[r]) >>
					       (4 * s + k)) & 1;
					if (s != 2) {
						bad_outer += unmet;
						continue;
					}
					mid_cases++;
					mid_miss += unmet;
					mid_possible += unmet && can;
				}
	} while (next_perm(b.p, 8));

	check(!bad_trace && cases == 40320 * 40,
	      "one stuck node, N=8: %llu cases trace back, unmet = recount (%llu fail)",
	      (unsigned long long)cases, (unsigned long long)bad_trace);
	check(!bad_outer,
	      "one stuck node, N=8: honoured in every stage but the middle (%llu missed)",
	      (unsigned long long)bad_outer);
	ms = 0;
	for (i = 0; i < 40320; i++)
		ms += any_set[i] != 0xfffff || any_clear[i] != 0xfffff;
	printf("# N=8, one stuck middle-stage node: unhonoured in %llu of %llu cases (%.2f%%),\n",
	       (unsigned long long)mid_miss, (unsigned long long)mid_cases,
	       100.0 * mid_miss / mid_cases);
	printf("# %llu of them honourable by another routing (in %u of the 40320 permutations\n",
	       (unsigned long long)mid_possible, ms);
	printf("# some node has the same state in every routing)\n");
	free(any_set);
	free(any_clear);
	bufs_free(&b);
}

/*
 * N = 4, every permutation and every assignment of no fault / stuck 0 /
 * stuck 1 to each of the 6 nodes (so every set of 1 or 2 stuck nodes and
 * more), listed in node order and in reverse: unmet equals the brute-force
 * optimum over the matrices realizing the permutation.
 */
static void test_optimal_n4(void)
{
	u32 traced[64][4], a, x, mat, d, i, nf, unmet, best, miss;
	u64 cases = 0, bad = 0, bad_opt = 0;
	struct bfly_fault f[6], rev[6];
	struct bufs b;

	bufs_init(&b, 2);
	for (mat = 0; mat < 64; mat++) {
		b.m[0] = mat;
		bfly_trace(&b.g, b.m, traced[mat]);
	}
	for (i = 0; i < 4; i++)
		b.p[i] = i;
	do {
		for (a = 1; a < 729; a++) {
			nf = 0;
			for (x = a, i = 0; i < 6; i++, x /= 3)
				if (x % 3)
					f[nf++] = stuck(i / 2, i % 2, x % 3 - 1);
			for (i = 0; i < nf; i++)
				rev[i] = f[nf - 1 - i];
			best = U32_MAX;
			for (mat = 0; mat < 64; mat++) {
				if (memcmp(traced[mat], b.p, sizeof(traced[mat])))
					continue;
				miss = 0;
				for (i = 0; i < nf; i++)
					miss += ((mat >> (2 * f[i].stage + f[i].index)) & 1) !=
						f[i].state;
				if (miss < best)
					best = miss;
			}
			for (d = 0; d < 2; d++) {
				cases++;
				if (!route(&b, d ? rev : f, nf, &unmet))
					bad++;
				else if (unmet != best)
					bad_opt++;
			}
		}
	} while (next_perm(b.p, 4));
	check(!bad, "N=4: %llu permutation and stuck-node sets trace back, unmet = recount",
	      (unsigned long long)cases);
	check(!bad_opt, "N=4: unmet is the brute-force optimum (%llu not)",
	      (unsigned long long)bad_opt);
	bufs_free(&b);
}

/* N = 2: one node, the permutation decides it; only counted. */
static void test_n2(void)
{
	struct bfly_fault f;
	u32 s, v, unmet;
	struct bufs b;
	bool ok = true;

	bufs_init(&b, 1);
	for (s = 0; s < 2; s++)
		for (v = 0; v < 2; v++) {
			b.p[0] = s;
			b.p[1] = !s;
			f = stuck(0, 0, v);
			ok &= route(&b, &f, 1, &unmet) && unmet == (s != v);
		}
	check(ok, "N=2: the node follows the permutation, unmet counted");
	bufs_free(&b);
}

/* Fill @f with @nf stuck nodes on distinct random nodes, random states. */
static u32 random_stuck(const struct bfly_geometry *g, struct bfly_fault *f,
			u32 nf)
{
	u32 i, j;

	if (nf > g->switches)
		nf = g->switches;
	for (i = 0; i < nf; i++) {
		do {
			f[i] = stuck(rnd() % g->node_stages,
				     rnd() % g->nodes_per_stage, rnd() & 1);
			for (j = 0; j < i; j++)
				if (f[j].stage == f[i].stage &&
				    f[j].index == f[i].index)
					break;
		} while (j < i);
	}
	return nf;
}

static bool same_bits(const struct bfly_geometry *g, const unsigned long *a,
		      const unsigned long *b)
{
	u64 i;

	for (i = 0; i < g->switches; i++)
		if (test_bit(i, a) != test_bit(i, b))
			return false;
	return true;
}

/*
 * Random stuck nodes on random permutations: the matrix traces back, the
 * count matches the bits, and every bit is written (a matrix full of ones
 * before gives the same bits). How many stuck nodes went unmet is only
 * reported.
 */
static void test_random(u32 n, int reps)
{
	struct bfly_fault f[BFLY_MAX_FAULTS];
	u64 total_f = 0, total_unmet = 0;
	u32 nf, unmet, unmet2;
	int r, bad = 0, bad_bits = 0;
	struct bufs b;

	bufs_init(&b, n);
	for (r = 0; r < reps; r++) {
		random_perm(b.p, b.g.ports);
		nf = random_stuck(&b.g, f, 1 + rnd() % BFLY_MAX_FAULTS);
		memset(b.m, 0, matrix_bytes(&b.g));
		if (!route(&b, f, nf, &unmet)) {
			bad++;
			continue;
		}
		total_f += nf;
		total_unmet += unmet;
		memcpy(b.m2, b.m, matrix_bytes(&b.g));
		memset(b.m, 0xff, matrix_bytes(&b.g));
		if (!route(&b, f, nf, &unmet2) || unmet2 != unmet ||
		    !same_bits(&b.g, b.m, b.m2))
			bad_bits++;
	}
	check(!bad && !bad_bits,
	      "random stuck nodes, N=%u: %d perms trace back, unmet = recount, every bit written (%d, %d fail); %llu of %llu stuck nodes unmet",
	      b.g.ports, reps, bad, bad_bits, (unsigned long long)total_unmet,
	      (unsigned long long)total_f);
	bufs_free(&b);
}

/*
 * Stuck nodes on the outer stages 0 and 2n-2 in the states of some matrix
 * realizing the permutation are all honoured: depth 0 can give each cycle
 * either orientation, and those stuck nodes never disagree.
 */
static void test_outer_consistent(u32 n, int reps)
{
	struct bfly_fault f[BFLY_MAX_FAULTS];
	u32 nf, unmet, i, j, stage, node;
	int r, bad = 0;
	struct bufs b;
	u64 bit;

	bufs_init(&b, n);
	for (r = 0; r < reps; r++) {
		for (bit = 0; bit < b.g.switches; bit++)
			if (rnd() & 1)
				__set_bit(bit, b.m2);
			else
				__clear_bit(bit, b.m2);
		bfly_trace(&b.g, b.m2, b.p);
		nf = 1 + rnd() % BFLY_MAX_FAULTS;
		if (nf > b.g.ports)
			nf = b.g.ports;
		for (i = 0; i < nf; i++) {
			do {
				stage = rnd() & 1 ? 0 : b.g.node_stages - 1;
				node = rnd() % b.g.nodes_per_stage;
				for (j = 0; j < i; j++)
					if (f[j].stage == stage && f[j].index == node)
						break;
			} while (j < i);
			f[i] = stuck(stage, node,
				     test_bit(bfly_matrix_bit(&b.g, stage, node), b.m2));
		}
		if (!route(&b, f, nf, &unmet) || unmet)
			bad++;
	}
	check(!bad, "N=%u: %d sets of realizable stuck nodes on stages 0 and %u all honoured",
	      b.g.ports, reps, b.g.node_stages - 1);
	bufs_free(&b);
}

/*
 * The vote. N = 16, outputs 1 and 2 swapped: input nodes 0 and 1 and output
 * nodes 0 and 1 of the outer stages form one cycle, on which node 0 of
 * stage 0 is set unlike node 1 of stage 0, and node 1 of stage 6 like it.
 */
static void test_vote(void)
{
	struct bfly_fault f1 = stuck(0, 0, 1), f2 = stuck(0, 1, 1);
	struct bfly_fault f3 = stuck(6, 1, 1);
	struct bfly_fault l[4];
	u32 i, unmet, n0, n1, o1;
	bool ok = true;
	struct bufs b;

	bufs_init(&b, 4);
	for (i = 0; i < 16; i++)
		b.p[i] = i;
	b.p[1] = 2;
	b.p[2] = 1;

	/* a tie: the earlier fault wins */
	l[0] = f1;
	l[1] = f2;
	ok &= route(&b, l, 2, &unmet) && unmet == 1 && test_bit(0, b.m);
	l[0] = f2;
	l[1] = f1;
	ok &= route(&b, l, 2, &unmet) && unmet == 1 && test_bit(1, b.m);
	/* link faults do not vote */
	l[0] = f1;
	l[1] = link_fault(0, 0);
	l[2] = link_fault(0, 1);
	l[3] = f2;
	ok &= route(&b, l, 4, &unmet) && unmet == 1 && test_bit(0, b.m);
	check(ok, "vote: on a tie the earlier stuck node wins");

	/* the majority wins, whatever the order */
	n0 = 0;
	n1 = 1;
	o1 = 6 * 8 + 1;
	l[0] = f1;
	l[1] = f2;
	l[2] = f3;
	ok = route(&b, l, 3, &unmet) && unmet == 1 && !test_bit(n0, b.m) &&
	     test_bit(n1, b.m) && test_bit(o1, b.m);
	l[0] = f3;
	l[1] = f1;
	l[2] = f2;
	ok &= route(&b, l, 3, &unmet) && unmet == 1 && !test_bit(n0, b.m);
	check(ok, "vote: the majority of a cycle's stuck nodes wins");
	bufs_free(&b);
}

/* Link faults in the list change nothing. */
static void test_links_ignored(u32 n, int reps)
{
	struct bfly_fault f[BFLY_MAX_FAULTS], mixed[2 * BFLY_MAX_FAULTS];
	u32 nf, nm, i, unmet, unmet2;
	int r, bad = 0;
	struct bufs b;

	bufs_init(&b, n);
	for (r = 0; r < reps; r++) {
		random_perm(b.p, b.g.ports);
		nf = random_stuck(&b.g, f, 1 + rnd() % (BFLY_MAX_FAULTS / 2));
		nm = 0;
		for (i = 0; i < nf; i++) {
			if (rnd() & 1)
				mixed[nm++] = link_fault(rnd() % b.g.node_stages,
							 rnd() % b.g.ports);
			mixed[nm++] = f[i];
		}
		if (!route(&b, f, nf, &unmet)) {
			bad++;
			continue;
		}
		memcpy(b.m2, b.m, matrix_bytes(&b.g));
		if (!route(&b, mixed, nm, &unmet2) || unmet2 != unmet ||
		    !same_bits(&b.g, b.m, b.m2))
			bad++;
	}
	check(!bad, "N=%u: %d fault lists with link faults mixed in route as without them",
	      b.g.ports, reps);
	bufs_free(&b);
}

int main(void)
{
	u32 n;

	test_n2();
	test_nofault_exhaustive(1);
	test_nofault_exhaustive(2);
	test_nofault_exhaustive(3);
	for (n = 4; n <= 12; n++)
		test_nofault_random(n, n <= 8 ? 200 : 30);
	test_nofault_random(16, 2);
	test_nofault_random(20, 2);
	test_optimal_n4();
	test_single_n8();
	test_vote();
	for (n = 1; n <= 10; n++)
		test_random(n, n <= 6 ? 300 : 50);
	for (n = 2; n <= 10; n++)
		test_outer_consistent(n, 100);
	for (n = 2; n <= 10; n++)
		test_links_ignored(n, 50);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
