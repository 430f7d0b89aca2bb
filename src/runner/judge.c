/*
 * judge.c: when a test is done.  With two targets or more (and no
 * --precision), when every pair that matters is decided by the sequential
 * rule of core/verdict.h, looked at only at its scheduled rounds; with one
 * target (or --precision), when every target's 95% interval is within the
 * precision; at most at the count limit.  See runner.h and docs/results.md
 * ("How many runs").
 */
#include "runner_internal.h"
#include "../core/stats.h"

#include <math.h>
#include <stdbool.h>

/* The widest interval among the targets (stats_precision), NAN when a
 * target has fewer than 2 runs; *need: runs each target still needs for
 * the target precision (0 when met, -1 unknown). */
double runner_widest(const struct tstate *ts, int ntargets, int *need)
{
	double w = 0;
	int any = 0;

	*need = 0;
	if (ts->verdicts) {	/* rounds until the open pairs are decided */
		int pairs, open, nearest;
		*need = runner_verdict_need(ts, ntargets, &pairs, &open, &nearest);
		if (*need < 0)
			*need = ts->limit;	/* past the limit: out of reach */
	}
	for (int i = 0; i < ntargets; i++) {
		const struct cell *c = &ts->cells[i];
		struct summary s;
		/* a target whose runs give no figure has nothing to judge */
		if (c->failed || (c->n < 2 && c->runs >= ts->minimum))
			continue;
		any = 1;
		stats_summarize(c->primary, c->n, &s);
		double p = stats_precision(&s);
		if (!isfinite(p)) {
			*need = -1;
			return NAN;
		}
		w = p > w ? p : w;
		if (!ts->verdicts && ts->precision > 0 && *need >= 0) {
			int n = stats_runs_needed(&s, ts->precision, ts->limit);
			if (n - c->n > *need)
				*need = n - c->n;
		}
	}
	return any ? w : NAN;
}

/* Whether cells i and j ran round by round alike, every run giving a
 * figure, so that c->primary[r] of both is round r's. */
static bool same_rounds(const struct cell *a, const struct cell *b)
{
	return a->n == a->runs && b->n == b->runs && a->runs == b->runs;
}

/* The geometric mean of a cell's figures in "better" terms, for the
 * ranking: NAN without any. */
static double rank_value(const struct cell *c, int direction)
{
	double s = 0;

	for (int r = 0; r < c->n; r++) {
		if (!(c->primary[r] > 0))
			return NAN;
		s += log(c->primary[r]);
	}
	return c->n ? direction * s / c->n : NAN;
}

/* The pairs that matter (verdict_pairs) by the ranking so far. */
static int pairs_that_matter(const struct tstate *ts, int ntargets, int (*pairs)[2])
{
	double score[RUNNER_MAX_TARGETS];
	int k = ntargets < RUNNER_MAX_TARGETS ? ntargets : RUNNER_MAX_TARGETS;

	for (int i = 0; i < k; i++)
		score[i] = ts->cells[i].failed ? NAN : rank_value(&ts->cells[i], ts->direction);
	return verdict_pairs(score, k, ts->base, ts->ref, pairs);
}

/* The verdict rule's view: how many pairs that matter are still open, and
 * the rounds the hardest of those within reach would need (0: none is
 * open; -1: some are, and no look up to the limit would decide any at the
 * spread seen); *nearest: the rounds the nearest would need.  A pair out
 * of reach is left undecided without holding back the others: one
 * near-tie must not stop the rounds that settle a 1.3x beside it. */
int runner_verdict_need(const struct tstate *ts, int ntargets, int *pairs, int *open,
			int *nearest)
{
	int pr[VERDICT_MAX_PAIRS(RUNNER_MAX_TARGETS)][2], n = pairs_that_matter(ts, ntargets, pr), need = 0;
	int reachable = 0;

	*pairs = n;
	*open = 0;
	*nearest = 0;
	for (int q = 0; q < n; q++) {
		const struct cell *a = &ts->cells[pr[q][0]], *b = &ts->cells[pr[q][1]];
		int r = verdict_rounds_needed(a->primary, a->n, b->primary, b->n, same_rounds(a, b),
					      &ts->rule, ts->limit);
		if (!r)
			continue;
		(*open)++;
		if (r < 0)
			continue;
		reachable++;
		need = r > need ? r : need;
		*nearest = !*nearest || r < *nearest ? r : *nearest;
	}
	return *open && !reachable ? -1 : need;
}

/* Rounds every target still running has done (the limit when none is). */
int runner_full_rounds(const struct tstate *ts, int ntargets)
{
	int rounds = ts->limit;

	for (int i = 0; i < ntargets; i++)
		if (!ts->cells[i].failed && ts->cells[i].runs < rounds)
			rounds = ts->cells[i].runs;
	return rounds;
}

/* Decide, between full rounds, whether the test needs another: sets done
 * and met.  A round gives every target a run, so the interval is judged
 * on equal footing (see docs/results.md, "How many runs"). */
void runner_judge(struct tstate *ts, int ntargets)
{
	int active = 0, below_min = 0, at_limit = 1, need;

	for (int i = 0; i < ntargets; i++) {
		const struct cell *c = &ts->cells[i];
		if (c->failed)
			continue;
		active++;
		below_min |= c->runs < (ts->fixed ? ts->fixed : ts->minimum);
		at_limit &= c->runs >= ts->limit;
	}
	ts->met = 0;
	ts->active = active;
	ts->below_min = below_min;
	if (!active) {
		ts->done = 1;
		return;
	}
	if (ts->verdicts) {
		/* judged at the schedule's rounds only: what the error split
		 * pays for (core/verdict.h) */
		int rounds = runner_full_rounds(ts, ntargets), nearest;
		runner_verdict_need(ts, ntargets, &ts->pairs, &ts->undecided, &nearest);
		ts->met = ts->pairs > 0 && !ts->undecided;
		if (ts->fixed)
			ts->done = !below_min;
		else
			ts->done = !below_min && (at_limit || active < 2 ||
						  (ts->met && verdict_is_look(rounds, ts->limit)));
		return;
	}
	double w = runner_widest(ts, ntargets, &need);
	/* no target with a figure to judge: nothing more runs can improve */
	ts->met = ts->precision > 0 && (isfinite(w) ? w <= ts->precision : !below_min);
	if (ts->fixed)
		ts->done = !below_min;
	else
		ts->done = !below_min && (ts->met || at_limit);
}

