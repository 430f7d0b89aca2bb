/*
 * run-cli.h: what the parts of `fsbench run` share.  cmd-run.c parses the
 * command line into a struct run_cli and runs it here; run-vm.c is the
 * --vm path (the same command handed to the guest, its run brought home)
 * and the guest's side of it; run-age.c is --age.  Nothing outside
 * src/cli/ sees this struct: the runner takes only its run_request.
 */
#ifndef FSB_CLI_RUN_CLI_H
#define FSB_CLI_RUN_CLI_H

#include "cli.h"
#include "run-age.h"
#include "../runner/memlimit.h"
#include "../runner/request.h"
#include "../runner/runner.h"
#include "../runner/suite.h"
#include "../store/store.h"
#include "../vm/vm.h"
#include "../media/host.h"
#include "../media/model.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_FIO_FILES 8

/* One `run`: the request for the runner and what only the command keeps
 * (outputs, the live line, the --vm and --age settings). */
/* The typed options' values (cli.h): the parser fills this, zero where an
 * option was not given; the repeatable ones that go in order (--target,
 * --fs, --fio, --only, --skip) are read from the items. */
struct run_args {
	uint64_t fs_size, vm_mem, ram, device_size;
	double device_settle;
	const char *device_reset, *vm_device_bus, *vm_device_throttle;
	const char *medium;
	const char *image_dir, *device, *kernel, *vm_accel, *fresh, *suite, *age, *age_repo,
		   *keep_aged;
	int force_format, no_direct_io, vm, vm_cpus, vm_timeout, age_seed, compare_fresh;
	double scale, margin, precision, time_budget;
	int runs, max_runs, warmup;
	const char *baseline, *label, *note, *resume, *db, *json, *csv, *markdown, *html;
	int no_drop_caches, no_device_stats, quiet, dry_run, verbose;
};
struct run_cli {
	struct run_request rq;
	struct provision_opts prov;
	const char *db, *json, *csv, *markdown, *html;
	struct store *store;
	struct suite suite;
	const char *suite_name;
	const char *fio_files[MAX_FIO_FILES];
	int nfio;
	double scale;
	uint64_t ram;
	struct memlimit mem;
	char ram_note[128];
	int verbose;
	int system_shown;	/* the system table went out with the first chart */
	char *sections;		/* [ntests]: 0 not done, 1 to show, 2 shown */
	struct progress *pg;	/* the live line; the runner only reports events */
	int vm;			/* --vm: the run happens in a guest */
	struct vm_opts vmo;
	struct vm_kernel kernel;	/* --vm: the guest's, found for a suite's filesystems */
	int kernel_found;
	char vm_text[512];	/* inside the guest: the machine, for the system table */
	char *args_json;	/* the arguments, stored for --resume */
	char findings[PATH_MAX];	/* run_request.findings */
	struct run_age age;		/* --age */
	FILE *human;		/* charts and summary: stdout, or stderr when a
				 * document (--json - ...) takes stdout */
	int64_t run_id;		/* the run's number once it has one */
	int vm_kept_error;	/* --vm: a failure to keep the guest's progress was said */
	struct result *guest_prior;	/* in the guest: the run the host continues */
	struct model_spec model;	/* --medium: the modelled medium */
	int modelled;
	int model_here;		/* --medium served on this host (media/host.h), not the guest */
	struct model_host *mh;	/* ... once started */
};

/* Write --json/--csv/--markdown/--html of stored run run_id; 0 or -1. */
int run_write_outputs(struct run_cli *c, int64_t run_id);
/* run-live.c: the runner's events drawn as the run goes (its progress
 * line, failures, each finished test's section), and the run's end (the
 * tests held back, the answer, where everything went). */
struct runner_events run_live_events(struct run_cli *c);
void run_print_end(struct run_cli *c, int64_t run_id);

/* run-medium.c: --device and --medium read into c->prov.medium (0, or -1
 * with the error set); whether the model can be served to this host
 * (every filesystem in its kernel, nbdfuse there: 1, else 0 and why); and
 * that served, the medium pointed at it (0 when there is nothing to
 * start). */
int run_medium_options(const struct cli_args *a, struct run_cli *c);
int run_medium_here(const struct run_cli *c, char *why, size_t len);
int run_medium_start(struct run_cli *c);

/* --vm (run-vm.c): the same command, without what only the host uses,
 * run by the guest; its run kept in c->store from before the guest boots
 * (prior: the interrupted run --resume continues).  An EXIT_ code. */
int run_vm(struct run_cli *c, const struct cli_args *a, const struct result *prior);
/* In the guest (run-vm.c): the run the host asked to continue, imported
 * into the guest's store and set as c->rq.resume.  0, or -1. */
int run_guest_resume(struct run_cli *c);
/* In the guest (run-vm.c): --device's medium set to the disk the host made
 * of the user's device.  0, or -1. */
int run_guest_medium(struct run_cli *c);

/* Inside the guest (run-vm.c): run run_id as an export document for the
 * host.  0, or -1 with the error set. */
int run_guest_export(struct run_cli *c, int64_t run_id);
/* In the guest (nothing elsewhere): the run so far, for the host to keep
 * should the guest never finish; called as each repetition starts. */
void run_guest_progress(struct run_cli *c);

#endif
