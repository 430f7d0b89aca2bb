/*
 * test_iotext.c: a result in fio's shapes (io/iotext.c): fio's units in
 * the normal text, the percentiles the job asks for, in text, JSON, json+
 * and terse, and fio's other blocks.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "core/histogram.h"

#include <jansson.h>
#include <stdlib.h>

/* The text line's figures in fio's own units, as fio 3.33 printed them
 * for the same counts and times. */
static void test_fio_text_units(void **state)
{
	static const struct {
		const char *rw;
		uint64_t ios, bytes, ms;
		const char *line;
	} cases[] = {
		{ "randread", 1072139, 4391481344ULL, 1001,
		  "read: IOPS=1071k, BW=4184MiB/s (4387MB/s)(4188MiB/1001msec)" },
		{ "write", 64, 67108864, 24, "write: IOPS=2666, BW=2667MiB/s (2796MB/s)(64.0MiB/24msec)" },
		{ "randread", 6, 24576, 3001, "read: IOPS=1, BW=8189B/s (8189B/s)(24.0KiB/3001msec)" },
	};
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char text[4096], opts[64];
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "rw=%s", cases[c].rw);
		job(&o, opts);
		memset(res, 0, sizeof(*res));
		int d = strcmp(cases[c].rw, "write") ? DIR_READ : DIR_WRITE;
		res->ios[d] = cases[c].ios;
		res->bytes[d] = cases[c].bytes;
		res->elapsed_ns = res->runtime_ns = cases[c].ms * 1000000ULL;
		res->nthreads = 1;
		io_result_text(&o, res, 0, NULL, text, sizeof(text));
		if (!strstr(text, cases[c].line))
			fail_msg("want '%s' in:\n%s", cases[c].line, text);
	}
	free(res);
}

/* fio's three percentile switches: clat_percentiles (on by default),
 * lat_percentiles and slat_percentiles, each in the text, the JSON (a
 * "percentile" object in clat_ns, lat_ns, slat_ns) and terse (whose one
 * list is lat's when asked, else clat's), and each turned off by its
 * disable_ option and all by gtod_reduce, as fio's init does.  The bug it
 * catches: lat_percentiles refused (a job file people post), or the
 * percentiles of the wrong latency shown under its name. */
static void test_latency_percentile_options(void **state)
{
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char text[8192];
	(void)state;

	assert_non_null(res);
	hist_init(&res->dir_clat[DIR_READ]);
	hist_init(&res->lat_hist[DIR_READ]);
	hist_init(&res->slat_hist[DIR_READ]);
	for (int i = 0; i < 100; i++) {	/* slat 10 us, clat 100 us, lat 110 us */
		hist_add(&res->slat_hist[DIR_READ], 10000);
		hist_add(&res->dir_clat[DIR_READ], 100000);
		hist_add(&res->lat_hist[DIR_READ], 110000);
		moments_add(&res->slat[DIR_READ], 10000);
		moments_add(&res->lat[DIR_READ], 110000);
	}
	res->ios[DIR_READ] = 100;
	res->bytes[DIR_READ] = 409600;
	res->elapsed_ns = res->runtime_ns = 1000000000ULL;
	res->nthreads = 1;

	job(&o, "rw=randread,ioengine=libaio,lat_percentiles=1,slat_percentiles=1,clat_percentiles=0");
	io_result_text(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "slat percentiles (usec): 1.00th=[10."));
	assert_non_null(strstr(text, "    lat percentiles (usec): 1.00th=[11"));
	assert_null(strstr(text, "clat percentiles"));
	json_t *j = io_result_json(&o, res, 0, "");
	json_t *rd = json_object_get(j, "read");
	json_t *lp = json_object_get(json_object_get(rd, "lat_ns"), "percentile");
	json_t *sp = json_object_get(json_object_get(rd, "slat_ns"), "percentile");
	assert_non_null(lp);
	assert_non_null(sp);
	assert_null(json_object_get(json_object_get(rd, "clat_ns"), "percentile"));
	double l50 = (double)json_integer_value(json_object_get(lp, "50.000000"));
	double s50 = (double)json_integer_value(json_object_get(sp, "50.000000"));
	assert_true(l50 > 100000 && l50 < 120000);
	assert_true(s50 > 9000 && s50 < 11000);
	json_decref(j);
	/* terse: lat's list (110 us), not clat's (100 us) */
	io_result_terse(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, ";50.000000%=11"));

	/* json+: fio's bins beside each percentile list, keyed by fio's
	 * bucket value (plat_idx_to_val: same buckets as fsbench's), their
	 * counts adding up to N; a value past fio's last bucket folds into it */
	hist_add(&res->lat_hist[DIR_READ], 60ULL * 1000000000ULL);	/* 60 s */
	j = io_result_json_plus(&o, res, 0, "");
	rd = json_object_get(j, "read");
	json_t *bins = json_object_get(json_object_get(rd, "lat_ns"), "bins");
	assert_non_null(bins);
	json_int_t sum = 0;
	const char *k;
	json_t *v;
	json_object_foreach(bins, k, v)
		sum += json_integer_value(v);
	assert_int_equal(sum, 101);
	char key[32];
	snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_value(hist_index(110000)));
	assert_int_equal(json_integer_value(json_object_get(bins, key)), 100);
	snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_value(29 * 64 - 1));
	assert_int_equal(json_integer_value(json_object_get(bins, key)), 1);	/* fio's cap */
	json_decref(j);
	j = io_result_json(&o, res, 0, "");	/* plain json: no bins */
	assert_null(json_object_get(json_object_get(json_object_get(j, "read"), "lat_ns"), "bins"));
	json_decref(j);

	/* the default: clat's alone */
	job(&o, "rw=randread,ioengine=libaio");
	io_result_text(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "clat percentiles (usec): 1.00th=[10"));
	assert_null(strstr(text, "slat percentiles"));
	assert_null(strstr(text, "    lat percentiles"));
	io_result_terse(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, ";50.000000%=10"));

	/* disable_lat turns lat_percentiles off; gtod_reduce all three */
	struct io_pct_on on;
	job(&o, "rw=randread,lat_percentiles=1,disable_lat=1");
	on = io_pct_on(&o);
	assert_true(on.clat && !on.lat && !on.slat);
	job(&o, "rw=randread,lat_percentiles=1,slat_percentiles=1,gtod_reduce=1");
	on = io_pct_on(&o);
	assert_true(!on.clat && !on.lat && !on.slat);
	job(&o, "rw=randread,gtod_reduce=1");
	io_result_terse(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, ";0%=0"));

	/* fio's blocks that people grep: the latency distribution (all of
	 * it in one range; 100 us is at the edge of fio's 100 and 250, which
	 * the histogram's buckets do not tell apart), cpu with its counts,
	 * the queue's distributions, issued I/Os; then the group's totals
	 * and the disk */
	job(&o, "rw=randread,ioengine=libaio");
	hist_merge(&res->clat, &res->dir_clat[DIR_READ]);
	res->depth_level[0] = 100;
	res->depth_submit[1] = res->depth_complete[1] = 100;
	res->ctx = 7;
	io_result_text(&o, res, 0, NULL, text, sizeof(text));
	const char *lat = strstr(text, "\n  lat (usec)   : ");
	assert_non_null(lat);
	assert_non_null(strstr(lat, "=100.00%\n"));
	assert_non_null(strstr(text, "\n  cpu          : usr="));
	assert_non_null(strstr(text, ", ctx=7, majf=0, minf=0\n"));
	assert_non_null(strstr(text, "\n  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%"));
	assert_non_null(strstr(text, "\n     submit    : 0=0.0%, 4=100.0%"));
	assert_non_null(strstr(text, "\n     issued rwts: total=100,0,0,0 short=0,0,0,0"));
	struct io_group_stats g;
	memset(&g, 0, sizeof(g));
	io_group_add(&g, &o, res);
	io_group_add(&g, &o, res);
	io_group_text(&g, 0, text, sizeof(text));
	assert_non_null(strstr(text, "Run status group 0 (all jobs):\n   READ: bw=800KiB/s (819kB/s), "
			       "400KiB/s-400KiB/s (410kB/s-410kB/s), io=800KiB (819kB), "
			       "run=1000-1000msec\n"));
	assert_null(strstr(text, "WRITE"));
	struct io_disk d = { "vda", 1, 2, 3, 4, 5, 6, 7, 12.5 };
	io_disk_text(&d, text, sizeof(text));
	assert_string_equal(text, "\nDisk stats (read/write):\n  vda: ios=1/2, merge=3/4, "
			    "ticks=5/6, in_queue=7, util=12.50%\n");
	free(res);
}

/* unified_rw_reporting and fio's sync section.  mixed: one direction
 * "mixed" in place of read and write, its counts the sum, its latencies
 * both directions' (min of the reads', max of the writes'); both: the
 * two and then mixed; terse with mixed has one direction's fields where
 * it had two.  sync: the fsyncs' count and percentiles, where the old
 * report gave total_ios 0 whatever ran (fio's latency_percentiles.py
 * test 9).  Catches a direction left out of the fold, or one reported
 * twice. */
static void test_unified_and_sync(void **state)
{
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char text[8192], text2[8192];
	(void)state;

	assert_non_null(res);
	io_result_init(res);
	for (int i = 0; i < 30; i++)
		hist_add(&res->dir_clat[DIR_READ], 50000);	/* reads 50 us */
	for (int i = 0; i < 10; i++) {
		hist_add(&res->dir_clat[DIR_WRITE], 200000);	/* writes 200 us */
		hist_add(&res->sync, 1000000);			/* fsyncs 1 ms */
	}
	res->ios[DIR_READ] = 30;
	res->bytes[DIR_READ] = 30 * 4096;
	res->ios[DIR_WRITE] = 10;
	res->bytes[DIR_WRITE] = 10 * 4096;
	res->elapsed_ns = res->runtime_ns = 1000000000ULL;
	res->nthreads = 1;

	job(&o, "rw=randrw,unified_rw_reporting=1,fsync=1");
	json_t *j = io_result_json_plus(&o, res, 0, "");
	assert_null(json_object_get(j, "read"));
	assert_null(json_object_get(j, "write"));
	json_t *mx = json_object_get(j, "mixed");
	assert_non_null(mx);
	assert_int_equal(json_integer_value(json_object_get(mx, "total_ios")), 40);
	assert_int_equal(json_integer_value(json_object_get(mx, "io_kbytes")), 160);
	json_t *c = json_object_get(mx, "clat_ns");
	assert_int_equal(json_integer_value(json_object_get(c, "N")), 40);
	assert_int_equal(json_integer_value(json_object_get(c, "min")), 50000);
	assert_int_equal(json_integer_value(json_object_get(c, "max")), 200000);
	json_t *sy = json_object_get(j, "sync");
	assert_int_equal(json_integer_value(json_object_get(sy, "total_ios")), 10);
	json_t *sl = json_object_get(sy, "lat_ns");
	assert_int_equal(json_integer_value(json_object_get(sl, "N")), 10);
	assert_non_null(json_object_get(sl, "percentile"));
	assert_non_null(json_object_get(sl, "bins"));
	json_decref(j);
	io_result_text(&o, res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "  mixed: IOPS=40, "));
	assert_null(strstr(text, "  read: "));
	assert_non_null(strstr(text, "  fsync/fdatasync/sync_file_range:\n"));
	assert_non_null(strstr(text, "sync percentiles"));
	io_result_terse(&o, res, 0, NULL, text, sizeof(text));
	/* mixed's KiB first, after the name, group and error */
	assert_non_null(strstr(text, ";0;0;160;"));
	assert_null(strstr(text, ";0;0;120;"));

	job(&o, "rw=randrw,unified_rw_reporting=both");
	j = io_result_json(&o, res, 0, "");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "read"), "total_ios")), 30);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "write"), "total_ios")), 10);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "mixed"), "total_ios")), 40);
	json_decref(j);
	io_result_text(&o, res, 0, NULL, text, sizeof(text));
	const char *rd = strstr(text, "  read: "), *wr = strstr(text, "  write: "),
		   *mix = strstr(text, "  mixed: ");
	assert_true(rd && wr && mix && rd < wr && wr < mix);
	io_result_terse(&o, res, 0, NULL, text2, sizeof(text2));
	job(&o, "rw=randrw");
	io_result_terse(&o, res, 0, NULL, text, sizeof(text));
	/* both: the same fields as none, and mixed's after them */
	size_t n = strlen(text);
	const char *cpu = strstr(text, ";0.000000%;0.000000%;");	/* cpu begins */
	assert_non_null(cpu);
	assert_memory_equal(text, text2, (size_t)(cpu - text));
	assert_true(strlen(text2) > n);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unified_and_sync),
		cmocka_unit_test(test_fio_text_units),
		cmocka_unit_test(test_latency_percentile_options),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
