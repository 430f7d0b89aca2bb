/*
 * tree.c: seed 001's afternoon with a USB stick, as one workload: restore a
 * tar backup onto the target (then sync), copy the restored tree with a
 * recursive copy (then sync), read every byte back cold, delete it all
 * (then sync).  Each phase is timed (seconds, Lower Is Better, and MB/s)
 * with its user and system CPU, like seed 001's real/user/sys.
 *
 * The backup is a deterministic corpus -- `files` files totalling `size`
 * bytes in `dirs` directories, sizes drawn like seed 001's thumbnail
 * folder (log-normal, ~57 KiB average, long tail), contents incompressible
 * like JPEGs -- written once with libarchive as a real tar file in a cache
 * directory that is not on the target, and reused across targets and runs
 * (the file name carries every parameter).  A checksum list beside it lets
 * the read phase verify every file; a mismatch fails the run loudly.
 *
 * Unlike `tar cf - dir >/dev/null` (GNU tar skips reading file data when
 * its output is /dev/null) the read phase reads every byte, in tar's 10 KiB
 * records.  The copy reads and writes the data as cp did in 2013 (a buffer
 * per file, 128 KiB or the file's size); reflink=auto tries FICLONE first,
 * as coreutils 9 does, and the sample detail says which happened.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/cache.h"
#include "../core/cpu.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct tree_params {
	int64_t files, dirs, seed;
	uint64_t size;
	int reflink;		/* 0 never, 1 auto */
	char cache[PARAM_STR_MAX];
};

#define P(x) offsetof(struct tree_params, x)
static const struct param_def tree_params[] = {
	{ "files", PT_INT, P(files), "2000", 1, 10000000, NULL, "files in the corpus", PF_SCALE },
	{ "size", PT_SIZE, P(size), "125M", 1, 1ULL << 42, NULL, "total bytes of the corpus", PF_SCALE },
	{ "dirs", PT_INT, P(dirs), "20", 1, 100000, NULL, "directories the files are spread over" },
	{ "seed", PT_INT, P(seed), "1", 0, 2147483647, NULL, "corpus generator seed" },
	{ "reflink", PT_ENUM, P(reflink), "never", 0, 0, "never|auto",
	  "copy: never (read + write, as cp in 2013) or auto (try FICLONE first, as cp 9)" },
	PARAM_STRING("cache", struct tree_params, cache, "",
		     "corpus cache directory (default ~/.cache/fsbench); must not be the target"),
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

enum { PH_RESTORE, PH_COPY, PH_READ, PH_DELETE, NPHASES };

/* Per phase: seconds (the restore time is the headline), MB/s, CPU. */
#define PHASE_METRICS(name, label, primary)                                          \
	{ name "_s", "s", LOWER_IS_BETTER, label " time", primary },                    \
	{ name "_mbs", "MB/s", HIGHER_IS_BETTER, label " MB/s", 0 },                     \
	{ name "_user_s", "s", LOWER_IS_BETTER, label " user CPU", 0 },                 \
	{ name "_sys_s", "s", LOWER_IS_BETTER, label " sys CPU", 0 }

/* delete has no MB/s: removing files moves no data (seed 001 gives its
 * rm times alone) */
static const struct metric_def tree_metrics_tab[] = {
	PHASE_METRICS("restore", "restore", 1), PHASE_METRICS("copy", "copy", 0),
	PHASE_METRICS("read", "read", 0),
	{ "delete_s", "s", LOWER_IS_BETTER, "delete time", 0 },
	{ "delete_user_s", "s", LOWER_IS_BETTER, "delete user CPU", 0 },
	{ "delete_sys_s", "s", LOWER_IS_BETTER, "delete sys CPU", 0 },
};
#define TREE_NMETRICS (4 * NPHASES - 1)

static const struct preset tree_presets[] = {
	{ "tree-seed001-restore", "files=23685,size=2154M,dirs=16", NULL },
	{ "tree-thumbnails", "files=20032,size=1130M,dirs=16", NULL },
	{ NULL, NULL, NULL },
};

/* ---- the corpus ---------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* File sizes: log-normal (sigma 0.8, seed 001's thumbnails have a long
 * tail), scaled so they add up to exactly `total`. */
static uint64_t *corpus_sizes(const struct tree_params *p)
{
	uint64_t *sz = calloc((size_t)p->files, sizeof(*sz)), s = (uint64_t)p->seed, sum = 0;
	double *w = malloc(sizeof(*w) * (size_t)p->files), wsum = 0;

	if (!sz || !w) {
		free(sz);
		free(w);
		return NULL;
	}
	for (int64_t i = 0; i < p->files; i++) {
		double u1 = ((double)(splitmix(&s) >> 11) + 1) / 9007199254740993.0;
		double u2 = (double)(splitmix(&s) >> 11) / 9007199254740992.0;
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		w[i] = exp(0.8 * z);
		wsum += w[i];
	}
	for (int64_t i = 0; i < p->files; i++) {
		sz[i] = (uint64_t)floor(w[i] / wsum * (double)p->size);
		sum += sz[i];
	}
	for (int64_t i = 0; sum < p->size; i = (i + 1) % p->files, sum++)
		sz[i]++;	/* the rounding remainder, a byte each */
	free(w);
	return sz;
}

static void corpus_name(const struct tree_params *p, int64_t i, char *buf, size_t len)
{
	snprintf(buf, len, "corpus/d%03lld/f%06lld.jpg", (long long)(i % p->dirs), (long long)i);
}

/* Incompressible content of file i, block by block. */
static void corpus_fill(const struct tree_params *p, int64_t i, uint64_t off, char *buf, size_t n)
{
	uint64_t s = ((uint64_t)p->seed << 32) ^ (uint64_t)i * 0x100000001b3ULL ^ (off >> 16);

	for (size_t k = 0; k < n; k += 8) {
		uint64_t v = splitmix(&s);
		memcpy(buf + k, &v, n - k < 8 ? n - k : 8);
	}
}

/* A cache directory candidate that fsbench may use: ours, not a symlink,
 * not writable by others (it may sit in a shared place like /dev/shm). */
static int usable_cache(const char *dir, dev_t avoid)
{
	struct stat st;

	mkdir(dir, 0700);
	return !lstat(dir, &st) && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & 022) && st.st_dev != avoid;
}

/* Where the corpus lives: cache= when given; else the first of the user's
 * cache directory, memory (/dev/shm) and /var/tmp that is not on the
 * filesystem under test, since reading the source from the disk being
 * written would measure something else.  *chosen says why when the
 * first choice was not taken. */
static int cache_paths(const struct tree_params *p, const char *target, char *dir, char *tar,
		       char *sums, size_t len, char *chosen, size_t clen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char cands[3][4200];
	struct stat t;

	chosen[0] = '\0';
	if (stat(target, &t))
		return error_errno("tree: %s", target);
	if (p->cache[0]) {
		snprintf(dir, len, "%s", p->cache);
		mkdir(dir, 0755);
	} else {
		if (xdg && *xdg)
			snprintf(cands[0], sizeof(cands[0]), "%.4000s/fsbench", xdg);
		else
			snprintf(cands[0], sizeof(cands[0]), "%.4000s/.cache/fsbench",
				 home && *home ? home : "/var/tmp");
		snprintf(cands[1], sizeof(cands[1]), "/dev/shm/fsbench-cache-%d", (int)geteuid());
		snprintf(cands[2], sizeof(cands[2]), "/var/tmp/fsbench-cache-%d", (int)geteuid());
		int k = 0;
		if (!xdg || !*xdg) {	/* ~/.cache itself may be missing */
			char parent[4200];
			snprintf(parent, sizeof(parent), "%.4000s/.cache", home && *home ? home : "/var/tmp");
			mkdir(parent, 0700);
		}
		while (k < 3 && !usable_cache(cands[k], t.st_dev))
			k++;
		if (k == 3)
			return error_set("tree: no place for the corpus off the filesystem under test "
					 "(tried %s, %s, %s): set cache= to a directory on another filesystem",
					 cands[0], cands[1], cands[2]);
		snprintf(dir, len, "%s", cands[k]);
		if (k)
			snprintf(chosen, clen, "%s is on the filesystem under test, so the corpus is in %s%s",
				 cands[0], cands[k], k == 1 ? " (memory)" : "");
	}
	snprintf(tar, len, "%.4000s/corpus-v1-%lld-%llu-%lld-%lld.tar", dir, (long long)p->files,
		 (unsigned long long)p->size, (long long)p->dirs, (long long)p->seed);
	snprintf(sums, len, "%.4000s/corpus-v1-%lld-%llu-%lld-%lld.sums", dir, (long long)p->files,
		 (unsigned long long)p->size, (long long)p->dirs, (long long)p->seed);
	return 0;
}

#define BLOCK (128 * 1024)

/* Write the corpus tar (and its checksum list) unless the cache has it. */
static int corpus_make(const struct tree_params *p, const char *tar, const char *sums)
{
	char tmp[4400], tmps[4400], name[128], *buf = NULL;
	struct archive *a = NULL;
	struct archive_entry *e = NULL;
	uint64_t *sz = NULL;
	FILE *fs = NULL;
	int rc = -1, tfd = -1, made_tmp = 0, made_tmps = 0, sfd;

	if (!access(tar, R_OK) && !access(sums, R_OK))
		return 0;
	/* The cache may be a shared directory: new files only (mkostemp's
	 * O_EXCL: no symlink followed), named by mkostemp, not by the pid,
	 * which another fsbench in a PID namespace of its own shares. */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", tar);
	snprintf(tmps, sizeof(tmps), "%s.XXXXXX", sums);
	sz = corpus_sizes(p);
	buf = malloc(BLOCK);
	a = archive_write_new();
	sfd = mkostemp(tmps, O_CLOEXEC);
	made_tmps = sfd >= 0;
	if (sfd >= 0)
		fchmod(sfd, 0644);
	fs = sfd >= 0 ? fdopen(sfd, "w") : NULL;
	if (sfd >= 0 && !fs)
		close(sfd);
	if (!sz || !buf || !a || !fs) {
		error_errno("tree: cannot prepare the corpus in %s", tmps);
		goto out;
	}
	tfd = mkostemp(tmp, O_CLOEXEC);
	made_tmp = tfd >= 0;
	if (tfd >= 0)
		fchmod(tfd, 0644);
	if (tfd < 0) {
		error_errno("tree: cannot write the corpus %s", tmp);
		goto out;
	}
	archive_write_set_format_pax_restricted(a);
	if (archive_write_open_fd(a, tfd) != ARCHIVE_OK) {
		error_set("tree: cannot write the corpus %s: %s", tmp, archive_error_string(a));
		goto out;
	}
	for (int64_t d = 0; d < p->dirs && d < p->files; d++) {
		e = archive_entry_new();
		snprintf(name, sizeof(name), "corpus/d%03lld", (long long)d);
		archive_entry_set_pathname(e, name);
		archive_entry_set_filetype(e, AE_IFDIR);
		archive_entry_set_perm(e, 0755);
		archive_entry_set_mtime(e, 0, 0);
		archive_write_header(a, e);
		archive_entry_free(e);
	}
	for (int64_t i = 0; i < p->files; i++) {
		uLong crc = crc32(0, Z_NULL, 0);
		corpus_name(p, i, name, sizeof(name));
		e = archive_entry_new();
		archive_entry_set_pathname(e, name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)sz[i]);
		archive_entry_set_mtime(e, 0, 0);
		if (archive_write_header(a, e) != ARCHIVE_OK) {
			error_set("tree: writing the corpus: %s", archive_error_string(a));
			archive_entry_free(e);
			goto out;
		}
		archive_entry_free(e);
		for (uint64_t off = 0; off < sz[i]; off += BLOCK) {
			size_t n = sz[i] - off < BLOCK ? (size_t)(sz[i] - off) : BLOCK;
			corpus_fill(p, i, off, buf, n);
			crc = crc32(crc, (const Bytef *)buf, (uInt)n);
			if (archive_write_data(a, buf, n) != (la_ssize_t)n) {
				error_set("tree: writing the corpus: %s", archive_error_string(a));
				goto out;
			}
		}
		fprintf(fs, "%08lx %llu %s\n", (unsigned long)crc, (unsigned long long)sz[i], name);
	}
	if (archive_write_close(a) != ARCHIVE_OK || fclose(fs)) {
		fs = NULL;
		error_set("tree: finishing the corpus: %s", archive_error_string(a));
		goto out;
	}
	fs = NULL;
	if (rename(tmps, sums) || rename(tmp, tar)) {
		error_errno("tree: cannot store the corpus as %s", tar);
		goto out;
	}
	rc = 0;
out:
	if (fs)
		fclose(fs);
	if (a)
		archive_write_free(a);
	if (tfd >= 0)
		close(tfd);
	if (rc && made_tmp)
		unlink(tmp);
	if (rc && made_tmps)
		unlink(tmps);
	free(sz);
	free(buf);
	return rc;
}

/* ---- phases ---------------------------------------------------------- */

struct tree_state {
	char tar[4200], sums[4200];
	uint64_t bytes;		/* corpus total */
	int cold;		/* read phase could drop caches */
	char chosen[8600];	/* where the corpus went and why, if not the default */
	int64_t reflinked;
};

static int restore(const struct tree_state *st, const char *dir)
{
	struct archive *in = archive_read_new(), *out = archive_write_disk_new();
	struct archive_entry *e;
	char path[4400];
	int rc = 0, r;

	archive_read_support_format_tar(in);
	archive_write_disk_set_options(out, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
					    ARCHIVE_EXTRACT_SECURE_NODOTDOT |
					    ARCHIVE_EXTRACT_SECURE_SYMLINKS);
	if (archive_read_open_filename(in, st->tar, BLOCK) != ARCHIVE_OK) {
		rc = error_set("tree: cannot open the corpus %s: %s", st->tar, archive_error_string(in));
		goto out;
	}
	while (!rc && (r = archive_read_next_header(in, &e)) == ARCHIVE_OK) {
		snprintf(path, sizeof(path), "%s/restore/%s", dir, archive_entry_pathname(e));
		archive_entry_set_pathname(e, path);
		if (archive_write_header(out, e) != ARCHIVE_OK)
			rc = error_set("tree: restore %s: %s", path, archive_error_string(out));
		else if (archive_entry_size(e) > 0) {
			const void *blk;
			size_t n;
			la_int64_t off;
			while ((r = archive_read_data_block(in, &blk, &n, &off)) == ARCHIVE_OK)
				if (archive_write_data_block(out, blk, n, off) != ARCHIVE_OK) {
					rc = error_set("tree: restore %s: %s", path,
						       archive_error_string(out));
					break;
				}
			if (!rc && r != ARCHIVE_EOF)
				rc = error_set("tree: reading the corpus: %s", archive_error_string(in));
		}
		if (!rc && archive_write_finish_entry(out) != ARCHIVE_OK)
			rc = error_set("tree: restore %s: %s", path, archive_error_string(out));
		if (workload_stopped())
			rc = error_set("tree: interrupted");
	}
	if (!rc && r != ARCHIVE_EOF)
		rc = error_set("tree: reading the corpus: %s", archive_error_string(in));
out:
	archive_write_close(out);
	archive_write_free(out);
	archive_read_free(in);
	return rc;
}

/* One file the way GNU cp copies it: a buffer of max(128 KiB, st_blksize)
 * (smaller for a smaller file) allocated for this file, sequential
 * read-ahead advice, read/write. */
static int copy_file(const char *from, const char *to, int reflink, int64_t *cloned)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out, rc = 0;
	struct stat sb;
	char *buf = NULL;
	size_t bs = 0;

	if (in < 0)
		return error_errno("tree: copy: open %s", from);
	if (fstat(in, &sb)) {
		close(in);
		return error_errno("tree: copy: stat %s", from);
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return error_errno("tree: copy: create %s", to);
	}
	if (reflink && !ioctl(out, FICLONE, in)) {
		(*cloned)++;
	} else {
		bs = sb.st_blksize > BLOCK ? (size_t)sb.st_blksize : BLOCK;
		if ((uint64_t)sb.st_size < bs) {
			size_t blk = sb.st_blksize > 0 ? (size_t)sb.st_blksize : 4096;
			bs = ((size_t)sb.st_size / blk + 1) * blk;
		}
		ssize_t n = 0;
		posix_fadvise(in, 0, 0, POSIX_FADV_SEQUENTIAL);
		/* cp's aligned buffer comes fresh from mmap for every file, so
		 * it pays the page faults of a new buffer each time too. */
		buf = mmap(NULL, bs, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (buf == MAP_FAILED) {
			buf = NULL;
			rc = error_errno("tree: copy: buffer");
		}
		while (!rc && (n = read(in, buf, bs)) > 0)
			if (write(out, buf, (size_t)n) != n) {
				rc = error_errno("tree: copy: write %s", to);
				break;
			}
		if (n < 0)
			rc = error_errno("tree: copy: read %s", from);
	}
	if (buf)
		munmap(buf, bs);
	close(in);
	if (close(out) && !rc)
		rc = error_errno("tree: copy: close %s", to);
	return rc;
}

/* cp -r restore/corpus copy: directories in corpus order, then files. */
static int copy_tree(const struct tree_params *p, struct tree_state *st, const char *dir)
{
	char from[4400], to[4400], name[128];
	int rc = 0;

	snprintf(to, sizeof(to), "%s/copy", dir);
	if (mkdir(to, 0755))
		rc = error_errno("tree: copy: mkdir %s", to);
	for (int64_t d = 0; !rc && d < p->dirs && d < p->files; d++) {
		snprintf(to, sizeof(to), "%s/copy/d%03lld", dir, (long long)d);
		if (mkdir(to, 0755))
			rc = error_errno("tree: copy: mkdir %s", to);
	}
	for (int64_t i = 0; !rc && i < p->files && !workload_stopped(); i++) {
		corpus_name(p, i, name, sizeof(name));
		snprintf(from, sizeof(from), "%s/restore/%s", dir, name);
		snprintf(to, sizeof(to), "%s/copy/%s", dir, name + strlen("corpus/"));
		rc = copy_file(from, to, p->reflink, &st->reflinked);
	}
	return rc ? rc : workload_stopped() ? error_set("tree: interrupted") : 0;
}

/* GNU tar reads files in records of 20 x 512 bytes. */
#define TAR_RECORD 10240

/* Read every byte of the restored tree in archive order, verifying it. */
static int read_tree(const struct tree_state *st, const char *dir)
{
	FILE *sums = fopen(st->sums, "r");
	char line[512], name[256], path[4400], *buf = malloc(BLOCK);
	unsigned long want;
	unsigned long long size;
	int rc = 0;

	if (!sums || !buf) {
		free(buf);
		if (sums)
			fclose(sums);
		return error_errno("tree: cannot read the checksums %s", st->sums);
	}
	while (!rc && fgets(line, sizeof(line), sums) && !workload_stopped()) {
		if (sscanf(line, "%lx %llu %255s", &want, &size, name) != 3)
			continue;
		snprintf(path, sizeof(path), "%s/restore/%s", dir, name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			rc = error_errno("tree: read: open %s", path);
			break;
		}
		uLong crc = crc32(0, Z_NULL, 0);
		unsigned long long got = 0;
		ssize_t n;
		while ((n = read(fd, buf, TAR_RECORD)) > 0) {
			crc = crc32(crc, (const Bytef *)buf, (uInt)n);
			got += (unsigned long long)n;
		}
		close(fd);
		if (n < 0)
			rc = error_errno("tree: read %s", path);
		else if (got != size || crc != want)
			rc = error_set("tree: %s is corrupt: %llu bytes with crc32 %08lx, expected %llu bytes with %08lx",
				       path, got, (unsigned long)crc, size, want);
	}
	fclose(sums);
	free(buf);
	return rc ? rc : workload_stopped() ? error_set("tree: interrupted") : 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) ? -1 : 0;
}

static int delete_tree(const char *dir)
{
	char path[4400];

	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, k ? "restore" : "copy");
		if (!access(path, F_OK) && nftw(path, rm_one, 64, FTW_DEPTH | FTW_PHYS | FTW_MOUNT))
			return error_errno("tree: delete %s", path);
	}
	return 0;
}

/* ---- the workload ---------------------------------------------------- */

static uint64_t tree_space(const void *v)
{
	const struct tree_params *p = v;

	/* the restored tree and its copy, plus metadata slack */
	return sat_add(sat_mul(2, p->size), sat_mul(sat_u(p->files), 8192));
}

static void tree_describe(const void *v, char *buf, size_t len)
{
	const struct tree_params *p = v;

	snprintf(buf, len, "Restore, Copy, Read, Delete: %lld Files, %.0f MB in %lld Dirs",
		 (long long)p->files, (double)p->size / 1e6, (long long)p->dirs);
}

static int tree_prepare(struct wl_ctx *ctx)
{
	const struct tree_params *p = ctx->params;
	struct tree_state *st = calloc(1, sizeof(*st));
	struct stat a, b;

	if (!st)
		return error_set("out of memory");
	char dir[4096];
	if (cache_paths(p, ctx->dir, dir, st->tar, st->sums, sizeof(st->tar), st->chosen,
			sizeof(st->chosen))) {
		free(st);
		return -1;
	}
	/* The source must not be the disk under test: checked before the
	 * corpus is written, not after it has filled the target. */
	if (!stat(dir, &a) && !stat(ctx->dir, &b) && a.st_dev == b.st_dev) {
		error_set("tree: the corpus cache %s is on the filesystem under test: set cache= to another filesystem",
			  dir);
		free(st);
		return -1;
	}
	if (corpus_make(p, st->tar, st->sums)) {
		free(st);
		return -1;
	}
	st->bytes = p->size;
	ctx->state = st;
	return 0;
}

static void tree_cleanup(struct wl_ctx *ctx)
{
	if (ctx->state)
		delete_tree(ctx->dir);
	free(ctx->state);
	ctx->state = NULL;
}

static int tree_run(struct wl_ctx *ctx, double *values)
{
	const struct tree_params *p = ctx->params;
	struct tree_state *st = ctx->state;
	int rc = 0;

	st->reflinked = 0;
	for (int ph = 0; ph < NPHASES && !rc; ph++) {
		struct cpu_snap a, b;
		struct cpu_usage u;
		if (ph == PH_READ)
			st->cold = cache_flush(1);
		if (ph == PH_DELETE)
			workload_data_complete(ctx);	/* between two timers */
		cpu_snapshot(&a);
		switch (ph) {
		case PH_RESTORE: rc = restore(st, ctx->dir); break;
		case PH_COPY: rc = copy_tree(p, st, ctx->dir); break;
		case PH_READ: rc = read_tree(st, ctx->dir); break;
		case PH_DELETE: rc = delete_tree(ctx->dir); break;
		}
		if (!rc && ph != PH_READ)
			sync();	/* seed 001: "... && sync" inside the timing */
		cpu_snapshot(&b);
		cpu_between(&a, &b, &u);
		double mb = (double)st->bytes / 1e6;
		double *v = &values[ph * 4];	/* the phase's slots, in the table's order */
		*v++ = u.wall;
		if (ph != PH_DELETE)
			*v++ = u.wall > 0 ? mb / u.wall : 0;
		*v++ = u.user;
		*v = u.sys;
	}
	/* restore and copy write the corpus once each; copy and read read it */
	ctx->bytes_written = (int64_t)sat_mul(st->bytes, 2);
	ctx->bytes_read = (int64_t)sat_mul(st->bytes, 2);
	if (rc)
		delete_tree(ctx->dir);	/* never leave a half tree behind */
	else if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX,
			 "corpus %s: %lld files, %llu bytes\nrestore %.3fs, copy %.3fs (%lld of %lld files reflinked), "
			 "read %.3fs (%s, every file verified), delete %.3fs\n%s%s", st->tar,
			 (long long)p->files, (unsigned long long)p->size, values[0], values[4],
			 (long long)st->reflinked, (long long)p->files, values[8],
			 st->cold ? "caches dropped first" : "caches NOT dropped: not root", values[12],
			 st->chosen, st->chosen[0] ? "\n" : "");
	return rc;
}

/* cache= on the filesystem of a --target DIR: refused at parse time (the
 * same rule tree_prepare applies to every target once it is made).  A
 * cache directory not made yet is judged by the nearest one that is. */
static int tree_validate_target(const void *params, const char *dir)
{
	const struct tree_params *p = params;
	char probe[sizeof(p->cache)];
	struct stat a, b;
	char *slash;

	if (!p->cache[0])
		return 0;
	snprintf(probe, sizeof(probe), "%s", p->cache);
	while (stat(probe, &a)) {
		if (!strcmp(probe, ".") || !strcmp(probe, "/"))
			return 0;
		if (!(slash = strrchr(probe, '/')))
			snprintf(probe, sizeof(probe), ".");
		else if (slash == probe)
			probe[1] = '\0';
		else
			*slash = '\0';
	}
	if (!stat(dir, &b) && a.st_dev == b.st_dev)
		return error_set("tree: cache=%s is on the filesystem under test (target %s): set "
				 "cache= to a directory on another filesystem", p->cache, dir);
	return 0;
}

const struct workload wl_tree = {
	.name = "tree",
	.summary = "seed 001: tar restore, cp -r + sync, read back (verified), delete; s and MB/s per phase",
	.title = "Tree: tar restore / copy / read / delete",
	.params = tree_params,
	.params_size = sizeof(struct tree_params),
	.metrics = tree_metrics_tab,
	.nmetrics = TREE_NMETRICS,
	.presets = tree_presets,
	.validate_target = tree_validate_target,
	.space_needed = tree_space,
	.describe = tree_describe,
	.prepare = tree_prepare,
	.run = tree_run,
	.cleanup = tree_cleanup,
};
