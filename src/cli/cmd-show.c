/*
 * cmd-show.c: `fsbench show [RUN] [--format text|json|csv|markdown|html]`
 * re-renders a stored run (default: the newest) exactly as `run` did.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"

#include "../report/report.h"
#include <string.h>

struct show_args {
	const char *format, *baseline, *db;
	int all;
};
#define A(f) offsetof(struct show_args, f)

static const struct cli_opt show_args[] = {
	{ "format", 1, 'f', "FORMAT", "text (default), json, csv, markdown or html", CLI_STRING,
	  A(format) },
	{ "all", 0, 'a', NULL, "every chart, the means, speed and device tables, every verdict "
	  "(text)", CLI_FLAG, A(all) },
	{ "baseline", 1, 'b', "LABEL", "target the ratios compare to (default: the run's)",
	  CLI_STRING, A(baseline) },
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, A(db) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_show(const struct cli_args *a)
{
	const struct show_args *o = a->opts;
	const char *db = o->db, *baseline = o->baseline, *format = o->format ? o->format : "text";
	int all = o->all;
	struct store *s;
	struct result *r;
	int64_t id = 0;

	if (!report_format_find(format))
		return cli_fail(EXIT_USAGE, "show: bad --format '%s' (%s)", format, report_format_names());
	if (cli_npos(a) > 1)
		return cli_fail(EXIT_USAGE, "show: one run at a time (see `fsbench list runs`)");
	int opened = cli_open_store_readonly(db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	int code = cli_load_run(s, cli_npos(a) ? cli_pos(a, 0) : "last", 0, &r, &id);
	if (code) {
		store_close(s);
		return cli_fail(code, "show: %s", error_get());
	}
	store_close(s);
	if (baseline && result_baseline(r, baseline) < 0) {
		result_free(r);
		return cli_fail(EXIT_USAGE, "--baseline '%s' names no target of run %lld",
				baseline, (long long)id);
	}
	int rc = cli_write_output(r, format, "-", baseline, all);
	result_free(r);
	return rc ? cli_fail(EXIT_FAIL, "%s", error_get()) : EXIT_OK;
}

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.usage = "[RUN] [--format text|json|csv|markdown|html]",
	.summary = "re-render a stored run (default: the newest)",
	.about = "RUN is a number from `fsbench list runs` or `last` (the default).  Text\n"
		 "opens with the answer block, then each test's primary chart; --all adds\n"
		 "every chart, the tables and every verdict.\n",
	.args = show_args,
	.opts_size = sizeof(struct show_args),
	.exec = cmd_show,
};
