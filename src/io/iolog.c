/*
 * iolog.c: fio's write_iolog=FILE, the I/O a thread issued in fio's
 * iolog version 3 format, which fio's read_iolog replays:
 *
 *   fio version 3 iolog
 *   <usec> <file> add            every file, when the thread is set up
 *   <usec> <file> open           then each open
 *   <usec> <file> read|write <offset> <length>     each I/O, as it is queued
 *   <usec> <file> sync|datasync 0 0                each fsync/fdatasync
 *   <usec> <file> close
 *
 * usec counts from the thread's set-up, as fio's io_log_start_time.  An
 * I/O costs one clock read and a store into a preallocated block of
 * entries (fio prints each line as it queues it); a full block is
 * formatted and appended to the file by the thread, outside any timed
 * call.  Each thread appends (O_APPEND), its header first, so the threads
 * of a job share one file, as fio's do.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IOLOG_ENTRIES 4096
#define IOLOG_TEXT (1u << 18)

static const char *const act_name[] = {
	[IOLOG_READ] = "read", [IOLOG_WRITE] = "write", [IOLOG_TRIM] = "trim",
	[IOLOG_SYNC] = "sync", [IOLOG_DATASYNC] = "datasync", [IOLOG_ADD] = "add",
	[IOLOG_OPEN] = "open", [IOLOG_CLOSE] = "close",
};

/* The name fio would print: the one the job gave, beneath its directory
 * unless directory= was set. */
static const char *log_name(const struct io_thread *t, const struct io_file *f)
{
	return f->rel >= 0 && !t->o->directory[0] ? f->path + f->rel : f->path;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static int write_all(struct io_iolog *l, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(l->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Format the entries held and append them; 0, or -1 with t's error set. */
static int flush(struct io_thread *t)
{
	struct io_iolog *l = t->iolog;
	char *p = l->text, *end = l->text + IOLOG_TEXT;

	for (unsigned i = 0; i < l->n; i++) {
		const struct io_iolog_ent *e = &l->ent[i];
		const char *name = log_name(t, &t->files[e->file]);
		size_t nl = strlen(name);

		/* a line: two numbers of 20 digits, the name, an action */
		if ((size_t)(end - p) < nl + 3 * 21 + 16) {
			if (write_all(l, l->text, (size_t)(p - l->text)))
				goto fail;
			p = l->text;
		}
		p = put_u64(p, e->us);
		*p++ = ' ';
		memcpy(p, name, nl);
		p += nl;
		*p++ = ' ';
		size_t al = strlen(act_name[e->act]);
		memcpy(p, act_name[e->act], al);
		p += al;
		if (e->act <= IOLOG_DATASYNC) {
			*p++ = ' ';
			p = put_u64(p, e->offset);
			*p++ = ' ';
			p = put_u64(p, e->len);
		}
		*p++ = '\n';
	}
	l->n = 0;
	if (p > l->text && write_all(l, l->text, (size_t)(p - l->text)))
		goto fail;
	return 0;
fail:
	l->n = 0;
	if (!t->error) {
		t->error = errno ? errno : EIO;
		snprintf(t->errmsg, sizeof(t->errmsg), "write_iolog %s: %s", t->o->write_iolog,
			 strerror(t->error));
	}
	return -1;
}

void io_iolog_full(struct io_thread *t)
{
	flush(t);
}

int io_iolog_begin(struct io_thread *t)
{
	static const char header[] = "fio version 3 iolog\n";
	struct io_iolog *l;

	if (!t->o->write_iolog[0])
		return 0;
	l = calloc(1, sizeof(*l));
	if (l)
		l->ent = malloc(sizeof(*l->ent) * IOLOG_ENTRIES);
	if (l && l->ent)
		l->text = malloc(IOLOG_TEXT);
	if (!l || !l->ent || !l->text) {
		if (l)
			free(l->ent);
		free(l);
		return error_set("out of memory for write_iolog");
	}
	l->cap = IOLOG_ENTRIES;
	l->t0 = now_ns();
	l->fd = open(t->o->write_iolog, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (l->fd < 0) {
		int e = errno;
		free(l->text);
		free(l->ent);
		free(l);
		errno = e;
		return error_errno("write_iolog: cannot open %s", t->o->write_iolog);
	}
	t->iolog = l;
	if (write_all(l, header, sizeof(header) - 1)) {
		int e = errno;
		io_iolog_end(t);
		errno = e;
		return error_errno("write_iolog %s", t->o->write_iolog);
	}
	for (int k = 0; k < t->nfiles; k++)
		io_iolog_note(t, &t->files[k], IOLOG_ADD, 0, 0);
	for (int k = 0; k < t->nfiles; k++)
		io_iolog_note(t, &t->files[k], IOLOG_OPEN, 0, 0);
	return 0;
}

int io_iolog_end(struct io_thread *t)
{
	struct io_iolog *l = t->iolog;
	int rc;

	if (!l)
		return 0;
	for (int k = 0; k < t->nfiles; k++)
		io_iolog_note(t, &t->files[k], IOLOG_CLOSE, 0, 0);
	rc = flush(t);
	if (close(l->fd) && !rc && !t->error) {
		t->error = errno;
		snprintf(t->errmsg, sizeof(t->errmsg), "write_iolog %s: %s", t->o->write_iolog,
			 strerror(errno));
		rc = -1;
	}
	free(l->text);
	free(l->ent);
	free(l);
	t->iolog = NULL;
	return rc;
}
