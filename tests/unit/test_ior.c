/*
 * test_ior.c: ior and mdtest as one process (no mpirun): IOR's layout and
 * window arithmetic, content checks, stonewalling, mdtest's tree and
 * counts, and the parameter refusals.  The MPI side is in
 * tests/integration/test_mpi.sh.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "run_workload.h"

#include "core/error.h"

#include <dirent.h>
#include <math.h>

/* Entries of any kind directly in a directory. */
static int entries(const char *where)
{
	DIR *d = opendir(where);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* "write 12.34 MiB/s, 6291456 bytes" -> 6291456 */
static unsigned long long bytes_in(const char *detail, const char *phase)
{
	char key[32];
	const char *at;

	snprintf(key, sizeof(key), "\n%s ", phase);
	at = strstr(detail, key);
	assert_non_null(at);
	at = strstr(at, "MiB/s, ");
	assert_non_null(at);
	return strtoull(at + 7, NULL, 10);
}

static void test_ior_one_process(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	int n;
	(void)state;

	/* Shared file, 3 segments of 1 MiB in 64 KiB transfers, read back
	 * and checked word by word. */
	assert_int_equal(run_workload("ior:b=1m,t=64k,s=3,R=1,e=1", dir, v, detail, &n), 0);
	assert_int_equal(n, 14);
	assert_int_equal(bytes_in(detail, "write"), 3 << 20);
	assert_int_equal(bytes_in(detail, "read"), 3 << 20);
	assert_non_null(strstr(detail, "48 transfers timed"));
	assert_non_null(strstr(detail, "1 rank on 1 node"));
	assert_non_null(strstr(detail, "every word checked against its writer"));
	/* Bandwidth covers the whole window, open to close, so it is at most
	 * what the transfer window alone would give. */
	assert_true(v[0] > 0 && v[1] > 0);
	assert_true(v[0] <= 3.0 / v[5] * 1.0001);
	assert_true(v[10] > 0 && v[11] >= v[10] * 0.5);
	assert_int_equal(count_entries(dir), 0);

	/* File per rank: the same bytes, file testFile.00000000. */
	assert_int_equal(run_workload("ior:b=512k,t=128k,F=1,w=1,r=1", dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, "file per rank"));
	assert_int_equal(bytes_in(detail, "write"), 512 << 10);
	assert_int_equal(count_entries(dir), 0);
}

/* IOR's -i: the phases five times over, the file removed between them;
 * the bytes are all five's, the figures their mean. */
static void test_ior_iterations(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	(void)state;

	assert_int_equal(run_workload("ior:b=256k,t=64k,i=5,R=1", dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, "5 iterations"));
	assert_int_equal(bytes_in(detail, "write"), 5 * (256 << 10));
	assert_int_equal(bytes_in(detail, "read"), 5 * (256 << 10));
	assert_non_null(strstr(detail, "20 transfers timed"));
	assert_true(isfinite(v[0]) && v[0] > 0 && isfinite(v[1]) && v[1] > 0);
	assert_int_equal(count_entries(dir), 0);
}

static void test_ior_stonewall(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	(void)state;

	/* 1 GiB asked, 50 ms allowed: fewer bytes move, and the result says
	 * it was stonewalled. */
	assert_int_equal(run_workload("ior:b=1g,t=1m,D=50ms,w=1,r=1", dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, "stonewalled"));
	assert_true(bytes_in(detail, "write") < (1ULL << 30));
	assert_int_equal(bytes_in(detail, "write") % (1 << 20), 0);
	assert_int_equal(count_entries(dir), 0);
}

static void test_ior_refusals(void **state)
{
	struct test_spec ts;
	(void)state;

	assert_int_equal(test_spec_parse("ior:r=1", &ts), -1);
	assert_non_null(strstr(error_get(), "needs the files a write phase leaves"));
	assert_int_equal(test_spec_parse("ior:b=100k,t=64k", &ts), -1);
	assert_non_null(strstr(error_get(), "multiple of t"));
	assert_int_equal(test_spec_parse("ior:t=1000,b=2000,B=1", &ts), -1);
	assert_int_equal(test_spec_parse("mdtest:e=10", &ts), -1);
	assert_non_null(strstr(error_get(), "w bytes written"));
}

static void test_mdtest_tree_and_counts(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	int n;
	(void)state;

	/* Depth 2, branching 3: 1 + 3 + 9 directories, items spread over
	 * them; every phase touches all 60 items. */
	assert_int_equal(run_workload("mdtest:n=60,z=2,b=3,w=4k,e=4k,y=1,u=1", dir, v, detail, &n), 0);
	assert_int_equal(n, 7);
	for (int i = 0; i < 7; i++)
		assert_true(v[i] > 0);
	assert_non_null(strstr(detail, "File creation"));
	for (const char *at = strstr(detail, "\n") + 1; *at; at = strchr(at, '\n') + 1) {
		char phase[64];
		double rate, secs;
		unsigned long long items;
		if (sscanf(at, "%63[A-Za-z ] %lf %llu %lf", phase, &rate, &items, &secs) == 4 &&
		    strcmp(phase, "phase ")) {
			assert_int_equal(items, 60);
			assert_true(fabs(rate - 60 / secs) / rate < 0.02);
		}
		if (!strchr(at, '\n'))
			break;
	}
	assert_int_equal(count_entries(dir), 0);
	/* The trees are gone too (count_entries counts files only). */
	assert_int_equal(entries(dir), 0);
	/* Files only: four metrics. */
	assert_int_equal(run_workload("mdtest:n=20,F=1", dir, v, detail, &n), 0);
	assert_int_equal(n, 4);
	assert_null(strstr(detail, "Directory creation"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ior_one_process, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_ior_iterations, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_ior_stonewall, setup_dir, teardown_dir),
		cmocka_unit_test(test_ior_refusals),
		cmocka_unit_test_setup_teardown(test_mdtest_tree_and_counts, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
