/*
 * cmd-cleanup.c: `fsbench cleanup` undoes what an fsbench run that died
 * (SIGKILL, power cut) left behind: its mounts, loop devices, images and
 * cgroups, exactly as recorded in the state file and nothing else.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../targets/state.h"

#include <limits.h>
#include <string.h>

struct tally {
	int shown, left;
};

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
		 "named.\n",
	.exec = cmd_cleanup,
};
