/* common.c: helpers shared by subcommands (see cli.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_getopt_tables(const struct cli_opt *opts, struct option *longopts, char *shortopts,
		       size_t len)
{
	size_t used = 0;
	int i;

	for (i = 0; opts[i].name; i++) {
		longopts[i] = (struct option){ opts[i].name,
					       opts[i].has_arg ? required_argument : no_argument,
					       NULL, opts[i].val };
		if (opts[i].val < 128 && used + 3 < len) {
			shortopts[used++] = (char)opts[i].val;
			if (opts[i].has_arg)
				shortopts[used++] = ':';
		}
	}
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[used] = '\0';
}

/* Help text wrapped to 80 columns, descriptions from column 28. */
void cli_print_help(FILE *f, const char *usage, const struct cli_opt *opts)
{
	fputs(usage, f);
	fputc('\n', f);
	for (int i = 0; opts[i].name; i++) {
		const char *arg = opts[i].arg ? opts[i].arg : "", *w = opts[i].help;
		int col;
		if (opts[i].val < 128)
			col = fprintf(f, "  -%c, --%s%s%s", opts[i].val, opts[i].name, *arg ? " " : "", arg);
		else
			col = fprintf(f, "      --%s%s%s", opts[i].name, *arg ? " " : "", arg);
		if (col > 27) {
			fputc('\n', f);
			col = 0;
		}
		for (; col < 28; col++)
			fputc(' ', f);
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

	path = store_path(path, def, sizeof(def));
	if (!path || mkdir_parents(path))
		return -1;
	return store_open(path, out);
}

int cli_open_store_readonly(const char *path, struct store **out)
{
	char def[PATH_MAX];

	path = store_path(path, def, sizeof(def));
	return path ? store_open_readonly(path, out) : -1;
}

int cli_write_runs(struct result *const *runs, int n, const char *what, const char *file,
		   const char *baseline, int verbose)
{
	FILE *f = stdout;
	struct report_opts o;
	int rc = 0;

	if (strcmp(file, "-")) {
		/* Often in /tmp: never through a symlink someone planted. */
		int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno == ELOOP)
			return error_set("cannot write %s: it is a symbolic link", file);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			if (fd >= 0)
				close(fd);
			return error_errno("cannot write %s", file);
		}
	}
	report_opts_for(f, &o);
	o.baseline = baseline;
	o.verbose = verbose;
	if (!strcmp(what, "html"))	/* one page for all the runs */
		rc = report_html(f, runs, n, baseline);
	for (int i = 0; i < n && !rc && strcmp(what, "html"); i++) {
		if (!strcmp(what, "json"))
			rc = report_json(f, runs[i], baseline);
		else if (!strcmp(what, "csv"))
			rc = report_csv(f, runs[i]);
		else if (!strcmp(what, "markdown"))
			rc = report_markdown(f, runs[i], &o);
		else
			report_text(f, runs[i], &o);
	}
	if (fflush(f) || ferror(f))
		rc = error_errno("writing %s", file);
	if (f != stdout && fclose(f) && !rc)
		rc = error_errno("writing %s", file);
	if (rc && f != stdout)
		unlink(file);	/* never leave a half-written result file */
	return rc ? -1 : 0;
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
	if (parse_int(sel, &n) || n < 1)
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
