// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the LCAN paper's permutation routing experiments
 * (Section 3.3) and its two conjectures, run natively on the algorithm
 * library (kmod/lib/lcan.c, lcan_cycles.c; Documentation/lcan.rst).
 *
 *   lcan-experiments [-o] [-k K] [-s SEED] [-j] [-L] TOPOLOGY D U N EXPERIMENT
 *
 * TOPOLOGY is cb-lcan, t-lcan or fattree (the d-ary fat tree equivalent to
 * CB-LCAN(D,U)); N is the processors (PEs). Every permutation routes in
 * network cycles (bfly_lcan_msgset_route()), on-line (random up-choices)
 * or, with -o, off-line; each result is checked here: every message
 * routed, no wire and no processor twice in a cycle, never fewer cycles
 * than ceil(lambda(M)).
 *
 * PE p is the number whose digits the paper writes, most significant
 * first: p = p_(l-1) .. p_1 p_0, p_0 (base d) the downer of level-0
 * switch p / d, p_i for i >= 1 base d on a CB-LCAN and a fat tree, base
 * d / u on a T-LCAN (the child group within the level-i group).
 *
 * Random numbers are splitmix64 streams seeded from SEED and the
 * experiment's name, so that every figure is reproducible and an
 * experiment gives the same figures alone or within "all".
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/lcan.h"
#include "cmdline.h"

#define PROG "lcan-experiments"

/* Random sets stop at this N unless --large */
#define SMALL_N_MAX 4096

/* Differences CB - fat tree kept in the histogram: -HIST .. HIST */
#define HIST 8

static const char *const topo_names[] = {
	[BFLY_LCAN_CB] = "cb-lcan",
	[BFLY_LCAN_TREE] = "t-lcan",
	[BFLY_LCAN_FATTREE] = "fattree",
};

static const char *const topo_titles[] = {
	[BFLY_LCAN_CB] = "CB-LCAN",
	[BFLY_LCAN_TREE] = "T-LCAN",
	[BFLY_LCAN_FATTREE] = "fat tree",
};

/* The command line. */
struct opts {
	u32 kind;
	u32 d;
	u32 u;
	u32 ports;
	u32 runs;
	u32 strategy;
	u64 seed;
	bool json;
	bool large;
};

/* One network, with the arrays a message set of N messages needs. */
struct net {
	struct bfly_lcan g;
	u32 radix[BFLY_LCAN_MAX_LEVELS];
	u32 *src;
	u32 *cycle;
	u32 *choices;
	u32 *stamp;
	u32 *pe_stamp;
	u32 *order;
	void *work;
};

/* What one routed set gave. */
struct result {
	u32 cycles;
	u32 bound;
	double lambda;
};

/*
 * Running figures of a sample (Welford's mean and sum of squared
 * deviations). @exact: one run of a deterministic routing, a value rather
 * than an estimate, its interval of zero width.
 */
struct sample {
	u32 n;
	double mean;
	double m2;
	u32 min;
	u32 max;
	bool exact;
};

/* A row of the report: one kind of message set, several runs. */
struct row {
	char name[48];
	const char *mode;
	bool worst;
	struct sample cycles;
	struct sample bound;
	double lambda_sum;
};

static noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/* splitmix64 */
static u64 rng_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in 0 .. @n - 1 (n >= 1), without bias. */
static u32 rng_below(u64 *state, u32 n)
{
	u64 limit = U64_MAX - U64_MAX % n, x;

	do {
		x = rng_next(state);
	} while (x >= limit);
	return x % n;
}

/* The stream of experiment @name under @seed (FNV-1a of the name, mixed). */
static u64 stream_seed(u64 seed, const char *name)
{
	u64 h = 0xcbf29ce484222325ULL, s;

	while (*name)
		h = (h ^ (u8)*name++) * 0x100000001b3ULL;
	s = seed ^ h;
	return rng_next(&s);
}

static void sample_add(struct sample *s, u32 x)
{
	double delta;

	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	delta = x - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (x - s->mean);
}

static double sample_mean(const struct sample *s)
{
	return s->mean;
}

/* The sample standard deviation (n - 1), 0 below two values. */
static double sample_sd(const struct sample *s)
{
	return s->n < 2 ? 0 : sqrt(s->m2 / (s->n - 1));
}

/*
 * t_(0.975, df), Student's t quantile for two-sided 95%: a table up to
 * df = 10, the Cornish-Fisher expansion about the normal quantile above
 * (within 1e-5 from df = 11 on).
 */
static double t_quantile_975(u32 df)
{
	static const double table[] = {
		12.706205, 4.302653, 3.182446, 2.776445, 2.570582,
		2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
	};
	double z = 1.959963984540054, z2 = z * z, n = df;

	if (df <= ARRAY_SIZE(table))
		return table[df - 1];
	return z + z * (z2 + 1) / (4 * n) +
	       z * ((5 * z2 + 16) * z2 + 3) / (96 * n * n) +
	       z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * n * n * n) +
	       z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) /
	       (92160 * n * n * n * n);
}

/*
 * Half the width of the 95% confidence interval of the mean, Student's t
 * with n - 1 degrees of freedom: 0 for an exact value, NAN (none) for a
 * single run that is not.
 */
static double sample_ci(const struct sample *s)
{
	if (s->exact)
		return 0;
	if (s->n < 2)
		return NAN;
	return t_quantile_975(s->n - 1) * sample_sd(s) / sqrt(s->n);
}

/* "[low, high]" with @prec decimals, or "-" without an interval. */
static const char *ci_text(const struct sample *s, int prec, char *buf, size_t size)
{
	double m = sample_mean(s), h = sample_ci(s);

	if (isnan(h))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%.*f, %.*f]", prec, m - h, prec, m + h);
	return buf;
}

static void row_add(struct row *r, const struct result *res)
{
	sample_add(&r->cycles, res->cycles);
	sample_add(&r->bound, res->bound);
	r->lambda_sum += res->lambda;
}

static void net_init(struct net *n, u32 kind, u32 d, u32 u, u32 ports)
{
	const char *why = NULL;
	u32 i;

	memset(n, 0, sizeof(*n));
	if (bfly_lcan_init(&n->g, kind, d, u, ports, &why))
		die("%s %u %u %u: %s", topo_names[kind], d, u, ports, why);
	for (i = 0; i < n->g.levels; i++)
		n->radix[i] = i ? n->g.arity : d;
	n->src = xcalloc(ports, sizeof(u32));
	n->cycle = xcalloc(ports, sizeof(u32));
	n->order = xcalloc(ports, sizeof(u32));
	n->choices = xcalloc((size_t)ports * 2 * n->g.levels, sizeof(u32));
	n->stamp = xcalloc(bfly_lcan_settings_size(&n->g), sizeof(u32));
	n->pe_stamp = xcalloc(ports, sizeof(u32));
	n->work = xcalloc(bfly_lcan_msgset_workspace_size(&n->g, ports), 1);
	for (i = 0; i < ports; i++)
		n->src[i] = i;
}

static void net_free(struct net *n)
{
	free(n->src);
	free(n->cycle);
	free(n->order);
	free(n->choices);
	free(n->stamp);
	free(n->pe_stamp);
	free(n->work);
}

/*
 * Rebuild every message's path from its choices and check the cycles: no
 * outgoing wire of a connector and no source twice in one cycle, each
 * path ending where it should, every cycle carrying a message.
 */
static void net_verify(struct net *n, const struct bfly_lcan_msgset *ms)
{
	const struct bfly_lcan *g = &n->g;
	u32 *start = xcalloc(ms->cycles + 1, sizeof(u32));
	struct bfly_lcan_path path;
	u32 m, c, h, j;

	if (ms->routed != ms->count || ms->cycles < ms->bound)
		die("check: %u of %u routed in %u cycles, bound %u", ms->routed, ms->count,
		    ms->cycles, ms->bound);
	/* the messages, cycle by cycle (counting sort) */
	for (m = 0; m < ms->count; m++) {
		if (ms->cycle[m] >= ms->cycles)
			die("check: message %u in cycle %u of %u", m, ms->cycle[m], ms->cycles);
		start[ms->cycle[m] + 1]++;
	}
	for (c = 0; c < ms->cycles; c++) {
		if (!start[c + 1])
			die("check: cycle %u carries nothing", c);
		start[c + 1] += start[c];
	}
	for (m = 0; m < ms->count; m++)
		n->order[start[ms->cycle[m]]++] = m;
	memset(n->stamp, 0, bfly_lcan_settings_size(g) * sizeof(u32));
	memset(n->pe_stamp, 0, g->ports * sizeof(u32));
	for (j = 0; j < ms->count; j++) {
		const u32 *ch;
		u32 stamp;
		int err;

		m = n->order[j];
		ch = ms->choices + (u64)m * 2 * g->levels;
		stamp = ms->cycle[m] + 1;
		if (ms->mode == BFLY_LCAN_UNIDIR)
			err = bfly_lcan_uni_path(g, ms->src[m], ms->dst[m], &path);
		else
			err = bfly_lcan_pair_path(g, ms->src[m], ms->dst[m], ch, ch + g->levels,
						  &path);
		if (err)
			die("check: message %u: no path from its choices", m);
		if (n->pe_stamp[ms->src[m]] == stamp)
			die("check: processor %u sends twice in cycle %u", ms->src[m], stamp - 1);
		n->pe_stamp[ms->src[m]] = stamp;
		for (h = 0; h < path.count; h++) {
			const struct bfly_lcan_hop *x = &path.hops[h];
			u64 e = bfly_lcan_entry(g, x->level, x->sw, x->out);

			if (n->stamp[e] == stamp)
				die("check: message %u shares a wire in cycle %u", m, stamp - 1);
			n->stamp[e] = stamp;
		}
	}
	free(start);
}

/* Route the set PE p -> @dst[p] and check the result. */
static void net_route(struct net *n, const u32 *dst, u32 mode, u32 strategy, u64 seed,
		      struct result *res)
{
	struct bfly_lcan_msgset ms = {
		.src = n->src, .dst = dst, .count = n->g.ports, .mode = mode,
		.strategy = strategy, .seed = seed, .cycle = n->cycle,
		.choices = n->choices,
	};
	const char *why = NULL;
	u32 bad;
	int err;

	if (bfly_lcan_msgset_check(&n->g, &ms, &bad, &why))
		die("message %u: %s", bad, why);
	err = bfly_lcan_msgset_route(&n->g, &ms, n->work);
	if (err)
		die("routing: %s", strerror(-err));
	net_verify(n, &ms);
	res->cycles = ms.cycles;
	res->bound = ms.bound;
	res->lambda = (double)ms.lambda_load / ms.lambda_cap;
}

/* Does every pair of @dst have LCA level l - 1? */
static bool in_worst_set(const struct net *n, const u32 *dst)
{
	u32 p;

	for (p = 0; p < n->g.ports; p++)
		if (bfly_lcan_lca_level(&n->g, p, dst[p]) != n->g.levels - 1)
			return false;
	return true;
}

static void perm_random(u32 *dst, u32 ports, u64 *rng)
{
	u32 i;

	for (i = 0; i < ports; i++)
		dst[i] = i;
	for (i = ports; i > 1; i--) {
		u32 j = rng_below(rng, i), t = dst[i - 1];

		dst[i - 1] = dst[j];
		dst[j] = t;
	}
}

/* Swaps per permutation the worst-case walk takes (d / u > 2). */
static u64 worst_walk_steps(u32 ports)
{
	return 16ULL * ports * (ilog2(ports) + 1);
}

/*
 * A permutation drawn uniformly from the worst-case set: every pair has
 * LCA level l - 1, i.e. the destination's top digit differs from the
 * source's. The top digit splits the PEs into a blocks of N / a (a the
 * arity, d or d / u). With a = 2: a random bijection of each half onto
 * the other, exactly uniform. With a > 2: a random walk from the block
 * shift p -> p + N / a; each step draws x, y, z and rotates their
 * destinations (z's to y, y's to x, x's to z; with y = z the two swap)
 * when all three stay in the set. The steps are symmetric, so the walk
 * tends to the uniform distribution; it takes worst_walk_steps() of them.
 * (Swaps alone never leave the block shift for a = 3.)
 */
static void perm_worst(const struct net *n, u32 *dst, u64 *rng)
{
	u32 ports = n->g.ports, a = n->radix[n->g.levels - 1], block = ports / a, i;
	u64 s, steps;

	if (a == 2) {
		u32 *half = xcalloc(block, sizeof(u32));
		u32 h;

		for (h = 0; h < 2; h++) {
			perm_random(half, block, rng);
			for (i = 0; i < block; i++)
				dst[h * block + i] = (1 - h) * block + half[i];
		}
		free(half);
		return;
	}
	for (i = 0; i < ports; i++)
		dst[i] = (i + block) % ports;
	steps = worst_walk_steps(ports);
	for (s = 0; s < steps; s++) {
		u32 x = rng_below(rng, ports), y = rng_below(rng, ports), z = rng_below(rng, ports);
		u32 t = dst[x];

		if (x == y || x == z)
			continue;
		if (dst[y] / block == x / block || dst[z] / block == y / block ||
		    dst[x] / block == z / block)
			continue;
		dst[x] = dst[y];
		dst[y] = dst[z];
		dst[z] = t;
	}
}

/* Digit reversal in the network's mixed radix. */
static void perm_reversal(const struct net *n, u32 *dst)
{
	u32 l = n->g.levels, p, i;

	for (p = 0; p < n->g.ports; p++) {
		u32 x = p, y = 0;

		/* digit i of p becomes digit l - 1 - i, radices reversed */
		for (i = 0; i < l; i++) {
			y = y * n->radix[i] + x % n->radix[i];
			x /= n->radix[i];
		}
		dst[p] = y;
	}
}

/* Transpose: p = H B + L -> L (N / B) + H, B the low floor(l / 2) digits. */
static void perm_transpose(const struct net *n, u32 *dst)
{
	u32 b = 1, p, i;

	for (i = 0; i < n->g.levels / 2; i++)
		b *= n->radix[i];
	for (p = 0; p < n->g.ports; p++)
		dst[p] = p % b * (n->g.ports / b) + p / b;
}

/* Perfect shuffle: the top digit rotated to the bottom. */
static void perm_shuffle(const struct net *n, u32 *dst)
{
	u32 a = n->radix[n->g.levels - 1], rest = n->g.ports / a, p;

	for (p = 0; p < n->g.ports; p++)
		dst[p] = p % rest * a + p / rest;
}

static void perm_shift(u32 *dst, u32 ports, u32 by)
{
	u32 p;

	for (p = 0; p < ports; p++)
		dst[p] = (p + by) % ports;
}

static const char *strategy_name(u32 strategy)
{
	return strategy == BFLY_LCAN_OFFLINE ? "off-line" : "on-line";
}

/* "CB-LCAN(2,2)", "the 2-ary fat tree of CB-LCAN(2,2)" */
static const char *net_title(const struct net *n, char *buf, size_t size)
{
	if (n->g.kind == BFLY_LCAN_FATTREE)
		snprintf(buf, size, "the %u-ary fat tree of CB-LCAN(%u,%u)", n->g.d, n->g.d,
			 n->g.u);
	else
		snprintf(buf, size, "%s(%u,%u)", topo_titles[n->g.kind], n->g.d, n->g.u);
	return buf;
}

/* The report: text on stdout as it goes, or one JSON document at the end. */
struct report {
	const struct opts *o;
	struct json_object *root;
	struct json_object *list;
};

static struct json_object *json_sample(const struct sample *s, bool ci)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "mean", json_object_new_double(sample_mean(s)));
	if (ci) {
		struct json_object *a = NULL;
		double h = sample_ci(s);

		/* null without an interval (a single on-line run) */
		if (!isnan(h)) {
			a = json_object_new_array();
			json_object_array_add(a, json_object_new_double(sample_mean(s) - h));
			json_object_array_add(a, json_object_new_double(sample_mean(s) + h));
		}
		json_object_object_add(j, "sd", json_object_new_double(sample_sd(s)));
		json_object_object_add(j, "ci95", a);
	}
	json_object_object_add(j, "min", json_object_new_int64(s->min));
	json_object_object_add(j, "max", json_object_new_int64(s->max));
	return j;
}

static struct json_object *json_row(const struct row *r)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "set", json_object_new_string(r->name));
	json_object_object_add(j, "mode", json_object_new_string(r->mode));
	json_object_object_add(j, "in_worst_set", json_object_new_boolean(r->worst));
	json_object_object_add(j, "runs", json_object_new_int64(r->cycles.n));
	json_object_object_add(j, "cycles", json_sample(&r->cycles, true));
	json_object_object_add(j, "ceil_lambda", json_sample(&r->bound, false));
	json_object_object_add(j, "lambda_mean",
			       json_object_new_double(r->lambda_sum / r->cycles.n));
	return j;
}

/* Add experiment @name's object @j to the JSON report. */
static void report_add(struct report *rep, const char *name, struct json_object *j)
{
	json_object_object_add(j, "experiment", json_object_new_string(name));
	json_object_array_add(rep->list, j);
}

static void print_row_head(void)
{
	printf("  %-22s %-5s %5s %8s %7s %19s %5s %5s %8s %7s %8s\n", "set", "mode", "runs",
	       "mean", "sd", "95% CI", "min", "max", "ceil(L)", "range", "lambda");
}

static void print_row(const struct row *r)
{
	char ci[40], range[24];

	ci_text(&r->cycles, 3, ci, sizeof(ci));
	snprintf(range, sizeof(range), "%u-%u", r->bound.min, r->bound.max);
	printf("  %-22s %-5s %5u %8.3f %7.3f %19s %5u %5u %8.3f %7s %8.3f%s\n", r->name, r->mode,
	       r->cycles.n, sample_mean(&r->cycles), sample_sd(&r->cycles), ci, r->cycles.min,
	       r->cycles.max, sample_mean(&r->bound), range, r->lambda_sum / r->cycles.n,
	       r->worst ? "  *" : "");
}

/* A table of rows under a title. */
static void report_rows(struct report *rep, const char *exp, const char *title,
			const struct row *rows, u32 count)
{
	u32 i;

	if (rep->o->json) {
		struct json_object *j = json_object_new_object(), *a = json_object_new_array();

		for (i = 0; i < count; i++)
			json_object_array_add(a, json_row(&rows[i]));
		json_object_object_add(j, "rows", a);
		report_add(rep, exp, j);
		return;
	}
	printf("\n%s\n", title);
	print_row_head();
	for (i = 0; i < count; i++)
		print_row(&rows[i]);
}

/*
 * Route one fixed permutation: once off-line (deterministic), K times
 * on-line, run r with seed stream + r.
 */
static void run_fixed(struct net *n, const struct opts *o, const u32 *dst, u32 mode,
		      u64 stream, struct row *r)
{
	u32 runs = o->strategy == BFLY_LCAN_OFFLINE || mode == BFLY_LCAN_UNIDIR ? 1 : o->runs;
	struct result res;
	u32 i;

	r->mode = mode == BFLY_LCAN_UNIDIR ? "uni" : "bi";
	r->worst = mode == BFLY_LCAN_BIDIR && n->g.levels > 1 && in_worst_set(n, dst);
	/* off-line and uni-directional routing are deterministic: one exact run */
	r->cycles.exact = o->strategy == BFLY_LCAN_OFFLINE || mode == BFLY_LCAN_UNIDIR;
	for (i = 0; i < runs; i++) {
		net_route(n, dst, mode, o->strategy, stream + i, &res);
		row_add(r, &res);
	}
}

/* K random permutations (@worst: of the worst-case set). */
static void run_random(struct net *n, const struct opts *o, bool worst, u32 mode,
		       const char *name, struct row *r)
{
	u64 rng = stream_seed(o->seed, name), route_seed = stream_seed(o->seed, "route");
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct result res;
	u32 i;

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->mode = mode == BFLY_LCAN_UNIDIR ? "uni" : "bi";
	r->worst = worst;
	for (i = 0; i < o->runs; i++) {
		if (worst)
			perm_worst(n, dst, &rng);
		else
			perm_random(dst, n->g.ports, &rng);
		if (worst && !in_worst_set(n, dst))
			die("internal: a worst-case permutation with a pair below level l - 1");
		net_route(n, dst, mode, o->strategy, route_seed + i, &res);
		row_add(r, &res);
	}
	free(dst);
}

/* What an experiment needs of the network, checked before any output. */
enum needs {
	NEED_SMALL = 1,		/* N <= SMALL_N_MAX, or --large */
	NEED_LEVELS = 2,	/* l >= 2 */
	NEED_CB_OR_FT = 4,	/* a CB-LCAN or a fat tree */
	NEED_CB_D_LE_U = 8,	/* a CB-LCAN with d <= u */
};

static void exp_check(const struct net *n, const struct opts *o, const char *exp, u32 needs)
{
	if ((needs & NEED_SMALL) && n->g.ports > SMALL_N_MAX && !o->large)
		die("%s: N = %u is above %u; --large runs it", exp, n->g.ports, SMALL_N_MAX);
	if ((needs & NEED_LEVELS) && n->g.levels < 2)
		die("%s: needs two levels at least (every pair of one level has LCA level 0)",
		    exp);
	if ((needs & NEED_CB_OR_FT) && n->g.kind == BFLY_LCAN_TREE)
		die("%s: CB-LCAN(d,u) against its d-ary fat tree: cb-lcan or fattree", exp);
	if ((needs & NEED_CB_D_LE_U) && (n->g.kind != BFLY_LCAN_CB || n->g.d > n->g.u))
		die("%s: a CB-LCAN(d,u) with d <= u", exp);
}

static void header(const struct net *n, const struct opts *o)
{
	char t[48];

	printf("%s, N = %u, l = %u levels, %s, K = %u, seed %llu\n",
	       net_title(n, t, sizeof(t)), n->g.ports, n->g.levels, strategy_name(o->strategy),
	       o->runs, (unsigned long long)o->seed);
	printf("PE p = p_(l-1) .. p_0, most significant first; p_0 base %u", n->g.d);
	printf(" (the downer of level-0 switch p / %u), p_1 .. p_(l-1) base %u\n", n->g.d,
	       n->g.arity);
	fputs("cycles: network cycles; ceil(L): ceil(lambda(M)), its range over the runs;",
	      stdout);
	puts(" lambda: mean lambda(M); * every pair has LCA level l - 1");
}

static void random_rows(struct net *n, struct report *rep, struct row *out)
{
	const struct opts *o = rep->o;
	struct row r[2];
	u32 rows = 1;

	memset(r, 0, sizeof(r));
	run_random(n, o, false, BFLY_LCAN_BIDIR, "random", &r[0]);
	/* the paper reduces the worst-case set to this (Section 3.3) */
	if (n->g.kind == BFLY_LCAN_CB && n->g.d == n->g.u)
		run_random(n, o, false, BFLY_LCAN_UNIDIR, "random", &r[rows++]);
	report_rows(rep, "random", rows > 1 ?
		    "random permutations (uni: up through every level to output = destination)" :
		    "random permutations", r, rows);
	if (out)
		*out = r[0];
}

static void worst_rows(struct net *n, struct report *rep, struct row *out)
{
	const struct opts *o = rep->o;
	struct row r;
	char title[160];

	memset(&r, 0, sizeof(r));
	run_random(n, o, true, BFLY_LCAN_BIDIR, "worst", &r);
	snprintf(title, sizeof(title),
		 "random permutations of the worst-case set (every pair has LCA level %u)%s",
		 n->g.levels - 1, n->radix[n->g.levels - 1] > 2 ?
		 ": by a walk of rotations from the block shift" : "");
	report_rows(rep, "worst", title, &r, 1);
	if (out)
		*out = r;
}

static void exp_random(struct net *n, struct report *rep)
{
	random_rows(n, rep, NULL);
}

static void exp_worst(struct net *n, struct report *rep)
{
	worst_rows(n, rep, NULL);
}

static void exp_identity(struct net *n, struct report *rep)
{
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct row r;
	u32 p;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "identity");
	for (p = 0; p < n->g.ports; p++)
		dst[p] = p;
	run_fixed(n, rep->o, dst, BFLY_LCAN_BIDIR, stream_seed(rep->o->seed, "identity"), &r);
	if (r.cycles.max != 1)
		die("identity: %u cycles, not 1", r.cycles.max);
	report_rows(rep, "identity", "the identity (one cycle)", &r, 1);
	free(dst);
}

/* The structured permutations, in the order they are reported. */
enum structured {
	PERM_REVERSAL,
	PERM_TRANSPOSE,
	PERM_SHUFFLE,
	PERM_COMPLEMENT,
	PERM_SHIFT_1,
	PERM_SHIFT_HALF,
	PERM_SHIFT_BLOCK,
	PERM_STRUCTURED,
};

/*
 * Structured permutation @which into @dst, its name into @name. Return:
 * false for a shift equal to an earlier one.
 */
static bool perm_structured(const struct net *n, u32 which, u32 *dst, char *name, size_t size)
{
	u32 ports = n->g.ports, block = ports / n->radix[n->g.levels - 1], p;

	switch (which) {
	case PERM_REVERSAL:
		perm_reversal(n, dst);
		snprintf(name, size, "digit reversal");
		return true;
	case PERM_TRANSPOSE:
		perm_transpose(n, dst);
		snprintf(name, size, "transpose");
		return true;
	case PERM_SHUFFLE:
		perm_shuffle(n, dst);
		snprintf(name, size, "shuffle");
		return true;
	case PERM_COMPLEMENT:
		for (p = 0; p < ports; p++)
			dst[p] = ports - 1 - p;
		snprintf(name, size, "complement");
		return true;
	case PERM_SHIFT_1:
		perm_shift(dst, ports, 1);
		snprintf(name, size, "shift 1");
		return true;
	case PERM_SHIFT_HALF:
		if (ports % 2 || ports / 2 == 1)
			return false;
		perm_shift(dst, ports, ports / 2);
		snprintf(name, size, "shift N/2 = %u", ports / 2);
		return true;
	default:
		if (block == ports / 2 || block == 1)
			return false;
		perm_shift(dst, ports, block);
		snprintf(name, size, "shift N/%u = %u", ports / block, block);
		return true;
	}
}

/* The structured permutations, once each. Return: how many rows. */
static u32 run_structured(struct net *n, struct report *rep, struct row *rows)
{
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	u32 count = 0, i;

	memset(rows, 0, PERM_STRUCTURED * sizeof(*rows));
	for (i = 0; i < PERM_STRUCTURED; i++) {
		struct row *r = &rows[count];

		if (!perm_structured(n, i, dst, r->name, sizeof(r->name)))
			continue;
		run_fixed(n, rep->o, dst, BFLY_LCAN_BIDIR, stream_seed(rep->o->seed, r->name), r);
		count++;
	}
	report_rows(rep, "structured", "structured permutations", rows, count);
	free(dst);
	return count;
}

static void exp_structured(struct net *n, struct report *rep)
{
	struct row rows[PERM_STRUCTURED];

	run_structured(n, rep, rows);
}

/*
 * Do the 95% confidence intervals of @a and @b overlap? Without an
 * interval (a single on-line run) the two are not told apart: true.
 */
static bool ci_overlap(const struct sample *a, const struct sample *b)
{
	double h = sample_ci(a) + sample_ci(b);

	return isnan(h) || fabs(sample_mean(a) - sample_mean(b)) <= h;
}

/*
 * Conjecture (a): does the worst-case set need the most cycles on average?
 * Against the sets outside it (random permutations, the structured ones
 * not in it), and its hardest member for reference.
 */
static void conjecture_a(struct report *rep, const struct row *worst, const struct row *rows,
			 u32 count)
{
	const struct row *top = NULL, *member = NULL;
	double w = sample_mean(&worst->cycles);
	u32 i;

	for (i = 0; i < count; i++) {
		const struct row *r = &rows[i];

		if (r->worst) {
			if (!member || sample_mean(&r->cycles) > sample_mean(&member->cycles))
				member = r;
		} else if (!top || sample_mean(&r->cycles) > sample_mean(&top->cycles)) {
			top = r;
		}
	}
	if (rep->o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "worst_mean", json_object_new_double(w));
		if (top) {
			bool overlap = ci_overlap(&worst->cycles, &top->cycles);
			double t = sample_mean(&top->cycles);

			json_object_object_add(j, "hardest_other",
					       json_object_new_string(top->name));
			json_object_object_add(j, "hardest_other_mean", json_object_new_double(t));
			json_object_object_add(j, "worst_needs_more",
					       json_object_new_boolean(w > t));
			json_object_object_add(j, "ci95_overlap",
					       json_object_new_boolean(overlap));
		}
		if (member) {
			double t = sample_mean(&member->cycles);

			json_object_object_add(j, "hardest_member",
					       json_object_new_string(member->name));
			json_object_object_add(j, "hardest_member_mean", json_object_new_double(t));
		}
		report_add(rep, "conjecture-a", j);
		return;
	}
	printf("\nconjecture (a): worst-case set %.3f cycles on average", w);
	if (top)
		printf("; hardest set outside it: %s, %.3f: %s", top->name,
		       sample_mean(&top->cycles),
		       w > sample_mean(&top->cycles) ? "the worst-case set needs more" :
		       w < sample_mean(&top->cycles) ? "the worst-case set needs FEWER" :
		       "a tie");
	if (top && ci_overlap(&worst->cycles, &top->cycles))
		printf(" (95%% CIs overlap)");
	if (member)
		printf("; hardest member: %s, %.3f", member->name, sample_mean(&member->cycles));
	printf("\n");
}

/* Per-permutation comparison of CB-LCAN(d,u) with its d-ary fat tree. */
struct cmp {
	struct sample cb;
	struct sample ft;
	struct sample cbb;
	struct sample ftb;
	u32 equal;
	u32 cb_more;
	u32 ft_more;
	int dmin;
	int dmax;
	double dsum;
	u32 hist[2 * HIST + 1];
};

static void cmp_run(struct net *cb, struct net *ft, const struct opts *o, bool worst,
		    struct cmp *c)
{
	u64 rng = stream_seed(o->seed, worst ? "worst" : "random");
	u64 route_seed = stream_seed(o->seed, "route");
	u32 *dst = xcalloc(cb->g.ports, sizeof(u32));
	u32 i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < o->runs; i++) {
		struct result a, b;
		int diff;

		if (worst)
			perm_worst(cb, dst, &rng);
		else
			perm_random(dst, cb->g.ports, &rng);
		net_route(cb, dst, BFLY_LCAN_BIDIR, o->strategy, route_seed + i, &a);
		net_route(ft, dst, BFLY_LCAN_BIDIR, o->strategy, route_seed + i, &b);
		if (a.bound != b.bound)
			die("compare: ceil(lambda) %u on the CB-LCAN, %u on the fat tree",
			    a.bound, b.bound);
		sample_add(&c->cb, a.cycles);
		sample_add(&c->ft, b.cycles);
		sample_add(&c->cbb, a.bound);
		sample_add(&c->ftb, b.bound);
		diff = (int)a.cycles - (int)b.cycles;
		c->equal += !diff;
		c->cb_more += diff > 0;
		c->ft_more += diff < 0;
		if (!i || diff < c->dmin)
			c->dmin = diff;
		if (!i || diff > c->dmax)
			c->dmax = diff;
		c->dsum += diff;
		c->hist[HIST + (diff < -HIST ? -HIST : diff > HIST ? HIST : diff)]++;
	}
	free(dst);
}

static struct json_object *json_cmp(const char *set, const struct cmp *c)
{
	struct json_object *j = json_object_new_object(), *h = json_object_new_object();
	char key[16];
	int i;

	json_object_object_add(j, "set", json_object_new_string(set));
	json_object_object_add(j, "runs", json_object_new_int64(c->cb.n));
	json_object_object_add(j, "cb_cycles", json_sample(&c->cb, true));
	json_object_object_add(j, "fattree_cycles", json_sample(&c->ft, true));
	json_object_object_add(j, "ceil_lambda", json_sample(&c->cbb, false));
	json_object_object_add(j, "equal", json_object_new_int64(c->equal));
	json_object_object_add(j, "cb_more", json_object_new_int64(c->cb_more));
	json_object_object_add(j, "fattree_more", json_object_new_int64(c->ft_more));
	json_object_object_add(j, "diff_mean", json_object_new_double(c->dsum / c->cb.n));
	json_object_object_add(j, "diff_min", json_object_new_int(c->dmin));
	json_object_object_add(j, "diff_max", json_object_new_int(c->dmax));
	for (i = -HIST; i <= HIST; i++)
		if (c->hist[HIST + i]) {
			snprintf(key, sizeof(key), "%d", i);
			json_object_object_add(h, key, json_object_new_int64(c->hist[HIST + i]));
		}
	json_object_object_add(j, "diff_histogram", h);
	return j;
}

static void print_cmp(const char *set, const struct cmp *c)
{
	char a[64], b[64], ci[40];
	int i;

	snprintf(a, sizeof(a), "%.3f %s", sample_mean(&c->cb), ci_text(&c->cb, 3, ci, sizeof(ci)));
	snprintf(b, sizeof(b), "%.3f %s", sample_mean(&c->ft), ci_text(&c->ft, 3, ci, sizeof(ci)));
	printf("  %-7s %5u %-24s %-24s %8.3f %5u %5u %5u %+7.3f %+4d %+4d  ", set, c->cb.n, a, b,
	       sample_mean(&c->cbb), c->equal, c->cb_more, c->ft_more, c->dsum / c->cb.n,
	       c->dmin, c->dmax);
	for (i = -HIST; i <= HIST; i++)
		if (c->hist[HIST + i])
			printf(" %+d:%u", i, c->hist[HIST + i]);
	printf("\n");
}

static void exp_compare(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	struct net other, *cb, *ft;
	struct cmp c[2];
	u32 s;

	net_init(&other, n->g.kind == BFLY_LCAN_CB ? BFLY_LCAN_FATTREE : BFLY_LCAN_CB, n->g.d,
		 n->g.u, n->g.ports);
	cb = n->g.kind == BFLY_LCAN_CB ? n : &other;
	ft = n->g.kind == BFLY_LCAN_CB ? &other : n;
	for (s = 0; s < 2; s++)
		if (s == 0 || n->g.levels > 1)
			cmp_run(cb, ft, o, s, &c[s]);
	if (o->json) {
		struct json_object *j = json_object_new_object(), *a = json_object_new_array();

		for (s = 0; s < 2; s++)
			if (s == 0 || n->g.levels > 1)
				json_object_array_add(a, json_cmp(s ? "worst" : "random", &c[s]));
		json_object_object_add(j, "rows", a);
		report_add(rep, "compare", j);
	} else {
		printf("\nconjecture (b): CB-LCAN(%u,%u) against its %u-ary fat tree,", n->g.d,
		       n->g.u, n->g.d);
		printf(" the same permutations, %s\n", strategy_name(o->strategy));
		printf("  %-7s %5s %-24s %-24s %8s %5s %5s %5s %7s %4s %4s   %s\n", "set", "runs",
		       "CB mean [95% CI]", "fat tree mean [95% CI]", "ceil(L)", "equal", "CB>",
		       "FT>",
		       "CB-FT", "min", "max", "CB-FT: count");
		for (s = 0; s < 2; s++)
			if (s == 0 || n->g.levels > 1)
				print_cmp(s ? "worst" : "random", &c[s]);
	}
	net_free(&other);
}

/*
 * The butterfly's label of PE p on a CB-LCAN with d = u: p_0, then p's
 * digits 1 .. l - 1 reversed. Uni-directionally the wire out of level i
 * carries the packets whose source digits l - 1 .. i + 1 and destination
 * digits l - 1 .. l - 1 - i are its own; on the butterfly of routing.rst
 * (N = 2^n inputs, node stage j setting destination bit n - 1 - j) the
 * link out of node stage j holds source bits n - 1 - j .. 1 instead.
 */
static u32 bfly_label(const struct net *n, u32 p)
{
	u32 x = p / n->g.d, y = 0, i;

	for (i = 1; i < n->g.levels; i++) {
		y = y * n->g.d + x % n->g.d;
		x /= n->g.d;
	}
	return y * n->g.d + p % n->g.d;
}

/* Uni-directional cycles of @dst, into @c[0] (cycles) and @c[1] (bound). */
static void uni_cycles(struct net *n, const struct opts *o, const u32 *dst, u32 *c)
{
	struct result res;

	net_route(n, dst, BFLY_LCAN_UNIDIR, o->strategy, 0, &res);
	c[0] = res.cycles;
	c[1] = res.bound;
}

/* "<prefix>uni_cycles", "..._ceil_lambda", "..._per_sqrt_n" of @c into @j. */
static void json_uni(struct json_object *j, const char *prefix, const u32 *c, double root)
{
	char key[48];

	snprintf(key, sizeof(key), "%suni_cycles", prefix);
	json_object_object_add(j, key, json_object_new_int64(c[0]));
	snprintf(key, sizeof(key), "%suni_ceil_lambda", prefix);
	json_object_object_add(j, key, json_object_new_int64(c[1]));
	snprintf(key, sizeof(key), "%suni_per_sqrt_n", prefix);
	json_object_object_add(j, key, json_object_new_double(c[0] / root));
}

/*
 * The transpose at every N = d^l, l even, up to N: uni-directionally on a
 * CB-LCAN with d = u (a delta network; CB-LCAN(2,2) is the butterfly)
 * against sqrt(N), with the paper's labels and with the butterfly's
 * (bfly_label()), the identity uni-directionally, and the transpose
 * bi-directionally.
 */
static void exp_transpose(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	bool uni = n->g.kind == BFLY_LCAN_CB && n->g.d == n->g.u;
	u32 l, first = n->g.kind == BFLY_LCAN_TREE ? n->g.levels : 2;
	struct json_object *a = NULL;

	if (o->json) {
		a = json_object_new_array();
	} else {
		puts("\ntranspose: p = H B + L -> L (N / B) + H, L the low floor(l/2) digits,");
		if (n->g.kind == BFLY_LCAN_TREE)
			puts("B their range (N itself; radices differ: a matrix transpose)");
		else
			puts("B their range (every N = d^l, l even, up to N: digit halves swap)");
		if (uni) {
			puts("uni: up through every level; T: the transpose of the PE labels;");
			puts("T-bfly: of the butterfly's labels (PE p_(l-1) .. p_1 p_0 is");
			puts("butterfly input p_1 .. p_(l-1) p_0); id: the identity");
		}
		printf("  %6s %3s %15s %8s %15s %8s %8s %24s %5s\n", "N", "l", "T uni ceil(L)",
		       "/sqrtN", "T-bfly ceil(L)", "/sqrtN", "id uni", "T bi mean [95% CI]",
		       "ceil");
	}
	for (l = first; l <= n->g.levels; l++) {
		u32 t[2] = { 0 }, tb[2] = { 0 }, id[2] = { 0 }, *dst, *tmp, p;
		double root;
		struct net m, *x = n;
		struct row r;
		bool bi;

		if (n->g.kind != BFLY_LCAN_TREE && l % 2)
			continue;
		if (l != n->g.levels) {
			u32 ports = 1, i;

			for (i = 0; i < l; i++)
				ports *= n->g.d;
			net_init(&m, n->g.kind, n->g.d, n->g.u, ports);
			x = &m;
		}
		root = sqrt(x->g.ports);
		dst = xcalloc(x->g.ports, sizeof(u32));
		tmp = xcalloc(x->g.ports, sizeof(u32));
		if (uni) {
			perm_transpose(x, tmp);
			for (p = 0; p < x->g.ports; p++)
				dst[p] = tmp[bfly_label(x, p)];
			uni_cycles(x, o, dst, tb);
			for (p = 0; p < x->g.ports; p++)
				dst[p] = p;
			uni_cycles(x, o, dst, id);
		}
		perm_transpose(x, dst);
		if (uni)
			uni_cycles(x, o, dst, t);
		memset(&r, 0, sizeof(r));
		snprintf(r.name, sizeof(r.name), "transpose");
		bi = x->g.ports <= SMALL_N_MAX || o->large;
		if (bi)
			run_fixed(x, o, dst, BFLY_LCAN_BIDIR, stream_seed(o->seed, "transpose"),
				  &r);
		if (o->json) {
			struct json_object *j = json_object_new_object();

			json_object_object_add(j, "n", json_object_new_int64(x->g.ports));
			json_object_object_add(j, "levels", json_object_new_int64(l));
			if (uni) {
				json_uni(j, "", t, root);
				json_uni(j, "bfly_labels_", tb, root);
				json_uni(j, "identity_", id, root);
			}
			if (bi)
				json_object_object_add(j, "bi", json_row(&r));
			json_object_array_add(a, j);
		} else {
			char u1[24] = "-", u2[16] = "-", u3[24] = "-", u4[16] = "-", u5[24] = "-";
			char b1[64] = "-", b2[16] = "-", ci[40];

			if (uni) {
				snprintf(u1, sizeof(u1), "%u %u", t[0], t[1]);
				snprintf(u2, sizeof(u2), "%.4f", t[0] / root);
				snprintf(u3, sizeof(u3), "%u %u", tb[0], tb[1]);
				snprintf(u4, sizeof(u4), "%.4f", tb[0] / root);
				snprintf(u5, sizeof(u5), "%u %u", id[0], id[1]);
			}
			if (bi) {
				snprintf(b1, sizeof(b1), "%.3f %s", sample_mean(&r.cycles),
					 ci_text(&r.cycles, 3, ci, sizeof(ci)));
				snprintf(b2, sizeof(b2), "%u", r.bound.max);
			}
			printf("  %6u %3u %15s %8s %15s %8s %8s %24s %5s\n", x->g.ports, l, u1, u2,
			       u3, u4, u5, b1, b2);
		}
		free(tmp);
		free(dst);
		if (x != n)
			net_free(&m);
	}
	if (o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "rows", a);
		report_add(rep, "transpose", j);
	}
}

/*
 * Every permutation in one cycle on a CB-LCAN with d <= u, by recursive
 * edge colouring (not one of the library's strategies): the messages that
 * go on up from level i are the edges of a bipartite multigraph between
 * the level-i switch each crosses going up and the one it crosses coming
 * down. A switch has d downers, so at most d edges meet it on either side
 * and u colours suffice (Koenig). Colour k is the message's upper at level
 * i; its switches of level i + 1, up and down, are those upper k of its
 * two switches reaches, and they meet at its LCA level.
 */
struct colouring {
	u32 u;
	s32 *at[2];	/* [side][switch * u + colour]: the edge there, or -1 */
	u32 *end[2];	/* [side][edge]: its switch on that side */
	u32 *colour;	/* [edge] */
	u32 *path;
};

static u32 free_colour(const struct colouring *c, u32 side, u32 v)
{
	u32 k;

	for (k = 0; k < c->u; k++)
		if (c->at[side][(u64)v * c->u + k] < 0)
			return k;
	die("internal: no free colour at switch %u", v);
}

static void colour_set(struct colouring *c, u32 e, u32 k, s32 what)
{
	c->colour[e] = k;
	c->at[0][(u64)c->end[0][e] * c->u + k] = what;
	c->at[1][(u64)c->end[1][e] * c->u + k] = what;
}

/* Colour edge @e: colour a free at its left end, swapped free at its right. */
static void colour_add(struct colouring *c, u32 e)
{
	u32 a = free_colour(c, 0, c->end[0][e]), b = free_colour(c, 1, c->end[1][e]);
	u32 side = 1, v = c->end[1][e], k = a, len = 0, i;
	s32 f;

	/* the a-b path from the right end cannot reach the left one */
	while ((f = c->at[side][(u64)v * c->u + k]) >= 0) {
		c->path[len++] = f;
		side ^= 1;
		v = c->end[side][f];
		k = k == a ? b : a;
	}
	for (i = 0; i < len; i++)
		colour_set(c, c->path[i], c->colour[c->path[i]], -1);
	for (i = 0; i < len; i++)
		colour_set(c, c->path[i], c->colour[c->path[i]] == a ? b : a, c->path[i]);
	colour_set(c, e, a, e);
}

/* Route @dst in one cycle by colouring; check it as a routed set. */
static void route_colouring(struct net *n, const u32 *dst, struct result *res)
{
	const struct bfly_lcan *g = &n->g;
	struct bfly_lcan_msgset ms = {
		.src = n->src, .dst = dst, .count = g->ports, .strategy = BFLY_LCAN_OFFLINE,
		.max_cycles = 1, .cycle = n->cycle, .choices = n->choices,
	};
	struct colouring c = { .u = g->u };
	u32 i, m, side, *lca = xcalloc(g->ports, sizeof(u32));
	u32 widest = 0;

	for (i = 0; i < g->levels; i++)
		widest = max_t(u32, widest, g->switches[i]);
	for (side = 0; side < 2; side++) {
		c.at[side] = xcalloc((size_t)widest * g->u, sizeof(s32));
		c.end[side] = xcalloc(g->ports, sizeof(u32));
	}
	c.colour = xcalloc(g->ports, sizeof(u32));
	c.path = xcalloc(g->ports, sizeof(u32));
	/* the bound and lambda(M) from the library; the cycle is ours */
	if (bfly_lcan_msgset_route(g, &ms, n->work))
		die("routing: interrupted");
	memset(n->choices, 0, (size_t)g->ports * 2 * g->levels * sizeof(u32));
	for (m = 0; m < g->ports; m++) {
		lca[m] = bfly_lcan_lca_level(g, m, dst[m]);
		c.end[0][m] = m / g->d;
		c.end[1][m] = dst[m] / g->d;
		n->cycle[m] = 0;
	}
	for (i = 0; i + 1 < g->levels; i++) {
		for (side = 0; side < 2; side++)
			memset(c.at[side], 0xff, (size_t)g->switches[i] * g->u * sizeof(s32));
		for (m = 0; m < g->ports; m++)
			if (lca[m] > i)
				colour_add(&c, m);
		for (m = 0; m < g->ports; m++) {
			u32 to, downer;

			if (lca[m] <= i)
				continue;
			n->choices[(u64)m * 2 * g->levels + i] = c.colour[m];
			for (side = 0; side < 2; side++) {
				bfly_lcan_up(g, i, c.end[side][m], c.colour[m], &to, &downer);
				c.end[side][m] = to;
			}
		}
	}
	ms.cycles = 1;
	ms.routed = g->ports;
	net_verify(n, &ms);
	res->cycles = ms.cycles;
	res->bound = ms.bound;
	res->lambda = (double)ms.lambda_load / ms.lambda_cap;
	for (side = 0; side < 2; side++) {
		free(c.at[side]);
		free(c.end[side]);
	}
	free(c.colour);
	free(c.path);
	free(lca);
}

static void exp_one_cycle(struct net *n, struct report *rep)
{
	const struct opts *o = rep->o;
	u32 *dst = xcalloc(n->g.ports, sizeof(u32));
	struct row r[2 + PERM_STRUCTURED];
	u32 rows = 0, s, i;

	memset(r, 0, sizeof(r));
	for (s = 0; s < 2; s++) {
		u64 rng = stream_seed(o->seed, s ? "worst" : "random");
		struct result res;

		if (s && n->g.levels < 2)
			continue;
		snprintf(r[rows].name, sizeof(r[rows].name), "%s", s ? "worst" : "random");
		r[rows].mode = "bi";
		r[rows].worst = s;
		for (i = 0; i < o->runs; i++) {
			if (s)
				perm_worst(n, dst, &rng);
			else
				perm_random(dst, n->g.ports, &rng);
			route_colouring(n, dst, &res);
			row_add(&r[rows], &res);
		}
		rows++;
	}
	for (i = 0; i < PERM_STRUCTURED; i++) {
		struct result res;

		if (!perm_structured(n, i, dst, r[rows].name, sizeof(r[rows].name)))
			continue;
		r[rows].mode = "bi";
		r[rows].worst = n->g.levels > 1 && in_worst_set(n, dst);
		r[rows].cycles.exact = true;
		route_colouring(n, dst, &res);
		row_add(&r[rows++], &res);
	}
	report_rows(rep, "one-cycle",
		    "one cycle by recursive edge colouring (global knowledge; not a library strategy)",
		    r, rows);
	free(dst);
}

/* Print the wiring: every PE and every upper, and where it arrives. */
static void exp_wiring(struct net *n, struct report *rep)
{
	const struct bfly_lcan *g = &n->g;
	struct json_object *a = NULL;
	u32 i, sw, k, p;

	if (rep->o->json) {
		a = json_object_new_array();
	} else {
		printf("\nwiring: PE p -> level 0 switch p / d, downer p %% d\n");
		for (p = 0; p < g->ports; p++)
			printf("  PE %u -> L0 s%u d%u\n", p, p / g->d, p % g->d);
		puts("wiring: upper k of switch s of level i -> switch t of level i + 1, downer j");
		puts("(connectors of a switch: downers 0 .. d - 1, then uppers d .. d + u - 1)");
	}
	for (i = 0; i + 1 < g->levels; i++)
		for (sw = 0; sw < g->switches[i]; sw++)
			for (k = 0; k < g->up[i]; k++) {
				u32 to, j;

				bfly_lcan_up(g, i, sw, k, &to, &j);
				if (a) {
					struct json_object *w = json_object_new_array();

					json_object_array_add(w, json_object_new_int64(i));
					json_object_array_add(w, json_object_new_int64(sw));
					json_object_array_add(w, json_object_new_int64(k));
					json_object_array_add(w, json_object_new_int64(to));
					json_object_array_add(w, json_object_new_int64(j));
					json_object_array_add(a, w);
				} else {
					printf("  L%u s%u u%u -> L%u s%u d%u\n", i, sw, k,
					       i + 1, to, j);
				}
			}
	if (a) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "fields",
				       json_object_new_string("level switch upper to downer"));
		json_object_object_add(j, "uppers", a);
		report_add(rep, "wiring", j);
	}
}

static void exp_all(struct net *n, struct report *rep)
{
	struct row worst, rows[PERM_STRUCTURED + 1];
	u32 count;

	memset(rows, 0, sizeof(rows));
	exp_identity(n, rep);
	random_rows(n, rep, &rows[0]);
	if (n->g.levels > 1)
		worst_rows(n, rep, &worst);
	count = run_structured(n, rep, rows + 1) + 1;
	if (n->g.levels > 1)
		conjecture_a(rep, &worst, rows, count);
	if (n->g.kind != BFLY_LCAN_TREE)
		exp_compare(n, rep);
	if (n->g.kind == BFLY_LCAN_CB && n->g.d <= n->g.u)
		exp_one_cycle(n, rep);
	exp_transpose(n, rep);
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: " PROG " [OPTIONS] TOPOLOGY D U N EXPERIMENT\n"
		   "Route permutations on a least common ancestor network in network cycles\n"
		   "(LCAN paper, Section 3.3).\n"
		   "  TOPOLOGY          cb-lcan (CB-LCAN(D,U), N = D^l), t-lcan (T-LCAN(D,U),\n"
		   "                    N = U (D/U)^l), fattree (the D-ary fat tree of\n"
		   "                    CB-LCAN(D,U), N = D^l)\n"
		   "  EXPERIMENT        random      K random permutations (and uni-directionally\n"
		   "                                on a CB-LCAN with D = U)\n"
		   "                    worst       K random permutations of the worst-case set\n"
		   "                                (every pair has LCA level l - 1)\n"
		   "                    identity    the identity: one cycle\n"
		   "                    structured  digit reversal, transpose, shuffle,\n"
		   "                                complement, shifts\n"
		   "                    transpose   the transpose for N = D^2, D^4, ... up to N,\n"
		   "                                uni-directionally against sqrt(N)\n"
		   "                    compare     the same K permutations on CB-LCAN(D,U)\n"
		   "                                and its fat tree (conjecture b)\n"
		   "                    one-cycle   random, worst-case and structured permutations\n"
		   "                                in one cycle by edge colouring (CB, D <= U)\n"
		   "                    wiring      every upper and the downer it reaches\n"
		   "                    all         all of them but wiring, and conjecture (a)\n"
		   "  -o, --offline     off-line strategy (default: on-line, random up-choices)\n"
		   "  -k, --runs K      permutations (or on-line runs) per set, default 100\n"
		   "  -s, --seed SEED   the seed of every random choice, default 1\n"
		   "  -j, --json        one JSON document instead of tables\n"
		   "  -L, --large       allow random sets above N = 4096 (slow)\n"
		   "  -h, --help        this help\n"
		   "  -V, --version     the version\n");
}

static u64 parse_arg(const char *what, const char *s, u64 min, u64 max)
{
	unsigned long long v = 0;

	if (parse_num(s, max, &v) != NUM_OK || v < min)
		die("%s: '%s' is not a number from %llu to %llu", what, s,
		    (unsigned long long)min, (unsigned long long)max);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "offline", no_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "large", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ }
	};
	static const struct {
		const char *name;
		void (*run)(struct net *n, struct report *rep);
		u32 needs;
	} exps[] = {
		{ "random", exp_random, NEED_SMALL },
		{ "worst", exp_worst, NEED_SMALL | NEED_LEVELS },
		{ "identity", exp_identity, 0 },
		{ "structured", exp_structured, 0 },
		{ "transpose", exp_transpose, 0 },
		{ "compare", exp_compare, NEED_SMALL | NEED_CB_OR_FT },
		{ "one-cycle", exp_one_cycle, NEED_SMALL | NEED_CB_D_LE_U },
		{ "wiring", exp_wiring, 0 },
		{ "all", exp_all, NEED_SMALL },
	};
	struct opts o = { .runs = 100, .seed = 1, .strategy = BFLY_LCAN_ONLINE };
	struct report rep = { .o = &o };
	struct net n;
	u32 e, kind;
	int opt;

	/* "+": options before the operands, so that "-1" is an operand */
	while ((opt = getopt_long(argc, argv, "+ok:s:jLhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o.strategy = BFLY_LCAN_OFFLINE;
			break;
		case 'k':
			o.runs = parse_arg("runs", optarg, 1, 1000000);
			break;
		case 's':
			o.seed = parse_arg("seed", optarg, 0, U64_MAX);
			break;
		case 'j':
			o.json = true;
			break;
		case 'L':
			o.large = true;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		case 'V':
			print_version(PROG);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (argc - optind != 5) {
		fprintf(stderr, PROG ": %d operands, expected 5: TOPOLOGY D U N EXPERIMENT%s\n",
			argc - optind, argc - optind > 5 ? " (options go before them)" : "");
		print_help(stderr);
		return 2;
	}
	for (kind = 0; kind < ARRAY_SIZE(topo_names); kind++)
		if (!strcmp(argv[optind], topo_names[kind]))
			break;
	if (kind == ARRAY_SIZE(topo_names))
		die("topology: '%s' is not cb-lcan, t-lcan or fattree", argv[optind]);
	o.kind = kind;
	o.d = parse_arg("D", argv[optind + 1], 2, BFLY_MAX_RADIX);
	o.u = parse_arg("U", argv[optind + 2], 1, BFLY_MAX_RADIX);
	o.ports = parse_arg("N", argv[optind + 3], 1, 1U << BFLY_MAX_PORTS_LOG2);
	for (e = 0; e < ARRAY_SIZE(exps); e++)
		if (!strcmp(argv[optind + 4], exps[e].name))
			break;
	if (e == ARRAY_SIZE(exps))
		die("experiment: '%s' is not one of those --help lists", argv[optind + 4]);

	net_init(&n, o.kind, o.d, o.u, o.ports);
	exp_check(&n, &o, exps[e].name, exps[e].needs);
	if (o.json) {
		char t[48];

		json_c_set_serialization_double_format("%.6g", JSON_C_OPTION_GLOBAL);
		rep.root = json_object_new_object();
		rep.list = json_object_new_array();
		json_object_object_add(rep.root, "network",
				       json_object_new_string(net_title(&n, t, sizeof(t))));
		json_object_object_add(rep.root, "topology",
				       json_object_new_string(topo_names[kind]));
		json_object_object_add(rep.root, "d", json_object_new_int64(o.d));
		json_object_object_add(rep.root, "u", json_object_new_int64(o.u));
		json_object_object_add(rep.root, "n", json_object_new_int64(o.ports));
		json_object_object_add(rep.root, "levels", json_object_new_int64(n.g.levels));
		json_object_object_add(rep.root, "strategy",
				       json_object_new_string(strategy_name(o.strategy)));
		json_object_object_add(rep.root, "runs", json_object_new_int64(o.runs));
		json_object_object_add(rep.root, "seed", json_object_new_uint64(o.seed));
		json_object_object_add(rep.root, "experiments", rep.list);
	} else {
		header(&n, &o);
	}
	exps[e].run(&n, &rep);
	if (o.json) {
		puts(json_object_to_json_string_ext(rep.root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(rep.root);
	}
	net_free(&n);
	return 0;
}
