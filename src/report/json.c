/*
 * json.c: one JSON document per run (schema "fsbench.result", versioned).
 *
 * Everything needed to reproduce and to re-analyse: the command line, every
 * parameter of every test, the system table, the targets with their mount
 * options, per metric the summary statistics and the ratio to the baseline
 * with its significance, and every sample with its CPU accounting.  Units
 * are explicit on every metric.  The runner's device group (what reached
 * the block device, amplification, space) is "device" beside "metrics",
 * in the same shape; a target without a block device says why.
 */
#include "report.h"
#include "../core/error.h"
#include "../core/param.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static int param_member(const char *key, const char *value, void *arg)
{
	json_object_set_new(arg, key, json_string(value));
	return 0;
}

/* The stored list as an object, each value exactly as set (params_each
 * undoes params_format's escapes); a list that does not parse (a store
 * from before the escapes, hand-edited) gives what it can. */
static json_t *params_object(const char *text)
{
	json_t *o = json_object();

	if (o && params_each(text, param_member, o))
		error_clear();
	return o;
}

/* One run has a value but no spread: its sd, se, interval and CV are
 * null, never the 0 and [x, x] that a script would take for perfect
 * precision. */
static json_t *summary_json(const struct summary *s)
{
	int spread = s->n > 1;

	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:[oo],s:o}",
			 "n", s->n, "mean", num(s->mean), "sd", num(spread ? s->sd : NAN),
			 "se", num(spread ? s->se : NAN), "median", num(s->median),
			 "min", num(s->min), "max", num(s->max),
			 "ci95", num(spread ? s->ci_lo : NAN), num(spread ? s->ci_hi : NAN),
			 "cv", num(spread ? s->cv : NAN));
}

static json_t *metric_json(const struct result *r, const struct r_test *t, int m, int base)
{
	const struct r_metric *mt = &t->metrics[m];
	json_t *results = json_array();
	for (int i = 0; i < r->ntargets; i++) {
		struct summary s;
		json_t *samples = json_array(), *o;

		result_summary(t, i, m, &s);
		for (int k = 0; k < t->cells[i].nsamples; k++)
			json_array_append_new(samples, num(t->cells[i].samples[k].values[m]));
		o = summary_json(&s);
		json_object_set_new(o, "target", json_string(r->targets[i].label));
		json_object_set_new(o, "samples", samples);
		struct report_speed q;
		/* A ratio only where both sides have a value, by the verdicts'
		 * rule: value and ci95 in the metric's own terms (this target's
		 * geometric mean over the baseline's), speedup in "faster" terms. */
		if (i != base && !report_speed(t, i, base, m, &q)) {
			int up = mt->direction > 0;
			json_object_set_new(o, "ratio_to_baseline",
				json_pack("{s:o,s:o,s:[oo],s:s,s:i}", "value",
					  num(up ? q.speed : 1 / q.speed), "speedup", num(q.speed),
					  "ci95", num(up ? q.lo : 1 / q.hi), num(up ? q.hi : 1 / q.lo),
					  "verdict", report_call_word(q.call), "rounds", q.n));
		}
		char warn[128];
		if (report_warning(t, i, m, warn, sizeof(warn), 0))
			json_object_set_new(o, "warning", json_string(warn));
		json_object_set_new(o, "ci95_scale", json_string(s.log_scale ? "log" : "linear"));
		json_object_set_new(o, "precision", num(stats_precision(&s)));
		json_array_append_new(results, o);
	}
	return json_pack("{s:s,s:s,s:s,s:s,s:b,s:o}", "name", mt->name, "unit", mt->unit,
			 "label", mt->label, "direction",
			 mt->direction > 0 ? "higher_is_better" : "lower_is_better",
			 "primary", mt->primary, "results", results);
}

/* The verdicts: a over b in values (ratio, lo, hi), and what that is in
 * "faster" terms for the primary metric's direction. */
static json_t *verdicts_json(const struct result *r, const struct r_test *t, int base)
{
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));
	json_t *a = json_array();
	int n = v ? report_verdicts(r, t, base, v, REPORT_MAX_VERDICTS) : 0;

	for (int q = 0; q < n && a; q++) {
		static const char *const names[] = { "undecided", "greater", "smaller", "equivalent",
						     "none" };
		char text[512];
		const char *kind = names[v[q].v.kind];
		if (v[q].v.kind == VERDICT_GREATER || v[q].v.kind == VERDICT_SMALLER)
			kind = (v[q].v.kind == VERDICT_GREATER) == (v[q].direction > 0) ? "faster"
											  : "slower";
		report_verdict_text(r, &v[q], text, sizeof(text));
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:i,s:b,s:s}", "a",
						   r->targets[v[q].a].label, "b",
						   r->targets[v[q].b].label, "verdict", kind, "ratio",
						   num(v[q].v.ratio), "lo", num(v[q].v.lo), "hi",
						   num(v[q].v.hi), "rounds", v[q].v.n, "paired",
						   v[q].v.paired, "text", text));
	}
	free(v);
	return a ? a : json_null();
}

static json_t *test_json(const struct result *r, const struct r_test *t, int base)
{
	json_t *metrics = json_array(), *samples = json_array(), *failures = json_array(),
	       *device = json_array();

	for (int m = 0; m < t->nmetrics; m++)
		json_array_append_new(metrics, metric_json(r, t, m, base));
	for (int m = t->nmetrics; m < t->nmetrics + t->ndevice; m++)
		json_array_append_new(device, metric_json(r, t, m, base));
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_cell *c = &t->cells[i];
		for (int k = 0; k < c->nsamples; k++) {
			const struct r_sample *s = &c->samples[k];
			json_t *vals = json_object();
			for (int m = 0; m < t->nmetrics + t->ndevice; m++)
				json_object_set_new(vals, t->metrics[m].name, num(s->values[m]));
			json_array_append_new(samples, json_pack(
				"{s:s,s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "target", r->targets[i].label,
				"rep", s->rep, "wall_s", num(s->wall), "cpu_user_s", num(s->cpu_user),
				"cpu_sys_s", num(s->cpu_sys), "cpu_percent", num(s->cpu_pct),
				"machine_cpu_percent", num(s->machine_cpu_pct), "values", vals));
			if (s->detail)
				json_object_set_new(json_array_get(samples, json_array_size(samples) - 1),
						    "detail", json_string(s->detail));
			json_t *series = s->series ? json_loads(s->series, 0, NULL) : NULL;
			if (series)
				json_object_set_new(json_array_get(samples, json_array_size(samples) - 1),
						    "series", series);
		}
		if (c->failure)
			json_array_append_new(failures, json_pack("{s:s,s:s}", "target",
				r->targets[i].label, "message", c->failure));
	}
	json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "name", t->name,
			      "workload", t->workload, "parameter_string", t->params,
			      "parameters", params_object(t->params), "title", t->title,
			      "subtitle", t->subtitle, "precision",
			      t->precision > 0 ? json_real(t->precision) : json_null(), "metrics",
			      metrics, "device", device, "samples", samples, "failures", failures);
	if (o && t->show && t->show[0])
		json_object_set_new(o, "show", json_string(t->show));
	/* the verdict rule the runs stopped by, and what it decided */
	if (o && t->looks > 0)
		json_object_set_new(o, "verdict_rule", json_pack("{s:f,s:i}", "margin", t->margin,
								 "looks", t->looks));
	if (o && r->ntargets > 1)
		json_object_set_new(o, "verdicts", verdicts_json(r, t, base));
	return o;
}

int report_json(FILE *f, const struct result *r, const char *baseline)
{
	return report_json_exact(f, r, baseline, 0);
}

/* The answer block (answer.c) as data: the overall ranking, each test's
 * ranking with its links, the pairs counted, the warnings. */
static json_t *answer_json(const struct result *r, int base)
{
	struct report_answer a;
	char buf[6000];

	if (base < 0 || report_answer_make(r, base, &a))
		return json_null();
	json_t *overall = json_array(), *tests = json_array(), *warnings = json_array();
	for (int k = 0; k < r->ntargets; k++) {
		const struct answer_target *o = &a.overall[k];
		json_array_append_new(overall, json_pack("{s:s,s:o,s:i,s:i,s:i,s:i,s:i}", "target",
			r->targets[o->target].label, "speedup", num(o->gmean), "tests", o->ntests,
			"faster", o->faster, "same", o->same, "slower", o->slower, "open", o->open));
	}
	for (int ti = 0; ti < a.ntests; ti++) {
		const struct answer_test *at = &a.tests[ti];
		json_t *order = json_array();
		for (int q = 0; q < at->nranked; q++) {
			json_t *e = json_pack("{s:s}", "target", r->targets[at->order[q]].label);
			if (q + 1 < at->nranked) {
				json_object_set_new(e, "over_next", num(at->link[q].speed));
				json_object_set_new(e, "call", json_string(report_call_word(at->link[q].call)));
			}
			json_array_append_new(order, e);
		}
		report_test_ranking(r, at, buf, sizeof(buf));
		json_array_append_new(tests, json_pack("{s:s,s:o,s:s}", "test", r->tests[ti].name,
						       "ranking", order, "text", buf));
	}
	for (int w = 0; w < a.nwarnings; w++)
		json_array_append_new(warnings, json_string(a.warnings[w]));
	report_answer_trust(&a, buf, sizeof(buf));
	json_t *o = json_pack("{s:s,s:o,s:o,s:{s:i,s:i,s:i,s:i,s:i,s:i},s:s,s:o}", "baseline",
			      r->targets[base].label, "overall", overall, "tests", tests, "pairs",
			      "all", a.pairs, "decided", a.decided, "same", a.same, "open", a.open,
			      "close", a.close, "too_few", a.nocall, "trust", buf, "warnings",
			      warnings);
	report_answer_free(&a);
	return o ? o : json_null();
}

int report_json_exact(FILE *f, const struct result *r, const char *baseline, int exact)
{
	int base = result_baseline(r, baseline);
	json_t *sys = json_object(), *targets = json_array(), *tests = json_array(), *doc;

	if (base < 0)
		base = 0;
	for (int i = 0; i < r->nsys; i++)
		json_object_set_new(sys, r->sys[i].name, json_string(r->sys[i].value));
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *t = &r->targets[i];
		json_array_append_new(targets, json_pack(
			"{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "label", t->label,
			"spec", t->spec, "mkfs", t->mkfs,
			"path", t->path, "kind", t->kind, "fstype", t->fstype,
			"mount_point", t->mount_point, "mount_source", t->mount_source,
			"mount_options", t->mount_opts, "disk", t->disk,
			"io_scheduler", t->scheduler));
		json_t *o = json_array_get(targets, json_array_size(targets) - 1);
		json_object_set_new(o, "block_device", t->blockdev ? json_string(t->blockdev) : json_null());
		json_object_set_new(o, "device_note", t->blockdev_note ? json_string(t->blockdev_note)
									: json_null());
		/* --age's record is JSON already: kept as an object */
		json_t *aged = t->aging ? json_loads(t->aging, 0, NULL) : NULL;
		json_object_set_new(o, "aging", aged ? aged : json_null());
	}
	for (int i = 0; i < r->ntests; i++)
		json_array_append_new(tests, test_json(r, &r->tests[i], base));
	doc = json_pack("{s:s,s:i,s:s,s:{s:I,s:s,s:s,s:s,s:s,s:s,s:s},s:o,s:o,s:o}",
			"schema", "fsbench.result", "schema_version", RESULT_SCHEMA_VERSION,
			"fsbench_version", r->version, "run", "id", (json_int_t)r->id,
			"started", r->started, "finished", r->finished, "label", r->label,
			"status", r->status, "command_line", r->cmdline, "baseline",
			r->targets ? r->targets[base].label : "",
			"system", sys, "targets", targets, "tests", tests);
	if (!doc)
		return -1;
	json_object_set_new(json_object_get(doc, "run"), "note", json_string(r->note ? r->note : ""));
	/* the answer the text opens with, for two targets or more */
	if (r->ntargets > 1 && r->ntests)
		json_object_set_new(doc, "answer", answer_json(r, base));
	/* 10 digits read well; an export keeps every bit (17 digits). */
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			    JSON_REAL_PRECISION(exact ? 17 : 10));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

int report_json_text(const struct result *r, char **text)
{
	size_t len = 0;
	FILE *f;
	int rc;

	*text = NULL;
	f = open_memstream(text, &len);
	if (!f)
		return error_errno("open_memstream");
	rc = report_json_exact(f, r, NULL, 1);
	if (fclose(f) || rc || !*text) {
		free(*text);
		*text = NULL;
		return error_set("cannot write the run's document");
	}
	return 0;
}
