/*
 * ager.c: the aging sequence and its measurement (ager.h).
 *
 * The live files are kept in birth order (a deleted one leaves a
 * tombstone, swept out when half the table is tombstones), so "one of the
 * youngest tenth" is a draw from the table's tail.  Data comes from one
 * random pool made once, each write starting at a drawn offset in it: no
 * per-write allocation or generation, so the ager's own CPU stays far
 * below the kernel's.  Nothing is fsync'd unless the profile says so.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ager.h"
#include "../core/cpu.h"
#include "../core/error.h"
#include "../core/pattern.h"
#include "../core/stop.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define POOL (8u << 20)
#define CHUNK (1u << 20)
#define DIR_FAN 64u	/* names per level of the directory tree */

struct live {
	uint64_t id, size;
	uint32_t dir;
	int dead;
};

struct ager {
	const struct age_profile *p;
	struct rng r;
	int root;
	char *pool;
	struct live *f;
	size_t n, cap, dead;
	uint64_t next_id, live_bytes, written;
	unsigned char *made;	/* directories made, by index */
	uint32_t ndirs_made;
	struct age_result *res;
};

static double uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t draw_size(struct ager *a)
{
	const struct age_profile *p = a->p;
	double total = 0, x;
	int i;

	for (i = 0; i < p->nsizes; i++)
		total += p->sizes[i].weight;
	x = uniform(&a->r) * total;
	for (i = 0; i < p->nsizes - 1 && x >= p->sizes[i].weight; i++)
		x -= p->sizes[i].weight;
	/* log-uniform in [lo, hi] */
	double lo = log((double)p->sizes[i].lo), hi = log((double)p->sizes[i].hi + 1);
	uint64_t s = (uint64_t)exp(lo + uniform(&a->r) * (hi - lo));
	return s < p->sizes[i].lo ? p->sizes[i].lo : s > p->sizes[i].hi ? p->sizes[i].hi : s;
}

/* Directory index k's path, levels of DIR_FAN names, depth deep. */
static void dir_path(const struct ager *a, uint32_t k, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned l = a->p->depth; l > 0; l--) {
		/* DIR_FAN^(l-1) in 64 bits: past 64^5 it is beyond any index
		 * (a uint32_t of pow(64, 6) was 0: SIGFPE at depth 7, issue 69) */
		uint64_t div = 1;
		for (unsigned e = 1; e < l && div <= UINT32_MAX; e++)
			div *= DIR_FAN;
		unsigned digit = (unsigned)((k / div) % DIR_FAN);
		used += (size_t)snprintf(out + used, len - used, "%sd%02u", used ? "/" : "", digit);
	}
}

static void file_path(const struct ager *a, const struct live *f, char *out, size_t len)
{
	char d[64];

	dir_path(a, f->dir, d, sizeof(d));
	snprintf(out, len, "%s%sf%08llx", d, d[0] ? "/" : "", (unsigned long long)f->id);
}

/* Make directory k and its parents (each once): 0, 1 when the filesystem
 * is full (a directory takes space too), or -1 with the error set. */
static int make_dir(struct ager *a, uint32_t k)
{
	char d[64];

	if (!a->p->depth || a->made[k])
		return 0;
	dir_path(a, k, d, sizeof(d));
	for (char *s = d;; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			*s = '\0';
			if (mkdirat(a->root, d, 0755) && errno != EEXIST)
				return errno == ENOSPC ? 1 : error_errno("aging: mkdir %s", d);
			*s = c;
			if (!c)
				break;
		}
	}
	a->made[k] = 1;
	return 0;
}

static uint32_t ndirs(const struct ager *a)
{
	uint64_t want = a->n / (a->p->files_per_dir ? a->p->files_per_dir : 1) + 1, max = 1;

	for (unsigned l = 0; l < a->p->depth && max < (1u << 20); l++)
		max *= DIR_FAN;
	if (!a->p->depth)
		return 1;
	return (uint32_t)(want < max ? want : max);
}

/* Write len bytes at off of fd from the pool. */
static int fill(struct ager *a, int fd, uint64_t off, uint64_t len)
{
	while (len) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK;
		size_t at = (size_t)rng_below(&a->r, POOL - n + 1);
		ssize_t w = pwrite(fd, a->pool + at, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (uint64_t)w;
		len -= (uint64_t)w;
		a->written += (uint64_t)w;
	}
	return 0;
}

static int finish_fd(struct ager *a, int fd)
{
	int rc = a->p->fsync && fsync(fd) ? -1 : 0;

	return close(fd) || rc ? -1 : 0;
}

/* fill, then finish_fd whatever fill did: -1 with errno the first failure's. */
static int write_and_close(struct ager *a, int fd, uint64_t off, uint64_t len)
{
	int rc = fill(a, fd, off, len), e = errno;

	if (finish_fd(a, fd) && !rc)
		return -1;
	errno = e;
	return rc;
}

/* A live file: uniform, or among the youngest tenth. */
static struct live *pick(struct ager *a, int young)
{
	if (a->n == a->dead)
		return NULL;
	for (int tries = 0;; tries++) {
		size_t lo = young ? a->n - (a->n + 9) / 10 : 0;
		struct live *f = &a->f[lo + rng_below(&a->r, a->n - lo)];
		if (!f->dead)
			return f;
		if (tries >= 64)
			young = 0;	/* the tail is tombstones: any live file */
	}
}

static void sweep(struct ager *a)
{
	size_t k = 0;

	for (size_t i = 0; i < a->n; i++)
		if (!a->f[i].dead)
			a->f[k++] = a->f[i];
	a->n = k;
	a->dead = 0;
}

static int op_create(struct ager *a)
{
	char path[128];
	struct live f = { a->next_id++, draw_size(a), 0, 0 };
	int fd;

	f.dir = (uint32_t)rng_below(&a->r, ndirs(a));
	int full = make_dir(a, f.dir);
	if (full)
		return full;
	if (a->n == a->cap) {
		size_t ncap = a->cap ? a->cap * 2 : 4096;
		struct live *nf = realloc(a->f, ncap * sizeof(*nf));
		if (!nf)
			return error_set("aging: out of memory for %zu files", ncap);
		a->f = nf;
		a->cap = ncap;
	}
	file_path(a, &f, path, sizeof(path));
	fd = openat(a->root, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == ENOSPC ? 1 : error_errno("aging: create %s", path);
	if (write_and_close(a, fd, 0, f.size)) {
		int e = errno;
		unlinkat(a->root, path, 0);
		if (e == ENOSPC)
			return 1;
		errno = e;
		return error_errno("aging: write %s", path);
	}
	a->f[a->n++] = f;
	a->live_bytes += f.size;
	return 0;
}

static int op_change(struct ager *a, enum age_op op)
{
	struct live *f = pick(a, op == AGE_DELETE && uniform(&a->r) < a->p->young);
	char path[128], to[128];
	int fd;

	if (!f)
		return 0;
	file_path(a, f, path, sizeof(path));
	switch (op) {
	case AGE_APPEND:
	case AGE_OVERWRITE: {
		uint64_t len = draw_size(a) / (op == AGE_APPEND ? 4 : 1) + 1, off = f->size;
		if (op == AGE_OVERWRITE) {
			off = f->size ? rng_below(&a->r, f->size) : 0;
			len = len < f->size - off ? len : f->size - off;
			if (!len)
				return 0;
		}
		fd = openat(a->root, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return error_errno("aging: open %s", path);
		if (write_and_close(a, fd, off, len)) {
			if (errno == ENOSPC) {
				/* what reached the file stays: its size as the kernel says */
				struct stat st;
				if (!fstatat(a->root, path, &st, AT_SYMLINK_NOFOLLOW) &&
				    (uint64_t)st.st_size > f->size) {
					a->live_bytes += (uint64_t)st.st_size - f->size;
					f->size = (uint64_t)st.st_size;
				}
				return 1;
			}
			return error_errno("aging: write %s", path);
		}
		if (off + len > f->size) {
			a->live_bytes += off + len - f->size;
			f->size = off + len;
		}
		return 0;
	}
	case AGE_TRUNCATE: {
		uint64_t to_size = f->size ? rng_below(&a->r, f->size) : 0;
		fd = openat(a->root, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)to_size)) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			errno = e;
			/* a copy-on-write or log-structured filesystem may
			 * need room to cut a file short */
			return e == ENOSPC ? 1 : error_errno("aging: truncate %s", path);
		}
		close(fd);
		a->live_bytes -= f->size - to_size;
		f->size = to_size;
		return 0;
	}
	case AGE_RENAME: {
		struct live moved = *f;
		moved.dir = (uint32_t)rng_below(&a->r, ndirs(a));
		int full = make_dir(a, moved.dir);
		if (full)
			return full;
		file_path(a, &moved, to, sizeof(to));
		if (renameat(a->root, path, a->root, to))
			return errno == ENOSPC ? 1 : error_errno("aging: rename %s", path);
		f->dir = moved.dir;
		return 0;
	}
	case AGE_DELETE:
		if (unlinkat(a->root, path, 0))
			return error_errno("aging: delete %s", path);
		a->live_bytes -= f->size;
		f->dead = 1;
		if (++a->dead > a->n / 2 && a->n > 1024)
			sweep(a);
		return 0;
	default:
		return 0;
	}
}

static enum age_op choose(struct ager *a, uint64_t target)
{
	const double *w = a->p->ops;
	double total = 0, x;
	int i;

	if (a->live_bytes < target)	/* growing: creates and appends only */
		return uniform(&a->r) < 0.8 ? AGE_CREATE : AGE_APPEND;
	if (a->live_bytes > target + target / 50)
		return AGE_DELETE;	/* held at the fill */
	for (i = 0; i < AGE_OPS; i++)
		total += w[i];
	x = uniform(&a->r) * total;
	for (i = 0; i < AGE_OPS - 1 && x >= w[i]; i++)
		x -= w[i];
	return (enum age_op)i;
}

int age_run(const char *dir, const struct age_opts *o, struct age_result *res)
{
	struct ager a = { .p = o->profile, .res = res };
	uint64_t target = (uint64_t)(o->profile->fill * (double)o->capacity);
	uint64_t total = (uint64_t)(o->profile->churn * (double)o->capacity);
	uint64_t t0 = now_ns(), last = t0;
	struct rusage ru0, ru1;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (o->profile->git)
		return age_git_run(dir, o, res);
	if (!o->capacity)
		return error_set("aging: no capacity to age to");
	a.root = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (a.root < 0)
		return error_errno("aging: %s", dir);
	rng_seed(&a.r, o->seed);
	a.pool = malloc(POOL);
	a.made = calloc(1u << 20, 1);
	if (!a.pool || !a.made) {
		error_set("aging: out of memory");
		goto out;
	}
	for (size_t i = 0; i + 8 <= POOL; i += 8) {
		uint64_t v = rng_next(&a.r);
		memcpy(a.pool + i, &v, 8);
	}
	getrusage(RUSAGE_SELF, &ru0);
	while (a.written < total) {
		enum age_op op = choose(&a, target);
		int r = op == AGE_CREATE ? op_create(&a) : op_change(&a, op);

		if (r < 0)
			goto out;
		/* Full: a filesystem with a cleaner gets the time to give back
		 * what was deleted (the refusal is counted all the same: the
		 * operation did not happen). */
		int back = r > 0 && o->reclaim ? o->reclaim(o->reclaim_arg) : 0;
		if (back < 0)
			goto out;
		/* Full though every file of the aging is gone: the space is not
		 * given back (a log-structured filesystem without its cleaner),
		 * and deleting more cannot help. */
		if (r > 0 && a.n == a.dead && !back) {
			error_set("aging: the filesystem is full though none of the aging's files is "
				  "left (%llu refusals): it does not give deleted space back, or is "
				  "too small for the profile", (unsigned long long)res->enospc + 1);
			goto out;
		}
		if (r > 0) {
			int live = a.n > a.dead;
			res->enospc++;
			/* full: make room the same way next time round */
			if (live && op_change(&a, AGE_DELETE) < 0)
				goto out;
			res->ops[AGE_DELETE] += (uint64_t)live;
		}
		res->ops[op]++;
		if (stop_requested()) {
			error_set("aging: interrupted");
			goto out;
		}
		uint64_t now = now_ns();
		if (o->progress && now - last > 500000000ull) {
			double done = (double)a.written / (double)total;
			o->progress(o->arg, done, done > 0 ? ns_to_s(now - t0) * (1 - done) / done : 0);
			last = now;
		}
	}
	if (syncfs(a.root)) {
		error_errno("aging: syncfs");
		goto out;
	}
	getrusage(RUSAGE_SELF, &ru1);
	res->user_s = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ru0.ru_utime);
	res->sys_s = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ru0.ru_stime);
	res->written = a.written;
	res->live_bytes = a.live_bytes;
	res->live_files = a.n - a.dead;
	res->seconds = ns_to_s(now_ns() - t0);
	rc = 0;
out:
	free(a.pool);
	free(a.made);
	free(a.f);
	close(a.root);
	return rc;
}

/* nftw has no argument: the measurement under way. */
static struct age_result *measuring;

static int measure_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct fiemap fm;
	int fd;

	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	memset(&fm, 0, sizeof(fm));
	fm.fm_length = FIEMAP_MAX_OFFSET;
	fm.fm_flags = FIEMAP_FLAG_SYNC;
	fm.fm_extent_count = 0;	/* count only */
	measuring->files++;
	if (ioctl(fd, FS_IOC_FIEMAP, &fm) == 0) {
		measuring->mapped_files++;
		measuring->extents += fm.fm_mapped_extents;
		if (fm.fm_mapped_extents > 1)
			measuring->frag_files += 1;
	}
	close(fd);
	return 0;
}

int age_measure(const char *dir, struct age_result *r)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return error_errno("aging: statvfs %s", dir);
	r->fullness = sv.f_blocks ? 1.0 - (double)sv.f_bfree / (double)sv.f_blocks : 0;
	r->files = r->mapped_files = r->extents = 0;
	r->frag_files = 0;
	measuring = r;
	if (nftw(dir, measure_one, 32, FTW_PHYS | FTW_MOUNT))
		return error_errno("aging: walking %s", dir);
	r->frag_files = r->mapped_files ? r->frag_files / (double)r->mapped_files : 0;
	age_free_space(dir, r);
	return 0;
}
