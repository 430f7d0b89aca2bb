/*
 * profile.c: aging profiles read (profile.h), on the one INI reader.
 *
 * Every value is checked as it is read, so a profile that parses is one
 * the ager can run: weights positive and finite, sizes 1 byte to 1 GiB
 * with low <= high, fill below 1, churn at least the fill.
 */
#include "profile.h"
#include "../core/error.h"
#include "../core/file.h"
#include "../core/ini.h"
#include "../core/param.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const age_op_names[AGE_OPS] = { "create", "append", "overwrite", "truncate", "rename",
					     "delete" };

enum { SEC_NONE, SEC_AGE, SEC_SIZES, SEC_OPS };

struct parse {
	struct age_profile *p;
	const char *file;
	int section;
	bool seen_age, seen_ops;
};

static int on_section(void *arg, const char *name, int line)
{
	struct parse *ps = arg;

	if (!strcmp(name, "age"))
		ps->section = SEC_AGE, ps->seen_age = true;
	else if (!strcmp(name, "sizes"))
		ps->section = SEC_SIZES;
	else if (!strcmp(name, "ops"))
		ps->section = SEC_OPS, ps->seen_ops = true;
	else
		return error_set("%s:%d: unknown section [%.64s] (age, sizes, ops)", ps->file, line, name);
	return 0;
}

static int number(const char *file, int line, const char *key, const char *v, double lo, double hi,
		  double *out)
{
	char *end;
	double d;

	if (!v)
		return error_set("%s:%d: %s needs a value", file, line, key);
	d = strtod(v, &end);
	if (end == v || *end || !isfinite(d) || d < lo || d > hi)
		return error_set("%s:%d: %s = %.64s: a number from %g to %g", file, line, key, v, lo, hi);
	*out = d;
	return 0;
}

static int percent(const char *file, int line, const char *key, const char *v, double lo,
		   double hi, double *out)
{
	char buf[64];
	size_t n = v ? strlen(v) : 0;

	if (!v || n == 0 || n >= sizeof(buf) || v[n - 1] != '%')
		return error_set("%s:%d: %s = %.64s: a percentage (\"80%%\")", file, line, key,
				 v ? v : "");
	memcpy(buf, v, n - 1);
	buf[n - 1] = '\0';
	if (number(file, line, key, buf, lo * 100, hi * 100, out))
		return -1;
	*out /= 100;
	return 0;
}

static int size_range(const char *file, int line, const char *v, uint64_t *lo, uint64_t *hi)
{
	char a[64], b[64];
	const char *dots = v ? strstr(v, "..") : NULL;

	if (!dots || (size_t)(dots - v) >= sizeof(a) || strlen(dots + 2) >= sizeof(b))
		return error_set("%s:%d: a size range LOW..HIGH (\"4k..64k\"), not \"%.64s\"", file,
				 line, v ? v : "");
	memcpy(a, v, (size_t)(dots - v));
	a[dots - v] = '\0';
	strcpy(b, dots + 2);
	if (parse_size(a, lo) || parse_size(b, hi))	/* it sets no message of its own */
		return error_set("%s:%d: %.64s: sizes from 1 byte to 1G (\"4k..64k\"), low <= high", file,
				 line, v);
	if (*lo < 1 || *hi < *lo || *hi > (1ULL << 30))
		return error_set("%s:%d: %.64s: sizes from 1 byte to 1G, low <= high", file, line, v);
	return 0;
}

static int on_entry(void *arg, const char *key, const char *v, int line)
{
	struct parse *ps = arg;
	struct age_profile *p = ps->p;
	double d;

	switch (ps->section) {
	case SEC_AGE:
		if (!strcmp(key, "fill"))
			return percent(ps->file, line, key, v, 0.01, 0.98, &p->fill);
		if (!strcmp(key, "churn"))
			return number(ps->file, line, key, v, 0, 1000, &p->churn);
		if (!strcmp(key, "young"))
			return percent(ps->file, line, key, v, 0, 1, &p->young);
		if (!strcmp(key, "files_per_dir") || !strcmp(key, "depth")) {
			if (number(ps->file, line, key, v, key[0] == 'd' ? 0 : 1,
				   key[0] == 'd' ? 8 : 100000, &d))
				return -1;
			if (d != floor(d))
				return error_set("%s:%d: %s: a whole number", ps->file, line, key);
			*(key[0] == 'd' ? &p->depth : &p->files_per_dir) = (unsigned)d;
			return 0;
		}
		if (!strcmp(key, "commits")) {
			if (number(ps->file, line, key, v, 1, 100000, &d) || d != floor(d))
				return error_set("%s:%d: commits: a whole number from 1 to 100000",
						 ps->file, line);
			p->commits = (unsigned)d;
			return 0;
		}
		if (!strcmp(key, "fsync") || !strcmp(key, "git")) {
			if (number(ps->file, line, key, v, 0, 1, &d) || (d != 0 && d != 1))
				return error_set("%s:%d: %s: 0 or 1", ps->file, line, key);
			*(key[0] == 'f' ? &p->fsync : &p->git) = (int)d;
			return 0;
		}
		return error_set("%s:%d: [age] has no key %.64s", ps->file, line, key);
	case SEC_SIZES: {
		struct age_bucket *b;

		if (p->nsizes >= AGE_MAX_BUCKETS)
			return error_set("%s:%d: more than %d size ranges", ps->file, line, AGE_MAX_BUCKETS);
		b = &p->sizes[p->nsizes];
		if (number(ps->file, line, "a weight", key, 1e-9, 1e9, &b->weight) ||
		    size_range(ps->file, line, v, &b->lo, &b->hi))
			return -1;
		p->nsizes++;
		return 0;
	}
	case SEC_OPS:
		for (int i = 0; i < AGE_OPS; i++)
			if (!strcmp(key, age_op_names[i]))
				return number(ps->file, line, key, v, 0, 1e9, &p->ops[i]);
		return error_set("%s:%d: [ops] has no operation %.64s (create, append, overwrite, "
				 "truncate, rename, delete)", ps->file, line, key);
	default:
		return error_set("%s:%d: %.64s outside a section", ps->file, line, key);
	}
}

int age_profile_parse(const char *name, const char *text, struct age_profile *out)
{
	struct ini_handler h = { 0, on_section, on_entry };
	struct age_profile p = { .fill = 0.8, .churn = 5, .files_per_dir = 64, .depth = 3,
				 .young = 0.5, .commits = 100 };
	struct parse ps = { &p, name, SEC_NONE, false, false };
	double total = 0;
	const char *base = strrchr(name, '/');

	snprintf(p.name, sizeof(p.name), "%.*s", (int)strcspn(base ? base + 1 : name, "."),
		 base ? base + 1 : name);
	if (ini_parse(name, text, &h, &ps))
		return -1;
	if (!ps.seen_age)
		return error_set("%s: no [age] section", name);
	if (p.git) {
		*out = p;
		return 0;
	}
	if (!p.nsizes)
		return error_set("%s: no [sizes]: a file's size distribution is needed", name);
	if (!ps.seen_ops)
		return error_set("%s: no [ops]: the operation mix is needed", name);
	for (int i = 0; i < AGE_OPS; i++)
		total += p.ops[i];
	if (!(total > 0) || !(p.ops[AGE_CREATE] > 0) || !(p.ops[AGE_DELETE] > 0))
		return error_set("%s: [ops] needs create and delete above 0 (else the fill cannot be held)",
				 name);
	if (p.churn < p.fill)
		return error_set("%s: churn %g is less than the fill %g: the fill alone writes that much",
				 name, p.churn, p.fill);
	*out = p;
	return 0;
}

int age_profile_load(const char *dir, const char *name_or_path, struct age_profile *out)
{
	char path[4096], *text;
	int rc;

	size_t n = strlen(name_or_path);

	/* a path: with a '/', or a file's name ending .age ("my.age") */
	if (strchr(name_or_path, '/') || (n > 4 && !strcmp(name_or_path + n - 4, ".age")))
		snprintf(path, sizeof(path), "%s", name_or_path);
	else if ((size_t)snprintf(path, sizeof(path), "%s/%s.age", dir, name_or_path) >= sizeof(path))
		return error_set("aging profile %.64s: path too long", name_or_path);
	text = file_read_all(path, 1 << 20, FILE_NOFOLLOW, NULL);
	if (!text)
		return error_prefix("aging profile %.200s", name_or_path);
	rc = age_profile_parse(path, text, out);
	free(text);
	return rc;
}
