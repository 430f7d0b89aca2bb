/*
 * devtable.c: the device group of a test as a table, for text and Markdown
 * (html.c and json.c render the same metrics their own way).
 *
 * One row per target with the means of the runner's device metrics
 * (runner/devgroup.h): what reached the device, the amplification against
 * what the workload itself wrote and read, and the space its files took.
 * A target without a block device gets its reason instead of numbers; a
 * column no target has a figure for is left out.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Metric names of the columns, in order; compact output shows the first
 * COMPACT_COLUMNS. */
static const char *const columns[] = {
	"dev_written", "write_amp", "flash_erases", "dev_read", "read_amp", "space_used",
	"compression", "flash_max_ec", "data_zstd", "dev_util", "dev_flushes", "dev_discarded",
	"fs_used",
	/* a modelled medium's own (media/counters.h): shown whenever present,
	 * as they are what a model is run for */
	"medium_write_amp", "full_merges", "partial_merges", "switch_merges", "pages_copied",
	"medium_busy",
};
#define FIRST_MODEL 13
#define NCOLUMNS (int)(sizeof(columns) / sizeof(columns[0]))
#define COMPACT_COLUMNS 8	/* block devices: 6 of them; flash: erases and wear too */

int report_device_metric(const struct r_test *t, const char *name)
{
	for (int m = t->nmetrics; m < t->nmetrics + t->ndevice; m++)
		if (!strcmp(t->metrics[m].name, name))
			return m;
	return -1;
}

/* Short headers: the table is read next to the legend line. */
static const char *head_of(const char *name)
{
	static const char *const heads[][2] = {
		{ "dev_written", "Written MiB" }, { "write_amp", "Write amp" },
		{ "dev_read", "Read MiB" }, { "read_amp", "Read amp" },
		{ "space_used", "Space MiB" }, { "compression", "Compressed" },
		{ "data_zstd", "Data zstd" }, { "dev_util", "Busy %" },
		{ "dev_flushes", "Flushes" }, { "dev_discarded", "Discard MiB" },
		{ "fs_used", "FS used MiB" }, { "flash_erases", "Erases" },
		{ "flash_max_ec", "Max erase count" }, { "medium_write_amp", "Medium WA" },
		{ "full_merges", "Full merges" }, { "partial_merges", "Partial merges" },
		{ "switch_merges", "Switches" }, { "pages_copied", "Pages copied" },
		{ "medium_busy", "Medium busy s" },
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strcmp(heads[i][0], name))
			return heads[i][1];
	return name;
}

static int decimals_for(const char *name, double v)
{
	if (!strcmp(name, "write_amp") || !strcmp(name, "read_amp") ||
	    !strcmp(name, "compression") || !strcmp(name, "data_zstd") ||
	    !strcmp(name, "medium_write_amp"))
		return 2;
	if (!strcmp(name, "dev_util") || !strcmp(name, "dev_flushes") ||
	    !strncmp(name, "flash_", 6) || strstr(name, "merges") || !strcmp(name, "pages_copied"))
		return 0;
	return fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2;
}

int report_has_device(const struct result *r, int ti)
{
	const struct r_test *t = &r->tests[ti];

	for (int m = t->nmetrics; m < t->nmetrics + t->ndevice; m++)
		for (int i = 0; i < r->ntargets; i++) {
			struct summary s;
			result_summary(t, i, m, &s);
			if (s.n)
				return 1;
		}
	return 0;
}

/* The cell text of target i, column metric m. */
static void cell_text(const struct r_test *t, int i, int m, char *buf, size_t len)
{
	struct summary s;

	result_summary(t, i, m, &s);
	if (s.n)
		snprintf(buf, len, "%.*f", decimals_for(t->metrics[m].name, s.mean), s.mean);
	else
		snprintf(buf, len, "-");
}

/* A target with no block device and no figure (flash has erase counts
 * without one): its reason instead of numbers. */
static int no_device(const struct r_test *t, const struct r_target *tg, int i)
{
	if (tg->blockdev || !tg->blockdev_note)
		return 0;
	for (int m = t->nmetrics; m < t->nmetrics + t->ndevice; m++) {
		struct summary s;
		result_summary(t, i, m, &s);
		if (s.n)
			return 0;
	}
	return 1;
}

static void markdown_table(FILE *f, const struct result *r, const struct r_test *t,
			   const int *idx, int n)
{
	char cell[48];

	fprintf(f, "\nDevice (means per run; write amplification = bytes the device wrote / "
		   "bytes the workload wrote):\n\n| target |");
	for (int k = 0; k < n; k++)
		fprintf(f, " %s |", head_of(t->metrics[idx[k]].name));
	fprintf(f, "\n|---|");
	for (int k = 0; k < n; k++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (int i = 0; i < r->ntargets; i++) {
		fprintf(f, "| %s |", r->targets[i].label);
		if (no_device(t, &r->targets[i], i)) {
			fprintf(f, " n/a: %s |\n", r->targets[i].blockdev_note);
			continue;
		}
		for (int k = 0; k < n; k++) {
			cell_text(t, i, idx[k], cell, sizeof(cell));
			fprintf(f, " %s |", cell);
		}
		fputc('\n', f);
	}
}

static void wrap(FILE *f, const char *lead, const char *text, int width);

/* Text: columns as wide as their widest cell, wrapped to the width like
 * the means tables; a reason or note is wrapped under its label. */
static void text_table(FILE *f, const struct result *r, const struct r_test *t,
		       const int *idx, int n, int width)
{
	int lw = 6, w[NCOLUMNS];
	char cell[48];

	for (int i = 0; i < r->ntargets; i++)
		if ((int)strlen(r->targets[i].label) > lw)
			lw = (int)strlen(r->targets[i].label);
	for (int k = 0; k < n; k++) {
		w[k] = (int)strlen(head_of(t->metrics[idx[k]].name));
		for (int i = 0; i < r->ntargets; i++) {
			cell_text(t, i, idx[k], cell, sizeof(cell));
			if ((int)strlen(cell) > w[k])
				w[k] = (int)strlen(cell);
		}
	}
	char title[512];
	snprintf(title, sizeof(title), "%s: device, means per run (amplification = device "
		 "bytes / the workload's bytes)", t->name);
	wrap(f, "", title, width);
	for (int first = 0; first < n;) {
		int last = first, used = lw;
		while (last < n && (last == first || used + 2 + w[last] <= width))
			used += 2 + w[last++];
		fprintf(f, "%-*s", lw, "");
		for (int k = first; k < last; k++)
			fprintf(f, "  %*s", w[k], head_of(t->metrics[idx[k]].name));
		fputc('\n', f);
		for (int i = 0; i < r->ntargets; i++) {
			fprintf(f, "%-*s", lw, r->targets[i].label);
			if (no_device(t, &r->targets[i], i)) {
				fputs(first ? "  n/a\n" : "  n/a (see below)\n", f);
				continue;
			}
			for (int k = first; k < last; k++) {
				cell_text(t, i, idx[k], cell, sizeof(cell));
				fprintf(f, "  %*s", w[k], cell);
			}
			fputc('\n', f);
		}
		first = last;
	}
}

/* lead then text, wrapped at width with a hanging indent. */
static void wrap(FILE *f, const char *lead, const char *text, int width)
{
	int col = fprintf(f, "%s", lead);

	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		int len = (int)strcspn(p, " ");
		if (!len)
			break;
		if (col + 1 + len > width && col > 4)
			col = fprintf(f, "\n ") - 1;
		col += fprintf(f, "%s%.*s", col ? " " : "", len, p);
		p += len;
	}
	fputc('\n', f);
}

void report_device(FILE *f, const struct result *r, int ti, const struct report_opts *o,
		   int markdown)
{
	const struct r_test *t = &r->tests[ti];
	int idx[NCOLUMNS], n = 0;
	int want = o->verbose || markdown ? NCOLUMNS : COMPACT_COLUMNS;

	if (!t->ndevice || !report_has_device(r, ti))
		return;
	for (int c = 0; c < NCOLUMNS; c++) {
		if (c >= want && c < FIRST_MODEL)
			continue;
		int m = report_device_metric(t, columns[c]);
		int any = 0;
		for (int i = 0; m >= 0 && i < r->ntargets && !any; i++) {
			struct summary s;
			result_summary(t, i, m, &s);
			any = s.n > 0;
		}
		if (any)
			idx[n++] = m;
	}
	if (markdown)
		markdown_table(f, r, t, idx, n);
	else
		text_table(f, r, t, idx, n, o->width > 20 ? o->width : 80);
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *tg = &r->targets[i];
		if (!tg->blockdev_note || (markdown && no_device(t, tg, i)))
			continue;
		if (markdown)
			fprintf(f, "\n%s: %s\n", tg->label, tg->blockdev_note);
		else
		{
			char lead[160];
			snprintf(lead, sizeof(lead), "  %.100s:", tg->label);
			wrap(f, lead, tg->blockdev_note, o->width > 20 ? o->width : 80);
		}
	}
}
