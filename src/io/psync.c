/*
 * psync.c: pread(2)/pwrite(2), one request at a time (fio's default engine).
 */
#define _GNU_SOURCE
#include "iojob.h"

#include <errno.h>
#include <unistd.h>

int engine_full_transfer(int fd, struct io_req *r, bool positioned)
{
	size_t done = 0;

	if (!positioned && lseek(fd, (off_t)r->offset, SEEK_SET) < 0)
		return -errno;
	while (done < r->len) {
		char *p = (char *)r->buf + done;
		size_t left = r->len - done;
		off_t at = (off_t)(r->offset + done);
		ssize_t n;

		if (r->dir == DIR_READ)
			n = positioned ? pread(fd, p, left, at) : read(fd, p, left);
		else
			n = positioned ? pwrite(fd, p, left, at) : write(fd, p, left);
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
	r->res = engine_full_transfer(r->file->fd, r, true);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_psync = {
	.name = "psync",
	.title = "PSync",
	.help = "pread/pwrite, one request at a time",
	.flags = ENGINE_SYNC,
	.queue = psync_queue,
};
