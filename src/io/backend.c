/*
 * backend.c: the I/O core's per-I/O path (see iojob.h and io_internal.h):
 * each thread's loop, one request at a time for a synchronous engine
 * (io_run_sync: each call timed) or iodepth in flight (io_run_async: a
 * batch stamped before and after the submit call, completions reaped in
 * batches, as fio's do_io), a write job's read-back (io_verify_back), and
 * each completion's accounting (latencies, errors, rate minimum, logs).
 * What each I/O is comes from offsets.c; the threads are started and
 * ended by run.c; their counts become a result in results.c.  exitall,
 * steady state (steadystate.c) and a stop end threads through one flag
 * each checks per I/O.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- per-I/O path -------------------------------------------------------- */

void io_invalidate_files(struct io_thread *t)
{
	for (int i = 0; i < t->nfiles; i++)
		if (t->files[i].fd >= 0)	/* the file-operation engines hold none */
			posix_fadvise(t->files[i].fd, (off_t)t->files[i].base,
				      (off_t)t->files[i].size, POSIX_FADV_DONTNEED);
}

/* fio's fadvise_hint.  The advice stays with the open file, and fsbench
 * keeps its descriptors over passes where fio reopens, so once is enough. */
void io_advise_files(struct io_thread *t)
{
	int advice = io_fadvise_advice(t->o);

	for (int i = 0; advice >= 0 && i < t->nfiles; i++)
		if (t->files[i].fd >= 0)
			posix_fadvise(t->files[i].fd, (off_t)t->files[i].base,
				      (off_t)t->files[i].size, advice);
}


/* fio's handle_thinktime, checked after each I/O is queued: once
 * thinktime_blocks more I/Os have completed (or been issued) since the
 * last stall, a stall is due; the queue drains first. */
static inline void think_check(struct io_thread *t)
{
	if (!t->think_ns)	/* first: a job without thinktime reads nothing else */
		return;
	uint64_t b = t->o->thinktime_blocks_type ? t->issued_n : t->completed_n;

	if (b >= t->think_last + (uint64_t)t->o->thinktime_blocks) {
		t->think_due = true;
		t->think_last = b;
	}
}

/* fio's flow_threshold_exceeded, before each I/O: held while this
 * thread's share of the flow's I/Os is above its weight's share; else the
 * I/O is counted in both. */
static inline bool flow_held(struct io_thread *t)
{
	struct io_flow *f = t->flow;
	double mine = (double)t->flow_count / (double)atomic_load_explicit(&f->count,
									 memory_order_relaxed);
	double share = (double)t->o->flow / (double)atomic_load_explicit(&f->weight,
									memory_order_relaxed);

	if (mine > share)
		return true;
	atomic_fetch_add_explicit(&f->count, 1, memory_order_relaxed);
	t->flow_count++;
	return false;
}


/* fio's td_non_fatal_error: continue_on_error takes the error's type and
 * the errno is on the type's list; then it is counted and the job goes on
 * (0).  -1 leaves it fatal. */
static int go_past(struct io_thread *t, int type, int err)
{
	const struct io_errors *e = &t->errs;

	if (!(e->mask & (1u << type)))
		return -1;
	for (unsigned i = 0; i < e->n[type]; i++)
		if (e->err[type][i] == err) {
			if (!t->total_err++)
				t->first_error = err;
			return 0;
		}
	return -1;
}

static int io_failed(struct io_thread *t, const struct io_req *r)
{
	static const char *const doing[IO_DIRS] = { "reading", "writing", "trimming" };
	static const char *const noun[IO_DIRS] = { "read", "write", "trim" };
	const char *what = doing[r->dir];
	char done[32], asked[32];

	/* fio's types: a read's error, or a write's (trims with them) */
	if (t->errs.mask && !go_past(t, r->dir == DIR_READ ? ERR_READ : ERR_WRITE,
				     r->res < 0 ? -r->res : EIO)) {
		if (t->stats_on)	/* fio's total_ios and IOPS count it; bytes and clat not */
			t->ios[r->dir]++;
		return 0;
	}

	/* fill_device: a full filesystem is where the job ends, not an error */
	if (t->o->fill_device && r->dir == DIR_WRITE && (r->res == -ENOSPC || r->res == -EDQUOT))
		return -1;
	t->error = r->res < 0 ? -r->res : EIO;	/* a short transfer: fio's EIO */
	if (t->ops->flags & ENGINE_FILE_OP) {
		snprintf(t->errmsg, sizeof(t->errmsg), "ioengine=%s on %s: %s", t->ops->name,
			 r->file->path, r->res == -ESTALE ? "it is no longer the file fsbench made "
			 "there, so it is left alone" : strerror(-r->res));
	} else if (r->res >= 0) {
		snprintf(t->errmsg, sizeof(t->errmsg), "short %s on %s at offset %llu: %d of %u bytes",
			 noun[r->dir], r->file->path,
			 (unsigned long long)r->offset, r->res, r->len);
	} else if (r->res == -EINVAL && io_is_direct(t->o)) {
		snprintf(t->errmsg, sizeof(t->errmsg),
			 "%s %s with O_DIRECT (direct=1) failed: %s; bs and offset must be multiples of "
			 "the filesystem's block size, or use direct=0", what, r->file->path,
			 strerror(EINVAL));
	} else if (r->res == -ENOSPC || r->res == -EDQUOT) {
		bytes_text(t->issued_bytes - r->len, done, sizeof(done));
		bytes_text(t->target_bytes == UINT64_MAX ? t->pass_bytes : t->target_bytes, asked,
			  sizeof(asked));
		snprintf(t->errmsg, sizeof(t->errmsg),
			 "writing %s: no space left on the device after %s written of the %s asked: "
			 "lower size=", r->file->path, done, asked);
	} else {
		snprintf(t->errmsg, sizeof(t->errmsg), "%s %s at offset %llu: %s", what,
			 r->file->path, (unsigned long long)r->offset, strerror(-r->res));
	}
	return -1;
}

/* log_avg_msec=0: one entry per I/O, in chunks of IO_LOG_CHUNK. */
static int log_io(struct io_thread *t, const struct io_req *r, uint64_t now)
{
	if (!t->nchunks || t->chunk_used == IO_LOG_CHUNK) {
		struct io_logent **c = realloc(t->chunks, sizeof(*c) * (t->nchunks + 1));
		struct io_logent *e = c ? malloc(sizeof(*e) * IO_LOG_CHUNK) : NULL;
		if (c)
			t->chunks = c;
		if (!e) {
			t->error = ENOMEM;
			snprintf(t->errmsg, sizeof(t->errmsg), "out of memory for the I/O log: set "
				 "log_avg_msec to log window means");
			return -1;
		}
		t->chunks[t->nchunks++] = e;
		t->chunk_used = 0;
	}
	t->chunks[t->nchunks - 1][t->chunk_used++] = (struct io_logent){
		now - t->start_ns, now - r->start_ns, r->issue_ns - r->start_ns, r->offset, r->len,
		(uint8_t)r->dir, r->prio ? t->prio_value[r->prio] : t->own_prio };
	return 0;
}

/* fio's check_min_rate: after each completion, once rate_cycle has gone
 * by since the last check (and 2 s since the start), each direction that
 * has done I/O must have kept its minimum over that stretch. */
static int min_rate_check(struct io_thread *t, uint64_t now)
{
	if (now - t->begin_ns < 2000000000ULL)
		return 0;
	for (int d = 0; d < IO_DIRS; d++) {
		if (!t->bytes[d] || !(t->rmin_bps[d] || t->rmin_iops[d]))
			continue;
		if (t->rmin_bytes[d] || t->rmin_ios[d]) {
			uint64_t spent = (now - t->rmin_at[d]) / 1000000;	/* ms, as fio */
			if (spent < (uint64_t)t->o->rate_cycle || !spent)
				continue;
			uint64_t got = t->rmin_bps[d] ? (t->bytes[d] - t->rmin_bytes[d]) * 1000 / spent
						      : (t->ios[d] - t->rmin_ios[d]) * 1000 / spent;
			uint64_t want = t->rmin_bps[d] ? t->rmin_bps[d] : t->rmin_iops[d];
			if (got < want) {
				t->error = EIO;	/* fio's check_min_rate */
				snprintf(t->errmsg, sizeof(t->errmsg), "%s=%llu%s not met, got "
					 "%llu%s over %llu ms (%s)",
					 t->rmin_bps[d] ? "rate_min" : "rate_iops_min",
					 (unsigned long long)want, t->rmin_bps[d] ? "B/s" : "",
					 (unsigned long long)got, t->rmin_bps[d] ? "B/s" : " IOPS",
					 (unsigned long long)spent,
					 d == DIR_READ ? "reads" : d == DIR_WRITE ? "writes" : "trims");
				return -1;
			}
		}
		t->rmin_bytes[d] = t->bytes[d];
		t->rmin_ios[d] = t->ios[d];
		t->rmin_at[d] = now;
	}
	return 0;
}

/* fio's max_latency: the job ends with ETIMEDOUT. */
static int max_latency_failed(struct io_thread *t, uint64_t lat)
{
	t->error = ETIMEDOUT;
	snprintf(t->errmsg, sizeof(t->errmsg), "max_latency=%.0fus exceeded: an I/O took %.0fus",
		 t->max_lat_ns / 1e3, lat / 1e3);
	return -1;
}


/* One completed I/O's figures, as fio keeps them: clat from the issue,
 * lat from before the submit call, slat between (async engines only),
 * less what disable_clat, _lat, _slat and _bw_measurement turn off.
 * `plain` is a constant at each call: true, the usual job (every figure,
 * no extra histogram), whose flags then cost nothing per I/O; false, any
 * other, read from the thread (figures_reduced). */
static inline __attribute__((always_inline)) int figures(struct io_thread *t,
							  const struct io_req *r,
							  uint64_t now, bool plain)
{
	const uint64_t clat = now - r->issue_ns, lat = now - r->start_ns;
	const bool keep_clat = plain || !t->no_clat, keep_lat = plain || !t->no_lat;

	if (keep_clat)
		hist_add(&t->clat[r->dir], clat);
	if (plain || !t->no_bw)
		winbuf_add(&t->wb, now, r->dir, r->len, keep_clat ? clat : 0);
	/* a synchronous call's lat is its clat (io_job_result), unless clat
	 * is not kept */
	if (keep_lat && (t->async || !keep_clat))
		moments_add(&t->lat[r->dir], lat);
	if (t->async) {
		if (plain || !t->no_slat) {
			moments_add(&t->slat[r->dir], r->issue_ns - r->start_ns);
			if (plain || !t->no_bw)
				winbuf_add_slat(&t->wb, r->dir, r->issue_ns - r->start_ns);
		}
		if (!plain) {
			if (t->lat_h)	/* lat_percentiles, slat_percentiles */
				hist_add(&t->lat_h[r->dir], lat);
			if (t->slat_h)
				hist_add(&t->slat_h[r->dir], r->issue_ns - r->start_ns);
			/* cmdprio_percentage: fio files lat under each priority
			 * with lat_percentiles, else clat */
			if (t->prio_h)
				hist_add(&t->prio_h[r->dir][r->prio], t->lat_h ? lat : clat);
		}
	}
	if (keep_lat) {	/* fio checks both on lat */
		if (t->max_lat_ns && lat > t->max_lat_ns)
			return max_latency_failed(t, lat);
		/* latency_target: a miss counts against the window, or at 100%
		 * steps down at once (not while draining for a new depth) */
		if (t->lat_on && !t->lat_quiesce && lat > t->lat_target_ns) {
			if (t->lat_pct < 100)
				t->lat_failed++;
			else if (io_lat_step_down(t))
				return io_lat_target_failed(t, lat);
		}
	}
	return 0;
}

/* Every job that is not plain: kept out of line so that the plain one's
 * path stays as short as before any figure could be turned off. */
static __attribute__((noinline)) int figures_reduced(struct io_thread *t, const struct io_req *r,
						     uint64_t now)
{
	return figures(t, r, now, false);
}

static inline int complete(struct io_thread *t, struct io_req *r, uint64_t now)
{
	t->completed_n++;
	if (r->res != (int)r->len)
		return io_failed(t, r);
	if (t->ss_on) {	/* read by the steady-state check as they change */
		__atomic_store_n(&t->done_ios, t->done_ios + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->done_bytes, t->done_bytes + r->len, __ATOMIC_RELAXED);
	}
	if (t->verify && r->dir == DIR_READ &&
	    io_verify_check(t, r->file, r->buf, r->len, r->offset)) {
		if (t->o->verify_fatal || go_past(t, ERR_VERIFY, EILSEQ))
			return -1;
		t->error = 0;	/* counted, and the read counts as fio's does */
		t->errmsg[0] = 0;
	} else {
		t->verified += r->readback;
	}
	if (t->hist) {	/* verify_backlog: the write may be read back now */
		if (r->dir == DIR_WRITE)
			t->hist[t->hist_at[r->index]] &= ~HIST_FLIGHT;
		t->last_done = r->dir;
	}
	if (t->stats_on) {
		t->ios[r->dir]++;
		t->bytes[r->dir] += r->len;
		if (r->untimed)	/* a file-operation engine's fake: fio's FIO_NOSTATS */
			return 0;
		if (t->plain) {
			if (figures(t, r, now, true) || (t->log_each && log_io(t, r, now)))
				return -1;
		} else if (!t->gtod) {	/* gtod: nothing timed, only the counts above */
			if (figures_reduced(t, r, now) || (t->log_each && log_io(t, r, now)))
				return -1;
		}
		if (t->rmin_on && min_rate_check(t, now))
			return -1;
	}
	return 0;
}

/* fio's buckets: queue depth 1 2 4 8 16 32 >=64; I/Os per submit or reap
 * call 0 4 8 16 32 64 >=64. */
static inline unsigned depth_bucket(unsigned n)
{
	return n >= 64 ? 6 : n >= 32 ? 5 : n >= 16 ? 4 : n >= 8 ? 3 : n >= 4 ? 2 : n >= 2 ? 1 : 0;
}

/* The mean in flight (fsbench's mean_inflight), as each I/O is queued. */
static inline void count_queued(struct io_thread *t, unsigned inflight)
{
	if (t->stats_on) {
		t->depth_sum += inflight;
		t->depth_n++;
	}
}

static inline unsigned batch_bucket(unsigned n)
{
	return !n ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : n <= 16 ? 3 : n <= 32 ? 4 : n <= 64 ? 5 : 6;
}

void io_thread_faults(uint64_t *ctx, uint64_t *majf, uint64_t *minf)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	*majf = (uint64_t)ru.ru_majflt;
	*minf = (uint64_t)ru.ru_minflt;
}

void io_thread_cpu(uint64_t *usr, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*usr = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000;
}

/* The measured time starts at now. */
static void start_clock(struct io_thread *t, uint64_t now)
{
	t->start_ns = now;
	/* fio starts the rate's schedule again when ramp_time ends */
	t->rate_epoch = now;
	memset(t->rate_issued, 0, sizeof(t->rate_issued));
	memset(t->rate_next, 0, sizeof(t->rate_next));
	memset(t->rmin_bytes, 0, sizeof(t->rmin_bytes));
	memset(t->rmin_ios, 0, sizeof(t->rmin_ios));
	t->deadline = t->o->runtime > 0 ? now + (uint64_t)(t->o->runtime * 1e9) : UINT64_MAX;
	winbuf_start(&t->wb, now,
		     (uint64_t)(t->o->log_avg_msec > 0 ? t->o->log_avg_msec : IO_STAT_MS) * 1000000ULL);
}

void io_clear_latencies(struct io_thread *t)
{
	hist_init(&t->sync_h);
	for (int d = 0; d < IO_DIRS; d++) {
		hist_init(&t->clat[d]);
		moments_init(&t->lat[d]);
		moments_init(&t->slat[d]);
		if (t->lat_h)
			hist_init(&t->lat_h[d]);
		if (t->slat_h)
			hist_init(&t->slat_h[d]);
		for (int p = 0; t->prio_h && p < IO_PRIOS; p++)
			hist_init(&t->prio_h[d][p]);
	}
}

void io_start_stats(struct io_thread *t, uint64_t now)
{
	t->stats_on = true;
	start_clock(t, now);
	io_clear_latencies(t);
	memset(t->ios, 0, sizeof(t->ios));
	memset(t->bytes, 0, sizeof(t->bytes));
	memset(t->depth_level, 0, sizeof(t->depth_level));
	memset(t->depth_submit, 0, sizeof(t->depth_submit));
	memset(t->depth_complete, 0, sizeof(t->depth_complete));
	t->depth_sum = t->depth_n = 0;
	t->stalls = t->stalls_ns = t->rate_sleeps = t->rate_sleep_inflight = 0;
	t->chunk_used = 0;
	for (unsigned i = 1; i < t->nchunks; i++)	/* a repetition starts its log anew */
		free(t->chunks[i]);
	t->nchunks = t->nchunks ? 1 : 0;
	io_thread_faults(&t->ctx_start, &t->majf_start, &t->minf_start);
	io_thread_cpu(&t->usr_start, &t->sys_start);
}

static int sync_file(struct io_thread *t)
{
	int fd = t->sync_file->fd;

	t->writes_since_sync = 0;
	io_iolog_note(t, t->sync_file, t->o->fsync ? IOLOG_SYNC : IOLOG_DATASYNC, 0, 0);
	/* timed as fio times its sync I/Os (its "sync" section) */
	uint64_t start = t->stats_on && !t->gtod ? now_ns() : 0;
	int r = fd < 0 ? 0	/* null: fio's null engine completes a sync at once */
		: t->o->fsync ? fsync(fd) : fdatasync(fd);
	if (r == 0) {
		if (start)
			hist_add(&t->sync_h, now_ns() - start);
		return 0;
	}
	t->error = errno;
	snprintf(t->errmsg, sizeof(t->errmsg), "%s %s: %s", t->o->fsync ? "fsync" : "fdatasync",
		 t->sync_file->path, strerror(errno));
	return -1;
}

static inline bool sync_due(struct io_thread *t, const struct io_req *r)
{
	if (!t->sync_every || r->dir != DIR_WRITE)
		return false;
	t->sync_file = r->file;
	return ++t->writes_since_sync >= t->sync_every;
}

/* create_on_open=0 with a file-operation engine: fio makes each file's
 * operation as the job starts (its open_file), before the clock, and
 * still counts their latencies; the run's I/Os are then its fakes. */
static int ops_at_open(struct io_thread *t)
{
	struct io_req *r = &t->reqs[0];

	for (int k = 0; k < t->nfiles && !io_stopping(t); k++) {
		r->file = &t->files[k];
		r->offset = r->file->base;
		r->len = (uint32_t)t->min_bs;
		r->dir = (enum io_dir)t->fixed_dir;	/* one: engine_file_op_init */
		r->start_ns = r->issue_ns = now_ns();
		io_iolog_req(t, r);
		t->ops->queue(t, r);
		uint64_t end = now_ns();
		if (r->res != (int)r->len)
			return io_failed(t, r);
		if (!r->untimed)
			hist_add(&t->clat[r->dir], end - r->issue_ns);
	}
	start_clock(t, now_ns());
	return 0;
}

/* The loop's clock under gtod_reduce: read once every 64 calls, as fio's
 * ts_cache, so an untimed I/O costs no clock read; never ahead of the
 * real one, so a deadline it shows passed has passed. */
static inline uint64_t cached_now(struct io_thread *t)
{
	if ((++t->ts_cache_nr & 63) == 63 || !t->ts_cache)
		t->ts_cache = now_ns();
	return t->ts_cache;
}

/* psync, sync, mmap, null: each call completes before it returns. */
void io_run_sync(struct io_thread *t)
{
	struct io_req *r = &t->reqs[0];
	uint64_t now = now_ns();

	for (;;) {
		if (!t->stats_on && now >= t->ramp_end) {
			io_start_stats(t, now);
			if (t->ops_at_open && ops_at_open(t))
				break;
			now = t->start_ns;
		}
		if (now >= t->deadline || io_stopping(t))
			break;
		if (t->flow && flow_held(t)) {
			if (t->flow_sleep_ns)
				io_sleep_until(t, now + t->flow_sleep_ns);
			now = now_ns();
			continue;
		}
		if (!io_next(t, r, 0))
			break;
		if (!t->gtod)
			r->start_ns = r->issue_ns = now_ns();
		io_iolog_req(t, r);
		t->ops->queue(t, r);
		now = t->gtod ? cached_now(t) : now_ns();
		if (t->stats_on) {	/* one I/O in flight, one per call */
			t->depth_level[0]++;
			t->depth_sum++;
			t->depth_n++;
			t->depth_submit[1]++;
			t->depth_complete[1]++;
		}
		if (complete(t, r, now) || (sync_due(t, r) && sync_file(t)))
			break;
		think_check(t);
		if (t->think_due) {
			if (!io_think(t, t->last_dir))
				break;
			now = now_ns();
		}
	}
	/* now, not the last completion: a rate's or a stall's wait may have
	 * run to the runtime's end, which is then the job's, as fio's */
	t->end_ns = now_ns();
}

void io_engine_error(struct io_thread *t)
{
	t->error = EIO;
	str_copy(t->errmsg, sizeof(t->errmsg), error_get());
}

/* Stamp and submit what was queued since the last submission (untimed
 * under gtod_reduce). */
static int submit(struct io_thread *t, unsigned *newq, unsigned inflight)
{
	const bool stamp = !(t->ops->flags & ENGINE_STAMPS_ISSUE);
	uint64_t s = t->gtod || !stamp ? 0 : now_ns();
	unsigned n = *newq;

	for (unsigned i = 0; stamp && i < n; i++)
		t->pending[i]->start_ns = s;
	if (t->stats_on) {
		t->depth_submit[batch_bucket(n)]++;
		/* fio's "IO depths": the batch, each at the depth it is
		 * submitted at (td_io_commit), not at the depth as each was
		 * queued (a batch of 16 after a reap of 16 read as 17..32,
		 * half of them under fio's 32) */
		t->depth_level[depth_bucket(inflight)] += n;
	}
	*newq = 0;
	if (t->ops->commit && t->ops->commit(t) < 0) {
		io_engine_error(t);
		return -1;
	}
	/* fio's libaio and io_uring stamp the issue when the submit call
	 * returns: a buffered I/O done inside it is slat, not clat */
	s = t->gtod || !stamp ? 0 : now_ns();
	for (unsigned i = 0; stamp && i < n; i++)
		t->pending[i]->issue_ns = s;
	return 0;
}

/* serialize_overlap: r's range meets one of the thread's requests in
 * flight on the same file (fio's in_flight_overlap). */
static bool overlaps_flight(const struct io_thread *t, const struct io_req *r)
{
	for (unsigned i = 0; i < t->depth; i++) {
		const struct io_req *q = &t->reqs[i];
		if (q->busy && q->file == r->file && r->offset < q->offset + q->len &&
		    q->offset < r->offset + r->len)
			return true;
	}
	return false;
}

/* io_uring, libaio: keep iodepth requests in flight, as fio's do_io does.
 * Requests are submitted every iodepth_batch_submit queued; once the queue
 * is full, each reap takes at least iodepth_batch_complete_min and at most
 * iodepth_batch_complete_max completions (fio's defaults: 1 and 1, so a
 * completion is replaced at once and the queue stays full), repeated while
 * more than iodepth_low are in flight (default iodepth: one reap). */
void io_run_async(struct io_thread *t)
{
	unsigned inflight = 0;
	bool issuing = true, syncing = false;
	uint64_t now = now_ns();

	for (;;) {
		unsigned newq = 0;

		if (!t->stats_on && now >= t->ramp_end)
			io_start_stats(t, now);
		if (now >= t->deadline || io_stopping(t) || t->error)
			issuing = false;
		if (issuing && t->think_due && !inflight) {
			if (!io_think(t, t->last_dir))
				issuing = false;
			now = now_ns();
		}
		/* lat_qd is iodepth unless latency_target searches; inflight
		 * counts the queued ones too (newq of them not yet submitted):
		 * adding newq again stopped a batched queue (iodepth=32,
		 * iodepth_batch=16) at 24 */
		unsigned cap = t->lat_quiesce ? 0 : t->lat_qd;
		while (issuing && !syncing && !t->think_due && !t->flow_wait && (t->held || t->nfree) &&
		       inflight < cap) {
			struct io_req *r = t->held;
			int ret;

			if (!r) {
				if (t->flow && flow_held(t)) {
					t->flow_wait = true;
					break;
				}
				r = t->free_reqs[t->nfree - 1];
				if (!io_next(t, r, inflight)) {
					issuing = t->rate_waiting;	/* drain, then on */
					break;
				}
				t->nfree--;
			}
			t->held = NULL;
			if (t->o->serialize_overlap && overlaps_flight(t, r)) {
				t->held = r;	/* after a reap */
				break;
			}
			io_iolog_req(t, r);
			ret = t->ops->queue(t, r);
			if (ret == IO_Q_BUSY) {
				/* Retried after reaping; busy with nothing to wait for
				 * would never end. */
				t->held = r;
				if (!inflight && !newq) {
					t->error = EIO;
					snprintf(t->errmsg, sizeof(t->errmsg),
						 "ioengine=%s refused a request with nothing in flight",
						 t->ops->name);
					issuing = false;
				}
				break;
			}
			if (ret == IO_Q_COMPLETED) {
				r->start_ns = r->issue_ns = now;
				if (t->stats_on)
					t->depth_level[depth_bucket(inflight + 1)]++;
				if (complete(t, r, t->gtod ? cached_now(t) : now_ns()))
					issuing = false;
				t->free_reqs[t->nfree++] = r;
			} else {
				r->busy = true;
				t->pending[newq++] = r;
				count_queued(t, ++inflight);
			}
			if (sync_due(t, r))
				syncing = true;
			/* fio checks the stall after each I/O, once it reaped
			 * what a full queue makes it wait for */
			if (inflight < t->depth)
				think_check(t);
			if (newq >= t->batch_submit && submit(t, &newq, inflight))
				goto out;
		}
		if (newq && submit(t, &newq, inflight))
			break;
		if (t->flow_wait && !t->flow_sleep_ns) {
			/* fio goes round its loop again, reaping nothing */
			t->flow_wait = false;
			now = now_ns();
			continue;
		}
		if (!inflight) {
			if (syncing) {
				syncing = false;
				if (sync_file(t))
					issuing = false;
				now = now_ns();
				continue;
			}
			if (!issuing)
				break;
			if (t->flow_wait) {	/* drained: fio's flow_sleep */
				io_sleep_until(t, now_ns() + t->flow_sleep_ns);
				t->flow_wait = false;
				now = now_ns();
				continue;
			}
			if (t->think_due) {
				now = now_ns();
				continue;	/* drained: the stall, at the top */
			}
		}
		bool full = inflight >= t->lat_qd || t->held;
		int n;
		do {
			unsigned lo = t->batch_complete ? t->batch_complete : 1;
			unsigned hi = t->batch_complete_max > lo ? t->batch_complete_max : lo;
			lo = lo < inflight ? lo : inflight;
			hi = hi < inflight ? hi : inflight;
			n = t->ops->getevents(t, lo, hi);
			if (n < 0)
				break;
			now = t->gtod ? cached_now(t) : now_ns();
			if (t->stats_on)
				t->depth_complete[batch_bucket((unsigned)n)]++;
			for (int i = 0; i < n; i++) {
				struct io_req *r = t->ops->event(t, (unsigned)i);
				r->busy = false;
				if (!t->error && complete(t, r, now))
					issuing = false;
				t->free_reqs[t->nfree++] = r;
			}
			inflight -= (unsigned)n;
		} while (((full && inflight > t->depth_low) ||
			  ((t->rate_waiting || t->think_due || t->flow_wait) && inflight)) && n > 0);
		if (n < 0) {
			io_engine_error(t);
			break;
		}
		if (full && !t->think_due)
			think_check(t);
		if (t->lat_on && t->stats_on) {
			if (t->lat_quiesce && !inflight) {	/* drained: the new depth */
				t->lat_quiesce = false;
				if (t->lat_restart) {
					t->lat_restart = false;
					io_start_stats(t, now);
				}
				io_lat_new_cycle(t, now);
			} else if (!t->lat_quiesce) {
				io_lat_check(t, now);
			}
			if (t->lat_done)
				issuing = false;
		}
	}
out:
	if (t->held) {
		t->free_reqs[t->nfree++] = t->held;
		t->held = NULL;
	}
	t->end_ns = now_ns();	/* as run_sync's */
}


/* A verified write job's read-back, as fio's verify phase: every block
 * written, in block order (with verify_backlog, those it has not read
 * back, in the order written), through the job's engine at its queue
 * depth; complete() checks each block and counts it as a read. */
void io_verify_back(struct io_thread *t)
{
	const uint32_t bs = (uint32_t)t->min_bs;
	const bool inline_done = t->ops->flags & ENGINE_SYNC;
	uint64_t g = 0, now = now_ns();
	uint64_t done_to = 0;	/* wlen: the blocks below this are read back */
	unsigned inflight = 0;

	for (;;) {
		unsigned newq = 0;
		bool busy = false;
		while (t->nfree && !busy && !t->error && !io_stopping(t)) {
			if (t->hist) {	/* verify_backlog: what it has not read back */
				if (!t->hist_len)
					break;
				g = t->hist[t->hist_head] & ~HIST_FLIGHT;
			} else if (t->wlen) {
				/* a write's span, less what an earlier span read */
				while (g < t->total_blocks &&
				       (!t->wlen[g] || g + t->wlen[g] / bs <= done_to))
					g++;
				if (g >= t->total_blocks)
					break;
			} else {
				while (g < t->total_blocks && !(t->written[g >> 3] & (1u << (g & 7))))
					g++;
				if (g >= t->total_blocks)
					break;
			}
			struct io_req *r = t->free_reqs[--t->nfree];
			uint64_t first = t->wlen && done_to > g ? done_to : g;
			r->file = &t->files[first / t->blocks];
			r->offset = r->file->base + (first % t->blocks) * bs;
			r->len = t->wlen ? (uint32_t)((g + t->wlen[g] / bs - first) * bs) : bs;
			r->dir = DIR_READ;
			r->readback = true;
			/* a synchronous engine is timed per call; an async one per
			 * submission batch, by submit(), as in run_async */
			r->start_ns = r->issue_ns = inline_done ? now_ns() : now;
			io_iolog_req(t, r);
			int ret = t->ops->queue(t, r);
			if (ret == IO_Q_BUSY) {	/* this block again after a reap */
				t->free_reqs[t->nfree++] = r;
				busy = true;
				break;
			}
			if (t->hist) {
				t->hist_len--;
				if (++t->hist_head == t->hist_cap)
					t->hist_head = 0;
			} else {
				if (t->wlen)	/* taken: the span is read */
					done_to = g + t->wlen[g] / bs;
				g++;
			}
			if (inline_done || ret == IO_Q_COMPLETED) {
				now = now_ns();
				complete(t, r, now);
				t->free_reqs[t->nfree++] = r;
				continue;
			}
			t->pending[newq++] = r;
			count_queued(t, ++inflight);
			if (newq >= t->batch_submit && submit(t, &newq, inflight))
				return;
		}
		if (newq && submit(t, &newq, inflight))
			return;
		if (!inflight) {
			if (busy && !t->error) {
				t->error = EIO;
				snprintf(t->errmsg, sizeof(t->errmsg), "ioengine=%s refused a verify read "
					 "with nothing in flight", t->ops->name);
			}
			return;
		}
		int n = t->ops->getevents(t, 1, inflight);
		if (n < 0) {
			io_engine_error(t);
			return;
		}
		now = now_ns();
		for (int i = 0; i < n; i++) {
			struct io_req *r = t->ops->event(t, (unsigned)i);
			if (!t->error)
				complete(t, r, now);
			t->free_reqs[t->nfree++] = r;
		}
		inflight -= (unsigned)n;
	}
}
