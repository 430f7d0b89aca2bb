/*
 * jobfile.c: fio job-file parsing (see jobfile.h).
 */
#include "jobfile.h"
#include "foreign.h"
#include "../core/error.h"
#include "../core/ini.h"
#include "../core/str.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fio's names a job file may give that fsbench takes and drops (fio's
 * other names for its options are rows of the option table, options.c). */
static const char *const dropped[] = {
	"randrepeat", "allrandrepeat",	/* fsbench always repeats for a given seed */
	/* fio's tiobench profile option, which fio takes and ignores in a
	 * plain job (fio's steadystate.fio and waitfor.fio give it) */
	"threads",
	NULL,
};

#define ZBD_ONLY "it is zonemode=zbd's, for zoned block devices (SMR, ZNS); fsbench io works " \
	"on files"

/* Options fio has that fsbench io cannot honour: the job parses (as in
 * fio's --parse-only) and a run is refused with the reason; with
 * --ignore-unknown they are dropped with a warning.  [2] is a value that
 * changes nothing (fio's default), taken as given. */
static const char *const refused[][3] = {
	/* zonemode=zbd's own options: a zoned block device's, not a file's */
	{ "max_open_zones", ZBD_ONLY, "0" },
	{ "read_beyond_wp", ZBD_ONLY, "0" },
	{ "zonecapacity", ZBD_ONLY, NULL },
	{ "verify_async", "fsbench checks each block in the job's own thread, as fio does without "
	  "it; fio's verify threads take that work off the job, so its figures would differ "
	  "(--ignore-unknown runs it with the check in the job)", "0" },
	{ "block_error_percentiles", "fsbench io keeps no histogram of how many trims and writes "
	  "each block took to fail (fio's, for raw flash through ioengine=mtd)", "0" },
	{ NULL, NULL, NULL },
};

struct parser {
	const char *name;
	bool ignore_unknown;
	struct jobset *set;
	struct io_options global;
	struct io_options *job;		/* NULL while in [global] */
	int group, run;
	/* fio's filesize (each file's size): size= follows from it, as
	 * fio's does, unless size= was given [0] in [global], [1] in the job */
	uint64_t filesize[2];
	bool size_given[2];
	/* a log option given bare (write_bw_log): fio names the log after
	 * the job, [0] in [global], [1] in the job */
	bool log_bare[2][3];
};

static const char *const log_keys[3] = { "write_lat_log", "write_bw_log", "write_iops_log" };

/* Remember whether a log option came without a value. */
static void note_log(struct parser *p, const char *key, bool bare)
{
	for (int k = 0; k < 3; k++)
		if (!strcmp(key, log_keys[k]))
			p->log_bare[p->job != NULL][k] = bare;
}

/* A value fio reads in part: what fsbench read, and what both ignore. */
static void fio_ignored(struct parser *p, const char *where, const char *key, const char *value,
			const char *read)
{
	size_t n = strlen(p->set->notes);

	snprintf(p->set->notes + n, sizeof(p->set->notes) - n,
		 "%s%s: %s=%s read as %s=%s, as fio reads it (fio ignores the rest)\n", p->name,
		 where, key, value, key, read);
}

static void warn(struct parser *p, int line, const char *key)
{
	size_t n = strlen(p->set->warnings);
	char where[32] = "";

	if (line)
		snprintf(where, sizeof(where), ":%d", line);
	snprintf(p->set->warnings + n, sizeof(p->set->warnings) - n,
		 "%s%s: option '%s' is not supported by fsbench io; ignored\n", p->name, where, key);
}

/* fio reads a number and ignores what follows it that it does not know
 * (parse.c: strtoll, then a unit matched by its first letters):
 * strided.py passes filesize=65536), which fio runs as 65536.  Where
 * fsbench's strict parser refuses a value, fio's front end reads it as fio
 * does: the longest leading part a size (or integer) parses as, the rest
 * named in a line, never dropped silently.  Only where punctuation other
 * than '%' ends the number: a letter after it is a mistyped unit.  0 with
 * out set; -1 when no leading part is a number either (the strict error
 * then stands). */
static int fio_leading_number(const struct param_def *row, const char *value, char *out,
			      size_t len)
{
	size_t n = strlen(value);

	if (!isdigit((unsigned char)value[0]) || n >= len)
		return -1;
	for (size_t k = n - 1; k > 0; k--) {
		uint64_t size;
		int64_t v;
		memcpy(out, value, k);
		out[k] = '\0';
		if (row->type == PT_SIZE ? !parse_size(out, &size) : !parse_int(out, &v))
			/* a letter there is a unit fsbench does not know (bs=4q):
			 * refused, where fio would read 4 bytes; '%' is fio's
			 * percentage of the file (offset=200%), not something
			 * it ignores */
			return isalnum((unsigned char)value[k]) || value[k] == '%' ? -1 : 0;
	}
	return -1;
}

static const struct param_def fio_size_row = { "size", PT_SIZE, 0, "", 0, 0, NULL, "", 0, NULL };

/* A size as fio reads it: as written where it parses, else its leading
 * number (above).  -1 when neither. */
static int fio_size_text(const char *in, char *out, size_t len)
{
	uint64_t v;

	if (!parse_size(in, &v)) {
		if (strlen(in) >= len)
			return -1;
		str_copy(out, len, in);
		return 0;
	}
	return fio_leading_number(&fio_size_row, in, out, len);
}

/* fio's MIN-MAX (or MIN:MAX) split at the first '-' or ':', each side
 * read as above: t0023's bsrange=512/25:1k:25:2k:25:4k/25 is 512-1k to
 * fio.  -1 when a side is no number. */
static int fio_range(const char *value, char *out, size_t len)
{
	const char *sep = strchr(value, '-') ? strchr(value, '-') : strchr(value, ':');
	char side[64], lo[64], hi[64];

	if (!sep || (size_t)(sep - value) >= sizeof(side))
		return -1;
	memcpy(side, value, (size_t)(sep - value));
	side[sep - value] = '\0';
	if (fio_size_text(side, lo, sizeof(lo)) || fio_size_text(sep + 1, hi, sizeof(hi)))
		return -1;
	if ((size_t)snprintf(out, len, "%s-%s", lo, hi) >= len)
		return -1;
	return 0;
}

/* Set key=value; where the strict reading refuses it and fio's reading
 * (above) takes it, set that and say what fio ignores. */
static int set_as_fio(struct parser *p, struct io_options *o, const char *where,
		      const char *key, const char *value)
{
	const struct param_def *row = param_find(io_option_defs, key);
	char fio[PARAM_STR_MAX];
	int r;

	if (!params_set(io_option_defs, o, key, value))
		return 0;
	if (!row || !value)
		return -1;
	if (row->type == PT_SIZE || row->type == PT_INT)
		r = fio_leading_number(row, value, fio, sizeof(fio));
	else if (!strcmp(row->name, "bsrange"))
		r = fio_range(value, fio, sizeof(fio));
	else
		return -1;
	if (r || params_set(io_option_defs, o, key, fio)) {
		/* the first refusal says what is wrong with the value as given */
		(void)params_set(io_option_defs, o, key, value);
		return -1;
	}
	error_clear();
	fio_ignored(p, where, key, value, fio);
	return 0;
}

/* Append "key=value\n" to a given-options list (bounded: a line that does
 * not fit is left out of the report, not cut). */
static void record(char *list, const char *key, const char *value)
{
	size_t n = strlen(list), need = strlen(key) + strlen(value) + 2;

	if (n + need < 2048)
		snprintf(list + n, 2048 - n, "%s=%s\n", key, value);
}

/* Where the options as given go: the job's being set, or [global]'s. */
static char *given_list(struct parser *p)
{
	return p->job ? p->set->given[p->job - p->set->jobs] : p->set->global_given;
}

/* fio's fio_option_dup_subs: ${NAME} in a value is the environment's
 * NAME, empty when it is not set.  -1 when the result would not fit. */
static int expand_env(const char *value, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = value; *p;) {
		const char *end = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
		if (end && end > p + 2) {
			char name[256];
			size_t k = (size_t)(end - p - 2);
			if (k >= sizeof(name))
				return -1;
			memcpy(name, p + 2, k);
			name[k] = 0;
			const char *v = getenv(name);
			size_t vlen = v ? strlen(v) : 0;
			if (n + vlen >= len)
				return -1;
			memcpy(out + n, v ? v : "", vlen);
			n += vlen;
			p = end + 1;
			continue;
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = *p++;
	}
	out[n] = 0;
	return 0;
}

static int set_option(struct parser *p, int line, const char *key, const char *value)
{
	struct io_options *o = p->job ? p->job : &p->global;
	char where[32] = "", expanded[PARAM_STR_MAX];

	if (line)
		snprintf(where, sizeof(where), ":%d", line);
	if (value && strstr(value, "${")) {
		if (expand_env(value, expanded, sizeof(expanded)))
			return error_set("%s%s: option '%s': the value with its ${...} expanded is "
					 "longer than %d bytes", p->name, where, key, PARAM_STR_MAX - 1);
		value = expanded;
	}
	for (int i = 0; dropped[i]; i++)
		if (!strcmp(key, dropped[i]))
			return 0;
	const struct param_def *row = param_find(io_option_defs, key);
	if (row && !(row->flags & PF_DERIVED))
		key = row->name;	/* recorded as fio's main name */
	for (int i = 0; refused[i][0]; i++)
		if (!strcmp(key, refused[i][0])) {
			if (refused[i][2] && value && !strcmp(value, refused[i][2]))
				return record(given_list(p), key, value), 0;
			if (p->ignore_unknown)
				return warn(p, line, key), 0;
			if (!o->norun[0])
				snprintf(o->norun, sizeof(o->norun), "%s%s: option '%s': %s", p->name,
					 where, key, refused[i][1]);
			record(given_list(p), key, value ? value : "1");
			return 0;
		}
	/* fio reads any engine name (it loads the engine for its options
	 * only): one fsbench lacks parses, and its options with it */
	if (!strcmp(key, "ioengine") && value) {
		if (params_set(io_option_defs, o, key, value)) {
			error_clear();
			str_copy(o->foreign_engine, sizeof(o->foreign_engine), value);
		} else {
			o->foreign_engine[0] = '\0';
		}
		record(given_list(p), key, value);
		return 0;
	}
	if (o->foreign_engine[0] && !param_find(io_option_defs, key) &&
	    io_foreign_option(o->foreign_engine, key)) {
		record(given_list(p), key, value ? value : "1");
		return 0;
	}
	if (!strcmp(key, "filesize") && value) {
		uint64_t v;
		char fio[64];
		if (strchr(value, '-') || strchr(value, ':') || fio_size_text(value, fio, sizeof(fio)) ||
		    parse_size(fio, &v) || !v)
			return error_set("%s%s: filesize=%s: one size per file (fio's ranges are not "
					 "supported)", p->name, where, value);
		if (strcmp(fio, value))
			fio_ignored(p, where, key, value, fio);
		p->filesize[p->job != NULL] = v;
		record(given_list(p), key, value);
		return 0;
	}
	if (!strcmp(key, "size"))
		p->size_given[p->job != NULL] = true;
	if (!param_find(io_option_defs, key)) {
		if (p->ignore_unknown)
			return warn(p, line, key), 0;
		const char *near = param_suggest(io_option_defs, key);
		if (near)
			return error_set("%s%s: option '%s' is not supported by fsbench io (did you mean "
					 "'%s'? see `fsbench io --help`; --ignore-unknown skips it)",
					 p->name, where, key, near);
		return error_set("%s%s: option '%s' is not supported by fsbench io (see `fsbench "
				 "io --help`; --ignore-unknown skips it)", p->name, where, key);
	}
	if (set_as_fio(p, o, where, key, value))
		return error_prefix("%s%s", p->name, where);
	record(given_list(p), key, value);
	return 0;
}

static int start_job(struct parser *p, const char *name, int line)
{
	struct jobset *s = p->set;
	char where[32] = "";

	if (line)
		snprintf(where, sizeof(where), ":%d", line);
	if (s->njobs == JOBS_MAX)
		return error_set("%s%s: more than %d jobs", p->name, where, JOBS_MAX);
	p->job = &s->jobs[s->njobs];
	*p->job = p->global;
	str_copy(p->job->name, sizeof(p->job->name), name);
	s->group[s->njobs] = p->group;
	s->run[s->njobs] = p->run;
	p->filesize[1] = p->filesize[0];
	p->size_given[1] = p->size_given[0];
	memcpy(p->log_bare[1], p->log_bare[0], sizeof(p->log_bare[0]));
	s->given[s->njobs][0] = '\0';
	s->njobs++;
	return 0;
}

/* fio's filesize: size follows from it, or must agree with it. */
static int apply_filesize(struct parser *p, struct io_options *o)
{
	uint64_t all;

	if (!p->filesize[1])
		return 0;
	if (__builtin_mul_overflow(p->filesize[1], (uint64_t)o->nrfiles, &all))
		return error_set("%s: job %s: filesize times nrfiles is too large", p->name, o->name);
	if (!p->size_given[1])
		o->size = all;
	else if (o->size != all) {	/* fsbench's size is the files' */
		if (!o->norun[0])	/* fio's parse takes it: refused at the run */
			snprintf(o->norun, sizeof(o->norun), "%s: filesize=%llu with size=%llu: "
				 "fsbench does I/O over the whole files (give size=%llu, or leave "
				 "size out)", p->name, (unsigned long long)p->filesize[1],
				 (unsigned long long)o->size, (unsigned long long)all);
		return 0;
	}
	/* fio: each file is filesize bytes, its I/O from offset= to its end
	 * (io_size= then goes round that region) */
	if (o->offset) {
		if ((uint64_t)o->offset >= p->filesize[1])
			return error_set("%s: job %s: offset=%llu is at or past filesize=%llu",
					 p->name, o->name, (unsigned long long)o->offset,
					 (unsigned long long)p->filesize[1]);
		o->size = (p->filesize[1] - (uint64_t)o->offset) * (uint64_t)o->nrfiles;
	}
	return 0;
}

/* A job's own stonewall puts it (and what follows) in a new run, which
 * waits for the jobs before it, and a new reporting group; new_group only
 * in a new reporting group (fio's groupid), running with the others. */
static int close_job(struct parser *p)
{
	struct jobset *s = p->set;
	int i = s->njobs - 1;
	struct io_options *o;

	if (!p->job)
		return 0;
	o = p->job;
	s->sized[i] = p->size_given[1] || p->filesize[1];
	if (apply_filesize(p, o))
		return -1;
	/* An engine's own option from [global] in a job of another engine:
	 * fio keeps engine options with the engine, and a job that names
	 * another engine starts that engine's afresh (e4defrag2.fio's
	 * libaio jobs under a [global] donorname=).  Given in the job
	 * itself it stays, and the run refuses it, as fio's parse does. */
	for (int e = 0; e < ENGINES_MAX && engine_at(e); e++) {
		const struct io_engine_ops *eng = engine_at(e);
		unsigned char def[ENGINE_OPTS_MAX] __attribute__((aligned(8))) = { 0 };
		bool inherited = true;	/* none of them given in the job itself */
		if (e == o->ioengine || !eng->options || params_defaults(eng->options, def) ||
		    !memcmp(def, o->engine_opts[e], ENGINE_OPTS_MAX))
			continue;
		for (const struct param_def *d = eng->options; d->name && inherited; d++) {
			char key[80];
			snprintf(key, sizeof(key), "%s=", d->name);
			const char *g = s->given[i];
			for (const char *at = strstr(g, key); at; at = strstr(at + 1, key))
				if (at == g || at[-1] == '\n')
					inherited = false;
		}
		if (!inherited)
			continue;
		memcpy(o->engine_opts[e], def, ENGINE_OPTS_MAX);
		size_t n = strlen(s->notes);
		snprintf(s->notes + n, sizeof(s->notes) - n, "%s: job %s: the ioengine=%s options "
			 "it takes from [global] do nothing under its ioengine=%s; left out, as fio "
			 "leaves them\n",
			 p->name, o->name, eng->name, engine_at(o->ioengine) ?
			 engine_at(o->ioengine)->name : "?");
	}
	/* fio (init.c): "time_based requires a runtime/timeout setting",
	 * and runs the job without it */
	if (o->time_based && o->runtime <= 0) {
		size_t n = strlen(s->notes);
		snprintf(s->notes + n, sizeof(s->notes) - n, "%s: job %s: time_based without "
			 "runtime= is ignored, as fio ignores it\n", p->name, o->name);
		o->time_based = false;
	}
	char *logs[3] = { o->write_lat_log, o->write_bw_log, o->write_iops_log };
	for (int k = 0; k < 3; k++)
		if (p->log_bare[1][k])
			str_copy(logs[k], PARAM_STR_MAX, o->name);
	if ((o->stonewall || o->wait_for_previous) && i > 0 && s->run[i] == s->run[i - 1]) {
		p->run++;
		s->run[i] = p->run;
	}
	if ((o->stonewall || o->new_group || o->wait_for_previous) && i > 0 &&
	    s->group[i] == s->group[i - 1]) {
		p->group++;
		s->group[i] = p->group;
	}
	p->job = NULL;
	return 0;
}

static void parser_init(struct parser *p, const char *name, bool ignore_unknown,
			struct jobset *out)
{
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->ignore_unknown = ignore_unknown;
	p->set = out;
	params_defaults(io_option_defs, &p->global);
	if (out->njobs) {
		p->group = out->group[out->njobs - 1] + 1;
		p->run = out->run[out->njobs - 1] + 1;
	}
}

static int on_section(void *arg, const char *name, int line)
{
	struct parser *p = arg;

	if (close_job(p))
		return -1;
	return strcmp(name, "global") ? start_job(p, name, line) : 0;
}

static int on_entry(void *arg, const char *key, const char *value, int line)
{
	struct parser *p = arg;

	if (!value && !strncmp(key, "include ", 8))
		return error_set("%s:%d: include is not supported: put the jobs in one file", p->name,
				 line);
	note_log(p, key, !value);
	return set_option(p, line, key, value ? value : "1");
}

static const struct ini_handler handler = { 1, on_section, on_entry };

/* What holds across jobs: fio's exitall is one flag for the whole file,
 * whichever job sets it; wait_for names exactly one job defined before. */
static int cross_check(struct jobset *s)
{
	bool exitall = false;

	for (int j = 0; j < s->njobs; j++)
		exitall |= s->jobs[j].exitall;
	for (int j = 0; j < s->njobs; j++) {
		const char *w = s->jobs[j].wait_for;
		int n = 0;
		s->jobs[j].exitall = exitall;
		if (!w[0])
			continue;
		for (int k = 0; k < j; k++)
			n += !strcmp(s->jobs[k].name, w);
		if (n != 1)
			return error_set("job %s: wait_for=%s: %s", s->jobs[j].name, w,
					 n ? "more than one job has that name" :
					 "no job of that name comes before it");
	}
	return 0;
}

static int finish(struct parser *p, int rc)
{
	if (!rc)
		rc = close_job(p);
	if (!rc && !p->set->njobs)
		rc = error_set("%s: no jobs (only [global]?): add a [job] section", p->name);
	return rc ? rc : cross_check(p->set);
}

/* A flag over a job file: the parser's own rules (fio's other names, rw
 * modifiers, rwmixwrite, filesize), on job j as it stands. */
int jobfile_set(struct jobset *set, int j, const char *key, const char *value)
{
	struct parser p;

	memset(&p, 0, sizeof(p));
	p.name = "command line";
	p.set = set;
	p.job = &set->jobs[j];
	if (set_option(&p, 0, key, value))
		return -1;
	set->sized[j] |= p.size_given[1] || p.filesize[1];
	p.size_given[1] = false;	/* a filesize flag sets size, whatever the file said */
	return apply_filesize(&p, p.job) ? -1 : cross_check(set);
}

int jobfile_parse(const char *name, const char *text, bool ignore_unknown, struct jobset *out)
{
	struct parser p;

	parser_init(&p, name, ignore_unknown, out);
	return finish(&p, ini_parse(name, text, &handler, &p));
}

int jobfile_load(const char *path, bool ignore_unknown, struct jobset *out)
{
	struct parser p;

	parser_init(&p, path, ignore_unknown, out);
	return finish(&p, ini_load(path, 1 << 20, &handler, &p));
}

int jobfile_from_args(int argc, char **argv, bool ignore_unknown, struct jobset *out)
{
	struct parser p;
	int rc = 0;

	parser_init(&p, "command line", ignore_unknown, out);
	for (int i = 0; i < argc && !rc; i++) {
		char key[128], *eq;
		const char *arg = argv[i];

		if (strncmp(arg, "--", 2))
			return error_set("unexpected argument '%s' (options are --key=value)", arg);
		str_copy(key, sizeof(key), arg + 2);
		eq = strchr(key, '=');
		if (eq)
			*eq = 0;
		if (!strcmp(key, "name")) {
			rc = close_job(&p) ? -1 : start_job(&p, eq ? eq + 1 : "job", 0);
			if (!rc)	/* fio lists --name among the job's options */
				record(out->given[out->njobs - 1], "name", eq ? eq + 1 : "job");
			continue;
		}
		note_log(&p, key, !eq);
		rc = set_option(&p, 0, key, eq ? arg + 2 + (eq - key) + 1 : "1");
	}
	if (rc || close_job(&p))
		return -1;
	if (!out->njobs && argc) {
		if (start_job(&p, p.global.name, 0) || close_job(&p))
			return -1;
	}
	return cross_check(out);
}
