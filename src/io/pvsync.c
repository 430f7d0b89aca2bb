/*
 * pvsync.c: preadv(2)/pwritev(2) with one iovec, one request at a time
 * (fio's pvsync).
 */
#define _GNU_SOURCE
#include "iojob.h"

#include <errno.h>
#include <sys/uio.h>

/* Shared with pvsync2 (its flags 0 here): a short transfer goes on from
 * where it stopped, as fio's core re-issues the rest. */
int engine_vector_transfer(int fd, struct io_req *r, int flags)
{
	size_t done = 0;

	while (done < r->len) {
		struct iovec iov = { (char *)r->buf + done, r->len - done };
		off_t at = (off_t)(r->offset + done);
		ssize_t n = r->dir == DIR_READ ? preadv2(fd, &iov, 1, at, flags)
					       : pwritev2(fd, &iov, 1, at, flags);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (int)done;
}

static int pvsync_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = engine_vector_transfer(r->file->fd, r, 0);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_pvsync = {
	.name = "pvsync",
	.title = "PVSync",
	.help = "preadv/pwritev with one iovec, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = pvsync_queue,
};
