/*
 * filecreate.c: each file's operation is its creation, open(2) with
 * O_CREAT (fio's filecreate engine, a metadata load: with filesize= one
 * block, one create per I/O).  Only the open is timed, as fio times it.
 * As in fio, up to openfiles files stay open; the oldest is closed when
 * another is wanted, the rest when the I/O ends, on the clock, outside
 * any latency.  Before each close an fstat notes the file's device and
 * inode, so that fsbench removes only what is still its file (one call
 * more than fio makes, outside the latency).  Nothing is laid
 * out, and a file already there is refused when the job is set up: the
 * first pass creates each file (O_EXCL, so one that appears meanwhile
 * fails the job rather than being taken for fsbench's); later passes open
 * what fsbench made.  Never through a symbolic link.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The files still open, oldest first: at most openfiles (0: nrfiles), as
 * fio keeps them; the oldest is closed when another is wanted. */
struct filecreate_data {
	unsigned cap, head, n;
	int *fd;
	struct io_file **file;
};

/* Close the oldest, having noted what fsbench made (outside the latency). */
static void close_oldest(struct filecreate_data *d)
{
	struct io_file *f = d->file[d->head];
	struct stat st;

	if (!fstat(d->fd[d->head], &st)) {
		f->dev = (uint64_t)st.st_dev;
		f->ino = (uint64_t)st.st_ino;
	}
	close(d->fd[d->head]);
	d->head = (d->head + 1) % d->cap;
	d->n--;
}

static int filecreate_init(struct io_thread *t)
{
	struct filecreate_data *d;

	if (engine_file_op_init(t))
		return -1;
	d = calloc(1, sizeof(*d));
	if (!d)
		return error_set("out of memory");
	t->engine_data = d;
	d->cap = t->o->openfiles && t->o->openfiles < t->nfiles ? (unsigned)t->o->openfiles
								: (unsigned)t->nfiles;
	d->fd = calloc(d->cap, sizeof(*d->fd));
	d->file = calloc(d->cap, sizeof(*d->file));
	return d->fd && d->file ? 0 : error_set("out of memory");
}

static int filecreate_queue(struct io_thread *t, struct io_req *r)
{
	struct filecreate_data *d = t->engine_data;
	struct io_file *f = r->file;
	int fd;

	if (!engine_file_op_due(t, r))
		return IO_Q_COMPLETED;
	if (d->n == d->cap)
		close_oldest(d);
	r->issue_ns = now_ns();
	fd = open(f->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (f->created ? 0 : O_EXCL),
		  0600);
	if (fd < 0) {
		r->res = -errno;
		return IO_Q_COMPLETED;
	}
	f->created = true;
	d->fd[(d->head + d->n) % d->cap] = fd;
	d->file[(d->head + d->n) % d->cap] = f;
	d->n++;
	r->res = (int)r->len;
	return IO_Q_COMPLETED;
}

/* fio closes what is open in its last sweep over the files, on its clock. */
static int filecreate_end(struct io_thread *t)
{
	struct filecreate_data *d = t->engine_data;

	while (d->n)
		close_oldest(d);
	return 0;
}

static void filecreate_cleanup(struct io_thread *t)
{
	struct filecreate_data *d = t->engine_data;

	if (!d)
		return;
	filecreate_end(t);	/* what an error left open */
	free(d->fd);
	free(d->file);
	free(d);
	t->engine_data = NULL;
}

const struct io_engine_ops engine_filecreate = {
	.name = "filecreate",
	.title = "FileCreate",
	.help = "each file's operation is its creation (open with O_CREAT), timed alone; no data "
		"moves (filesize= one block: one create per I/O)",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO | ENGINE_FILE_OP | ENGINE_MAKES_FILES,
	.init = filecreate_init,
	.queue = filecreate_queue,
	.end = filecreate_end,
	.cleanup = filecreate_cleanup,
};
