/*
 * crashpoint.h: where the power is cut, and what the device holds then.
 *
 * A recorded log (logwrites.h) is cut at two kinds of point:
 *
 * - at a flush: the state after a flush or a FUA write completed, every
 *   write logged before it on the media and none after (a cut just as
 *   the device acknowledged the flush);
 * - torn: between two flushes, with the writes since the last one in a
 *   volatile cache that wrote some back and lost the rest.  The point's
 *   cut says how far the workload had come; of the writes before the cut,
 *   its seed says which reached the media whole, which were lost and
 *   which were cut short at a sector boundary (the sector is the unit a
 *   device writes atomically).  A FUA write before the cut always stays:
 *   it was on the media when it completed.
 *
 * The plan is a seeded sample of both kinds, so the same log, budget and
 * seed give the same points; points are sorted by where they lie in the
 * log, so a replay moves forward through it once (crash_replay).
 */
#ifndef FSB_CRASHPOINT_H
#define FSB_CRASHPOINT_H

#include "logwrites.h"

#include <stddef.h>
#include <stdint.h>

/* CRASH_BUFFER: a device with a volatile buffer that flushes and FUA do
 * not empty (a USB key: the kernel sends it none, and it acknowledges a
 * write once buffered): the writes of the buffer's last bytes before the
 * cut are lost whole, promises notwithstanding (crash_plan_set_buffer). */
enum crash_kind { CRASH_FLUSH, CRASH_TORN, CRASH_BUFFER };

struct crash_point {
	enum crash_kind kind;
	size_t durable;		/* entries [0, durable) are on the media whole */
	size_t cut;		/* CRASH_TORN: entries [durable, cut) as the seed says;
				 * CRASH_FLUSH: cut == durable */
	uint64_t seed;		/* CRASH_TORN: which of them survive, and how much */
	uint32_t unit;		/* a write is cut short only at multiples of this many
				 * sectors (the device's atomic unit); 0 is 1 */
};

struct crash_plan {
	struct crash_point *p;
	size_t n;
	size_t flush_points;	/* durable points the log has after start (the candidates) */
	size_t torn_segments;	/* stretches between them with a write to lose */
};

/* Plan at most budget points in entries [start, log->n] (start: the mark
 * after which the workload began, 0 for the whole log): up to half at
 * flushes (all of them when there are few, the last always), the rest
 * torn, over the stretches between them that hold a write.  0, or -1
 * with the error set; crash_plan_free it. */
int crash_plan_make(const struct lw_log *log, size_t start, size_t budget, uint64_t seed,
		    struct crash_plan *out);
void crash_plan_free(struct crash_plan *plan);
/* The unit a device writes atomically, in the log's sectors, for every
 * point of the plan (a flash device's page: 4 KiB is 8 sectors of 512). */
void crash_plan_set_unit(struct crash_plan *plan, uint32_t sectors);

/* Every point of the plan cut on a device that still held the last
 * `bytes` of data written before it (buffered FIFO, drained in order):
 * the point keeps where the workload had come (its cut) and its media
 * hold the writes up to where the buffer began, never before `start`
 * (what came before the workload had long been written back): all its
 * writes after that are lost, FUA ones too, and a torn point's seed no
 * longer decides.  A point with nothing written since the start stays
 * as it is.  The plan stays sorted. */
void crash_plan_set_buffer(struct crash_plan *plan, const struct lw_log *log, size_t start,
			   uint64_t bytes);
/* Where the workload had come at p: the entries [0, end) were issued. */
size_t crash_point_end(const struct crash_point *p);

/* How many of entry i's sectors point p puts on the media (a lw_keep_fn
 * over a struct crash_point). */
uint64_t crash_keep(void *point, size_t i, const struct lw_entry *e);

/* Counts of what p does to the writes of its torn stretch (for a
 * finding's description): kept whole, lost, cut short. */
struct crash_torn_counts {
	size_t whole, lost, cut_short;
};
struct crash_torn_counts crash_torn_counts(const struct lw_log *log, const struct crash_point *p);

/* The image at imgfd holds the state after entries [0, *at) (0: an empty
 * image of the device's size).  Bring it to p's durable part (p->durable
 * >= *at, which sorted points give) and *at with it.  Then the torn part
 * goes on a copy: crash_apply_torn. */
int crash_advance(const struct lw_log *log, int logfd, int imgfd, size_t *at,
		  const struct crash_point *p);
/* Apply p's torn stretch to an image that holds its durable part. */
int crash_apply_torn(const struct lw_log *log, int logfd, int imgfd, const struct crash_point *p);

/* "flush at entry 41" / "torn after entry 41, 9 entries on: 3 whole,
 * 5 lost, 1 cut short" into buf. */
void crash_describe(const struct lw_log *log, const struct crash_point *p, char *buf, size_t len);

#endif
