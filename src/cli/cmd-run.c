/*
 * cmd-run.c: `fsbench run TEST... --target [LABEL=]DIR...`
 *
 * Parses tests and targets, checks everything before touching anything,
 * runs through the runner (which stores every sample), prints each test's
 * charts from the store as it finishes, then writes the requested files.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "../core/checked.h"
#include "../core/comm.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/suggest.h"
#include "../core/stop.h"
#include "../report/progress.h"
#include "../report/report.h"
#include "../io/jobfile.h"
#include "../runner/runner.h"
#include "../runner/memlimit.h"
#include "../runner/suite.h"
#include "../targets/profiles.h"
#include "../targets/state.h"
#include "../vm/vm.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char run_about[] =
	"TEST is a workload (fsmark) or a named test (fsmark-1000x1M); see\n"
	"`fsbench list tests`.  Each target gets a scratch directory fsbench.XXXXXX\n"
	"that is removed afterwards.\n";

#define MAX_FIO_FILES 8

/* Every option once: parsing and --help both come from here. */
static const struct cli_opt run_opts[] = {
	{ "target", 1, 't', "[LABEL=]DIR", "a directory to test in (repeatable)" },
	{ "fs", 1, 'f', "SPEC[,SPEC...]", "a filesystem fsbench makes and mounts (root), e.g. "
	  "ext4, btrfs:compress=zstd, exfat-fuse, tmpfs, "
	  "ext4:mkfs=-O ^has_journal,mount=noatime,label=nojournal; "
	  "`fsbench list fs` shows what this machine offers" },
	{ "fs-size", 1, 0, "SIZE", "image size per filesystem (default: from what the tests "
	  "need, or 4G)" },
	{ "image-dir", 1, 0, "DIR", "where images and mount points go (default /var/tmp)" },
	{ "device", 1, 0, "DEV", "format this block device instead of an image (one --fs)" },
	{ "force-format", 0, 0, NULL, "format --device even though it holds data" },
	{ "no-direct-io", 0, 0, NULL, "let the loop device use the host page cache" },
	{ "vm", 0, 0, NULL, "run the filesystems inside a QEMU virtual machine with a pinned "
	  "kernel (f2fs, exfat, nilfs2, vfat, and ubifs/jffs2 on simulated NAND, on any host)" },
	{ "kernel", 1, 0, "VERSION|PATH", "the guest's kernel (default: the host's own when its "
	  "image and modules are there, else the newest in `fsbench kernel list`)" },
	{ "vm-mem", 1, 0, "SIZE", "the guest's memory (default 2G); it bounds the page cache" },
	{ "vm-cpus", 1, 0, "N", "the guest's CPUs (default 2)" },
	{ "vm-accel", 1, 0, "auto|kvm|tcg", "KVM when it is proven to work (auto, the default), "
	  "or TCG (an emulated CPU)" },
	{ "vm-timeout", 1, 0, "SECONDS", "kill the guest after this long (default: scaled to "
	  "the work)" },
	{ "fresh", 1, 0, "test|fs", "mkfs before every test (default) or once per filesystem" },
	{ "suite", 1, 's', "NAME|FILE", "run a suite's tests (see `fsbench list suites`); its "
	  "filesystems are used when no --fs/--target is given" },
	{ "fio", 1, 0, "JOBFILE", "every job of a fio job file as a test, run one after "
	  "another on each target (repeatable; `fsbench io` runs a file fio's way)" },
	{ "scale", 1, 0, "F", "multiply the tests' data sizes by F (e.g. 0.1)" },
	{ "ram", 1, 0, "SIZE", "run in a memory cgroup of SIZE, so the page cache cannot "
	  "hide the disk (e.g. 1G)" },
	{ "runs", 1, 'n', "N", "exactly N runs per target (default: at least 3, or the "
	  "suite's runs, then more until every pair of targets is decided, or with one target "
	  "its precision met)" },
	{ "margin", 1, 0, "P%", "two targets within +-P% are equivalent: no practical "
	  "difference (default 3%)" },
	{ "precision", 1, 0, "P%", "repeat each test until its 95% interval is within +-P% on "
	  "every target (default 3%; the rule with one target; given, it replaces the verdicts)" },
	{ "max-runs", 1, 0, "N", "at most N runs per target when aiming at the precision "
	  "(default 20; with --time-budget the budget limits them)" },
	{ "time-budget", 1, 0, "DURATION", "the whole run's time (e.g. 30m): runs past a test's "
	  "minimum go to the tests that need them most while it lasts" },
	{ "warmup", 1, 0, "N", "unrecorded runs per target first (default 0)" },
	{ "baseline", 1, 0, "LABEL", "target the ratio table compares to (default first)" },
	{ "label", 1, 0, "TEXT", "a name for this run in the store" },
	{ "note", 1, 0, "TEXT", "a note kept with the run and shown in its reports" },
	{ "resume", 1, 0, "RUN", "continue an interrupted run with its own arguments, keeping "
	  "its samples (only --db, --quiet and --verbose may go with it)" },
	{ "db", 1, 0, "FILE", "result store (default ~/.local/share/fsbench/results.db)" },
	{ "json", 1, 0, "FILE", "also write the run as JSON (- for stdout)" },
	{ "csv", 1, 0, "FILE", "also write every sample as CSV" },
	{ "markdown", 1, 0, "FILE", "also write a Markdown report" },
	{ "html", 1, 0, "FILE", "also write an HTML report with charts" },
	{ "no-drop-caches", 0, 0, NULL, "only sync between runs" },
	{ "no-device-stats", 0, 0, NULL, "leave out the device group (device counters, "
	  "amplification, space used) and the sync and scan it takes after each run" },
	{ "quiet", 0, 'q', NULL, "no charts or progress on the terminal" },
	{ "only", 1, 0, "NAME[,NAME]", "run only these tests of the suite (repeatable)" },
	{ "skip", 1, 0, "NAME[,NAME]", "leave these tests out (repeatable)" },
	{ "dry-run", 0, 0, NULL, "print each test x target with its parameters and an estimated "
	  "time from earlier runs in the store, then exit" },
	{ "verbose", 0, 0, NULL, "every chart and the means and ratio tables, not only "
	  "each test's primary chart and the summary" },
	{ NULL, 0, 0, NULL, NULL },
};

#define MAX_TARGETS RUNNER_MAX_TARGETS

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
	struct progress *pg;	/* the live line; the runner only reports events */
	int vm;			/* --vm: the run happens in a guest */
	struct vm_opts vmo;
	char vm_text[512];	/* inside the guest: the machine, for the system table */
	char *args_json;	/* the arguments, stored for --resume */
	FILE *human;		/* charts and summary: stdout, or stderr when a
				 * document (--json - ...) takes stdout */
};

static int count_arg(const char *opt, const char *v, int min, int max, int *out)
{
	int64_t n;

	if (parse_decimal(v, &n) || n < min || n > max)
		return error_set("%s: bad value '%s' (a whole number from %d to %d)",
				 opt, v, min, max);
	*out = (int)n;
	return 0;
}

/* Append each job of the --fio job files as an io test named after it. */
static int add_fio_jobs(struct run_cli *c)
{
	struct run_request *rq = &c->rq;
	struct jobset *set = calloc(1, sizeof(*set));
	int rc = 0;

	if (!set)
		return error_set("out of memory");
	for (int f = 0; f < c->nfio && !rc; f++) {
		struct test_spec *all;
		memset(set, 0, sizeof(*set));
		if (jobfile_load(c->fio_files[f], false, set)) {
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
			if (set->jobs[j].flow) {	/* its ratio is to jobs that run with it */
				rc = error_set("%s: job %s: flow= keeps jobs running together in a "
					       "ratio, and --fio runs each job alone: run the file with "
					       "`fsbench io`", c->fio_files[f], set->jobs[j].name);
				break;
			}
			if (test_spec_from_params(workload_find("io"), &set->jobs[j], set->jobs[j].name,
						  &rq->tests[rq->ntests])) {
				/* "FILE: job NAME: why": the job's own error starts with its name */
				char msg[1024];
				snprintf(msg, sizeof(msg), "%s", error_get());
				rc = error_set("%s: job %s", c->fio_files[f], msg);
				break;
			}
			if (test_spec_scale(&rq->tests[rq->ntests], c->scale)) {
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

/* The suite's own list of filesystems: take what this machine (or the
 * guest, with --vm) offers.  Inside the guest the host has chosen
 * already; only what no kernel has is left out. */
static int suite_fs_unusable(const struct run_cli *c, const struct fs_profile *p,
			     const struct vm_kernel *k, char *why, size_t len)
{
	if (c->vm)
		return vm_profile_available(p, k, why, len);
	if (!vm_guest_job())
		return fs_profile_available(p, why, len);
	if (p->kind != MOUNT_NONE)
		return 0;
	snprintf(why, len, "%s", p->note);
	return -1;
}

/* Append the suite's tests; its filesystems when none were named. */
static int add_suite(struct run_cli *c)
{
	struct run_request *rq = &c->rq;
	struct test_spec *all;

	if (suite_load(c->suite_name, c->scale, &c->suite))
		return -1;
	/* (and no memcpy from a suite that holds none) */
	if (!c->suite.ntests && c->suite.nskipped)
		return error_set("suite %s has no runnable test: %s%s", c->suite.name,
				 c->suite.skipped[0], c->suite.nskipped > 1 ? " (and more)" : "");
	if (!c->suite.ntests)
		return error_set("suite %s has no runnable test", c->suite.name);
	for (int i = 0; i < c->suite.nskipped; i++)
		fprintf(stderr, "fsbench: suite %s: skipping %s\n", c->suite.name, c->suite.skipped[i]);
	/* its filesystems are checked whether or not they are used */
	struct fs_spec specs[MAX_TARGETS];
	int nspecs = 0;
	if (c->suite.filesystems[0] &&
	    fs_spec_split(c->suite.filesystems, specs, MAX_TARGETS, &nspecs))
		return error_prefix("suite %s: filesystems", c->suite.name);
	all = realloc(rq->tests, sizeof(*all) * (size_t)(rq->ntests + c->suite.ntests + 1));
	if (!all)
		return error_set("out of memory");
	rq->tests = all;
	/* The run owns the specs now; the suite keeps only its header. */
	memcpy(rq->tests + rq->ntests, c->suite.tests, sizeof(*all) * (size_t)c->suite.ntests);
	rq->ntests += c->suite.ntests;
	c->suite.ntests = 0;
	/* the suite's budget, unless the user gave one or fixed the runs */
	if (c->suite.time_budget > 0 && !rq->opts.time_budget && !rq->opts.runs)
		rq->opts.time_budget = c->suite.time_budget;
	if (!rq->ntargets && nspecs) {
		int n = nspecs;
		struct vm_kernel k;
		if (c->vm && vm_kernel_find(c->vmo.kernel, &k))
			return -1;
		for (int i = 0; i < n; i++) {
			char why[256];
			if (suite_fs_unusable(c, specs[i].profile, &k, why, sizeof(why))) {
				fprintf(stderr, "fsbench: suite %s: skipping filesystem %s: %s\n",
					c->suite.name, specs[i].text, why);
				continue;
			}
			if (target_from_spec(&specs[i], &c->prov, &rq->targets[rq->ntargets++]))
				return -1;
		}
	}
	if (!rq->label)
		rq->label = c->suite.name;
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

/* --only and --skip (PTS users run single tests of a suite): every name
 * must be a test of the run, or it is a typo worth saying. */
static int select_tests(const struct cli_args *a, struct run_request *rq)
{
	const char *names[256];
	int n = 0, k = 0;

	for (int i = 0; i < rq->ntests && n < 256; i++)
		names[n++] = rq->tests[i].name;
	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (!it->opt || (strcmp(it->opt->name, "only") && strcmp(it->opt->name, "skip")))
			continue;
		for (const char *p = it->value; *p;) {
			size_t len = strcspn(p, ",");
			char name[160];
			int found = 0;
			snprintf(name, sizeof(name), "%.*s", (int)(len < 159 ? len : 159), p);
			for (int t = 0; t < n; t++)
				found |= !strcmp(names[t], name);
			if (!found) {
				const char *near = suggest(name, names, n);
				return error_set("--%s: no test '%s' in this run%s%s%s", it->opt->name, name,
						 near ? " (did you mean '" : "", near ? near : "",
						 near ? "'?)" : "");
			}
			p += len + (p[len] == ',');
		}
	}
	int only = cli_has(a, "only");
	for (int i = 0; i < rq->ntests; i++) {
		int keep = 1;
		if (only) {
			keep = 0;
			for (int j = 0; j < a->n; j++)
				if (a->items[j].opt && !strcmp(a->items[j].opt->name, "only") &&
				    in_list(a->items[j].value, rq->tests[i].name))
					keep = 1;
		}
		for (int j = 0; j < a->n; j++)
			if (a->items[j].opt && !strcmp(a->items[j].opt->name, "skip") &&
			    in_list(a->items[j].value, rq->tests[i].name))
				keep = 0;
		if (keep)
			rq->tests[k++] = rq->tests[i];
		else
			test_spec_free(&rq->tests[i]);
	}
	rq->ntests = k;
	return 0;
}

static int is(const struct cli_item *it, const char *name)
{
	return it->opt && !strcmp(it->opt->name, name);
}

/* The most space one of the tests needs on a target (0: none says), and
 * which test that is. */
static uint64_t largest_need(const struct run_request *rq, const char **which)
{
	uint64_t need = 0;

	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		uint64_t n = ts->wl->space_needed ? ts->wl->space_needed(ts->params) : 0;
		if (n > need) {
			need = n;
			*which = ts->name;
		}
	}
	return need;
}

/* Without --fs-size, each image is sized from what its tests need: the
 * largest test's space, a quarter more and 512 MiB for the filesystem's
 * own metadata and journal, in whole GiB, at least 1 GiB (images are
 * sparse: only what is written takes space).  All of them must fit in the
 * image directory at once, since no test's data shrinks an image file. */
static int size_images(struct run_cli *c)
{
	struct run_request *rq = &c->rq;
	const char *which = NULL;
	uint64_t need = largest_need(rq, &which), size, have, total = 0;
	int images = 0;

	if (!need)
		return 0;	/* no test says: the default size */
	size = sat_add(sat_add(need, need / 4), 512ULL << 20);
	size = sat_mul((size + (1ULL << 30) - 1) >> 30, 1ULL << 30);
	if (size < (1ULL << 30))
		size = 1ULL << 30;
	c->prov.size = size;
	for (int i = 0; i < rq->ntargets; i++)
		if (target_set_image_size(&rq->targets[i], size)) {
			images++;
			total = sat_add(total, size);
		}
	if (!images)
		return 0;
	const char *dir = c->prov.image_dir ? c->prov.image_dir : "/var/tmp";
	char sz[32], nd[32], tot[32], hv[32];
	format_size(size, sz, sizeof(sz));
	format_size(need, nd, sizeof(nd));
	format_size(total, tot, sizeof(tot));
	if (free_space(dir, &have))
		return -1;
	format_size(have & ~((1ULL << 20) - 1), hv, sizeof(hv));
	if (have < total)
		return error_set("the images need %s (%d x %s, for %s's %s) but %s has %s free: give "
				 "--image-dir on a larger filesystem, a smaller --fs-size, or --scale",
				 tot, images, sz, which, nd, dir, hv);
	if (!rq->opts.quiet)
		fprintf(stderr, "fsbench: images of %s each (%s needs %s; --fs-size sets another "
			"size), %s of %s free in %s\n", sz, which, nd, tot, hv, dir);
	return 0;
}

/* --vm and its options; the checks that need the targets are in vm_run. */
static int parse_vm(const struct cli_args *a, struct run_cli *c)
{
	static const char *const vm_only[] = { "kernel", "vm-mem", "vm-cpus", "vm-accel",
					       "vm-timeout", NULL };
	const char *v;
	uint64_t sz;

	vm_opts_defaults(&c->vmo);
	c->vm = cli_has(a, "vm");
	for (int i = 0; vm_only[i]; i++)
		if (!c->vm && cli_has(a, vm_only[i]))
			return error_set("--%s applies only with --vm", vm_only[i]);
	if (!c->vm)
		return 0;
	if (vm_guest_job())
		return error_set("--vm inside fsbench's own virtual machine");
	c->vmo.kernel = cli_value(a, "kernel");
	if ((v = cli_value(a, "vm-mem"))) {
		if (parse_size(v, &sz) || sz < (256 << 20) || sz > (1ULL << 40))
			return error_set("--vm-mem: bad value '%s' (a size of at least 256M, e.g. 2G)", v);
		c->vmo.mem = sz;
	}
	if ((v = cli_value(a, "vm-cpus")) && count_arg("--vm-cpus", v, 1, 64, &c->vmo.cpus))
		return -1;
	if ((v = cli_value(a, "vm-accel")) && vm_accel_parse(v, &c->vmo.accel))
		return -1;
	if ((v = cli_value(a, "vm-timeout"))) {
		int secs = 0;
		if (count_arg("--vm-timeout", v, 10, 30 * 86400, &secs))
			return -1;
		c->vmo.timeout = secs;
	}
	if (cli_has(a, "device") || cli_has(a, "target"))
		return error_set("--vm tests filesystems fsbench makes in the guest (--fs or a suite's); "
				 "--device and --target DIR are for the host");
	return 0;
}

static int parse_args(const struct cli_args *a, struct run_cli *c)
{
	struct run_request *rq = &c->rq;
	const char *v;
	uint64_t sz;

	runner_defaults(&rq->opts);
	provision_defaults(&c->prov);
	rq->targets = calloc(MAX_TARGETS, sizeof(*rq->targets));
	rq->tests = calloc((size_t)a->n + 1, sizeof(*rq->tests));
	if (!rq->targets || !rq->tests)
		return error_set("out of memory");
	/* Options that shape --fs targets come first, wherever they stand. */
	c->scale = 1;
	if ((v = cli_value(a, "fs-size"))) {
		if (parse_size(v, &sz) || sz < (16 << 20))
			return error_set("--fs-size: bad value '%s' (a size of at least 16M, e.g. 1G)", v);
		c->prov.size = sz;
	}
	if ((v = cli_value(a, "image-dir"))) {
		struct stat st;
		int there = !stat(v, &st);
		if (!there || !S_ISDIR(st.st_mode))
			return error_set("--image-dir %s: %s", v, !there ?
					 "no such directory (make it first)" : "not a directory");
		c->prov.image_dir = v;
	}
	c->prov.device = cli_value(a, "device");
	c->prov.force_format = cli_has(a, "force-format");
	if (cli_has(a, "no-direct-io"))
		c->prov.direct_io = 0;
	if ((v = cli_value(a, "fresh"))) {
		if (strcmp(v, "test") && strcmp(v, "fs"))
			return error_set("--fresh: bad value '%s' (test or fs)", v);
		rq->opts.fresh_per_fs = !strcmp(v, "fs");
	}
	c->suite_name = cli_value(a, "suite");
	if (parse_vm(a, c))
		return -1;
	if ((v = cli_value(a, "ram"))) {
		if (parse_size(v, &sz) || sz < (64 << 20))
			return error_set("--ram: bad value '%s' (a size of at least 64M, e.g. 1G)", v);
		c->ram = sz;
	}
	if ((v = cli_value(a, "scale"))) {
		char *end;
		c->scale = strtod(v, &end);
		/* Below 0.001 the sizes round to nothing a workload can run. */
		if (end == v || *end || !(c->scale >= 0.001) || c->scale > 1000)
			return error_set("--scale: bad value '%s' (a factor from 0.001 to 1000, "
					 "such as 0.1 or 2)", v);
	}
	if ((v = cli_value(a, "runs")) && count_arg("--runs", v, 1, 1000, &rq->opts.runs))
		return -1;
	if ((v = cli_value(a, "max-runs")) && count_arg("--max-runs", v, 1, 1000, &rq->opts.max_runs))
		return -1;
	if ((v = cli_value(a, "precision")) && parse_percent(v, &rq->opts.precision))
		return error_set("--precision: bad value '%s' (a percentage above 0 and below 100, "
				 "e.g. 3%%)", v);
	if (v)	/* the user's own stopping rule: to the precision, on every target */
		rq->opts.verdicts = 0;
	if ((v = cli_value(a, "margin")) &&
	    (parse_percent(v, &rq->opts.margin) || rq->opts.margin > 0.5))
		return error_set("--margin: bad value '%s' (a percentage above 0 and at most 50, "
				 "e.g. 3%%)", v);
	if (v && !rq->opts.verdicts)
		return error_set("--margin is for the verdicts between targets; --precision "
				 "replaces them");
	if ((v = cli_value(a, "time-budget")) &&
	    (parse_duration(v, &rq->opts.time_budget) || !(rq->opts.time_budget > 0)))
		return error_set("--time-budget: bad value '%s' (a duration such as 30m or 2h)", v);
	if (rq->opts.runs && (cli_value(a, "precision") || cli_value(a, "time-budget") ||
			      cli_value(a, "max-runs")))
		return error_set("--runs fixes the count: it does not go with --precision, "
				 "--max-runs or --time-budget");
	if ((v = cli_value(a, "warmup")) && count_arg("--warmup", v, 0, 100, &rq->opts.warmup))
		return -1;
	rq->baseline = cli_value(a, "baseline");
	rq->label = cli_value(a, "label");
	if (rq->label && str_has_control(rq->label))
		return error_set("--label: control characters are not allowed in a label");
	rq->note = cli_value(a, "note");
	if (rq->note && (str_has_control(rq->note) || strlen(rq->note) > 4000))
		return error_set("--note: at most 4000 characters, without control characters");
	c->db = cli_value(a, "db");
	c->json = cli_value(a, "json");
	c->csv = cli_value(a, "csv");
	c->markdown = cli_value(a, "markdown");
	c->html = cli_value(a, "html");
	if (cli_output_check("--json", c->json) || cli_output_check("--csv", c->csv) ||
	    cli_output_check("--markdown", c->markdown) || cli_output_check("--html", c->html))
		return -1;
	if (cli_has(a, "no-drop-caches"))
		rq->opts.drop_caches = 0;
	rq->opts.device_stats = !cli_has(a, "no-device-stats");
	rq->opts.quiet = cli_has(a, "quiet");
	c->verbose = cli_has(a, "verbose");
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
	if (c->nfio && add_fio_jobs(c))
		return -1;
	if (c->suite_name && add_suite(c))
		return -1;
	if (select_tests(a, rq))
		return -1;
	if (!rq->ntests)
		return error_set("run: no test given (e.g. `fsbench run fsmark --target DIR` or --suite NAME; see `fsbench list tests`)");
	if (!rq->ntargets)
		return error_set("run: no target given (add --fs SPEC or --target [LABEL=]DIR)");
	if (c->prov.device) {
		if (rq->ntargets != 1 || strcmp(rq->targets[0].ops->kind, "fs"))
			return error_set("--device holds one filesystem at a time: give exactly one --fs "
					 "and no --target (run once per filesystem)");
		if (!target_uses_device(&rq->targets[0]))
			return error_set("--device: fs '%s' does not use a block device (tmpfs lives in "
					 "memory)", rq->targets[0].label);
	} else if (c->prov.force_format) {
		return error_set("--force-format applies only with --device");
	}
	if (c->prov.device && !vm_guest_job()) {	/* only looked at: checked again at setup */
		char found[256];
		if (device_check(c->prov.device, c->prov.force_format, found, sizeof(found)))
			return -1;
	}
	if (!cli_value(a, "fs-size") && !c->prov.device && !vm_guest_job() && size_images(c))
		return -1;
	for (int i = 0; i < rq->ntargets; i++)
		if (target_check_size(&rq->targets[i], c->prov.size))
			return -1;
	/* A directory target is the user's input, checked before the store
	 * is opened (its setup only looks), as are two targets of one label. */
	for (int i = 0; i < rq->ntargets; i++) {
		for (int j = 0; j < i; j++)
			if (!strcmp(rq->targets[j].label, rq->targets[i].label))
				return error_set("two targets are labelled '%s': name them with "
						 "--target LABEL=DIR", rq->targets[i].label);
		if (!strcmp(rq->targets[i].ops->kind, "dir") && rq->targets[i].ops->setup(&rq->targets[i]))
			return -1;
	}
	for (int t = 0; t < rq->ntests; t++)
		for (int i = 0; i < rq->ntargets && rq->tests[t].wl->validate_target; i++)
			if (!strcmp(rq->targets[i].ops->kind, "dir") &&
			    rq->tests[t].wl->validate_target(rq->tests[t].params, rq->targets[i].spec))
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

/* The runner's events, drawn here: the progress line, failures, and each
 * finished test's charts from the store. */
static void on_run_started(void *arg, int64_t run_id, const char *how)
{
	struct run_cli *c = arg;

	progress_note(c->pg, "fsbench: run %lld: %s", (long long)run_id, how);
}

static void on_rep_started(void *arg, const struct rep_info *r)
{
	struct run_cli *c = arg;
	struct progress_pos pos = { r->test, r->target, r->test_index, r->ntests, r->target_index,
				    r->ntargets, r->rep, r->planned, r->eta_test, r->eta_run,
				    r->interval, r->precision, r->need };

	progress_rep(c->pg, &pos);
}

static void on_failure(void *arg, const char *message)
{
	struct run_cli *c = arg;

	progress_error(c->pg, "fsbench: %s", message);
}

static void on_test_done(void *arg, int64_t run_id, int test, int ntargets,
			 const struct test_outcome *out)
{
	struct run_cli *c = arg;
	struct result *r;
	struct report_opts o;

	struct progress_done d = { out->runs, out->failed, out->met, out->fixed, out->unfinished,
				   out->seconds, out->interval, out->precision, out->again,
				   out->pairs, out->undecided, out->rounds };
	progress_test_done(c->pg, c->rq.tests[test].name, ntargets, &d);
	if (c->rq.opts.quiet || store_load_run(c->store, run_id, &r))
		return;
	progress_clear(c->pg);
	report_opts_for(c->human, &o);
	o.baseline = c->rq.baseline;
	o.verbose = c->verbose;
	if (!c->system_shown)
		report_system(c->human, r, &o);
	c->system_shown = 1;
	if (out->again)
		fprintf(c->human, "\n(%s again: more runs, as the time budget allowed)\n",
			c->rq.tests[test].name);
	report_test(c->human, r, test, &o);
	fflush(c->human);
	result_free(r);
}

/* --dry-run: each test x target, its parameters, and a time estimated from
 * earlier samples in the store; nothing is made or run. */
static int dry_run(struct run_cli *c)
{
	struct run_request *rq = &c->rq;
	struct store *s = NULL;
	double total = 0;
	int unknown = 0;

	if (cli_open_store_readonly(c->db, &s))
		s = NULL;	/* no store yet: no estimates, still a plan */
	printf("%d test%s on %d target%s:\n", rq->ntests, rq->ntests == 1 ? "" : "s",
	       rq->ntargets, rq->ntargets == 1 ? "" : "s");
	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		int runs = rq->opts.runs ? rq->opts.runs : runner_min_runs(&rq->opts, ts);
		double mean = 0;
		int n = 0;
		if (s)
			store_mean_wall(s, ts->name, ts->params_text, &mean, &n);
		printf("\n%s: %s\n  %s\n", ts->name, ts->subtitle, ts->params_text);
		for (int i = 0; i < rq->ntargets; i++) {
			if (n)
				printf("  on %-20s %d run%s%s, about %.0f s (from %d earlier sample%s)\n",
				       rq->targets[i].label, runs, runs == 1 ? "" : "s",
				       rq->opts.runs ? "" : " or more", mean * runs, n,
				       n == 1 ? "" : "s");
			else
				printf("  on %-20s %d run%s%s, no estimate (never run with these "
				       "parameters)\n", rq->targets[i].label, runs, runs == 1 ? "" : "s",
				       rq->opts.runs ? "" : " or more");
		}
		if (n)
			total += mean * runs * rq->ntargets;
		else
			unknown++;
	}
	printf("\nestimated: about %.0f s%s for the minimum runs", total,
	       unknown ? ", plus the tests without an estimate," : "");
	if (rq->opts.runs)
		printf(" (fixed by --runs)");
	else if (rq->opts.time_budget > 0)
		printf(", and runs past them while the whole run is under %.0f s (--time-budget)",
		       rq->opts.time_budget);
	else if (rq->opts.verdicts && rq->ntargets > 1)
		printf(", more until every pair of targets is decided, faster, slower or equivalent "
		       "within +-%g%% (up to %d runs)", 100 * rq->opts.margin,
		       runner_max_runs(&rq->opts));
	else
		printf(", more while a test's 95%% interval is wider than +-%g%% (up to %d runs)",
		       100 * rq->opts.precision, runner_max_runs(&rq->opts));
	printf("; nothing was made or run (--dry-run)\n");
	store_close(s);
	return EXIT_OK;
}

/* The end of a run: the summary, then where everything went. */
static void print_end(struct run_cli *c, int64_t run_id)
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

static int write_outputs(struct run_cli *c, int64_t run_id)
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

/* Inside the guest: the run, as `fsbench export` writes it, for the host. */
static int guest_export(struct run_cli *c, int64_t run_id)
{
	struct result *r;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (store_load_run(c->store, run_id, &r))
		return -1;
	FILE *f = open_memstream(&text, &len);
	rc = !f || report_json_exact(f, r, NULL, 1);
	if (f)
		fclose(f);
	result_free(r);
	rc = rc || !text ? error_set("guest: cannot write the run") : vm_guest_finish(text);
	free(text);
	return rc;
}

static void free_cli(struct run_cli *c)
{
	free(c->args_json);
	c->args_json = NULL;
	for (int i = 0; i < c->rq.ntests; i++)
		test_spec_free(&c->rq.tests[i]);
	for (int i = 0; i < c->rq.ntargets; i++)
		target_free(&c->rq.targets[i]);
	suite_free(&c->suite);
	free(c->rq.tests);
	free(c->rq.targets);
	store_close(c->store);
}

/* The arguments as a JSON array: what --resume parses again. */
static char *argv_json(const struct cli_args *a)
{
	json_t *arr = json_array();
	char *out;

	for (int i = 1; arr && i < a->argc; i++)
		json_array_append_new(arr, json_string(a->argv[i]));
	out = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	return out;
}

static int run_main(const struct cli_args *a, const struct result *prior,
		    const struct cli_args *outer);

/* A line the guest's fsbench printed, shown as if it ran here; the
 * guest init's own lines stay in the console record. */
static int kernel_line(const char *line)
{
	const char *p = line;

	/* "[    3.989433] reboot: Power down" (fsbench's own "[0s] test ..."
	 * has no fraction) */
	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == ']';
}

static void vm_line(void *arg, const char *line)
{
	struct run_cli *c = arg;

	/* init's own lines, and the kernel's */
	if (!strncmp(line, "fsbench-vm:", 11) || kernel_line(line))
		return;
	fprintf(c->human, "%s\n", line);
	fflush(c->human);
}

/* --vm: the same command, without what only the host uses, run by the
 * guest; its run comes back as an export document and is imported here. */
static int vm_run(struct run_cli *c, const struct cli_args *a)
{
	static const char *const host_only[] = { "vm", "kernel", "vm-mem", "vm-cpus", "vm-accel",
		"vm-timeout", "db", "json", "csv", "markdown", "html", "image-dir", "no-direct-io", NULL };
	struct run_request *rq = &c->rq;
	struct vm_request vr;
	struct vm_result res;
	char **argv = calloc((size_t)a->n + 8, sizeof(char *));
	int argc = 0, rc = EXIT_FAIL;
	double work = 0;

	if (!argv)
		return cli_fail(EXIT_FAIL, "out of memory");
	argv[argc++] = strdup("run");
	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		int skip = 0;
		for (int k = 0; it->opt && host_only[k]; k++)
			skip |= !strcmp(it->opt->name, host_only[k]);
		if (skip)
			continue;
		if (!it->opt)
			argv[argc++] = strdup(it->value);
		else if (it->opt->has_arg) {
			char *w = NULL;
			if (asprintf(&w, "--%s=%s", it->opt->name, it->value) < 0)
				w = NULL;
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
	 * took before (2 minutes a run when it does not know), 40 times over
	 * for an emulated CPU, plus the boot.  Under a time budget the guest
	 * stops itself: its minimum runs, then the budget (on the guest's
	 * clock, which already runs at the emulated speed). */
	int budgeted = !rq->opts.runs && rq->opts.time_budget > 0;
	for (int k = 0; k < rq->ntests; k++) {
		const struct test_spec *ts = &rq->tests[k];
		int runs = rq->opts.runs ? rq->opts.runs : budgeted ? runner_min_runs(&rq->opts, ts)
			   : runner_max_runs(&rq->opts);
		double mean = 0;
		int n = 0;
		store_mean_wall(c->store, ts->name, ts->params_text, &mean, &n);
		work += (n ? mean : 120.0) * runs * rq->ntargets;
	}
	const char *which = NULL;
	memset(&vr, 0, sizeof(vr));
	vr.flash_need = largest_need(rq, &which);
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
	if (vm_execute(&vr, &res)) {
		rc = cli_fail(stop_requested() ? EXIT_INTERRUPTED : EXIT_FAIL, "%s", error_get());
		goto out;
	}
	int64_t id;
	int existed;
	if (store_import(c->store, res.json, res.len, &id, &existed)) {
		rc = cli_fail(EXIT_FAIL, "the guest's run: %s", error_get());
	} else if (write_outputs(c, id)) {
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
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return rc;
}

/* --resume RUN: the stored arguments, parsed again, run into the same
 * run; the samples it has count. */
static int resume(const struct cli_args *a)
{
	const char *sel = cli_value(a, "resume"), *db = cli_value(a, "db");
	struct store *s = NULL;
	struct result *r = NULL;
	int64_t id;
	int code;

	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (!it->opt || (strcmp(it->opt->name, "resume") && strcmp(it->opt->name, "db") &&
				 strcmp(it->opt->name, "quiet") && strcmp(it->opt->name, "verbose")))
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
	store_close(s);
	if (strcmp(r->status, "interrupted") && strcmp(r->status, "running") &&
	    strcmp(r->status, "abandoned")) {
		cli_fail(EXIT_USAGE, "run %lld is %s: only an interrupted run can be resumed",
			 (long long)id, r->status);
		result_free(r);
		return EXIT_USAGE;
	}
	json_error_t jerr;
	json_t *arr = r->argv ? json_loads(r->argv, 0, &jerr) : NULL;
	if (!json_is_array(arr)) {
		json_decref(arr);
		result_free(r);
		return cli_fail(EXIT_USAGE, "run %lld was stored without its arguments (an older "
				"fsbench): it cannot be resumed", (long long)id);
	}
	size_t n = json_array_size(arr);
	char **argv = calloc(n + 2, sizeof(char *));
	int rc = EXIT_FAIL;
	if (argv) {
		struct cli_args again;
		argv[0] = "run";
		for (size_t i = 0; i < n; i++)
			argv[i + 1] = (char *)json_string_value(json_array_get(arr, i));
		for (size_t i = 0; i < n; i++)
			if (!argv[i + 1])
				argv[i + 1] = "";
		if (cli_parse(a->cmd, (int)n + 1, argv, &again))
			rc = cli_fail(EXIT_USAGE, "run %lld: its stored arguments: %s", (long long)id,
				      error_get());
		else if (cli_has(&again, "resume"))
			rc = cli_fail(EXIT_USAGE, "run %lld: its stored arguments resume another run",
				      (long long)id);
		else {
			fprintf(stderr, "fsbench: resuming run %lld: fsbench run %s\n", (long long)id,
				r->cmdline[0] ? r->cmdline + (strncmp(r->cmdline, "fsbench run ", 12) ? 0 : 12)
					      : "");
			rc = run_main(&again, r, a);
		}
		free(again.items);
	}
	free(argv);
	json_decref(arr);
	result_free(r);
	return rc;
}

static int cmd_run(const struct cli_args *a)
{
	if (cli_has(a, "resume"))
		return resume(a);
	return run_main(a, NULL, NULL);
}

static int run_main(const struct cli_args *a, const struct result *prior,
		    const struct cli_args *outer)
{
	struct run_cli c;
	struct runner_events ev = { on_run_started, on_rep_started, on_failure, on_test_done, &c };
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
		if (cli_value(outer, "db"))
			c.db = cli_value(outer, "db");
		if (cli_has(outer, "quiet"))
			c.rq.opts.quiet = 1;
		if (cli_has(outer, "verbose"))
			c.verbose = 1;
	}
	c.rq.resume = prior;
	if (cli_has(a, "dry-run")) {
		rc = dry_run(&c);
		free_cli(&c);
		return rc;
	}
	snprintf(cmdline, sizeof(cmdline), "fsbench run ");
	cli_command_line(a->argc - 1, a->argv + 1, cmdline + 12, sizeof(cmdline) - 12);
	c.rq.cmdline = cmdline;
	c.args_json = argv_json(a);
	c.rq.argv = c.args_json;
	if (comm_rank() > 0) {
		c.db = ":memory:";
		c.json = c.csv = c.markdown = c.html = NULL;
	}
	if ((rc = cli_open_store(c.db, &c.store))) {
		free_cli(&c);
		return cli_fail(rc == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	}
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
		if (prior) {
			free_cli(&c);
			return cli_fail(EXIT_USAGE, "--resume: a --vm run is run again, not resumed");
		}
		rc = vm_run(&c, a);
		free_cli(&c);
		return rc;
	}
	if (vm_guest_job()) {
		if (vm_guest_setup(c.rq.targets, c.rq.ntargets, c.vm_text, sizeof(c.vm_text))) {
			free_cli(&c);
			return cli_fail(EXIT_FAIL, "%s", error_get());
		}
		c.rq.vm = c.vm_text;
	}
	rc = runner_prepare(&c.rq);
	if (rc) {
		free_cli(&c);
		return cli_fail(rc == -2 ? EXIT_FAIL : EXIT_USAGE, "%s", error_get());
	}
	if (c.ram) {
		char ram[32];
		format_size(c.ram, ram, sizeof(ram));
		if (memlimit_apply(c.ram, &c.mem)) {
			runner_teardown(&c.rq);
			free_cli(&c);
			return cli_fail(EXIT_FAIL, "%s", error_get());
		}
		snprintf(c.ram_note, sizeof(c.ram_note), "%s (%s)", ram, c.mem.how);
		c.rq.memory_limit = c.ram_note;
	}
	c.pg = progress_start(c.rq.opts.quiet);
	rc = runner_execute(c.store, &c.rq, &ev, &run_id, &interrupted);
	progress_stop(c.pg);
	c.pg = NULL;
	memlimit_release(&c.mem);
	runner_teardown(&c.rq);
	if (rc < 0) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (vm_guest_job() && guest_export(&c, run_id)) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (interrupted) {
		fprintf(stderr, "fsbench: interrupted; run %lld is stored as interrupted, scratch files removed\n",
			(long long)run_id);
		free_cli(&c);
		return EXIT_INTERRUPTED;
	}
	if (write_outputs(&c, run_id)) {
		free_cli(&c);
		return cli_fail(EXIT_FAIL, "%s", error_get());
	}
	if (comm_rank() == 0 && !c.rq.opts.quiet)
		print_end(&c, run_id);
	free_cli(&c);
	return rc ? EXIT_FAIL : EXIT_OK;
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.usage = "TEST... --target [LABEL=]DIR... [options]",
	.summary = "run tests on targets, store and chart the results",
	.about = run_about,
	.args = run_opts,
	.exec = cmd_run,
};
