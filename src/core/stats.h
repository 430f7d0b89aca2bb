/*
 * stats.h: the statistics every comparison rests on.
 *
 * A summary of n repetitions (mean, sample SD, standard error, median, min,
 * max, Student-t 95% confidence interval, coefficient of variation), the
 * outlier rule the adaptive runner uses, and Welch's t-test with a ratio
 * confidence interval for "is A really faster than B".
 */
#ifndef FSB_STATS_H
#define FSB_STATS_H

#include <stdbool.h>

struct summary {
	int n;
	double mean, sd, se, median, min, max;
	double ci_lo, ci_hi;	/* 95% CI of the mean (Student t); = mean if n<2 */
	double cv;		/* sd / |mean|; 0 if n<2 or mean == 0 */
};

void stats_summarize(const double *x, int n, struct summary *s);
/* Quantile of Student's t with df degrees of freedom (p in (0,1)). */
double stats_t_quantile(double p, double df);
/* True when a value lies outside mean +- 3 sigma (population sigma), the
 * rule PTS uses to add a run. */
bool stats_has_outlier(const double *x, int n);

/* Welch's unequal-variance t-test between two samples. */
struct welch {
	double t, df, p;	/* two-sided p-value; p = 1 when undefined */
};
struct welch stats_welch(const struct summary *a, const struct summary *b);

/* Ratio a/b of means with a 95% interval from the delta method. */
struct ratio {
	double value, lo, hi;
	double p;		/* Welch p-value of the difference */
	int verdict;		/* +1 a greater, -1 a smaller, 0 no significant difference */
};
struct ratio stats_ratio(const struct summary *a, const struct summary *b);

#endif
