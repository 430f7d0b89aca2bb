/*
 * io.c: the io workload: fio-class I/O on the target, fio's option names.
 *
 * Its parameters are the I/O core's option table (io/options.c), the one
 * declaration of every I/O option: what `run io:rw=randread,...`, suite
 * files, `fsbench io --bs=4k` and fio job files (io/jobfile.c) all parse.  prepare lays the files
 * out once (untimed), each repetition is one run of the job, and the files
 * are removed at cleanup.  The metrics are fio's headline numbers: IOPS,
 * bandwidth in MiB/s (fio's unit), completion latency mean, stddev,
 * percentiles and max (from merged log-linear histograms); detail keeps
 * a fio-shaped text summary with the measured compressibility of the data.
 */
#include "workload.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../io/iojob.h"
#include "../targets/profiles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum {
	M_IOPS, M_MIB, M_MEAN, M_SD, M_P50, M_P90, M_P99, M_P999, M_P9999, M_MAX,
	M_RIOPS, M_WIOPS, M_COUNT
};

static const struct metric_def io_metrics[] = {
	{ "iops", "IOPS", HIGHER_IS_BETTER, "IOPS", 1 },
	/* fio's unit (its text also prints MB/s in brackets; one unit here,
	 * not two columns of the same figure) */
	{ "bw_mib", "MiB/s", HIGHER_IS_BETTER, "Bandwidth", 0 },
	{ "clat_mean", "usec", LOWER_IS_BETTER, "Latency mean", 0 },
	{ "clat_stddev", "usec", LOWER_IS_BETTER, "Latency stddev", 0 },
	{ "clat_p50", "usec", LOWER_IS_BETTER, "Latency p50", 0 },
	{ "clat_p90", "usec", LOWER_IS_BETTER, "Latency p90", 0 },
	{ "clat_p99", "usec", LOWER_IS_BETTER, "Latency p99", 0 },
	{ "clat_p99.9", "usec", LOWER_IS_BETTER, "Latency p99.9", 0 },
	{ "clat_p99.99", "usec", LOWER_IS_BETTER, "Latency p99.99", 0 },
	{ "clat_max", "usec", LOWER_IS_BETTER, "Latency max", 0 },
	{ "read_iops", "IOPS", HIGHER_IS_BETTER, "Read IOPS", 0 },
	{ "write_iops", "IOPS", HIGHER_IS_BETTER, "Write IOPS", 0 },
};

/* pts/fio-1.13.2's job (docs/workloads/io.md). */
#define PTS_FIO "ioengine=io_uring,iodepth=64,size=1g,direct=0,buffered=1,startdelay=5," \
		"ramp_time=5,runtime=20,time_based=1,bs=4k"
static const struct preset io_presets[] = {
	{ "fio-randread-4k-uring", "rw=randread," PTS_FIO, NULL },
	{ "fio-randwrite-4k-uring", "rw=randwrite," PTS_FIO, NULL },
	{ "fio-seqread-128k", "rw=read,bs=128k,size=1g,runtime=20,time_based=1", NULL },
	{ "fio-seqwrite-128k", "rw=write,bs=128k,size=1g,runtime=20,time_based=1", NULL },
	{ NULL, NULL, NULL },
};

static int io_validate(const void *p)
{
	const struct io_options *o = p;

	/* the rule fsbench io keeps too (io/paths.c); a run never leaves
	 * its target, whatever allow_existing_write says */
	if (o->read_iolog[0])
		return error_set("read_iolog replays a log with `fsbench io`; a run's tests are "
				 "workloads of their own");
	/* fio's log files go where their names say: a run writes only in
	 * its target, and keeps its figures in the store */
	const char *log = o->write_iolog[0] ? "write_iolog" : o->write_lat_log[0] ? "write_lat_log"
			: o->write_bw_log[0] ? "write_bw_log" : o->write_iops_log[0] ? "write_iops_log"
			: NULL;
	if (log)
		return error_set("%s writes a log where its name says, which `fsbench io` does; a run "
				 "writes only in its target and keeps its figures in the store", log);
	return io_where_check(o, NULL, true) || io_options_validate(o) ? -1 : 0;
}

static uint64_t io_space(const void *p)
{
	return io_options_space(p);
}

static const char *engine_title(const struct io_options *o)
{
	const struct io_engine_ops *e = engine_at(o->ioengine);

	return e ? e->title : "?";
}

static void io_describe(const void *p, char *buf, size_t len)
{
	const struct io_options *o = p;
	bool direct = o->direct || !o->buffered;
	char bs[32], extra[96] = "";
	size_t n;

	if (o->bsrange[0])
		str_copy(bs, sizeof(bs), o->bsrange);
	else if (o->bs % (1 << 20) == 0)
		snprintf(bs, sizeof(bs), "%lluMB", (unsigned long long)(o->bs >> 20));
	else if (o->bs % 1024 == 0)
		snprintf(bs, sizeof(bs), "%lluKB", (unsigned long long)(o->bs >> 10));
	else
		snprintf(bs, sizeof(bs), "%lluB", (unsigned long long)o->bs);
	/* PTS's title, then what its profile keeps fixed but fsbench lets vary. */
	const struct io_engine_ops *eng = engine_at(o->ioengine);
	if (o->iodepth != 64 && eng && !(eng->flags & ENGINE_SYNC))
		snprintf(extra, sizeof(extra), " - IO Depth: %lld", (long long)o->iodepth);
	n = strlen(extra);
	if (o->numjobs > 1)
		snprintf(extra + n, sizeof(extra) - n, " - Jobs: %lld", (long long)o->numjobs);
	snprintf(buf, len, "Type: %s - Engine: %s - Buffered: %s - Direct: %s - Block Size: %s%s",
		 io_rw_title(o->rw), engine_title(o), direct ? "No" : "Yes", direct ? "Yes" : "No",
		 bs, extra);
}

static int io_metrics_used(const void *p)
{
	const struct io_options *o = p;

	/* a read/write mix adds each direction's IOPS; a job that trims
	 * (trimwrite included) gives the figures of all its I/Os */
	return io_has_reads(o) && io_has_writes(o) ? M_COUNT : M_RIOPS;
}

/* The engine that drives a device itself (sg, mtd) needs the raw target
 * of its kind; NULL when this one fits, else why not. */
static const char *device_engine_misfit(const struct io_options *o, int kind)
{
	const struct io_engine_ops *e = engine_at(o->ioengine);

	if (!e || !(e->flags & (ENGINE_SCSI | ENGINE_MTD)))
		return NULL;
	if ((e->flags & ENGINE_SCSI) && kind != MOUNT_RAW)
		return "ioengine=sg sends SCSI commands to the disk itself: run it on --fs raw "
		       "with --device DEV (a SCSI disk: a USB key, a SATA disk)";
	if ((e->flags & ENGINE_MTD) && kind != MOUNT_RAW_MTD)
		return "ioengine=mtd drives raw NAND: run it on --fs raw-mtd --vm (the guest's "
		       "simulated NAND)";
	return NULL;
}

static int io_validate_fs(const void *params, const struct fs_profile *p)
{
	const char *why = device_engine_misfit(params, p->kind);

	return why ? error_set("%s", why) : 0;
}

/* A raw target: the job on its device, checked, held and sized by
 * fsbench (its region), in place of the job's files. */
static int prepare_on_device(struct wl_ctx *ctx)
{
	const struct io_options *given = ctx->params;
	const struct fs_spec *fs = ctx->fs;
	const char *why = device_engine_misfit(given, fs ? (int)fs->profile->kind : -1);
	const struct io_engine_ops *e = engine_at(given->ioengine);
	/* SCSI commands go to the disk itself (the region's loop device
	 * takes none), kept by the engine within the region's bytes */
	const char *dev = e && (e->flags & ENGINE_SCSI) && ctx->disk ? ctx->disk : ctx->device;
	struct io_options *o;
	struct io_job *job;
	int rc;

	if (why)
		return error_set("%s", why);
	if ((given->filename[0] && strcmp(given->filename, dev)) || given->directory[0])
		return error_set("fs '%s' has no filesystem: the job runs on its device (%s), so it "
				 "takes no filename= or directory=", ctx->label, dev);
	if (given->nrfiles != 1)
		return error_set("fs '%s': the job runs on one device: nrfiles=1", ctx->label);
	if (!(o = malloc(sizeof(*o))))
		return error_set("out of memory");
	*o = *given;
	str_copy(o->filename, sizeof(o->filename), dev);
	str_copy(o->target_device, sizeof(o->target_device), dev);
	o->target_device_bytes = ctx->device_bytes;
	rc = io_job_open(o, ctx->dir, &job);
	free(o);
	if (rc)
		return -1;
	ctx->state = job;
	return 0;
}

static int io_prepare(struct wl_ctx *ctx)
{
	const char *why = device_engine_misfit(ctx->params, -1);
	struct io_job *job;

	if (ctx->device)
		return prepare_on_device(ctx);
	if (why)	/* a filesystem or a directory: no device to drive */
		return error_set("%s", why);

	/* within a run, never out of the target: checked again on the
	 * scratch itself, where a symbolic link on the way can be seen */
	if (io_where_check(ctx->params, ctx->dir, true) || io_job_open(ctx->params, ctx->dir, &job))
		return -1;
	ctx->state = job;
	return 0;
}

static double usec(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static int io_run(struct wl_ctx *ctx, double *v)
{
	struct io_result *res = malloc(sizeof(*res));

	if (!res)
		return error_set("out of memory");
	if (io_job_run(ctx->state, res)) {
		free(res);
		return -1;
	}
	/* fio's sums: each direction over the time it ran (a verified write
	 * job's read-back is a read phase of its own) */
	double rs = io_dir_secs(ctx->params, res, 0), ws = io_dir_secs(ctx->params, res, 1);
	double ts = io_dir_secs(ctx->params, res, DIR_TRIM);
	v[M_IOPS] = (double)res->ios[0] / rs + (double)res->ios[1] / ws +
		    (double)res->ios[DIR_TRIM] / ts;
	v[M_MIB] = ((double)res->bytes[0] / rs + (double)res->bytes[1] / ws +
		    (double)res->bytes[DIR_TRIM] / ts) / (1 << 20);
	v[M_MEAN] = res->clat.mean / 1000.0;	/* NAN below when clat was not kept */
	v[M_SD] = hist_stddev(&res->clat) / 1000.0;
	v[M_P50] = usec(hist_percentile(&res->clat, 50));
	v[M_P90] = usec(hist_percentile(&res->clat, 90));
	v[M_P99] = usec(hist_percentile(&res->clat, 99));
	v[M_P999] = usec(hist_percentile(&res->clat, 99.9));
	v[M_P9999] = usec(hist_percentile(&res->clat, 99.99));
	v[M_MAX] = usec(res->clat.n ? res->clat.max : 0);
	if (!res->clat.n)	/* gtod_reduce, disable_clat: no latency, not 0 */
		v[M_MEAN] = v[M_SD] = v[M_P50] = v[M_P90] = v[M_P99] = v[M_P999] = v[M_P9999] =
			v[M_MAX] = NAN;
	v[M_RIOPS] = (double)res->ios[0] / rs;
	v[M_WIOPS] = (double)res->ios[1] / ws;
	ctx->bytes_read = (int64_t)res->bytes[0];
	ctx->bytes_written = (int64_t)res->bytes[1];
	if (ctx->detail)
		io_result_text(ctx->params, res, 0, NULL, ctx->detail, DETAIL_MAX);
	if (ctx->series)
		timeline_json(&res->series, &res->dir_clat[0], &res->dir_clat[1],
			      io_has_trims(ctx->params) ? &res->dir_clat[DIR_TRIM] : NULL, ctx->series,
			      SERIES_MAX);
	free(res);
	return 0;
}

static void io_cleanup(struct wl_ctx *ctx)
{
	io_job_close(ctx->state);
	ctx->state = NULL;
}

const struct workload wl_io = {
	.name = "io",
	.summary = "fio-class I/O: patterns, engines, queue depth, latency percentiles",
	.title = "Flexible IO Tester (fsbench io)",
	.params = io_option_defs,
	.params_size = sizeof(struct io_options),
	.metrics = io_metrics,
	.nmetrics = M_COUNT,
	.presets = io_presets,
	.flags = WL_RAW,
	.validate = io_validate,
	.validate_fs = io_validate_fs,
	.space_needed = io_space,
	.describe = io_describe,
	.metrics_used = io_metrics_used,
	.prepare = io_prepare,
	.run = io_run,
	.cleanup = io_cleanup,
};
