/* runner.c: repetitions, caches, CPU accounting, storage (see runner.h). */
#define _GNU_SOURCE
#include "runner.h"
#include "device.h"
#include "../core/cache.h"
#include "../core/cpu.h"
#include "../core/error.h"
#include "../core/testhook.h"
#include "../core/sysinfo.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void runner_defaults(struct runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_runs = 3;
	o->max_runs = 10;
	o->cv_limit = 0.03;
	o->drop_caches = 1;
	o->device_stats = 1;
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
		if (fsinfo_collect("", t->path, &t->info))
			snprintf(t->info.fstype, sizeof(t->info.fstype), "unknown");
	}
	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		uint64_t need = ts->wl->space_needed ? ts->wl->space_needed(ts->params) : 0, have;
		for (int j = 0; j < rq->ntargets && need; j++) {
			struct target *t = &rq->targets[j];
			if (free_space(t->path, &have)) {
				i = rq->ntargets;
				goto fail;
			}
			if (have < need) {
				error_set("target '%s': %s needs %llu MiB but %s has %llu MiB free: free space or shrink the test",
					  t->label, ts->name, (unsigned long long)(need >> 20),
					  t->path, (unsigned long long)(have >> 20));
				i = rq->ntargets;
				goto fail;
			}
		}
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

/* State of one test on one target while it runs. */
struct cell {
	struct wl_ctx ctx;
	char detail[DETAIL_MAX];
	char series[SERIES_MAX];
	char dir[4096];
	int prepared, failed, n;
	double *primary;	/* values of the primary metric, [max runs] */
	struct dev_probe probe;
};

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

static int wants_more(const struct runner_opts *o, const struct cell *c, int limit)
{
	struct summary s;

	if (c->failed || c->n >= limit)
		return 0;
	if (o->runs)
		return c->n < o->runs;
	if (c->n < o->min_runs)
		return 1;
	stats_summarize(c->primary, c->n, &s);
	return s.cv >= o->cv_limit || stats_has_outlier(c->primary, c->n);
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

/* One measured (or warm-up) repetition on one target. */
static int one_run(const struct test_spec *ts, struct target *t, struct cell *c,
		   const struct runner_opts *o, struct r_sample *sm)
{
	struct cpu_snap a, b;
	struct cpu_usage u;
	uint64_t need = ts->wl->space_needed ? ts->wl->space_needed(ts->params) : 0, have;

	if (need && !free_space(c->dir, &have) && have < need)
		return error_set("not enough free space in %s: need %llu MiB, have %llu MiB",
				 t->path, (unsigned long long)(need >> 20),
				 (unsigned long long)(have >> 20));
	cache_flush(o->drop_caches);
	test_pause("workload");
	error_clear();
	c->detail[0] = '\0';
	c->series[0] = '\0';
	c->ctx.bytes_written = c->ctx.bytes_read = -1;
	if (o->device_stats)
		device_begin(&c->probe, t->info.blockdev, c->dir);
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

/* The whole run's remaining time: this test's, plus for each test still to
 * come its runs on every target at the mean repetition time stored for it
 * earlier (as --dry-run estimates), else at this run's mean so far. */
struct run_clock {
	double *stored;		/* [ntests]: mean wall per repetition, -1 unknown */
	double rep_sum;
	int reps;
};

static double eta_rest(const struct run_request *rq, const struct run_clock *rc, int k)
{
	double mean = rc->reps ? rc->rep_sum / rc->reps : -1, total = 0;

	for (int j = k + 1; j < rq->ntests; j++) {
		const struct test_spec *ts = &rq->tests[j];
		int runs = rq->opts.runs ? rq->opts.runs : ts->runs ? ts->runs : rq->opts.min_runs;
		double per = rc->stored && rc->stored[j] > 0 ? rc->stored[j] : mean;
		if (per < 0)
			return -1;
		total += per * runs * rq->ntargets;
	}
	return total;
}

static double eta_for(const struct cell *cells, int ntargets, int planned,
		      double mean_rep)
{
	int left = 0;

	for (int i = 0; i < ntargets; i++)
		if (!cells[i].failed && cells[i].n < planned)
			left += planned - cells[i].n;
	return mean_rep > 0 ? left * mean_rep : -1;
}

/* Run one test on every target: 1 if it failed anywhere; *runs_done and
 * *seconds say how much it took.  `prior` is the test as an interrupted
 * run stored it (--resume): its samples count, and a test with nothing
 * left to run is not set up at all. */
static int run_test(struct store *st, struct run_request *rq, int k, int64_t test_id,
		    const int64_t *target_ids, const struct runner_events *ev, int *runs_done,
		    double *seconds, const struct r_test *prior, struct run_clock *clock)
{
	const struct test_spec *ts = &rq->tests[k];
	struct runner_opts opts = rq->opts;
	const struct runner_opts *o = &opts;
	/* A suite's runs = applies unless the user said --runs: the user's
	 * explicit word wins. */
	if (ts->runs && !rq->opts.runs)
		opts.runs = ts->runs;
	int limit = o->runs ? o->runs : o->max_runs, pm = primary_metric(ts);
	int failed = 0, total_runs = 0, todo = 0;
	uint64_t t0 = now_ns();
	double rep_time = 0;
	struct cell *cells = calloc((size_t)rq->ntargets, sizeof(*cells));
	double values[MAX_METRICS];

	*runs_done = 0;
	*seconds = 0;
	if (!cells)
		return error_set("out of memory"), 1;
	for (int i = 0; i < rq->ntargets; i++) {
		struct cell *c = &cells[i];
		c->primary = calloc((size_t)limit + 1, sizeof(double));
		if (!c->primary) {
			for (int j = 0; j < i; j++)
				free(cells[j].primary);
			free(cells);
			return error_set("out of memory"), 1;
		}
		if (prior) {
			const struct r_cell *pc = &prior->cells[i];
			for (int n = 0; n < pc->nsamples && c->n < limit; n++)
				if (pm < prior->nmetrics && isfinite(pc->samples[n].values[pm]))
					c->primary[c->n++] = pc->samples[n].values[pm];
			c->failed = pc->failure != NULL;
		}
		todo |= wants_more(o, c, limit);
	}
	if (!todo) {
		for (int i = 0; i < rq->ntargets; i++) {
			failed |= cells[i].failed;
			free(cells[i].primary);
		}
		free(cells);
		return failed;
	}
	for (int i = 0; i < rq->ntargets; i++) {
		struct cell *c = &cells[i];
		struct target *t = &rq->targets[i];
		if (c->failed)
			continue;
		c->ctx.params = ts->params;
		c->ctx.dir = c->dir;
		c->ctx.detail = c->detail;
		c->ctx.series = c->series;
		c->ctx.data_complete = o->device_stats ? data_complete : NULL;
		c->ctx.runner_priv = c;
		/* A fresh filesystem for every test but the first (made by setup). */
		if (k > 0 && !o->fresh_per_fs && t->ops->refresh && t->ops->refresh(t)) {
			fail_cell(st, test_id, target_ids[i], c, ev, t->label);
			continue;
		}
		if (scratch_create(t->path, c->dir, sizeof(c->dir))) {
			c->dir[0] = '\0';
			fail_cell(st, test_id, target_ids[i], c, ev, rq->targets[i].label);
			continue;
		}
		if (ts->wl->prepare && ts->wl->prepare(&c->ctx)) {
			fail_cell(st, test_id, target_ids[i], c, ev, rq->targets[i].label);
			continue;
		}
		c->prepared = 1;
	}

	for (int w = 0; w < o->warmup && !workload_stopped(); w++)
		for (int i = 0; i < rq->ntargets && !workload_stopped(); i++) {
			struct r_sample sm = { .values = values };
			if (cells[i].failed)
				continue;
			if (ev && ev->rep_started) {
				struct rep_info ri = { ts->name, rq->targets[i].label, k + 1, rq->ntests,
						       i + 1, rq->ntargets, 0, 0, -1, -1 };
				ev->rep_started(ev->arg, &ri);
			}
			if (one_run(ts, &rq->targets[i], &cells[i], o, &sm) && !workload_stopped())
				fail_cell(st, test_id, target_ids[i], &cells[i], ev,
					  rq->targets[i].label);
		}

	for (int more = 1; more && !workload_stopped();) {
		more = 0;
		for (int i = 0; i < rq->ntargets && !workload_stopped(); i++) {
			struct cell *c = &cells[i];
			if (!wants_more(o, c, limit))
				continue;
			more = 1;
			int planned = o->runs ? o->runs : (c->n < o->min_runs ? o->min_runs : c->n + 1);
			if (ev && ev->rep_started) {
				/* before this test's first run: what it took before,
				 * else this run's mean repetition */
				double per = rep_time > 0 ? rep_time :
					     clock->stored && clock->stored[k] > 0 ? clock->stored[k] :
					     clock->reps ? clock->rep_sum / clock->reps : -1;
				double et = eta_for(cells, rq->ntargets, planned, per);
				double rest = eta_rest(rq, clock, k);
				struct rep_info ri = { ts->name, rq->targets[i].label, k + 1, rq->ntests,
						       i + 1, rq->ntargets, c->n + 1, planned, et,
						       et >= 0 && rest >= 0 ? et + rest : -1 };
				ev->rep_started(ev->arg, &ri);
			}
			struct r_sample sm = { .rep = c->n + 1, .values = values };
			for (int m = 0; m < MAX_METRICS; m++)
				values[m] = NAN;
			if (one_run(ts, &rq->targets[i], c, o, &sm)) {
				if (!workload_stopped())
					fail_cell(st, test_id, target_ids[i], c, ev,
						  rq->targets[i].label);
				continue;
			}
			if (workload_stopped())
				break;	/* a cut-short run is not a sample */
			c->primary[c->n++] = values[pm];
			total_runs++;
			rep_time += (sm.wall - rep_time) / total_runs;
			clock->rep_sum += sm.wall;
			clock->reps++;
			test_pause("store");
			if (store_add_sample(st, test_id, target_ids[i], &sm, ts->nmetrics + DM_COUNT)) {
				fail_cell(st, test_id, target_ids[i], c, ev, rq->targets[i].label);
				failed = 1;
			}
		}
	}

	for (int i = 0; i < rq->ntargets; i++) {
		struct cell *c = &cells[i];
		if (c->prepared && ts->wl->cleanup)
			ts->wl->cleanup(&c->ctx);
		if (c->dir[0] && scratch_remove(c->dir))
			report_failure(ev, NULL, error_get());
		failed |= c->failed;
		free(c->primary);
	}
	free(cells);
	*seconds = ns_to_s(now_ns() - t0);
	*runs_done = total_runs;
	return failed;
}

static int record_setup(struct store *st, struct run_request *rq, int64_t run_id,
			int64_t *target_ids)
{
	struct sysinfo si;
	struct sysfield f[8];
	int nf;

	sysinfo_collect("", &si);
	nf = sysinfo_fields(&si, f);
	if (rq->memory_limit)
		f[nf++] = (struct sysfield){ "Memory Limit", rq->memory_limit };
	if (rq->vm)
		f[nf++] = (struct sysfield){ "Virtual Machine", rq->vm };
	for (int i = 0; i < nf; i++)
		if (store_add_sysfield(st, run_id, i, f[i].name, f[i].value))
			return -1;
	for (int i = 0; i < rq->ntargets; i++) {
		struct target *t = &rq->targets[i];
		char note[256];
		device_note(t->ops->kind, t->info.fstype, t->info.blockdev, t->info.mount_source, note,
			    sizeof(note));
		struct r_target row = {
			.label = t->label, .path = t->path, .kind = (char *)t->ops->kind,
			.fstype = t->info.fstype, .mount_point = t->info.mount_point,
			.mount_source = t->info.mount_source,
			.mount_opts = t->info.mount_opts, .disk = t->info.disk,
			.scheduler = t->info.scheduler, .spec = t->spec, .mkfs = t->mkfs,
			.blockdev = t->info.blockdev, .blockdev_note = note,
		};
		if (store_add_target(st, run_id, i, &row, &target_ids[i]))
			return -1;
	}
	return 0;
}

int runner_execute(struct store *st, struct run_request *rq,
		   const struct runner_events *ev, int64_t *run_id, int *interrupted)
{
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
		struct run_begin b = { rq->label, rq->note, rq->cmdline, FSBENCH_VERSION,
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
	if (ev && ev->run_started)
		ev->run_started(ev->arg, *run_id, cache_policy(&rq->opts, policy, sizeof(policy)));
	struct run_clock clock = { calloc((size_t)rq->ntests + 1, sizeof(double)), 0, 0 };
	for (int k = 0; clock.stored && k < rq->ntests; k++) {
		int n = 0;
		clock.stored[k] = -1;
		if (!store_mean_wall(st, rq->tests[k].name, rq->tests[k].params_text,
				     &clock.stored[k], &n) && !n)
			clock.stored[k] = -1;
	}
	for (int k = 0; k < rq->ntests && !workload_stopped(); k++) {
		struct r_metric metrics[MAX_METRICS];
		struct r_test row;
		int64_t test_id;
		const struct r_test *before = prior && k < prior->ntests ? &prior->tests[k] : NULL;

		store_test_row(&rq->tests[k], &row, metrics);
		if (before)
			test_id = before->id;
		else if (store_add_test(st, *run_id, k, &row, &test_id)) {
			rc = -1;
			goto out;
		}
		int runs = 0;
		double secs = 0;
		int f = run_test(st, rq, k, test_id, target_ids, ev, &runs, &secs, before, &clock);
		failed |= f;
		if (ev && ev->test_done && !workload_stopped())
			ev->test_done(ev->arg, *run_id, k, rq->ntargets, runs, secs, f);
	}
	free(clock.stored);
out:
	*interrupted = workload_stopped();
	if (store_finish_run(st, *run_id, *interrupted ? "interrupted" :
				rc ? "failed" : failed ? "failed" : "complete"))
		rc = -1;
	free(target_ids);
	return rc ? -1 : failed;
}
