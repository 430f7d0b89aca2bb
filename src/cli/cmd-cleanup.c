/*
 * cmd-cleanup.c: `fsbench cleanup` undoes what an fsbench run that died
 * (SIGKILL, power cut) left behind: its mounts, loop devices, images and
 * cgroups, exactly as recorded in the state file and nothing else, and
 * marks the runs it left 'running' in their result store 'abandoned'.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../store/store.h"
#include "../targets/state.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

struct tally {
	int shown, left;
};

/* A dead run's entry: its store, if it is still the file the run wrote,
 * gets the run marked abandoned (now, the first moment it is known). */
static enum state_outcome close_run(const struct state_entry *e, char *why, size_t len)
{
	struct store *s = NULL;
	struct stat sb;
	int64_t id;
	int changed;

	if (e->arg[0] != '/' || parse_decimal(e->arg2, &id)) {
		snprintf(why, len, "not a run in a store");
		return STATE_LEFT_ALONE;
	}
	if (lstat(e->arg, &sb))
		return errno == ENOENT ? STATE_GONE : (snprintf(why, len, "%s", strerror(errno)),
						       STATE_FAILED);
	if (!S_ISREG(sb.st_mode) || sb.st_dev != e->dev || sb.st_ino != e->ino) {
		snprintf(why, len, "the store is another file now");
		return STATE_LEFT_ALONE;
	}
	if (store_open(e->arg, &s) || store_abandon_run(s, id, &changed)) {
		snprintf(why, len, "%s", error_get());
		store_close(s);
		return STATE_FAILED;
	}
	store_close(s);
	return changed ? STATE_REMOVED : STATE_GONE;
}

static void report(const struct state_entry *e, enum state_outcome what, const char *why,
		   void *arg)
{
	static const char *const verbs[] = { "removed", "already gone:", "LEFT ALONE", "FAILED to remove" };
	struct tally *t = arg;
	char item[2 * PATH_MAX + 64], safe[sizeof(item) * 4];

	if (what == STATE_GONE) {
		t->shown++;
		return;
	}
	if (!strcmp(e->kind, STATE_RUN) && what == STATE_REMOVED)
		snprintf(item, sizeof(item), "marked run %s abandoned in %s (its process is gone)",
			 e->arg2, e->arg);
	else
		snprintf(item, sizeof(item), "%s %s%s%s%s%s", verbs[what], e->kind, " ", e->arg,
			 why[0] ? ": " : "", why);
	str_escape(safe, sizeof(safe), item);
	printf("%s\n", safe);
	t->shown++;
	t->left += what == STATE_LEFT_ALONE;
}

static int cmd_cleanup(const struct cli_args *a)
{
	struct tally t = { 0, 0 };
	int failed;

	if (cli_npos(a))
		return cli_fail(EXIT_USAGE, "cleanup: takes no arguments");
	state_set_run_closer(close_run);
	failed = state_cleanup(report, &t);
	if (failed < 0)
		return cli_fail(EXIT_FAIL, "cleanup: %s", error_get());
	if (failed)
		return cli_fail(EXIT_FAIL, "cleanup: %d item%s could not be removed; see %s",
				failed, failed == 1 ? "" : "s", state_path());
	if (!t.shown)
		printf("nothing to clean up\n");
	else if (t.left)
		printf("%d item%s left alone: not what fsbench made any more\n", t.left,
		       t.left == 1 ? "" : "s");
	return EXIT_OK;
}

const struct cmd_entry cmd_cleanup_entry = {
	.name = "cleanup",
	.usage = "",
	.summary = "remove mounts, loop devices and images a killed run left",
	.about = "Undoes what a killed fsbench run left (mounts, loop devices, images,\n"
		 "scratch directories, cgroups), as recorded in the state file\n"
		 "($FSBENCH_STATE, /var/lib/fsbench/state as root).  Each is first checked\n"
		 "to be still exactly what fsbench made; anything else is left alone and\n"
		 "named.  A run its process left 'running' in the result store is\n"
		 "marked 'abandoned', with the time cleanup found it.\n",
	.exec = cmd_cleanup,
};
