/* test_postmark.c: PostMark's generator (known outputs for seed 42, from an
 * independent implementation), a run that leaves nothing behind, the
 * whole-second report, and parameter checks. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"

#include <math.h>

struct mt {
	uint32_t s[624];
	int i;
};
void postmark_sgenrand(struct mt *m, uint32_t seed);
uint32_t postmark_genrand(struct mt *m);

static void test_generator_seed_42(void **state)
{
	(void)state;
	static const uint32_t first[] = { 4179544424u, 615236124u, 4165290828u, 3119652344u,
					   1623863471u };
	struct mt m;
	uint32_t v = 0;

	postmark_sgenrand(&m, 42);
	for (int i = 0; i < 5; i++)
		assert_int_equal(postmark_genrand(&m), first[i]);
	for (int i = 5; i < 624; i++)
		v = postmark_genrand(&m);
	assert_int_equal(v, 1304686307u);	/* the last of the first state */
	postmark_sgenrand(&m, 42);	/* reseeding restarts the sequence */
	assert_int_equal(postmark_genrand(&m), first[0]);
	/* PostMark's source text starts 32 + RND(95) of these: "Le" */
	postmark_sgenrand(&m, 42);
	assert_int_equal(32 + postmark_genrand(&m) % 95, 'L');
	assert_int_equal(32 + postmark_genrand(&m) % 95, 'e');
}

/* The report's counts alone: every "(... per second)" cut out, as those
 * are counts over the clock's seconds, which a loaded machine moves. */
static void counts_only(const char *text, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = text; *p && n + 1 < len; p++) {
		const char *close = *p == '(' ? strchr(p, ')') : NULL;
		if (close && close - p > 11 && !strncmp(close - 10, "per second", 10)) {
			p = close;
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
}

static void test_run(void **state)
{
	(void)state;
	const char *spec = "postmark:transactions=2000,number=100,subdirs=4";
	char detail[DETAIL_MAX], again[DETAIL_MAX];
	double v[7], w[7];

	setup_dir(state);
	assert_int_equal(run_workload(spec, dir, v, detail, NULL), 0);
	for (int i = 0; i < 7; i++)
		assert_true(v[i] > 0 && isfinite(v[i]));
	assert_int_equal(count_entries(dir), 0);	/* files and s0..s3 gone */
	assert_non_null(strstr(detail, "Creation alone: 100 files"));
	assert_non_null(strstr(detail, "megabytes written"));
	/* Same seed, same files: the counts in the report repeat exactly (the
	 * rates beside them are the clock's: a run that crossed a second
	 * boundary the other did not halved them: 1 run in about 80 under
	 * load) */
	assert_int_equal(run_workload(spec, dir, w, again, NULL), 0);
	static char c1[DETAIL_MAX], c2[DETAIL_MAX];
	counts_only(strstr(detail, "Files:"), c1, sizeof(c1));
	counts_only(strstr(again, "Files:"), c2, sizeof(c2));
	assert_non_null(strstr(c1, "Creation alone: 100 files"));
	assert_null(strstr(c1, "per second"));
	assert_string_equal(c1, c2);

	assert_int_equal(run_workload("postmark:transactions=5000,number=1,bias_create=0", dir, v,
				      NULL, NULL), -1);
	assert_non_null(strstr(error_get(), "out of files"));
	assert_int_equal(count_entries(dir), 0);
	teardown_dir(state);
}

static void test_parameters(void **state)
{
	(void)state;
	struct test_spec ts;

	assert_int_equal(test_spec_parse("postmark-pts", &ts), 0);
	assert_non_null(strstr(ts.params_text, "size_low=5120,size_high=524288,number=500,transactions=250000"));
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("postmark:size_low=100,size_high=50", &ts), -1);
	assert_non_null(strstr(error_get(), "below size_low"));
	assert_int_equal(test_spec_parse("postmark:bias_read=11", &ts), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generator_seed_42),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_parameters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
