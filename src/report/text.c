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
#include "../aging/record.h"
#include "../core/str.h"

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

/* text wrapped at width, continuation lines indented by `indent`. */
static void wrap_text(FILE *f, const char *text, int width, int indent)
{
	int col = 0;

	for (const char *w = text; *w;) {
		int len = (int)strcspn(w, " ");
		if (col && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", len, w);
		w += len;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

/* A chart row's last word: ", baseline" or the target's speed against it
 * as the verdicts call it (", x1.14+"), the one statistic every view
 * shows; nothing with one target. */
static void against(const struct r_test *t, int i, int base, int m, char *buf, size_t len)
{
	char vs[40];

	report_against(t, i, base, m, vs, sizeof(vs), 0);
	snprintf(buf, len, "%s%s", vs[0] ? ", " : "", vs);
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
	int dec = report_decimals(max), base = result_baseline(r, o->baseline);
	for (int i = 0; i < r->ntargets; i++) {
		if (!s[i].n)
			continue;
		int n = snprintf(val, sizeof(val), "%.*f", dec, s[i].mean);
		vw = n > vw ? n : vw;
		char vs[48];
		against(t, i, base, mi, vs, sizeof(vs));
		n = snprintf(se, sizeof(se), "  SE +/- %.*f, N = %d%s", dec, s[i].se, s[i].n, vs);
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

	int marks = 0;	/* room for " !" when any row carries a warning */
	for (int i = 0; i < r->ntargets; i++) {
		char warn[128];
		marks |= report_warning(t, i, mi, warn, sizeof(warn), 0);
	}
	int bar_max = o->width - (lw + 3) - vw - 2 - sw - 1 - (marks ? 2 : 0);
	if (bar_max < 10)
		bar_max = 10;
	for (int i = 0; i < r->ntargets; i++) {
		dotted_label(f, r->targets[i].label, lw);
		if (!s[i].n) {
			fprintf(f, "%s\n", t->cells[i].failure ? "FAILED (see below)" :
				t->cells[i].nsamples ? report_no_figure(r, t, i, mi) : "no result");
			continue;
		}
		snprintf(val, sizeof(val), "%.*f", dec, s[i].mean);
		fprintf(f, "%-*s |", vw, val);
		int bar = max > 0 ? (int)lround(fabs(s[i].mean) / max * bar_max) : 0;
		for (int k = 0; k < bar_max; k++)
			fputc(k < bar ? '=' : ' ', f);
		char vs[48];
		against(t, i, base, mi, vs, sizeof(vs));
		if (s[i].n > 1)
			fprintf(f, "  SE +/- %.*f, N = %d%s", dec, s[i].se, s[i].n, vs);
		else
			fprintf(f, "  N = 1%s", vs);
		char warn[128];
		fprintf(f, "%s\n", report_warning(t, i, mi, warn, sizeof(warn), 0) ? " !" : "");
	}
	/* The reason behind each "!", on one line: figures a reader should
	 * not lean on.  When drift is every reason, "drifting" is said once. */
	char line[2048] = "! shaky:", warn[128];
	int shaky = 0, drift_only = 1;
	for (int i = 0; i < r->ntargets; i++)
		if (report_warning(t, i, mi, warn, sizeof(warn), 1))
			drift_only &= !strncmp(warn, "drifting ", 9) && !strchr(warn, ',');
	if (drift_only)
		str_copy(line, sizeof(line), "! shaky, runs drifting:");
	size_t used = strlen(line);
	for (int i = 0; i < r->ntargets && used < sizeof(line); i++)
		if (report_warning(t, i, mi, warn, sizeof(warn), 1))
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s %s %s",
						 shaky++ ? "," : "", r->targets[i].label,
						 drift_only ? warn + 9 : warn);
	if (shaky)
		wrap_text(f, line, o->width, 2);
	if (report_vm_warning(r)) {
		char vm[512];
		snprintf(vm, sizeof(vm), "! %s", report_vm_warning(r));
		wrap_text(f, vm, o->width, 2);
	}
	free(s);
}

struct column {
	char head[96], unit[32];
	int width, dec;
	int empty;		/* no target has a figure: the column is left out */
};

/* Columns of the means table: every metric, then the workload's CPU% and
 * the machine's busy CPU% (bonnie++'s %CP, and what a FUSE daemon adds). */
#define CPU_COLUMNS 2

static void column_summary(const struct r_test *t, int c, int target, struct summary *s)
{
	const struct r_cell *cell = &t->cells[target];
	double *x;
	int n = 0;

	if (c < t->nmetrics) {
		result_summary(t, target, c, s);
		return;
	}
	x = malloc(sizeof(double) * (size_t)(cell->nsamples + 1));
	for (int k = 0; x && k < cell->nsamples; k++) {
		double v = c == t->nmetrics ? cell->samples[k].cpu_pct
					    : cell->samples[k].machine_cpu_pct;
		if (isfinite(v))
			x[n++] = v;
	}
	stats_summarize(x, n, s);
	free(x);
}

/* A ratio cell: empty unless both sides have a value; the speed against
 * the baseline ("x1.25", "/17.9") and the verdicts' mark. */
static void cell_ratio(const struct r_test *t, int ti, int mi, int base, char *buf,
		       size_t len, enum report_call *call)
{
	struct report_speed q;

	*call = REPORT_NOCALL;
	if (report_speed(t, ti, base, mi, &q)) {
		buf[0] = '\0';
		return;
	}
	*call = q.call;
	report_speed_cell(&q, buf, len, 0);	/* "n/a" is said under the table */
}

static void print_cell(FILE *f, const char *text, int width, const char *color,
		       int markdown)
{
	if (markdown) {
		fprintf(f, " %s |", text);
		return;
	}
	fputs("  ", f);
	if (color)
		fputs(color, f);
	fprintf(f, "%*s", width, text);
	if (color)
		fputs("\033[0m", f);
}

/* The unit every metric column shares, or "" (fileop: all ops/s). */
static const char *common_unit(const struct r_test *t)
{
	for (int m = 1; m < t->nmetrics; m++)
		if (strcmp(t->metrics[m].unit, t->metrics[0].unit))
			return "";
	return t->nmetrics ? t->metrics[0].unit : "";
}

static void layout_columns(const struct result *r, const struct r_test *t,
			   struct column *cols, int ncols)
{
	char buf[64];
	int shared = common_unit(t)[0] != '\0';

	for (int c = 0; c < ncols; c++) {
		struct summary s;
		double max = 0;
		for (int i = 0; i < r->ntargets; i++) {
			column_summary(t, c, i, &s);
			if (s.n && fabs(s.mean) > max)
				max = fabs(s.mean);
		}
		cols[c].dec = c < t->nmetrics ? report_decimals(max) : 0;
		if (c < t->nmetrics && shared)	/* the title says the unit once */
			snprintf(cols[c].head, sizeof(cols[c].head), "%s", t->metrics[c].label);
		else if (c < t->nmetrics)
			report_header(&t->metrics[c], cols[c].head, sizeof(cols[c].head));
		else
			snprintf(cols[c].head, sizeof(cols[c].head), "%s",
				 c == t->nmetrics ? "CPU%" : "Machine CPU%");
		snprintf(cols[c].unit, sizeof(cols[c].unit), "%s",
			 c < t->nmetrics ? t->metrics[c].unit : "%");
		cols[c].width = (int)strlen(cols[c].head);
		cols[c].empty = 1;
		for (int i = 0; i < r->ntargets; i++) {
			column_summary(t, c, i, &s);
			cols[c].empty &= !s.n;
			int n = snprintf(buf, sizeof(buf), "%.*f", cols[c].dec, s.mean);
			if (n + 1 > cols[c].width)
				cols[c].width = n + 1;
		}
		if (cols[c].width < 7)
			cols[c].width = 7;
	}
}

/* Text of one table cell; sets *color for significant ratios. */
static void table_cell(const struct result *r, const struct r_test *t, int ratio,
		       int c, int i, int base, const struct column *col,
		       const struct report_opts *o, int markdown, char *buf,
		       size_t len, const char **color)
{
	struct summary s;
	enum report_call call;

	*color = NULL;
	if (ratio && i == base) {
		column_summary(t, c, i, &s);
		snprintf(buf, len, "%s", s.n ? "base" : "");
	} else if (ratio) {
		cell_ratio(t, i, c, base, buf, len, &call);
		if (o->color && !markdown)
			*color = call == REPORT_FASTER ? "\033[32m" : call == REPORT_SLOWER ?
				 "\033[31m" : call == REPORT_SAME ? NULL : "\033[2m";
	} else {
		column_summary(t, c, i, &s);
		if (!s.n)
			snprintf(buf, len, "%s", t->cells[i].failure ? "failed" : "-");
		else if (markdown && s.n > 1)
			snprintf(buf, len, "%.*f ± %.*f", col->dec, s.mean, col->dec, s.se);
		else
			snprintf(buf, len, "%.*f", col->dec, s.mean);
	}
	(void)r;
}

static void table_title(FILE *f, const struct result *r, const struct r_test *t,
			int ratio, int base, int markdown, int width)
{
	const char *unit = common_unit(t);
	char line[1024], legend[512];

	snprintf(legend, sizeof(legend), REPORT_LEGEND,
		 100 * (t->looks > 0 ? t->margin : REPORT_MARGIN));

	if (!ratio && markdown)
		fprintf(f, "\nMeans (%s%s%s):\n\n", t->name, unit[0] ? ", " : "", unit);
	else if (!ratio)
		fprintf(f, "%s: means%s%s%s\n", t->name, unit[0] ? " (" : "", unit, unit[0] ? ")" : "");
	else if (markdown)
		fprintf(f, "\nSpeed against %s (%s; empty where a side has no figure):\n\n",
			r->targets[base].label, legend);
	else {
		fprintf(f, "\n%s: speed against %s\n", t->name, r->targets[base].label);
		snprintf(line, sizeof(line), "(%s)", legend);
		wrap_text(f, line, width, 1);
	}
}

/* Raw (means) and ratio tables of one test, columns wrapped to the width. */
void report_tables(FILE *f, const struct result *r, int ti,
		   const struct report_opts *o, int markdown)
{
	const struct r_test *t = &r->tests[ti];
	int base = result_baseline(r, o->baseline);
	int lw = max_label(r) > 6 ? max_label(r) : 6;
	int ncols = t->nmetrics + CPU_COLUMNS;
	struct column *cols = calloc((size_t)ncols, sizeof(*cols));
	char buf[64];
	const char *color;

	if (!cols || base < 0) {
		free(cols);
		return;
	}
	layout_columns(r, t, cols, ncols);
	int *vis = calloc((size_t)ncols, sizeof(int)), nvis[2] = { 0, 0 };
	if (!vis) {
		free(cols);
		return;
	}
	for (int c = 0; c < ncols; c++)
		if (!cols[c].empty) {
			vis[nvis[0]++] = c;
			nvis[1] += c < t->nmetrics;
		}
	const char *why = NULL;	/* a "-" of the means: what it stands for */
	int na = 0;		/* an "n/a" of the speeds, likewise */
	for (int ratio = 0; ratio < (r->ntargets > 1 ? 2 : 1) && nvis[ratio]; ratio++) {
		int n = nvis[ratio];	/* metric columns come first in vis */
		if (ratio && why) {	/* after the means: a "-" is not left unexplained */
			fprintf(f, "%s-: %s\n", markdown ? "\n" : "", why);
			why = NULL;
		}
		table_title(f, r, t, ratio, base, markdown, o->width);
		for (int first = 0; first < n;) {
			int last = first, used = lw;
			while (last < n && (markdown || last == first ||
					    used + 2 + cols[vis[last]].width <= o->width))
				used += 2 + cols[vis[last++]].width;
			if (markdown) {
				fprintf(f, "| target |");
				for (int k = first; k < last; k++)
					fprintf(f, " %s |", cols[vis[k]].head);
				fprintf(f, "\n|---|");
				for (int k = first; k < last; k++)
					fprintf(f, "---:|");
			} else {
				fprintf(f, "%-*s", lw, "");
				for (int k = first; k < last; k++)
					print_cell(f, cols[vis[k]].head, cols[vis[k]].width, NULL, 0);
			}
			fputc('\n', f);
			for (int i = 0; i < r->ntargets; i++) {
				if (markdown)
					fprintf(f, "| %s |", r->targets[i].label);
				else
					fprintf(f, "%-*s", lw, r->targets[i].label);
				for (int k = first; k < last; k++) {
					int c = vis[k];
					table_cell(r, t, ratio, c, i, base, &cols[c], o, markdown,
						   buf, sizeof(buf), &color);
					if (!ratio && !why && !strcmp(buf, "-") && c < t->nmetrics &&
					    t->cells[i].nsamples)
						why = report_no_figure(r, t, i, c);
					na |= ratio && !strcmp(buf, "n/a");
					print_cell(f, buf, cols[c].width, color, markdown);
				}
				fputc('\n', f);
			}
			first = last;
		}
	}
	if (why)	/* one target: no ratio table followed */
		fprintf(f, "%s-: %s\n", markdown ? "\n" : "", why);
	if (na)
		fprintf(f, "%sn/a: no speed, as a side's figure is 0 (a ratio to or of nothing)\n",
			markdown ? "\n" : "");
	free(vis);
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
		/* A value too long for a line (mount options, a device's
		 * description) breaks after a comma or semicolon, else at a
		 * blank, where what follows up to the next would not fit. */
		col += fprintf(f, "%s: ", names[i]);
		for (const char *v = values[i]; *v; v++) {
			if (*v == ' ' && col > 10 && col + (int)strcspn(v + 1, " ,;") + 1 > width) {
				fputs("\n\t  ", f);
				col = 10;
				continue;
			}
			fputc(*v, f);
			col++;
			if ((*v == ',' || *v == ';') && col + (int)strcspn(v + 1, ",;") + 2 > width) {
				fputs("\n\t  ", f);
				col = 10;
				if (v[1] == ' ')
					v++;
			}
		}
	}
	fputc('\n', f);
}

/* The medium of a target's disk line without where its image lay ("1.1GB
 * loop (direct-io, no discard)"); the path goes with the run. */
static int disk_len(const char *disk)
{
	const char *on = strstr(disk, " on /");

	return on ? (int)(on - disk) : (int)strlen(disk);
}

/* The mkfs command without its last word when that is the device it was
 * mounted from (a loop device that is gone after the run). */
static int mkfs_len(const struct r_target *t)
{
	size_t n = strlen(t->mkfs), d = t->mount_source ? strlen(t->mount_source) : 0;

	if (d && n > d && t->mkfs[n - d - 1] == ' ' && !strcmp(t->mkfs + n - d, t->mount_source))
		return (int)(n - d - 1);
	return (int)n;
}

void report_system(FILE *f, const struct result *r, const struct report_opts *o)
{
	const char *names[16], *values[16];
	int n = 0;

	const char *note = !strcmp(r->status, "failed") ? " (some tests failed)" :
			   !strcmp(r->status, "interrupted") ? " (interrupted)" :
			   !strcmp(r->status, "abandoned") ? " (abandoned: its process died)" : "";

	if (r->merged > 1) {	/* the systems are side by side above */
		fprintf(f, "fsbench, %d runs merged (%s)\n\n", r->merged, r->label);
		goto targets;
	}
	fprintf(f, "fsbench %s, run %lld, %s%s%s%s\n", r->version, (long long)r->id,
		r->started, r->label[0] ? ", " : "", r->label, note);
	if (r->note && r->note[0]) {
		char line[4200];
		snprintf(line, sizeof(line), "Note: %s", r->note);
		wrap_text(f, line, o->width, 4);
	}
	fputc('\n', f);
	for (int i = 0; i < r->nsys && n < 16; i++, n++) {
		names[n] = r->sys[i].name;
		values[n] = r->sys[i].value;
	}
	if (n) {
		wrap_fields(f, names, values, n, o->width);
		fputc('\n', f);
	}
	if (!r->ntargets) {	/* a guest's run stopped before its guest handed anything over */
		wrap_text(f, "Nothing was measured: the run stopped before its first repetition "
			  "(`fsbench run --resume` runs it).", o->width, 0);
		return;
	}
targets:;
	/* Brief: the medium once when every target is on one alike (the
	 * images' scratch paths are gone after the run: --all has them) */
	int shared = !o->verbose && r->ntargets > 1;
	for (int i = 1; shared && i < r->ntargets; i++)
		shared = disk_len(r->targets[i].disk) == disk_len(r->targets[0].disk) &&
			 !strncmp(r->targets[i].disk, r->targets[0].disk, disk_len(r->targets[0].disk));
	shared = shared && disk_len(r->targets[0].disk) > 0;
	if (shared) {
		char line[1100];
		snprintf(line, sizeof(line), "Each on %.*s:", disk_len(r->targets[0].disk),
			 r->targets[0].disk);
		wrap_text(f, line, o->width, 4);
	}
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *t = &r->targets[i];
		char aged[512] = "";
		if (t->aging)
			age_record_summary(t->aging, aged, sizeof(aged));
		const char *tn[] = { "File-System", "Mount Options", "Disk", "I/O Scheduler",
				     t->mkfs[0] ? "mkfs" : "Directory", "Aging" };
		const char *tv[] = { t->fstype, t->mount_opts, t->disk, t->scheduler,
				     t->mkfs[0] ? t->mkfs : t->path, aged };
		if (!o->verbose) {
			/* one entry per target: what it is and how it was made */
			char line[2600], on[1100] = "";
			if (!shared)
				snprintf(on, sizeof(on), " on %.*s", disk_len(t->disk), t->disk);
			snprintf(line, sizeof(line), "%s: %s%s, %.*s%s%s", t->label, t->fstype, on,
				 t->mkfs[0] ? mkfs_len(t) : (int)strlen(t->path), t->mkfs[0] ? t->mkfs : t->path,
				 aged[0] ? "; " : "", aged);
			wrap_text(f, line, o->width, 4);
			continue;
		}
		fprintf(f, "%s:\n", t->label);
		wrap_fields(f, tn, tv, aged[0] ? 6 : 5, o->width);
	}
}

/* Seed 003's groups by compression (groups.c), as tables: for each group,
 * the throughput columns (K/s) of its targets, then their CPU.  Nothing
 * when no target compresses or the test has no K/s columns. */
static void compression_tables(FILE *f, const struct result *r, int ti)
{
	const struct r_test *t = &r->tests[ti];
	struct report_group *g = calloc(16, sizeof(*g));
	int ng = g ? report_compression_groups(r, g, 16) : 0, cols[32], cpu[32], nc = 0;
	int lw = max_label(r) > 6 ? max_label(r) : 6, dash = 0;

	for (int m = 0; m < t->nmetrics && nc < 32; m++) {
		if (strcmp(t->metrics[m].unit, "K/s"))
			continue;
		char name[160];
		snprintf(name, sizeof(name), "%s_cpu", t->metrics[m].name);
		cpu[nc] = -1;
		for (int k = 0; k < t->nmetrics; k++)
			if (!strcmp(t->metrics[k].name, name))
				cpu[nc] = k;
		cols[nc++] = m;
	}
	for (int k = 0; nc && k < ng; k++) {
		if (!k)
			fputs("\nBy compression (seed 003's groups; K/s, then %CPU)\n", f);
		fprintf(f, "\n%s\n", g[k].title);
		for (int part = 0; part < 2; part++) {
			fprintf(f, "%-*s", lw, part ? "%CPU" : "");
			for (int c = 0; c < nc; c++)
				fprintf(f, "  %10.10s", t->metrics[cols[c]].label);
			fputc('\n', f);
			for (int j = 0; j < g[k].n; j++) {
				fprintf(f, "%-*s", lw, r->targets[g[k].idx[j]].label);
				for (int c = 0; c < nc; c++) {
					struct summary sm;
					int m = part ? cpu[c] : cols[c];
					if (m >= 0)
						result_summary(t, g[k].idx[j], m, &sm);
					if (m >= 0 && sm.n)
						fprintf(f, "  %10.0f", sm.mean);
					else
						fprintf(f, "  %10s", "-");
					dash |= !(m >= 0 && sm.n);
				}
				fputc('\n', f);
			}
		}
	}
	if (dash)	/* issue 68: every "-" said what it stands for */
		fputs("-: no figure (that target failed, or the tool printed none, as bonnie's +++++)\n", f);
	free(g);
}

void report_test(FILE *f, const struct result *r, int ti, const struct report_opts *o)
{
	const struct r_test *t = &r->tests[ti];

	fputc('\n', f);
	/* By default the seed-000 chart of the primary metric; verbose (show
	 * --all, run --verbose): every chart, one per metric (fileop's 13
	 * columns get 13, as --all promises), and the tables. */
	for (int m = 0; m < t->nmetrics; m++) {
		int primary = m == report_primary(t);
		if (!primary && !o->verbose)
			continue;
		if (m && o->verbose)
			fputc('\n', f);
		report_chart(f, r, ti, m, o);
	}
	/* The rest is detail (show --all, run --verbose), unless a suite
	 * asked for a seed's own table (show =): fileop-flash's raw and ratio
	 * tables, tar-restore's repetitions, bonnie-compress's groups. */
	if (o->verbose || result_shows(t, "tables")) {
		fputc('\n', f);
		report_tables(f, r, ti, o, 0);
	}
	if (o->verbose || result_shows(t, "groups"))
		compression_tables(f, r, ti);
	if (report_has_reps(t) && (o->verbose || result_shows(t, "reps"))) {
		fputc('\n', f);
		report_reps(f, r, ti);
	}
	if (report_has_outcome(t)) {	/* the answer of a power-cut test */
		fputc('\n', f);
		report_outcome(f, r, ti, 0);
	}
	if (report_has_device(r, ti) && (o->verbose || result_shows(t, "device"))) {
		fputc('\n', f);
		report_device(f, r, ti, o, 0);
	}
	for (int i = 0; i < r->ntargets; i++)
		if (t->cells[i].failure)
			fprintf(f, "%s failed on %s: %s\n", t->name, r->targets[i].label,
				t->cells[i].failure);
}

/* --compare-fresh: each test's aged/fresh figure, filesystem by
 * filesystem (the pair's verdict, in "better" terms). */
static void aged_block(FILE *f, const struct result *r, int base, const struct report_opts *o)
{
	int *ref = calloc((size_t)r->ntargets + 1, sizeof(int));

	if (!ref || !report_age_refs(r, ref)) {
		free(ref);
		return;
	}
	fprintf(f, "\nAged / fresh (each aged twin over its fresh one, 95%%; above 1 better):\n");
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		char line[4096], cell[160];
		size_t used = (size_t)snprintf(line, sizeof(line), "%s:", t->name);
		if (!t->nmetrics || report_has_outcome(t))
			continue;
		for (int i = 0; i < r->ntargets && used < sizeof(line); i++)
			if (ref[i] >= 0 && !report_aged_cell(r, t, i, base, cell, sizeof(cell)))
				used += (size_t)snprintf(line + used, sizeof(line) - used, " %s %s;",
							 r->targets[ref[i]].label, cell);
		if (used < sizeof(line) && line[used - 1] == ';')
			line[used - 1] = '\0';
		fputs("  ", f);
		wrap_text(f, line, o->width - 2, 4);
	}
	free(ref);
}

/* One test's verdicts on one line ("name: a 1.26x faster than b ..."),
 * after `before` (a heading, a blank line); 0 and nothing printed when
 * the test has none (one target, no figures). */
static int verdict_line(FILE *f, const struct result *r, int ti, int base,
			struct report_verdict *v, const struct report_opts *o, const char *before)
{
	const struct r_test *t = &r->tests[ti];
	int n = report_verdicts(r, t, base, v, REPORT_MAX_VERDICTS);
	char line[8192];
	size_t used;

	if (!n)
		return 0;
	used = (size_t)snprintf(line, sizeof(line), "%s: ", t->name);
	for (int q = 0; q < n && used < sizeof(line); q++) {
		char one[512];
		report_verdict_text(r, &v[q], one, sizeof(one));
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s", q ? "; " : "", one);
	}
	fputs(before, f);
	fputs("  ", f);
	wrap_text(f, line, o->width - 2, 4);
	return 1;
}

void report_verdict_block(FILE *f, const struct result *r, const struct report_opts *o)
{
	int base = result_baseline(r, o->baseline), any = 0;
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));

	if (!v || base < 0 || r->ntargets < 2) {
		free(v);
		return;
	}
	/* the heading goes out with the first line, not over nothing */
	for (int ti = 0; ti < r->ntests; ti++)
		any += verdict_line(f, r, ti, base, v, o, any ? "" :
				    "\nVerdicts (95%, the error split over the looks; docs/results.md):\n");
	free(v);
	aged_block(f, r, base, o);
}

/* One test's verdict line, with a blank line above it; nothing without
 * verdicts. */
void report_test_verdicts(FILE *f, const struct result *r, int ti, const struct report_opts *o)
{
	int base = result_baseline(r, o->baseline);
	struct report_verdict *v;

	if (base < 0 || r->ntargets < 2 || ti < 0 || ti >= r->ntests ||
	    !(v = calloc(REPORT_MAX_VERDICTS, sizeof(*v))))
		return;
	verdict_line(f, r, ti, base, v, o, "\n");
	free(v);
}

void report_summary(FILE *f, const struct result *r, const struct report_opts *o)
{
	int base = result_baseline(r, o->baseline);

	if (base < 0 || !r->ntests)
		return;
	/* the detail behind the answer: every verdict with its interval */
	if (o->verbose)
		report_verdict_block(f, r, o);
	else
		aged_block(f, r, base, o);
	if (r->ntargets > 1)
		report_answer_text(f, r, o, 0);
	report_missed(f, r, o);
}

/* One line naming the tests whose runs aimed at a precision and missed it
 * on some target, with the widest interval: what a reader should rerun. */
void report_missed(FILE *f, const struct result *r, const struct report_opts *o)
{
	char line[4096];
	size_t used = 0;
	double target = 0;
	int n = 0;

	for (int ti = 0; ti < r->ntests && used < sizeof(line); ti++) {
		const struct r_test *t = &r->tests[ti];
		int m = report_primary(t);
		double worst = 0;
		if (!t->nmetrics || !(t->precision > 0))
			continue;
		for (int i = 0; i < r->ntargets; i++) {
			struct summary s;
			result_summary(t, i, m, &s);
			double p = stats_precision(&s);
			if (s.n >= REPORT_MIN_RUNS && p > t->precision && p > worst)
				worst = p;
		}
		if (worst > 0) {
			target = t->precision;
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s %s (+-%.1f%%)",
						 n++ ? "," : "", t->name, 100 * worst);
		}
	}
	if (!n)
		return;
	char head[128];
	snprintf(head, sizeof(head), "! %d test%s missed the +-%g%% target:", n, n == 1 ? "" : "s",
		 100 * target);
	char all[4300];
	snprintf(all, sizeof(all), "%s%s", head, line);
	wrap_text(f, all, o->width, 2);
}

/* show: the answer first, then what it rests on. */
void report_text(FILE *f, const struct result *r, const struct report_opts *o)
{
	int base = result_baseline(r, o->baseline);

	if (r->ntargets > 1 && base >= 0) {
		report_answer_text(f, r, o, 0);
		aged_block(f, r, base, o);
		fputc('\n', f);
	}
	report_system(f, r, o);
	for (int i = 0; i < r->ntests; i++)
		report_test(f, r, i, o);
	if (o->verbose)
		report_verdict_block(f, r, o);
	report_missed(f, r, o);
}
