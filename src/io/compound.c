/*
 * compound.c: fio's compound options, parsed once, when they are set.
 *
 * An option such as bssplit=4k/50:8k/50,16k or random_distribution=
 * zoned:50/5:30/15:20/ is text with a grammar of its own.  Its row in the
 * option table (options.c) names one of these callbacks, so every path
 * that sets it (run io:..., suites, job files, fsbench io --k=v, a stored
 * test read back) parses it here, once, into struct io_parsed; the rules
 * across options (rules.c), the I/O path and the reports read the typed
 * value.  The text is kept as written: it is what the store keeps, so a
 * stored test reads back exactly.  A value that does not parse changes
 * neither the text nor the value.  What needs the machine (whether CPU 3
 * exists) is judged when the job is validated, not here, so that a job
 * parses the same on every machine.
 */
#define _GNU_SOURCE
#include "compound.h"
#include "iojob.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PARSED(obj) (&((struct io_options *)(obj))->parsed)

/* A value longer than the row's capacity is refused as every text
 * parameter is ("text up to N characters"), before its grammar is read. */
#define CAPACITY(d, obj, value) \
	do { \
		if (strlen(value) >= (size_t)(d)->max) \
			return param_set_value(d, obj, value); \
	} while (0)

/* Keep the text (bounded by the row's capacity), then the value: called
 * once the value has parsed, so that a refusal changes nothing. */
static int keep(const struct param_def *d, void *obj, const char *value, void *field,
		const void *parsed, size_t len)
{
	if (param_set_value(d, obj, value))
		return -1;
	memcpy(field, parsed, len);
	return 0;
}

/* fio's per-direction form of rate=, bssplit= and zoned distributions:
 * "READS[,WRITES[,TRIMS]]".  As in fio, a part not ended by a separator
 * goes on to the directions after it: "A" is A for all three, "A,B" B for
 * writes and trims, "A,B," B for writes only (an empty part: the
 * default); a fourth part is refused.  text is copied into buf
 * ([PARAM_STR_MAX]) and part[] point into it; seps are what may separate
 * them. */
static int dir_parts(const char *name, const char *text, const char *seps, char *buf,
		     char *part[IO_DIRS])
{
	char *sep, *third;

	str_copy(buf, PARAM_STR_MAX, text);
	sep = strpbrk(buf, seps);
	if (sep)
		*sep = '\0';
	part[0] = buf;
	part[1] = sep ? sep + 1 : buf;
	third = sep ? strpbrk(part[1], seps) : NULL;
	part[2] = third ? third + 1 : part[1];
	if (third) {
		*third = '\0';
		if (strpbrk(third + 1, seps))
			return error_set("option '%s': '%s' has more than three parts (reads, "
					 "writes, trims)", name, text);
	}
	return 0;
}

/* rw=read:4k, rw=read:-8k: the offset modifier of a sequential job. */
int io_set_seq_add(const struct param_def *d, void *obj, const char *value)
{
	const char *s = value[0] ? value : "0";
	uint64_t v;
	int64_t add;

	CAPACITY(d, obj, value);

	if (parse_size(s[0] == '-' ? s + 1 : s, &v) || v > (1ULL << 40))
		return error_set("option 'ddir_seq_add': '%s' is not a size (4k, -8k)", s);
	add = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return keep(d, obj, value, &PARSED(obj)->seq_add, &add, sizeof(add));
}

/* bsrange=4k-64k (or fio's MIN:MAX, its t0002): every size a multiple of
 * the smallest. */
int io_set_bsrange(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	uint64_t mm[2] = { 0, 0 };
	char lo[64], *dash;

	CAPACITY(d, obj, value);

	if (value[0]) {
		if (strlen(value) >= sizeof(lo))
			return error_set("option 'bsrange': '%s' is not MIN-MAX (e.g. 4k-64k)", value);
		str_copy(lo, sizeof(lo), value);
		dash = strchr(lo, '-');
		if (!dash)
			dash = strchr(lo, ':');
		if (!dash)
			return error_set("option 'bsrange': '%s' is not MIN-MAX (e.g. 4k-64k)", value);
		*dash = 0;
		if (parse_size(lo, &mm[0]) || parse_size(dash + 1, &mm[1]) || !mm[0] || mm[0] > mm[1])
			return error_set("option 'bsrange': '%s' is not MIN-MAX with 0 < MIN <= MAX",
					 value);
		if (mm[1] % mm[0])
			return error_set("option 'bsrange': MAX must be a multiple of MIN in '%s'", value);
	}
	if (param_set_value(d, obj, value))
		return -1;
	p->bsrange_min = mm[0];
	p->bsrange_max = mm[1];
	return 0;
}

static int split_cmp(const void *a, const void *b)
{
	const unsigned *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

/* One direction's bssplit list, with fio's rules: a percentage above 100
 * counts as 100, 0 or none shares what the others leave, and the list is
 * looked up in order of percentage. */
static int split_one(char *text, struct bs_split *s)
{
	unsigned sum = 0, missing = 0;
	char *item;
	struct { unsigned perc; uint64_t bs; } e[BSSPLIT_MAX];

	s->n = 0;
	while ((item = strsep(&text, ":")) != NULL && *item) {
		char *slash = strchr(item, '/');
		unsigned perc = 0;
		if (s->n == BSSPLIT_MAX)
			return error_set("option 'bssplit': more than %d sizes", BSSPLIT_MAX);
		if (slash) {
			char *end;
			*slash = '\0';
			unsigned long p = strtoul(slash + 1, &end, 10);
			if (end == slash + 1 || *end)
				return error_set("option 'bssplit': '%s' is not a percentage", slash + 1);
			perc = p > 100 ? 100 : (unsigned)p;
		}
		if (parse_size(item, &e[s->n].bs) || !e[s->n].bs || e[s->n].bs > (1u << 30))
			return error_set("option 'bssplit': '%s' is not a block size", item);
		e[s->n].perc = perc;
		if (perc)
			sum += perc;
		else
			missing++;
		s->n++;
	}
	if (!s->n)
		return 0;
	if (sum > 100 && missing > 1)
		return error_set("option 'bssplit': the percentages add up to more than 100");
	for (unsigned i = 0; i < s->n; i++)
		if (!e[i].perc)
			e[i].perc = missing == 1 && s->n == 1 ? 100 : sum < 100 ? (100 - sum) / missing : 0;
	qsort(e, s->n, sizeof(e[0]), split_cmp);
	for (unsigned i = 0; i < s->n; i++) {
		s->bs[i] = e[i].bs;
		s->perc[i] = e[i].perc;
	}
	return 0;
}

/* bssplit=SIZE/PCT:SIZE/PCT...[,WRITES[,TRIMS]]: one split per direction. */
int io_set_bssplit(const struct param_def *d, void *obj, const char *value)
{
	struct bs_split split[IO_DIRS];
	char buf[PARAM_STR_MAX], *part[IO_DIRS];

	CAPACITY(d, obj, value);

	memset(split, 0, sizeof(split));
	if (value[0]) {
		if (dir_parts("bssplit", value, ",", buf, part))
			return -1;
		for (int k = 0; k < IO_DIRS; k++) {
			if (k && part[k] == part[k - 1])
				split[k] = split[k - 1];
			else if (part[k][0] && split_one(part[k], &split[k]))
				return -1;
		}
	}
	return keep(d, obj, value, PARSED(obj)->split, split, sizeof(split));
}

/* One direction of zoned:/zoned_abs: ("ACCESS/SIZE:..."), with fio's
 * rules: the accesses add up to 100; a zone without a size (zoned:) shares
 * what the others leave. */
static int zones_one(char *text, bool absolute, struct zone_split *z)
{
	unsigned access = 0, size = 0, missing = 0;
	char *item;

	z->n = 0;
	while ((item = strsep(&text, ":")) != NULL && *item) {
		char *slash = strchr(item, '/'), *end;
		if (z->n == ZONES_MAX)
			return error_set("option 'random_distribution': more than %d zones", ZONES_MAX);
		if (slash)
			*slash = '\0';
		unsigned long a = strtoul(item, &end, 10);
		if (end == item || *end || a > 100)
			return error_set("option 'random_distribution': '%s' is not a percentage of "
					 "the I/Os", item);
		z->access[z->n] = (unsigned)a;
		access += (unsigned)a;
		z->size[z->n] = 0;
		if (slash && slash[1]) {
			if (absolute ? parse_size(slash + 1, &z->size[z->n])
				     : (z->size[z->n] = strtoul(slash + 1, &end, 10), *end != '\0'))
				return error_set("option 'random_distribution': '%s' is not a zone %s",
						 slash + 1, absolute ? "size" : "percentage");
			if (!absolute && z->size[z->n] > 100)
				z->size[z->n] = 100;
		}
		if (!absolute && !z->size[z->n])
			missing++;
		size += absolute ? 0 : (unsigned)z->size[z->n];
		z->n++;
	}
	if (!z->n)
		return 0;
	if (access != 100 || size > 100)
		return error_set("option 'random_distribution': the zones' I/O percentages add up to "
				 "%u, not 100%s", access, size > 100 ? ", and their sizes to more than 100" : "");
	for (unsigned i = 0; missing && i < z->n; i++)
		if (!z->size[i])
			z->size[i] = (100 - size) / missing;
	return 0;
}

static int distribution(const char *text, struct dist_spec *d)
{
	char buf[PARAM_STR_MAX], *arg;
	static const struct { const char *name; enum rand_dist kind; double def; } kinds[] = {
		{ "random", DIST_RANDOM, 0 }, { "zipf", DIST_ZIPF, 1.1 },
		{ "pareto", DIST_PARETO, 0.2 }, { "normal", DIST_NORMAL, 0 },
		{ "zoned", DIST_ZONED, 0 }, { "zoned_abs", DIST_ZONED_ABS, 0 },
	};
	size_t k;

	d->center = -1;
	str_copy(buf, sizeof(buf), text[0] ? text : "random");
	arg = strchr(buf, ':');
	if (arg)
		*arg++ = '\0';
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && strcmp(buf, kinds[k].name); k++)
		;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return error_set("option 'random_distribution': '%s' is not random, zipf, pareto, "
				 "normal, zoned or zoned_abs", buf);
	d->kind = kinds[k].kind;
	d->value = kinds[k].def;
	if (d->kind == DIST_ZONED || d->kind == DIST_ZONED_ABS) {
		char lists[PARAM_STR_MAX], *part[IO_DIRS];
		bool abs = d->kind == DIST_ZONED_ABS;
		if (!arg || !*arg)
			return error_set("option 'random_distribution': %s needs its zones "
					 "(e.g. zoned:50/5:30/15:20/)", buf);
		if (dir_parts("random_distribution", arg, ",", lists, part))
			return -1;
		/* a part that repeats an earlier one is parsed once */
		for (int dir = 0; dir < IO_DIRS; dir++) {
			if (dir && part[dir] == part[dir - 1])
				d->zones[dir] = d->zones[dir - 1];
			else if (zones_one(part[dir], abs, &d->zones[dir]))
				return -1;
		}
		return 0;
	}
	if (arg && *arg) {
		char *colon = strchr(arg, ':'), *end;
		if (colon)
			*colon = '\0';
		d->value = strtod(arg, &end);
		if (end == arg || *end)
			return error_set("option 'random_distribution': '%s' is not a number", arg);
		if (colon) {
			d->center = strtod(colon + 1, &end);
			if (end == colon + 1 || *end || !(d->center >= 0 && d->center <= 1))
				return error_set("option 'random_distribution': the center '%s' is not "
						 "from 0 to 1", colon + 1);
		}
	}
	if (d->kind == DIST_ZIPF && (d->value == 1.0 || !(d->value > 0)))
		return error_set("option 'random_distribution': zipf's theta must be above 0 and "
				 "not 1");
	if (d->kind == DIST_PARETO && !(d->value > 0 && d->value < 1))
		return error_set("option 'random_distribution': pareto's h is between 0 and 1");
	if (d->kind == DIST_NORMAL && !(d->value >= 0 && d->value < 100))
		return error_set("option 'random_distribution': normal's deviation is 0 to 100 "
				 "(percent)");
	return 0;
}

/* random_distribution=random|zipf:THETA|pareto:H|normal:DEV[:CENTER]|
 * zoned:...|zoned_abs:...  (the spec is 9 KiB: it lives off the stack) */
int io_set_distribution(const struct param_def *d, void *obj, const char *value)
{
	struct dist_spec *spec;
	int rc;

	CAPACITY(d, obj, value);
	if (!(spec = calloc(1, sizeof(*spec))))
		return error_set("out of memory");
	rc = distribution(value, spec) ? -1
	     : keep(d, obj, value, &PARSED(obj)->dist, spec, sizeof(*spec));
	free(spec);
	return rc;
}

/* "0-3,6": CPUs and ranges of them, as fio's cpus_allowed, into a bitmap
 * of IO_CPUS_MAX; *top the highest. */
static int cpu_list(const char *text, uint64_t bits[IO_CPUS_MAX / 64], int *top)
{
	const char *p = text;

	*top = -1;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0)
			return error_set("option 'cpus_allowed': '%s' is not a list of CPUs such as 0-3,6",
					 text);
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return error_set("option 'cpus_allowed': '%s' has a bad range", text);
			p = end;
		}
		if (b >= IO_CPUS_MAX)
			return error_set("option 'cpus_allowed': CPU %ld: fsbench takes CPUs 0-%d",
					 b, IO_CPUS_MAX - 1);
		for (long c = a; c <= b; c++)
			bits[c / 64] |= 1ULL << (c % 64);
		if (b > *top)
			*top = (int)b;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return error_set("option 'cpus_allowed': '%s' is not a list of CPUs such as 0-3,6",
					 text);
	}
	return 0;
}

int io_set_cpus_allowed(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	uint64_t bits[IO_CPUS_MAX / 64] = { 0 };
	int top;

	CAPACITY(d, obj, value);

	if (cpu_list(value, bits, &top) || keep(d, obj, value, p->cpus_allowed, bits, sizeof(bits)))
		return -1;
	p->cpus_allowed_top = top;
	return 0;
}

/* cpumask=0x3: a bitmask of the first 64 CPUs (0x for hex, as strtoull). */
int io_set_cpumask(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	uint64_t bits[IO_CPUS_MAX / 64] = { 0 };
	int top = -1;

	CAPACITY(d, obj, value);

	if (value[0]) {
		char *end;
		errno = 0;
		unsigned long long mask = strtoull(value, &end, 0);
		if (errno || end == value || *end || !mask || value[0] == '-')
			return error_set("option 'cpumask': '%s' is not a bitmask of CPUs such as 0x3",
					 value);
		bits[0] = mask;
		top = 63 - __builtin_clzll(mask);
	}
	if (keep(d, obj, value, p->cpumask, bits, sizeof(bits)))
		return -1;
	p->cpumask_top = top;
	return 0;
}

int io_set_latency_percentile(const struct param_def *d, void *obj, const char *value)
{
	char *end;
	double pct = strtod(value, &end);

	CAPACITY(d, obj, value);

	if (end == value || *end || !(pct > 0 && pct <= 100))
		return error_set("option 'latency_percentile': '%s' is not a percentage above 0 and "
				 "at most 100", value);
	return keep(d, obj, value, &PARSED(obj)->lat_pct, &pct, sizeof(pct));
}

/* percentile_list=99:99.9:99.99 (fio's ':' list, at most IO_PCTS_MAX). */
int io_set_percentile_list(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	double out[IO_PCTS_MAX] = { 0 };
	const char *s = value;
	int n = 0;

	CAPACITY(d, obj, value);

	while (*s) {
		char *end;
		double v = strtod(s, &end);
		if (end == s || !(v >= 0 && v <= 100) || (*end && *end != ':'))
			return error_set("option 'percentile_list': '%s' is not a list of percentiles "
					 "such as 99:99.9:99.99", value);
		if (n == IO_PCTS_MAX)
			return error_set("option 'percentile_list': at most %d percentiles, as fio",
					 IO_PCTS_MAX);
		out[n++] = v;
		s = *end ? end + 1 : end;
	}
	if (keep(d, obj, value, p->pcts, out, sizeof(out)))
		return -1;
	p->npcts = n;
	return 0;
}

/* rate=, rate_iops=, rate_min=, rate_iops_min=: "A[,B[,C]]", reads,
 * writes, trims (dir_parts); an empty part is no cap.  "A:B" too, for
 * `run io:...` lists, where a comma separates parameters. */
int io_set_rate(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	bool iops = strstr(d->name, "iops") != NULL;
	uint64_t *field = !strcmp(d->name, "rate") ? p->rate : !strcmp(d->name, "rate_iops")
		? p->rate_iops : !strcmp(d->name, "rate_min") ? p->rate_min : p->rate_iops_min;
	uint64_t out[IO_DIRS] = { 0 };
	char buf[PARAM_STR_MAX], *part[IO_DIRS];

	CAPACITY(d, obj, value);

	if (value[0]) {
		if (dir_parts(d->name, value, ",:", buf, part))
			return -1;
		for (int k = 0; k < IO_DIRS; k++) {
			int64_t n;
			if (!part[k][0])
				continue;
			if (iops ? parse_int(part[k], &n) || n < 0 : parse_size(part[k], &out[k]))
				return error_set("option '%s': '%s' is not %s", d->name, part[k],
						 iops ? "a count of I/Os per second" : "a rate in bytes "
						 "per second (e.g. 500k, 2m)");
			if (iops)
				out[k] = (uint64_t)n;
		}
	}
	return keep(d, obj, value, field, out, sizeof(out));
}

/* ss=iops:10%, iops_slope:0.01%, bw:1m, bw_slope:5%: what fio's steady
 * state watches, and its limit. */
int io_set_ss(const struct param_def *d, void *obj, const char *value)
{
	char buf[PARAM_STR_MAX], *limit, *pct, *end;
	static const struct { const char *name; enum ss_measure m; bool slope; } kinds[] = {
		{ "iops", SS_IOPS, false }, { "iops_slope", SS_IOPS, true },
		{ "bw", SS_BW, false }, { "bw_slope", SS_BW, true },
	};
	struct ss_spec s;
	size_t k;

	CAPACITY(d, obj, value);

	memset(&s, 0, sizeof(s));
	str_copy(buf, sizeof(buf), value);
	limit = strchr(buf, ':');
	if (limit)
		*limit++ = '\0';
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && strcmp(buf, kinds[k].name); k++)
		;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return error_set("option 'ss': '%s' is not iops, iops_slope, bw or bw_slope", buf);
	s.measure = kinds[k].m;
	s.slope = kinds[k].slope;
	if (!limit || !*limit)
		return error_set("option 'ss': %s needs a limit after a colon (e.g. %s:10%%)", buf, buf);
	pct = strchr(limit, '%');
	if (pct) {
		s.pct = true;
		*pct = '\0';
		if (pct[1])
			return error_set("option 'ss': '%s' after the %%", pct + 1);
	}
	if (s.pct || s.measure == SS_IOPS) {
		s.limit = strtod(limit, &end);
		if (end == limit || *end || !isfinite(s.limit) || s.limit < 0)
			return error_set("option 'ss': '%s' is not a limit", limit);
	} else {
		uint64_t v;
		if (parse_size(limit, &v))
			return error_set("option 'ss': '%s' is not a bandwidth in bytes/s (e.g. 1m)",
					 limit);
		s.limit = (double)v;
	}
	return keep(d, obj, value, &PARSED(obj)->ss, &s, sizeof(s));
}

/* One ignore_error list: errno names (strerrorname_np's) or numbers. */
static int ignore_list(char *text, int list[IGNORE_MAX], unsigned *count)
{
	char *save = NULL;
	unsigned n = 0;

	for (char *name = strtok_r(text, ":", &save); name; name = strtok_r(NULL, ":", &save)) {
		int err = 0;
		if (n == IGNORE_MAX)
			return error_set("option 'ignore_error': more than %d errors in a list",
					 IGNORE_MAX);
		if (name[0] == 'E') {
			for (int k = 1; k < 4096 && !err; k++) {
				const char *known = strerrorname_np(k);
				if (known && !strcmp(known, name))
					err = k;
			}
		} else {
			char *end;
			long v = strtol(name, &end, 10);
			if (!*end && v && v > -4096 && v < 4096)
				err = v < 0 ? (int)-v : (int)v;
		}
		if (!err)
			return error_set("option 'ignore_error': '%s' is not an error name (ENOSPC) or "
					 "number", name);
		list[n++] = err;
	}
	*count = n;
	return 0;
}

/* ignore_error=READ,WRITE,VERIFY: each a ':' list.  Not dir_parts: a list
 * left out keeps the default, it does not go on to the next type. */
int io_set_ignore_error(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	int lists[ERR_TYPES][IGNORE_MAX] = { { 0 } };
	unsigned n[ERR_TYPES] = { 0 };
	char text[PARAM_STR_MAX], *rest = text;

	CAPACITY(d, obj, value);

	if (value[0]) {
		str_copy(text, sizeof(text), value);
		for (int type = 0; type < ERR_TYPES && rest; type++)
			if (ignore_list(strsep(&rest, ","), lists[type], &n[type]))
				return -1;
		if (rest)
			return error_set("option 'ignore_error': at most three lists, READ,WRITE,VERIFY");
	}
	if (keep(d, obj, value, p->ignore, lists, sizeof(lists)))
		return -1;
	memcpy(p->ignore_n, n, sizeof(n));
	return 0;
}

/* verify_pattern= and buffer_pattern=: 0xHEX, "text" or a number, as the
 * bytes it stands for. */
int io_set_pattern(const struct param_def *d, void *obj, const char *value)
{
	struct io_parsed *p = PARSED(obj);
	bool verify = !strcmp(d->name, "verify_pattern");
	struct data_spec spec;

	CAPACITY(d, obj, value);

	memset(&spec, 0, sizeof(spec));
	if (value[0] && data_pattern_parse(value, &spec))
		return verify ? error_prefix("option 'verify_pattern'") : -1;
	return keep(d, obj, value, verify ? &p->vpat : &p->bpat, &spec, sizeof(spec));
}

/* One direction of cmdprio_bssplit: SIZE/PCT[/CLASS/LEVEL]:... (fio's two
 * forms; without CLASS/LEVEL, cmdprio_class/cmdprio's). */
static int prio_one(char *text, struct prio_split *s)
{
	char *item;

	s->n = 0;
	while ((item = strsep(&text, ":")) != NULL) {
		char *f[4] = { NULL }, *end;
		int nf = 0;
		if (s->n == BSSPLIT_MAX)
			return error_set("option 'cmdprio_bssplit': more than %d sizes", BSSPLIT_MAX);
		while (nf < 4 && (f[nf] = strsep(&item, "/")) != NULL)
			nf++;
		if (item || (nf != 2 && nf != 4) || parse_size(f[0], &s->bs[s->n]) || !s->bs[s->n])
			return error_set("option 'cmdprio_bssplit': '%s' is not SIZE/PERCENT or "
					 "SIZE/PERCENT/CLASS/LEVEL", f[0] ? f[0] : "");
		unsigned long v[3] = { 0, 0, 0 };
		for (int k = 1; k < nf; k++) {
			errno = 0;
			v[k - 1] = strtoul(f[k], &end, 10);
			if (!*f[k] || *end || errno)
				return error_set("option 'cmdprio_bssplit': '%s' is not a number", f[k]);
		}
		if (v[0] > 100 || (nf == 4 && (v[1] < 1 || v[1] > 3 || v[2] > 7)))
			return error_set("option 'cmdprio_bssplit': a percentage is 0-100, a class "
					 "1-3 and a level 0-7");
		s->pct[s->n] = (unsigned)v[0];
		s->class[s->n] = (uint8_t)v[1];
		s->level[s->n] = (uint8_t)v[2];
		s->n++;
	}
	return 0;
}

int io_set_cmdprio_bssplit(const struct param_def *d, void *obj, const char *value)
{
	struct prio_split split[IO_DIRS];
	char buf[PARAM_STR_MAX], *part[IO_DIRS];

	CAPACITY(d, obj, value);
	memset(split, 0, sizeof(split));
	if (value[0]) {
		/* reads and writes, as fio's (no trims: its engines give
		 * trims no priority) */
		if (dir_parts("cmdprio_bssplit", value, ",", buf, part))
			return -1;
		for (int k = 0; k < IO_DIRS; k++) {
			if (k && part[k] == part[k - 1])
				split[k] = split[k - 1];
			else if (part[k][0] && prio_one(part[k], &split[k]))
				return -1;
		}
	}
	return keep(d, obj, value, PARSED(obj)->prio_split, split, sizeof(split));
}
