/*
 * param.c: parsing and printing of parameter tables (see param.h).
 *
 * Every error names the parameter, the bad value and what is accepted, in
 * one line, because that line is all the user will see.
 */
#include "param.h"
#include "suggest.h"
#include "error.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_decimal(const char *s, int64_t *out)
{
	if (!s || !*s || s[strspn(s, "0123456789")])
		return -1;
	return parse_int(s, out);	/* digits only: base 10, overflow refused */
}

/* Sizes use binary multiples, as fs_mark, fio and bonnie++ users expect:
 * 4k = 4096.  "KiB"/"KB"/"k" all mean 1024. */
int parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	if (*end) {
		switch (tolower((unsigned char)*end)) {
		case 'b': mult = 1; break;
		case 'k': mult = 1ULL << 10; break;
		case 'm': mult = 1ULL << 20; break;
		case 'g': mult = 1ULL << 30; break;
		case 't': mult = 1ULL << 40; break;
		default: return -1;
		}
		end++;
		if (mult > 1 && (!strcasecmp(end, "ib") || !strcasecmp(end, "b")))
			end += strlen(end);
		if (*end)
			return -1;
	}
	v *= (double)mult;
	if (v > 1.8e19 || v != floor(v))
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int parse_duration(const char *s, double *out)
{
	char *end;
	double v, mult = 1;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0 || !isfinite(v))
		return -1;
	if (!*end || !strcmp(end, "s"))
		mult = 1;
	else if (!strcmp(end, "ms"))
		mult = 1e-3;
	else if (!strcmp(end, "us"))
		mult = 1e-6;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60;
	else if (!strcmp(end, "h"))
		mult = 3600;
	else
		return -1;
	/* Beyond a year is a typo (or 1e308h), and would overflow the
	 * nanosecond clocks that deadlines are computed on. */
	if (!isfinite(v * mult) || v * mult > DURATION_MAX)
		return -1;
	*out = v * mult;
	return 0;
}

int parse_percent_at_least(const char *s, double lo, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || (*end && strcmp(end, "%")))
		return -1;
	if (!(v >= lo))
		return -1;
	*out = v / 100;
	return 0;
}

int parse_percent(const char *s, double *out)
{
	double v;

	if (parse_percent_at_least(s, 0, &v) || !(v > 0) || v >= 1)
		return -1;
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *yes[] = { "1", "true", "yes", "on", NULL };
	static const char *no[] = { "0", "false", "no", "off", NULL };

	for (int i = 0; yes[i]; i++) {
		if (!strcasecmp(s, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(s, no[i]))
			return *out = false, 0;
	}
	return -1;
}

void format_size(uint64_t b, char *buf, size_t len)
{
	static const char units[] = "kMGT";
	int u = -1;

	while (b && b % 1024 == 0 && u < 3) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%" PRIu64, b);
	else
		snprintf(buf, len, "%" PRIu64 "%c", b, units[u]);
}

static void format_duration(double s, char *buf, size_t len)
{
	if (s != 0 && s < 1 && fmod(s * 1e3, 1) == 0)
		snprintf(buf, len, "%gms", s * 1e3);
	else if (s != 0 && s < 1e-3)
		snprintf(buf, len, "%gus", s * 1e6);
	else
		snprintf(buf, len, "%gs", s);
}

const struct param_def *param_find(const struct param_def *defs,
				   const char *key)
{
	for (const struct param_def *d = defs; d->name; d++)
		if (!strcmp(d->name, key)) {
			if (!(d->flags & PF_ALIAS))
				return d;
			for (const struct param_def *t = defs; t->name; t++)
				if (!(t->flags & PF_ALIAS) && !strcmp(t->name, d->choices))
					return t;
			return NULL;	/* params_check_table refuses such a table */
		}
	return NULL;
}

/* The n-th choice of "a|b|c", copied into buf. */
static const char *enum_choice(const char *choices, int n, char *buf,
			       size_t len)
{
	const char *p = choices;

	for (int i = 0; i < n && p; i++) {
		p = strchr(p, '|');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	size_t k = strcspn(p, "|");
	if (k >= len)
		k = len - 1;
	memcpy(buf, p, k);
	buf[k] = '\0';
	return buf;
}

const char *param_type_text(const struct param_def *d, char *buf, size_t len)
{
	switch (d->type) {
	case PT_INT: snprintf(buf, len, "an integer"); break;
	case PT_SIZE: snprintf(buf, len, "a size such as 4096, 64k, 1M, 2G"); break;
	case PT_DURATION:
		snprintf(buf, len, d->flags & PF_USEC ? "a duration such as 500 (us), 10ms, 1s"
						      : "a duration such as 30, 500ms, 2m");
		break;
	case PT_BOOL: snprintf(buf, len, "a boolean: 0/1, yes/no, true/false"); break;
	case PT_ENUM: snprintf(buf, len, "one of %s", d->choices); break;
	case PT_STRING: snprintf(buf, len, "text up to %.0f characters", d->max > 1 ? d->max - 1 : 0); break;
	}
	return buf;
}

static int bad_value(const struct param_def *d, const char *value,
		     const char *why)
{
	char t[128];

	if (why)
		return error_set("parameter '%s': bad value '%s' (%s)", d->name,
				 value, why);
	return error_set("parameter '%s': bad value '%s' (expected %s)",
			 d->name, value, param_type_text(d, t, sizeof(t)));
}

static int check_bounds(const struct param_def *d, const char *value, double v)
{
	char why[160], lo[32], hi[32];

	if (d->min == d->max || (v >= d->min && v <= d->max))
		return 0;
	if (d->type == PT_SIZE) {
		format_size((uint64_t)d->min, lo, sizeof(lo));
		format_size((uint64_t)d->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%g", d->min);
		snprintf(hi, sizeof(hi), "%g", d->max);
	}
	snprintf(why, sizeof(why), "must be between %s and %s", lo, hi);
	return bad_value(d, value, why);
}

static int set_value(const struct param_def *d, void *obj, const char *value)
{
	switch (d->type) {
	case PT_INT: {
		int64_t v;
		if (parse_int(value, &v))
			return bad_value(d, value, NULL);
		if (check_bounds(d, value, (double)v))
			return -1;
		*PARAM_AT(obj, d, int64_t) = v;
		return 0;
	}
	case PT_SIZE: {
		uint64_t v;
		if (parse_size(value, &v))
			return bad_value(d, value, NULL);
		if (check_bounds(d, value, (double)v))
			return -1;
		*PARAM_AT(obj, d, uint64_t) = v;
		return 0;
	}
	case PT_DURATION: {
		double v;
		char *end;
		if (parse_duration(value, &v))
			return bad_value(d, value, NULL);
		if ((d->flags & PF_USEC) && (strtod(value, &end), end != value && !*end))
			v /= 1e6;
		if (check_bounds(d, value, v))
			return -1;
		*PARAM_AT(obj, d, double) = v;
		return 0;
	}
	case PT_BOOL:
		if (parse_bool(value, PARAM_AT(obj, d, bool)))
			return bad_value(d, value, NULL);
		return 0;
	case PT_ENUM: {
		char c[64];
		for (int i = 0; enum_choice(d->choices, i, c, sizeof(c)); i++)
			if (!strcmp(c, value))
				return *PARAM_AT(obj, d, int) = i, 0;
		return bad_value(d, value, NULL);
	}
	case PT_STRING: {
		/* The declared capacity bounds the copy, whatever the caller. */
		size_t cap = d->max >= 1 ? (size_t)d->max : 0, n = strlen(value);
		if (n >= cap)
			return bad_value(d, value, NULL);
		memcpy(PARAM_AT(obj, d, char), value, n + 1);
		return 0;
	}
	}
	return -1;
}

const char *param_suggest(const struct param_def *defs, const char *key)
{
	const char *names[512];
	int n = 0;

	for (const struct param_def *p = defs; p->name && n < 512; p++)
		names[n++] = p->name;
	return suggest(key, names, n);
}

int params_set(const struct param_def *defs, void *obj, const char *key,
	       const char *value)
{
	const struct param_def *d = param_find(defs, key);

	if (!d) {
		char known[512] = "";
		for (const struct param_def *p = defs; p->name; p++) {
			if (known[0])
				strncat(known, ", ", sizeof(known) - strlen(known) - 1);
			strncat(known, p->name, sizeof(known) - strlen(known) - 1);
		}
		const char *near = param_suggest(defs, key);
		if (near)
			return error_set("unknown parameter '%s' (did you mean '%s'?)", key, near);
		return error_set("unknown parameter '%s' (known: %s)", key,
				 known[0] ? known : "none");
	}
	return d->set ? d->set(d, obj, value) : set_value(d, obj, value);
}

int param_set_value(const struct param_def *d, void *obj, const char *value)
{
	return set_value(d, obj, value);
}

int params_check_table(const struct param_def *defs, size_t obj_size)
{
	for (const struct param_def *d = defs; d->name; d++) {
		if (d->flags & PF_ALIAS) {
			const struct param_def *t = param_find(defs, d->name);
			if (!t)
				return error_set("parameter '%s': another name for '%s', which the "
						 "table lacks", d->name, d->choices ? d->choices : "");
			continue;
		}
		if (d->flags & PF_DERIVED) {
			if (!d->set)
				return error_set("parameter '%s': derived, without a setter", d->name);
			continue;
		}
		size_t width = d->type == PT_STRING ? (size_t)d->max
			: d->type == PT_INT ? sizeof(int64_t) : d->type == PT_SIZE ? sizeof(uint64_t)
			: d->type == PT_DURATION ? sizeof(double) : d->type == PT_BOOL ? sizeof(bool)
			: sizeof(int);
		if (d->type == PT_STRING && (d->max < 1 || d->min != 0))
			return error_set("parameter '%s': a string without a capacity", d->name);
		if (d->offset + width > obj_size || d->offset + width < d->offset)
			return error_set("parameter '%s': outside its %zu-byte struct", d->name,
					 obj_size);
	}
	return 0;
}

/* The rows that hold a value of their own (not an alias, not derived). */
static bool stored(const struct param_def *d)
{
	return !(d->flags & (PF_ALIAS | PF_DERIVED));
}

int params_defaults(const struct param_def *defs, void *obj)
{
	for (const struct param_def *d = defs; d->name; d++)
		if (stored(d) && (d->set ? d->set(d, obj, d->def) : set_value(d, obj, d->def)))
			return -1;
	return 0;
}

/*
 * The list grammar: items split at each comma not escaped; in a value,
 * "\," is a comma and "\\" a backslash (what params_format writes, so
 * that what is stored reads back exactly); an item without '=' continues
 * the value before it, so that a user's "cpus_allowed=0-1,3" or
 * "bssplit=4k/50:8k/50,16k" means what fio means by it.
 */
int params_each(const char *list, int (*fn)(const char *key, const char *value, void *arg),
		void *arg)
{
	size_t len = list ? strlen(list) : 0;
	int rc = 0;

	if (!len)
		return 0;
	/* key and value of the item being gathered, and one item's text */
	char *key = malloc(len + 1), *val = malloc(len + 1), *tok = malloc(len + 1);
	if (!key || !val || !tok) {
		rc = error_set("out of memory");
		goto out;
	}
	key[0] = '\0';
	size_t vn = 0;
	for (const char *p = list;; p++) {
		size_t tn = 0;
		for (; *p && *p != ','; p++) {
			if (*p == '\\' && (p[1] == ',' || p[1] == '\\'))
				p++;
			tok[tn++] = *p;
		}
		tok[tn] = '\0';
		char *eq = strchr(tok, '=');	/* keys hold no '=' nor escapes */
		if (!tn) {
			rc = error_set("empty item in parameter list '%s'", list);
			break;
		}
		if (!eq && key[0]) {	/* a continuation of the value before */
			val[vn++] = ',';
			memcpy(val + vn, tok, tn + 1);
			vn += tn;
		} else if (!eq || eq == tok) {
			rc = error_set("parameter '%s': expected key=value", tok);
			break;
		} else {
			if (key[0] && (rc = fn(key, val, arg)))
				break;
			*eq = '\0';
			memcpy(key, tok, (size_t)(eq - tok) + 1);
			vn = tn - (size_t)(eq - tok) - 1;
			memcpy(val, eq + 1, vn + 1);
		}
		if (!*p)
			break;
	}
	if (!rc && key[0])
		rc = fn(key, val, arg);
out:
	free(key);
	free(val);
	free(tok);
	return rc;
}

struct apply_arg {
	const struct param_def *defs;
	void *obj;
};

static int apply_one(const char *key, const char *value, void *arg)
{
	struct apply_arg *a = arg;

	return params_set(a->defs, a->obj, key, value);
}

int params_apply(const struct param_def *defs, void *obj, const char *list)
{
	struct apply_arg a = { defs, obj };

	return params_each(list, apply_one, &a);
}

void param_value_text(const struct param_def *d, const void *obj, char *buf,
		      size_t len)
{
	const void *p = (const char *)obj + d->offset;

	switch (d->type) {
	case PT_INT: snprintf(buf, len, "%" PRId64, *(const int64_t *)p); break;
	case PT_SIZE: format_size(*(const uint64_t *)p, buf, len); break;
	case PT_DURATION: format_duration(*(const double *)p, buf, len); break;
	case PT_BOOL: snprintf(buf, len, "%d", *(const bool *)p ? 1 : 0); break;
	case PT_ENUM:
		if (!enum_choice(d->choices, *(const int *)p, buf, len))
			snprintf(buf, len, "?");
		break;
	case PT_STRING: snprintf(buf, len, "%s", (const char *)p); break;
	}
}

/* A scaled count: at least 1, at most max (when the row has bounds). */
static int64_t scaled_count(int64_t v, double factor, double max, int bounded)
{
	double s = llround((double)v * factor);

	v = s < 1 ? 1 : s > (double)INT64_MAX ? INT64_MAX : (int64_t)s;
	return bounded && (double)v > max ? (int64_t)max : v;
}

void params_scale(const struct param_def *defs, void *obj, double factor)
{
	for (const struct param_def *d = defs; d->name; d++) {
		if (!(d->flags & PF_SCALE) || !stored(d))
			continue;
		double f = d->flags & PF_SCALE_CUBE ? cbrt(factor) : factor;
		int bounded = d->min != d->max;
		/* 0 means "none" or "automatic" (appstart's file_size), a
		 * negative "this machine's" (bonnie's ram=-1): kept. */
		if (d->type == PT_INT) {
			int64_t *v = PARAM_AT(obj, d, int64_t);
			if (*v > 0)
				*v = scaled_count(*v, f, d->max, bounded);
		} else if (d->type == PT_SIZE) {
			uint64_t *v = PARAM_AT(obj, d, uint64_t);
			double s = llround((double)*v * f);
			if (*v == 0)
				continue;
			*v = s < 1 ? 1 : s >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)s;
		} else if (d->type == PT_STRING) {
			/* the leading count of the text, the rest as it was */
			char *t = PARAM_AT(obj, d, char), *end, rest[PARAM_STR_MAX];
			errno = 0;
			long long n = strtoll(t, &end, 10);
			if (end == t || !isdigit((unsigned char)*t) || errno || n <= 0)
				continue;
			long long m = scaled_count(n, f, 0, 0);
			snprintf(rest, sizeof(rest), "%s", end);
			if (d->max >= 1 && snprintf(NULL, 0, "%lld%s", m, rest) < (int)d->max)
				snprintf(t, (size_t)d->max, "%lld%s", m, rest);
		}
	}
}

int params_format(const struct param_def *defs, const void *obj, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return error_set("no room for the parameters");
	buf[0] = '\0';
	for (const struct param_def *d = defs; d->name; d++) {
		char v[PARAM_STR_MAX];
		if (!stored(d))
			continue;
		param_value_text(d, obj, v, sizeof(v));
		if (params_append(buf, len, &used, d->name, v))
			return -1;
	}
	return 0;
}

int params_append(char *buf, size_t len, size_t *used, const char *key, const char *value)
{
	size_t at = *used, need = strlen(key) + 2;

	for (const char *c = value; *c; c++)
		need += *c == ',' || *c == '\\' ? 2 : 1;
	if (at + need >= len) {
		if (len)
			buf[at < len ? at : len - 1] = '\0';
		return error_set("parameters longer than %zu characters", len - 1);
	}
	if (at)
		buf[at++] = ',';
	at += (size_t)sprintf(buf + at, "%s=", key);
	for (const char *c = value; *c; c++) {
		if (*c == ',' || *c == '\\')
			buf[at++] = '\\';
		buf[at++] = *c;
	}
	buf[at] = '\0';
	*used = at;
	return 0;
}
