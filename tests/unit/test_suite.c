/* test_suite.c: suite files: tests, parameters, titles, runs, skipped
 * workloads, errors with line numbers, --scale; and the built-in suites. */
#include "testutil.h"
#include "core/error.h"
#include "runner/suite.h"

static const char *write_suite(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_parse(void **state)
{
	(void)state;
	struct suite s;
	const char *p = write_suite("a.suite",
		"# comment\n[suite]\nname = demo\ndescription = A demo\nfilesystems = ext4,xfs\nruns = 4\n"
		"time-budget = 5m\n\n"
		"[test small]\nworkload = fsmark\nfiles = 10\nsize = 4k\ntitle = My Title\nsubtitle = My Sub\n\n"
		"[test named]\ntest = fsmark-1000x1M\nruns = 2\nwarmup = 1\n\n"
		"[test later]\nworkload = nosuchworkload\ntransactions = 5\n");

	assert_int_equal(suite_load(p, 1, &s), 0);
	assert_string_equal(s.name, "demo");
	assert_string_equal(s.filesystems, "ext4,xfs");
	assert_true(s.time_budget == 300);
	assert_int_equal(s.ntests, 2);
	assert_string_equal(s.tests[0].name, "small");
	assert_string_equal(s.tests[0].title, "My Title");
	assert_string_equal(s.tests[0].subtitle, "My Sub");
	assert_non_null(strstr(s.tests[0].params_text, "files=10,size=4k,"));
	assert_int_equal(s.tests[0].runs, 4);	/* the suite's default */
	assert_string_equal(s.tests[1].subtitle, "Test: 1000 Files, 1MB Size");
	assert_int_equal(s.tests[1].runs, 2);
	assert_int_equal(s.tests[0].warmup, 0);
	assert_int_equal(s.tests[1].warmup, 1);
	assert_int_equal(s.nskipped, 1);
	assert_non_null(strstr(s.skipped[0], "later: 'nosuchworkload' is not in this fsbench yet"));
	suite_free(&s);
}

static void test_scale(void **state)
{
	(void)state;
	struct suite s;
	const char *p = write_suite("b.suite", "[test t]\nworkload = fsmark\nfiles = 1000\nsize = 1M\n");

	assert_int_equal(suite_load(p, 0.1, &s), 0);
	assert_non_null(strstr(s.tests[0].params_text, "files=100,"));
	assert_string_equal(s.tests[0].subtitle, "Test: 100 Files, 1MB Size");
	assert_string_equal(s.name, "b.suite");
	suite_free(&s);
	/* PostMark: the transactions shrink, the pool does not (it would
	 * run dry: its size is a random walk) */
	p = write_suite("pm.suite", "[test t]\ntest = postmark-pts\n");
	assert_int_equal(suite_load(p, 0.05, &s), 0);
	assert_non_null(strstr(s.tests[0].params_text, "transactions=12500,"));
	assert_non_null(strstr(s.tests[0].params_text, "number=500"));
	suite_free(&s);
}

static void test_errors(void **state)
{
	(void)state;
	struct suite s;

	assert_int_equal(suite_load(write_suite("c.suite", "[suite]\nname = x\n[test t]\nworkload = fsmark\nfiles = many\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "c.suite:3: test 't': fsmark: parameter 'files': bad value 'many'"));
	assert_int_equal(suite_load(write_suite("d.suite", "[suite]\nbogus = 1\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "d.suite:2: unknown [suite] key 'bogus'"));
	assert_int_equal(suite_load(write_suite("e.suite", "[tests x]\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "unknown section"));
	assert_int_equal(suite_load(write_suite("f.suite", "[test x]\nfiles = 3\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "has no workload="));
	assert_int_equal(suite_load(write_suite("g.suite", "[test x]\nworkload fsmark\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "g.suite:2: expected key = value"));
	assert_int_equal(suite_load("nosuchsuite", 1, &s), -1);
	assert_non_null(strstr(error_get(), "fsbench list suites"));
}

/* Every shipped suite parses, and its tests either run or are skipped by name. */
static void test_builtin_suites(void **state)
{
	(void)state;
	const char *names[] = { "usb-key", "tar-restore", "fileop-flash", "bonnie-compress", "quick",
				"powercut" };
	char path[600];
	struct suite s;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/../../suites/%s.suite", fixture_dir(), names[i]);
		assert_int_equal(suite_load(path, 1, &s), 0);
		assert_string_equal(s.name, names[i]);
		assert_true(s.ntests + s.nskipped > 0);
		assert_true(s.filesystems[0]);
		suite_free(&s);
	}
	snprintf(path, sizeof(path), "%s/../../suites/usb-key.suite", fixture_dir());
	assert_int_equal(suite_load(path, 1, &s), 0);
	assert_int_equal(s.ntests + s.nskipped, 15);	/* every chart of seed 000 */
	suite_free(&s);
	/* the powercut suite: its four shapes, each one run (a mistyped key
	 * or shape would fail the load; a lost runs = would cost 3x) */
	snprintf(path, sizeof(path), "%s/../../suites/powercut.suite", fixture_dir());
	assert_int_equal(suite_load(path, 1, &s), 0);
	assert_int_equal(s.ntests, 4);
	assert_int_equal(s.runs, 1);
	suite_free(&s);
}

/* A suite's show = names the seed tables its default view keeps; a word
 * the reports do not know is refused at load, not ignored (the bug: a
 * mistyped "rep" would silently drop seed 001's table). */
static void test_show(void **state)
{
	(void)state;
	struct suite s;
	char path[600];

	assert_int_equal(suite_load(write_suite("s.suite", "[test t]\nworkload = fsmark\n"
						     "show = tables,reps\n"), 1, &s), 0);
	assert_string_equal(s.tests[0].show, "tables,reps");
	suite_free(&s);
	assert_int_equal(suite_load(write_suite("s2.suite", "[test t]\nworkload = fsmark\n"
						      "show = rep\n"), 1, &s), -1);
	assert_non_null(strstr(error_get(), "s2.suite:3: show: 'rep' is not a list of"));
	assert_int_equal(suite_load(write_suite("s3.suite", "[test t]\nworkload = fsmark\n"
						      "show = tables,\n"), 1, &s), -1);
	/* seed 001's suite keeps its repetitions in the default view */
	snprintf(path, sizeof(path), "%s/../../suites/tar-restore.suite", fixture_dir());
	assert_int_equal(suite_load(path, 1, &s), 0);
	for (int i = 0; i < s.ntests; i++)
		assert_string_equal(s.tests[i].show, "reps");
	suite_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_builtin_suites),
		cmocka_unit_test(test_show),
	};
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
