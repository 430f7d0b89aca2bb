/*
 * fileop.c: iozone's fileop, as specified in docs/workloads/fileop.md
 * (seed 002's UBIFS vs JFFS2 tables).
 *
 * For every level n from l to u (or just f): an n x n tree of directories
 * with n files in each leaf, and 13 metadata operations timed one call at
 * a time in fileop's order: mkdir, rmdir, create/write/close (the fsync
 * between write and close is untimed), stat, read, access, chmod, readdir
 * (only the first readdir() call of each directory), link, unlink, delete.
 * Navigation is by chdir and is never timed.  `variant=15` is the newer
 * fileop: a third directory level, a timed chdir phase, a timed open, and
 * a byte-compare inside the read timer.
 *
 * fileop prints ops/s per level; fsbench keeps that table as the sample's
 * detail and adds the aggregate over all levels (total calls / total timed
 * seconds), which is what the charts and ratio tables use.  fileop timed
 * with gettimeofday (1 us); fsbench uses a nanosecond clock, so sub-us
 * calls no longer round to 0 or 1 us.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fileop_params {
	int64_t l, u, f, i;
	uint64_t s;
	int variant;		/* 0: 13 columns (seed 002), 1: 15 columns */
};

#define P(x) offsetof(struct fileop_params, x)
static const struct param_def fileop_params[] = {
	/* a level L is L x L x L directories and files: --scale multiplies
	 * the levels by its cube root (PF_SCALE_CUBE) */
	{ "l", PT_INT, P(l), "0", 0, 1000, NULL, "lowest level (fileop -l); 0 = use f",
	  PF_SCALE | PF_SCALE_CUBE },
	{ "u", PT_INT, P(u), "0", 0, 1000, NULL, "highest level (-u)", PF_SCALE | PF_SCALE_CUBE },
	{ "f", PT_INT, P(f), "1", 1, 1000, NULL, "force factor: the one level run without l/u (-f)",
	  PF_SCALE | PF_SCALE_CUBE },
	{ "i", PT_INT, P(i), "1", 1, 1000, NULL, "level increment (-i, 15-column fileop)" },
	{ "s", PT_SIZE, P(s), "1", 1, 1 << 30, NULL, "bytes per file (-s)" },
	{ "variant", PT_ENUM, P(variant), "13", 0, 0, "13|15",
	  "13: the fileop of seed 002; 15: the newer one with chdir and open" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

/* Column order of the table; the 15-column fileop adds the last two. */
enum op { MKDIR, RMDIR, CREATE, READ, WRITE, CLOSE, STAT, ACCESS, CHMOD, READDIR,
	  LINK, UNLINK, DELETE, CHDIR, OPEN, NOPS };

static const struct metric_def fileop_metrics[] = {
	{ "mkdir", "ops/s", HIGHER_IS_BETTER, "mkdir", 0 },
	{ "rmdir", "ops/s", HIGHER_IS_BETTER, "rmdir", 0 },
	{ "create", "ops/s", HIGHER_IS_BETTER, "create", 1 },
	{ "read", "ops/s", HIGHER_IS_BETTER, "read", 0 },
	{ "write", "ops/s", HIGHER_IS_BETTER, "write", 0 },
	{ "close", "ops/s", HIGHER_IS_BETTER, "close", 0 },
	{ "stat", "ops/s", HIGHER_IS_BETTER, "stat", 0 },
	{ "access", "ops/s", HIGHER_IS_BETTER, "access", 0 },
	{ "chmod", "ops/s", HIGHER_IS_BETTER, "chmod", 0 },
	{ "readdir", "ops/s", HIGHER_IS_BETTER, "readdir", 0 },
	{ "link", "ops/s", HIGHER_IS_BETTER, "link", 0 },
	{ "unlink", "ops/s", HIGHER_IS_BETTER, "unlink", 0 },
	{ "delete", "ops/s", HIGHER_IS_BETTER, "delete", 0 },
	{ "chdir", "ops/s", HIGHER_IS_BETTER, "chdir", 0 },
	{ "open", "ops/s", HIGHER_IS_BETTER, "open", 0 },
};

static const struct preset fileop_presets[] = {
	{ "fileop-seed002", "l=20,u=25,s=10240", "Levels 20 to 25, 10240-byte files (fileop -l 20 -u 25 -s 10240)" },
	{ NULL, NULL, NULL },
};

/* Per-op totals for one level. */
struct tally {
	uint64_t ns[NOPS];
	uint64_t count[NOPS];
};

/* Time one call: `expr` must be a syscall returning < 0 on failure. */
#define TIMED(t, op, expr, what)                                              \
	do {                                                                  \
		uint64_t t0_ = now_ns();                                      \
		long rc_ = (long)(expr);                                      \
		(t)->ns[op] += now_ns() - t0_;                                \
		(t)->count[op]++;                                             \
		if (rc_ < 0)                                                  \
			return error_errno("fileop: %s %s", what, name);      \
	} while (0)

static int fileop_validate(const void *p)
{
	const struct fileop_params *fp = p;

	if ((fp->l && !fp->u) || (!fp->l && fp->u))
		return error_set("parameters 'l' and 'u' go together (fileop -l L -u U), or use f alone");
	if (fp->l > fp->u)
		return error_set("parameter 'l': %lld is above u=%lld", (long long)fp->l, (long long)fp->u);
	return 0;
}

static int fileop_metrics_used(const void *p)
{
	return ((const struct fileop_params *)p)->variant ? NOPS : CHDIR;
}

static uint64_t fileop_space(const void *p)
{
	const struct fileop_params *fp = p;
	uint64_t n = (uint64_t)(fp->l ? fp->u : fp->f);

	return sat_mul(sat_mul3(n, n, n), sat_add(fp->s, 4096));
}

static void fileop_describe(const void *p, char *buf, size_t len)
{
	const struct fileop_params *fp = p;

	if (fp->l)
		snprintf(buf, len, "Levels %lld to %lld, %llu-byte files%s", (long long)fp->l,
			 (long long)fp->u, (unsigned long long)fp->s, fp->variant ? ", 15 columns" : "");
	else
		snprintf(buf, len, "Level %lld, %llu-byte files%s", (long long)fp->f,
			 (unsigned long long)fp->s, fp->variant ? ", 15 columns" : "");
}

/* Names as each fileop generation spells them. */
struct names {
	const char *l1, *l2, *file, *leaf;
};
static const struct names old_names = { "iozone_L1_%d", "iozone_L1_%d_L2_%d", "iozone_file_%d_%d_%d", NULL };
static const struct names new_names = { "fileop_L1_%d", "fileop_L1_%d_L2_%d", "fileop_file_%d_%d_%d",
					"fileop_dir_%d_%d_%d" };

struct level {
	const struct fileop_params *fp;
	const struct names *nm;
	int n;
	char *buf, *check;
	struct tally *t;
	int no_links;		/* the filesystem has no hard links (exFAT, vfat) */
};

static int enter(const char *name)
{
	if (chdir(name))
		return error_errno("fileop: chdir %s", name);
	return 0;
}

static int leave(void)
{
	if (chdir(".."))
		return error_errno("fileop: chdir ..");
	return 0;
}

/* Phase 1: mkdir of L1, L2 (and in the new fileop the leaf dirs). */
static int phase_mkdir(struct level *lv)
{
	char name[96];

	for (int i = 0; i < lv->n; i++) {
		snprintf(name, sizeof(name), lv->nm->l1, i);
		TIMED(lv->t, MKDIR, mkdir(name, 0777), "mkdir");
		if (enter(name))
			return -1;
		for (int j = 0; j < lv->n; j++) {
			snprintf(name, sizeof(name), lv->nm->l2, i, j);
			TIMED(lv->t, MKDIR, mkdir(name, 0777), "mkdir");
			if (lv->nm->leaf) {
				if (enter(name))
					return -1;
				for (int k = 0; k < lv->n; k++) {
					snprintf(name, sizeof(name), lv->nm->leaf, i, j, k);
					TIMED(lv->t, MKDIR, mkdir(name, 0777), "mkdir");
					/* fileop 1.60 steps into each new leaf and out,
					 * untimed, before the next mkdir */
					if (enter(name) || leave())
						return -1;
				}
				if (leave())
					return -1;
			}
		}
		if (leave())
			return -1;
	}
	return 0;
}

/* Phase 2 (new fileop only): chdir in and out, the pair timed as one op. */
static int phase_chdir(struct level *lv)
{
	char name[96];

	for (int i = 0; i < lv->n; i++) {
		uint64_t t0 = now_ns(), t1;
		snprintf(name, sizeof(name), lv->nm->l1, i);
		if (enter(name))
			return -1;
		t1 = now_ns();
		for (int j = 0; j < lv->n; j++) {
			uint64_t u0 = now_ns(), u1;
			snprintf(name, sizeof(name), lv->nm->l2, i, j);
			if (enter(name))
				return -1;
			u1 = now_ns();
			for (int k = 0; k < lv->n; k++) {
				snprintf(name, sizeof(name), lv->nm->leaf, i, j, k);
				uint64_t v0 = now_ns();
				if (enter(name) || leave())
					return -1;
				lv->t->ns[CHDIR] += now_ns() - v0;
				lv->t->count[CHDIR]++;
			}
			uint64_t u2 = now_ns();
			if (leave())
				return -1;
			lv->t->ns[CHDIR] += (u1 - u0) + (now_ns() - u2);
			lv->t->count[CHDIR]++;
		}
		uint64_t t2 = now_ns();
		if (leave())
			return -1;
		lv->t->ns[CHDIR] += (t1 - t0) + (now_ns() - t2);
		lv->t->count[CHDIR]++;
	}
	return 0;
}

/* Phase 3: rmdir of the whole tree, bottom-up, every call timed. */
static int phase_rmdir(struct level *lv)
{
	char name[96];

	for (int i = 0; i < lv->n; i++) {
		snprintf(name, sizeof(name), lv->nm->l1, i);
		if (enter(name))
			return -1;
		for (int j = 0; j < lv->n; j++) {
			snprintf(name, sizeof(name), lv->nm->l2, i, j);
			if (lv->nm->leaf) {
				if (enter(name))
					return -1;
				for (int k = 0; k < lv->n; k++) {
					snprintf(name, sizeof(name), lv->nm->leaf, i, j, k);
					if (enter(name) || leave())	/* in and out first, untimed, as 1.60 */
						return -1;
					TIMED(lv->t, RMDIR, rmdir(name), "rmdir");
				}
				if (leave())
					return -1;
				snprintf(name, sizeof(name), lv->nm->l2, i, j);
			}
			TIMED(lv->t, RMDIR, rmdir(name), "rmdir");
		}
		if (leave())
			return -1;
		snprintf(name, sizeof(name), lv->nm->l1, i);
		TIMED(lv->t, RMDIR, rmdir(name), "rmdir");
	}
	return 0;
}

enum file_phase { P_CREATE, P_STAT, P_READ, P_ACCESS, P_CHMOD, P_LINK, P_UNLINK, P_DELETE };

/* One file operation of a per-file phase, on file (i, j, k). */
static int file_op(struct level *lv, enum file_phase ph, int i, int j, int k)
{
	const struct fileop_params *fp = lv->fp;
	char name[96], lname[100];
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), lv->nm->file, i, j, k);
	switch (ph) {
	case P_CREATE:
		if (lv->nm == &new_names)
			memset(lv->buf, (i ^ j ^ k) & 0xff, (size_t)fp->s);
		/* fileop: creat(name, O_RDWR|0600), i.e. mode 0602 */
		TIMED(lv->t, CREATE, fd = creat(name, O_RDWR | 0600), "create");
		TIMED(lv->t, WRITE, write(fd, lv->buf, (size_t)fp->s) == (ssize_t)fp->s ? 0 : -1,
		      "write");
		/* untimed: writeback never shows in "close"; but a failed
		 * fsync means the data is not on the disk, which is an error */
		if (fsync(fd)) {
			int e = errno;
			close(fd);
			errno = e;
			return error_errno("fileop: fsync %s", name);
		}
		TIMED(lv->t, CLOSE, close(fd), "close");
		return 0;
	case P_STAT:
		TIMED(lv->t, STAT, stat(name, &st), "stat");
		return 0;
	case P_READ:
		if (lv->nm == &new_names) {
			TIMED(lv->t, OPEN, fd = open(name, O_RDONLY), "open");
			uint64_t t0 = now_ns();
			ssize_t r = read(fd, lv->check, (size_t)fp->s);
			int bad = r != (ssize_t)fp->s;
			for (ssize_t b = 0; !bad && b < r; b++)
				bad = lv->check[b] != (char)((i ^ j ^ k) & 0xff);
			lv->t->ns[READ] += now_ns() - t0;
			lv->t->count[READ]++;
			close(fd);
			if (bad)
				return error_set("fileop: %s read back wrong data", name);
		} else {
			fd = open(name, O_RDONLY);
			if (fd < 0)
				return error_errno("fileop: open %s", name);
			TIMED(lv->t, READ, read(fd, lv->check, (size_t)fp->s), "read");
			close(fd);
		}
		return 0;
	case P_ACCESS:
		TIMED(lv->t, ACCESS, access(name, W_OK | F_OK), "access");
		return 0;
	case P_CHMOD:
		TIMED(lv->t, CHMOD, chmod(name, 0666), "chmod");
		return 0;
	case P_LINK: {
		snprintf(lname, sizeof(lname), "%sL", name);
		uint64_t t0 = now_ns();
		if (link(name, lname)) {
			/* No hard links here: those two columns have no figure. */
			if (lv->t->count[LINK] == 0 &&
			    (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS)) {
				lv->no_links = 1;
				return 0;
			}
			return error_errno("fileop: link %s", name);
		}
		lv->t->ns[LINK] += now_ns() - t0;
		lv->t->count[LINK]++;
		return 0;
	}
	case P_UNLINK:
		if (lv->no_links)
			return 0;
		snprintf(lname, sizeof(lname), "%sL", name);
		TIMED(lv->t, UNLINK, unlink(lname), "unlink");
		return 0;
	case P_DELETE:
		TIMED(lv->t, DELETE, unlink(name), "delete");
		return 0;
	}
	return 0;
}

/* Walk every leaf directory; per file run `ph`.  create makes the L1/L2
 * directories (untimed), delete removes them (untimed); readdir times the
 * first readdir() of each leaf directory. */
static int walk(struct level *lv, enum file_phase ph, int readdir_only)
{
	char name[96];

	for (int i = 0; i < lv->n && !workload_stopped(); i++) {
		snprintf(name, sizeof(name), lv->nm->l1, i);
		if (ph == P_CREATE && !readdir_only && mkdir(name, 0777) && errno != EEXIST)
			return error_errno("fileop: mkdir %s", name);
		if (enter(name))
			return -1;
		for (int j = 0; j < lv->n; j++) {
			snprintf(name, sizeof(name), lv->nm->l2, i, j);
			if (ph == P_CREATE && !readdir_only && mkdir(name, 0777) && errno != EEXIST)
				return error_errno("fileop: mkdir %s", name);
			if (enter(name))
				return -1;
			if (readdir_only) {
				DIR *d = opendir(".");
				if (!d)
					return error_errno("fileop: opendir %s", name);
				uint64_t t0 = now_ns();
				readdir(d);
				lv->t->ns[READDIR] += now_ns() - t0;
				lv->t->count[READDIR]++;
				closedir(d);
			} else {
				for (int k = 0; k < lv->n && !(ph == P_LINK && lv->no_links); k++)
					if (file_op(lv, ph, i, j, k))
						return -1;
			}
			if (leave())
				return -1;
			if (ph == P_DELETE && !readdir_only && rmdir(name))
				return error_errno("fileop: rmdir %s", name);
		}
		if (leave())
			return -1;
		snprintf(name, sizeof(name), lv->nm->l1, i);
		if (ph == P_DELETE && !readdir_only && rmdir(name))
			return error_errno("fileop: rmdir %s", name);
	}
	return workload_stopped() ? error_set("fileop: interrupted") : 0;
}

static int run_level(struct level *lv)
{
	static const enum file_phase order[] = { P_CREATE, P_STAT, P_READ, P_ACCESS, P_CHMOD };

	if (phase_mkdir(lv) || (lv->nm->leaf && phase_chdir(lv)) || phase_rmdir(lv))
		return -1;
	for (size_t p = 0; p < sizeof(order) / sizeof(order[0]); p++)
		if (walk(lv, order[p], 0))
			return -1;
	return walk(lv, P_CREATE, 1) || walk(lv, P_LINK, 0) || walk(lv, P_UNLINK, 0) ||
	       walk(lv, P_DELETE, 0);
}

static double rate(uint64_t count, uint64_t ns)
{
	return count && ns ? (double)count / ns_to_s(ns) : NAN;
}

/* fileop's own table: one row per level, ops/s per column. */
static void detail_row(char *detail, int n, const struct tally *t, int nops)
{
	size_t used = strlen(detail);

	if (used + 200 > DETAIL_MAX)
		return;
	used += (size_t)snprintf(detail + used, DETAIL_MAX - used, "%5d", n);
	for (int o = 0; o < nops; o++)
		used += (size_t)snprintf(detail + used, DETAIL_MAX - used, " %8.0f",
					 rate(t->count[o], t->ns[o]));
	snprintf(detail + used, DETAIL_MAX - used, " %10d\n", n * n * n);
}

static int fileop_run(struct wl_ctx *ctx, double *values)
{
	const struct fileop_params *fp = ctx->params;
	int nops = fileop_metrics_used(fp), rc = 0, lo = (int)(fp->l ? fp->l : fp->f),
	    hi = (int)(fp->l ? fp->u : fp->f);
	struct tally all, t;
	struct level lv = { fp, fp->variant ? &new_names : &old_names, 0, NULL, NULL, &t };
	char here[4096];

	memset(&all, 0, sizeof(all));
	lv.buf = malloc((size_t)fp->s);
	lv.check = malloc((size_t)fp->s);
	if (!lv.buf || !lv.check || !getcwd(here, sizeof(here))) {
		free(lv.buf);
		free(lv.check);
		return error_set("fileop: out of memory for %llu-byte files", (unsigned long long)fp->s);
	}
	memset(lv.buf, 'a', (size_t)fp->s);
	if (ctx->detail) {
		size_t used = (size_t)snprintf(ctx->detail, DETAIL_MAX, "level");
		for (int o = 0; o < nops; o++)
			used += (size_t)snprintf(ctx->detail + used, DETAIL_MAX - used, " %8s",
						 fileop_metrics[o].name);
		snprintf(ctx->detail + used, DETAIL_MAX - used, " %10s\n", "Total_files");
	}
	if (chdir(ctx->dir)) {
		rc = error_errno("fileop: chdir %s", ctx->dir);
		goto out;
	}
	for (int n = lo; n <= hi && !rc; n += (int)fp->i) {
		memset(&t, 0, sizeof(t));
		lv.n = n;
		rc = run_level(&lv);
		for (int o = 0; o < NOPS; o++) {
			all.ns[o] += t.ns[o];
			all.count[o] += t.count[o];
		}
		if (!rc && ctx->detail)
			detail_row(ctx->detail, n, &t, nops);
	}
	for (int o = 0; o < nops; o++)
		values[o] = rate(all.count[o], all.ns[o]);
	/* Every level removes its tree inside the timed delete: no space
	 * figure (workload_data_complete would put a sync before it). */
	ctx->bytes_written = (int64_t)sat_mul(all.count[WRITE], fp->s);
	ctx->bytes_read = (int64_t)sat_mul(all.count[READ], fp->s);
out:
	if (chdir(here) && !rc)
		rc = error_errno("fileop: chdir back to %s", here);
	free(lv.buf);
	free(lv.check);
	return rc;
}

const struct workload wl_fileop = {
	.name = "fileop",
	.summary = "iozone's fileop: 13 metadata operations per call on an n^3 tree; ops/s",
	.title = "FileOP (iozone fileop)",
	.params = fileop_params,
	.params_size = sizeof(struct fileop_params),
	.metrics = fileop_metrics,
	.nmetrics = NOPS,
	.presets = fileop_presets,
	.validate = fileop_validate,
	.space_needed = fileop_space,
	.describe = fileop_describe,
	.metrics_used = fileop_metrics_used,
	.run = fileop_run,
};

/* One level in `dir`, for tests: the number of timed calls per column. */
int fileop_level_counts(const char *dir, int n, int variant, uint64_t size, uint64_t *counts)
{
	struct fileop_params fp = { 0, 0, n, 1, size, variant };
	struct tally t;
	struct level lv = { &fp, variant ? &new_names : &old_names, n, NULL, NULL, &t };
	char here[4096];
	int rc;

	memset(&t, 0, sizeof(t));
	lv.buf = calloc(1, (size_t)size);
	lv.check = calloc(1, (size_t)size);
	if (!lv.buf || !lv.check || !getcwd(here, sizeof(here)) || chdir(dir)) {
		free(lv.buf);
		free(lv.check);
		return -1;
	}
	rc = run_level(&lv);
	if (chdir(here))
		rc = -1;
	for (int o = 0; o < NOPS; o++)
		counts[o] = t.count[o];
	free(lv.buf);
	free(lv.check);
	return rc;
}
