/*
 * backend.c: the I/O core's run (see iojob.h and io_internal.h).
 *
 * Open: every file is created and laid out before any clock runs (written
 * in full when the job reads, fallocated when it only writes), free space
 * is checked first, and each thread gets its descriptors, request slots
 * and aligned buffers.  Run: the threads of all jobs in a run meet at a
 * gate, wait for their wait_for job to end, sleep startdelay, do
 * ramp_time of unrecorded I/O, then the measured part; sync engines time
 * each call, async engines stamp a batch before and after the submit call
 * and reap completions in batches.  exitall, steady state (steadystate.c)
 * and a stop end threads through one flag each checks per I/O.  Close:
 * descriptors closed, files fsbench created removed.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* --- per-I/O path -------------------------------------------------------- */

static void invalidate_files(struct io_thread *t)
{
	for (int i = 0; i < t->nfiles; i++)
		if (t->files[i].fd >= 0)	/* the file-operation engines hold none */
			posix_fadvise(t->files[i].fd, (off_t)t->files[i].base,
				      (off_t)t->files[i].size, POSIX_FADV_DONTNEED);
}

/* fio's fadvise_hint.  The advice stays with the open file, and fsbench
 * keeps its descriptors over passes where fio reopens, so once is enough. */
static void advise_files(struct io_thread *t)
{
	int advice = io_fadvise_advice(t->o);

	for (int i = 0; advice >= 0 && i < t->nfiles; i++)
		if (t->files[i].fd >= 0)
			posix_fadvise(t->files[i].fd, (off_t)t->files[i].base,
				      (off_t)t->files[i].size, advice);
}

/* A pass (every block once) is over: fio closes and reopens its files
 * here, which is when invalidate and fsync_on_close act. */
static void new_pass(struct io_thread *t)
{
	const struct io_options *o = t->o;

	t->pass++;
	t->pass_index = 0;
	t->pass_end += t->pass_bytes;
	if (t->map) {
		memset(t->map, 0, (size_t)(t->total_blocks + 63) / 64 * 8);
		t->mapped = 0;
	}
	if (t->use_map)
		perm_init(&t->perm, t->total_blocks, t->seed ^ (t->pass << 20) ^ (uint64_t)t->seq);
	if (o->fsync_on_close && io_has_writes(o))
		for (int i = 0; i < t->nfiles; i++)
			if (t->files[i].fd >= 0)
				fsync(t->files[i].fd);
	if (o->invalidate && !io_is_direct(o))
		invalidate_files(t);
}

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

/* A stop request, or exitall ending this thread's job. */
static inline bool stopping(const struct io_thread *t)
{
	return stop_requested() || atomic_load_explicit(&t->terminate, memory_order_relaxed);
}

/* Sleep until `until` (CLOCK_MONOTONIC ns) in slices a stop can cut
 * short, the last stretch spun.  False if a stop came. */
static bool sleep_until(const struct io_thread *t, uint64_t until)
{
	pthread_once(&slack_once, measure_slack);
	for (uint64_t now = now_ns(); now < until; now = now_ns()) {
		if (stopping(t))
			return false;
		if (until - now <= sleep_slack)
			continue;	/* spin */
		uint64_t step = until - now - sleep_slack;
		struct timespec ts = { 0, (long)(step < 50000000ULL ? step : 50000000ULL) };
		nanosleep(&ts, NULL);
	}
	return true;
}

/* When direction d may next issue, after the bytes just counted: fio's
 * usec_for_io (linear: issued / rate; poisson: the last time plus an
 * exponential gap whose mean is one I/O at the rate). */
static uint64_t rate_schedule(struct io_thread *t, int d)
{
	uint64_t bps = t->rate_bps[d];

	if (!bps)
		return 0;
	if (t->o->rate_process == RATE_POISSON) {
		uint64_t iops = bps / t->min_bs;
		double u = ((double)(rng_next(&t->rate_rng) >> 11) + 1) / 9007199254740992.0;
		if (iops)
			t->rate_next[d] += (uint64_t)(1e9 / (double)iops * -log(u));
		return t->rate_next[d];
	}
	return (uint64_t)((unsigned __int128)t->rate_issued[d] * 1000000000u / bps);
}

/* fio's rate_ddir: an I/O goes when its direction's schedule allows it.
 * Ahead of it, a mixed job takes the other direction if that one is due;
 * otherwise the queue is drained first (fio's io_u_quiesce: false, with
 * rate_waiting set, until nothing is in flight) and the thread sleeps the
 * time decided before the drain, towards the sooner of the two.  False
 * also when the runtime ends or a stop comes during the sleep. */
static bool rate_gate(struct io_thread *t, int *dir, unsigned inflight)
{
	int d = *dir, od = d ^ 1;
	uint64_t wait;

	if (t->rate_waiting) {
		if (inflight)
			return false;
		t->rate_waiting = false;
		d = t->rate_dir;
		wait = t->rate_wait;
	} else {
		uint64_t now = now_ns() - t->rate_epoch;
		int64_t share = od == DIR_READ ? t->o->rwmixread : 100 - t->o->rwmixread;
		if (t->rate_next[d] <= now)
			goto go;
		if (t->fixed_dir < 0 && share > 0) {
			if (t->rate_next[od] <= now) {
				d = od;
				goto go;
			}
			if (t->rate_next[od] < t->rate_next[d])
				d = od;
		}
		wait = t->rate_next[d] - now;
		if (inflight) {
			t->rate_waiting = true;
			t->rate_dir = d;
			t->rate_wait = wait;
			return false;
		}
	}
	uint64_t until = now_ns() + wait;
	t->rate_sleeps++;
	t->rate_sleep_inflight += inflight;
	if (until >= t->deadline) {
		sleep_until(t, t->deadline);
		return false;
	}
	if (!sleep_until(t, until))
		return false;
go:
	*dir = d;
	return true;
}

/* The random map, where I/Os vary in size (io_thread.map). */
static inline bool map_used(const struct io_thread *t, uint64_t b)
{
	return t->map[b >> 6] >> (b & 63) & 1;
}

/* The first free block from b on, wrapping (fio's axmap_next_free); the
 * caller knows one is free. */
static uint64_t map_next_free(const struct io_thread *t, uint64_t b)
{
	uint64_t words = (t->total_blocks + 63) / 64, w = b >> 6;
	uint64_t free_bits = ~t->map[w] & (~0ULL << (b & 63));

	while (!free_bits) {
		w = w + 1 == words ? 0 : w + 1;
		free_bits = ~t->map[w];
	}
	b = (w << 6) + (uint64_t)__builtin_ctzll(free_bits);
	return b < t->total_blocks ? b : map_next_free(t, 0);
}

/* Blocks from g, up to `want`, before a used one or the end of g's file;
 * marked used. */
static uint64_t map_take(struct io_thread *t, uint64_t g, uint64_t want)
{
	uint64_t end = (g / t->blocks + 1) * t->blocks, n = 0;

	while (n < want && g + n < end && !map_used(t, g + n)) {
		t->map[(g + n) >> 6] |= 1ULL << ((g + n) & 63);
		n++;
	}
	t->mapped += n;
	return n;
}

/* fio's bssplit draw: the first size, in order of percentage, whose
 * running total reaches a uniform draw; aligned down to the direction's
 * smallest size, as fio aligns it. */
static inline uint64_t split_len(struct io_thread *t, int dir)
{
	const struct bs_split *s = &t->split[dir];
	double u = (double)(rng_next(&t->rng) >> 11) / 9007199254740992.0 * 100.0;
	uint64_t len = s->bs[s->n - 1];
	unsigned sum = 0;

	for (unsigned i = 0; i < s->n; i++) {
		if (!s->perc[i])
			continue;
		sum += s->perc[i];
		if (u < sum) {
			len = s->bs[i];
			break;
		}
	}
	len -= len % t->split_min[dir];
	return len > t->max_bs ? t->max_bs : len;
}

/* fio's handle_thinktime, checked after each I/O is queued: once
 * thinktime_blocks more I/Os have completed (or been issued) since the
 * last stall, a stall is due; the queue drains first. */
static inline void think_check(struct io_thread *t)
{
	uint64_t b = t->o->thinktime_blocks_type ? t->issued_n : t->completed_n;

	if (t->think_ns && b >= t->think_last + (uint64_t)t->o->thinktime_blocks) {
		t->think_due = true;
		t->think_last = b;
	}
}

/* The stall, with nothing in flight: spin thinktime_spin, sleep the rest
 * (both cut at the runtime's end).  With rate_ignore_thinktime, the rate's
 * schedule moves on by the stall, less a block so the next I/O goes at
 * once (fio's reckoning).  False when the runtime ended or a stop came. */
static bool think(struct io_thread *t, int dir)
{
	uint64_t t0 = now_ns(), spin_end = t0 + t->think_spin_ns, end = t0 + t->think_ns;

	t->think_due = false;
	if (spin_end > t->deadline)
		spin_end = t->deadline;
	if (end > t->deadline)
		end = t->deadline;
	while (now_ns() < spin_end && !stopping(t))
		;
	if (!sleep_until(t, end) || now_ns() >= t->deadline)
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
								       : rate_schedule(t, dir);
	}
	return true;
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

static inline void mark_written(struct io_thread *t, uint64_t block)
{
	t->written[block >> 3] |= (uint8_t)(1u << (block & 7));
}

#define HIST_FLIGHT (1ULL << 63)

/* verify_backlog, as fio's check_get_verify: once the blocks waiting to be
 * read back are a multiple of verify_backlog (and the last I/O done was
 * not a read), a batch of them is read back, oldest first; the oldest
 * still in flight lets a write go first.  True with r filled in. */
static inline bool backlog_next(struct io_thread *t, struct io_req *r)
{
	if (!t->hist_len)
		return false;
	if (!t->vbatch) {
		if (t->hist_len % t->backlog || t->last_done == DIR_READ)
			return false;
		t->vbatch = t->backlog_batch;
	}
	uint64_t g = t->hist[t->hist_head];
	if (g & HIST_FLIGHT)
		return false;
	if (++t->hist_head == t->hist_cap)
		t->hist_head = 0;
	t->hist_len--;
	t->vbatch--;
	r->file = &t->files[g / t->blocks];
	r->offset = r->file->base + (g % t->blocks) * t->min_bs;
	r->len = (uint32_t)t->min_bs;
	r->dir = DIR_READ;
	r->readback = true;
	t->issued_n++;
	return true;
}

/* A verified write joins the backlog, in flight until it completes. */
static inline bool backlog_add(struct io_thread *t, const struct io_req *r, uint64_t block)
{
	uint64_t at = t->hist_head + t->hist_len;

	if (t->hist_len == t->hist_cap) {
		t->error = ENOSPC;
		snprintf(t->errmsg, sizeof(t->errmsg), "verify_backlog: %llu blocks wait to be read "
			 "back, more than a pass holds (verify_backlog_batch=%llu below "
			 "verify_backlog=%llu lets them pile up)", (unsigned long long)t->hist_len,
			 (unsigned long long)t->backlog_batch, (unsigned long long)t->backlog);
		return false;
	}
	if (at >= t->hist_cap)
		at -= t->hist_cap;
	t->hist[at] = block | HIST_FLIGHT;
	t->hist_at[r->index] = at;
	t->hist_len++;
	return true;
}

/* zonemode=strided, as fio's setup_strided_zone_mode: the I/O stays in
 * the zone of zone_range bytes at zone_off until zone_size bytes have gone
 * there (from the zone's start again when it is done first), then moves
 * zone_range + zone_skip on, to the file's start past its end.  A random
 * offset is drawn in the zone, each block once until zone_range bytes are
 * done (fio resets its random map then).  A zone past the end is cut. */
static inline uint64_t zone_next(struct io_thread *t, struct io_file *f, int dir)
{
	if (t->zone_bytes >= t->zone_size) {
		t->zone_bytes = 0;
		t->zone_off += t->zone_range + t->zone_skip;
		if (t->zone_off >= f->size)
			t->zone_off = 0;
		f->pos[dir] = t->zone_off;
	}
	if (f->pos[dir] >= t->zone_off + t->zone_range || f->pos[dir] >= f->size)
		f->pos[dir] = t->zone_off;
	if (!t->random)
		return f->pos[dir];
	uint64_t span = f->size - t->zone_off < t->zone_range ? f->size - t->zone_off : t->zone_range;
	uint64_t n = span > t->min_bs ? (span - t->min_bs) / t->unit + 1 : 1;
	if (!t->use_map)
		return t->zone_off + rng_below(&t->rng, n) * t->unit;
	if (t->zone_bytes % t->zone_range == 0 || t->zone_draws >= n) {
		perm_init(&t->zone_perm, n, t->seed ^ (++t->zone_n << 24) ^ (uint64_t)t->seq);
		t->zone_draws = 0;
	}
	return t->zone_off + perm_at(&t->zone_perm, t->zone_draws++) * t->unit;
}

/* Choose the next request's file, direction, offset and length, and fill
 * a write's buffer.  False when the job has issued all it should, or, with
 * t->rate_waiting set, when the rate says to drain the `inflight` first. */
static inline bool next_io(struct io_thread *t, struct io_req *r, unsigned inflight)
{
	struct io_file *f;
	uint64_t len = t->min_bs, block, off;
	int dir = t->fixed_dir;

	if (t->hist && backlog_next(t, r))	/* before the end: fio's budget has room */
		return true;
	if (t->issued_bytes >= t->target_bytes || (t->max_ios && t->issued_n >= t->max_ios))
		return false;
	if (dir < 0)
		dir = rng_below(&t->rng, 100) < (uint64_t)t->o->rwmixread ? DIR_READ : DIR_WRITE;
	if (t->trimwrite && t->random) {
		/* randtrimwrite: a trim at a random offset, then a write of the
		 * range it freed (fio keeps these writes out of the map) */
		if (t->trim_pending) {
			t->trim_pending = false;
			f = t->trim_file;
			off = t->trim_off;
			len = t->trim_len;
			block = (uint64_t)f->index * t->blocks + off / t->min_bs;
			dir = DIR_WRITE;
			goto chosen;
		}
		dir = DIR_TRIM;
	} else if (t->trimwrite) {
		/* trimwrite: the next file's block is trimmed, then written
		 * (fio compares the file's last trim and write offsets) */
		const struct io_file *nf = &t->files[t->next_file];
		dir = nf->pos[DIR_WRITE] == nf->pos[DIR_TRIM] ? DIR_TRIM : DIR_WRITE;
	}
	if (t->rated && !rate_gate(t, &dir, inflight))
		return false;
	if (t->split[dir].n)
		len = split_len(t, dir);
	else if (t->max_bs != t->min_bs)
		len = t->min_bs * (1 + rng_below(&t->rng, t->max_bs / t->min_bs));
	bool run = t->random && t->seq_left && t->last_file;

	if (t->zoned) {
		if (t->issued_bytes >= t->pass_end)
			new_pass(t);
		f = &t->files[0];
		off = zone_next(t, f, dir);
		block = off / t->min_bs;
	} else if (run) {
		/* fio's rw=randread:N: the I/Os between new offsets follow the
		 * last one (or repeat it, rw_sequencer=identical) */
		t->seq_left--;
		if (t->issued_bytes >= t->pass_end)
			new_pass(t);
		f = t->last_file;
		off = t->o->rw_sequencer ? f->pos[dir] - (f->pos[dir] > len ? len : f->pos[dir])
					 : f->pos[dir];
		if (off + len > f->size)
			off = 0;
		/* not marked in the map: fio lets these (IO_U_F_BUSY_OK) go
		 * over blocks already done, and keeps them out of it */
		block = (uint64_t)f->index * t->blocks + off / t->min_bs;
	} else if (t->random) {
		uint64_t g;
		if (t->o->ddir_seq_nr > 1)
			t->seq_left = (uint64_t)t->o->ddir_seq_nr - 1;
		if (t->dstate) {	/* not uniform: files in turn, no map (fio) */
			if (t->issued_bytes >= t->pass_end)
				new_pass(t);
			f = &t->files[t->next_file];
			if (++t->next_file == t->nfiles)
				t->next_file = 0;
			g = (uint64_t)f->index * t->blocks +
			    dist_next(&t->dstate[f->index], &t->dist, dir, t->unit);
		} else if (t->use_map && !t->map && t->o->ddir_seq_nr > 1) {
			/* with runs between the draws, passes go by bytes */
			if (t->issued_bytes >= t->pass_end)
				new_pass(t);
			if (t->pass_index >= t->total_blocks)
				t->pass_index = 0;
			g = perm_at(&t->perm, t->pass_index++);
		} else if (t->map) {
			if (t->mapped >= t->total_blocks)
				new_pass(t);
			g = perm_at(&t->perm, t->pass_index++);
			if (map_used(t, g))
				g = map_next_free(t, g);
		} else if (t->use_map) {
			if (t->pass_index >= t->total_blocks)
				new_pass(t);
			g = perm_at(&t->perm, t->pass_index++);
		} else {
			if (t->issued_bytes >= t->pass_end)
				new_pass(t);
			g = rng_below(&t->rng, t->total_blocks);
		}
		f = &t->files[g / t->blocks];
		block = g;
		off = (g % t->blocks) * t->unit;
	} else {
		if (t->issued_bytes >= t->pass_end)
			new_pass(t);
		f = &t->files[t->next_file];
		if (++t->next_file == t->nfiles)
			t->next_file = 0;
		if (f->pos[dir] >= f->size)
			f->pos[dir] = 0;
		off = f->pos[dir];
		/* fio's rw=read:SIZE: a hole (or, negative, a step back) after
		 * each I/O; past either end, from the other */
		if (off && t->seq_add) {
			int64_t at = (int64_t)off + t->seq_add;
			if (at < 0 || (uint64_t)at + len > f->size)
				at = t->seq_add > 0 ? 0 : (int64_t)f->size + t->seq_add;
			off = at < 0 ? 0 : (uint64_t)at;
		}
		block = (uint64_t)f->index * t->blocks + off / t->min_bs;
	}
	/* fio draws a size again until one fits before the region's end */
	for (int tries = 0; off + len > f->size && t->split[dir].n && tries < 64; tries++)
		len = split_len(t, dir);
	if (off + len > f->size)
		len = f->size - off;
	if (t->map && t->random && !run)	/* cut where a used block begins, as fio's map does */
		len = map_take(t, block, len / t->min_bs) * t->min_bs;
	if (!t->random || t->o->ddir_seq_nr > 1)
		f->pos[dir] = off + len;
	t->zone_bytes += len;
	if (t->trimwrite && t->random) {
		t->trim_pending = true;
		t->trim_file = f;
		t->trim_off = off;
		t->trim_len = len;
	}
chosen:
	t->last_file = f;
	r->file = f;
	r->offset = f->base + off;
	r->len = (uint32_t)len;
	r->dir = (enum io_dir)dir;
	r->readback = false;
	/* fio counts a trimwrite job's size in its writes */
	if (!t->trimwrite || dir == DIR_WRITE)
		t->issued_bytes += len;
	if (t->rated) {
		t->rate_issued[dir] += len;
		t->rate_next[dir] = rate_schedule(t, dir);
	}
	t->issued_n++;
	t->last_dir = dir;
	if (dir == DIR_WRITE) {
		if (t->refill)
			data_refresh(&t->data, &t->rng, r->buf, len);
		else if (t->scramble)
			data_scramble(r->buf, len, r->offset, rng_next(&t->rng));
		if (t->verify) {
			io_verify_stamp(t, r->buf, r->len, r->offset, t->pass + 1);
			mark_written(t, block);
			if (t->hist && !backlog_add(t, r, block))
				return false;
		}
	}
	return true;
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
		(uint8_t)r->dir };
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

/* ---- latency_target: fio's queue-depth search (its lat_target_*) ---- */

static void lat_new_cycle(struct io_thread *t, uint64_t now)
{
	t->lat_ts = now;
	t->lat_ios = t->completed_n;
	t->lat_failed = 0;
}

static void lat_init(struct io_thread *t)
{
	t->lat_qd = t->lat_on ? 1 : t->depth;
	t->lat_qd_low = 1;
	t->lat_qd_high = t->depth;
	t->lat_stable = 0;
	t->lat_final = t->lat_quiesce = t->lat_restart = t->lat_done = false;
	lat_new_cycle(t, now_ns());
}

/* Out of the target: the depth halves towards the lowest that met it,
 * after the queue drains.  True at depth 1, where there is nowhere to go. */
static bool lat_step_down(struct io_thread *t)
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
	lat_new_cycle(t, now);
}

/* After each reap: a window over is judged by its share of I/Os within
 * the target (none at all counts as a miss, as in fio). */
static void lat_check(struct io_thread *t, uint64_t now)
{
	if (now - t->lat_ts < t->lat_window_ns)
		return;
	uint64_t ios = t->completed_n - t->lat_ios;
	double ok = ios ? 100.0 * (double)(ios - t->lat_failed) / (double)ios : -1;

	if (ok >= t->lat_pct)
		lat_step_up(t, now);
	else
		lat_step_down(t);	/* at depth 1 it stays, the window going on */
}

static int lat_target_failed(struct io_thread *t, uint64_t lat)
{
	t->error = ETIMEDOUT;	/* fio's lat_fatal */
	snprintf(t->errmsg, sizeof(t->errmsg), "latency_target=%.0fus not met at queue depth 1: "
		 "an I/O took %.0fus", t->lat_target_ns / 1e3, lat / 1e3);
	return -1;
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
		/* fio's timer placement: clat from the issue, lat from before
		 * the submit call, slat between (async engines only) */
		uint64_t clat = now - r->issue_ns;
		t->ios[r->dir]++;
		t->bytes[r->dir] += r->len;
		if (r->untimed)	/* a file-operation engine's fake: fio's FIO_NOSTATS */
			return 0;
		if (t->gtod)	/* nothing timed: only the counts above */
			goto rate;
		if (!t->no_clat)
			hist_add(&t->clat[r->dir], clat);
		if (!t->no_bw)
			winbuf_add(&t->wb, now, r->dir, r->len, t->no_clat ? 0 : clat);
		/* a synchronous call's lat is its clat (job_result), unless
		 * clat is not kept */
		if (!t->no_lat && (t->async || t->no_clat))
			moments_add(&t->lat[r->dir], now - r->start_ns);
		if (t->async) {
			if (!t->no_slat) {
				moments_add(&t->slat[r->dir], r->issue_ns - r->start_ns);
				if (!t->no_bw)
					winbuf_add_slat(&t->wb, r->dir, r->issue_ns - r->start_ns);
			}
			if (t->lat_h)	/* lat_percentiles, slat_percentiles */
				hist_add(&t->lat_h[r->dir], now - r->start_ns);
			if (t->slat_h)
				hist_add(&t->slat_h[r->dir], r->issue_ns - r->start_ns);
		}
		if (!t->no_lat) {	/* fio checks both on lat */
			if (t->max_lat_ns && now - r->start_ns > t->max_lat_ns)
				return max_latency_failed(t, now - r->start_ns);
			/* latency_target: a miss counts against the window, or at
			 * 100% steps down at once (not while draining for a new
			 * depth) */
			if (t->lat_on && !t->lat_quiesce && now - r->start_ns > t->lat_target_ns) {
				if (t->lat_pct < 100)
					t->lat_failed++;
				else if (lat_step_down(t))
					return lat_target_failed(t, now - r->start_ns);
			}
		}
		if (t->log_each && log_io(t, r, now))
			return -1;
rate:
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

/* A request joined the queue: fio's IO depths, the queue as submitted. */
static inline void count_queued(struct io_thread *t, unsigned inflight)
{
	if (t->stats_on) {
		t->depth_level[depth_bucket(inflight)]++;
		t->depth_sum += inflight;
		t->depth_n++;
	}
}

static inline unsigned batch_bucket(unsigned n)
{
	return !n ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : n <= 16 ? 3 : n <= 32 ? 4 : n <= 64 ? 5 : 6;
}

static void thread_faults(uint64_t *ctx, uint64_t *majf, uint64_t *minf)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	*majf = (uint64_t)ru.ru_majflt;
	*minf = (uint64_t)ru.ru_minflt;
}

static void thread_cpu(uint64_t *usr, uint64_t *sys)
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

static void start_stats(struct io_thread *t, uint64_t now)
{
	t->stats_on = true;
	start_clock(t, now);
	for (int d = 0; d < IO_DIRS; d++) {
		hist_init(&t->clat[d]);
		moments_init(&t->lat[d]);
		moments_init(&t->slat[d]);
		if (t->lat_h)
			hist_init(&t->lat_h[d]);
		if (t->slat_h)
			hist_init(&t->slat_h[d]);
	}
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
	thread_faults(&t->ctx_start, &t->majf_start, &t->minf_start);
	thread_cpu(&t->usr_start, &t->sys_start);
}

static int sync_file(struct io_thread *t)
{
	int fd = t->sync_file->fd;

	t->writes_since_sync = 0;
	if (fd < 0)
		return 0;	/* null: fio's null engine completes a sync at once */
	if ((t->o->fsync ? fsync(fd) : fdatasync(fd)) == 0)
		return 0;
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

	for (int k = 0; k < t->nfiles && !stopping(t); k++) {
		r->file = &t->files[k];
		r->offset = r->file->base;
		r->len = (uint32_t)t->min_bs;
		r->dir = (enum io_dir)t->fixed_dir;	/* one: engine_file_op_init */
		r->start_ns = r->issue_ns = now_ns();
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
static void run_sync(struct io_thread *t)
{
	struct io_req *r = &t->reqs[0];
	uint64_t now = now_ns();

	for (;;) {
		if (!t->stats_on && now >= t->ramp_end) {
			start_stats(t, now);
			if (t->ops_at_open && ops_at_open(t))
				break;
			now = t->start_ns;
		}
		if (now >= t->deadline || stopping(t))
			break;
		if (t->flow && flow_held(t)) {
			if (t->flow_sleep_ns)
				sleep_until(t, now + t->flow_sleep_ns);
			now = now_ns();
			continue;
		}
		if (!next_io(t, r, 0))
			break;
		if (!t->gtod)
			r->start_ns = r->issue_ns = now_ns();
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
			if (!think(t, t->last_dir))
				break;
			now = now_ns();
		}
	}
	/* now, not the last completion: a rate's or a stall's wait may have
	 * run to the runtime's end, which is then the job's, as fio's */
	t->end_ns = now_ns();
}

static void engine_error(struct io_thread *t)
{
	t->error = EIO;
	str_copy(t->errmsg, sizeof(t->errmsg), error_get());
}

/* Stamp and submit what was queued since the last submission (untimed
 * under gtod_reduce). */
static int submit(struct io_thread *t, unsigned *newq)
{
	uint64_t s = t->gtod ? 0 : now_ns();
	unsigned n = *newq;

	for (unsigned i = 0; i < n; i++)
		t->pending[i]->start_ns = s;
	if (t->stats_on)
		t->depth_submit[batch_bucket(n)]++;
	*newq = 0;
	if (t->ops->commit && t->ops->commit(t) < 0) {
		engine_error(t);
		return -1;
	}
	/* fio's libaio and io_uring stamp the issue when the submit call
	 * returns: a buffered I/O done inside it is slat, not clat */
	s = t->gtod ? 0 : now_ns();
	for (unsigned i = 0; i < n; i++)
		t->pending[i]->issue_ns = s;
	return 0;
}

/* io_uring, libaio: keep iodepth requests in flight, as fio's do_io does.
 * Requests are submitted every iodepth_batch_submit queued; once the queue
 * is full, each reap takes at least iodepth_batch_complete_min and at most
 * iodepth_batch_complete_max completions (fio's defaults: 1 and 1, so a
 * completion is replaced at once and the queue stays full), repeated while
 * more than iodepth_low are in flight (default iodepth: one reap). */
static void run_async(struct io_thread *t)
{
	unsigned inflight = 0;
	bool issuing = true, syncing = false;
	uint64_t now = now_ns();

	for (;;) {
		unsigned newq = 0;

		if (!t->stats_on && now >= t->ramp_end)
			start_stats(t, now);
		if (now >= t->deadline || stopping(t) || t->error)
			issuing = false;
		if (issuing && t->think_due && !inflight) {
			if (!think(t, t->last_dir))
				issuing = false;
			now = now_ns();
		}
		/* lat_qd is iodepth unless latency_target searches */
		unsigned cap = t->lat_quiesce ? 0 : t->lat_qd;
		while (issuing && !syncing && !t->think_due && !t->flow_wait && (t->held || t->nfree) &&
		       inflight + newq < cap) {
			struct io_req *r = t->held;
			int ret;

			if (!r) {
				if (t->flow && flow_held(t)) {
					t->flow_wait = true;
					break;
				}
				r = t->free_reqs[t->nfree - 1];
				if (!next_io(t, r, inflight + newq)) {
					issuing = t->rate_waiting;	/* drain, then on */
					break;
				}
				t->nfree--;
			}
			t->held = NULL;
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
				t->pending[newq++] = r;
				count_queued(t, ++inflight);
			}
			if (sync_due(t, r))
				syncing = true;
			/* fio checks the stall after each I/O, once it reaped
			 * what a full queue makes it wait for */
			if (inflight < t->depth)
				think_check(t);
			if (newq >= t->batch_submit && submit(t, &newq))
				goto out;
		}
		if (newq && submit(t, &newq))
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
				sleep_until(t, now_ns() + t->flow_sleep_ns);
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
				if (!t->error && complete(t, r, now))
					issuing = false;
				t->free_reqs[t->nfree++] = r;
			}
			inflight -= (unsigned)n;
		} while (((full && inflight > t->depth_low) ||
			  ((t->rate_waiting || t->think_due || t->flow_wait) && inflight)) && n > 0);
		if (n < 0) {
			engine_error(t);
			break;
		}
		if (full && !t->think_due)
			think_check(t);
		if (t->lat_on && t->stats_on) {
			if (t->lat_quiesce && !inflight) {	/* drained: the new depth */
				t->lat_quiesce = false;
				if (t->lat_restart) {
					t->lat_restart = false;
					start_stats(t, now);
				}
				lat_new_cycle(t, now);
			} else if (!t->lat_quiesce) {
				lat_check(t, now);
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
static void verify_back(struct io_thread *t)
{
	const uint32_t bs = (uint32_t)t->min_bs;
	const bool inline_done = t->ops->flags & ENGINE_SYNC;
	uint64_t g = 0, now = now_ns();
	unsigned inflight = 0;

	for (;;) {
		unsigned newq = 0;
		bool busy = false;
		while (t->nfree && !busy && !t->error && !stopping(t)) {
			if (t->hist) {	/* verify_backlog: what it has not read back */
				if (!t->hist_len)
					break;
				g = t->hist[t->hist_head] & ~HIST_FLIGHT;
			} else {
				while (g < t->total_blocks && !(t->written[g >> 3] & (1u << (g & 7))))
					g++;
				if (g >= t->total_blocks)
					break;
			}
			struct io_req *r = t->free_reqs[--t->nfree];
			r->file = &t->files[g / t->blocks];
			r->offset = r->file->base + (g % t->blocks) * bs;
			r->len = bs;
			r->dir = DIR_READ;
			r->readback = true;
			/* a synchronous engine is timed per call; an async one per
			 * submission batch, by submit(), as in run_async */
			r->start_ns = r->issue_ns = inline_done ? now_ns() : now;
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
			if (newq >= t->batch_submit && submit(t, &newq))
				return;
		}
		if (newq && submit(t, &newq))
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
			engine_error(t);
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
	for (int d = 0; d < IO_DIRS; d++) {
		hist_init(&t->clat[d]);
		moments_init(&t->lat[d]);
		moments_init(&t->slat[d]);
		if (t->lat_h)
			hist_init(&t->lat_h[d]);
		if (t->slat_h)
			hist_init(&t->slat_h[d]);
	}
	for (int i = 0; i < t->nfiles; i++) {
		memset(t->files[i].pos, 0, sizeof(t->files[i].pos));
		t->files[i].op_pass = 0;
	}
	if (t->use_map)
		perm_init(&t->perm, t->total_blocks, t->seed ^ (uint64_t)t->seq);
	if (t->written)
		memset(t->written, 0, (size_t)(t->total_blocks + 7) / 8);
	if (t->map) {
		memset(t->map, 0, (size_t)(t->total_blocks + 63) / 64 * 8);
		t->mapped = 0;
	}
	rng_seed(&t->rng, t->seed + 0x9e3779b9ULL * (uint64_t)(t->seq + 1));
	lat_init(t);
}

/* wait_for: until every thread of the waitee has ended, or exitall ends
 * this job first (then it does no I/O, as fio's).  False on a stop. */
static bool wait_for_waitee(struct io_thread *t)
{
	struct io_job *w = t->job->waitee;
	struct gate *g = t->job->gate;
	bool go = true;

	pthread_mutex_lock(&g->lock);
	while (w->ended < w->nthreads && (go = !stopping(t))) {
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

/* fio's cpus_allowed/cpumask, nice, prio and prioclass, for this thread
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
		if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, gettid(), class << 13 | level))
			return error_errno("prio=%d prioclass=%d: ioprio_set", level, class);
	}
	return 0;
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
	if ((!o->thread && io_thread_own_files(t)) || thread_placement(t) ||
	    (t->ops->init && t->ops->init(t))) {
		engine_error(t);
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
		sleep_until(t, now_ns() + (uint64_t)(o->startdelay * 1e9));
	if (o->invalidate && !io_is_direct(o))
		invalidate_files(t);
	advise_files(t);	/* after invalidate, as fio's td_io_open_file */
	t->begin_ns = t->rate_epoch = now_ns();
	t->rate_waiting = false;
	t->ramp_end = now_ns() + (uint64_t)(o->ramp_time * 1e9);
	atomic_store(&t->running, true);
	if (t->ops->flags & ENGINE_SYNC)
		run_sync(t);
	else
		run_async(t);
	atomic_store(&t->running, false);
	/* fio's do_io ends with end_fsync (and fsync_on_close's last one) on
	 * its clock: the job's time and bandwidth include it */
	if (!t->error && (o->end_fsync || o->fsync_on_close) && io_has_writes(o)) {
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
			engine_error(t);
		t->end_ns = now_ns();
	}
ended:
	if (!t->stats_on) {
		if (!t->end_ns)
			t->end_ns = now_ns();
		start_stats(t, t->end_ns);
	}
	if (!t->error && t->verify && o->do_verify && io_has_writes(o)) {
		/* fio times the read-back as the job's read phase */
		uint64_t v0 = now_ns();
		verify_back(t);
		t->verify_ns = now_ns() - v0;
	}
	/* after the read-back: fio's CPU figures are over the whole job */
	thread_cpu(&usr, &sys);
	t->usr_ns = usr - t->usr_start;
	t->sys_ns = sys - t->sys_start;
	thread_faults(&t->ctx, &t->majf, &t->minf);
	t->ctx -= t->ctx_start;
	t->majf -= t->majf_start;
	t->minf -= t->minf_start;
out:
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


/* fio's bandwidth and IOPS statistics from every thread's full windows,
 * the series the HTML page charts, the distributions and fault counts. */
static void job_activity(const struct io_job *job, int lo, int hi, struct io_result *res)
{
	const struct winbuf **bufs = calloc((size_t)(hi - lo) + 1, sizeof(*bufs));

	for (int d = 0; d < IO_DIRS; d++) {
		struct io_rate_stats *st = &res->rate[d];
		double bs = 0, bs2 = 0, is = 0, is2 = 0;
		uint64_t n = 0;
		st->bw_min = st->iops_min = INFINITY;
		for (int i = lo; i < hi; i++) {
			const struct io_thread *t = &job->threads[i];
			double secs = (double)t->wb.width_ns / 1e9;
			for (unsigned k = 0; k < t->wb.n; k++) {
				double bw = (double)t->wb.w[k].bytes[d] / 1024.0 / secs;
				double io = (double)t->wb.w[k].ios[d] / secs;
				bs += bw;
				bs2 += bw * bw;
				is += io;
				is2 += io * io;
				st->bw_min = bw < st->bw_min ? bw : st->bw_min;
				st->bw_max = bw > st->bw_max ? bw : st->bw_max;
				st->iops_min = io < st->iops_min ? io : st->iops_min;
				st->iops_max = io > st->iops_max ? io : st->iops_max;
				n++;
			}
		}
		st->samples = n;
		if (!n) {
			st->bw_min = st->iops_min = 0;
			continue;
		}
		st->bw_mean = bs / (double)n;
		st->iops_mean = is / (double)n;
		/* sample standard deviation, as fio prints it */
		st->bw_dev = n > 1 ? sqrt(fmax(0, (bs2 - bs * bs / (double)n) / (double)(n - 1))) : 0;
		st->iops_dev = n > 1 ? sqrt(fmax(0, (is2 - is * is / (double)n) / (double)(n - 1))) : 0;
	}
	for (int i = lo; i < hi; i++) {
		const struct io_thread *t = &job->threads[i];
		if (bufs)
			bufs[i - lo] = &t->wb;
		for (int b = 0; b < IO_DEPTH_BUCKETS; b++) {
			res->depth_level[b] += t->depth_level[b];
			res->depth_submit[b] += t->depth_submit[b];
			res->depth_complete[b] += t->depth_complete[b];
		}
		res->depth_sum += t->depth_sum;
		res->depth_n += t->depth_n;
		res->think_n += t->stalls;
		res->think_ns += t->stalls_ns;
		res->rate_sleeps += t->rate_sleeps;
		res->rate_sleep_inflight += t->rate_sleep_inflight;
		res->ctx += t->ctx;
		res->majf += t->majf;
		res->minf += t->minf;
	}
	if (bufs)
		timeline_from(&res->series, bufs, hi - lo);
	free(bufs);
}

/* The result of threads [lo, hi) of the job: all of them for the job's
 * own, one for fio's entry per thread without group_reporting. */
static void job_result(const struct io_job *job, int lo, int hi, struct io_result *res)
{
	memset(res, 0, sizeof(*res));
	hist_init(&res->clat);
	for (int d = 0; d < IO_DIRS; d++) {
		hist_init(&res->dir_clat[d]);
		hist_init(&res->lat_hist[d]);
		hist_init(&res->slat_hist[d]);
		moments_init(&res->lat[d]);
		moments_init(&res->slat[d]);
	}
	for (int i = lo; i < hi; i++) {
		const struct io_thread *t = &job->threads[i];
		for (int d = 0; d < IO_DIRS; d++) {
			res->ios[d] += t->ios[d];
			res->bytes[d] += t->bytes[d];
			hist_merge(&res->dir_clat[d], &t->clat[d]);
			moments_merge(&res->lat[d], t->async || t->no_clat ? &t->lat[d] : &t->clat[d].m);
			moments_merge(&res->slat[d], &t->slat[d]);
			if (t->lat_h || (!t->async && io_pct_on(&job->o).lat))
				hist_merge(&res->lat_hist[d], t->lat_h ? &t->lat_h[d] : &t->clat[d]);
			if (t->slat_h)
				hist_merge(&res->slat_hist[d], &t->slat_h[d]);
		}
		if (t->end_ns - t->start_ns > res->elapsed_ns)
			res->elapsed_ns = t->end_ns - t->start_ns;
		if (t->synced_ns && t->synced_ns - t->start_ns > res->synced_ns)
			res->synced_ns = t->synced_ns - t->start_ns;
		if (!res->start_ns || t->start_ns < res->start_ns)
			res->start_ns = t->start_ns;
		if (t->verify_ns > res->verify_ns)
			res->verify_ns = t->verify_ns;
		res->usr_ns += t->usr_ns;
		res->sys_ns += t->sys_ns;
		res->verified_blocks += t->verified;
		if (t->total_err && !res->total_err)
			res->first_error = t->first_error;
		res->total_err += t->total_err;
		if (t->lat_on && t->lat_qd > res->latency_depth)
			res->latency_depth = t->lat_qd;
		if (t->error && !res->error) {
			res->error = t->error;
			str_copy(res->errmsg, sizeof(res->errmsg), t->errmsg);
		}
	}
	res->nthreads = hi - lo;
	res->runtime_ns = (res->elapsed_ns + res->verify_ns) * (uint64_t)(hi - lo);
	for (int d = 0; d < IO_DIRS; d++)
		hist_merge(&res->clat, &res->dir_clat[d]);
	job_activity(job, lo, hi, res);
	res->compress_ratio = -1;
}

/* What a compressing filesystem was given to store, from the job's first
 * file (its threads' entries show the same); a job that only read would
 * have its file's pages cached by the sample, for nothing.  -1: none. */
static double job_compress_ratio(const struct io_job *job, size_t *unit, const char **how)
{
	double ratio = -1;

	if (!(job->ops->flags & (ENGINE_NO_DATA | ENGINE_FAKE_IO)) && io_has_writes(&job->o)) {
		const struct io_file *f = &job->threads[0].files[0];
		int fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			*unit = compress_unit(fd, how);
			ratio = compress_ratio_file(fd, f->base + f->size, *unit, COMPRESS_SAMPLES);
			close(fd);
		}
	}
	return ratio;
}

/* Pooled statistics of two sets of windows from their counts, means and
 * sample deviations (Chan's formula). */
static void pool(double *mean, double *dev, uint64_t n, double mean2, double dev2, uint64_t n2)
{
	uint64_t all = n + n2;
	double delta = mean2 - *mean;
	double m2 = *dev * *dev * (double)(n ? n - 1 : 0) + dev2 * dev2 * (double)(n2 ? n2 - 1 : 0) +
		    delta * delta * (double)n * (double)n2 / (double)all;

	*mean += delta * (double)n2 / (double)all;
	*dev = all > 1 ? sqrt(m2 / (double)(all - 1)) : 0;
}

void io_result_merge(struct io_result *dst, const struct io_result *src)
{
	if (src->error && !dst->error) {	/* the group's first */
		dst->error = src->error;
		str_copy(dst->errmsg, sizeof(dst->errmsg), src->errmsg);
	}
	for (int d = 0; d < IO_DIRS; d++) {
		struct io_rate_stats *a = &dst->rate[d];
		const struct io_rate_stats *b = &src->rate[d];
		dst->ios[d] += src->ios[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->dir_clat[d], &src->dir_clat[d]);
		hist_merge(&dst->lat_hist[d], &src->lat_hist[d]);
		hist_merge(&dst->slat_hist[d], &src->slat_hist[d]);
		moments_merge(&dst->lat[d], &src->lat[d]);
		moments_merge(&dst->slat[d], &src->slat[d]);
		if (b->samples && !a->samples) {
			*a = *b;
		} else if (b->samples) {
			pool(&a->bw_mean, &a->bw_dev, a->samples, b->bw_mean, b->bw_dev, b->samples);
			pool(&a->iops_mean, &a->iops_dev, a->samples, b->iops_mean, b->iops_dev,
			     b->samples);
			a->bw_min = fmin(a->bw_min, b->bw_min);
			a->bw_max = fmax(a->bw_max, b->bw_max);
			a->iops_min = fmin(a->iops_min, b->iops_min);
			a->iops_max = fmax(a->iops_max, b->iops_max);
			a->samples += b->samples;
		}
	}
	hist_merge(&dst->clat, &src->clat);
	for (int b = 0; b < IO_DEPTH_BUCKETS; b++) {
		dst->depth_level[b] += src->depth_level[b];
		dst->depth_submit[b] += src->depth_submit[b];
		dst->depth_complete[b] += src->depth_complete[b];
	}
	dst->depth_sum += src->depth_sum;
	dst->think_n += src->think_n;
	dst->think_ns += src->think_ns;
	dst->rate_sleeps += src->rate_sleeps;
	dst->rate_sleep_inflight += src->rate_sleep_inflight;
	if (src->latency_depth > dst->latency_depth)
		dst->latency_depth = src->latency_depth;
	if (src->total_err && !dst->total_err)
		dst->first_error = src->first_error;
	dst->total_err += src->total_err;
	dst->depth_n += src->depth_n;
	dst->elapsed_ns = dst->elapsed_ns > src->elapsed_ns ? dst->elapsed_ns : src->elapsed_ns;
	dst->verify_ns = dst->verify_ns > src->verify_ns ? dst->verify_ns : src->verify_ns;
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->verified_blocks += src->verified_blocks;
	dst->nthreads += src->nthreads;
	dst->runtime_ns += src->runtime_ns;
	if (src->start_ns < dst->start_ns)
		dst->start_ns = src->start_ns;
	if (dst->compress_ratio < 0) {
		dst->compress_ratio = src->compress_ratio;
		dst->compress_unit = src->compress_unit;
		dst->compress_how = src->compress_how;
	}
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
	pthread_once(&slack_once, measure_slack);
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
		job_result(jobs[j], 0, jobs[j]->nthreads, &results[j]);
		results[j].compress_ratio = job_compress_ratio(jobs[j], &results[j].compress_unit,
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
	run->exit_all = false;
	run->ran = false;
	if (!rc)
		rc = run_jobs(jobs, njobs, run->groups, run->results, &run->exit_all, &run->ran);
	for (int j = 0, k = 0; j < njobs && run->ran && run->each; j++)
		for (int i = 0; i < jobs[j]->nthreads; i++, k++) {
			job_result(jobs[j], i, i + 1, &run->each[k]);
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
