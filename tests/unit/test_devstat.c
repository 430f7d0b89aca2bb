/* test_devstat.c: the device group's readers: /sys block stat parsing
 * (every kernel's field count, and what is not a stat file), the space a
 * directory takes with the data's zstd ratio, and the group's round trip
 * through the store, from a schema-3 store too. */
#include "testutil.h"
#include "core/devstat.h"
#include "runner/devgroup.h"
#include "store/store.h"

#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>

static void test_parse_field_counts(void **state)
{
	(void)state;
	struct devstat d;

	/* 5.5+: 17 fields (stat.rst order) */
	assert_int_equal(devstat_parse("   43644     2691  1514769     2736   162287   451169 "
				       "35834362    70034        0    29712    86040      751        0 "
				       "325847284      949    86929    12320\n", &d), 0);
	assert_int_equal(d.nfields, 17);
	assert_true(d.rd_ios == 43644 && d.rd_sectors == 1514769);
	assert_true(d.wr_ios == 162287 && d.wr_sectors == 35834362);
	assert_true(d.io_ticks_ms == 29712);
	assert_true(d.dc_ios == 751 && d.dc_sectors == 325847284);
	assert_true(d.fl_ios == 86929);
	/* 4.18-5.4: discards, no flushes; before 4.18: neither */
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n", &d), 0);
	assert_int_equal(d.nfields, 15);
	assert_true(d.dc_sectors == 14 && d.fl_ios == 0);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11", &d), 0);
	assert_int_equal(d.nfields, 11);
	assert_true(d.io_ticks_ms == 10 && d.dc_ios == 0);
	/* not a stat file */
	assert_int_equal(devstat_parse("", &d), -1);
	assert_int_equal(devstat_parse("1 2 3", &d), -1);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &d), -1);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 x1", &d), -1);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 99999999999999999999999", &d), -1);
	assert_int_equal(devstat_parse("-1 2 3 4 5 6 7 8 9 10 11", &d), -1);
	/* names that are not a block device node are refused before any open */
	assert_int_equal(devstat_read("", "../../etc", &d), -1);
	assert_int_equal(devstat_read("", "", &d), -1);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

static void test_space_scan(void **state)
{
	(void)state;
	char d[64], p[128];
	static unsigned char zero[1 << 20], rnd[1 << 20];
	struct space sp;
	uint64_t x = 88172645463325252ULL;

	for (size_t i = 0; i < sizeof(rnd); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		rnd[i] = (unsigned char)x;
	}
	make_tmpdir(d, sizeof(d));
	made_dir(d);	/* removed by the teardown though an assertion fails */
	snprintf(p, sizeof(p), "%s/sub", d);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/sub/zero", d);
	write_file(p, zero, sizeof(zero));
	snprintf(p, sizeof(p), "%s/small", d);
	write_file(p, "abc", 3);
	snprintf(p, sizeof(p), "%s/link", d);
	assert_int_equal(symlink("/etc/passwd", p), 0);	/* not followed */
	assert_int_equal(space_scan(d, 1 << 20, &sp), 0);
	assert_true(sp.files == 2);
	assert_true(sp.apparent == (1 << 20) + 3);
	assert_true(sp.allocated >= (1 << 20));
	assert_true(sp.sampled > 0 && sp.sampled <= (1 << 20));
	/* zeros: each 128 KiB piece in one 4 KiB sector, 32x, as btrfs stores
	 * them (the sample compressed as one stream said 20000x) */
	double zr = (double)sp.sampled / (double)sp.sample_compressed;
	assert_true(zr > 30 && zr <= 32);
	undo(d);

	make_tmpdir(d, sizeof(d));
	made_dir(d);	/* removed by the teardown though an assertion fails */
	snprintf(p, sizeof(p), "%s/random", d);
	write_file(p, rnd, sizeof(rnd));
	assert_int_equal(space_scan(d, 1 << 20, &sp), 0);
	double ratio = (double)sp.sampled / (double)sp.sample_compressed;
	assert_true(ratio > 0.95 && ratio < 1.05);
	/* no sample asked: nothing read */
	assert_int_equal(space_scan(d, 0, &sp), 0);
	assert_true(sp.sampled == 0 && sp.files == 1);
	undo(d);
	assert_int_equal(space_scan("/nonexistent/fsbench", 0, &sp), -1);
}

static void test_notes(void **state)
{
	(void)state;
	char buf[256];

	device_note("fs", "ext4", "loop3", "/dev/loop3", buf, sizeof(buf));
	assert_string_equal(buf, "");
	device_note("fs", "tmpfs", "", "tmpfs", buf, sizeof(buf));
	assert_non_null(strstr(buf, "memory: no block device"));
	device_note("dir", "nfs", "", "server:/x", buf, sizeof(buf));
	assert_non_null(strstr(buf, "no block device"));
	device_note("dir", "ext4", "vda1", "/dev/vda1", buf, sizeof(buf));
	assert_non_null(strstr(buf, "whatever else"));
}

/* A test row with the device group after its own metric, stored and
 * loaded: the group comes back as the group, not as metrics. */
static void store_device_run(struct store *s, int64_t *run)
{
	int64_t tid, test;
	struct r_metric m[1 + DM_COUNT] = { { "files_per_sec", "Files/s", "Files/s", 1, 1, 0 } };
	for (int i = 0; i < DM_COUNT; i++)
		m[1 + i] = (struct r_metric){ (char *)device_metrics[i].name,
					      (char *)device_metrics[i].unit,
					      (char *)device_metrics[i].label,
					      device_metrics[i].direction, 0, 1 };
	struct r_test t = { .name = "t", .workload = "fsmark", .params = "", .title = "T",
			    .subtitle = "S", .nmetrics = 1, .ndevice = DM_COUNT, .metrics = m };
	struct r_target tg = { .label = "a", .path = "/x", .kind = "fs", .fstype = "ext4",
			       .mount_point = "/x", .mount_source = "/dev/loop0", .mount_opts = "",
			       .disk = "", .scheduler = "", .blockdev = "loop0" };
	double v[1 + DM_COUNT];
	for (int i = 0; i < 1 + DM_COUNT; i++)
		v[i] = NAN;
	v[0] = 10;
	v[1 + DM_WAMP] = 1.5;
	assert_int_equal(store_begin_run(s, &(struct run_begin){ .label = "d", .cmdline = "fsbench run", .version = "test" }, run), 0);
	assert_int_equal(store_add_target(s, *run, 0, &tg, &tid), 0);
	assert_int_equal(store_add_test(s, *run, 0, &t, &test), 0);
	struct r_sample sm = { 1, 1, 0, 0, NAN, NAN, v, NULL };
	assert_int_equal(store_add_sample(s, test, tid, &sm, 1 + DM_COUNT), 0);
	assert_int_equal(store_finish_run(s, *run, "complete"), 0);
}

static void check_device_run(struct store *s, int64_t run)
{
	struct result *r;

	assert_int_equal(store_load_run(s, run, &r), 0);
	assert_int_equal(r->tests[0].nmetrics, 1);
	assert_int_equal(r->tests[0].ndevice, DM_COUNT);
	assert_string_equal(r->tests[0].metrics[1 + DM_WAMP].name, "write_amp");
	assert_float_equal(r->tests[0].cells[0].samples[0].values[1 + DM_WAMP], 1.5, 0);
	assert_string_equal(r->targets[0].blockdev, "loop0");
	assert_null(r->targets[0].blockdev_note);
	result_free(r);
}

static void test_store_round_trip_and_upgrade(void **state)
{
	(void)state;
	char d[64], p[128];
	struct store *s;
	int64_t run;
	sqlite3 *db;

	make_tmpdir(d, sizeof(d));
	made_dir(d);	/* removed by the teardown though an assertion fails */
	snprintf(p, sizeof(p), "%s/r.db", d);
	assert_int_equal(store_open(p, &s), 0);
	store_device_run(s, &run);
	check_device_run(s, run);
	store_close(s);

	/* A schema-3 store (before the device group, the precision target,
	 * the verdict rule, the aging record and a suite's show =) is
	 * upgraded in place. */
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM value; DELETE FROM sample; DELETE FROM metric;"
				      " DELETE FROM test; DELETE FROM target; DELETE FROM run;"
				      " ALTER TABLE metric DROP COLUMN grp;"
				      " ALTER TABLE target DROP COLUMN blockdev;"
				      " ALTER TABLE target DROP COLUMN blockdev_note;"
				      " ALTER TABLE target DROP COLUMN aging;"
				      " ALTER TABLE run DROP COLUMN note; ALTER TABLE run DROP COLUMN argv;"
				      " ALTER TABLE sample DROP COLUMN series;"
				      " ALTER TABLE test DROP COLUMN precision;"
				      " ALTER TABLE test DROP COLUMN margin; ALTER TABLE test DROP COLUMN looks;"
				      " ALTER TABLE test DROP COLUMN show;"
				      " PRAGMA user_version=3;", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(p, &s), 0);
	store_device_run(s, &run);
	check_device_run(s, run);
	store_close(s);
	undo(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_field_counts),
		cmocka_unit_test_teardown(test_space_scan, teardown_made),
		cmocka_unit_test(test_notes),
		cmocka_unit_test_teardown(test_store_round_trip_and_upgrade, teardown_made),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
