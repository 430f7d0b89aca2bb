/*
 * verdicts.c: the answer a report opens with -- for each test, which
 * target is faster than which, by how much, or that two are the same
 * within the margin, or that it is not yet known.
 *
 * Recomputed from the stored samples of the primary metric with the rule
 * the runs stopped by (the test's margin and looks, core/verdict.h), so
 * every renderer and every later `show` says what the runner decided.  A
 * test stored without a rule (one target; --precision; before schema 6)
 * gets the same rule with one look, at the default margin: an interval
 * judged once, when the runs were done.
 */
#include "report.h"
#include "../core/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cell i's figures of metric m in run order, and whether each run gave
 * one (so that round r of two cells can be set side by side). */
static int figures(const struct r_test *t, int i, int m, double *x, int cap, int *reps)
{
	const struct r_cell *c = &t->cells[i];
	int n = 0;

	for (int s = 0; s < c->nsamples && n < cap; s++)
		if (isfinite(c->samples[s].values[m])) {
			reps[n] = c->samples[s].rep;
			x[n++] = c->samples[s].values[m];
		}
	return n;
}

int report_primary(const struct r_test *t)
{
	for (int m = 0; m < t->nmetrics; m++)
		if (t->metrics[m].primary)
			return m;
	return 0;
}

int report_age_refs(const struct result *r, int *ref)
{
	int any = 0;

	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *a = &r->targets[i];
		ref[i] = -1;
		for (int j = 0; a->aging && a->spec && j < r->ntargets && ref[i] < 0; j++) {
			const struct r_target *b = &r->targets[j];
			if (j != i && !b->aging && b->spec && !strcmp(a->spec, b->spec) &&
			    !strcmp(a->kind, "fs") && !strcmp(b->kind, "fs"))
				ref[i] = j;
		}
		any |= ref[i] >= 0;
	}
	return any;
}

/* The rule a test's runs stopped by; a test stored without one gets it
 * with one look at the default margin. */
static struct verdict_rule test_rule(const struct r_test *t)
{
	struct verdict_rule rule = { t->looks > 0 ? t->margin : REPORT_MARGIN,
				     t->looks > 0 ? t->looks : 1 };

	return rule;
}

/* Targets a and b on metric m by the rule, paired by round when every
 * run of both gave a figure in the same rounds of the same run. */
static struct verdict pair_verdict(const struct r_test *t, int a, int b, int m)
{
	struct verdict_rule rule = test_rule(t);
	int na = t->cells[a].nsamples, nb = t->cells[b].nsamples;
	double *xa = calloc((size_t)na + 1, sizeof(double)), *xb = calloc((size_t)nb + 1,
									    sizeof(double));
	int *ra = calloc((size_t)na + 1, sizeof(int)), *rb = calloc((size_t)nb + 1, sizeof(int));
	struct verdict v = { VERDICT_NONE, NAN, NAN, NAN, 0, false };

	if (xa && xb && ra && rb) {
		int fa = figures(t, a, m, xa, na, ra), fb = figures(t, b, m, xb, nb, rb);
		bool paired = fa == na && fb == nb && fa == fb && t->cells[a].run == t->cells[b].run;
		for (int i = 0; paired && i < fa; i++)
			paired = ra[i] == rb[i];
		v = verdict_pair(xa, fa, xb, fb, paired, &rule);
	}
	free(xa);
	free(xb);
	free(ra);
	free(rb);
	return v;
}

int report_speed(const struct r_test *t, int a, int b, int m, struct report_speed *q)
{
	struct summary sa, sb;

	memset(q, 0, sizeof(*q));
	q->speed = q->lo = q->hi = NAN;
	if (a < 0 || b < 0 || m < 0 || m >= t->nmetrics + t->ndevice)
		return -1;
	result_summary(t, a, m, &sa);
	result_summary(t, b, m, &sb);
	if (!sa.n || !sb.n)
		return -1;
	q->margin = test_rule(t).margin;
	if (a == b) {
		q->call = REPORT_SAME;
		q->speed = q->lo = q->hi = 1;
		q->n = sa.n;
		return 0;
	}
	struct verdict v = pair_verdict(t, a, b, m);
	int up = t->metrics[m].direction > 0;
	q->n = v.n;
	q->paired = v.paired;
	if (v.kind == VERDICT_NONE) {
		/* too few runs to judge: the ratio of the geometric means alone */
		q->call = REPORT_NOCALL;
		if (sa.log_scale && sb.log_scale)
			q->speed = exp(up ? sa.lmean - sb.lmean : sb.lmean - sa.lmean);
		return 0;
	}
	/* in "faster" terms: above 1, a does better, whatever the direction */
	q->speed = up ? v.ratio : 1 / v.ratio;
	q->lo = up ? v.lo : 1 / v.hi;
	q->hi = up ? v.hi : 1 / v.lo;
	q->call = v.kind == VERDICT_EQUIVALENT ? REPORT_SAME :
		  v.kind == VERDICT_UNDECIDED ? REPORT_OPEN :
		  (v.kind == VERDICT_GREATER) == up ? REPORT_FASTER : REPORT_SLOWER;
	return 0;
}

char report_call_mark(enum report_call c)
{
	return c == REPORT_FASTER ? '+' : c == REPORT_SLOWER ? '-' : c == REPORT_SAME ? '=' : '?';
}

const char *report_call_word(enum report_call c)
{
	static const char *const words[] = { "too few runs", "faster", "slower", "equivalent",
					      "undecided" };

	return words[c];
}

void report_factor(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.*f", x < 9.995 ? 2 : x < 99.95 ? 1 : 0, x);
}

void report_speed_text(const struct report_speed *q, char *buf, size_t len, int utf8)
{
	char f[32];

	if (!isfinite(q->speed) || !(q->speed > 0)) {
		snprintf(buf, len, "-");
		return;
	}
	report_factor(q->speed >= 1 ? q->speed : 1 / q->speed, f, sizeof(f));
	if (q->speed >= 1)
		snprintf(buf, len, "%s%s", utf8 ? "\xc3\x97" : "x", f);
	else
		snprintf(buf, len, "%s%s", utf8 ? "\xc3\xb7" : "/", f);
}

void report_speed_cell(const struct report_speed *q, char *buf, size_t len, int utf8)
{
	char x[32];

	if (!isfinite(q->speed) || !(q->speed > 0)) {	/* a figure of 0: no ratio */
		snprintf(buf, len, "n/a");
		return;
	}
	report_speed_text(q, x, sizeof(x), utf8);
	snprintf(buf, len, "%s%s%c", x, utf8 ? " " : "", report_call_mark(q->call));
}

void report_against(const struct r_test *t, int i, int base, int m, char *buf, size_t len,
		    int utf8)
{
	struct report_speed q;

	buf[0] = '\0';
	if (base >= 0 && i == base)
		snprintf(buf, len, "baseline");
	else if (base >= 0 && !report_speed(t, i, base, m, &q))
		report_speed_cell(&q, buf, len, utf8);
}

void report_speed_words(const struct report_speed *q, char *buf, size_t len)
{
	char f[32];

	if (!isfinite(q->speed) || !(q->speed > 0)) {
		snprintf(buf, len, "no ratio");
		return;
	}
	report_factor(q->speed >= 1 ? q->speed : 1 / q->speed, f, sizeof(f));
	snprintf(buf, len, "%sx %s", f, q->speed >= 1 ? "faster" : "slower");
}

int report_verdicts(const struct result *r, const struct r_test *t, int base,
		    struct report_verdict *out, int max)
{
	int k = r->ntargets, m = report_primary(t), npairs, n = 0;

	/* a power-cut test is judged by its losses (its outcome table), and
	 * no speed verdict is drawn from its shares of clean points */
	if (k < 2 || !t->nmetrics || base < 0 || report_has_outcome(t))
		return 0;
	double *score = calloc((size_t)k, sizeof(double));
	int (*pairs)[2] = calloc((size_t)VERDICT_MAX_PAIRS(k), sizeof(*pairs));
	int *ref = calloc((size_t)k, sizeof(int));
	if (!score || !pairs || !ref) {
		free(score);
		free(pairs);
		free(ref);
		return 0;
	}
	int dir = t->metrics[m].direction > 0 ? 1 : -1;
	report_scores(t, k, score);
	npairs = verdict_pairs(score, k, base, report_age_refs(r, ref) ? ref : NULL, pairs);
	for (int q = 0; q < npairs && n < max; q++) {
		out[n].a = pairs[q][0];
		out[n].b = pairs[q][1];
		out[n].direction = dir;
		out[n].margin = test_rule(t).margin;
		out[n].v = pair_verdict(t, out[n].a, out[n].b, m);
		n++;
	}
	free(score);
	free(pairs);
	free(ref);
	return n;
}

void report_scores(const struct r_test *t, int k, double *score)
{
	int m = report_primary(t), dir = t->nmetrics && t->metrics[m].direction > 0 ? 1 : -1;

	for (int i = 0; i < k; i++) {
		struct summary s;
		score[i] = NAN;
		if (!t->nmetrics)
			continue;
		result_summary(t, i, m, &s);
		score[i] = s.n && s.log_scale ? dir * s.lmean : NAN;
	}
}

/* A ratio's bound: two decimals; a whole number from 100 up (104, not
 * 1e+02); two significant digits below 0.01 (an interval from three noisy
 * runs reaches 1e-5 .. 1e4). */
static const char *bound(double x, char *buf, size_t len)
{
	if (x >= 100)
		snprintf(buf, len, "%.0f", x);
	else if (x < 0.01)
		snprintf(buf, len, "%.2g", x);
	else
		snprintf(buf, len, "%.2f", x);
	return buf;
}

void report_verdict_text(const struct result *r, const struct report_verdict *p, char *buf,
			 size_t len)
{
	char l[32], h[32];
	const struct verdict *v = &p->v;
	const char *a = r->targets[p->a].label, *b = r->targets[p->b].label;
	char rounds[48];

	snprintf(rounds, sizeof(rounds), "%d round%s%s", v->n, v->n == 1 ? "" : "s",
		 v->paired ? ", paired by round" : "");
	if (v->kind == VERDICT_NONE) {
		snprintf(buf, len, "%s vs %s: no verdict (fewer than 2 runs, or a figure not above 0)",
			 a, b);
		return;
	}
	/* in "better" terms: the better first, its factor, its interval */
	double g = p->direction > 0 ? v->ratio : 1 / v->ratio;
	double lo = p->direction > 0 ? v->lo : 1 / v->hi, hi = p->direction > 0 ? v->hi : 1 / v->lo;
	if (v->kind == VERDICT_EQUIVALENT) {
		snprintf(buf, len, "%s = %s within +-%g%% (95%% %s-%s, %s)", a, b, 100 * p->margin,
			 bound(lo, l, sizeof(l)), bound(hi, h, sizeof(h)), rounds);
		return;
	}
	if (v->kind == VERDICT_UNDECIDED) {
		snprintf(buf, len, "! %s vs %s undecided after %s (%s-%s)", a, b, rounds,
			 bound(lo, l, sizeof(l)), bound(hi, h, sizeof(h)));
		return;
	}
	if (g < 1) {	/* b is the faster: said that way round */
		const char *t = a;
		a = b;
		b = t;
		double inv = 1 / hi;
		hi = 1 / lo;
		lo = inv;
		g = 1 / g;
	}
	snprintf(buf, len, "%s %.2fx faster than %s (95%% %s-%s, %s)", a, g, b, bound(lo, l, sizeof(l)),
		 bound(hi, h, sizeof(h)), rounds);
}

int report_aged_cell(const struct result *r, const struct r_test *t, int i, int base, char *buf,
		     size_t len)
{
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));
	int *ref = calloc((size_t)r->ntargets + 1, sizeof(int)), found = -1;
	char l[32], h[32];

	if (!v || !ref || !report_age_refs(r, ref) || ref[i] < 0) {
		free(v);
		free(ref);
		return -1;
	}
	int n = report_verdicts(r, t, base, v, REPORT_MAX_VERDICTS);
	for (int q = 0; q < n && found < 0; q++)
		if (v[q].a == i && v[q].b == ref[i])
			found = q;
	if (found < 0 || v[found].v.kind == VERDICT_NONE) {
		snprintf(buf, len, "-");
	} else {
		const struct report_verdict *p = &v[found];
		/* in "better" terms: above 1, the aged one does better */
		double g = p->direction > 0 ? p->v.ratio : 1 / p->v.ratio;
		double lo = p->direction > 0 ? p->v.lo : 1 / p->v.hi;
		double hi = p->direction > 0 ? p->v.hi : 1 / p->v.lo;
		const char *word = p->v.kind == VERDICT_EQUIVALENT ? "same" :
				   p->v.kind == VERDICT_UNDECIDED ? "undecided" :
				   g < 1 ? "worse" : "better";
		snprintf(buf, len, "%.2f (%s-%s) %s", g, bound(lo, l, sizeof(l)),
			 bound(hi, h, sizeof(h)), word);
	}
	free(v);
	free(ref);
	return 0;
}
