/*
 * sync.c: lseek(2) then read(2)/write(2), one request at a time (fio's sync).
 */
#define _GNU_SOURCE
#include "iojob.h"

static int sync_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = engine_full_transfer(r->file->fd, r, XFER_SEEK, 0);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_sync = {
	.name = "sync",
	.title = "Sync",
	.help = "lseek then read/write, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = sync_queue,
};
