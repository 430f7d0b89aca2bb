/*
 * cmd-show.c: `fsbench show [RUN] [--format text|json|csv|markdown|html]`
 * re-renders a stored run (default: the newest) exactly as `run` did.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"

#include <getopt.h>
#include <string.h>

static int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *format = "text", *baseline = NULL;
	struct store *s;
	struct result *r;
	int64_t id = 0;
	int ch, all = 0;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd': db = optarg; break;
		case 'f': format = optarg; break;
		case 'b': baseline = optarg; break;
		case 'a': all = 1; break;
		case 'h':
			printf("usage: fsbench show [RUN|last] [--format text|json|csv|markdown|html]"
			       " [--baseline LABEL] [--all] [--db FILE]\n\n"
			       "Text shows each test's primary chart and a summary; --all adds every\n"
			       "chart and the means and ratio tables.\n");
			return EXIT_OK;
		default:
			return cli_fail(EXIT_USAGE, "show: unknown or incomplete option '%s'",
					argv[optind - 1]);
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv") &&
	    strcmp(format, "markdown") && strcmp(format, "html"))
		return cli_fail(EXIT_USAGE, "show: bad --format '%s' (text, json, csv, markdown or html)",
				format);
	if (argc - optind > 1)
		return cli_fail(EXIT_USAGE, "show: one run at a time (see `fsbench list runs`)");
	if (cli_open_store_readonly(db, &s))
		return cli_fail(EXIT_FAIL, "%s", error_get());
	int code = cli_load_run(s, optind < argc ? argv[optind] : "last", 0, &r, &id);
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
	.exec = cmd_show,
};
