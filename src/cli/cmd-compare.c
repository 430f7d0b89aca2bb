/*
 * cmd-compare.c: `fsbench compare RUN_A RUN_B [RUN...]` (or --label L):
 * every later run against the first, test by test and filesystem by
 * filesystem, with significance; `--fail-on-regression PCT` makes a
 * significant slowdown of more than PCT percent fail the command, for CI.
 */
#include "cli.h"
#include "../core/error.h"
#include "../report/report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'l' },
		{ "fail-on-regression", required_argument, NULL, 'F' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL;
	double fail_pct = -1;
	int64_t ids[64];
	char *sel[64];
	int by_label[64], n = 0, ch, rc = 0, failing_total = 0;
	struct store *s;

	optind = 1;
	opterr = 0;
	/* '-' in optstring keeps run numbers and --label in the order given. */
	while ((ch = getopt_long(argc, argv, "-h", longopts, NULL)) != -1) {
		switch (ch) {
		case 1:
		case 'l':
			if (n == 64)
				return cli_fail(EXIT_USAGE, "compare: at most 64 runs");
			sel[n] = optarg;
			by_label[n++] = ch == 'l';
			break;
		case 'F': {
			char *end;
			fail_pct = strtod(optarg, &end);
			if (*end || fail_pct < 0)
				return cli_fail(EXIT_USAGE, "--fail-on-regression: bad value '%s' (a percentage such as 5)",
						optarg);
			break;
		}
		case 'd': db = optarg; break;
		case 'h':
			printf("usage: fsbench compare RUN_A RUN_B [RUN...] [--label LABEL]...\n"
			       "                       [--fail-on-regression PCT] [--db FILE]\n"
			       "Later runs are compared with the first.  RUN is a number or `last`;\n"
			       "--label LABEL picks the newest run with that label.\n");
			return EXIT_OK;
		default:
			return cli_fail(EXIT_USAGE, "compare: unknown or incomplete option '%s'",
					argv[optind - 1]);
		}
	}
	if (n < 2)
		return cli_fail(EXIT_USAGE, "compare: give two runs or more (numbers, last, or --label LABEL)");
	if (cli_open_store_readonly(db, &s))
		return cli_fail(EXIT_FAIL, "%s", error_get());
	struct result *base = NULL;
	int code = cli_load_run(s, sel[0], by_label[0], &base, &ids[0]);
	rc = code != 0;
	for (int i = 1; i < n && !rc; i++) {
		struct result *r;
		int regressions, failing;
		if ((code = cli_load_run(s, sel[i], by_label[i], &r, &ids[i]))) {
			rc = -1;
			break;
		}
		if (i > 1)
			putchar('\n');
		rc = report_compare(stdout, base, r, fail_pct, &regressions, &failing);
		failing_total += failing;
		result_free(r);
	}
	result_free(base);
	store_close(s);
	if (rc)
		return cli_fail(code ? code : EXIT_FAIL, "compare: %s", error_get());
	if (fail_pct >= 0 && failing_total)
		return cli_fail(EXIT_FAIL, "compare: %d regression%s beyond %.1f%%", failing_total,
				failing_total == 1 ? "" : "s", fail_pct);
	return EXIT_OK;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "RUN_A RUN_B [RUN...] [--fail-on-regression PCT]",
	.summary = "compare stored runs test by test, flagging regressions",
	.exec = cmd_compare,
};
