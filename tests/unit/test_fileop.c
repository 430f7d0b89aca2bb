/* test_fileop.c: fileop's tree and call counts per level for both
 * generations, its parameters, and a full run leaving nothing behind. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"

#include <math.h>

int fileop_level_counts(const char *dir, int n, int variant, uint64_t size, uint64_t *counts);

enum { MKDIR, RMDIR, CREATE, READ, WRITE, CLOSE, STAT, ACCESS, CHMOD, READDIR, LINK, UNLINK,
       DELETE, CHDIR, OPEN };

/* The 13-column fileop: n + n^2 directories, n^3 files, n^2 readdirs. */
static void test_counts_13(void **state)
{
	(void)state;
	uint64_t c[15];

	for (int n = 1; n <= 4; n++) {
		assert_int_equal(fileop_level_counts(dir, n, 0, 100, c), 0);
		uint64_t d = (uint64_t)(n + n * n), files = (uint64_t)(n * n * n);
		assert_int_equal(c[MKDIR], d);
		assert_int_equal(c[RMDIR], d);
		for (int op = CREATE; op <= DELETE; op++)
			if (op != READDIR)
				assert_int_equal(c[op], files);
		assert_int_equal(c[READDIR], (uint64_t)(n * n));
		assert_int_equal(c[CHDIR], 0);
		assert_int_equal(c[OPEN], 0);
		assert_int_equal(count_entries(dir), 0);
	}
}

/* The 15-column fileop: leaf directories and the chdir/open columns. */
static void test_counts_15(void **state)
{
	(void)state;
	uint64_t c[15];
	int n = 3;

	assert_int_equal(fileop_level_counts(dir, n, 1, 64, c), 0);
	assert_int_equal(c[MKDIR], 3 + 9 + 27);
	assert_int_equal(c[CHDIR], 3 + 9 + 27);
	assert_int_equal(c[RMDIR], 3 + 9 + 27);
	assert_int_equal(c[OPEN], 27);
	assert_int_equal(c[READ], 27);
	assert_int_equal(c[READDIR], 9);
}

static void test_run_and_detail(void **state)
{
	(void)state;
	struct test_spec ts;
	double v[15];
	char detail[DETAIL_MAX];
	int n;

	assert_int_equal(run_workload("fileop:l=2,u=4,s=1k", dir, v, detail, &n), 0);
	assert_int_equal(n, 13);
	for (int i = 0; i < 13; i++)
		assert_true(v[i] > 0 && isfinite(v[i]));
	/* fileop's table: a header and one row per level 2, 3, 4 */
	assert_true(!strncmp(detail, "level    mkdir    rmdir   create", 32));
	assert_non_null(strstr(detail, "\n    2 "));
	assert_non_null(strstr(detail, "\n    4 "));
	assert_non_null(strstr(detail, "         64\n"));	/* Total_files of level 4 */
	assert_int_equal(count_entries(dir), 0);

	assert_int_equal(test_spec_parse("fileop-seed002", &ts), 0);
	assert_non_null(strstr(ts.params_text, "l=20,u=25,f=1,i=1,s=10k,variant=13"));
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("fileop:variant=15,f=2", &ts), 0);
	assert_int_equal(ts.nmetrics, 15);
	test_spec_free(&ts);
}

static void test_bad_parameters(void **state)
{
	(void)state;
	struct test_spec ts;

	assert_int_equal(test_spec_parse("fileop:l=5", &ts), -1);
	assert_non_null(strstr(error_get(), "'l' and 'u' go together"));
	assert_int_equal(test_spec_parse("fileop:l=5,u=3", &ts), -1);
	assert_non_null(strstr(error_get(), "above u=3"));
	assert_int_equal(test_spec_parse("fileop:variant=14", &ts), -1);
	assert_int_equal(test_spec_parse("fileop:f=0", &ts), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts_13, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_counts_15, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_run_and_detail, setup_dir, teardown_dir),
		cmocka_unit_test(test_bad_parameters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
