/*
 * schedule.c: the runner's time.  Its clock (one a test may drive, so that
 * what a time budget decides does not depend on the machine's load), what
 * a repetition of each test costs, the estimates the progress line shows,
 * what a test may spend of the budget, and the order of each round.
 */
#include "runner_internal.h"
#include "../core/pattern.h"
#include "../core/timing.h"

#include <math.h>

static uint64_t machine_now(void)
{
	return now_ns();
}

/* The budget's clock (runner_set_clock). */
static uint64_t (*rclock)(void) = machine_now;

uint64_t runner_now(void)
{
	return rclock();
}

void runner_set_clock(uint64_t (*now)(void))
{
	rclock = now ? now : machine_now;
}

/* Seconds per repetition of test k: this run's own, else the store's,
 * else this run's mean over every test; -1 unknown. */
double runner_per_rep(const struct run_clock *rc, const struct tstate *ts, int k)
{
	if (ts && ts->rep_mean > 0)
		return ts->rep_mean;
	if (rc->stored && rc->stored[k] > 0)
		return rc->stored[k];
	return rc->reps ? rc->rep_sum / rc->reps : -1;
}

/* The most runs any target of the test has that has not failed. */
int runner_most_runs(const struct tstate *ts, int ntargets)
{
	int most = 0;

	for (int i = 0; i < ntargets; i++)
		if (!ts->cells[i].failed && ts->cells[i].runs > most)
			most = ts->cells[i].runs;
	return most;
}

/* Runs still planned for test k on each target: the fixed count, else the
 * minimum, else as many as the spread so far says the target precision
 * needs (capped at the limit). */
static int planned_runs(const struct tstate *ts, int ntargets)
{
	int need;

	if (ts->fixed)
		return ts->fixed;
	runner_widest(ts, ntargets, &need);
	int most = runner_most_runs(ts, ntargets);
	int p = need > 0 ? most + need : most;
	if (p < ts->minimum)
		p = ts->minimum;
	return p > ts->limit ? ts->limit : p;
}

/* Seconds the runs of test k still planned would take: -1 unknown. */
static double eta_test(const struct run_request *rq, const struct run_clock *rc,
		       const struct tstate *ts, int k)
{
	double per = runner_per_rep(rc, ts, k);
	int planned = planned_runs(ts, rq->ntargets), left = 0;

	for (int i = 0; i < rq->ntargets; i++)
		if (!ts->cells[i].failed && ts->cells[i].runs < planned)
			left += planned - ts->cells[i].runs;
	return per > 0 ? left * per : left ? -1 : 0;
}

/* Seconds until the whole run is done, from test k on: -1 unknown. */
static double eta_run(const struct run_request *rq, const struct run_clock *rc,
		      const struct tstate *all, int k)
{
	double total = 0;

	for (int j = k; j < rq->ntests; j++) {
		if (all[j].done)
			continue;
		double e = eta_test(rq, rc, &all[j], j);
		if (e < 0)
			return -1;
		total += e;
	}
	if (rc->budget > 0) {
		double left = rc->budget - ns_to_s(runner_now() - rc->t0);
		if (total > left)
			total = left > 0 ? left : 0;
	}
	return total;
}

/* Seconds the minimum runs of tests k.. still need on every target: what
 * the budget must keep for them.  Unknown costs count as 0. */
double runner_minimum_cost(const struct run_request *rq, const struct run_clock *rc,
			   const struct tstate *all, int k)
{
	double total = 0;

	for (int j = k; j < rq->ntests; j++) {
		double per = runner_per_rep(rc, &all[j], j);
		int want = all[j].fixed ? all[j].fixed : all[j].minimum;
		for (int i = 0; i < rq->ntargets && per > 0; i++)
			if (!all[j].cells[i].failed && all[j].cells[i].runs < want)
				total += (want - all[j].cells[i].runs) * per;
	}
	return total;
}

void runner_rep_event(const struct run_request *rq, const struct runner_events *ev,
		      const struct run_clock *rc, const struct tstate *all, int k, int i, int rep)
{
	const struct tstate *ts = &all[k];
	int need;

	if (!ev || !ev->rep_started)
		return;
	double w = runner_widest(ts, rq->ntargets, &need);
	double et = eta_test(rq, rc, ts, k), rest = eta_run(rq, rc, all, k);
	struct rep_info ri = { rq->tests[k].name, rq->targets[i].label, k + 1, rq->ntests, i + 1,
			       rq->ntargets, rep, rep ? planned_runs(ts, rq->ntargets) : 0, et,
			       rest, isfinite(w) && !ts->verdicts ? w : -1, ts->precision,
			       ts->fixed ? -1 : need };
	ev->rep_started(ev->arg, &ri);
}

/* What a test may spend past its minimum even when the budget is spent:
 * a twentieth of the budget shared by all tests.  A test whose runs cost
 * next to nothing (IOR's 0.1 s, LevelDB's 1 s) then still reaches its
 * target after a slow one used the budget up, and the run overshoots the
 * budget by 5% at most. */
double runner_budget_floor(const struct run_request *rq, const struct run_clock *clock)
{
	return clock->budget / 20 / (rq->ntests > 0 ? rq->ntests : 1);
}

/* Whether, by its spread so far, test ts would need more than twice the
 * `left` seconds, or more runs than its limit, to meet its target.  Then
 * its first pass stops at its minimum: the time goes to tests that can
 * meet theirs, and the test comes back in a later pass if any is left.
 * Twice, because a spread judged from three runs may be off by a factor
 * of two either way.  Under the verdict rule the target is the nearest
 * decision: the test goes on while some open pair is within reach and
 * its rounds fit, though the others would not. */
int runner_out_of_reach(const struct tstate *ts, int ntargets, double per, double left)
{
	int need;

	if (!(ts->precision > 0) && !ts->verdicts)
		return 0;
	if (ts->verdicts) {	/* the nearest decision within reach, and its cost */
		int pairs, open, nearest;
		if (runner_verdict_need(ts, ntargets, &pairs, &open, &nearest) <= 0)
			return !!open;
		return per > 0 && (double)nearest * per * ts->active > 2 * (left > 0 ? left : 0);
	}
	runner_widest(ts, ntargets, &need);
	if (need <= 0)
		return 0;
	/* so wide that even the count limit would not get there */
	if (runner_most_runs(ts, ntargets) + need >= ts->limit)
		return 1;
	return per > 0 && (double)need * per * ts->active > 2 * (left > 0 ? left : 0);
}

/* A fresh order for a round (Fisher-Yates): a target that always ran
 * first, with the caches and the device warm or cold in its favour, would
 * carry that into every ratio.  Drawn from the test and the round alone
 * (splitmix64), so that every rank of an MPI job runs the same order: its
 * ranks meet in each run's collective calls. */
void runner_shuffle(int *order, int n, int test, int round)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(test + 1) + (uint64_t)round;

	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		uint64_t z = splitmix64(&x);
		int j = (int)(z % (uint64_t)(i + 1));
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

