/*
 * stats.h: the statistics every comparison rests on.
 *
 * A summary of n repetitions (mean, sample SD, standard error, median, min,
 * max, a 95% confidence interval, coefficient of variation), the interval's
 * precision the runner repeats to, and Welch's t-test with a ratio
 * confidence interval for "is A really faster than B".
 *
 * Rates and times are positive and skewed, and a few runs of them spread
 * far: an interval on the plain scale can then reach below zero.  So when
 * every sample is positive, intervals and tests are computed on the log
 * scale (a Student t interval of log x, back-transformed: an interval for
 * the geometric mean, always positive; Welch's test on log x, so a ratio's
 * interval is multiplicative and its test asks whether the log ratio is
 * 0).  Otherwise (a 0 or a negative value) the plain t interval is used,
 * clipped at 0 when no sample is negative.
 */
#ifndef FSB_STATS_H
#define FSB_STATS_H

#include <stdbool.h>

struct summary {
	int n;
	double mean, sd, se, median, min, max;
	double ci_lo, ci_hi;	/* 95% CI (see above); = mean if n<2 */
	double cv;		/* sd / |mean|; 0 if n<2 or mean == 0 */
	int log_scale;		/* every sample > 0: the interval is on logs */
	double lmean, lsd;	/* mean and SD of log x when log_scale */
};

void stats_summarize(const double *x, int n, struct summary *s);
/* Quantile of Student's t with df degrees of freedom (p in (0,1)). */
double stats_t_quantile(double p, double df);

/* The precision of a summary: the 95% interval's half-width relative to
 * the centre, as a fraction (0.03 is +-3%).  On the log scale the interval
 * is [g/e^h, g*e^h] around the geometric mean g, and this is e^h - 1, the
 * wider (upper) side; on the plain scale, half the interval over |mean|.
 * NAN with fewer than 2 runs or a zero mean. */
double stats_precision(const struct summary *s);
/* How many runs in all the precision target p (a fraction) needs, from the
 * spread seen so far: the least n >= s->n whose interval, at this standard
 * deviation, is within p; `cap` when even `cap` runs would not do; -1
 * with fewer than 2 runs. */
int stats_runs_needed(const struct summary *s, double p, int cap);

/* Whether runs drift, rather than scatter, in the order they ran: the
 * Mann-Kendall test (S = the sum over pairs i < j of sign(x[j] - x[i]),
 * normal approximation with the tie correction and a continuity
 * correction, two-sided p), judged from TREND_MIN_RUNS runs on.  The
 * interval assumes runs that differ only by chance; when the machine
 * itself changes speed during them (a cloud disk's burst credit running
 * out) the interval understates the uncertainty, and more runs do not
 * fix that.  `change` is the median of the last third of the runs over
 * that of the first third, minus 1 (-0.12: they fell by 12%). */
#define TREND_MIN_RUNS 8
struct trend {
	double p;		/* 1 with fewer than TREND_MIN_RUNS runs */
	double change;
};
struct trend stats_trend(const double *x, int n);

/* Welch's unequal-variance t-test between two samples. */
struct welch {
	double t, df, p;	/* two-sided p-value; p = 1 when undefined */
};
struct welch stats_welch(const struct summary *a, const struct summary *b);

/* Ratio a/b of means.  Its 95% interval and test: on the log scale when
 * both summaries are (exp of the difference of log means, Welch on log
 * x), else from the delta method.  The value shown is the ratio of the
 * arithmetic means; it lies inside the interval for any data a benchmark
 * produces (the two differ by the samples' skew). */
struct ratio {
	double value, lo, hi;
	double p;		/* Welch p-value of the difference */
	int verdict;		/* +1 a greater, -1 a smaller, 0 no significant difference */
};
struct ratio stats_ratio(const struct summary *a, const struct summary *b);

#endif
