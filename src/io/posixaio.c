/*
 * posixaio.c: POSIX AIO, aio_read(3)/aio_write(3) (fio's posixaio engine).
 *
 * glibc runs POSIX AIO on helper threads of its own, so a request is in
 * flight from the call that queues it; there is no separate submission.
 * As fio's engine, queue() issues at once, the request's slat is the
 * aio_read/aio_write call and its clat runs from that call's return
 * (ENGINE_STAMPS_ISSUE); a reap polls aio_error(3) over the requests in
 * flight and, short of its minimum, sleeps in aio_suspend(3) on up to
 * eight of them, then polls again.  glibc's threads are the process's and
 * outlive a job, so the job's thread keeps the process's file table
 * (ENGINE_SHARED_TABLE): with one of its own, the next job's requests
 * reached glibc's threads with descriptors they did not have (EBADF).
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <aio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* fio's SUSPEND_ENTRIES: how many requests one aio_suspend waits on */
#define SUSPEND_MAX 8

struct posixaio {
	struct aiocb *cbs;		/* one per request slot */
	struct io_req **flight;		/* the slot's request while in flight, else NULL */
	struct io_req **events;		/* the last reap's completions */
	unsigned queued;
};

static void pa_cleanup(struct io_thread *t)
{
	struct posixaio *p = t->engine_data;

	if (!p)
		return;
	/* a thread ending on an error may leave requests in flight: their
	 * buffers are freed after this, so wait for each to be done */
	for (unsigned i = 0; p->flight && i < t->depth; i++) {
		if (!p->flight[i])
			continue;
		if (aio_cancel(p->cbs[i].aio_fildes, &p->cbs[i]) == AIO_NOTCANCELED) {
			const struct aiocb *one[1] = { &p->cbs[i] };
			while (aio_error(&p->cbs[i]) == EINPROGRESS)
				aio_suspend(one, 1, NULL);
		}
		(void)aio_return(&p->cbs[i]);
	}
	free(p->cbs);
	free(p->flight);
	free(p->events);
	free(p);
	t->engine_data = NULL;
}

static int pa_init(struct io_thread *t)
{
	struct posixaio *p = calloc(1, sizeof(*p));

	if (!p)
		return error_set("out of memory");
	t->engine_data = p;
	p->cbs = calloc(t->depth, sizeof(*p->cbs));
	p->flight = calloc(t->depth, sizeof(*p->flight));
	p->events = calloc(t->depth, sizeof(*p->events));
	if (!p->cbs || !p->flight || !p->events)
		return pa_cleanup(t), error_set("out of memory");
	return 0;
}

static int pa_queue(struct io_thread *t, struct io_req *r)
{
	struct posixaio *p = t->engine_data;
	struct aiocb *cb = &p->cbs[r->index];
	int ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = r->file->fd;
	cb->aio_buf = r->buf;
	cb->aio_nbytes = r->len;
	cb->aio_offset = (off_t)r->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	r->start_ns = t->gtod ? 0 : now_ns();
	ret = r->dir == DIR_READ ? aio_read(cb) : aio_write(cb);
	if (ret) {
		/* out of resources: fio's engine stops adding at this depth */
		if (errno == EAGAIN && p->queued)
			return IO_Q_BUSY;
		r->res = -errno;
		return IO_Q_COMPLETED;
	}
	r->issue_ns = t->gtod ? 0 : now_ns();
	p->flight[r->index] = r;
	p->queued++;
	return IO_Q_QUEUED;
}

static int pa_getevents(struct io_thread *t, unsigned min, unsigned max)
{
	struct posixaio *p = t->engine_data;
	unsigned got = 0;

	for (;;) {
		const struct aiocb *wait[SUSPEND_MAX];
		int nwait = 0;

		for (unsigned i = 0; i < t->depth && got < max; i++) {
			struct io_req *r = p->flight[i];
			int err;

			if (!r)
				continue;
			err = aio_error(&p->cbs[i]);
			if (err == EINPROGRESS) {
				if (nwait < SUSPEND_MAX)
					wait[nwait++] = &p->cbs[i];
				continue;
			}
			if (err == 0)
				r->res = (int)aio_return(&p->cbs[i]);
			else {
				(void)aio_return(&p->cbs[i]);
				r->res = err == ECANCELED ? 0 : -err;
			}
			p->flight[i] = NULL;
			p->queued--;
			p->events[got++] = r;
		}
		if (got >= min || got >= max || !nwait)
			return (int)got;
		/* EINTR or EAGAIN: look again */
		(void)aio_suspend(wait, nwait, NULL);
	}
}

static struct io_req *pa_event(struct io_thread *t, unsigned i)
{
	struct posixaio *p = t->engine_data;

	return p->events[i];
}

const struct io_engine_ops engine_posixaio = {
	.name = "posixaio",
	.title = "POSIX AIO",
	.help = "POSIX AIO: aio_read/aio_write, run on glibc's threads",
	.flags = ENGINE_STAMPS_ISSUE | ENGINE_SHARED_TABLE,
	.init = pa_init,
	.queue = pa_queue,
	.getevents = pa_getevents,
	.event = pa_event,
	.cleanup = pa_cleanup,
};
