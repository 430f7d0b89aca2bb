/*
 * cmd-compare.c: `fsbench compare RUN_A RUN_B [RUN...]` (or --label L):
 * every later run against the first, test by test and filesystem by
 * filesystem, with significance; `--fail-on-regression PCT` makes a
 * significant slowdown of more than PCT percent fail the command, for CI.
 */
#include "cli.h"
#include "../core/error.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

static const struct cli_opt compare_args[] = {
	{ "label", 1, 'l', "LABEL", "the newest run with this label (repeatable, in order with RUNs)" },
	{ "fail-on-regression", 1, 0, "PCT", "exit 1 when a significant slowdown exceeds PCT percent" },
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)" },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_compare(const struct cli_args *a)
{
	const char *db = cli_value(a, "db"), *pct = cli_value(a, "fail-on-regression");
	double fail_pct = -1;
	int64_t ids[64];
	const char *sel[64];
	int by_label[64], n = 0, rc = 0, failing_total = 0, matched = 0;
	struct store *s;

	if (pct) {
		char *end;
		fail_pct = strtod(pct, &end);
		if (*end || !(fail_pct >= 0))
			return cli_fail(EXIT_USAGE, "--fail-on-regression: bad value '%s' (a percentage "
					"such as 5)", pct);
	}
	/* run numbers and --label in the order given */
	for (int i = 0; i < a->n; i++) {
		const struct cli_item *it = &a->items[i];
		if (it->opt && strcmp(it->opt->name, "label"))
			continue;
		if (n == 64)
			return cli_fail(EXIT_USAGE, "compare: at most 64 runs");
		sel[n] = it->value;
		by_label[n++] = it->opt != NULL;
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
		struct cmp_row *rows = NULL;
		int nrows = 0;
		if (!compare_match(base, r, &rows, &nrows))
			matched += nrows;
		free(rows);
		rc = report_compare(stdout, base, r, fail_pct, &regressions, &failing);
		failing_total += failing;
		result_free(r);
	}
	result_free(base);
	store_close(s);
	if (rc)
		return cli_fail(code ? code : EXIT_FAIL, "compare: %s", error_get());
	/* A renamed test must not pass a CI gate silently. */
	if (!matched)
		return cli_fail(EXIT_NO_MATCH, "compare: nothing matched: the runs share no test, metric "
				"and target");
	if (fail_pct >= 0 && failing_total)
		return cli_fail(EXIT_FAIL, "compare: %d regression%s beyond %.1f%%", failing_total,
				failing_total == 1 ? "" : "s", fail_pct);
	return EXIT_OK;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.usage = "RUN_A RUN_B [RUN...] [--fail-on-regression PCT]",
	.summary = "compare stored runs test by test, flagging regressions",
	.about = "Later runs are compared with the first.  RUN is a number or `last`.\n",
	.args = compare_args,
	.exec = cmd_compare,
};
