/*
 * request.c: the tests of a run request from what names them besides the
 * command line's own TEST words: fio job files (--fio), a suite and its
 * filesystems (--suite), and the choice among them (--only, --skip);
 * then what the tests refuse of the targets before anything is made, and
 * what they mean on the memory of the machine that runs them.
 * `fsbench run` (cli/cmd-run.c) calls these in that order.
 */
#include "request.h"
#include "../core/error.h"
#include "../core/suggest.h"
#include "../io/jobfile.h"
#include "../targets/profiles.h"
#include "../workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int runner_add_fio_jobs(struct run_request *rq, const char *const *files, int nfiles,
			double scale)
{
	struct jobset *set = calloc(1, sizeof(*set));
	int rc = 0;

	if (!set)
		return error_set("out of memory");
	for (int f = 0; f < nfiles && !rc; f++) {
		struct test_spec *all;
		memset(set, 0, sizeof(*set));
		if (jobfile_load(files[f], false, set)) {
			rc = -1;
			break;
		}
		all = realloc(rq->tests, sizeof(*all) * (size_t)(rq->ntests + set->njobs + 1));
		if (!all) {
			rc = error_set("out of memory");
			break;
		}
		rq->tests = all;
		for (int j = 0; j < set->njobs && !rc; j++) {
			/* what the file asked that fsbench cannot run (an engine
			 * it lacks, an option it cannot honour): not lost in the
			 * conversion to the workload's parameters below */
			if (io_options_runnable(&set->jobs[j])) {
				char msg[1024];
				snprintf(msg, sizeof(msg), "%s", error_get());
				rc = error_set("%s: job %s: %s", files[f], set->jobs[j].name, msg);
				break;
			}
			if (set->jobs[j].flow) {	/* its ratio is to jobs that run with it */
				rc = error_set("%s: job %s: flow= keeps jobs running together in a "
					       "ratio, and --fio runs each job alone: run the file with "
					       "`fsbench io`", files[f], set->jobs[j].name);
				break;
			}
			if (test_spec_from_params(workload_find("io"), &set->jobs[j], set->jobs[j].name,
						  &rq->tests[rq->ntests])) {
				/* "FILE: job NAME: why": the job's own error starts with its name */
				char msg[1024];
				snprintf(msg, sizeof(msg), "%s", error_get());
				rc = error_set("%s: job %s", files[f], msg);
				break;
			}
			if (test_spec_scale(&rq->tests[rq->ntests], scale)) {
				test_spec_free(&rq->tests[rq->ntests]);
				rc = -1;
				break;
			}
			rq->ntests++;
		}
	}
	free(set);
	return rc;
}

int runner_add_suite(struct run_request *rq, struct suite *suite, const char *name, double scale,
		     const struct provision_opts *prov, runner_fs_unusable unusable, void *arg)
{
	struct test_spec *all;

	if (suite_load(name, scale, suite))
		return -1;
	/* (and no memcpy from a suite that holds none) */
	if (!suite->ntests && suite->nskipped)
		return error_set("suite %s has no runnable test: %s%s", suite->name,
				 suite->skipped[0], suite->nskipped > 1 ? " (and more)" : "");
	if (!suite->ntests)
		return error_set("suite %s has no runnable test", suite->name);
	for (int i = 0; i < suite->nskipped; i++)
		fprintf(stderr, "fsbench: suite %s: skipping %s\n", suite->name, suite->skipped[i]);
	/* its filesystems are checked whether or not they are used */
	struct fs_spec specs[RUNNER_MAX_TARGETS];
	int nspecs = 0;
	if (suite->filesystems[0] &&
	    fs_spec_split(suite->filesystems, specs, RUNNER_MAX_TARGETS, &nspecs))
		return error_prefix("suite %s: filesystems", suite->name);
	all = realloc(rq->tests, sizeof(*all) * (size_t)(rq->ntests + suite->ntests + 1));
	if (!all)
		return error_set("out of memory");
	rq->tests = all;
	/* The run owns the specs now; the suite keeps only its header. */
	memcpy(rq->tests + rq->ntests, suite->tests, sizeof(*all) * (size_t)suite->ntests);
	rq->ntests += suite->ntests;
	suite->ntests = 0;
	/* the suite's budget, unless the user gave one or fixed the runs */
	if (suite->time_budget > 0 && !rq->opts.time_budget && !rq->opts.runs)
		rq->opts.time_budget = suite->time_budget;
	if (!rq->ntargets)
		for (int i = 0; i < nspecs; i++) {
			char why[256];
			int no = unusable(specs[i].profile, why, sizeof(why), arg);
			if (no < 0)
				return -1;
			if (no) {
				fprintf(stderr, "fsbench: suite %s: skipping filesystem %s: %s\n",
					suite->name, specs[i].text, why);
				continue;
			}
			/* counted before it is made: a half-made target is freed too */
			if (target_from_spec(&specs[i], prov, &rq->targets[rq->ntargets++]))
				return -1;
		}
	if (!rq->label)
		rq->label = suite->name;
	/* the suite's reference (seed 002's JFFS2), unless --baseline names
	 * another, and only where it is one of the run's targets */
	for (int i = 0; !rq->baseline && suite->baseline[0] && i < rq->ntargets; i++)
		if (!strcmp(rq->targets[i].label, suite->baseline))
			rq->baseline = suite->baseline;
	return 0;
}

/* Is `name` one of the comma-separated names in list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* Every name of the lists must be a test of the run, or it is a typo worth
 * saying (opt: --only or --skip, for the message). */
static int names_known(const struct run_request *rq, const char *opt, const char *const *lists,
		       int n)
{
	const char *names[256];
	int nn = 0;

	for (int i = 0; i < rq->ntests && nn < 256; i++)
		names[nn++] = rq->tests[i].name;
	for (int l = 0; l < n; l++)
		for (const char *p = lists[l]; *p;) {
			size_t len = strcspn(p, ",");
			char name[160];
			int found = 0;
			snprintf(name, sizeof(name), "%.*s", (int)(len < 159 ? len : 159), p);
			for (int t = 0; t < nn; t++)
				found |= !strcmp(names[t], name);
			if (!found) {
				const char *near = suggest(name, names, nn);
				return error_set("--%s: no test '%s' in this run%s%s%s", opt, name,
						 near ? " (did you mean '" : "", near ? near : "",
						 near ? "'?)" : "");
			}
			p += len + (p[len] == ',');
		}
	return 0;
}

int runner_select_tests(struct run_request *rq, const char *const *only, int nonly,
			const char *const *skip, int nskip)
{
	int k = 0;

	if (names_known(rq, "only", only, nonly) || names_known(rq, "skip", skip, nskip))
		return -1;
	for (int i = 0; i < rq->ntests; i++) {
		int keep = !nonly;
		for (int j = 0; j < nonly; j++)
			keep |= in_list(only[j], rq->tests[i].name);
		for (int j = 0; j < nskip; j++)
			if (in_list(skip[j], rq->tests[i].name))
				keep = 0;
		if (keep)
			rq->tests[k++] = rq->tests[i];
		else
			test_spec_free(&rq->tests[i]);
	}
	rq->ntests = k;
	return 0;
}

int runner_check_targets(const struct run_request *rq, int here)
{
	int guest = 0;

	for (int t = 0; t < rq->ntests; t++) {
		const struct workload *wl = rq->tests[t].wl;

		for (int i = 0; i < rq->ntargets; i++) {
			const struct target *tg = &rq->targets[i];
			const struct fs_spec *fs = target_fs_spec(tg);

			if (fs && fs_kind_raw(fs->profile->kind) && !(wl->flags & WL_RAW))
				return error_set("test '%s': --fs %s has no filesystem (the medium itself): "
						 "only io tests run there, fio's jobs on the device",
						 rq->tests[t].name, fs->profile->name);
			if (wl->validate_target && !strcmp(tg->ops->kind, "dir") &&
			    wl->validate_target(rq->tests[t].params, tg->spec))
				return -1;
			if (here && wl->validate_fs && fs) {
				int rc = wl->validate_fs(rq->tests[t].params, fs->profile);
				if (rc == WL_GUEST_HAS_IT)
					guest = 1;	/* its error stays set */
				else if (rc)
					return -1;
			}
		}
	}
	return guest ? WL_GUEST_HAS_IT : 0;
}

void runner_subtitle_add(struct run_request *rq, const char *note)
{
	for (int i = 0; i < rq->ntests; i++) {
		struct test_spec *ts = &rq->tests[i];
		size_t used = strlen(ts->subtitle);
		if (used < sizeof(ts->subtitle))
			snprintf(ts->subtitle + used, sizeof(ts->subtitle) - used, "%s%s",
				 used ? "; " : "", note);
	}
}

void runner_memory_notes(struct run_request *rq, uint64_t ram)
{
	for (int i = 0; i < rq->ntests; i++) {
		struct test_spec *ts = &rq->tests[i];
		char note[160];
		size_t used = strlen(ts->subtitle);
		if (ts->wl->memory_note && ts->wl->memory_note(ts->params, ram, note, sizeof(note)) > 0 &&
		    used < sizeof(ts->subtitle))
			snprintf(ts->subtitle + used, sizeof(ts->subtitle) - used, "%s%s",
				 used ? "; " : "", note);
	}
}
