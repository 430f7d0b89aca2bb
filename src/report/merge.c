/*
 * merge.c: several stored runs as one result, the way the Phoronix Test
 * Suite merges result files: every run's targets side by side on one chart
 * per test, and a table of the runs' systems side by side.
 *
 * The merged result borrows the runs' strings and samples' details; it owns
 * its arrays and every sample's values, which are re-indexed by metric
 * name, so a test whose runs stored different metric sets (an older store
 * without the device group) still reads the right column.  Free it with
 * report_merge_free, never result_free.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_test(const struct r_test *a, const struct r_test *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->params, b->params);
}

/* A target's label in the merged result: its own when no other run has
 * it, else with its run's label (or number) after it. */
static char *merged_label(struct result *const *runs, int n, int ri, int ti)
{
	const char *label = runs[ri]->targets[ti].label;
	int clash = 0;
	char buf[512];

	for (int r = 0; r < n && !clash; r++)
		for (int t = 0; r != ri && t < runs[r]->ntargets; t++)
			clash |= !strcmp(runs[r]->targets[t].label, label);
	if (!clash)
		return strdup(label);
	if (runs[ri]->label[0])
		snprintf(buf, sizeof(buf), "%s (%s)", label, runs[ri]->label);
	else
		snprintf(buf, sizeof(buf), "%s (run %lld)", label, (long long)runs[ri]->id);
	return strdup(buf);
}

static int metric_index(const struct r_test *t, const char *name)
{
	for (int m = 0; m < t->nmetrics + t->ndevice; m++)
		if (!strcmp(t->metrics[m].name, name))
			return m;
	return -1;
}

void report_merge_free(struct result *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->ntargets && m->targets; i++)
		free(m->targets[i].label);
	free(m->targets);
	for (int k = 0; k < m->ntests && m->tests; k++) {
		struct r_test *t = &m->tests[k];
		for (int i = 0; i < m->ntargets && t->cells; i++) {
			for (int s = 0; s < t->cells[i].nsamples; s++)
				free(t->cells[i].samples[s].values);
			free(t->cells[i].samples);
		}
		free(t->cells);
	}
	free(m->tests);
	free(m->label);
	free(m);
}

struct result *report_merge(struct result *const *runs, int n)
{
	struct result *m = calloc(1, sizeof(*m));
	int nt = 0, maxtests = 0;
	char label[256];
	size_t used = 0;

	if (!m)
		return NULL;
	for (int r = 0; r < n; r++) {
		nt += runs[r]->ntargets;
		maxtests += runs[r]->ntests;
	}
	*m = *runs[0];		/* header fields: the first run's */
	m->nsys = runs[0]->nsys;
	m->sys = runs[0]->sys;
	m->note = NULL;
	m->baseline = NULL;
	m->merged = n;
	for (int r = 1; r < n; r++)
		m->vm_mixed |= strcmp(report_vm_accel(runs[r]), report_vm_accel(runs[0])) != 0;
	used = (size_t)snprintf(label, sizeof(label), "runs");
	for (int r = 0; r < n && used < sizeof(label); r++)
		used += (size_t)snprintf(label + used, sizeof(label) - used, "%s %lld", r ? "," : "",
					 (long long)runs[r]->id);
	m->label = strdup(label);
	m->targets = calloc((size_t)nt + 1, sizeof(*m->targets));
	m->tests = calloc((size_t)maxtests + 1, sizeof(*m->tests));
	m->ntargets = m->ntests = 0;
	if (!m->label || !m->targets || !m->tests)
		goto fail;
	for (int r = 0; r < n; r++)
		for (int t = 0; t < runs[r]->ntargets; t++) {
			struct r_target *d = &m->targets[m->ntargets];
			*d = runs[r]->targets[t];
			d->label = merged_label(runs, n, r, t);
			if (!d->label)
				goto fail;
			m->ntargets++;
		}
	/* Tests in the order they first appear; each run's cells in its
	 * targets' columns. */
	for (int r = 0, base = 0; r < n; base += runs[r]->ntargets, r++)
		for (int k = 0; k < runs[r]->ntests; k++) {
			const struct r_test *src = &runs[r]->tests[k];
			struct r_test *t = NULL;
			for (int j = 0; j < m->ntests && !t; j++)
				if (same_test(&m->tests[j], src))
					t = &m->tests[j];
			if (!t) {
				t = &m->tests[m->ntests++];
				*t = *src;	/* name, metrics: the first run's */
				t->cells = calloc((size_t)nt + 1, sizeof(*t->cells));
				if (!t->cells)
					goto fail;
			} else if (!t->precision) {
				t->precision = src->precision;	/* a target, when any run had one */
			}
			for (int i = 0; i < runs[r]->ntargets; i++) {
				const struct r_cell *c = &src->cells[i];
				struct r_cell *d = &t->cells[base + i];
				int nm = t->nmetrics + t->ndevice;
				d->failure = c->failure;
				d->run = r;
				d->samples = calloc((size_t)c->nsamples + 1, sizeof(*d->samples));
				if (!d->samples)
					goto fail;
				for (int s = 0; s < c->nsamples; s++) {
					struct r_sample *ds = &d->samples[d->nsamples];
					*ds = c->samples[s];
					ds->values = malloc(sizeof(double) * (size_t)(nm + 1));
					if (!ds->values)
						goto fail;
					d->nsamples++;
					for (int mi = 0; mi < nm; mi++) {
						int from = metric_index(src, t->metrics[mi].name);
						ds->values[mi] = from >= 0 ? c->samples[s].values[from] : NAN;
					}
				}
			}
		}
	return m;
fail:
	report_merge_free(m);
	return NULL;
}

/* The runs' systems side by side: one column per run. */
int report_sys_names(struct result *const *runs, int n, const char **names, int max)
{
	int nn = 0;

	for (int r = 0; r < n; r++)
		for (int i = 0; i < runs[r]->nsys; i++) {
			int seen = 0;
			for (int j = 0; j < nn && !seen; j++)
				seen = !strcmp(names[j], runs[r]->sys[i].name);
			if (!seen && nn < max)
				names[nn++] = runs[r]->sys[i].name;
		}
	return nn;
}

void report_runs_table(FILE *f, struct result *const *runs, int n, int markdown)
{
	const char *names[32];
	int nn = report_sys_names(runs, n, names, 32);

	fputs(markdown ? "| |" : "Runs side by side:\n", f);
	if (markdown) {
		for (int r = 0; r < n; r++)
			fprintf(f, " run %lld%s%s |", (long long)runs[r]->id, runs[r]->label[0] ? ": " : "",
				runs[r]->label);
		fputs("\n|---|", f);
		for (int r = 0; r < n; r++)
			fputs("---|", f);
		fputc('\n', f);
	}
	for (int j = -2; j < nn; j++) {
		const char *name = j == -2 ? "Started" : j == -1 ? "fsbench" : names[j];
		fprintf(f, markdown ? "| %s |" : "%s:\n", name);
		for (int r = 0; r < n; r++) {
			const char *v = j == -2 ? runs[r]->started : j == -1 ? runs[r]->version : "-";
			for (int i = 0; j >= 0 && i < runs[r]->nsys; i++)
				if (!strcmp(runs[r]->sys[i].name, names[j]))
					v = runs[r]->sys[i].value;
			if (markdown)
				fprintf(f, " %s |", v);
			else
				fprintf(f, "  run %lld: %s\n", (long long)runs[r]->id, v);
		}
		if (markdown)
			fputc('\n', f);
	}
	fputc('\n', f);
}
