/*
 * fixture_run.h: a small stored run with known samples, shared by the
 * store and report tests.  Three targets, one test with a higher-is-better
 * and a lower-is-better metric:
 *   base   files/s 100 101  99   overhead 50 51 49
 *   fast   files/s 120 121 119   overhead 40 41 39   (faster on both)
 *   same   files/s 100.5 99 101.5 overhead 50 50 50  (no significant difference)
 */
#ifndef FSB_FIXTURE_RUN_H
#define FSB_FIXTURE_RUN_H

#include "store/store.h"

/* The store file of the test group: `path` inside the scratch `dir`. */
static char path[512];

static inline int setup_store(void **state)
{
	setup_dir(state);
	snprintf(path, sizeof(path), "%s/r.db", dir);
	return 0;
}

static const double fx_files[3][3] = { { 100, 101, 99 }, { 120, 121, 119 }, { 100.5, 99, 101.5 } };
static const double fx_over[3][3] = { { 50, 51, 49 }, { 40, 41, 39 }, { 50, 50, 50 } };
static const char *const fx_labels[3] = { "base", "fast", "same" };

static inline int64_t fixture_run(struct store *s)
{
	int64_t run, tids[3], test;
	struct r_metric m[2] = {
		{ "files_per_sec", "Files/s", "Files/s", 1, 1 },
		{ "app_overhead", "usec", "App Overhead", -1, 0 },
	};
	struct r_test t = { .name = "fsmark-1000x1M,x", .workload = "fsmark",
			    .params = "files=1000,size=1M", .title = "FS-Mark 3.3",
			    .subtitle = "Test: 1000 Files, 1MB Size", .nmetrics = 2,
			    .metrics = m };

	assert_int_equal(store_begin_run(s, &(struct run_begin){ .label = "fixture",
					 .cmdline = "fsbench run fsmark-1000x1M", .version = "test" }, &run), 0);
	assert_int_equal(store_add_sysfield(s, run, 0, "Processor", "Test CPU"), 0);
	assert_int_equal(store_add_sysfield(s, run, 1, "OS", "Test OS"), 0);
	for (int i = 0; i < 3; i++) {
		struct r_target tg = { .label = (char *)fx_labels[i], .path = "/tmp/x",
				       .kind = "dir", .fstype = "ext4", .mount_point = "/",
				       .mount_source = "/dev/vda", .mount_opts = "rw",
				       .disk = "1GB (vda)", .scheduler = "none" };
		assert_int_equal(store_add_target(s, run, i, &tg, &tids[i]), 0);
	}
	assert_int_equal(store_add_test(s, run, 0, &t, &test), 0);
	for (int rep = 0; rep < 3; rep++)
		for (int i = 0; i < 3; i++) {
			double v[2] = { fx_files[i][rep], fx_over[i][rep] };
			struct r_sample sm = { rep + 1, 1.5, 0.1, 0.2, 20, 35, v };
			assert_int_equal(store_add_sample(s, test, tids[i], &sm, 2), 0);
		}
	assert_int_equal(store_finish_run(s, run, "complete"), 0);
	return run;
}

#endif
