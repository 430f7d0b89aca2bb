/*
 * verdict.c: the sequential rule of verdict.h -- the look schedule, the
 * error each look may spend, each pair's interval, and the decision.
 *
 * The intervals are on log x (rates and times are positive and skewed,
 * and a ratio is a difference of logs), from GSL's t quantiles through
 * stats_t_quantile.
 */
#include "verdict.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

/* The rounds the runner looks at: dense early, where a large difference
 * is settled, then about a quarter more each time, so a test of 20 rounds
 * has 9 looks to pay for and one of 1000 rounds 26. */
static const int schedule[] = { 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100,
				120, 150, 200, 250, 300, 400, 500, 600, 800, 1000 };
#define NSCHED ((int)(sizeof(schedule) / sizeof(schedule[0])))

int verdict_looks(int limit)
{
	int n = 1;	/* the limit itself: the runner stops there and looks */

	for (int i = 0; i < NSCHED && schedule[i] < limit; i++)
		n++;
	return n;
}

bool verdict_is_look(int n, int limit)
{
	if (n == limit)
		return true;
	for (int i = 0; i < NSCHED && schedule[i] < limit; i++)
		if (schedule[i] == n)
			return true;
	return false;
}

int verdict_next_look(int n, int limit)
{
	for (int i = 0; i < NSCHED && schedule[i] < limit; i++)
		if (schedule[i] > n)
			return schedule[i];
	return limit;
}

struct verdict_rule verdict_rule_for(int limit, double margin)
{
	struct verdict_rule r = { margin, verdict_looks(limit) };

	return r;
}

/* Which look of the rule's a verdict at n rounds is: the looks are the
 * schedule's first looks - 1 rounds and then the limit, so the count of
 * those below n.  A run stopped between looks (its budget spent) takes
 * the next look's place: that look never comes. */
static int look_index(const struct verdict_rule *rule, int n)
{
	int j = 0;

	while (j < rule->looks - 1 && j < NSCHED && schedule[j] < n)
		j++;
	return j;
}

double verdict_look_alpha(const struct verdict_rule *rule, int n)
{
	int looks = rule->looks > 1 ? rule->looks : 1, j = look_index(rule, n);

	if (looks == 1)
		return VERDICT_ALPHA;
	if (j == 0)
		return VERDICT_ALPHA * VERDICT_FIRST_SHARE;
	if (j == looks - 1)	/* with two looks, the middle's share too */
		return VERDICT_ALPHA * (looks == 2 ? 1 - VERDICT_FIRST_SHARE : VERDICT_LAST_SHARE);
	return VERDICT_ALPHA * (1 - VERDICT_FIRST_SHARE - VERDICT_LAST_SHARE) / (looks - 2);
}

static int has_pair(int (*pairs)[2], int n, int x, int y)
{
	int seen = 0;

	for (int q = 0; q < n; q++)
		seen |= (pairs[q][0] == x && pairs[q][1] == y) ||
			(pairs[q][0] == y && pairs[q][1] == x);
	return seen;
}

int verdict_pairs(const double *score, int k, int base, const int *ref, int (*pairs)[2])
{
	int n = 0, m = 0, *rank = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));

	if (!rank)
		return 0;
	for (int i = 0; i < k; i++)
		if (isfinite(score[i]))
			rank[m++] = i;
	for (int a = 1; a < m; a++)	/* insertion sort, best first */
		for (int b = a; b > 0 && score[rank[b]] > score[rank[b - 1]]; b--) {
			int t = rank[b];
			rank[b] = rank[b - 1];
			rank[b - 1] = t;
		}
	if (base >= 0 && base < k && isfinite(score[base]))
		for (int a = 0; a < m; a++)
			if (rank[a] != base) {
				pairs[n][0] = rank[a];
				pairs[n++][1] = base;
			}
	for (int a = 0; a + 1 < m; a++) {
		int x = rank[a], y = rank[a + 1];
		if (!has_pair(pairs, n, x, y)) {
			pairs[n][0] = x;
			pairs[n++][1] = y;
		}
	}
	/* a target against its own reference (aged against fresh), the
	 * reference second even where the ranking paired them already */
	for (int i = 0; ref && i < k; i++) {
		int j = ref[i], q = 0;
		if (j < 0 || j >= k || j == i || !isfinite(score[i]) || !isfinite(score[j]))
			continue;
		while (q < n && !(pairs[q][0] == j && pairs[q][1] == i) &&
		       !(pairs[q][0] == i && pairs[q][1] == j))
			q++;
		pairs[q][0] = i;
		pairs[q][1] = j;
		n += q == n;
	}
	free(rank);
	return n;
}

/* Mean and sample variance of log x; false when a value is not > 0. */
static bool log_moments(const double *x, int n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
		s += log(x[i]);
	}
	*mean = s / n;
	for (int i = 0; i < n; i++)
		ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
	return true;
}

/* One way of forming the interval: its centre (log ratio), the per-run
 * spread behind its standard error (se = spread / sqrt(n)) and its df. */
struct way {
	double centre, spread, df;
	int n;
	bool ok, by_round;
};

static struct way unpaired(const double *a, int na, const double *b, int nb)
{
	struct way w = { 0, 0, 0, 0, false, false };
	double ma, va, mb, vb;

	if (na < 2 || nb < 2 || !log_moments(a, na, &ma, &va) || !log_moments(b, nb, &mb, &vb))
		return w;
	double qa = va / na, qb = vb / nb, se = sqrt(qa + qb);
	int n = na < nb ? na : nb;
	w.centre = ma - mb;
	w.n = n;
	w.spread = se * sqrt(n);
	/* Welch-Satterthwaite; no spread at all: the pooled df */
	w.df = se > 0 ? (qa + qb) * (qa + qb) / (qa * qa / (na - 1) + qb * qb / (nb - 1))
		      : na + nb - 2;
	w.ok = true;
	return w;
}

static struct way per_round(const double *a, const double *b, int n)
{
	struct way w = { 0, 0, 0, 0, false, false };
	double s = 0, ss = 0;

	if (n < 2)
		return w;
	for (int i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i]))
			return w;
		s += log(a[i]) - log(b[i]);
	}
	w.centre = s / n;
	for (int i = 0; i < n; i++) {
		double d = log(a[i]) - log(b[i]) - w.centre;
		ss += d * d;
	}
	w.spread = sqrt(ss / (n - 1));
	w.df = n - 1;
	w.n = n;
	w.ok = w.by_round = true;
	return w;
}

/* How many ways look n may choose from: the narrower of the two (each at
 * half the look's share, which pays for the choice) at every look but the
 * last, where Welch's larger df matters most; at the last, where a near-tie
 * is called the same or not, the per-round way alone at the whole share. */
static int ways_at(const struct verdict_rule *rule, int n, bool both)
{
	return both && rule->looks > 1 && look_index(rule, n) < rule->looks - 1 ? 2 : 1;
}

/* The half-widths of an interval of way w at its look, its share split
 * over ways: two-sided at 1 - alpha (faster or slower) and the
 * equivalence one at 1 - 2 alpha (two one-sided tests). */
static void half_widths(const struct verdict_rule *rule, const struct way *w, int ways, double *h2,
			double *heq)
{
	double alpha = verdict_look_alpha(rule, w->n) / ways, se = w->spread / sqrt(w->n);

	*h2 = stats_t_quantile(1 - alpha / 2, w->df) * se;
	*heq = stats_t_quantile(1 - alpha, w->df) * se;
}

static enum verdict_kind decide(double centre, double h2, double heq, double margin)
{
	double m = log1p(margin);

	if (margin > 0 && centre - heq >= -m && centre + heq <= m)
		return VERDICT_EQUIVALENT;
	if (centre - h2 > 0)
		return VERDICT_GREATER;
	if (centre + h2 < 0)
		return VERDICT_SMALLER;
	return VERDICT_UNDECIDED;
}

/* A pair's way at its look and how many it was chosen from: by round when
 * the runs are paired and the look allows no choice, the narrower of the
 * two when it does, the two samples apart when not paired. */
static struct way pair_way(const double *a, int na, const double *b, int nb, bool paired,
			   const struct verdict_rule *rule, int *ways)
{
	struct way p = paired && na == nb ? per_round(a, b, na) : (struct way){ 0, 0, 0, 0, false, false };
	struct way u = unpaired(a, na, b, nb);

	*ways = p.ok && u.ok ? ways_at(rule, p.n, true) : 1;
	if (!p.ok)
		return u;
	if (*ways == 1 || !u.ok)
		return p;
	double p2, u2, eq;
	half_widths(rule, &p, 2, &p2, &eq);
	half_widths(rule, &u, 2, &u2, &eq);
	return p2 < u2 ? p : u;
}

struct verdict verdict_pair(const double *a, int na, const double *b, int nb, bool paired,
			    const struct verdict_rule *rule)
{
	struct verdict v = { VERDICT_NONE, NAN, NAN, NAN, na < nb ? na : nb, false };
	int ways;
	struct way w = pair_way(a, na, b, nb, paired, rule, &ways);
	double h2, heq;

	if (!w.ok)
		return v;
	half_widths(rule, &w, ways, &h2, &heq);
	v.paired = w.by_round;
	v.kind = decide(w.centre, h2, heq, rule->margin);
	double h = v.kind == VERDICT_EQUIVALENT ? heq : h2;
	v.ratio = exp(w.centre);
	v.lo = exp(w.centre - h);
	v.hi = exp(w.centre + h);
	return v;
}

int verdict_rounds_needed(const double *a, int na, const double *b, int nb, bool paired,
			  const struct verdict_rule *rule, int limit)
{
	struct verdict now = verdict_pair(a, na, b, nb, paired, rule);

	if (now.kind == VERDICT_NONE)
		return -1;
	if (now.kind != VERDICT_UNDECIDED)
		return 0;
	int ways;
	struct way w = pair_way(a, na, b, nb, paired, rule, &ways);
	if (!w.ok)
		return -1;
	/* the same way, centre and spread, more rounds: df grows with them */
	for (int n = verdict_next_look(w.n, limit); n <= limit;
	     n = n == limit ? limit + 1 : verdict_next_look(n, limit)) {
		struct way at = w;
		double h2, heq;
		at.df = w.df * (n - 1) / (w.n - 1 > 0 ? w.n - 1 : 1);
		at.n = n;
		half_widths(rule, &at, ways_at(rule, n, paired && na == nb), &h2, &heq);
		if (decide(w.centre, h2, heq, rule->margin) != VERDICT_UNDECIDED)
			return n - w.n;
	}
	return -1;
}
