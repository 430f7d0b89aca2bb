/* test_runner.c: how many runs the runner makes: the precision target,
 * full rounds across targets, a suite's minimum, --runs, --max-runs and
 * the time budget (a second pass for a test that missed its target); and
 * with the verdicts as the rule, rounds until the pair is decided. */
#include "testutil.h"
#include "core/error.h"
#include "core/stats.h"
#include "core/timing.h"
#include "report/report.h"
#include "runner/runner.h"

#include <math.h>
#include <stddef.h>

/* A workload whose values are scripted: `shape` 0 gives 100 every run,
 * 1 alternates 100 and 130 (within 3% only after about 80 runs), 2 gives
 * 100 +- 1% (within 3% after a few runs), 3 no figure at all (bonnie's
 * +++++), 4 gives b twice a's (+-1%), 5 alternates on both (equal, but
 * too spread for +-3%), 6 a near-tie out of reach beside a pair within
 * it (three targets: a 100 +-2%, b swinging 77/130 about it, c 1.1x a
 * +-4%); `sleep_ms` per run lets that much time pass on the runner's
 * clock, which these tests keep themselves (runner_set_clock): each run
 * costs 1 ms and its sleep, whatever the machine's load, so what a budget
 * decides is the same every time. */
struct fake_params {
	int64_t shape, sleep_ms;
};

static const struct param_def fake_defs[] = {
	{ "shape", PT_INT, offsetof(struct fake_params, shape), "0", 0, 6, NULL, "", 0 },
	{ "sleep_ms", PT_INT, offsetof(struct fake_params, sleep_ms), "0", 0, 1000, NULL, "", 0 },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL, 0 },
};

static const struct metric_def fake_metrics[] = {
	{ "value", "ops/s", HIGHER_IS_BETTER, "Value", 1 },
};

static int prepares;
static int calls[3];
static int nfake_targets = 2;	/* 3: a target c too */
static int suite_warmup;	/* a suite's warmup = for every test run() makes */
static int first_sleep_ms = -1;	/* >= 0: test 0 sleeps this long instead */
static uint64_t vclock = 1;	/* the runner's clock, in ns */

static uint64_t vnow(void)
{
	return vclock;
}

static int fake_prepare(struct wl_ctx *ctx)
{
	(void)ctx;
	prepares++;
	return 0;
}

static int fake_run(struct wl_ctx *ctx, double *values)
{
	const struct fake_params *p = ctx->params;
	int which = strstr(ctx->dir, "/b/") ? 1 : strstr(ctx->dir, "/c/") ? 2 : 0;
	int n = calls[which]++;

	vclock += (uint64_t)(p->sleep_ms + 1) * 1000000;
	values[0] = p->shape == 0 ? 100 : p->shape == 1 ? (n % 2 ? 130 : 100)
		  : p->shape == 2 ? 100 + ((n % 3) - 1)
		  : p->shape == 4 ? (which ? 200 : 100) + ((n % 3) - 1)	/* b twice a */
		  : p->shape == 5 ? ((n + which) % 2 ? 130 : 100)	/* a tie, 30% apart by round */
		  : p->shape == 6 ? (which == 0 ? 100 + 2 * ((n % 3) - 1)
				     : which == 1 ? (n % 2 ? 130 : 77)
				     : 110 * (1 + 0.04 * ((n % 3) - 1)))
		  : NAN;
	return 0;
}

static const struct workload fake = {
	.name = "fake", .summary = "", .title = "Fake", .params = fake_defs,
	.params_size = sizeof(struct fake_params), .metrics = fake_metrics, .nmetrics = 1,
	.prepare = fake_prepare, .run = fake_run,
};

/* The same, sampling a space (powercut's crash points): exactly the
 * runs asked for. */
static const struct workload fake_fixed = {
	.name = "fake", .summary = "", .title = "Fake", .params = fake_defs,
	.params_size = sizeof(struct fake_params), .metrics = fake_metrics, .nmetrics = 1,
	.flags = WL_FIXED_RUNS, .prepare = fake_prepare, .run = fake_run,
};
static const struct workload *fake_wl = &fake;

static char dir[256], dbpath[300];

/* Each pass's repetitions (all targets), in the order the passes ran. */
static struct { int test, runs, pairs; } passes[16];
static int npasses;

static void on_test_done(void *arg, int64_t run_id, int k, int ntargets,
			 const struct test_outcome *out)
{
	(void)arg, (void)run_id, (void)ntargets;
	if (npasses < 16)
		passes[npasses++] = (typeof(passes[0])){ k, out->runs, out->pairs };
}

static const struct runner_events events = { .test_done = on_test_done };

/* The targets and the store on a tmpfs of the group's own (root): a
 * budget test's cheap runs each commit a sample, and on the disk a
 * concurrent sync made one commit outlast a 50 ms floor (test_budget_floor
 * failed once so under the stress background). */
static int setup(void **state)
{
	char sub[300];
	runner_set_clock(vnow);
	setup_ram_dir(state);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/b", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/c", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(dbpath, sizeof(dbpath), "%s/r.db", dir);
	return 0;
}

static int teardown(void **state)
{
	runner_set_clock(NULL);
	return teardown_dir(state);	/* the tmpfs unmounted, the directory removed */
}

/* Targets a and b taking turns on one medium (one user's device, issue
 * 70): each refresh "makes its filesystem" there, which must find the
 * medium given back by the one before (parked); what happened is kept. */
static int share_medium;
static int medium_holder = -1, refreshes[2], overlaps;
static struct target_ops turn_ops[2];
static char turn_order[64];

static int turn_refresh(struct target *t)
{
	int i = t->ops == &turn_ops[1];

	if (medium_holder >= 0 && medium_holder != i)
		overlaps++;	/* the other's filesystem is still on it */
	medium_holder = i;
	refreshes[i]++;
	size_t n = strlen(turn_order);
	if (n + 1 < sizeof(turn_order))
		turn_order[n] = (char)('a' + i);
	return 0;
}

static void turn_park(struct target *t)
{
	if (medium_holder == (t->ops == &turn_ops[1]))
		medium_holder = -1;
}

static void take_turns_on_one_medium(struct target *t)
{
	static const int medium = 1;

	medium_holder = -1;
	memset(refreshes, 0, sizeof(refreshes));
	overlaps = 0;
	turn_order[0] = '\0';
	for (int i = 0; i < 2; i++) {
		turn_ops[i] = *t[i].ops;
		turn_ops[i].refresh = turn_refresh;
		turn_ops[i].park = turn_park;
		t[i].ops = &turn_ops[i];
		t[i].shares = &medium;
	}
}

/* Run tests of the fake workload (shape, sleep per test; runs = per
 * test, the suite's) on targets a and b; the result, loaded. */
static struct result *run(const int *shape, const int *runs, int ntests, int sleep_ms,
			  const struct runner_opts *opts)
{
	struct target t[3];
	struct test_spec ts[4];
	char arg[300];
	struct store *st;
	int64_t id;
	int interrupted;

	memset(calls, 0, sizeof(calls));
	prepares = 0;
	npasses = 0;
	snprintf(arg, sizeof(arg), "a=%s/a", dir);
	assert_int_equal(target_parse(arg, &t[0]), 0);
	snprintf(arg, sizeof(arg), "b=%s/b", dir);
	assert_int_equal(target_parse(arg, &t[1]), 0);
	snprintf(arg, sizeof(arg), "c=%s/c", dir);
	assert_int_equal(target_parse(arg, &t[2]), 0);
	for (int k = 0; k < ntests; k++) {
		struct fake_params p = { shape[k], k == 0 && first_sleep_ms >= 0 ? first_sleep_ms
								 : sleep_ms };
		char name[32];
		snprintf(name, sizeof(name), "fake%d", k);
		assert_int_equal(test_spec_from_params(fake_wl, &p, name, &ts[k]), 0);
		ts[k].runs = runs ? runs[k] : 0;
		ts[k].warmup = suite_warmup;
	}
	if (share_medium)
		take_turns_on_one_medium(t);
	struct run_request rq = { .targets = t, .ntargets = nfake_targets, .tests = ts, .ntests = ntests,
				  .opts = *opts, .cmdline = "test" };
	rq.opts.quiet = 1;
	rq.opts.drop_caches = 0;
	rq.opts.device_stats = 0;
	unlink(dbpath);
	assert_int_equal(store_open(dbpath, &st), 0);
	assert_int_equal(runner_prepare(&rq), 0);
	assert_true(runner_execute(st, &rq, &events, &id, &interrupted) >= 0);
	runner_teardown(&rq);
	struct result *r;
	assert_int_equal(store_load_run(st, id, &r), 0);
	store_close(st);
	for (int k = 0; k < ntests; k++)
		test_spec_free(&ts[k]);
	return r;
}

/* The run's options: the defaults, with a limit and a budget (0: none). */
static struct runner_opts opts(int max_runs, double budget)
{
	struct runner_opts o;

	runner_defaults(&o);
	o.verdicts = 0;	/* the precision rule: what most of these tests are about */
	if (max_runs)
		o.max_runs = max_runs;
	o.time_budget = budget;
	return o;
}

/* What report_missed says of a run (caller frees). */
static char *missed(const struct result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct report_opts ro = { .width = 200 };

	assert_non_null(m);
	report_missed(m, r, &ro);
	fclose(m);
	return text;
}

static int nruns(const struct result *r, int k, int i)
{
	return r->tests[k].cells[i].nsamples;
}

static void test_stats_precision(void **state)
{
	(void)state;
	struct summary s;
	double same[3] = { 5, 5, 5 }, two[2] = { 100, 130 }, one[1] = { 7 };

	stats_summarize(same, 3, &s);
	assert_true(stats_precision(&s) == 0);
	assert_int_equal(stats_runs_needed(&s, 0.03, 20), 3);
	stats_summarize(one, 1, &s);
	assert_true(isnan(stats_precision(&s)));
	assert_int_equal(stats_runs_needed(&s, 0.03, 20), -1);
	/* log scale: sd of log(100), log(130) is 0.1855; t(0.975, 1) = 12.706
	 * -> e^(12.706 * 0.1855 / sqrt 2) - 1 */
	stats_summarize(two, 2, &s);
	assert_float_equal(stats_precision(&s), exp(12.7062 * 0.185516 / sqrt(2)) - 1, 1e-3);
	/* that spread needs 2 + (1.96 * 0.1855 / log 1.03)^2, about 150 runs */
	int need = stats_runs_needed(&s, 0.03, 1000);
	assert_true(need > 140 && need < 160);
	assert_int_equal(stats_runs_needed(&s, 0.03, 20), 20);
}

/* Constant values meet any target at the minimum: 3 runs a target. */
static void test_minimum_when_met(void **state)
{
	(void)state;
	int shape = 0;
	struct runner_opts o = opts(0, 0);
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 3);
	assert_int_equal(nruns(r, 0, 1), 3);
	assert_float_equal(r->tests[0].precision, 0.03, 1e-12);
	result_free(r);
}

/* Noise on one target: rounds go on on both (full rounds) up to the
 * limit, and the report says the target was missed. */
static void test_rounds_to_limit(void **state)
{
	(void)state;
	int shape = 1;
	struct runner_opts o = opts(9, 0);
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 9);
	assert_int_equal(nruns(r, 0, 1), 9);
	char warn[128];
	assert_true(report_warning(&r->tests[0], 0, 0, warn, sizeof(warn), 0));
	assert_non_null(strstr(warn, "missed the +-3% target"));
	char *text = missed(r);	/* the summary names it, with its interval */
	assert_non_null(strstr(text, "! 1 test missed the +-3% target: fake0 (+-"));
	free(text);
	result_free(r);
}

/* Runs that give no figure (bonnie's +++++) stop at the minimum: more
 * runs cannot narrow an interval that does not exist. */
static void test_no_figure(void **state)
{
	(void)state;
	int shape = 3;
	struct runner_opts o = opts(0, 0);
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 3);
	assert_int_equal(nruns(r, 0, 1), 3);
	result_free(r);
}

/* A small spread is met after a few rounds, below the limit. */
static void test_met_after_rounds(void **state)
{
	(void)state;
	int shape = 2;
	struct runner_opts o = opts(0, 0);
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_true(nruns(r, 0, 0) >= 3 && nruns(r, 0, 0) < 20);
	assert_int_equal(nruns(r, 0, 0), nruns(r, 0, 1));
	struct summary s;
	result_summary(&r->tests[0], 0, 0, &s);
	assert_true(stats_precision(&s) <= 0.03);
	char warn[128];
	assert_false(report_warning(&r->tests[0], 0, 0, warn, sizeof(warn), 0));
	char *text = missed(r);
	assert_string_equal(text, "");	/* met: nothing to name */
	free(text);
	result_free(r);
}

/* A suite's runs = is a minimum; --runs is exact. */
static void test_suite_minimum_and_fixed(void **state)
{
	(void)state;
	int shape[2] = { 0, 1 }, runs[2] = { 5, 5 };
	struct runner_opts o = opts(7, 0);
	struct result *r = run(shape, runs, 2, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 5);	/* met: the suite's 5 */
	assert_int_equal(nruns(r, 1, 1), 7);	/* missed: up to the limit */
	result_free(r);
	o.runs = 4;
	r = run(shape, runs, 2, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 4);
	assert_int_equal(nruns(r, 1, 0), 4);
	assert_int_equal(nruns(r, 1, 1), 4);
	result_free(r);
}

/* A workload that samples a space (WL_FIXED_RUNS: powercut) makes the
 * runs asked for and no more: the bug it catches is the stopping rule
 * adding rounds to a test whose runs are not noisy measurements (a noisy
 * or tied primary figure would take either rule to its limit). */
static void test_fixed_runs_workload(void **state)
{
	(void)state;
	int shape[2] = { 1, 5 }, one[2] = { 1, 2 };
	struct runner_opts o = opts(9, 0);
	fake_wl = &fake_fixed;
	struct result *r = run(shape, one, 2, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 1);	/* the suite's runs = 1 */
	assert_int_equal(nruns(r, 0, 1), 1);
	assert_int_equal(nruns(r, 1, 0), 2);
	result_free(r);
	o.verdicts = 1;	/* the verdicts' rule: the tie of shape 5 stays open */
	npasses = 0;
	r = run(shape, NULL, 2, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 3);	/* the minimum, no more */
	assert_int_equal(nruns(r, 1, 1), 3);
	/* and no pair to decide: run's live line said "1 of 1 pair
	 * undecided" under every power-cut test, which has no verdicts */
	assert_true(npasses > 0);
	for (int i = 0; i < npasses; i++)
		assert_int_equal(passes[i].pairs, 0);
	result_free(r);
	fake_wl = &fake;	/* also by reset_wl when an assertion above fails */
	r = run(shape, NULL, 2, 0, &o);	/* the same without the flag runs on */
	assert_true(nruns(r, 1, 1) > 3);
	result_free(r);
}

static int reset_wl(void **state)
{
	(void)state;
	fake_wl = &fake;
	return 0;
}

/* A suite's warmup = runs first on every target, and is not a sample. */
static void test_suite_warmup(void **state)
{
	(void)state;
	int shape = 0;
	struct runner_opts o = opts(0, 0);
	suite_warmup = 1;
	struct result *r = run(&shape, NULL, 1, 0, &o);
	suite_warmup = 0;
	assert_int_equal(nruns(r, 0, 0), 3);
	assert_int_equal(calls[0], 4);
	assert_int_equal(calls[1], 4);
	result_free(r);
}

/* A time budget stops a test that cannot meet its target well before its
 * limit, never below its minimum; what the quiet test leaves goes to the
 * noisy one in a second pass, set up again. */
static void test_time_budget(void **state)
{
	(void)state;
	int shape[2] = { 1, 0 };
	struct runner_opts o = opts(1000, 3.0);
	uint64_t t0 = vclock;
	struct result *r = run(shape, NULL, 2, 10, &o);
	double took = ns_to_s(vclock - t0);
	assert_true(nruns(r, 0, 0) >= 3 && nruns(r, 0, 0) < 300);
	assert_int_equal(nruns(r, 0, 0), nruns(r, 0, 1));
	assert_int_equal(nruns(r, 1, 0), 3);
	/* prepared: test 0 twice (a second pass), test 1 once, on 2 targets */
	assert_int_equal(prepares, 6);
	/* the budget, plus at most a round's overrun per pass (a round: two
	 * runs of 11 ms on the runner's clock) */
	print_message("# took %.3f s of the 3 s budget, %d runs of test 0\n", took, nruns(r, 0, 0));
	assert_true(took <= 3.0 + 2 * 0.022 + 1e-9);
	result_free(r);
}

/* A slow test that spends the whole budget on its minimum leaves a cheap
 * one its floor (a twentieth of the budget over the tests): more than its
 * minimum. */
static void test_budget_floor(void **state)
{
	(void)state;
	int shape[2] = { 1, 1 };
	struct runner_opts o = opts(0, 2.0);
	first_sleep_ms = 350;	/* 6 runs: 2.1 s, the budget and more */
	struct result *r = run(shape, NULL, 2, 0, &o);
	first_sleep_ms = -1;
	assert_int_equal(nruns(r, 0, 0), 3);
	print_message("# test 1 on its floor: %d runs\n", nruns(r, 1, 0));
	assert_true(nruns(r, 1, 0) > 3);
	result_free(r);
}

/* Under a time budget the count cap gives way to the budget: a cheap test
 * whose spread needs about 80 runs for +-3% gets them and meets its
 * target, where without a budget it stops at 20 and misses it; the user's
 * --max-runs still wins, and a test it puts out of reach leaves its first
 * pass at the minimum. */
static void test_budget_over_count(void **state)
{
	(void)state;
	int shape = 1;
	char warn[128];
	/* a round costs its store writes, ~20 ms: 80 of them well inside */
	struct runner_opts o = opts(0, 10.0);
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_true(nruns(r, 0, 0) > RUNNER_DEFAULT_RUNS);
	assert_true(nruns(r, 0, 0) < RUNNER_BUDGET_RUNS);
	assert_int_equal(nruns(r, 0, 0), nruns(r, 0, 1));
	assert_false(report_warning(&r->tests[0], 0, 0, warn, sizeof(warn), 0));
	result_free(r);
	o = opts(12, 10.0);
	r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 12);
	/* 80 runs needed, 12 allowed: the first pass stops at the minimum
	 * (out of reach), the time left brings it to its limit later */
	assert_int_equal(passes[0].runs, 6);
	result_free(r);
	o = opts(0, 0);	/* no budget: the default cap */
	r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), RUNNER_DEFAULT_RUNS);
	assert_true(report_warning(&r->tests[0], 0, 0, warn, sizeof(warn), 0));
	result_free(r);
}

/* A test whose spread says it needs far more than its share (about 80
 * runs of 0.1 s on each target, against a share under 2 s) stops its
 * first pass at its minimum; the quiet test after it still runs, and what
 * is left comes back to the first in a second pass. */
static void test_out_of_reach_deferred(void **state)
{
	(void)state;
	int shape[2] = { 1, 0 };
	struct runner_opts o = opts(0, 4.0);
	first_sleep_ms = 100;
	struct result *r = run(shape, NULL, 2, 0, &o);
	first_sleep_ms = -1;
	assert_true(npasses >= 3);
	assert_int_equal(passes[0].test, 0);
	assert_int_equal(passes[0].runs, 6);	/* 3 on each of 2 targets */
	assert_int_equal(passes[1].test, 1);
	assert_int_equal(passes[2].test, 0);	/* the time left, back to it */
	assert_true(nruns(r, 0, 0) > 3);
	assert_int_equal(nruns(r, 1, 0), 3);
	result_free(r);
}

/* The verdicts as the rule (two targets, no --precision): a pair 2x apart
 * is decided at the first look, round 3; equal constant figures are
 * equivalent there too; a near-tie too spread for the margin goes to the
 * limit and is reported undecided.  The rule the runs stopped by is
 * stored (margin, looks) and no precision target with it.  The bug each
 * catches: precision still the rule, or a look off the schedule. */
static void test_verdicts_rule(void **state)
{
	(void)state;
	struct runner_opts o;
	struct report_verdict v[4];
	char text[512];
	int shape;

	runner_defaults(&o);
	shape = 4;
	struct result *r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 3);
	assert_int_equal(nruns(r, 0, 1), 3);
	assert_true(r->tests[0].precision == 0 && r->tests[0].looks == 9);
	assert_float_equal(r->tests[0].margin, 0.03, 1e-12);
	assert_int_equal(report_verdicts(r, &r->tests[0], 0, v, 4), 1);
	report_verdict_text(r, &v[0], text, sizeof(text));
	print_message("# %s\n", text);
	assert_non_null(strstr(text, "b 2.00x faster than a (95% "));
	result_free(r);

	shape = 0;
	r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 3);
	assert_int_equal(report_verdicts(r, &r->tests[0], 0, v, 4), 1);
	report_verdict_text(r, &v[0], text, sizeof(text));
	assert_non_null(strstr(text, " = "));
	assert_non_null(strstr(text, "within +-3%"));
	result_free(r);

	shape = 5;
	o.max_runs = 8;	/* looks at 3, 4, 5, 6 and 8 */
	r = run(&shape, NULL, 1, 0, &o);
	assert_int_equal(nruns(r, 0, 0), 8);
	assert_int_equal(nruns(r, 0, 1), 8);
	assert_int_equal(r->tests[0].looks, 5);
	assert_int_equal(report_verdicts(r, &r->tests[0], 0, v, 4), 1);
	report_verdict_text(r, &v[0], text, sizeof(text));
	print_message("# %s\n", text);
	assert_true(text[0] == '!' && strstr(text, "undecided after 8 rounds"));
	/* and no cell carries a precision warning: the verdict says it */
	char warn[128];
	assert_false(report_warning(&r->tests[0], 0, 0, warn, sizeof(warn), 0));
	result_free(r);
}

/* Under a time budget, a near-tie no look could decide (a vs b) does not
 * stop the rounds that settle a pair within reach beside it (c 1.1x a):
 * the first pass goes on past the minimum until c vs a is decided.  The
 * bug it catches: one hopeless pair sending the whole test to its minimum,
 * as when a make run's ext4 vs xfs near-tie left its 1.3x pairs open. */
/* Two targets on one medium (--device DEV --fs A,B): each repetition on a
 * filesystem made afresh, the medium given back after it, never two on it
 * at once, the rounds interleaved (a b, b a, ... in the shuffled order),
 * the workload prepared for each repetition.  Catches the refusal of
 * before ("one filesystem at a time") coming back as runs in blocks, or a
 * filesystem made over another that is still mounted. */
static void test_targets_take_turns(void **state)
{
	(void)state;
	struct runner_opts o = opts(0, 0);
	o.runs = 4;
	int shape[] = { 0, 0 };

	share_medium = 1;
	struct result *r = run(shape, NULL, 2, 0, &o);
	share_medium = 0;
	assert_int_equal(overlaps, 0);
	assert_int_equal(nruns(r, 0, 0), 4);
	assert_int_equal(nruns(r, 1, 1), 4);
	/* a fresh filesystem for each of the 16 repetitions, made in turn */
	assert_int_equal(refreshes[0] + refreshes[1], 16);
	assert_int_equal(prepares, 16);
	for (int k = 0; k < 16; k += 2)	/* each round: both, in either order */
		assert_true(turn_order[k] != turn_order[k + 1]);
	result_free(r);
}

static void test_verdicts_hopeless_pair(void **state)
{
	(void)state;
	int shape[2] = { 6, 0 };
	struct runner_opts o;
	struct report_verdict v[8];
	char text[512];

	runner_defaults(&o);
	o.time_budget = 30;	/* far more than the 20 rounds' 20 ms each cost */
	nfake_targets = 3;
	struct result *r = run(shape, NULL, 2, 1, &o);
	nfake_targets = 2;
	assert_true(npasses >= 2);
	assert_int_equal(passes[0].test, 0);
	print_message("# first pass of test 0: %d runs\n", passes[0].runs);
	assert_true(passes[0].runs > 3 * 3);	/* more than the minimum rounds */
	int n = report_verdicts(r, &r->tests[0], 0, v, 8), ca = 0;
	for (int q = 0; q < n; q++) {
		report_verdict_text(r, &v[q], text, sizeof(text));
		print_message("# %s\n", text);
		if ((v[q].a == 2 && v[q].b == 0) || (v[q].a == 0 && v[q].b == 2))
			ca = v[q].v.kind == (v[q].a == 2 ? VERDICT_GREATER : VERDICT_SMALLER);
	}
	assert_true(ca);	/* c faster than a, decided */
	result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_precision),
		cmocka_unit_test(test_verdicts_rule),
		cmocka_unit_test(test_minimum_when_met),
		cmocka_unit_test(test_rounds_to_limit),
		cmocka_unit_test(test_met_after_rounds),
		cmocka_unit_test(test_no_figure),
		cmocka_unit_test(test_suite_minimum_and_fixed),
		cmocka_unit_test_teardown(test_fixed_runs_workload, reset_wl),
		cmocka_unit_test(test_suite_warmup),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_budget_floor),
		cmocka_unit_test(test_budget_over_count),
		cmocka_unit_test(test_out_of_reach_deferred),
		cmocka_unit_test(test_verdicts_hopeless_pair),
		cmocka_unit_test(test_targets_take_turns),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
