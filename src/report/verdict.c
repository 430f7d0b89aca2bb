/*
 * verdict.c: what every renderer says about a cell, decided once.
 *
 * A ratio to the baseline exists only where both sides have a value, and
 * its mark is the verdicts' (verdicts.c); a warning says when a figure is
 * shaky: fewer than 3 runs, or a
 * 95% interval wider than the precision target the runs aimed at (for a
 * run stored without one, a coefficient of variation of 3% or more; for
 * runs that aimed at verdicts, an undecided verdict says it instead), or
 * runs that drift in the order they ran, by more than that target.
 * Text, Markdown, HTML and JSON all ask here, so they cannot disagree.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The trend of one cell's runs, in the order they ran (stats_trend). */
static struct trend cell_trend(const struct r_test *t, int i, int m)
{
	double *x;
	int n = result_values(t, i, m, &x);
	struct trend tr = stats_trend(x, n);

	free(x);
	return tr;
}

/* A 95% interval relative to the mean: "+-2.5%", or where it is
 * asymmetric (on the log scale, from few or spread runs) the range it is,
 * "-83%..+505%", so that no one reads a figure could be 505% lower. */
static void interval_text(const struct summary *s, char *buf, size_t len)
{
	double hi = stats_precision(s);

	if (s->log_scale && hi >= 0.10)
		snprintf(buf, len, "-%.0f%%..+%.0f%%", 100 * hi / (1 + hi), 100 * hi);
	else
		snprintf(buf, len, "+-%.*f%%", 100 * hi < 9.95 ? 1 : 0, 100 * hi);
}

int report_warning(const struct r_test *t, int i, int m, char *buf, size_t len, int brief)
{
	struct summary s;
	size_t used;

	buf[0] = '\0';
	result_summary(t, i, m, &s);
	if (!s.n)
		return 0;
	double prec = stats_precision(&s);
	if (s.n < REPORT_MIN_RUNS)
		snprintf(buf, len, "%s%d run%s", brief ? "" : "only ", s.n, s.n == 1 ? "" : "s");
	else if (t->looks > 0)
		;	/* the runs aimed at verdicts: an undecided one is flagged there */
	else if (t->precision > 0 && prec > t->precision && brief)
		interval_text(&s, buf, len);
	else if (t->precision > 0 && prec > t->precision) {
		char iv[48];
		interval_text(&s, iv, sizeof(iv));
		snprintf(buf, len, "%s over %d runs, missed the +-%g%% target", iv, s.n,
			 100 * t->precision);
	}
	else if (t->precision > 0)
		;	/* the runs aimed at a precision and met it */
	else if (s.cv >= REPORT_CV_LIMIT && brief)
		snprintf(buf, len, "CV %.1f%%", 100 * s.cv);
	else if (s.cv >= REPORT_CV_LIMIT)
		snprintf(buf, len, "CV %.1f%% over %d runs (target < %.0f%%)", 100 * s.cv, s.n,
			 100 * REPORT_CV_LIMIT);
	/* Runs that drift: a change beyond the precision aimed at, too
	 * orderly to be chance.  An interval met or not, it assumed runs that
	 * differ by chance alone. */
	struct trend tr = cell_trend(t, i, m);
	double limit = t->precision > 0 ? t->precision : REPORT_CV_LIMIT;
	used = strlen(buf);
	if (tr.p < REPORT_TREND_P && fabs(tr.change) > limit && used < len)
		snprintf(buf + used, len - used,
			 brief ? "%sdrifting %+.0f%%"
			       : "%sthe runs drift (the last third %+.0f%% from the first, trend p=%.2g): "
				 "the machine changed during them, which the interval does not count",
			 used ? (brief ? ", " : "; ") : "", 100 * tr.change, tr.p);
	return buf[0] != '\0';
}

int report_precision(const struct r_test *t, int i, int m, char *buf, size_t len)
{
	struct summary s;

	buf[0] = '\0';
	result_summary(t, i, m, &s);
	if (!isfinite(stats_precision(&s)))
		return 0;
	interval_text(&s, buf, len);
	return 1;
}

const char *report_no_figure(const struct result *r, const struct r_test *t, int i, int m)
{
	const struct r_target *tg = &r->targets[i];

	if (m >= 0 && m < t->nmetrics + t->ndevice && t->metrics[m].device && !tg->blockdev &&
	    tg->blockdev_note && tg->blockdev_note[0])
		return tg->blockdev_note;
	if (t->workload && !strcmp(t->workload, "bonnie"))
		return "no figure (bonnie's +++++: under 0.5 s, too fast to time)";
	return "no figure";
}

void report_header(const struct r_metric *m, char *buf, size_t len)
{
	/* "Latency mean (usec)", but "TPS" rather than "TPS (TPS)", and no
	 * unit twice in "CPU%". */
	if (!m->unit[0] || strstr(m->label, m->unit) || !strcmp(m->label, m->unit))
		snprintf(buf, len, "%s", m->label);
	else
		snprintf(buf, len, "%s (%s)", m->label, m->unit);
}

const char *report_vm_accel(const struct result *r)
{
	for (int i = 0; i < r->nsys; i++)
		if (!strcmp(r->sys[i].name, "Virtual Machine"))
			return strstr(r->sys[i].value, "TCG") ? "tcg" : "kvm";
	return "";
}

const char *report_vm_warning(const struct result *r)
{
	if (r->vm_mixed)
		return "these runs mix the host with a virtual machine (or TCG with KVM): the "
		       "machines differ, so compare only targets of the same run";
	if (!strcmp(report_vm_accel(r), "tcg"))
		return "TCG: these numbers come from an emulated CPU (QEMU TCG, no KVM); compare "
		       "them only with other TCG targets of this run";
	return NULL;
}
