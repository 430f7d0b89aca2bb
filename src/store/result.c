/* result.c: freeing and summarising a loaded run (see result.h). */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int result_values(const struct r_test *t, int target, int metric, double **out)
{
	const struct r_cell *c = &t->cells[target];
	double *x = malloc(sizeof(double) * (size_t)(c->nsamples + 1));
	int n = 0;

	for (int i = 0; x && i < c->nsamples; i++)
		if (isfinite(c->samples[i].values[metric]))
			x[n++] = c->samples[i].values[metric];
	*out = x;
	return n;
}

void result_summary(const struct r_test *t, int target, int metric,
		    struct summary *s)
{
	double *x;
	int n = result_values(t, target, metric, &x);

	stats_summarize(x, n, s);
	free(x);
}

int result_baseline(const struct result *r, const char *label)
{
	const char *want = label && *label ? label : r->baseline;

	if (want && *want) {
		for (int i = 0; i < r->ntargets; i++)
			if (!strcmp(r->targets[i].label, want))
				return i;
		if (label && *label)
			return -1;
	}
	return 0;
}

static void free_test(struct r_test *t, int ntargets)
{
	free(t->name);
	free(t->workload);
	free(t->params);
	free(t->title);
	free(t->subtitle);
	free(t->show);
	for (int i = 0; i < t->nmetrics + t->ndevice && t->metrics; i++) {
		free(t->metrics[i].name);
		free(t->metrics[i].unit);
		free(t->metrics[i].label);
	}
	free(t->metrics);
	for (int i = 0; i < ntargets && t->cells; i++) {
		for (int j = 0; j < t->cells[i].nsamples; j++) {
			free(t->cells[i].samples[j].values);
			free(t->cells[i].samples[j].detail);
			free(t->cells[i].samples[j].series);
		}
		free(t->cells[i].samples);
		free(t->cells[i].failure);
	}
	free(t->cells);
}

void result_free(struct result *r)
{
	if (!r)
		return;
	free(r->started);
	free(r->finished);
	free(r->label);
	free(r->cmdline);
	free(r->version);
	free(r->status);
	free(r->baseline);
	free(r->note);
	free(r->argv);
	for (int i = 0; i < r->nsys && r->sys; i++) {
		free(r->sys[i].name);
		free(r->sys[i].value);
	}
	free(r->sys);
	for (int i = 0; i < r->ntargets && r->targets; i++) {
		struct r_target *t = &r->targets[i];
		free(t->label);
		free(t->path);
		free(t->kind);
		free(t->fstype);
		free(t->mount_point);
		free(t->mount_source);
		free(t->mount_opts);
		free(t->disk);
		free(t->scheduler);
		free(t->spec);
		free(t->mkfs);
		free(t->blockdev);
		free(t->blockdev_note);
		free(t->aging);
	}
	free(r->targets);
	for (int i = 0; i < r->ntests && r->tests; i++)
		free_test(&r->tests[i], r->ntargets);
	free(r->tests);
	free(r);
}

/* Whether word is an item of the comma-separated list. */
static int in_list(const char *list, const char *word, size_t len)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && !strncmp(p, word, len))
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int result_show_valid(const char *list)
{
	for (const char *p = list;; p++) {	/* no empty item, first or last */
		size_t n = strcspn(p, ",");
		if (!n || !in_list(RESULT_SHOW_WORDS, p, n))
			return -1;
		p += n;
		if (!*p)
			return 0;
	}
}

int result_shows(const struct r_test *t, const char *word)
{
	return t->show && in_list(t->show, word, strlen(word));
}
