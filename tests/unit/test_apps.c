/*
 * test_apps.c: the application workloads: SQLite (speed test steps and
 * total, single-row inserts, parameters), LevelDB (db_bench's value pool
 * and its compressibility, each benchmark's operation counts), appstart
 * (replay trace shapes, exec:'s library collection, refusals) -- each run
 * in a scratch directory that must be empty afterwards.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "run_workload.h"

#include "core/compress.h"
#include "core/error.h"
#include "workloads/appstart.h"
#include "workloads/kv.h"
#include "runner/testspec.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void test_kv_value_pool(void **state)
{
	char *pool = malloc(1100000), *again = malloc(1100000);
	size_t len, len2;
	double ratio;
	(void)state;

	kv_value_pool(pool, &len);
	assert_true(len >= 1048576 && len % 100 == 0);
	/* Every 100-byte piece: 50 printable characters, written twice. */
	for (size_t at = 0; at < len; at += 100) {
		assert_memory_equal(pool + at, pool + at + 50, 50);
		for (int i = 0; i < 50; i++)
			assert_true(pool[at + i] >= ' ' && pool[at + i] < ' ' + 95);
	}
	assert_memory_not_equal(pool, pool + 100, 50);
	/* Half-compressible, as db_bench's compression_ratio 0.5 asks (the
	 * printable alphabet makes zstd do a little better than half). */
	ratio = compress_ratio(pool, len);
	assert_true(ratio > 0.35 && ratio < 0.56);
	/* Deterministic: Random(301) every time. */
	kv_value_pool(again, &len2);
	assert_int_equal(len, len2);
	assert_memory_equal(pool, again, len);
	/* Built db_bench's way inside the clock: the very same bytes. */
	char *grown = kv_value_pool_grown(&len2);
	assert_non_null(grown);
	assert_int_equal(len, len2);
	assert_memory_equal(pool, grown, len);
	free(grown);
	free(pool);
	free(again);
}

static void test_kv_benchmarks(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	(void)state;

	/* fillsync: num/1000 synced puts per thread. */
	assert_int_equal(run_workload("kv:benchmark=fillsync,num=50000,threads=2", dir, v, detail,
				      NULL), 0);
	assert_non_null(strstr(detail, "fillsync"));
	assert_non_null(strstr(detail, "(100 ops)"));
	assert_true(v[0] > 0 && v[1] > 0);
	/* The title says the work that ran, in db_bench's terms (issue 14). */
	{
		struct test_spec ts;
		assert_int_equal(test_spec_parse("kv:benchmark=fillsync,num=50000,threads=2", &ts), 0);
		assert_non_null(strstr(ts.subtitle, "num 50000: 50 Synced Writes per Thread, 2 Threads"));
		test_spec_free(&ts);
	}
	/* MB/s = ops x 116 bytes / 2^20 / wall: consistent with micros/op
	 * for one thread (wall = its own time). */
	assert_int_equal(run_workload("kv:benchmark=fillseq,num=20000", dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, "(20000 ops)"));
	assert_true(fabs(v[1] - 116.0 / 1048576.0 / (v[0] / 1e6)) / v[1] < 0.01);
	assert_int_equal(run_workload("kv:benchmark=overwrite,num=5000", dir, v, detail, NULL), 0);
	assert_int_equal(run_workload("kv:benchmark=readrandom,num=5000", dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, "readrandom"));
	assert_int_equal(count_entries(dir), 0);	/* DB destroyed at cleanup */
}

static void test_sqlite_speedtest(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX], *line;
	double sum = 0;
	int steps = 0;
	(void)state;

	assert_int_equal(run_workload("sqlite-speedtest:size=2,journal_mode=wal,synchronous=normal",
				      dir, v, detail, NULL), 0);
	assert_non_null(strstr(detail, " 100 - 1000 INSERTs into table with no index"));
	assert_non_null(strstr(detail, " 200 - VACUUM"));
	assert_non_null(strstr(detail, " 980 - PRAGMA integrity_check"));
	/* speedtest1's titles and counts: 500 x size rows, then 700 x size */
	assert_non_null(strstr(detail, " 170 - 200 SELECTS, text BETWEEN, indexed"));
	assert_non_null(strstr(detail, " 250 - One big UPDATE of the whole 1000-row table"));
	assert_non_null(strstr(detail, " 400 - 1400 REPLACE ops on an IPK"));
	assert_non_null(strstr(detail, " 520 - 1400 SELECT DISTINCT"));
	/* The total is the sum of the steps, as speedtest1's TOTAL. */
	for (line = strtok(detail, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "       TOTAL", 12))
			continue;
		sum += atof(strrchr(line, ' ') + 1);
		steps++;
	}
	assert_int_equal(steps, 32);
	assert_true(fabs(sum - v[0]) < 0.001 * steps + 1e-9);
	assert_int_equal(count_entries(dir), 0);
}

static void test_sqlite_inserts(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	(void)state;

	if (run_workload("sqlite-inserts:n=50,threads=3", dir, v, detail, NULL))
		fail_msg("%s", error_get());
	assert_non_null(strstr(detail, "150 INSERTs in 3 connection(s)"));
	assert_true(fabs(v[1] - 150 / v[0]) / v[1] < 1e-9);
	assert_int_equal(count_entries(dir), 0);
}

static void test_sqlite_disk_full(void **state)
{
	double v[MAX_METRICS];
	char where[512];
	(void)state;

	if (geteuid() != 0)
		skip_because("needs root to mount a small tmpfs");
	make_scratch(where, sizeof(where), scratch_root(), "unit-full");
	made_dir(where);
	assert_int_equal(mount("tmpfs", where, "tmpfs", 0, "size=256k"), 0);
	made_mount(where);	/* unmounted by the teardown if an assertion fails */
	assert_int_equal(run_workload("sqlite-speedtest:size=5", where, v, NULL, NULL), -1);
	assert_non_null(strstr(error_get(), "full"));
	assert_int_equal(count_entries(where), 0);
	undo_made();	/* the mount, then its directory */
}

static void test_replay_traces(void **state)
{
	static const struct { const char *name; int threads, requests; uint64_t bytes; } want[] = {
		{ "xterm", 2, 718, 6u << 20 },
		{ "gnome-terminal", 7, 2781, 20u << 20 },
		{ "lowriter", 4, 1268, 46u << 20 },
	};
	(void)state;

	assert_null(trace_shape_find("emacs"));
	for (int i = 0; i < 3; i++) {
		const struct trace_shape *sh = trace_shape_find(want[i].name);
		struct trace_req *t, *t2;
		uint64_t fsize, fsize2, total = 0;
		int n, n2, per_thread[16] = { 0 };

		assert_non_null(sh);
		assert_int_equal(trace_build(sh, &t, &n, &fsize), 0);
		assert_int_equal(n, want[i].requests);
		for (int k = 0; k < n; k++) {
			assert_true(t[k].thread >= 0 && t[k].thread < want[i].threads);
			assert_int_equal(t[k].offset % 4096, 0);
			assert_true(t[k].len > 0 && t[k].len % 4096 == 0);
			assert_true(t[k].offset + t[k].len <= fsize);
			per_thread[t[k].thread]++;
			total += t[k].len;
		}
		for (int th = 0; th < want[i].threads; th++)
			assert_true(per_thread[th] > 0);
		/* The recorded volume, to within a block per thread. */
		assert_true(total <= want[i].bytes);
		assert_true(want[i].bytes - total <= (uint64_t)want[i].threads * 4096);
		/* The same trace every time. */
		assert_int_equal(trace_build(sh, &t2, &n2, &fsize2), 0);
		assert_int_equal(fsize, fsize2);
		assert_memory_equal(t, t2, sizeof(*t) * (size_t)n);
		free(t);
		free(t2);
	}
}

static void test_exec_libraries(void **state)
{
	static char paths[64][PATH_MAX];
	int n, libc = 0;
	(void)state;

	n = app_libraries("/usr/bin/python3", paths, 64);
	assert_true(n >= 3);
	assert_non_null(strstr(paths[0], "ld-linux"));
	for (int i = 0; i < n; i++) {
		struct stat st;
		assert_int_equal(paths[i][0], '/');
		assert_int_equal(stat(paths[i], &st), 0);
		libc += strstr(paths[i], "/libc.so.6") != NULL;
		for (int k = 0; k < i; k++)
			assert_string_not_equal(paths[i], paths[k]);
	}
	assert_int_equal(libc, 1);
	/* A shell script is not something the loader can list. */
	assert_int_equal(app_libraries("/usr/bin/ldd", paths, 64), -1);
	assert_non_null(strstr(error_get(), "not a dynamically linked program"));
}

static void test_appstart_runs_from_target(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	int n;
	(void)state;

	if (geteuid() != 0) {
		/* Not root: cold starts are refused, and say so. */
		assert_int_equal(run_workload("appstart:app=replay-xterm,readers=1,file_size=1m", dir,
					      v, NULL, NULL), -1);
		assert_non_null(strstr(error_get(), "needs root"));
		skip_because("cold starts need root to drop caches");
	}
	if (access("/proc/sys/vm/drop_caches", W_OK))
		skip_because("this machine does not let root drop the page cache");
	assert_int_equal(run_workload("appstart:app=exec:/usr/bin/python3,args=-c pass,readers=1,"
				      "writers=1,file_size=4m,settle=200ms,launches=2",
				      dir, v, detail, &n), 0);
	assert_int_equal(n, 5);
	assert_true(v[0] > 0 && v[0] < 30);
	assert_true(v[1] > 0);	/* the background did run during the launches */
	assert_true(v[3] > 0);
	/* and its requests were timed while they ran (catches latencies
	 * filed outside the launches, or not at all) */
	assert_true(v[2] > 0 && v[4] > 0);
	assert_non_null(strstr(detail, "latency mean"));
	assert_non_null(strstr(detail, "2 cold launch(es) of exec:/usr/bin/python3"));
	{
		/* Every launch's time is kept, as S prints each. */
		double a, b;
		const char *each = strstr(detail, "on average (");
		assert_non_null(each);
		assert_int_equal(sscanf(each, "on average (%lf %lf s)", &a, &b), 2);
		assert_true(fabs((a + b) / 2 - v[0]) < 0.001);
	}
	{
		/* The writer's file is made again by every repetition, as S's fio
		 * lays it out (removed, created, allocated): a mark left on the
		 * old one is gone.  The readers' are the test's own. */
		char path[PATH_MAX];
		struct stat st;
		mode_t mask = umask(0);
		umask(mask);
		snprintf(path, sizeof(path), "%s/bg_write0", dir);
		assert_int_equal(chmod(path, 0600), 0);
		assert_int_equal(run_workload("appstart:app=exec:/usr/bin/python3,args=-c pass,"
					      "readers=1,writers=1,file_size=4m,settle=200ms,launches=1",
					      dir, v, detail, &n), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0644 & ~mask);
		assert_int_equal(st.st_size, 4 << 20);
	}
	assert_int_equal(run_workload("appstart:app=replay-xterm,readers=2,file_size=4m,settle=0",
				      dir, v, detail, &n), 0);
	assert_int_equal(n, 3);	/* no writers: no write figures */
	assert_true(v[0] > 0);
	/* A program that fails when started from the target fails the run. */
	assert_int_equal(run_workload("appstart:app=exec:/usr/bin/python3,args=-c 'raise "
				      "SystemExit(3)',readers=0,settle=0",
				      dir, v, NULL, NULL), -1);
	assert_non_null(strstr(error_get(), "exit status 3"));
	/* Every background process was stopped and reaped, even after the
	 * failed launch. */
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* S's trace format: the fields the replayer reads, threads by order of
 * first appearance, blank lines skipped, and a bad line named. */
static void test_s_trace_parse(void **state)
{
	(void)state;
	char text[] = "xterm-1 0 8 113314048 Rand -427336 0 RM 4.66 START\n"
		      "xterm-1 .015820 16 113248520 Seq 0 8 RA 4.68 C\n"
		      "\n"
		      "bash-2\t.00004 24 5 Rand 0 0 RA\r\n"
		      "xterm-1 .00004 8 9 Seq 0 0 RM\n";
	struct s_trace t;

	assert_int_equal(s_trace_parse(text, &t), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.threads, 2);
	assert_int_equal(t.bytes, (8 + 16 + 24 + 8) * 512);
	assert_true(t.req[0].thread == 0 && !t.req[0].seq && !t.req[0].ra && t.req[0].sectors == 8);
	assert_true(t.req[1].thread == 0 && t.req[1].seq && t.req[1].ra && t.req[1].sectors == 16);
	assert_true(t.req[2].thread == 1 && !t.req[2].seq && t.req[2].ra);
	assert_true(t.req[3].thread == 0 && t.req[3].seq && !t.req[3].ra);
	s_trace_free(&t);
	char short_line[] = "a 0 8 0 Seq 0 0 RA\nb 0 8 0 Seq\n";
	assert_int_equal(s_trace_parse(short_line, &t), -1);
	assert_non_null(strstr(error_get(), "trace line 2: not S's format"));
	char too_big[] = "a 0 39063 0 Seq 0 0 RA\n";	/* a whole 20 MB file */
	assert_int_equal(s_trace_parse(too_big, &t), -1);
	char bad_delta[] = "a x 8 0 Seq 0 0 RA\n";
	assert_int_equal(s_trace_parse(bad_delta, &t), -1);
	char empty[] = "\n\n";
	assert_int_equal(s_trace_parse(empty, &t), -1);
	assert_non_null(strstr(error_get(), "no requests"));
}

/* A replay of a trace of our own in S's format, on the test's directory:
 * one file of S's size per process, every launch timed. */
static void test_s_trace_replay(void **state)
{
	(void)state;
	char fixture[PATH_MAX + 32], spec[PATH_MAX + 200], detail[DETAIL_MAX], path[PATH_MAX];
	double v[MAX_METRICS];
	struct stat st;

	if (geteuid() != 0 || access("/proc/sys/vm/drop_caches", W_OK))
		skip_because("cold starts need root to drop caches");
	snprintf(fixture, sizeof(fixture), "%s/s-trace-small.trace", fixture_dir());
	assert_non_null(realpath(fixture, path));
	snprintf(spec, sizeof(spec), "appstart:app=trace:%s,readers=0,settle=0,gap=100ms,launches=2",
		 path);
	assert_int_equal(run_workload(spec, dir, v, detail, NULL), 0);
	assert_true(v[0] > 0 && v[0] < 30);
	/* no reader, no read latency: not a 0 that would chart as the best */
	assert_true(isnan(v[2]));
	assert_null(strstr(detail, "latency"));
	assert_non_null(strstr(detail, "2 cold launch(es) of trace:"));
	snprintf(path, sizeof(path), "%s/replay1", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, S_TRACE_FILE);
	snprintf(path, sizeof(path), "%s/replay2", dir);
	assert_int_equal(stat(path, &st), -1);	/* two processes, two files */
	struct test_spec ts;
	assert_int_equal(test_spec_parse("appstart:app=trace:relative.trace", &ts), -1);
	assert_non_null(strstr(error_get(), "full path of a readable S trace"));
	assert_non_null(realpath(fixture, path));
	snprintf(spec, sizeof(spec), "appstart:app=trace:%s", path);
	assert_int_equal(test_spec_parse(spec, &ts), 0);
	assert_non_null(strstr(ts.subtitle, "Application: S trace s-trace-small.trace"));
	test_spec_free(&ts);
}

static void test_appstart_refusals(void **state)
{
	struct test_spec ts;
	(void)state;

	/* Refused when parsed, before any target is touched. */
	assert_int_equal(test_spec_parse("appstart:app=exec:/nonexistent/prog", &ts), -1);
	assert_non_null(strstr(error_get(), "/nonexistent/prog: no such program"));
	assert_int_equal(test_spec_parse("appstart:app=exec:python3", &ts), -1);
	assert_non_null(strstr(error_get(), "needs a full path"));
	assert_int_equal(test_spec_parse("appstart:app=replay-emacs", &ts), -1);
	assert_non_null(strstr(error_get(), "replay-xterm"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_value_pool),
		cmocka_unit_test_setup_teardown(test_kv_benchmarks, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_sqlite_speedtest, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_sqlite_inserts, setup_dir, teardown_dir),
		cmocka_unit_test_teardown(test_sqlite_disk_full, teardown_made),
		cmocka_unit_test(test_replay_traces),
		cmocka_unit_test(test_exec_libraries),
		cmocka_unit_test_setup_teardown(test_appstart_runs_from_target, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_appstart_refusals, setup_dir, teardown_dir),
		cmocka_unit_test(test_s_trace_parse),
		cmocka_unit_test_setup_teardown(test_s_trace_replay, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
