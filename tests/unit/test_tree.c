/* test_tree.c: the corpus is deterministic, a real tar that GNU tar reads,
 * sized exactly; a run restores, copies, reads (verified) and deletes; a
 * corrupt file fails the run; the cache may not be on the target. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"

#include <math.h>
#include <sys/stat.h>

static char cache[256], cache2[256], target[256];

static int setup(void **state)
{
	(void)state;
	make_tmpdir(cache, sizeof(cache));
	make_tmpdir(cache2, sizeof(cache2));
	snprintf(target, sizeof(target), "/dev/shm/fsbench-unit.XXXXXX");
	assert_non_null(mkdtemp(target));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(cache);
	rm_rf(cache2);
	rm_rf(target);
	return 0;
}

static int run(const char *spec, double *v, char *detail)
{
	return run_workload(spec, target, v, detail, NULL);
}

static void test_corpus_and_run(void **state)
{
	(void)state;
	char spec[512], detail[DETAIL_MAX], cmd[1200];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=300,size=3M,dirs=7,cache=%s", cache);
	assert_int_equal(run(spec, v, detail), 0);
	for (int i = 0; i < 16; i++)
		assert_true(isfinite(v[i]) && v[i] >= 0);
	assert_true(v[0] > 0 && v[1] > 0);	/* restore time and MB/s */
	assert_non_null(strstr(detail, "every file verified"));
	assert_int_equal(count_entries(target), 0);	/* deleted */

	/* GNU tar reads the corpus: 300 files + 7 dirs + corpus/ absent (no
	 * top entry), sizes adding up to exactly 3 MiB. */
	snprintf(cmd, sizeof(cmd), "tar tf %s/corpus-v1-300-3145728-7-1.tar | grep -c '\\.jpg$' | grep -qx 300", cache);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "awk '{ s += $2 } END { exit s != 3145728 }' %s/corpus-v1-300-3145728-7-1.sums", cache);
	assert_int_equal(system(cmd), 0);

	/* Deterministic: another cache makes the same bytes. */
	snprintf(spec, sizeof(spec), "tree:files=300,size=3M,dirs=7,cache=%s", cache2);
	assert_int_equal(run(spec, v, NULL), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s %s/corpus-v1-300-3145728-7-1.tar %s/corpus-v1-300-3145728-7-1.tar",
		 cache, cache2);
	assert_int_equal(system(cmd), 0);
}

static void test_corruption_is_caught(void **state)
{
	(void)state;
	char spec[512], cmd[1200];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=50,size=500k,dirs=5,cache=%s", cache);
	assert_int_equal(run(spec, v, NULL), 0);
	/* Flip the expected checksum of one file: the read phase must say so. */
	snprintf(cmd, sizeof(cmd), "sed -i '7s/^[0-9a-f]\\{8\\}/00000000/' %s/corpus-v1-50-512000-5-1.sums", cache);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(spec, v, NULL), -1);
	assert_non_null(strstr(error_get(), "is corrupt"));
	assert_int_equal(count_entries(target), 0);	/* the half tree is gone */
}

static void test_cache_on_target_refused(void **state)
{
	(void)state;
	char spec[512];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=10,size=10k,cache=%s", target);
	assert_int_equal(run(spec, v, NULL), -1);
	assert_non_null(strstr(error_get(), "is on the filesystem under test"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_and_run),
		cmocka_unit_test(test_corruption_is_caught),
		cmocka_unit_test(test_cache_on_target_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
