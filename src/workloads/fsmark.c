/*
 * fsmark.c: fs_mark 3.3 (Ric Wheeler), as specified in
 * docs/workloads/fsmark.md.
 *
 * Each of `threads` forked workers creates `files` files of `size` bytes in
 * the scratch directory (or its %02x subdirectories), writing them in
 * `write_size` pieces of a zero buffer and syncing them the `sync` way.  The
 * worker's loop clock covers name generation, the per-file mkdir of the
 * subdirectory, creat, writes, fsync/sync and close; unlinks happen after
 * the clock stops (in the parent, once the runner has measured the space
 * the files take).  Files/s is the sum of the workers' rates and App
 * Overhead the loop time not spent in those syscalls, summed over workers,
 * exactly as fs_mark prints them.  fsbench times with CLOCK_MONOTONIC (ns)
 * where fs_mark used gettimeofday (us).
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

struct fsmark_params {
	int64_t files;		/* -n, per worker */
	uint64_t size;		/* -s */
	uint64_t write_size;	/* -w */
	int64_t threads;	/* -t, forked workers */
	int64_t dirs;		/* -D, 0 = no subdirectories */
	int64_t files_per_dir;	/* -N, 0 = time-hash placement */
	int64_t sync;		/* -S 0..6 */
	int64_t name_len;	/* -p */
	int64_t rand_len;	/* -r */
	bool keep;		/* -k */
};

#define P(f) offsetof(struct fsmark_params, f)
static const struct param_def fsmark_params[] = {
	{ "files", PT_INT, P(files), "1000", 1, 1000000, NULL,
	  "files each worker creates (fs_mark -n)", PF_SCALE },
	{ "size", PT_SIZE, P(size), "51200", 0, 1ULL << 40, NULL,
	  "bytes per file (-s)" },
	{ "write_size", PT_SIZE, P(write_size), "16384", 1, 1 << 20, NULL,
	  "bytes per write() call (-w)" },
	{ "threads", PT_INT, P(threads), "1", 1, 1024, NULL,
	  "worker processes, all in the same directory (-t)" },
	{ "dirs", PT_INT, P(dirs), "0", 0, 100000, NULL,
	  "subdirectories %02x to spread files over, 0 = none (-D)" },
	{ "files_per_dir", PT_INT, P(files_per_dir), "0", 0, 1000000, NULL,
	  "files per subdirectory before moving on; 0 = switch every 180 s (-N)" },
	{ "sync", PT_INT, P(sync), "1", 0, 6, NULL,
	  "0 none, 1 fsync before close, 2 sync()+fsync first file, "
	  "3 fsync all in reverse, 4 sync()+3, 5 fsync all in order, 6 sync()+5 (-S)" },
	{ "name_len", PT_INT, P(name_len), "40", 8, 255, NULL,
	  "file name length (-p)" },
	{ "rand_len", PT_INT, P(rand_len), "24", 0, 247, NULL,
	  "random characters at the end of each name (-r)" },
	{ "keep", PT_BOOL, P(keep), "0", 0, 0, NULL,
	  "keep the files instead of unlinking them after the timed loop (-k)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct metric_def fsmark_metrics[] = {
	{ "files_per_sec", "Files/s", HIGHER_IS_BETTER, "Files/s", 1 },
	{ "app_overhead", "usec", LOWER_IS_BETTER, "App Overhead", 0 },
};

static const struct preset fsmark_presets[] = {
	{ "fsmark-1000x1M", "files=1000,size=1M", "Test: 1000 Files, 1MB Size" },
	{ "fsmark-5000x1M-4t", "files=5000,size=1M,threads=4",
	  "Test: 5000 Files, 1MB Size, 4 Threads" },
	{ "fsmark-4000x1M-32d", "files=4000,size=1M,dirs=32",
	  "Test: 4000 Files, 32 Sub Dirs, 1MB Size" },
	{ NULL, NULL, NULL },
};

#define PATH_LEN 4400	/* longest path fsbench builds under a scratch directory */

/* What one worker reports through shared memory. */
struct worker_result {
	uint64_t loop_ns;
	uint64_t syscall_ns;	/* creat + write + fsync + sync + close */
	int64_t done;		/* files created */
	int failed;
	char msg[4700];	/* room for a full path and the error */
};

static int fsmark_validate(const void *p)
{
	const struct fsmark_params *fp = p;

	if (fp->rand_len >= fp->name_len)
		return error_set("parameter 'rand_len': %lld must be less than name_len %lld",
				 (long long)fp->rand_len, (long long)fp->name_len);
	if (fp->dirs == 1)
		return error_set("parameter 'dirs': bad value '1' (use 0 for none or at least 2)");
	if (fp->files_per_dir && !fp->dirs)
		return error_set("parameter 'files_per_dir': needs dirs= (fs_mark -N goes with -D)");
	return 0;
}

static uint64_t fsmark_space(const void *p)
{
	const struct fsmark_params *fp = p;

	/* Each worker checks for its own n x size before its loop. */
	return sat_mul3(sat_u(fp->threads), sat_u(fp->files), fp->size);
}

static void size_text(uint64_t b, char *buf, size_t len)
{
	if (b >= (1 << 20) && b % (1 << 20) == 0)
		snprintf(buf, len, "%lluMB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%lluKB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%lluB", (unsigned long long)b);
}

static void fsmark_describe(const void *p, char *buf, size_t len)
{
	const struct fsmark_params *fp = p;
	char sz[32], dirs[48] = "", thr[32] = "", sync[32] = "";

	size_text(fp->size, sz, sizeof(sz));
	if (fp->dirs)
		snprintf(dirs, sizeof(dirs), "%lld Sub Dirs, ", (long long)fp->dirs);
	if (fp->threads > 1)
		snprintf(thr, sizeof(thr), ", %lld Threads", (long long)fp->threads);
	if (fp->sync != 1)
		snprintf(sync, sizeof(sync), ", Sync Method %lld", (long long)fp->sync);
	snprintf(buf, len, "Test: %lld Files, %s%s Size%s%s", (long long)fp->files,
		 dirs, sz, thr, sync);
}

/* One worker's files: the subdirectory index and the name of each. */
struct names {
	int64_t n;
	int name_len;
	int *sub;		/* -1 = directly in the scratch directory */
	char *base;		/* n x (name_len + 1) */
};

static char *name_at(const struct names *nm, int64_t i)
{
	return nm->base + (size_t)i * (size_t)(nm->name_len + 1);
}

/* Full path of file i, as fs_mark opens it: "<dir>/<subdir>/<name>". */
static void path_of(const char *dir, const struct names *nm, int64_t i, char *out,
		    size_t len)
{
	if (nm->sub[i] >= 0)
		snprintf(out, len, "%s/%02x/%s", dir, nm->sub[i], name_at(nm, i));
	else
		snprintf(out, len, "%s/%s", dir, name_at(nm, i));
}

/* fs_mark's name: the low hex digits of the time in seconds, padded with
 * '~', then random [0-9A-Z] drawn the way fs_mark draws them. */
static void make_name(const struct fsmark_params *fp, time_t now, char *name)
{
	char hex[32];
	int fixed = (int)(fp->name_len - fp->rand_len);
	int n = snprintf(hex, sizeof(hex), "%lx", (unsigned long)now);
	const char *src = n > fixed ? hex + (n - fixed) : hex;
	int k = (int)strlen(src);

	memcpy(name, src, (size_t)k);
	memset(name + k, '~', (size_t)(fixed - k));
	for (int i = 0; i < fp->rand_len; i++) {
		char c;
		do
			c = (char)('0' + (random() & 0x7f));
		while (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')));
		name[fixed + i] = c;
	}
	name[fp->name_len] = '\0';
}

/* fs_mark's directory policy: round-robin `files_per_dir` files per
 * subdirectory, or (without it) move on every 180 seconds. */
struct placement {
	int current, in_current;
	time_t since;
};

static int next_subdir(const struct fsmark_params *fp, struct placement *pl, time_t now)
{
	if (!fp->dirs)
		return -1;
	if (fp->files_per_dir) {
		if (pl->in_current >= fp->files_per_dir) {
			pl->current++;
			pl->in_current = 0;
		}
		pl->current %= (int)fp->dirs;
		pl->in_current++;
	} else if (now - pl->since > 180) {
		pl->current = (pl->current + 1) % (int)fp->dirs;
		pl->since = now;
	}
	return pl->current;
}

/* Record "fsmark: <verb> <name>: <strerror>" for the parent to report. */
static int worker_fail(struct worker_result *r, const char *verb, const char *name)
{
	snprintf(r->msg, sizeof(r->msg), "fsmark: %s %s: %s", verb, name, strerror(errno));
	r->failed = 1;
	return -1;
}

/* open + fsync + close of one file, for the post-loop sync methods. */
static int fsync_file(const char *dir, const struct names *nm, int64_t i,
		      struct worker_result *r)
{
	char path[PATH_LEN];
	int fd;

	path_of(dir, nm, i, path, sizeof(path));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return worker_fail(r, "reopening", path);
	if (fsync(fd)) {
		close(fd);
		return worker_fail(r, "fsync of", path);
	}
	close(fd);
	return 0;
}

static int post_loop_sync(const struct fsmark_params *fp, const char *dir,
			  const struct names *nm, int64_t n, struct worker_result *r)
{
	if (fp->sync == 2 || fp->sync == 4 || fp->sync == 6)
		sync();
	if (fp->sync == 2)
		return n ? fsync_file(dir, nm, 0, r) : 0;
	if (fp->sync == 3 || fp->sync == 4) {
		for (int64_t i = n - 1; i >= 0; i--)
			if (fsync_file(dir, nm, i, r))
				return -1;
	}
	if (fp->sync == 5 || fp->sync == 6) {
		for (int64_t i = 0; i < n; i++)
			if (fsync_file(dir, nm, i, r))
				return -1;
	}
	return 0;
}

static int write_file(const struct fsmark_params *fp, const char *path,
		      const char *buf, struct worker_result *r)
{
	uint64_t t = now_ns(), done = 0;
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0666);

	r->syscall_ns += now_ns() - t;
	if (fd < 0)
		return worker_fail(r, "creating", path);
	while (done < fp->size) {
		size_t chunk = fp->size - done < fp->write_size ?
			       (size_t)(fp->size - done) : (size_t)fp->write_size;
		t = now_ns();
		ssize_t w = write(fd, buf, chunk);
		r->syscall_ns += now_ns() - t;
		if (w <= 0) {
			char what[PATH_LEN + 64];
			if (w == 0)
				errno = ENOSPC;
			snprintf(what, sizeof(what), "%s after %llu of %llu bytes", path,
				 (unsigned long long)done, (unsigned long long)fp->size);
			close(fd);
			return worker_fail(r, "writing", what);
		}
		done += (uint64_t)w;
	}
	if (fp->sync == 1) {
		t = now_ns();
		int rc = fsync(fd);
		r->syscall_ns += now_ns() - t;
		if (rc) {
			close(fd);
			return worker_fail(r, "fsync of", path);
		}
	}
	t = now_ns();
	int rc = close(fd);
	r->syscall_ns += now_ns() - t;
	if (rc)
		return worker_fail(r, "closing", path);
	return 0;
}

static void worker(const struct fsmark_params *fp, const char *dir,
		   struct worker_result *r)
{
	struct names nm = { fp->files, (int)fp->name_len, NULL, NULL };
	char *buf = calloc(1, (size_t)fp->write_size);
	char path[PATH_LEN];
	struct timeval tv;
	uint64_t t0;

	nm.sub = calloc((size_t)fp->files, sizeof(int));
	nm.base = calloc((size_t)fp->files, (size_t)fp->name_len + 1);
	if (!nm.sub || !nm.base || !buf) {
		snprintf(r->msg, sizeof(r->msg), "fsmark: out of memory for %lld file names",
			 (long long)fp->files);
		r->failed = 1;
		goto out;
	}
	gettimeofday(&tv, NULL);
	/* fs_mark seeds each worker with the microseconds alone; two workers
	 * forked in the same microsecond (a loaded machine) then draw the
	 * same names in the same second and write one another's files.  The
	 * pid keeps them apart; the names' form is fs_mark's. */
	srandom((unsigned)tv.tv_usec ^ ((unsigned)getpid() << 16));
	struct placement pl = { fp->dirs ? (int)(tv.tv_sec % fp->dirs) : 0, 0, tv.tv_sec };

	t0 = now_ns();
	for (int64_t i = 0; i < fp->files && !workload_stopped(); i++) {
		/* As fs_mark: read the time, pick the directory, mkdir it
		 * (every file, EEXIST ignored), all inside the loop clock. */
		time_t now = time(NULL);
		nm.sub[i] = next_subdir(fp, &pl, now);
		if (nm.sub[i] >= 0)
			snprintf(path, sizeof(path), "%s/%02x/", dir, nm.sub[i]);
		else
			snprintf(path, sizeof(path), "%s/", dir);
		if (mkdir(path, 0777) && errno != EEXIST) {
			worker_fail(r, "mkdir", path);
			break;
		}
		make_name(fp, now, name_at(&nm, i));
		path_of(dir, &nm, i, path, sizeof(path));
		r->done = i + 1;	/* a partial file is unlinked too */
		if (write_file(fp, path, buf, r))
			break;
	}
	if (!r->failed && !workload_stopped()) {
		uint64_t t = now_ns();
		post_loop_sync(fp, dir, &nm, r->done, r);
		r->syscall_ns += now_ns() - t;
	}
	r->loop_ns = now_ns() - t0;

out:
	free(nm.sub);
	free(nm.base);
	free(buf);
}

/* fs_mark's unlink pass, after every worker's clock has stopped: the
 * files only (the %02x directories stay, as fs_mark leaves them). */
static void remove_files(const char *dir)
{
	char *const paths[] = { (char *)dir, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_XDEV | FTS_NOCHDIR, NULL);
	FTSENT *e;

	if (!fts)
		return;
	while ((e = fts_read(fts)))
		if (e->fts_info == FTS_F || e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE)
			unlink(e->fts_path);
	fts_close(fts);
}

/* Reap every worker; on interruption pass the signal on first. */
static void reap(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		while (pids[i] > 0 && waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			if (workload_stopped())
				for (int j = i; j < n; j++)
					kill(pids[j], SIGTERM);
	}
}

static int fsmark_run(struct wl_ctx *ctx, double *values)
{
	const struct fsmark_params *fp = ctx->params;
	int n = (int)fp->threads, rc = 0;
	size_t shm_len = sizeof(struct worker_result) * (size_t)n;
	struct worker_result *res;
	pid_t *pids;

	res = mmap(NULL, shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return error_errno("fsmark: mmap");
	pids = calloc((size_t)n, sizeof(*pids));
	if (!pids) {
		munmap(res, shm_len);
		return error_set("out of memory");
	}
	memset(res, 0, shm_len);
	for (int i = 0; i < n; i++) {
		pids[i] = fork_worker();
		if (pids[i] == 0) {
			worker(fp, ctx->dir, &res[i]);
			_exit(res[i].failed ? 1 : 0);
		}
		if (pids[i] < 0) {
			rc = error_errno("fsmark: fork");
			for (int j = 0; j < i; j++)
				kill(pids[j], SIGTERM);
			n = i;
			break;
		}
	}
	reap(pids, n);

	double rate = 0, overhead_us = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (res[i].failed)
			rc = error_set("%s", res[i].msg);
		else if (res[i].loop_ns)
			rate += (double)res[i].done / ns_to_s(res[i].loop_ns);
		overhead_us += (double)(res[i].loop_ns - res[i].syscall_ns) / 1e3;
	}
	if (!rc && workload_stopped())
		rc = error_set("fsmark: interrupted");
	int64_t files = 0;
	for (int i = 0; i < n; i++)
		files += res[i].done;
	ctx->bytes_written = (int64_t)sat_mul(sat_u(files), fp->size);
	ctx->bytes_read = 0;
	if (!rc)
		workload_data_complete(ctx);
	if (!fp->keep || rc)
		remove_files(ctx->dir);
	values[0] = rate;
	values[1] = overhead_us;
	free(pids);
	munmap(res, shm_len);
	return rc;
}

const struct workload wl_fsmark = {
	.name = "fsmark",
	.summary = "fs_mark 3.3: create files of a fixed size, fsync, close; Files/s",
	.title = "FS-Mark 3.3",
	.params = fsmark_params,
	.params_size = sizeof(struct fsmark_params),
	.metrics = fsmark_metrics,
	.nmetrics = 2,
	.presets = fsmark_presets,
	.validate = fsmark_validate,
	.space_needed = fsmark_space,
	.describe = fsmark_describe,
	.run = fsmark_run,
};
