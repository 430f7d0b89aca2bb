/*
 * iojob.c: the I/O core behind the io workload and `fsbench io` (see
 * iojob.h).
 *
 * Open: every file is created and laid out before any clock runs (written
 * in full when the job reads, fallocated when it only writes), free space
 * is checked first, and each thread gets its descriptors, request slots
 * and aligned buffers.  Run: the threads of all jobs in a group meet at a
 * gate, sleep startdelay, do ramp_time of unrecorded I/O, then the
 * measured part; sync engines time each call, async engines stamp a batch
 * at submission and reap completions in batches.  Close: descriptors
 * closed, files fsbench created removed.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define VERIFY_MAGIC 0xf5b3c7a1u
#define LAYOUT_CHUNK (1u << 20)
#define BUF_ALIGN 4096

/* The header verify=crc32c puts at the start of every block. */
struct verify_hdr {
	uint32_t magic;
	uint32_t len;
	uint64_t offset;
	uint64_t seed;
	uint64_t generation;
	uint32_t crc;		/* over the header before it and the data after */
	uint32_t pad;
};

struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready, go, failed;
};

struct io_job {
	struct io_options o;
	const struct io_engine_ops *ops;
	char dir[4096];
	int nthreads, nfiles;
	uint64_t per_file;
	struct io_thread *threads;
	struct gate *gate;
};

const char *io_rw_title(int rw)
{
	static const char *titles[] = {
		"Sequential Read", "Sequential Write", "Random Read", "Random Write",
		"Sequential Read/Write", "Sequential Read/Write", "Random Read/Write",
	};
	return rw >= 0 && rw <= RW_RANDRW ? titles[rw] : "?";
}

bool io_is_random(const struct io_options *o)
{
	return o->rw == RW_RANDREAD || o->rw == RW_RANDWRITE || o->rw == RW_RANDRW;
}

bool io_has_reads(const struct io_options *o)
{
	return o->rw != RW_WRITE && o->rw != RW_RANDWRITE;
}

bool io_has_writes(const struct io_options *o)
{
	return o->rw != RW_READ && o->rw != RW_RANDREAD;
}

static bool is_direct(const struct io_options *o)
{
	return o->direct || !o->buffered;
}

/* bsrange "4k-64k" into min and max; an empty range is bs alone. */
static int block_sizes(const struct io_options *o, uint64_t *min, uint64_t *max)
{
	char lo[64], *dash;

	*min = *max = o->bs;
	if (!o->bsrange[0])
		return 0;
	str_copy(lo, sizeof(lo), o->bsrange);
	dash = strchr(lo, '-');
	if (!dash)
		return error_set("option 'bsrange': '%s' is not MIN-MAX (e.g. 4k-64k)", o->bsrange);
	*dash = 0;
	if (parse_size(lo, min) || parse_size(dash + 1, max) || !*min || *min > *max)
		return error_set("option 'bsrange': '%s' is not MIN-MAX with 0 < MIN <= MAX", o->bsrange);
	if (*max % *min)
		return error_set("option 'bsrange': MAX must be a multiple of MIN in '%s'", o->bsrange);
	return 0;
}

int io_options_validate(const struct io_options *o)
{
	uint64_t min, max;

	if (block_sizes(o, &min, &max))
		return -1;
	if (max > (1u << 30))
		return error_set("option 'bs': at most 1g per I/O");
	if (o->time_based && o->runtime <= 0)
		return error_set("option 'time_based' needs runtime= (how long to run)");
	if (o->verify && o->bsrange[0])
		return error_set("option 'verify' needs one block size: drop bsrange");
	if (o->verify && min < sizeof(struct verify_hdr))
		return error_set("option 'verify': bs must be at least %zu bytes for the header",
				 sizeof(struct verify_hdr));
	if (o->buffer_pattern[0] && (o->zero_buffers || o->buffer_compress_percentage))
		return error_set("option 'buffer_pattern' cannot be combined with zero_buffers or "
				 "buffer_compress_percentage");
	if (o->zero_buffers && o->buffer_compress_percentage)
		return error_set("option 'zero_buffers' cannot be combined with buffer_compress_percentage");
	if (o->buffer_pattern[0]) {
		struct data_spec d;
		if (data_pattern_parse(o->buffer_pattern, &d))
			return -1;
	}
	if (strchr(o->filename, ':'))
		return error_set("option 'filename': lists (a:b) are not supported; use nrfiles=");
	return 0;
}

uint64_t io_options_space(const struct io_options *o)
{
	uint64_t files = o->filename[0] ? 1 : (uint64_t)o->numjobs;

	return sat_mul(sat_add(o->offset, o->size), files);
}

/* --- verify headers --------------------------------------------------- */

static uint32_t block_crc(const struct verify_hdr *h, const unsigned char *buf, uint32_t len)
{
	uint32_t crc = crc32c(0, h, offsetof(struct verify_hdr, crc));

	return crc32c(crc, buf + sizeof(*h), len - sizeof(*h));
}

static void verify_stamp(void *buf, uint32_t len, uint64_t offset, uint64_t seed, uint64_t gen)
{
	struct verify_hdr h = { VERIFY_MAGIC, len, offset, seed, gen, 0, 0 };

	h.crc = block_crc(&h, buf, len);
	memcpy(buf, &h, sizeof(h));
}

static int verify_check(struct io_thread *t, const struct io_file *f, const void *buf,
			uint32_t len, uint64_t offset)
{
	struct verify_hdr h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	crc = h.magic == VERIFY_MAGIC && h.len == len ? block_crc(&h, buf, len) : 0;
	if (h.magic == VERIFY_MAGIC && h.len == len && h.offset == offset && h.seed == t->seed &&
	    crc == h.crc)
		return 0;
	snprintf(t->errmsg, sizeof(t->errmsg),
		 "verify failed: %s offset %llu: expected header magic 0x%08x len %u offset %llu "
		 "seed %llu; found magic 0x%08x len %u offset %llu seed %llu generation %llu, "
		 "crc32c stored 0x%08x computed 0x%08x",
		 f->path, (unsigned long long)offset, VERIFY_MAGIC, len,
		 (unsigned long long)offset, (unsigned long long)t->seed, h.magic, h.len,
		 (unsigned long long)h.offset, (unsigned long long)h.seed,
		 (unsigned long long)h.generation, h.crc, crc);
	t->error = 1;
	return -1;
}

/* --- per-I/O path -------------------------------------------------------- */

static void invalidate_files(struct io_thread *t)
{
	for (int i = 0; i < t->nfiles; i++)
		posix_fadvise(t->files[i].fd, (off_t)t->files[i].base, (off_t)t->files[i].size,
			      POSIX_FADV_DONTNEED);
}

/* A pass (every block once) is over: fio closes and reopens its files
 * here, which is when invalidate and fsync_on_close act. */
static void new_pass(struct io_thread *t)
{
	const struct io_options *o = t->o;

	t->pass++;
	t->pass_index = 0;
	t->pass_end += t->pass_bytes;
	if (t->use_map)
		perm_init(&t->perm, t->total_blocks, t->seed ^ (t->pass << 20) ^ (uint64_t)t->id);
	if (o->fsync_on_close && t->fixed_dir != DIR_READ)
		for (int i = 0; i < t->nfiles; i++)
			fsync(t->files[i].fd);
	if (o->invalidate && !is_direct(o))
		invalidate_files(t);
}

static inline void mark_written(struct io_thread *t, uint64_t block)
{
	t->written[block >> 3] |= (uint8_t)(1u << (block & 7));
}

/* Choose the next request's file, direction, offset and length, and fill
 * a write's buffer.  False when the job has issued all it should. */
static inline bool next_io(struct io_thread *t, struct io_req *r)
{
	struct io_file *f;
	uint64_t len = t->min_bs, block, off;
	int dir = t->fixed_dir;

	if (t->issued_bytes >= t->target_bytes)
		return false;
	if (dir < 0)
		dir = rng_below(&t->rng, 100) < (uint64_t)t->o->rwmixread ? DIR_READ : DIR_WRITE;
	if (t->max_bs != t->min_bs)
		len = t->min_bs * (1 + rng_below(&t->rng, t->max_bs / t->min_bs));
	if (t->random) {
		uint64_t g;
		if (t->use_map) {
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
		off = (g % t->blocks) * t->min_bs;
	} else {
		if (t->issued_bytes >= t->pass_end)
			new_pass(t);
		f = &t->files[t->next_file];
		if (++t->next_file == t->nfiles)
			t->next_file = 0;
		if (f->pos[dir] >= f->size)
			f->pos[dir] = 0;
		off = f->pos[dir];
		block = (uint64_t)f->index * t->blocks + off / t->min_bs;
	}
	if (off + len > f->size)
		len = f->size - off;
	if (!t->random)
		f->pos[dir] = off + len;
	r->file = f;
	r->offset = f->base + off;
	r->len = (uint32_t)len;
	r->dir = (enum io_dir)dir;
	t->issued_bytes += len;
	if (dir == DIR_WRITE) {
		data_refresh(&t->data, &t->rng, r->buf, len);
		if (t->verify) {
			verify_stamp(r->buf, r->len, r->offset, t->seed, t->pass + 1);
			mark_written(t, block);
		}
	}
	return true;
}

static int io_failed(struct io_thread *t, const struct io_req *r)
{
	const char *what = r->dir == DIR_READ ? "reading" : "writing";
	char done[32], asked[32];

	t->error = 1;
	if (r->res >= 0) {
		snprintf(t->errmsg, sizeof(t->errmsg), "short %s on %s at offset %llu: %d of %u bytes",
			 r->dir == DIR_READ ? "read" : "write", r->file->path,
			 (unsigned long long)r->offset, r->res, r->len);
	} else if (r->res == -EINVAL && is_direct(t->o)) {
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

static inline int complete(struct io_thread *t, struct io_req *r, uint64_t now)
{
	if (r->res != (int)r->len)
		return io_failed(t, r);
	if (t->verify && r->dir == DIR_READ &&
	    verify_check(t, r->file, r->buf, r->len, r->offset))
		return -1;
	if (t->stats_on) {
		hist_add(&t->clat[r->dir], now - r->start_ns);
		t->ios[r->dir]++;
		t->bytes[r->dir] += r->len;
	}
	return 0;
}

static void thread_cpu(uint64_t *usr, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*usr = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000;
}

static void start_stats(struct io_thread *t, uint64_t now)
{
	t->stats_on = true;
	t->start_ns = now;
	t->deadline = t->o->runtime > 0 ? now + (uint64_t)(t->o->runtime * 1e9) : UINT64_MAX;
	hist_init(&t->clat[0]);
	hist_init(&t->clat[1]);
	memset(t->ios, 0, sizeof(t->ios));
	memset(t->bytes, 0, sizeof(t->bytes));
	thread_cpu(&t->usr_start, &t->sys_start);
}

static int sync_file(struct io_thread *t)
{
	int fd = t->sync_file->fd;

	t->writes_since_sync = 0;
	if ((t->o->fsync ? fsync(fd) : fdatasync(fd)) == 0)
		return 0;
	t->error = 1;
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

/* psync, sync, mmap, null: each call completes before it returns. */
static void run_sync(struct io_thread *t)
{
	struct io_req *r = &t->reqs[0];
	uint64_t now = now_ns();

	for (;;) {
		if (!t->stats_on && now >= t->ramp_end)
			start_stats(t, now);
		if (now >= t->deadline || stop_requested() || !next_io(t, r))
			break;
		r->start_ns = now_ns();
		t->ops->queue(t, r);
		now = now_ns();
		if (complete(t, r, now) || (sync_due(t, r) && sync_file(t)))
			break;
	}
	t->end_ns = now;
}

static void engine_error(struct io_thread *t)
{
	t->error = 1;
	str_copy(t->errmsg, sizeof(t->errmsg), error_get());
}

/* Stamp and submit what was queued since the last submission. */
static int submit(struct io_thread *t, unsigned *newq)
{
	uint64_t s = now_ns();

	for (unsigned i = 0; i < *newq; i++)
		t->pending[i]->start_ns = s;
	*newq = 0;
	if (t->ops->commit && t->ops->commit(t) < 0) {
		engine_error(t);
		return -1;
	}
	return 0;
}

/* io_uring, libaio: keep iodepth requests in flight, submitting every
 * iodepth_batch_submit requests and, once the queue is full, reaping at
 * least iodepth_batch_complete_min completions, as fio does. */
static void run_async(struct io_thread *t)
{
	unsigned inflight = 0;
	bool issuing = true, syncing = false;
	uint64_t now = now_ns();

	for (;;) {
		unsigned newq = 0;

		if (!t->stats_on && now >= t->ramp_end)
			start_stats(t, now);
		if (now >= t->deadline || stop_requested() || t->error)
			issuing = false;
		while (issuing && !syncing && (t->held || t->nfree)) {
			struct io_req *r = t->held;
			int ret;

			if (!r) {
				r = t->free_reqs[t->nfree - 1];
				if (!next_io(t, r)) {
					issuing = false;
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
					t->error = 1;
					snprintf(t->errmsg, sizeof(t->errmsg),
						 "ioengine=%s refused a request with nothing in flight",
						 t->ops->name);
					issuing = false;
				}
				break;
			}
			if (ret == IO_Q_COMPLETED) {
				r->start_ns = now;
				if (complete(t, r, now_ns()))
					issuing = false;
				t->free_reqs[t->nfree++] = r;
			} else {
				t->pending[newq++] = r;
				inflight++;
			}
			if (sync_due(t, r))
				syncing = true;
			if (newq >= t->batch_submit && submit(t, &newq))
				goto out;
		}
		if (newq && submit(t, &newq))
			break;
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
		}
		int n = t->ops->getevents(t, inflight < t->batch_complete ? inflight : t->batch_complete,
					  inflight);
		if (n < 0) {
			engine_error(t);
			break;
		}
		now = now_ns();
		for (int i = 0; i < n; i++) {
			struct io_req *r = t->ops->event(t, (unsigned)i);
			if (!t->error && complete(t, r, now))
				issuing = false;
			t->free_reqs[t->nfree++] = r;
		}
		inflight -= (unsigned)n;
	}
out:
	if (t->held) {
		t->free_reqs[t->nfree++] = t->held;
		t->held = NULL;
	}
	t->end_ns = now;
}

/* After a write job with verify: read back every block written. */
static void verify_written(struct io_thread *t)
{
	void *buf = t->reqs[0].buf;
	uint32_t bs = (uint32_t)t->min_bs;

	for (uint64_t g = 0; g < t->total_blocks && !stop_requested(); g++) {
		struct io_file *f;
		uint64_t off;
		ssize_t n;

		if (!(t->written[g >> 3] & (1u << (g & 7))))
			continue;
		f = &t->files[g / t->blocks];
		off = f->base + (g % t->blocks) * bs;
		n = pread(f->fd, buf, bs, (off_t)off);
		if (n != (ssize_t)bs) {
			t->error = 1;
			snprintf(t->errmsg, sizeof(t->errmsg), "verify: reading back %s at %llu: %s",
				 f->path, (unsigned long long)off, n < 0 ? strerror(errno) : "short read");
			return;
		}
		if (verify_check(t, f, buf, bs, off))
			return;
		t->verified++;
	}
}

static void sleep_interruptibly(double seconds)
{
	uint64_t until = now_ns() + (uint64_t)(seconds * 1e9);

	while (!stop_requested() && now_ns() < until) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
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
	t->pass_index = 0;
	t->pass_end = t->pass_bytes;
	t->issued_bytes = 0;
	t->target_bytes = o->time_based ? UINT64_MAX : t->pass_bytes * (uint64_t)o->loops;
	t->writes_since_sync = 0;
	t->next_file = 0;
	t->stats_on = false;
	t->deadline = UINT64_MAX;
	t->verified = 0;
	t->start_ns = t->end_ns = 0;
	t->usr_ns = t->sys_ns = 0;
	memset(t->ios, 0, sizeof(t->ios));
	memset(t->bytes, 0, sizeof(t->bytes));
	hist_init(&t->clat[0]);
	hist_init(&t->clat[1]);
	for (int i = 0; i < t->nfiles; i++)
		t->files[i].pos[0] = t->files[i].pos[1] = 0;
	if (t->use_map)
		perm_init(&t->perm, t->total_blocks, t->seed ^ (uint64_t)t->id);
	if (t->written)
		memset(t->written, 0, (size_t)(t->total_blocks + 7) / 8);
	rng_seed(&t->rng, t->seed + 0x9e3779b9ULL * (uint64_t)(t->id + 1));
}

static void *thread_main(void *arg)
{
	struct io_thread *t = arg;
	const struct io_options *o = t->o;
	bool failed = false;
	uint64_t usr, sys;

	if (t->ops->init && t->ops->init(t)) {
		engine_error(t);
		failed = true;
	}
	if (!gate_pass(t->job->gate, failed))
		goto out;
	if (o->startdelay > 0)
		sleep_interruptibly(o->startdelay);
	if (o->invalidate && !is_direct(o))
		invalidate_files(t);
	t->ramp_end = now_ns() + (uint64_t)(o->ramp_time * 1e9);
	if (t->ops->flags & ENGINE_SYNC)
		run_sync(t);
	else
		run_async(t);
	if (!t->stats_on)
		start_stats(t, t->end_ns);
	thread_cpu(&usr, &sys);
	t->usr_ns = usr - t->usr_start;
	t->sys_ns = sys - t->sys_start;
	if (!t->error && o->end_fsync && t->fixed_dir != DIR_READ)
		for (int i = 0; i < t->nfiles; i++)
			fsync(t->files[i].fd);
	if (!t->error && t->verify && t->fixed_dir != DIR_READ)
		verify_written(t);
out:
	if (t->ops->cleanup)
		t->ops->cleanup(t);
	return NULL;
}

/* --- open, lay out, close ------------------------------------------------ */

static int make_path(const struct io_job *job, int thread, int file, char *buf, size_t len)
{
	const struct io_options *o = &job->o;
	char dir[4096], name[PARAM_STR_MAX + 64];

	if (o->directory[0] == '/')
		str_copy(dir, sizeof(dir), o->directory);
	else if (o->directory[0])
		snprintf(dir, sizeof(dir), "%s/%s", job->dir, o->directory);
	else
		str_copy(dir, sizeof(dir), job->dir);
	if (o->filename[0] && job->nfiles == 1)
		snprintf(name, sizeof(name), "%s", o->filename);
	else if (o->filename[0])
		snprintf(name, sizeof(name), "%s.%d", o->filename, file);
	else
		snprintf(name, sizeof(name), "%s.%d.%d", o->name[0] ? o->name : "job", thread, file);
	if (name[0] == '/')
		str_copy(buf, len, name);
	else if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		return error_set("path too long: %s/%s", dir, name);
	return 0;
}

static int write_all(int fd, const void *buf, size_t len, off_t at)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, at + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : (errno = EIO, -1);
		done += (size_t)n;
	}
	return 0;
}

/* Write [from, to) of f with the job's data (and verify headers). */
static int fill_file(struct io_thread *t, int fd, struct io_file *f,
		     uint64_t from, uint64_t to)
{
	size_t chunk = LAYOUT_CHUNK - LAYOUT_CHUNK % t->min_bs;
	unsigned char *buf;
	char done[32], asked[32];

	if (!chunk)
		chunk = t->min_bs;
	if (posix_memalign((void **)&buf, BUF_ALIGN, chunk))
		return error_set("out of memory laying out %s", f->path);
	for (uint64_t at = from; at < to; at += chunk) {
		size_t n = to - at < chunk ? (size_t)(to - at) : chunk;
		data_fill(&t->data, &t->rng, buf, n);
		if (t->verify)
			for (size_t b = 0; b + t->min_bs <= n; b += t->min_bs)
				verify_stamp(buf + b, (uint32_t)t->min_bs, at + b, t->seed, 0);
		if (write_all(fd, buf, n, (off_t)at)) {
			int e = errno;
			free(buf);
			bytes_text(at - from, done, sizeof(done));
			bytes_text(to - from, asked, sizeof(asked));
			if (e == ENOSPC || e == EDQUOT)
				return error_set("laying out %s: no space left on the device after %s "
						 "written of the %s asked: lower size=", f->path, done, asked);
			errno = e;
			return error_errno("laying out %s", f->path);
		}
		if (stop_requested()) {
			free(buf);
			return error_set("interrupted while laying out %s", f->path);
		}
	}
	free(buf);
	return fsync(fd) ? error_errno("fsync %s", f->path) : 0;
}

/* Create the file if needed and give it the bytes the job will use. */
static int lay_out(struct io_job *job, struct io_thread *t, struct io_file *f)
{
	const struct io_options *o = &job->o;
	uint64_t need = f->base + f->size;
	struct stat st;
	int fd;

	/* Never through a symlink, and a file that was there before is
	 * used only if it is a plain file of ours or the job named it:
	 * fsbench runs as root in directories others can write to. */
	fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0)
		f->created = true;
	else if (errno == EEXIST)
		fd = open(f->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return error_set("%s is a symbolic link: fsbench io does not follow one", f->path);
	if (fd < 0)
		return error_errno("creating %s", f->path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set("%s is not a regular file: fsbench io works on files (use `fsbench "
				 "run --device` for a device)", f->path);
	}
	if (!f->created && !o->filename[0] && (st.st_nlink != 1 || st.st_uid != geteuid())) {
		close(fd);
		return error_set("%s was there before and is not a plain file of uid %d: name it "
				 "with filename= to use it, or remove it", f->path, (int)geteuid());
	}
	if ((job->ops->flags & ENGINE_NO_DATA) && !io_has_reads(o)) {
		close(fd);
		return 0;
	}
	if (io_has_reads(o) && (uint64_t)st.st_size < need) {
		/* verify needs headers in every block: a short file is
		 * rewritten whole; a complete one is read as it is. */
		uint64_t from = o->verify ? f->base : (uint64_t)st.st_size;
		if (from < f->base)
			from = f->base;
		if (fill_file(t, fd, f, from, need)) {
			close(fd);
			return -1;
		}
	} else if ((uint64_t)st.st_size < need) {
		int e = posix_fallocate(fd, st.st_size, (off_t)(need - (uint64_t)st.st_size));
		if (e == ENOSPC || e == EDQUOT) {
			char asked[32];
			close(fd);
			bytes_text(need, asked, sizeof(asked));
			return error_set("allocating %s: no space left on the device for the %s asked: "
					 "lower size=", f->path, asked);
		}
		if (e && ftruncate(fd, (off_t)need)) {
			close(fd);
			return error_errno("extending %s", f->path);
		}
	}
	close(fd);
	return 0;
}

static int open_for_io(struct io_job *job, struct io_file *f)
{
	int flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (is_direct(&job->o) ? O_DIRECT : 0);

	f->fd = open(f->path, flags);
	if (f->fd >= 0)
		return 0;
	if (errno == EINVAL && (flags & O_DIRECT))
		return error_set("the filesystem of %s refuses O_DIRECT (direct=1): use direct=0 "
				 "(buffered I/O)", f->path);
	return error_errno("opening %s", f->path);
}

/* Bytes still to be allocated for the job's files, against free space. */
static int check_space(struct io_job *job)
{
	uint64_t missing = 0, avail;
	struct statvfs sv;
	char need[32], have[32];

	for (int i = 0; i < job->nthreads; i++) {
		if (i && job->o.filename[0])
			break;
		for (int k = 0; k < job->nfiles; k++) {
			struct io_file *f = &job->threads[i].files[k];
			struct stat st;
			uint64_t size = stat(f->path, &st) ? 0 : (uint64_t)st.st_size;
			if (size < f->base + f->size)
				missing += f->base + f->size - size;
		}
	}
	if (!missing)
		return 0;
	{
		char d[4096], *slash;
		str_copy(d, sizeof(d), job->threads[0].files[0].path);
		slash = strrchr(d, '/');
		if (slash)
			*slash = 0;
		if (statvfs(slash ? (d[0] ? d : "/") : ".", &sv))
			return error_errno("statvfs %s", d);
	}
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (missing <= avail)
		return 0;
	bytes_text(missing, need, sizeof(need));
	bytes_text(avail, have, sizeof(have));
	return error_set("the job needs %s more space but only %s is free there: lower size= or "
			 "numjobs=", need, have);
}

static void data_spec_of(const struct io_options *o, struct data_spec *d)
{
	memset(d, 0, sizeof(*d));
	if (o->buffer_pattern[0])
		data_pattern_parse(o->buffer_pattern, d);
	else if (o->zero_buffers)
		d->kind = DATA_ZERO;
	else if (o->buffer_compress_percentage) {
		d->kind = DATA_COMPRESS;
		d->compress_pct = (int)o->buffer_compress_percentage;
	} else
		d->kind = DATA_RANDOM;
}

static int setup_thread(struct io_job *job, struct io_thread *t, int id)
{
	const struct io_options *o = &job->o;

	t->o = &job->o;
	t->ops = job->ops;
	t->job = job;
	t->id = id;
	t->depth = (job->ops->flags & ENGINE_SYNC) ? 1 : (unsigned)o->iodepth;
	t->nfiles = job->nfiles;
	block_sizes(o, &t->min_bs, &t->max_bs);
	t->buf_size = (size_t)((t->max_bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN);
	t->random = io_is_random(o);
	t->use_map = t->random && !o->norandommap;
	t->verify = o->verify == VERIFY_CRC32C;
	t->fixed_dir = o->rw == RW_READ || o->rw == RW_RANDREAD ? DIR_READ
		     : o->rw == RW_WRITE || o->rw == RW_RANDWRITE ? DIR_WRITE : -1;
	t->seed = (uint64_t)o->randseed;
	t->blocks = job->per_file / t->min_bs;
	t->total_blocks = t->blocks * (uint64_t)t->nfiles;
	t->pass_bytes = job->per_file * (uint64_t)t->nfiles;
	t->sync_every = (uint64_t)(o->fsync ? o->fsync : o->fdatasync);
	t->batch_submit = o->iodepth_batch_submit ? (unsigned)o->iodepth_batch_submit : t->depth;
	t->batch_complete = o->iodepth_batch_complete_min ? (unsigned)o->iodepth_batch_complete_min : 1;
	data_spec_of(o, &t->data);
	rng_seed(&t->rng, t->seed + (uint64_t)id);

	t->files = calloc((size_t)t->nfiles, sizeof(*t->files));
	t->reqs = calloc(t->depth, sizeof(*t->reqs));
	t->free_reqs = calloc(t->depth, sizeof(*t->free_reqs));
	t->pending = calloc(t->depth, sizeof(*t->pending));
	if (t->verify)
		t->written = calloc((size_t)(t->total_blocks + 7) / 8, 1);
	if (!t->files || !t->reqs || !t->free_reqs || !t->pending || (t->verify && !t->written) ||
	    posix_memalign((void **)&t->bufmem, BUF_ALIGN, t->buf_size * t->depth))
		return error_set("out of memory for %u requests of %zu bytes", t->depth, t->buf_size);
	for (unsigned i = 0; i < t->depth; i++) {
		t->reqs[i].index = i;
		t->reqs[i].buf = t->bufmem + (size_t)i * t->buf_size;
		data_fill(&t->data, &t->rng, t->reqs[i].buf, t->buf_size);
	}
	for (int k = 0; k < t->nfiles; k++) {
		struct io_file *f = &t->files[k];
		f->fd = -1;
		f->index = k;
		f->base = o->offset;
		f->size = job->per_file;
		if (make_path(job, id, k, f->path, sizeof(f->path)))
			return -1;
	}
	return 0;
}

void io_job_close(struct io_job *job)
{
	if (!job)
		return;
	for (int i = 0; job->threads && i < job->nthreads; i++) {
		struct io_thread *t = &job->threads[i];
		for (int k = 0; t->files && k < t->nfiles; k++) {
			if (t->files[k].fd >= 0)
				close(t->files[k].fd);
			if (t->files[k].created)
				unlink(t->files[k].path);
		}
		free(t->files);
		free(t->reqs);
		free(t->free_reqs);
		free(t->pending);
		free(t->written);
		free(t->bufmem);
	}
	free(job->threads);
	free(job);
}

int io_job_open(const struct io_options *o, const char *dir, struct io_job **out)
{
	struct io_job *job;
	uint64_t min_bs, max_bs;

	*out = NULL;
	if (io_options_validate(o))
		return -1;
	job = calloc(1, sizeof(*job));
	if (!job)
		return error_set("out of memory");
	job->o = *o;
	str_copy(job->dir, sizeof(job->dir), dir);
	job->ops = engine_at(o->ioengine);
	if (!job->ops) {
		free(job);
		return error_set("unknown ioengine %d", o->ioengine);
	}
	if (o->verify && (job->ops->flags & ENGINE_NO_DATA)) {
		free(job);
		return error_set("option 'verify' needs an engine that moves data, not ioengine=null");
	}
	job->nthreads = (int)o->numjobs;
	job->nfiles = (int)o->nrfiles;
	block_sizes(o, &min_bs, &max_bs);
	job->per_file = o->size / (uint64_t)job->nfiles;
	job->per_file -= job->per_file % min_bs;
	if (!job->per_file) {
		free(job);
		return error_set("size=%llu is less than one block (bs=%llu) per file: raise size=",
				 (unsigned long long)o->size, (unsigned long long)min_bs);
	}
	job->threads = calloc((size_t)job->nthreads, sizeof(*job->threads));
	if (!job->threads) {
		free(job);
		return error_set("out of memory");
	}
	for (int i = 0; i < job->nthreads; i++)
		if (setup_thread(job, &job->threads[i], i))
			goto fail;
	if (check_space(job))
		goto fail;
	for (int i = 0; i < job->nthreads; i++) {
		struct io_thread *t = &job->threads[i];
		for (int k = 0; k < t->nfiles; k++) {
			if ((i == 0 || !o->filename[0]) && lay_out(job, t, &t->files[k]))
				goto fail;
			if (open_for_io(job, &t->files[k]))
				goto fail;
		}
	}
	*out = job;
	return 0;
fail:
	io_job_close(job);
	return -1;
}

static void job_result(const struct io_job *job, struct io_result *res)
{
	memset(res, 0, sizeof(*res));
	hist_init(&res->clat);
	hist_init(&res->dir_clat[0]);
	hist_init(&res->dir_clat[1]);
	for (int i = 0; i < job->nthreads; i++) {
		const struct io_thread *t = &job->threads[i];
		for (int d = 0; d < 2; d++) {
			res->ios[d] += t->ios[d];
			res->bytes[d] += t->bytes[d];
			hist_merge(&res->dir_clat[d], &t->clat[d]);
		}
		if (t->end_ns - t->start_ns > res->elapsed_ns)
			res->elapsed_ns = t->end_ns - t->start_ns;
		res->usr_ns += t->usr_ns;
		res->sys_ns += t->sys_ns;
		res->verified_blocks += t->verified;
	}
	hist_merge(&res->clat, &res->dir_clat[0]);
	hist_merge(&res->clat, &res->dir_clat[1]);
	res->compress_ratio = -1;
	if (!(job->ops->flags & ENGINE_NO_DATA)) {
		const struct io_file *f = &job->threads[0].files[0];
		int fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			res->compress_ratio = compress_ratio_file(fd, f->base + f->size, 65536, 64);
			close(fd);
		}
	}
}

static int run_jobs(struct io_job **jobs, int njobs, struct io_result *results)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0 };
	pthread_t *tids;
	int total = 0, started = 0, rc = 0;

	for (int j = 0; j < njobs; j++)
		total += jobs[j]->nthreads;
	tids = calloc((size_t)total, sizeof(*tids));
	if (!tids)
		return error_set("out of memory");
	for (int j = 0; j < njobs && !gate.failed; j++) {
		jobs[j]->gate = &gate;
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
	pthread_mutex_lock(&gate.lock);
	while (gate.ready < started)
		pthread_cond_wait(&gate.cond, &gate.lock);
	gate.go = 1;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	for (int i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	for (int j = 0; j < njobs && !rc; j++)
		for (int i = 0; i < jobs[j]->nthreads; i++)
			if (jobs[j]->threads[i].error) {
				rc = error_set("%s", jobs[j]->threads[i].errmsg);
				break;
			}
	if (!rc && stop_requested())
		rc = error_set("interrupted");
	for (int j = 0; j < njobs && !rc; j++)
		job_result(jobs[j], &results[j]);
	return rc;
}

int io_job_run(struct io_job *job, struct io_result *res)
{
	return run_jobs(&job, 1, res);
}

int io_group_run(const struct io_options *opts, int njobs, const char *dir,
		 struct io_result *results, bool keep)
{
	struct io_job **jobs = calloc((size_t)njobs, sizeof(*jobs));
	int rc = 0, opened = 0;

	if (!jobs)
		return error_set("out of memory");
	for (; opened < njobs; opened++)
		if (io_job_open(&opts[opened], dir, &jobs[opened])) {
			rc = -1;
			break;
		}
	if (!rc)
		rc = run_jobs(jobs, njobs, results);
	for (int j = 0; j < opened; j++) {
		if (keep)
			for (int i = 0; i < jobs[j]->nthreads; i++)
				for (int k = 0; k < jobs[j]->threads[i].nfiles; k++)
					jobs[j]->threads[i].files[k].created = false;
		io_job_close(jobs[j]);
	}
	free(jobs);
	return rc;
}
