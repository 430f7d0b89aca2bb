/*
 * cmd-compare.c: `fsbench compare RUN_A RUN_B [RUN...]` (or --label L):
 * every later run against the first, test by test and filesystem by
 * filesystem, with significance; `--fail-on-regression PCT` makes a
 * significant slowdown of more than PCT percent fail the command, for CI.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

struct compare_args {
	double fail;		/* --fail-on-regression, a fraction */
	const char *json, *markdown, *html, *db;
};
#define A(f) offsetof(struct compare_args, f)

static const struct cli_opt compare_args[] = {
	{ "label", 1, 'l', "LABEL", "the newest run with this label (repeatable, in order with RUNs)" },
	{ "fail-on-regression", 1, 0, "PCT", "exit 1 when a significant slowdown exceeds PCT percent",
	  CLI_PERCENT, A(fail), 0, 0 },
	{ "json", 1, 0, "FILE", "also write the comparison as JSON (schema fsbench.compare; - for stdout)",
	  CLI_STRING, A(json) },
	{ "markdown", 1, 0, "FILE", "also write it as Markdown tables", CLI_STRING, A(markdown) },
	{ "html", 1, 0, "FILE", "also write it as an HTML page", CLI_STRING, A(html) },
	{ "db", 1, 'd', "FILE", "result store (default ~/.local/share/fsbench/results.db)",
	  CLI_STRING, A(db) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_compare(const struct cli_args *a)
{
	const struct compare_args *o = a->opts;
	const char *db = o->db;
	/* a percentage, read as everywhere ("5" or "5%", from 0 up) */
	double fail_pct = cli_has(a, "fail-on-regression") ? 100 * o->fail : -1;
	int64_t ids[64];
	const char *sel[64];
	int by_label[64], n = 0, rc = 0, failing_total = 0, matched = 0;
	struct store *s;

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
	if (cli_output_check("--json", o->json) || cli_output_check("--markdown", o->markdown) ||
	    cli_output_check("--html", o->html))
		return cli_fail(EXIT_USAGE, "compare: %s", error_get());
	int opened = cli_open_store_readonly(db, &s);
	if (opened)
		return cli_fail(opened == -2 ? EXIT_USAGE : EXIT_FAIL, "%s", error_get());
	struct result *runs[64] = { NULL };
	int code = 0, loaded = 0;
	for (int i = 0; i < n && !code; i++, loaded++)
		code = cli_load_run(s, sel[i], by_label[i], &runs[i], &ids[i]);
	store_close(s);
	if (code) {
		loaded--;
		rc = code;
		goto out;
	}
	/* A document on stdout (--json -) takes it alone: the table goes to
	 * stderr then. */
	const char *docs[3] = { o->json, o->markdown, o->html };
	FILE *human = stdout;
	for (int k = 0; k < 3; k++)
		if (docs[k] && !strcmp(docs[k], "-"))
			human = stderr;
	for (int i = 1; i < n; i++) {
		int regressions, failing;
		struct cmp_row *rows = NULL;
		int nrows = 0;
		if (i > 1)
			fputc('\n', human);
		if (!compare_match(runs[0], runs[i], &rows, &nrows))
			matched += nrows;
		free(rows);
		if (report_compare(human, runs[0], runs[i], fail_pct, &regressions, &failing)) {
			rc = EXIT_FAIL;
			goto out;
		}
		failing_total += failing;
	}
	static const char *const formats[3] = { "json", "markdown", "html" };
	for (int k = 0; k < 3; k++) {
		const struct report_format *fmt = report_format_find(formats[k]);
		FILE *f;
		if (!docs[k])
			continue;
		if (!(f = cli_output_open(docs[k])) ||
		    cli_output_close(f, docs[k], fmt->compare(f, runs, n, fail_pct))) {
			rc = EXIT_FAIL;
			goto out;
		}
	}
out:
	for (int i = 0; i < loaded; i++)
		result_free(runs[i]);
	if (rc)
		return cli_fail(rc, "compare: %s", error_get());
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
	.opts_size = sizeof(struct compare_args),
	.exec = cmd_compare,
};
