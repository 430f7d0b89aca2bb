/* test_stats.c: statistics against hand-computed and published values. */
#include "testutil.h"
#include "core/stats.h"

#include <math.h>

static void test_summary_by_hand(void **state)
{
	(void)state;
	double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	stats_summarize(x, 8, &s);
	assert_int_equal(s.n, 8);
	assert_float_equal(s.mean, 5.0, 1e-12);
	assert_float_equal(s.sd, sqrt(32.0 / 7), 1e-12);	/* sample SD */
	assert_float_equal(s.se, sqrt(32.0 / 7) / sqrt(8), 1e-12);
	assert_float_equal(s.median, 4.5, 1e-12);
	assert_float_equal(s.min, 2, 0);
	assert_float_equal(s.max, 9, 0);
	assert_float_equal(s.cv, sqrt(32.0 / 7) / 5, 1e-12);
	/* All positive: the interval is t(0.975, 7) = 2.364624 on the logs. */
	double l[8], lm = 0, lss = 0;
	for (int i = 0; i < 8; i++)
		lm += (l[i] = log(x[i])) / 8;
	for (int i = 0; i < 8; i++)
		lss += (l[i] - lm) * (l[i] - lm);
	double h = 2.364624 * sqrt(lss / 7) / sqrt(8);
	assert_true(s.log_scale);
	assert_float_equal(s.ci_lo, exp(lm - h), 1e-4);
	assert_float_equal(s.ci_hi, exp(lm + h), 1e-4);
	/* With a zero in it: the plain t interval, clipped at 0. */
	double z[] = { 0, 4, 4, 4, 5, 5, 7, 9 };
	stats_summarize(z, 8, &s);
	assert_false(s.log_scale);
	assert_float_equal(s.ci_hi - s.mean, 2.364624 * s.se, 1e-5);
	assert_float_equal(s.mean - s.ci_lo, 2.364624 * s.se, 1e-5);
	double z2[] = { 0, 0, 9 };
	stats_summarize(z2, 3, &s);
	assert_float_equal(s.ci_lo, 0, 0);	/* never below what is possible */
}

/* Two runs of a rate far apart: the plain interval reaches below 0
 * (2000 +- 12.7 x 1000); the log-scale one stays positive. */
static void test_interval_stays_positive(void **state)
{
	(void)state;
	double x[] = { 1000, 3000 }, y[] = { 1, 5, 2000 };
	struct summary s;

	stats_summarize(x, 2, &s);
	assert_true(s.ci_lo > 0 && s.ci_lo < 1000 && s.ci_hi > 3000);
	stats_summarize(y, 3, &s);
	assert_true(s.ci_lo > 0);
}

/* A 25x difference with 3 runs each (tmpfs vs disk, the spread of a
 * fast target large in absolute terms): significant on the log scale,
 * where on the plain scale Welch gives p = 0.13. */
static void test_large_difference_few_runs(void **state)
{
	(void)state;
	double fast[] = { 1500, 5000, 2000 }, slow[] = { 100, 130, 95 };
	struct summary f, s;

	stats_summarize(fast, 3, &f);
	stats_summarize(slow, 3, &s);
	struct ratio r = stats_ratio(&f, &s);
	assert_int_equal(r.verdict, 1);
	assert_true(r.p < 0.05 && r.value > 25);
	assert_true(r.lo > 1 && r.lo <= r.value && r.value <= r.hi);
	f.log_scale = s.log_scale = 0;	/* what the plain scale said */
	assert_true(stats_welch(&f, &s).p > 0.05);
}

/* On logs, Welch's test of x is the plain test of log x. */
static void test_log_welch_is_welch_of_logs(void **state)
{
	(void)state;
	double a[] = { 11, 13, 12.5, 15 }, b[] = { 9, 9.5, 10.5, 8 }, la[4], lb[4];
	struct summary sa, sb, sla, slb;

	for (int i = 0; i < 4; i++)
		la[i] = log(a[i]), lb[i] = log(b[i]);
	stats_summarize(a, 4, &sa);
	stats_summarize(b, 4, &sb);
	stats_summarize(la, 4, &sla);
	stats_summarize(lb, 4, &slb);
	sla.log_scale = slb.log_scale = 0;
	struct welch w1 = stats_welch(&sa, &sb), w2 = stats_welch(&sla, &slb);
	assert_float_equal(w1.t, w2.t, 1e-9);
	assert_float_equal(w1.df, w2.df, 1e-9);
	assert_float_equal(w1.p, w2.p, 1e-12);
}

static void test_median_odd_and_unsorted(void **state)
{
	(void)state;
	double x[] = { 9, 1, 5 };
	struct summary s;

	stats_summarize(x, 3, &s);
	assert_float_equal(s.median, 5, 0);
	assert_float_equal(x[0], 9, 0);	/* input untouched */
}

static void test_single_and_empty(void **state)
{
	(void)state;
	double x[] = { 42 };
	struct summary s;

	stats_summarize(x, 1, &s);
	assert_float_equal(s.mean, 42, 0);
	assert_float_equal(s.sd, 0, 0);
	assert_float_equal(s.ci_lo, 42, 0);
	assert_float_equal(s.cv, 0, 0);
	stats_summarize(x, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
}

/* Student t quantiles from a printed table (two-sided 95%). */
static void test_t_table(void **state)
{
	(void)state;
	static const double df[] = { 1, 2, 4, 9, 30, 120 };
	static const double t975[] = { 12.706, 4.303, 2.776, 2.262, 2.042, 1.980 };

	for (int i = 0; i < 6; i++)
		assert_float_equal(stats_t_quantile(0.975, df[i]), t975[i], 5e-4);
}

/* Welch's test, example 1 of the Wikipedia article on Welch's t-test:
 * t = -2.46, df = 24.99, p = 0.021. */
static void test_welch_reference(void **state)
{
	(void)state;
	double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6,
		       23.1, 19.6, 19.0, 21.7, 21.4 };
	double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2,
		       21.9, 22.1, 22.9, 20.5, 24.4 };
	struct summary sa, sb;

	stats_summarize(a, 15, &sa);
	stats_summarize(b, 15, &sb);
	sa.log_scale = sb.log_scale = 0;	/* the article tests the plain means */
	struct welch w = stats_welch(&sa, &sb);
	assert_float_equal(w.t, -2.46, 0.01);
	assert_float_equal(w.df, 24.9885, 0.001);	/* hand: (va+vb)^2 / (va^2/14 + vb^2/14) */
	assert_float_equal(w.p, 0.021, 0.001);
}

static void test_ratio_verdicts(void **state)
{
	(void)state;
	double fast[] = { 200, 202, 198, 201 }, slow[] = { 100, 101, 99, 100 };
	double noisy[] = { 100, 140, 70, 110 };
	struct summary f, s, n;

	stats_summarize(fast, 4, &f);
	stats_summarize(slow, 4, &s);
	stats_summarize(noisy, 4, &n);
	struct ratio r = stats_ratio(&f, &s);
	assert_float_equal(r.value, 200.25 / 100, 1e-9);
	assert_int_equal(r.verdict, 1);
	assert_true(r.lo > 1 && r.lo < r.value && r.hi > r.value);
	assert_int_equal(stats_ratio(&s, &f).verdict, -1);
	assert_int_equal(stats_ratio(&n, &s).verdict, 0);	/* within noise */
	/* Too few runs: a ratio, but no verdict. */
	struct summary one;
	stats_summarize(fast, 1, &one);
	r = stats_ratio(&one, &s);
	assert_float_equal(r.value, 2, 1e-9);
	assert_int_equal(r.verdict, 0);
}

/* Mann-Kendall by hand: 1..10 gives S = 45 and Var(S) = 10*9*25/18 = 125,
 * so z = 44/sqrt(125) = 3.9355 and p = 8.30e-5; ties shrink Var(S). */
static void test_trend(void **state)
{
	(void)state;
	double up[10], down[10], flat[10], ties[8] = { 1, 1, 1, 1, 2, 2, 2, 2 };
	double zigzag[10] = { 1, 2, 1, 2, 1, 2, 1, 2, 1, 2 };
	/* fs_mark 5000x1M-4t on this machine's cloud disk, 2026-12-01: the
	 * disk slowed after the third run and stayed slow.  S = -16, Var(S) =
	 * 8*7*21/18 = 65.33: z = -15/8.083, p = 0.0635; eight runs are too
	 * few to call that a trend at 1%. */
	double fsmark[8] = { 876.47, 871.39, 922.36, 774.18, 777.2, 768.51, 797.95, 751.96 };
	struct trend tr;

	for (int i = 0; i < 10; i++) {
		up[i] = i + 1;
		down[i] = 10 - i;
		flat[i] = 5;
	}
	tr = stats_trend(up, 10);
	assert_true(fabs(tr.p - 8.30e-5) < 0.01e-5);
	assert_true(fabs(tr.change - 3.5) < 1e-12);	/* median 9 over median 2 */
	tr = stats_trend(down, 10);
	assert_true(fabs(tr.p - 8.30e-5) < 0.01e-5);
	assert_true(fabs(tr.change - (2.0 / 9 - 1)) < 1e-12);
	/* S = 16, Var(S) = (8*7*21 - 2*4*3*13)/18 = 48: z = 15/sqrt(48), p = 0.0304 */
	tr = stats_trend(ties, 8);
	assert_true(fabs(tr.p - 0.0304) < 0.0005);
	assert_true(stats_trend(flat, 10).p == 1);
	assert_true(stats_trend(zigzag, 10).p > 0.5);
	assert_true(stats_trend(up, TREND_MIN_RUNS - 1).p == 1);	/* too few to judge */
	tr = stats_trend(fsmark, 8);
	assert_true(fabs(tr.p - 0.0635) < 0.0005);
	assert_true(fabs(tr.change - (774.955 / 873.93 - 1)) < 1e-9);	/* -11.3% */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_by_hand),
		cmocka_unit_test(test_median_odd_and_unsorted),
		cmocka_unit_test(test_single_and_empty),
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_welch_reference),
		cmocka_unit_test(test_ratio_verdicts),
		cmocka_unit_test(test_interval_stays_positive),
		cmocka_unit_test(test_large_difference_few_runs),
		cmocka_unit_test(test_log_welch_is_welch_of_logs),
		cmocka_unit_test(test_trend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
