/*
 * run-vm.c: `fsbench run --vm`, both sides.  On the host: the command line
 * again without its host-only options, handed to a guest booted by vm/
 * (vm_execute), the guest's lines shown as they come, its run imported
 * into the host's store and written out as a host run's would be.  In the
 * guest: the finished run handed back as an export document.  cmd-run.c
 * parses and decides; this file only carries the run across.
 */
#define _GNU_SOURCE
#include "run-cli.h"
#include "../core/error.h"
#include "../core/stop.h"
#include "../core/version.h"
#include "../report/report.h"
#include "../runner/suite.h"
#include "../targets/medium.h"
#include "../targets/state.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Inside the guest: the run, as `fsbench export` writes it, for the host. */
int run_guest_export(struct run_cli *c, int64_t run_id)
{
	struct result *r;
	char *text;
	int rc;

	if (store_load_run(c->store, run_id, &r))
		return -1;
	rc = report_json_text(r, &text) ? -1 : vm_guest_finish(text);
	result_free(r);
	free(text);
	return rc;
}

/* In the guest: the run so far, handed to the host as each repetition
 * starts, for it to keep should the guest never finish (issue 69: a
 * stopped guest run was lost whole). */
void run_guest_progress(struct run_cli *c)
{
	struct result *r;
	char *text = NULL;

	if (!vm_guest_job() || c->run_id <= 0 || store_load_run(c->store, c->run_id, &r))
		return;
	if (!report_json_text(r, &text))
		vm_guest_progress(text);
	free(text);
	result_free(r);
}

/* In the guest: the run the host continues (--resume), imported into the
 * guest's own store, which is new at each boot; the runner then runs into
 * it as into any interrupted run, and its export replaces the host's. */
int run_guest_resume(struct run_cli *c)
{
	char *text;
	size_t len;
	int64_t id;
	int existed, rc;

	if (vm_guest_resume(&text, &len))
		return -1;
	if (!text)
		return 0;
	rc = store_import(c->store, text, len, &id, &existed) ||
	     store_load_run(c->store, id, &c->guest_prior) ? -1 : 0;
	free(text);
	if (!rc)
		c->rq.resume = c->guest_prior;
	return rc;
}

/* In the guest: --device names the host's device; the run takes turns
 * on the disk the host made of it, described in the host's words. */
int run_guest_medium(struct run_cli *c)
{
	char dev[64], identity[1400], counters[PATH_MAX];
	uint64_t buffer = 0;
	int rc;

	if (!c->prov.medium)
		return 0;
	rc = vm_guest_medium(dev, sizeof(dev), identity, sizeof(identity), counters, sizeof(counters),
			     &buffer);
	if (rc < 0)
		return -1;
	if (!rc)
		return error_set("guest: --device was given but the host handed no device over");
	medium_set_device(c->prov.medium, dev, identity, counters);
	medium_set_buffer(c->prov.medium, buffer);
	return 0;
}

/* A line the guest's fsbench printed, shown as if it ran here. */
static void vm_line(void *arg, const char *line)
{
	struct run_cli *c = arg;

	char plain[4096];

	if (vm_console_noise(line))
		return;
	if (!isatty(fileno(c->human))) {	/* a file, a pipe: as a host run would write */
		snprintf(plain, sizeof(plain), "%s", line);
		vm_strip_colour(plain);
		line = plain;
	}
	fprintf(c->human, "%s\n", line);
	fflush(c->human);
}

/* The guest's run so far (as each repetition starts): the host's run
 * filled with it, still running, so that what the guest measured is in
 * the store however the guest or the host ends (issue 69). */
static void vm_progress(void *arg, const char *json, size_t len)
{
	struct run_cli *c = arg;

	if (store_import_into(c->store, c->run_id, json, len, "running") && !c->vm_kept_error) {
		c->vm_kept_error = 1;	/* said once; the end tries again */
		fprintf(stderr, "fsbench: warning: the guest's samples so far could not be kept: %s\n",
			error_get());
	}
}

/* A guest that did not finish: the run, with what it measured as of its
 * last repetition's start, ends interrupted (stopped) or abandoned (the
 * guest failed or ran out of time); --resume continues it. */
static void keep_partial(struct run_cli *c, const struct vm_result *res)
{
	const char *status = stop_requested() ? "interrupted" : "abandoned";

	if (res->partial ? store_import_into(c->store, c->run_id, res->partial, res->partial_len, status)
			 : store_finish_run(c->store, c->run_id, status)) {
		fprintf(stderr, "fsbench: the guest's samples could not be kept: %s\n", error_get());
		return;
	}
	fprintf(stderr, "fsbench: run %lld is stored %s %s; `fsbench run --resume %lld` continues "
		"it\n", (long long)c->run_id, status, res->partial ?
		"with what the guest measured before it stopped" : "(the guest had measured nothing)",
		(long long)c->run_id);
}

/* The host's record of the guest's run, from before the guest boots: a
 * new run, or the interrupted one --resume continues (its document then
 * handed to the guest in *resume). */
static int begin_vm_run(struct run_cli *c, const struct result *prior, char **resume)
{
	const struct run_request *rq = &c->rq;

	*resume = NULL;
	if (prior) {
		c->run_id = prior->id;
		/* a guest stopped before it handed anything over: nothing to
		 * continue, the new guest's run fills the same run */
		if (prior->ntargets && report_json_text(prior, resume))
			return -1;
		return store_resume_run(c->store, c->run_id);
	}
	struct run_begin b = { rq->label, rq->note, rq->cmdline, fsbench_version, rq->baseline,
			       rq->argv };
	return store_begin_run(c->store, &b, &c->run_id);
}

int run_vm(struct run_cli *c, const struct cli_args *a, const struct result *prior)
{
	struct run_request *rq = &c->rq;
	struct vm_request vr;
	struct vm_result res = { 0 };
	char **argv = calloc((size_t)a->n + 8, sizeof(char *));
	int argc = 0, rc = EXIT_FAIL;
	char *resume = NULL, running[PATH_MAX] = "";
	int held = 0;

	if (!argv)
		return cli_fail(EXIT_FAIL, "out of memory");
	argv[argc++] = strdup("run");
	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (it->opt && (it->opt->flags & CLI_HOST_ONLY))
			continue;
		if (!it->opt)
			argv[argc++] = strdup(it->value);
		else if (it->opt->has_arg) {
			char *w = NULL, *file = NULL, path[PATH_MAX];
			/* a suite: the file the host read, by its absolute path
			 * (the guest's root is the host's), as the guest's
			 * binary may find no suites beside it and has not the
			 * host's FSBENCH_SUITES */
			if (!strcmp(it->opt->name, "suite")) {
				suite_path(it->value, path, sizeof(path));
				file = realpath(path, NULL);
			}
			if (asprintf(&w, "--%s=%s", it->opt->name, file ? file : it->value) < 0)
				w = NULL;
			free(file);
			argv[argc++] = w;
		} else {
			char *w = NULL;
			if (asprintf(&w, "--%s", it->opt->name) < 0)
				w = NULL;
			argv[argc++] = w;
		}
	}
	argv[argc++] = strdup("--db=/run/fsbench-guest/results.db");
	argv[argc++] = strdup("--image-dir=/run/fsbench-guest");
	for (int i = 0; i < argc; i++)
		if (!argv[i])
			goto out;
	/* The deadline scales with the work: what the store says these tests
	 * take, 40 times over for an emulated CPU, plus the boot.  Under a
	 * time budget the guest stops itself: its minimum runs, then the
	 * budget (on the guest's clock, which runs at the emulated speed). */
	double work = runner_work_seconds(c->store, rq);
	int budgeted = !rq->opts.runs && rq->opts.time_budget > 0;
	const char *which = NULL;
	memset(&vr, 0, sizeof(vr));
	vr.flash_need = runner_space_needed_on(rq, 1, &which);
	for (int i = 0; i < rq->ntests; i++)
		vr.device_mapper |= !!(rq->tests[i].wl->flags & WL_DEVICE_MAPPER);
	vr.opts = c->vmo;
	if (!vr.opts.timeout)
		vr.opts.timeout = 600 + 40 * work + (budgeted ? 1.1 * rq->opts.time_budget : 0);
	vr.targets = rq->targets;
	vr.ntargets = rq->ntargets;
	vr.argv = argv;
	vr.argc = argc;
	vr.image_dir = c->prov.image_dir ? c->prov.image_dir : "/var/tmp";
	vr.work_seconds = work;
	vr.quiet = rq->opts.quiet;
	vr.line = vm_line;
	vr.arg = c;
	vr.findings = c->rq.findings;
	vr.progress = vm_progress;
	/* the user's device: checked and held here for the whole run, its
	 * region handed to the guest as one more disk */
	if (c->modelled) {
		vr.model = &c->model;	/* served by vm_execute, for the guest alone */
	} else if (c->prov.medium) {
		if (medium_hold(c->prov.medium)) {
			rc = cli_fail(EXIT_FAIL, "%s", error_get());
			goto out;
		}
		held = 1;
		vr.medium = medium_path(c->prov.medium);
		vr.medium_size = medium_region(c->prov.medium);
		vr.medium_identity = medium_identity(c->prov.medium);
	}
	if (begin_vm_run(c, prior, &resume)) {
		rc = cli_fail(EXIT_FAIL, "%s", error_get());
		goto out;
	}
	vr.resume = resume;
	runner_claim_run(c->store, c->run_id, running);
	int failed = vm_execute(&vr, &res);
	free(resume);
	if (failed) {
		char why[1024];
		snprintf(why, sizeof(why), "%s", error_get());
		keep_partial(c, &res);
		rc = cli_fail(stop_requested() ? EXIT_INTERRUPTED : EXIT_FAIL, "%s", why);
		goto out;
	}
	int64_t id = c->run_id;
	if (store_import_into(c->store, id, res.json, res.len, NULL)) {
		rc = cli_fail(EXIT_FAIL, "the guest's run: %s", error_get());
		store_finish_run(c->store, id, "abandoned");
	} else if (run_write_outputs(c, id)) {
		rc = cli_fail(EXIT_FAIL, "%s", error_get());
	} else {
		char where[PATH_MAX];
		if (c->db)
			snprintf(where, sizeof(where), "%s", c->db);
		else if (store_default_path(where, sizeof(where)))
			snprintf(where, sizeof(where), "the result store");
		if (!rq->opts.quiet)
			fprintf(c->human, "\nfsbench: run %lld stored in %s (from the virtual machine: %s, "
				"booted in %.1f s, %.0f s in all)\n", (long long)id, where,
				!strcmp(res.accel, "tcg") ? "TCG, an emulated CPU" : res.accel,
				res.boot_seconds, res.seconds);
		rc = res.guest_exit ? EXIT_FAIL : EXIT_OK;
	}
	free(res.json);
out:
	if (held)
		medium_detach(c->prov.medium);
	if (running[0])
		state_remove(STATE_RUN, running);
	free(res.partial);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return rc;
}
