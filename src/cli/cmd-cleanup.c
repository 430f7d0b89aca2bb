/*
 * cmd-cleanup.c: `fsbench cleanup` undoes what an fsbench run that died
 * (SIGKILL, power cut) left behind: its mounts, loop devices, images and
 * cgroups, exactly as recorded in the state file and nothing else.
 */
#include "cli.h"
#include "../core/error.h"
#include "../targets/state.h"

#include <string.h>

static void report(const char *what, int ok, void *arg)
{
	int *n = arg;

	printf("%s %s\n", ok ? "removed" : "FAILED to remove", what);
	(*n)++;
}

static int cmd_cleanup(int argc, char **argv)
{
	int n = 0, failed;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: fsbench cleanup\n");
		return EXIT_OK;
	}
	if (argc > 1)
		return cli_fail(EXIT_USAGE, "cleanup: takes no arguments");
	failed = state_cleanup(report, &n);
	if (failed)
		return cli_fail(EXIT_FAIL, "cleanup: %d item%s could not be removed (%s); see %s",
				failed, failed == 1 ? "" : "s", error_get(), state_path());
	if (!n)
		printf("nothing to clean up\n");
	return EXIT_OK;
}

const struct cmd_entry cmd_cleanup_entry = {
	.name = "cleanup",
	.usage = "",
	.summary = "remove mounts, loop devices and images a killed run left",
	.exec = cmd_cleanup,
};
