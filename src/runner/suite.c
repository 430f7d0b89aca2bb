/* suite.c: reading suite files (see suite.h). */
#define _GNU_SOURCE
#include "suite.h"
#include "../core/error.h"
#include "../core/ini.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../core/suggest.h"
#include "../store/result.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *suite_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("FSBENCH_SUITES");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		/* ./fsbench in the tree, build-asan/fsbench beside it, or an
		 * installed PREFIX/bin/fsbench with PREFIX/share/fsbench/suites */
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(exe, '/');
			if (!slash)
				break;
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%.4000s/suites", exe);
			if (!access(dir, R_OK))
				return dir;
			snprintf(dir, sizeof(dir), "%.4000s/share/fsbench/suites", exe);
			if (!access(dir, R_OK))
				return dir;
		}
	}
	return "/usr/share/fsbench/suites";
}

/* One [test NAME] section being collected. */
struct pending {
	char name[128], workload[128], title[128], subtitle[256], params[2048], show[64];
	int runs, warmup, line;
};

static int add_skip(struct suite *s, const char *name, const char *why)
{
	char (*ns)[256] = realloc(s->skipped, sizeof(*ns) * (size_t)(s->nskipped + 1));

	if (!ns)
		return error_set("out of memory");
	s->skipped = ns;
	/* a note: a long name or reason is cut, not an error */
	snprintf(s->skipped[s->nskipped++], 256, "%.120s: %.130s", name, why);
	return 0;
}

/* A test named NAME (workload or named test) exists in this fsbench. */
static int preset_known(const char *name)
{
	const struct workload *wl;

	return preset_find(name, &wl) != NULL;
}

static int finish_test(struct suite *s, struct pending *p, double scale)
{
	char spec[2300];
	struct test_spec ts;

	if (!p->name[0])
		return 0;
	if (!p->workload[0])
		return error_set("%s:%d: test '%s' has no workload= (or test=)", s->path, p->line, p->name);
	snprintf(spec, sizeof(spec), "%s%s%s", p->workload, p->params[0] ? ":" : "", p->params);
	if (test_spec_parse(spec, &ts)) {
		char head[128];
		str_copy(head, sizeof(head), p->workload);
		/* Only a workload this fsbench lacks is skipped; a bad
		 * parameter of one it has is the suite's mistake. */
		if (!workload_find(head) && !preset_known(head)) {
			char why[200];
			snprintf(why, sizeof(why), "'%s' is not in this fsbench yet", head);
			int rc = add_skip(s, p->name, why);
			memset(p, 0, sizeof(*p));
			return rc;
		}
		return error_prefix("%s:%d: test '%s'", s->path, p->line, p->name);
	}
	if (test_spec_scale(&ts, scale)) {
		test_spec_free(&ts);
		return -1;
	}
	str_copy(ts.name, sizeof(ts.name), p->name);
	if (p->title[0])
		str_copy(ts.title, sizeof(ts.title), p->title);
	if (p->subtitle[0] && scale == 1)
		str_copy(ts.subtitle, sizeof(ts.subtitle), p->subtitle);
	str_copy(ts.show, sizeof(ts.show), p->show);
	ts.runs = p->runs ? p->runs : s->runs;
	ts.warmup = p->warmup;
	struct test_spec *nt = realloc(s->tests, sizeof(*nt) * (size_t)(s->ntests + 1));
	if (!nt) {
		test_spec_free(&ts);
		return error_set("out of memory");
	}
	s->tests = nt;
	s->tests[s->ntests++] = ts;
	memset(p, 0, sizeof(*p));
	return 0;
}

/* Copy a value into a field, refusing what does not fit instead of
 * cutting it. */
static int set_field(const struct suite *s, int line, const char *key, char *dst, size_t len,
		     const char *val)
{
	if (strlen(val) >= len)
		return error_set("%s:%d: %s: longer than %zu characters", s->path, line, key,
				 len - 1);
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

/* [test NAME] twice would shadow one test with another. */
static int seen_test(const struct suite *s, const char *name)
{
	for (int i = 0; i < s->ntests; i++)
		if (!strcmp(s->tests[i].name, name))
			return 1;
	for (int i = 0; i < s->nskipped; i++) {
		size_t n = strlen(name);
		if (!strncmp(s->skipped[i], name, n) && s->skipped[i][n] == ':')
			return 1;
	}
	return 0;
}

/* runs = (1 to 1000) and warmup = (0 to 100). */
static int parse_count(const struct suite *s, int line, const char *key, const char *v,
		       int lo, int hi, int *out)
{
	int64_t n;

	if (parse_int(v, &n) || n < lo || n > hi)
		return error_set("%s:%d: %s: bad value '%s' (%d to %d)", s->path, line, key, v, lo, hi);
	*out = (int)n;
	return 0;
}

/* The reader's state between the INI callbacks. */
struct suite_parse {
	struct suite *s;
	struct pending p;
	double scale;
	int in_suite, seen_suite;
};

static int on_section(void *arg, const char *name, int line)
{
	struct suite_parse *sp = arg;
	struct suite *s = sp->s;

	if (finish_test(s, &sp->p, sp->scale))
		return -1;
	sp->in_suite = !strcmp(name, "suite");
	if (sp->in_suite)
		return sp->seen_suite++ ? error_set("%s:%d: a second [suite] section", s->path, line) : 0;
	if (strncmp(name, "test", 4) || !isspace((unsigned char)name[4]))
		return error_set("%s:%d: unknown section [%s] (use [suite] or [test NAME])", s->path,
				 line, name);
	const char *test = name + 5;
	while (isspace((unsigned char)*test))
		test++;
	if (!*test)
		return error_set("%s:%d: [test] without a name", s->path, line);
	if (set_field(s, line, "test name", sp->p.name, sizeof(sp->p.name), test))
		return -1;
	if (seen_test(s, sp->p.name))
		return error_set("%s:%d: a second [test %s] section", s->path, line, sp->p.name);
	sp->p.line = line;
	return 0;
}

static int on_entry(void *arg, const char *key, const char *val, int line)
{
	struct suite_parse *sp = arg;
	struct suite *s = sp->s;
	struct pending *p = &sp->p;

	if (!val)
		return error_set("%s:%d: expected key = value", s->path, line);
	if (sp->in_suite) {
		if (!strcmp(key, "name"))
			return set_field(s, line, key, s->name, sizeof(s->name), val);
		if (!strcmp(key, "description"))
			return set_field(s, line, key, s->description, sizeof(s->description), val);
		if (!strcmp(key, "filesystems"))
			return set_field(s, line, key, s->filesystems, sizeof(s->filesystems), val);
		if (!strcmp(key, "baseline"))
			return set_field(s, line, key, s->baseline, sizeof(s->baseline), val);
		if (!strcmp(key, "runs"))
			return parse_count(s, line, key, val, 1, 1000, &s->runs);
		if (!strcmp(key, "time-budget")) {
			if (parse_duration(val, &s->time_budget) || !(s->time_budget > 0))
				return error_set("%s:%d: time-budget: bad value '%s' (a duration such as 5m)",
						 s->path, line, val);
			return 0;
		}
		return error_set("%s:%d: unknown [suite] key '%s'", s->path, line, key);
	}
	if (!p->name[0])
		return error_set("%s:%d: '%s' outside a section", s->path, line, key);
	if (!strcmp(key, "workload") || !strcmp(key, "test"))
		return set_field(s, line, key, p->workload, sizeof(p->workload), val);
	if (!strcmp(key, "title"))
		return set_field(s, line, key, p->title, sizeof(p->title), val);
	if (!strcmp(key, "subtitle"))
		return set_field(s, line, key, p->subtitle, sizeof(p->subtitle), val);
	if (!strcmp(key, "show")) {
		/* what the default text view adds to the chart: a seed's table */
		if (result_show_valid(val))
			return error_set("%s:%d: show: '%s' is not a list of %s", s->path, line, val,
					 RESULT_SHOW_WORDS);
		return set_field(s, line, key, p->show, sizeof(p->show), val);
	}
	if (!strcmp(key, "runs"))
		return parse_count(s, line, key, val, 1, 1000, &p->runs);
	if (!strcmp(key, "warmup"))
		return parse_count(s, line, key, val, 0, 100, &p->warmup);
	if (strchr(key, ',') || strchr(key, '='))
		return error_set("%s:%d: '%s': not a parameter name", s->path, line, key);
	/* the value as written, its commas escaped (params_append): a
	 * suite's "cpus_allowed = 0,1" is one parameter */
	size_t used = strlen(p->params);
	if (params_append(p->params, sizeof(p->params), &used, key, val))
		return error_set("%s:%d: test '%s': parameters longer than %zu characters", s->path,
				 line, p->name, sizeof(p->params) - 1);
	return 0;
}

/* The built-in suite whose name is closest to name, or NULL. */
static const char *nearest_suite(const char *name)
{
	static char found[256];
	char *names[64];
	int n = 0;
	DIR *d = opendir(suite_dir());
	struct dirent *de;

	if (!d)
		return NULL;
	while ((de = readdir(d)) && n < 64) {
		size_t len = strlen(de->d_name);
		if (len > 6 && !strcmp(de->d_name + len - 6, ".suite")) {
			names[n] = strndup(de->d_name, len - 6);
			if (names[n])
				n++;
		}
	}
	closedir(d);
	const char *near = suggest(name, (const char *const *)names, n);
	found[0] = '\0';
	if (near)
		str_copy(found, sizeof(found), near);
	for (int i = 0; i < n; i++)
		free(names[i]);
	return found[0] ? found : NULL;
}

void suite_path(const char *name, char *buf, size_t len)
{
	if (strchr(name, '/') || strstr(name, ".suite"))
		str_copy(buf, len, name);
	else
		snprintf(buf, len, "%s/%s.suite", suite_dir(), name);
}

int suite_load(const char *name, double scale, struct suite *s)
{
	memset(s, 0, sizeof(*s));
	suite_path(name, s->path, sizeof(s->path));
	static const struct ini_handler handler = { 0, on_section, on_entry };
	struct suite_parse sp;
	memset(&sp, 0, sizeof(sp));
	sp.s = s;
	sp.scale = scale;
	if (access(s->path, R_OK)) {
		int err = errno;
		const char *near = strchr(name, '/') ? NULL : nearest_suite(name);
		if (near)
			return error_set("--suite %s: no such suite (did you mean '%s'?)", name, near);
		errno = err;
		return error_errno("--suite %s: cannot read %s (see `fsbench list suites`)", name, s->path);
	}
	int rc = ini_load(s->path, 1 << 20, &handler, &sp) || finish_test(s, &sp.p, scale);
	if (rc) {
		suite_free(s);
		return -1;
	}
	if (!s->name[0]) {
		char copy[PATH_MAX];
		str_copy(copy, sizeof(copy), s->path);
		str_copy(s->name, sizeof(s->name), basename(copy));
	}
	return 0;
}

void suite_free(struct suite *s)
{
	for (int i = 0; i < s->ntests; i++)
		test_spec_free(&s->tests[i]);
	free(s->tests);
	free(s->skipped);
	s->tests = NULL;
	s->skipped = NULL;
	s->ntests = s->nskipped = 0;
}
