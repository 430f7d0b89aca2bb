/*
 * mdtest.c: mdtest's metadata phases (docs/workloads/ior-mdtest.md), one
 * process or every rank of an MPI job (comm.h).
 *
 * Each rank creates, stats and removes n directories, then creates (with
 * w bytes written, y fsynced), stats, reads (e bytes) and removes n files,
 * named dir.mdtest.<rank>.<i> and file.mdtest.<rank>.<i>, spread over a
 * tree of depth z and branching b (made before the phases, untimed) that
 * is per rank with u or shared.  With N, stat, read and remove work on
 * the items of rank (rank + N) mod ranks.  Every phase starts and ends
 * with a barrier; its rate is items x ranks / (slowest rank's time from
 * the first barrier to the second), as mdtest computes it.  Each rank
 * counts what it did, and the counts are summed, so a result says how
 * many items every phase really touched.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/comm.h"
#include "../core/error.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct md_params {
	int64_t n;
	bool F;
	uint64_t w, e;
	bool y, u;
	int64_t z, b, N;
};

#define P(f) offsetof(struct md_params, f)
static const struct param_def md_params[] = {
	{ "n", PT_INT, P(n), "1000", 1, 100000000, NULL, "items per rank (-n)", PF_SCALE },
	{ "F", PT_BOOL, P(F), "0", 0, 0, NULL, "files only (-F)" },
	{ "w", PT_SIZE, P(w), "0", 0, 1ULL << 30, NULL, "bytes written to each file at create (-w)" },
	{ "e", PT_SIZE, P(e), "0", 0, 1ULL << 30, NULL, "bytes read from each file (-e)" },
	{ "y", PT_BOOL, P(y), "0", 0, 0, NULL, "fsync each file after writing it (-y)" },
	{ "u", PT_BOOL, P(u), "0", 0, 0, NULL, "a directory tree per rank (-u)" },
	{ "z", PT_INT, P(z), "0", 0, 10, NULL, "tree depth (-z)" },
	{ "b", PT_INT, P(b), "1", 1, 100, NULL, "tree branching (-b)" },
	{ "N", PT_INT, P(N), "0", 0, 1 << 20, NULL,
	  "stat/read/remove the items of rank (rank + N) (-N)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

enum { DIR_CREATE, DIR_STAT, DIR_REMOVE, FILE_CREATE, FILE_STAT, FILE_READ, FILE_REMOVE, NPHASES };

static const struct metric_def md_metrics[] = {
	{ "file_create", "ops/s", HIGHER_IS_BETTER, "File creation", 1 },
	{ "file_stat", "ops/s", HIGHER_IS_BETTER, "File stat", 0 },
	{ "file_read", "ops/s", HIGHER_IS_BETTER, "File read", 0 },
	{ "file_remove", "ops/s", HIGHER_IS_BETTER, "File removal", 0 },
	{ "dir_create", "ops/s", HIGHER_IS_BETTER, "Directory creation", 0 },
	{ "dir_stat", "ops/s", HIGHER_IS_BETTER, "Directory stat", 0 },
	{ "dir_remove", "ops/s", HIGHER_IS_BETTER, "Directory removal", 0 },
};
/* Phase -> metric slot. */
static const int slot[NPHASES] = { 4, 5, 6, 0, 1, 2, 3 };
static const char *const phase_names[NPHASES] = {
	"Directory creation", "Directory stat", "Directory removal", "File creation",
	"File stat", "File read", "File removal",
};

struct md {
	const struct md_params *p;
	const char *dir;
	int rank, size;
	int64_t ntree;		/* directories in one tree */
	char *buf;
	char err[4600];
};

/* Directory i of the tree (0 = its root) as a path. */
static void tree_dir(const struct md *m, int owner, int64_t node, char *buf, size_t len)
{
	char tail[512] = "";
	size_t at = 0;
	int64_t path[16];
	int depth = 0;

	/* Walk up from the node to the root: node k's parent is (k-1)/b. */
	for (int64_t k = node; k > 0; k = (k - 1) / m->p->b)
		path[depth++] = k;
	for (int d = depth - 1; d >= 0 && at < sizeof(tail); d--)
		at += (size_t)snprintf(tail + at, sizeof(tail) - at, "/mdtest_tree.%lld",
				       (long long)path[d]);
	if (m->p->u)
		snprintf(buf, len, "%s/mdtest_tree.r%d%s", m->dir, owner, tail);
	else
		snprintf(buf, len, "%s/mdtest_tree%s", m->dir, tail);
}

static void item_path(const struct md *m, bool file, int owner, int64_t i, char *buf, size_t len)
{
	char d[4200];

	tree_dir(m, owner, i % m->ntree, d, sizeof(d));
	snprintf(buf, len, "%s/%s.mdtest.%d.%lld", d, file ? "file" : "dir", owner, (long long)i);
}

static int md_fail(struct md *m, const char *what, const char *path)
{
	int e = errno;

	snprintf(m->err, sizeof(m->err), "%s %s: %s%s", what, path, strerror(e),
		 e == ENOSPC ? " (the target is full: lower n=)" : "");
	return -1;
}

static int one_item(struct md *m, int phase, int owner, int64_t i)
{
	char path[4400];
	struct stat st;
	int fd;

	item_path(m, phase >= FILE_CREATE, owner, i, path, sizeof(path));
	switch (phase) {
	case DIR_CREATE:
		return mkdir(path, 0755) ? md_fail(m, "mkdir", path) : 0;
	case DIR_STAT:
	case FILE_STAT:
		return stat(path, &st) ? md_fail(m, "stat", path) : 0;
	case DIR_REMOVE:
		return rmdir(path) ? md_fail(m, "rmdir", path) : 0;
	case FILE_CREATE:
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return md_fail(m, "creating", path);
		if ((m->p->w && write(fd, m->buf, m->p->w) != (ssize_t)m->p->w) ||
		    (m->p->y && fsync(fd))) {
			int e = errno;
			close(fd);
			errno = e ? e : ENOSPC;
			return md_fail(m, "writing", path);
		}
		return close(fd) ? md_fail(m, "closing", path) : 0;
	case FILE_READ:
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return md_fail(m, "opening", path);
		if (m->p->e && read(fd, m->buf, m->p->e) < 0) {
			close(fd);
			return md_fail(m, "reading", path);
		}
		close(fd);
		return 0;
	case FILE_REMOVE:
		return unlink(path) ? md_fail(m, "unlink", path) : 0;
	}
	return 0;
}

/* The tree(s), made or removed outside the timed phases. */
static int tree(struct md *m, bool make)
{
	int first = m->p->u ? m->rank : 0, last = m->p->u ? m->rank : (m->rank == 0 ? 0 : -1);
	char path[4200];

	for (int owner = first; owner <= last; owner++)
		for (int64_t k = make ? 0 : m->ntree - 1; make ? k < m->ntree : k >= 0; k += make ? 1 : -1) {
			tree_dir(m, owner, k, path, sizeof(path));
			if (make ? mkdir(path, 0755) && errno != EEXIST : rmdir(path) && errno != ENOENT)
				return md_fail(m, make ? "mkdir" : "rmdir", path);
		}
	return 0;
}

/* mdtest's -D (directories only) is left out: file creation is the
 * primary metric. */
static bool phase_runs(const struct md_params *p, int phase)
{
	return phase >= FILE_CREATE || !p->F;
}

static int md_run(struct wl_ctx *ctx, double *v)
{
	const struct md_params *p = ctx->params;
	struct md m = { .p = p, .dir = ctx->dir, .rank = comm_rank(), .size = comm_size() };
	uint64_t done[NPHASES] = { 0 }, elapsed[NPHASES] = { 0 };
	char hosts[1024];
	int rc = 0, at;

	for (int i = 0; i < (int)(sizeof(md_metrics) / sizeof(md_metrics[0])); i++)
		v[i] = NAN;
	m.ntree = 1;
	for (int64_t level = 1, width = 1; level <= p->z; level++)
		m.ntree += (width *= p->b);
	m.buf = calloc(1, (size_t)(p->w > p->e ? p->w : p->e) + 1);
	if (!m.buf)
		return error_set("out of memory");
	memset(m.buf, 'm', (size_t)p->w);
	rc = tree(&m, true);
	if (rc)
		error_set("%s", m.err);
	rc = comm_agree(rc != 0);
	for (int ph = 0; ph < NPHASES && !rc; ph++) {
		/* create works on this rank's own items; the rest, with N, on
		 * another rank's */
		int owner = ph == DIR_CREATE || ph == FILE_CREATE ? m.rank
			    : (int)((m.rank + p->N) % m.size);
		uint64_t t0;
		int failed = 0;

		if (!phase_runs(p, ph))
			continue;
		comm_sync();
		t0 = comm_now();
		for (int64_t i = 0; i < p->n && !failed; i++) {
			if (one_item(&m, ph, owner, i))
				failed = 1;
			else
				done[ph]++;
			if (workload_stopped() && !failed) {
				snprintf(m.err, sizeof(m.err), "interrupted");
				failed = 1;
			}
		}
		if (failed)
			error_set("%s", m.err);
		rc = comm_agree(failed);
		elapsed[ph] = comm_now() - t0;
	}
	/* The tree goes whatever happened (the runner removes the rest). */
	comm_sync();
	tree(&m, false);
	free(m.buf);
	if (rc)
		return -1;
	comm_reduce(done, NPHASES, COMM_SUM);
	comm_reduce(elapsed, NPHASES, COMM_MAX);
	ctx->bytes_written = (int64_t)sat_mul(done[FILE_CREATE], p->w);
	ctx->bytes_read = (int64_t)sat_mul(done[FILE_READ], p->e);
	comm_hosts(hosts, sizeof(hosts));
	at = ctx->detail ? snprintf(ctx->detail, DETAIL_MAX, "%s\n%-20s %12s %10s %10s\n", hosts,
				    "phase", "ops/s", "items", "seconds") : 0;
	for (int ph = 0; ph < NPHASES; ph++) {
		if (!phase_runs(p, ph))
			continue;
		v[slot[ph]] = (double)done[ph] / ((double)elapsed[ph] / 1e9);
		if (ctx->detail && at < DETAIL_MAX)
			at += snprintf(ctx->detail + at, DETAIL_MAX - (size_t)at,
				       "%-20s %12.1f %10llu %10.6f\n", phase_names[ph], v[slot[ph]],
				       (unsigned long long)done[ph], (double)elapsed[ph] / 1e9);
	}
	return 0;
}

static int md_validate(const void *p)
{
	const struct md_params *mp = p;

	if (mp->e > mp->w)
		return error_set("parameter 'e': cannot read more than the w bytes written");
	return 0;
}

static uint64_t md_space(const void *p)
{
	const struct md_params *mp = p;

	return sat_add(sat_mul3(sat_u(mp->n), (uint64_t)comm_size(), sat_add(mp->w, 4096)), 16 << 20);
}

static int md_metrics_used(const void *p)
{
	const struct md_params *mp = p;

	return mp->F ? 4 : 7;
}

static void md_describe(const void *p, char *buf, size_t len)
{
	const struct md_params *mp = p;

	snprintf(buf, len, "%lld Items Per Rank%s%s%s - Tree Depth %lld, Branching %lld%s",
		 (long long)mp->n, mp->F ? " - Files Only" : "",
		 mp->w ? " - With Data" : "", mp->y ? " - fsync" : "", (long long)mp->z,
		 (long long)mp->b, mp->u ? " - Unique Dirs" : "");
}

const struct workload wl_mdtest = {
	.name = "mdtest",
	.summary = "mdtest metadata phases: ranks create/stat/read/remove files and directories (MPI)",
	.title = "mdtest (fsbench)",
	.params = md_params,
	.params_size = sizeof(struct md_params),
	.metrics = md_metrics,
	.nmetrics = 7,
	.flags = WL_MPI,
	.validate = md_validate,
	.space_needed = md_space,
	.describe = md_describe,
	.metrics_used = md_metrics_used,
	.run = md_run,
};
