/*
 * request.h: a run request's tests from fio job files, a suite, and
 * --only/--skip (request.c); what a request will take before it runs
 * (plan.c).
 */
#ifndef FSB_RUNNER_REQUEST_H
#define FSB_RUNNER_REQUEST_H

#include <stdio.h>

#include "runner.h"
#include "suite.h"
#include "../targets/profiles.h"

/* Every job of each job file as an io test named after it, its sizes
 * times scale.  0, or -1 with the error set. */
int runner_add_fio_jobs(struct run_request *rq, const char *const *files, int nfiles,
			double scale);
/* Whether a filesystem of a suite's list can be made where the run goes
 * (the host, or the guest with --vm): 0 yes, 1 no (why said), -1 an error. */
typedef int (*runner_fs_unusable)(const struct fs_profile *p, char *why, size_t len, void *arg);
/* The suite's tests appended, and when the request has no target yet its
 * filesystems that can be made (the others skipped, said on stderr); its
 * time budget and label where the user gave none.  0, or -1. */
int runner_add_suite(struct run_request *rq, struct suite *suite, const char *name, double scale,
		     const struct provision_opts *prov, runner_fs_unusable unusable, void *arg);
/* --only and --skip (PTS users run single tests of a suite): each list a
 * comma-separated string of test names, each of which must be a test of
 * the run.  0, or -1 with the error set. */
int runner_select_tests(struct run_request *rq, const char *const *only, int nonly,
			const char *const *skip, int nskip);
/* Each test against the targets known before anything is made: a
 * directory (the workload's validate_target) and, when here is set (no
 * --vm, and not in the guest, whose modules are loaded later: the
 * filesystems are made on this machine as it is), a filesystem this
 * kernel must support for it (validate_fs).  0, or -1 with the error set;
 * WL_GUEST_HAS_IT (error set, every other check passed) when only
 * what fsbench's guest has is missing here: the run can go there. */
int runner_check_targets(const struct run_request *rq, int here);
/* Each test's memory_note for a machine of ram bytes (the one that runs
 * the tests, or its --ram limit), appended to its subtitle, so that every
 * report carries it. */
void runner_memory_notes(struct run_request *rq, uint64_t ram);
/* note added to every test's subtitle (a modelled medium's name, so every
 * chart says it). */
void runner_subtitle_add(struct run_request *rq, const char *note);

/* The most space one of the tests needs on a target (0: none says), and
 * which test that is. */
uint64_t runner_space_needed(const struct run_request *rq, const char **which);
/* The same on a flash target (flash 1), where a test with a device of
 * its own (WL_DEVICE_MAPPER) puts no images. */
uint64_t runner_space_needed_on(const struct run_request *rq, int flash, const char **which);
/* Without --fs-size, each image sized from what its tests need (a quarter
 * more and 512 MiB for the filesystem's own, in whole GiB, at least 1 GiB),
 * all of them checked to fit in image_dir at once; prov->size set.  0, or
 * -1 with the error set. */
int runner_size_images(struct run_request *rq, struct provision_opts *prov);
/* --dry-run: each test x target, its parameters, and a time estimated
 * from earlier samples in s (NULL: none), to f; vm: the run goes into a
 * guest, whose boot and emulated CPU the estimate then counts. */
void runner_print_plan(FILE *f, struct store *s, const struct run_request *rq, int vm);
/* The seconds the request's work takes by the store's earlier samples
 * (120 s a run where it has none), at the runs it will make: what a
 * guest's deadline scales with. */
double runner_work_seconds(struct store *s, const struct run_request *rq);

/* --resume (resume.c): the run's arguments (the words after `run`) as the
 * JSON array it is stored with (NULL: out of memory); and from a stored
 * run, those words again with "run" first, when the run can be resumed
 * (interrupted, and stored with its arguments).  0, or -1 with the error
 * set; the words are freed with runner_resume_args_free. */
char *runner_args_json(int argc, char **argv);
int runner_resume_args(const struct result *r, int64_t id, char ***argv, int *argc);
void runner_resume_args_free(char **argv, int argc);

#endif
