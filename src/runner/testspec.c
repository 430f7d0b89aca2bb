/* testspec.c: parsing test names and parameter lists (see testspec.h). */
#include "testspec.h"
#include "../core/suggest.h"
#include "../core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct preset *preset_find(const char *name, const struct workload **wl)
{
	for (const struct workload *const *w = workload_all(); *w; w++)
		for (const struct preset *p = (*w)->presets; p && p->name; p++)
			if (!strcmp(p->name, name)) {
				*wl = *w;
				return p;
			}
	return NULL;
}

/* Name, metrics count, canonical parameters, title and subtitle; -1
 * (error set) when the parameters do not fit what is stored. */
static int finish(struct test_spec *ts, const char *name, const char *subtitle)
{
	snprintf(ts->name, sizeof(ts->name), "%s", name);
	ts->nmetrics = ts->wl->metrics_used ? ts->wl->metrics_used(ts->params) : ts->wl->nmetrics;
	if (params_format(ts->wl->params, ts->params, ts->params_text, sizeof(ts->params_text)))
		return error_prefix("%s", name);
	snprintf(ts->title, sizeof(ts->title), "%s", ts->wl->title);
	if (subtitle)
		snprintf(ts->subtitle, sizeof(ts->subtitle), "%s", subtitle);
	else if (ts->wl->describe)
		ts->wl->describe(ts->params, ts->subtitle, sizeof(ts->subtitle));
	return 0;
}

int test_spec_parse(const char *arg, struct test_spec *ts)
{
	char head[160];
	const char *colon = strchr(arg, ':');
	const char *overrides = colon ? colon + 1 : NULL;
	const struct preset *preset = NULL;
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);

	memset(ts, 0, sizeof(*ts));
	if (n == 0 || n >= sizeof(head) || (colon && !colon[1]))
		return error_set("bad test '%s' (use NAME or NAME:key=value,...)", arg);
	memcpy(head, arg, n);
	head[n] = '\0';

	ts->wl = workload_find(head);
	if (!ts->wl)
		preset = preset_find(head, &ts->wl);
	if (!ts->wl)
	{
		/* "did you mean": every workload and named test */
		const char *names[256];
		int k = 0;
		for (const struct workload *const *w = workload_all(); *w && k < 256; w++) {
			names[k++] = (*w)->name;
			for (const struct preset *p = (*w)->presets; p && p->name && k < 256; p++)
				names[k++] = p->name;
		}
		const char *near = suggest(head, names, k);
		return error_set("unknown test '%s'%s%s%s (see `fsbench list tests`)", head,
				 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	}

	ts->params = calloc(1, ts->wl->params_size);
	if (!ts->params)
		return error_set("out of memory");
	if (params_defaults(ts->wl->params, ts->params) ||
	    (preset && params_apply(ts->wl->params, ts->params, preset->params)) ||
	    params_apply(ts->wl->params, ts->params, overrides) ||
	    (ts->wl->validate && ts->wl->validate(ts->params))) {
		test_spec_free(ts);
		return error_prefix("%s", head);
	}
	if (finish(ts, arg, preset && preset->subtitle && !(overrides && *overrides) ?
			    preset->subtitle : NULL)) {
		test_spec_free(ts);
		return -1;
	}
	return 0;
}

int test_spec_from_params(const struct workload *wl, const void *params, const char *name,
			  struct test_spec *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->wl = wl;
	ts->params = malloc(wl->params_size);
	if (!ts->params)
		return error_set("out of memory");
	memcpy(ts->params, params, wl->params_size);
	if (wl->validate && wl->validate(ts->params)) {
		test_spec_free(ts);
		return error_prefix("%s", name);
	}
	if (finish(ts, name, NULL)) {
		test_spec_free(ts);
		return -1;
	}
	return 0;
}

int test_spec_scale(struct test_spec *ts, double factor)
{
	if (factor == 1)
		return 0;
	params_scale(ts->wl->params, ts->params, factor);
	if (params_format(ts->wl->params, ts->params, ts->params_text, sizeof(ts->params_text)))
		return error_prefix("%s", ts->name);
	if (ts->wl->describe)
		ts->wl->describe(ts->params, ts->subtitle, sizeof(ts->subtitle));
	return 0;
}

void test_spec_free(struct test_spec *ts)
{
	free(ts->params);
	ts->params = NULL;
}
