/*
 * offload.c: io_submit_mode=offload, fio's submission off the job's
 * thread.  fio gives each job a work queue of iodepth worker threads
 * (rate-submit.c); the job thread only prepares requests, and each worker
 * issues one through the engine, as a synchronous call, and hands back its
 * completion.  Here that is an engine over the job's own: queue() puts a
 * request on the job's list, a worker takes it and calls the job engine's
 * queue(), and getevents() waits for what the workers finished.  So the
 * job thread runs the async loop with iodepth in flight, whatever the
 * engine, as fio's does.
 *
 * Only engines whose queue() is safe from several threads at once with no
 * state of their own: psync, pvsync and null (rules.c refuses the rest).
 * The hand-over takes the list's lock twice per request: that is the
 * cost of the mode, in fio too.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/error.h"

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
	unsigned nworkers;
	bool stop, sync_ok;
};

static void *worker(void *arg)
{
	struct offload *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->todo_n && !w->stop)
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->todo_n)
			break;
		struct io_req *r = w->todo[w->todo_head];
		w->todo_head = (w->todo_head + 1) % w->t->depth;
		w->todo_n--;
		pthread_mutex_unlock(&w->lock);
		w->inner->queue(w->t, r);	/* synchronous: done on return */
		pthread_mutex_lock(&w->lock);
		w->finished[w->nfinished++] = r;
		pthread_cond_signal(&w->done);
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
	if (w->sync_ok) {
		pthread_cond_destroy(&w->work);
		pthread_cond_destroy(&w->done);
		pthread_mutex_destroy(&w->lock);
	}
	free(w->workers);
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
	if (!w->todo || !w->finished || !w->events || !w->workers)
		return off_cleanup(t), error_set("out of memory");
	if (pthread_mutex_init(&w->lock, NULL))
		return off_cleanup(t), error_set("io_submit_mode=offload: no mutex");
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	w->sync_ok = true;
	if (w->inner->init && w->inner->init(t))
		return off_cleanup(t), -1;
	for (unsigned i = 0; i < t->depth; i++) {
		int e = pthread_create(&w->workers[i], NULL, worker, w);
		if (e) {
			off_cleanup(t);
			return error_set("io_submit_mode=offload: cannot start worker %u of %u: %s", i + 1,
					 t->depth, strerror(e));
		}
		w->nworkers++;
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
	while (w->nfinished < min)
		pthread_cond_wait(&w->done, &w->lock);
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
