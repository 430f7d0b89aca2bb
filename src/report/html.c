/*
 * html.c: the report people share: one self-contained HTML page (inline CSS
 * and SVG, no scripts, no fonts or anything else from a network) for one or
 * more stored runs, readable offline and printable.
 *
 * Per run, in order: title and date; the system table (common fields once,
 * then one column per target: file system, mount options, mkfs, disk, I/O
 * scheduler); a summary (fastest per test, ratios to the baseline with
 * significance); per test a seed-000 horizontal bar chart per metric with
 * 95% CI whiskers, a grouped seed-003 chart for metrics sharing a unit,
 * and seed 002's raw and ratio tables with the +-5% colouring; last, a
 * collapsible section with every sample and the command line.
 *
 * The page is well-formed XML (checked with xmllint in the tests), so the
 * SVG inside can be checked too.  A filesystem keeps its colour across
 * every chart of the page.
 */
#include "html.h"
#include "../aging/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int html_colour(struct palette *p, const char *label)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->labels[i], label))
			return i;
	if (p->n < 256)
		p->labels[p->n++] = label;
	return p->n - 1;
}

const char html_css[] =
	"body{font-family:sans-serif;max-width:1000px;margin:1em auto;padding:0 1em;color:#111;"
	"overflow-wrap:break-word}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}"
	"h3{font-size:1.05em;margin:1.2em 0 .2em}h4.group{font-size:.95em;margin:.8em 0 .1em}"
	"p.sub{margin:.2em 0;color:#333}p.note{border-left:3px solid #888;padding-left:.6em}p.dir{margin:0 0 .4em;font-size:.9em;color:#444}"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.9em}"
	"th,td{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	".faster{background:#b8e0b8;font-weight:bold}.slower{background:#f4b6b6;font-weight:bold}.same{background:#dde6f4}"
	"td.faster-small{background:#e4f3e4}td.slower-small{background:#fbe3e3}td.noise{color:#666}"
	"table.system{table-layout:fixed;width:100%}table.system td{overflow-wrap:anywhere}"
	"table.system th{width:9em}"
	/* Laptop and phone alike (test_report.sh measures it at 1280 and 390
	 * px in Chromium): each chart is drawn 760 px wide (svg.wide) and 380
	 * px wide (svg.narrow), the one that fits shown, scaled down, never
	 * up, to the page's width, so its 12 px text stays 11 px or more;
	 * long names break; on a narrow screen a wide table's rows (class
	 * cards) become cards, each cell named by its data-label; any other
	 * table scrolls in its box. */
	"figure{margin:.2em 0 1em}figcaption{font-size:.8em;color:#555}svg.chart text{font-family:sans-serif;font-size:12px}"
	"svg.chart{max-width:100%;height:auto}svg.narrow{display:none}"
	"@media (max-width:640px){svg.wide{display:none}svg.narrow{display:inline}}"
	"code,table.summary td:first-child{overflow-wrap:anywhere}"
	"@media (max-width:640px){body{padding:0 .4em}th,td{padding:.15em .3em}"
	"table.cards,table.cards tbody,table.cards tr,table.cards th,table.cards td{display:block}"
	"table.cards tr:first-child{display:none}table.cards tr{border:1px solid #bbb;margin:.4em 0}"
	"table.cards th,table.cards td{border:0}table.cards td{text-align:right;overflow-wrap:anywhere}"
	"table.cards td::before{content:attr(data-label);float:left;text-align:left;color:#444;"
	"padding-right:.8em}}"
	"details{margin:2em 0}pre{white-space:pre-wrap;background:#f4f4f4;padding:.5em}"
	".legend{font-size:.85em;color:#333}p.warn{font-size:.85em;color:#8a4b00;margin:.1em 0 .8em}"
	"p.finding{color:#a00;border-left:4px solid #a00;padding-left:.6em}"
	"div.scroll{overflow-x:auto;max-width:100%}p.howto{background:#f4f4f4;padding:.4em .6em;font-size:.9em}"
	"@media print{details{display:block}h2{page-break-after:avoid}figure{page-break-inside:avoid}}";

/* Hatch patterns shared by every chart, so bars differ in greyscale too. */
static void pattern_defs(FILE *f)
{
	static const char *paths[] = { "", "M0,8 L8,0", "M0,0 L8,8", "M4,0 L4,8",
				       "M0,4 L8,4", "M0,8 L8,0 M0,0 L8,8" };

	fputs("<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\""
	      " xmlns=\"http://www.w3.org/2000/svg\"><defs>", f);
	for (int i = 0; i < 6; i++)
		fprintf(f, "<pattern id=\"hatch%d\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">"
			   "<path d=\"%s\" stroke=\"#fff\" stroke-width=\"1.5\" fill=\"none\"/></pattern>",
			i, paths[i]);
	fputs("</defs></svg>\n", f);
}

void html_bar(FILE *f, double x, double y, double w, double h, int colour, const char *label,
	      int narrow)
{
	fprintf(f, "<rect class=\"%s\" data-target=\"", narrow ? "nbar" : "bar");
	xml_escape(f, label);
	fprintf(f, "\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
		x, y, w, h, svg_colour(colour));
	xml_escape(f, label);
	fputs("</title></rect>", f);
	if (svg_hatch(colour) && w > 0)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"url(#hatch%d)\"/>",
			x, y, w, h, svg_hatch(colour));
}

void html_ticks(FILE *f, const struct axis *ax, double x0, double w, double y_top,
		double y_bottom, int vertical)
{
	char num[32];

	for (int k = 0; k <= ax->ticks; k++) {
		double v = k * ax->step, p = v / ax->max * w;
		svg_number(v, num, sizeof(num));
		if (vertical)	/* value axis runs up: x0 is the baseline y */
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
				   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
				y_top, y_bottom, x0 - p, x0 - p, y_top - 4, x0 - p + 4, num);
		else
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
				   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>",
				x0 + p, x0 + p, y_top, y_bottom, x0 + p, y_bottom + 14, num);
	}
}

/* A visible line per shaky figure of one metric (verdict.c decides). */
static void warnings(FILE *f, const struct result *r, const struct r_test *t, int mi)
{
	if (report_vm_warning(r)) {
		fputs("<p class=\"warn\">&#9888; ", f);
		xml_escape(f, report_vm_warning(r));
		fputs("</p>\n", f);
	}
	for (int i = 0; i < r->ntargets; i++) {
		char warn[128];
		if (!report_warning(t, i, mi, warn, sizeof(warn), 0))
			continue;
		fputs("<p class=\"warn\">&#9888; ", f);
		xml_escape(f, r->targets[i].label);
		fputs(": ", f);
		xml_escape(f, warn);
		fputs(": a shaky figure.</p>\n", f);
	}
}

/* Cut text to at most max bytes with "..." at a character's start, so
 * that a line inside a chart stays inside it and stays UTF-8. */
void html_cut_text(char *text, size_t max)
{
	size_t k = max - 3;

	if (strlen(text) <= max)
		return;
	while (k && ((unsigned char)text[k] & 0xC0) == 0x80)
		k--;
	memcpy(text + k, "...", 4);
}

/* One bar chart's SVG: wide (760: labels left of their bars) or narrow
 * (380: each label above its bar). */
static void bars_svg(FILE *f, const struct result *r, int ti, int mi, int base,
		     struct palette *pal, const struct summary *s, double hi, int lw, int vlen,
		     int narrow)
{
	const struct r_test *t = &r->tests[ti];
	const struct r_metric *m = &t->metrics[mi];
	int n = r->ntargets, W = narrow ? CHART_W_NARROW : CHART_W;
	struct axis ax;
	char num[32];

	svg_axis(hi, narrow ? 3 : 5, &ax);
	double label_w = lw * 7.2 + 14, value_w = vlen * 7.0 + 12;
	if (value_w < 130)
		value_w = 130;
	if (value_w > 300)	/* the plot keeps at least 760 - 260 - 300 px */
		value_w = 300;
	if (label_w < 70)
		label_w = 70;
	if (label_w > 260)
		label_w = 260;
	double row = 28, top = 44, lift = 0;
	if (narrow) {	/* the label on a line of its own above the bar */
		label_w = 6;
		value_w = fmin(value_w, 170);
		row = 44;
		lift = 16;
		top = 58;
	}
	double plot_w = W - label_w - value_w;
	double height = top + n * row + 24;
	fprintf(f, "<svg class=\"chart %s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
		   " height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\" data-test=\"",
		narrow ? "narrow" : "wide", W, height, W, height);
	xml_escape(f, t->name);
	fputs("\" data-metric=\"", f);
	xml_escape(f, m->name);
	fputs("\"><title>", f);
	xml_escape(f, t->title);
	fputs(": ", f);
	xml_escape(f, m->label);
	fputs("</title>", f);
	/* the title inside the image, so a chart saved or cropped alone still
	 * says what it shows: the test, its options, the measure, its unit,
	 * which way is better, and how many runs */
	int nmin = 0, nmax = 0;
	for (int i = 0; i < n; i++)
		if (s[i].n) {
			nmin = !nmin || s[i].n < nmin ? s[i].n : nmin;
			nmax = s[i].n > nmax ? s[i].n : nmax;
		}
	char head[512], sub[512], nn[32];
	if (nmin == nmax)
		snprintf(nn, sizeof(nn), "N = %d", nmax);
	else
		snprintf(nn, sizeof(nn), "N = %d-%d", nmin, nmax);
	snprintf(head, sizeof(head), "%s: %s (%s, %s is better; %s)", t->title, m->label, m->unit,
		 m->direction > 0 ? "more" : "less", nn);
	snprintf(sub, sizeof(sub), "%s", t->subtitle[0] ? t->subtitle : t->name);
	if (narrow) {	/* the title on two lines, the options on a third */
		char h2[512] = "";
		size_t cut = strlen(head) > 50 ? 50 : strlen(head);
		while (cut > 30 && head[cut] != ' ')
			cut--;
		if (strlen(head) > 50 && head[cut] == ' ') {
			snprintf(h2, sizeof(h2), "%s", head + cut + 1);
			head[cut] = '\0';
		}
		html_cut_text(head, 50);
		html_cut_text(h2, 50);
		html_cut_text(sub, 54);
		fputs("<text class=\"title\" x=\"4\" y=\"15\" font-weight=\"bold\">", f);
		xml_escape(f, head);
		fputs("</text><text class=\"title\" x=\"4\" y=\"30\" font-weight=\"bold\">", f);
		xml_escape(f, h2);
		fputs("</text><text class=\"sub\" x=\"4\" y=\"45\" fill=\"#444\">", f);
	} else {
		html_cut_text(head, 100);
		html_cut_text(sub, 118);
		fputs("<text class=\"title\" x=\"4\" y=\"15\" font-weight=\"bold\">", f);
		xml_escape(f, head);
		fputs("</text><text class=\"sub\" x=\"4\" y=\"31\" font-size=\"11\" fill=\"#444\">", f);
	}
	xml_escape(f, sub);
	fputs("</text>", f);
	html_ticks(f, &ax, label_w, plot_w, top, top + n * row, 0);
	for (int i = 0; i < n; i++) {
		double y = top + i * row;
		if (narrow)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", label_w, y + 13);
		else
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", label_w - 6, y + 18);
		xml_escape(f, r->targets[i].label);
		fputs("</text>", f);
		y += lift;
		if (!s[i].n) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#a00\">%s</text>", label_w + 4,
				y + 18, t->cells[i].failure ? "failed (see the tables)" :
				t->cells[i].nsamples ? report_no_figure(r, t, i, mi) : "no result");
			continue;
		}
		double w = s[i].mean / ax.max * plot_w;
		html_bar(f, label_w, y + 5, w > 0 ? w : 0, 18, html_colour(pal, r->targets[i].label),
			 r->targets[i].label, narrow);
		double end = label_w + w;
		if (s[i].n > 1) {
			double x1 = label_w + s[i].ci_lo / ax.max * plot_w;
			double x2 = label_w + s[i].ci_hi / ax.max * plot_w;
			if (x1 < label_w)
				x1 = label_w;
			fprintf(f, "<path class=\"whisker\" d=\"M%.1f,%.1f H%.1f M%.1f,%.1f V%.1f M%.1f,%.1f V%.1f\""
				   " stroke=\"#222\" stroke-width=\"1.2\"/>",
				x1, y + 14, x2, x1, y + 9, y + 19, x2, y + 9, y + 19);
			end = x2 > end ? x2 : end;
		}
		svg_number(s[i].mean, num, sizeof(num));
		fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\">%s ", end + 5, y + 18, num);
		xml_escape(f, m->unit);
		char vs[48];
		report_against(t, i, base, mi, vs, sizeof(vs), 1);	/* "×1.14 +", the verdicts' call */
		if (vs[0]) {
			fputc(' ', f);
			xml_escape(f, vs);
		}
		fputs("</text>", f);
	}
	fputs("</svg>", f);
}

/* Seed 000's chart: one horizontal bar per target, CI whisker, value. */
static void chart_bars(FILE *f, const struct result *r, int ti, int mi, int base,
		       struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	const struct r_metric *m = &t->metrics[mi];
	int n = r->ntargets, lw = 0;
	double hi = 0;
	struct summary *s = calloc((size_t)n, sizeof(*s));
	char num[32];

	int any = 0;
	if (!s)
		return;
	for (int i = 0; i < n; i++) {
		result_summary(t, i, mi, &s[i]);
		any |= s[i].n > 0;
		if (s[i].n && isfinite(s[i].ci_hi) && s[i].ci_hi > hi)
			hi = s[i].ci_hi;
		if (s[i].n && s[i].mean > hi)
			hi = s[i].mean;
		int len = (int)strlen(r->targets[i].label);
		lw = len > lw ? len : lw;
	}
	if (!any) {	/* an axis with no bar says nothing: say why instead */
		fputs("<p class=\"legend\">", f);
		xml_escape(f, m->label);
		fputs(": no figure on any target (failed, or under what the tool measures, as "
		      "bonnie's +++++).</p>\n", f);
		free(s);
		return;
	}
	/* Each bar's value label, "8365 IOPS -100%..+136225%", sized before
	 * the plot so that the longest one fits right of the longest bar (it
	 * ran past the chart's edge and was cut off there). */
	int vlen = 0;
	for (int i = 0; i < n; i++) {
		char vs[48];
		if (!s[i].n)
			continue;
		svg_number(s[i].mean, num, sizeof(num));
		int len = (int)(strlen(num) + 1 + strlen(m->unit));
		report_against(t, i, base, mi, vs, sizeof(vs), 1);
		len += 1 + (int)strlen(vs);
		vlen = len > vlen ? len : vlen;
	}
	/* Seed 000's header: what is measured, then which way is better. */
	fputs("<h3>", f);
	xml_escape(f, m->label);
	if (strcmp(m->label, m->unit)) {
		fputs(", ", f);
		xml_escape(f, m->unit);
	}
	fprintf(f, " <small>&#8212; %s</small></h3>\n",
		m->direction > 0 ? "More is better" : "Less is better");
	fputs("<figure>", f);
	/* drawn twice: for a laptop, and for a phone (labels above their bars,
	 * text at 12 px or more once scaled to 390 px); CSS shows one */
	for (int narrow = 0; narrow < 2; narrow++)
		bars_svg(f, r, ti, mi, base, pal, s, hi, lw, vlen, narrow);
	fprintf(f, "<figcaption>Mean of the runs; whiskers: its 95%% confidence "
		   "interval (on the log scale, so it stays positive); &#215;F / &#247;F: F times "
		   "as fast / F times slower than the baseline, marked as the verdicts call it (+ "
		   "faster, - slower, = the same, ? not separated yet)");
	if (t->precision > 0)
		fprintf(f, "; the runs aimed at &#177;%g%%", 100 * t->precision);
	fputs(".</figcaption></figure>\n", f);
	warnings(f, r, t, mi);
	free(s);
}

/* <th> cells with every target's label, in order. */
void html_target_headers(FILE *f, const struct result *r)
{
	for (int i = 0; i < r->ntargets; i++) {
		fputs("<th>", f);
		xml_escape(f, r->targets[i].label);
		fputs("</th>", f);
	}
}

static void system_table(FILE *f, const struct result *r)
{
	fputs(r->merged > 1 ? "<h2>Targets</h2>\n<table class=\"system\">"
			    : "<h2>System</h2>\n<table class=\"system\">", f);
	/* merged runs: each run's system is in the runs table above */
	for (int i = 0; r->merged < 2 && i < r->nsys; i++) {
		fputs("<tr><th>", f);
		xml_escape(f, r->sys[i].name);
		fprintf(f, "</th><td colspan=\"%d\">", r->ntargets > 0 ? r->ntargets : 1);
		xml_escape(f, r->sys[i].value);
		fputs("</td></tr>", f);
	}
	fputs("\n<tr><th></th>", f);
	html_target_headers(f, r);
	fputs("</tr>\n", f);
	static const char *names[] = { "File-System", "Mount Options", "mkfs", "Disk",
				       "I/O Scheduler", "Directory" };
	int dash = 0;
	for (int k = 0; k < 6; k++) {
		fprintf(f, "<tr><th>%s</th>", names[k]);
		for (int i = 0; i < r->ntargets; i++) {
			const struct r_target *t = &r->targets[i];
			const char *v[] = { t->fstype, t->mount_opts, t->mkfs, t->disk, t->scheduler, t->path };
			fputs("<td>", f);
			xml_escape(f, v[k][0] ? v[k] : "-");
			dash |= !v[k][0];
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	int aged = 0;
	for (int i = 0; i < r->ntargets; i++)
		aged |= r->targets[i].aging != NULL;
	if (aged) {	/* --age: what it left on each filesystem */
		fputs("<tr><th>Aging</th>", f);
		for (int i = 0; i < r->ntargets; i++) {
			char line[512] = "fresh";
			if (r->targets[i].aging)
				age_record_summary(r->targets[i].aging, line, sizeof(line));
			fputs("<td>", f);
			xml_escape(f, line);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (dash)	/* issue 68: every "-" said what it stands for */
		fputs("<p class=\"legend\">-: none, or not known: a directory target has no mkfs "
		      "or mount options of fsbench's; no disk or I/O scheduler was found under it.</p>\n",
		      f);
}

void html_cell_open(FILE *f, const char *cls, const char *column)
{
	fprintf(f, "<td class=\"%s\" data-label=\"", cls);
	xml_escape(f, column);
	fputs("\">", f);
}

static void test_tables(FILE *f, const struct result *r, int ti, int base)
{
	const struct r_test *t = &r->tests[ti];
	char num[64], head[128];

	for (int ratio = 0; ratio < (r->ntargets > 1 ? 2 : 1); ratio++) {
		if (ratio) {
			char legend[512];
			snprintf(legend, sizeof(legend), REPORT_LEGEND,
				 100 * (t->looks > 0 ? t->margin : REPORT_MARGIN));
			fputs("<p class=\"legend\">Speed against the baseline: ", f);
			xml_escape(f, legend);
			fputs("; empty where either side has no figure.</p>\n", f);
		}
		fprintf(f, "<div class=\"scroll\"><table class=\"%s cards\"><tr><th>%s</th>",
			ratio ? "ratio" : "raw", ratio ? "ratio to baseline" : "mean &#177; SE");
		for (int m = 0; m < t->nmetrics; m++) {
			report_header(&t->metrics[m], head, sizeof(head));
			fputs("<th>", f);
			xml_escape(f, head);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
		for (int i = 0; i < r->ntargets; i++) {
			fputs("<tr><th>", f);
			xml_escape(f, r->targets[i].label);
			fputs("</th>", f);
			for (int m = 0; m < t->nmetrics; m++) {
				struct summary s, b;
				struct report_speed q;
				result_summary(t, i, m, &s);
				result_summary(t, base, m, &b);
				/* each cell names its column: a phone shows a row as a card */
				report_header(&t->metrics[m], head, sizeof(head));
				if (!s.n) {
					html_cell_open(f, "num", head);
					fprintf(f, "%s</td>", !ratio && t->cells[i].failure ? "failed" : "");
				} else if (!ratio) {
					int dec = report_decimals(s.mean);
					if (s.n > 1)
						snprintf(num, sizeof(num), "%.*f &#177;&#160;%.*f", dec, s.mean,
							 dec, s.se);
					else	/* one run: no spread to show */
						snprintf(num, sizeof(num), "%.*f", dec, s.mean);
					html_cell_open(f, "num", head);
					fprintf(f, "%s</td>", num);
				} else if (i == base) {
					html_cell_open(f, "num", head);
					fputs("baseline</td>", f);
				} else if (report_speed(t, i, base, m, &q)) {
					html_cell_open(f, "num", head);
					fputs("</td>", f);
				} else {
					char cls[48];
					snprintf(cls, sizeof(cls), "num %s", html_speed_class(&q));
					html_cell_open(f, cls, head);
					html_speed_cell(f, &q, 1);
					fputs("</td>", f);
				}
			}
			fputs("</tr>\n", f);
		}
		fputs("</table></div>\n", f);
	}
	for (int i = 0; i < r->ntargets; i++)
		if (t->cells[i].failure) {
			fputs("<p class=\"sub\">Failed on ", f);
			xml_escape(f, r->targets[i].label);
			fputs(": ", f);
			xml_escape(f, t->cells[i].failure);
			fputs("</p>\n", f);
		}
}

/* The device group: what reached the block device per target, then the
 * write amplification chart (device bytes / the workload's bytes). */
static void device_section(FILE *f, const struct result *r, int ti, int base, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];
	int cols[32], n = 0;

	if (!report_has_device(r, ti))
		return;
	for (int m = t->nmetrics; m < t->nmetrics + t->ndevice && n < 32; m++)
		for (int i = 0; i < r->ntargets; i++) {
			struct summary s;
			result_summary(t, i, m, &s);
			if (s.n) {
				cols[n++] = m;
				break;
			}
		}
	/* a measure per row, a target per column: fourteen measures side by
	 * side do not fit a laptop's page, a handful of targets do */
	fputs("<h3>Device <small>&#8212; what reached the medium, per run</small></h3>\n"
	      "<div class=\"scroll\"><table class=\"device\"><tr><th>measure</th>", f);
	for (int i = 0; i < r->ntargets; i++) {
		fputs("<th>", f);
		xml_escape(f, r->targets[i].label);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int k = 0; k < n; k++) {
		char head[128];
		report_header(&t->metrics[cols[k]], head, sizeof(head));
		fputs("<tr><th>", f);
		xml_escape(f, head);
		fputs("</th>", f);
		for (int i = 0; i < r->ntargets; i++) {
			const struct r_target *tg = &r->targets[i];
			struct summary s;
			if (!tg->blockdev && tg->blockdev_note) {
				fputs("<td class=\"num\">n/a</td>", f);
				continue;
			}
			result_summary(t, i, cols[k], &s);
			if (s.n)
				fprintf(f, "<td class=\"num\">%.*f</td>", report_decimals(fabs(s.mean)),
					s.mean);
			else
				fputs("<td class=\"num\"></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	for (int i = 0; i < r->ntargets; i++)
		if (!r->targets[i].blockdev && r->targets[i].blockdev_note) {
			fputs("<p class=\"sub\">n/a on ", f);
			xml_escape(f, r->targets[i].label);
			fputs(": ", f);
			xml_escape(f, r->targets[i].blockdev_note);
			fputs("</p>\n", f);
		}
	fputs("<p class=\"legend\">Write amplification: bytes the block device "
	      "wrote / bytes the workload wrote (lower means less wear on flash); space: what the "
	      "test's files occupy once synced; compression: their uncompressed / on-disk size "
	      "(btrfs, from its extent tree); data zstd: how compressible the data itself is.</p>\n",
	      f);
	int wa = report_device_metric(t, "write_amp");
	for (int k = 0; wa >= 0 && k < n; k++)
		if (cols[k] == wa)
			chart_bars(f, r, ti, wa, base, pal);
}

static void test_section(FILE *f, const struct result *r, int ti, int base, struct palette *pal)
{
	const struct r_test *t = &r->tests[ti];

	fprintf(f, "<section class=\"test\" id=\"r%lld-t%d\" data-test=\"", (long long)r->id, ti);
	xml_escape(f, t->name);
	fputs("\"><h2>", f);
	xml_escape(f, t->title);
	fputs("</h2><p class=\"sub\">", f);
	xml_escape(f, t->subtitle);
	fputs("</p><p class=\"dir\">", f);
	xml_escape(f, t->name);
	fputs(": <code>", f);
	xml_escape(f, t->params);
	fputs("</code></p>\n", f);
	for (int m = 0; m < t->nmetrics; m++)
		if (t->nmetrics <= REPORT_MAX_CHARTS || t->metrics[m].primary)
			chart_bars(f, r, ti, m, base, pal);
	/* Grouped charts for every unit shared by three or more columns. */
	for (int m = 0; m < t->nmetrics; m++) {
		int same = 0, first = 1;
		for (int k = 0; k < t->nmetrics; k++)
			if (!strcmp(t->metrics[k].unit, t->metrics[m].unit)) {
				same++;
				if (k < m)
					first = 0;
			}
		if (same >= 3 && first)
			html_chart_grouped(f, r, ti, t->metrics[m].unit, pal);
	}
	html_compression_groups(f, r, ti, pal);
	test_tables(f, r, ti, base);
	html_chart_timeline(f, r, ti, pal);
	html_chart_cdf(f, r, ti, pal);
	report_outcome_html(f, r, ti);
	device_section(f, r, ti, base, pal);
	fputs("</section>\n", f);
}

/* The answer first: each test's verdicts, one list item a pair. */
static void verdict_section(FILE *f, const struct result *r, int base)
{
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));
	int any = 0;

	for (int ti = 0; v && ti < r->ntests; ti++) {
		int n = report_verdicts(r, &r->tests[ti], base, v, REPORT_MAX_VERDICTS);
		if (!n)
			continue;
		if (!any++)
			fputs("<section class=\"verdicts\"><h2>Verdicts</h2>\n<p class=\"legend\">For "
			      "each test, each target against the baseline and its neighbours in "
			      "the ranking, on the primary measure: faster, the same within the "
			      "margin, or undecided, at 95% with the error split over the looks "
			      "(docs/results.md).</p>\n<dl class=\"verdicts\">\n", f);
		fputs("<dt>", f);
		xml_escape(f, r->tests[ti].name);
		fputs("</dt>\n", f);
		for (int q = 0; q < n; q++) {
			char text[512];
			report_verdict_text(r, &v[q], text, sizeof(text));
			fprintf(f, "<dd class=\"%s\">", v[q].v.kind == VERDICT_UNDECIDED ? "undecided" :
				v[q].v.kind == VERDICT_EQUIVALENT ? "equivalent" : "decided");
			xml_escape(f, text[0] == '!' ? text + 2 : text);
			fputs(v[q].v.kind == VERDICT_UNDECIDED ? " &#9888;</dd>\n" : "</dd>\n", f);
		}
	}
	if (any)
		fputs("</dl></section>\n", f);
	free(v);
}

/* --compare-fresh: a test per row, a filesystem per column, each cell
 * its aged twin over it in "better" terms (report_aged_cell). */
static void aged_section(FILE *f, const struct result *r, int base)
{
	int *ref = calloc((size_t)r->ntargets + 1, sizeof(int));

	if (!ref || !report_age_refs(r, ref)) {
		free(ref);
		return;
	}
	fputs("<section class=\"aged\"><h2>Aged / fresh</h2>\n<p class=\"legend\">Each aged "
	      "filesystem against its fresh twin on the primary measure, 95%: above 1 the aged "
	      "one does better (docs/aging.md).</p>\n<table class=\"raw\"><tr><th>test</th>", f);
	for (int i = 0; i < r->ntargets; i++)
		if (ref[i] >= 0) {
			fputs("<th>", f);
			xml_escape(f, r->targets[ref[i]].label);
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		if (!t->nmetrics || report_has_outcome(t))
			continue;
		fputs("<tr><th>", f);
		xml_escape(f, t->name);
		fputs("</th>", f);
		for (int i = 0; i < r->ntargets; i++) {
			char cell[160];
			if (ref[i] < 0 || report_aged_cell(r, t, i, base, cell, sizeof(cell)))
				continue;
			fputs("<td>", f);
			xml_escape(f, cell);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></section>\n", f);
	free(ref);
}

static void run_page(FILE *f, const struct result *r, const char *baseline, struct palette *pal)
{
	int base = result_baseline(r, baseline);

	if (base < 0)
		base = 0;
	if (r->merged > 1)
		fprintf(f, "<article class=\"run merged\" id=\"merged\"><h1>fsbench, %d runs merged",
			r->merged);
	else
		fprintf(f, "<article class=\"run\" id=\"run-%lld\"><h1>fsbench run %lld",
			(long long)r->id, (long long)r->id);
	if (r->label[0] && r->merged < 2) {
		fputs(": ", f);
		xml_escape(f, r->label);
	}
	fputs("</h1>\n<p class=\"sub\">", f);
	if (r->merged > 1)
		fputs("from ", f);
	xml_escape(f, r->started);
	fputs(" &#8212; fsbench ", f);
	xml_escape(f, r->version);
	fputs(" &#8212; ", f);
	xml_escape(f, r->status);
	fputs("</p>\n", f);
	if (r->note && r->note[0]) {
		fputs("<p class=\"note\">", f);
		xml_escape(f, r->note);
		fputs("</p>\n", f);
	}
	if (r->ntargets > 1)
		html_answer_section(f, r, base);
	system_table(f, r);
	for (int ti = 0; ti < r->ntests; ti++)
		test_section(f, r, ti, base, pal);
	if (r->ntargets > 1) {
		fputs("<details class=\"every-verdict\"><summary>Every verdict, with its interval"
		      "</summary>\n", f);
		verdict_section(f, r, base);
		aged_section(f, r, base);
		fputs("</details>\n", f);
	}
	html_samples_section(f, r);
	fputs("</article>\n", f);
}

/* The merged runs' systems side by side: a column per run. */
static void runs_table(FILE *f, struct result *const *runs, int n)
{
	const char *names[32];
	int nn = report_sys_names(runs, n, names, 32);

	fputs("<section class=\"runs\"><h2>Runs merged</h2><div class=\"scroll\"><table class=\"runs\">"
	      "<tr><th></th>", f);
	for (int r = 0; r < n; r++) {
		fprintf(f, "<th>run %lld", (long long)runs[r]->id);
		if (runs[r]->label[0]) {
			fputs(": ", f);
			xml_escape(f, runs[r]->label);
		}
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int j = -3; j < nn; j++) {
		const char *name = j == -3 ? "Started" : j == -2 ? "fsbench" : j == -1 ? "Note" : names[j];
		fputs("<tr><th>", f);
		xml_escape(f, name);
		fputs("</th>", f);
		for (int r = 0; r < n; r++) {
			const char *v = j == -3 ? runs[r]->started : j == -2 ? runs[r]->version :
					j == -1 ? (runs[r]->note ? runs[r]->note : "") : "";
			for (int i = 0; j >= 0 && i < runs[r]->nsys; i++)
				if (!strcmp(runs[r]->sys[i].name, names[j]))
					v = runs[r]->sys[i].value;
			fputs("<td>", f);
			xml_escape(f, v);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div></section>\n", f);
}

int report_html(FILE *f, struct result *const *runs, int nruns, const char *baseline)
{
	struct palette pal = { { 0 }, 0 };

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head>"
	      "<meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width\"/>"
	      "<title>", f);
	for (int i = 0; i < nruns; i++) {
		fprintf(f, "%sfsbench run %lld", i ? ", " : "", (long long)runs[i]->id);
		if (runs[i]->label[0]) {
			fputs(" ", f);
			xml_escape(f, runs[i]->label);
		}
	}
	fprintf(f, "</title><style>%s</style></head><body>\n", html_css);
	pattern_defs(f);
	if (nruns == 1) {
		run_page(f, runs[0], baseline, &pal);
	} else {
		/* PTS's merge: the systems side by side, then each test once
		 * with every run's targets on its chart */
		struct result *m = report_merge(runs, nruns);
		if (!m)
			return -1;
		runs_table(f, runs, nruns);
		run_page(f, m, baseline, &pal);
		report_merge_free(m);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
