/*
 * pace.c: the I/O threads' waits (see io_internal.h): sleeping until a
 * time in slices a stop can cut short, less nanosleep's overshoot measured
 * once (fio's), and thinktime's stall between I/Os.  The rate's schedule
 * that decides when to wait is offsets.c's; backend.c's loops call these
 * when an I/O is not yet due.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/timing.h"

#include <pthread.h>
#include <time.h>

/* fio measures nanosleep's overshoot once (the longest of ten 1 us
 * sleeps, in whole us) and, in a rate's wait, sleeps that much short of
 * the time and spins the rest (its usec_sleep): the thread is running,
 * not waking, when its I/O is due, which a rated job's latency shows
 * (about 10% here). */
static uint64_t sleep_slack;
static pthread_once_t slack_once = PTHREAD_ONCE_INIT;

static void measure_slack(void)
{
	for (int i = 0; i < 10; i++) {
		struct timespec ts = { 0, 1000 };
		uint64_t t0 = now_ns(), e;
		nanosleep(&ts, NULL);
		e = (now_ns() - t0) / 1000 * 1000;
		if (e > sleep_slack)
			sleep_slack = e;
	}
}

void io_measure_slack(void)
{
	pthread_once(&slack_once, measure_slack);
}

/* Sleep until `until` (CLOCK_MONOTONIC ns) in slices a stop can cut
 * short, the last stretch spun.  False if a stop came. */
bool io_sleep_until(const struct io_thread *t, uint64_t until)
{
	io_measure_slack();
	for (uint64_t now = now_ns(); now < until; now = now_ns()) {
		if (io_stopping(t))
			return false;
		if (until - now <= sleep_slack)
			continue;	/* spin */
		uint64_t step = until - now - sleep_slack;
		struct timespec ts = { 0, (long)(step < 50000000ULL ? step : 50000000ULL) };
		nanosleep(&ts, NULL);
	}
	return true;
}

/* The stall, with nothing in flight: spin thinktime_spin, sleep the rest
 * (both cut at the runtime's end).  With rate_ignore_thinktime, the rate's
 * schedule moves on by the stall, less a block so the next I/O goes at
 * once (fio's reckoning).  False when the runtime ended or a stop came. */
bool io_think(struct io_thread *t, int dir)
{
	uint64_t t0 = now_ns(), spin_end = t0 + t->think_spin_ns, end = t0 + t->think_ns;

	t->think_due = false;
	if (spin_end > t->deadline)
		spin_end = t->deadline;
	if (end > t->deadline)
		end = t->deadline;
	while (now_ns() < spin_end && !io_stopping(t))
		;
	if (!io_sleep_until(t, end) || now_ns() >= t->deadline)
		return false;
	uint64_t took = now_ns() - t0;	/* one clock read for both */
	t->stalls++;
	t->stalls_ns += took;
	if (t->o->rate_ignore_thinktime && t->rate_bps[dir]) {
		uint64_t bps = t->rate_bps[dir];
		uint64_t missed = (uint64_t)((unsigned __int128)bps * took / 1000000000u);
		uint64_t per_op = (uint64_t)((unsigned __int128)t->min_bs * 1000000000u / bps);
		uint64_t over = per_op <= took ? t->min_bs : 0;
		t->rate_issued[dir] += missed > over ? missed - over : 0;
		t->rate_next[dir] = t->o->rate_process == RATE_POISSON ? t->rate_next[dir] + took
								       : io_rate_schedule(t, dir);
	}
	return true;
}
