/*
 * pvsync.c: preadv(2)/pwritev(2) with one iovec, one request at a time
 * (fio's pvsync).
 */
#define _GNU_SOURCE
#include "iojob.h"

static int pvsync_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = engine_full_transfer(r->file->fd, r, XFER_VECTOR, 0);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_pvsync = {
	.name = "pvsync",
	.title = "PVSync",
	.help = "preadv/pwritev with one iovec, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = pvsync_queue,
};
