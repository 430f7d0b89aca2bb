/*
 * runner.h: running tests on targets, repetition by repetition.
 *
 * For each test: prepare on every target (in its own scratch directory),
 * then rounds of repetitions across targets (A B A B ...) so drift on a
 * noisy machine spreads evenly, then cleanup.  Before every repetition:
 * sync, and as root drop the page cache.  The order within a round is
 * drawn anew each round.  How many rounds: exactly --runs when the user
 * gives it; otherwise at least min_runs (or the suite's runs =), then, for
 * two targets or more, until every pair that matters (each target and the
 * baseline, neighbours in the ranking) is decided faster, slower or
 * equivalent by the sequential rule of core/verdict.h, looked at only at
 * its scheduled rounds; for one target (or with --precision) another round
 * while its 95% interval of the primary metric is wider than the precision
 * target; up to max_runs (20;
 * under a time budget the budget is the limit, RUNNER_BUDGET_RUNS at most,
 * unless the user gave --max-runs).  A time budget gives each test a share
 * for its rounds past the minimum (a test that by its spread cannot meet
 * its target in twice that stops at the minimum); what is left after
 * every test has had its turn goes to those that missed the target,
 * cheapest to finish first, in further passes (set up again on a fresh
 * filesystem).  Every sample goes to the store as soon as it exists.
 * Data flows one way: runner -> store; reports read the store.
 */
#ifndef FSB_RUNNER_H
#define FSB_RUNNER_H

#include <stdint.h>

#include "../store/store.h"
#include "../targets/target.h"
#include "testspec.h"

struct runner_opts {
	int runs;		/* exactly this many runs; 0: to the precision target */
	int min_runs;		/* runs before judging (default 3) */
	int max_runs;		/* at most; 0: runner_max_runs() decides */
	int warmup;		/* unrecorded runs per target before measuring */
	double precision;	/* 95% interval within +- this fraction (0.03) */
	/* Two targets or more: repeat until every pair that matters is
	 * decided (core/verdict.h), not to the precision; 0 when the user
	 * asked for --precision. */
	int verdicts;
	double margin;		/* equivalent within +- this fraction (0.03) */
	double time_budget;	/* seconds for the whole run; 0 none */
	int drop_caches;	/* 1: drop caches before each run when possible */
	int quiet;		/* no progress output */
	int fresh_per_fs;	/* 1: mkfs once per filesystem, not before every test */
	int device_stats;	/* 1: the device group around every run (default) */
};

/* The count cap without --max-runs: 20 runs a target, or under a time
 * budget RUNNER_BUDGET_RUNS, so that the budget, not the count, stops a
 * cheap test (LevelDB's need 20-40 runs to reach +-3% here). */
#define RUNNER_DEFAULT_RUNS 20
#define RUNNER_MAX_TARGETS 64
#define RUNNER_BUDGET_RUNS 1000
int runner_max_runs(const struct runner_opts *o);
/* Runs a test gets before it is judged: min_runs or the suite's runs =,
 * within runner_max_runs. */
int runner_min_runs(const struct runner_opts *o, const struct test_spec *ts);

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
	const char *findings;		/* wl_ctx.findings: NULL, nothing kept */
	/* --compare-fresh: ref[i] is the fresh twin aged target i is judged
	 * against (a pair that matters beside the baseline's), -1 none; NULL
	 * when no target has one */
	const int *ref;
	double age_fill;	/* --age: the share aging keeps full (0: none),
				 * which images are made larger by */
};

/* Where a run stands when a repetition begins. */
struct rep_info {
	const char *test, *target;
	int test_index, ntests;		/* 1-based position in the run */
	int target_index, ntargets;
	int rep, planned;		/* rep 0 is a warm-up; planned may grow */
	double eta_test;		/* seconds until this test is done, -1 unknown */
	double eta_run;			/* until the whole run is done, -1 unknown */
	double interval;		/* widest relative 95% half-width so far, -1 unknown */
	double precision;		/* the target, 0 none */
	int need;			/* more runs per target the target needs, -1 unknown */
};

/* What a pass over a test came to (a test may have a second pass). */
struct test_outcome {
	int runs;			/* repetitions in this pass, all targets */
	double seconds;
	int failed;			/* on some target */
	int again;			/* not the test's first pass */
	int met;			/* every target's interval within the target */
	double interval;		/* widest relative 95% half-width, -1 unknown */
	double precision;		/* the target, 0 none */
	int fixed;			/* --runs: the count was fixed */
	int unfinished;			/* may get another pass (time budget) */
	int pairs, undecided;		/* the verdict rule's pairs, and those open */
	int rounds;			/* rounds every target has run */
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
	/* A pass over a test finished on every target. */
	void (*test_done)(void *arg, int64_t run_id, int test_index, int ntargets,
			  const struct test_outcome *out);
	void *arg;
};

void runner_defaults(struct runner_opts *o);
/* Set up targets and check everything that can be checked before running:
 * directories, free space.  On error nothing is left set up. */
/* Set up every target and check the tests fit: 0; -1 for bad input (a
 * missing directory, duplicate labels, too little space); -2 when a
 * filesystem could not be made.  Error set either way. */
int runner_prepare(struct run_request *rq);
/* The clock the runner plans its time budget by: the machine's monotonic
 * one, or one a test advances itself, so that what a budget decides does
 * not depend on the load of the machine it runs on (NULL: the machine's).
 * The figures a workload measures keep their own clock. */
void runner_set_clock(uint64_t (*now)(void));
/* Run everything, recording into the store.  Returns 0 when every test
 * passed on every target, 1 when some failed, -1 on a store error;
 * interruption is reported through *interrupted. */
int runner_execute(struct store *st, struct run_request *rq,
		   const struct runner_events *ev, int64_t *run_id,
		   int *interrupted);
void runner_teardown(struct run_request *rq);
/* A run that is 'running' in st goes into the state file (where: its key,
 * PATH_MAX bytes, empty when not recorded), so that `fsbench cleanup`
 * marks it abandoned should its process die unseen; state_remove(STATE_RUN,
 * where) when it ends.  runner_execute does it for its own runs; a --vm
 * host for the guest's run it keeps. */
void runner_claim_run(struct store *st, int64_t run_id, char *where);


#endif
