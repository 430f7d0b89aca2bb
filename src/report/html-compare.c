/*
 * html-compare.c: `fsbench compare --html`, each later run against the
 * first as a page of the report's own style: the answer (each target's
 * geometric mean of its speeds new/old, the verdicts' calls counted),
 * then every matched row with its speed and call in the rule's colours
 * (report/compare.c matches and judges; this file only draws).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "html.h"

/* A comparison's answer: each target's geometric mean of its speeds
 * new/old and the rule's calls, as the text's. */
static void html_compare_answer(FILE *f, const struct result *a, const struct cmp_row *rows, int n)
{
	int said = 0;

	for (int g = 0; g < a->ntargets; g++) {
		struct answer_target o;
		char counts[96];
		report_compare_answer(a, rows, n, g, &o);
		if (!o.ntests)
			continue;
		if (!said++)
			fputs("<p class=\"legend\">Answer: each target's geometric mean of its speeds "
			      "new/old over the tests' primary measures, and the verdicts' calls.</p>\n"
			      "<table class=\"answer\"><tr><th>target</th><th>speed</th><th>tests</th>"
			      "<th>calls</th></tr>\n", f);
		struct report_speed q = { REPORT_OPEN, o.gmean, NAN, NAN, 0, 0, false };
		report_answer_counts(&o, counts, sizeof(counts));
		fputs("<tr><td>", f);
		xml_escape(f, a->targets[g].label);
		fputs("</td><td class=\"num\">", f);
		html_speed_cell(f, &q, 0);
		fprintf(f, "</td><td class=\"num\">%d</td><td>%s</td></tr>\n", o.ntests, counts);
	}
	if (said)
		fputs("</table>\n", f);
}

/* `fsbench compare --html`: the rows of every comparison as a table,
 * regressions in red, improvements in green, on the page's own style. */
int report_compare_html(FILE *f, struct result *const *runs, int n, double fail_pct)
{
	fprintf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head>"
		   "<meta charset=\"utf-8\"/><title>fsbench compare</title><style>%s</style></head>"
		   "<body>\n<h1>fsbench compare</h1>\n<p class=\"sub\">Each later run against "
		   "the first: the speed new/old (&#215; faster, &#247; slower, whatever the measure's "
		   "direction) and the change in the better direction; a change is a regression or an "
		   "improvement only when the verdicts' rule decides it (docs/results.md).</p>\n", html_css);
	for (int k = 1; k < n; k++) {
		const struct result *a = runs[0], *b = runs[k];
		struct cmp_row *rows;
		int nr, regressions = 0, failing = 0;
		if (compare_match(a, b, &rows, &nr))
			return -1;
		fprintf(f, "<section class=\"compare\"><h2>run %lld", (long long)a->id);
		if (a->label[0]) {
			fputs(": ", f);
			xml_escape(f, a->label);
		}
		fprintf(f, " &#8594; run %lld", (long long)b->id);
		if (b->label[0]) {
			fputs(": ", f);
			xml_escape(f, b->label);
		}
		fputs("</h2>\n", f);
		char media[1400];
		if (report_compare_media(a, b, media, sizeof(media))) {
			fputs("<p class=\"warn\">", f);
			xml_escape(f, media);
			fputs("</p>\n", f);
		}
		html_compare_answer(f, a, rows, nr);
		fputs("<div class=\"scroll\"><table class=\"ratio cards\"><tr><th>test</th><th>metric"
		      "</th><th>target</th><th>old</th><th>new</th><th>speed</th><th>change</th>"
		      "<th>verdict</th></tr>\n", f);
		for (int i = 0; i < nr; i++) {
			const struct cmp_row *r = &rows[i];
			const struct r_test *t = &a->tests[r->test_a];
			char old[32] = "-", new[32] = "-";
			int sign, both = r->a.n && r->b.n;
			const char *v = report_compare_verdict(r, fail_pct, &regressions, &failing, &sign);
			const char *cls = sign > 0 ? "faster" : sign < 0 ? "slower" : "noise";
			if (r->a.n)
				svg_number(r->a.mean, old, sizeof(old));
			if (r->b.n)
				svg_number(r->b.mean, new, sizeof(new));
			fputs("<tr>", f);
			html_cell_open(f, "", "test");
			xml_escape(f, t->name);
			fputs("</td>", f);
			html_cell_open(f, "", "metric");
			xml_escape(f, t->metrics[r->metric_a].label);
			fputs("</td>", f);
			html_cell_open(f, "", "target");
			xml_escape(f, a->targets[r->target_a].label);
			fputs("</td>", f);
			html_cell_open(f, "num", "old");
			fprintf(f, "%s</td>", old);
			html_cell_open(f, "num", "new");
			fprintf(f, "%s</td>", new);
			if (both) {
				html_cell_open(f, html_speed_class(&r->s), "speed");
				html_speed_cell(f, &r->s, 1);
				fputs("</td>", f);
				char change[16] = "";
				if (isfinite(r->change_pct))
					snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
				html_cell_open(f, cls, "change");
				fprintf(f, "%s</td>", change);
			} else {
				fputs("<td></td><td></td>", f);
			}
			html_cell_open(f, cls, "verdict");
			fprintf(f, "%s</td></tr>\n", v);
		}
		fprintf(f, "</table></div>\n<p class=\"sub\">%d regression%s decided", regressions,
			regressions == 1 ? "" : "s");
		if (fail_pct >= 0)
			fprintf(f, ", %d beyond %.1f%%", failing, fail_pct);
		fputs(".</p></section>\n", f);
		free(rows);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? -1 : 0;
}
