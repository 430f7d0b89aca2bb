/*
 * offload.c: io_submit_mode=offload, fio's submission off the job's
 * thread.  fio gives each job a work queue of iodepth worker threads
 * (rate-submit.c), each with an instance of the job's engine of its own;
 * the job thread only prepares requests, a worker issues each through its
 * engine and hands back the completion.  Here that is an engine over the
 * job's own: queue() puts a request on the job's list, a worker takes it,
 * and getevents() waits for what the workers finished.  So the job thread
 * runs the async loop with iodepth in flight, whatever the engine, as
 * fio's does.
 *
 * Each worker has its own copy of the I/O thread as the engine sees it
 * (a shadow: the same files, requests and buffers, its own engine_data),
 * so an engine with state (libaio's context, io_uring's ring, pvsync2's,
 * mmap's mappings) runs as it does in fio, one instance a worker.  A
 * synchronous engine's call completes the request; an asynchronous one's
 * is submitted at once (iodepth_batch 1), and the worker takes the next
 * request while there is one, reaping its own completions one at a time
 * when there is none (fio's worker reaps nothing while work waits, and
 * quiesces before it sleeps: strace shows io_submit, then io_getevents
 * min 1, max 1).  The file-operation engines are refused (rules.c).  The
 * hand-over takes the list's lock twice per request: that is the cost of
 * the mode, in fio too.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/error.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct offload {
	struct io_thread *t;
	const struct io_engine_ops *inner;	/* the job's engine */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct io_req **todo;		/* ring of requests not yet taken */
	unsigned todo_head, todo_n;
	struct io_req **finished;	/* completed, not yet reaped */
	unsigned nfinished;
	struct io_req **events;		/* the last reap's */
	pthread_t *workers;
	struct worker *wk;		/* one a worker, iodepth of them */
	unsigned nworkers;
	bool stop, sync_ok;
	bool failed;			/* a worker's engine failed to reap */
	unsigned started;		/* workers whose engine is set up (or failed to be) */
	char init_error[256];		/* the first worker's set-up error */
};

struct worker {
	struct offload *w;
	struct io_thread shadow;	/* the thread as its engine instance sees it */
	bool inited;
	unsigned inflight;		/* submitted through its engine, not reaped */
};

/* A request done: back to the job thread (the lock held). */
static void finish(struct offload *w, struct io_req *r)
{
	w->finished[w->nfinished++] = r;
	pthread_cond_signal(&w->done);
}

/* Reap one of this worker's completions (the lock not held); -1 when its
 * engine fails to (the caller then ends the job: its requests are lost). */
static int reap_one(struct worker *k)
{
	struct offload *w = k->w;
	int n = w->inner->getevents(&k->shadow, 1, 1);

	pthread_mutex_lock(&w->lock);
	if (n > 0) {
		finish(w, w->inner->event(&k->shadow, 0));
		k->inflight--;
	}
	pthread_mutex_unlock(&w->lock);
	return n < 0 ? -1 : 0;
}

static void *worker(void *arg)
{
	struct worker *k = arg;
	struct offload *w = k->w;
	struct io_thread *s = &k->shadow;
	const bool async = !(w->inner->flags & ENGINE_SYNC);
	/* its engine set up in its own thread, as fio's workers each set up
	 * theirs: io_uring's ring takes submissions from the task that made
	 * it alone (IORING_SETUP_SINGLE_ISSUER) */
	int bad = w->inner->init ? w->inner->init(s) : 0;

	pthread_mutex_lock(&w->lock);
	k->inited = !bad;
	if (bad && !w->init_error[0])
		snprintf(w->init_error, sizeof(w->init_error), "%s", error_get());
	w->started++;
	pthread_cond_broadcast(&w->done);
	for (; !bad;) {	/* (an engine not set up takes no work: the job ends) */
		/* no work: its own completions first (fio's quiesce) */
		if (!w->todo_n && k->inflight) {
			pthread_mutex_unlock(&w->lock);
			int lost = reap_one(k);
			pthread_mutex_lock(&w->lock);
			if (lost) {	/* its requests are lost: the job ends */
				w->failed = true;
				pthread_cond_broadcast(&w->done);
				break;
			}
			continue;
		}
		while (!w->todo_n && !w->stop)
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->todo_n)
			break;
		struct io_req *r = w->todo[w->todo_head];
		w->todo_head = (w->todo_head + 1) % w->t->depth;
		w->todo_n--;
		pthread_mutex_unlock(&w->lock);
		int ret = w->inner->queue(s, r);
		while (async && ret == IO_Q_BUSY && k->inflight && !reap_one(k))
			ret = w->inner->queue(s, r);	/* (a failed reap: refused below) */
		if (ret == IO_Q_QUEUED && w->inner->commit && w->inner->commit(s) < 0) {
			r->res = -EIO;
			ret = IO_Q_COMPLETED;
		} else if (ret == IO_Q_BUSY) {
			r->res = -EBUSY;	/* refused with nothing of its own to reap */
			ret = IO_Q_COMPLETED;
		}
		pthread_mutex_lock(&w->lock);
		if (ret == IO_Q_QUEUED)
			k->inflight++;
		else
			finish(w, r);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void off_cleanup(struct io_thread *t)
{
	struct offload *w = t->engine_data;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	/* the workers finish what they took: its buffers are freed after */
	for (unsigned i = 0; i < w->nworkers; i++)
		pthread_join(w->workers[i], NULL);
	for (unsigned i = 0; w->wk && i < w->t->depth; i++)
		if (w->wk[i].inited && w->inner->cleanup)
			w->inner->cleanup(&w->wk[i].shadow);
	if (w->sync_ok) {
		pthread_cond_destroy(&w->work);
		pthread_cond_destroy(&w->done);
		pthread_mutex_destroy(&w->lock);
	}
	free(w->workers);
	free(w->wk);
	free(w->todo);
	free(w->finished);
	free(w->events);
	free(w);
	t->engine_data = NULL;
}

static int off_init(struct io_thread *t)
{
	struct offload *w = calloc(1, sizeof(*w));

	if (!w)
		return error_set("out of memory");
	t->engine_data = w;
	w->t = t;
	w->inner = t->job->ops;
	w->todo = calloc(t->depth, sizeof(*w->todo));
	w->finished = calloc(t->depth, sizeof(*w->finished));
	w->events = calloc(t->depth, sizeof(*w->events));
	w->workers = calloc(t->depth, sizeof(*w->workers));
	w->wk = calloc(t->depth, sizeof(*w->wk));
	if (!w->todo || !w->finished || !w->events || !w->workers || !w->wk)
		return off_cleanup(t), error_set("out of memory");
	if (pthread_mutex_init(&w->lock, NULL))
		return off_cleanup(t), error_set("io_submit_mode=offload: no mutex");
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	w->sync_ok = true;
	for (unsigned i = 0; i < t->depth; i++) {
		struct worker *k = &w->wk[i];
		k->w = w;
		k->shadow = *t;
		k->shadow.engine_data = NULL;
	}
	for (unsigned i = 0; i < t->depth; i++) {
		int e = pthread_create(&w->workers[i], NULL, worker, &w->wk[i]);
		if (e) {
			off_cleanup(t);
			return error_set("io_submit_mode=offload: cannot start worker %u of %u: %s", i + 1,
					 t->depth, strerror(e));
		}
		w->nworkers++;
	}
	pthread_mutex_lock(&w->lock);
	while (w->started < w->nworkers)
		pthread_cond_wait(&w->done, &w->lock);
	pthread_mutex_unlock(&w->lock);
	if (w->init_error[0]) {
		char why[256];
		snprintf(why, sizeof(why), "%s", w->init_error);
		off_cleanup(t);
		return error_set("io_submit_mode=offload: a worker's ioengine: %s", why);
	}
	return 0;
}

static int off_queue(struct io_thread *t, struct io_req *r)
{
	struct offload *w = t->engine_data;

	pthread_mutex_lock(&w->lock);
	w->todo[(w->todo_head + w->todo_n) % t->depth] = r;
	w->todo_n++;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
	return IO_Q_QUEUED;
}

static int off_getevents(struct io_thread *t, unsigned min, unsigned max)
{
	struct offload *w = t->engine_data;
	unsigned n;

	pthread_mutex_lock(&w->lock);
	while (w->nfinished < min && !w->failed)
		pthread_cond_wait(&w->done, &w->lock);
	if (w->nfinished < min) {
		pthread_mutex_unlock(&w->lock);
		return error_set("io_submit_mode=offload: a worker's ioengine=%s could not reap its "
				 "requests", w->inner->name);
	}
	n = w->nfinished < max ? w->nfinished : max;
	memcpy(w->events, w->finished, n * sizeof(*w->events));
	w->nfinished -= n;
	memmove(w->finished, w->finished + n, w->nfinished * sizeof(*w->finished));
	pthread_mutex_unlock(&w->lock);
	return (int)n;
}

static struct io_req *off_event(struct io_thread *t, unsigned i)
{
	struct offload *w = t->engine_data;

	return w->events[i];
}

const struct io_engine_ops engine_offload = {
	.name = "offload",
	.title = "offload",
	.help = "io_submit_mode=offload: the job engine's calls made by iodepth worker threads",
	.init = off_init,
	.queue = off_queue,
	.getevents = off_getevents,
	.event = off_event,
	.cleanup = off_cleanup,
};
