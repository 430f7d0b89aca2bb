/*
 * replay.c: read_iolog=FILE, fio's replay of an iolog (iolog.h): the
 * job's I/O is the log's, in its order, each I/O's file, direction,
 * offset and length as logged; version 3's stamps pace it (scaled by
 * replay_time_scale percent, not at all with replay_no_stall), version 2's
 * waits pause it; a sync or datasync entry is an fsync or fdatasync of
 * that file.
 *
 * Where fio opens the files the log names, fsbench replays onto the
 * job's own files, the log's k-th file onto the job's k-th (nrfiles is the
 * log's count, each file as long as the furthest I/O reaches): a log
 * names whatever paths it likes, and fsbench writes only files it may
 * (paths.c).  The log is parsed when the job is shaped (io_replay_shape)
 * and again when it opens; a log changed in between is refused.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void iolog_free(struct iolog_replay *r)
{
	for (unsigned i = 0; i < r->nfiles; i++)
		free(r->names[i]);
	free(r->names);
	free(r->ent);
	memset(r, 0, sizeof(*r));
}

/* The next space-separated word of [*p, end) into w (at most cap-1
 * bytes); false at the line's end or a word too long. */
static bool word(const char **p, const char *end, char *w, size_t cap)
{
	const char *s = *p;
	size_t n = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (s < end && *s != ' ' && *s != '\t') {
		if (n + 1 >= cap)
			return false;
		w[n++] = *s++;
	}
	w[n] = '\0';
	*p = s;
	return n > 0;
}

static bool number(const char *w, uint64_t *v)
{
	char *e;

	if (*w < '0' || *w > '9')
		return false;
	errno = 0;
	*v = strtoull(w, &e, 10);
	return !*e && !errno;
}

static int file_index(const struct iolog_replay *r, const char *name)
{
	for (unsigned i = 0; i < r->nfiles; i++)
		if (!strcmp(r->names[i], name))
			return (int)i;
	return -1;
}

static int push(struct iolog_replay *r, size_t *cap, const struct iolog_entry *e)
{
	if (r->n == IOLOG_MAX_ENTRIES)
		return error_set("more than %u entries (split the log)", IOLOG_MAX_ENTRIES);
	if (r->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct iolog_entry *ne = realloc(r->ent, nc * sizeof(*ne));
		if (!ne)
			return error_set("out of memory for the iolog's %zu entries", nc);
		r->ent = ne;
		*cap = nc;
	}
	r->ent[r->n++] = *e;
	return 0;
}

static int add_file(struct iolog_replay *r, const char *name)
{
	char **nn;

	if (file_index(r, name) >= 0)
		return 0;	/* added again: fio keeps the one file */
	if (r->nfiles == IOLOG_MAX_FILES)
		return error_set("more than %d files", IOLOG_MAX_FILES);
	nn = realloc(r->names, (r->nfiles + 1) * sizeof(*nn));
	if (!nn)
		return error_set("out of memory");
	r->names = nn;
	if (!(r->names[r->nfiles] = strdup(name)))
		return error_set("out of memory");
	r->nfiles++;
	return 0;
}

static int parse_line(struct iolog_replay *r, size_t *cap, const char *s, const char *end)
{
	static const char *const acts[] = { "read", "write", "trim", "sync", "datasync", "add",
					    "open", "close", "wait" };
	char w[5][300];
	int nw = 0;
	uint64_t v[3] = { 0, 0, 0 };
	struct iolog_entry e = { 0 };

	while (nw < 5 && word(&s, end, w[nw], sizeof(w[nw])))
		nw++;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s < end)
		return error_set("too many fields, or a field too long");
	int at = r->version == 3 ? 1 : 0;	/* w[at] is the file, w[at+1] the action */
	if (r->version == 3 && (nw < 1 || !number(w[0], &e.us)))
		return error_set("want a usec stamp first (version 3)");
	if (nw != at + 2 && nw != at + 4)
		return error_set("want %sFILE ACTION [OFFSET LENGTH]", at ? "USEC " : "");
	int act = -1;
	for (int i = 0; i < (int)(sizeof(acts) / sizeof(acts[0])); i++)
		if (!strcmp(w[at + 1], acts[i]))
			act = i;
	if (act < 0)
		return error_set("unknown action '%s'", w[at + 1]);
	bool io = act <= IOLOG_DATASYNC || act == IOLOG_WAIT;
	if (io != (nw == at + 4))
		return error_set("'%s' takes %s", acts[act], io ? "an offset and a length"
								 : "no offset or length");
	if (act >= IOLOG_ADD && act <= IOLOG_CLOSE)
		return act == IOLOG_ADD ? add_file(r, w[at]) : 0;
	if (!number(w[at + 2], &v[0]) || !number(w[at + 3], &v[1]))
		return error_set("offset and length must be numbers");
	if (act == IOLOG_WAIT) {
		if (r->version == 3)
			return 0;	/* fio ignores wait in version 3 */
		e.us = v[0];
		e.act = IOLOG_WAIT;
		return push(r, cap, &e);
	}
	int f = file_index(r, w[at]);
	if (f < 0)
		return error_set("file '%s' was not added before its I/O", w[at]);
	e.file = (uint32_t)f;
	e.act = (uint8_t)act;
	if (act <= IOLOG_TRIM) {
		if (!v[1] || v[1] > IOLOG_MAX_LEN)
			return error_set("length %llu: want 1 to %u bytes", (unsigned long long)v[1],
					 IOLOG_MAX_LEN);
		if (v[0] > UINT64_MAX - v[1])
			return error_set("offset %llu plus length overflows", (unsigned long long)v[0]);
		if (v[0] + v[1] > IOLOG_MAX_EXTENT)
			return error_set("offset %llu: past %llu bytes, more than a file fsbench lays out",
					 (unsigned long long)v[0], (unsigned long long)IOLOG_MAX_EXTENT);
		e.offset = v[0];
		e.len = (uint32_t)v[1];
		if (v[0] + v[1] > r->extent)
			r->extent = v[0] + v[1];
		if (!r->min_len || e.len < r->min_len)
			r->min_len = e.len;
		if (e.len > r->max_len)
			r->max_len = e.len;
		r->reads |= act == IOLOG_READ;
		r->writes |= act == IOLOG_WRITE;
		r->trims |= act == IOLOG_TRIM;
	}
	return push(r, cap, &e);
}

int iolog_parse(const char *name, const char *text, size_t len, struct iolog_replay *out)
{
	const char *p = text, *end = text + len;
	size_t cap = 0;
	int line = 1;

	memset(out, 0, sizeof(*out));
	const char *nl = memchr(p, '\n', len);
	size_t hl = (size_t)((nl ? nl : end) - p);
	if (hl >= 19 && !memcmp(p, "fio version 2 iolog", 19))
		out->version = 2;
	else if (hl >= 19 && !memcmp(p, "fio version 3 iolog", 19))
		out->version = 3;
	else
		return error_set("%s: not a fio iolog (its first line is not \"fio version 2 iolog\" "
				 "or \"fio version 3 iolog\")", name);
	p = nl ? nl + 1 : end;
	while (p < end) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < le && memchr(p, '\0', (size_t)(le - p))) {
			iolog_free(out);
			return error_set("%s:%d: a NUL byte", name, line);
		}
		if (q < le && parse_line(out, &cap, p, le)) {
			char why[512];
			str_copy(why, sizeof(why), error_get());
			iolog_free(out);
			return error_set("%s:%d: %s", name, line, why);
		}
		p = nl ? nl + 1 : end;
	}
	if (!out->reads && !out->writes && !out->trims) {
		iolog_free(out);
		return error_set("%s: no read, write or trim to replay", name);
	}
	return 0;
}

int iolog_load(const char *path, struct iolog_replay *out)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *text;
	size_t got = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return error_errno("read_iolog: cannot open %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set("read_iolog: %s is not a regular file", path);
	}
	/* a line is at least ~14 bytes: a bound on what a valid log can be */
	if ((uint64_t)st.st_size > (uint64_t)IOLOG_MAX_ENTRIES * 64) {
		close(fd);
		return error_set("read_iolog: %s is %lld bytes, more than a log of %u entries",
				 path, (long long)st.st_size, IOLOG_MAX_ENTRIES);
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return error_set("out of memory for %s", path);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, text + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	rc = iolog_parse(path, text, got, out);
	free(text);
	return rc;
}

int io_replay_shape(struct io_options *o)
{
	struct iolog_replay r;
	uint64_t bs, per;

	if (!o->read_iolog[0])
		return 0;
	if (iolog_load(o->read_iolog, &r))
		return -1;
	/* each file as long as the furthest I/O, in whole blocks of the
	 * smallest I/O (the job's bs, for its lay-out) */
	bs = r.min_len;
	per = (r.extent + bs - 1) / bs * bs;
	o->bs = bs;
	/* through their rows, which clear the parsed sizes too (an empty
	 * value always parses) */
	(void)params_set(io_option_defs, o, "bsrange", "");
	(void)params_set(io_option_defs, o, "bssplit", "");
	o->nrfiles = (int64_t)r.nfiles;
	o->size = per * r.nfiles;
	o->offset = o->offset_increment = 0;	/* the log's offsets are the files' */
	/* what the job does, as the rules and the paths judge it: a log that
	 * writes is a job that writes */
	o->rw = r.trims ? (r.writes ? RW_TRIMWRITE : RW_TRIM)
		: r.writes ? (r.reads ? RW_RW : RW_WRITE) : RW_READ;
	iolog_free(&r);
	return 0;
}

int io_replay_open(struct io_job *job)
{
	const struct io_options *o = &job->o;
	struct iolog_replay *r;

	if (!o->read_iolog[0])
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return error_set("out of memory");
	if (iolog_load(o->read_iolog, r)) {
		free(r);
		return -1;
	}
	if ((int64_t)r->nfiles != o->nrfiles || r->extent > job->per_file || r->min_len != o->bs) {
		iolog_free(r);
		free(r);
		return error_set("read_iolog: %s changed while the job was set up", o->read_iolog);
	}
	job->replay = r;
	return 0;
}

void io_replay_close(struct io_job *job)
{
	if (job->replay) {
		iolog_free(job->replay);
		free(job->replay);
		job->replay = NULL;
	}
}
