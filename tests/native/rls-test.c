// SPDX-License-Identifier: GPL-2.0
/*
 * Native tests of the RLS labels (kmod/rls.c) and the all-to-all schedules
 * (kmod/schedule.c): every RLS check of fabric-model.md, the other
 * schedules, Latin square validation and sub-round splitting. Prints one
 * "ok"/"not ok" line per check, then "P passed, F failed"; exits non-zero
 * on any failure.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "compat.h"
#include "benes.h"
#include "linkload.h"
#include "rls.h"
#include "schedule.h"
#include "selfroute.h"
#include "trace.h"
#include "wiring.h"

#define NATIVE_TEST_SEED 0x0123456789abcdefULL
#include "native-test.h"

static const char *latin_name(enum bfly_latin l)
{
	static const char *const names[] = { "?", "rls", "lls", "xor", "square" };

	return l <= BFLY_LATIN_SQUARE ? names[l] : "?";
}

/* ---- reference implementation, written from the paper's text ---- */

/* Section IV-A, the four cases 1a, 1b, 2a, 2b, written out */
static u32 ref_pihat(u32 N, u32 i)
{
	bool even = i % 2 == 0, ig1 = i < N / 2;

	if (even && ig1)
		return i;		/* 1a */
	if (even && !ig1)
		return N - 1 - i;	/* 1b */
	if (!even && ig1)
		return N - 1 - i;	/* 2a */
	return i;			/* 2b */
}

static u32 ref_mod(long long a, u32 N)
{
	long long r = a % (long long)N;

	return r < 0 ? r + N : r;
}

/* dec2bin: n characters, most significant first */
static void ref_dec2bin(u32 v, u32 n, char *out)
{
	u32 b;

	for (b = 0; b < n; b++)
		out[b] = '0' + ((v >> (n - 1 - b)) & 1);
	out[n] = 0;
}

/* Algorithm 1, one label, as a string of 2n - 1 characters */
static void ref_label_str(u32 N, u32 n, u32 i, u32 k, char *out)
{
	char dint[32], dst[32];
	u32 inter, dest;

	if (k % 2 == 0)
		inter = ref_pihat(N, ref_mod((long long)i - k, N));
	else
		inter = ref_pihat(N, ref_mod((long long)N / 2 - i + k - 1, N));
	dest = ref_mod((long long)i - k, N);
	ref_dec2bin(inter, n, dint);
	ref_dec2bin(dest, n, dst);
	/* drop the leftmost bit of binDest */
	snprintf(out, 64, "%s%s", dint, dst + 1);
}

static u64 str_to_label(const char *s)
{
	u64 v = 0;

	while (*s)
		v = (v << 1) | (u64)(*s++ - '0');
	return v;
}

/* ---- pi-hat, intermediate, labels ---- */

static void test_pihat(void)
{
	static const u32 want[16] = { 0, 14, 2, 12, 4, 10, 6, 8,
				      7, 9, 5, 11, 3, 13, 1, 15 };
	u32 n, i;
	bool ok = true;

	for (i = 0; i < 16; i++)
		ok &= bfly_rls_pihat(4, i) == want[i];
	check(ok, "pi-hat N=16 = 0 14 2 12 4 10 6 8 7 9 5 11 3 13 1 15");

	for (n = 1; n <= 14; n++) {
		struct bfly_geometry g = geom(BFLY_TOPO_BUTTERFLY, n);
		u32 N = g.ports;
		u32 *perm = xalloc(N * sizeof(u32));
		u32 *del = xalloc(N * sizeof(u32));
		unsigned long *m = xalloc(matrix_bytes(&g));
		void *work = xalloc(bfly_selfroute_workspace_size(&g));
		struct bfly_conflicts c = { 0 };
		bool inv = true, ref = true, st0 = true, dl = true;

		for (i = 0; i < N; i++) {
			perm[i] = bfly_rls_pihat(n, i);
			ref &= perm[i] == ref_pihat(N, i);
		}
		for (i = 0; i < N; i++)
			inv &= perm[perm[i]] == i;
		bfly_selfroute_dest(&g, perm, m, del, &c, work);
		for (i = 0; i < N / 2; i++)
			st0 &= !test_bit(bfly_matrix_bit(&g, 0, i), m);
		for (i = 0; i < N; i++)
			dl &= del[i] == perm[i];
		check(ref, "pi-hat N=%u equals the paper's four cases", N);
		check(inv, "pi-hat N=%u is its own inverse", N);
		check(c.count == 0 && dl && st0,
		      "pi-hat N=%u realizable on one butterfly, stage 0 all straight (%u conflicts)",
		      N, c.count);
		free(perm);
		free(del);
		free(m);
		free(work);
	}
}

static void test_intermediate_k1(void)
{
	static const u32 want[16] = { 7, 8, 6, 10, 4, 12, 2, 14,
				      0, 15, 1, 13, 3, 11, 5, 9 };
	static const char *const lab[4] = {
		"0111111", "1000000", "0110001", "1010010"
	};
	bool ok = true;
	u32 i;

	for (i = 0; i < 16; i++)
		ok &= bfly_rls_intermediate(16, i, 1) == want[i];
	check(ok, "intermediate k=1 N=16 = 7 8 6 10 4 12 2 14 0 15 1 13 3 11 5 9");
	ok = true;
	for (i = 0; i < 4; i++)
		ok &= bfly_rls_label(16, i, 1) == str_to_label(lab[i]);
	check(ok, "labels k=1 N=16 i=0..3 = 0111111 1000000 0110001 1010010");
}

static void test_labels_vs_reference(void)
{
	u32 n;

	for (n = 1; n <= 12; n++) {
		u32 N = 1U << n, i, k;
		u64 *row = xalloc((size_t)N * sizeof(u64));
		u64 *proc = xalloc((size_t)N * sizeof(u64));
		bool one = true, rnd_ok = true, prc = true;
		char s[64];

		for (k = 0; k < N; k++) {
			if (bfly_rls_labels_round(N, k, row))
				rnd_ok = false;
			for (i = 0; i < N; i++) {
				u64 want;

				ref_label_str(N, n, i, k, s);
				want = str_to_label(s);
				one &= bfly_rls_label(N, i, k) == want &&
				       strlen(s) == 2 * n - 1;
				rnd_ok &= row[i] == want;
			}
		}
		for (i = 0; i < N; i++) {
			/* Algorithm 1's loop: k = 1 .. N - 1 */
			if (bfly_rls_labels_proc(N, i, 1, N - 1, proc))
				prc = false;
			for (k = 1; k < N; k++) {
				ref_label_str(N, n, i, k, s);
				prc &= proc[k - 1] == str_to_label(s);
			}
		}
		if (n >= 2 && n <= 10) {
			check(one, "bfly_rls_label N=%u equals Algorithm 1 (all i, k)", N);
			check(rnd_ok, "bfly_rls_labels_round N=%u equals Algorithm 1", N);
			check(prc, "bfly_rls_labels_proc N=%u k=1..N-1 equals Algorithm 1", N);
		} else {
			check(one && rnd_ok && prc,
			      "all RLS label functions N=%u equal Algorithm 1", N);
		}
		free(row);
		free(proc);
	}
	{
		u64 l[4];

		check(bfly_rls_labels_round(12, 0, l) == -EINVAL &&
		      bfly_rls_labels_round(1, 0, l) == -EINVAL &&
		      bfly_rls_labels_round(16, 16, l) == -EINVAL &&
		      bfly_rls_labels_proc(16, 16, 0, 1, l) == -EINVAL &&
		      bfly_rls_labels_proc(16, 0, 15, 2, l) == -EINVAL &&
		      bfly_rls_labels_proc(16, 0, 17, 0, l) == -EINVAL &&
		      bfly_rls_labels_proc(16, 0, 1, U32_MAX, l) == -EINVAL &&
		      bfly_rls_labels_proc(16, 3, 16, 0, l) == 0,
		      "RLS label functions reject bad N, i and ranges");
	}
}

/* ---- RLS rounds on bfly2 and bfly-twice ---- */

static bool stage_eq(const struct bfly_geometry *g, const unsigned long *a,
		     u32 sa, const unsigned long *b, u32 sb, bool complement)
{
	u32 v;

	for (v = 0; v < g->nodes_per_stage; v++)
		if (test_bit(bfly_matrix_bit(g, sa, v), a) !=
		    (test_bit(bfly_matrix_bit(g, sb, v), b) ^ complement))
			return false;
	return true;
}

static void stage_str(const struct bfly_geometry *g, const unsigned long *m,
		      char *out)
{
	u32 s, v;

	for (s = 0; s < g->node_stages; s++) {
		for (v = 0; v < g->nodes_per_stage; v++)
			*out++ = '0' + test_bit(bfly_matrix_bit(g, s, v), m);
		if (s + 1 < g->node_stages)
			*out++ = ' ';
	}
	*out = 0;
}

static void test_rls_rounds(enum bfly_topology topo, u32 n)
{
	struct bfly_geometry g = geom(topo, n);
	u32 N = g.ports, k, i, s;
	bool twice = topo == BFLY_TOPO_BFLY_TWICE;
	struct bfly_sched sched;
	u64 *lab = xalloc(N * sizeof(u64));
	u32 *dest = xalloc(N * sizeof(u32));
	u32 *del = xalloc(N * sizeof(u32));
	u32 *sub = xalloc(N * sizeof(u32));
	unsigned long *id = xalloc(matrix_bytes(&g));
	unsigned long *m = xalloc(matrix_bytes(&g));
	void *sw = xalloc(bfly_selfroute_workspace_size(&g));
	void *cw = xalloc(bfly_sched_check_workspace_size(&g));
	void *pw = xalloc(bfly_sched_split_workspace_size(&g));
	bool noconf = true, deliv = true, fast = true, r41 = true, one = true;
	bool ident = true;
	u64 inj = 0;

	bfly_sched_init(&sched, &g, BFLY_LATIN_RLS, NULL, NULL);
	for (k = 0; k < N; k++) {
		struct bfly_conflicts c = { 0 };
		unsigned long *mk = k ? m : id;
		int sr;

		bfly_sched_round(&sched, k, dest, lab);
		bfly_selfroute_labels(&g, lab, mk, del, &c, sw);
		noconf &= c.count == 0;
		for (i = 0; i < N; i++)
			deliv &= del[i] == ((i - k) & (N - 1)) &&
				 dest[i] == del[i];
		fast &= bfly_sched_check(&g, lab, NULL, NULL, cw) == 0;
		sr = bfly_sched_split(&g, lab, NULL, sub, pw);
		one &= sr == 1;
		inj += sr > 0 ? sr : 0;
		if (!k || n < 2)
			continue;
		/* Remark IV.1, on the second butterfly */
		if (!twice) {
			for (s = n; s <= 2 * n - 2; s++)
				r41 &= stage_eq(&g, m, s, id, s,
						(k & 1) && s == n);
		} else {
			r41 &= stage_eq(&g, m, n, id, n, false);
			for (s = n + 1; s <= 2 * n - 1; s++)
				r41 &= stage_eq(&g, m, s, id, s,
						(k & 1) && s == n + 1);
		}
	}
	check(noconf, "%s N=%u: every RLS round k=0..N-1 self-routes with no conflict",
	      topo_name(topo), N);
	check(deliv, "%s N=%u: every RLS round delivers i to (i-k) mod N",
	      topo_name(topo), N);
	check(fast && one, "%s N=%u: bfly_sched_check finds no conflict, split gives 1 sub-round",
	      topo_name(topo), N);
	if (n >= 2)
		check(r41, "%s N=%u: Remark IV.1 (odd k: stage %u complemented)",
		      topo_name(topo), N, twice ? n + 1 : n);
	/* identity: stage 0 straight, both butterflies carry one setting */
	for (i = 0; i < N / 2; i++)
		ident &= !test_bit(bfly_matrix_bit(&g, 0, i), id);
	for (s = twice ? 0 : 1; s < n; s++)
		ident &= stage_eq(&g, id, s, id, twice ? n + s : n - 1 + s,
				  false);
	check(ident, "%s N=%u: identity has stage 0 straight and equal butterflies",
	      topo_name(topo), N);
	check(bfly_sched_cycles(&g, inj) ==
	      (twice ? 2 * n : 2 * n - 1) + (N - 1),
	      "%s N=%u: Remark V.1 cycles %llu = %s + (N-1)", topo_name(topo),
	      N, (unsigned long long)bfly_sched_cycles(&g, inj),
	      twice ? "2n" : "(2n-1)");
	free(lab);
	free(dest);
	free(del);
	free(sub);
	free(id);
	free(m);
	free(sw);
	free(cw);
	free(pw);
}

static void test_n8_settings(void)
{
	static const char *const want[2] = {
		"0000 0110 0110 0110 0110", "0000 1101 0101 1001 0110"
	};
	struct bfly_geometry g = geom(BFLY_TOPO_BFLY2, 3);
	unsigned long m[1];
	u64 lab[8];
	u32 work[16], k;
	char s[64];

	for (k = 0; k < 2; k++) {
		struct bfly_conflicts c = { 0 };

		bfly_rls_labels_round(8, k, lab);
		bfly_selfroute_labels(&g, lab, m, NULL, &c, work);
		stage_str(&g, m, s);
		check(!strcmp(s, want[k]) && !c.count,
		      "bfly2 N=8 k=%u settings %s (want %s)", k, s, want[k]);
	}
}

/* ---- other schedules, squares and splitting ---- */

/*
 * Route the active packets of one sub-round by their labels, independently
 * of schedule.c: walk every packet through the wiring, check that no link
 * carries two packets and that it arrives at @dest.
 */
static bool walk_subround(const struct bfly_geometry *g, const u64 *lab,
			  const u32 *dest, const unsigned long *active,
			  u32 *owner)
{
	u32 N = g->ports, S = g->node_stages, i, s;
	bool ok = true;

	for (s = 0; s < S; s++)
		for (i = 0; i < N; i++)
			owner[(size_t)s * N + i] = U32_MAX;
	for (i = 0; i < N; i++) {
		u32 pos = i;

		if (!test_bit(i, active))
			continue;
		for (s = 0; s < S; s++) {
			u32 out = (lab[i] >> (S - 1 - s)) & 1;

			pos = (pos & ~1U) | out;
			if (owner[(size_t)s * N + pos] != U32_MAX)
				ok = false;
			owner[(size_t)s * N + pos] = i;
			if (s + 1 < S)
				pos = bfly_wiring_link(g, s, pos);
		}
		ok &= pos == dest[i];
	}
	return ok;
}

static void test_schedule(enum bfly_topology topo, u32 n,
			  enum bfly_latin latin, const u32 *square,
			  int expect_conflicts)
{
	struct bfly_geometry g = geom(topo, n);
	u32 N = g.ports, k, i, r;
	struct bfly_sched sched;
	u64 *lab = xalloc(N * sizeof(u64));
	u32 *dest = xalloc(N * sizeof(u32));
	u32 *del = xalloc(N * sizeof(u32));
	u32 *sub = xalloc(N * sizeof(u32));
	u32 *owner = xalloc((size_t)g.node_stages * N * sizeof(u32));
	u32 *seen = xalloc((size_t)N * N * sizeof(u32));
	unsigned long *m = xalloc(matrix_bytes(&g));
	unsigned long *act = xalloc(BITS_TO_LONGS(N) * sizeof(long));
	void *sw = xalloc(bfly_selfroute_workspace_size(&g));
	void *cw = xalloc(bfly_sched_check_workspace_size(&g));
	void *pw = xalloc(bfly_sched_split_workspace_size(&g));
	void *lw = xalloc(bfly_linkload_workspace_size(&g) +
			  bfly_latin_check_workspace_size(N));
	bool agree = true, split_ok = true, cover = true, fs_ok = true;
	bool any_conf = false, perm_ok = true, mll_ok = true;
	u64 inj = 0;
	int ret;

	ret = bfly_sched_init(&sched, &g, latin, square, lw);
	if (ret) {
		check(false, "%s %s N=%u: init %d", topo_name(topo),
		      latin_name(latin), N, ret);
		goto out;
	}
	for (k = 0; k < N; k++) {
		struct bfly_conflicts c = { 0 };
		u32 fs;
		int nc, sr;

		bfly_sched_round(&sched, k, dest, lab);
		for (i = 0; i < N; i++) {
			perm_ok &= dest[i] < N && !seen[(size_t)i * N + dest[i]];
			if (dest[i] < N)
				seen[(size_t)i * N + dest[i]] = 1;
		}
		bfly_selfroute_labels(&g, lab, m, del, &c, sw);
		nc = bfly_sched_check(&g, lab, NULL, &fs, cw);
		agree &= (nc == 0) == (c.count == 0);
		fs_ok &= fs == c.first_stage;
		any_conf |= nc > 0;
		sr = bfly_sched_split(&g, lab, NULL, sub, pw);
		if (sr < 1 || (nc == 0 && sr != 1)) {
			split_ok = false;
			continue;
		}
		inj += sr;
		for (i = 0; i < N; i++)
			cover &= sub[i] < (u32)sr;
		for (r = 0; r < (u32)sr; r++) {
			u32 mll = 0;

			bfly_sched_subround_active(N, sub, r, act);
			split_ok &= walk_subround(&g, lab, dest, act, owner);
			split_ok &= bfly_sched_check(&g, lab, act, NULL, cw) == 0;
			bfly_linkload_labels(&g, lab, act, NULL, NULL, &mll, lw);
			mll_ok &= mll <= 1;
		}
	}
	check(perm_ok, "%s %s N=%u: every round is a permutation and every pair (i, d) occurs once",
	      topo_name(topo), latin_name(latin), N);
	check(agree && fs_ok, "%s %s N=%u: bfly_sched_check agrees with selfroute",
	      topo_name(topo), latin_name(latin), N);
	if (expect_conflicts >= 0)
		check(any_conf == expect_conflicts, "%s %s N=%u: %s",
		      topo_name(topo), latin_name(latin), N,
		      expect_conflicts ? "has conflicts" : "no round conflicts");
	check(split_ok && cover && mll_ok,
	      "%s %s N=%u: sub-rounds conflict-free, cover every message, deliver it (%llu injections, %llu cycles)",
	      topo_name(topo), latin_name(latin), N, (unsigned long long)inj,
	      (unsigned long long)bfly_sched_cycles(&g, inj));
out:
	free(lab);
	free(dest);
	free(del);
	free(sub);
	free(owner);
	free(seen);
	free(m);
	free(act);
	free(sw);
	free(cw);
	free(pw);
	free(lw);
}

static void test_benes_rounds(u32 n)
{
	struct bfly_geometry g = geom(BFLY_TOPO_BENES, n);
	u32 N = g.ports, k, i;
	enum bfly_latin l;
	u32 *dest = xalloc(N * sizeof(u32));
	u32 *tr = xalloc(N * sizeof(u32));
	u64 lab[2];
	unsigned long *m = xalloc(matrix_bytes(&g));
	void *bw = xalloc(bfly_benes_workspace_size(&g));

	for (l = BFLY_LATIN_RLS; l <= BFLY_LATIN_XOR; l++) {
		struct bfly_sched sched;
		bool ok = true;

		bfly_sched_init(&sched, &g, l, NULL, NULL);
		ok &= bfly_sched_round(&sched, 0, NULL, lab) == -EOPNOTSUPP;
		for (k = 0; k < N; k++) {
			bfly_sched_round(&sched, k, dest, NULL);
			ok &= bfly_benes_route(&g, dest, m, bw) == 0;
			bfly_trace(&g, m, tr);
			for (i = 0; i < N; i++)
				ok &= tr[i] == dest[i];
		}
		check(ok && bfly_sched_cycles(&g, N) == 2 * n - 1 + N - 1,
		      "benes %s N=%u: looping algorithm routes every round, no labels",
		      latin_name(l), N);
	}
	free(dest);
	free(tr);
	free(m);
	free(bw);
}

/* a(i, k) = sigma(tau(i) XOR rho(k)): a random Latin square */
static u32 *random_latin(u32 n)
{
	u32 N = 1U << n, i, k;
	u32 *sq = xalloc((size_t)N * N * sizeof(u32));
	u32 *sg = xalloc(N * sizeof(u32)), *ta = xalloc(N * sizeof(u32));
	u32 *rh = xalloc(N * sizeof(u32));

	random_perm(sg, N);
	random_perm(ta, N);
	random_perm(rh, N);
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[(size_t)i * N + k] = sg[ta[i] ^ rh[k]];
	free(sg);
	free(ta);
	free(rh);
	return sq;
}

static void test_squares(void)
{
	u32 n = 4, N = 1U << n, i, k;
	struct bfly_geometry g = geom(BFLY_TOPO_BFLY2, n);
	u32 *sq = xalloc((size_t)N * N * sizeof(u32));
	void *w = xalloc(bfly_latin_check_workspace_size(N));
	struct bfly_sched s;
	u32 t;
	bool ok;

	/* the built-in schedules, written out as squares, are Latin */
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i - k) & (N - 1);
	check(bfly_latin_check(N, sq, w) == 0, "rls as a square is Latin");
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = i ^ k;
	check(bfly_latin_check(N, sq, w) == 0, "xor as a square is Latin");
	/* the built-in schedules' rounds equal their squares */
	ok = bfly_sched_init(&s, &g, BFLY_LATIN_SQUARE, sq, w) == 0;
	{
		struct bfly_sched x;
		u32 a[16], b[16];
		u64 la[16], lb[16];

		bfly_sched_init(&x, &g, BFLY_LATIN_XOR, NULL, NULL);
		for (k = 0; k < N; k++) {
			bfly_sched_round(&s, k, a, la);
			bfly_sched_round(&x, k, b, lb);
			ok &= !memcmp(a, b, sizeof(a)) &&
			      !memcmp(la, lb, sizeof(la));
		}
	}
	check(ok, "a caller square equal to xor gives xor's rounds and labels");

	/* rejected: a repeated value in a column */
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i + 2 * k) & (N - 1);
	check(bfly_latin_check(N, sq, w) == -EINVAL &&
	      bfly_sched_init(&s, &g, BFLY_LATIN_SQUARE, sq, w) == -EINVAL,
	      "non-Latin square (repeat in a row) rejected");
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = k;
	check(bfly_latin_check(N, sq, w) == -EINVAL,
	      "non-Latin square (every row the identity: columns repeat) rejected");
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			sq[i * N + k] = (i - k) & (N - 1);
	t = sq[5 * N + 3];
	sq[5 * N + 3] = sq[5 * N + 4];
	sq[5 * N + 4] = t;
	check(bfly_latin_check(N, sq, w) == -EINVAL,
	      "non-Latin square (two entries of a row swapped) rejected");
	sq[5 * N + 4] = sq[5 * N + 3];
	sq[5 * N + 3] = t;
	sq[7 * N + 2] = N;
	check(bfly_latin_check(N, sq, w) == -EINVAL,
	      "non-Latin square (entry N) rejected");
	check(bfly_latin_check(N, NULL, w) == -EINVAL &&
	      bfly_sched_init(&s, &g, BFLY_LATIN_SQUARE, NULL, w) == -EINVAL,
	      "missing square rejected");
	check(bfly_sched_init(&s, &g, 0, NULL, NULL) == -EINVAL &&
	      bfly_sched_init(&s, &g, 5, NULL, NULL) == -EINVAL,
	      "unknown schedule rejected");
	g.ports = 12;
	check(bfly_sched_init(&s, &g, BFLY_LATIN_RLS, NULL, NULL) == -EINVAL,
	      "bad geometry rejected");
	g = geom(BFLY_TOPO_BFLY2, n);
	bfly_sched_init(&s, &g, BFLY_LATIN_RLS, NULL, NULL);
	check(bfly_sched_round(&s, N, NULL, NULL) == -EINVAL,
	      "round k = N rejected");
	check(bfly_sched_default(&g) == BFLY_LATIN_RLS, "default schedule is rls");
	free(sq);
	free(w);
}

int main(void)
{
	enum bfly_topology topo;
	u32 n;

	test_pihat();
	test_intermediate_k1();
	test_labels_vs_reference();
	for (n = 1; n <= 10; n++) {
		test_rls_rounds(BFLY_TOPO_BFLY2, n);
		test_rls_rounds(BFLY_TOPO_BFLY_TWICE, n);
	}
	test_n8_settings();
	for (n = 2; n <= 8; n++) {
		/* LLS and rls on one butterfly: conflicts, split delivers */
		test_schedule(BFLY_TOPO_BUTTERFLY, n, BFLY_LATIN_LLS, NULL, 1);
		test_schedule(BFLY_TOPO_BUTTERFLY, n, BFLY_LATIN_RLS, NULL, 1);
		test_schedule(BFLY_TOPO_BUTTERFLY, n, BFLY_LATIN_XOR, NULL, 1);
		for (topo = BFLY_TOPO_BFLY2; topo <= BFLY_TOPO_BFLY_TWICE;
		     topo++) {
			u32 *sq = random_latin(n);

			test_schedule(topo, n, BFLY_LATIN_LLS, NULL, 0);
			test_schedule(topo, n, BFLY_LATIN_XOR, NULL, 0);
			/* a random square: conflicts or not, all delivered */
			test_schedule(topo, n, BFLY_LATIN_SQUARE, sq, -1);
			free(sq);
		}
		test_benes_rounds(n);
	}
	test_squares();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
