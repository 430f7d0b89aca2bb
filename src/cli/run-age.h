/*
 * run-age.h: `run --age PROFILE [--age-seed N] [--compare-fresh]` (issue
 * 42), --age-repo DIR and --keep-aged DIR, the part of `run` that ages the filesystems it makes: the profile
 * loaded and checked, each --fs target aged after every mkfs (or, with
 * --compare-fresh, given an aged twin LABEL-aged that is judged against
 * it), and aging's progress on the terminal.  cmd-run.c calls these; the
 * aging itself is targets/aged.c's.
 */
#ifndef FSB_CLI_RUN_AGE_H
#define FSB_CLI_RUN_AGE_H

#include "../aging/profile.h"
#include "../runner/runner.h"
#include "../targets/target.h"

struct progress;

struct run_age {
	struct age_profile profile;
	int on, compare_fresh;
	struct provision_opts aged;	/* the provisioning of an aged target */
	int ref[RUNNER_MAX_TARGETS];	/* run_request.ref */
	struct progress **pg;		/* the run's live line, once there is one */
};

/* Load profile `name` (suites/NAME.age or a file) and set prov to age
 * every target made with it, or with compare_fresh keep prov fresh and
 * the aging for the twins.  repo: a git profile's repository (needed by
 * one, refused by the others); keep: --keep-aged's directory or NULL.
 * 0, or -1 with the error set. */
int run_age_setup(struct run_age *ra, const char *name, uint64_t seed, const char *repo,
		  const char *keep, int compare_fresh, struct provision_opts *prov,
		  struct progress **pg);
/* After every target is known: refuse --age without a filesystem of
 * fsbench's to age, and with --compare-fresh put LABEL-aged after each
 * --fs target (rq->ref says which is whose).  prov: the fresh one, with
 * the size the images will have. */
int run_age_targets(struct run_age *ra, struct run_request *rq);
/* After setup: one line per aged target, what the aging left. */
void run_age_notes(const struct run_request *rq, struct progress *pg);

#endif
