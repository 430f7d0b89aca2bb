/* test_histogram.c: bucket error bound, merge, percentiles against a
 * sorted reference, mean and standard deviation. */
#include "testutil.h"
#include "core/histogram.h"

#include <math.h>

static void test_bucket_error_bound(void **state)
{
	(void)state;
	/* every value is within 1% of the value its bucket reports */
	for (uint64_t v = 1; v < (1ULL << 36); v = v + 1 + v / 97) {
		unsigned i = hist_index(v);
		uint64_t mid = hist_value(i);
		assert_true(i < HIST_BUCKETS);
		if (i < HIST_BUCKETS - 1)
			assert_true(fabs((double)mid - (double)v) <= 0.01 * (double)v);
	}
	/* exact below 128 ns, and buckets are ordered */
	for (uint64_t v = 0; v < 128; v++)
		assert_int_equal(hist_value(hist_index(v)), v);
	for (unsigned i = 1; i < HIST_BUCKETS; i++)
		assert_true(hist_value(i) > hist_value(i - 1));
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static void test_percentiles_and_merge(void **state)
{
	(void)state;
	enum { N = 200000, T = 4 };
	uint64_t *v = malloc(sizeof(*v) * N), s = 42;
	struct histogram *all = malloc(sizeof(*all)), *part = malloc(sizeof(*part) * T);
	double sum = 0, ss = 0;

	hist_init(all);
	for (int t = 0; t < T; t++)
		hist_init(&part[t]);
	for (int i = 0; i < N; i++) {
		/* a long-tailed latency mix: 20 us typical, some 2 ms, rare 50 ms */
		uint64_t r = lcg(&s) % 1000;
		v[i] = 15000 + lcg(&s) % 10000 + (r > 980 ? 2000000 : 0) + (r == 999 ? 50000000 : 0);
		hist_add(&part[i % T], v[i]);
		hist_add(all, v[i]);
		sum += (double)v[i];
	}
	struct histogram merged;
	hist_init(&merged);
	for (int t = 0; t < T; t++)
		hist_merge(&merged, &part[t]);
	/* merging per-thread histograms equals one histogram of everything */
	assert_memory_equal(merged.bucket, all->bucket, sizeof(all->bucket));
	assert_int_equal(merged.n, N);
	assert_int_equal(merged.min, all->min);
	assert_int_equal(merged.max, all->max);
	double mean = sum / N;
	for (int i = 0; i < N; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	assert_float_equal(merged.mean, mean, mean * 1e-12);
	assert_float_equal(hist_stddev(&merged), sqrt(ss / (N - 1)), sqrt(ss / (N - 1)) * 1e-9);

	qsort(v, N, sizeof(*v), cmp_u64);
	static const double ps[] = { 1, 50, 90, 99, 99.9, 99.99, 100 };
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		size_t rank = (size_t)ceil(ps[k] / 100 * N);
		uint64_t want = v[rank - 1], got = hist_percentile(&merged, ps[k]);
		assert_true(fabs((double)got - (double)want) <= 0.01 * (double)want);
	}
	assert_int_equal(hist_percentile(&merged, 100), v[N - 1]);
	free(v);
	free(all);
	free(part);
}

static void test_empty_and_single(void **state)
{
	(void)state;
	struct histogram h;

	hist_init(&h);
	assert_int_equal(hist_percentile(&h, 50), 0);
	assert_float_equal(hist_stddev(&h), 0, 0);
	hist_add(&h, 12345);
	assert_int_equal(hist_percentile(&h, 50), 12345);	/* clamped to min/max */
	assert_int_equal(hist_percentile(&h, 99.99), 12345);
	struct histogram e;
	hist_init(&e);
	hist_merge(&h, &e);	/* merging nothing changes nothing */
	assert_int_equal(h.n, 1);
	hist_merge(&e, &h);
	assert_int_equal(e.min, 12345);
	assert_float_equal(e.mean, 12345, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_error_bound),
		cmocka_unit_test(test_percentiles_and_merge),
		cmocka_unit_test(test_empty_and_single),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
