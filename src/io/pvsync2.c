/*
 * pvsync2.c: preadv2(2)/pwritev2(2), one request at a time (fio's
 * pvsync2), with its per-call flags: hipri (RWF_HIPRI, polled completion
 * where the device has poll queues; a given percentage of the I/Os, as
 * fio draws it) and nowait (RWF_NOWAIT: an I/O that would block fails
 * with EAGAIN, which fails the job, as in fio).
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <stdlib.h>
#include <sys/uio.h>

struct pvsync2_data {
	struct rng rng;		/* hipri_percentage's draws, apart from the offsets' */
};

static int pvsync2_init(struct io_thread *t)
{
	struct pvsync2_data *d = calloc(1, sizeof(*d));

	if (!d)
		return error_set("out of memory");
	rng_seed(&d->rng, t->seed ^ 0x68697072ULL ^ (uint64_t)t->seq);
	t->engine_data = d;
	return 0;
}

static void pvsync2_cleanup(struct io_thread *t)
{
	free(t->engine_data);
	t->engine_data = NULL;
}

static int pvsync2_queue(struct io_thread *t, struct io_req *r)
{
	struct pvsync2_data *d = t->engine_data;
	int flags = 0;

	if (t->o->hipri && (t->o->hipri_percentage >= 100 ||
			    rng_below(&d->rng, 100) < (uint64_t)t->o->hipri_percentage))
		flags |= RWF_HIPRI;
	if (t->o->nowait)
		flags |= RWF_NOWAIT;
	r->res = engine_full_transfer(r->file->fd, r, XFER_VECTOR2, flags);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.title = "PVSync2",
	.help = "preadv2/pwritev2, one request at a time; hipri= and nowait= set its flags",
	.flags = ENGINE_SYNC,
	.init = pvsync2_init,
	.queue = pvsync2_queue,
	.cleanup = pvsync2_cleanup,
};
