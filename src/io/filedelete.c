/*
 * filedelete.c: each file's operation is unlink(2) of its name (fio's
 * filedelete engine).  The files are laid out first, and only files
 * fsbench made there are deleted: a job whose file was there before is
 * refused, and a name that no longer leads to the file fsbench made (its
 * device and inode, looked at before the clock starts) fails the job and
 * is left alone.  A repetition lays the files out again.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static int filedelete_init(struct io_thread *t)
{
	if (engine_file_op_init(t))
		return -1;
	for (int k = 0; k < t->nfiles; k++)
		if (!t->files[k].created)
			return error_set("ioengine=filedelete deletes its files, and %s was there "
					 "before: fsbench deletes only files it made", t->files[k].path);
	return 0;
}

static int filedelete_queue(struct io_thread *t, struct io_req *r)
{
	struct io_file *f = r->file;
	struct stat st;

	if (!engine_file_op_due(t, r))
		return IO_Q_COMPLETED;
	if (!f->created || lstat(f->path, &st) || (uint64_t)st.st_dev != f->dev ||
	    (uint64_t)st.st_ino != f->ino) {
		r->res = -ESTALE;	/* not what fsbench made: left alone */
		return IO_Q_COMPLETED;
	}
	r->issue_ns = now_ns();	/* the check is not the operation */
	if (unlink(f->path)) {
		r->res = -errno;
		return IO_Q_COMPLETED;
	}
	f->created = false;
	f->ino = 0;
	r->res = (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_filedelete = {
	.name = "filedelete",
	.title = "FileDelete",
	.help = "each file's operation is unlink of its name, timed (files fsbench laid out, "
		"each checked to be still fsbench's first)",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO | ENGINE_FILE_OP,
	.init = filedelete_init,
	.queue = filedelete_queue,
};
