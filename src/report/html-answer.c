/*
 * html-answer.c: the page's answer (answer.c's block as HTML), its
 * overview chart, and the speed cells every table of the page shares.
 *
 * The overview chart: for the geometric mean and then each test, every target's
 * speed against the baseline as a bar from 1 on a log scale (so 2x faster
 * and 2x slower are as long), solid where the verdicts call it faster or
 * slower, pale where they call it the same or have not separated it yet.
 * The SVG carries its own title, unit, direction and N, so it can be
 * saved alone.
 */
#include "html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ROW_H 9.0	/* one target's bar */
#define GAP_H 10.0	/* between tests */

/* The axis's ends: the data's range on logs, padded, and 1 inside. */
static void log_range(const struct result *r, const struct report_answer *a, double *lo,
		      double *hi)
{
	*lo = 1;
	*hi = 1;
	for (int k = 0; k < r->ntargets; k++)
		if (isfinite(a->overall[k].gmean) && a->overall[k].gmean > 0) {
			*lo = fmin(*lo, a->overall[k].gmean);
			*hi = fmax(*hi, a->overall[k].gmean);
		}
	for (int ti = 0; ti < a->ntests; ti++)
		for (int q = 0; q < r->ntargets; q++) {
			struct report_speed s;
			const struct r_test *t = &r->tests[ti];
			int m = report_primary(t);
			if (!t->nmetrics || report_has_outcome(t) || report_speed(t, q, a->base, m, &s) ||
			    !(s.speed > 0) || !isfinite(s.speed))
				continue;
			*lo = fmin(*lo, s.speed);
			*hi = fmax(*hi, s.speed);
		}
	*lo /= 1.15;
	*hi *= 1.15;
}

static double xpos(double v, double lo, double hi, double x0, double w)
{
	return x0 + (log(v) - log(lo)) / (log(hi) - log(lo)) * w;
}

static void bar(FILE *f, struct palette *pal, const struct result *r, int i, double speed,
		enum report_call call, double y, double lo, double hi, double x0, double w)
{
	double one = xpos(1, lo, hi, x0, w), x = xpos(speed, lo, hi, x0, w);
	int decided = call == REPORT_FASTER || call == REPORT_SLOWER;
	/* decided: solid; the same or open: pale and dashed; no call of its
	 * own (the geometric mean): half-tone */
	const char *opacity = decided ? "1" : call == REPORT_NOCALL ? "0.55" : "0.25";
	char word[64];

	snprintf(word, sizeof(word), "%s: ", r->targets[i].label);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		   "fill-opacity=\"%s\" stroke=\"%s\"%s><title>", fmin(one, x), y,
		fmax(fabs(x - one), 1), ROW_H - 1, svg_colour(html_colour(pal, r->targets[i].label)),
		opacity, svg_colour(html_colour(pal, r->targets[i].label)),
		decided || call == REPORT_NOCALL ? "" : " stroke-dasharray=\"2,2\"");
	xml_escape(f, word);
	struct report_speed q = { .speed = speed, .call = call };
	report_speed_words(&q, word, sizeof(word));
	xml_escape(f, word);
	fprintf(f, " (%s)</title></rect>", call == REPORT_OPEN ? "not separated yet" :
		call == REPORT_NOCALL ? "the geometric mean: no verdict of its own" :
		report_call_word(call));
}

/* The overview's SVG, wide (760) or narrow (380: shorter lines, test
 * names cut shorter, the key wrapped), for a phone at 12 px. */
static void overall_svg(FILE *f, const struct result *r, const struct report_answer *a, int rows,
			double lo, double hi, int narrow)
{
	struct palette pal = { .n = 0 };
	int k = r->ntargets, W = narrow ? CHART_W_NARROW : CHART_W;

	for (int i = 0; i < k; i++)
		html_colour(&pal, r->targets[i].label);
	/* the key's lines, wrapped to the width */
	char tests[32];
	snprintf(tests, sizeof(tests), "%d test%s", rows, rows == 1 ? "" : "s");
	const char *const wide_key[] = {
		"solid: faster or slower by the verdicts; pale, dashed: the same within the margin, "
		"or not separated yet;", "half-tone: the geometric mean (no verdict of its own); ", NULL };
	const char *const narrow_key[] = {
		"(log scale; right is faster)", "solid: faster or slower by the verdicts;",
		"pale, dashed: the same within the margin, or",
		"not separated yet; half-tone: the geometric",
		"mean (no verdict of its own); ", NULL };
	const char *const *key = narrow ? narrow_key : wide_key;
	int lines = 0;
	while (key[lines])
		lines++;
	double label_w = narrow ? 124 : 190, top = 30 + 14.0 * lines, w = W - label_w - 20;
	double group = (k - 1) * ROW_H + GAP_H, legend_y = 0, lx = 4;
	/* the legend's rows: each target's colour and label, wrapped */
	int legend_rows = 1;
	for (int i = 0; i < k; i++) {
		double need = 24 + 7.0 * (double)strlen(r->targets[i].label);
		if (i == a->base)
			continue;
		if (lx > 4 && lx + need > W) {
			legend_rows++;
			lx = 4;
		}
		lx += need;
	}
	double height = top + (rows + 1) * group + 26 + 16.0 * legend_rows;
	fprintf(f, "<svg class=\"chart overview %s\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\"><title>Speed "
		   "against ", narrow ? "narrow" : "wide", W, height, W, height);
	xml_escape(f, r->targets[a->base].label);
	fputs("</title><text class=\"title\" x=\"4\" y=\"16\" font-weight=\"bold\">Speed against ", f);
	xml_escape(f, r->targets[a->base].label);
	fprintf(f, ", each test's primary measure%s</text>",
		narrow ? "" : " (log scale; right is faster)");
	for (int q = 0; q < lines; q++)
		fprintf(f, "<text x=\"4\" y=\"%d\"%s%s>%s%s</text>", 30 + 14 * q,
			narrow ? "" : " font-size=\"11\"", narrow && !q ? " font-weight=\"bold\"" : "",
			key[q], q == lines - 1 ? tests : "");
	/* ticks: 1, 2, 5 x 10^k and their inverses inside the range */
	static const double ticks[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100 };
	double bottom = top + (rows + 1) * group;
	for (size_t q = 0; q < sizeof(ticks) / sizeof(ticks[0]); q++) {
		if (ticks[q] < lo || ticks[q] > hi)
			continue;
		double x = xpos(ticks[q], lo, hi, label_w, w);
		char num[32];
		svg_number(ticks[q], num, sizeof(num));
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%sx</text>", x, x, top,
			bottom, ticks[q] == 1 ? "#444" : "#ddd", x, bottom + 14, num);
	}
	double y = top;
	/* the geometric mean first, then each test */
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-weight=\"bold\">"
		   "geometric mean</text>", label_w - 6, y + (k - 1) * ROW_H / 2 + 4);
	for (int q = 0, row = 0; q < k; q++) {
		const struct answer_target *o = &a->overall[q];
		if (o->target == a->base)
			continue;
		if (isfinite(o->gmean) && o->gmean > 0)
			bar(f, &pal, r, o->target, o->gmean, REPORT_NOCALL, y + row * ROW_H, lo, hi,
			    label_w, w);
		row++;
	}
	y += group;
	for (int ti = 0; ti < a->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		int m = report_primary(t);
		if (!t->nmetrics || report_has_outcome(t))
			continue;
		/* a long name is cut to its column, whole in the tooltip */
		char name[32];
		int cut = narrow ? 13 : 24;
		snprintf(name, sizeof(name), "%.*s%s", cut, t->name, (int)strlen(t->name) > cut ? "..." : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\"><title>", label_w - 6,
			y + (k - 1) * ROW_H / 2 + 4);
		xml_escape(f, t->name);
		fputs("</title>", f);
		xml_escape(f, name);
		fputs("</text>", f);
		for (int i = 0, row = 0; i < k; i++) {
			struct report_speed s;
			if (i == a->base)
				continue;
			if (!report_speed(t, i, a->base, m, &s) && s.speed > 0 && isfinite(s.speed))
				bar(f, &pal, r, i, s.speed, s.call, y + row * ROW_H, lo, hi, label_w, w);
			row++;
		}
		y += group;
	}
	/* the legend: each target's colour, wrapped to the width */
	lx = 4;
	for (int i = 0; i < k; i++) {
		double need = 24 + 7.0 * (double)strlen(r->targets[i].label);
		if (i == a->base)
			continue;
		if (lx > 4 && lx + need > W) {
			legend_y += 16;
			lx = 4;
		}
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\">", lx, bottom + 22 + legend_y,
			svg_colour(html_colour(&pal, r->targets[i].label)), lx + 14, bottom + 31 + legend_y);
		xml_escape(f, r->targets[i].label);
		fputs("</text>", f);
		lx += need;
	}
	fputs("</svg>", f);
}

void html_chart_overall(FILE *f, const struct result *r, const struct report_answer *a)
{
	int k = r->ntargets, rows = 0;
	double lo, hi;

	for (int ti = 0; ti < a->ntests; ti++)
		rows += r->tests[ti].nmetrics && !report_has_outcome(&r->tests[ti]);
	if (!rows || k < 2)
		return;
	log_range(r, a, &lo, &hi);
	fputs("<figure>", f);
	for (int narrow = 0; narrow < 2; narrow++)
		overall_svg(f, r, a, rows, lo, hi, narrow);
	fputs("</figure>\n", f);
}

/* Class of a ratio cell: the rule's call, strong only when decided. */
const char *html_speed_class(const struct report_speed *q)
{
	return q->call == REPORT_FASTER ? "faster" : q->call == REPORT_SLOWER ? "slower" :
	       q->call == REPORT_SAME ? "same" : "noise";
}

/* "×1.20 faster"; `brief` tables use the marks of the legend. */
void html_speed_cell(FILE *f, const struct report_speed *q, int brief)
{
	char x[48];

	if (brief) {
		report_speed_cell(q, x, sizeof(x), 1);
		xml_escape(f, x);
		return;
	}
	report_speed_text(q, x, sizeof(x), 1);
	fprintf(f, "%s %s", x, q->call == REPORT_OPEN ? "not separated yet" :
		report_call_word(q->call));
}

/* The answer first: the overall ranking, then each test's, each target's
 * speed against the baseline in the rule's colours, the trust line and
 * the warnings that change the answer. */
void html_answer_section(FILE *f, const struct result *r, int base)
{
	struct report_answer a;
	char buf[6000];

	if (report_answer_make(r, base, &a))
		return;
	fputs("<section class=\"answer\"><h2>Answer</h2>\n", f);
	if (r->ntargets > 1 && a.speed_tests) {
		fputs("<p class=\"legend\">Each target's geometric mean of its speed ratios to ", f);
		xml_escape(f, r->targets[base].label);
		fputs(" over the tests (above 1 faster), and how many tests the verdicts call faster, "
		      "the same within the margin, slower, or not yet separated (docs/results.md)."
		      "</p>\n", f);
		html_chart_overall(f, r, &a);
		fputs("<table class=\"overall cards\"><tr><th>target</th><th>speed</th><th>tests</th>"
		      "<th>calls</th></tr>\n", f);
		for (int k = 0; k < r->ntargets; k++) {
			const struct answer_target *o = &a.overall[k];
			struct report_speed g = { .speed = o->gmean };
			fputs("<tr><th>", f);
			xml_escape(f, r->targets[o->target].label);
			fputs(o->target == base ? " (baseline)</th>" : "</th>", f);
			report_speed_text(&g, buf, sizeof(buf), 1);
			html_cell_open(f, "num", "speed");
			xml_escape(f, buf);
			fputs("</td>", f);
			html_cell_open(f, "num", "tests");
			fprintf(f, "%d</td>", o->ntests);
			report_answer_counts(o, buf, sizeof(buf));
			html_cell_open(f, "", "calls");
			xml_escape(f, o->target == base ? "the baseline" : buf);
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fputs("<p class=\"legend\">Each test, best first: &gt;F faster by F, = the same within the "
	      "margin, ?F not separated yet. The cells: each target against the baseline, "
	      "<span class=\"faster\">faster</span>, <span class=\"slower\">slower</span>, "
	      "<span class=\"same\">the same</span>, or grey: not separated yet.</p>\n"
	      "<div class=\"scroll\"><table class=\"summary cards\"><tr><th>test</th><th>ranking</th>",
	      f);
	html_target_headers(f, r);
	fputs("</tr>\n", f);
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		int m = report_primary(t);
		fprintf(f, "<tr><th><a href=\"#r%lld-t%d\">", (long long)r->id, ti);
		xml_escape(f, t->name);
		fputs("</a></th>", f);
		report_test_ranking(r, &a.tests[ti], buf, sizeof(buf));
		html_cell_open(f, "", "ranking");
		xml_escape(f, buf);
		fputs("</td>", f);
		for (int i = 0; i < r->ntargets; i++) {
			struct report_speed q;
			if (!t->nmetrics || report_has_outcome(t) || report_speed(t, i, base, m, &q)) {
				/* no ratio without both values: an empty cell */
				html_cell_open(f, "num", r->targets[i].label);
				fputs("</td>", f);
				continue;
			}
			char cls[48];
			snprintf(cls, sizeof(cls), "num %s", i == base ? "" : html_speed_class(&q));
			html_cell_open(f, cls, r->targets[i].label);
			if (i == base)
				fputs("baseline", f);
			else
				html_speed_cell(f, &q, 1);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
	if (a.pairs) {
		report_answer_trust(&a, buf, sizeof(buf));
		fputs("<p><b>Trust:</b> ", f);
		xml_escape(f, buf);
		fputs(".</p>\n", f);
	}
	for (int w = 0; w < a.nwarnings; w++) {
		fputs("<p class=\"warn\">&#9888; ", f);
		xml_escape(f, a.warnings[w]);
		fputs("</p>\n", f);
	}
	fputs("</section>\n", f);
	report_answer_free(&a);
}
