/*
 * psync.c: pread(2)/pwrite(2), one request at a time (fio's default engine).
 */
#define _GNU_SOURCE
#include "iojob.h"

#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

int engine_full_transfer(int fd, struct io_req *r, enum xfer how, int rwf)
{
	size_t done = 0;

	if (how == XFER_SEEK && lseek(fd, (off_t)r->offset, SEEK_SET) < 0)
		return -errno;
	while (done < r->len) {
		char *p = (char *)r->buf + done;
		size_t left = r->len - done;
		off_t at = (off_t)(r->offset + done);
		struct iovec iov = { p, left };
		bool rd = r->dir == DIR_READ;
		ssize_t n;

		if (how == XFER_VECTOR2)
			n = rd ? preadv2(fd, &iov, 1, at, rwf) : pwritev2(fd, &iov, 1, at, rwf);
		else if (how == XFER_VECTOR)
			n = rd ? preadv(fd, &iov, 1, at) : pwritev(fd, &iov, 1, at);
		else if (how == XFER_POSITIONED)
			n = rd ? pread(fd, p, left, at) : pwrite(fd, p, left, at);
		else
			n = rd ? read(fd, p, left) : write(fd, p, left);
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

static int psync_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = engine_full_transfer(r->file->fd, r, XFER_POSITIONED, 0);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_psync = {
	.name = "psync",
	.title = "PSync",
	.help = "pread/pwrite, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = psync_queue,
};
