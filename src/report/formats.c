/*
 * formats.c: the output formats, one table.  Adding a format is its writer
 * plus a line here; `show --format`, the run's --json/--csv/... files and
 * `report` all go through it.
 */
#include "report.h"

#include <string.h>

static int write_text(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	for (int i = 0; i < n; i++)
		report_text(f, runs[i], o);
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
	for (int i = 0; i < n; i++)
		if (report_markdown(f, runs[i], o))
			return -1;
	return 0;
}

static int write_html(FILE *f, struct result *const *runs, int n, const struct report_opts *o)
{
	return report_html(f, runs, n, o->baseline);
}

static const struct report_format formats[] = {
	{ "text", write_text, 0 },
	{ "json", write_json, 0 },
	{ "csv", write_csv, 0 },
	{ "markdown", write_markdown, 0 },
	{ "html", write_html, 1 },
	{ NULL, NULL, 0 },
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
