/*
 * iotext.c: one I/O job's result in fio's shape: the text fio users read
 * (IOPS=, BW= in MiB/s and MB/s, clat line, percentiles, cpu), kept as the
 * io workload's per-repetition detail and printed by `fsbench io`; and the
 * same numbers as JSON for scripts (--output-format=json).  It belongs to
 * the I/O core: it reads the core's own result structures, which the
 * report layer (store results only) never sees.
 */
#include "iojob.h"
#include "../core/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const double pcts[] = { 1, 5, 10, 50, 90, 95, 99, 99.5, 99.9, 99.99 };
#define NPCTS (sizeof(pcts) / sizeof(pcts[0]))

struct out {
	char *buf;
	size_t len, at;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->at >= o->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->at, o->len - o->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->at += (size_t)n;
	if (o->at >= o->len)
		o->at = o->len - 1;
}

static void si(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static void direction(struct out *o, const char *name, uint64_t ios, uint64_t bytes,
		      const struct histogram *h, double secs)
{
	char iops[32], vol[32];

	si((double)ios / secs, iops, sizeof(iops));
	bytes_text(bytes, vol, sizeof(vol));
	put(o, "  %s: IOPS=%s, BW=%.1fMiB/s (%.1fMB/s)(%s/%.0fmsec)\n", name, iops,
	    (double)bytes / secs / (1 << 20), (double)bytes / secs / 1e6, vol, secs * 1e3);
	if (!h->n)
		return;
	put(o, "    clat (usec): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", h->min / 1e3,
	    h->max / 1e3, h->mean / 1e3, hist_stddev(h) / 1e3);
	put(o, "    clat percentiles (usec):");
	for (size_t i = 0; i < NPCTS; i++)
		put(o, "%s %.2fth=[%.2f]", i ? "," : "", pcts[i], hist_percentile(h, pcts[i]) / 1e3);
	put(o, "\n");
}

void io_result_text(const struct io_options *opt, const struct io_result *r, int group,
		    char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	double secs = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;
	double wall = secs * (double)opt->numjobs;

	buf[0] = 0;
	put(&o, "%s: (groupid=%d, jobs=%lld): err= 0\n", opt->name, group, (long long)opt->numjobs);
	if (r->ios[DIR_READ] || io_has_reads(opt))
		direction(&o, "read", r->ios[DIR_READ], r->bytes[DIR_READ], &r->dir_clat[DIR_READ], secs);
	if (r->ios[DIR_WRITE] || io_has_writes(opt))
		direction(&o, "write", r->ios[DIR_WRITE], r->bytes[DIR_WRITE], &r->dir_clat[DIR_WRITE],
			  secs);
	put(&o, "  cpu: usr=%.2f%%, sys=%.2f%%\n", 100.0 * (double)r->usr_ns / 1e9 / wall,
	    100.0 * (double)r->sys_ns / 1e9 / wall);
	if (r->compress_ratio >= 0)
		put(&o, "  data: zstd compresses a sample of it to %.0f%% (%s buffers)\n",
		    100.0 * r->compress_ratio,
		    opt->buffer_pattern[0] ? "pattern" : opt->zero_buffers ? "zero"
		    : opt->buffer_compress_percentage ? "compressible" : "random");
	if (opt->verify)
		put(&o, "  verify: crc32c, %llu blocks read back and checked\n",
		    (unsigned long long)r->verified_blocks);
}

static json_t *direction_json(uint64_t ios, uint64_t bytes, const struct histogram *h, double secs)
{
	json_t *d = json_object(), *p = json_object();
	char key[32];

	json_object_set_new(d, "io_bytes", json_integer((json_int_t)bytes));
	json_object_set_new(d, "total_ios", json_integer((json_int_t)ios));
	json_object_set_new(d, "iops", json_real((double)ios / secs));
	json_object_set_new(d, "bw_bytes", json_real((double)bytes / secs));
	json_object_set_new(d, "runtime_ms", json_real(secs * 1e3));
	json_t *c = json_object();
	json_object_set_new(c, "min", json_integer((json_int_t)(h->n ? h->min : 0)));
	json_object_set_new(c, "max", json_integer((json_int_t)h->max));
	json_object_set_new(c, "mean", json_real(h->mean));
	json_object_set_new(c, "stddev", json_real(hist_stddev(h)));
	for (size_t i = 0; i < NPCTS; i++) {
		snprintf(key, sizeof(key), "%f", pcts[i]);
		json_object_set_new(p, key, json_integer((json_int_t)hist_percentile(h, pcts[i])));
	}
	json_object_set_new(c, "percentile", p);
	json_object_set_new(d, "clat_ns", c);
	return d;
}

json_t *io_result_json(const struct io_options *opt, const struct io_result *r, int group)
{
	json_t *j = json_object();
	double secs = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;

	json_object_set_new(j, "jobname", json_string(opt->name));
	json_object_set_new(j, "groupid", json_integer(group));
	json_object_set_new(j, "numjobs", json_integer(opt->numjobs));
	json_object_set_new(j, "read", direction_json(r->ios[0], r->bytes[0], &r->dir_clat[0], secs));
	json_object_set_new(j, "write", direction_json(r->ios[1], r->bytes[1], &r->dir_clat[1], secs));
	json_object_set_new(j, "usr_cpu_s", json_real((double)r->usr_ns / 1e9));
	json_object_set_new(j, "sys_cpu_s", json_real((double)r->sys_ns / 1e9));
	if (r->compress_ratio >= 0)
		json_object_set_new(j, "zstd_ratio", json_real(r->compress_ratio));
	if (opt->verify)
		json_object_set_new(j, "verified_blocks", json_integer((json_int_t)r->verified_blocks));
	return j;
}
