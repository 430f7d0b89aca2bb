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
#include <string.h>
#include <sys/uio.h>

/* The engine's own options (fio's pvsync2 options of these names). */
struct pvsync2_opts {
	bool hipri;
	int64_t hipri_percentage;
	bool nowait;
};
_Static_assert(sizeof(struct pvsync2_opts) <= ENGINE_OPTS_MAX, "room in a job");

#define V(f) offsetof(struct pvsync2_opts, f)
static const struct param_def pvsync2_options[] = {
	{ "hipri", PT_BOOL, V(hipri), "0", 0, 0, NULL,
	  "pvsync2: RWF_HIPRI, polled completion where the device has poll queues" },
	{ "hipri_percentage", PT_INT, V(hipri_percentage), "100", 0, 100, NULL,
	  "pvsync2 with hipri: the percentage of I/Os that are high priority" },
	{ "nowait", PT_BOOL, V(nowait), "0", 0, 0, NULL,
	  "pvsync2: RWF_NOWAIT (an I/O that would block fails the job with EAGAIN, as fio)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

struct pvsync2_data {
	struct rng rng;		/* hipri_percentage's draws, apart from the offsets' */
	struct pvsync2_opts opt;	/* the job's, read at init */
};

static int pvsync2_init(struct io_thread *t)
{
	struct pvsync2_data *d = calloc(1, sizeof(*d));

	if (!d)
		return error_set("out of memory");
	rng_seed(&d->rng, t->seed ^ 0x68697072ULL ^ (uint64_t)t->seq);
	memcpy(&d->opt, io_engine_opts(t->o), sizeof(d->opt));
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

	if (d->opt.hipri && (d->opt.hipri_percentage >= 100 ||
			     rng_below(&d->rng, 100) < (uint64_t)d->opt.hipri_percentage))
		flags |= RWF_HIPRI;
	if (d->opt.nowait)
		flags |= RWF_NOWAIT;
	r->res = engine_full_transfer(r->file->fd, r, XFER_VECTOR2, flags);
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.title = "PVSync2",
	.help = "preadv2/pwritev2, one request at a time; hipri= and nowait= set its flags",
	.flags = ENGINE_SYNC,
	.options = pvsync2_options,
	.options_size = sizeof(struct pvsync2_opts),
	.init = pvsync2_init,
	.queue = pvsync2_queue,
	.cleanup = pvsync2_cleanup,
};
