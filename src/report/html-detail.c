/*
 * html-detail.c: what the HTML page shows of each repetition beyond its
 * figures: the line charts of the tests that keep a series per repetition
 * (io and ior: core/timeline.h), latency over time and its distribution,
 * each target in its colour of the page; and the record at the page's
 * end, every sample and each tool's own output.  html.c draws the rest.
 */
#include "html.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- io and ior: latency over time and the latency distribution -------- */

/* A parsed sample series (core/timeline.h's JSON), or NULL. */
static json_t *series_of(const struct r_sample *s)
{
	json_t *j = s->series ? json_loads(s->series, 0, NULL) : NULL;

	if (j && (!json_is_array(json_object_get(j, "t_ms")) ||
		  !json_is_array(json_object_get(j, "lat_us")))) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

static double jd(json_t *a, size_t i)
{
	json_t *v = json_array_get(a, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Log-scale position of v in [lo, hi] over a length. */
static double logpos(double v, double lo, double hi, double len)
{
	if (v <= lo)
		return 0;
	if (v >= hi)
		return len;
	return log10(v / lo) / log10(hi / lo) * len;
}

static void decade_bounds(double mn, double mx, double *lo, double *hi)
{
	*lo = pow(10, floor(log10(mn > 0 ? mn : 1e-3)));
	*hi = pow(10, ceil(log10(mx > *lo ? mx : *lo * 10)));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

static void log_ticks_y(FILE *f, double lo, double hi, double x0, double x1, double y0, double h,
			const char *unit)
{
	for (int d = 0, nd = svg_decades(lo, hi); d <= nd; d++) {
		double v = lo * pow(10, d), y = y0 + h - logpos(v, lo, hi, h);
		char num[32];
		svg_number(v, num, sizeof(num));
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s %s</text>", x0, x1, y, y,
			x0 - 4, y + 4, num, unit);
	}
}

/* The SVG element of a line chart: its class, what the tests find it by
 * (data-test, data-chart) and its title. */
static void line_chart_open(FILE *f, const struct r_test *t, const char *cls, const char *chart,
			    const char *attrs, double height, const char *what, int narrow)
{
	int W = narrow ? CHART_W_NARROW : CHART_W;
	char head[256];

	fprintf(f, "<svg class=\"chart %s %s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\" data-test=\"", cls,
		narrow ? "narrow" : "wide", W, height, W, height);
	xml_escape(f, t->name);
	fprintf(f, "\" data-chart=\"%s\"%s><title>", chart, attrs);
	xml_escape(f, t->name);
	fprintf(f, ": %s</title>", what);
	/* the title inside the image, as every chart's (html.c) */
	snprintf(head, sizeof(head), "%s: %s", t->title, what);
	html_cut_text(head, narrow ? 50 : 100);
	fputs("<text class=\"title\" x=\"4\" y=\"15\" font-weight=\"bold\">", f);
	xml_escape(f, head);
	fputs("</text>", f);
}

/* A line chart's key: the target's colour and label. */
static void legend_entry(FILE *f, const struct result *r, int i, struct palette *pal)
{
	fprintf(f, "<span style=\"color:%s\">&#9632;</span> ",
		svg_colour(html_colour(pal, r->targets[i].label)));
	xml_escape(f, r->targets[i].label);
	fputs(" &#160; ", f);
}

/* Latency over time: each target's first repetition, mean latency per
 * window (log axis), reads solid, writes dashed and trims dotted. */
void html_chart_timeline(FILE *f, const struct result *r, int ti, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	json_t **ser = calloc((size_t)r->ntargets + 1, sizeof(*ser));
	double tmax = 0, lmin = INFINITY, lmax = 0, width = 0;
	int any = 0, trims = 0, windows = 0;

	if (!ser)
		return;
	for (int i = 0; i < r->ntargets; i++) {
		if (!t->cells[i].nsamples || !(ser[i] = series_of(&t->cells[i].samples[0])))
			continue;
		json_t *tm = json_object_get(ser[i], "t_ms"), *lat = json_object_get(ser[i], "lat_us");
		trims |= json_array_size(lat) > 2;
		width = json_number_value(json_object_get(ser[i], "width_ms"));
		windows = (int)json_array_size(tm) > windows ? (int)json_array_size(tm) : windows;
		for (size_t k = 0; k < json_array_size(tm); k++) {
			tmax = fmax(tmax, jd(tm, k));
			for (size_t d = 0; d < json_array_size(lat) && d < 3; d++) {
				double v = jd(json_array_get(lat, d), k);
				if (isfinite(v) && v > 0) {
					lmin = fmin(lmin, v);
					lmax = fmax(lmax, v);
					any = 1;
				}
			}
		}
	}
	/* one window is a point, not a line: an empty chart (issue 68) */
	if (any && windows < 2)
		fprintf(f, "<p class=\"note\">No latency-over-time chart: each run lasted under two "
			   "windows of %.0f ms (a larger size or runtime gives one).</p>\n", width);
	else if (any && tmax > 0) {
		double lo, hi;
		decade_bounds(lmin, lmax, &lo, &hi);
		fputs("<h3>Latency over time <small>&#8212; mean per window, first run of each "
		      "target; less is better</small></h3>\n<figure>", f);
		for (int narrow = 0; narrow < 2; narrow++) {	/* a laptop's and a phone's */
			double x0 = 90, w = (narrow ? CHART_W_NARROW : CHART_W) - x0 - 40, y0 = 28, h = 220;
			line_chart_open(f, t, "timeline", "latency-over-time", "", y0 + h + 40,
					"latency over time (less is better)", narrow);
			log_ticks_y(f, lo, hi, x0, x0 + w, y0, h, "us");
			for (int k = 0; k <= (narrow ? 2 : 4); k++) {
				double sec = tmax / 1e3 * k / (narrow ? 2 : 4), x = x0 + w * k / (narrow ? 2 : 4);
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.3g s</text>", x,
					y0 + h + 16, sec);
			}
			for (int i = 0; i < r->ntargets; i++) {
				if (!ser[i])
					continue;
				json_t *tm = json_object_get(ser[i], "t_ms"), *lat = json_object_get(ser[i], "lat_us");
				int c = html_colour(pal, r->targets[i].label);
				static const char *const dash[] = { "", " stroke-dasharray=\"5,3\"",
								    " stroke-dasharray=\"1.5,2.5\"" };
				static const char *const dname[] = { "read", "write", "trim" };
				for (size_t d = 0; d < json_array_size(lat) && d < 3; d++) {
					json_t *ld = json_array_get(lat, d);
					int open = 0;
					for (size_t k = 0; k < json_array_size(tm); k++) {
						double v = jd(ld, k);
						if (!isfinite(v) || v <= 0) {
							if (open)
								fputs("\"/>", f);
							open = 0;
							continue;
						}
						double x = x0 + jd(tm, k) / tmax * w, y = y0 + h - logpos(v, lo, hi, h);
						if (!open) {
							fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" "
								   "stroke-width=\"1.6\"%s data-target=\"", svg_colour(c),
								dash[d]);
							xml_escape(f, r->targets[i].label);
							fprintf(f, "\" data-dir=\"%s\" points=\"", dname[d]);
							open = 1;
						}
						fprintf(f, "%.1f,%.1f ", x, y);
					}
					if (open)
						fputs("\"/>", f);
				}
			}
			fputs("</svg>", f);
		}
		fputs("<figcaption>", f);
		for (int i = 0; i < r->ntargets; i++)
			if (ser[i])
				legend_entry(f, r, i, pal);
		fputs(trims ? "reads solid, writes dashed, trims dotted; windows of "
			    : "reads solid, writes dashed; windows of ", f);
		fprintf(f, "%.0f ms.</figcaption></figure>\n", width);
	}
	for (int i = 0; i < r->ntargets; i++)
		json_decref(ser[i]);
	free(ser);
}

/* The latency distribution: cumulative share of I/Os against latency on a
 * log axis, every repetition of each target together. */
void html_chart_cdf(FILE *f, const struct result *r, int ti, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	enum { BMAX = 128 };
	double (*cum)[BMAX] = calloc((size_t)r->ntargets + 1, sizeof(*cum));
	double edges[BMAX];
	int nb = 0, any = 0;
	int *has = calloc((size_t)r->ntargets + 1, sizeof(int));

	if (!cum || !has) {
		free(cum);
		free(has);
		return;
	}
	for (int i = 0; i < r->ntargets; i++)
		for (int k = 0; k < t->cells[i].nsamples; k++) {
			json_t *j = series_of(&t->cells[i].samples[k]);
			json_t *hst = j ? json_object_get(j, "hist") : NULL;
			json_t *e = json_object_get(hst, "edges_ns"), *cn = json_object_get(hst, "counts");
			size_t n = json_array_size(e);
			if (n && n <= BMAX && (!nb || (int)n == nb)) {
				nb = (int)n;
				for (size_t b = 0; b < n; b++) {
					edges[b] = jd(e, b);
					for (size_t d = 0; d < json_array_size(cn) && d < 3; d++) {
						double v = jd(json_array_get(cn, d), b);
						cum[i][b] += isfinite(v) ? v : 0;
					}
				}
				has[i] = 1;
			}
			json_decref(j);
		}
	int first = nb, last = 0;
	for (int i = 0; i < r->ntargets; i++) {
		double total = 0;
		if (!has[i])
			continue;
		for (int b = 0; b < nb; b++) {
			if (cum[i][b] > 0) {
				first = b < first ? b : first;
				last = b > last ? b : last;
			}
			total += cum[i][b];
			cum[i][b] = total;
		}
		for (int b = 0; b < nb && total > 0; b++)
			cum[i][b] = cum[i][b] / total * 100;
		any |= total > 0;
	}
	if (any) {
		double lo = edges[first > 0 ? first - 1 : 0] / 1e3, hi = edges[last] / 1e3;
		decade_bounds(lo, hi, &lo, &hi);
		fputs("<h3>Latency distribution <small>&#8212; share of I/Os at or below each latency, "
		      "every run</small></h3>\n<figure>", f);
		for (int narrow = 0; narrow < 2; narrow++) {	/* a laptop's and a phone's */
			double x0 = 60, w = (narrow ? CHART_W_NARROW : CHART_W) - x0 - 50, y0 = 28, h = 200;
			line_chart_open(f, t, "cdf", "latency-cdf", " data-scale=\"log\"", y0 + h + 40,
					"latency distribution", narrow);
			for (int p = 0; p <= 100; p += 25) {
				double y = y0 + h - h * p / 100.0;
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
					   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>", x0, x0 + w,
					y, y, x0 - 4, y + 4, p);
			}
			for (int d = 0, nd = svg_decades(lo, hi); d <= nd; d++) {
				char num[32];
				double v = lo * pow(10, d), x = x0 + logpos(v, lo, hi, w);
				svg_number(v, num, sizeof(num));
				fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
					   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s us</text>", x, x, y0,
					y0 + h, x, y0 + h + 16, num);
			}
			for (int i = 0; i < r->ntargets; i++) {
				if (!has[i])
					continue;
				fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
					   "data-target=\"", svg_colour(html_colour(pal, r->targets[i].label)));
				xml_escape(f, r->targets[i].label);
				fputs("\" points=\"", f);
				for (int b = first; b <= last; b++)
					fprintf(f, "%.1f,%.1f ", x0 + logpos(edges[b] / 1e3, lo, hi, w),
						y0 + h - h * cum[i][b] / 100);
				fputs("\"/>", f);
			}
			fputs("</svg>", f);
		}
		fputs("<figcaption>", f);
		for (int i = 0; i < r->ntargets; i++)
			if (has[i])
				legend_entry(f, r, i, pal);
		fputs("10 bins per decade (within a bin the curve is straight).</figcaption></figure>\n", f);
	}
	free(cum);
	free(has);
}

void html_samples_section(FILE *f, const struct result *r)
{
	fputs("<details><summary>Every sample, and the command that made this run</summary>\n<pre>", f);
	xml_escape(f, r->cmdline);
	fputs("</pre>\n<div class=\"scroll\"><table class=\"samples cards\"><tr><th>Test</th>"
	      "<th>Target</th><th>Run</th><th>Values</th><th>Wall s</th><th>CPU %</th>"
	      "<th>Machine CPU %</th></tr>\n", f);
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		for (int i = 0; i < r->ntargets; i++)
			for (int k = 0; k < t->cells[i].nsamples; k++) {
				const struct r_sample *s = &t->cells[i].samples[k];
				fputs("<tr>", f);
				html_cell_open(f, "name", "Test");
				xml_escape(f, t->name);
				fputs("</td>", f);
				html_cell_open(f, "name", "Target");
				xml_escape(f, r->targets[i].label);
				fputs("</td>", f);
				html_cell_open(f, "num", "Run");
				fprintf(f, "%d</td>", s->rep);
				html_cell_open(f, "values", "Values");
				for (int m = 0; m < t->nmetrics; m++) {
					fprintf(f, "%s", m ? ", " : "");
					xml_escape(f, t->metrics[m].name);
					if (isfinite(s->values[m]))
						fprintf(f, " %.6g", s->values[m]);
					else	/* no figure: explained under the table */
						fputs(" -", f);
				}
				fputs("</td>", f);
				html_cell_open(f, "num", "Wall s");
				fprintf(f, "%.3f</td>", s->wall);
				/* no figure where none was measured (NaN) */
				double cpu[2] = { s->cpu_pct, s->machine_cpu_pct };
				for (int c = 0; c < 2; c++) {
					html_cell_open(f, "num", c ? "Machine CPU %" : "CPU %");
					if (isfinite(cpu[c]))
						fprintf(f, "%.0f", cpu[c]);
					fputs("</td>", f);
				}
				fputs("</tr>\n", f);
			}
	}
	fputs("</table></div>\n<p class=\"legend\">-: no figure in that run (the tool printed "
	      "none, as fileop's link and unlink on a filesystem without hard links, or the run "
	      "failed).</p>\n", f);
	/* Each tool's own output (fileop's table, PostMark's report,
	 * bonnie++'s CSV line), as the original tool would have printed it. */
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		for (int i = 0; i < r->ntargets; i++)
			for (int k = 0; k < t->cells[i].nsamples; k++) {
				const struct r_sample *s = &t->cells[i].samples[k];
				if (!s->detail)
					continue;
				fputs("<h3>", f);
				xml_escape(f, t->name);
				fputs(" on ", f);
				xml_escape(f, r->targets[i].label);
				fprintf(f, ", run %d</h3><pre class=\"detail\">", s->rep);
				xml_escape(f, s->detail);
				fputs("</pre>\n", f);
			}
	}
	fputs("</details>\n", f);
}
