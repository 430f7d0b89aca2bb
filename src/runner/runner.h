/*
 * runner.h: running tests on targets, repetition by repetition.
 *
 * For each test: prepare on every target (in its own scratch directory),
 * then repetitions round-robin across targets (A B A B ...) so drift on a
 * noisy machine spreads evenly, then cleanup.  Before every repetition:
 * sync, and as root drop the page cache.  Repetitions are adaptive by
 * default: start with min_runs and add a round while a target's primary
 * metric has a coefficient of variation >= cv_limit or a value outside
 * mean +- 3 sigma, up to max_runs.  Every sample goes to the store as soon
 * as it exists.  Data flows one way: runner -> store; reports read the
 * store.
 */
#ifndef FSB_RUNNER_H
#define FSB_RUNNER_H

#include <stdint.h>

#include "../store/store.h"
#include "../targets/target.h"
#include "testspec.h"

struct runner_opts {
	int runs;		/* fixed number of runs; 0 = adaptive */
	int min_runs;		/* adaptive: runs before judging (default 3) */
	int max_runs;		/* adaptive ceiling (default 10) */
	int warmup;		/* unrecorded runs per target before measuring */
	double cv_limit;	/* adaptive: add runs while CV >= this (0.03) */
	int drop_caches;	/* 1: drop caches before each run when possible */
	int quiet;		/* no progress output */
	int fresh_per_fs;	/* 1: mkfs once per filesystem, not before every test */
	int device_stats;	/* 1: the device group around every run (default) */
};

struct run_request {
	struct target *targets;
	int ntargets;
	struct test_spec *tests;
	int ntests;
	struct runner_opts opts;
	const char *label, *note, *cmdline, *baseline;
	const char *argv;		/* JSON array of the arguments (--resume) */
	/* --resume: the interrupted run as stored; its samples count and it
	 * is continued in place.  NULL for a new run. */
	const struct result *resume;
	const char *memory_limit;	/* --ram, recorded in the system table */
	const char *vm;			/* inside fsbench's guest: the machine */
};

/* Where a run stands when a repetition begins. */
struct rep_info {
	const char *test, *target;
	int test_index, ntests;		/* 1-based position in the run */
	int target_index, ntargets;
	int rep, planned;		/* rep 0 is a warm-up; planned may grow */
	double eta_test;		/* seconds until this test is done, -1 unknown */
	double eta_run;			/* until the whole run is done, -1 unknown */
};

/* What the runner reports as it goes; it prints nothing itself.  The CLI
 * subscribes (a progress line, charts from the store).  Any may be NULL. */
struct runner_events {
	/* The run exists in the store; `how` says what precedes each
	 * repetition (sync, cache dropping). */
	void (*run_started)(void *arg, int64_t run_id, const char *how);
	/* A repetition begins (struct rep_info). */
	void (*rep_started)(void *arg, const struct rep_info *r);
	/* One line about a failure (a target's test, a scratch directory). */
	void (*failure)(void *arg, const char *message);
	/* A test finished on every target (runs: repetitions in all). */
	void (*test_done)(void *arg, int64_t run_id, int test_index, int ntargets, int runs,
			  double seconds, int failed);
	void *arg;
};

void runner_defaults(struct runner_opts *o);
/* Set up targets and check everything that can be checked before running:
 * directories, free space.  On error nothing is left set up. */
/* Set up every target and check the tests fit: 0; -1 for bad input (a
 * missing directory, duplicate labels, too little space); -2 when a
 * filesystem could not be made.  Error set either way. */
int runner_prepare(struct run_request *rq);
/* Run everything, recording into the store.  Returns 0 when every test
 * passed on every target, 1 when some failed, -1 on a store error;
 * interruption is reported through *interrupted. */
int runner_execute(struct store *st, struct run_request *rq,
		   const struct runner_events *ev, int64_t *run_id,
		   int *interrupted);
void runner_teardown(struct run_request *rq);


#endif
