/*
 * html.h: what the HTML page's files share (html.c, the page and its bar
 * charts; html-answer.c, its answer and overview chart; html-grouped.c,
 * its grouped charts; html-detail.c, its line charts and samples;
 * html-compare.c, compare's page).  Not
 * for outside report/.
 */
#ifndef FSB_REPORT_HTML_H
#define FSB_REPORT_HTML_H

#include <stdio.h>

#include "report.h"
#include "svg.h"

#define CHART_W 760
/* The page's style sheet (html.c), shared by compare's page. */
extern const char html_css[];
#define CHART_W_NARROW 380	/* a phone's chart: 12 px text stays 12 px at 390 px */

/* Colours: first-seen order of target labels across the page, so that a
 * filesystem keeps its colour in every chart. */
struct palette {
	const char *labels[256];
	int n;
};
int html_colour(struct palette *p, const char *label);

/* "<td class=CLS data-label=COLUMN>": a wide table (class "cards") shows
 * each row as a card on a narrow screen, each cell prefixed by its column. */
void html_cell_open(FILE *f, const char *cls, const char *column);

/* A bar (a target's colour and hatch, its label as the tooltip; class
 * "bar", or "nbar" in a narrow chart's copy), and a value axis's ticks and
 * labels (vertical: the axis runs up from x0). */
void html_bar(FILE *f, double x, double y, double w, double h, int colour, const char *label,
	      int narrow);
void html_ticks(FILE *f, const struct axis *ax, double x0, double w, double y_top,
		double y_bottom, int vertical);

/* Grouped charts (html-grouped.c): every target, the columns of one unit;
 * and seed 003's groups by compression, when some targets compress. */
void html_chart_grouped(FILE *f, const struct result *r, int ti, const char *unit,
			struct palette *pal);
void html_compression_groups(FILE *f, const struct result *r, int ti, struct palette *pal);

/* Latency over time and its distribution, for test ti of r (nothing when
 * its samples keep no series). */
void html_chart_timeline(FILE *f, const struct result *r, int ti, struct palette *pal);
void html_chart_cdf(FILE *f, const struct result *r, int ti, struct palette *pal);

/* html-answer.c: the answer section the page opens with; its overview
 * chart (each test's speed against the baseline, the geometric mean
 * first, log scale, the verdicts' calls); a speed cell's class (the
 * call's colour) and text ("×1.20 +", or "×1.20 faster"). */
void html_answer_section(FILE *f, const struct result *r, int base);
void html_chart_overall(FILE *f, const struct result *r, const struct report_answer *a);
const char *html_speed_class(const struct report_speed *q);
void html_speed_cell(FILE *f, const struct report_speed *q, int brief);
/* Cut text to max bytes with "..." (never inside a UTF-8 character). */
void html_cut_text(char *text, size_t max);
/* <th> cells with every target's label, in order (html.c). */
void html_target_headers(FILE *f, const struct result *r);

/* The collapsible record: the command line, every sample, and each
 * tool's own output. */
void html_samples_section(FILE *f, const struct result *r);

#endif
