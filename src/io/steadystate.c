/*
 * steadystate.c: fio's steady-state detection (ss=, ss_dur=, ss_ramp=),
 * which ends a job once its IOPS or bandwidth has settled, the way SNIA's
 * preconditioning runs a drive until it is steady.
 *
 * As fio's helper thread does, one thread checks every second: each unit
 * (a job's threads together with group_reporting, else each thread on its
 * own) gets a sample of what it completed since the last check, scaled
 * as fio scales it (the count times the milliseconds since the last
 * check, over 1000: about the count, and less for the first, partial
 * second).  Samples count from ss_ramp plus a second after the thread's
 * start (at once without ss_ramp).  Once ss_dur of them are in, each
 * check judges the window: its largest deviation from the mean (iops,
 * bw) or its least-squares slope (iops_slope, bw_slope), in percent of
 * the mean when the limit is, and a unit under the limit is ended as at
 * its runtime's end.  The window is reported as fio's JSON reports it.
 *
 * The I/O threads publish two counters (done_ios, done_bytes) with
 * relaxed atomic stores, plain moves on x86: nothing else on the I/O path.
 */
#include "io_internal.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SS_INTERVAL_NS 1000000000ULL	/* fio's ss_check_interval */

/* One unit's window and state. */
struct io_ss_unit {
	int first, n;			/* the job's threads [first, first + n) */
	bool ramp_over, attained;
	uint64_t prev_ns, prev_ios, prev_bytes;
	unsigned count;			/* samples taken */
	uint64_t iops[IO_SS_MAX], bw[IO_SS_MAX];	/* a ring: sample k at k % dur */
	double criterion, deviation, slope;
};

/* fio's steadystate_slope and steadystate_deviation over the window,
 * oldest sample at x = 0; true when under the limit. */
static bool judge(struct io_ss_unit *u, const struct ss_spec *spec, unsigned dur)
{
	const uint64_t *y = spec->measure == SS_IOPS ? u->iops : u->bw;
	uint64_t sum_y = 0, sum_xy = 0;
	uint64_t sum_x = (uint64_t)dur * (dur - 1) / 2;
	uint64_t sum_x2 = (uint64_t)(dur - 1) * dur * (2 * dur - 1) / 6;
	unsigned oldest = u->count % dur;	/* the ring is full */

	for (unsigned i = 0; i < dur; i++) {
		uint64_t v = y[(oldest + i) % dur];
		sum_y += v;
		sum_xy += i * v;
	}
	if (!sum_y)
		return false;	/* nothing completed: fio's 0/0, never steady */
	if (spec->slope) {
		u->slope = ((double)sum_xy - (double)sum_x * (double)sum_y / dur) /
			   ((double)sum_x2 - (double)sum_x * (double)sum_x / dur);
		/* fio divides by the mean in whole units */
		u->criterion = spec->pct ? 100.0 * u->slope / (double)(sum_y / dur) : u->slope;
		return fabs(u->criterion) < spec->limit;
	}
	double mean = (double)sum_y / dur;
	u->deviation = 0;
	for (unsigned i = 0; i < dur; i++)
		u->deviation = fmax(u->deviation, fabs((double)y[i] - mean));
	u->criterion = spec->pct ? 100.0 * u->deviation / mean : u->deviation;
	return u->criterion < spec->limit;
}

static void check_unit(struct io_job *job, struct io_ss_unit *u, const struct ss_spec *spec,
		       uint64_t now)
{
	const struct io_options *o = &job->o;
	unsigned dur = (unsigned)o->ss_dur;
	uint64_t ios = 0, bytes = 0, epoch = UINT64_MAX;

	if (u->attained)
		return;
	for (int i = u->first; i < u->first + u->n; i++) {
		struct io_thread *t = &job->threads[i];
		/* begin_ns is written before running is set */
		if (atomic_load(&t->running) && t->begin_ns < epoch)
			epoch = t->begin_ns;
		ios += __atomic_load_n(&t->done_ios, __ATOMIC_RELAXED);
		bytes += __atomic_load_n(&t->done_bytes, __ATOMIC_RELAXED);
	}
	if (epoch == UINT64_MAX)
		return;	/* none started, or all ended: fio skips it */
	if (!u->prev_ns)
		u->prev_ns = epoch;
	if (!u->ramp_over && now - epoch >= (uint64_t)(o->ss_ramp * 1e9) + SS_INTERVAL_NS)
		u->ramp_over = true;
	uint64_t ms = (now - u->prev_ns) / 1000000;
	u->prev_ns = now;
	if (u->ramp_over) {
		u->iops[u->count % dur] = ms * (ios - u->prev_ios) / 1000;
		u->bw[u->count % dur] = ms * (bytes - u->prev_bytes) / 1000;
		u->count++;
		if (u->count >= dur && judge(u, spec, dur)) {
			u->attained = true;
			for (int i = u->first; i < u->first + u->n; i++)
				io_terminate(&job->threads[i]);
		}
	}
	u->prev_ios = ios;
	u->prev_bytes = bytes;
}

static void *ss_main(void *arg)
{
	struct gate *g = arg;
	uint64_t tick = now_ns();

	pthread_mutex_lock(&g->lock);
	while (!g->ss_stop) {
		tick += SS_INTERVAL_NS;
		for (uint64_t now = now_ns(); now < tick && !g->ss_stop; now = now_ns()) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			uint64_t at = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec +
				      (tick - now);
			ts.tv_sec = (time_t)(at / 1000000000ULL);
			ts.tv_nsec = (long)(at % 1000000000ULL);
			pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		}
		if (g->ss_stop)
			break;
		pthread_mutex_unlock(&g->lock);
		uint64_t now = now_ns();
		for (int j = 0; j < g->njobs; j++) {
			struct io_job *job = g->jobs[j];
			for (int k = 0; job->ss && k < job->nss; k++)
				check_unit(job, &job->ss[k], &job->o.parsed.ss, now);
		}
		pthread_mutex_lock(&g->lock);
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

int io_ss_start(struct gate *g)
{
	bool any = false;

	for (int j = 0; j < g->njobs; j++) {
		struct io_job *job = g->jobs[j];
		if (!(job->o.ss_dur > 0))
			continue;
		/* group_reporting: the job's threads as one, as fio's group */
		job->nss = job->o.group_reporting ? 1 : job->nthreads;
		job->ss = calloc((size_t)job->nss, sizeof(*job->ss));
		if (!job->ss)
			return error_set("out of memory for the steady-state windows");
		for (int k = 0; k < job->nss; k++) {
			job->ss[k].first = job->o.group_reporting ? 0 : k;
			job->ss[k].n = job->o.group_reporting ? job->nthreads : 1;
			job->ss[k].ramp_over = !(job->o.ss_ramp > 0);
		}
		for (int i = 0; i < job->nthreads; i++)
			job->threads[i].ss_on = true;
		any = true;
	}
	g->ss_stop = false;
	g->ss_running = false;
	if (!any)
		return 0;
	if (pthread_create(&g->ss_thread, NULL, ss_main, g))
		return error_set("cannot start the steady-state thread");
	g->ss_running = true;
	return 0;
}

void io_ss_stop(struct gate *g)
{
	if (!g->ss_running)
		return;
	pthread_mutex_lock(&g->lock);
	g->ss_stop = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->ss_thread, NULL);
	g->ss_running = false;
}

void io_ss_result(const struct io_job *job, struct io_result *res)
{
	struct io_ss_result *r = &res->ss;
	const struct io_ss_unit *u;
	unsigned dur;

	memset(r, 0, sizeof(*r));
	if (!job->ss)
		return;
	r->spec = job->o.parsed.ss;
	u = &job->ss[0];	/* without group_reporting, the first thread's */
	dur = (unsigned)job->o.ss_dur;
	r->on = true;
	r->attained = u->attained;
	r->dur = dur;
	r->criterion = u->criterion;
	r->deviation = u->deviation;
	r->slope = u->slope;
	/* oldest first; before the window filled, from the start, zeros after */
	unsigned from = u->count >= dur ? u->count % dur : 0;
	for (unsigned i = 0; i < dur; i++) {
		r->iops[i] = u->iops[(from + i) % dur];
		r->bw[i] = u->bw[(from + i) % dur];
	}
}

void io_ss_free(struct gate *g)
{
	for (int j = 0; j < g->njobs; j++) {
		struct io_job *job = g->jobs[j];
		free(job->ss);
		job->ss = NULL;
		job->nss = 0;
		for (int i = 0; i < job->nthreads; i++)
			job->threads[i].ss_on = false;
	}
}
