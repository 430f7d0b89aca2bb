/*
 * ftruncate.c: every write is ftruncate(2) of the file to the write's
 * offset (fio's ftruncate engine, a metadata load: a sequential job grows
 * the file a block at a time, a random one cuts and extends it).  No data
 * moves; a read has no meaning here and is refused, where fio fails it
 * with EINVAL.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <unistd.h>

static int ftruncate_init(struct io_thread *t)
{
	if (io_has_reads(t->o))
		return error_set("ioengine=ftruncate only writes (each write truncates the file to "
				 "its offset): use rw=write or randwrite");
	return 0;
}

static int ftruncate_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = ftruncate(r->file->fd, (off_t)r->offset) ? -errno : (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.title = "FTruncate",
	.help = "each write truncates the file to its offset (a metadata load; no data moves)",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO,
	.init = ftruncate_init,
	.queue = ftruncate_queue,
};
