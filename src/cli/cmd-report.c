/*
 * cmd-report.c: `fsbench report RUN [RUN...] --html FILE --markdown FILE`
 * renders stored runs into the files people share: one self-contained HTML
 * page for all the runs given, or Markdown (tables and text charts).
 */
#include "cli.h"
#include "../core/error.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

struct report_args {
	const char *html, *markdown, *baseline, *db;
};
#define A(f) offsetof(struct report_args, f)

static const struct cli_opt report_args[] = {
	{ "html", 1, 0, "FILE", "one self-contained HTML page for all the runs", CLI_STRING, A(html) },
	{ "markdown", 1, 0, "FILE", "Markdown: tables and text charts", CLI_STRING, A(markdown) },
	{ "baseline", 1, 'b', "LABEL", "target the ratios compare to", CLI_STRING, A(baseline) },
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, A(db) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_report(const struct cli_args *a)
{
	const struct report_args *o = a->opts;
	const char *html = o->html, *md = o->markdown, *baseline = o->baseline, *db = o->db;
	struct store *s;
	int n = cli_npos(a), rc = 0;

	if (n < 1)
		return cli_fail(EXIT_USAGE, "report: which run? (e.g. `fsbench report last --html r.html`)");
	if (cli_output_check("--html", html) || cli_output_check("--markdown", md))
		return cli_fail(EXIT_USAGE, "report: %s", error_get());
	int opened = cli_open_store_readonly(db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	struct result **runs = calloc((size_t)n, sizeof(*runs));
	int code = runs ? 0 : (error_set("out of memory"), EXIT_FAIL);
	for (int i = 0; i < n && !code; i++) {
		int64_t id;
		code = cli_load_run(s, cli_pos(a, i), 0, &runs[i], &id);
		if (!code && baseline && result_baseline(runs[i], baseline) < 0) {
			error_set("--baseline '%s' names no target of run %lld", baseline, (long long)id);
			code = EXIT_USAGE;
		}
	}
	rc = code != 0;
	store_close(s);
	if (!rc && html)
		rc = cli_write_runs(runs, n, "html", html, baseline, 1) != 0;
	if (!rc && md)
		rc = cli_write_runs(runs, n, "markdown", md, baseline, 1) != 0;
	if (!rc && !html && !md)
		rc = cli_write_runs(runs, n, "text", "-", baseline, 1) != 0;
	for (int i = 0; i < n && runs; i++)
		result_free(runs[i]);
	free(runs);
	return rc ? cli_fail(code ? code : EXIT_FAIL, "report: %s", error_get()) : EXIT_OK;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.usage = "RUN [RUN...] [--html FILE] [--markdown FILE]",
	.summary = "render stored runs as an HTML page or Markdown",
	.about = "RUN is a number from `fsbench list runs` or `last`.  Without --html or\n"
		 "--markdown the text report goes to standard output.\n",
	.args = report_args,
	.opts_size = sizeof(struct report_args),
	.exec = cmd_report,
};
