/*
 * text.c: the terminal report, in the shapes our seeds use.
 *
 * Chart (seed 000):            Tables (seed 002):
 *   FS-Mark 3.3                  raw: rows = targets, columns = metrics
 *   Test: 1000 Files, 1MB Size   ratio: target / baseline per metric, each
 *   Files/s > Higher Is Better     marked + faster, - slower, ~ no
 *   EXT4 ... 19.9 |=====...        significant difference (Welch p < 0.05
 *   F2FS ... 18.6 |====...         and the ratio's 95% CI excluding 1), and
 *                                  * when beyond seed 002's +-5% band.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void report_opts_for(FILE *f, struct report_opts *o)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	int fd = fileno(f);

	o->width = 80;
	o->color = 0;
	if (isatty(fd)) {
		if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
			o->width = ws.ws_col;
		const char *nc = getenv("NO_COLOR");
		o->color = !(nc && *nc);
	}
	if (cols && atoi(cols) >= 40)
		o->width = atoi(cols);
	if (o->width > 200)
		o->width = 200;
}

int report_decimals(double max)
{
	max = fabs(max);
	if (max >= 1000)
		return 0;
	if (max >= 100)
		return 1;
	if (max >= 1)
		return 2;
	return 4;
}

static int max_label(const struct result *r)
{
	int w = 0;

	for (int i = 0; i < r->ntargets; i++)
		if ((int)strlen(r->targets[i].label) > w)
			w = (int)strlen(r->targets[i].label);
	return w;
}

/* "EXT4 ......... " : label, a space, dots to a common width. */
static void dotted_label(FILE *f, const char *label, int width)
{
	int n = (int)strlen(label);

	fprintf(f, "%s ", label);
	for (int i = n; i < width + 1; i++)
		fputc('.', f);
	fputc(' ', f);
}

void report_chart(FILE *f, const struct result *r, int ti, int mi,
		  const struct report_opts *o)
{
	const struct r_test *t = &r->tests[ti];
	const struct r_metric *m = &t->metrics[mi];
	struct summary *s = calloc((size_t)r->ntargets, sizeof(*s));
	char val[64], se[64];
	double max = 0;
	int lw = max_label(r), vw = 1, sw = 0;

	if (!s)
		return;
	for (int i = 0; i < r->ntargets; i++) {
		result_summary(t, i, mi, &s[i]);
		if (s[i].n && fabs(s[i].mean) > max)
			max = fabs(s[i].mean);
	}
	int dec = report_decimals(max);
	for (int i = 0; i < r->ntargets; i++) {
		if (!s[i].n)
			continue;
		int n = snprintf(val, sizeof(val), "%.*f", dec, s[i].mean);
		vw = n > vw ? n : vw;
		n = snprintf(se, sizeof(se), "  SE +/- %.*f, N = %d", dec, s[i].se, s[i].n);
		sw = n > sw ? n : sw;
	}
	/* A test with several metrics names the metric on the subtitle line
	 * when the unit alone does not say which it is. */
	int named = t->nmetrics > 1 && strcmp(m->label, m->unit);
	fprintf(f, "%s\n", t->title);
	if (t->subtitle[0] || named)
		fprintf(f, "%s%s%s\n", t->subtitle, t->subtitle[0] && named ? " - " : "",
			named ? m->label : "");
	if (m->direction > 0)
		fprintf(f, "%s > Higher Is Better\n", m->unit);
	else
		fprintf(f, "%s < Lower Is Better\n", m->unit);

	int bar_max = o->width - (lw + 3) - vw - 2 - sw - 1;
	if (bar_max < 10)
		bar_max = 10;
	for (int i = 0; i < r->ntargets; i++) {
		dotted_label(f, r->targets[i].label, lw);
		if (!s[i].n) {
			const char *why = t->cells[i].failure;
			fprintf(f, "%s\n", why ? "FAILED (see below)" : "no result");
			continue;
		}
		snprintf(val, sizeof(val), "%.*f", dec, s[i].mean);
		fprintf(f, "%-*s |", vw, val);
		int bar = max > 0 ? (int)lround(fabs(s[i].mean) / max * bar_max) : 0;
		for (int k = 0; k < bar_max; k++)
			fputc(k < bar ? '=' : ' ', f);
		if (s[i].n > 1)
			fprintf(f, "  SE +/- %.*f, N = %d", dec, s[i].se, s[i].n);
		else
			fprintf(f, "  N = 1");
		fputc('\n', f);
	}
	free(s);
}

/* Verdict of target vs baseline for one metric, in "faster" terms. */
static int faster(const struct ratio *q, int direction)
{
	return q->verdict * (direction > 0 ? 1 : -1);
}

struct column {
	char head[64], unit[32];
	int width, dec;
};

static void cell_ratio(const struct result *r, const struct r_test *t, int ti,
		       int mi, int base, char *buf, size_t len, int *sig, int *band)
{
	struct summary a, b;
	struct ratio q;

	result_summary(t, ti, mi, &a);
	result_summary(t, base, mi, &b);
	*sig = 0;
	*band = 0;
	(void)r;
	if (!a.n || !b.n || b.mean == 0) {
		snprintf(buf, len, "-");
		return;
	}
	q = stats_ratio(&a, &b);
	*sig = faster(&q, t->metrics[mi].direction);
	double better = t->metrics[mi].direction > 0 ? q.value : 1 / q.value;
	*band = better >= 1.05 ? 1 : better <= 1 / 1.05 ? -1 : 0;
	snprintf(buf, len, "%.2f%c%s", q.value,
		 a.n < 2 || b.n < 2 ? '?' : *sig > 0 ? '+' : *sig < 0 ? '-' : '~',
		 *band ? "*" : "");
}

static void print_cell(FILE *f, const char *text, int width, int right,
		       const char *color, int markdown)
{
	if (markdown) {
		fprintf(f, " %s |", text);
		return;
	}
	fputs("  ", f);
	if (color)
		fputs(color, f);
	fprintf(f, right ? "%*s" : "%-*s", width, text);
	if (color)
		fputs("\033[0m", f);
}

/* Raw (means) and ratio tables of one test, columns wrapped to the width. */
void report_tables(FILE *f, const struct result *r, int ti,
		   const struct report_opts *o, int markdown)
{
	const struct r_test *t = &r->tests[ti];
	int base = result_baseline(r, o->baseline);
	int lw = max_label(r) > 6 ? max_label(r) : 6;
	struct column *cols = calloc((size_t)t->nmetrics + 1, sizeof(*cols));
	char buf[64];

	if (!cols || base < 0) {
		free(cols);
		return;
	}
	for (int m = 0; m < t->nmetrics; m++) {
		double max = 0;
		struct summary s;
		for (int i = 0; i < r->ntargets; i++) {
			result_summary(t, i, m, &s);
			if (s.n && fabs(s.mean) > max)
				max = fabs(s.mean);
		}
		cols[m].dec = report_decimals(max);
		snprintf(cols[m].head, sizeof(cols[m].head), "%s", t->metrics[m].label);
		snprintf(cols[m].unit, sizeof(cols[m].unit), "%s", t->metrics[m].unit);
		cols[m].width = (int)strlen(cols[m].head);
		if ((int)strlen(cols[m].unit) + 2 > cols[m].width && strcmp(cols[m].unit, cols[m].head))
			cols[m].width = (int)strlen(cols[m].unit) + 2;
		for (int i = 0; i < r->ntargets; i++) {
			result_summary(t, i, m, &s);
			int n = snprintf(buf, sizeof(buf), "%.*f", cols[m].dec, s.mean);
			if (n + 1 > cols[m].width)
				cols[m].width = n + 1;
		}
		if (cols[m].width < 7)
			cols[m].width = 7;
	}

	for (int pass = 0; pass < (r->ntargets > 1 ? 2 : 1); pass++) {
		if (pass == 0)
			fprintf(f, markdown ? "\nMeans (%s):\n\n" : "%s: means\n", t->name);
		else if (markdown)
			fprintf(f, "\nRatio to %s (target / baseline; + faster, - slower, "
				"~ no significant difference at 95%%, * beyond the +-5%% band):\n\n",
				r->targets[base].label);
		else
			fprintf(f, "%s: ratio to %s (+ faster, - slower, ~ no significant "
				"difference at 95%%; * beyond +-5%%)\n", t->name,
				r->targets[base].label);
		for (int first = 0; first < t->nmetrics;) {
			int last = first, used = lw;
			while (last < t->nmetrics &&
			       (markdown || last == first || used + 2 + cols[last].width <= o->width))
				used += 2 + cols[last++].width;
			/* header */
			if (markdown) {
				fprintf(f, "| target |");
				for (int m = first; m < last; m++)
					fprintf(f, " %s (%s) |", cols[m].head, cols[m].unit);
				fprintf(f, "\n|---|");
				for (int m = first; m < last; m++)
					fprintf(f, "---:|");
				fputc('\n', f);
			} else {
				fprintf(f, "%-*s", lw, "");
				for (int m = first; m < last; m++)
					print_cell(f, cols[m].head, cols[m].width, 1, NULL, 0);
				fputc('\n', f);
			}
			for (int i = 0; i < r->ntargets; i++) {
				if (markdown)
					fprintf(f, "| %s |", r->targets[i].label);
				else
					fprintf(f, "%-*s", lw, r->targets[i].label);
				for (int m = first; m < last; m++) {
					struct summary s;
					const char *color = NULL;
					int sig = 0, band = 0;
					if (pass == 0) {
						result_summary(t, i, m, &s);
						if (!s.n)
							snprintf(buf, sizeof(buf), "%s",
								 t->cells[i].failure ? "failed" : "-");
						else if (markdown && s.n > 1)
							snprintf(buf, sizeof(buf), "%.*f ± %.*f",
								 cols[m].dec, s.mean, cols[m].dec, s.se);
						else
							snprintf(buf, sizeof(buf), "%.*f", cols[m].dec, s.mean);
					} else if (i == base) {
						snprintf(buf, sizeof(buf), "1.00");
					} else {
						cell_ratio(r, t, i, m, base, buf, sizeof(buf), &sig, &band);
						if (o->color && !markdown)
							color = !sig ? "\033[2m" : band > 0 && sig > 0 ?
								"\033[32m" : band < 0 && sig < 0 ? "\033[31m" : NULL;
					}
					print_cell(f, buf, cols[m].width, 1, color, markdown);
				}
				fputc('\n', f);
			}
			first = last;
		}
	}
	free(cols);
}

static void wrap_fields(FILE *f, const char *const *names, const char *const *values,
			int n, int width)
{
	int col = 8;

	fputc('\t', f);
	for (int i = 0; i < n; i++) {
		int len = (int)(strlen(names[i]) + strlen(values[i]) + 4);
		if (i && col + len > width) {
			fputs(",\n\t", f);
			col = 8;
		} else if (i) {
			fputs(", ", f);
		}
		fprintf(f, "%s: %s", names[i], values[i]);
		col += len;
	}
	fputc('\n', f);
}

void report_system(FILE *f, const struct result *r, const struct report_opts *o)
{
	const char *names[16], *values[16];
	int n = 0;

	const char *note = !strcmp(r->status, "failed") ? " (some tests failed)" :
			   !strcmp(r->status, "interrupted") ? " (interrupted)" : "";

	fprintf(f, "fsbench %s, run %lld, %s%s%s%s\n\n", r->version, (long long)r->id,
		r->started, r->label[0] ? ", " : "", r->label, note);
	for (int i = 0; i < r->nsys && n < 16; i++, n++) {
		names[n] = r->sys[i].name;
		values[n] = r->sys[i].value;
	}
	wrap_fields(f, names, values, n, o->width);
	fputc('\n', f);
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *t = &r->targets[i];
		const char *tn[] = { "File-System", "Mount Options", "Disk", "I/O Scheduler", "Directory" };
		const char *tv[] = { t->fstype, t->mount_opts, t->disk, t->scheduler, t->path };
		fprintf(f, "%s:\n", t->label);
		wrap_fields(f, tn, tv, 5, o->width);
	}
	fputc('\n', f);
}

void report_test(FILE *f, const struct result *r, int ti, const struct report_opts *o)
{
	const struct r_test *t = &r->tests[ti];

	fputc('\n', f);
	for (int m = 0; m < t->nmetrics; m++) {
		report_chart(f, r, ti, m, o);
		fputc('\n', f);
	}
	report_tables(f, r, ti, o, 0);
	for (int i = 0; i < r->ntargets; i++)
		if (t->cells[i].failure)
			fprintf(f, "%s failed on %s: %s\n", t->name, r->targets[i].label,
				t->cells[i].failure);
}

void report_text(FILE *f, const struct result *r, const struct report_opts *o)
{
	report_system(f, r, o);
	for (int i = 0; i < r->ntests; i++)
		report_test(f, r, i, o);
}
