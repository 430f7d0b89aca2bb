/*
 * stats.c: summaries, Student t, Welch's test (see stats.h).
 *
 * The t distribution comes from GSL rather than a hand-written incomplete
 * beta function; everything else is a few lines of arithmetic.
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *x, int n)
{
	double *s = malloc(sizeof(*s) * (size_t)n), m;

	if (!s)
		return NAN;
	memcpy(s, x, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* GSL's default handler aborts the process on a domain error (an
 * imported run of 1e308s made show exit 134, issue 69): it is turned off,
 * and what GSL cannot compute is NAN, which every caller reads as "no
 * interval". */
static void gsl_quiet(void)
{
	static int off;

	if (!off) {
		gsl_set_error_handler_off();
		off = 1;
	}
}

double stats_t_quantile(double p, double df)
{
	gsl_quiet();
	if (!(p > 0 && p < 1) || isnan(df) || !(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	return gsl_cdf_tdist_Pinv(p, df);
}

void stats_summarize(const double *x, int n, struct summary *s)
{
	double sum = 0, ss = 0, lsum = 0, lss = 0;
	int positive = n > 0, negative = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n <= 0) {
		s->mean = s->median = s->min = s->max = NAN;
		s->ci_lo = s->ci_hi = s->lmean = s->lsd = NAN;
		return;
	}
	s->min = s->max = x[0];
	for (int i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
		positive &= x[i] > 0;
		negative |= x[i] < 0;
	}
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->median = median_of(x, n);
	s->ci_lo = s->ci_hi = s->mean;
	s->log_scale = positive;
	s->lmean = s->lsd = NAN;
	if (positive) {
		for (int i = 0; i < n; i++)
			lsum += log(x[i]);
		s->lmean = lsum / n;
		for (int i = 0; i < n; i++)
			lss += (log(x[i]) - s->lmean) * (log(x[i]) - s->lmean);
		s->lsd = n > 1 ? sqrt(lss / (n - 1)) : 0;
	}
	if (n < 2)
		return;
	s->sd = sqrt(ss / (n - 1));
	s->se = s->sd / sqrt(n);
	double t = stats_t_quantile(0.975, n - 1);
	if (positive) {
		double h = t * s->lsd / sqrt(n);
		s->ci_lo = exp(s->lmean - h);
		s->ci_hi = exp(s->lmean + h);
	} else {
		s->ci_lo = s->mean - t * s->se;
		s->ci_hi = s->mean + t * s->se;
		if (!negative && s->ci_lo < 0)
			s->ci_lo = 0;	/* nothing below 0 was possible */
	}
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
}

double stats_precision(const struct summary *s)
{
	if (s->n < 2)
		return NAN;
	if (s->log_scale)
		return exp(stats_t_quantile(0.975, s->n - 1) * s->lsd / sqrt(s->n)) - 1;
	return s->mean != 0 ? (s->ci_hi - s->ci_lo) / 2 / fabs(s->mean) : NAN;
}

int stats_runs_needed(const struct summary *s, double p, int cap)
{
	if (s->n < 2 || !(p > 0))
		return -1;
	/* the spread on the scale the interval uses, relative to the centre */
	double sd = s->log_scale ? s->lsd : s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
	double h = s->log_scale ? log1p(p) : p;
	if (!isfinite(sd))
		return cap;
	for (int n = s->n; n < cap; n++)
		if (stats_t_quantile(0.975, n - 1) * sd / sqrt(n) <= h)
			return n;
	return cap;
}

/* Welch's test of two means m1, m2 with variances v1, v2 (of the values,
 * not of the means) over n1, n2 samples. */
struct trend stats_trend(const double *x, int n)
{
	struct trend tr = { 1, 0 };
	double *sorted, var, z, first, last;
	long long sum = 0;
	int third = n / 3;

	if (n < TREND_MIN_RUNS || !(sorted = malloc(sizeof(*sorted) * (size_t)n)))
		return tr;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			sum += (x[j] > x[i]) - (x[j] < x[i]);
	/* Var(S) = [n(n-1)(2n+5) - sum over groups of t equal values of
	 * t(t-1)(2t+5)] / 18. */
	memcpy(sorted, x, sizeof(*sorted) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	var = (double)n * (n - 1) * (2.0 * n + 5);
	for (int i = 0, k; i < n; i = k) {
		for (k = i + 1; k < n && sorted[k] == sorted[i]; k++)
			;
		double t = k - i;
		var -= t * (t - 1) * (2 * t + 5);
	}
	free(sorted);
	var /= 18;
	if (var <= 0 || sum == 0)
		return tr;
	z = ((double)sum - (sum > 0 ? 1 : -1)) / sqrt(var);
	gsl_quiet();
	tr.p = isfinite(z) ? 2 * gsl_cdf_ugaussian_Q(fabs(z)) : NAN;
	first = median_of(x, third);
	last = median_of(x + n - third, third);
	tr.change = first != 0 ? last / first - 1 : 0;
	return tr;
}

static struct welch welch(double m1, double v1, int n1, double m2, double v2, int n2)
{
	struct welch w = { 0, 0, 1 };
	double va, vb, se2;

	if (n1 < 2 || n2 < 2)
		return w;
	va = v1 / n1;
	vb = v2 / n2;
	se2 = va + vb;
	if (se2 == 0) {
		/* Two constant samples: different means are as certain as it gets. */
		w.p = m1 == m2 ? 1 : 0;
		w.t = m1 == m2 ? 0 : INFINITY;
		return w;
	}
	w.t = (m1 - m2) / sqrt(se2);
	w.df = se2 * se2 / (va * va / (n1 - 1) + vb * vb / (n2 - 1));
	gsl_quiet();
	w.p = isfinite(w.t) && w.df > 0 && isfinite(w.df) ? 2 * gsl_cdf_tdist_Q(fabs(w.t), w.df) : NAN;
	return w;
}

struct welch stats_welch(const struct summary *a, const struct summary *b)
{
	if (a->log_scale && b->log_scale)
		return welch(a->lmean, a->lsd * a->lsd, a->n, b->lmean, b->lsd * b->lsd, b->n);
	return welch(a->mean, a->sd * a->sd, a->n, b->mean, b->sd * b->sd, b->n);
}

struct ratio stats_ratio(const struct summary *a, const struct summary *b)
{
	struct ratio r = { NAN, NAN, NAN, 1, 0 };
	struct welch w;

	if (a->n < 1 || b->n < 1 || b->mean == 0 || !isfinite(a->mean) || !isfinite(b->mean))
		return r;
	r.value = a->mean / b->mean;
	r.lo = r.hi = r.value;
	if (a->n < 2 || b->n < 2)
		return r;
	w = stats_welch(a, b);
	r.p = w.p;
	double df = w.df > 0 ? w.df : (double)(a->n + b->n - 2);
	double q = stats_t_quantile(0.975, df);
	if (a->log_scale && b->log_scale) {
		double d = a->lmean - b->lmean;
		double h = q * sqrt(a->lsd * a->lsd / a->n + b->lsd * b->lsd / b->n);
		r.lo = exp(d - h);
		r.hi = exp(d + h);
	} else {
		/* Delta method: var(a/b) ~ r^2 (se_a^2/a^2 + se_b^2/b^2). */
		double rel = 0;
		if (a->mean != 0)
			rel += (a->se / a->mean) * (a->se / a->mean);
		rel += (b->se / b->mean) * (b->se / b->mean);
		double h = q * fabs(r.value) * sqrt(rel);
		r.lo = r.value - h;
		r.hi = r.value + h;
	}
	if (r.p < 0.05 && (r.lo > 1 || r.hi < 1))
		r.verdict = r.value > 1 ? 1 : -1;
	return r;
}
