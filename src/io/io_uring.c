/*
 * io_uring.c: asynchronous I/O through liburing (fio's io_uring engine).
 *
 * queue() only fills a submission entry; commit() submits what the core
 * batched (iodepth_batch_submit), getevents() waits for completions (and
 * submits anything left in the same io_uring_enter) and reaps them in
 * batches straight from the ring.  Options:
 * registerfiles (fixed file table), fixedbufs (registered buffers, the
 * *_FIXED opcodes) and sqthread_poll (a kernel thread polls the ring, so
 * submission needs no system call).
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

/* The engine's own options (fio's io_uring options of these names). */
struct uring_opts {
	bool registerfiles, fixedbufs, sqthread_poll;
};
_Static_assert(sizeof(struct uring_opts) <= ENGINE_OPTS_MAX, "room in a job");

#define U(f) offsetof(struct uring_opts, f)
static const struct param_def uring_options[] = {
	{ "registerfiles", PT_BOOL, U(registerfiles), "0", 0, 0, NULL,
	  "io_uring: register the files with the ring" },
	{ "fixedbufs", PT_BOOL, U(fixedbufs), "0", 0, 0, NULL,
	  "io_uring: register the buffers (read/write_fixed)" },
	{ "sqthread_poll", PT_BOOL, U(sqthread_poll), "0", 0, 0, NULL,
	  "io_uring: a kernel thread polls for submissions" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

struct uring {
	struct io_uring ring;
	struct io_req **events;
	bool ring_ok;
	struct uring_opts opt;	/* the job's, read at init: nothing per I/O */
};

static void uring_cleanup(struct io_thread *t)
{
	struct uring *u = t->engine_data;

	if (!u)
		return;
	if (u->ring_ok)
		io_uring_queue_exit(&u->ring);
	free(u->events);
	free(u);
	t->engine_data = NULL;
}

static int uring_fail(struct io_thread *t, int err, const char *what)
{
	uring_cleanup(t);
	if (err == ENOSYS || err == EPERM || err == EACCES)
		return error_set("io_uring is unavailable here (%s: %s): use ioengine=psync",
				 what, strerror(err));
	return error_set("io_uring %s: %s", what, strerror(err));
}

static int uring_init(struct io_thread *t)
{
	struct io_uring_params p;
	struct uring *u = calloc(1, sizeof(*u));
	int ret;

	if (!u)
		return error_set("out of memory");
	t->engine_data = u;
	memcpy(&u->opt, io_engine_opts(t->o), sizeof(u->opt));
	const struct uring_opts *o = &u->opt;
	u->events = calloc(t->depth, sizeof(*u->events));
	if (!u->events)
		return uring_cleanup(t), error_set("out of memory");
	memset(&p, 0, sizeof(p));
	p.cq_entries = t->depth;	/* fio: as many completions as iodepth */
	p.flags = IORING_SETUP_CQSIZE;
	if (o->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
	}
	/* This thread alone submits and reaps, so completions can wait as
	 * task work until it reaps them, without interrupting it (what fio
	 * asks for too).  Older kernels refuse the flags: drop them. */
	if (!o->sqthread_poll)
		p.flags |= IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			   IORING_SETUP_DEFER_TASKRUN;
	for (;;) {
		struct io_uring_params q = p;
		ret = io_uring_queue_init_params(t->depth, &u->ring, &q);
		if (ret != -EINVAL || !(p.flags & (IORING_SETUP_COOP_TASKRUN |
						   IORING_SETUP_DEFER_TASKRUN)))
			break;
		if (p.flags & IORING_SETUP_DEFER_TASKRUN)
			p.flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
		else
			p.flags &= ~IORING_SETUP_COOP_TASKRUN;
	}
	if (ret < 0)
		return uring_fail(t, -ret, "setting up a ring");
	u->ring_ok = true;
	if (o->registerfiles) {
		int fds[t->nfiles];
		for (int i = 0; i < t->nfiles; i++)
			fds[i] = t->files[i].fd;
		ret = io_uring_register_files(&u->ring, fds, (unsigned)t->nfiles);
		if (ret < 0)
			return uring_fail(t, -ret, "registerfiles");
	}
	if (o->fixedbufs) {
		struct iovec *iov = calloc(t->depth, sizeof(*iov));
		if (!iov)
			return uring_cleanup(t), error_set("out of memory");
		for (unsigned i = 0; i < t->depth; i++) {
			iov[i].iov_base = t->reqs[i].buf;
			iov[i].iov_len = t->buf_size;
		}
		ret = io_uring_register_buffers(&u->ring, iov, t->depth);
		free(iov);
		if (ret < 0)
			return uring_fail(t, -ret, "fixedbufs");
	}
	return 0;
}

static int uring_queue(struct io_thread *t, struct io_req *r)
{
	struct uring *u = t->engine_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->opt.registerfiles ? r->file->index : r->file->fd;

	if (!sqe)
		return IO_Q_BUSY;
	if (u->opt.fixedbufs) {
		if (r->dir == DIR_READ)
			io_uring_prep_read_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
		else
			io_uring_prep_write_fixed(sqe, fd, r->buf, r->len, r->offset, (int)r->index);
	} else if (r->dir == DIR_READ) {
		io_uring_prep_read(sqe, fd, r->buf, r->len, r->offset);
	} else {
		io_uring_prep_write(sqe, fd, r->buf, r->len, r->offset);
	}
	if (u->opt.registerfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (r->prio)
		sqe->ioprio = t->prio_value[r->prio];
	io_uring_sqe_set_data(sqe, r);
	return IO_Q_QUEUED;
}

static int uring_commit(struct io_thread *t)
{
	struct uring *u = t->engine_data;
	int ret;

	/* fio's commit enters with IORING_ENTER_GETEVENTS (min_complete 0), so
	 * the kernel runs deferred completions in the same call; with an SQ
	 * poll thread it enters only to wake that thread, as io_uring_submit. */
	do
		ret = u->opt.sqthread_poll ? io_uring_submit(&u->ring) :
					    io_uring_submit_and_get_events(&u->ring);
	while (ret == -EINTR || ret == -EAGAIN);
	if (ret < 0)
		return error_set("io_uring submit: %s", strerror(-ret)), ret;
	return 0;
}

static int uring_getevents(struct io_thread *t, unsigned min, unsigned max)
{
	struct uring *u = t->engine_data;
	unsigned n = 0;

	while (n < min || (n == 0 && io_uring_sq_ready(&u->ring))) {
		struct io_uring_cqe *cqe;
		unsigned head, got = 0;

		if (io_uring_sq_ready(&u->ring) || io_uring_cq_ready(&u->ring) < min - n) {
			unsigned want = io_uring_cq_ready(&u->ring) >= min - n ? 0 : min - n;
			int ret = io_uring_submit_and_wait(&u->ring, want);
			if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
				return error_set("io_uring submit: %s", strerror(-ret)), ret;
		}
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			struct io_req *r;
			if (n + got == max)
				break;
			r = io_uring_cqe_get_data(cqe);
			r->res = cqe->res;
			u->events[n + got++] = r;
		}
		io_uring_cq_advance(&u->ring, got);
		n += got;
		if (!min)
			break;
	}
	return (int)n;
}

static struct io_req *uring_event(struct io_thread *t, unsigned i)
{
	struct uring *u = t->engine_data;

	return u->events[i];
}

const struct io_engine_ops engine_io_uring = {
	.name = "io_uring",
	.title = "IO_uring",
	.help = "Linux io_uring through liburing (registerfiles, fixedbufs, sqthread_poll)",
	.flags = ENGINE_CMDPRIO,
	.options = uring_options,
	.options_size = sizeof(struct uring_opts),
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
