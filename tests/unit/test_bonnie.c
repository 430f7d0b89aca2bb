/* test_bonnie.c: bonnie's size rule and 2 x RAM refusal, -n parsing, the
 * CSV line in both versions' column layouts, and a small real run. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"
#include "runner/testspec.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

static int run(const char *spec, double *v, char *detail)
{
	int n, rc = run_workload(spec, dir, v, detail, &n);

	assert_int_equal(n, 24);
	return rc;
}

static int fields(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ',';
	return n;
}

/* Field k (1-based) of a CSV line, into buf. */
static const char *field(const char *line, int k, char *buf, size_t len)
{
	for (int i = 1; i < k; i++)
		line = strchr(line, ',') + 1;
	size_t n = strcspn(line, ",\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), line);
	return buf;
}

static void test_run_200(void **state)
{
	(void)state;
	double v[24];
	char d[DETAIL_MAX], f[64];

	assert_int_equal(run("bonnie:size=16M,ram=0,n=1:100:10:4,seek_wait=0,seeks=200,byte_io=256k", v, d), 0);
	assert_int_equal(count_entries(dir), 0);	/* data file and file-test tree removed */
	/* 2.00 layout: 50 fields; 1.98, 2.00a (as Debian's bonnie++ prints it), name, concurrency, seed, size, chunk, seeks, procs */
	assert_int_equal(fields(d), 50);
	assert_string_equal(field(d, 1, f, sizeof(f)), "1.98");
	assert_string_equal(field(d, 2, f, sizeof(f)), "2.00a");
	assert_string_equal(field(d, 6, f, sizeof(f)), "16M");
	assert_string_equal(field(d, 7, f, sizeof(f)), "");	/* default chunk is blank */
	assert_string_equal(field(d, 8, f, sizeof(f)), "200");
	assert_string_equal(field(d, 9, f, sizeof(f)), "5");
	assert_string_equal(field(d, 22, f, sizeof(f)), "1");	/* file tests: number */
	assert_string_equal(field(d, 23, f, sizeof(f)), "100");	/* max */
	assert_string_equal(field(d, 24, f, sizeof(f)), "10");	/* min */
	assert_string_equal(field(d, 25, f, sizeof(f)), "4");	/* dirs */
	/* every rate is a number or "+++++", every CPU% a number or "+++" */
	for (int k = 10; k <= 21; k += 2) {
		field(d, k, f, sizeof(f));
		assert_true(!strcmp(f, "+++++") || atof(f) > 0);
		assert_true(isnan(v[(k - 10)]) == !strcmp(f, "+++++"));
	}
	/* the 12 latency fields, in print_latency()'s format: every phase ran */
	for (int k = 39; k <= 50; k++) {
		char unit[4] = "";
		int num = -1, used = 0;
		field(d, k, f, sizeof(f));
		assert_int_equal(sscanf(f, "%d%3[a-z]%n", &num, unit, &used), 2);
		assert_int_equal(used, (int)strlen(f));
		assert_true(num >= 0 && (!strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "s")));
		assert_true(strcmp(unit, "us") || num < 100000);	/* us below 0.1 s */
	}
	assert_true(atol(field(d, 5, f, sizeof(f))) != 0);	/* the seed */
}

static void test_run_104(void **state)
{
	(void)state;
	double v[24];
	char d[DETAIL_MAX], f[64];

	assert_int_equal(run("bonnie:semantics=1.04,size=8M,ram=0,n=1,seek_wait=0,seeks=100", v, d), 0);
	/* 1.0x layout: 27 fields: name, size, 6 I/O pairs, files, 6 file pairs */
	assert_int_equal(fields(d), 27);
	assert_string_equal(field(d, 2, f, sizeof(f)), "8M");
	assert_string_equal(field(d, 15, f, sizeof(f)), "1");
	assert_int_equal(count_entries(dir), 0);
	/* putc over the whole 8 MiB with stdio is timed: a real figure */
	assert_true(!isnan(v[0]) || !strcmp(field(d, 3, f, sizeof(f)), "+++++"));
}

/* precise=1: the measured figure of every phase, +++++ in bonnie++'s own
 * line still, and the title says so (issue 14). */
static void test_precise(void **state)
{
	(void)state;
	double v[24];
	char d[DETAIL_MAX], f[64];
	struct test_spec ts;

	assert_int_equal(run("bonnie:size=16M,ram=0,n=1:100:10:4,seek_wait=0,seeks=200,byte_io=256k,"
			     "precise=1", v, d), 0);
	int plus = 0;
	for (int k = 10; k <= 21; k += 2) {
		field(d, k, f, sizeof(f));
		plus += !strcmp(f, "+++++");
		assert_true(isfinite(v[k - 10]) && v[k - 10] > 0);	/* a figure, always */
	}
	assert_true(plus > 0);	/* 16 MiB from the page cache: under 0.5 s somewhere */
	assert_int_equal(test_spec_parse("bonnie:size=16M,ram=0,precise=1", &ts), 0);
	assert_non_null(strstr(ts.subtitle, "precise: no +++++"));
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("bonnie:size=16M,ram=0", &ts), 0);
	assert_null(strstr(ts.subtitle, "precise"));
	test_spec_free(&ts);
}

static void test_parameters(void **state)
{
	(void)state;
	struct test_spec ts;

	/* bonnie++ refuses a file under twice the RAM, and says why */
	assert_int_equal(test_spec_parse("bonnie:size=1G,ram=4096", &ts), -1);
	assert_non_null(strstr(error_get(), "under twice the RAM"));
	assert_non_null(strstr(error_get(), "ram=0"));
	assert_int_equal(test_spec_parse("bonnie:chunk=3000", &ts), -1);
	assert_non_null(strstr(error_get(), "power of two"));
	assert_int_equal(test_spec_parse("bonnie:n=abc", &ts), -1);
	assert_int_equal(test_spec_parse("bonnie:n=4:10:20", &ts), -1);
	assert_non_null(strstr(error_get(), "min 20 is above max 10"));
	assert_int_equal(test_spec_parse("bonnie:n=4:-1", &ts), -1);
	/* size rule: max(300 MiB, 2 x ram), whole GiB past 512 MiB of remainder */
	assert_int_equal(test_spec_parse("bonnie:ram=100", &ts), 0);
	assert_non_null(strstr(ts.subtitle, "300 MiB file"));
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("bonnie:ram=1400", &ts), 0);
	assert_non_null(strstr(ts.subtitle, "3072 MiB file"));	/* 2800 -> 3 GiB */
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("bonnie:ram=1100", &ts), 0);
	assert_non_null(strstr(ts.subtitle, "2200 MiB file"));	/* remainder 152: kept */
	test_spec_free(&ts);
	assert_int_equal(test_spec_parse("bonnie-seed003", &ts), 0);
	assert_non_null(strstr(ts.params_text, "ram=1024"));
	assert_non_null(strstr(ts.params_text, "semantics=1.04"));
	/* seed 003's -r 1024 sized the file for its 2 GiB machine: on one of
	 * 24 GiB the page cache holds it, and the subtitle says so (the bug:
	 * no word of it, issue 40); on 1 GiB (--ram 1G) it does not */
	char note[160];
	assert_int_equal(ts.wl->memory_note(ts.params, 24ULL << 30, note, sizeof(note)), 1);
	assert_string_equal(note, "! the 2048 MiB file is under twice the 24576 MiB of memory here: "
				  "the page cache serves much of it");
	assert_int_equal(ts.wl->memory_note(ts.params, 1ULL << 30, note, sizeof(note)), 0);
	assert_int_equal(ts.wl->memory_note(ts.params, 0, note, sizeof(note)), 0);	/* unknown */
	test_spec_free(&ts);
}

/* 2.00's first seeker done unlinks the file (bonnie++'s ~CFileOp), so
 * every seeker must have opened it before the tickets go out; bonnie++
 * leaves 3 s for that.  With no wait, on a busy machine, a seeker not yet
 * scheduled found the file gone ("a seeker failed"): 5 runs of 6 failed
 * that way with 4 spinning processes on this 2-core machine. */
static atomic_int spin_stop;

static void *spin(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
		;
	return NULL;
}

static void test_seekers_open_first(void **state)
{
	(void)state;
	double v[24];
	char d[DETAIL_MAX];
	pthread_t busy[4];
	int rc = 0;

	atomic_store(&spin_stop, 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&busy[i], NULL, spin, NULL), 0);
	for (int i = 0; i < 5 && !rc; i++)
		rc = run("bonnie:size=16M,ram=0,n=0,seek_wait=0,seeks=200,byte_io=256k", v, d);
	atomic_store(&spin_stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(busy[i], NULL);
	if (rc)
		fail_msg("%s", error_get());
	assert_int_equal(count_entries(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_200, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_run_104, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_precise, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_seekers_open_first, setup_dir, teardown_dir),
		cmocka_unit_test(test_parameters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
