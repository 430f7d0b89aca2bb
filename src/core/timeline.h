/*
 * timeline.h: what happened over time during a repetition, for the
 * latency-over-time chart and fio's bandwidth statistics and logs.
 *
 * A window buffer counts I/Os, bytes and latency per fixed window (fio's
 * bw_avg_time of 500 ms, or log_avg_msec) into an array allocated before
 * the first I/O; adding is a compare and three additions.  When the array
 * is full its windows merge in pairs and the width doubles, so a long run
 * keeps its whole history at a coarser grain and nothing is allocated in
 * the I/O loop.  A timeline is what a sample keeps: buffers summed window
 * by window, at most TIMELINE_MAX points.
 */
#ifndef FSB_TIMELINE_H
#define FSB_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "histogram.h"

/* Directions, in fio's order: [0] read, [1] write, [2] trim. */
#define TL_DIRS 3
struct win {
	uint64_t end_ns;		/* since the buffer started */
	uint64_t ios[TL_DIRS], bytes[TL_DIRS], lat_sum[TL_DIRS];
	uint64_t slat_sum[TL_DIRS];	/* fio's slat, where one is kept (winbuf_add_slat) */
};

struct winbuf {
	struct win *w, cur;
	unsigned n, cap;
	uint64_t width_ns, start_ns, origin_ns;
};

/* 0, or -1 (error set) when the array cannot be allocated. */
int winbuf_init(struct winbuf *b, unsigned cap);
void winbuf_free(struct winbuf *b);
void winbuf_start(struct winbuf *b, uint64_t now, uint64_t width_ns);
/* Close every window that ended before now (merging when full). */
void winbuf_roll(struct winbuf *b, uint64_t now);

static inline void winbuf_add(struct winbuf *b, uint64_t now, int direction, uint64_t bytes,
			      uint64_t lat_ns)
{
	if (now - b->start_ns >= b->width_ns)
		winbuf_roll(b, now);
	b->cur.ios[direction]++;
	b->cur.bytes[direction] += bytes;
	b->cur.lat_sum[direction] += lat_ns;
}

/* The submission part of the latency just added, in the same window. */
static inline void winbuf_add_slat(struct winbuf *b, int direction, uint64_t slat_ns)
{
	b->cur.slat_sum[direction] += slat_ns;
}

#define TIMELINE_MAX 400
struct timeline {
	int n;
	double width_ms;
	double t_ms[TIMELINE_MAX];		/* window ends */
	double iops[TL_DIRS][TIMELINE_MAX];
	double lat_us[TL_DIRS][TIMELINE_MAX];	/* mean; NAN where a window had no I/O */
};

/* Buffers (one per thread or rank) summed window by window. */
void timeline_from(struct timeline *tl, const struct winbuf *const *bufs, int n);
/* A sample's series as compact JSON text: the timeline and, for the
 * latency distribution chart, each direction's histogram in 10 bins per
 * decade ({"width_ms","t_ms","iops":[[r],[w]],"lat_us":[[r],[w]],
 * "hist":{"edges_ns":[...],"counts":[[r],[w]]}}), each with a third
 * array, [t], when trim is given (a job that trims).  Bytes written (0
 * when it does not fit: no partial document). */
size_t timeline_json(const struct timeline *tl, const struct histogram *read,
		     const struct histogram *write, const struct histogram *trim, char *buf,
		     size_t len);

#endif
