/*
 * cli.h: the subcommand table and what subcommands share.
 *
 * Each subcommand is one file cmd-NAME.c exporting one const struct
 * cmd_entry (tmux style).  exec returns the process exit code; it prints
 * the one-line error itself from error_get() so nothing deeper prints.
 */
#ifndef FSB_CLI_H
#define FSB_CLI_H

#include <stdio.h>

#include "../store/store.h"

/* One command-line option, declared once: getopt's tables and the --help
 * text are both generated from an array of these (NULL-name terminated).
 * `val` is the short option letter when printable. */
struct cli_opt {
	const char *name;
	int has_arg;
	int val;
	const char *arg;	/* placeholder in --help: "FILE" */
	const char *help;
};
struct option;
/* Fill longopts (same length as opts) and the getopt short-option string. */
void cli_getopt_tables(const struct cli_opt *opts, struct option *longopts, char *shortopts,
		       size_t len);
void cli_print_help(FILE *f, const char *usage, const struct cli_opt *opts);

struct cmd_entry {
	const char *name;
	const char *usage;	/* arguments after the name */
	const char *summary;
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_run_entry, cmd_list_entry, cmd_show_entry,
	cmd_sysinfo_entry, cmd_cleanup_entry, cmd_report_entry, cmd_compare_entry, cmd_io_entry;

/* "fsbench: <msg>" on stderr; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Open --db FILE or the default store, creating its directory. */
int cli_open_store(const char *path, struct store **out);
/* The same for reading only: creates nothing, changes nothing. */
int cli_open_store_readonly(const char *path, struct store **out);
/* Write `what` (json, csv, markdown, html, text) of runs to FILE ("-" =
 * stdout): HTML as one page, the others one after another.  A file that
 * could not be written whole is removed. */
int cli_write_runs(struct result *const *runs, int n, const char *what, const char *file,
		   const char *baseline, int verbose);
/* The same for one run. */
int cli_write_output(const struct result *r, const char *what, const char *file,
		     const char *baseline, int verbose);
/* A run named by number, "last", or (by_label) its label: the newest
 * run so labelled. */
int cli_find_run(struct store *s, const char *sel, int by_label, int64_t *id);
/* The run named by sel (as cli_find_run), loaded.  0, or the exit status
 * with the error set: EXIT_USAGE when no such run exists (the same
 * mistake gives the same status in every command), EXIT_FAIL when the
 * store could not be read. */
int cli_load_run(struct store *s, const char *sel, int by_label, struct result **out,
		 int64_t *id);
/* The command line, shell-quoted, for reproducing a run. */
void cli_command_line(int argc, char **argv, char *buf, size_t len);

#endif
