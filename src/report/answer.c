/*
 * answer.c: the answer block -- which target is fastest here, by how much,
 * and how far that can be trusted -- in one block a person reads in
 * seconds: first in `show`, last in `run`, in every format.
 *
 * Every figure in it is the verdicts' rule's (verdicts.c): a test's ranking
 * is linked by the rule's neighbour verdicts, the overall figure is the
 * geometric mean of the rule's speed ratios to the baseline, and the
 * faster / same / slower / open counts are its calls.  Only the warnings
 * that change the answer are repeated here: a test the page cache served
 * (left out of the geometric mean), runs too short to time, runs that
 * drift, an emulated CPU, a failure.
 */
#define _GNU_SOURCE
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An open pair whose interval stays within this of 1 is close: more rounds
 * may yet call it the same; a wider one is not separated at all. */
#define ANSWER_CLOSE 0.10

/* Tests judged by speed: a power-cut test is judged by what it lost. */
static int speed_test(const struct r_test *t)
{
	return t->nmetrics > 0 && !report_has_outcome(t);
}

/* The part of a test's subtitle that warns ("! the page cache serves
 * much of it"), or NULL: such a test measured something other than the
 * medium, so its ratios stay out of the geometric mean. */
static const char *subtitle_warning(const struct r_test *t)
{
	const char *w = t->subtitle ? strstr(t->subtitle, "! ") : NULL;

	return w ? w + 2 : NULL;
}

static int add_warning(struct report_answer *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add_warning(struct report_answer *a, const char *fmt, ...)
{
	va_list ap;
	char **w = realloc(a->warnings, sizeof(char *) * (size_t)(a->nwarnings + 1));

	if (!w)
		return -1;
	a->warnings = w;
	va_start(ap, fmt);
	int n = vasprintf(&w[a->nwarnings], fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	a->nwarnings++;
	return 0;
}

/* The median of a cell's run times (the workload's own wall time). */
static double median_wall(const struct r_cell *c)
{
	double *x = malloc(sizeof(double) * (size_t)(c->nsamples + 1)), med = NAN;
	int n = 0;

	for (int k = 0; x && k < c->nsamples; k++)
		if (isfinite(c->samples[k].wall))
			x[n++] = c->samples[k].wall;
	if (n) {
		struct summary s;
		stats_summarize(x, n, &s);
		med = s.median;
	}
	free(x);
	return med;
}

/* A test's warnings.  Its runs too short to time are added to shorts
 * ("fio 0.13-0.14 s on ext4, xfs") and its drifting targets to drifts
 * ("leveldb xfs -16%, exfat-fuse -20%"): each said once for all tests, so
 * that a noisy machine costs the answer one warning, not one a test. */
static void test_warnings(struct report_answer *a, const struct result *r, int ti, char *shorts,
			  char *drifts, size_t cap)
{
	const struct r_test *t = &r->tests[ti];
	const char *sub = subtitle_warning(t);
	char who[1024];
	size_t used = 0, sused = strlen(shorts);
	double lo = INFINITY, hi = 0;
	int m = report_primary(t), nshort = 0;

	if (sub && speed_test(t))
		add_warning(a, "%s: %s (left out of the geometric mean)", t->name, sub);
	for (int i = 0; i < r->ntargets; i++) {
		double w = median_wall(&t->cells[i]);
		if (!(w < REPORT_SHORT_RUN) || used >= sizeof(who))
			continue;
		used += (size_t)snprintf(who + used, sizeof(who) - used, "%s%s", used ? ", " : "",
					 r->targets[i].label);
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
		nshort++;
	}
	char l[32], h[32];
	snprintf(l, sizeof(l), "%.2g", lo);
	snprintf(h, sizeof(h), "%.2g", hi);
	if (used && sused < cap)
		snprintf(shorts + sused, cap - sused, "%s%s %s%s%s s%s%s", sused ? "; " : "", t->name, l,
			 strcmp(l, h) ? "-" : "", strcmp(l, h) ? h : "",
			 nshort == r->ntargets ? "" : " on ", nshort == r->ntargets ? "" : who);
	used = 0;	/* the targets whose runs drift */
	for (int i = 0; t->nmetrics && i < r->ntargets && used < sizeof(who); i++) {
		double *x;
		int n = result_values(t, i, m, &x);
		struct trend tr = stats_trend(x, n);
		double limit = t->looks > 0 ? t->margin : REPORT_CV_LIMIT;
		free(x);
		if (tr.p < REPORT_TREND_P && fabs(tr.change) > limit)
			used += (size_t)snprintf(who + used, sizeof(who) - used, "%s%s %+.0f%%",
						 used ? ", " : "", r->targets[i].label,
						 100 * tr.change);
	}
	size_t dused = strlen(drifts);
	if (used && dused < cap)
		snprintf(drifts + dused, cap - dused, "%s%s %s", dused ? "; " : "", t->name, who);
	for (int i = 0; i < r->ntargets; i++)
		if (t->cells[i].failure)
			add_warning(a, "%s failed on %s", t->name, r->targets[i].label);
}

/* A test's targets ranked best first, and the links between neighbours. */
static int rank_test(const struct result *r, int ti, struct answer_test *at)
{
	const struct r_test *t = &r->tests[ti];
	int k = r->ntargets, m = report_primary(t);
	double *score = calloc((size_t)k, sizeof(double));

	at->test = ti;
	at->order = calloc((size_t)k, sizeof(int));
	at->link = calloc((size_t)k, sizeof(*at->link));
	if (!score || !at->order || !at->link) {
		free(score);
		return -1;
	}
	report_scores(t, k, score);
	for (int i = 0; i < k; i++)
		if (isfinite(score[i]))
			at->order[at->nranked++] = i;
	for (int x = 1; x < at->nranked; x++)	/* insertion sort, best first, stable */
		for (int y = x; y > 0 && score[at->order[y]] > score[at->order[y - 1]]; y--) {
			int tmp = at->order[y];
			at->order[y] = at->order[y - 1];
			at->order[y - 1] = tmp;
		}
	for (int q = 0; q + 1 < at->nranked; q++)
		report_speed(t, at->order[q], at->order[q + 1], m, &at->link[q]);
	free(score);
	return 0;
}

/* The pairs that matter (the runner's), counted by what the rule said. */
static void count_pairs(struct report_answer *a, const struct result *r, int ti,
			struct report_verdict *v)
{
	int n = report_verdicts(r, &r->tests[ti], a->base, v, REPORT_MAX_VERDICTS);

	for (int q = 0; q < n; q++) {
		const struct verdict *x = &v[q].v;
		a->pairs++;
		if (x->kind == VERDICT_NONE) {
			a->nocall++;
			continue;
		}
		a->min_rounds = a->min_rounds && a->min_rounds < x->n ? a->min_rounds : x->n;
		a->max_rounds = a->max_rounds > x->n ? a->max_rounds : x->n;
		if (x->kind == VERDICT_EQUIVALENT)
			a->same++;
		else if (x->kind != VERDICT_UNDECIDED)
			a->decided++;
		else {
			/* how far from 1 its interval still reaches, either way */
			double reach = fmax(x->hi, 1 / x->lo) - 1;
			a->open++;
			a->close += reach <= ANSWER_CLOSE;
			a->open_reach_hi = reach > a->open_reach_hi ? reach : a->open_reach_hi;
		}
	}
}

static void overall(struct report_answer *a, const struct result *r)
{
	int k = r->ntargets;

	for (int i = 0; i < k; i++) {
		struct answer_target *o = &a->overall[i];
		double logsum = 0;
		o->target = i;
		for (int ti = 0; ti < r->ntests; ti++) {
			const struct r_test *t = &r->tests[ti];
			struct report_speed q;
			if (!speed_test(t) || report_speed(t, i, a->base, report_primary(t), &q))
				continue;
			o->faster += q.call == REPORT_FASTER;
			o->slower += q.call == REPORT_SLOWER;
			o->same += q.call == REPORT_SAME && i != a->base;
			o->open += q.call == REPORT_OPEN || q.call == REPORT_NOCALL;
			if (subtitle_warning(t) || !(q.speed > 0) || !isfinite(q.speed))
				continue;
			logsum += log(q.speed);
			o->ntests++;
		}
		o->gmean = o->ntests ? exp(logsum / o->ntests) : NAN;
	}
	for (int x = 1; x < k; x++)	/* best first; no figure last */
		for (int y = x; y > 0; y--) {
			double gy = a->overall[y].gmean, gp = a->overall[y - 1].gmean;
			if (!(isfinite(gy) && (!isfinite(gp) || gy > gp)))
				break;
			struct answer_target tmp = a->overall[y];
			a->overall[y] = a->overall[y - 1];
			a->overall[y - 1] = tmp;
		}
}

int report_answer_make(const struct result *r, int base, struct report_answer *a)
{
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));

	memset(a, 0, sizeof(*a));
	a->base = base;
	a->overall = calloc((size_t)r->ntargets + 1, sizeof(*a->overall));
	a->tests = calloc((size_t)r->ntests + 1, sizeof(*a->tests));
	if (!v || !a->overall || !a->tests || base < 0) {
		free(v);
		report_answer_free(a);
		return -1;
	}
	for (int ti = 0; ti < r->ntests; ti++) {
		if (rank_test(r, ti, &a->tests[ti])) {
			free(v);
			report_answer_free(a);
			return -1;
		}
		a->ntests++;
		count_pairs(a, r, ti, v);
		a->speed_tests += speed_test(&r->tests[ti]);
	}
	free(v);
	overall(a, r);
	if (report_vm_warning(r))
		add_warning(a, "%s", report_vm_warning(r));
	char shorts[2048] = "", drifts[2048] = "";
	for (int ti = 0; ti < r->ntests; ti++)
		test_warnings(a, r, ti, shorts, drifts, sizeof(shorts));
	if (drifts[0])
		add_warning(a, "runs that drift, the last third against the first (the machine "
			    "changed; no interval counts it): %s", drifts);
	if (shorts[0])
		add_warning(a, "runs too short to time well (the median under %g s; a larger size or "
			    "--scale gives figures of the medium): %s", REPORT_SHORT_RUN, shorts);
	return 0;
}

void report_answer_free(struct report_answer *a)
{
	for (int ti = 0; a->tests && ti < a->ntests; ti++) {
		free(a->tests[ti].order);
		free(a->tests[ti].link);
	}
	for (int w = 0; w < a->nwarnings; w++)
		free(a->warnings[w]);
	free(a->warnings);
	free(a->tests);
	free(a->overall);
	memset(a, 0, sizeof(*a));
}

void report_link_text(const struct report_speed *q, char *buf, size_t len)
{
	char f[32];

	if (q->call == REPORT_SAME) {
		snprintf(buf, len, "=");
		return;
	}
	if (q->call == REPORT_NOCALL || !isfinite(q->speed)) {
		snprintf(buf, len, "?");
		return;
	}
	report_factor(q->speed >= 1 ? q->speed : 1 / q->speed, f, sizeof(f));
	snprintf(buf, len, "%s%s", q->call == REPORT_OPEN ? "?" : q->speed >= 1 ? ">" : "<", f);
}

void report_test_ranking(const struct result *r, const struct answer_test *at, char *buf,
			 size_t len)
{
	const struct r_test *t = &r->tests[at->test];
	size_t used = 0;

	buf[0] = '\0';
	if (report_has_outcome(t)) {
		char what[1536];
		if (!report_outcome_summary(r, at->test, what, sizeof(what)))
			snprintf(buf, len, "power cut, promised items lost: %s", what);
		return;
	}
	for (int q = 0; q < at->nranked && used < len; q++) {
		char link[32] = "";
		if (q + 1 < at->nranked)
			report_link_text(&at->link[q], link, sizeof(link));
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", r->targets[at->order[q]].label,
					 link[0] ? " " : "", link);
		if (q + 1 < at->nranked && used < len)
			buf[used++] = ' ', buf[used] = '\0';
	}
	/* the targets with no figure, each said once */
	int none = 0;
	for (int i = 0; i < r->ntargets && used < len; i++) {
		int ranked = 0;
		for (int q = 0; q < at->nranked; q++)
			ranked |= at->order[q] == i;
		if (ranked)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", none++ ? ", " : "; ",
					 r->targets[i].label,
					 t->cells[i].failure ? " failed" : " no figure");
	}
	if (!at->nranked && !none)
		snprintf(buf, len, "no figure");
}

/* "x1.08" or "/1.25"; "-" without a figure. */
static void gmean_text(double g, char *buf, size_t len, int utf8)
{
	struct report_speed q = { .speed = g };

	report_speed_text(&q, buf, len, utf8);
}

/* prefix as it is, then text's words wrapped at width, continuation lines
 * indented by indent; a ranking's link (">1.25") stays with the target
 * after it. */
static void wrap(FILE *f, const char *prefix, const char *text, int width, int indent)
{
	int col = fprintf(f, "%s", prefix), first = 1;

	for (const char *w = text; *w;) {
		int len = (int)strcspn(w, " ");
		if (!first && strchr("<>=?", *w) && w[len] == ' ')
			len += 1 + (int)strcspn(w + len + 1, " ");
		if (!first && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		first = 0;
		col += fprintf(f, "%.*s", len, w);
		w += len;
		while (*w == ' ')
			w++;
	}
	fputc('\n', f);
}

void report_answer_counts(const struct answer_target *o, char *buf, size_t len)
{
	size_t used = 0;
	const char *names[] = { "faster", "same", "slower", "open" };
	int n[] = { o->faster, o->same, o->slower, o->open };

	buf[0] = '\0';
	for (int k = 0; k < 4 && used < len; k++)
		if (n[k])
			used += (size_t)snprintf(buf + used, len - used, "%s%d %s", used ? ", " : "",
						 n[k], names[k]);
}

void report_answer_trust(const struct report_answer *a, char *buf, size_t len)
{
	size_t used;
	int all = a->pairs - a->nocall;

	used = (size_t)snprintf(buf, len, "%d of %d pairs decided (%d the same within the margin)",
				a->decided + a->same, all, a->same);
	char rounds[32], wide[96] = "";
	if (a->min_rounds == a->max_rounds)
		snprintf(rounds, sizeof(rounds), "%d", a->max_rounds);
	else
		snprintf(rounds, sizeof(rounds), "%d-%d", a->min_rounds, a->max_rounds);
	if (a->open > a->close)
		snprintf(wide, sizeof(wide), ", %d wider (up to %.3gx either way)", a->open - a->close,
			 1 + a->open_reach_hi);
	if (a->open && used < len)
		used += (size_t)snprintf(buf + used, len - used, "; %d open after %s rounds: %d within "
					 "+-%.0f%% (more rounds may call them the same)%s",
					 a->open, rounds, a->close, 100 * ANSWER_CLOSE, wide);
	if (a->nocall && used < len)
		snprintf(buf + used, len - used, "; %d with too few runs to judge", a->nocall);
}

void report_answer_text(FILE *f, const struct result *r, const struct report_opts *o, int md)
{
	struct report_answer a;
	int base = result_baseline(r, o->baseline);
	int width = md ? 100000 : o->width, lw = 0;
	char line[8192], g[32], counts[128];

	if (base < 0 || !r->ntests || report_answer_make(r, base, &a))
		return;
	double margin = 0;
	for (int ti = 0; ti < r->ntests; ti++)
		margin = r->tests[ti].looks > 0 ? r->tests[ti].margin : margin;
	if (!(margin > 0))
		margin = REPORT_MARGIN;
	int tw = 0;	/* the target column, and the test column */
	for (int i = 0; i < r->ntargets; i++)
		lw = (int)strlen(r->targets[i].label) > lw ? (int)strlen(r->targets[i].label) : lw;
	for (int ti = 0; ti < r->ntests; ti++)
		tw = (int)strlen(r->tests[ti].name) > tw ? (int)strlen(r->tests[ti].name) : tw;
	tw = tw > 24 ? 24 : tw;

	if (md)
		fprintf(f, "## Answer\n\n");
	else
		fprintf(f, "\n");
	if (a.speed_tests) {
		/* the tests in the mean (a page-cache test is left out of it,
		 * and its warning says so; the HTML's table counts the same) */
		int in_mean = 0;
		for (int k = 0; k < r->ntargets; k++)
			if (a.overall[k].target != base && a.overall[k].ntests > in_mean)
				in_mean = a.overall[k].ntests;
		snprintf(line, sizeof(line), "speed against %s (geometric mean, %d test%s) and the "
			 "verdicts' calls:", r->targets[base].label, in_mean, in_mean == 1 ? "" : "s");
		wrap(f, md ? "" : "Answer: ", line, width, 2);
		if (md)
			fprintf(f, "\n| target | speed | tests | calls |\n|---|---:|---:|---|\n");
		for (int k = 0; k < r->ntargets; k++) {
			const struct answer_target *t = &a.overall[k];
			char label[160];
			gmean_text(t->gmean, g, sizeof(g), md);
			report_answer_counts(t, counts, sizeof(counts));
			if (!t->ntests && t->target != base)	/* what its "-" stands for */
				snprintf(counts, sizeof(counts), "no figure in any test");
			snprintf(label, sizeof(label), "%s%s", r->targets[t->target].label,
				 md && t->target == base ? " (baseline)" : "");
			if (md)
				fprintf(f, "| %s | %s | %d | %s |\n", label, g, t->ntests,
					t->target == base ? "" : counts);
			else
				fprintf(f, "  %-*s %7s  %s\n", lw, label, g,
					t->target == base ? "the baseline" : counts);
		}
	} else if (!md) {
		fprintf(f, "Answer:\n");
	}
	snprintf(line, sizeof(line), "best first (>F faster by F, = same within +-%g%%, ?F not "
		 "separated):", 100 * margin);
	if (md)
		fprintf(f, "\nEach test, %s\n\n", a.speed_tests ? line : "");
	else if (a.speed_tests)
		wrap(f, "Each test, ", line, width, 2);
	for (int ti = 0; ti < r->ntests; ti++) {
		char rank[6000], prefix[160];
		report_test_ranking(r, &a.tests[ti], rank, sizeof(rank));
		if (md) {
			fprintf(f, "- **%s**: %s\n", r->tests[ti].name, rank);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "  %-*s  ", tw, r->tests[ti].name);
		wrap(f, prefix, rank, width, tw + 4);
	}
	if (a.pairs) {
		char trust[1024];
		report_answer_trust(&a, trust, sizeof(trust));
		snprintf(line, sizeof(line), "%s.", trust);
		if (md)
			fprintf(f, "\n**Trust:** %s\n", line);
		else
			wrap(f, "Trust: ", line, width, 2);
	}
	if (md && a.nwarnings)
		fputc('\n', f);
	for (int w = 0; w < a.nwarnings; w++) {
		if (md)
			fprintf(f, "- **!** %s\n", a.warnings[w]);
		else
			wrap(f, "! ", a.warnings[w], width, 2);
	}
	report_answer_free(&a);
}
