/* test_report.c: text charts (seed 000 shape), raw and ratio tables (seed
 * 002 shape with significance marks), JSON, CSV and Markdown. */
#include "testutil.h"
#include "fixture_run.h"
#include "report/progress.h"
#include "report/report.h"

#include <dirent.h>
#include <fcntl.h>

#include <jansson.h>
#include <math.h>

static struct result *res;

static int setup(void **state)
{
	struct store *s;

	setup_store(state);
	assert_int_equal(store_open(path, &s), 0);
	assert_int_equal(store_load_run(s, fixture_run(s), &res), 0);
	store_close(s);
	return 0;
}

static int teardown(void **state)
{
	result_free(res);
	return teardown_dir(state);
}

/* Render with fn into a string (caller frees). */
#define RENDER(buf, call) do { size_t _n; FILE *f = open_memstream(&(buf), &_n); \
	assert_non_null(f); call; fclose(f); } while (0)

static int count_char(const char *line, char c)
{
	int n = 0;

	for (; *line && *line != '\n'; line++)
		n += *line == c;
	return n;
}

static const char *line_starting(const char *text, const char *prefix)
{
	for (const char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix)))
			return l;
	return NULL;
}

static void test_chart_shape(void **state)
{
	(void)state;
	struct report_opts o = { .width = 80 };
	char *out = NULL;

	RENDER(out, report_chart(f, res, 0, 0, &o));
	assert_true(!strncmp(out, "FS-Mark 3.3\nTest: 1000 Files, 1MB Size\nFiles/s > Higher Is Better\n",
			     strlen("FS-Mark 3.3\nTest: 1000 Files, 1MB Size\nFiles/s > Higher Is Better\n")));
	const char *base = line_starting(out, "base . 100.0 |");
	const char *fast = line_starting(out, "fast . 120.0 |");
	assert_non_null(base);
	assert_non_null(fast);
	assert_non_null(line_starting(out, "same . 100.3 |"));
	assert_non_null(strstr(fast, "SE +/- 0.6, N = 3"));
	/* Bars scale to the largest value. */
	int bb = count_char(base, '='), fb = count_char(fast, '=');
	assert_true(fb > 20);
	assert_float_equal((double)bb / fb, 100.0 / 120.0, 0.03);
	for (const char *l = out; *l; l = strchr(l, '\n') + 1)
		assert_true(strchr(l, '\n') - l <= 80);
	free(out);

	/* The lower-is-better metric says so and names itself. */
	RENDER(out, report_chart(f, res, 0, 1, &o));
	assert_non_null(strstr(out, "Test: 1000 Files, 1MB Size - App Overhead\nusec < Lower Is Better\n"));
	free(out);

	/* Narrow terminals keep a usable bar. */
	o.width = 40;
	RENDER(out, report_chart(f, res, 0, 0, &o));
	assert_true(count_char(line_starting(out, "fast"), '=') >= 10);
	free(out);
}

static void test_tables_and_marks(void **state)
{
	(void)state;
	struct report_opts o = { .width = 100 };
	char *out = NULL;

	RENDER(out, report_tables(f, res, 0, &o, 0));
	assert_non_null(strstr(out, "speed against base"));
	const char *fast = strstr(strstr(out, "speed against base"), "\nfast");
	const char *same = strstr(strstr(out, "speed against base"), "\nsame");
	assert_non_null(fast);
	assert_non_null(same);
	/* Every ratio is a speed, whatever the metric's direction (the bug:
	 * a lower-is-better overhead shown as 0.80, a faster target read as
	 * slower): files/s 1.20x faster, overhead 40 against 50 1.25x faster,
	 * each marked as the verdicts' rule calls it. */
	assert_non_null(strstr(fast, "x1.20+"));
	assert_non_null(strstr(fast, "x1.25+"));
	/* 3 runs within 1.5% of the baseline: not separated yet, not "the
	 * same" (its interval still reaches past the 3% margin). */
	assert_non_null(strstr(same, "x1.00?"));
	free(out);

	/* Another baseline flips the verdicts: base is 1.20x slower. */
	o.baseline = "fast";
	RENDER(out, report_tables(f, res, 0, &o, 0));
	assert_non_null(strstr(out, "speed against fast"));
	assert_non_null(strstr(strstr(strstr(out, "speed against fast"), "\nbase"), "/1.20-"));
	free(out);

	/* Colour only when asked: green for the significant win. */
	o.baseline = NULL;
	o.color = 1;
	RENDER(out, report_tables(f, res, 0, &o, 0));
	assert_non_null(strstr(out, "\033[32m"));
	free(out);
	o.color = 0;
	RENDER(out, report_text(f, res, &o));
	assert_null(strchr(out, '\033'));
	assert_non_null(strstr(out, "Processor: Test CPU, OS: Test OS"));
	free(out);
}

static void test_json_document(void **state)
{
	(void)state;
	char *out = NULL;
	json_error_t err;

	RENDER(out, assert_int_equal(report_json(f, res, NULL), 0));
	json_t *doc = json_loads(out, 0, &err);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "fsbench.result");
	assert_int_equal(json_integer_value(json_object_get(doc, "schema_version")), 4);
	json_t *test = json_array_get(json_object_get(doc, "tests"), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(test, "parameters"),
							      "size")), "1M");
	json_t *m0 = json_array_get(json_object_get(test, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(m0, "unit")), "Files/s");
	assert_string_equal(json_string_value(json_object_get(m0, "direction")), "higher_is_better");
	json_t *fast = json_array_get(json_object_get(m0, "results"), 1);
	assert_float_equal(json_real_value(json_object_get(fast, "mean")), 120, 1e-9);
	assert_int_equal(json_array_size(json_object_get(fast, "samples")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(fast, "ratio_to_baseline"),
							      "verdict")), "faster");
	assert_null(json_object_get(json_array_get(json_object_get(m0, "results"), 0),
				    "ratio_to_baseline"));
	assert_int_equal(json_array_size(json_object_get(test, "samples")), 9);
	json_decref(doc);
	free(out);
}

/* One run has a value and no spread: JSON gives its sd, se, ci95 and cv as
 * null, not the 0 and [x, x] a script reads as perfect precision, and the
 * HTML table gives the value alone, not "x ± 0.0".  The bug it catches: a
 * zero-width interval from one sample. */
static void test_one_run_no_interval(void **state)
{
	(void)state;
	char *out = NULL;
	json_error_t err;
	int keep[8];

	for (int i = 0; i < res->ntargets; i++) {
		keep[i] = res->tests[0].cells[i].nsamples;
		res->tests[0].cells[i].nsamples = 1;
	}
	RENDER(out, assert_int_equal(report_json(f, res, NULL), 0));
	json_t *doc = json_loads(out, 0, &err);
	assert_non_null(doc);
	json_t *m0 = json_array_get(json_object_get(json_array_get(json_object_get(doc, "tests"), 0),
						    "metrics"), 0);
	json_t *fast = json_array_get(json_object_get(m0, "results"), 1);
	assert_int_equal(json_integer_value(json_object_get(fast, "n")), 1);
	assert_true(json_is_real(json_object_get(fast, "mean")));
	assert_true(json_is_null(json_object_get(fast, "sd")));
	assert_true(json_is_null(json_object_get(fast, "se")));
	assert_true(json_is_null(json_object_get(fast, "cv")));
	json_t *ci = json_object_get(fast, "ci95");
	assert_true(json_is_null(json_array_get(ci, 0)) && json_is_null(json_array_get(ci, 1)));
	json_decref(doc);
	free(out);
	struct result *one[] = { res };
	RENDER(out, assert_int_equal(report_html(f, one, 1, NULL), 0));
	assert_null(strstr(out, "&#177;&#160;0.0<"));
	assert_non_null(strstr(out, ">120.0<"));
	free(out);
	for (int i = 0; i < res->ntargets; i++)
		res->tests[0].cells[i].nsamples = keep[i];
}

/* A cell with runs and no figure says why in its own words: a device
 * figure on a target with no block device gives the target's reason
 * (tmpfs: memory), bonnie's +++++ is said on bonnie alone (the bug: a
 * tmpfs's missing write amplification "explained" as bonnie's +++++). */
static void test_no_figure_reason(void **state)
{
	(void)state;
	struct r_test *t = &res->tests[0];
	struct r_target *tg = &res->targets[1];
	char *bd = tg->blockdev, *note = tg->blockdev_note, *wl = t->workload;
	int dev = t->metrics[0].device;

	tg->blockdev = NULL;
	tg->blockdev_note = "tmpfs keeps its data in memory: no block device";
	t->metrics[0].device = 1;
	assert_string_equal(report_no_figure(res, t, 1, 0), tg->blockdev_note);
	t->metrics[0].device = 0;
	t->workload = "bonnie";
	assert_non_null(strstr(report_no_figure(res, t, 1, 0), "+++++"));
	t->workload = "fsmark";
	assert_string_equal(report_no_figure(res, t, 1, 0), "no figure");
	tg->blockdev = bd;
	tg->blockdev_note = note;
	t->workload = wl;
	t->metrics[0].device = dev;
}

/* A "-" in the means table says what it stands for, under the table (the
 * bug: seed 003's bonnie cells showed "-" with no word why). */
static void test_table_dash_explained(void **state)
{
	(void)state;
	struct r_test *t = &res->tests[0];
	struct r_cell *c = &t->cells[1];
	struct report_opts o = { 200, 0, NULL, 1 };
	double keep[8];
	char *wl = t->workload, *out = NULL;
	int n = c->nsamples < 8 ? c->nsamples : 8;

	for (int k = 0; k < n; k++) {
		keep[k] = c->samples[k].values[1];
		c->samples[k].values[1] = NAN;	/* runs, and no figure of metric 1 */
	}
	t->workload = "bonnie";
	RENDER(out, report_tables(f, res, 0, &o, 0));
	for (int k = 0; k < n; k++)	/* restored before anything can fail */
		c->samples[k].values[1] = keep[k];
	t->workload = wl;
	if (!strstr(out, "\n-: no figure (bonnie's +++++"))
		fail_msg("no reason under the means table:\n%s", out);
	free(out);
}

static void test_csv_and_markdown(void **state)
{
	(void)state;
	struct report_opts o = { .width = 80 };
	char *out = NULL;
	int lines = 0;

	RENDER(out, assert_int_equal(report_csv(f, res), 0));
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 1 + 3 * 3 * 2);	/* header + samples x metrics */
	assert_true(!strncmp(out, "run_id,test,workload,parameters,target,rep,metric,", 50));
	assert_non_null(strstr(out, ",\"fsmark-1000x1M,x\",fsmark,\"files=1000,size=1M\",fast,2,"
				    "files_per_sec,Files/s,higher_is_better,121,"));
	free(out);

	RENDER(out, assert_int_equal(report_markdown(f, res, &o), 0));
	assert_non_null(strstr(out, "## FS-Mark 3.3: Test: 1000 Files, 1MB Size"));
	assert_non_null(strstr(out, "```text\nFS-Mark 3.3\n"));
	assert_non_null(strstr(out, "| target | Files/s | App Overhead (usec) |"));
	assert_non_null(strstr(out, "| fast | 120.0 ± 0.6 |"));
	free(out);
}

/* The compact terminal view and the verbose one, against golden files
 * (tests/fixtures/golden/; FSBENCH_GOLDEN_UPDATE=1 rewrites them after a
 * deliberate change).  The line with the run's date is left out. */
static void golden(const char *name, int verbose)
{
	struct report_opts o = { 80, 0, NULL, verbose };
	char *out = NULL, file[1024], *want = NULL;
	size_t n = 0;

	RENDER(out, report_text(f, res, &o));
	/* the line with the run's date goes (the answer block stands above it) */
	char *date = strstr(out, "fsbench test, run ");
	assert_non_null(date);
	memmove(date, strchr(date, '\n') + 1, strlen(strchr(date, '\n') + 1) + 1);
	const char *body = out;
	snprintf(file, sizeof(file), "%s/golden/%s", fixture_dir(), name);
	if (getenv("FSBENCH_GOLDEN_UPDATE")) {
		FILE *g = fopen(file, "w");
		assert_non_null(g);
		fputs(body, g);
		fclose(g);
	}
	FILE *g = fopen(file, "r");
	assert_non_null(g);
	assert_int_equal(getdelim(&want, &n, '\0', g) > 0, 1);
	fclose(g);
	if (strcmp(want, body))
		fail_msg("%s differs from the golden file %s:\n%s", name, file, body);
	free(want);
	free(out);
}

/* A ratio exists only where both sides have a value: the baseline without
 * a figure for a metric gives empty cells in that column, in text, HTML and
 * JSON, not "1.00" (issue 14). */
static void test_empty_baseline(void **state)
{
	(void)state;
	struct r_cell *bc = &res->tests[0].cells[0];
	double saved[3];
	struct report_opts o = { 200, 0, NULL, 1 };
	char *out = NULL;

	for (int k = 0; k < bc->nsamples; k++) {
		saved[k] = bc->samples[k].values[1];
		bc->samples[k].values[1] = NAN;	/* base: no App Overhead */
	}
	RENDER(out, report_tables(f, res, 0, &o, 0));
	const char *ratio = strstr(out, "speed against base");
	assert_non_null(ratio);
	const char *row = line_starting(ratio, "base ");
	assert_non_null(row);
	/* the label, then "base" for Files/s only */
	const char *cell = strstr(row + 4, "base"), *eol = strchr(row, '\n');
	assert_true(cell && cell < eol && !(strstr(cell + 4, "base") < eol && strstr(cell + 4, "base")));
	row = line_starting(ratio, "fast ");
	assert_non_null(strstr(row, "x1.20+"));
	assert_null(strstr(row, "x1.25"));		/* no ratio to nothing */
	free(out);
	RENDER(out, report_json(f, res, NULL));
	json_error_t err;
	json_t *doc = json_loads(out, 0, &err);
	assert_non_null(doc);
	json_t *r1 = json_array_get(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(doc, "tests"), 0), "metrics"), 1), "results"), 1);
	assert_null(json_object_get(r1, "ratio_to_baseline"));
	json_decref(doc);
	free(out);
	RENDER(out, report_html(f, &res, 1, NULL));
	assert_null(strstr(out, "0.80"));
	free(out);
	for (int k = 0; k < bc->nsamples; k++)
		bc->samples[k].values[1] = saved[k];
}

/* Two runs a side: a ratio, marked '?' (too few to test), and a warning. */
/* An interval on the log scale is asymmetric: runs of 10 and 100 read as a
 * range, "-x%..+y%", not as "+-y%", which says the figure could be y%
 * lower too (the bug: "+-505%" after two runs).  A narrow one stays "+-". */
static void test_asymmetric_interval(void **state)
{
	(void)state;
	struct r_cell *c = &res->tests[0].cells[0];
	double keep[2] = { c->samples[0].values[0], c->samples[1].values[0] };
	int n = c->nsamples, got;
	char wide[32], narrow[32];

	c->nsamples = 2;
	c->samples[0].values[0] = 10;
	c->samples[1].values[0] = 100;
	got = report_precision(&res->tests[0], 0, 0, wide, sizeof(wide));
	c->samples[0].values[0] = keep[0];	/* restored before anything can fail */
	c->samples[1].values[0] = keep[1];
	c->nsamples = n;
	assert_int_equal(got, 1);
	if (wide[0] != '-' || !strstr(wide, "..+"))
		fail_msg("a wide interval on the log scale reads \"%s\", not a range", wide);
	assert_int_equal(report_precision(&res->tests[0], 0, 0, narrow, sizeof(narrow)), 1);
	assert_int_equal(strncmp(narrow, "+-", 2), 0);
}

static void test_too_few_runs(void **state)
{
	(void)state;
	struct r_cell *c0 = &res->tests[0].cells[0], *c1 = &res->tests[0].cells[1];
	int n0 = c0->nsamples, n1 = c1->nsamples;
	struct report_opts o = { 200, 0, NULL, 1 };
	char *out = NULL;

	c0->nsamples = 1;
	c1->nsamples = 1;
	RENDER(out, report_text(f, res, &o));
	c0->nsamples = n0;	/* restored before anything can fail */
	c1->nsamples = n1;
	/* one run a side: a speed, and no call (the rule needs two) */
	assert_non_null(strstr(out, "x1.20?"));
	assert_non_null(strstr(out, "? not separated yet"));	/* and it is in the legend */
	assert_non_null(strstr(out, "! shaky: base 1 run, fast 1 run"));
	free(out);
}

/* One statistic (issue 68): a run whose targets cover every call -- a clear
 * win, a clear loss, a twin the same within the margin, a noisy near-tie,
 * and a 10% loss that one look of Welch's test would call but the rule,
 * which pays for its looks, leaves open after 3 rounds -- on a metric of
 * each direction.  Every view must say what the rule says: the text chart
 * and ratio table's mark, JSON's verdict, the HTML answer's colour, the
 * answer's counts, and no "fastest" anywhere.  The bug it catches: the
 * Summary's Welch marks ("0.86+*") beside an undecided verdict. */
static void test_views_agree_with_verdicts(void **state)
{
	(void)state;
	static const char *const labels[] = { "base", "win", "loss", "twin", "noisy", "welch" };
	static const double centre[] = { 100, 150, 60, 100.2, 105, 90 };
	static const double cv[] = { 0.01, 0.01, 0.01, 0.01, 0.15, 0.03 };
	enum { K = 6, ROUNDS = 3 };
	struct store *s;
	struct result *r;
	int64_t run, test, tid[K];
	struct r_metric m[2] = {
		{ "rate", "ops/s", "Rate", 1, 1, 0 },
		{ "time", "s", "Time", -1, 0, 0 },
	};
	struct r_test t = { .name = "agree", .workload = "fsmark", .params = "x=1",
			    .title = "Agree", .subtitle = "", .nmetrics = 2, .metrics = m,
			    .margin = 0.03, .looks = verdict_looks(20) };

	unlink(path);
	assert_int_equal(store_open(path, &s), 0);
	assert_int_equal(store_begin_run(s, &(struct run_begin){ .label = "agree",
					 .cmdline = "fsbench run agree", .version = "test" }, &run), 0);
	for (int i = 0; i < K; i++) {
		struct r_target tg = { .label = (char *)labels[i], .path = "/tmp/x", .kind = "dir",
				       .fstype = "ext4", .mount_point = "/", .mount_source = "/dev/vda",
				       .mount_opts = "rw", .disk = "1GB (vda)", .scheduler = "none" };
		assert_int_equal(store_add_target(s, run, i, &tg, &tid[i]), 0);
	}
	assert_int_equal(store_add_test(s, run, 0, &t, &test), 0);
	/* the same three deviations, each target in its own phase (twin in
	 * base's: a steady 0.2% apart), so "welch" is significant at one look
	 * of Welch's test and not at the rule's first */
	static const double dev[ROUNDS] = { -1.2, 0.1, 1.1 };
	for (int rep = 0; rep < ROUNDS; rep++)
		for (int i = 0; i < K; i++) {
			double x = centre[i] * (1 + cv[i] * dev[(rep + i) % ROUNDS]);
			double v[2] = { x, 1000 / x };
			struct r_sample sm = { rep + 1, 1.5, 0.1, 0.2, 20, 35, v };
			assert_int_equal(store_add_sample(s, test, tid[i], &sm, 2), 0);
		}
	assert_int_equal(store_finish_run(s, run, "complete"), 0);
	assert_int_equal(store_load_run(s, run, &r), 0);
	store_close(s);

	struct report_opts o = { 200, 0, NULL, 1 };
	char *text = NULL, *json = NULL, *html = NULL, *md = NULL;
	RENDER(text, report_text(f, r, &o));
	RENDER(json, report_json(f, r, NULL));
	RENDER(html, report_html(f, &r, 1, NULL));
	RENDER(md, report_markdown(f, r, &o));
	json_error_t err;
	json_t *doc = json_loads(json, 0, &err);
	assert_non_null(doc);
	const struct r_test *rt = &r->tests[0];
	enum report_call seen[K];
	int counts[5] = { 0 };
	for (int mi = 0; mi < 2; mi++)
		for (int i = 1; i < K; i++) {
			struct report_speed q;
			char x[32], want[64];
			assert_int_equal(report_speed(rt, i, 0, mi, &q), 0);
			if (mi == 0) {
				seen[i] = q.call;
				counts[q.call]++;
			}
			/* the chart row and the ratio table say the rule's call */
			report_speed_text(&q, x, sizeof(x), 0);
			snprintf(want, sizeof(want), ", %s%c", x, report_call_mark(q.call));
			const char *chart = strstr(text, mi ? "s < Lower Is Better" : "ops/s > Higher");
			assert_non_null(chart);
			const char *row = line_starting(chart, labels[i]);
			assert_non_null(row);
			if (!strstr(row, want) || strstr(row, want) > strchr(row, '\n'))
				fail_msg("chart row of %s (metric %d) lacks \"%s\"", labels[i], mi, want);
			snprintf(want, sizeof(want), "%s%c", x, report_call_mark(q.call));
			row = line_starting(strstr(text, "agree: speed against base"), labels[i]);
			assert_non_null(row);
			if (!strstr(row, want) || strstr(row, want) > strchr(row, '\n'))
				fail_msg("ratio row of %s lacks \"%s\"", labels[i], want);
			/* JSON */
			json_t *res_i = json_array_get(json_object_get(json_array_get(json_object_get(
				json_array_get(json_object_get(doc, "tests"), 0), "metrics"), mi),
				"results"), i);
			assert_string_equal(json_string_value(json_object_get(json_object_get(res_i,
				"ratio_to_baseline"), "verdict")), report_call_word(q.call));
		}
	/* every call is covered, and the rule's own verdicts against the
	 * baseline are the same calls */
	assert_int_equal(seen[1], REPORT_FASTER);
	assert_int_equal(seen[2], REPORT_SLOWER);
	assert_int_equal(seen[3], REPORT_SAME);
	assert_int_equal(seen[4], REPORT_OPEN);
	assert_int_equal(seen[5], REPORT_OPEN);
	struct stats_check { struct summary a, b; } w;
	result_summary(rt, 5, 0, &w.a);
	result_summary(rt, 0, 0, &w.b);
	assert_int_not_equal(stats_ratio(&w.a, &w.b).verdict, 0);	/* one look would call it */
	struct report_verdict vd[REPORT_MAX_VERDICTS];
	int nv = report_verdicts(r, rt, 0, vd, REPORT_MAX_VERDICTS);
	for (int q = 0; q < nv; q++)
		if (vd[q].b == 0) {
			enum verdict_kind k = vd[q].v.kind;
			enum report_call c = seen[vd[q].a];
			assert_true((k == VERDICT_GREATER && c == REPORT_FASTER) ||
				    (k == VERDICT_SMALLER && c == REPORT_SLOWER) ||
				    (k == VERDICT_EQUIVALENT && c == REPORT_SAME) ||
				    (k == VERDICT_UNDECIDED && c == REPORT_OPEN));
		}
	/* the HTML answer's cells: the rule's colour, and only it */
	static const char *const cls[] = { "noise", "faster", "slower", "same", "noise" };
	for (int i = 1; i < K; i++) {
		char want[128];
		snprintf(want, sizeof(want), "<td class=\"num %s\" data-label=\"%s\">", cls[seen[i]],
			 labels[i]);
		if (!strstr(html, want))
			fail_msg("HTML answer: no %s", want);
	}
	/* the answer's counts are the calls; nothing is called "fastest" */
	json_t *ov = json_object_get(json_object_get(doc, "answer"), "overall");
	for (size_t k = 0; k < json_array_size(ov); k++) {
		json_t *e = json_array_get(ov, k);
		const char *lab = json_string_value(json_object_get(e, "target"));
		for (int i = 1; i < K; i++)
			if (!strcmp(lab, labels[i])) {
				assert_int_equal(json_integer_value(json_object_get(e, "faster")),
						 seen[i] == REPORT_FASTER);
				assert_int_equal(json_integer_value(json_object_get(e, "same")),
						 seen[i] == REPORT_SAME);
				assert_int_equal(json_integer_value(json_object_get(e, "open")),
						 seen[i] == REPORT_OPEN);
			}
	}
	assert_int_equal(counts[REPORT_OPEN], 2);
	for (const char *const *v = (const char *const[]){ text, html, md, json, NULL }; *v; v++)
		assert_null(strstr(*v, "fastest"));
	/* the ranking joins twin and base as the same, base and welch open */
	assert_non_null(strstr(text, "twin = base ?1.1"));
	json_decref(doc);
	free(text);
	free(json);
	free(html);
	free(md);
	result_free(r);
}

static void test_golden_views(void **state)
{
	(void)state;
	golden("compact.txt", 0);
	golden("verbose.txt", 1);
}

/* Runs that drift in two tests are one warning of the answer, naming both
 * tests and their drifting targets, and a chart whose only reason is drift
 * says "drifting" once (the bug it catches: one warning a test, three
 * lines each, and a chart's "drifting" a target, which took a noisy `make
 * run` past 150 lines). */
static void test_answer_drift_once(void **state)
{
	(void)state;
	static double v[2][2][12];
	static struct r_sample smp[2][2][12];
	struct r_cell cells[2][2];
	struct r_metric met = { "files_per_sec", "files/s", "Files/s", 1, 1, 0 };
	struct r_test tests[2];
	struct r_target tg[2] = { { .label = "a", .fstype = "ext4" }, { .label = "b", .fstype = "ext4" } };
	struct result r = { .ntargets = 2, .targets = tg, .ntests = 2, .tests = tests };
	struct report_answer a;

	for (int ti = 0; ti < 2; ti++) {
		for (int i = 0; i < 2; i++) {
			for (int k = 0; k < 12; k++) {
				/* a falls steadily (-16%); b is flat but for a wobble */
				v[ti][i][k] = i == 0 ? 100 - 2 * k : 100 + (k % 2);
				smp[ti][i][k] = (struct r_sample){ .rep = k + 1, .wall = 1, .values = &v[ti][i][k] };
			}
			cells[ti][i] = (struct r_cell){ 12, smp[ti][i], NULL, 0 };
		}
		tests[ti] = (struct r_test){ .name = ti ? "two" : "one", .workload = "fsmark",
					     .title = "t", .subtitle = "s", .nmetrics = 1, .metrics = &met,
					     .cells = cells[ti], .margin = 0.03, .looks = 9, .show = "" };
	}
	assert_int_equal(report_answer_make(&r, 0, &a), 0);
	int drifts = 0;
	for (int w = 0; w < a.nwarnings; w++)
		if (strstr(a.warnings[w], "drift")) {
			drifts++;
			assert_non_null(strstr(a.warnings[w], "): one a -16%; two a -16%"));
		}
	assert_int_equal(drifts, 1);
	report_answer_free(&a);
	/* the chart's line says "drifting" once when it is every reason */
	struct report_opts o = { 80, 0, NULL, 0 };
	char *out = NULL;
	RENDER(out, report_chart(f, &r, 0, 0, &o));
	assert_non_null(strstr(out, "\n! shaky, runs drifting: a -16%\n"));
	free(out);
}

/* The brief target lines: a medium every target shares is said once, and
 * a mkfs command loses the loop device it ran on (gone after the run);
 * targets on different media keep theirs each.  The bugs it catches: the
 * header said over media that differ, or a mkfs cut where its last word
 * is not the device. */
static void test_brief_targets(void **state)
{
	(void)state;
	struct report_opts o = { 80, 0, NULL, 0 };
	char *saved[3][3], *out = NULL;
	static char *disks[] = { "1.1GB loop (direct-io, no discard) on /var/tmp/a/fs.img (loop0)",
				 "1.1GB loop (direct-io, no discard) on /var/tmp/b/fs.img (loop1)",
				 "1.1GB loop (direct-io, no discard) on /var/tmp/c/fs.img (loop2)" };
	static char *mkfs[] = { "mkfs.ext4 -q -F /dev/loop0", "mkfs.xfs -q -f /dev/loop1",
				"mkfs.btrfs -q /dev/loop7" };
	static char *src[] = { "/dev/loop0", "/dev/loop1", "/dev/loop2" };

	assert_int_equal(res->ntargets, 3);
	for (int i = 0; i < 3; i++) {
		struct r_target *t = &res->targets[i];
		saved[i][0] = t->disk, saved[i][1] = t->mkfs, saved[i][2] = t->mount_source;
		t->disk = disks[i], t->mkfs = mkfs[i], t->mount_source = src[i];
	}
	RENDER(out, report_system(f, res, &o));
	assert_non_null(strstr(out, "\nEach on 1.1GB loop (direct-io, no discard):\n"
				    "base: ext4, mkfs.ext4 -q -F\nfast: ext4, mkfs.xfs -q -f\n"
				    "same: ext4, mkfs.btrfs -q /dev/loop7\n"));
	assert_null(strstr(out, "/var/tmp"));
	free(out);
	res->targets[2].disk = "4GB tmpfs";	/* media that differ: each its own */
	RENDER(out, report_system(f, res, &o));
	assert_null(strstr(out, "Each on"));
	assert_non_null(strstr(out, "\nbase: ext4 on 1.1GB loop (direct-io, no discard), mkfs.ext4 -q -F\n"));
	assert_non_null(strstr(out, "\nsame: ext4 on 4GB tmpfs, mkfs.btrfs -q /dev/loop7\n"));
	free(out);
	for (int i = 0; i < 3; i++) {
		struct r_target *t = &res->targets[i];
		t->disk = saved[i][0], t->mkfs = saved[i][1], t->mount_source = saved[i][2];
	}
}

/* Runs that fall steadily get a warning, whether or not their interval met
 * the target; the same values in an order with no trend do not. */
static void test_drift_warning(void **state)
{
	(void)state;
	static const int mixed[12] = { 5, 0, 7, 10, 2, 9, 11, 3, 6, 1, 8, 4 };
	double v[12], w[12];
	struct r_sample smp[12];
	struct r_cell cell = { 12, smp, NULL };
	struct r_test t = { .cells = &cell, .precision = 0.03 };
	char warn[512];

	for (int k = 0; k < 12; k++) {
		v[k] = 100 - 2 * k;	/* S = -66: p = 8.3e-6; last third 81, first 97 */
		smp[k] = (struct r_sample){ .rep = k, .values = &v[k] };
	}
	assert_true(report_warning(&t, 0, 0, warn, sizeof(warn), 0));
	assert_non_null(strstr(warn, "+-"));	/* the interval missed ±3% too */
	assert_non_null(strstr(warn, "; the runs drift (the last third -16% from the first, "
				     "trend p=8.3e-06)"));
	assert_true(report_warning(&t, 0, 0, warn, sizeof(warn), 1));
	assert_non_null(strstr(warn, ", drifting -16%"));
	t.precision = 0.1;	/* an interval within ±10% (±5.1%): the drift alone */
	assert_true(report_warning(&t, 0, 0, warn, sizeof(warn), 1));
	assert_string_equal(warn, "drifting -16%");
	t.precision = 0.03;
	for (int k = 0; k < 12; k++) {
		w[k] = v[mixed[k]];	/* S = -2: p = 0.95 */
		smp[k].values = &w[k];
	}
	assert_true(report_warning(&t, 0, 0, warn, sizeof(warn), 0));
	assert_null(strstr(warn, "drift"));
}

/* The live line's thread keeps a file table of its own with only the
 * standard streams, so the workloads' table is theirs alone (a shared
 * table costs each system call on a descriptor a reference count). */
static int count_fds(const char *where, int *highest)
{
	DIR *d = opendir(where);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	*highest = -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			n++;
			if (atoi(e->d_name) > *highest)
				*highest = atoi(e->d_name);
		}
	closedir(d);
	return n;
}

static void test_progress_file_table(void **state)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY), pts, saved = dup(2), highest = -1;
	char fds[128], other[300] = "";
	(void)state;

	assert_true(m >= 0 && saved >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	pts = open(ptsname(m), O_RDWR | O_NOCTTY);
	assert_true(pts >= 0);
	assert_true(dup2(pts, 2) == 2);
	setenv("TERM", "xterm", 1);
	struct progress *p = progress_start(0);
	/* find the ticker among the tasks, and wait for it to let go */
	for (int tries = 0; tries < 500; tries++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		other[0] = 0;
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && atoi(e->d_name) != (int)gettid())
				snprintf(other, sizeof(other), "%s", e->d_name);
		closedir(d);
		if (other[0]) {
			snprintf(fds, sizeof(fds), "/proc/self/task/%s/fd", other);
			count_fds(fds, &highest);
			if (highest <= 2)
				break;
		}
		usleep(10000);
	}
	int fd = open("/dev/null", O_RDONLY);	/* opened after: the ticker's table lacks it */
	assert_true(fd > 2);
	assert_true(other[0] != 0);
	assert_int_equal(count_fds(fds, &highest), 3);
	assert_int_equal(highest, 2);
	snprintf(fds, sizeof(fds), "/proc/self/task/%d/fd", (int)gettid());
	count_fds(fds, &highest);
	assert_true(highest >= fd);
	progress_stop(p);
	close(fd);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	close(pts);
	close(m);
}

/* A test's line counts its runs over all targets; a later pass's are more. */
static void test_progress_done_line(void **state)
{
	char tmpl[512], line[512] = "";
	snprintf(tmpl, sizeof(tmpl), "%s/fsbench-progress.XXXXXX", scratch_root());
	int fd = mkstemp(tmpl), saved = dup(2);
	(void)state;

	assert_true(fd >= 0 && saved >= 0);
	unlink(tmpl);
	assert_true(dup2(fd, 2) == 2);
	struct progress *p = progress_start(0);	/* stderr is a file: no live line */
	struct progress_done first = { 6, 0, 0, 0, 1, 1.5, 0.1, 0.03, 0 };
	struct progress_done later = { 4, 0, 1, 0, 0, 2.5, 0.02, 0.03, 1 };
	progress_test_done(p, "t", 2, &first);
	progress_test_done(p, "t", 2, &later);
	progress_stop(p);
	fflush(stderr);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	FILE *f = fdopen(fd, "r");
	assert_non_null(f);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, "t: done, 6 runs on 2 targets, 1.5 s; +-10.0%, missed"));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(strstr(line, "t: done, 4 more runs on 2 targets, 2.5 s; +-2.0%, within"));
	fclose(f);
}

/* A power-cut test's outcome table (report/outcome.c), from a stored run.
 * Catches: shares averaged per run instead of weighted by each run's
 * points (75.0 instead of 83.3), a finding line on a target that lost
 * nothing, the first finding or the kept name not read back from the
 * detail, the table missing from the text report, and a label reaching
 * the HTML unescaped; and speed words for it (a "fastest" target, a
 * verdict drawn from its share of clean points, the ratio tables by
 * default) where its summary is what each target lost. */
static void test_powercut_outcome(void **state)
{
	(void)state;
	struct store *s;
	struct result *pr;
	int64_t run, test, tids[2];
	static const char *const labels[2] = { "ext4", "nofsync<b>" };
	struct r_metric m[9] = {
		{ "promised_lost", "Items", "Promised files/rows lost", -1, 0 },
		{ "promised_bytes_lost", "Bytes", "Promised bytes lost", -1, 0 },
		{ "clean_pct", "%", "Points mounting clean", 1, 1 },
		{ "repaired_pct", "%", "Points needing repair", -1, 0 },
		{ "unmountable_pct", "%", "Points lost", -1, 0 },
		{ "pending_bytes_lost", "Bytes", "Bytes not yet promised, lost", -1, 0 },
		{ "recovery_ms_median", "ms", "Recovery time, median", -1, 0 },
		{ "recovery_ms_max", "ms", "Recovery time, worst", -1, 0 },
		{ "points", "Points", "Crash points checked", 1, 0 },
	};
	struct r_test t = { .name = "powercut", .workload = "powercut", .params = "shape=fsync",
			    .title = "Power Cut", .subtitle = "Shape: fsync", .nmetrics = 9,
			    .metrics = m };
	/* ext4: 32 points all clean, then 16 half needing repair; the other:
	 * 3 of 32 lost, 1200 promised files gone */
	double v[3][9] = {
		{ 0, 0, 100, 0, 0, 4096, 10, 20, 32 },
		{ 0, 0, 50, 50, 0, 0, 30, 90, 16 },
		{ 1200, 19660800, 90.625, 0, 9.375, 8192, 12, 15, 32 },
	};
	char *text = NULL, *html = NULL, *md = NULL;
	struct report_opts o = { .width = 160 };

	assert_int_equal(store_open(path, &s), 0);
	assert_int_equal(store_begin_run(s, &(struct run_begin){ .label = "pc",
					 .cmdline = "fsbench run powercut", .version = "test" }, &run), 0);
	for (int i = 0; i < 2; i++) {
		struct r_target tg = { .label = (char *)labels[i], .path = "/tmp/x", .kind = "image",
				       .fstype = "ext4", .mount_point = "/m", .mount_source = "/dev/loop0",
				       .mount_opts = "rw", .disk = "1GB", .scheduler = "none" };
		assert_int_equal(store_add_target(s, run, i, &tg, &tids[i]), 0);
	}
	assert_int_equal(store_add_test(s, run, 0, &t, &test), 0);
	for (int k = 0; k < 3; k++) {
		struct r_sample sm = { k < 2 ? k + 1 : 1, 40, 1, 2, 10, 20, v[k] };
		if (k == 2)
			sm.detail = "log: 900 entries\npoints: 32\nclean 29, needed repair 0, no mount 3; "
				    "promised lost 1200, first: flush at entry 41: f17 missing\n"
				    "kept: nofsync_b_-fsync-seed1-Ab12Cd (in the findings directory)\n";
		assert_int_equal(store_add_sample(s, test, tids[k < 2 ? 0 : 1], &sm, 9), 0);
	}
	assert_int_equal(store_finish_run(s, run, "complete"), 0);
	assert_int_equal(store_load_run(s, run, &pr), 0);
	store_close(s);

	assert_true(report_has_outcome(&pr->tests[0]));
	assert_false(report_has_outcome(&res->tests[0]));	/* fs_mark's: none */
	RENDER(text, report_text(f, pr, &o));
	const char *table = strstr(text, "Power-cut outcome");
	assert_non_null(table);
	const char *row = line_starting(table, "ext4 ");
	assert_non_null(row);
	assert_non_null(strstr(row, "    48    83.3       16.7        0.0"));
	row = line_starting(table, "nofsync<b> ");
	assert_non_null(row);
	assert_non_null(strstr(row, "1200 (18.8 MiB)"));
	assert_non_null(strstr(row, "!!"));
	const char *fl = strstr(text, "!! FINDING: ");
	assert_non_null(fl);
	assert_null(strstr(fl + 1, "!! FINDING: "));	/* one: ext4 lost nothing */
	assert_non_null(strstr(fl, "nofsync<b> lost 1200 promised files/rows (18.8 MiB), 3 of 32 "
				   "points did not mount even after repair; first: flush at entry 41: "
				   "f17 missing; image and log kept as nofsync_b_-fsync-seed1-Ab12Cd"));
	const char *sum = strstr(text, "\nAnswer:\n");
	assert_non_null(sum);
	assert_non_null(strstr(sum, "power cut, promised items lost"));
	assert_non_null(strstr(sum, "ext4 0 lost (83.3% clean, 16.7% repaired)"));
	assert_non_null(strstr(sum, "nofsync<b> 1200 lost (90.6% clean, 9.4% no"));	/* wrapped */
	assert_non_null(strstr(sum, "mount) !!"));
	assert_null(strstr(text, "fastest"));
	assert_null(strstr(text, "Verdicts"));
	assert_null(strstr(text, "speed against ext4"));
	assert_null(strstr(text, "best first"));	/* no ranking's legend: no speed test */
	struct report_verdict vd[4];
	assert_int_equal(report_verdicts(pr, &pr->tests[0], 0, vd, 4), 0);
	RENDER(md, report_markdown(f, pr, &o));
	assert_non_null(strstr(md, "| ext4 | 48 | 83.3 | 16.7 | 0.0 | 0 (0 B) | 4.0 KiB | 20.0 | 90.0 |"));
	assert_null(strstr(md, "Verdicts"));
	RENDER(html, report_html(f, &pr, 1, NULL));
	assert_non_null(strstr(html, "Power-cut outcome"));
	assert_non_null(strstr(html, "nofsync&lt;b&gt; lost 1200"));
	assert_non_null(strstr(html, "power cut, promised items lost: ext4 0 lost"));
	assert_null(strstr(html, "nofsync<b>"));
	free(text);
	free(md);
	free(html);
	result_free(pr);
}

/* Seed 003's groups: a target's algorithm is read from the options it
 * was mounted with (btrfs's compress=zstd:3, F2FS's compress_algorithm=;
 * compress_extension= is not one), the groups are "without compression",
 * each filesystem with a compressed variant, and each algorithm found on
 * two targets.  The bug it catches: one flat chart of every target, the
 * seed's three questions unanswered (issue 40). */
static void test_compression_groups(void **state)
{
	(void)state;
	struct r_target tg[6] = {
		{ .label = "xfs", .fstype = "xfs", .mount_opts = "rw,relatime,attr2" },
		{ .label = "btrfs", .fstype = "btrfs", .mount_opts = "rw,relatime,space_cache=v2" },
		{ .label = "btrfs-lzo", .fstype = "btrfs", .mount_opts = "rw,compress=lzo,ssd" },
		{ .label = "btrfs-zstd", .fstype = "btrfs", .mount_opts = "rw,compress-force=zstd:3" },
		{ .label = "f2fs-zstd", .fstype = "f2fs",
		  .mount_opts = "rw,compress_algorithm=zstd:6,compress_extension=*" },
		{ .label = "f2fs", .fstype = "f2fs", .mount_opts = "rw,compress_extension=*",
		  .spec = "f2fs" },
	};
	struct result r = { .targets = tg, .ntargets = 6 };
	struct report_group g[8];
	char algo[32];

	report_target_compression(&tg[3], algo, sizeof(algo));
	assert_string_equal(algo, "zstd");
	report_target_compression(&tg[5], algo, sizeof(algo));
	assert_string_equal(algo, "none");
	tg[5].mount_opts = NULL;	/* no mount recorded: the spec's mount= */
	tg[5].spec = "f2fs:mount=compress_algorithm=lz4";
	report_target_compression(&tg[5], algo, sizeof(algo));
	assert_string_equal(algo, "lz4");
	tg[5].mount_opts = "rw,compress_extension=*";
	tg[5].spec = "f2fs";
	assert_int_equal(report_compression_groups(&r, g, 8), 4);
	assert_string_equal(g[0].title, "Without compression: each filesystem");
	assert_int_equal(g[0].n, 3);
	assert_int_equal(g[0].idx[0], 0);
	assert_int_equal(g[0].idx[1], 1);
	assert_int_equal(g[0].idx[2], 5);
	assert_string_equal(g[1].title, "btrfs: each compression algorithm");
	assert_int_equal(g[1].n, 3);
	assert_string_equal(g[2].title, "f2fs: each compression algorithm");
	assert_int_equal(g[2].n, 2);
	assert_string_equal(g[3].title, "zstd: each filesystem");	/* lzo is on one target */
	assert_int_equal(g[3].n, 2);
	assert_int_equal(g[3].idx[0], 3);
	assert_int_equal(g[3].idx[1], 4);
	/* The page draws each group's throughput and its CPU: bonnie's two
	 * K/s columns with their CPU beside them, two runs on every target. */
	struct r_metric met[4] = {
		{ .name = "putc", .unit = "K/s", .label = "char out", .direction = 1 },
		{ .name = "putc_cpu", .unit = "%CPU", .label = "char out CPU", .direction = -1 },
		{ .name = "put_block", .unit = "K/s", .label = "block out", .direction = 1, .primary = 1 },
		{ .name = "put_block_cpu", .unit = "%CPU", .label = "block out CPU", .direction = -1 },
	};
	double vals[6][2][4];
	struct r_sample smp[6][2];
	struct r_cell cell[6];
	for (int i = 0; i < 6; i++) {
		for (int k = 0; k < 2; k++) {
			for (int m = 0; m < 4; m++)
				vals[i][k][m] = 1000.0 * (i + 1) + 10 * m + k;
			smp[i][k] = (struct r_sample){ .rep = k + 1, .wall = 1, .values = vals[i][k] };
		}
		cell[i] = (struct r_cell){ .nsamples = 2, .samples = smp[i] };
	}
	for (int i = 0; i < 6; i++) {	/* a stored target's every string */
		char **str[] = { &tg[i].path, &tg[i].kind, &tg[i].mount_point, &tg[i].mount_source,
				 &tg[i].disk, &tg[i].scheduler, &tg[i].spec, &tg[i].mkfs };
		for (size_t k = 0; k < sizeof(str) / sizeof(str[0]); k++)
			if (!*str[k])
				*str[k] = "";
	}
	struct r_test t = { .name = "bonnie", .workload = "bonnie", .params = "", .title = "Bonnie++",
			    .subtitle = "", .nmetrics = 4, .metrics = met, .cells = cell };
	struct result run = { .started = "", .finished = "", .label = "", .cmdline = "", .version = "",
			      .status = "complete", .note = "", .targets = tg, .ntargets = 6, .ntests = 1,
			      .tests = &t };
	struct result *one = &run;
	char *html = NULL;
	RENDER(html, report_html(f, &one, 1, NULL));
	const char *by = strstr(html, "<h3>By compression");
	assert_non_null(by);
	int groups = 0, charts = 0;
	for (const char *p = by; (p = strstr(p, "<h4 class=\"group\">")); p++)
		groups++;
	for (const char *p = by; (p = strstr(p, "<svg class=\"chart grouped wide\"")); p++)
		charts++;
	assert_int_equal(groups, 4);
	assert_int_equal(charts, 8);	/* throughput and CPU, each group (and a phone's copy) */
	/* the first group's throughput chart: 2 columns x its 3 targets */
	const char *c0 = strstr(by, "<svg class=\"chart grouped"), *e0 = strstr(c0, "</svg>");
	int bars = 0;
	for (const char *p = c0; (p = strstr(p, "<rect class=\"bar\"")) && p < e0; p++)
		bars++;
	assert_int_equal(bars, 6);
	assert_non_null(strstr(c0, "data-unit=\"K/s\""));
	free(html);
	/* the text printout: the same groups as tables, K/s then %CPU */
	struct report_opts o = { 200, 0, NULL, 1 };
	char *text = NULL;
	RENDER(text, report_text(f, &run, &o));
	const char *tb = strstr(text, "By compression (seed 003's groups; K/s, then %CPU)");
	assert_non_null(tb);
	tb = strstr(tb, "\nbtrfs: each compression algorithm\n");
	assert_non_null(tb);
	assert_non_null(strstr(tb, "\nbtrfs-zstd  "));
	assert_non_null(strstr(tb, "4020"));	/* its block out: (4020 + 4021) / 2 */
	free(text);
	/* nothing compressed: no groups, the flat charts say it all */
	tg[2].mount_opts = tg[3].mount_opts = tg[4].mount_opts = "rw";
	assert_int_equal(report_compression_groups(&r, g, 8), 0);
	RENDER(html, report_html(f, &one, 1, NULL));
	assert_null(strstr(html, "By compression"));
	free(html);
	RENDER(text, report_text(f, &run, &o));
	assert_null(strstr(text, "By compression"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chart_shape),
		cmocka_unit_test(test_tables_and_marks),
		cmocka_unit_test(test_json_document),
		cmocka_unit_test(test_views_agree_with_verdicts),
		cmocka_unit_test(test_one_run_no_interval),
		cmocka_unit_test(test_no_figure_reason),
		cmocka_unit_test(test_table_dash_explained),
		cmocka_unit_test(test_csv_and_markdown),
		cmocka_unit_test(test_empty_baseline),
		cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_asymmetric_interval),
		cmocka_unit_test(test_drift_warning),
		cmocka_unit_test(test_brief_targets),
		cmocka_unit_test(test_answer_drift_once),
		cmocka_unit_test(test_golden_views),
		cmocka_unit_test(test_progress_file_table),
		cmocka_unit_test(test_progress_done_line),
		cmocka_unit_test(test_powercut_outcome),
		cmocka_unit_test(test_compression_groups),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
