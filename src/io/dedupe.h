/*
 * dedupe.h: fio's deduplicable buffers (dedupe_percentage, dedupe_mode,
 * dedupe_working_set_percentage, dedupe_global).  Each write's data is
 * made whole from one seed: a new seed, or, for dedupe_percentage of the
 * writes, a seed used before -- the last new one (repeat) or one of the
 * first pages of a working set (working_set) -- so the block written is
 * byte for byte one written before, as fio's is.  A seed is a thread's
 * stream and a count, so a working set needs no table: any thread can
 * name another's pages (dedupe_global).
 */
#ifndef FSB_IO_DEDUPE_H
#define FSB_IO_DEDUPE_H

#include "../core/pattern.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct io_dedupe {
	int pct;		/* 0: off */
	bool working_set;
	struct rng draw;	/* which writes repeat, and which page (fio's dedupe_state) */
	uint64_t seed;		/* the job's randseed */
	uint64_t next;		/* new buffers made so far */
	uint64_t prev;		/* the last new buffer's seed */
	uint64_t unique;	/* working set: its pages */
	uint64_t per_thread;	/* dedupe_global: each thread's pages of it */
	int self, first, threads;	/* this thread among the threads that share it */
};

struct io_options;

/* The state of thread number seq (the run's count) of a job with
 * options o, min_bs its smallest write; the working set's sharers are
 * threads first..first+threads-1 (io_dedupe_share).  Off unless
 * dedupe_percentage. */
void io_dedupe_init(struct io_dedupe *d, const struct io_options *o, uint64_t min_bs, int seq);
/* dedupe_global: the threads of the whole run share the working set. */
void io_dedupe_share(struct io_dedupe *d, int first, int threads);
/* A write's buffer: len bytes of spec's kind, made from this write's seed. */
void io_dedupe_fill(struct io_dedupe *d, const struct data_spec *spec, void *buf, size_t len);

#endif
