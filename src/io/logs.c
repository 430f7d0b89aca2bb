/*
 * logs.c: fio's latency, bandwidth and IOPS logs for `fsbench io`
 * (write_lat_log=PREFIX, write_bw_log=PREFIX, write_iops_log=PREFIX,
 * log_avg_msec=MS), in fio's format, so that fio's own plotting tools read
 * them: one line per entry, "time (ms), value, direction (0 read, 1 write),
 * block size, priority", with log_offset=1 the I/O's offset before the
 * priority.  With log_avg_msec=0 every I/O is an entry (its
 * latency in ns; its own bandwidth in KiB/s; 1 for IOPS); otherwise each
 * window is one entry per direction with the window's mean latency, its
 * KiB/s and IO/s, and a block size of 0, as fio writes them.  Files are
 * named PREFIX_lat.N.log, PREFIX_clat.N.log, PREFIX_slat.N.log,
 * PREFIX_bw.N.log and PREFIX_iops.N.log, N counting every thread of every
 * job from 1; with per_job_logs=0, PREFIX_bw.log and so on, every thread
 * appending to the one file, as fio does.  clat, lat and slat are fio's
 * (iojob.h): the slat log is empty for a synchronous engine, as fio leaves
 * it, and a latency that disable_lat, _clat or _slat keeps out (or
 * gtod_reduce) has no log, as in fio.
 */
#include "io_internal.h"
#include "../core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int seq;	/* fio's log number, across the whole `fsbench io` */

static FILE *open_log(const struct io_options *o, const char *prefix, const char *kind, int n,
		      char *path, size_t len)
{
	if (o->per_job_logs)
		snprintf(path, len, "%s_%s.%d.log", prefix, kind, n);
	else
		snprintf(path, len, "%s_%s.log", prefix, kind);
	int fd = open(path, O_WRONLY | O_CREAT | (o->per_job_logs ? O_TRUNC : O_APPEND) |
		      O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		error_errno("cannot write the log %s", path);
	}
	return f;
}

static int close_log(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad)
		return error_errno("writing the log %s", path);
	return 0;
}

enum { LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_BW, LOG_IOPS };

static void write_entries(FILE *f, const struct io_thread *t, int kind)
{
	const struct io_options *o = t->o;

	if (t->log_each) {
		for (unsigned c = 0; c < t->nchunks; c++) {
			unsigned n = c + 1 == t->nchunks ? t->chunk_used : IO_LOG_CHUNK;
			for (unsigned i = 0; i < n; i++) {
				const struct io_logent *e = &t->chunks[c][i];
				unsigned long long v = kind == LOG_LAT ? e->lat_ns :
					kind == LOG_CLAT ? e->lat_ns - e->slat_ns :
					kind == LOG_SLAT ? e->slat_ns : kind == LOG_IOPS ? 1 :
					(unsigned long long)((double)e->len / 1024.0 /
							     ((double)(e->lat_ns ? e->lat_ns : 1) / 1e9));
				if (o->log_offset)
					fprintf(f, "%llu, %llu, %u, %u, %llu, 0\n",
						(unsigned long long)(e->t_ns / 1000000), v, e->dir, e->len,
						(unsigned long long)e->offset);
				else
					fprintf(f, "%llu, %llu, %u, %u, 0\n",
						(unsigned long long)(e->t_ns / 1000000), v, e->dir, e->len);
			}
		}
		return;
	}
	double secs = (double)t->wb.width_ns / 1e9;
	for (unsigned k = 0; k < t->wb.n; k++) {
		const struct win *w = &t->wb.w[k];
		for (int d = 0; d < IO_DIRS; d++) {
			if (!io_has_dir(o, d))
				continue;
			if (kind <= LOG_SLAT && !w->ios[d])
				continue;	/* no latency in a window without I/O */
			/* the window keeps clat's sum and slat's; lat is both */
			unsigned long long v = kind == LOG_CLAT ? w->lat_sum[d] / w->ios[d] :
				kind == LOG_SLAT ? w->slat_sum[d] / w->ios[d] :
				kind == LOG_LAT ? (w->lat_sum[d] + w->slat_sum[d]) / w->ios[d] :
				kind == LOG_BW ? (unsigned long long)((double)w->bytes[d] / 1024.0 / secs) :
				(unsigned long long)((double)w->ios[d] / secs);
			fprintf(f, o->log_offset ? "%llu, %llu, %d, 0, 0, 0\n" : "%llu, %llu, %d, 0, 0\n",
				(unsigned long long)(w->end_ns / 1000000), v, d);
		}
	}
}

int io_write_logs(const struct io_job *job)
{
	const struct io_options *o = &job->o;
	char path[PARAM_STR_MAX + 64];

	if (!o->write_lat_log[0] && !o->write_bw_log[0] && !o->write_iops_log[0])
		return 0;
	for (int i = 0; i < job->nthreads; i++) {
		const struct io_thread *t = &job->threads[i];
		int n = ++seq;
		static const char *const lat_kinds[] = { "lat", "clat", "slat" };
		const bool kept[3] = { !t->no_lat, !t->no_clat, !t->no_slat };
		for (int k = 0; o->write_lat_log[0] && k < 3; k++) {
			if (!kept[k])
				continue;
			FILE *f = open_log(o, o->write_lat_log, lat_kinds[k], n, path, sizeof(path));
			if (!f)
				return -1;
			if (k < 2 || t->async)	/* fio: no slat for a synchronous engine */
				write_entries(f, t, LOG_LAT + k);
			if (close_log(f, path))
				return -1;
		}
		const char *prefix[2] = { o->write_bw_log, o->write_iops_log };
		for (int k = 0; k < 2; k++) {
			if (!prefix[k][0])
				continue;
			FILE *f = open_log(o, prefix[k], k ? "iops" : "bw", n, path, sizeof(path));
			if (!f)
				return -1;
			write_entries(f, t, k ? LOG_IOPS : LOG_BW);
			if (close_log(f, path))
				return -1;
		}
	}
	return 0;
}
