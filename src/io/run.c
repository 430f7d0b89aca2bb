/*
 * run.c: a run of jobs, as fio runs them: each job's threads started
 * together at a gate (a thread that failed its set-up holds all of them
 * back), wait_for and startdelay, then the loop of backend.c for the
 * engine (io_run_sync or io_run_async) and a write job's read-back;
 * exitall and exit_what; the results merged (results.c).  Jobs of one
 * run start at once; the runs of a job file follow one another.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* All threads of a group start their I/O together, or none does. */
static int gate_pass(struct gate *g, bool failed)
{
	int go;

	pthread_mutex_lock(&g->lock);
	g->ready++;
	g->failed |= failed;
	pthread_cond_broadcast(&g->cond);
	while (!g->go)
		pthread_cond_wait(&g->cond, &g->lock);
	go = !g->failed;
	pthread_mutex_unlock(&g->lock);
	return go;
}

static void reset_thread(struct io_thread *t)
{
	const struct io_options *o = t->o;

	t->error = 0;
	t->errmsg[0] = 0;
	t->held = NULL;
	t->nfree = t->depth;
	for (unsigned i = 0; i < t->depth; i++)
		t->free_reqs[i] = &t->reqs[i];
	t->pass = 0;
	t->trim_pending = false;
	t->pass_index = 0;
	t->pass_end = t->pass_bytes;
	t->issued_bytes = 0;
	/* io_size: fio's amount of I/O, over the region and around it */
	t->target_bytes = o->time_based ? UINT64_MAX
			: sat_mul(o->io_size ? o->io_size : t->pass_bytes, (uint64_t)o->loops);
	t->writes_since_sync = 0;
	t->next_file = 0;
	t->stats_on = false;
	t->issued_n = t->completed_n = t->think_last = 0;
	t->think_due = false;
	t->stalls = t->stalls_ns = t->rate_sleeps = t->rate_sleep_inflight = 0;
	t->seq_left = 0;
	t->last_file = NULL;
	t->zone_off = t->zone_bytes = t->zone_draws = t->zone_n = 0;
	t->hist_head = t->hist_len = t->vbatch = 0;
	t->total_err = 0;
	t->first_error = 0;
	t->last_done = -1;
	memset(t->rate_issued, 0, sizeof(t->rate_issued));
	memset(t->rate_next, 0, sizeof(t->rate_next));
	t->deadline = UINT64_MAX;
	t->verified = 0;
	t->start_ns = t->end_ns = t->synced_ns = 0;
	t->verify_ns = 0;
	t->usr_ns = t->sys_ns = 0;
	memset(t->ios, 0, sizeof(t->ios));
	memset(t->bytes, 0, sizeof(t->bytes));
	io_clear_latencies(t);
	for (int i = 0; i < t->nfiles; i++) {
		memset(t->files[i].pos, 0, sizeof(t->files[i].pos));
		t->files[i].op_pass = 0;
	}
	if (t->use_map)
		perm_init(&t->perm, t->total_blocks, t->seed ^ (uint64_t)t->seq);
	if (t->written)
		memset(t->written, 0, (size_t)(t->total_blocks + 7) / 8);
	if (t->wlen)
		memset(t->wlen, 0, (size_t)t->total_blocks * sizeof(*t->wlen));
	t->replay_at = 0;	/* a repetition replays the log from its start */
	t->replay_started = false;
	if (t->map) {
		memset(t->map, 0, (size_t)(t->total_blocks + 63) / 64 * 8);
		t->mapped = 0;
	}
	rng_seed(&t->rng, t->seed + 0x9e3779b9ULL * (uint64_t)(t->seq + 1));
	io_lat_init(t);
}

/* wait_for: until every thread of the waitee has ended, or exitall ends
 * this job first (then it does no I/O, as fio's).  False on a stop. */
static bool wait_for_waitee(struct io_thread *t)
{
	struct io_job *w = t->job->waitee;
	struct gate *g = t->job->gate;
	bool go = true;

	pthread_mutex_lock(&g->lock);
	while (w->ended < w->nthreads && (go = !io_stopping(t))) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;	/* a stop request is a flag: look again */
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->cond, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
	return go;
}

/* fio's fio_terminate_threads, when a thread of `job` ends with exitall:
 * exit_what=group ends the jobs of its reporting group, stonewall every
 * job that has started, all every job, and no later run starts. */
static void exit_all_check(struct io_thread *t)
{
	const struct io_options *o = t->o;
	struct gate *g = t->job->gate;

	if (!o->exitall && !(o->exitall_on_error && t->error))
		return;
	for (int j = 0; j < g->njobs; j++) {
		struct io_job *other = g->jobs[j];
		if (o->exit_what == EXIT_ALL || (o->exit_what == EXIT_GROUP &&
		    other->groupid == t->job->groupid) || (o->exit_what == EXIT_STONEWALL &&
		    other->started))
			for (int i = 0; i < other->nthreads; i++)
				io_terminate(&other->threads[i]);
	}
	if (o->exit_what == EXIT_ALL)
		g->exit_all = true;
}

/* fio's cpus_allowed/cpumask, nice, prio, prioclass and NUMA placement, for this thread
 * (fio sets them in each job's process). */
static int thread_placement(struct io_thread *t)
{
	const struct io_options *o = t->o;

	if (t->ncpus && sched_setaffinity(0, sizeof(t->cpus), &t->cpus))
		return error_errno("cpus_allowed: sched_setaffinity");
	if (o->nice && setpriority(PRIO_PROCESS, (id_t)gettid(), (int)o->nice))
		return error_errno("nice=%lld: setpriority", (long long)o->nice);
	if (o->prio >= 0 || o->prioclass) {
		/* the ioprio ABI: the class above bit 13; as fio's, best-effort
		 * when no class is given, and level 0 when only one is */
		int class = o->prioclass ? (int)o->prioclass : 2;
		int level = o->prio >= 0 ? (int)o->prio : 0;
		t->own_prio = (uint16_t)(class << 13 | level);
		if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, gettid(), class << 13 | level))
			return error_errno("prio=%d prioclass=%d: ioprio_set", level, class);
	}
	return io_numa_place(t);	/* after cpus_allowed, which numa_cpu_nodes overrides (fio) */
}

static void *thread_main(void *arg)
{
	struct io_thread *t = arg;
	const struct io_options *o = t->o;
	struct gate *g = t->job->gate;
	bool failed = false;
	uint64_t usr, sys;

	/* fio's jobs are processes, each with its own file table, unless
	 * thread=1: a table shared by threads costs every system call on a
	 * descriptor a reference count (fdget's slow path), and every table
	 * growth an RCU grace period (filecreate at 2000 files open: 41k
	 * creates/s shared, 230k own) */
	if ((!o->thread && !(t->job->ops->flags & ENGINE_SHARED_TABLE) && io_thread_own_files(t)) ||
	    thread_placement(t) ||
	    (t->ops->init && t->ops->init(t)) || io_iolog_begin(t)) {
		io_engine_error(t);
		failed = true;
	}
	if (!gate_pass(g, failed))
		goto out;
	if (t->job->waitee && !wait_for_waitee(t))
		goto ended;
	pthread_mutex_lock(&g->lock);
	t->job->started = true;
	pthread_mutex_unlock(&g->lock);
	if (o->startdelay > 0)
		io_sleep_until(t, now_ns() + (uint64_t)(o->startdelay * 1e9));
	if (o->invalidate && !io_is_direct(o))
		io_invalidate_files(t);
	io_advise_files(t);	/* after invalidate, as fio's td_io_open_file */
	t->begin_ns = t->rate_epoch = now_ns();
	t->rate_waiting = false;
	t->ramp_end = now_ns() + (uint64_t)(o->ramp_time * 1e9);
	atomic_store(&t->running, true);
	if (t->ops->run) {
		io_start_stats(t, now_ns());
		if (t->ops->run(t))
			io_engine_error(t);
		t->end_ns = now_ns();
	} else if (t->ops->flags & ENGINE_SYNC)
		io_run_sync(t);
	else
		io_run_async(t);
	atomic_store(&t->running, false);
	/* fio's do_io ends with end_fsync (and fsync_on_close's last one) on
	 * its clock: the job's time and bandwidth include it */
	if (!t->error && (o->end_fsync || o->fsync_on_close) && io_has_writes(o)) {
		for (int i = 0; i < t->nfiles; i++)
			io_iolog_note(t, &t->files[i], IOLOG_SYNC, 0, 0);
		for (int i = 0; i < t->nfiles; i++)
			if (t->files[i].fd >= 0 && fsync(t->files[i].fd) && !t->error) {
				t->error = errno;
				snprintf(t->errmsg, sizeof(t->errmsg), "fsync %s: %s", t->files[i].path,
					 strerror(errno));
			}
		t->end_ns = t->synced_ns = now_ns();
	}
	if (t->ops->end) {
		if (t->ops->end(t) && !t->error)
			io_engine_error(t);
		t->end_ns = now_ns();
	}
ended:
	if (!t->stats_on) {
		if (!t->end_ns)
			t->end_ns = now_ns();
		io_start_stats(t, t->end_ns);
	}
	if (!t->error && t->verify && o->do_verify && io_has_writes(o)) {
		/* fio times the read-back as the job's read phase */
		uint64_t v0 = now_ns();
		io_verify_back(t);
		t->verify_ns = now_ns() - v0;
	}
	/* after the read-back: fio's CPU figures are over the whole job */
	io_thread_cpu(&usr, &sys);
	t->usr_ns = usr - t->usr_start;
	t->sys_ns = sys - t->sys_start;
	io_thread_faults(&t->ctx, &t->majf, &t->minf);
	t->ctx -= t->ctx_start;
	t->majf -= t->majf_start;
	t->minf -= t->minf_start;
out:
	io_iolog_end(t);	/* a failure to write it is the thread's error */
	pthread_mutex_lock(&g->lock);
	t->job->ended++;
	exit_all_check(t);
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
	/* fio's flow_put: what is left is the others'.  After exitall has
	 * told them to end, so that none runs unheld in between (one whose
	 * partner ended first took 4 I/Os to its 1 where flow asked 3) */
	if (t->flow) {
		atomic_fetch_sub(&t->flow->count, t->flow_count);
		atomic_fetch_sub(&t->flow->weight, t->o->flow);
	}
	if (t->ops->cleanup)
		t->ops->cleanup(t);
	/* A thread's own table is released after pthread_join returns (the
	 * kernel wakes the joiner in exit_mm, before exit_files), so its
	 * copies of the job's files would still be open when the caller
	 * unmounts: umount's EBUSY, now and then.  Closed here, each file's
	 * last reference is dropped before the thread ends. */
	if (t->own_table) {
		close_range(3, ~0U, 0);
		t->own_table = false;
	}
	return NULL;
}


static int run_jobs(struct io_job **jobs, int njobs, const int *groups,
		    struct io_result *results, bool *exit_all, bool *ran)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0,
			     jobs, njobs, false, .nflows = 0 };
	pthread_t *tids;
	int total = 0, started = 0, rc = 0;

	for (int j = 0; j < njobs; j++) {
		struct io_job *job = jobs[j];
		total += job->nthreads;
		job->gate = &gate;
		job->groupid = groups ? groups[j] : 0;
		job->ended = 0;
		job->started = false;
		job->waitee = NULL;
		for (int k = 0; k < j && job->o.wait_for[0]; k++)
			if (!strcmp(jobs[k]->o.name, job->o.wait_for))
				job->waitee = jobs[k];
		struct io_flow *f = NULL;
		for (int k = 0; k < gate.nflows && job->o.flow; k++)
			if (gate.flows[k].id == job->o.flow_id)
				f = &gate.flows[k];
		if (job->o.flow && !f) {
			if (gate.nflows == IO_FLOWS_MAX)
				return error_set("more than %d flow_id values in one run", IO_FLOWS_MAX);
			f = &gate.flows[gate.nflows++];
			f->id = job->o.flow_id;
			atomic_init(&f->count, 1);
			atomic_init(&f->weight, 0);
		}
		for (int i = 0; i < job->nthreads; i++) {
			atomic_store(&job->threads[i].terminate, false);
			atomic_store(&job->threads[i].running, false);
			job->threads[i].done_ios = job->threads[i].done_bytes = 0;
			job->threads[i].flow = f;
			job->threads[i].flow_count = 0;
			job->threads[i].flow_wait = false;
			job->threads[i].flow_sleep_ns = (uint64_t)(job->o.flow_sleep * 1e9);
			if (f)
				atomic_fetch_add(&f->weight, job->o.flow);
		}
	}
	/* nanosleep's overshoot, measured before the threads start, as fio
	 * measures it when it starts: measured among 11 starting threads
	 * (exitwhat.fio), it came out above 2 ms, and a 2 ms think time was
	 * spun whole */
	io_measure_slack();
	tids = calloc((size_t)total, sizeof(*tids));
	if (!tids)
		return error_set("out of memory");
	for (int j = 0; j < njobs && !gate.failed; j++) {
		for (int i = 0; i < jobs[j]->nthreads; i++) {
			struct io_thread *t = &jobs[j]->threads[i];
			reset_thread(t);
			if (pthread_create(&tids[started], NULL, thread_main, t)) {
				gate.failed = 1;
				rc = error_set("cannot start I/O thread %d of job %s", i, jobs[j]->o.name);
				break;
			}
			started++;
		}
	}
	if (!gate.failed && io_ss_start(&gate)) {
		gate.failed = 1;
		rc = -1;
	}
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.go = 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	io_ss_stop(&gate);
	for (int j = 0; j < njobs && !rc; j++)
		for (int i = 0; i < jobs[j]->nthreads; i++)
			if (jobs[j]->threads[i].error) {
				rc = error_set("%s", jobs[j]->threads[i].errmsg);
				break;
			}
	if (!rc && stop_requested())
		rc = error_set("interrupted");
	/* a job's failure leaves the others' figures, and its own, to report
	 * (fio's err=); a stop leaves nothing */
	bool report = !stop_requested() && started == total;
	for (int j = 0; j < njobs && report; j++) {
		io_job_result(jobs[j], 0, jobs[j]->nthreads, &results[j]);
		results[j].compress_ratio = io_job_compress_ratio(jobs[j], &results[j].compress_unit,
							       &results[j].compress_how);
		io_ss_result(jobs[j], &results[j]);
	}
	if (ran)
		*ran = report;
	io_ss_free(&gate);
	if (exit_all)
		*exit_all = gate.exit_all;
	return rc;
}

int io_job_run(struct io_job *job, struct io_result *res)
{
	/* a repetition of a file-operation job starts where the first did */
	if (job->runs++ && io_job_refresh(job))
		return -1;
	return run_jobs(&job, 1, NULL, res, NULL, NULL);
}

int io_run_jobs(struct io_run *run)
{
	struct io_job **jobs = calloc((size_t)run->njobs, sizeof(*jobs));
	int rc = 0, opened = 0, njobs = run->njobs, threads = run->first_thread;

	if (!jobs)
		return error_set("out of memory");
	for (; opened < njobs; opened++) {
		if (io_job_open_at(&run->jobs[opened], run->dir, threads, jobs, opened, run->made,
				   &jobs[opened])) {
			rc = -1;
			break;
		}
		threads += jobs[opened]->nthreads;
	}
	/* dedupe_global: a working set over every thread of the run */
	for (int j = 0; j < opened; j++)
		for (int i = 0; i < jobs[j]->nthreads && jobs[j]->o.dedupe_global; i++)
			io_dedupe_share(&jobs[j]->threads[i].dedupe, run->first_thread,
					threads - run->first_thread);
	run->exit_all = false;
	run->ran = false;
	if (!rc)
		rc = run_jobs(jobs, njobs, run->groups, run->results, &run->exit_all, &run->ran);
	for (int j = 0, k = 0; j < njobs && run->ran && run->each; j++)
		for (int i = 0; i < jobs[j]->nthreads; i++, k++) {
			io_job_result(jobs[j], i, i + 1, &run->each[k]);
			run->each[k].ss = run->results[j].ss;
			run->each[k].compress_ratio = run->results[j].compress_ratio;
			run->each[k].compress_unit = run->results[j].compress_unit;
			run->each[k].compress_how = run->results[j].compress_how;
		}
	for (int j = 0; j < njobs && run->ran; j++)
		if (io_write_logs(jobs[j]) && !rc)
			rc = -1;
	for (int j = 0; j < opened; j++) {
		if (run->keep && !run->made)
			for (int i = 0; i < jobs[j]->nthreads; i++)
				for (int k = 0; k < jobs[j]->threads[i].nfiles; k++)
					jobs[j]->threads[i].files[k].created = false;
		else if (run->made && io_job_hand_over(jobs[j], run->made) && !rc)
			rc = -1;	/* what was not handed over is removed now */
		io_job_close(jobs[j]);
	}
	free(jobs);
	return rc;
}

int io_group_run(const struct io_options *opts, int njobs, const char *dir,
		 struct io_result *results, bool keep)
{
	struct io_run run = { opts, NULL, njobs, dir, keep, results, false, false, 0, NULL, NULL };

	return io_run_jobs(&run);
}
