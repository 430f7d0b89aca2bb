/*
 * results.c: a job's result from its threads' counts (io_job_result): the
 * I/Os, bytes and latencies merged exactly, fio's window statistics and
 * distributions, CPU and faults; what a compressing filesystem was given
 * (io_job_compress_ratio); and fio's group_reporting merge of two entries
 * (io_result_merge).  The I/O path (backend.c) fills the threads; nothing
 * here runs while they do.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/compress.h"
#include "../core/str.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
/* Direction d of r emptied: no I/O, no latency, no window. */
static void dir_clear(struct io_result *r, int d)
{
	r->ios[d] = r->bytes[d] = 0;
	hist_init(&r->dir_clat[d]);
	hist_init(&r->lat_hist[d]);
	hist_init(&r->slat_hist[d]);
	moments_init(&r->lat[d]);
	moments_init(&r->slat[d]);
	for (int p = 0; p < IO_PRIOS; p++)
		hist_init(&r->prio_hist[d][p]);
	memset(&r->rate[d], 0, sizeof(r->rate[d]));
}

void io_result_init(struct io_result *r)
{
	memset(r, 0, sizeof(*r));
	hist_init(&r->clat);
	hist_init(&r->sync);
	for (int d = 0; d < IO_DIRS; d++)
		dir_clear(r, d);
}

void io_job_result(const struct io_job *job, int lo, int hi, struct io_result *res)
{
	io_result_init(res);
	/* the priorities cmdprio_* gave, [0] the job's own (fio's default, 0) */
	uint8_t unused[IO_DIRS][BSSPLIT_MAX];
	(void)io_prio_table(&job->o, res->prio_value, unused);
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
			for (int p = 0; t->prio_h && p < IO_PRIOS; p++)
				hist_merge(&res->prio_hist[d][p], &t->prio_h[d][p]);
		}
		hist_merge(&res->sync, &t->sync_h);
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
double io_job_compress_ratio(const struct io_job *job, size_t *unit, const char **how)
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

/* src's direction sd added into dst's direction dd: counts, latencies
 * and the window statistics pooled, as fio's sum_thread_stats. */
static void merge_dir(struct io_result *dst, int dd, const struct io_result *src, int sd)
{
	struct io_rate_stats *a = &dst->rate[dd];
	const struct io_rate_stats *b = &src->rate[sd];

	dst->ios[dd] += src->ios[sd];
	dst->bytes[dd] += src->bytes[sd];
	hist_merge(&dst->dir_clat[dd], &src->dir_clat[sd]);
	hist_merge(&dst->lat_hist[dd], &src->lat_hist[sd]);
	hist_merge(&dst->slat_hist[dd], &src->slat_hist[sd]);
	moments_merge(&dst->lat[dd], &src->lat[sd]);
	moments_merge(&dst->slat[dd], &src->slat[sd]);
	for (int p = 0; p < IO_PRIOS; p++)
		hist_merge(&dst->prio_hist[dd][p], &src->prio_hist[sd][p]);
	if (b->samples && !a->samples) {
		*a = *b;
	} else if (b->samples) {
		pool(&a->bw_mean, &a->bw_dev, a->samples, b->bw_mean, b->bw_dev, b->samples);
		pool(&a->iops_mean, &a->iops_dev, a->samples, b->iops_mean, b->iops_dev, b->samples);
		a->bw_min = fmin(a->bw_min, b->bw_min);
		a->bw_max = fmax(a->bw_max, b->bw_max);
		a->iops_min = fmin(a->iops_min, b->iops_min);
		a->iops_max = fmax(a->iops_max, b->iops_max);
		a->samples += b->samples;
	}
}

struct io_result *io_result_mixed(const struct io_result *r)
{
	struct io_result *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	*m = *r;
	for (int d = 1; d < IO_DIRS; d++) {
		merge_dir(m, 0, r, d);
		dir_clear(m, d);
	}
	return m;
}

void io_result_merge(struct io_result *dst, const struct io_result *src)
{
	if (src->error && !dst->error) {	/* the group's first */
		dst->error = src->error;
		str_copy(dst->errmsg, sizeof(dst->errmsg), src->errmsg);
	}
	for (int d = 0; d < IO_DIRS; d++)
		merge_dir(dst, d, src, d);
	hist_merge(&dst->sync, &src->sync);
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
