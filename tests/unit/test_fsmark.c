/* test_fsmark.c: the fs_mark workload run for real on scratch directories:
 * file counts, placement, cleanup, every sync method, and ENOSPC. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"

#include <dirent.h>
#include <math.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* Run one repetition of `spec` in dir; returns the workload's rc. */
static int run_spec(const char *spec, double *values)
{
	return run_workload(spec, dir, values, NULL, NULL);
}

static void test_unlinks_after_timing(void **state)
{
	(void)state;
	double v[2] = { NAN, NAN };

	assert_int_equal(run_spec("fsmark:files=40,size=8k", v), 0);
	assert_true(v[0] > 0);
	assert_true(v[1] >= 0);
	assert_int_equal(count_entries(dir), 0);
}

static void test_keep_names_and_sizes(void **state)
{
	(void)state;
	double v[2];
	struct dirent *de;
	struct stat st;
	char p[600];
	int n = 0;

	assert_int_equal(run_spec("fsmark:files=25,size=20000,write_size=4k,keep=1", v), 0);
	DIR *d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		/* 40 characters: hex seconds, '~' padding, 24 of [0-9A-Z]. */
		assert_int_equal(strlen(de->d_name), 40);
		assert_int_equal(strspn(de->d_name + 16, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), 24);
		assert_non_null(strchr(de->d_name, '~'));
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_size, 20000);
	}
	closedir(d);
	assert_int_equal(n, 25);
}

static void test_threads_and_subdirs(void **state)
{
	(void)state;
	double v[2];
	char p[600];
	struct stat st;

	/* 3 workers x 20 files, 10 per subdir from a start subdir: all 4 dirs
	 * of 4 get used by each worker, 60 files in all. */
	assert_int_equal(run_spec("fsmark:files=20,size=1k,threads=3,dirs=4,files_per_dir=5,keep=1", v), 0);
	assert_int_equal(count_entries(dir), 60 + 4);	/* the files and their 4 subdirs */
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%02x", dir, i);
		assert_int_equal(stat(p, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
	}
	assert_true(v[0] > 0);
}

static void test_every_sync_method(void **state)
{
	(void)state;
	char spec[64];
	double v[2];

	for (int s = 0; s <= 6; s++) {
		snprintf(spec, sizeof(spec), "fsmark:files=10,size=4k,sync=%d", s);
		assert_int_equal(run_spec(spec, v), 0);
		assert_true(v[0] > 0);
		assert_int_equal(count_entries(dir), 0);
	}
}

/* A full file system: one clear line naming the file and how far it got,
 * and the files written so far are removed. */
static void test_enospc(void **state)
{
	(void)state;
	double v[2];

	if (geteuid() != 0) {
		skip_because("mounting a small tmpfs needs root");
		return;
	}
	assert_int_equal(mount("tmpfs", dir, "tmpfs", 0, "size=1m"), 0);
	int rc = run_spec("fsmark:files=100,size=64k", v);
	int left = count_entries(dir);
	assert_int_equal(umount(dir), 0);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(error_get(), "fsmark: writing "));
	assert_non_null(strstr(error_get(), "No space left on device"));
	assert_non_null(strstr(error_get(), " of 65536 bytes"));
	assert_int_equal(left, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unlinks_after_timing, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_keep_names_and_sizes, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_threads_and_subdirs, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_every_sync_method, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_enospc, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
