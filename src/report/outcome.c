/*
 * outcome.c: a power-cut test's outcome table (docs/workloads/powercut.md),
 * for text, Markdown and HTML.
 *
 * One row per target over all its runs: crash points checked, the share
 * that mounted clean, needed repair or stayed lost, the data that was
 * promised durable and is gone (must be 0), the data not yet promised that
 * was lost (expected, sized), and recovery time.  A target that lost
 * promised data, or had a point that would not mount even after repair,
 * gets a finding line: how much, the first point it happened at, and
 * where the run kept its image and log.  A test has the table when its
 * metrics are powercut's (by name, so a stored run renders without the
 * workload's code).
 */
#include "report.h"
#include "html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int metric_named(const struct r_test *t, const char *name)
{
	for (int m = 0; m < t->nmetrics; m++)
		if (!strcmp(t->metrics[m].name, name))
			return m;
	return -1;
}

bool report_has_outcome(const struct r_test *t)
{
	return metric_named(t, "points") >= 0 && metric_named(t, "clean_pct") >= 0 &&
	       metric_named(t, "promised_lost") >= 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The value of metric m in sample s, 0 where absent (a run stored before
 * the metric existed), NAN where the metric is unknown. */
static double val(const struct r_sample *s, int m)
{
	return m < 0 ? NAN : s->values[m];
}

int report_outcome_row(const struct r_test *t, int target, struct report_outcome *o)
{
	const struct r_cell *c = &t->cells[target];
	int mp = metric_named(t, "points"), mc = metric_named(t, "clean_pct"),
	    mr = metric_named(t, "repaired_pct"), mu = metric_named(t, "unmountable_pct"),
	    ml = metric_named(t, "promised_lost"), mb = metric_named(t, "promised_bytes_lost"),
	    mn = metric_named(t, "pending_bytes_lost"), mmed = metric_named(t, "recovery_ms_median"),
	    mmax = metric_named(t, "recovery_ms_max");
	double clean = 0, repaired = 0, lost = 0, *med;
	int nmed = 0;

	memset(o, 0, sizeof(*o));
	o->rec_median = o->rec_max = NAN;
	if (mp < 0 || !c->nsamples)
		return -1;
	med = calloc((size_t)c->nsamples, sizeof(double));
	if (!med)
		return -1;
	for (int s = 0; s < c->nsamples; s++) {
		const struct r_sample *sm = &c->samples[s];
		double pts = val(sm, mp);
		if (!isfinite(pts) || pts <= 0)
			continue;
		o->runs++;
		o->points += pts;
		/* the shares back into counts, so runs weigh by their points */
		if (isfinite(val(sm, mc)))
			clean += val(sm, mc) * pts / 100;
		if (isfinite(val(sm, mr)))
			repaired += val(sm, mr) * pts / 100;
		if (isfinite(val(sm, mu)))
			lost += val(sm, mu) * pts / 100;
		if (isfinite(val(sm, ml)))
			o->promised_lost += val(sm, ml);
		if (isfinite(val(sm, mb)))
			o->promised_bytes += val(sm, mb);
		if (isfinite(val(sm, mn)))
			o->pending_bytes += val(sm, mn);
		if (isfinite(val(sm, mmed)))
			med[nmed++] = val(sm, mmed);
		if (isfinite(val(sm, mmax)) && !(o->rec_max >= val(sm, mmax)))
			o->rec_max = val(sm, mmax);
		if (sm->detail && !o->first[0]) {
			const char *f = strstr(sm->detail, ", first: "), *k = strstr(sm->detail, "\nkept: ");
			if (f) {
				f += 9;
				snprintf(o->first, sizeof(o->first), "%.*s", (int)strcspn(f, "\n"), f);
			}
			if (k) {
				k += 7;
				snprintf(o->kept, sizeof(o->kept), "%.*s", (int)strcspn(k, " \n"), k);
			}
		}
	}
	if (nmed) {
		qsort(med, (size_t)nmed, sizeof(double), cmp_double);
		o->rec_median = nmed % 2 ? med[nmed / 2] : (med[nmed / 2 - 1] + med[nmed / 2]) / 2;
	}
	free(med);
	if (!o->runs)
		return -1;
	o->clean_pct = 100 * clean / o->points;
	o->repaired_pct = 100 * repaired / o->points;
	o->lost_pct = 100 * lost / o->points;
	o->unmountable = (int)lround(lost);
	o->finding = o->promised_lost > 0 || o->unmountable > 0;
	return 0;
}

/* "0 B", "12.0 KiB", "4.7 MiB". */
static void bytes_text(double b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int k = 0;

	while (b >= 1024 && k < 4) {
		b /= 1024;
		k++;
	}
	if (k)
		snprintf(buf, len, "%.1f %s", b, u[k]);
	else
		snprintf(buf, len, "%.0f B", b);
}

static void ms_text(double ms, char *buf, size_t len)
{
	if (!isfinite(ms))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", ms < 100 ? 1 : 0, ms);
}

void report_finding_text(const struct r_target *tg, const struct report_outcome *o, char *buf,
			 size_t len)
{
	char b[32];
	size_t used;

	bytes_text(o->promised_bytes, b, sizeof(b));
	used = (size_t)snprintf(buf, len, "FINDING: %s lost %.0f promised files/rows (%s)", tg->label,
				o->promised_lost, b);
	if (o->unmountable && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", %d of %.0f points did not mount "
					 "even after repair", o->unmountable, o->points);
	if (o->first[0] && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; first: %s", o->first);
	if (used < len)
		snprintf(buf + used, len - used, o->kept[0] ? "; image and log kept as %s in the "
			 "findings directory beside the result store" : "; nothing kept (rerun with "
			 "its seed to keep the image)", o->kept);
}

/* The row's four formatted cells, as every format shows them. */
struct outcome_cells {
	char lost[64], pend[32], med[32], max[32];
};

static void outcome_cells(const struct report_outcome *o, struct outcome_cells *c)
{
	char b[32];

	bytes_text(o->promised_bytes, b, sizeof(b));
	snprintf(c->lost, sizeof(c->lost), "%.0f (%s)", o->promised_lost, b);
	bytes_text(o->pending_bytes, c->pend, sizeof(c->pend));
	ms_text(o->rec_median, c->med, sizeof(c->med));
	ms_text(o->rec_max, c->max, sizeof(c->max));
}

void report_outcome(FILE *f, const struct result *r, int ti, int markdown)
{
	const struct r_test *t = &r->tests[ti];
	static const char *const head[] = { "Points", "Clean %", "Repaired %", "No mount %",
					    "Promised lost", "Pending lost", "Recovery ms",
					    "Worst ms" };
	int shown = 0;

	if (!report_has_outcome(t))
		return;
	for (int i = 0; i < r->ntargets; i++) {
		struct report_outcome o;
		struct outcome_cells c;
		if (report_outcome_row(t, i, &o))
			continue;
		if (!shown++) {
			if (markdown) {
				fputs("\n**Power-cut outcome** (promised: acknowledged durable; any loss "
				      "of it is a finding)\n\n| target |", f);
				for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
					fprintf(f, " %s |", head[k]);
				fputs("\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
			} else {
				fputs("Power-cut outcome (promised: acknowledged durable; any loss of it "
				      "is a finding):\n", f);
				fprintf(f, "%-14s %6s %7s %10s %10s %15s %12s %11s %8s\n", "target",
					head[0], head[1], head[2], head[3], head[4], head[5], head[6],
					head[7]);
			}
		}
		outcome_cells(&o, &c);
		if (markdown)
			fprintf(f, "| %s | %.0f | %.1f | %.1f | %.1f | %s%s%s | %s | %s | %s |\n",
				r->targets[i].label, o.points, o.clean_pct, o.repaired_pct, o.lost_pct,
				o.finding ? "**" : "", c.lost, o.finding ? "**" : "", c.pend, c.med, c.max);
		else
			fprintf(f, "%-14s %6.0f %7.1f %10.1f %10.1f %15s %12s %11s %8s%s\n",
				r->targets[i].label, o.points, o.clean_pct, o.repaired_pct, o.lost_pct,
				c.lost, c.pend, c.med, c.max, o.finding ? "  !!" : "");
	}
	for (int i = 0; shown && i < r->ntargets; i++) {
		struct report_outcome o;
		char line[2048];
		if (report_outcome_row(t, i, &o) || !o.finding)
			continue;
		report_finding_text(&r->targets[i], &o, line, sizeof(line));
		fprintf(f, markdown ? "\n**!! %s**\n" : "!! %s\n", line);
	}
}

int report_outcome_summary(const struct result *r, int ti, char *buf, size_t len)
{
	const struct r_test *t = &r->tests[ti];
	size_t used = 0;
	int shown = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->ntargets && used < len; i++) {
		struct report_outcome o;
		if (report_outcome_row(t, i, &o))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %.0f lost (%.1f%% clean",
					 shown++ ? "; " : "", r->targets[i].label, o.promised_lost,
					 o.clean_pct);
		if (used < len && o.repaired_pct > 0)
			used += (size_t)snprintf(buf + used, len - used, ", %.1f%% repaired",
						 o.repaired_pct);
		if (used < len && o.lost_pct > 0)
			used += (size_t)snprintf(buf + used, len - used, ", %.1f%% no mount", o.lost_pct);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, ")%s", o.finding ? " !!" : "");
	}
	return shown ? 0 : -1;
}

void report_outcome_html(FILE *f, const struct result *r, int ti)
{
	const struct r_test *t = &r->tests[ti];
	int shown = 0;

	if (!report_has_outcome(t))
		return;
	for (int i = 0; i < r->ntargets; i++) {
		struct report_outcome o;
		struct outcome_cells c;
		if (report_outcome_row(t, i, &o))
			continue;
		if (!shown++)
			fputs("<h3>Power-cut outcome <small>&#8212; promised: acknowledged durable; any "
			      "loss of it is a finding</small></h3>\n<div class=\"scroll\"><table "
			      "class=\"device\"><tr><th>target</th><th>Points</th><th>Clean %</th>"
			      "<th>Repaired %</th><th>No mount %</th><th>Promised lost</th>"
			      "<th>Pending lost</th><th>Recovery ms</th><th>Worst ms</th></tr>\n",
			      f);
		outcome_cells(&o, &c);
		fputs("<tr><th>", f);
		xml_escape(f, r->targets[i].label);
		fprintf(f, "</th><td class=\"num\">%.0f</td><td class=\"num\">%.1f</td>"
			   "<td class=\"num\">%.1f</td><td class=\"num\">%.1f</td>"
			   "<td class=\"num%s\">%s</td><td class=\"num\">%s</td>"
			   "<td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
			o.points, o.clean_pct, o.repaired_pct, o.lost_pct, o.finding ? " slower" : "",
			c.lost, c.pend, c.med, c.max);
	}
	if (!shown)
		return;
	fputs("</table></div>\n", f);
	for (int i = 0; i < r->ntargets; i++) {
		struct report_outcome o;
		char line[2048];
		if (report_outcome_row(t, i, &o) || !o.finding)
			continue;
		report_finding_text(&r->targets[i], &o, line, sizeof(line));
		fputs("<p class=\"finding\"><strong>", f);
		xml_escape(f, line);
		fputs("</strong></p>\n", f);
	}
}
