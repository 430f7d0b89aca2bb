/* common.c: helpers shared by subcommands (see cli.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../report/report.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cli_value(const struct cli_args *a, const char *name)
{
	const char *v = NULL;

	for (int i = 0; i < a->n; i++)
		if (a->items[i].opt && !strcmp(a->items[i].opt->name, name))
			v = a->items[i].value;
	return v;
}

int cli_values(const struct cli_args *a, const char *name, const char **out)
{
	int n = 0;

	for (int i = 0; i < a->n; i++)
		if (a->items[i].opt && !strcmp(a->items[i].opt->name, name))
			out[n++] = a->items[i].value;
	return n;
}

int cli_has(const struct cli_args *a, const char *name)
{
	return cli_value(a, name) != NULL;
}

int cli_npos(const struct cli_args *a)
{
	int n = 0;

	for (int i = 0; i < a->n; i++)
		n += !a->items[i].opt;
	return n;
}

const char *cli_pos(const struct cli_args *a, int k)
{
	for (int i = 0; i < a->n; i++)
		if (!a->items[i].opt && k-- == 0)
			return a->items[i].value;
	return NULL;
}

static const struct cli_opt help_opt = { "help", 0, 'h', NULL, "this help" };

static const struct cli_opt *find_long(const struct cmd_entry *cmd, const char *name, size_t len)
{
	for (const struct cli_opt *o = cmd->args; o && o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return len == 4 && !strncmp(name, "help", 4) ? &help_opt : NULL;
}

static const struct cli_opt *find_short(const struct cmd_entry *cmd, int c)
{
	for (const struct cli_opt *o = cmd->args; o && o->name; o++)
		if (o->val && o->val == c)
			return o;
	return c == 'h' ? &help_opt : NULL;
}

/* What a percentage option takes, for its error: "above 0 and below 100". */
static void percent_range(const struct cli_opt *o, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s %g", o->flags & CLI_MIN_OPEN ? "above" : "from", o->min);
	if ((size_t)n < len)
		snprintf(buf + n, len - (size_t)n, o->max > 0 ? (o->flags & CLI_MAX_OPEN ?
			 " and below %g" : " and at most %g") : " up", o->max);
}

/* A typed option's value into the command's struct: the one place each
 * kind of value is read, so that the same text means the same in every
 * command.  0, or -1 with the error set ("--runs: bad value 'x' (...)"). */
static int set_typed(const struct cli_opt *o, const char *v, void *opts)
{
	char *field = (char *)opts + o->offset, range[96], lo[32], hi[32];
	int64_t n;
	uint64_t sz;
	double d;
	char *end;

	switch (o->type) {
	case CLI_RAW:
		return 0;
	case CLI_FLAG:
		*(int *)field = 1;
		return 0;
	case CLI_STRING:
		*(const char **)field = v;
		return 0;
	case CLI_COUNT:
		if (parse_decimal(v, &n) || n < o->min || n > o->max)
			return error_set("--%s: bad value '%s' (a whole number from %.0f to %.0f)",
					 o->name, v, o->min, o->max);
		*(int *)field = (int)n;
		return 0;
	case CLI_SIZE:
		if (parse_size(v, &sz) || sz < o->min || (o->max > 0 && sz > o->max)) {
			format_size((uint64_t)o->min, lo, sizeof(lo));
			format_size((uint64_t)o->max, hi, sizeof(hi));
			return error_set("--%s: bad value '%s' (a size of at least %s%s%s, e.g. 1G)",
					 o->name, v, lo, o->max > 0 ? " and at most " : "",
					 o->max > 0 ? hi : "");
		}
		*(uint64_t *)field = sz;
		return 0;
	case CLI_PERCENT:
		if (parse_percent_at_least(v, o->min, &d) ||
		    ((o->flags & CLI_MIN_OPEN) && !(d * 100 > o->min)) ||
		    (o->max > 0 && (o->flags & CLI_MAX_OPEN ? !(d * 100 < o->max) : d * 100 > o->max))) {
			percent_range(o, range, sizeof(range));
			return error_set("--%s: bad value '%s' (a percentage %s, e.g. 3%%)", o->name, v,
					 range);
		}
		*(double *)field = d;
		return 0;
	case CLI_DURATION:
		if (parse_duration(v, &d) || !(d > 0))
			return error_set("--%s: bad value '%s' (a duration such as 30m or 2h)", o->name, v);
		*(double *)field = d;
		return 0;
	case CLI_NUMBER:
		d = strtod(v, &end);
		if (end == v || *end || isspace((unsigned char)*v) || !(d >= o->min && d <= o->max))
			return error_set("--%s: bad value '%s' (a number from %g to %g, such as 0.1 or 2)",
					 o->name, v, o->min, o->max);
		*(double *)field = d;
		return 0;
	}
	return error_set("--%s: an option of no known type", o->name);
}

void cli_args_free(struct cli_args *a)
{
	free(a->items);
	free(a->opts);
	a->items = NULL;
	a->opts = NULL;
}

/* argv -> items in order, and the typed options into the command's
 * struct; -1 with the error set. */
int cli_parse(const struct cmd_entry *cmd, int argc, char **argv, struct cli_args *a)
{
	int only_words = 0;

	a->cmd = cmd;
	a->n = 0;
	a->argc = argc;
	a->argv = argv;
	a->opts = NULL;
	a->items = calloc((size_t)argc + 1, sizeof(*a->items));
	if (!a->items)
		return error_set("out of memory");
	if (cmd->opts_size && !(a->opts = calloc(1, cmd->opts_size)))
		return error_set("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		const struct cli_opt *o = NULL;
		const char *value = NULL;
		if (only_words || w[0] != '-' || !w[1]) {
			a->items[a->n++] = (struct cli_item){ NULL, w };
			continue;
		}
		if (!strcmp(w, "--")) {
			only_words = 1;
			continue;
		}
		if (w[1] == '-') {
			const char *eq = strchr(w + 2, '=');
			o = find_long(cmd, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
			if (!o && (cmd->flags & CMD_PASS_LONG)) {
				a->items[a->n++] = (struct cli_item){ NULL, w };
				continue;
			}
			if (o && eq && !o->has_arg)
				return error_set("%s: option '--%s' takes no value", cmd->name, o->name);
			value = eq ? eq + 1 : NULL;
		} else {
			o = find_short(cmd, (unsigned char)w[1]);
			if (o && w[2])
				value = w + 2;	/* -n3 */
		}
		if (!o)
			return error_set("%s: unknown or incomplete option '%s' (see `fsbench %s --help`)",
					 cmd->name, w, cmd->name);
		if (o->has_arg && !value) {
			if (i + 1 >= argc)
				return error_set("%s: option '--%s' needs a value (%s)", cmd->name, o->name,
						 o->arg ? o->arg : "VALUE");
			value = argv[++i];
		}
		a->items[a->n++] = (struct cli_item){ o, o->has_arg ? value : "1" };
		if (o->type != CLI_RAW && a->opts && set_typed(o, o->has_arg ? value : "1", a->opts))
			return -1;
	}
	return 0;
}

int cli_run_command(const struct cmd_entry *cmd, int argc, char **argv)
{
	struct cli_args a;
	int rc;

	if (cli_parse(cmd, argc, argv, &a)) {
		cli_args_free(&a);
		return cli_fail(EXIT_USAGE, "%s", error_get());
	}
	if (cli_has(&a, "help")) {
		cli_print_help(stdout, cmd);
		cli_args_free(&a);
		return EXIT_OK;
	}
	rc = cmd->exec(&a);
	cli_args_free(&a);
	return rc;
}

static void print_opt(FILE *f, const struct cli_opt *o)
{
	const char *arg = o->arg ? o->arg : "", *w = o->help;
	int col;

	if (o->val)
		col = fprintf(f, "  -%c, --%s%s%s", o->val, o->name, *arg ? " " : "", arg);
	else
		col = fprintf(f, "      --%s%s%s", o->name, *arg ? " " : "", arg);
	if (col > 27) {
		fputc('\n', f);
		col = 0;
	}
	for (; col < 28; col++)
		fputc(' ', f);
	/* descriptions from column 28, wrapped at 80 */
	for (int first = 1; *w; first = 0) {
		int len = (int)strcspn(w, " ");
		if (!first && col + 1 + len > 79) {
			fputc('\n', f);
			for (col = 0; col < 28; col++)
				fputc(' ', f);
		} else if (!first) {
			col += fprintf(f, " ");
		}
		col += fprintf(f, "%.*s", len, w);
		w += len + (w[len] == ' ');
	}
	fputc('\n', f);
}

void cli_print_help(FILE *f, const struct cmd_entry *cmd)
{
	fprintf(f, "usage: fsbench %s%s%s\n", cmd->name, cmd->usage[0] ? " " : "", cmd->usage);
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	fputc('\n', f);
	for (const struct cli_opt *o = cmd->args; o && o->name; o++)
		print_opt(f, o);
	print_opt(f, &help_opt);
	if (cmd->more_help)
		cmd->more_help(f);
}

int cli_fail(int code, const char *fmt, ...)
{
	char msg[8192], safe[4 * sizeof(msg)];
	va_list ap;

	/* Messages quote user input and tools' output: escaped, never raw. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	str_escape(safe, sizeof(safe), msg);
	fprintf(stderr, "fsbench: %s\n", safe);
	return code;
}

static int mkdir_parents(const char *file)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", file);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return error_errno("cannot create %s", dir);
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", dir);
	return 0;
}

/* --db FILE, or the default store's path in def. */
static const char *store_path(const char *path, char *def, size_t len)
{
	if (path)
		return path;
	return store_default_path(def, (unsigned)len) ? NULL : def;
}

int cli_open_store(const char *path, struct store **out)
{
	char def[PATH_MAX];

	const char *given = path;

	path = store_path(path, def, sizeof(def));
	/* the default's directories are fsbench's to make; a --db in a
	 * directory that is not there is a typo, said as `list` says it */
	if (!path || (!given && mkdir_parents(path)))
		return -1;
	if (given && strcmp(given, ":memory:")) {
		char dir[PATH_MAX], *slash;
		struct stat st;
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = 0;
			if (stat(dir[0] ? dir : "/", &st) || !S_ISDIR(st.st_mode))
				return error_set("--db %s: no directory %s (make it first)", given,
						 dir[0] ? dir : "/"), -2;
		}
	}
	return store_open(path, out);
}

int cli_open_store_readonly(const char *path, struct store **out)
{
	char def[PATH_MAX];

	path = store_path(path, def, sizeof(def));
	return path ? store_open_readonly(path, out) : -1;	/* -2: no store there */
}

int cli_output_check(const char *opt, const char *file)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (!file || !strcmp(file, "-"))
		return 0;
	if (!*file)
		return error_set("%s: give a file name (or - for stdout)", opt);
	if (!lstat(file, &st)) {
		if (S_ISLNK(st.st_mode))
			return error_set("%s %s: it is a symbolic link; fsbench writes only by a "
					 "file's own name", opt, file);
		if (!S_ISREG(st.st_mode))
			return error_set("%s %s: it is a %s, not a file", opt, file,
					 S_ISDIR(st.st_mode) ? "directory" : "special file");
		return 0;
	}
	if (strlen(file) >= sizeof(dir))
		return error_set("%s: file name too long", opt);
	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (!slash)
		return 0;
	slash[slash == dir ? 1 : 0] = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return error_set("%s %s: no directory %s (make it first)", opt, file, dir);
	return 0;
}

FILE *cli_output_open(const char *file)
{
	FILE *f;

	if (!strcmp(file, "-"))
		return stdout;
	/* Often in /tmp: never through a symlink someone planted. */
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ELOOP) {
		error_set("cannot write %s: it is a symbolic link", file);
		return NULL;
	}
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		error_errno("cannot write %s", file);
	}
	return f;
}

int cli_output_close(FILE *f, const char *file, int rc)
{
	if (fflush(f) || ferror(f))
		rc = error_errno("writing %s", file);
	if (f != stdout && fclose(f) && !rc)
		rc = error_errno("writing %s", file);
	if (rc && f != stdout)
		unlink(file);	/* never leave a half-written result file */
	return rc ? -1 : 0;
}

int cli_write_runs(struct result *const *runs, int n, const char *what, const char *file,
		   const char *baseline, int verbose)
{
	const struct report_format *fmt = report_format_find(what);
	struct report_opts o;
	FILE *f;

	if (!fmt)
		return error_set("unknown format '%s' (%s)", what, report_format_names());
	if (!(f = cli_output_open(file)))
		return -1;
	report_opts_for(f, &o);
	o.baseline = baseline;
	o.verbose = verbose;
	return cli_output_close(f, file, fmt->write(f, runs, n, &o) ? -1 : 0);
}

int cli_write_output(const struct result *r, const char *what, const char *file,
		     const char *baseline, int verbose)
{
	struct result *one = (struct result *)r;

	return cli_write_runs(&one, 1, what, file, baseline, verbose);
}

int cli_find_run(struct store *s, const char *sel, int by_label, int64_t *id)
{
	int64_t n;

	if (by_label) {
		if (store_find_label(s, sel, id))
			return -1;
		return *id ? 0 : error_set("no stored run is labelled '%s' (see `fsbench list runs`)", sel);
	}
	if (!strcmp(sel, "last")) {
		if (store_last_run(s, id))
			return -1;
		return *id ? 0 : error_set("no stored runs yet (run `fsbench run` first)");
	}
	if (parse_decimal(sel, &n) || n < 1)
		return error_set("bad run '%s' (a run number from `fsbench list runs`, or last)", sel);
	*id = n;
	return 0;
}

int cli_load_run(struct store *s, const char *sel, int by_label, struct result **out,
		 int64_t *id)
{
	int exists = 0;

	*out = NULL;
	if (cli_find_run(s, sel, by_label, id))
		return EXIT_USAGE;
	if (store_run_exists(s, *id, &exists))
		return EXIT_FAIL;
	if (!exists) {
		error_set("no run %lld in the result store (see `fsbench list runs`)", (long long)*id);
		return EXIT_USAGE;
	}
	return store_load_run(s, *id, out) ? EXIT_FAIL : 0;
}

void cli_command_line(int argc, char **argv, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && used + 1 < len; i++) {
		const char *a = argv[i];
		int plain = *a && !strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;!#~");
		if (i)
			buf[used++] = ' ';
		if (plain) {
			used += (size_t)snprintf(buf + used, len - used, "%s", a);
		} else {
			buf[used++] = '\'';
			for (; *a && used + 5 < len; a++) {
				if (*a == '\'')
					used += (size_t)snprintf(buf + used, len - used, "'\\''");
				else
					buf[used++] = *a;
			}
			if (used + 1 < len)
				buf[used++] = '\'';
		}
		if (used >= len)
			used = len - 1;
		buf[used] = '\0';
	}
}
