/*
 * reps.c: each repetition's times, as seed 001 publishes them: per phase
 * and target, "#1 #2 #3" then the real, user and sys time of each run,
 * then the average and its MB/s ("Average: 5m 18s (6.7 MB/s)").  A phase
 * is a group of metrics NAME_s, NAME_user_s and NAME_sys_s (and NAME_mbs)
 * of one test, as the tree workload declares them; a test without such a
 * group has no table.  The text report prints it under the test's chart.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The metric named prefix + suffix, or -1. */
static int metric_of(const struct r_test *t, const char *prefix, const char *suffix)
{
	char name[96];

	snprintf(name, sizeof(name), "%s%s", prefix, suffix);
	for (int m = 0; m < t->nmetrics; m++)
		if (!strcmp(t->metrics[m].name, name))
			return m;
	return -1;
}

/* "5m54.159s", as time(1) prints it; "-" for no value. */
static void time_text(double s, char *buf, size_t len)
{
	if (!isfinite(s) || s < 0) {
		snprintf(buf, len, "-");
		return;
	}
	int m = (int)(s / 60);
	snprintf(buf, len, "%dm%.3fs", m, s - 60.0 * m);
}

bool report_has_reps(const struct r_test *t)
{
	for (int m = 0; m < t->nmetrics; m++) {
		size_t n = strlen(t->metrics[m].name);
		if (n > 7 && !strcmp(t->metrics[m].name + n - 7, "_user_s"))
			return true;
	}
	return false;
}

void report_reps(FILE *f, const struct result *r, int ti)
{
	const struct r_test *t = &r->tests[ti];
	bool rate = false;

	for (int m = 0; m < t->nmetrics; m++) {
		const char *name = t->metrics[m].name;
		size_t n = strlen(name);
		char phase[64];
		if (n < 3 || n - 2 >= sizeof(phase) || strcmp(name + n - 2, "_s") ||
		    (n > 7 && !strcmp(name + n - 7, "_user_s")) ||
		    (n > 6 && !strcmp(name + n - 6, "_sys_s")))
			continue;
		memcpy(phase, name, n - 2);
		phase[n - 2] = '\0';
		int mu = metric_of(t, phase, "_user_s"), ms = metric_of(t, phase, "_sys_s");
		int mb = metric_of(t, phase, "_mbs");
		if (mu < 0 || ms < 0)
			continue;
		for (int c = 0; c < r->ntargets; c++) {
			const struct r_cell *cell = &t->cells[c];
			int shown = 0;
			double sum = 0, bytes = 0;
			int nmbs = 0;
			for (int s = 0; s < cell->nsamples; s++)
				if (isfinite(cell->samples[s].values[m]))
					shown++;
			if (!shown)
				continue;
			fprintf(f, "%s, %s:\n      ", phase, r->targets[c].label);
			for (int s = 0; s < cell->nsamples; s++)
				if (isfinite(cell->samples[s].values[m])) {
					char h[16];
					snprintf(h, sizeof(h), "#%d:", cell->samples[s].rep);
					fprintf(f, " %12s", h);
				}
			fputc('\n', f);
			static const char *const rows[] = { "real", "user", "sys" };
			const int col[] = { m, mu, ms };
			for (int k = 0; k < 3; k++) {
				fprintf(f, "%-6s", rows[k]);
				for (int s = 0; s < cell->nsamples; s++) {
					char v[32];
					if (!isfinite(cell->samples[s].values[m]))
						continue;
					time_text(cell->samples[s].values[col[k]], v, sizeof(v));
					fprintf(f, " %12s", v);
				}
				fputc('\n', f);
			}
			for (int s = 0; s < cell->nsamples; s++) {
				const double *v = cell->samples[s].values;
				if (!isfinite(v[m]))
					continue;
				sum += v[m];
				if (mb >= 0 && isfinite(v[mb])) {	/* each run's MB: its MB/s times its time */
					bytes += v[mb] * v[m];
					nmbs++;
				}
			}
			double avg = sum / shown;
			char at[32];
			time_text(avg, at, sizeof(at));
			fprintf(f, "Average: %s", at);
			/* the seed's: the data over the average time */
			if (nmbs && avg > 0) {
				fprintf(f, " (%.1f MB/s)", bytes / nmbs / avg);
				rate = true;
			}
			fputc('\n', f);
		}
	}
	/* the means table's MB/s is the mean of the runs' rates, which is
	 * more than this whenever the runs differ: say which is which */
	if (rate)
		fputs("(An Average's MB/s is the data over the average time, as seed 001 gives it;\n"
		      " a table's MB/s is the mean of each run's.)\n", f);
}
