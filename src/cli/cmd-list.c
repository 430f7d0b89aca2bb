/*
 * cmd-list.c: `fsbench list tests` (workloads, their parameter tables,
 * metrics and named tests, all generated from the workloads' own tables)
 * and `fsbench list runs` (the result store).
 */
#include "cli.h"
#include "../aging/profile.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../runner/suite.h"
#include "../targets/profiles.h"
#include "../vm/vm.h"
#include "../vm/kernel.h"
#include "../workloads/workload.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static void list_tests(void)
{
	for (const struct workload *const *w = workload_all(); *w; w++) {
		const struct workload *wl = *w;
		char buf[128];

		printf("%s - %s\n", wl->name, wl->summary);
		printf("  parameters (%s:key=value,...):\n", wl->name);
		for (const struct param_def *d = wl->params; d->name; d++) {
			char range[96] = "";
			if (d->flags & PF_ALIAS) {
				printf("    %-14s %s\n", d->name, d->help);
				continue;
			}
			if (d->min != d->max && d->type == PT_INT)
				snprintf(range, sizeof(range), " [%.0f..%.0f]", d->min, d->max);
			else if (d->min != d->max && d->type == PT_DURATION)
				snprintf(range, sizeof(range), " [%gs..%gs]", d->min, d->max);
			printf("    %-14s default %-8s %s%s\n", d->name, d->def, d->help, range);
			printf("    %-14s         %-8s (%s)\n", "", "",
			       param_type_text(d, buf, sizeof(buf)));
		}
		printf("  metrics:\n");
		for (int i = 0; i < wl->nmetrics; i++)
			printf("    %-14s %-10s %s%s\n", wl->metrics[i].name, wl->metrics[i].unit,
			       wl->metrics[i].direction > 0 ? "higher is better" : "lower is better",
			       wl->metrics[i].primary ? " (primary)" : "");
		if (wl->presets && wl->presets->name) {
			printf("  named tests:\n");
			for (const struct preset *p = wl->presets; p->name; p++)
				printf("    %-20s %-32s %s\n", p->name, p->params,
				       p->subtitle ? p->subtitle : "");
		}
		putchar('\n');
	}
}

/* Each profile: usable on this host, and in a guest (--vm) with the
 * kernel `run --vm` would boot. */
static void list_fs(void)
{
	size_t n;
	const struct fs_profile *p = fs_profiles(&n);
	struct vm_kernel k;
	char kwhy[512] = "";
	int have_kernel = !vm_kernel_find(NULL, &k);

	if (!have_kernel)
		snprintf(kwhy, sizeof(kwhy), "%s", error_get());
	printf("%-13s %-7s %-44s %-34s %s\n", "FS", "MOUNT", "ON THIS HOST", "IN A VM (--vm)",
	       "DEFAULT MOUNT OPTIONS");
	for (size_t i = 0; i < n; i++) {
		char why[256], vwhy[256];
		static const char *const kinds[] = {
			[MOUNT_KERNEL] = "kernel", [MOUNT_FUSE_BLOCK] = "fuse", [MOUNT_FUSE_IMAGE] = "fuse",
			[MOUNT_MEMORY] = "memory", [MOUNT_UBI] = "flash", [MOUNT_MTD] = "flash",
			[MOUNT_RAW] = "none", [MOUNT_RAW_MTD] = "none", [MOUNT_NONE] = "-",
		};
		_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == MOUNT_NONE + 1, "a kind unnamed");
		int ok = !fs_profile_available(&p[i], why, sizeof(why));
		int vok = have_kernel && !vm_profile_available(&p[i], &k, vwhy, sizeof(vwhy));
		char avail[300], vavail[300];
		snprintf(avail, sizeof(avail), "%s%s", ok ? "yes" : "no: ", ok ? "" : why);
		snprintf(vavail, sizeof(vavail), "%s%s", vok ? "yes" : "no: ",
			 vok ? "" : have_kernel ? vwhy : "no kernel");
		printf("%-13s %-7s %-44s %-34s %s\n", p[i].name, kinds[p[i].kind], avail, vavail,
		       p[i].options[0] ? p[i].options : "-");
	}
	if (have_kernel)
		printf("\nVM: kernel %s (%s), see `fsbench kernel list`\n", k.version, k.source);
	else
		printf("\nVM: %s\n", kwhy);
}

static int is_suite_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 6 && !strcmp(de->d_name + n - 6, ".suite");
}

static int is_age_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return n > 4 && !strcmp(de->d_name + n - 4, ".age");
}

/* The aging profiles beside the suites (run --age NAME, docs/aging.md). */
static void list_ages(void)
{
	struct dirent **names;
	int n = scandir(suite_dir(), &names, is_age_file, alphasort);

	if (n > 0)
		printf("aging profiles (run --age NAME):\n");
	for (int i = 0; i < n; i++) {
		struct age_profile p;
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(names[i]->d_name) - 4),
			 names[i]->d_name);
		if (age_profile_load(suite_dir(), name, &p)) {
			char why[2048];
			str_escape(why, sizeof(why), error_get());
			printf("  %-16s (unreadable: %s)\n", name, why);
		} else if (p.git) {
			printf("  %-16s the last %u commits of a repository (--age-repo DIR)\n", name,
			       p.commits);
		} else {
			printf("  %-16s fill %g%%, %g times the device written, %d size ranges\n", name,
			       100 * p.fill, p.churn, p.nsizes);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void list_suites(void)
{
	struct dirent **names;
	int n;

	printf("suites in %s:\n", suite_dir());
	/* The directory is read, never handed to a shell. */
	n = scandir(suite_dir(), &names, is_suite_file, alphasort);
	for (int i = 0; i < n; i++) {
		struct suite s;
		char path[4800];
		const char *line = names[i]->d_name;
		snprintf(path, sizeof(path), "%s/%s", suite_dir(), line);
		if (suite_load(path, 1, &s)) {
			char why[2048];
			str_escape(why, sizeof(why), error_get());
			printf("  %-16s (unreadable: %s)\n", line, why);
		} else {
			printf("  %-16s %s\n  %-16s %d test%s runnable, %d waiting for their workload; fs: %s\n",
			       s.name, s.description, "", s.ntests, s.ntests == 1 ? "" : "s",
			       s.nskipped, s.filesystems);
			suite_free(&s);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	list_ages();
}

static int print_run(const struct run_row *r, void *arg)
{
	char label[256], targets[1024], tests[2048];

	(void)arg;
	/* Labels and paths are the user's text: no raw control characters. */
	str_escape(label, sizeof(label), r->label);
	str_escape(targets, sizeof(targets), r->targets);
	str_escape(tests, sizeof(tests), r->tests);
	printf("%5lld  %-19s  %-11s  %-16.16s  %-24.24s  %s\n", (long long)r->id, r->started,
	       strcmp(r->status, "running") ? r->status : "incomplete", label, targets, tests);
	return 0;
}

static int list_runs(const char *db)
{
	struct store *s;

	int opened = cli_open_store_readonly(db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	printf("%5s  %-19s  %-11s  %-16s  %-24s  %s\n", "RUN", "STARTED", "STATUS", "LABEL",
	       "TARGETS", "TESTS");
	int rc = store_list_runs(s, print_run, NULL);
	store_close(s);
	return rc ? cli_fail(EXIT_FAIL, "%s", error_get()) : EXIT_OK;
}

struct list_args {
	const char *db;
};

static const struct cli_opt list_args[] = {
	{ "db", 1, 'd', "FILE", "result store for `list runs` (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, offsetof(struct list_args, db) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_list(const struct cli_args *a)
{
	const char *what = cli_pos(a, 0);

	if (cli_npos(a) != 1)
		return cli_fail(EXIT_USAGE, "list: say what to list: `fsbench list tests`, `runs`, `fs` "
				"or `suites`");
	if (!strcmp(what, "tests")) {
		list_tests();
		return EXIT_OK;
	}
	if (!strcmp(what, "runs"))
		return list_runs(((const struct list_args *)a->opts)->db);
	if (!strcmp(what, "suites")) {
		list_suites();
		return EXIT_OK;
	}
	if (!strcmp(what, "fs")) {
		list_fs();
		return EXIT_OK;
	}
	return cli_fail(EXIT_USAGE, "list: unknown list '%s' (tests, runs, fs or suites)", what);
}

const struct cmd_entry cmd_list_entry = {
	.name = "list",
	.usage = "tests | runs | fs | suites [--db FILE]",
	.summary = "list workloads, stored runs, or filesystems",
	.args = list_args,
	.opts_size = sizeof(struct list_args),
	.exec = cmd_list,
};
