/*
 * html-answer.c: the page's overview chart, drawn from the answer block
 * (answer.c): for the geometric mean and then each test, every target's
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
			int m = 0;
			for (int k = 0; k < t->nmetrics; k++)
				m = t->metrics[k].primary ? k : m;
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
	char word[64];

	snprintf(word, sizeof(word), "%s: ", r->targets[i].label);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		   "fill-opacity=\"%s\" stroke=\"%s\"%s><title>", fmin(one, x), y,
		fmax(fabs(x - one), 1), ROW_H - 1, svg_colour(html_colour(pal, r->targets[i].label)),
		decided ? "1" : "0.25", svg_colour(html_colour(pal, r->targets[i].label)),
		decided ? "" : " stroke-dasharray=\"2,2\"");
	xml_escape(f, word);
	struct report_speed q = { .speed = speed, .call = call };
	report_speed_words(&q, word, sizeof(word));
	xml_escape(f, word);
	fprintf(f, " (%s)</title></rect>", call == REPORT_OPEN ? "not separated yet" :
		report_call_word(call));
}

void html_chart_overall(FILE *f, const struct result *r, const struct report_answer *a)
{
	struct palette pal = { .n = 0 };
	int k = r->ntargets, rows = 0;
	double lo, hi;

	for (int i = 0; i < k; i++)
		html_colour(&pal, r->targets[i].label);
	for (int ti = 0; ti < a->ntests; ti++)
		rows += r->tests[ti].nmetrics && !report_has_outcome(&r->tests[ti]);
	if (!rows || k < 2)
		return;
	log_range(r, a, &lo, &hi);
	double label_w = 190, top = 46, w = CHART_W - label_w - 20;
	double group = (k - 1) * ROW_H + GAP_H, height = top + (rows + 1) * group + 40;
	fprintf(f, "<figure><svg class=\"chart overview\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\"><title>Speed "
		   "against ", CHART_W, height, CHART_W, height);
	xml_escape(f, r->targets[a->base].label);
	fputs("</title><text x=\"4\" y=\"16\" font-weight=\"bold\">Speed against ", f);
	xml_escape(f, r->targets[a->base].label);
	fprintf(f, ", each test's primary measure (log scale; right is faster)</text>"
		   "<text x=\"4\" y=\"32\" font-size=\"11\">solid: faster or slower by the verdicts; "
		   "pale, dashed: the same within the margin, or not separated yet; %d test%s</text>",
		   rows, rows == 1 ? "" : "s");
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
			bar(f, &pal, r, o->target, o->gmean,
			    o->faster && !o->slower && !o->open && !o->same ? REPORT_FASTER :
			    o->slower && !o->faster && !o->open && !o->same ? REPORT_SLOWER : REPORT_OPEN,
			    y + row * ROW_H, lo, hi, label_w, w);
		row++;
	}
	y += group;
	for (int ti = 0; ti < a->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		int m = 0;
		if (!t->nmetrics || report_has_outcome(t))
			continue;
		for (int q = 0; q < t->nmetrics; q++)
			m = t->metrics[q].primary ? q : m;
		/* a long name is cut to its column, whole in the tooltip */
		char name[32];
		snprintf(name, sizeof(name), "%.24s%s", t->name, strlen(t->name) > 24 ? "..." : "");
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
	/* the legend: each target's colour */
	double lx = 4;
	for (int i = 0; i < k; i++) {
		if (i == a->base)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\">", lx, bottom + 22,
			svg_colour(html_colour(&pal, r->targets[i].label)), lx + 14, bottom + 31);
		xml_escape(f, r->targets[i].label);
		fputs("</text>", f);
		lx += 24 + 7.0 * (double)strlen(r->targets[i].label);
	}
	fputs("</svg></figure>\n", f);
}
