/*
 * run-live.c: what `fsbench run` prints while it runs and at its end: the
 * runner's events drawn (the progress line, failures, each finished test's
 * section from the store, once, in the tests' order), then the tests held
 * back, the answer and where everything went.  cmd-run.c parses, decides
 * and runs; this file only draws.
 */
#include "run-cli.h"
#include "../report/progress.h"
#include "../report/report.h"
#include "../vm/vm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runner's events, drawn here: the progress line, failures, and each
 * finished test's charts from the store. */
static void on_run_started(void *arg, int64_t run_id, const char *how)
{
	struct run_cli *c = arg;

	c->run_id = run_id;
	/* inside the guest the run's number is the guest's own store's: the
	 * host says under which number it keeps it */
	if (vm_guest_job())
		progress_note(c->pg, "fsbench: the guest's run: %s", how);
	else
		progress_note(c->pg, "fsbench: run %lld: %s", (long long)run_id, how);
}

static void on_rep_started(void *arg, const struct rep_info *r)
{
	struct run_cli *c = arg;
	struct progress_pos pos = { r->test, r->target, r->test_index, r->ntests, r->target_index,
				    r->ntargets, r->rep, r->planned, r->eta_test, r->eta_run,
				    r->interval, r->precision, r->need };

	run_guest_progress(c);
	progress_rep(c->pg, &pos);
}

static void on_failure(void *arg, const char *message)
{
	struct run_cli *c = arg;

	progress_error(c->pg, "fsbench: %s", message);
}

static void show_test(struct run_cli *c, const struct result *r, int test);
static char *sections(struct run_cli *c);

static void on_test_done(void *arg, int64_t run_id, int test, int ntargets,
			 const struct test_outcome *out)
{
	struct run_cli *c = arg;
	struct result *r;

	struct progress_done d = { out->runs, out->failed, out->met, out->fixed, out->unfinished,
				   out->seconds, out->interval, out->precision, out->again,
				   out->pairs, out->undecided, out->rounds };
	progress_test_done(c->pg, c->rq.tests[test].name, ntargets, &d);
	run_guest_progress(c);
	/* A test that may get more runs later (the time budget) shows its
	 * section once, when it has them: at the end, if not before; the
	 * sections go out in the tests' order. */
	if (c->rq.opts.quiet || !sections(c))
		return;
	if (!out->unfinished && c->sections[test] < 2)
		c->sections[test] = 1;
	int k = 0;
	while (k < c->rq.ntests && c->sections[k] == 2)
		k++;
	if (k >= c->rq.ntests || c->sections[k] != 1 || store_load_run(c->store, run_id, &r))
		return;
	for (; k < c->rq.ntests && c->sections[k] == 1; k++)
		show_test(c, r, k);
	result_free(r);
}

/* Each test's section: 0 not done, 1 done and not yet shown, 2 shown. */
static char *sections(struct run_cli *c)
{
	if (!c->sections)
		c->sections = calloc((size_t)c->rq.ntests + 1, 1);
	return c->sections;
}

/* One test's section of the live output, once: its charts, warnings and
 * failures (the verdicts come together in the answer block at the end). */
static void show_test(struct run_cli *c, const struct result *r, int test)
{
	struct report_opts o;

	if (!sections(c) || test < 0 || test >= r->ntests || c->sections[test] == 2)
		return;
	c->sections[test] = 2;
	progress_clear(c->pg);
	report_opts_for(c->human, &o);
	o.baseline = c->rq.baseline;
	o.verbose = c->verbose;
	if (!c->system_shown)
		report_system(c->human, r, &o);
	c->system_shown = 1;
	if (c->verbose)		/* the detail: each test's verdicts above its chart */
		report_test_verdicts(c->human, r, test, &o);
	report_test(c->human, r, test, &o);
	fflush(c->human);
}

struct runner_events run_live_events(struct run_cli *c)
{
	struct runner_events ev = { on_run_started, on_rep_started, on_failure, on_test_done, c };

	return ev;
}

/* The end of a run: the tests held back, the answer, then where everything
 * went. */
void run_print_end(struct run_cli *c, int64_t run_id)
{
	struct result *r;
	struct report_opts o;
	char where[PATH_MAX], line[4096];
	const char *outs[] = { c->json, c->csv, c->markdown, c->html };
	size_t used;

	if (!c->rq.opts.quiet && !store_load_run(c->store, run_id, &r)) {
		report_opts_for(c->human, &o);
		o.baseline = c->rq.baseline;
		o.verbose = c->verbose;
		for (int ti = 0; ti < r->ntests; ti++)	/* the tests held back, now final */
			show_test(c, r, ti);
		report_summary(c->human, r, &o);
		result_free(r);
	}
	if (vm_guest_job())
		return;		/* the host says where the run is stored */
	if (c->db)
		snprintf(where, sizeof(where), "%s", c->db);
	else if (store_default_path(where, sizeof(where)))
		snprintf(where, sizeof(where), "the result store");
	used = (size_t)snprintf(line, sizeof(line), "run %lld stored in %s", (long long)run_id, where);
	for (int i = 0, n = 0; i < 4 && used < sizeof(line); i++)
		if (outs[i] && strcmp(outs[i], "-"))
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s",
						 n++ ? ", " : "; wrote ", outs[i]);
	fprintf(c->human, "\nfsbench: %s\n", line);
	if (!c->verbose && !c->rq.opts.quiet)
		fprintf(c->human, "fsbench: every chart and table: fsbench show %lld --all%s%s\n",
			(long long)run_id, c->db ? " --db " : "", c->db ? c->db : "");
}
