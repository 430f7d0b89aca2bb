/*
 * cmd-report.c: `fsbench report RUN [RUN...] --html FILE --markdown FILE`
 * renders stored runs into the files people share: one self-contained HTML
 * page for all the runs given, or Markdown (tables and text charts).
 */
#include "cli.h"
#include "../core/error.h"
#include "../report/report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "html", required_argument, NULL, 'H' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *html = NULL, *md = NULL, *baseline = NULL, *db = NULL;
	struct store *s;
	int ch, n, rc = 0;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'H': html = optarg; break;
		case 'm': md = optarg; break;
		case 'b': baseline = optarg; break;
		case 'd': db = optarg; break;
		case 'h':
			printf("usage: fsbench report RUN [RUN...] [--html FILE] [--markdown FILE]"
			       " [--baseline LABEL] [--db FILE]\n"
			       "RUN is a number from `fsbench list runs` or `last`.  Without --html or\n"
			       "--markdown the text report goes to standard output.\n");
			return EXIT_OK;
		default:
			return cli_fail(EXIT_USAGE, "report: unknown or incomplete option '%s'",
					argv[optind - 1]);
		}
	}
	n = argc - optind;
	if (n < 1)
		return cli_fail(EXIT_USAGE, "report: which run? (e.g. `fsbench report last --html r.html`)");
	if (cli_open_store_readonly(db, &s))
		return cli_fail(EXIT_FAIL, "%s", error_get());
	struct result **runs = calloc((size_t)n, sizeof(*runs));
	int code = runs ? 0 : (error_set("out of memory"), EXIT_FAIL);
	for (int i = 0; i < n && !code; i++) {
		int64_t id;
		code = cli_load_run(s, argv[optind + i], 0, &runs[i], &id);
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
	.exec = cmd_report,
};
