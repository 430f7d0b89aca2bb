/*
 * filestat.c: each file's operation is a look-up of its name (fio's
 * filestat engine): stat(2), lstat(2), or statx(2) of the path realpath(3)
 * makes absolute, as fio does, with stat_type=.  The files are laid out
 * first, as for any read job; none is opened.
 */
#define _GNU_SOURCE
#include "iojob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

static int filestat_queue(struct io_thread *t, struct io_req *r)
{
	const char *path = r->file->path;
	struct stat st;
	int rc;

	if (!engine_file_op_due(t, r))
		return IO_Q_COMPLETED;
	if (t->o->stat_type == STAT_LSTAT) {
		rc = lstat(path, &st);
	} else if (t->o->stat_type == STAT_STATX) {
		struct statx stx;
		char *abs = realpath(path, NULL);	/* fio times it with the call */
		rc = abs ? statx(-1, abs, 0, STATX_ALL, &stx) : -1;
		free(abs);
	} else {
		rc = stat(path, &st);
	}
	r->res = rc ? -errno : (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_filestat = {
	.name = "filestat",
	.title = "FileStat",
	.help = "each file's operation is stat of its name (stat_type=lstat or statx), timed; "
		"no file is opened",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO | ENGINE_FILE_OP,
	.init = engine_file_op_init,
	.queue = filestat_queue,
};
