/*
 * import.c: a run exported as JSON (schema fsbench.result, versions 1 and
 * 2; docs/result.schema.json) back into a store, as a new run with every
 * sample, target, test, metric and failure it had -- so a team can collect
 * results from several machines into one store.
 *
 * The document is user input: every field is checked for its type before
 * anything is written, sizes are bounded, and a document that does not
 * hold together (a sample naming no target, a metric twice) is refused
 * whole.  Importing the same run twice finds the first import instead of
 * storing it again.  tests/fuzz/fuzz_import.c feeds it arbitrary bytes.
 */
#include "store.h"
#include "../core/error.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DOC (256u << 20)	/* a run with every sample: far below this */
#define MAX_ITEMS 100000	/* targets, tests, samples per test, metrics */

/* A string member, or "" when absent; NULL (error set) when present with
 * another type. */
static const char *str_of(json_t *o, const char *key, const char *where)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return "";
	if (!json_is_string(v)) {
		error_set("import: %s.%s is not a string", where, key);
		return NULL;
	}
	return json_string_value(v);
}

/* A whole number: an integer, or a real that is one (a document whose
 * integers were read as reals, below). */
static bool whole(json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	double d = json_is_real(v) ? json_real_value(v) : 0;

	if (json_is_integer(v))
		*out = json_integer_value(v);
	else if (json_is_real(v) && d == floor(d) && d >= -9e15 && d <= 9e15)
		*out = (json_int_t)d;
	else
		return false;
	return *out >= lo && *out <= hi;
}

static int rep_of(json_t *sample)
{
	json_int_t rep = 0;

	whole(json_object_get(sample, "rep"), 0, INT_MAX, &rep);
	return (int)rep;
}

static double num_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *array_of(json_t *o, const char *key, const char *where, int required)
{
	json_t *v = json_object_get(o, key);

	if (!v && !required)
		return NULL;
	if (!json_is_array(v) || json_array_size(v) > MAX_ITEMS) {
		error_set("import: %s.%s is not an array (of at most %d items)", where, key, MAX_ITEMS);
		return NULL;
	}
	return v;
}

/* What one test will be stored as, checked whole first. */
struct imp_test {
	struct r_test row;
	struct r_metric *metrics;
	json_t *samples, *failures;
};

static int metric_from(json_t *m, struct r_metric *out, int device)
{
	const char *name = str_of(m, "name", "metric"), *unit = str_of(m, "unit", "metric");
	const char *label = str_of(m, "label", "metric"), *dir = str_of(m, "direction", "metric");

	if (!json_is_object(m) || !name || !unit || !label || !dir || !name[0])
		return error_set("import: a metric without a name, unit, label or direction");
	if (strcmp(dir, "higher_is_better") && strcmp(dir, "lower_is_better"))
		return error_set("import: metric %s: direction '%s' (higher_is_better or lower_is_better)",
				 name, dir);
	*out = (struct r_metric){ (char *)name, (char *)unit, (char *)label,
				  !strcmp(dir, "higher_is_better") ? 1 : -1,
				  json_is_true(json_object_get(m, "primary")), device };
	return 0;
}

static int test_from(json_t *t, struct imp_test *it)
{
	json_t *metrics, *device;
	const char *f[5];
	static const char *const keys[5] = { "name", "workload", "parameter_string", "title",
					     "subtitle" };

	memset(it, 0, sizeof(*it));
	if (!json_is_object(t))
		return error_set("import: a test is not an object");
	for (int i = 0; i < 5; i++)
		if (!(f[i] = str_of(t, keys[i], "test")))
			return -1;
	if (!f[0][0] || !f[1][0])
		return error_set("import: a test without a name or workload");
	if (!(metrics = array_of(t, "metrics", "test", 1)))
		return -1;
	device = json_object_get(t, "device");	/* version 1 has none */
	if (device && !(device = array_of(t, "device", "test", 0)))
		return -1;
	if (!(it->samples = array_of(t, "samples", "test", 1)))
		return -1;
	if (!(it->failures = array_of(t, "failures", "test", 0)) && json_object_get(t, "failures"))
		return -1;
	size_t nm = json_array_size(metrics), nd = device ? json_array_size(device) : 0;
	if (!nm || nm + nd > 64)
		return error_set("import: test %s has %zu metrics (1 to 64)", f[0], nm + nd);
	it->metrics = calloc(nm + nd, sizeof(*it->metrics));
	if (!it->metrics)
		return error_set("out of memory");
	for (size_t m = 0; m < nm + nd; m++) {
		if (metric_from(json_array_get(m < nm ? metrics : device, m < nm ? m : m - nm),
				&it->metrics[m], m >= nm))
			return -1;
		for (size_t k = 0; k < m; k++)
			if (!strcmp(it->metrics[k].name, it->metrics[m].name))
				return error_set("import: test %s names metric %s twice", f[0],
						 it->metrics[m].name);
	}
	/* a precision target (schema 5); none, or null, before */
	json_t *prec = json_object_get(t, "precision");
	double precision = json_is_number(prec) ? json_number_value(prec) : 0;
	if ((prec && !json_is_null(prec) && !json_is_number(prec)) || !(precision >= 0 && precision < 1))
		return error_set("import: test %s: precision is not a fraction from 0 to 1", f[0]);
	/* the verdict rule (schema 6): optional */
	json_t *rule = json_object_get(t, "verdict_rule");
	double margin = 0;
	json_int_t looks = 0;
	if (rule) {
		json_t *jm = json_object_get(rule, "margin"), *jl = json_object_get(rule, "looks");
		if (!json_is_object(rule) || !json_is_number(jm) || !whole(jl, 1, 100, &looks) ||
		    !(json_number_value(jm) >= 0 && json_number_value(jm) <= 0.5))
			return error_set("import: test %s: verdict_rule is not {margin: 0 to 0.5, "
					 "looks: 1 to 100}", f[0]);
		margin = json_number_value(jm);
	}
	/* what a suite asked the text view to show (version 4): optional */
	json_t *show = json_object_get(t, "show");
	if (show && (!json_is_string(show) || result_show_valid(json_string_value(show))))
		return error_set("import: test %s: show is not a list of %s", f[0], RESULT_SHOW_WORDS);
	it->row = (struct r_test){ .name = (char *)f[0], .workload = (char *)f[1],
				   .params = (char *)f[2], .title = (char *)f[3],
				   .subtitle = (char *)f[4], .nmetrics = (int)nm, .ndevice = (int)nd,
				   .metrics = it->metrics, .precision = precision,
				   .margin = margin, .looks = (int)looks,
				   .show = show ? (char *)json_string_value(show) : NULL };
	return 0;
}

static int target_index(json_t *targets, const char *label)
{
	for (size_t i = 0; i < json_array_size(targets); i++)
		if (!strcmp(json_string_value(json_object_get(json_array_get(targets, i), "label")),
			    label))
			return (int)i;
	return -1;
}

/* Every sample's target is one of the run's, and its values numbers. */
static int check_samples(json_t *targets, const struct imp_test *it)
{
	for (size_t k = 0; k < json_array_size(it->samples); k++) {
		json_t *s = json_array_get(it->samples, k), *vals = json_object_get(s, "values");
		const char *tg = str_of(s, "target", "sample"), *detail = str_of(s, "detail", "sample");
		if (!json_is_object(s) || !tg || !detail || target_index(targets, tg) < 0)
			return error_set("import: test %s: a sample names no target of the run",
					 it->row.name);
		json_int_t rep;
		if (!whole(json_object_get(s, "rep"), 0, INT_MAX, &rep) || !json_is_object(vals))
			return error_set("import: test %s: a sample without rep or values", it->row.name);
		const char *key;
		json_t *v;
		json_object_foreach(vals, key, v)
			if (!json_is_number(v) && !json_is_null(v))
				return error_set("import: test %s: value %s is not a number", it->row.name,
						 key);
	}
	for (size_t k = 0; it->failures && k < json_array_size(it->failures); k++) {
		json_t *fl = json_array_get(it->failures, k);
		const char *tg = str_of(fl, "target", "failure"), *msg = str_of(fl, "message", "failure");
		if (!json_is_object(fl) || !tg || !msg || target_index(targets, tg) < 0)
			return error_set("import: test %s: a failure names no target of the run",
					 it->row.name);
	}
	return 0;
}

static int check_targets(json_t *targets)
{
	static const char *const keys[] = { "label", "spec", "mkfs", "path", "kind", "fstype",
					    "mount_point", "mount_source", "mount_options", "disk",
					    "io_scheduler", "block_device", "device_note" };
	size_t n = json_array_size(targets);

	if (!n)
		return error_set("import: the run has no target");
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(targets, i);
		if (!json_is_object(t))
			return error_set("import: a target is not an object");
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!str_of(t, keys[k], "target"))
				return -1;
		const char *label = json_string_value(json_object_get(t, "label"));
		if (!label || !label[0])
			return error_set("import: a target without a label");
		for (size_t j = 0; j < i; j++)
			if (!strcmp(label, json_string_value(json_object_get(json_array_get(targets, j),
									     "label"))))
				return error_set("import: two targets are labelled '%s'", label);
	}
	return 0;
}

static int store_one(struct store *s, int64_t run, json_t *targets, int64_t *tids,
		     const struct imp_test *it, int ord)
{
	int64_t test;
	int nm = it->row.nmetrics + it->row.ndevice;
	double v[64];

	if (store_add_test(s, run, ord, &it->row, &test))
		return -1;
	for (size_t k = 0; k < json_array_size(it->samples); k++) {
		json_t *sm = json_array_get(it->samples, k), *vals = json_object_get(sm, "values");
		for (int m = 0; m < nm; m++) {
			json_t *x = json_object_get(vals, it->metrics[m].name);
			v[m] = json_is_number(x) ? json_number_value(x) : NAN;
		}
		const char *detail = str_of(sm, "detail", "sample");
		json_t *sj = json_object_get(sm, "series");
		char *series = json_is_object(sj) ? json_dumps(sj, JSON_COMPACT) : NULL;
		struct r_sample row = {
			.rep = rep_of(sm),
			.wall = num_of(sm, "wall_s"), .cpu_user = num_of(sm, "cpu_user_s"),
			.cpu_sys = num_of(sm, "cpu_sys_s"), .cpu_pct = num_of(sm, "cpu_percent"),
			.machine_cpu_pct = num_of(sm, "machine_cpu_percent"), .values = v,
			.detail = (char *)detail, .series = series,
		};
		int ti = target_index(targets, str_of(sm, "target", "sample"));
		int rc = store_add_sample(s, test, tids[ti], &row, nm);
		free(series);
		if (rc)
			return -1;
	}
	for (size_t k = 0; it->failures && k < json_array_size(it->failures); k++) {
		json_t *fl = json_array_get(it->failures, k);
		int ti = target_index(targets, str_of(fl, "target", "failure"));
		if (store_add_failure(s, test, tids[ti], str_of(fl, "message", "failure")))
			return -1;
	}
	return 0;
}

/* The shared part of store_import and store_import_into: the document
 * checked whole, then (s non-NULL) stored in one transaction, as a new
 * run (into == 0) or as the content of run `into`. */
static int import_doc(struct store *s, const char *text, size_t len, int64_t into,
		      const char *status_into, int64_t *run_id, int *existed)
{
	json_error_t jerr;
	json_t *doc, *run, *sys, *targets, *tests;
	struct imp_test *its = NULL;
	int64_t *tids = NULL;
	size_t nt = 0;
	int rc = -1, in_tx = 0;
	struct error_keep first;

	*run_id = 0;
	*existed = 0;
	if (len > MAX_DOC)
		return error_set("import: the document is larger than %u MiB", MAX_DOC >> 20);
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	/* A document that went through jq holds a wide interval's 5.2e19 as
	 * 52126828535204135000, beyond an integer: read its integers as reals
	 * then (whole() takes them back). */
	if (!doc && strstr(jerr.text, "too big integer"))
		doc = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &jerr);
	if (!doc)
		return error_set("import: not JSON: %s (line %d)", jerr.text, jerr.line);
	const char *schema = str_of(doc, "schema", "document");
	json_int_t ver;
	if (!json_is_object(doc) || !schema || strcmp(schema, "fsbench.result") ||
	    !whole(json_object_get(doc, "schema_version"), 1, 4, &ver)) {
		error_set("import: not an fsbench run (schema fsbench.result, version 1 to 4)");
		goto out;
	}
	run = json_object_get(doc, "run");
	sys = json_object_get(doc, "system");
	if (!json_is_object(run) || !json_is_object(sys)) {
		error_set("import: the document has no run or system object");
		goto out;
	}
	const char *started = str_of(run, "started", "run"), *finished = str_of(run, "finished", "run");
	const char *label = str_of(run, "label", "run"), *cmd = str_of(run, "command_line", "run");
	const char *status = str_of(run, "status", "run"), *baseline = str_of(run, "baseline", "run");
	const char *note = str_of(run, "note", "run"), *version = str_of(doc, "fsbench_version",
									   "document");
	if (!started || !finished || !label || !cmd || !status || !baseline || !note || !version)
		goto out;
	if (!started[0] || (strcmp(status, "complete") && strcmp(status, "failed") &&
			    strcmp(status, "interrupted") && strcmp(status, "running") &&
			    strcmp(status, "abandoned"))) {
		error_set("import: the run has no start time or an unknown status '%s'", status);
		goto out;
	}
	const char *key;
	json_t *v;
	json_object_foreach(sys, key, v)
		if (!json_is_string(v)) {
			error_set("import: system.%s is not a string", key);
			goto out;
		}
	if (!(targets = array_of(doc, "targets", "document", 1)) || check_targets(targets) ||
	    !(tests = array_of(doc, "tests", "document", 1)))
		goto out;
	nt = json_array_size(tests);
	its = calloc(nt + 1, sizeof(*its));
	tids = calloc(json_array_size(targets) + 1, sizeof(*tids));
	if (!its || !tids) {
		error_set("out of memory");
		goto out;
	}
	for (size_t k = 0; k < nt; k++)
		if (test_from(json_array_get(tests, k), &its[k]) || check_samples(targets, &its[k]))
			goto out;
	if (!s) {	/* checked only */
		rc = 0;
		goto out;
	}
	/* The same run imported before: found, not stored twice. */
	if (!into && store_find_run(s, started, cmd, version, label, run_id))
		goto out;
	if (*run_id) {
		*existed = 1;
		rc = 0;
		goto out;
	}
	/* All or nothing: one transaction around every row. */
	if (store_transaction(s, 1))
		goto out;
	in_tx = 1;
	if (into) {
		*run_id = into;
		if (store_empty_run(s, into))
			goto out;
	} else {
		struct run_begin b = { label, note, cmd, version, baseline[0] ? baseline : NULL, NULL };
		if (store_begin_run(s, &b, run_id))
			goto out;
	}
	int ord = 0;
	json_object_foreach(sys, key, v)
		if (store_add_sysfield(s, *run_id, ord++, key, json_string_value(v)))
			goto out;
	for (size_t i = 0; i < json_array_size(targets); i++) {
		json_t *t = json_array_get(targets, i);
		const char *bd = str_of(t, "block_device", "target"), *dn = str_of(t, "device_note", "target");
		json_t *aged = json_object_get(t, "aging");
		char *aging = json_is_object(aged) ? json_dumps(aged, JSON_COMPACT) : NULL;
		struct r_target row = {
			.label = (char *)str_of(t, "label", "target"), .path = (char *)str_of(t, "path", "target"),
			.kind = (char *)str_of(t, "kind", "target"), .fstype = (char *)str_of(t, "fstype", "target"),
			.mount_point = (char *)str_of(t, "mount_point", "target"),
			.mount_source = (char *)str_of(t, "mount_source", "target"),
			.mount_opts = (char *)str_of(t, "mount_options", "target"),
			.disk = (char *)str_of(t, "disk", "target"),
			.scheduler = (char *)str_of(t, "io_scheduler", "target"),
			.spec = (char *)str_of(t, "spec", "target"), .mkfs = (char *)str_of(t, "mkfs", "target"),
			.blockdev = (char *)bd, .blockdev_note = (char *)dn, .aging = aging,
		};
		int bad = store_add_target(s, *run_id, (int)i, &row, &tids[i]);
		free(aging);
		if (bad)
			goto out;
	}
	for (size_t k = 0; k < nt; k++)
		if (store_one(s, *run_id, targets, tids, &its[k], (int)k))
			goto out;
	if (into)	/* the host's start stays; the end and status are the guest's or given */
		rc = status_into && !strcmp(status_into, "running") ? store_resume_run(s, into)
		     : store_finish_run(s, into, status_into ? status_into : status);
	else
		rc = store_set_times(s, *run_id, started, finished[0] ? finished : NULL, status);
	if (!rc) {
		rc = store_transaction(s, 0);
		in_tx = 0;
	}
out:
	if (in_tx) {
		error_keep(&first, -1);
		store_transaction(s, -1);
		error_kept(&first, -1);
		*run_id = 0;
	}
	for (size_t k = 0; its && k < nt; k++)
		free(its[k].metrics);
	free(its);
	free(tids);
	json_decref(doc);
	return rc;
}

int store_import(struct store *s, const char *text, size_t len, int64_t *run_id, int *existed)
{
	return import_doc(s, text, len, 0, NULL, run_id, existed);
}

int store_import_into(struct store *s, int64_t run_id, const char *text, size_t len,
		      const char *status)
{
	int64_t id;
	int existed;

	return import_doc(s, text, len, run_id, status, &id, &existed);
}
