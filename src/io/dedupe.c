/*
 * dedupe.c: fio's deduplicable buffers (dedupe.h).  As fio's get_buf_state:
 * each write draws 1..100; at or under dedupe_percentage its buffer is one
 * made before, else a new one.  At 100 every buffer is the first.  The
 * working set is the first unique pages of the job's size times
 * dedupe_working_set_percentage; with dedupe_global its pages are spread
 * over the run's threads in turn, as fio rotates the threads' seeds.
 */
#include "dedupe.h"
#include "iojob.h"

#include <string.h>

#define DEDUPE_STREAM 0x6465647570650000ULL	/* "dedupe": apart from the other streams */

/* The seed of the count-th new buffer of thread seq. */
static uint64_t page_seed(uint64_t seed, int seq, uint64_t count)
{
	return mix64(mix64(seed ^ DEDUPE_STREAM ^ (uint64_t)seq) + count);
}

void io_dedupe_init(struct io_dedupe *d, const struct io_options *o, uint64_t min_bs, int seq)
{
	memset(d, 0, sizeof(*d));
	d->pct = (int)o->dedupe_percentage;
	if (!d->pct)
		return;
	d->working_set = o->dedupe_mode == DEDUPE_WORKING_SET;
	d->seed = (uint64_t)o->randseed;
	d->self = d->first = seq;
	d->threads = 1;
	rng_seed(&d->draw, d->seed ^ DEDUPE_STREAM ^ 0x7365ULL ^ (uint64_t)seq);
	d->prev = page_seed(d->seed, seq, 0);
	/* fio: size x percentage / 100 / min_bs, in 128 bits (size < 2^64) */
	d->unique = (uint64_t)((unsigned __int128)o->size * (uint64_t)o->dedupe_working_set_percentage /
			       100 / (min_bs ? min_bs : 1));
	if (!d->unique)
		d->unique = 1;
	d->per_thread = d->unique;
}

void io_dedupe_share(struct io_dedupe *d, int first, int threads)
{
	if (!d->pct || threads < 1)
		return;
	d->first = first;
	d->threads = threads;
	d->per_thread = d->unique / (uint64_t)threads ? d->unique / (uint64_t)threads : 1;
}

/* The seed of this write's buffer. */
static uint64_t next_seed(struct io_dedupe *d)
{
	if (d->pct == 100 || (int)rng_below(&d->draw, 100) + 1 <= d->pct) {
		if (!d->working_set || d->pct == 100)
			return d->prev;
		uint64_t i = rng_below(&d->draw, d->unique);
		uint64_t turn = i / d->per_thread;	/* whose share: this thread's, then the next's */
		int owner = d->first + (int)(((uint64_t)(d->self - d->first) + turn) % (uint64_t)d->threads);
		return page_seed(d->seed, owner, i - turn * d->per_thread);
	}
	d->prev = page_seed(d->seed, d->self, d->next++);
	return d->prev;
}

void io_dedupe_fill(struct io_dedupe *d, const struct data_spec *spec, void *buf, size_t len)
{
	struct rng r;

	rng_seed(&r, next_seed(d));
	data_fill(spec, &r, buf, len);
}
