/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lcan-experiments: the types the tool's files share and their functions
 * (tools/lcan-experiments.c describes the tool).
 */
#ifndef _BFLY_TOOLS_LCAN_EXP_H
#define _BFLY_TOOLS_LCAN_EXP_H

#include <stddef.h>
#include <stdnoreturn.h>

#include "lib/lcan.h"

struct json_object;

#define PROG "lcan-experiments"

/* Random sets stop at this N unless --large */
#define SMALL_N_MAX 4096

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

/* The report: text on stdout as it goes, or one JSON document at the end. */
struct report {
	const struct opts *o;
	struct json_object *root;
	struct json_object *list;
};

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

/* lcan-experiments.c: the error exit and the topologies' names */
extern const char *const topo_names[];
noreturn void die(const char *fmt, ...);
void *xcalloc(size_t n, size_t size);

/* lcan-exp-stats.c */
void sample_add(struct sample *s, u32 x);
double sample_mean(const struct sample *s);
double sample_sd(const struct sample *s);
double sample_ci(const struct sample *s);
const char *ci_text(const struct sample *s, int prec, char *buf, size_t size);
void row_add(struct row *r, const struct result *res);
bool ci_overlap(const struct sample *a, const struct sample *b);

/* lcan-exp-perms.c */
u64 stream_seed(u64 seed, const char *name);
bool in_worst_set(const struct net *n, const u32 *dst);
void perm_random(u32 *dst, u32 ports, u64 *rng);
void perm_worst(const struct net *n, u32 *dst, u64 *rng);
void perm_transpose(const struct net *n, u32 *dst);
bool perm_structured(const struct net *n, u32 which, u32 *dst, char *name, size_t size);

/* lcan-exp-run.c */
void net_init(struct net *n, u32 kind, u32 d, u32 u, u32 ports);
void net_free(struct net *n);
void net_verify(struct net *n, const struct bfly_lcan_msgset *ms);
void net_route(struct net *n, const u32 *dst, u32 mode, u32 strategy, u64 seed,
	       struct result *res);
void run_fixed(struct net *n, const struct opts *o, const u32 *dst, u32 mode,
	       u64 stream, struct row *r);
void run_random(struct net *n, const struct opts *o, bool worst, u32 mode,
		const char *name, struct row *r);

/* lcan-exp-report.c */
const char *strategy_name(u32 strategy);
const char *net_title(const struct net *n, char *buf, size_t size);
struct json_object *json_sample(const struct sample *s, bool ci);
struct json_object *json_row(const struct row *r);
void report_add(struct report *rep, const char *name, struct json_object *j);
void report_rows(struct report *rep, const char *exp, const char *title,
		 const struct row *rows, u32 count);
void header(const struct net *n, const struct opts *o);

/* The experiments: lcan-exp-sets.c, -compare.c, -transpose.c, -colour.c, -report.c */
void random_rows(struct net *n, struct report *rep, struct row *out);
void worst_rows(struct net *n, struct report *rep, struct row *out);
void exp_random(struct net *n, struct report *rep);
void exp_worst(struct net *n, struct report *rep);
void exp_identity(struct net *n, struct report *rep);
u32 run_structured(struct net *n, struct report *rep, struct row *rows);
void exp_structured(struct net *n, struct report *rep);
void conjecture_a(struct report *rep, const struct row *worst, const struct row *rows,
		  u32 count);
void exp_compare(struct net *n, struct report *rep);
void exp_transpose(struct net *n, struct report *rep);
void exp_one_cycle(struct net *n, struct report *rep);
void exp_wiring(struct net *n, struct report *rep);

#endif /* _BFLY_TOOLS_LCAN_EXP_H */
