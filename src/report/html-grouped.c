/*
 * html-grouped.c: the HTML page's grouped bar charts, seed 003's shape:
 * several columns of one unit side by side, a bar per target, on a linear
 * or (over two decades) a log axis; and seed 003's groups of targets by
 * compression (report/groups.c decides them), each a throughput chart and
 * its CPU.  The page's other charts are in html.c and html-detail.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/* Position of v on a value axis of height h: linear from 0 to ax->max, or
 * logarithmic from lo to hi (decades). */
static double axis_pos(double v, const struct axis *ax, int log_scale, double lo, double hi,
		       double h)
{
	if (!log_scale)
		return v / ax->max * h;
	if (v <= lo)
		return 0;
	return log10(v / lo) / log10(hi / lo) * h;
}

/* Seed 003's chart: columns cols[0..nc) side by side, a bar per target
 * of tg[0..n) (every target, or one of seed 003's groups).  Values
 * spanning more than two decades (latency percentiles: p50 of 50 us beside
 * a p99.99 of 170 ms) get a log axis, which shows both. */
/* One grouped chart's SVG, wide (760) or narrow (380, for a phone: its
 * column labels slanted sooner), its title inside. */
static void grouped_svg(FILE *f, const struct result *r, int ti, const int *cols, int nc,
			const int *tg, int n, const char *unit, struct palette *pal, double hi,
			int log_scale, double llo, double lhi, int narrow)
{
	const struct r_test *t = &r->tests[ti];
	int W = narrow ? CHART_W_NARROW : CHART_W;
	struct axis ax;
	char num[32], head[512];

	svg_axis(hi, 5, &ax);
	int crowded = nc > (narrow ? 3 : 6);	/* long labels: slanted, with room below */
	double left = 60, top = narrow ? 44 : 30, plot_h = 220, plot_w = W - left - 10;
	double bottom = crowded ? 90 : 40;
	double group = plot_w / nc, bw = (group - 12) / n;
	fprintf(f, "<svg class=\"chart grouped%s %s\" xmlns=\"http://www.w3.org/2000/svg\""
		   " width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\""
		   " data-scale=\"%s\" data-test=\"", log_scale ? " log" : "", narrow ? "narrow" : "wide",
		W, top + plot_h + bottom, W, top + plot_h + bottom, log_scale ? "log" : "linear");
	xml_escape(f, t->name);
	fputs("\" data-unit=\"", f);
	xml_escape(f, unit);
	fputs("\"><title>", f);
	/* the title inside the image, as every chart's (html.c) */
	snprintf(head, sizeof(head), "%s: %s by column%s", t->title, unit, log_scale ? " (log axis)" : "");
	xml_escape(f, head);
	fputs("</title>", f);
	if (narrow && strlen(head) > 50) {	/* two lines on a phone */
		size_t cut = 50;
		while (cut > 20 && head[cut] != ' ')
			cut--;
		head[cut] = '\0';
		fputs("<text class=\"title\" x=\"4\" y=\"15\" font-weight=\"bold\">", f);
		xml_escape(f, head);
		fputs("</text><text class=\"title\" x=\"4\" y=\"30\" font-weight=\"bold\">", f);
		char *rest = head + cut + 1;
		html_cut_text(rest, 50);
		xml_escape(f, rest);
	} else {
		html_cut_text(head, narrow ? 50 : 100);
		fputs("<text class=\"title\" x=\"4\" y=\"15\" font-weight=\"bold\">", f);
		xml_escape(f, head);
	}
	fputs("</text>", f);
	if (!log_scale) {
		html_ticks(f, &ax, top + plot_h, plot_h, left, W - 10, 1);
	} else {
		for (int d = 0, nd = svg_decades(llo, lhi); d <= nd; d++) {
			double v = llo * pow(10, d), y = top + plot_h - axis_pos(v, &ax, 1, llo, lhi, plot_h);
			svg_number(v, num, sizeof(num));
			fprintf(f, "<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\""
				   " stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
				left, (double)W - 10, y, y, left - 4, y + 4, num);
		}
	}
	for (int c = 0; c < nc; c++) {
		double gx = left + c * group + 6;
		for (int j = 0; j < n; j++) {
			struct summary s;
			const char *label = r->targets[tg[j]].label;
			result_summary(t, tg[j], cols[c], &s);
			if (!s.n)
				continue;
			double h = axis_pos(s.mean, &ax, log_scale, llo, lhi, plot_h);
			html_bar(f, gx + j * bw, top + plot_h - h, bw - 1, h, html_colour(pal, label), label, narrow);
		}
		double lx = gx + (group - 12) / 2, ly = top + plot_h + 16;
		if (crowded)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				   "transform=\"rotate(-35 %.1f %.1f)\">", lx, ly, lx, ly);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", lx, ly);
		xml_escape(f, t->metrics[cols[c]].label);
		fputs("</text>", f);
	}
	fputs("</svg>", f);
}

static void chart_grouped_of(FILE *f, const struct result *r, int ti, const int *cols, int nc,
			     const int *tg, int n, const char *unit, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	double hi = 0, lo = INFINITY;

	for (int c = 0; c < nc; c++)
		for (int j = 0; j < n; j++) {
			struct summary s;
			result_summary(t, tg[j], cols[c], &s);
			if (s.n && s.mean > hi)
				hi = s.mean;
			if (s.n && s.mean > 0 && s.mean < lo)
				lo = s.mean;
		}
	if (nc < 2 || n < 1 || !(hi > 0) || !isfinite(hi))
		return;
	int log_scale = isfinite(lo) && hi / lo > 100;
	double llo = 0, lhi = 0;
	if (log_scale) {
		llo = pow(10, floor(log10(lo)));
		lhi = pow(10, ceil(log10(hi)));
		if (lhi <= llo)
			lhi = llo * 10;
	}
	fputs("<figure>", f);
	/* for a laptop and a phone (html.c's bar charts say why) */
	for (int narrow = 0; narrow < 2; narrow++)
		grouped_svg(f, r, ti, cols, nc, tg, n, unit, pal, hi, log_scale, llo, lhi, narrow);
	fputs("<figcaption>", f);
	xml_escape(f, unit);
	fputs(log_scale ? " by column, on a log axis (each line ten times the one below); legend: "
			: " by column; legend: ", f);
	for (int j = 0; j < n; j++) {
		const char *label = r->targets[tg[j]].label;
		fprintf(f, "%s<span style=\"color:%s\">&#9632;</span> ", j ? ", " : "",
			svg_colour(html_colour(pal, label)));
		xml_escape(f, label);
	}
	fputs("</figcaption></figure>\n", f);
}

/* The columns of one unit that have a figure on any of tg[0..n). */
static int unit_columns(const struct r_test *t, const char *unit, const int *tg, int n, int *cols,
			int max)
{
	int nc = 0;

	for (int m = 0; m < t->nmetrics && nc < max; m++) {
		int any = 0;
		for (int j = 0; j < n; j++) {
			struct summary s;
			result_summary(t, tg[j], m, &s);
			any |= s.n > 0;
		}
		if (!strcmp(t->metrics[m].unit, unit) && any)	/* no empty groups */
			cols[nc++] = m;
	}
	return nc;
}

/* Every target, the columns of one unit. */
void html_chart_grouped(FILE *f, const struct result *r, int ti, const char *unit,
			struct palette *pal)
{
	int cols[64], *tg = malloc(sizeof(int) * (size_t)(r->ntargets ? r->ntargets : 1));

	if (!tg)
		return;
	for (int i = 0; i < r->ntargets; i++)
		tg[i] = i;
	int nc = unit_columns(&r->tests[ti], unit, tg, r->ntargets, cols, 64);
	chart_grouped_of(f, r, ti, cols, nc, tg, r->ntargets, unit, pal);
	free(tg);
}

/* Seed 003's three questions, for a test of throughput columns (K/s)
 * with their CPU beside them (bonnie): without compression, which
 * filesystem; on each filesystem, which algorithm; for each algorithm,
 * which filesystem.  Each group's throughput, then its CPU. */
void html_compression_groups(FILE *f, const struct result *r, int ti, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	struct report_group *g = calloc(16, sizeof(*g));
	int ng = g ? report_compression_groups(r, g, 16) : 0;

	for (int k = 0; k < ng; k++) {
		int cols[64], cpu[64], nc = unit_columns(t, "K/s", g[k].idx, g[k].n, cols, 64), ncpu = 0;
		if (nc < 2)
			continue;
		for (int c = 0; c < nc; c++) {	/* "put_block" and "put_block_cpu" */
			char name[160];
			snprintf(name, sizeof(name), "%s_cpu", t->metrics[cols[c]].name);
			for (int m = 0; m < t->nmetrics; m++)
				if (!strcmp(t->metrics[m].name, name))
					cpu[ncpu++] = m;
		}
		if (!k)
			fputs("<h3>By compression <small>&#8212; seed 003's groups: without it, each "
			      "filesystem's algorithms, each algorithm's filesystems</small></h3>\n", f);
		fputs("<h4 class=\"group\">", f);
		xml_escape(f, g[k].title);
		fputs("</h4>\n", f);
		chart_grouped_of(f, r, ti, cols, nc, g[k].idx, g[k].n, "K/s", pal);
		chart_grouped_of(f, r, ti, cpu, ncpu, g[k].idx, g[k].n, "%CPU", pal);
	}
	free(g);
}
