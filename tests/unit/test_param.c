/* test_param.c: parameter tables, value parsers and test-name parsing. */
#include "testutil.h"
#include "core/error.h"
#include "core/param.h"
#include "core/suggest.h"
#include "runner/testspec.h"
#include "workloads/workload.h"
#include "io/iojob.h"

#include <stdbool.h>

struct demo {
	int64_t count;
	uint64_t size;
	double time;
	bool flag;
	int mode;
	char name[PARAM_STR_MAX];
};

#define O(f) offsetof(struct demo, f)
static const struct param_def demo_params[] = {
	{ "count", PT_INT, O(count), "3", 1, 100, NULL, "how many" },
	{ "size", PT_SIZE, O(size), "64k", 0, 1 << 30, NULL, "how big" },
	{ "time", PT_DURATION, O(time), "2s", 0, 0, NULL, "how long" },
	{ "flag", PT_BOOL, O(flag), "no", 0, 0, NULL, "whether" },
	{ "mode", PT_ENUM, O(mode), "fast", 0, 0, "slow|fast|auto", "which" },
	PARAM_STRING("name", struct demo, name, "x", "called"),
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static void test_parse_size(void **state)
{
	(void)state;
	uint64_t v;

	assert_int_equal(parse_size("4096", &v), 0), assert_int_equal(v, 4096);
	assert_int_equal(parse_size("4k", &v), 0), assert_int_equal(v, 4096);
	assert_int_equal(parse_size("1M", &v), 0), assert_int_equal(v, 1 << 20);
	assert_int_equal(parse_size("1.5k", &v), 0), assert_int_equal(v, 1536);
	assert_int_equal(parse_size("2GiB", &v), 0), assert_int_equal(v, 2ULL << 30);
	assert_int_equal(parse_size("1t", &v), 0), assert_int_equal(v, 1ULL << 40);
	assert_int_equal(parse_size("12x", &v), -1);
	assert_int_equal(parse_size("-1", &v), -1);
	assert_int_equal(parse_size("", &v), -1);
	assert_int_equal(parse_size("0.3", &v), -1);	/* not a whole byte */
}

static void test_parse_duration_bool_int(void **state)
{
	(void)state;
	double d;
	bool b;
	int64_t i;

	assert_int_equal(parse_duration("30", &d), 0), assert_float_equal(d, 30, 0);
	assert_int_equal(parse_duration("500ms", &d), 0), assert_float_equal(d, 0.5, 1e-12);
	assert_int_equal(parse_duration("2m", &d), 0), assert_float_equal(d, 120, 0);
	assert_int_equal(parse_duration("1h", &d), 0), assert_float_equal(d, 3600, 0);
	assert_int_equal(parse_duration("5 s", &d), -1);
	assert_int_equal(parse_bool("yes", &b), 0), assert_true(b);
	assert_int_equal(parse_bool("OFF", &b), 0), assert_false(b);
	assert_int_equal(parse_bool("maybe", &b), -1);
	assert_int_equal(parse_int("-7", &i), 0), assert_int_equal(i, -7);
	assert_int_equal(parse_int("7.5", &i), -1);
}

static void test_defaults_and_apply(void **state)
{
	(void)state;
	struct demo d;

	assert_int_equal(params_defaults(demo_params, &d), 0);
	assert_int_equal(d.count, 3);
	assert_int_equal(d.size, 65536);
	assert_float_equal(d.time, 2, 0);
	assert_false(d.flag);
	assert_int_equal(d.mode, 1);
	assert_string_equal(d.name, "x");
	assert_int_equal(params_apply(demo_params, &d,
				      "count=7,size=1M,time=250ms,flag=1,mode=auto,name=hello"), 0);
	assert_int_equal(d.count, 7);
	assert_int_equal(d.size, 1 << 20);
	assert_float_equal(d.time, 0.25, 1e-12);
	assert_true(d.flag);
	assert_int_equal(d.mode, 2);
	assert_string_equal(d.name, "hello");
}

/* Errors name the parameter, the value and what is accepted. */
static void test_errors_are_one_clear_line(void **state)
{
	(void)state;
	struct demo d;

	params_defaults(demo_params, &d);
	assert_int_equal(params_apply(demo_params, &d, "count=500"), -1);
	assert_non_null(strstr(error_get(), "'count'"));
	assert_non_null(strstr(error_get(), "'500'"));
	assert_non_null(strstr(error_get(), "between 1 and 100"));
	assert_int_equal(params_apply(demo_params, &d, "size=big"), -1);
	assert_non_null(strstr(error_get(), "a size such as"));
	assert_int_equal(params_apply(demo_params, &d, "mode=medium"), -1);
	assert_non_null(strstr(error_get(), "one of slow|fast|auto"));
	assert_int_equal(params_apply(demo_params, &d, "colour=red"), -1);
	assert_non_null(strstr(error_get(), "unknown parameter 'colour'"));
	assert_non_null(strstr(error_get(), "count, size, time, flag, mode, name"));
	assert_int_equal(params_apply(demo_params, &d, "count"), -1);
	assert_non_null(strstr(error_get(), "key=value"));
	assert_null(strchr(error_get(), '\n'));
	assert_int_equal(d.count, 3);	/* failed sets change nothing */
}

/* The canonical string parses back to the same values. */
static void test_format_round_trip(void **state)
{
	(void)state;
	struct demo a, b;
	char text[1024];

	memset(&a, 0, sizeof(a));	/* padding and string tails compare too */
	memset(&b, 0, sizeof(b));
	params_defaults(demo_params, &a);
	params_apply(demo_params, &a, "count=9,size=1536,time=0.5,flag=yes,mode=slow");
	params_format(demo_params, &a, text, sizeof(text));
	assert_string_equal(text, "count=9,size=1536,time=500ms,flag=1,mode=slow,name=x");
	params_defaults(demo_params, &b);
	assert_int_equal(params_apply(demo_params, &b, text), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

/* parse(format(x)) == x for every row of every table (each workload's and
 * fio's options), with hostile text in every string: commas (bssplit's,
 * cpus_allowed's), '=', quotes, backslashes, empty.  A compound row
 * (bssplit, cpus_allowed, rate ...) refuses most of that text: it gets
 * the first value from the list that it takes, and the list holds a value
 * with commas that each takes; what it parsed (struct io_parsed) must come
 * back too, so the objects are compared whole.  The bug it catches: the
 * stored parameters, which promise to reproduce the test, silently
 * keeping "cpus_allowed=0" of "0,1" (a join with commas, unescaped). */
static void check_round_trip(const struct param_def *defs, size_t size, const char *table)
{
	static const char *const hostile[] = { "0,1", "4k/50:8k/50,16k", "a=b", "\"q\"", "",
					       "back\\slash", "end\\", ",", ",,x,", "=", "a\\,b",
					       "x=1,y=2", "1m,2m,", "EIO:ENOSPC,,EILSEQ", "4k-64k",
					       "zoned:50/5:50/95,100/", "99:99.9", "bw_slope:5%",
					       "0x3", "-8k", "95.5", "0x5a,\"5a\"" };
	const int nh = (int)(sizeof(hostile) / sizeof(hostile[0]));
	char *a = calloc(1, size), *b = calloc(1, size);
	static char text[16384], again[16384];
	bool took[512] = { false };	/* a compound row took a value of the list */

	assert_non_null(a);
	assert_non_null(b);
	for (int round = 0; round < nh; round++) {
		memset(a, 0, size);
		memset(b, 0, size);
		assert_int_equal(params_defaults(defs, a), 0);
		int k = round, row = 0;
		for (const struct param_def *d = defs; d->name; d++, row++) {
			if (d->type != PT_STRING)
				continue;
			if (!d->set) {	/* a plain string takes anything that fits */
				if (strlen(hostile[k % nh]) < (size_t)d->max)
					assert_int_equal(params_set(defs, a, d->name, hostile[k % nh]), 0);
				k++;
				continue;
			}
			/* the first value from here on that the row takes, an
			 * empty one (its default, mostly) not counted */
			for (int t = 0; t < nh; t++, k++)
				if (hostile[k % nh][0] && strlen(hostile[k % nh]) < (size_t)d->max &&
				    !params_set(defs, a, d->name, hostile[k % nh])) {
					took[row] = true;
					break;
				}
			k++;
		}
		assert_int_equal(params_format(defs, a, text, sizeof(text)), 0);
		assert_int_equal(params_defaults(defs, b), 0);
		if (params_apply(defs, b, text))
			fail_msg("%s, round %d: %s\n%s", table, round, error_get(), text);
		assert_int_equal(params_format(defs, b, again, sizeof(again)), 0);
		assert_string_equal(text, again);
		for (const struct param_def *d = defs; d->name; d++)
			if (d->type == PT_STRING)
				assert_string_equal(a + d->offset, b + d->offset);
		if (memcmp(a, b, size))
			fail_msg("%s, round %d: the same text, other values (a compound row's parse)",
				 table, round);
	}
	int row = 0;
	for (const struct param_def *d = defs; d->name; d++, row++)
		if (d->type == PT_STRING && d->set && !took[row])
			fail_msg("%s: compound row '%s' took none of the test's values", table, d->name);
	free(a);
	free(b);
}

/* Every engine's own options (engine.h) are rows of fio's option table,
 * each pointing into that engine's area of the job.  The bug it catches:
 * an engine's rows left out when the table is made before main (a table
 * past its room, an option struct past its area), which would make its
 * options unknown everywhere, silently. */
static void test_engine_rows_in_table(void **state)
{
	(void)state;
	int engines = 0, rows = 0;

	for (int i = 0; engine_at(i); i++) {
		const struct io_engine_ops *e = engine_at(i);
		assert_true(i < ENGINES_MAX);
		if (!e->options)
			continue;
		engines++;
		assert_true(e->options_size <= ENGINE_OPTS_MAX);
		for (const struct param_def *d = e->options; d->name; d++, rows++) {
			const struct param_def *t = param_find(io_option_defs, d->name);
			if (!t)
				fail_msg("ioengine=%s's option '%s' is not in the table", e->name, d->name);
			assert_int_equal(t->offset, offsetof(struct io_options, engine_opts) +
					 (size_t)i * ENGINE_OPTS_MAX + d->offset);
		}
	}
	assert_true(engines >= 2 && rows >= 6);	/* io_uring's and pvsync2's */
	assert_int_equal(params_check_table(io_option_defs, sizeof(struct io_options)), 0);
}

static void test_round_trip_every_table(void **state)
{
	(void)state;
	int tables = 0;

	for (const struct workload *const *w = workload_all(); *w; w++, tables++)
		check_round_trip((*w)->params, (*w)->params_size, (*w)->name);
	check_round_trip(io_option_defs, sizeof(struct io_options), "io options");
	assert_true(tables > 10);
	/* a user's list means what fio means: an item without '=' continues
	 * the value before it; escapes read back as written */
	struct io_options o;
	memset(&o, 0, sizeof(o));
	assert_int_equal(params_defaults(io_option_defs, &o), 0);
	assert_int_equal(params_apply(io_option_defs, &o, "cpus_allowed=0-1,3,bs=8k"), 0);
	assert_string_equal(o.cpus_allowed, "0-1,3");
	assert_int_equal(params_apply(io_option_defs, &o, "bssplit=4k/50:8k/50,16k"), 0);
	assert_string_equal(o.bssplit, "4k/50:8k/50,16k");
	assert_int_equal(params_apply(io_option_defs, &o, "description=a\\,b\\\\c"), 0);
	assert_string_equal(o.description, "a,b\\c");
	assert_int_equal(params_apply(io_option_defs, &o, "3,bs=8k"), -1);	/* nothing to continue */
	assert_non_null(strstr(error_get(), "expected key=value"));
	/* one vocabulary: fio's other names and rwmixwrite are rows of the
	 * table, so run io:..., suites, job files and fsbench io's flags all
	 * take them (the bug: job files alone did) */
	struct io_options x, y;
	static char tx[16384], ty[16384];
	memset(&x, 0, sizeof(x));
	assert_int_equal(params_defaults(io_option_defs, &x), 0);
	memset(&y, 0, sizeof(y));
	assert_int_equal(params_defaults(io_option_defs, &y), 0);
	assert_int_equal(params_apply(io_option_defs, &x, "readwrite=randrw,blocksize=8k,"
				      "rwmixwrite=30,io_engine=libaio,timeout=2s"), 0);
	assert_int_equal(params_apply(io_option_defs, &y, "rw=randrw,bs=8k,rwmixread=70,"
				      "ioengine=libaio,runtime=2s"), 0);
	assert_int_equal(params_format(io_option_defs, &x, tx, sizeof(tx)), 0);
	assert_int_equal(params_format(io_option_defs, &y, ty, sizeof(ty)), 0);
	assert_string_equal(tx, ty);
	assert_null(strstr(tx, "readwrite="));	/* stored under fio's main name */
	assert_int_equal(params_apply(io_option_defs, &x, "rw=randread:8"), 0);
	assert_int_equal(x.ddir_seq_nr, 8);
	assert_int_equal(params_apply(io_option_defs, &x, "rwmixwrite=101"), -1);
	/* fio's bs=READ,WRITE,TRIM.  Sizes that agree are one size; sizes
	 * that differ are a bssplit of one size per direction (t0023's
	 * bs=4k,4k,8k with randtrimwrite: trims and their writes 8k), which
	 * the rules refuse where the job mixes directions of different sizes
	 * (fio ends such a job early).  Catches a per-direction size dropped
	 * (the old bs took the first) or run on a mix that fio runs otherwise. */
	assert_int_equal(params_apply(io_option_defs, &x, "bs=8k,8k,8k"), 0);
	assert_int_equal(x.bs, 8192);
	assert_string_equal(x.bssplit, "");
	assert_int_equal(params_set(io_option_defs, &x, "bs", "4k,,4k"), 0);	/* empty: 4k */
	assert_string_equal(x.bssplit, "");
	assert_int_equal(params_set(io_option_defs, &x, "bs", "8k,8k,8k,8k"), -1);
	{
		struct io_options tw;
		memset(&tw, 0, sizeof(tw));
		assert_int_equal(params_defaults(io_option_defs, &tw), 0);
		assert_int_equal(params_apply(io_option_defs, &tw, "rw=randtrimwrite,bs=4k,4k,8k,"
					      "ioengine=falloc"), 0);
		assert_string_equal(tw.bssplit, "4096/100,4096/100,8192/100");
		assert_int_equal(tw.parsed.split[DIR_TRIM].bs[0], 8192);
		assert_int_equal(io_options_validate(&tw), 0);
		/* fio: a size not given takes the one before it */
		assert_int_equal(params_set(io_option_defs, &tw, "bs", "8k,32k"), 0);
		assert_string_equal(tw.bssplit, "8192/100,32768/100,32768/100");
		assert_int_equal(params_set(io_option_defs, &tw, "rw", "randrw"), 0);
		assert_int_equal(io_options_validate(&tw), -1);
		assert_non_null(strstr(error_get(), "a size per direction where the job mixes"));
		assert_int_equal(params_set(io_option_defs, &tw, "rw", "randwrite"), 0);
		assert_int_equal(io_options_validate(&tw), 0);
		/* one size again: the split bs wrote goes with it */
		assert_int_equal(params_set(io_option_defs, &tw, "bs", "16k"), 0);
		assert_string_equal(tw.bssplit, "");
		/* a bssplit given is the user's: bs leaves it alone */
		assert_int_equal(params_apply(io_option_defs, &tw, "bssplit=4k/50:8k/50,bs=4k,8k"), 0);
		assert_string_equal(tw.bssplit, "4k/50:8k/50");
		assert_int_equal(params_set(io_option_defs, &tw, "bs", "4k"), 0);
		assert_string_equal(tw.bssplit, "4k/50:8k/50");
	}
	/* fio's submission options, taken (offload.c, backend.c act on them) */
	assert_int_equal(params_apply(io_option_defs, &x, "io_submit_mode=offload,"
				      "serialize_overlap=1"), 0);
	assert_int_equal(x.io_submit_mode, SUBMIT_OFFLOAD);
	assert_true(x.serialize_overlap);
	assert_int_equal(params_apply(io_option_defs, &x, "io_submit_mode=later"), -1);
	/* experimental_verify=1 reaches the same read-back: taken, and its
	 * value still checked */
	assert_int_equal(params_apply(io_option_defs, &x, "experimental_verify=1"), 0);
	assert_int_equal(params_apply(io_option_defs, &x, "experimental_verify=maybe"), -1);
	/* what does not fit is an error, never a cut list */
	char small[64];
	assert_int_equal(params_format(io_option_defs, &o, small, sizeof(small)), -1);
}

static void test_format_size(void **state)
{
	(void)state;
	char buf[32];

	format_size(1 << 20, buf, sizeof(buf)), assert_string_equal(buf, "1M");
	format_size(65536, buf, sizeof(buf)), assert_string_equal(buf, "64k");
	format_size(51200, buf, sizeof(buf)), assert_string_equal(buf, "50k");
	format_size(1000, buf, sizeof(buf)), assert_string_equal(buf, "1000");
	format_size(0, buf, sizeof(buf)), assert_string_equal(buf, "0");
}

static void test_named_tests(void **state)
{
	(void)state;
	struct test_spec ts;

	assert_int_equal(test_spec_parse("fsmark-1000x1M", &ts), 0);
	assert_string_equal(ts.wl->name, "fsmark");
	assert_string_equal(ts.subtitle, "Test: 1000 Files, 1MB Size");
	assert_non_null(strstr(ts.params_text, "files=1000,size=1M,"));
	test_spec_free(&ts);

	assert_int_equal(test_spec_parse("fsmark-5000x1M-4t", &ts), 0);
	assert_string_equal(ts.subtitle, "Test: 5000 Files, 1MB Size, 4 Threads");
	test_spec_free(&ts);

	/* Overrides on a named test: the subtitle follows the parameters. */
	assert_int_equal(test_spec_parse("fsmark-4000x1M-32d:files=10", &ts), 0);
	assert_string_equal(ts.subtitle, "Test: 10 Files, 32 Sub Dirs, 1MB Size");
	test_spec_free(&ts);

	assert_int_equal(test_spec_parse("fsmark:files=5,size=4k,sync=0", &ts), 0);
	assert_string_equal(ts.subtitle, "Test: 5 Files, 4KB Size, Sync Method 0");
	test_spec_free(&ts);

	assert_int_equal(test_spec_parse("nosuch", &ts), -1);
	assert_non_null(strstr(error_get(), "unknown test 'nosuch'"));
	assert_int_equal(test_spec_parse("fsmark:sync=9", &ts), -1);
	assert_non_null(strstr(error_get(), "fsmark: parameter 'sync': bad value '9'"));
	assert_int_equal(test_spec_parse("fsmark:dirs=1", &ts), -1);
	assert_int_equal(test_spec_parse("fsmark:files_per_dir=3", &ts), -1);
	assert_non_null(strstr(error_get(), "needs dirs="));
}

static void test_scale(void **state)
{
	static const struct param_def scaled[] = {
		{ "count", PT_INT, O(count), "3", 0, 100, NULL, "how many", PF_SCALE },
		{ "size", PT_SIZE, O(size), "64k", 0, 1 << 30, NULL, "how big", PF_SCALE },
		{ "time", PT_DURATION, O(time), "2s", 0, 0, NULL, "not scaled" },
		{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
	};
	struct demo d;
	(void)state;

	assert_int_equal(params_defaults(scaled, &d), 0);
	params_scale(scaled, &d, 0.1);
	assert_int_equal(d.count, 1);		/* 0.3 rounds to 0: at least 1 */
	assert_int_equal(d.size, 6554);
	assert_true(d.time == 2);
	params_scale(scaled, &d, 1000);
	assert_int_equal(d.count, 100);		/* held at the table's maximum */
	/* 0 means none or automatic and stays 0 (appstart's file_size). */
	assert_int_equal(params_apply(scaled, &d, "count=0,size=0"), 0);
	params_scale(scaled, &d, 0.5);
	assert_int_equal(d.count, 0);
	assert_int_equal(d.size, 0);
	/* A level of fileop is a cube of files: the cube root of the factor
	 * (20 and 25 at 0.05: 7 and 9, 343 and 729 files where there were
	 * 8000 and 15625); a negative count ("this machine's") is kept, as
	 * bonnie's ram=-1 is (it became 1 MiB); a text's leading count is
	 * scaled and the rest kept (bonnie's n=16:0:0:1).  Catches --scale
	 * leaving fileop's levels and bonnie's file count as they were. */
	{
		static const struct param_def cube[] = {
			{ "count", PT_INT, O(count), "20", -1, 1000, NULL, "a level",
			  PF_SCALE | PF_SCALE_CUBE },
			{ "name", PT_STRING, O(name), "16:0:0:1", 0, PARAM_STR_MAX, NULL, "n",
			  PF_SCALE },
			{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
		};
		assert_int_equal(params_defaults(cube, &d), 0);
		params_scale(cube, &d, 0.05);
		assert_int_equal(d.count, 7);
		assert_string_equal(d.name, "1:0:0:1");
		assert_int_equal(params_apply(cube, &d, "count=25,name=none"), 0);
		params_scale(cube, &d, 0.05);
		assert_int_equal(d.count, 9);
		assert_string_equal(d.name, "none");	/* no leading count */
		assert_int_equal(params_apply(cube, &d, "count=-1,name=0"), 0);
		params_scale(cube, &d, 0.05);
		assert_int_equal(d.count, -1);
		assert_string_equal(d.name, "0");
		struct test_spec ts;
		assert_int_equal(test_spec_parse("fileop-seed002", &ts), 0);
		test_spec_scale(&ts, 0.05);
		assert_non_null(strstr(ts.params_text, "l=7,u=9,"));
		test_spec_free(&ts);
		assert_int_equal(test_spec_parse("bonnie-seed003", &ts), 0);
		test_spec_scale(&ts, 0.125);
		assert_non_null(strstr(ts.params_text, "ram=128,n=2,"));
		test_spec_free(&ts);
	}
	/* A test's subtitle and stored parameters follow its scale. */
	{
		struct test_spec ts;
		assert_int_equal(test_spec_parse("fsmark:files=1000", &ts), 0);
		test_spec_scale(&ts, 0.1);
		assert_non_null(strstr(ts.params_text, "files=100,"));
		assert_non_null(strstr(ts.subtitle, "100 Files"));
		test_spec_free(&ts);
	}
}

/* Issue 12 #1: a text parameter's declared capacity bounds the copy, for
 * every workload's table (bonnie's n is 64 bytes, not PARAM_STR_MAX). */
static void test_string_capacity(void **state)
{
	struct test_spec ts;
	char arg[600];
	(void)state;

	for (const struct workload *const *w = workload_all(); *w; w++) {
		if (params_check_table((*w)->params, (*w)->params_size))
			fail_msg("%s: %s", (*w)->name, error_get());
		for (const struct param_def *d = (*w)->params; d->name; d++) {
			if (d->type != PT_STRING)
				continue;
			size_t cap = (size_t)d->max;
			/* capacity - 1 characters fit (they may fail validation),
			 * capacity characters are refused by the parser itself. */
			int n = snprintf(arg, sizeof(arg), "%s:%s=", (*w)->name, d->name);
			memset(arg + n, '1', cap);
			arg[n + (int)cap] = '\0';
			assert_int_equal(test_spec_parse(arg, &ts), -1);
			if (!strstr(error_get(), "text up to"))
				fail_msg("%s: %s", arg, error_get());
		}
	}
	memset(arg, '1', 200);
	memcpy(arg, "bonnie:n=", 9);
	arg[200] = '\0';
	assert_int_equal(test_spec_parse(arg, &ts), -1);
	assert_non_null(strstr(error_get(), "text up to 63 characters"));
}

/* Issue 12 #10: empty items are a mistake, not something to skip. */
static void test_empty_items(void **state)
{
	struct test_spec ts;
	(void)state;

	assert_int_equal(test_spec_parse("fsmark:,,,", &ts), -1);
	assert_non_null(strstr(error_get(), "empty item"));
	assert_int_equal(test_spec_parse("fsmark:files=2,", &ts), -1);
	assert_int_equal(test_spec_parse("fsmark:files=2,,size=4k", &ts), -1);
	assert_int_equal(test_spec_parse("fsmark:files=2,size=4k", &ts), 0);
	test_spec_free(&ts);
}

/* Issue 14: every workload's chart title says the work its run does, in
 * the original tool's terms, and follows the parameters (the counts each
 * run performs are checked against these in the workloads' own tests). */
static void test_titles_say_what_runs(void **state)
{
	static const char *const cases[][2] = {
		{ "fsmark:files=7,size=8k,threads=2", "Test: 7 Files, 8KB Size, 2 Threads" },
		{ "fileop:f=3,s=2k", "Level 3, 2048-byte files" },
		{ "postmark:transactions=77,number=33", "77 Transactions, 33 Files of 500 to 10000 Bytes" },
		{ "tree:files=55,size=2M,dirs=5", "55 Files, 2 MB in 5 Dirs" },
		{ "bonnie:size=64M,ram=0,n=2", "bonnie++ 2.00, 64 MiB file, -n 2" },
		{ "io:rw=randwrite,bs=8k,iodepth=4,ioengine=libaio",
		  "Random Write - Engine: Linux AIO - Buffered: Yes - Direct: No - Block Size: 8KB - IO Depth: 4" },
		{ "sqlite-speedtest:size=7", "Size 7 -" },
		{ "sqlite-inserts:n=9,threads=3", "9 Single-Row Transactions x 3 Threads" },
		/* db_bench's fillsync does num/1000 synced writes: both said */
		{ "kv:benchmark=fillsync,num=5000,threads=2", "num 5000: 5 Synced Writes per Thread, 2 Threads" },
		{ "kv:benchmark=fillseq,num=500,threads=1", "Sequential Fill - 500 Keys, 1 Thread" },
		{ "appstart:writers=1", "Sequential Reads + Writes" },
		{ "ior:b=2m,t=64k,s=3", "Block Size: 2M - Transfer: 64k - Segments: 3" },
		{ "mdtest:n=17", "17 Items Per Rank" },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct test_spec ts;
		if (test_spec_parse(cases[i][0], &ts))
			fail_msg("%s: %s", cases[i][0], error_get());
		if (!strstr(ts.subtitle, cases[i][1]))
			fail_msg("%s: title '%s' lacks '%s'", cases[i][0], ts.subtitle, cases[i][1]);
		test_spec_free(&ts);
	}
	/* every workload has a title that is not empty */
	for (const struct workload *const *w = workload_all(); *w; w++) {
		struct test_spec ts;
		if (test_spec_parse((*w)->name, &ts) == 0) {
			assert_true(ts.subtitle[0] != '\0');
			test_spec_free(&ts);
		}
	}
}

/* "did you mean": edit distance, the reach of a typo, ties broken by the
 * nearest characters (issue 17). */
static void test_suggest(void **state)
{
	static const char *const fs[] = { "ext2", "ext4", "xfs", "btrfs", "btrfs-zstd", "tmpfs" };
	struct test_spec ts;
	(void)state;

	assert_int_equal(edit_distance("fsmrk", "fsmark"), 1);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_string_equal(suggest("ext5", fs, 6), "ext4");
	assert_string_equal(suggest("btrfs-zstb", fs, 6), "btrfs-zstd");
	assert_string_equal(suggest("zfs", fs, 6), "xfs");	/* one edit: a typo's reach */
	assert_null(suggest("nilfs2", fs, 6));			/* not a typo of any */
	assert_int_equal(test_spec_parse("fsmrk", &ts), -1);
	assert_non_null(strstr(error_get(), "did you mean 'fsmark'?"));
	assert_int_equal(test_spec_parse("fsmark:fils=3", &ts), -1);
	assert_non_null(strstr(error_get(), "did you mean 'files'?"));
	/* two letters swapped are one typo: "rnu" is "run" (issue 40) */
	static const char *const cmds[] = { "run", "io", "show", "report" };
	assert_int_equal(edit_distance("rnu", "run"), 1);
	assert_int_equal(edit_distance("ab", "ba"), 1);
	assert_string_equal(suggest("rnu", cmds, 4), "run");
	/* fio's options past the first 128 rows are suggested too */
	assert_int_equal(test_spec_parse("io:gtod_reduc=1", &ts), -1);
	assert_non_null(strstr(error_get(), "did you mean 'gtod_reduce'?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration_bool_int),
		cmocka_unit_test(test_defaults_and_apply),
		cmocka_unit_test(test_errors_are_one_clear_line),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_round_trip_every_table),
		cmocka_unit_test(test_engine_rows_in_table),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_named_tests),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_string_capacity),
		cmocka_unit_test(test_empty_items),
		cmocka_unit_test(test_titles_say_what_runs),
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
