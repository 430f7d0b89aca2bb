/*
 * verdict.h: is A faster than B, slower, the same within a margin, or not
 * yet known -- decided so that looking after every round and stopping on
 * what is seen does not inflate the error (docs/results.md, "Verdicts").
 *
 * The rule: the runner looks only at a fixed schedule of rounds (3, 4, 5,
 * 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, ... up to the test's limit).  Look
 * j may spend alpha_j of the 5% error: a quarter of it at the first look
 * (few runs, where the t quantile is most sensitive to the error spent and
 * a large difference is settled), 35% at the last (where a near-tie is
 * called the same or not: the interval is as narrow as it will get), the
 * other 40% split evenly over the looks between.  A pair's interval for
 * the ratio of its geometric means is a Student t interval on the log
 * scale.  When the runs are paired by round, every look but the last takes
 * the narrower of two ways, from the per-round differences (which take out
 * a drift both share) or the two samples apart (Welch, more degrees of
 * freedom at few rounds), each at half the look's share to pay for the
 * choice; the last look takes the per-round way alone at its whole share.
 * Unpaired runs have Welch's way alone.  "Faster" or "slower" needs
 * the two-sided interval at level 1 - alpha_j to exclude 1; "the same"
 * needs the interval at 1 - 2 alpha_j to lie inside the margin: two
 * one-sided tests at alpha_j each (TOST), since a false "same" misses the
 * true ratio on one side only.  Every false call is a miss of the true
 * ratio by one of those bounds, and the shares sum to 5%, so by the union
 * bound (Bonferroni) the chance of a false "faster", "slower" or "same"
 * call for a pair, at any look, is at most 5%, whatever the stopping rule
 * does with the looks.  The guarantee is per pair, as a 95% interval's
 * is: of a test's several pairs, more than one in twenty may be wrong
 * together.
 *
 * A pair is decided when its equivalence interval lies inside the margin
 * [1/(1+m), 1+m] ("no practical difference"), or else its two-sided
 * interval excludes 1.
 */
#ifndef FSB_VERDICT_H
#define FSB_VERDICT_H

#include <stdbool.h>

#define VERDICT_ALPHA 0.05
#define VERDICT_FIRST_LOOK 3
#define VERDICT_FIRST_SHARE 0.25	/* of the error, spent at the first look */
#define VERDICT_LAST_SHARE 0.35	/* at the last (the limit) */

enum verdict_kind {
	VERDICT_UNDECIDED = 0,
	VERDICT_GREATER,	/* a's values are greater than b's */
	VERDICT_SMALLER,
	VERDICT_EQUIVALENT,	/* within the margin */
	VERDICT_NONE,		/* no interval: too few runs, or a value <= 0 */
};

struct verdict_rule {
	double margin;		/* 0.03: equivalent within +-3% */
	int looks;		/* looks in the schedule (verdict_looks) */
};

struct verdict {
	enum verdict_kind kind;
	double ratio, lo, hi;	/* geometric mean of a / of b, and the interval
				 * that decided (VERDICT_EQUIVALENT: the
				 * equivalence one; else the two-sided one) */
	int n;			/* runs of the smaller side */
	bool paired;		/* the per-round differences gave the interval */
};

/* Looks of the schedule up to and including limit rounds (a fixed number
 * of runs is one look); whether round n is one. */
int verdict_looks(int limit);
bool verdict_is_look(int n, int limit);
/* The next look after round n (limit when none is left before it). */
int verdict_next_look(int n, int limit);
/* The rule for a test whose runs stop at limit rounds. */
struct verdict_rule verdict_rule_for(int limit, double margin);
/* The error the rule spends on a verdict at n rounds (its look's share). */
double verdict_look_alpha(const struct verdict_rule *rule, int n);

/* The pairs that matter among k targets: each against the baseline, each
 * with its neighbour in the ranking by score (higher is better; NAN: left
 * out, a target with no figure), and each i with a reference ref[i] >= 0
 * against it (--compare-fresh: aged against fresh; ref may be NULL).
 * Fills pairs[][2] (room for 3 k), the better-ranked first in a neighbour
 * pair, the reference second; returns how many. */
#define VERDICT_MAX_PAIRS(k) (3 * (k))
int verdict_pairs(const double *score, int k, int base, const int *ref, int (*pairs)[2]);

/* a[0..na) and b[0..nb): one figure a run; when paired, a[r] and b[r] came
 * from the same round r (na == nb). */
struct verdict verdict_pair(const double *a, int na, const double *b, int nb, bool paired,
			    const struct verdict_rule *rule);

/* The rounds a still undecided pair would need, from the spread seen so
 * far: the first look whose interval, at this spread and centre, would be
 * decided; 0 when decided, -1 when no look up to the limit would do. */
int verdict_rounds_needed(const double *a, int na, const double *b, int nb, bool paired,
			  const struct verdict_rule *rule, int limit);

#endif
