/*
 * latency_target.c: fio's latency_target, a search for the deepest queue
 * that keeps latency_percentile of the I/Os within the target over each
 * latency_window (fio's lat_target_*): the depth bisected between a low
 * and a high after each window, the queue drained before a change, the
 * depth found given one last window of its own.  backend.c's async loop
 * calls it after each reap and each completion.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/timing.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- latency_target: fio's queue-depth search (its lat_target_*) ---- */

void io_lat_new_cycle(struct io_thread *t, uint64_t now)
{
	t->lat_ts = now;
	t->lat_ios = t->completed_n;
	t->lat_failed = 0;
}

void io_lat_init(struct io_thread *t)
{
	t->lat_qd = t->lat_on ? 1 : t->depth;
	t->lat_qd_low = 1;
	t->lat_qd_high = t->depth;
	t->lat_stable = 0;
	t->lat_final = t->lat_quiesce = t->lat_restart = t->lat_done = false;
	io_lat_new_cycle(t, now_ns());
}

/* Out of the target: the depth halves towards the lowest that met it,
 * after the queue drains.  True at depth 1, where there is nowhere to go. */
bool io_lat_step_down(struct io_thread *t)
{
	if (t->lat_qd == 1)
		return true;
	t->lat_qd_high = t->lat_qd;
	if (t->lat_qd == t->lat_qd_low)
		t->lat_qd_low--;
	t->lat_qd = (t->lat_qd + t->lat_qd_low) / 2;
	if (!t->lat_qd)
		t->lat_qd = 1;
	t->lat_stable = 0;
	t->lat_quiesce = true;
	return false;
}

/* A window within the target: up, doubling until a depth fails, then
 * bisecting; three successes just below the highest failure raise it by
 * one.  An unchanged depth is the answer: one more window at it, with
 * the statistics started afresh, and the job ends (unless latency_run). */
static void lat_step_up(struct io_thread *t, uint64_t now)
{
	unsigned qd = t->lat_qd;

	t->lat_qd_low = t->lat_qd;
	if (t->lat_qd + 1 == t->lat_qd_high && ++t->lat_stable >= 3) {
		t->lat_qd_high++;
		t->lat_stable = 0;
	}
	if (t->lat_qd_high != t->depth)
		t->lat_qd = (t->lat_qd + t->lat_qd_high) / 2;
	else
		t->lat_qd *= 2;
	if (t->lat_qd > t->depth)
		t->lat_qd = t->depth;
	if (!t->o->latency_run && t->lat_qd == qd) {
		if (t->lat_final) {
			t->lat_done = true;
		} else {
			t->lat_final = t->lat_restart = t->lat_quiesce = true;
			return;
		}
	}
	io_lat_new_cycle(t, now);
}

/* After each reap: a window over is judged by its share of I/Os within
 * the target (none at all counts as a miss, as in fio). */
void io_lat_check(struct io_thread *t, uint64_t now)
{
	if (now - t->lat_ts < t->lat_window_ns)
		return;
	uint64_t ios = t->completed_n - t->lat_ios;
	double ok = ios ? 100.0 * (double)(ios - t->lat_failed) / (double)ios : -1;

	if (ok >= t->lat_pct)
		lat_step_up(t, now);
	else
		io_lat_step_down(t);	/* at depth 1 it stays, the window going on */
}

int io_lat_target_failed(struct io_thread *t, uint64_t lat)
{
	t->error = ETIMEDOUT;	/* fio's lat_fatal */
	snprintf(t->errmsg, sizeof(t->errmsg), "latency_target=%.0fus not met at queue depth 1: "
		 "an I/O took %.0fus", t->lat_target_ns / 1e3, lat / 1e3);
	return -1;
}
