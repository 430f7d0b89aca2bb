/*
 * run-age.c: aging in `run` (run-age.h).
 *
 * A twin is a second target from the same --fs spec, with the same image
 * size (runner_size_images sizes every target alike, after this), so
 * fresh and aged differ in the aging alone.  Twins stand right after
 * their fresh target, so every report shows each pair side by side.
 */
#define _GNU_SOURCE
#include "run-age.h"
#include "../aging/record.h"
#include "../core/error.h"
#include "../report/progress.h"
#include "../runner/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_aging(void *arg, const char *label, double done, double eta_s)
{
	struct run_age *ra = arg;
	struct progress *pg = ra->pg ? *ra->pg : NULL;

	if (done >= 1)
		progress_clear(pg);
	else
		progress_status(pg, "aging %s with %s: %.0f%%, about %.0f s to go", label,
				ra->profile.name, 100 * done, eta_s);
}

int run_age_setup(struct run_age *ra, const char *name, uint64_t seed, const char *repo,
		  const char *keep, int compare_fresh, struct provision_opts *prov,
		  struct progress **pg)
{
	struct stat st;

	for (int i = 0; i < RUNNER_MAX_TARGETS; i++)
		ra->ref[i] = -1;
	if (age_profile_load(suite_dir(), name, &ra->profile))
		return -1;
	if (ra->profile.git && !repo)
		return error_set("--age %s replays the commits of a repository: name one with "
				 "--age-repo DIR (fsbench ships none; docs/aging.md)", ra->profile.name);
	if (!ra->profile.git && repo)
		return error_set("--age-repo is for a profile that replays a repository's commits "
				 "(git-pull), not %s", ra->profile.name);
	if (repo && (stat(repo, &st) || !S_ISDIR(st.st_mode)))
		return error_set("--age-repo %s: not a directory", repo);
	if (keep && (lstat(keep, &st) || !S_ISDIR(st.st_mode) || access(keep, W_OK)))
		return error_set("--keep-aged %s: not a directory fsbench can add files to (make it "
				 "first)", keep);
	prov->age_repo = repo;
	prov->age_keep = keep;
	ra->on = 1;
	ra->compare_fresh = compare_fresh;
	ra->pg = pg;
	prov->age_seed = seed;
	prov->age_progress = on_aging;
	prov->age_arg = ra;
	ra->aged = *prov;
	ra->aged.age = &ra->profile;
	if (!compare_fresh)
		prov->age = &ra->profile;
	return 0;
}

int run_age_targets(struct run_age *ra, struct run_request *rq)
{
	int fs = 0, n = rq->ntargets;

	for (int i = 0; i < n; i++)
		fs += target_fs_spec(&rq->targets[i]) != NULL;
	if (!fs)
		return error_set("--age ages the filesystems fsbench makes (--fs or a suite's): a "
				 "--target directory is yours and is never aged");
	rq->age_fill = ra->profile.fill;
	if (!ra->compare_fresh)
		return 0;
	if (n + fs > RUNNER_MAX_TARGETS)
		return error_set("--compare-fresh doubles the %d filesystems: at most %d targets",
				 fs, RUNNER_MAX_TARGETS);
	struct target *all = calloc(RUNNER_MAX_TARGETS, sizeof(*all));
	int k = 0;
	if (!all)
		return error_set("out of memory");
	for (int i = 0; i < n; i++) {
		const struct fs_spec *spec = target_fs_spec(&rq->targets[i]);
		all[k++] = rq->targets[i];
		if (!spec)
			continue;
		/* the twin takes the provisioning the fresh one was made with
		 * (its size set later, for all alike), aging on top */
		struct target *tw = &all[k];
		if (target_from_spec(spec, &ra->aged, tw))
			goto fail;
		ra->ref[k] = k - 1;
		k++;
		if ((size_t)snprintf(tw->label, sizeof(tw->label), "%s-aged",
				     rq->targets[i].label) >= sizeof(tw->label)) {
			error_set("--compare-fresh: label '%s' is too long to name its aged twin",
				  rq->targets[i].label);
			goto fail;
		}
	}
	free(rq->targets);
	rq->targets = all;
	rq->ntargets = k;
	rq->ref = ra->ref;
	return 0;
fail:
	/* only the twins are this function's; the rest are still rq's */
	for (int i = 0; i < k; i++)
		if (ra->ref[i] >= 0)
			target_free(&all[i]);
	free(all);
	for (int i = 0; i < RUNNER_MAX_TARGETS; i++)
		ra->ref[i] = -1;
	return -1;
}

void run_age_notes(const struct run_request *rq, struct progress *pg)
{
	for (int i = 0; i < rq->ntargets; i++) {
		const char *rec = target_aging(&rq->targets[i]);
		char line[512];
		if (!rec)
			continue;
		age_record_summary(rec, line, sizeof(line));
		progress_note(pg, "fsbench: %s %s", rq->targets[i].label, line);
	}
}
