/*
 * compare.c: one stored run against another (last week's kernel against
 * today's).  Tests are matched by name and workload, targets by label,
 * metrics by name; each matched cell gets the speed new/old and the call
 * of the verdicts' rule (report_speed: the one statistic of every report,
 * the two runs' samples apart), and a slowdown the rule decides is a
 * regression.  The answer first: each target's geometric mean of its
 * speeds over the tests, with the calls counted.  What matched nothing is
 * listed, never silently dropped.
 */
#include "report.h"
#include "svg.h"

#include <jansson.h>
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int find_test(const struct result *r, const struct r_test *t)
{
	for (int i = 0; i < r->ntests; i++)
		if (!strcmp(r->tests[i].name, t->name) && !strcmp(r->tests[i].workload, t->workload))
			return i;
	return -1;
}

static int find_target(const struct result *r, const char *label)
{
	for (int i = 0; i < r->ntargets; i++)
		if (!strcmp(r->targets[i].label, label))
			return i;
	return -1;
}

static int find_metric(const struct r_test *t, const char *name)
{
	for (int i = 0; i < t->nmetrics + t->ndevice; i++)
		if (!strcmp(t->metrics[i].name, name))
			return i;
	return -1;
}

/* Target gb of test y (new) against target ga of test x (old) on metric
 * ma (mb in y), by the rule at x's margin: a two-cell test of x's
 * metrics, y's figures moved to ma's column, the cells of two runs (never
 * paired by round).  One look, the whole error: the comparison is made
 * once, after both runs, and neither run's rounds stopped on it. */
static int row_speed(const struct r_test *x, int ga, int ma, const struct r_test *y, int gb, int mb,
		     struct report_speed *q)
{
	const struct r_cell *yc = &y->cells[gb];
	int nm = x->nmetrics + x->ndevice, rc = -1;
	struct r_cell cells[2] = { x->cells[ga], { 0, NULL, NULL, 1 } };
	struct r_test t = *x;

	t.margin = x->looks > 0 ? x->margin : REPORT_MARGIN;
	t.looks = 1;
	cells[0].run = 0;
	cells[1].samples = calloc((size_t)yc->nsamples + 1, sizeof(*cells[1].samples));
	double *vals = calloc((size_t)yc->nsamples * (size_t)nm + 1, sizeof(double));
	if (cells[1].samples && vals) {
		for (int s = 0; s < yc->nsamples; s++) {
			struct r_sample *d = &cells[1].samples[s];
			*d = yc->samples[s];
			d->values = vals + (size_t)s * (size_t)nm;
			for (int m = 0; m < nm; m++)
				d->values[m] = NAN;
			d->values[ma] = yc->samples[s].values[mb];
		}
		cells[1].nsamples = yc->nsamples;
		t.cells = cells;
		rc = report_speed(&t, 1, 0, ma, q);
	}
	free(vals);
	free(cells[1].samples);
	return rc;
}

int compare_match(const struct result *a, const struct result *b, struct cmp_row **rows, int *n)
{
	int cap = 0;

	*rows = NULL;
	*n = 0;
	for (int ta = 0; ta < a->ntests; ta++) {
		const struct r_test *x = &a->tests[ta];
		int tb = find_test(b, x);
		if (tb < 0)
			continue;
		const struct r_test *y = &b->tests[tb];
		for (int ma = 0; ma < x->nmetrics + x->ndevice; ma++) {
			/* Of the device group, what a flash user gates on: the
			 * wear per byte written and the space taken. */
			if (ma >= x->nmetrics && strcmp(x->metrics[ma].name, "write_amp") &&
			    strcmp(x->metrics[ma].name, "space_used"))
				continue;
			int mb = find_metric(y, x->metrics[ma].name);
			if (mb < 0)
				continue;
			for (int ga = 0; ga < a->ntargets; ga++) {
				int gb = find_target(b, a->targets[ga].label);
				if (gb < 0)
					continue;
				if (*n == cap) {
					cap = cap ? cap * 2 : 16;
					struct cmp_row *nr = realloc(*rows, sizeof(**rows) * (size_t)cap);
					if (!nr)
						return -1;
					*rows = nr;
				}
				struct cmp_row *row = &(*rows)[(*n)++];
				memset(row, 0, sizeof(*row));
				row->test_a = ta;
				row->test_b = tb;
				row->metric_a = ma;
				row->metric_b = mb;
				row->target_a = ga;
				row->target_b = gb;
				result_summary(x, ga, ma, &row->a);
				result_summary(y, gb, mb, &row->b);
				row->device = ma >= x->nmetrics;
				if (row->device && !row->a.n && !row->b.n) {
					(*n)--;	/* no device on either side: nothing to say */
					continue;
				}
				row->direction = x->metrics[ma].direction;
				row->change_pct = NAN;
				if (row_speed(x, ga, ma, y, gb, mb, &row->s) == 0 && isfinite(row->s.speed) &&
				    row->s.speed > 0)
					/* change in "better" terms: -10% = 10% worse */
					row->change_pct = (row->s.speed - 1) * 100;
			}
		}
	}
	return 0;
}

/* What only one of the runs has; returns how many. */
static int unmatched(FILE *f, const struct result *a, const struct result *b)
{
	const struct result *pair[2][2] = { { a, b }, { b, a } };
	int n = 0;

	for (int k = 0; k < 2; k++) {
		const struct result *x = pair[k][0], *y = pair[k][1];
		for (int i = 0; i < x->ntests; i++)
			if (find_test(y, &x->tests[i]) < 0 && ++n)
				fprintf(f, "  test %s: only in run %lld\n", x->tests[i].name, (long long)x->id);
		for (int i = 0; i < x->ntargets; i++)
			if (find_target(y, x->targets[i].label) < 0 && ++n)
				fprintf(f, "  target %s: only in run %lld\n", x->targets[i].label,
					(long long)x->id);
	}
	return n;
}

const char *report_compare_verdict(const struct cmp_row *r, double fail_pct, int *regressions,
				   int *failing, int *sign)
{
	static char same[48];

	*sign = 0;
	if (!r->a.n || !r->b.n)
		return "no result";
	switch (r->s.call) {
	case REPORT_FASTER:
		*sign = 1;
		return r->device ? "better" : "faster";
	case REPORT_SLOWER:
		*sign = -1;
		(*regressions)++;
		if (fail_pct >= 0 && -r->change_pct > fail_pct)
			(*failing)++;
		return r->device ? "REGRESSION (worse, decided)" : "REGRESSION (slower, decided)";
	case REPORT_SAME:
		snprintf(same, sizeof(same), "the same within +-%g%%", 100 * r->s.margin);
		return same;
	case REPORT_OPEN:
		return "not separated yet";
	default:
		return r->a.n < 2 || r->b.n < 2 ? "too few runs to tell" : "no ratio (a zero)";
	}
}

/* Each target's answer over the matched tests' primary metrics: the
 * geometric mean of its speeds new/old and the rule's calls counted. */
void report_compare_answer(const struct result *a, const struct cmp_row *rows, int n, int g,
			   struct answer_target *o)
{
	double logsum = 0;

	memset(o, 0, sizeof(*o));
	o->target = g;
	o->gmean = NAN;
	for (int i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		if (r->target_a != g || r->device || !a->tests[r->test_a].metrics[r->metric_a].primary ||
		    !(r->s.speed > 0) || !isfinite(r->s.speed))
			continue;
		logsum += log(r->s.speed);
		o->ntests++;
		o->faster += r->s.call == REPORT_FASTER;
		o->same += r->s.call == REPORT_SAME;
		o->slower += r->s.call == REPORT_SLOWER;
		o->open += r->s.call == REPORT_OPEN || r->s.call == REPORT_NOCALL;
	}
	if (o->ntests)
		o->gmean = exp(logsum / o->ntests);
}

/* The answer block in text or Markdown: one line per target. */
static void cmp_answer_text(FILE *f, const struct result *a, const struct result *b,
			    const struct cmp_row *rows, int n, int md)
{
	int said = 0, lw = 6;

	for (int g = 0; g < a->ntargets; g++) {
		int l = (int)strlen(a->targets[g].label);
		lw = l > lw ? l : lw;
	}
	for (int g = 0; g < a->ntargets; g++) {
		struct answer_target o;
		char speed[32], counts[96];
		report_compare_answer(a, rows, n, g, &o);
		if (!o.ntests)
			continue;
		struct report_speed q = { REPORT_OPEN, o.gmean, NAN, NAN, 0, 0, false };
		report_speed_text(&q, speed, sizeof(speed), md);
		report_answer_counts(&o, counts, sizeof(counts));
		if (!said++)
			fprintf(f, md ? "\n**Answer**: run %lld against run %lld: each target's geometric mean "
					"of its speeds new/old over the tests' primary measures, and the "
					"verdicts' calls.\n\n| target | speed | tests | calls |\n"
					"|---|---:|---:|---|\n"
				      : "Answer: run %lld against run %lld (speed new/old, geometric mean; "
					"the rule's calls):\n",
				(long long)b->id, (long long)a->id);
		if (md)
			fprintf(f, "| %s | %s | %d | %s |\n", a->targets[g].label, speed, o.ntests, counts);
		else
			fprintf(f, "  %-*s %7s  %s (%d test%s)\n", lw, a->targets[g].label, speed, counts,
				o.ntests, o.ntests == 1 ? "" : "s");
	}
}

/* What a run measured on: its Medium (the user's device, in words up to
 * its region) or "images"; len bytes into buf. */
static void medium_of(const struct result *r, char *buf, size_t len)
{
	snprintf(buf, len, "images");
	for (int i = 0; i < r->nsys; i++)
		if (!strcmp(r->sys[i].name, "Medium")) {
			const char *v = r->sys[i].value, *cut = strstr(v, "; region:");
			const char *handed = strstr(v, "; handed to the guest");
			if (handed && (!cut || handed < cut))
				cut = handed;
			snprintf(buf, len, "%.*s", (int)(cut ? (size_t)(cut - v) : strlen(v)), v);
		}
}

int report_compare_media(const struct result *a, const struct result *b, char *buf, size_t len)
{
	char ma[600], mb[600];

	medium_of(a, ma, sizeof(ma));
	medium_of(b, mb, sizeof(mb));
	buf[0] = '\0';
	if (!strcmp(ma, mb))
		return 0;
	snprintf(buf, len, "different media: run %lld on %s, run %lld on %s; the comparison mixes "
		 "the medium with the change", (long long)a->id, ma, (long long)b->id, mb);
	return 1;
}

int report_compare(FILE *f, const struct result *a, const struct result *b, double fail_pct,
		   int *regressions, int *failing)
{
	char media[1400];

	if (report_compare_media(a, b, media, sizeof(media)))
		fprintf(f, "! %s\n", media);
	struct cmp_row *rows;
	int n, tw = 4, mw = 6, gw = 6, reg;

	*regressions = *failing = 0;
	if (compare_match(a, b, &rows, &n))
		return -1;
	fprintf(f, "run %lld (%s%s%s) -> run %lld (%s%s%s)\n", (long long)a->id, a->started,
		a->label[0] ? ", " : "", a->label, (long long)b->id, b->started, b->label[0] ? ", " : "",
		b->label);
	cmp_answer_text(f, a, b, rows, n, 0);
	fprintf(f, "Each test: speed new/old (x faster, / slower; + - = ? the rule's call)\n");
	for (int i = 0; i < n; i++) {
		const struct r_test *t = &a->tests[rows[i].test_a];
		int l = (int)strlen(t->name);
		tw = l > tw ? l : tw;
		char head[160];
		report_header(&t->metrics[rows[i].metric_a], head, sizeof(head));
		l = (int)strlen(head);
		mw = l > mw ? l : mw;
		l = (int)strlen(a->targets[rows[i].target_a].label);
		gw = l > gw ? l : gw;
	}
	fprintf(f, "%-*s  %-*s  %-*s  %12s  %12s  %7s  %8s  %s\n", tw, "test", mw, "metric", gw,
		"target", "old", "new", "speed", "change", "verdict");
	for (int i = 0; i < n; i++) {
		struct cmp_row *r = &rows[i];
		const struct r_test *t = &a->tests[r->test_a];
		char old[32] = "-", new[32] = "-", ratio[32] = "-", change[16] = "-";
		const char *verdict = report_compare_verdict(r, fail_pct, regressions, failing, &reg);
		char head[160];	/* "App Overhead (usec)": the unit with the name */
		report_header(&t->metrics[r->metric_a], head, sizeof(head));
		if (r->a.n)
			svg_number(r->a.mean, old, sizeof(old));
		if (r->b.n)
			svg_number(r->b.mean, new, sizeof(new));
		if (r->a.n && r->b.n) {
			report_speed_cell(&r->s, ratio, sizeof(ratio), 0);
			if (isfinite(r->change_pct))
				snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
		}
		fprintf(f, "%-*s  %-*s  %-*s  %12s  %12s  %7s  %8s  %s\n", tw, t->name, mw, head, gw,
			a->targets[r->target_a].label, old, new, ratio, change, verdict);
	}
	if (!n)
		fprintf(f, "nothing matched: the runs share no test and target\n");
	fprintf(f, "%d regression%s decided", *regressions, *regressions == 1 ? "" : "s");
	if (fail_pct >= 0)
		fprintf(f, ", %d beyond %.1f%%", *failing, fail_pct);
	fputc('\n', f);
	char *extra = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&extra, &len);
	if (m && unmatched(m, a, b)) {
		fclose(m);
		m = NULL;
		fprintf(f, "not compared:\n%s", extra);
	}
	if (m)
		fclose(m);
	free(extra);
	free(rows);
	return 0;
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *side_json(const struct summary *s)
{
	return json_pack("{s:i,s:o,s:[oo]}", "n", s->n, "mean", jnum(s->n ? s->mean : NAN),
			 "ci95", jnum(s->n > 1 ? s->ci_lo : NAN), jnum(s->n > 1 ? s->ci_hi : NAN));
}

static json_t *run_ref(const struct result *r)
{
	return json_pack("{s:I,s:s,s:s}", "id", (json_int_t)r->id, "label", r->label, "started",
			 r->started);
}

/* One comparison (first run -> a later one) as a JSON object. */
static json_t *compare_json_one(const struct result *a, const struct result *b, double fail_pct)
{
	struct cmp_row *rows;
	int n, regressions = 0, failing = 0, reg;
	json_t *arr = json_array(), *un = json_array();

	if (compare_match(a, b, &rows, &n))
		return NULL;
	for (int i = 0; i < n; i++) {
		const struct cmp_row *r = &rows[i];
		const struct r_test *t = &a->tests[r->test_a];
		const struct r_metric *m = &t->metrics[r->metric_a];
		const char *verdict = report_compare_verdict(r, fail_pct, &regressions, &failing, &reg);
		int both = r->a.n && r->b.n && isfinite(r->s.speed);
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:s,s:b}", "test", t->name,
				      "metric", m->name, "label", m->label, "unit", m->unit,
				      "direction", m->direction > 0 ? "higher_is_better" : "lower_is_better",
				      "target", a->targets[r->target_a].label, "old", side_json(&r->a),
				      "new", side_json(&r->b), "verdict", verdict, "regression", reg < 0);
		json_object_set_new(o, "group", json_string(r->device ? "device" : "workload"));
		if (both) {
			/* a speed: above 1 better, whatever the measure's direction */
			json_object_set_new(o, "speedup", jnum(r->s.speed));
			json_object_set_new(o, "speedup_interval",
					    json_pack("[oo]", jnum(r->s.lo), jnum(r->s.hi)));
			json_object_set_new(o, "call", json_string(report_call_word(r->s.call)));
			json_object_set_new(o, "change_percent", jnum(r->change_pct));
		}
		json_array_append_new(arr, o);
	}
	json_t *ans = json_array();
	for (int g = 0; g < a->ntargets; g++) {
		struct answer_target t;
		report_compare_answer(a, rows, n, g, &t);
		if (t.ntests)
			json_array_append_new(ans, json_pack("{s:s,s:o,s:i,s:i,s:i,s:i,s:i}", "target",
				a->targets[g].label, "speedup", jnum(t.gmean), "tests", t.ntests, "faster",
				t.faster, "same", t.same, "slower", t.slower, "open", t.open));
	}
	free(rows);
	const struct result *pair[2][2] = { { a, b }, { b, a } };
	for (int k = 0; k < 2; k++) {
		const struct result *x = pair[k][0], *y = pair[k][1];
		for (int i = 0; i < x->ntests; i++)
			if (find_test(y, &x->tests[i]) < 0)
				json_array_append_new(un, json_pack("{s:s,s:s,s:I}", "kind", "test", "name",
					x->tests[i].name, "only_in_run", (json_int_t)x->id));
		for (int i = 0; i < x->ntargets; i++)
			if (find_target(y, x->targets[i].label) < 0)
				json_array_append_new(un, json_pack("{s:s,s:s,s:I}", "kind", "target", "name",
					x->targets[i].label, "only_in_run", (json_int_t)x->id));
	}
	json_t *o = json_pack("{s:o,s:o,s:o,s:o,s:i,s:o}", "old", run_ref(a), "new", run_ref(b),
			      "answer", ans, "rows", arr, "regressions", regressions, "not_compared", un);
	char media[1400];
	if (report_compare_media(a, b, media, sizeof(media)))
		json_object_set_new(o, "media_differ", json_string(media));
	if (fail_pct >= 0) {
		json_object_set_new(o, "fail_on_regression_percent", json_real(fail_pct));
		json_object_set_new(o, "failing", json_integer(failing));
	}
	return o;
}

int report_compare_json(FILE *f, struct result *const *runs, int n, double fail_pct)
{
	json_t *cmps = json_array();

	for (int i = 1; i < n; i++) {
		json_t *one = compare_json_one(runs[0], runs[i], fail_pct);
		if (!one) {
			json_decref(cmps);
			return -1;
		}
		json_array_append_new(cmps, one);
	}
	json_t *doc = json_pack("{s:s,s:i,s:o}", "schema", "fsbench.compare", "schema_version", 2,
				"comparisons", cmps);
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

/* Markdown and HTML: the same rows as a table per comparison. */
static void cell_text(const struct summary *s, char *buf, size_t len)
{
	if (s->n)
		svg_number(s->mean, buf, len);
	else
		snprintf(buf, len, "-");
}

int report_compare_markdown(FILE *f, struct result *const *runs, int n, double fail_pct)
{
	fprintf(f, "# fsbench compare\n");
	for (int k = 1; k < n; k++) {
		const struct result *a = runs[0], *b = runs[k];
		struct cmp_row *rows;
		int nr, regressions = 0, failing = 0, reg;
		if (compare_match(a, b, &rows, &nr))
			return -1;
		fprintf(f, "\n## run %lld%s%s -> run %lld%s%s\n", (long long)a->id,
			a->label[0] ? ": " : "", a->label, (long long)b->id, b->label[0] ? ": " : "",
			b->label);
		char media[1400];
		if (report_compare_media(a, b, media, sizeof(media)))
			fprintf(f, "\n**%c%s**\n", toupper((unsigned char)media[0]), media + 1);
		cmp_answer_text(f, a, b, rows, nr, 1);
		fputs("\nSpeed new/old (\u00d7 faster, \u00f7 slower; the verdicts' call); change in the "
		      "better direction.\n\n| test | metric | target | old | new | speed | change | verdict |\n"
		      "|---|---|---|---:|---:|---:|---:|---|\n", f);
		for (int i = 0; i < nr; i++) {
			const struct cmp_row *r = &rows[i];
			const struct r_test *t = &a->tests[r->test_a];
			char old[32], new[32], ratio[32] = "", change[16] = "";
			const char *v = report_compare_verdict(r, fail_pct, &regressions, &failing, &reg);
			char head[160];
			report_header(&t->metrics[r->metric_a], head, sizeof(head));
			cell_text(&r->a, old, sizeof(old));
			cell_text(&r->b, new, sizeof(new));
			if (r->a.n && r->b.n) {
				report_speed_cell(&r->s, ratio, sizeof(ratio), 1);
				if (isfinite(r->change_pct))
					snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
			}
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n", t->name, head,
				a->targets[r->target_a].label, old, new, ratio, change,
				reg < 0 ? "**" : "", v, reg < 0 ? "**" : "");
		}
		if (!nr)
			fprintf(f, "| nothing matched | | | | | | | |\n");
		fprintf(f, "\n%d regression%s decided", regressions, regressions == 1 ? "" : "s");
		if (fail_pct >= 0)
			fprintf(f, ", %d beyond %.1f%%", failing, fail_pct);
		fputs(".\n", f);
		free(rows);
	}
	return ferror(f) ? -1 : 0;
}
