/* runner.c: repetitions, caches, CPU accounting, storage (see runner.h). */
#define _GNU_SOURCE
#include "runner_internal.h"
#include "../core/version.h"
#include "../core/cache.h"
#include "../core/cpu.h"
#include "../core/error.h"
#include "../core/testhook.h"
#include "../core/verdict.h"
#include "../core/sysinfo.h"
#include "../core/timing.h"
#include "../targets/profiles.h"
#include "../targets/state.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void runner_defaults(struct runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_runs = 3;
	o->precision = 0.03;
	o->verdicts = 1;
	o->margin = 0.03;
	o->drop_caches = 1;
	o->device_stats = 1;
}

int runner_max_runs(const struct runner_opts *o)
{
	if (o->max_runs > 0)
		return o->max_runs;
	return o->time_budget > 0 ? RUNNER_BUDGET_RUNS : RUNNER_DEFAULT_RUNS;
}

int runner_min_runs(const struct runner_opts *o, const struct test_spec *ts)
{
	int m = o->min_runs > ts->runs ? o->min_runs : ts->runs, cap = runner_max_runs(o);

	return m > cap ? cap : m;	/* --max-runs 2: the user's word wins */
}

/* The room a test may occupy at once on a target: its space_needed,
 * but none on flash for a test with a device of its own (powercut puts
 * its images in a block target's scratch, and on flash uses its own
 * partition). */
static uint64_t space_on(const struct test_spec *ts, const struct target *t)
{
	const struct fs_spec *s = target_fs_spec(t);

	if ((ts->wl->flags & WL_DEVICE_MAPPER) && s &&
	    fs_kind_flash(s->profile->kind))
		return 0;
	/* a raw target's room is its device, which the job checks itself
	 * against its region (its threads share it: no file each) */
	if (target_raw_device(t, NULL))
		return 0;
	return ts->wl->space_needed ? ts->wl->space_needed(ts->params) : 0;
}

/* Targets that take turns on one medium (one user's device, --device):
 * only one filesystem can be on it at a time. */
static int take_turns(const struct run_request *rq)
{
	for (int i = 0; i < rq->ntargets; i++)
		for (int j = 0; j < i; j++)
			if (rq->targets[i].shares && rq->targets[i].shares == rq->targets[j].shares)
				return 1;
	return 0;
}

int runner_prepare(struct run_request *rq)
{
	int i, rc = -1;

	for (i = 0; i < rq->ntargets; i++) {
		struct target *t = &rq->targets[i];
		for (int j = 0; j < i; j++)
			if (!strcmp(rq->targets[j].label, t->label)) {
				error_set("two targets are labelled '%s': name them with --target LABEL=DIR",
					  t->label);
				goto fail;
			}
		if (t->ops->setup(t)) {
			/* A directory that is not there is the user's input; a
			 * filesystem that could not be made is a failure. */
			rc = strcmp(t->ops->kind, "dir") ? -2 : -1;
			goto fail;
		}
		const char *raw = target_raw_device(t, NULL);
		if (raw ? fsinfo_device(raw, &t->info) : fsinfo_collect("", t->path, &t->info))
			snprintf(t->info.fstype, sizeof(t->info.fstype), "unknown");
		/* every test fits, checked while the filesystem is there */
		for (int k = 0; k < rq->ntests; k++) {
			const struct test_spec *ts = &rq->tests[k];
			uint64_t need = space_on(ts, t), have;
			if (!need)
				continue;
			if (free_space(t->path, &have)) {
				i++;
				goto fail;
			}
			if (have < need) {
				error_set("target '%s': %s needs %llu MiB but %s has %llu MiB free: free space or shrink the test",
					  t->label, ts->name, (unsigned long long)(need >> 20),
					  t->path, (unsigned long long)(have >> 20));
				i++;
				goto fail;
			}
		}
		/* its turn on a shared medium is over until its first run */
		if (t->shares && t->ops->park && take_turns(rq))
			t->ops->park(t);
	}
	return 0;
fail:
	while (--i >= 0)
		rq->targets[i].ops->teardown(&rq->targets[i]);
	return rc;
}

void runner_teardown(struct run_request *rq)
{
	for (int i = 0; i < rq->ntargets; i++)
		rq->targets[i].ops->teardown(&rq->targets[i]);
}

static const char *cache_policy(const struct runner_opts *o, char *buf, size_t len)
{
	if (!o->drop_caches) {
		snprintf(buf, len, "page cache not dropped between runs (--no-drop-caches); sync only");
	} else if (access("/proc/sys/vm/drop_caches", W_OK)) {
		snprintf(buf, len, "page cache not dropped between runs: %s (run as root to drop it); sync only",
			 strerror(errno));
	} else {
		snprintf(buf, len, "sync and drop page cache before every run");
	}
	return buf;
}

static void data_complete(struct wl_ctx *ctx)
{
	struct cell *c = ctx->runner_priv;

	device_space(&c->probe, c->dir);
}

static int primary_metric(const struct test_spec *ts)
{
	for (int i = 0; i < ts->nmetrics; i++)
		if (ts->wl->metrics[i].primary)
			return i;
	return 0;
}

static void report_failure(const struct runner_events *ev, const char *label, const char *msg)
{
	char line[1400];

	if (!ev || !ev->failure)
		return;
	snprintf(line, sizeof(line), "%s%s%s", label ? label : "", label ? ": " : "", msg);
	ev->failure(ev->arg, line);
}

static void fail_cell(struct store *st, int64_t test_id, int64_t target_id,
		      struct cell *c, const struct runner_events *ev, const char *label)
{
	char msg[1100];

	snprintf(msg, sizeof(msg), "%s", error_get());
	c->failed = 1;
	store_add_failure(st, test_id, target_id, msg);
	report_failure(ev, label, msg);
}

/* Whether the scratch directory lacks the room the test may occupy at
 * once (set as the error). */
static int space_short(const struct test_spec *ts, const struct target *t, const char *dir)
{
	uint64_t need = space_on(ts, t), have;
	const char *path = t->path;

	if (need && !free_space(dir, &have) && have < need)
		return error_set("not enough free space in %s: need %llu MiB, have %llu MiB", path,
				 (unsigned long long)(need >> 20), (unsigned long long)(have >> 20));
	return 0;
}

/* One measured (or warm-up) repetition on one target. */
static int one_run(const struct test_spec *ts, struct target *t, struct cell *c,
		   const struct runner_opts *o, struct r_sample *sm)
{
	struct cpu_snap a, b;
	struct cpu_usage u;

	cache_flush(o->drop_caches);
	test_pause("workload");
	error_clear();
	c->detail[0] = '\0';
	c->series[0] = '\0';
	c->ctx.bytes_written = c->ctx.bytes_read = -1;
	if (o->device_stats)
		device_begin(&c->probe, t->info.blockdev, c->dir, target_medium_counters(t));
	cpu_snapshot(&a);
	int rc = ts->wl->run(&c->ctx, sm->values);
	cpu_snapshot(&b);
	if (!rc && o->device_stats)
		device_end(&c->probe, c->dir, &c->ctx, sm->values + ts->nmetrics);
	cpu_between(&a, &b, &u);
	sm->wall = u.wall;
	sm->cpu_user = u.user;
	sm->cpu_sys = u.sys;
	/* getrusage is tick-sampled too: no figure for a sample this short */
	sm->cpu_pct = u.wall >= 0.1 ? u.cpu_pct : NAN;
	sm->machine_cpu_pct = u.machine_pct;
	sm->detail = c->detail;
	sm->series = c->series;
	return rc;
}

static void store_test_row(const struct test_spec *ts, struct r_test *row,
			   struct r_metric *metrics)
{
	memset(row, 0, sizeof(*row));
	row->name = (char *)ts->name;
	row->workload = (char *)ts->wl->name;
	row->params = (char *)ts->params_text;
	row->title = (char *)ts->title;
	row->subtitle = (char *)ts->subtitle;
	row->show = (char *)ts->show;
	row->nmetrics = ts->nmetrics;
	row->ndevice = DM_COUNT;
	row->metrics = metrics;
	for (int i = 0; i < ts->nmetrics + DM_COUNT; i++) {
		int dev = i >= ts->nmetrics;
		const struct metric_def *m = dev ? &device_metrics[i - ts->nmetrics]
						 : &ts->wl->metrics[i];
		metrics[i] = (struct r_metric){ (char *)m->name, (char *)m->unit,
						(char *)m->label, m->direction, m->primary, dev };
	}
}

/* Target i made ready for test k: a fresh filesystem when `fresh`, the
 * test's scratch directory, the workload's prepare.  0, or 1 when the
 * cell failed (said and stored). */
static int cell_enter(struct store *st, struct run_request *rq, struct tstate *tst, int k, int i,
		      const int64_t *target_ids, const struct runner_events *ev, int fresh)
{
	const struct test_spec *ts = &rq->tests[k];
	const struct runner_opts *o = &rq->opts;
	struct cell *c = &tst->cells[i];
	struct target *t = &rq->targets[i];

	c->prepared = 0;
	c->dir[0] = '\0';
	memset(&c->ctx, 0, sizeof(c->ctx));
	c->ctx.params = ts->params;
	c->ctx.dir = c->dir;
	c->ctx.fs = target_fs_spec(t);
	c->ctx.label = t->label;
	c->ctx.findings = rq->findings;
	c->ctx.mtd = target_flash_twin(t);
	c->ctx.device = target_raw_device(t, &c->ctx.device_bytes);
	c->ctx.disk = target_raw_disk(t);
	c->ctx.medium_buffer = target_medium_buffer(t);
	c->ctx.guest = rq->vm != NULL;
	c->ctx.detail = c->detail;
	c->ctx.series = c->series;
	c->ctx.data_complete = o->device_stats ? data_complete : NULL;
	c->ctx.runner_priv = c;
	if (fresh && t->ops->refresh && t->ops->refresh(t)) {
		fail_cell(st, tst->id, target_ids[i], c, ev, t->label);
		return 1;
	}
	if (scratch_create(t->path, c->dir, sizeof(c->dir))) {
		c->dir[0] = '\0';
		fail_cell(st, tst->id, target_ids[i], c, ev, t->label);
		return 1;
	}
	/* Checked before prepare: what prepare lays out (fio's files,
	 * appstart's) is part of what space_needed counts. */
	if (space_short(ts, t, c->dir) || (ts->wl->prepare && ts->wl->prepare(&c->ctx))) {
		fail_cell(st, tst->id, target_ids[i], c, ev, t->label);
		return 1;
	}
	c->prepared = 1;
	return 0;
}

/* What cell_enter made undone; `park`: the target gives its medium back. */
static void cell_leave(struct run_request *rq, struct tstate *tst, int k, int i,
		       const struct runner_events *ev, int park)
{
	const struct test_spec *ts = &rq->tests[k];
	struct cell *c = &tst->cells[i];
	struct target *t = &rq->targets[i];

	if (c->prepared && ts->wl->cleanup)
		ts->wl->cleanup(&c->ctx);
	c->prepared = 0;
	if (c->dir[0] && scratch_remove(c->dir))
		report_failure(ev, NULL, error_get());
	c->dir[0] = '\0';
	if (park && t->ops->park)
		t->ops->park(t);
}

/* One repetition (rep 0: a warm-up, not recorded) of test k on target i,
 * which takes its turn on a shared medium around it: a filesystem made
 * afresh for it, given back after.  0, or 1 when it failed. */
static int turn_run(struct store *st, struct run_request *rq, struct tstate *tst, int k, int i,
		    const int64_t *target_ids, const struct runner_events *ev, int turns,
		    struct r_sample *sm)
{
	struct cell *c = &tst->cells[i];
	int rc;

	if (turns && cell_enter(st, rq, tst, k, i, target_ids, ev, 1))
		return 1;
	rc = one_run(&rq->tests[k], &rq->targets[i], c, &rq->opts, sm);
	if (rc && !workload_stopped())
		fail_cell(st, tst->id, target_ids[i], c, ev, rq->targets[i].label);
	if (turns)
		cell_leave(rq, tst, k, i, ev, 1);
	return rc != 0;
}

/* One pass of test k on every target: set up, rounds until the test is
 * done or the rounds past its minimum would overrun `allowance` seconds
 * (< 0: no limit; share_budget: its share of the time budget, decided
 * when the minimum is done), clean up.  Targets that take turns on one
 * medium are set up around each repetition instead, each on a filesystem
 * made afresh.  Returns 1 if it failed anywhere; *runs_done counts the
 * pass's repetitions. */
static int run_pass(struct store *st, struct run_request *rq, struct tstate *all, int k,
		    const int64_t *target_ids, const struct runner_events *ev, int share_budget,
		    double allowance, int *runs_done, struct run_clock *clock)
{
	const struct test_spec *ts = &rq->tests[k];
	struct tstate *tst = &all[k];
	struct cell *cells = tst->cells;
	const struct runner_opts *o = &rq->opts;
	int pm = primary_metric(ts), failed = 0, total_runs = 0, turns = take_turns(rq);
	uint64_t t0 = runner_now();
	double values[MAX_METRICS], extra = 0;	/* seconds in rounds past the minimum */
	int64_t test_id = tst->id;

	*runs_done = 0;
	for (int i = 0; i < rq->ntargets; i++) {
		cells[i].prepared = 0;
		cells[i].dir[0] = '\0';
		/* A fresh filesystem for every test but the first (made by
		 * setup), and for every pass after a test's first. */
		if (!cells[i].failed && !turns)
			cell_enter(st, rq, tst, k, i, target_ids, ev,
				   (k > 0 || tst->passes > 0) && !o->fresh_per_fs);
	}
	tst->passes++;

	/* unrecorded runs: the user's --warmup, or the suite's for this test */
	int warmup = o->warmup > ts->warmup ? o->warmup : ts->warmup;
	for (int w = 0; w < warmup && !workload_stopped(); w++)
		for (int i = 0; i < rq->ntargets && !workload_stopped(); i++) {
			struct r_sample sm = { .values = values };
			if (cells[i].failed)
				continue;
			runner_rep_event(rq, ev, clock, all, k, i, 0);
			turn_run(st, rq, tst, k, i, target_ids, ev, turns, &sm);
		}
	tst->setup = ns_to_s(runner_now() - t0);

	while (!workload_stopped()) {
		runner_judge(tst, rq->ntargets);
		if (tst->done)
			break;
		int active = tst->active, below_min = tst->below_min;
		/* Beyond the minimum, a round starts only when it fits the
		 * allowance: the minimum runs are never cut. */
		double per = runner_per_rep(clock, tst, k);
		/* Pass 1 under a budget: the share is fixed once the minimum is
		 * done, when a repetition's cost is known: an even part of what
		 * the budget leaves after the minimum runs of the tests to come. */
		if (!below_min && share_budget && allowance < 0) {
			double left = clock->budget - ns_to_s(runner_now() - clock->t0);
			double spare = left - runner_minimum_cost(rq, clock, all, k + 1);
			allowance = (spare > 0 ? spare : 0) / (rq->ntests - k);
			if (allowance < runner_budget_floor(rq, clock))
				allowance = runner_budget_floor(rq, clock);
		}
		if (!below_min && allowance >= 0 && extra + (per > 0 ? per * active : 0) > allowance)
			break;
		/* A test on its floor has no share to give: the floor is spent
		 * past the budget, and nothing else would get it. */
		if (!below_min && share_budget && allowance > runner_budget_floor(rq, clock) &&
		    runner_out_of_reach(tst, rq->ntargets, per, allowance - extra))
			break;	/* its share goes on to tests that can still make it */
		uint64_t r0 = runner_now();
		int planned = tst->fixed ? tst->fixed : tst->limit;
		runner_shuffle(tst->order, rq->ntargets, k, runner_most_runs(tst, rq->ntargets));
		for (int j = 0; j < rq->ntargets && !workload_stopped(); j++) {
			int i = tst->order[j];
			struct cell *c = &cells[i];
			if (c->failed || c->runs >= planned)
				continue;
			runner_rep_event(rq, ev, clock, all, k, i, c->runs + 1);
			uint64_t q0 = runner_now();
			struct r_sample sm = { .rep = c->runs + 1, .values = values };
			for (int m = 0; m < MAX_METRICS; m++)
				values[m] = NAN;
			if (turn_run(st, rq, tst, k, i, target_ids, ev, turns, &sm))
				continue;
			if (workload_stopped())
				break;	/* a cut-short run is not a sample */
			c->runs++;
			if (isfinite(values[pm]))
				c->primary[c->n++] = values[pm];
			total_runs++;
			test_pause("store");
			if (store_add_sample(st, test_id, target_ids[i], &sm, ts->nmetrics + DM_COUNT)) {
				fail_cell(st, test_id, target_ids[i], c, ev, rq->targets[i].label);
				failed = 1;
			}
			/* What a repetition costs the budget: the workload and what
			 * surrounds it (sync, cache drop, device counters, the
			 * store), as a moving mean where the last runs count most.
			 * IOR's 5 ms runs cost a second each. */
			double cost = ns_to_s(runner_now() - q0);
			tst->rep_mean = tst->rep_mean > 0 ? tst->rep_mean + (cost - tst->rep_mean) /
					(c->runs > 8 ? 8 : c->runs) : cost;
			clock->rep_sum += cost;
			clock->reps++;
		}
		if (!below_min)
			extra += ns_to_s(runner_now() - r0);
	}

	for (int i = 0; i < rq->ntargets; i++) {
		cell_leave(rq, tst, k, i, ev, 0);
		failed |= cells[i].failed;
	}
	tst->spent += ns_to_s(runner_now() - t0);
	*runs_done = total_runs;
	return failed;
}

/* A test's limits from the options and its suite entry; its samples from
 * an interrupted run (--resume) count. */
static int tstate_init(struct tstate *t, const struct run_request *rq, int k,
		       const struct r_test *prior)
{
	const struct test_spec *ts = &rq->tests[k];
	const struct runner_opts *o = &rq->opts;
	int pm = primary_metric(ts), cap = runner_max_runs(o);

	memset(t, 0, sizeof(*t));
	t->rep_mean = -1;
	t->precision = o->precision;
	/* The user's --runs is exact; a suite's runs = is a minimum. */
	t->fixed = o->runs;
	t->minimum = runner_min_runs(o, ts);
	if (!t->fixed && (ts->wl->flags & WL_FIXED_RUNS))
		t->fixed = t->minimum = ts->runs > 0 ? ts->runs : t->minimum;
	t->limit = t->fixed ? t->fixed : cap;
	/* Two targets or more (of a test that measures, not one that samples,
	 * WL_FIXED_RUNS): the verdicts decide, not the precision, and
	 * within 20 rounds unless the user said otherwise, budget or not:
	 * every look of the schedule up to the limit is paid for in every
	 * interval, and a pair still open at 20 is a near-tie the margin and
	 * the budget are better spent elsewhere than on. */
	t->verdicts = o->verdicts && rq->ntargets >= 2 && !(ts->wl->flags & WL_FIXED_RUNS);
	if (t->verdicts && !t->fixed && !o->max_runs && t->limit > RUNNER_DEFAULT_RUNS) {
		t->limit = RUNNER_DEFAULT_RUNS;
		if (t->minimum > t->limit)
			t->minimum = t->limit;
	}
	if (t->verdicts) {
		t->precision = 0;
		t->rule = verdict_rule_for(t->limit, o->margin);
		if (t->fixed)
			t->rule.looks = 1;	/* --runs N: judged once, at N */
		t->direction = ts->wl->metrics[pm].direction > 0 ? 1 : -1;
		t->ref = rq->ref;
		for (int i = 0; rq->baseline && i < rq->ntargets; i++)
			if (!strcmp(rq->targets[i].label, rq->baseline))
				t->base = i;
	}
	t->cells = calloc((size_t)rq->ntargets + 1, sizeof(*t->cells));
	t->order = calloc((size_t)rq->ntargets + 1, sizeof(*t->order));
	if (!t->cells || !t->order)
		return error_set("out of memory");
	for (int i = 0; i < rq->ntargets; i++) {
		struct cell *c = &t->cells[i];
		c->primary = calloc((size_t)t->limit + 1, sizeof(double));
		if (!c->primary)
			return error_set("out of memory");
		if (prior) {
			const struct r_cell *pc = &prior->cells[i];
			for (int n = 0; n < pc->nsamples && c->runs < t->limit; n++) {
				c->runs++;
				if (pm < prior->nmetrics && isfinite(pc->samples[n].values[pm]))
					c->primary[c->n++] = pc->samples[n].values[pm];
			}
			c->failed = pc->failure != NULL;
		}
	}
	runner_judge(t, rq->ntargets);
	return 0;
}

static void tstate_free(struct tstate *t, int ntargets)
{
	for (int i = 0; t->cells && i < ntargets; i++)
		free(t->cells[i].primary);
	free(t->cells);
	free(t->order);
}

/* Run test k for a pass and tell the caller. */
static int pass_and_report(struct store *st, struct run_request *rq, struct tstate *all, int k,
			   int64_t run_id, const int64_t *target_ids, const struct runner_events *ev,
			   int share_budget, double allowance, struct run_clock *clock)
{
	struct tstate *t = &all[k];
	int runs = 0, need, again = t->passes > 0;
	double before = t->spent;
	int f = run_pass(st, rq, all, k, target_ids, ev, share_budget, allowance, &runs, clock);

	runner_judge(t, rq->ntargets);
	if (ev && ev->test_done && !workload_stopped()) {
		double w = runner_widest(t, rq->ntargets, &need);
		int rounds = runner_full_rounds(t, rq->ntargets);
		struct test_outcome out = { runs, t->spent - before, f, again, t->met,
					    isfinite(w) ? w : -1, t->precision, t->fixed != 0,
					    !t->done, t->verdicts ? t->pairs : 0, t->undecided, rounds };
		ev->test_done(ev->arg, run_id, k, rq->ntargets, &out);
	}
	return f;
}

static int record_setup(struct store *st, struct run_request *rq, int64_t run_id,
			int64_t *target_ids)
{
	struct sysinfo si;
	struct sysfield f[12];
	int nf;

	sysinfo_collect("", &si);
	nf = sysinfo_fields(&si, f);
	if (rq->memory_limit)
		f[nf++] = (struct sysfield){ "Memory Limit", rq->memory_limit };
	if (rq->vm)
		f[nf++] = (struct sysfield){ "Virtual Machine", rq->vm };
	/* seed 000's "Disk:" line, for the user's own device: what it is,
	 * its region and its reset (the "Disk" above is where images go) */
	for (int i = 0; i < rq->ntargets && nf < 12; i++)
		if (target_medium(&rq->targets[i])) {
			f[nf++] = (struct sysfield){ "Medium", target_medium(&rq->targets[i]) };
			break;
		}
	for (int i = 0; i < nf; i++)
		if (store_add_sysfield(st, run_id, i, f[i].name, f[i].value))
			return -1;
	for (int i = 0; i < rq->ntargets; i++) {
		struct target *t = &rq->targets[i];
		char note[256];
		device_note(t->ops->kind, t->info.fstype, t->info.blockdev, t->info.mount_source, note,
			    sizeof(note));
		/* a raw target's place is its device, not fsbench's scratch */
		const char *raw = target_raw_device(t, NULL);
		struct r_target row = {
			.label = t->label, .path = raw ? (char *)raw : t->path, .kind = (char *)t->ops->kind,
			.fstype = t->info.fstype, .mount_point = t->info.mount_point,
			.mount_source = t->info.mount_source,
			.mount_opts = t->info.mount_opts, .disk = t->info.disk,
			.scheduler = t->info.scheduler, .spec = t->spec, .mkfs = t->mkfs,
			.blockdev = t->info.blockdev, .blockdev_note = note,
			.aging = (char *)target_aging(t),
		};
		if (store_add_target(st, run_id, i, &row, &target_ids[i]))
			return -1;
	}
	return 0;
}

/* The run goes into the state file while it is 'running', so that when
 * its process dies unseen (SIGKILL, power cut) `fsbench cleanup` marks it
 * abandoned rather than leaving it running for ever.  *where is the key
 * (empty when the store is no file, or could not be recorded: then only
 * the marking is lost, not the run). */
void runner_claim_run(struct store *st, int64_t run_id, char *where)
{
	char id[24];
	struct stat sb;

	where[0] = '\0';
	if (!strcmp(store_file(st), ":memory:") || !realpath(store_file(st), where) ||
	    stat(where, &sb)) {
		where[0] = '\0';
		return;
	}
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	if (state_add(STATE_RUN, where, id, sb.st_dev, sb.st_ino))
		where[0] = '\0';
}

int runner_execute(struct store *st, struct run_request *rq,
		   const struct runner_events *ev, int64_t *run_id, int *interrupted)
{
	char running[PATH_MAX] = "";
	int64_t *target_ids = calloc((size_t)rq->ntargets, sizeof(int64_t));
	char policy[256];
	int failed = 0, rc = 0;

	const struct result *prior = rq->resume;

	*interrupted = 0;
	if (!target_ids)
		return error_set("out of memory"), -1;
	if (prior) {
		/* The same arguments give the same targets and tests; a suite
		 * file edited since would not: refuse rather than mix. */
		if (prior->ntargets != rq->ntargets || prior->ntests > rq->ntests) {
			free(target_ids);
			return error_set("run %lld had %d targets and %d tests, its arguments now give %d and %d: "
					 "it cannot be resumed", (long long)prior->id, prior->ntargets,
					 prior->ntests, rq->ntargets, rq->ntests), -1;
		}
		for (int i = 0; i < rq->ntargets; i++) {
			if (strcmp(prior->targets[i].label, rq->targets[i].label)) {
				free(target_ids);
				return error_set("run %lld: target %d was '%s', now '%s': it cannot be resumed",
						 (long long)prior->id, i + 1, prior->targets[i].label,
						 rq->targets[i].label), -1;
			}
			target_ids[i] = prior->targets[i].id;
		}
		for (int k = 0; k < prior->ntests; k++)
			if (strcmp(prior->tests[k].name, rq->tests[k].name) ||
			    strcmp(prior->tests[k].params, rq->tests[k].params_text)) {
				free(target_ids);
				return error_set("run %lld: test %d was %s (%s), now %s (%s): it cannot be resumed",
						 (long long)prior->id, k + 1, prior->tests[k].name,
						 prior->tests[k].params, rq->tests[k].name,
						 rq->tests[k].params_text), -1;
			}
		*run_id = prior->id;
		if (store_resume_run(st, *run_id)) {
			free(target_ids);
			return -1;
		}
	} else {
		struct run_begin b = { rq->label, rq->note, rq->cmdline, fsbench_version,
				       rq->baseline, rq->argv };
		if (store_begin_run(st, &b, run_id)) {
			free(target_ids);
			return -1;
		}
		if (record_setup(st, rq, *run_id, target_ids)) {
			rc = -1;
			goto out;
		}
	}
	runner_claim_run(st, *run_id, running);
	if (ev && ev->run_started)
		ev->run_started(ev->arg, *run_id, cache_policy(&rq->opts, policy, sizeof(policy)));
	struct run_clock clock = { calloc((size_t)rq->ntests + 1, sizeof(double)), 0, 0, runner_now(),
				   rq->opts.time_budget };
	struct tstate *all = calloc((size_t)rq->ntests + 1, sizeof(*all));
	if (!all || !clock.stored) {
		free(clock.stored);
		free(all);
		rc = error_set("out of memory");
		goto out;
	}
	for (int k = 0; k < rq->ntests; k++) {
		int n = 0;
		clock.stored[k] = -1;
		if (!store_mean_wall(st, rq->tests[k].name, rq->tests[k].params_text,
				     &clock.stored[k], &n) && !n)
			clock.stored[k] = -1;
	}
	for (int k = 0; k < rq->ntests && !rc; k++)
		if (tstate_init(&all[k], rq, k, prior && k < prior->ntests ? &prior->tests[k] : NULL))
			rc = -1;
	/* Pass 1: every test in order, each to its target, its limit or its
	 * share of the budget, so a test that meets its target early leaves
	 * its time to the others. */
	for (int k = 0; k < rq->ntests && !rc && !workload_stopped(); k++) {
		struct r_metric metrics[MAX_METRICS];
		struct r_test row;
		const struct r_test *before = prior && k < prior->ntests ? &prior->tests[k] : NULL;

		store_test_row(&rq->tests[k], &row, metrics);
		row.precision = all[k].precision;	/* 0: the verdicts decide */
		if (all[k].verdicts) {
			row.margin = all[k].rule.margin;
			row.looks = all[k].rule.looks;
		}
		if (before)
			all[k].id = before->id;
		else if (store_add_test(st, *run_id, k, &row, &all[k].id)) {
			rc = -1;
			break;
		}
		if (all[k].done) {	/* resumed, nothing left */
			for (int i = 0; i < rq->ntargets; i++)
				failed |= all[k].cells[i].failed;
			continue;
		}
		failed |= pass_and_report(st, rq, all, k, *run_id, target_ids, ev,
					  clock.budget > 0, -1, &clock);
	}
	/* Pass 2, with a budget: what is left goes to the tests that missed
	 * their target, cheapest to finish first, each an even share. */
	while (rc == 0 && clock.budget > 0 && !workload_stopped()) {
		int best = -1, left_tests = 0;
		double best_cost = 0;
		for (int k = 0; k < rq->ntests; k++) {
			int need;
			if (!all[k].cells || all[k].done)
				continue;
			runner_widest(&all[k], rq->ntargets, &need);
			if (all[k].verdicts) {	/* to its nearest decision */
				int pairs, open, nearest;
				if (runner_verdict_need(&all[k], rq->ntargets, &pairs, &open, &nearest) > 0)
					need = nearest;
			}
			double per = runner_per_rep(&clock, &all[k], k);
			double cost = all[k].setup + (need > 0 ? need : 1) * (per > 0 ? per : 1) *
				      rq->ntargets;
			left_tests++;
			if (best < 0 || cost < best_cost) {
				best = k;
				best_cost = cost;
			}
		}
		double left = clock.budget - ns_to_s(runner_now() - clock.t0);
		if (best < 0)
			break;
		double share = left / left_tests;
		double per = runner_per_rep(&clock, &all[best], best);
		/* The cheapest to finish gets what it needs, and half again (its
		 * estimate rests on few runs), when that fits: one test brought to
		 * its target is worth more than several narrowed that miss it. */
		if (1.5 * best_cost > share && 1.5 * best_cost <= left)
			share = 1.5 * best_cost;
		/* room for setting up again and at least one more round; under
		 * the verdict rule, the rounds to its next look, as the rounds
		 * between looks decide nothing */
		int more = 1;
		if (all[best].verdicts) {
			int done = runner_full_rounds(&all[best], rq->ntargets);
			more = verdict_next_look(done, all[best].limit) - done;
			more = more > 1 ? more : 1;
		}
		if (share < all[best].setup + (per > 0 ? per : 0) * rq->ntargets * more) {
			all[best].done = 1;	/* no room: it keeps what it has */
			continue;
		}
		failed |= pass_and_report(st, rq, all, best, *run_id, target_ids, ev, 0,
					  share - all[best].setup, &clock);
		if (!all[best].done && all[best].passes >= 3)
			all[best].done = 1;	/* three passes: enough set-up spent */
	}
	for (int k = 0; k < rq->ntests; k++)
		tstate_free(&all[k], rq->ntargets);
	free(all);
	free(clock.stored);
out:
	*interrupted = workload_stopped();
	if (store_finish_run(st, *run_id, *interrupted ? "interrupted" :
				rc ? "failed" : failed ? "failed" : "complete"))
		rc = -1;
	if (running[0])
		state_remove(STATE_RUN, running);
	free(target_ids);
	return rc ? -1 : failed;
}
