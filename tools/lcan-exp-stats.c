// SPDX-License-Identifier: GPL-2.0
/*
 * lcan-experiments: the statistics of the runs, a sample's mean, standard
 * deviation and Student-t 95% confidence interval, and a row's figures.
 */
#include <math.h>
#include <stdio.h>

#include "lcan-exp.h"

void sample_add(struct sample *s, u32 x)
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

double sample_mean(const struct sample *s)
{
	return s->mean;
}

/* The sample standard deviation (n - 1), 0 below two values. */
double sample_sd(const struct sample *s)
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
double sample_ci(const struct sample *s)
{
	if (s->exact)
		return 0;
	if (s->n < 2)
		return NAN;
	return t_quantile_975(s->n - 1) * sample_sd(s) / sqrt(s->n);
}

/* "[low, high]" with @prec decimals, or "-" without an interval. */
const char *ci_text(const struct sample *s, int prec, char *buf, size_t size)
{
	double m = sample_mean(s), h = sample_ci(s);

	if (isnan(h))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "[%.*f, %.*f]", prec, m - h, prec, m + h);
	return buf;
}

void row_add(struct row *r, const struct result *res)
{
	sample_add(&r->cycles, res->cycles);
	sample_add(&r->bound, res->bound);
	r->lambda_sum += res->lambda;
}

/*
 * Do the 95% confidence intervals of @a and @b overlap? Without an
 * interval (a single on-line run) the two are not told apart: true.
 */
bool ci_overlap(const struct sample *a, const struct sample *b)
{
	double h = sample_ci(a) + sample_ci(b);

	return isnan(h) || fabs(sample_mean(a) - sample_mean(b)) <= h;
}
