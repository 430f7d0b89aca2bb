/*
 * test_io_pace.c: when each I/O goes (io/backend.c's pacing, io/run.c's
 * loops, io/latency_target.c, io/steadystate.c): time_based and threads,
 * rate and rate_iops, thinktime, the controls between jobs (stonewall,
 * wait_for, flow), latency_target's search and steady state.  Counts,
 * never durations: a busy machine changes how long, not how many.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "run_workload.h"


#include <math.h>

/* fio's latency_target: the depth doubles while each window is within
 * the target, up to iodepth; the depth found gets one more window, with
 * the statistics started afresh, and the job ends there, before its
 * runtime.  Missing at depth 1 with latency_percentile=100 fails the job
 * with ETIMEDOUT, as fio's lat_fatal (two system calls take more than 1 us). */
static void test_latency_target(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	job(&o, "rw=randread,ioengine=libaio,iodepth=16,size=4m,filename=l.dat,time_based=1,"
		"runtime=20s,latency_target=10s,latency_window=50ms");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_int_equal(res->latency_depth, 16);
	print_message("# depth %u, the last window %.0f ms\n", res->latency_depth,
		      (double)res->elapsed_ns / 1e6);
	assert_true(res->elapsed_ns >= 50000000ULL);	/* one whole window */
	assert_true(res->elapsed_ns < 10000000000ULL);	/* and then the end */
	json_t *j = io_result_json(&o, res, 0, "");
	assert_int_equal(json_integer_value(json_object_get(j, "latency_depth")), 16);
	assert_int_equal(json_integer_value(json_object_get(j, "latency_target")), 10000000000LL);
	assert_int_equal(json_integer_value(json_object_get(j, "latency_window")), 50000);
	json_decref(j);

	job(&o, "rw=randread,ioengine=libaio,iodepth=16,size=4m,filename=l.dat,time_based=1,"
		"runtime=5s,latency_target=1us,latency_window=50ms");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_int_equal(res->error, ETIMEDOUT);
	assert_non_null(strstr(res->errmsg, "not met at queue depth 1"));

	static const struct { const char *opts, *error; } bad[] = {
		{ "ioengine=psync,latency_target=1ms,latency_window=1s", "keeps one I/O in flight" },
		{ "ioengine=libaio,latency_target=1ms", "needs latency_window" },
		{ "ioengine=libaio,latency_target=1ms,latency_window=1s,latency_percentile=0",
		  "not a percentage" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].opts, bad[i].error);
	free(res);
}

static void test_time_based_and_threads(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	/* Passes repeat until runtime is over; ramp is not counted. */
	job(&o, "rw=randread,size=256k,runtime=300ms,ramp_time=100ms,time_based=1,numjobs=2");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_true(res->ios[0] > 2 * 64);
	assert_true(res->elapsed_ns >= 290000000ULL && res->elapsed_ns < 3000000000ULL);
	assert_int_equal(res->clat.n, res->ios[0]);
	assert_int_equal(count_entries(dir), 0);	/* files removed */
	free(res);
}

/* fio's rate and rate_iops: each direction's I/Os spread evenly over the
 * runtime (the n-th may go at n / rate), the queue drained before a
 * sleep; a mix keeps each direction to its own cap.  1 s of cached reads
 * at 200 I/Os a second is 201 I/Os (the first goes at 0). */
static void test_rate(void **state)
{
	static const struct { const char *opts; uint64_t lo[2], hi[2]; } cases[] = {
		{ "rw=randread,rate_iops=200", { 190, 0 }, { 202, 0 } },
		{ "rw=randread,rate_iops=200,ioengine=libaio,iodepth=8", { 190, 0 }, { 202, 0 } },
		{ "rw=read,bs=64k,rate=1m", { 15, 0 }, { 17, 0 } },	/* 16 a second */
		{ "rw=randrw,rate_iops=100:50", { 90, 45 }, { 102, 52 } },
		{ "rw=randwrite,rate_iops=:100,rate=:32k", { 0, 7 }, { 0, 9 } },	/* rate= wins */
		{ "rw=randread,rate_iops=200,rate_process=poisson", { 140, 0 }, { 260, 0 } },
	};
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char opts[256];
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "size=1m,runtime=1,time_based=1,%s", cases[c].opts);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
		print_message("# %s: %llu reads, %llu writes\n", cases[c].opts,
			      (unsigned long long)res->ios[0], (unsigned long long)res->ios[1]);
		for (int d = 0; d < 2; d++) {
			assert_true(res->ios[d] >= cases[c].lo[d]);
			assert_true(res->ios[d] <= cases[c].hi[d]);
		}
	}
	/* the queue drained before each sleep: nothing in flight at any of
	 * them (the job's own record of its sleeps; the depth its I/Os were
	 * queued at also counts the catch-up after a late wake-up, which fio
	 * too sends at once, and a loaded machine gave 2s there) */
	job(&o, "rw=randread,size=1m,runtime=1,time_based=1,rate_iops=100,ioengine=libaio,iodepth=8");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	print_message("# %llu sleeps, %llu in flight at them\n", (unsigned long long)res->rate_sleeps,
		      (unsigned long long)res->rate_sleep_inflight);
	assert_true(res->rate_sleeps > 10 && res->rate_sleep_inflight == 0);
	/* fio's own form, as a job file and a flag give it */
	uint64_t bps[IO_DIRS];
	job(&o, "rw=randrw,bs=4k");
	assert_int_equal(params_set(io_option_defs, &o, "rate_iops", "100,50"), 0);
	assert_int_equal(io_rate_bps(&o, 4096, bps), 0);
	assert_true(bps[0] == 409600 && bps[1] == 204800);
	/* the third part is the trims'; a fourth is wrong */
	assert_int_equal(params_set(io_option_defs, &o, "rate", "1m,2m,3m"), 0);
	assert_int_equal(io_rate_bps(&o, 4096, bps), 0);
	assert_true(bps[0] == 1048576 && bps[1] == 2097152 && bps[2] == 3145728);
	assert_int_equal(params_set(io_option_defs, &o, "rate", "1m,1m,1m,1m"), -1);
	assert_non_null(strstr(error_get(), "more than three parts"));
	assert_string_equal(o.rate, "1m,2m,3m");	/* a refusal changes nothing */
	assert_true(o.parsed.rate[2] == 3145728);
	refused("rw=read,rate_iops=fast", "'fast' is not a count");
	free(res);
}

/* fio's thinktime: a stall after every thinktime_blocks I/Os, the queue
 * drained first; thinktime_spin of it spent on the CPU; a number alone is
 * in microseconds, as fio reads it.  Asserted on what the job decided (its
 * stalls taken whole, think_n, and their time, think_ns), not on how many
 * I/Os fit in a second: a loaded machine wakes a sleeper late, and the
 * count of 4-block stalls in 1 s fell to 288 of 320..404 with two busy
 * loops beside it.  Each stall lasts at least what was asked (catches a
 * unit read wrong: 10000 as ns, or a stall cut short) and at most 3 times
 * it, a late wake-up's margin (catches a spin not capped at the stall, a
 * unit read as ms); a stall comes after every `blocks` I/Os, no sooner, no
 * later (catches a stall per I/O, or none). */
static void test_thinktime(void **state)
{
	static const struct { const char *opts; uint64_t blocks, depth; } cases[] = {
		{ "thinktime=10ms", 1, 1 },
		{ "thinktime=10ms,thinktime_spin=1s", 1, 1 },	/* spin: at most the stall */
		{ "thinktime=10000,thinktime_blocks=4", 4, 1 },
		{ "thinktime=10ms,thinktime_blocks=8,ioengine=libaio,iodepth=8", 8, 8 },
		{ "thinktime=10ms,thinktime_blocks=8,thinktime_blocks_type=issue,ioengine=libaio,"
		  "iodepth=4", 8, 4 },
	};
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char opts[256];
	(void)state;

	const struct param_def *d = param_find(io_option_defs, "thinktime");
	job(&o, "thinktime=5,thinktime_spin=2");
	assert_true(fabs(o.thinktime - 5e-6) < 1e-12 && fabs(o.thinktime_spin - 2e-6) < 1e-12);
	param_value_text(d, &o, opts, sizeof(opts));
	assert_string_equal(opts, "5us");	/* the canonical form reads back the same */
	job(&o, "thinktime=1.5ms");
	assert_true(fabs(o.thinktime - 1.5e-3) < 1e-12);
	assert_int_equal(params_set(io_option_defs, &o, "thinktime", "soon"), -1);
	assert_int_equal(params_set(io_option_defs, &o, "thinktime", "2h"), -1);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "rw=randread,size=1m,runtime=1,time_based=1,%s", cases[c].opts);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
		uint64_t n = res->think_n, b = cases[c].blocks;
		print_message("# %s: %llu reads, %llu stalls of %.2f ms\n", cases[c].opts,
			      (unsigned long long)res->ios[0], (unsigned long long)n,
			      n ? (double)res->think_ns / (double)n / 1e6 : 0.0);
		assert_true(n >= 1 && n <= 101);	/* 1 s of stalls of 10 ms at most */
		assert_true(res->think_ns >= n * 10000000ULL && res->think_ns <= n * 30000000ULL);
		assert_true(res->ios[0] >= n * b && res->ios[0] <= (n + 1) * b + cases[c].depth);
	}
	/* spun, not slept: 2 ms of each stall on the CPU.  A spinning thread
	 * has at least a quarter of a CPU with the CPUs oversubscribed twice;
	 * slept instead, the job's CPU is that of its I/Os alone (under 5 ms
	 * for these 100 cached reads) */
	job(&o, "rw=randread,size=1m,runtime=1,time_based=1,thinktime=10ms,thinktime_spin=2ms");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	print_message("# spin: %.3f s user over %llu stalls\n", (double)res->usr_ns / 1e9,
		      (unsigned long long)res->think_n);
	assert_true(res->think_n >= 1 && res->usr_ns > res->think_n * 2000000ULL / 4);
	free(res);
}

/* A run of several jobs, each in its own reporting group unless groups
 * says otherwise. */
static int run_set(const struct io_options *jobs, const int *groups, int n,
		   struct io_result *res, bool *exit_all)
{
	struct io_run run = { jobs, groups, n, dir, false, res, false, false };
	int rc = io_run_jobs(&run);

	if (exit_all)
		*exit_all = run.exit_all;
	return rc;
}

/* fio's controls across the jobs of a run and of a thread's own end:
 * wait_for starts a job when its waitee has ended; exitall ends the
 * waitee's group (or everything) when a thread ends; number_ios ends a
 * thread after so many I/Os; rate_min fails a job that falls below it;
 * flow keeps two jobs' I/Os in the ratio of their weights. */
static void test_cross_job_controls(void **state)
{
	struct io_options o[2];
	struct io_result *res = calloc(2, sizeof(*res));
	int one_group[2] = { 0, 0 }, two_groups[2] = { 0, 1 };
	bool all;
	(void)state;

	/* wait_for: the reader starts once the writer (64 I/Os at 200 a
	 * second, 0.32 s) has ended */
	job(&o[0], "name=w,rw=write,size=256k,rate_iops=200");
	job(&o[1], "name=r,rw=read,size=256k,wait_for=w");
	assert_int_equal(run_set(o, two_groups, 2, res, NULL), 0);
	uint64_t w_end = res[0].start_ns + res[0].elapsed_ns;
	print_message("# writer ends at %.3f s, reader starts at %.3f s\n", (double)w_end / 1e9,
		      (double)res[1].start_ns / 1e9);
	assert_true(res[0].elapsed_ns > 300000000ULL);
	assert_true(res[1].start_ns >= w_end);
	assert_int_equal(res[1].ios[0], 64);

	/* exitall: the short job's end ends the 20 s one in its group */
	job(&o[0], "name=short,rw=read,size=256k,number_ios=10,exitall=1");
	job(&o[1], "name=long,rw=randread,size=256k,runtime=20,time_based=1,exitall=1");
	assert_int_equal(run_set(o, one_group, 2, res, &all), 0);
	assert_int_equal(res[0].ios[0], 10);	/* number_ios */
	assert_true(res[1].elapsed_ns < 10000000000ULL);
	assert_false(all);
	/* ... not in another group; exit_what=all ends that too, and says so */
	job(&o[1], "name=long,rw=randread,size=256k,runtime=400ms,time_based=1,exitall=1");
	assert_int_equal(run_set(o, two_groups, 2, res, &all), 0);
	assert_true(res[1].elapsed_ns >= 390000000ULL);
	job(&o[0], "name=short,rw=read,size=256k,number_ios=10,exitall=1,exit_what=all");
	job(&o[1], "name=long,rw=randread,size=256k,runtime=20,time_based=1,exitall=1");
	assert_int_equal(run_set(o, two_groups, 2, res, &all), 0);
	assert_true(res[1].elapsed_ns < 10000000000ULL && all);
	/* number_ios counts every pass's I/Os: loops times */
	job(&o[0], "rw=randread,size=1m,number_ios=10,loops=3");
	assert_int_equal(run_set(o, NULL, 1, res, NULL), 0);
	assert_int_equal(res[0].ios[0], 30);

	/* rate_min: 10 reads a second are 40 KiB/s, under 1 MiB/s; checked
	 * from 2 s on, once a cycle has passed */
	job(&o[0], "rw=read,size=1m,thinktime=100ms,rate_min=1m,rate_cycle=200,runtime=10");
	assert_int_equal(run_set(o, NULL, 1, res, NULL), -1);
	print_message("# %s\n", error_get());
	assert_non_null(strstr(error_get(), "rate_min=1048576B/s not met"));
	/* a failed job is reported with its errno, as fio's err=5, and the
	 * job beside it with its figures */
	job(&o[0], "name=ok,rw=read,size=256k,runtime=3,time_based=1");
	job(&o[1], "name=slow,rw=read,size=256k,thinktime=100ms,rate_iops_min=100,runtime=10");
	{
		struct io_run run = { o, one_group, 2, dir, false, res, false, false };
		assert_int_equal(io_run_jobs(&run), -1);
		assert_true(run.ran);
	}
	assert_int_equal(res[0].error, 0);
	assert_true(res[0].ios[0] > 1000);
	assert_int_equal(res[1].error, EIO);
	assert_non_null(strstr(res[1].errmsg, "rate_iops_min=100 not met"));
	/* failed at a check from 2 s on (a cycle, 1 s, after the last), not
	 * before (a count of its reads was 18..40, fewer on a loaded machine's
	 * late wake-ups), and long before its 10 s */
	print_message("# slow: failed after %.2f s, %llu reads\n", (double)res[1].elapsed_ns / 1e9,
		      (unsigned long long)res[1].ios[0]);
	assert_true(res[1].elapsed_ns >= 2000000000ULL && res[1].elapsed_ns < 6000000000ULL);
	assert_true(res[1].ios[0] >= 1 && res[1].ios[0] <= 40);
	job(&o[0], "rw=read,size=1m,rate=100k,rate_min=200k");
	assert_int_equal(io_options_validate(&o[0]), -1);	/* fio refuses it too */

	/* flow: weights 1 and 3 share one counter: 1:3 I/Os.  Counted while
	 * both run: f1 ends after 100 I/Os and ends f3 with it (exitall); f1
	 * goes only while its share is at most 1/4, so its 100th found f3 at
	 * 296 or more, and f3 is held at 3/4 until f1 has ended it.  (Two
	 * 300 ms jobs, as this was, end apart on a loaded machine, and the
	 * one left runs unheld: 82 to 334.) */
	job(&o[0], "name=f1,rw=randread,size=1m,number_ios=100,flow=1,exitall=1");
	job(&o[1], "name=f3,rw=randread,size=1m,runtime=20,time_based=1,flow=3");
	assert_int_equal(run_set(o, one_group, 2, res, NULL), 0);
	print_message("# flow 1:3: %llu and %llu reads\n", (unsigned long long)res[0].ios[0],
		      (unsigned long long)res[1].ios[0]);
	assert_int_equal(res[0].ios[0], 100);
	/* at most 310: f1's share counts the check that found its I/Os done,
	 * and f3 may pass a check or two before it sees the end (306 seen
	 * under two busy loops); the bug this catches, a partner let go
	 * unheld before it is told to end, gave 4:1 (400) */
	assert_true(res[1].ios[0] >= 296 && res[1].ios[0] <= 310);
	assert_true(res[1].elapsed_ns < 10000000000ULL);
	free(res);
}

/* fio's steady state: 500 reads a second are steady (within 30%: a late
 * check on a loaded machine scales its sample by its lateness twice, as
 * fio's) as soon as the 2 s window has filled, and the 20 s job ends
 * there; a job that ends before its window fills was never steady.  The
 * window is what the job did each second. */
static void test_steadystate(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	const struct ss_spec *spec = &o.parsed.ss;
	(void)state;

	job(&o, "ss=bw_slope:1m");
	assert_true(spec->measure == SS_BW && spec->slope && !spec->pct && spec->limit == 1 << 20);
	static const struct { const char *opts, *error; } bad[] = {
		{ "ss=iops", "needs a limit" }, { "ss=lat:10%", "not iops" },
		{ "ss=bw:fast", "not a bandwidth" }, { "ss=iops:5%x", "after the %" },
		{ "ss_dur=1", "at least 2" }, { "ss_dur=2500ms", "whole seconds" } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].opts, bad[i].error);
	job(&o, "rw=randread,size=1m,rate_iops=500,time_based=1,runtime=20,ss=iops:30%,ss_dur=2");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	print_message("# steady after %.2f s: %llu and %llu reads a second, %.2f%%\n",
		      (double)res->elapsed_ns / 1e9, (unsigned long long)res->ss.iops[0],
		      (unsigned long long)res->ss.iops[1], res->ss.criterion);
	assert_true(res->ss.on && res->ss.attained && res->ss.dur == 2);
	assert_true(res->elapsed_ns < 10000000000ULL);
	for (int i = 0; i < 2; i++)
		assert_true(res->ss.iops[i] >= 300 && res->ss.iops[i] <= 800);
	job(&o, "rw=randread,size=1m,rate_iops=500,time_based=1,runtime=1500ms,ss=iops:10%,ss_dur=2");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_true(res->ss.on && !res->ss.attained && res->elapsed_ns >= 1400000000ULL);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_latency_target, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_time_based_and_threads, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_rate, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_thinktime, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_cross_job_controls, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_steadystate, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
