/*
 * formats.c: the output formats, one table.  Adding a format is its writer
 * plus a line here; `show --format`, the run's --json/--csv/... files,
 * `report` and `compare`'s documents all go through it.
 */
#include "report.h"

#include <string.h>

/* Several runs in text or Markdown: merged (merge.c), their systems side
 * by side, then every test once with every run's targets. */
static int write_text(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	if (n == 1) {
		report_text(f, runs[0], o);
		return 0;
	}
	struct result *m = report_merge(runs, n);
	if (!m)
		return -1;
	report_runs_table(f, runs, n, 0);
	report_text(f, m, o);
	report_merge_free(m);
	return 0;
}

static int write_json(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	for (int i = 0; i < n; i++)
		if (report_json(f, runs[i], o->baseline))
			return -1;
	return 0;
}

static int write_csv(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	(void)o;
	for (int i = 0; i < n; i++)
		if (report_csv(f, runs[i]))
			return -1;
	return 0;
}

static int write_markdown(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	if (n == 1)
		return report_markdown(f, runs[0], o);
	struct result *m = report_merge(runs, n);
	if (!m)
		return -1;
	struct report_opts mo = *o;
	mo.merged = 1;
	fprintf(f, "# fsbench runs merged\n\n");
	report_runs_table(f, runs, n, 1);
	int rc = report_markdown(f, m, &mo);
	report_merge_free(m);
	return rc;
}

static int write_html(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	return report_html(f, runs, n, o->baseline);
}

static const struct report_format formats[] = {
	{ "text", write_text, 1, NULL },
	{ "json", write_json, 0, report_compare_json },
	{ "csv", write_csv, 0, NULL },
	{ "markdown", write_markdown, 1, report_compare_markdown },
	{ "html", write_html, 1, report_compare_html },
	{ NULL, NULL, 0, NULL },
};

const struct report_format *report_format_find(const char *name)
{
	for (const struct report_format *r = formats; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

const char *report_format_names(void)
{
	static char names[128];

	if (!names[0])
		for (const struct report_format *r = formats; r->name; r++) {
			size_t used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", r->name);
		}
	return names;
}
