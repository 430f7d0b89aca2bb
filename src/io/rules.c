/*
 * rules.c: the rules of I/O options (what combines with what, block sizes,
 * space needed) and their titles (see iojob.h).
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

const char *io_rw_title(int rw)
{
	static const char *titles[] = {
		"Sequential Read", "Sequential Write", "Random Read", "Random Write",
		"Sequential Read/Write", "Sequential Read/Write", "Random Read/Write",
		"Sequential Trim", "Random Trim", "Sequential Trim/Write", "Random Trim/Write",
	};
	return rw >= 0 && rw <= RW_RANDTRIMWRITE ? titles[rw] : "?";
}

bool io_is_random(const struct io_options *o)
{
	return o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE || o->rw == RW_RANDRW ||
	       o->rw == RW_RANDTRIM || o->rw == RW_RANDTRIMWRITE;
}

/* fio gives the advice at every open of a file: FADV_RANDOM, the default
 * for a random job, turns the kernel's read-ahead off for that open file,
 * which decides what a buffered random read from a disk costs (1.7x the
 * IOPS without it, docs/workloads/io.md). */
int io_fadvise_advice(const struct io_options *o)
{
	switch (o->fadvise_hint) {
	case FADVISE_TYPE: return io_is_random(o) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	case FADVISE_RANDOM: return POSIX_FADV_RANDOM;
	case FADVISE_SEQUENTIAL: return POSIX_FADV_SEQUENTIAL;
	case FADVISE_NOREUSE: return POSIX_FADV_NOREUSE;
	default: return -1;
	}
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

/* "A[,B[,C]]": reads, writes, trims (dir_parts); an empty part is no
 * cap.  "A:B" too, for `run io:...` lists, where a comma separates
 * parameters. */
static int rate_pair(const char *name, const char *text, bool iops, uint64_t out[IO_DIRS])
{
	char buf[PARAM_STR_MAX], *part[IO_DIRS];

	for (int d = 0; d < IO_DIRS; d++)
		out[d] = 0;
	if (!text[0])
		return 0;
	if (dir_parts(name, text, ",:", buf, part))
		return -1;
	for (int d = 0; d < IO_DIRS; d++) {
		int64_t n;
		if (!part[d][0])
			continue;
		if (iops ? parse_int(part[d], &n) || n < 0 : parse_size(part[d], &out[d]))
			return error_set("option '%s': '%s' is not %s", name, part[d],
					 iops ? "a count of I/Os per second" : "a rate in bytes per second "
					 "(e.g. 500k, 2m)");
		if (iops)
			out[d] = (uint64_t)n;
	}
	return 0;
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

int io_distribution(const struct io_options *o, struct dist_spec *d)
{
	char buf[PARAM_STR_MAX], *arg;
	static const struct { const char *name; enum rand_dist kind; double def; } kinds[] = {
		{ "random", DIST_RANDOM, 0 }, { "zipf", DIST_ZIPF, 1.1 },
		{ "pareto", DIST_PARETO, 0.2 }, { "normal", DIST_NORMAL, 0 },
		{ "zoned", DIST_ZONED, 0 }, { "zoned_abs", DIST_ZONED_ABS, 0 },
	};
	size_t k;

	memset(d, 0, sizeof(*d));
	d->center = -1;
	str_copy(buf, sizeof(buf), o->random_distribution[0] ? o->random_distribution : "random");
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
			if (end == colon + 1 || *end || d->center < 0 || d->center > 1)
				return error_set("option 'random_distribution': the center '%s' is not "
						 "from 0 to 1", colon + 1);
		}
	}
	if (d->kind == DIST_ZIPF && (d->value == 1.0 || d->value <= 0))
		return error_set("option 'random_distribution': zipf's theta must be above 0 and "
				 "not 1");
	if (d->kind == DIST_PARETO && (d->value <= 0 || d->value >= 1))
		return error_set("option 'random_distribution': pareto's h is between 0 and 1");
	if (d->kind == DIST_NORMAL && (d->value < 0 || d->value >= 100))
		return error_set("option 'random_distribution': normal's deviation is 0 to 100 "
				 "(percent)");
	return 0;
}

int io_seq_add(const struct io_options *o, int64_t *add)
{
	const char *s = o->ddir_seq_add[0] ? o->ddir_seq_add : "0";
	uint64_t v;

	if (parse_size(s[0] == '-' ? s + 1 : s, &v) || v > (1ULL << 40))
		return error_set("option 'ddir_seq_add': '%s' is not a size (4k, -8k)", s);
	*add = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

int io_rate_bps(const struct io_options *o, uint64_t min_bs, uint64_t bps[IO_DIRS])
{
	uint64_t rate[IO_DIRS], iops[IO_DIRS];

	if (rate_pair("rate", o->rate, false, rate) || rate_pair("rate_iops", o->rate_iops, true, iops))
		return -1;
	for (int d = 0; d < IO_DIRS; d++) {
		/* fio: rate= where given, else rate_iops times the block size */
		if (rate[d])
			bps[d] = rate[d];
		else if (__builtin_mul_overflow(iops[d], min_bs, &bps[d]))
			return error_set("option 'rate_iops': %llu I/Os of %llu bytes a second is too many",
					 (unsigned long long)iops[d], (unsigned long long)min_bs);
	}
	return 0;
}

int io_rate_min(const struct io_options *o, uint64_t bps[IO_DIRS], uint64_t iops[IO_DIRS])
{
	uint64_t rate[IO_DIRS], rate_iops[IO_DIRS];
	static const char *const dirs[IO_DIRS] = { "reads", "writes", "trims" };

	if (rate_pair("rate_min", o->rate_min, false, bps) ||
	    rate_pair("rate_iops_min", o->rate_iops_min, true, iops) ||
	    rate_pair("rate", o->rate, false, rate) ||
	    rate_pair("rate_iops", o->rate_iops, true, rate_iops))
		return -1;
	for (int d = 0; d < IO_DIRS; d++)	/* fio refuses these */
		if ((rate[d] && rate[d] < bps[d]) || (rate_iops[d] && rate_iops[d] < iops[d]))
			return error_set("option 'rate_min': the minimum for %s exceeds the rate",
					 dirs[d]);
	return 0;
}

/* fio keeps a random map in blocks of the smallest size but draws
 * offsets in blocks of ba, so with both its map and ba disagree; a
 * sequential job's offsets follow the I/Os and ba does nothing. */
bool io_uses_map(const struct io_options *o)
{
	struct dist_spec d;

	return io_is_random(o) && !o->norandommap && o->random_generator != RANDGEN_LFSR &&
	       !io_distribution(o, &d) && d.kind == DIST_RANDOM;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

uint64_t io_verify_chunk(const struct io_options *o, uint64_t min, uint64_t max)
{
	uint64_t vi = (uint64_t)o->verify_interval;

	/* fio's fix-up: sizes that vary get the smallest, so that every
	 * chunk of every write is alike; an interval above it is it; one
	 * that divides neither size is their gcd */
	if (!vi && max != min)
		vi = min;
	if (vi > min)
		vi = min;
	if (!vi || min % vi || max % vi)
		vi = gcd(min, max);
	return vi;
}

const char *io_verify_name(int m)
{
	static const char *const names[] = { "0", "crc32c", "meta", "pattern", "crc32c-intel",
		"md5", "sha1", "sha256", "sha512", "xxhash", "crc32", "crc64", "crc16", "crc7",
		"sha3-224", "sha3-256", "sha3-384", "sha3-512", "null" };
	_Static_assert(sizeof(names) / sizeof(names[0]) == VERIFY_NULL + 1, "a name per mode");

	return m >= 0 && m < (int)(sizeof(names) / sizeof(names[0])) ? names[m] : "?";
}

int io_verify_mode(const struct io_options *o)
{
	if (o->verify == VERIFY_NONE && o->verify_pattern[0])
		return VERIFY_PATTERN;
	return o->verify == VERIFY_CRC32C_INTEL ? VERIFY_CRC32C : o->verify;
}

bool io_has_reads(const struct io_options *o)
{
	return o->rw == RW_READ || o->rw == RW_RANDREAD || o->rw == RW_RW ||
	       o->rw == RW_READWRITE || o->rw == RW_RANDRW;
}

bool io_has_writes(const struct io_options *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD && o->rw != RW_TRIM &&
	       o->rw != RW_RANDTRIM;
}

bool io_has_trims(const struct io_options *o)
{
	return o->rw == RW_TRIM || o->rw == RW_RANDTRIM || o->rw == RW_TRIMWRITE ||
	       o->rw == RW_RANDTRIMWRITE;
}

bool io_has_dir(const struct io_options *o, int dir)
{
	return dir == DIR_READ ? io_has_reads(o) : dir == DIR_WRITE ? io_has_writes(o)
								    : io_has_trims(o);
}

bool io_is_direct(const struct io_options *o)
{
	return o->direct || !o->buffered;
}

/* bsrange "4k-64k" into min and max; an empty range is bs alone. */
static int split_cmp(const void *a, const void *b)
{
	const unsigned *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

/* One direction's list, with fio's rules: a percentage above 100 counts
 * as 100, 0 or none shares what the others leave, and the list is looked
 * up in order of percentage. */
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

int io_bssplit(const struct io_options *o, struct bs_split split[IO_DIRS])
{
	char buf[PARAM_STR_MAX], *part[IO_DIRS];

	for (int d = 0; d < IO_DIRS; d++)
		split[d].n = 0;
	if (!o->bssplit[0])
		return 0;
	if (dir_parts("bssplit", o->bssplit, ",", buf, part))
		return -1;
	for (int d = 0; d < IO_DIRS; d++) {
		if (d && part[d] == part[d - 1])
			split[d] = split[d - 1];
		else if (part[d][0] && split_one(part[d], &split[d]))
			return -1;
	}
	return 0;
}

int io_block_sizes(const struct io_options *o, uint64_t *min, uint64_t *max)
{
	char lo[64], *dash;

	*min = *max = o->bs;
	if (o->bssplit[0]) {
		struct bs_split s[IO_DIRS];
		if (io_bssplit(o, s))
			return -1;
		*min = UINT64_MAX;
		*max = 0;
		for (int d = 0; d < IO_DIRS; d++)
			for (unsigned i = 0; i < s[d].n; i++) {
				*min = s[d].bs[i] < *min ? s[d].bs[i] : *min;
				*max = s[d].bs[i] > *max ? s[d].bs[i] : *max;
			}
		if (!*max)
			*min = *max = o->bs;
		return 0;
	}
	if (!o->bsrange[0])
		return 0;
	str_copy(lo, sizeof(lo), o->bsrange);
	dash = strchr(lo, '-');
	if (!dash)
		dash = strchr(lo, ':');	/* fio takes MIN:MAX too (its t0002) */
	if (!dash)
		return error_set("option 'bsrange': '%s' is not MIN-MAX (e.g. 4k-64k)", o->bsrange);
	*dash = 0;
	if (parse_size(lo, min) || parse_size(dash + 1, max) || !*min || *min > *max)
		return error_set("option 'bsrange': '%s' is not MIN-MAX with 0 < MIN <= MAX", o->bsrange);
	if (*max % *min)
		return error_set("option 'bsrange': MAX must be a multiple of MIN in '%s'", o->bsrange);
	return 0;
}

/* "0-3,6": CPUs and ranges of them, as fio's cpus_allowed. */
static int cpu_list(const char *text, cpu_set_t *set, long ncpu)
{
	const char *p = text;

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
		if (b >= ncpu || b >= CPU_SETSIZE)
			return error_set("option 'cpus_allowed': CPU %ld: this machine has CPUs 0-%ld",
					 b, ncpu - 1);
		for (long c = a; c <= b; c++)
			CPU_SET((int)c, set);
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return error_set("option 'cpus_allowed': '%s' is not a list of CPUs such as 0-3,6",
					 text);
	}
	return 0;
}

int io_percentiles(const struct io_options *o, double out[IO_PCTS_MAX])
{
	const char *p = o->percentile_list;
	int n = 0;

	while (*p) {
		char *end;
		double v = strtod(p, &end);
		if (end == p || !(v >= 0 && v <= 100) || (*end && *end != ':'))
			return error_set("option 'percentile_list': '%s' is not a list of percentiles "
					 "such as 99:99.9:99.99", o->percentile_list);
		if (n == IO_PCTS_MAX)
			return error_set("option 'percentile_list': at most %d percentiles, as fio",
					 IO_PCTS_MAX);
		out[n++] = v;
		p = *end ? end + 1 : end;
	}
	return n;
}

struct io_pct_on io_pct_on(const struct io_options *o)
{
	bool off = o->gtod_reduce;	/* fio's str_gtod_reduce_cb */
	struct io_pct_on p = { o->clat_percentiles && !o->disable_clat && !off,
			       o->lat_percentiles && !o->disable_lat && !off,
			       o->slat_percentiles && !o->disable_slat && !off };

	return p;
}

int io_latency_percentile(const struct io_options *o, double *pct)
{
	char *end;

	*pct = strtod(o->latency_percentile, &end);
	if (end == o->latency_percentile || *end || !(*pct > 0 && *pct <= 100))
		return error_set("option 'latency_percentile': '%s' is not a percentage above 0 and "
				 "at most 100", o->latency_percentile);
	return 0;
}

int io_cpu_set(const struct io_options *o, cpu_set_t *set)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(set);
	if (o->cpus_allowed[0]) {
		if (cpu_list(o->cpus_allowed, set, ncpu))
			return -1;
	} else if (o->cpumask[0]) {
		char *end;
		errno = 0;
		unsigned long long mask = strtoull(o->cpumask, &end, 0);
		if (errno || end == o->cpumask || *end || !mask)
			return error_set("option 'cpumask': '%s' is not a bitmask of CPUs such as 0x3",
					 o->cpumask);
		for (int c = 0; c < 64; c++)
			if (mask >> c & 1) {
				if (c >= ncpu)
					return error_set("option 'cpumask': CPU %d: this machine has CPUs "
							 "0-%ld", c, ncpu - 1);
				CPU_SET(c, set);
			}
	}
	return CPU_COUNT(set);
}

int io_file_name(const struct io_options *o, int copy, int file, char *buf, size_t len)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	const char *name = o->name[0] ? o->name : "job";
	const char *p = o->filename_format;
	size_t n = 0;

	if (!*p) {
		if ((size_t)snprintf(buf, len, "%s.%d.%d", name, copy, file) >= len)
			return error_set("file name too long: %s.%d.%d", name, copy, file);
		return 0;
	}
	while (*p) {
		char val[PARAM_STR_MAX];
		int k = 0;
		while (k < 4 && strncasecmp(p, keys[k], strlen(keys[k])))
			k++;
		switch (k) {
		case 0: str_copy(val, sizeof(val), name); break;
		case 1: snprintf(val, sizeof(val), "%d", copy); break;
		case 2: snprintf(val, sizeof(val), "%d", file); break;
		case 3: val[0] = 0; break;	/* fio's client address: none here */
		default: val[0] = *p; val[1] = 0;	/* a character of the format */
		}
		size_t klen = k < 4 ? strlen(keys[k]) : 1, vlen = strlen(val);
		if (n + vlen >= len)
			return error_set("option 'filename_format': the name of file %d of copy %d is "
					 "longer than %zu bytes", file, copy, len - 1);
		memcpy(buf + n, val, vlen);
		n += vlen;
		p += klen;
	}
	buf[n] = 0;
	if (!n)
		return error_set("option 'filename_format' gives an empty file name");
	return 0;
}

/* One ignore_error list: errno names (strerrorname_np's) or numbers. */
static int ignore_list(char *text, int type, struct io_errors *e)
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
		e->err[type][n++] = err;
	}
	if (n) {	/* fio: a list turns continue_on_error on for its type */
		e->n[type] = n;
		e->mask |= 1u << type;
	}
	return 0;
}

int io_errors(const struct io_options *o, struct io_errors *e)
{
	static const unsigned masks[] = { 0, 1u << ERR_READ, 1u << ERR_WRITE,
					  1u << ERR_READ | 1u << ERR_WRITE, 1u << ERR_VERIFY, 7, 0, 7 };
	char text[PARAM_STR_MAX], *rest = text;

	memset(e, 0, sizeof(*e));
	e->mask = masks[o->continue_on_error];
	for (int type = 0; type < ERR_TYPES; type++) {
		e->err[type][0] = EIO;
		e->err[type][1] = EILSEQ;
		e->n[type] = 2;
	}
	if (!o->ignore_error[0])
		return 0;
	/* not dir_parts: a list left out keeps the default, it does not go on */
	str_copy(text, sizeof(text), o->ignore_error);
	for (int type = 0; type < ERR_TYPES && rest; type++)
		if (ignore_list(strsep(&rest, ","), type, e))
			return -1;
	if (rest)
		return error_set("option 'ignore_error': at most three lists, READ,WRITE,VERIFY");
	return 0;
}

/* fio's zonemode: zbd drives a zoned block device's zones by their
 * write pointers, which a file has not; strided is fsbench's for the
 * offsets fio's own code draws, and refused where it would need more. */
static int io_zone_check(const struct io_options *o, uint64_t min, uint64_t max)
{
	struct dist_spec d;
	int64_t add;

	if (o->zonemode == ZONEMODE_ZBD)
		return error_set("zonemode=zbd is for zoned block devices (SMR disks, ZNS drives), "
				 "written at each zone's write pointer: fsbench io works on files");
	if (o->zonemode == ZONEMODE_NONE) {
		if (o->zonesize)	/* fio's own check */
			return error_set("option 'zonesize' needs zonemode=strided (fio: zonemode=none "
					 "and zonesize are not compatible)");
		return 0;
	}
	if (!o->zonesize)
		return error_set("zonemode=strided needs zonesize= (as fio)");
	uint64_t range = o->zonerange ? o->zonerange : o->zonesize;
	if (range < max)
		return error_set("zonemode=strided: a zone of %llu bytes is smaller than a block "
				 "(%llu)", (unsigned long long)range, (unsigned long long)max);
	if (io_has_trims(o) || io_verify_mode(o))
		return error_set("zonemode=strided with %s: not supported",
				 io_has_trims(o) ? "trims" : "verify");
	if (io_seq_add(o, &add) || add || o->ddir_seq_nr > 1)
		return add || o->ddir_seq_nr > 1
			? error_set("zonemode=strided with rw=...:N: not supported") : -1;
	if (io_distribution(o, &d))
		return -1;
	if (io_is_random(o) && (min != max || d.kind != DIST_RANDOM))
		return error_set("zonemode=strided with random I/O: one block size and "
				 "random_distribution=random only");
	return 0;
}

int io_options_validate(const struct io_options *o)
{
	uint64_t min, max;

	if (io_block_sizes(o, &min, &max))
		return -1;
	if (max > (1u << 30))
		return error_set("option 'bs': at most 1g per I/O");
	if (o->time_based && o->runtime <= 0)
		return error_set("option 'time_based' needs runtime= (how long to run)");
	uint64_t last_base, end;
	if (__builtin_mul_overflow(o->offset_increment, (uint64_t)(o->numjobs - 1), &last_base) ||
	    __builtin_add_overflow(last_base, o->offset, &last_base) ||
	    __builtin_add_overflow(last_base, o->size, &end) || end > (uint64_t)INT64_MAX)
		return error_set("option 'offset_increment': the last thread's region would end past "
				 "the largest file offset");
	cpu_set_t cpus;
	double pcts[IO_PCTS_MAX];
	if (io_cpu_set(o, &cpus) < 0 || io_percentiles(o, pcts) < 0)
		return -1;
	const struct io_engine_ops *eng = engine_at(o->ioengine);
	bool file_op = eng && (eng->flags & ENGINE_FILE_OP);
	if (o->openfiles && o->openfiles < o->nrfiles && !file_op)
		return error_set("option 'openfiles': %lld of %lld files open at once: fsbench holds "
				 "every file of a job open, where fio would open and close them in the "
				 "run; drop openfiles=", (long long)o->openfiles, (long long)o->nrfiles);
	if (eng && (eng->flags & ENGINE_MAKES_FILES) && o->filename[0] && o->numjobs > 1)
		return error_set("ioengine=%s with filename= and numjobs=%lld: the threads would "
				 "create one file", eng->name, (long long)o->numjobs);
	int vmode = io_verify_mode(o);
	if (o->read_iolog[0]) {
		/* a replay's I/O is the log's: what would choose it otherwise
		 * is refused rather than silently not acting */
		const char *why = vmode ? "verify (the log's writes have no headers to check)"
			: o->zonemode != ZONEMODE_NONE ? "zonemode (the log's offsets are the I/O)"
			: o->rate[0] || o->rate_iops[0] || o->rate_min[0] || o->rate_iops_min[0]
			? "a rate (the log's stamps pace a replay: replay_time_scale)"
			: eng && (eng->flags & ENGINE_FILE_OP) ? "a file-operation engine" : NULL;
		if (why)
			return error_set("read_iolog with %s: not supported", why);
	}
	if (o->io_submit_mode == SUBMIT_OFFLOAD && eng && strcmp(eng->name, "psync") &&
	    strcmp(eng->name, "pvsync") && strcmp(eng->name, "null"))
		return error_set("io_submit_mode=offload with ioengine=%s: fsbench offloads psync, "
				 "pvsync and null, whose calls several workers can make at once "
				 "with no state of the engine's own", eng->name);
	if (o->latency_target > 0) {
		double pct;
		if (io_latency_percentile(o, &pct))
			return -1;
		if (eng && (eng->flags & ENGINE_SYNC))
			return error_set("option 'latency_target' searches for a queue depth: ioengine=%s "
					 "keeps one I/O in flight (use libaio or io_uring)", eng->name);
		if (o->latency_window <= 0)
			return error_set("option 'latency_target' needs latency_window= (how long each "
					 "queue depth is judged over)");
	}
	if (io_has_trims(o)) {
		static const char *const rw[] = { [RW_TRIM] = "trim", [RW_RANDTRIM] = "randtrim",
						  [RW_TRIMWRITE] = "trimwrite",
						  [RW_RANDTRIMWRITE] = "randtrimwrite" };
		bool trimwrite = o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE;
		if (eng && strcmp(eng->name, "falloc") && strcmp(eng->name, "null"))
			return error_set("rw=%s with ioengine=%s: fio's %s engine trims with "
					 "BLKDISCARD, which a regular file refuses, and fsbench io works "
					 "on files; ioengine=falloc trims a file (it punches holes)",
					 rw[o->rw], eng->name, eng->name);
		if (vmode)
			return error_set("rw=%s with verify: fsbench does not verify trims",
					 rw[o->rw]);
		if (trimwrite && (o->rate[0] || o->rate_iops[0] || o->rate_min[0] ||
				  o->rate_iops_min[0]))
			return error_set("rw=%s with a rate: not supported (rw=trim and randtrim "
					 "take one)", rw[o->rw]);
		if (o->rw == RW_RANDTRIMWRITE && o->ddir_seq_nr > 1)
			return error_set("rw=randtrimwrite:N: not supported");
	}
	struct io_errors errs;
	char fname[PARAM_STR_MAX + 64];
	if (io_zone_check(o, min, max) || io_errors(o, &errs) ||
	    io_file_name(o, (int)o->numjobs - 1, (int)o->nrfiles - 1, fname, sizeof(fname)))
		return -1;
	if (o->verify_backlog && vmode && io_is_random(o) && !io_uses_map(o) && io_has_writes(o))
		return error_set("option 'verify_backlog' with random writes and no random map "
				 "(norandommap, random_generator=lfsr or a non-uniform distribution): not "
				 "supported (fio reads those back in offset order, a block once however "
				 "often it was written)");
	if (vmode >= VERIFY_CRC64 && vmode <= VERIFY_CRC7)
		return error_set("verify=%s: no Debian library gives it, and fsbench does not write "
				 "hashes of its own; use crc32c, crc32, md5, sha1, sha256, sha512 or "
				 "xxhash", vmode == VERIFY_CRC64 ? "crc64" : vmode == VERIFY_CRC16 ? "crc16"
				 : "crc7");
	if (vmode >= VERIFY_SHA3_224 && vmode <= VERIFY_SHA3_512)
		return error_set("verify=sha3-*: OpenSSL gives SHA-3 only through its EVP calls, "
				 "which allocate for every digest; use sha256 or sha512");
	if (vmode == VERIFY_NULL)
		return error_set("verify=null pretends to verify (fio's test of its own internals); "
				 "fsbench has no such mode: drop verify=");
	uint64_t chunk = io_verify_chunk(o, min, max);
	if (vmode && min != max && o->verify_backlog)
		return error_set("option 'verify_backlog' with block sizes that vary: not supported "
				 "(its list holds one size of block)");
	if (vmode && chunk < io_verify_hdr_len(vmode))
		return error_set("option 'verify': bs%s must be at least %u bytes for the header",
				 o->verify_interval ? " or verify_interval" : "", io_verify_hdr_len(vmode));
	if (vmode == VERIFY_PATTERN && !o->verify_pattern[0])
		return error_set("option 'verify=pattern' needs verify_pattern=");
	uint64_t bps[IO_DIRS];
	struct dist_spec dist;
	int64_t add;
	if (io_rate_bps(o, min, bps) || io_distribution(o, &dist) || io_seq_add(o, &add))
		return -1;
	if (o->verify_pattern[0]) {
		struct data_spec d;
		if (data_pattern_parse(o->verify_pattern, &d))
			return error_prefix("option 'verify_pattern'");
	}
	if (o->buffer_pattern[0] && (o->zero_buffers || o->buffer_compress_percentage))
		return error_set("option 'buffer_pattern' cannot be combined with zero_buffers or "
				 "buffer_compress_percentage");
	if (o->zero_buffers && o->buffer_compress_percentage)
		return error_set("option 'zero_buffers' cannot be combined with buffer_compress_percentage");
	if (o->buffer_pattern[0]) {
		struct data_spec d;
		if (data_pattern_parse(o->buffer_pattern, &d))
			return -1;
	}
	uint64_t rmin[2][IO_DIRS];
	if (io_rate_min(o, rmin[0], rmin[1]))
		return -1;
	if (o->ba && o->ba != min && io_is_random(o) && (vmode || io_uses_map(o)))
		return error_set("option 'ba': %s with ba=%llu and blocks of %llu: fio's own offsets "
				 "and map disagree there; add norandommap, or use "
				 "random_generator=lfsr", vmode ? "verify" : "a random map",
				 (unsigned long long)o->ba, (unsigned long long)min);
	if ((o->hipri || o->nowait) && eng && strcmp(eng->name, "pvsync2"))
		return error_set("option '%s' is pvsync2's here (fio's io_uring polls with it: "
				 "fsbench's io_uring does not)", o->hipri ? "hipri" : "nowait");
	struct ss_spec ss;
	if (io_ss_spec(o, &ss))
		return -1;
	if (o->ss_dur > 0 && (o->ss_dur < 2 || o->ss_dur != floor(o->ss_dur)))
		return error_set("option 'ss_dur': whole seconds, at least 2 (fio checks every second "
				 "and needs more than one sample)");
	if (strchr(o->filename, ':'))
		return error_set("option 'filename': lists (a:b) are not supported; use nrfiles=");
	return 0;
}

uint64_t io_options_space(const struct io_options *o)
{
	uint64_t files = o->filename[0] ? 1 : (uint64_t)o->numjobs;

	return sat_mul(sat_add(o->offset, o->size), files);
}

double io_dir_secs(const struct io_options *o, const struct io_result *r, int dir)
{
	uint64_t ns = dir == DIR_READ && r->verify_ns && !io_has_reads(o) ? r->verify_ns : r->elapsed_ns;

	return ns ? (double)ns / 1e9 : 1e-9;
}
