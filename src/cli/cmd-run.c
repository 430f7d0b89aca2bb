/*
 * cmd-run.c: `fsbench run TEST... --target [LABEL=]DIR...`
 *
 * Parses tests and targets, checks everything before touching anything,
 * runs through the runner (which stores every sample), prints each test's
 * charts from the store as it finishes, then writes the requested files.
 * What the parts of `run` share is run-cli.h; --vm is run-vm.c, --age
 * run-age.c.
 */
#define _GNU_SOURCE
#include "run-cli.h"
#include "../core/comm.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"
#include "../core/stop.h"
#include "../report/progress.h"
#include "../report/report.h"
#include "../targets/medium.h"
#include "../targets/profiles.h"
#include "../targets/state.h"
#include "../vm/vm.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(REPORT_MAX_VERDICTS >= VERDICT_MAX_PAIRS(RUNNER_MAX_TARGETS),
	       "the reports must hold every pair the runner judges");

static const char run_about[] =
	"TEST is a workload (fsmark) or a named test (fsmark-1000x1M); see\n"
	"`fsbench list tests`.  Each target gets a scratch directory fsbench.XXXXXX\n"
	"that is removed afterwards.\n";

#define A(f) offsetof(struct run_args, f)
#define HOST CLI_HOST_ONLY
#define VMO (CLI_HOST_ONLY | CLI_VM_ONLY)

/* Every option once: parsing, --help, the man page, completion, and what
 * --vm and --resume pass on (the flags) all come from here. */
static const struct cli_opt run_opts[] = {
	{ "target", 1, 't', "[LABEL=]DIR", "a directory to test in (repeatable)" },
	{ "fs", 1, 'f', "SPEC[,SPEC...]", "a filesystem fsbench makes and mounts (root), e.g. "
	  "ext4, btrfs:compress=zstd, exfat-fuse, tmpfs, "
	  "ext4:mkfs=-O ^has_journal,mount=noatime,label=nojournal; "
	  "`fsbench list fs` shows what this machine offers" },
	{ "fs-size", 1, 0, "SIZE", "image size per filesystem (default: from what the tests "
	  "need, or 4G)", CLI_SIZE, A(fs_size), 16 << 20, 0 },
	{ "image-dir", 1, 0, "DIR", "where images and mount points go (default /var/tmp)",
	  CLI_STRING, A(image_dir), 0, 0, HOST },
	{ "device", 1, 0, "DEV", "test on this block device instead of images: every --fs "
	  "takes turns on it, made afresh before each run", CLI_STRING, A(device) },
	{ "medium", 1, 0, "NAME|FILE", "test on a modelled flash medium (usb2-key, usb3-key, "
	  "sd-class4, sd-a1, or a FILE.medium): every --fs takes turns on it as on --device; "
	  "on this host when its kernel has every filesystem (through nbdfuse), else (or with "
	  "--vm) in fsbench's guest as a USB key", CLI_STRING, A(medium) },
	{ "device-size", 1, 0, "SIZE", "the region of --device every filesystem gets: its first "
	  "SIZE bytes, in 4 MiB units (default: what the tests need)", CLI_SIZE, A(device_size),
	  16 << 20, 0 },
	{ "device-reset", 1, 0, "discard|zero|none", "what is done to the region before each mkfs "
	  "(default discard; said when the device refuses)", CLI_STRING, A(device_reset) },
	{ "device-settle", 1, 0, "SECONDS", "idle time after each mkfs and mount, once written "
	  "back (default 2)", CLI_NUMBER, A(device_settle), 0, 600 },
	{ "force-format", 0, 0, NULL, "format --device even though it holds data",
	  CLI_FLAG, A(force_format) },
	{ "no-direct-io", 0, 0, NULL, "let the loop device use the host page cache",
	  CLI_FLAG, A(no_direct_io), 0, 0, HOST },
	{ "vm", 0, 0, NULL, "run the filesystems inside a QEMU virtual machine with a pinned "
	  "kernel (f2fs, exfat, nilfs2, vfat, and ubifs/jffs2 on simulated NAND, on any host)",
	  CLI_FLAG, A(vm), 0, 0, HOST },
	{ "kernel", 1, 0, "VERSION|PATH", "the guest's kernel (default: the host's own when its "
	  "image and modules are there, else the newest in `fsbench kernel list`)",
	  CLI_STRING, A(kernel), 0, 0, VMO },
	{ "vm-mem", 1, 0, "SIZE", "the guest's memory (default 2G); it bounds the page cache",
	  CLI_SIZE, A(vm_mem), 256 << 20, 1ULL << 40, VMO },
	{ "vm-cpus", 1, 0, "N", "the guest's CPUs (default 2)", CLI_COUNT, A(vm_cpus), 1, 64, VMO },
	{ "vm-accel", 1, 0, "auto|kvm|tcg", "KVM when it is proven to work (auto, the default), "
	  "or TCG (an emulated CPU)", CLI_STRING, A(vm_accel), 0, 0, VMO },
	{ "vm-timeout", 1, 0, "SECONDS", "kill the guest after this long (default: scaled to "
	  "the work)", CLI_COUNT, A(vm_timeout), 10, 30 * 86400, VMO },
	{ "vm-device-bus", 1, 0, "virtio|usb", "how --device reaches the guest: a virtio disk "
	  "(default) or a USB mass-storage device", CLI_STRING, A(vm_device_bus), 0, 0, VMO },
	{ "vm-device-throttle", 1, 0, "READ,WRITE", "QEMU throttles --device to these MB/s "
	  "(20,8: a USB 2 key): a model, and the report says so", CLI_STRING, A(vm_device_throttle),
	  0, 0, VMO },
	{ "fresh", 1, 0, "test|fs", "mkfs before every test (default) or once per filesystem",
	  CLI_STRING, A(fresh) },
	{ "age", 1, 0, "PROFILE", "after each mkfs, age the filesystem with the profile's seeded "
	  "creates, appends, overwrites, truncates, renames and deletes to its fill and churn "
	  "(desktop, media, git-pull with --age-repo, or a FILE.age; docs/aging.md)", CLI_STRING, A(age) },
	{ "age-repo", 1, 0, "DIR", "the git repository --age git-pull replays the last commits "
	  "of (only read: cloned onto each filesystem)", CLI_STRING, A(age_repo) },
	{ "age-seed", 1, 0, "N", "the aging sequence's seed (default 1), the same on every "
	  "filesystem", CLI_COUNT, A(age_seed), 0, 2147483647 },
	{ "keep-aged", 1, 0, "DIR", "with --age: keep each aged image in DIR and reuse it, in "
	  "this run's later tests and in later runs of the same aging (only adds files there)",
	  CLI_STRING, A(keep_aged), 0, 0, HOST },
	{ "compare-fresh", 0, 0, NULL, "with --age: test each filesystem fresh and aged "
	  "(LABEL-aged), and judge each aged one against its fresh twin", CLI_FLAG,
	  A(compare_fresh) },
	{ "suite", 1, 's', "NAME|FILE", "run a suite's tests (see `fsbench list suites`); its "
	  "filesystems are used when no --fs/--target is given", CLI_STRING, A(suite) },
	{ "fio", 1, 0, "JOBFILE", "every job of a fio job file as a test, run one after "
	  "another on each target (repeatable; `fsbench io` runs a file fio's way)" },
	{ "scale", 1, 0, "F", "multiply the tests' data sizes by F (e.g. 0.1)",
	  CLI_NUMBER, A(scale), 0.001, 1000 },
	{ "ram", 1, 0, "SIZE", "run in a memory cgroup of SIZE, so the page cache cannot "
	  "hide the disk (e.g. 1G)", CLI_SIZE, A(ram), 64 << 20, 0 },
	{ "runs", 1, 'n', "N", "exactly N runs per target (default: at least 3, or the "
	  "suite's runs, then more until every pair of targets is decided, or with one target "
	  "its precision met)", CLI_COUNT, A(runs), 1, 1000 },
	{ "margin", 1, 0, "P%", "two targets within +-P% are equivalent: no practical "
	  "difference (default 3%)", CLI_PERCENT, A(margin), 0, 50, CLI_MIN_OPEN },
	{ "precision", 1, 0, "P%", "repeat each test until its 95% interval is within +-P% on "
	  "every target (default 3%; the rule with one target; given, it replaces the verdicts)",
	  CLI_PERCENT, A(precision), 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN },
	{ "max-runs", 1, 0, "N", "at most N runs per target when aiming at the precision "
	  "(default 20; with --time-budget the budget limits them)", CLI_COUNT, A(max_runs), 1,
	  1000 },
	{ "time-budget", 1, 0, "DURATION", "the whole run's time (e.g. 30m): runs past a test's "
	  "minimum go to the tests that need them most while it lasts", CLI_DURATION,
	  A(time_budget) },
	{ "warmup", 1, 0, "N", "unrecorded runs per target first (default 0)", CLI_COUNT,
	  A(warmup), 0, 100 },
	{ "baseline", 1, 0, "LABEL", "target the ratio table compares to (default first)",
	  CLI_STRING, A(baseline) },
	{ "label", 1, 0, "TEXT", "a name for this run in the store", CLI_STRING, A(label) },
	{ "note", 1, 0, "TEXT", "a note kept with the run and shown in its reports",
	  CLI_STRING, A(note) },
	{ "resume", 1, 0, "RUN", "continue an interrupted run with its own arguments, keeping "
	  "its samples (only --db, --quiet and --verbose may go with it)", CLI_STRING, A(resume),
	  0, 0, CLI_RESUMABLE },
	{ "db", 1, 0, "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, A(db), 0, 0, HOST | CLI_RESUMABLE },
	{ "json", 1, 0, "FILE", "also write the run as JSON (- for stdout)", CLI_STRING, A(json),
	  0, 0, HOST },
	{ "csv", 1, 0, "FILE", "also write every sample as CSV", CLI_STRING, A(csv), 0, 0, HOST },
	{ "markdown", 1, 0, "FILE", "also write a Markdown report", CLI_STRING, A(markdown), 0, 0,
	  HOST },
	{ "html", 1, 0, "FILE", "also write an HTML report with charts", CLI_STRING, A(html), 0, 0,
	  HOST },
	{ "no-drop-caches", 0, 0, NULL, "only sync between runs", CLI_FLAG, A(no_drop_caches) },
	{ "no-device-stats", 0, 0, NULL, "leave out the device group (device counters, "
	  "amplification, space used) and the sync and scan it takes after each run",
	  CLI_FLAG, A(no_device_stats) },
	{ "quiet", 0, 'q', NULL, "no charts or progress on the terminal", CLI_FLAG, A(quiet), 0, 0,
	  CLI_RESUMABLE },
	{ "only", 1, 0, "NAME[,NAME]", "run only these tests of the suite (repeatable)" },
	{ "skip", 1, 0, "NAME[,NAME]", "leave these tests out (repeatable)" },
	{ "dry-run", 0, 0, NULL, "print each test x target with its parameters and an estimated "
	  "time from earlier runs in the store, then exit", CLI_FLAG, A(dry_run) },
	{ "verbose", 0, 0, NULL, "every chart, the means, speed and device tables and every "
	  "verdict, not only each test's primary chart and the answer block", CLI_FLAG,
	  A(verbose), 0, 0, CLI_RESUMABLE },
	{ NULL, 0, 0, NULL, NULL },
};
#undef HOST
#undef VMO

#define MAX_TARGETS RUNNER_MAX_TARGETS


/* The suite's own list of filesystems: take what this machine (or the
 * guest, with --vm) offers.  Inside the guest the host has chosen
 * already; only what no kernel has is left out. */
static int suite_fs_unusable(const struct fs_profile *p, char *why, size_t len, void *arg)
{
	struct run_cli *c = arg;

	if (c->vm) {
		if (!c->kernel_found && vm_kernel_find(c->vmo.kernel, &c->kernel))
			return -1;
		c->kernel_found = 1;
		return vm_profile_available(p, &c->kernel, why, len) ? 1 : 0;
	}
	if (!vm_guest_job()) {
		if (!fs_profile_available(p, why, len))
			return 0;
		/* on the user's device, what this kernel lacks goes to the
		 * guest with the device (check_targets says so), when it has it */
		char qemu[PATH_MAX], gwhy[256];
		if (!c->prov.medium || find_program("qemu-system-x86_64", qemu, sizeof(qemu)) ||
		    (!c->kernel_found && vm_kernel_find(c->vmo.kernel, &c->kernel)))
			return 1;
		c->kernel_found = 1;
		return vm_profile_available(p, &c->kernel, gwhy, sizeof(gwhy)) ? 1 : 0;
	}
	if (p->kind != MOUNT_NONE)
		return 0;
	snprintf(why, len, "%s", p->note);
	return 1;
}

/* --only and --skip, as the user gave them. */
static int select_tests(const struct cli_args *a, struct run_request *rq)
{
	const char **only = calloc((size_t)a->n + 1, sizeof(*only));
	const char **skip = calloc((size_t)a->n + 1, sizeof(*skip));
	int rc = !only || !skip ? error_set("out of memory")
				: runner_select_tests(rq, only, cli_values(a, "only", only), skip,
						      cli_values(a, "skip", skip));

	free(only);
	free(skip);
	return rc;
}

static int is(const struct cli_item *it, const char *name)
{
	return it->opt && !strcmp(it->opt->name, name);
}

/* The guest's options, read when the run goes to the guest (on: --vm, or
 * guest_takes); the checks that need the targets are in run_vm.  Given
 * without a guest they are refused once the targets are checked
 * (vm_only_given), since a run may still go there by itself. */
static int parse_vm(const struct cli_args *a, struct run_cli *c, int on)
{
	const struct run_args *o = a->opts;

	vm_opts_defaults(&c->vmo);
	c->vm = on;
	if (!c->vm)
		return 0;
	if (vm_guest_job())
		return error_set("--vm inside fsbench's own virtual machine");
	c->vmo.kernel = o->kernel;
	if (o->vm_mem)
		c->vmo.mem = o->vm_mem;
	if (o->vm_cpus)
		c->vmo.cpus = o->vm_cpus;
	if (o->vm_accel && vm_accel_parse(o->vm_accel, &c->vmo.accel))
		return -1;
	if (o->vm_timeout)
		c->vmo.timeout = o->vm_timeout;
	if (cli_has(a, "target"))
		return error_set("--vm tests filesystems fsbench makes in the guest (--fs or a suite's, "
				 "on images or on --device); --target DIR is for the host");
	if (o->vm_device_bus && strcmp(o->vm_device_bus, "virtio") && strcmp(o->vm_device_bus, "usb"))
		return error_set("--vm-device-bus '%s': virtio or usb", o->vm_device_bus);
	c->vmo.device_usb = o->vm_device_bus && !strcmp(o->vm_device_bus, "usb");
	if (o->vm_device_throttle) {
		double r, w;
		char end;
		if (sscanf(o->vm_device_throttle, "%lf,%lf%c", &r, &w, &end) != 2 || !(r > 0 && r <= 1e5) ||
		    !(w > 0 && w <= 1e5))
			return error_set("--vm-device-throttle '%s': READ,WRITE in MB/s (e.g. 20,8)",
					 o->vm_device_throttle);
		c->vmo.device_bps_read = (uint64_t)(r * 1e6);
		c->vmo.device_bps_write = (uint64_t)(w * 1e6);
	}
	if ((o->vm_device_bus || o->vm_device_throttle) && !cli_has(a, "device"))
		return error_set("--vm-device-bus and --vm-device-throttle are for --device");
	return 0;
}

/* The first guest-only option given (--vm-mem, --kernel, ...), or NULL. */
static const char *vm_only_given(const struct cli_args *a)
{
	for (const struct cli_opt *r = a->cmd->args; r->name; r++)
		if ((r->flags & CLI_VM_ONLY) && cli_has(a, r->name))
			return r->name;
	return NULL;
}

/* Can the run go to fsbench's guest by itself (runner_check_targets said
 * only the guest has what it needs)?  Only filesystems fsbench makes,
 * named by --fs or on --device (a suite's own list on images was chosen
 * for this kernel), nothing that stays on the host (--target DIR,
 * --keep-aged), and a
 * guest to boot: otherwise the refusal stands, naming --vm. */
static int guest_takes(const struct cli_args *a, struct run_cli *c)
{
	const struct run_args *o = a->opts;
	char why[256], qemu[PATH_MAX];

	if (vm_guest_job() || (!cli_has(a, "fs") && !cli_has(a, "device")) || cli_has(a, "target") ||
	    o->keep_aged)
		return 0;
	for (int i = 0; i < c->rq.ntargets; i++)
		if (strcmp(c->rq.targets[i].ops->kind, "fs"))
			return 0;
	if (find_program("qemu-system-x86_64", qemu, sizeof(qemu)) ||
	    (!c->kernel_found && vm_kernel_find(o->kernel, &c->kernel)))
		return 0;
	c->kernel_found = 1;
	for (int i = 0; i < c->rq.ntargets; i++) {
		const struct fs_spec *fs = target_fs_spec(&c->rq.targets[i]);
		if (!fs || vm_profile_available(fs->profile, &c->kernel, why, sizeof(why)))
			return 0;
	}
	return 1;
}

static int parse_args(const struct cli_args *a, struct run_cli *c)
{
	const struct run_args *o = a->opts;
	struct run_request *rq = &c->rq;
	const char *v;

	runner_defaults(&rq->opts);
	provision_defaults(&c->prov);
	rq->targets = calloc(MAX_TARGETS, sizeof(*rq->targets));
	rq->tests = calloc((size_t)a->n + 1, sizeof(*rq->tests));
	if (!rq->targets || !rq->tests)
		return error_set("out of memory");
	/* Options that shape --fs targets come first, wherever they stand. */
	if (o->fs_size)
		c->prov.size = o->fs_size;
	if ((v = o->image_dir)) {
		struct stat st;
		int there = !stat(v, &st);
		if (!there || !S_ISDIR(st.st_mode))
			return error_set("--image-dir %s: %s", v, !there ?
					 "no such directory (make it first)" : "not a directory");
		c->prov.image_dir = v;
	}
	c->prov.force_format = o->force_format;
	if (run_medium_options(a, c))
		return -1;
	if (o->no_direct_io)
		c->prov.direct_io = 0;
	if (o->age && run_age_setup(&c->age, o->age, cli_has(a, "age-seed") ? (uint64_t)o->age_seed : 1,
				    o->age_repo, o->keep_aged, o->compare_fresh, &c->prov, &c->pg))
		return -1;
	if (!o->age && (cli_has(a, "age-seed") || o->compare_fresh || o->age_repo || o->keep_aged))
		return error_set("--%s goes with --age PROFILE", o->compare_fresh ? "compare-fresh" :
				 o->age_repo ? "age-repo" : o->keep_aged ? "keep-aged" : "age-seed");
	if (o->keep_aged && o->vm)
		return error_set("--keep-aged keeps images on the host; the guest of --vm sees the host "
				 "read-only: age there without it");
	if ((v = o->fresh)) {
		if (strcmp(v, "test") && strcmp(v, "fs"))
			return error_set("--fresh: bad value '%s' (test or fs)", v);
		rq->opts.fresh_per_fs = !strcmp(v, "fs");
	}
	c->suite_name = o->suite;
	if (parse_vm(a, c, o->vm))
		return -1;
	c->ram = o->ram;
	c->scale = cli_has(a, "scale") ? o->scale : 1;
	rq->opts.runs = o->runs;
	if (o->max_runs)
		rq->opts.max_runs = o->max_runs;
	if (cli_has(a, "precision")) {	/* the user's own stopping rule: to the precision, on every target */
		rq->opts.precision = o->precision;
		rq->opts.verdicts = 0;
	}
	if (cli_has(a, "margin")) {
		if (!rq->opts.verdicts)
			return error_set("--margin is for the verdicts between targets; --precision "
					 "replaces them");
		rq->opts.margin = o->margin;
	}
	rq->opts.time_budget = o->time_budget;
	if (rq->opts.runs && (cli_has(a, "precision") || cli_has(a, "time-budget") ||
			      cli_has(a, "max-runs")))
		return error_set("--runs fixes the count: it does not go with --precision, "
				 "--max-runs or --time-budget");
	rq->opts.warmup = o->warmup;
	rq->baseline = o->baseline;
	rq->label = o->label;
	if (rq->label && str_has_control(rq->label))
		return error_set("--label: control characters are not allowed in a label");
	rq->note = o->note;
	if (rq->note && (str_has_control(rq->note) || strlen(rq->note) > 4000))
		return error_set("--note: at most 4000 characters, without control characters");
	c->db = o->db;
	c->json = o->json;
	c->csv = o->csv;
	c->markdown = o->markdown;
	c->html = o->html;
	if (cli_output_check("--json", c->json) || cli_output_check("--csv", c->csv) ||
	    cli_output_check("--markdown", c->markdown) || cli_output_check("--html", c->html))
		return -1;
	if (o->no_drop_caches)
		rq->opts.drop_caches = 0;
	rq->opts.device_stats = !o->no_device_stats;
	rq->opts.quiet = o->quiet;
	c->verbose = o->verbose;
	/* Then, in the order given: targets, filesystems, job files, tests. */
	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (is(it, "target")) {
			if (rq->ntargets >= MAX_TARGETS)
				return error_set("at most %d targets", MAX_TARGETS);
			if (target_parse(it->value, &rq->targets[rq->ntargets]))
				return -1;
			rq->ntargets++;
		} else if (is(it, "fs")) {
			struct fs_spec specs[MAX_TARGETS];
			int n = 0;
			if (fs_spec_split(it->value, specs, MAX_TARGETS, &n))
				return -1;
			for (int k = 0; k < n; k++) {
				if (rq->ntargets >= MAX_TARGETS)
					return error_set("at most %d targets", MAX_TARGETS);
				if (target_from_spec(&specs[k], &c->prov, &rq->targets[rq->ntargets]))
					return -1;
				rq->ntargets++;
			}
		} else if (is(it, "fio")) {
			if (c->nfio == MAX_FIO_FILES)
				return error_set("--fio: at most %d job files", MAX_FIO_FILES);
			c->fio_files[c->nfio++] = it->value;
		} else if (!it->opt) {
			if (test_spec_parse(it->value, &rq->tests[rq->ntests]))
				return -1;
			if (test_spec_scale(&rq->tests[rq->ntests], c->scale)) {
				test_spec_free(&rq->tests[rq->ntests]);
				return -1;
			}
			rq->ntests++;
		}
	}
	/* `--json - | jq`: stdout holds the document alone. */
	const char *outs[] = { c->json, c->csv, c->markdown, c->html };
	int dashes = 0;
	c->human = stdout;
	for (int i = 0; i < 4; i++)
		if (outs[i] && !strcmp(outs[i], "-")) {
			c->human = stderr;
			dashes++;
		}
	if (dashes > 1)
		return error_set("run: only one of --json, --csv, --markdown and --html can be - "
				 "(stdout)");
	if (c->nfio && runner_add_fio_jobs(rq, c->fio_files, c->nfio, c->scale))
		return -1;
	if (c->suite_name && runner_add_suite(rq, &c->suite, c->suite_name, c->scale, &c->prov,
					      suite_fs_unusable, c))
		return -1;
	if (select_tests(a, rq))
		return -1;
	if (!rq->ntests)
		return error_set("run: no test given (e.g. `fsbench run fsmark --target DIR` or --suite NAME; see `fsbench list tests`)");
	if (!rq->ntargets)
		return error_set("run: no target given (add --fs SPEC or --target [LABEL=]DIR)");
	if (c->age.on && run_age_targets(&c->age, rq))
		return -1;
	if (c->prov.medium) {
		for (int i = 0; i < rq->ntargets; i++) {
			if (strcmp(rq->targets[i].ops->kind, "fs"))
				return error_set("--device: the filesystems take turns on it; a --target "
						 "DIR has no place there");
			if (!target_uses_device(&rq->targets[i]))
				return error_set("--device: fs '%s' does not use a block device (tmpfs "
						 "lives in memory, flash in the guest)", rq->targets[i].label);
		}
		char found[256];	/* only looked at: checked again as it is taken */
		if (!vm_guest_job() && o->device &&
		    device_check(o->device, c->prov.force_format, found, sizeof(found)))
			return -1;
		/* a model: on this host when its kernel has every filesystem
		 * and nbdfuse can carry it; else served to fsbench's guest as a
		 * USB key, and the run goes there */
		if (c->modelled && !c->vm && !vm_guest_job()) {
			char why[256] = "";
			if (run_medium_here(c, why, sizeof(why))) {
				c->model_here = 1;
			} else {
				if (parse_vm(a, c, 1))
					return -1;
				if (!o->quiet)
					fprintf(stderr, "fsbench: --medium %s: %s: the model is served to "
						"fsbench's guest as a USB key, and the run goes there, as "
						"with --vm\n", o->medium, why);
			}
		}
		/* a filesystem this kernel lacks (F2FS here): the device and the
		 * run go to the guest, which has it, as powercut's do */
		for (int i = 0; i < rq->ntargets && !c->vm && !vm_guest_job(); i++) {
			const struct fs_spec *fs = target_fs_spec(&rq->targets[i]);
			char why[256];
			if (!fs_profile_available(fs->profile, why, sizeof(why)))
				continue;
			if (!guest_takes(a, c))
				return error_set("fs '%s' is not available here (%s): run it in the guest "
						 "with --vm", rq->targets[i].label, why);
			if (parse_vm(a, c, 1))
				return -1;
			fprintf(stderr, "fsbench: fs '%s' is not available here (%s): the run and --device "
				"%s go to fsbench's guest, as with --vm\n", rq->targets[i].label, why,
				o->device);
		}
	} else if (c->prov.force_format) {
		return error_set("--force-format applies only with --device");
	}
	if (c->modelled && c->prov.force_format) {
		return error_set("--force-format applies only with --device (a model holds nothing)");
	}
	/* A directory target is the user's input, checked before the store
	 * is opened (its setup only looks), as are two targets of one label,
	 * and what the tests refuse of the targets: before images are sized. */
	for (int i = 0; i < rq->ntargets; i++) {
		for (int j = 0; j < i; j++)
			if (!strcmp(rq->targets[j].label, rq->targets[i].label))
				return error_set("two targets are labelled '%s': name them with "
						 "--target LABEL=DIR", rq->targets[i].label);
		if (!strcmp(rq->targets[i].ops->kind, "dir") && rq->targets[i].ops->setup(&rq->targets[i]))
			return -1;
	}
	int checked = runner_check_targets(rq, !c->vm && !vm_guest_job());
	char refusal[512];
	str_copy(refusal, sizeof(refusal), error_get());
	if (checked == WL_GUEST_HAS_IT && guest_takes(a, c)) {
		/* only the guest's kernel has what a test needs (powercut's
		 * dm-log-writes): the run goes there, as with --vm */
		if (parse_vm(a, c, 1))
			return -1;
		fprintf(stderr, "fsbench: %s: the run goes there, as with --vm\n", refusal);
	} else if (checked == WL_GUEST_HAS_IT) {
		return error_set("%s: run it there with --vm", refusal);
	} else if (checked) {
		return -1;
	}
	if (!c->vm && (v = vm_only_given(a)))
		return error_set("--%s applies only with --vm", v);
	/* the memory of the machine the tests run on: the guest's with --vm
	 * (the guest says it again from its own), --ram's limit when lower */
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t ram = c->vm ? c->vmo.mem : pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
	if (c->ram && (!ram || c->ram < ram))
		ram = c->ram;
	runner_memory_notes(rq, ram);
	if (c->modelled) {	/* on every chart: no one takes it for a device */
		char note[128];
		snprintf(note, sizeof(note), "modelled medium: %s", c->model.name);
		runner_subtitle_add(rq, note);
	}
	if (!o->fs_size && !vm_guest_job() && runner_size_images(rq, &c->prov))
		return -1;
	if (c->prov.medium && !o->device_size)	/* what the tests need, as an image's */
		medium_set_region(c->prov.medium, c->prov.size);
	for (int i = 0; i < rq->ntargets; i++)
		if (target_check_size(&rq->targets[i], c->prov.size))
			return -1;
	if (comm_size() > 1) {
		for (int i = 0; i < rq->ntests; i++)
			if (!(rq->tests[i].wl->flags & WL_MPI))
				return error_set("run: under mpirun only ior and mdtest run, not '%s' "
						 "(run it without mpirun)", rq->tests[i].name);
		for (int i = 0; i < rq->ntargets; i++)
			if (strcmp(rq->targets[i].ops->kind, "dir"))
				return error_set("run: under mpirun give --target DIR on the shared "
						 "filesystem; fsbench makes filesystems only without mpirun");
		/* every rank must decide alike: values are all-reduced, clocks are not */
		if (rq->opts.time_budget > 0)
			return error_set("run: --time-budget does not work under mpirun (each rank "
					 "has its own clock); use --max-runs");
	}
	if (rq->baseline) {
		int found = 0;
		for (int i = 0; i < rq->ntargets; i++)
			found |= !strcmp(rq->targets[i].label, rq->baseline);
		if (!found)
			return error_set("--baseline '%s' names no target (labels come from --target LABEL=DIR)",
					 rq->baseline);
	}
	return 0;
}

/* --dry-run: each test x target, its parameters, and a time estimated from
 * earlier samples in the store; nothing is made or run. */
static int dry_run(struct run_cli *c)
{
	struct store *s = NULL;

	if (cli_open_store_readonly(c->db, &s))
		s = NULL;	/* no store yet: no estimates, still a plan */
	runner_print_plan(stdout, s, &c->rq, c->vm);
	store_close(s);
	return EXIT_OK;
}

int run_write_outputs(struct run_cli *c, int64_t run_id)
{
	struct result *r;
	int rc = 0;

	if (!c->json && !c->csv && !c->markdown && !c->html)
		return 0;
	if (store_load_run(c->store, run_id, &r))
		return -1;
	if (c->json)
		rc |= cli_write_output(r, "json", c->json, c->rq.baseline, 1);
	if (c->csv)
		rc |= cli_write_output(r, "csv", c->csv, c->rq.baseline, 1);
	if (c->markdown)
		rc |= cli_write_output(r, "markdown", c->markdown, c->rq.baseline, 1);
	if (c->html)
		rc |= cli_write_output(r, "html", c->html, c->rq.baseline, 1);
	result_free(r);
	return rc ? -1 : 0;
}

static void free_cli(struct run_cli *c)
{
	free(c->sections);
	c->sections = NULL;
	free(c->args_json);
	c->args_json = NULL;
	for (int i = 0; i < c->rq.ntests; i++)
		test_spec_free(&c->rq.tests[i]);
	for (int i = 0; i < c->rq.ntargets; i++)
		target_free(&c->rq.targets[i]);
	suite_free(&c->suite);
	/* after the targets gave their medium back (runner_teardown) */
	model_host_stop(c->mh);
	c->mh = NULL;
	medium_free(c->prov.medium);
	c->prov.medium = NULL;
	if (c->guest_prior)
		result_free(c->guest_prior);
	c->guest_prior = NULL;
	free(c->rq.tests);
	free(c->rq.targets);
	store_close(c->store);
}

static int run_main(const struct cli_args *a, const struct result *prior,
		    const struct cli_args *outer);

/* Where a run keeps what reproduces a finding: beside the result store;
 * in the guest the exchange directory's, which the host collects into its
 * own (vm_execute). */
static void findings_dir(struct run_cli *c)
{
	c->rq.findings = NULL;
	if (vm_guest_job())
		str_copy(c->findings, sizeof(c->findings), VM_GUEST_FINDINGS);
	else if (store_findings_dir(c->db, c->findings, sizeof(c->findings)))
		return;
	c->rq.findings = c->findings;
}

/* --resume RUN: the stored arguments, parsed again, run into the same
 * run; the samples it has count. */
static int resume(const struct cli_args *a)
{
	const struct run_args *o = a->opts;
	const char *sel = o->resume, *db = o->db;
	struct store *s = NULL;
	struct result *r = NULL;
	int64_t id;
	int code;

	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (!it->opt || !(it->opt->flags & CLI_RESUMABLE))
			return cli_fail(EXIT_USAGE, "run --resume: the run's own arguments are used; "
					"only --db, --quiet and --verbose may be given with it");
	}
	int opened = cli_open_store(db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	if ((code = cli_load_run(s, sel, 0, &r, &id))) {
		store_close(s);
		return cli_fail(code, "%s", error_get());
	}
	/* a run whose own process still runs is not resumed: both would
	 * store its rounds (59 samples where 30 ran, issue 69) */
	char where[PATH_MAX], rid[24];
	long owner = 0;
	snprintf(rid, sizeof(rid), "%lld", (long long)id);
	if (realpath(store_file(s), where))
		owner = state_run_owner(where, rid);
	store_close(s);
	if (owner > 0) {
		result_free(r);
		return cli_fail(EXIT_USAGE, "run %lld is still running (process %ld): only a run whose "
				"process has ended can be resumed", (long long)id, owner);
	}
	char **argv = NULL;
	int argc = 0;
	if (runner_resume_args(r, id, &argv, &argc)) {
		result_free(r);
		return cli_fail(EXIT_USAGE, "%s", error_get());
	}
	struct cli_args again;
	if (cli_parse(a->cmd, argc, argv, &again))
		code = cli_fail(EXIT_USAGE, "run %lld: its stored arguments: %s", (long long)id,
				error_get());
	else if (((const struct run_args *)again.opts)->resume)
		code = cli_fail(EXIT_USAGE, "run %lld: its stored arguments resume another run",
				(long long)id);
	else {
		fprintf(stderr, "fsbench: resuming run %lld: fsbench run %s\n", (long long)id,
			r->cmdline[0] ? r->cmdline + (strncmp(r->cmdline, "fsbench run ", 12) ? 0 : 12)
				      : "");
		code = run_main(&again, r, a);
	}
	cli_args_free(&again);
	runner_resume_args_free(argv, argc);
	result_free(r);
	return code;
}

static int cmd_run(const struct cli_args *a)
{
	if (((const struct run_args *)a->opts)->resume)
		return resume(a);
	return run_main(a, NULL, NULL);
}

static int run_main(const struct cli_args *a, const struct result *prior,
		    const struct cli_args *outer)
{
	struct run_cli c;
	struct runner_events ev = run_live_events(&c);
	char cmdline[8192];
	int64_t run_id = 0;
	int interrupted = 0, rc;

	memset(&c, 0, sizeof(c));
	/* In an MPI job every rank runs this command; rank 0 alone prints and
	 * stores, the others keep their results in memory. */
	if (comm_rank() > 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		close(devnull);
	}
	if (parse_args(a, &c)) {
		free_cli(&c);
		return cli_fail(EXIT_USAGE, "%s", error_get());
	}
	if (outer) {	/* --resume: where the run is and how to show it */
		const struct run_args *oo = outer->opts;
		if (oo->db)
			c.db = oo->db;
		if (oo->quiet)
			c.rq.opts.quiet = 1;
		if (oo->verbose)
			c.verbose = 1;
	}
	c.rq.resume = prior;
	if (((const struct run_args *)a->opts)->dry_run) {
		rc = dry_run(&c);
		free_cli(&c);
		return rc;
	}
	snprintf(cmdline, sizeof(cmdline), "fsbench run ");
	cli_command_line(a->argc - 1, a->argv + 1, cmdline + 12, sizeof(cmdline) - 12);
	c.rq.cmdline = cmdline;
	c.args_json = runner_args_json(a->argc - 1, a->argv + 1);
	c.rq.argv = c.args_json;
	if (comm_rank() > 0) {
		c.db = ":memory:";
		c.json = c.csv = c.markdown = c.html = NULL;
	}
	/* --vm: the guest's disks must fit, said before the store or the
	 * guest is made */
	if (c.vm && vm_disks_fit(c.rq.targets, c.rq.ntargets,
				 c.prov.image_dir ? c.prov.image_dir : "/var/tmp")) {
		free_cli(&c);
		return cli_fail(EXIT_USAGE, "%s", error_get());
	}
	if ((rc = cli_open_store(c.db, &c.store))) {
		free_cli(&c);
		return cli_fail(rc == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	}
	findings_dir(&c);
	stop_install_signals();
	state_cleanup_after_crash();
	int left = state_leftovers();
	if (left < 0) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (left)
		fprintf(stderr, "fsbench: warning: an earlier run left mounts, loop devices or images behind (see %s): run `fsbench cleanup`\n",
			state_path());
	if (c.vm) {
		rc = run_vm(&c, a, prior);
		free_cli(&c);
		return rc;
	}
	if (vm_guest_job()) {
		if (vm_guest_setup(c.rq.targets, c.rq.ntargets, c.vm_text, sizeof(c.vm_text)) ||
		    run_guest_medium(&c) || run_guest_resume(&c)) {
			free_cli(&c);
			return cli_fail(EXIT_FAIL, "%s", error_get());
		}
		c.rq.vm = c.vm_text;
	}
	if (run_medium_start(&c)) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	/* the live line from setup on: --age's aging is part of it */
	c.pg = progress_start(c.rq.opts.quiet);
	rc = runner_prepare(&c.rq);
	if (rc) {
		progress_stop(c.pg);
		free_cli(&c);
		/* stopped while the targets were made or aged: 130 as after
		 * any stop (it was 1, "aging: interrupted", issue 69) */
		if (stop_requested()) {
			fprintf(stderr, "fsbench: interrupted while the targets were prepared (%s); "
					"nothing was run or stored, what was made is removed\n",
				error_get());
			return EXIT_INTERRUPTED;
		}
		return cli_fail(rc == -2 ? EXIT_FAIL : EXIT_USAGE, "%s", error_get());
	}
	run_age_notes(&c.rq, c.pg);
	if (c.ram) {
		char ram[32];
		format_size(c.ram, ram, sizeof(ram));
		if (memlimit_apply(c.ram, &c.mem)) {
			progress_stop(c.pg);
			runner_teardown(&c.rq);
			free_cli(&c);
			return cli_fail(EXIT_FAIL, "%s", error_get());
		}
		snprintf(c.ram_note, sizeof(c.ram_note), "%s (%s)", ram, c.mem.how);
		c.rq.memory_limit = c.ram_note;
	}
	rc = runner_execute(c.store, &c.rq, &ev, &run_id, &interrupted);
	progress_stop(c.pg);
	c.pg = NULL;
	memlimit_release(&c.mem);
	runner_teardown(&c.rq);
	if (rc < 0) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (vm_guest_job() && run_guest_export(&c, run_id)) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (interrupted) {
		fprintf(stderr, "fsbench: interrupted; run %lld is stored as interrupted, scratch files removed\n",
			(long long)run_id);
		free_cli(&c);
		return EXIT_INTERRUPTED;
	}
	if (run_write_outputs(&c, run_id)) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (comm_rank() == 0 && !c.rq.opts.quiet)
		run_print_end(&c, run_id);
	free_cli(&c);
	return rc ? EXIT_FAIL : EXIT_OK;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.usage = "TEST... --target [LABEL=]DIR... [options]",
	.summary = "run tests on targets, store and chart the results",
	.about = run_about,
	.args = run_opts,
	.opts_size = sizeof(struct run_args),
	.exec = cmd_run,
};
