/* test_store.c: the SQLite result store: schema, round trip, status. */
#include "testutil.h"
#include "core/error.h"
#include "fixture_run.h"
#include "report/report.h"

#include <math.h>
#include <sqlite3.h>

static int pragma_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void test_schema_version_and_wal(void **state)
{
	(void)state;
	struct store *s;

	unlink(path);
	assert_int_equal(store_open(path, &s), 0);
	store_close(s);
	assert_int_equal(pragma_int("PRAGMA user_version"), STORE_SCHEMA_VERSION);
	/* WAL persists in the file header: the journal_mode query says "wal". */
	sqlite3 *db;
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	/* A store from a newer fsbench is refused, not misread. */
	sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_int_equal(store_open(path, &s), -1);
	assert_non_null(strstr(error_get(), "newer than this fsbench"));
	unlink(path);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct store *s;
	struct result *r;

	unlink(path);
	assert_int_equal(store_open(path, &s), 0);
	int64_t id = fixture_run(s);
	assert_int_equal(store_load_run(s, id, &r), 0);
	assert_string_equal(r->status, "complete");
	assert_string_equal(r->label, "fixture");
	assert_string_equal(r->cmdline, "fsbench run fsmark-1000x1M");
	assert_int_equal(r->nsys, 2);
	assert_string_equal(r->sys[1].name, "OS");
	assert_int_equal(r->ntargets, 3);
	assert_string_equal(r->targets[1].label, "fast");
	assert_string_equal(r->targets[2].mount_opts, "rw");
	assert_int_equal(r->ntests, 1);
	const struct r_test *t = &r->tests[0];
	assert_string_equal(t->subtitle, "Test: 1000 Files, 1MB Size");
	assert_int_equal(t->nmetrics, 2);
	assert_int_equal(t->metrics[1].direction, -1);
	assert_int_equal(t->metrics[0].primary, 1);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(t->cells[i].nsamples, 3);
		for (int k = 0; k < 3; k++) {
			assert_float_equal(t->cells[i].samples[k].values[0], fx_files[i][k], 0);
			assert_float_equal(t->cells[i].samples[k].values[1], fx_over[i][k], 0);
			assert_int_equal(t->cells[i].samples[k].rep, k + 1);
		}
	}
	assert_float_equal(t->cells[0].samples[0].machine_cpu_pct, 35, 0);
	struct summary sm;
	result_summary(t, 1, 0, &sm);
	assert_float_equal(sm.mean, 120, 1e-9);
	assert_int_equal(result_baseline(r, NULL), 0);
	assert_int_equal(result_baseline(r, "same"), 2);
	assert_int_equal(result_baseline(r, "nosuch"), -1);
	result_free(r);
	store_close(s);
}

static int collect(const struct run_row *row, void *arg)
{
	struct run_row *out = arg;

	out[row->id - 1] = *row;
	return 0;
}

static void test_interrupted_failures_and_listing(void **state)
{
	(void)state;
	struct store *s;
	struct result *r;
	int64_t run, tid, test, last;
	struct r_metric m = { "v", "x", "v", 1, 1 };
	struct r_test t = { .name = "t", .workload = "w", .params = "", .title = "T",
			    .subtitle = "", .nmetrics = 1, .metrics = &m };
	struct r_target tg = { .label = "only", .path = "/", .kind = "dir" };
	struct run_row rows[4];

	unlink(path);
	assert_int_equal(store_open(path, &s), 0);
	fixture_run(s);
	assert_int_equal(store_begin_run(s, &(struct run_begin){ .cmdline = "cmd", .version = "v" }, &run), 0);
	assert_int_equal(store_add_target(s, run, 0, &tg, &tid), 0);
	assert_int_equal(store_add_test(s, run, 0, &t, &test), 0);
	double v = NAN;
	struct r_sample sm = { 1, 1, 0, 0, 0, 0, &v };
	assert_int_equal(store_add_sample(s, test, tid, &sm, 1), 0);
	assert_int_equal(store_add_failure(s, test, tid, "fsmark: writing x: No space left on device"), 0);

	/* Before finishing, the run reads as still running. */
	assert_int_equal(store_load_run(s, run, &r), 0);
	assert_string_equal(r->status, "running");
	assert_true(isnan(r->tests[0].cells[0].samples[0].values[0]));
	assert_string_equal(r->tests[0].cells[0].failure, "fsmark: writing x: No space left on device");
	result_free(r);
	assert_int_equal(store_finish_run(s, run, "interrupted"), 0);
	assert_int_equal(store_last_run(s, &last), 0);
	assert_int_equal(last, run);

	memset(rows, 0, sizeof(rows));
	assert_int_equal(store_list_runs(s, collect, rows), 0);
	assert_string_equal(rows[0].targets, "base, fast, same");
	assert_string_equal(rows[0].tests, "fsmark-1000x1M,x");
	assert_string_equal(rows[1].status, "interrupted");
	assert_int_equal(store_load_run(s, 42, &r), -1);
	assert_non_null(strstr(error_get(), "no run 42"));
	store_close(s);
}

/* A guest's run, kept by the host from its start (issue 69): the guest's
 * document fills the host's run again and again (as each repetition
 * starts) without duplicating a row, the host's start, command line and
 * arguments stay, and a bad document leaves the run as it was.  Catches a
 * progress import that appended (samples counted twice) or made a new run
 * (the host's, which --resume continues, left empty). */
static void test_import_into(void **state)
{
	(void)state;
	struct store *s;
	struct result *r, *g;
	char *doc;
	int64_t host;

	unlink(path);
	assert_int_equal(store_open(path, &s), 0);
	int64_t guest = fixture_run(s);
	assert_int_equal(store_load_run(s, guest, &g), 0);
	assert_int_equal(report_json_text(g, &doc), 0);
	result_free(g);
	struct run_begin b = { "host", NULL, "fsbench run fsmark --vm", "v", NULL, "[\"--vm\"]" };
	assert_int_equal(store_begin_run(s, &b, &host), 0);
	for (int pass = 0; pass < 2; pass++)
		assert_int_equal(store_import_into(s, host, doc, strlen(doc), "running"), 0);
	assert_int_equal(store_load_run(s, host, &r), 0);
	assert_string_equal(r->status, "running");
	assert_string_equal(r->cmdline, "fsbench run fsmark --vm");
	assert_string_equal(r->argv, "[\"--vm\"]");
	assert_int_equal(r->ntargets, 3);
	assert_int_equal(r->ntests, 1);
	assert_int_equal(r->tests[0].cells[0].nsamples, 3);
	result_free(r);
	assert_int_equal(store_import_into(s, host, "{\"schema\": 1}", 13, "running"), -1);
	assert_int_equal(store_import_into(s, host, doc, strlen(doc), NULL), 0);
	assert_int_equal(store_load_run(s, host, &r), 0);
	assert_string_equal(r->status, "complete");
	assert_int_equal(r->tests[0].cells[2].nsamples, 3);
	result_free(r);
	free(doc);
	store_close(s);
	unlink(path);
}

static void test_unopenable_path(void **state)
{
	(void)state;
	struct store *s;

	assert_int_equal(store_open("/nonexistent-dir/x/r.db", &s), -1);
	assert_non_null(strstr(error_get(), "--db FILE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_version_and_wal),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_interrupted_failures_and_listing),
		cmocka_unit_test(test_import_into),
		cmocka_unit_test(test_unopenable_path),
	};
	return cmocka_run_group_tests(tests, setup_store, teardown_dir);
}
