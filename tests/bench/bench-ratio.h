/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark's figure line, the one `make bench` collects into its table
 * (run-bench.sh):
 *
 *   ratio: <figure> | <median>x | spread <min>x-<max>x | target <op> <t>x | met
 *
 * @le: the target is an upper bound (<=), else a lower bound (>=). A
 * figure whose timed results were wrong is printed WRONG, never met.
 * A figure reported without a target reads `target - | checked` (its
 * results checked) or `WRONG` (bench_ratio_checked()).
 */
#ifndef BFLY_BENCH_RATIO_H
#define BFLY_BENCH_RATIO_H

#include <stdbool.h>
#include <stdio.h>

static inline void bench_ratio_line(const char *figure, double med, double lo,
				    double hi, bool le, double target, bool wrong)
{
	bool met = le ? med <= target : med >= target;

	printf("ratio: %s | %.2fx | spread %.2fx-%.2fx", figure, med, lo, hi);
	printf(" | target %s %.2fx | %s\n", le ? "<=" : ">=", target,
	       wrong ? "WRONG" : met ? "met" : "MISSED");
}

/* A figure without a target: its timed results checked, or WRONG. */
static inline void bench_ratio_checked(const char *figure, double med, double lo,
				       double hi, bool wrong)
{
	printf("ratio: %s | %.2fx | spread %.2fx-%.2fx", figure, med, lo, hi);
	printf(" | target - | %s\n", wrong ? "WRONG" : "checked");
}

#endif /* BFLY_BENCH_RATIO_H */
