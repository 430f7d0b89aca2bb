/*
 * offsets.c: what each I/O is (io_next): its file, direction, offset and
 * length, as fio's get_io_u chooses them: sequential with rw's modifiers,
 * random over a permutation (fio's random map) or not, fio's
 * distributions and zones, bsrange and bssplit, the rate's schedule, the
 * verify backlog's read-backs, a read_iolog replay; and a write's buffer
 * filled and stamped.  Called once per I/O by the loops in backend.c.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/timing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
		io_invalidate_files(t);
}

/* When direction d may next issue, after the bytes just counted: fio's
 * usec_for_io (linear: issued / rate; poisson: the last time plus an
 * exponential gap whose mean is one I/O at the rate). */
uint64_t io_rate_schedule(struct io_thread *t, int d)
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
		io_sleep_until(t, t->deadline);
		return false;
	}
	if (!io_sleep_until(t, until))
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

static inline void mark_written(struct io_thread *t, uint64_t block)
{
	t->written[block >> 3] |= (uint8_t)(1u << (block & 7));
}


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

/* read_iolog: the log's next I/O into r, paced by its stamps (or
 * version 2's waits); its syncs made on the way.  False at its end. */
static bool replay_next(struct io_thread *t, struct io_req *r)
{
	const struct iolog_replay *rp = t->replay;
	const struct io_options *o = t->o;

	while (t->replay_at < rp->n) {
		const struct iolog_entry *e = &rp->ent[t->replay_at++];
		if (e->act == IOLOG_WAIT) {
			if (!o->replay_no_stall && !io_sleep_until(t, now_ns() + e->us * 1000))
				return false;
			continue;
		}
		if (rp->version == 3 && !o->replay_no_stall) {
			if (!t->replay_started) {
				t->replay_started = true;
				t->replay_us0 = e->us;
			}
			uint64_t us = e->us > t->replay_us0 ? e->us - t->replay_us0 : 0;
			uint64_t at = t->begin_ns + (uint64_t)((double)us * 1000.0 * 100.0 /
							       (double)o->replay_time_scale);
			if (at > now_ns() && !io_sleep_until(t, at))
				return false;
		}
		struct io_file *f = &t->files[e->file];
		if (e->act == IOLOG_SYNC || e->act == IOLOG_DATASYNC) {
			io_iolog_note(t, f, e->act, 0, 0);
			if (f->fd >= 0 && (e->act == IOLOG_SYNC ? fsync(f->fd) : fdatasync(f->fd))) {
				t->error = errno;
				snprintf(t->errmsg, sizeof(t->errmsg), "read_iolog: %s %s: %s",
					 e->act == IOLOG_SYNC ? "fsync" : "fdatasync", f->path,
					 strerror(errno));
				return false;
			}
			continue;
		}
		int dir = e->act == IOLOG_READ ? DIR_READ : e->act == IOLOG_WRITE ? DIR_WRITE : DIR_TRIM;
		t->last_file = f;
		r->file = f;
		r->offset = e->offset;
		r->len = e->len;
		r->dir = (enum io_dir)dir;
		r->readback = false;
		t->issued_bytes += e->len;
		t->issued_n++;
		t->last_dir = dir;
		if (dir == DIR_WRITE) {
			if (t->dedupe.pct)
				io_dedupe_fill(&t->dedupe, &t->data, r->buf, e->len);
			else if (t->refill)
				data_refresh(&t->data, &t->rng, r->buf, e->len);
			else if (t->scramble)
				data_scramble(r->buf, e->len, r->offset, rng_next(&t->rng));
		}
		return true;
	}
	return false;
}

/* cmdprio_percentage, cmdprio_bssplit: the request's priority (an index
 * into t->prio_value), drawn from a generator of its own. */
static uint8_t io_prio_draw(struct io_thread *t, int dir, uint64_t len)
{
	const struct prio_split *s = &t->o->parsed.prio_split[dir];

	if (t->cmdprio_pct)
		return rng_below(&t->prio_rng, 100) < t->cmdprio_pct ? 1 : 0;
	/* fio: the entries for the size, each a share of its I/Os in turn */
	uint64_t u = rng_below(&t->prio_rng, 100), sum = 0;
	for (unsigned i = 0; i < s->n; i++)
		if (s->bs[i] == len) {
			sum += s->pct[i];
			if (u < sum)
				return t->prio_index[dir][i];
		}
	return 0;
}

/* Choose the next request's file, direction, offset and length, and fill
 * a write's buffer.  False when the job has issued all it should, or, with
 * t->rate_waiting set, when the rate says to drain the `inflight` first. */
bool io_next(struct io_thread *t, struct io_req *r, unsigned inflight)
{
	struct io_file *f;
	uint64_t len = t->min_bs, block, off;
	int dir = t->fixed_dir;

	r->prio = 0;	/* a replayed or read-back request: the job's own */
	if (t->replay)
		return replay_next(t, r);
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
	/* trimwrite: the write after a trim is its size, as fio's (it seeds
	 * the two directions' size generators alike, so they step together) */
	if (t->trimwrite && dir == DIR_WRITE && t->trim_len)
		len = t->trim_len;
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
		 * each I/O; past either end, from the other.  A hole that
		 * lands inside the file where the I/O no longer fits ends the
		 * pass there, short, as fio's get_next_offset does (t0007:
		 * 128 MiB read 1 MiB with 512 KiB holes is 85 MiB, not 128) */
		if (off && t->seq_add) {
			int64_t at = (int64_t)off + t->seq_add;
			if (t->seq_add > 0 && (uint64_t)at < f->size && (uint64_t)at + len > f->size &&
			    t->nfiles == 1) {
				uint64_t left = t->pass_end > t->issued_bytes ? t->pass_end - t->issued_bytes : 0;
				t->target_bytes -= left < t->target_bytes - t->issued_bytes
						   ? left : t->target_bytes - t->issued_bytes;
				t->pass_end = t->issued_bytes;
				if (t->issued_bytes >= t->target_bytes)
					return false;
				new_pass(t);
				at = 0;
			} else if (at < 0 || (uint64_t)at + len > f->size) {
				at = t->seq_add > 0 ? 0 : (int64_t)f->size + t->seq_add;
			}
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
	} else if (t->trimwrite && dir == DIR_TRIM) {
		t->trim_len = len;
	}
chosen:
	if (t->cmdprio_on)
		r->prio = io_prio_draw(t, dir, len);
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
		t->rate_next[dir] = io_rate_schedule(t, dir);
	}
	t->issued_n++;
	t->last_dir = dir;
	if (dir == DIR_WRITE) {
		if (t->dedupe.pct)
			io_dedupe_fill(&t->dedupe, &t->data, r->buf, len);
		else if (t->refill)
			data_refresh(&t->data, &t->rng, r->buf, len);
		else if (t->scramble)
			data_scramble(r->buf, len, r->offset, rng_next(&t->rng));
		if (t->verify) {
			io_verify_stamp(t, r->buf, r->len, r->offset, t->pass + 1);
			mark_written(t, block);
			/* sizes vary: the longest write begun at each block, the
			 * read-back's spans (every chunk has a header of its own, so
			 * a span over newer writes still checks) */
			if (t->wlen && len > t->wlen[block])
				t->wlen[block] = (uint32_t)len;
			if (t->hist && !backlog_add(t, r, block))
				return false;
		}
	}
	return true;
}
