/*
 * compare.c: one stored run against another (last week's kernel against
 * today's).  Tests are matched by name and workload, targets by label,
 * metrics by name; each matched cell gets the ratio new/old with Welch's
 * test, and a slowdown that is significant is a regression.  What matched
 * nothing is listed, never silently dropped.
 */
#include "report.h"
#include "svg.h"

#include <jansson.h>
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
				if (row->a.n && row->b.n && row->a.mean != 0) {
					row->q = stats_ratio(&row->b, &row->a);
					row->verdict = row->q.verdict * (row->direction > 0 ? 1 : -1);
					/* change in "better" terms: -10% = 10% worse */
					double better = row->direction > 0 ? row->q.value : 1 / row->q.value;
					row->change_pct = (better - 1) * 100;
				}
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
	*sign = 0;
	if (!r->a.n || !r->b.n || r->a.mean == 0)
		return "no result";
	if (r->a.n < 2 || r->b.n < 2)
		return "too few runs to tell";
	if (r->verdict > 0) {
		*sign = 1;
		return r->device ? "better" : "faster";
	}
	if (r->verdict < 0) {
		*sign = -1;
		(*regressions)++;
		if (fail_pct >= 0 && -r->change_pct > fail_pct)
			(*failing)++;
		return r->device ? "REGRESSION (worse beyond the noise)"
				 : "REGRESSION (slower beyond the noise)";
	}
	return "no significant difference";
}

/* PTS's geometric mean: per target, over the tests whose primary metric
 * both runs have, the geometric mean of new/old turned so that above 1 is
 * better; two tests at least, and how many is said. */
static void geomean_line(FILE *f, const struct result *a, const struct cmp_row *rows, int n)
{
	int said = 0;

	for (int g = 0; g < a->ntargets; g++) {
		double logsum = 0;
		int k = 0;
		for (int i = 0; i < n; i++) {
			const struct cmp_row *r = &rows[i];
			if (r->target_a != g || r->device || !a->tests[r->test_a].metrics[r->metric_a].primary ||
			    !r->a.n || !r->b.n || !(r->q.value > 0) || !isfinite(r->q.value))
				continue;
			logsum += r->direction > 0 ? log(r->q.value) : -log(r->q.value);
			k++;
		}
		if (k < 2)
			continue;
		double gm = exp(logsum / k);
		fprintf(f, "%s %s %.3f (%+.1f%%, %d tests)", said++ ? ";" : "geometric mean of new/old on "
			"the primary metrics, above 1 better:", a->targets[g].label, gm, 100 * (gm - 1), k);
	}
	if (said)
		fputc('\n', f);
}

int report_compare(FILE *f, const struct result *a, const struct result *b, double fail_pct,
		   int *regressions, int *failing)
{
	struct cmp_row *rows;
	int n, tw = 4, mw = 6, gw = 6, reg;

	*regressions = *failing = 0;
	if (compare_match(a, b, &rows, &n))
		return -1;
	fprintf(f, "run %lld (%s%s%s) -> run %lld (%s%s%s): ratio new/old, change in the better direction\n",
		(long long)a->id, a->started, a->label[0] ? ", " : "", a->label, (long long)b->id,
		b->started, b->label[0] ? ", " : "", b->label);
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
	fprintf(f, "%-*s  %-*s  %-*s  %12s  %12s  %6s  %8s  %s\n", tw, "test", mw, "metric", gw,
		"target", "old", "new", "ratio", "change", "verdict");
	for (int i = 0; i < n; i++) {
		struct cmp_row *r = &rows[i];
		const struct r_test *t = &a->tests[r->test_a];
		char old[32] = "-", new[32] = "-", ratio[16] = "-", change[16] = "-";
		const char *verdict = report_compare_verdict(r, fail_pct, regressions, failing, &reg);
		char head[160];	/* "App Overhead (usec)": the unit with the name */
		report_header(&t->metrics[r->metric_a], head, sizeof(head));
		if (r->a.n)
			svg_number(r->a.mean, old, sizeof(old));
		if (r->b.n)
			svg_number(r->b.mean, new, sizeof(new));
		if (r->a.n && r->b.n && r->a.mean != 0) {
			snprintf(ratio, sizeof(ratio), "%.3f", r->q.value);
			snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
		}
		fprintf(f, "%-*s  %-*s  %-*s  %12s  %12s  %6s  %8s  %s\n", tw, t->name, mw, head, gw,
			a->targets[r->target_a].label, old, new, ratio, change, verdict);
	}
	if (!n)
		fprintf(f, "nothing matched: the runs share no test and target\n");
	geomean_line(f, a, rows, n);
	fprintf(f, "%d regression%s beyond the noise", *regressions, *regressions == 1 ? "" : "s");
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
		int both = r->a.n && r->b.n && r->a.mean != 0;
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:s,s:b}", "test", t->name,
				      "metric", m->name, "label", m->label, "unit", m->unit,
				      "direction", m->direction > 0 ? "higher_is_better" : "lower_is_better",
				      "target", a->targets[r->target_a].label, "old", side_json(&r->a),
				      "new", side_json(&r->b), "verdict", verdict, "regression", reg < 0);
		json_object_set_new(o, "group", json_string(r->device ? "device" : "workload"));
		if (both) {
			json_object_set_new(o, "ratio", jnum(r->q.value));
			json_object_set_new(o, "ratio_ci95", json_pack("[oo]", jnum(r->q.lo), jnum(r->q.hi)));
			json_object_set_new(o, "welch_p", jnum(r->q.p));
			json_object_set_new(o, "change_percent", jnum(r->change_pct));
		}
		json_array_append_new(arr, o);
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
	json_t *o = json_pack("{s:o,s:o,s:o,s:i,s:o}", "old", run_ref(a), "new", run_ref(b),
			      "rows", arr, "regressions", regressions, "not_compared", un);
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
	json_t *doc = json_pack("{s:s,s:i,s:o}", "schema", "fsbench.compare", "schema_version", 1,
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
		fprintf(f, "\n## run %lld%s%s -> run %lld%s%s\n\nRatio new/old; change in the better "
			"direction; Welch's t-test on the log scale, p < 0.05.\n\n"
			"| test | metric | target | old | new | ratio | change | verdict |\n"
			"|---|---|---|---:|---:|---:|---:|---|\n", (long long)a->id,
			a->label[0] ? ": " : "", a->label, (long long)b->id, b->label[0] ? ": " : "",
			b->label);
		for (int i = 0; i < nr; i++) {
			const struct cmp_row *r = &rows[i];
			const struct r_test *t = &a->tests[r->test_a];
			char old[32], new[32], ratio[16] = "", change[16] = "";
			const char *v = report_compare_verdict(r, fail_pct, &regressions, &failing, &reg);
			char head[160];
			report_header(&t->metrics[r->metric_a], head, sizeof(head));
			cell_text(&r->a, old, sizeof(old));
			cell_text(&r->b, new, sizeof(new));
			if (r->a.n && r->b.n && r->a.mean != 0) {
				snprintf(ratio, sizeof(ratio), "%.3f", r->q.value);
				snprintf(change, sizeof(change), "%+.1f%%", r->change_pct);
			}
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s%s%s |\n", t->name, head,
				a->targets[r->target_a].label, old, new, ratio, change,
				reg < 0 ? "**" : "", v, reg < 0 ? "**" : "");
		}
		if (!nr)
			fprintf(f, "| nothing matched | | | | | | | |\n");
		fprintf(f, "\n%d regression%s beyond the noise", regressions, regressions == 1 ? "" : "s");
		if (fail_pct >= 0)
			fprintf(f, ", %d beyond %.1f%%", failing, fail_pct);
		fputs(".\n", f);
		free(rows);
	}
	return ferror(f) ? -1 : 0;
}
