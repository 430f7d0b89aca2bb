/*
 * libaio.c: Linux native AIO through libaio (fio's libaio engine).  Truly
 * asynchronous only with direct=1; buffered requests complete inside
 * io_submit, as they do under fio.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

struct aio {
	io_context_t ctx;
	struct iocb *iocbs;		/* one per request slot */
	struct iocb **todo;		/* queued, not yet submitted */
	unsigned ntodo;
	struct io_event *events;
	bool ctx_ok;
};

static void aio_cleanup(struct io_thread *t)
{
	struct aio *a = t->engine_data;

	if (!a)
		return;
	if (a->ctx_ok)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->todo);
	free(a->events);
	free(a);
	t->engine_data = NULL;
}

static int aio_init(struct io_thread *t)
{
	struct aio *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return error_set("out of memory");
	t->engine_data = a;
	a->iocbs = calloc(t->depth, sizeof(*a->iocbs));
	a->todo = calloc(t->depth, sizeof(*a->todo));
	a->events = calloc(t->depth, sizeof(*a->events));
	if (!a->iocbs || !a->todo || !a->events)
		return aio_cleanup(t), error_set("out of memory");
	ret = io_setup((int)t->depth, &a->ctx);
	if (ret < 0) {
		aio_cleanup(t);
		return error_set("libaio io_setup: %s (raise fs.aio-max-nr, or use ioengine=psync)",
				 strerror(-ret));
	}
	a->ctx_ok = true;
	return 0;
}

/* The kernel's (linux/aio_abi.h, which cannot be included beside
 * libaio.h: both define struct iocb): aio_reqprio holds an ioprio. */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

static int aio_queue(struct io_thread *t, struct io_req *r)
{
	struct aio *a = t->engine_data;
	struct iocb *cb = &a->iocbs[r->index];

	if (r->dir == DIR_READ)
		io_prep_pread(cb, r->file->fd, r->buf, r->len, (long long)r->offset);
	else
		io_prep_pwrite(cb, r->file->fd, r->buf, r->len, (long long)r->offset);
	if (r->prio) {
		cb->aio_reqprio = (short)t->prio_value[r->prio];
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = r;
	a->todo[a->ntodo++] = cb;
	return IO_Q_QUEUED;
}

static int aio_commit(struct io_thread *t)
{
	struct aio *a = t->engine_data;
	unsigned done = 0;

	while (done < a->ntodo) {
		int ret = io_submit(a->ctx, (long)(a->ntodo - done), a->todo + done);
		if (ret == -EINTR || ret == -EAGAIN)
			continue;
		if (ret < 0)
			return error_set("libaio io_submit: %s", strerror(-ret)), ret;
		done += (unsigned)ret;
	}
	a->ntodo = 0;
	return 0;
}

static int aio_getevents(struct io_thread *t, unsigned min, unsigned max)
{
	struct aio *a = t->engine_data;
	int ret;

	do
		ret = io_getevents(a->ctx, (long)min, (long)max, a->events, NULL);
	while (ret == -EINTR);
	if (ret < 0)
		return error_set("libaio io_getevents: %s", strerror(-ret)), ret;
	for (int i = 0; i < ret; i++) {
		struct io_req *r = a->events[i].data;
		r->res = (int)(long)a->events[i].res;
	}
	return ret;
}

static struct io_req *aio_event(struct io_thread *t, unsigned i)
{
	struct aio *a = t->engine_data;

	return a->events[i].data;
}

const struct io_engine_ops engine_libaio = {
	.name = "libaio",
	.title = "Linux AIO",
	.help = "Linux native AIO through libaio (asynchronous with direct=1)",
	.flags = ENGINE_CMDPRIO,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
	.cleanup = aio_cleanup,
};
