/*
 * ior.c: IOR's data phases (POSIX API), as docs/workloads/ior-mdtest.md
 * specifies, one process or every rank of an MPI job (comm.h).
 *
 * Each rank writes (and/or reads) s segments of a b-byte block in t-byte
 * transfers, into one shared file (block of rank r of segment i at
 * i*N*b + r*b) or a file per rank (F).  A phase starts after a barrier and
 * each rank takes IOR's six timestamps: open start/end, transfer
 * start/end (the e fsync inside), close start/end.  Bandwidth = all bytes
 * moved by all ranks / (last close end - first open start), IOR's global
 * window; IOPS = transfers / (last transfer end - first transfer start).
 * With C a rank reads the block another rank wrote (shifted by one rank
 * per node, Q nodes away), so no rank reads its own writes back from its
 * page cache.  The buffer carries its writer's rank in every word, and
 * R checks it on read.  D is IOR's stonewalling deadline.  Each transfer
 * call is timed into a latency histogram, merged across ranks bucket by
 * bucket.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "../core/comm.h"
#include "../core/error.h"
#include "../core/histogram.h"
#include "../core/timeline.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ior_params {
	bool w, r;
	uint64_t t, b;
	int64_t s, i;
	bool F, e, B, C, R, k;
	int64_t Q;
	double D;
};

#define P(f) offsetof(struct ior_params, f)
static const struct param_def ior_params[] = {
	{ "w", PT_BOOL, P(w), "0", 0, 0, NULL, "write phase (-w; with neither w nor r, both run)" },
	{ "r", PT_BOOL, P(r), "0", 0, 0, NULL, "read phase after the write phase (-r)" },
	{ "t", PT_SIZE, P(t), "256k", 1, 1 << 30, NULL, "transfer size per I/O call (-t)" },
	{ "b", PT_SIZE, P(b), "1m", 1, 1ULL << 40, NULL,
	  "contiguous bytes per rank per segment (-b)", PF_SCALE },
	{ "s", PT_INT, P(s), "1", 1, 1 << 30, NULL, "segments (-s)" },
	{ "i", PT_INT, P(i), "1", 1, 10000, NULL,
	  "iterations per run; each figure is their mean, as IOR's Mean column (-i)" },
	{ "F", PT_BOOL, P(F), "0", 0, 0, NULL, "a file per rank instead of one shared file (-F)" },
	{ "e", PT_BOOL, P(e), "0", 0, 0, NULL, "fsync at the end of the write phase, timed (-e)" },
	{ "B", PT_BOOL, P(B), "0", 0, 0, NULL, "O_DIRECT (-B, --posix.odirect)" },
	{ "C", PT_BOOL, P(C), "0", 0, 0, NULL, "read another rank's data (-C)" },
	{ "Q", PT_INT, P(Q), "1", 1, 1 << 20, NULL, "with C: how many nodes away (-Q)" },
	{ "R", PT_BOOL, P(R), "0", 0, 0, NULL, "check every word read against its writer (-R)" },
	{ "k", PT_BOOL, P(k), "0", 0, 0, NULL, "keep the file(s) between phases' runs (-k)" },
	{ "D", PT_DURATION, P(D), "0", 0, 0, NULL, "stonewall: stop transfers after this long (-D)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

enum { M_WBW, M_RBW, M_WIOPS, M_RIOPS, M_WOPEN, M_WXFER, M_WCLOSE, M_ROPEN, M_RXFER, M_RCLOSE,
       M_WLAT, M_WP99, M_RLAT, M_RP99, M_COUNT };

static const struct metric_def ior_metrics[] = {
	{ "write_bw", "MiB/s", HIGHER_IS_BETTER, "Write MiB/s", 1 },
	{ "read_bw", "MiB/s", HIGHER_IS_BETTER, "Read MiB/s", 0 },
	{ "write_iops", "IOPS", HIGHER_IS_BETTER, "Write IOPS", 0 },
	{ "read_iops", "IOPS", HIGHER_IS_BETTER, "Read IOPS", 0 },
	{ "write_open_s", "s", LOWER_IS_BETTER, "Write open s", 0 },
	{ "write_xfer_s", "s", LOWER_IS_BETTER, "Write transfer s", 0 },
	{ "write_close_s", "s", LOWER_IS_BETTER, "Write close s", 0 },
	{ "read_open_s", "s", LOWER_IS_BETTER, "Read open s", 0 },
	{ "read_xfer_s", "s", LOWER_IS_BETTER, "Read transfer s", 0 },
	{ "read_close_s", "s", LOWER_IS_BETTER, "Read close s", 0 },
	{ "write_lat_mean", "usec", LOWER_IS_BETTER, "Write latency mean", 0 },
	{ "write_lat_p99", "usec", LOWER_IS_BETTER, "Write latency p99", 0 },
	{ "read_lat_mean", "usec", LOWER_IS_BETTER, "Read latency mean", 0 },
	{ "read_lat_p99", "usec", LOWER_IS_BETTER, "Read latency p99", 0 },
};

/* PTS's ior-1.0.0: -w -r -i 100 -e -B, IOR's default 1 MiB blocks and
 * 256 KiB transfers, one process; its figure is the mean of the 100. */
static const struct preset ior_presets[] = {
	{ "ior-seed000", "w=1,r=1,i=100,e=1,B=1,b=1m,t=256k", "Write Test" },
	{ NULL, NULL, NULL },
};

#define MAGIC 0x10c0ffee00000000ULL

struct phase {
	uint64_t t[6];		/* open start/end, xfer start/end, close start/end */
	uint64_t bytes, xfers;
	struct histogram lat;	/* per transfer call */
};

struct ior_ctx {
	const struct ior_params *p;
	const char *dir;
	int rank, size;
	uint64_t *buf;
	uint64_t bytes[2];	/* all ranks' bytes per phase (write, read) */
	uint64_t calls[2];	/* transfer calls in the merged histograms */
	uint64_t read_limit;	/* stonewalled writes: transfers every rank wrote */
	char ranks[2][2048];	/* per rank: source, first open, last close */
	char err[4600];
	/* this rank's transfers over time, both phases (the HTML timeline is
	 * rank 0's), and every rank's latencies per phase ([0] read) */
	struct winbuf wb;
	struct histogram hist[2];
};

static bool writes(const struct ior_params *p)
{
	return p->w || !p->r;
}

static bool reads(const struct ior_params *p)
{
	return p->r || !p->w;
}

static void file_name(const struct ior_ctx *c, int rank, char *buf, size_t len)
{
	if (c->p->F)
		snprintf(buf, len, "%s/testFile.%08d", c->dir, rank);
	else
		snprintf(buf, len, "%s/testFile", c->dir);
}

static uint64_t offset_of(const struct ior_ctx *c, int rank, int64_t seg, uint64_t xfer)
{
	const struct ior_params *p = c->p;

	if (p->F)
		return (uint64_t)seg * p->b + xfer * p->t;
	return (uint64_t)seg * (uint64_t)c->size * p->b + (uint64_t)rank * p->b + xfer * p->t;
}

/* Whose data this rank reads: itself, or with C another rank. */
static int source_rank(const struct ior_ctx *c)
{
	int shift;

	if (!c->p->C || c->size == 1)
		return c->rank;
	/* IOR moves Q nodes away: by one rank with round-robin placement, by
	 * the ranks per node with block placement.  On one node, block
	 * placement would read its own data back, so shift by one rank. */
	shift = comm_ranks_on_first_node();
	if (shift == c->size)
		shift = 1;
	return (int)((c->rank + c->p->Q * shift) % c->size);
}

static int fail(struct ior_ctx *c, const char *what, const char *path)
{
	int e = errno;

	snprintf(c->err, sizeof(c->err), "%s %s: %s%s", what, path, strerror(e),
		 e == ENOSPC ? " (the target is full: lower b= or s=)" : "");
	return -1;
}

static int check_buffer(struct ior_ctx *c, int writer, uint64_t off, size_t len)
{
	uint64_t want = MAGIC | ((uint64_t)writer << 16);

	for (size_t i = 0; i < len / 8; i++)
		if (c->buf[i] != want) {
			snprintf(c->err, sizeof(c->err), "data check failed at offset %llu: found 0x%016llx, "
				 "expected rank %d's 0x%016llx", (unsigned long long)(off + i * 8),
				 (unsigned long long)c->buf[i], writer, (unsigned long long)want);
			return -1;
		}
	return 0;
}

/* One phase on this rank; errors land in c->err. */
static int do_phase(struct ior_ctx *c, bool write_phase, struct phase *ph)
{
	const struct ior_params *p = c->p;
	int src = write_phase ? c->rank : source_rank(c);
	uint64_t per_block = (p->b + p->t - 1) / p->t;
	uint64_t deadline = p->D > 0 ? (uint64_t)(p->D * 1e9) : UINT64_MAX;
	char path[4200];
	int fd, flags = write_phase ? O_CREAT | O_RDWR : O_RDWR;

	memset(ph, 0, sizeof(*ph));
	hist_init(&ph->lat);
	file_name(c, src, path, sizeof(path));
	if (p->B)
		flags |= O_DIRECT;
	ph->t[0] = comm_now();
	fd = open(path, flags | O_CLOEXEC, 0644);
	ph->t[1] = comm_now();
	if (fd < 0)
		return fail(c, write_phase ? "creating" : "opening", path);
	ph->t[2] = comm_now();
	for (int64_t seg = 0; seg < p->s; seg++)
		for (uint64_t x = 0; x < per_block; x++) {
			uint64_t off = offset_of(c, src, seg, x);
			size_t len = (size_t)(x == per_block - 1 ? p->b - x * p->t : p->t);
			/* IOR loops on short transfers; the call after a short
			 * one says why (ENOSPC, EFBIG). */
			uint64_t t0 = now_ns();
			for (size_t done = 0; done < len;) {
				char *at = (char *)c->buf + done;
				ssize_t n = write_phase ? pwrite(fd, at, len - done, (off_t)(off + done))
							: pread(fd, at, len - done, (off_t)(off + done));
				if (n <= 0) {
					if (n == 0)
						errno = write_phase ? ENOSPC : EIO;
					close(fd);
					return fail(c, write_phase ? "writing" : "reading", path);
				}
				done += (size_t)n;
			}
			uint64_t t1 = now_ns();
			hist_add(&ph->lat, t1 - t0);
			winbuf_add(&c->wb, t1, write_phase, len, t1 - t0);
			if (!write_phase && p->R && check_buffer(c, src, off, len)) {
				close(fd);
				return -1;
			}
			ph->bytes += len;
			ph->xfers++;
			if (comm_now() - ph->t[2] > deadline || workload_stopped() ||
			    (!write_phase && ph->xfers == c->read_limit))
				goto stonewall;
		}
stonewall:
	if (write_phase && p->e && fsync(fd)) {
		close(fd);
		return fail(c, "fsync", path);
	}
	ph->t[3] = comm_now();
	ph->t[4] = comm_now();
	if (close(fd))
		return fail(c, "closing", path);
	ph->t[5] = comm_now();
	return 0;
}

static void remove_files(struct ior_ctx *c)
{
	char path[4200];

	if (c->p->k)
		return;
	if (c->p->F || c->rank == 0) {
		file_name(c, c->rank, path, sizeof(path));
		unlink(path);
	}
}

/* Run a phase on every rank and reduce it: bandwidth over the global
 * window, IOPS over the transfer window, the slowest rank's times. */
static int phase_all(struct ior_ctx *c, bool write_phase, double *bw, double *iops,
		     double *open_s, double *xfer_s, double *close_s, double *lat, double *p99)
{
	struct phase ph;
	uint64_t lo[2], hi[4], sum[2];
	int rc;

	comm_sync();
	rc = do_phase(c, write_phase, &ph);
	if (rc)
		error_set("%s", c->err);
	if (comm_agree(rc != 0))
		return -1;
	lo[0] = ph.t[0];
	lo[1] = ph.t[2];
	hi[0] = ph.t[5];
	hi[1] = ph.t[3];
	hi[2] = ph.t[1] - ph.t[0];
	hi[3] = ph.t[5] - ph.t[4];
	sum[0] = ph.bytes;
	sum[1] = ph.xfers;
	/* Every rank's window and source, kept for the record (and the tests
	 * that recompute the bandwidth from them). */
	{
		uint64_t mine[3] = { ph.t[0], ph.t[5], (uint64_t)(write_phase ? c->rank : source_rank(c)) };
		uint64_t *all = calloc((size_t)c->size * 3, sizeof(*all));
		char *out = c->ranks[write_phase ? 0 : 1];
		size_t at = 0;
		if (all) {
			comm_allgather(mine, 3, all);
			for (int r = 0; r < c->size && at < 2000; r++)
				at += (size_t)snprintf(out + at, 2048 - at, "%s%d<-%llu@%.9f-%.9f",
						       r ? " " : "", r, (unsigned long long)all[r * 3 + 2],
						       (double)all[r * 3] / 1e9, (double)all[r * 3 + 1] / 1e9);
			free(all);
		}
	}
	/* A stonewalled write leaves less than asked: the read phase reads
	 * what every rank wrote, as IOR reads back what was written. */
	if (write_phase) {
		c->read_limit = ph.xfers;
		comm_reduce(&c->read_limit, 1, COMM_MIN);
	}
	comm_reduce(lo, 2, COMM_MIN);
	comm_reduce(hi, 4, COMM_MAX);
	comm_reduce(sum, 2, COMM_SUM);
	c->bytes[write_phase ? 0 : 1] += sum[0];
	/* Transfer latencies: every rank's histogram, merged bucket by bucket,
	 * and over the iterations. */
	comm_merge_hist(&ph.lat);
	hist_merge(&c->hist[write_phase ? 1 : 0], &ph.lat);
	c->calls[write_phase ? 0 : 1] += ph.lat.n;
	*lat = c->hist[write_phase ? 1 : 0].mean / 1e3;
	*p99 = (double)hist_percentile(&c->hist[write_phase ? 1 : 0], 99) / 1e3;
	*bw = (double)sum[0] / 1048576.0 / ((double)(hi[0] - lo[0]) / 1e9);
	*iops = (double)sum[1] / ((double)(hi[1] - lo[1]) / 1e9);
	*open_s = (double)hi[2] / 1e9;
	*xfer_s = (double)(hi[1] - lo[1]) / 1e9;
	*close_s = (double)hi[3] / 1e9;
	return 0;
}

static int ior_run(struct wl_ctx *ctx, double *v)
{
	const struct ior_params *p = ctx->params;
	struct ior_ctx c = { .p = p, .dir = ctx->dir, .rank = comm_rank(), .size = comm_size(),
			     .read_limit = UINT64_MAX };
	char hosts[1024];
	int rc = 0;

	for (int m = 0; m < M_COUNT; m++)
		v[m] = NAN;
	hist_init(&c.hist[0]);
	hist_init(&c.hist[1]);
	if (winbuf_init(&c.wb, 4096))
		return -1;
	if (posix_memalign((void **)&c.buf, 4096, (size_t)p->t)) {
		winbuf_free(&c.wb);
		return error_set("out of memory for a %llu-byte transfer", (unsigned long long)p->t);
	}
	winbuf_start(&c.wb, now_ns(), 100000000ULL);	/* 100 ms: IOR phases are short */
	for (size_t i = 0; i < p->t / 8; i++)
		c.buf[i] = MAGIC | ((uint64_t)c.rank << 16);
	/* IOR's -i: the phases again, the files removed between iterations
	 * (unless k); each figure the mean over the iterations, latencies
	 * from the transfers of all of them. */
	double sum[M_COUNT] = { 0 };
	for (int64_t it = 0; it < p->i && !rc; it++) {
		double one[M_COUNT];
		for (int m = 0; m < M_COUNT; m++)
			one[m] = NAN;
		if (it > 0) {
			comm_sync();
			remove_files(&c);
		}
		/* A shared file starts empty: rank 0 removes it before anyone opens. */
		if (c.rank == 0 && !p->F) {
			char path[4200];
			file_name(&c, 0, path, sizeof(path));
			unlink(path);
		}
		c.read_limit = UINT64_MAX;
		if (writes(p))
			rc = phase_all(&c, true, &one[M_WBW], &one[M_WIOPS], &one[M_WOPEN],
				       &one[M_WXFER], &one[M_WCLOSE], &one[M_WLAT], &one[M_WP99]);
		if (!rc && reads(p))
			rc = phase_all(&c, false, &one[M_RBW], &one[M_RIOPS], &one[M_ROPEN],
				       &one[M_RXFER], &one[M_RCLOSE], &one[M_RLAT], &one[M_RP99]);
		for (int m = 0; m < M_COUNT; m++)
			sum[m] += one[m];
		/* the latency figures are the merged histograms' (the last call's) */
		for (int m = M_WLAT; m < M_COUNT; m++)
			v[m] = one[m];
	}
	for (int m = 0; m < M_WLAT && !rc; m++)
		v[m] = sum[m] / (double)p->i;
	free(c.buf);
	if (!rc && ctx->series) {
		struct timeline *tl = malloc(sizeof(*tl));
		const struct winbuf *one = &c.wb;
		winbuf_roll(&c.wb, now_ns());
		if (tl) {
			timeline_from(tl, &one, 1);
			timeline_json(tl, &c.hist[0], &c.hist[1], NULL, ctx->series, SERIES_MAX);
			free(tl);
		}
	}
	winbuf_free(&c.wb);
	/* Every rank removes its files (rank 0 the shared one) once all are
	 * done with them, on failure too. */
	comm_sync();
	remove_files(&c);
	if (rc)
		return -1;
	ctx->bytes_written = (int64_t)c.bytes[0];	/* every rank's */
	ctx->bytes_read = (int64_t)c.bytes[1];
	comm_hosts(hosts, sizeof(hosts));
	if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX,
			 "%s\n%s %llu x %llu bytes per rank in %llu-byte transfers, %s%s%s, "
			 "%lld iteration%s (figures: their mean; bytes and transfers: all)\n"
			 "write %.2f MiB/s, %llu bytes (open %.4f s, transfer %.4f s, close %.4f s), "
			 "%llu transfers timed (latency mean %.1f us, p99 %.1f us)\n"
			 "write per rank (rank<-data of rank@open-close s): %s\n"
			 "read %.2f MiB/s, %llu bytes%s%s\n"
			 "read per rank (rank<-data of rank@open-close s): %s\n",
			 hosts, p->F ? "file per rank," : "one shared file,", (unsigned long long)p->s,
			 (unsigned long long)p->b, (unsigned long long)p->t, p->B ? "O_DIRECT" : "buffered",
			 p->e ? ", fsync after writing" : "", p->D > 0 ? ", stonewalled" : "",
			 (long long)p->i, p->i == 1 ? "" : "s",
			 v[M_WBW], (unsigned long long)c.bytes[0], v[M_WOPEN], v[M_WXFER], v[M_WCLOSE],
			 (unsigned long long)c.calls[0], v[M_WLAT], v[M_WP99],
			 c.ranks[0], v[M_RBW], (unsigned long long)c.bytes[1],
			 p->C && reads(p) ? ", reordered (C)" : "",
			 p->R && reads(p) ? ", every word checked against its writer" : "", c.ranks[1]);
	return 0;
}

static int ior_validate(const void *p)
{
	const struct ior_params *ip = p;

	if (ip->r && !ip->w)
		return error_set("parameter 'r': reading needs the files a write phase leaves: "
				 "use w=1,r=1 (or neither: both run)");
	if (ip->t % 8)
		return error_set("parameter 't': the transfer size must be a multiple of 8 bytes");
	if (ip->b % ip->t)
		return error_set("parameter 'b': the block size must be a multiple of t (IOR's rule)");
	if (ip->B && ip->t % 512)
		return error_set("parameter 't': with B (O_DIRECT) it must be a multiple of 512");
	return 0;
}

static uint64_t ior_space(const void *p)
{
	const struct ior_params *ip = p;

	/* Per process; the runner checks one, ranks share the target. */
	return sat_mul3(ip->b, sat_u(ip->s), (uint64_t)comm_size());
}

static void ior_describe(const void *p, char *buf, size_t len)
{
	const struct ior_params *ip = p;
	char b[32], t[32];

	format_size(ip->b, b, sizeof(b));
	format_size(ip->t, t, sizeof(t));
	snprintf(buf, len, "%s Test - Block Size: %s - Transfer: %s - Segments: %lld - %s%s%s%s",
		 writes(ip) && reads(ip) ? "Write + Read" : writes(ip) ? "Write" : "Read", b, t,
		 (long long)ip->s, ip->F ? "File Per Rank" : "Shared File", ip->B ? " - O_DIRECT" : "",
		 ip->e ? " - fsync" : "", ip->i > 1 ? " - Mean of Iterations" : "");
}

const struct workload wl_ior = {
	.name = "ior",
	.summary = "IOR data phases: ranks write/read blocks of a shared file or a file each (MPI)",
	.title = "IOR (fsbench)",
	.params = ior_params,
	.params_size = sizeof(struct ior_params),
	.metrics = ior_metrics,
	.nmetrics = M_COUNT,
	.presets = ior_presets,
	.flags = WL_MPI,
	.validate = ior_validate,
	.space_needed = ior_space,
	.describe = ior_describe,
	.run = ior_run,
};
