/*
 * cli.h: the subcommand table and what subcommands share.
 *
 * Each subcommand is one file cmd-NAME.c exporting one const struct
 * cmd_entry (tmux style) whose `.args` template declares its options: one
 * parser (common.c) reads argv by it and answers --help from it, and the
 * command body reads the parsed struct cli_args, never argv.  exec returns
 * the process exit code; it prints the one-line error itself from
 * error_get() so nothing deeper prints.  Adding a command is its file and
 * a line in main.c's list.
 */
#ifndef FSB_CLI_H
#define FSB_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "../store/store.h"

/* What an option's value is.  A typed option is read once, by the parser,
 * into the command's own struct (cmd_entry.opts_size, at `offset`), so
 * that a kind of value (a count, a size, a percentage) is read one way in
 * every command and the body never converts text; CLI_RAW options are
 * read by name (cli_value, or the items in order: --target, --fs). */
enum cli_type {
	CLI_RAW,
	CLI_FLAG,	/* int: 1 when given */
	CLI_STRING,	/* const char *: the last value given */
	CLI_COUNT,	/* int: a decimal whole number from min to max */
	CLI_SIZE,	/* uint64_t: a size (4k, 2G) from min to max bytes (max 0: no bound) */
	CLI_PERCENT,	/* double, a fraction: "3%" or "3" is 0.03; min, max in percent
			 * (max 0: no bound), CLI_MIN_OPEN / CLI_MAX_OPEN exclude them */
	CLI_DURATION,	/* double seconds above 0 (30m, 2h) */
	CLI_NUMBER,	/* double from min to max (--scale 0.1) */
};
/* Where an option applies (flags): `run --vm` passes the command to its
 * guest without the host-only ones, refuses the VM-only ones without
 * --vm, and `run --resume` takes only the resumable ones beside it. */
#define CLI_HOST_ONLY 1u
#define CLI_VM_ONLY 2u
#define CLI_RESUMABLE 4u
#define CLI_MIN_OPEN 8u
#define CLI_MAX_OPEN 16u

/* One command-line option, declared once in a command's template: parsing,
 * `--help`, the man page and the completion script all come from the
 * command's array of these (NULL-name terminated).  `val` is the short
 * option letter, or 0 for a long option only; repeatable options keep
 * every value, in order (a typed one's struct field: the last). */
struct cli_opt {
	const char *name;
	int has_arg;
	int val;
	const char *arg;	/* placeholder in --help: "FILE" */
	const char *help;
	enum cli_type type;
	size_t offset;		/* typed: the field in the command's struct */
	double min, max;	/* CLI_COUNT, _SIZE, _PERCENT, _NUMBER bounds */
	unsigned flags;		/* CLI_HOST_ONLY ... */
};

struct cmd_entry;

/* A parsed command line: every option and positional argument in the
 * order given (positional ones have opt == NULL). */
struct cli_item {
	const struct cli_opt *opt;
	const char *value;	/* the option's argument, "1" for a flag, or the word */
};
struct cli_args {
	const struct cmd_entry *cmd;
	int n;
	struct cli_item *items;
	int argc;		/* the words as given, only to record the command line */
	char **argv;
	/* the typed options' values: the command's own struct, zero where an
	 * option was not given (NULL when the command declares none) */
	void *opts;
};
/* The last value of option `name`, or NULL when it was not given. */
const char *cli_value(const struct cli_args *a, const char *name);
/* Every value of a repeatable option `name`, in order, into out (room for
 * a->n); how many. */
int cli_values(const struct cli_args *a, const char *name, const char **out);
int cli_has(const struct cli_args *a, const char *name);
/* Positional arguments (and, for CMD_PASS_LONG commands, unknown --key=value
 * words), in order. */
int cli_npos(const struct cli_args *a);
const char *cli_pos(const struct cli_args *a, int i);

/* A command (tmux's cmd_entry): its `.args` template declares its options,
 * so the body reads a parsed struct cli_args and never touches argv. */
#define CMD_PASS_LONG 1u	/* unknown --key[=value] words are positional (fsbench io) */
struct cmd_entry {
	const char *name;
	const char *usage;	/* arguments after the name */
	const char *summary;
	const char *about;	/* more help, printed after the usage line; optional */
	const struct cli_opt *args;	/* the template; --help is always there */
	void (*more_help)(FILE *f);	/* after the options (fsbench io: job options) */
	size_t opts_size;	/* the struct the typed options fill (cli_args.opts) */
	unsigned flags;
	int (*exec)(const struct cli_args *a);
};
/* Every command, NULL-terminated (main.c): for help, the manual page and
 * the completion script. */
const struct cmd_entry *const *cli_commands(void);
/* Parse argv (argv[0] is the command's name) by the command's template,
 * answer --help from it, else run the command: its exit status. */
int cli_run_command(const struct cmd_entry *cmd, int argc, char **argv);
/* The parse alone (--resume re-reads a stored command line): items and the
 * typed values into a, freed by the caller with cli_args_free (also after
 * a failure); -1 with the error set. */
int cli_parse(const struct cmd_entry *cmd, int argc, char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
void cli_print_help(FILE *f, const struct cmd_entry *cmd);


/* "fsbench: <msg>" on stderr; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Open --db FILE or the default store, creating the default's directory
 * (a --db in a directory that is not there: -2, a usage error). */
int cli_open_store(const char *path, struct store **out);
/* The same for reading only: creates nothing, changes nothing (-2: no
 * fsbench store there, a usage error). */
int cli_open_store_readonly(const char *path, struct store **out);
/* An output file named by option opt, checked before any work is done:
 * not a symlink, a directory or a special file, and in a directory that
 * is there; 0, or -1 with the error set (a usage error). */
int cli_output_check(const char *opt, const char *file);
/* An output file (- = stdout), never through a symlink; closed by
 * cli_output_close, which removes a file that was not written whole (rc
 * or a write error): -1 then, with the error set. */
FILE *cli_output_open(const char *file);
int cli_output_close(FILE *f, const char *file, int rc);
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
