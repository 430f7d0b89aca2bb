/*
 * test_jobfile.c: fio job files (io/jobfile.c): the INI syntax fio takes,
 * its errors with their line, options given as flags, what one job
 * says of another, and ${VAR} from the environment.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "io/jobfile.h"

#include <stdlib.h>

static void test_jobfile_syntax(void **state)
{
	static struct jobset set;
	const char *text =
		"; a comment\n"
		"# another\n"
		"[global]\n"
		"ioengine = io_uring\n"
		"size=1g\n"
		"bs=4k\n"
		"time_based\n"
		"runtime=2m\n"
		"randseed=0x10\n"
		"\n"
		"[reader]\n"
		"readwrite=randread\n"
		"iodepth=64\n"
		"[writer]\n"
		"rw=randwrite\n"
		"bs=128k\n"
		"[after]\n"
		"stonewall\n"
		"rw=write\n"
		"[global]\n"
		"bs=8k\n"
		"[late]\n"
		"rw=read\n"
		"[aliases]\n"	/* fio's other names */
		"timeout=30\n"
		"nr_files=3\n"
		"fileoffset=1m\n"
		"fill_fs=1\n"
		"iodepth_batch_complete=4\n";
	(void)state;

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("t.fio", text, false, &set), 0);
	assert_int_equal(set.njobs, 5);
	assert_true(set.jobs[4].runtime == 30);
	assert_int_equal(set.jobs[4].nrfiles, 3);
	assert_int_equal(set.jobs[4].offset, 1 << 20);
	assert_true(set.jobs[4].fill_device);
	assert_int_equal(set.jobs[4].iodepth_batch_complete_min, 4);
	assert_string_equal(set.jobs[0].name, "reader");
	assert_int_equal(set.jobs[0].rw, RW_RANDREAD);
	assert_int_equal(set.jobs[0].iodepth, 64);
	assert_int_equal(set.jobs[0].size, 1ULL << 30);
	assert_int_equal(set.jobs[0].bs, 4096);
	assert_true(set.jobs[0].time_based);
	assert_true(set.jobs[0].runtime == 120);
	assert_int_equal(set.jobs[0].randseed, 16);
	assert_int_equal(set.jobs[1].bs, 128 << 10);
	assert_int_equal(set.jobs[1].iodepth, 1);	/* not inherited from a sibling */
	/* Groups: reader and writer together, stonewall starts a new one. */
	assert_int_equal(set.group[0], set.group[1]);
	assert_true(set.group[2] > set.group[1]);
	assert_int_equal(set.group[3], set.group[2]);
	/* A later [global] applies to the jobs after it only. */
	assert_int_equal(set.jobs[2].bs, 4096);
	assert_int_equal(set.jobs[3].bs, 8192);
}

static void test_jobfile_errors(void **state)
{
	static struct jobset set;
	(void)state;

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nrw=read\nfoo=1\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "x.fio:3"));
	assert_non_null(strstr(error_get(), "'foo'"));

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nfoo=1\nhipri_pct=10\n", true, &set), 0);
	assert_non_null(strstr(set.warnings, "x.fio:2: option 'foo'"));
	assert_non_null(strstr(set.warnings, "x.fio:3: option 'hipri_pct'"));

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nbs=4q\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "x.fio:2"));
	assert_non_null(strstr(error_get(), "bs"));

	/* fio reads a number up to what it does not know: strided.py's
	 * filesize=65536) and t0023's bsrange=512/25:1k:25:... (512-1k to
	 * fio) run as fio runs them, the rest named in a warning; catches the
	 * refusal that failed both, and the rest dropped without a word */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nrw=randread\nfilesize=65536)\nsize=64k)\n"
				       "bsrange=512/25:1k:25:2k:25:4k/25\n", false, &set), 0);
	assert_int_equal(set.jobs[0].size, 65536);
	assert_int_equal(set.jobs[0].parsed.bsrange_min, 512);
	assert_int_equal(set.jobs[0].parsed.bsrange_max, 1024);
	assert_non_null(strstr(set.notes, "x.fio:3: filesize=65536) read as filesize=65536"));
	assert_non_null(strstr(set.notes, "x.fio:4: size=64k) read as size=64k"));
	assert_non_null(strstr(set.notes, "read as bsrange=512-1k, as fio reads it"));
	assert_string_equal(set.warnings, "");
	/* no number, or a letter after it (a mistyped unit): refused */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nbsrange=x-1k\n", false, &set), -1);
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nsize=64kq\n", false, &set), -1);
	/* '%' means something to fio (a share of the file): never dropped */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nrw=read\noffset=200%\n", false, &set), -1);

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a\nrw=read\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "x.fio:1: malformed section"));

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[global]\nrw=read\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "no jobs"));

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nrw=sideways\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "x.fio:2"));
}

static void test_jobfile_from_args(void **state)
{
	static struct jobset set;
	char *argv[] = { "--bs=8k", "--name=one", "--rw=randread", "--name=two", "--rw=write",
			 "--time_based", "--runtime=5" };
	char *bad[] = { "--bogus=1" };
	(void)state;

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_from_args(7, argv, false, &set), 0);
	assert_int_equal(set.njobs, 2);
	assert_string_equal(set.jobs[0].name, "one");
	assert_int_equal(set.jobs[0].bs, 8192);
	assert_int_equal(set.jobs[0].rw, RW_RANDREAD);
	assert_int_equal(set.jobs[1].bs, 8192);
	assert_true(set.jobs[1].time_based);
	assert_false(set.jobs[0].time_based);
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_from_args(1, bad, false, &set), -1);
	assert_non_null(strstr(error_get(), "'bogus'"));
}

/* What crosses jobs in a file: new_group is a reporting group only (fio's
 * groupid), stonewall a new run too; exitall set by any job holds for all;
 * wait_for names one job before it; filesize gives size (fio's io_size
 * with files of that size). */
static void test_jobfile_cross_job(void **state)
{
	static struct jobset set;
	const char *text =
		"[global]\nthreads=1\nfilesize=1m\nnrfiles=2\n"
		"[a]\nrw=write\n"
		"[b]\nnew_group\nwait_for=a\nratemin=1k\nblockalign=4k\n"
		"[c]\nstonewall\nexitall\nsize=2m\n";
	(void)state;

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", text, false, &set), 0);
	assert_int_equal(set.run[0], set.run[1]);	/* new_group: together */
	assert_true(set.group[1] > set.group[0]);
	assert_true(set.run[2] > set.run[1] && set.group[2] > set.group[1]);
	assert_true(set.jobs[0].exitall && set.jobs[1].exitall);	/* c's, for all */
	assert_string_equal(set.jobs[1].wait_for, "a");
	assert_string_equal(set.jobs[1].rate_min, "1k");
	assert_int_equal(set.jobs[1].ba, 4096);
	assert_int_equal(set.jobs[0].size, 2 << 20);	/* 2 files of 1m */

	/* a flag over a job file takes the parser's rules: fio's other names,
	 * rw modifiers, filesize */
	assert_int_equal(jobfile_set(&set, 2, "timeout", "5"), 0);
	assert_true(set.jobs[2].runtime == 5);
	assert_int_equal(jobfile_set(&set, 2, "rw", "randread:4"), 0);
	assert_true(set.jobs[2].rw == RW_RANDREAD && set.jobs[2].ddir_seq_nr == 4);
	assert_int_equal(jobfile_set(&set, 2, "filesize", "3m"), 0);
	assert_int_equal(set.jobs[2].size, 6 << 20);	/* nrfiles=2 from [global] */
	assert_non_null(strstr(set.given[2], "runtime=5"));

	/* filesize with offset: the file is filesize bytes and the I/O runs
	 * from the offset to its end, as fio's (strided.py's subtests with
	 * an offset read past the file's end before) */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("o.fio", "[o]\nsize=64k\noffset=32k\nfilesize=64k\n", false,
				       &set), 0);
	assert_int_equal(set.jobs[0].size, 32 << 10);
	assert_int_equal(set.jobs[0].offset, 32 << 10);

	static const struct { const char *text, *error; } bad[] = {
		{ "[a]\noffset=64k\nfilesize=64k\n", "offset=65536 is at or past filesize=65536" },
		{ "[a]\nwait_for=b\n[b]\n", "no job of that name comes before it" },
		{ "[a]\n[a]\n[b]\nwait_for=a\n", "more than one job" },
		{ "[a]\nfilesize=1k-4k\n", "ranges are not supported" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&set, 0, sizeof(set));
		assert_int_equal(jobfile_parse("x.fio", bad[i].text, false, &set), -1);
		print_message("# %s\n", error_get());
		assert_non_null(strstr(error_get(), bad[i].error));
	}

	/* What parses as fio parses it but fsbench cannot run is kept on the
	 * job and refused by validation (a run), not by the parser (which
	 * --parse-only is): the bug caught is either way lost, a job file fio
	 * parses refused at parse (fio's own examples: 33 of 86 parsed), or
	 * such a job run as something else. */
	static const struct { const char *text, *error; bool engine; } norun[] = {
		{ "[a]\nfilesize=1m\nsize=4m\n", "give size=1048576", false },
		{ "[a]\nrw=read\nmax_open_zones=4\n", "it is zonemode=zbd's", false },
		{ "[a]\nrw=write\nverify_async=2\n", "the job's own thread", false },
		/* an engine fio has and fsbench lacks, with its own option */
		{ "[a]\nrw=read\nioengine=libiscsi\ninitiator=iqn.x\n", "iSCSI target", true },
		/* fio reads any name, and fails at the run */
		{ "[global]\nioengine=nosuch\n[a]\nrw=read\n", "nor fio 3.33 has an engine", true },
	};
	for (size_t i = 0; i < sizeof(norun) / sizeof(norun[0]); i++) {
		memset(&set, 0, sizeof(set));
		assert_int_equal(jobfile_parse("x.fio", norun[i].text, false, &set), 0);
		assert_int_equal(set.jobs[0].foreign_engine[0] != 0, norun[i].engine);
		set.jobs[0].size = 1 << 20;
		assert_int_equal(io_options_validate(&set.jobs[0]), -1);
		print_message("# %s\n", error_get());
		assert_non_null(strstr(error_get(), norun[i].error));
	}
	/* an engine's option only with that engine (fio loads the engine for
	 * it): alone, or after the job chose one of fsbench's, it is unknown */
	static const char *const stray[] = {
		"[a]\nrw=read\ninitiator=iqn.x\n",
		"[global]\nioengine=libiscsi\n[a]\nioengine=psync\ninitiator=iqn.x\n",
	};
	for (size_t i = 0; i < sizeof(stray) / sizeof(stray[0]); i++) {
		memset(&set, 0, sizeof(set));
		assert_int_equal(jobfile_parse("x.fio", stray[i], false, &set), -1);
		assert_non_null(strstr(error_get(), "'initiator' is not supported"));
	}
	/* What fio warns of and runs without (issue 72, e4defrag2.fio): a
	 * time_based job with no runtime= runs as a sized one; an engine's
	 * options from [global] are left out of a job of another engine,
	 * while one given in the job itself is still refused at the run.
	 * The bug: a job file fio runs refused by fsbench io. */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[global]\nioengine=e4defrag\ndonorname=d.def\n"
				       "[a]\nrw=write\ntime_based\n[b]\nioengine=libaio\nrw=read\n"
				       "[c]\nioengine=libaio\nrw=read\ninplace=1\n", false, &set), 0);
	assert_false(set.jobs[0].time_based);
	assert_non_null(strstr(set.notes, "job a: time_based without runtime= is ignored"));
	set.jobs[1].size = 1 << 20;
	assert_int_equal(io_options_validate(&set.jobs[1]), 0);
	assert_non_null(strstr(set.notes, "job b: the ioengine=e4defrag options it takes from [global]"));
	set.jobs[2].size = 1 << 20;
	assert_int_equal(io_options_validate(&set.jobs[2]), -1);
	assert_non_null(strstr(error_get(), "is ioengine=e4defrag's"));
	/* fio's default value of a refused option changes nothing: taken */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("x.fio", "[a]\nrw=read\nmax_open_zones=0\n"
				       "dedupe_mode=repeat\n", false, &set), 0);
	assert_string_equal(set.jobs[0].norun, "");
}

/* ${NAME} in a value is the environment's NAME, empty when unset (fio). */
static void test_jobfile_env(void **state)
{
	static struct jobset set;
	(void)state;

	setenv("FSB_UNIT_BS", "8k", 1);
	unsetenv("FSB_UNIT_UNSET");
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("e.fio", "[a]\nbs=${FSB_UNIT_BS}\nsize=${FSB_UNIT_UNSET}2m\n"
				       "description=x${}y\n", false, &set), 0);
	assert_int_equal(set.jobs[0].bs, 8192);
	assert_int_equal(set.jobs[0].size, 2 << 20);
	assert_string_equal(set.jobs[0].description, "x${}y");	/* no name: kept, as fio */
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("e.fio", "[a]\nrw=${FSB_UNIT_UNSET}\n", false, &set), -1);
	unsetenv("FSB_UNIT_BS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobfile_syntax),
		cmocka_unit_test(test_jobfile_errors),
		cmocka_unit_test(test_jobfile_from_args),
		cmocka_unit_test(test_jobfile_cross_job),
		cmocka_unit_test(test_jobfile_env),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
