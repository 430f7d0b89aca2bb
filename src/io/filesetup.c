/*
 * filesetup.c: the job's files: paths, free space, lay-out before any clock
 * runs (written in full when the job reads, fallocated when it only writes),
 * opening (never through a symlink), the threads' buffers, and closing
 * (removing what fsbench created).
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/stop.h"

#include <errno.h>
#include <sched.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* --- open, lay out, close ------------------------------------------------ */

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
				io_verify_stamp(t, buf + b, (uint32_t)t->min_bs, at + b, 0);
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

/* open(2) of f, by paths.c's rule: beneath the job's directory with no
 * symbolic link on the way, or (a path the user let out) not through a
 * final symbolic link.  -1 with errno. */
static int open_file(const struct io_job *job, const struct io_file *f, int flags, mode_t mode)
{
	flags |= O_NOFOLLOW | O_CLOEXEC;
	if (f->rel < 0)
		return open(f->path, flags, mode);
	return io_open_beneath(job->dir, f->path + f->rel, flags, mode);
}

/* st is a file this command made: by this job (a file its threads share),
 * by a job beside it in the same run, or by an earlier run of the same
 * command (job->made). */
bool io_made_here(const struct io_job *job, const struct stat *st)
{
	uint64_t dev = (uint64_t)st->st_dev, ino = (uint64_t)st->st_ino;

	for (int i = 0; job->made && i < job->made->n; i++)
		if (job->made->f[i].dev == dev && job->made->f[i].ino == ino)
			return true;
	for (int p = -1; p < job->npeers; p++) {
		const struct io_job *q = p < 0 ? job : job->peers[p];
		for (int i = 0; q && q->threads && i < q->nthreads; i++)
			for (int k = 0; q->threads[i].files && k < q->threads[i].nfiles; k++) {
				const struct io_file *g = &q->threads[i].files[k];
				if (g->created && g->dev == dev && g->ino == ino)
					return true;
			}
	}
	return false;
}

/* A raw target's device as the job's file: nothing made or laid out
 * (fio reads a device as it finds it), never removed; the job's region
 * within the device's bytes. */
static int take_device(const struct io_job *job, struct io_file *f, uint64_t need)
{
	struct stat st;
	int fd = open(f->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return error_errno("opening %s", f->path);
	int ok = !fstat(fd, &st);
	close(fd);
	if (!ok)
		return error_errno("stat %s", f->path);
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return error_set("%s is not a device", f->path);
	if (need > job->o.target_device_bytes)
		return error_set("the job's region ends at byte %llu, past the %llu bytes of %s: lower "
				 "size= or offset=", (unsigned long long)need,
				 (unsigned long long)job->o.target_device_bytes, f->path);
	f->dev = (uint64_t)st.st_dev;
	f->ino = (uint64_t)st.st_ino;
	return 0;
}

/* Create the file if needed and give it the bytes the job will use. */
static int lay_out(struct io_job *job, struct io_thread *t, struct io_file *f)
{
	const struct io_options *o = &job->o;
	uint64_t need = f->base + f->size;
	struct stat st;
	int fd;

	if (o->target_device[0])
		return take_device(job, f, need);
	/* paths.c's rule: made exclusively, never through a symlink (nor
	 * out of the job's directory for a relative path), and a file that
	 * was there before the job (not made by it or by an earlier job of
	 * the same command) is only read, unless allow_existing_write:
	 * fsbench runs as root where others write. */
	fd = -1;
	if (f->rel < 0 && !o->allow_existing_write && io_in_root(f->path) &&
	    access(f->path, F_OK))
		return error_set("%s would be made in /: fsbench io makes no files there", f->path);
	if (o->allow_file_create)
		fd = open_file(job, f, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd >= 0)
		f->created = true;
	else if (!o->allow_file_create || errno == EEXIST) {
		/* looked at (O_PATH: no device or FIFO opened) before it is used */
		int pfd = open_file(job, f, O_PATH, 0);
		if (pfd >= 0) {
			int ok = !fstat(pfd, &st);
			close(pfd);
			if (!ok)
				return error_errno("stat %s", f->path);
			if (!io_made_here(job, &st) && io_existing_check(o, f->path, &st, need))
				return -1;
			fd = open_file(job, f, O_RDWR, 0);
		}
	}
	if (fd < 0 && errno == ELOOP)
		return error_set("%s: a symbolic link is on the way: fsbench io does not follow one",
				 f->path);
	if (fd < 0 && errno == EXDEV)
		return error_set("%s would leave the directory the job runs in", f->path);
	if (fd < 0 && errno == ENOENT && !o->allow_file_create)
		return error_set("%s does not exist: file creation disallowed by "
				 "allow_file_create=0 (as fio)", f->path);
	if (fd < 0)
		return error_errno("creating %s", f->path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_set("%s is not a regular file: fsbench io works on files (use `fsbench "
				 "run --device` for a device)", f->path);
	}
	/* what open_for_io must find again under the name */
	f->dev = (uint64_t)st.st_dev;
	f->ino = (uint64_t)st.st_ino;
	/* fio writes the file whole for a job that reads, and with overwrite */
	if ((io_has_reads(o) || o->overwrite) && (uint64_t)st.st_size < need) {
		/* verify needs headers in every block: a short file is
		 * rewritten whole; a complete one is read as it is. */
		uint64_t from = io_verify_mode(o) ? f->base : (uint64_t)st.st_size;
		if (from < f->base)
			from = f->base;
		if (fill_file(t, fd, f, from, need)) {
			close(fd);
			return -1;
		}
	} else if ((uint64_t)st.st_size < need && !o->fill_device) {
		/* fio's fallocate=: allocated (native, posix, 1: the size
		 * with it), allocated then extended (keep), or only extended
		 * (truncate, none, 0: sparse).  e: 0 done, else the error, -1
		 * for "extend it". */
		off_t at = st.st_size, len = (off_t)(need - (uint64_t)st.st_size);
		int e = -1;
		if (o->fallocate == FALLOC_KEEP)
			e = fallocate(fd, FALLOC_FL_KEEP_SIZE, at, len) ? errno : -1;
		else if (o->fallocate != FALLOC_TRUNCATE && o->fallocate != FALLOC_NONE &&
			 o->fallocate != FALLOC_0)
			e = posix_fallocate(fd, at, len);
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

static int open_flags(const struct io_options *o, const struct io_engine_ops *ops)
{
	int flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | (io_is_direct(o) ? O_DIRECT : 0);

	if (ops->flags & ENGINE_PLAIN_OPEN)	/* as that engine's open in fio */
		return O_RDWR | O_CLOEXEC | O_NOFOLLOW;
	if (o->sync == SYNC_SYNC || o->sync == SYNC_1)
		flags |= O_SYNC;
	else if (o->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	return flags;
}

int io_thread_own_files(struct io_thread *t)
{
	if (unshare(CLONE_FILES))
		return error_errno("unshare(CLONE_FILES)");
	t->own_table = true;
	/* the copy holds every descriptor of the process: only the
	 * standard streams stay, and this thread's files come back under
	 * their numbers, opened again (a number open returns is free or one
	 * of a later file's, which its own dup2 then takes) */
	if (close_range(3, ~0U, 0))
		return error_errno("close_range");
	for (int k = 0; k < t->nfiles; k++) {
		struct io_file *f = &t->files[k];
		int fd;
		if (f->fd < 0)
			continue;
		fd = open(f->path, open_flags(t->o, t->ops));
		if (fd < 0)
			return error_errno("opening %s", f->path);
		if (fd != f->fd) {
			int e = dup2(fd, f->fd) < 0 ? errno : 0;
			close(fd);
			if (e)
				return errno = e, error_errno("dup2 for %s", f->path);
		}
	}
	return 0;
}

static int open_for_io(struct io_job *job, struct io_file *f)
{
	int flags = open_flags(&job->o, job->ops);

	struct stat st;

	f->fd = open(f->path, flags);
	if (f->fd >= 0 && (fstat(f->fd, &st) || (uint64_t)st.st_dev != f->dev ||
			   (uint64_t)st.st_ino != f->ino)) {
		close(f->fd);
		f->fd = -1;
		return error_set("%s is no longer the file fsbench laid out: another took its name",
				 f->path);
	}
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

	if (job->o.fill_device || job->o.target_device[0])
		return 0;	/* it writes until the space runs out, by design; a device is its room */
	for (int i = 0; i < job->nthreads; i++) {
		if (i && job->o.filename[0])
			break;
		for (int k = 0; k < job->nfiles; k++) {
			struct io_file *f = &job->threads[i].files[k];
			struct stat st;
			uint64_t size = stat(f->path, &st) ? 0 : (uint64_t)st.st_size, end = 0;
			/* a shared file ends where its last thread's region does */
			for (int j = 0; j < (job->o.filename[0] ? job->nthreads : 1); j++) {
				const struct io_file *g = &job->threads[j].files[k];
				if (sat_add(g->base, g->size) > end)
					end = sat_add(g->base, g->size);
			}
			if (size < end)
				missing += end - size;
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
	if (o->dedupe_percentage) {	/* fio: random data, compressible as asked */
		d->kind = o->buffer_compress_percentage ? DATA_COMPRESS : DATA_RANDOM;
		d->compress_pct = (int)o->buffer_compress_percentage;
	} else if (o->buffer_pattern[0])
		*d = o->parsed.bpat;
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
	/* offload: the job engine's calls made by workers (offload.c), the
	 * thread's loop the async one at iodepth */
	bool offload = o->io_submit_mode == SUBMIT_OFFLOAD;
	t->ops = offload ? &engine_offload : job->ops;
	t->job = job;
	t->id = id;
	t->seq = job->first_thread + id;
	t->depth = (job->ops->flags & ENGINE_SYNC) && !offload ? 1 : (unsigned)o->iodepth;
	t->async = offload || !(job->ops->flags & ENGINE_SYNC);
	t->ops_at_open = (job->ops->flags & ENGINE_FILE_OP) && !o->create_on_open;
	t->max_lat_ns = (uint64_t)(o->max_latency * 1e9);
	t->lat_on = o->latency_target > 0;
	t->gtod = o->gtod_reduce || (o->disable_clat && o->disable_slat && o->disable_bw_measurement);
	t->no_clat = o->disable_clat || t->gtod;
	t->no_lat = o->disable_lat || t->gtod;
	t->no_slat = o->disable_slat || t->gtod;
	t->no_bw = o->disable_bw_measurement || t->gtod;
	t->lat_target_ns = (uint64_t)(o->latency_target * 1e9);
	t->lat_window_ns = (uint64_t)(o->latency_window * 1e9);
	t->lat_pct = o->parsed.lat_pct;
	t->ncpus = io_cpu_set(o, &t->cpus);
	if (t->ncpus < 0)
		return -1;
	/* split: the id-th CPU of the set, in turn */
	if (t->ncpus && o->cpus_allowed_policy == CPUS_SPLIT) {
		int want = id % t->ncpus, seen = 0;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &t->cpus) && seen++ == want) {
				CPU_ZERO(&t->cpus);
				CPU_SET(c, &t->cpus);
				t->ncpus = 1;
				break;
			}
	}
	t->nfiles = job->nfiles;
	io_block_sizes(o, &t->min_bs, &t->max_bs);
	t->replay = job->replay;
	uint64_t most = t->replay && t->replay->max_len > t->max_bs ? t->replay->max_len : t->max_bs;
	t->buf_size = (size_t)((most + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN);
	t->random = io_is_random(o);
	/* fio's lfsr visits every block once a pass, map or not */
	t->use_map = t->random && (!o->norandommap || o->random_generator == RANDGEN_LFSR);
	t->dist = o->parsed.dist;
	if (t->dist.kind != DIST_RANDOM && t->random)
		t->use_map = false;	/* fio: a non-uniform distribution keeps no map */
	memcpy(t->split, o->parsed.split, sizeof(t->split));
	for (int d = 0; d < IO_DIRS; d++) {
		t->split_min[d] = UINT64_MAX;
		for (unsigned i = 0; i < t->split[d].n; i++)
			if (t->split[d].bs[i] < t->split_min[d])
				t->split_min[d] = t->split[d].bs[i];
	}
	t->vmode = io_verify_mode(o);
	t->verify = t->vmode != VERIFY_NONE;
	t->vchunk = (uint32_t)io_verify_chunk(o, t->min_bs, t->max_bs);
	t->vpat = o->parsed.vpat;
	if (t->vpat.pattern_len && io_verify_template(t))
		return -1;
	t->fixed_dir = o->rw == RW_READ || o->rw == RW_RANDREAD ? DIR_READ
		     : o->rw == RW_WRITE || o->rw == RW_RANDWRITE ? DIR_WRITE
		     : o->rw == RW_TRIM || o->rw == RW_RANDTRIM ? DIR_TRIM
		     : o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE ? DIR_WRITE : -1;
	t->trimwrite = o->rw == RW_TRIMWRITE || o->rw == RW_RANDTRIMWRITE;
	t->trim_pending = false;
	t->seed = (uint64_t)o->randseed;
	/* fio's last_block: random offsets in units of ba, the last one
	 * leaving room for the smallest I/O */
	t->unit = t->random && o->ba ? o->ba : t->min_bs;
	t->blocks = (job->per_file - (t->min_bs > t->unit ? t->min_bs - t->unit : 0)) / t->unit;
	t->total_blocks = t->blocks * (uint64_t)t->nfiles;
	if (io_errors(o, &t->errs))
		return -1;
	/* fio: strided zones only with one file open at a time */
	t->zoned = o->zonemode == ZONEMODE_STRIDED &&
		   (o->openfiles ? o->openfiles : o->nrfiles) == 1;
	t->zone_size = (uint64_t)o->zonesize;
	t->zone_range = o->zonerange ? (uint64_t)o->zonerange : t->zone_size;
	t->zone_skip = (uint64_t)o->zoneskip;
	t->pass_bytes = job->per_file * (uint64_t)t->nfiles;
	t->sync_every = (uint64_t)(o->fsync ? o->fsync : o->fdatasync);
	t->batch_submit = o->iodepth_batch_submit ? (unsigned)o->iodepth_batch_submit : t->depth;
	t->batch_complete = o->iodepth_batch_complete_min ? (unsigned)o->iodepth_batch_complete_min : 1;
	t->batch_complete_max = o->iodepth_batch_complete_max ? (unsigned)o->iodepth_batch_complete_max
							      : t->batch_complete;
	t->depth_low = o->iodepth_low && (unsigned)o->iodepth_low < t->depth ? (unsigned)o->iodepth_low
									      : t->depth;
	if (io_rate_bps(o, t->min_bs, t->rate_bps))
		return -1;
	t->rated = t->rate_bps[0] || t->rate_bps[1];
	memcpy(t->rmin_bps, o->parsed.rate_min, sizeof(t->rmin_bps));
	memcpy(t->rmin_iops, o->parsed.rate_iops_min, sizeof(t->rmin_iops));
	t->rmin_on = t->rmin_bps[0] || t->rmin_bps[1] || t->rmin_iops[0] || t->rmin_iops[1];
	t->rmin_cycle_ns = (uint64_t)o->rate_cycle * 1000000ULL;
	t->max_ios = o->number_ios ? sat_mul((uint64_t)o->number_ios, (uint64_t)o->loops) : 0;
	t->seq_add = o->parsed.seq_add;
	t->think_ns = (uint64_t)(o->thinktime * 1e9);
	/* fio spins at most the whole stall */
	t->think_spin_ns = (uint64_t)(fmin(o->thinktime_spin, o->thinktime) * 1e9);
	rng_seed(&t->rate_rng, t->seed ^ 0x7261746555ULL ^ (uint64_t)t->seq);
	data_spec_of(o, &t->data);
	/* fio refills for verify and for a compression percentage, and
	 * scrambles only random data (not zeros or a pattern) */
	t->refill = (o->refill_buffers || t->verify || t->data.kind == DATA_COMPRESS) &&
		    !t->vpat.pattern_len;	/* verify_pattern is the data, laid per write */
	t->scramble = !t->refill && !t->verify && o->scramble_buffers && t->data.kind == DATA_RANDOM;
	rng_seed(&t->rng, t->seed + (uint64_t)t->seq);
	/* fio: dedupe_percentage refills every write and never scrambles */
	io_dedupe_init(&t->dedupe, o, t->min_bs, t->seq);
	if (t->dedupe.pct)
		t->refill = t->scramble = false;

	t->files = calloc((size_t)t->nfiles, sizeof(*t->files));
	t->reqs = calloc(t->depth, sizeof(*t->reqs));
	t->free_reqs = calloc(t->depth, sizeof(*t->free_reqs));
	t->pending = calloc(t->depth, sizeof(*t->pending));
	if (t->verify)
		t->written = calloc((size_t)(t->total_blocks + 7) / 8, 1);
	if (t->verify && t->max_bs != t->min_bs && io_has_writes(o) &&
	    !(t->wlen = calloc((size_t)t->total_blocks, sizeof(*t->wlen))))
		return error_set("out of memory for the verify spans of %llu blocks",
				 (unsigned long long)t->total_blocks);
	if (t->verify && o->verify_backlog && io_has_writes(o)) {
		/* room for a pass of blocks and the writes in flight; a
		 * batch below the backlog can pile up more (backlog_add's
		 * error) */
		t->backlog = (uint64_t)o->verify_backlog;
		t->backlog_batch = o->verify_backlog_batch ? (uint64_t)o->verify_backlog_batch
							   : t->backlog;
		t->hist_cap = t->total_blocks + t->depth;
		t->hist = calloc((size_t)t->hist_cap, sizeof(*t->hist));
		t->hist_at = calloc(t->depth, sizeof(*t->hist_at));
		if (!t->hist || !t->hist_at)
			return error_set("out of memory for verify_backlog's %llu blocks",
					 (unsigned long long)t->hist_cap);
	}
	if (t->dist.kind != DIST_RANDOM && t->random) {
		t->dstate = calloc((size_t)t->nfiles, sizeof(*t->dstate));
		if (!t->dstate)
			return error_set("out of memory");
		for (int k = 0; k < t->nfiles; k++)
			dist_init(&t->dstate[k], &t->dist, t->blocks,
				  t->seed ^ (0x6469737400000000ULL + ((uint64_t)t->seq << 20) + (uint64_t)k),
				  k ? &t->dstate[0] : id ? &job->threads[0].dstate[0] : NULL);
	}
	if (t->use_map && t->max_bs != t->min_bs && o->random_generator != RANDGEN_LFSR &&
	    !(t->map = calloc((size_t)(t->total_blocks + 63) / 64, 8)))
		return error_set("out of memory for the random map of %llu blocks",
				 (unsigned long long)t->total_blocks);
	t->log_each = !o->log_avg_msec && (o->write_lat_log[0] || o->write_bw_log[0] ||
					   o->write_iops_log[0]);
	if (winbuf_init(&t->wb, IO_WIN_CAP))
		return -1;
	struct io_pct_on pct = io_pct_on(o);
	if ((t->async && pct.lat && !(t->lat_h = calloc(IO_DIRS, sizeof(*t->lat_h)))) ||
	    (t->async && pct.slat && !(t->slat_h = calloc(IO_DIRS, sizeof(*t->slat_h)))))
		return error_set("out of memory for the latency percentiles");
	if (io_prio_table(o, t->prio_value, t->prio_index) > 1) {
		t->cmdprio_on = true;
		t->cmdprio_pct = (unsigned)o->cmdprio_percentage;
		rng_seed(&t->prio_rng, t->seed ^ 0x70726970ULL ^ (uint64_t)t->seq);
		if (!(t->prio_h = calloc(IO_DIRS, sizeof(*t->prio_h))))
			return error_set("out of memory for the per-priority latencies");
	}
	t->plain = !t->no_clat && !t->no_lat && !t->no_slat && !t->no_bw && !t->lat_h &&
		   !t->slat_h && !t->prio_h;
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
		/* fio's offset_increment: each thread of the job its own region */
		f->base = sat_add(o->offset, sat_mul(o->offset_increment, (uint64_t)id));
		f->size = job->per_file;
		if (io_job_path(o, job->dir, id, k, f->path, sizeof(f->path), &f->rel))
			return -1;
	}
	return 0;
}

/* A file's set-up: laid out (once, for a file the threads share) and
 * opened; a file-operation engine's is not opened, and one that makes its
 * files (filecreate) must find none there. */
static int set_up_file(struct io_job *job, struct io_thread *t, struct io_file *f, int thread)
{
	struct stat st;

	if (job->ops->flags & ENGINE_MAKES_FILES) {
		if (!lstat(f->path, &st))
			return error_set("%s is there already: ioengine=%s creates its files, and "
					 "fsbench does not take one it did not make: remove it",
					 f->path, job->ops->name);
		return 0;
	}
	/* a shared file once, unless each thread has its region of it */
	if (thread == 0 || !job->o.filename[0] || job->o.offset_increment) {
		if (lay_out(job, t, f))
			return -1;
	} else {	/* the first thread's file, laid out by it */
		f->dev = job->threads[0].files[f->index].dev;
		f->ino = job->threads[0].files[f->index].ino;
	}
	if (job->ops->flags & ENGINE_FILE_OP)
		return 0;
	return open_for_io(job, f);
}

/* Unlink path if it still leads to what fsbench made there (the same
 * device and inode; ino 0: not known, so never): what has replaced it
 * since is not fsbench's.  -1 with errno when the unlink fails. */
static int unlink_ours(const char *path, uint64_t dev, uint64_t ino)
{
	struct stat st;

	if (!ino || lstat(path, &st) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
		return 0;
	return unlink(path);
}

static void remove_ours(struct io_file *f)
{
	if (!f->created)
		return;
	f->created = false;
	unlink_ours(f->path, f->dev, f->ino);
	f->ino = 0;
}

int io_made_remove(struct io_made *m)
{
	int rc = 0;

	for (int i = 0; i < m->n; i++) {
		if (!m->keep && !m->f[i].named &&
		    unlink_ours(m->f[i].path, m->f[i].dev, m->f[i].ino) && !rc)
			rc = error_errno("removing %s", m->f[i].path);
		free(m->f[i].path);
	}
	free(m->f);
	memset(m, 0, sizeof(*m));
	return rc;
}

/* The job's files it made go on m (identity and all) rather than being
 * removed at io_job_close; -1 (error set) when the list cannot grow. */
int io_job_hand_over(struct io_job *job, struct io_made *m)
{
	if (job->o.unlink)	/* fio's unlink=1: removed at the job's end */
		return 0;
	for (int i = 0; i < job->nthreads; i++)
		for (int k = 0; k < job->threads[i].nfiles; k++) {
			struct io_file *f = &job->threads[i].files[k];
			if (!f->created || !f->ino)
				continue;
			if (m->n == m->cap) {
				int cap = m->cap ? 2 * m->cap : 16;
				void *p = realloc(m->f, (size_t)cap * sizeof(*m->f));
				if (!p)
					return error_set("out of memory");
				m->f = p;
				m->cap = cap;
			}
			char *path = strdup(f->path);
			if (!path)
				return error_set("out of memory");
			m->f[m->n++] = (struct io_made_file){ path, f->dev, f->ino,
							      job->o.filename[0] || job->o.directory[0] };
			f->created = false;
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
			remove_ours(&t->files[k]);
		}
		free(t->files);
		free(t->lat_h);
		free(t->slat_h);
		free(t->prio_h);
		free(t->reqs);
		free(t->free_reqs);
		free(t->pending);
		free(t->written);
		free(t->wlen);
		free(t->hist);
		free(t->hist_at);
		free(t->vtemplate);
		free(t->map);
		free(t->dstate);
		free(t->bufmem);
		winbuf_free(&t->wb);
		for (unsigned c = 0; c < t->nchunks; c++)
			free(t->chunks[c]);
		free(t->chunks);
	}
	free(job->threads);
	io_replay_close(job);
	free(job);
}

int io_job_open(const struct io_options *o, const char *dir, struct io_job **out)
{
	return io_job_open_at(o, dir, 0, NULL, 0, NULL, out);
}

int io_job_open_at(const struct io_options *o, const char *dir, int first_thread,
		   struct io_job *const *peers, int npeers, const struct io_made *made,
		   struct io_job **out)
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
	job->first_thread = first_thread;
	job->peers = peers;
	job->npeers = npeers;
	job->made = made;
	str_copy(job->dir, sizeof(job->dir), dir);
	job->ops = engine_at(o->ioengine);
	if (!job->ops) {
		free(job);
		return error_set("unknown ioengine %d", o->ioengine);
	}
	if (io_verify_mode(o) && (job->ops->flags & (ENGINE_NO_DATA | ENGINE_FAKE_IO))) {
		const char *name = job->ops->name;	/* static */
		free(job);
		return error_set("option 'verify' needs an engine that moves data, not ioengine=%s",
				 name);
	}
	job->nthreads = (int)o->numjobs;
	job->nfiles = (int)o->nrfiles;
	io_block_sizes(o, &min_bs, &max_bs);
	if (o->fill_device) {	/* fio: size "really large", ENOSPC ends the job */
		struct statvfs sv;
		if (statvfs(dir, &sv)) {
			free(job);
			return error_errno("fill_device: statvfs %s", dir);
		}
		job->o.size = (uint64_t)sv.f_bavail * sv.f_frsize / (uint64_t)job->nthreads + min_bs;
		o = &job->o;
	}
	job->per_file = o->size / (uint64_t)job->nfiles;
	job->per_file -= job->per_file % min_bs;
	if (!job->per_file) {
		free(job);
		return error_set("size=%llu is less than one block (bs=%llu) per file: raise size=",
				 (unsigned long long)o->size, (unsigned long long)min_bs);
	}
	if (io_replay_open(job)) {
		free(job);
		return -1;
	}
	job->threads = calloc((size_t)job->nthreads, sizeof(*job->threads));
	if (!job->threads) {
		io_replay_close(job);
		free(job);
		return error_set("out of memory");
	}
	for (int i = 0; i < job->nthreads; i++)
		if (setup_thread(job, &job->threads[i], i))
			goto fail;
	/* fio's null engine is diskless (FIO_DISKLESSIO): no file is made, laid
	 * out or opened (every fd stays -1), so nothing reaches the target. */
	if (job->ops->flags & ENGINE_NO_DATA) {
		*out = job;
		return 0;
	}
	if (!(job->ops->flags & ENGINE_MAKES_FILES) && check_space(job))
		goto fail;
	for (int i = 0; i < job->nthreads; i++)
		for (int k = 0; k < job->threads[i].nfiles; k++)
			if (set_up_file(job, &job->threads[i], &job->threads[i].files[k], i))
				goto fail;
	*out = job;
	return 0;
fail:
	io_job_close(job);
	return -1;
}

int io_job_refresh(struct io_job *job)
{
	if (!(job->ops->flags & ENGINE_FILE_OP))
		return 0;
	for (int i = 0; i < job->nthreads; i++)
		for (int k = 0; k < job->threads[i].nfiles; k++) {
			struct io_file *f = &job->threads[i].files[k];
			struct stat st;
			if (job->ops->flags & ENGINE_MAKES_FILES)
				remove_ours(f);
			else if (lstat(f->path, &st) && errno == ENOENT &&
				 set_up_file(job, &job->threads[i], f, i))
				return -1;
		}
	return 0;
}
