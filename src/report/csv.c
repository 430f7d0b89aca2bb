/*
 * csv.c: every sample of a run as CSV, one row per (sample, metric), with a
 * header, RFC 4180 quoting (test names contain commas).
 */
#include "report.h"

#include <math.h>
#include <string.h>

static void field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void real(FILE *f, double v, int last)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(last ? '\n' : ',', f);
}

int report_csv(FILE *f, const struct result *r)
{
	fputs("run_id,test,workload,parameters,target,rep,metric,unit,direction,value,"
	      "wall_s,cpu_user_s,cpu_sys_s,cpu_percent,machine_cpu_percent\n", f);
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		for (int i = 0; i < r->ntargets; i++)
			for (int k = 0; k < t->cells[i].nsamples; k++) {
				const struct r_sample *s = &t->cells[i].samples[k];
				for (int m = 0; m < t->nmetrics + t->ndevice; m++) {
					/* the device group: only the figures there are */
					if (m >= t->nmetrics && !isfinite(s->values[m]))
						continue;
					fprintf(f, "%lld,", (long long)r->id);
					field(f, t->name, 0);
					field(f, t->workload, 0);
					field(f, t->params, 0);
					field(f, r->targets[i].label, 0);
					fprintf(f, "%d,", s->rep);
					field(f, t->metrics[m].name, 0);
					field(f, t->metrics[m].unit, 0);
					field(f, t->metrics[m].direction > 0 ? "higher_is_better"
									: "lower_is_better", 0);
					real(f, s->values[m], 0);
					real(f, s->wall, 0);
					real(f, s->cpu_user, 0);
					real(f, s->cpu_sys, 0);
					real(f, s->cpu_pct, 0);
					real(f, s->machine_cpu_pct, 1);
				}
			}
	}
	return ferror(f) ? -1 : 0;
}
