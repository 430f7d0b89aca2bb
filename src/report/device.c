/*
 * device.c: the device group of a test as a table, for text and Markdown
 * (html.c and json.c render the same metrics their own way).
 *
 * One row per target with the means of the runner's device metrics
 * (runner/device.h): what reached the device, the amplification against
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
	"dev_written", "write_amp", "dev_read", "read_amp", "space_used", "compression",
	"data_zstd", "dev_util", "dev_flushes", "dev_discarded", "fs_used",
};
#define NCOLUMNS (int)(sizeof(columns) / sizeof(columns[0]))
#define COMPACT_COLUMNS 6

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
		{ "fs_used", "FS used MiB" },
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (!strcmp(heads[i][0], name))
			return heads[i][1];
	return name;
}

static int decimals_for(const char *name, double v)
{
	if (!strcmp(name, "write_amp") || !strcmp(name, "read_amp") ||
	    !strcmp(name, "compression") || !strcmp(name, "data_zstd"))
		return 2;
	if (!strcmp(name, "dev_util") || !strcmp(name, "dev_flushes"))
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

void report_device(FILE *f, const struct result *r, int ti, const struct report_opts *o,
		   int markdown)
{
	const struct r_test *t = &r->tests[ti];
	int idx[NCOLUMNS], n = 0, lw = 6;
	int want = o->verbose || markdown ? NCOLUMNS : COMPACT_COLUMNS;

	if (!t->ndevice || !report_has_device(r, ti))
		return;
	for (int c = 0; c < want; c++) {
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
	for (int i = 0; i < r->ntargets; i++)
		if ((int)strlen(r->targets[i].label) > lw)
			lw = (int)strlen(r->targets[i].label);
	if (markdown)
		fprintf(f, "\nDevice (means per run; write amplification = bytes the device wrote / "
			   "bytes the workload wrote):\n\n| target |");
	else
		fprintf(f, "%s: device (means per run; amplification = device bytes / workload "
			   "bytes)\n%-*s", t->name, lw, "");
	for (int k = 0; k < n; k++) {
		const char *h = head_of(t->metrics[idx[k]].name);
		if (markdown)
			fprintf(f, " %s |", h);
		else
			fprintf(f, "  %11s", h);
	}
	if (markdown) {
		fprintf(f, "\n|---|");
		for (int k = 0; k < n; k++)
			fprintf(f, "---:|");
	}
	fputc('\n', f);
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *tg = &r->targets[i];
		if (markdown)
			fprintf(f, "| %s |", tg->label);
		else
			fprintf(f, "%-*s", lw, tg->label);
		/* No device: the reason, and the space figures the walk gave. */
		if (!tg->blockdev && tg->blockdev_note) {
			if (markdown)
				fprintf(f, " n/a: %s |", tg->blockdev_note);
			else
				fprintf(f, "  n/a: %s", tg->blockdev_note);
			fputc('\n', f);
			continue;
		}
		for (int k = 0; k < n; k++) {
			struct summary s;
			char cell[48];
			result_summary(t, i, idx[k], &s);
			if (s.n)
				snprintf(cell, sizeof(cell), "%.*f",
					 decimals_for(t->metrics[idx[k]].name, s.mean), s.mean);
			else
				snprintf(cell, sizeof(cell), "-");
			if (markdown)
				fprintf(f, " %s |", cell);
			else
				fprintf(f, "  %11s", cell);
		}
		fputc('\n', f);
	}
	for (int i = 0; i < r->ntargets; i++)
		if (r->targets[i].blockdev && r->targets[i].blockdev_note)
			fprintf(f, "%s%s: %s\n", markdown ? "\n" : "  ", r->targets[i].label,
				r->targets[i].blockdev_note);
}
