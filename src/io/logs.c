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
 * appending to the one file, as fio does.  log_store_compressed=1 writes
 * each as FILE.fz, the text compressed with zlib (fio's .fz holds its
 * binary samples instead: `fsbench io --inflate-log` reads fsbench's, and
 * so does any zlib tool).  clat, lat and slat are fio's
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
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static int seq;	/* fio's log number, across the whole `fsbench io` */

/* An open log: the text goes to f; with log_store_compressed, f is a
 * memory stream whose text is compressed into fd when it is closed. */
struct log_out {
	FILE *f;
	int fd;			/* -1: f writes the file itself */
	char *text;
	size_t len;
	char path[PARAM_STR_MAX + 80];
};

static int open_log(const struct io_options *o, const char *prefix, const char *kind, int n,
		    struct log_out *l)
{
	if (o->per_job_logs)
		snprintf(l->path, sizeof(l->path), "%s_%s.%d.log%s", prefix, kind, n,
			 o->log_store_compressed ? ".fz" : "");
	else
		snprintf(l->path, sizeof(l->path), "%s_%s.log%s", prefix, kind,
			 o->log_store_compressed ? ".fz" : "");
	int fd = open(l->path, O_WRONLY | O_CREAT | (o->per_job_logs ? O_TRUNC : O_APPEND) |
		      O_NOFOLLOW | O_CLOEXEC, 0644);
	l->fd = -1;
	l->text = NULL;
	l->len = 0;
	if (fd >= 0 && o->log_store_compressed) {
		l->fd = fd;
		l->f = open_memstream(&l->text, &l->len);
	} else {
		l->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	}
	if (!l->f) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot write the log %s", l->path);
	}
	return 0;
}

/* The text as one zlib stream appended to fd (threads sharing a file,
 * per_job_logs=0, each append a stream of their own; io_log_inflate
 * reads them in turn). */
static int deflate_to(int fd, const char *text, size_t len)
{
	unsigned char out[1 << 16];
	z_stream z;
	int rc = 0, zr;

	memset(&z, 0, sizeof(z));
	if (deflateInit(&z, Z_DEFAULT_COMPRESSION) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)text;
	do {
		size_t step = len > (1u << 30) ? 1u << 30 : len;
		z.avail_in = (uInt)step;
		len -= step;
		do {
			z.next_out = out;
			z.avail_out = sizeof(out);
			zr = deflate(&z, len ? Z_NO_FLUSH : Z_FINISH);
			size_t have = sizeof(out) - z.avail_out;
			for (size_t done = 0; have && done < have && !rc;) {
				ssize_t w = write(fd, out + done, have - done);
				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					rc = -1;
				else
					done += (size_t)w;
			}
		} while (!rc && z.avail_out == 0);
	} while (!rc && len);
	if (!rc && zr != Z_STREAM_END)
		rc = -1;
	deflateEnd(&z);
	return rc;
}

static int close_log(struct log_out *l)
{
	int bad = ferror(l->f);

	if (fclose(l->f) || bad) {
		if (l->fd >= 0)
			close(l->fd);
		free(l->text);
		return error_errno("writing the log %s", l->path);
	}
	if (l->fd >= 0) {
		int e = deflate_to(l->fd, l->text ? l->text : "", l->len);
		free(l->text);
		if (close(l->fd) || e)
			return error_errno("writing the compressed log %s", l->path);
	}
	return 0;
}

int io_log_inflate(const char *path, FILE *out)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	unsigned char in[1 << 16], buf[1 << 16];
	z_stream z;
	bool any = false, open_stream = false;
	ssize_t n;

	if (fd < 0)
		return error_errno("--inflate-log: cannot open %s", path);
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		close(fd);
		return error_set("--inflate-log: zlib would not start");
	}
	while ((n = read(fd, in, sizeof(in))) > 0 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		z.next_in = in;
		z.avail_in = (uInt)n;
		while (z.avail_in) {
			z.next_out = buf;
			z.avail_out = sizeof(buf);
			int zr = inflate(&z, Z_NO_FLUSH);
			open_stream = true;
			if (zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && z.avail_out)) {
				inflateEnd(&z);
				close(fd);
				return error_set("--inflate-log: %s is not a log fsbench compressed (%s)",
						 path, z.msg ? z.msg : "zlib error");
			}
			fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
			if (zr == Z_STREAM_END) {	/* the next thread's stream, if any */
				any = true;
				open_stream = false;
				inflateReset(&z);
			}
		}
	}
	inflateEnd(&z);
	close(fd);
	if (n < 0)
		return error_errno("--inflate-log: reading %s", path);
	if (open_stream || !any)
		return error_set("--inflate-log: %s ends inside a compressed stream", path);
	return ferror(out) ? error_set("--inflate-log: writing the output") : 0;
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
				fprintf(f, "%llu, %llu, %u, %u", (unsigned long long)(e->t_ns / 1000000),
					v, e->dir, e->len);
				if (o->log_offset)
					fprintf(f, ", %llu", (unsigned long long)e->offset);
				/* fio: the value with log_prio, else whether it is
				 * real-time (class 1) */
				if (o->log_prio)
					fprintf(f, ", 0x%04x\n", e->prio);
				else
					fprintf(f, ", %u\n", e->prio >> 13 == 1);
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
			fprintf(f, "%llu, %llu, %d, 0%s%s\n", (unsigned long long)(w->end_ns / 1000000),
				v, d, o->log_offset ? ", 0" : "", o->log_prio ? ", 0x0000" : ", 0");
		}
	}
}

int io_write_logs(const struct io_job *job)
{
	const struct io_options *o = &job->o;

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
			struct log_out l;
			if (open_log(o, o->write_lat_log, lat_kinds[k], n, &l))
				return -1;
			if (k < 2 || t->async)	/* fio: no slat for a synchronous engine */
				write_entries(l.f, t, LOG_LAT + k);
			if (close_log(&l))
				return -1;
		}
		const char *prefix[2] = { o->write_bw_log, o->write_iops_log };
		for (int k = 0; k < 2; k++) {
			if (!prefix[k][0])
				continue;
			struct log_out l;
			if (open_log(o, prefix[k], k ? "iops" : "bw", n, &l))
				return -1;
			write_entries(l.f, t, k ? LOG_IOPS : LOG_BW);
			if (close_log(&l))
				return -1;
		}
	}
	return 0;
}
