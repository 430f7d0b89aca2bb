/*
 * runner_internal.h: what the runner's files share (runner.c runs the
 * passes; judge.c decides when a test is done; schedule.c plans the time:
 * estimates, the budget, the order of a round).  Not for outside the
 * runner.
 */
#ifndef FSB_RUNNER_INTERNAL_H
#define FSB_RUNNER_INTERNAL_H

#include "runner.h"
#include "devgroup.h"
#include "../core/verdict.h"

/* One test on one target: its primary values across passes, and while a
 * pass runs, its scratch directory and the workload's context. */
struct cell {
	struct wl_ctx ctx;
	char detail[DETAIL_MAX];
	char series[SERIES_MAX];
	char dir[4096];
	int prepared, failed;
	int runs;		/* repetitions done */
	int n;			/* of which gave a primary figure (bonnie's +++++ does not) */
	double *primary;	/* those figures, [limit + 1] */
	struct dev_probe probe;
};

/* One test across the run: the runner may come back to it (a second pass
 * when a time budget leaves room), so its cells outlive a pass. */
struct tstate {
	struct cell *cells;	/* [ntargets] */
	int64_t id;
	int minimum, limit, fixed;	/* runs: before judging, at most, exactly (0: judged) */
	int done, met, passes;
	int active, below_min;	/* set by judge(): targets still running; one under the minimum */
	double precision;	/* the target, a fraction; 0 none */
	double spent, setup;	/* seconds in all; preparing a pass */
	double rep_mean;	/* seconds a repetition costs, overhead and all; -1 unknown */
	/* the verdict rule (two targets or more, no --precision) */
	int verdicts, base, direction;	/* on; the baseline; +1 more is better */
	const int *ref;		/* run_request.ref */
	struct verdict_rule rule;
	int pairs, undecided;	/* set by judge() */
	int *order;		/* [ntargets]: this round's order */
};

/* The run's clock: what earlier runs in the store say a repetition of
 * each test takes (as --dry-run estimates), this run's repetitions so far,
 * and the time budget. */
struct run_clock {
	double *stored;		/* [ntests]: mean wall per repetition, -1 unknown */
	double rep_sum;
	int reps;
	uint64_t t0;		/* when the run began */
	double budget;		/* seconds for the whole run, 0 none */
};

/* judge.c */
/* Decide, between full rounds, whether the test needs another: sets
 * done, met, active, below_min, pairs and undecided. */
void runner_judge(struct tstate *ts, int ntargets);
/* The widest relative 95% interval among the targets, NAN when a target
 * has fewer than 2 runs; *need: runs each target still needs (0 met, -1
 * unknown). */
double runner_widest(const struct tstate *ts, int ntargets, int *need);
/* The verdict rule's open pairs and the rounds they need (verdict.h). */
int runner_verdict_need(const struct tstate *ts, int ntargets, int *pairs, int *open,
			int *nearest);
/* Rounds every target still running has done. */
int runner_full_rounds(const struct tstate *ts, int ntargets);

/* schedule.c */
/* The budget's clock (runner_set_clock), in ns. */
uint64_t runner_now(void);
double runner_per_rep(const struct run_clock *rc, const struct tstate *ts, int k);
int runner_most_runs(const struct tstate *ts, int ntargets);
double runner_minimum_cost(const struct run_request *rq, const struct run_clock *rc,
			   const struct tstate *all, int k);
void runner_rep_event(const struct run_request *rq, const struct runner_events *ev,
		      const struct run_clock *rc, const struct tstate *all, int k, int i, int rep);
double runner_budget_floor(const struct run_request *rq, const struct run_clock *clock);
int runner_out_of_reach(const struct tstate *ts, int ntargets, double per, double left);
void runner_shuffle(int *order, int n, int test, int round);

#endif
