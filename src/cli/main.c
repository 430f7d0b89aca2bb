/*
 * main.c: fsbench's entry point: find the subcommand and run it.
 */
#include "cli.h"
#include "../core/version.h"
#include "../core/suggest.h"
#include "../core/comm.h"
#include "../core/error.h"

#include <stdio.h>
#include <string.h>

/* The commands: each is its own file cmd-NAME.c; adding one is that file
 * and its name here (the extern and the array). */
extern const struct cmd_entry cmd_run_entry, cmd_list_entry, cmd_show_entry,
	cmd_sysinfo_entry, cmd_cleanup_entry, cmd_report_entry, cmd_compare_entry, cmd_io_entry,
	cmd_completion_entry, cmd_manpage_entry, cmd_export_entry, cmd_import_entry,
	cmd_kernel_entry, cmd_probe_entry;

static const struct cmd_entry *const commands[] = {
	&cmd_run_entry, &cmd_io_entry, &cmd_list_entry, &cmd_show_entry, &cmd_sysinfo_entry,
	&cmd_report_entry, &cmd_compare_entry, &cmd_export_entry, &cmd_import_entry,
	&cmd_kernel_entry, &cmd_probe_entry,
	&cmd_cleanup_entry, &cmd_completion_entry, &cmd_manpage_entry, NULL,
};

const struct cmd_entry *const *cli_commands(void)
{
	return commands;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: fsbench COMMAND [ARGS]\n\n"
		   "fsbench %s: compare filesystems with faithful standard workloads.\n\n",
		fsbench_version);
	int w = 0;
	for (int i = 0; commands[i]; i++)
		w = (int)strlen(commands[i]->name) > w ? (int)strlen(commands[i]->name) : w;
	for (int i = 0; commands[i]; i++)
		fprintf(f, "  %-*s %-44s %s\n", w, commands[i]->name, commands[i]->usage,
			commands[i]->summary);
	fprintf(f, "\n`fsbench help COMMAND` (or `fsbench COMMAND --help`) describes a command's "
		   "options;\n`fsbench -V` prints the version.\n");
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {	/* fsbench help CMD */
		for (int i = 0; commands[i]; i++)
			if (!strcmp(argv[2], commands[i]->name)) {
				cli_print_help(stdout, commands[i]);
				return EXIT_OK;
			}
		return cli_fail(EXIT_USAGE, "help: no command '%s' (try `fsbench --help`)", argv[2]);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version") || !strcmp(argv[1], "-V")) {
		if (argc > 2)
			return cli_fail(EXIT_USAGE, "%s takes no arguments", argv[1]);
		printf("fsbench %s (%s)\n", fsbench_version,
		       comm_available() ? "with MPI: run ior and mdtest under mpirun"
					: "built without OpenMPI: no MPI runs");
		return EXIT_OK;
	}
	for (int i = 0; commands[i]; i++)
		if (!strcmp(argv[1], commands[i]->name))
			return cli_run_command(commands[i], argc - 1, argv + 1);
	const char *names[16];
	int n = 0;
	for (int i = 0; commands[i] && n < 16; i++)
		names[n++] = commands[i]->name;
	const char *near = suggest(argv[1], names, n);
	if (near)
		return cli_fail(EXIT_USAGE, "unknown command '%s' (did you mean `fsbench %s`?)", argv[1],
				near);
	return cli_fail(EXIT_USAGE, "unknown command '%s' (try `fsbench --help`)", argv[1]);
}

int main(int argc, char **argv)
{
	int rc;

	if (comm_init(&argc, &argv))
		return cli_fail(EXIT_USAGE, "%s", error_get());
	rc = dispatch(argc, argv);
	comm_finalize();
	return rc;
}
