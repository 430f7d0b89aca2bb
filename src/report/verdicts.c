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

static int primary(const struct r_test *t)
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

int report_verdicts(const struct result *r, const struct r_test *t, int base,
		    struct report_verdict *out, int max)
{
	int k = r->ntargets, m = primary(t), npairs, n = 0;

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
	for (int i = 0; i < k; i++) {
		struct summary s;
		result_summary(t, i, m, &s);
		score[i] = s.n && s.log_scale ? dir * s.lmean : NAN;
	}
	npairs = verdict_pairs(score, k, base, report_age_refs(r, ref) ? ref : NULL, pairs);
	struct verdict_rule rule = { t->looks > 0 ? t->margin : REPORT_MARGIN,
				     t->looks > 0 ? t->looks : 1 };
	for (int q = 0; q < npairs && n < max; q++) {
		int a = pairs[q][0], b = pairs[q][1];
		int na = t->cells[a].nsamples, nb = t->cells[b].nsamples;
		double *xa = calloc((size_t)na + 1, sizeof(double)), *xb = calloc((size_t)nb + 1,
										    sizeof(double));
		int *ra = calloc((size_t)na + 1, sizeof(int)), *rb = calloc((size_t)nb + 1, sizeof(int));
		if (xa && xb && ra && rb) {
			int fa = figures(t, a, m, xa, na, ra), fb = figures(t, b, m, xb, nb, rb);
			bool paired = fa == na && fb == nb && fa == fb;
			for (int i = 0; paired && i < fa; i++)
				paired = ra[i] == rb[i];
			out[n].a = a;
			out[n].b = b;
			out[n].direction = dir;
			out[n].margin = rule.margin;
			out[n].v = verdict_pair(xa, fa, xb, fb, paired, &rule);
			n++;
		}
		free(xa);
		free(xb);
		free(ra);
		free(rb);
	}
	free(score);
	free(pairs);
	free(ref);
	return n;
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
