/*
 * falloc.c: every I/O is fallocate(2) over its range (fio's falloc
 * engine): a write allocates (mode 0, which may extend the file), a read
 * allocates without changing the size (FALLOC_FL_KEEP_SIZE), a trim
 * punches a hole (FALLOC_FL_PUNCH_HOLE, keeping the size).  No data moves.
 * Its files are opened O_RDWR alone, as fio's falloc opens them: direct=
 * and sync= do not change the descriptor.
 */
#define _GNU_SOURCE
#include "iojob.h"

#include <errno.h>
#include <fcntl.h>

static int falloc_queue(struct io_thread *t, struct io_req *r)
{
	int mode = r->dir == DIR_READ ? FALLOC_FL_KEEP_SIZE
		 : r->dir == DIR_TRIM ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE : 0;

	(void)t;
	r->res = fallocate(r->file->fd, mode, (off_t)r->offset, (off_t)r->len) ? -errno : (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_falloc = {
	.name = "falloc",
	.title = "FAlloc",
	.help = "each I/O is fallocate over its range (writes allocate, reads keep the size, "
		"trims punch holes)",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO | ENGINE_PLAIN_OPEN | ENGINE_TRIMS,
	.queue = falloc_queue,
};
