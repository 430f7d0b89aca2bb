/*
 * iotext.c: one I/O job's result in fio's shape: the text fio users read
 * (IOPS=, BW= in fio's units, clat line, percentiles, cpu), kept as the
 * io workload's per-repetition detail and printed by `fsbench io`; and the
 * same numbers as JSON for scripts (--output-format=json).  It belongs to
 * the I/O core: it reads the core's own result structures, which the
 * report layer (store results only) never sees.
 */
#include "iojob.h"
#include "../core/version.h"
#include "../core/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The text's percentiles, and fio's default list (clat_percentiles) for
 * JSON and terse; percentile_list replaces both, as in fio. */
static const double pcts[] = { 1, 5, 10, 50, 90, 95, 99, 99.5, 99.9, 99.99 };
static const double fio_pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
				   99.95, 99.99 };
struct pct_list {
	double v[IO_PCTS_MAX];
	int n;
	bool bins;	/* json+: fio's histogram bins beside the percentiles */
};

static void pct_list_of(const struct io_options *o, const double *def, int ndef,
			struct pct_list *l)
{
	l->bins = false;
	l->n = o->parsed.npcts;
	memcpy(l->v, o->parsed.pcts, sizeof(double) * (size_t)l->n);
	if (l->n <= 0) {	/* none given: fio's list */
		l->n = ndef;
		memcpy(l->v, def, sizeof(double) * (size_t)ndef);
	}
}
#define PCTS_OF(o, def, l) pct_list_of(o, def, (int)(sizeof(def) / sizeof(def[0])), l)

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

/* A figure as fio's text prints it (its num2str with 4 digits): divided by
 * 1000 (or 1024, binary) until at most 4 digits are left, then as many
 * decimals as fit in 4 characters from what the last division left, the
 * last one rounded; none when only one would fit, rounding the whole.
 * 8189 -> "8189", 40960 -> "40.0Ki", 1280000 -> "1280k".  p: the prefix v
 * is in already (fio's steady-state line gives KiB with p 1, and its
 * decimal form keeps the count, as kB). */
static void fio_num_at(uint64_t v, int p, bool binary, const char *unit, char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const uint64_t k = binary ? 1024 : 1000;
	uint64_t rest = 0;
	int digits;
	bool divided = false;

	while (v > 9999 && p < 6) {
		rest = v % k;
		v /= k;
		p++;
		divided = true;
	}
	digits = v > 999 ? 4 : v > 99 ? 3 : v > 9 ? 2 : 1;
	const char *prefix = binary ? iec[p] : si[p];
	if (!divided) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)v, prefix, unit);
	} else if (4 - digits <= 1) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)(v + (rest >= k / 2)), prefix, unit);
	} else {
		int decimals = 4 - digits - 1;
		double scale = decimals == 2 ? 100 : 10;
		uint64_t frac = (uint64_t)((double)rest / (double)k * scale + 0.5);
		if (frac >= (uint64_t)scale) {	/* .96 to one decimal is 1.0: carried */
			v++;
			frac = 0;
		}
		snprintf(buf, len, "%llu.%0*llu%s%s", (unsigned long long)v, decimals,
			 (unsigned long long)frac, prefix, unit);
	}
}

static void fio_num(uint64_t v, bool binary, const char *unit, char *buf, size_t len)
{
	fio_num_at(v, 0, binary, unit, buf, len);
}

/* fio's "slat (usec): ..." lines: nothing when not measured. */
static void moments_line(struct out *o, const char *name, const struct moments *m)
{
	if (m->n)
		put(o, "    %s (usec): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", name, m->min / 1e3,
		    m->max / 1e3, m->mean / 1e3, moments_stddev(m) / 1e3);
}

/* fio's "clat percentiles (usec):" line, for any of its three latencies */
static void pct_line(struct out *o, const char *name, const struct histogram *h,
		     const struct pct_list *pl)
{
	if (!h->n)
		return;
	put(o, "    %s percentiles (usec):", name);
	for (int i = 0; i < pl->n; i++)
		put(o, "%s %.2fth=[%.2f]", i ? "," : "", pl->v[i], hist_percentile(h, pl->v[i]) / 1e3);
	put(o, "\n");
}

static void latency_split(const struct histogram *h, double ns_p[10], double us_p[10],
			  double ms_p[12]);

/* fio's "bw (  KiB/s):" and "iops        :" lines from the 500 ms
 * windows; per is the share of the group's aggregate bandwidth (agg_kib,
 * KiB/s; 0: this entry's own), at most 100%, as fio's. */
static void window_lines(struct out *o, const struct io_rate_stats *st, double agg_kib)
{
	double mn = st->bw_min, mx = st->bw_max, avg = st->bw_mean, dev = st->bw_dev;
	double per = agg_kib > 1 ? avg * 100.0 / agg_kib : 100.0;
	const char *unit = "KiB";

	if (!st->samples)
		return;
	if (per > 100.0)
		per = 100.0;
	if (avg > 1024.0 * 1024.0) {	/* fio's switch to MiB */
		mn /= 1024.0, mx /= 1024.0, avg /= 1024.0, dev /= 1024.0;
		unit = "MiB";
	}
	put(o, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
	    "samples=%llu\n", unit, (unsigned long long)mn, (unsigned long long)mx, per, avg, dev,
	    (unsigned long long)st->samples);
	put(o, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n",
	    (unsigned long long)st->iops_min, (unsigned long long)st->iops_max, st->iops_mean,
	    st->iops_dev, (unsigned long long)st->samples);
}

/* fio's "lat (usec)   : 2=0.01%, 4=..." lines, five ranges a line, the
 * empty ones left out. */
static void lat_lines(struct out *o, const double *p, int n, const char *unit)
{
	static const char *const keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					    "1000", "2000", ">=2000" };
	int on_line = 0;

	for (int k = 0; k < n; k++) {
		if (p[k] <= 0.0)
			continue;
		if (on_line == 5) {
			put(o, "\n");
			on_line = 0;
		}
		if (on_line)
			put(o, ", ");
		else
			put(o, "  lat (%s)   : ", unit);
		put(o, "%s=%3.2f%%", keys[k], p[k]);
		on_line++;
	}
	if (on_line)
		put(o, "\n");
}

/* fio's distribution line: each bucket's share (%), a bucket with any
 * count at least 0.1, as fio's stat_calc_dist. */
static void dist_line(struct out *o, const char *head, const char *const *names,
		      const uint64_t *count)
{
	uint64_t total = 0;

	for (int i = 0; i < IO_DEPTH_BUCKETS; i++)
		total += count[i];
	put(o, "%s", head);
	for (int i = 0; i < IO_DEPTH_BUCKETS; i++) {
		double v = total ? 100.0 * (double)count[i] / (double)total : 0;
		if (v < 0.1 && count[i])
			v = 0.1;
		put(o, "%s%s=%3.1f%%", i ? ", " : "", names[i], v);
	}
	put(o, "\n");
}

/* Direction d of r: fio's IOPS/BW line, its latency lines, and the
 * percentiles the job asked for, in fio's order (slat, clat, lat), then
 * the window statistics. */
static void direction(struct out *o, const char *name, const struct io_result *r, int d,
		      struct io_pct_on on, double secs, const struct pct_list *pl, double agg_kib)
{
	char iops[32], bw[32], bw10[32], vol[32];
	uint64_t ios = r->ios[d], bytes = r->bytes[d];
	const struct histogram *h = &r->dir_clat[d];
	uint64_t rate = (uint64_t)((double)bytes / secs);

	/* fio's units: whole I/Os a second, bytes a second and bytes, each
	 * scaled to 4 digits */
	fio_num((uint64_t)((double)ios / secs), false, "", iops, sizeof(iops));
	fio_num(rate, true, "B/s", bw, sizeof(bw));
	fio_num(rate, false, "B/s", bw10, sizeof(bw10));
	fio_num(bytes, true, "B", vol, sizeof(vol));
	put(o, "  %s: IOPS=%s, BW=%s (%s)(%s/%.0fmsec)\n", name, iops, bw, bw10, vol, secs * 1e3);
	if (!h->n)
		return;
	moments_line(o, "slat", &r->slat[d]);
	moments_line(o, "clat", &h->m);
	if (on.slat)
		pct_line(o, "slat", &r->slat_hist[d], pl);
	if (on.clat)
		pct_line(o, "clat", h, pl);
	if (on.lat)
		pct_line(o, "lat", &r->lat_hist[d], pl);
	window_lines(o, &r->rate[d], agg_kib);
}

/* fio's "ss" string: "iops_slope:0.010000%" */
static void ss_name(const struct io_ss_result *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s:%f%s", ss->spec.measure == SS_IOPS ? "iops" : "bw",
		 ss->spec.slope ? "_slope" : "", (float)ss->spec.limit, ss->spec.pct ? "%" : "");
}

/* fio prints its error counts when continue_on_error is on for a type. */
static bool continues(const struct io_options *o)
{
	struct io_errors e;

	return !io_errors(o, &e) && e.mask;
}

/* The job's error as fio reports it: the one that ended it, or with
 * continue_on_error the first it went past (the job still succeeded). */
static int shown_error(const struct io_options *o, const struct io_result *r)
{
	return r->error ? r->error : r->total_err && continues(o) ? r->first_error : 0;
}

/* latency_percentile as fio reports it (100 without a target) */
static double latency_pct(const struct io_options *o)
{
	return o->latency_target > 0 ? o->parsed.lat_pct : 100;
}

static uint64_t ss_mean(const uint64_t *v, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/* The threads' time added up, read-back included, in seconds: what fio's
 * CPU percentages are of (never 0: a job ended before its first I/O). */
static double thread_secs(const struct io_result *r)
{
	return r->runtime_ns ? (double)r->runtime_ns / 1e9 : 1e-9;
}

/* unified_rw_reporting's "mixed" direction: r folded into one (NULL when
 * the job does not ask, or out of memory: then the directions alone), and
 * its time, the longest direction's, as fio's runtime[0]. */
static struct io_result *mixed_of(const struct io_options *opt, const struct io_result *r,
				  double *secs)
{
	*secs = 1e-9;
	if (!io_unified(opt))
		return NULL;
	for (int d = 0; d < IO_DIRS; d++)
		if (r->ios[d] && io_dir_secs(opt, r, d) > *secs)
			*secs = io_dir_secs(opt, r, d);
	return io_result_mixed(r);
}

/* Directions shown on their own: all but with unified_rw_reporting=mixed. */
static bool dirs_shown(const struct io_options *opt, const struct io_result *mixed)
{
	return io_unified(opt) != UNIFIED_MIXED || !mixed;
}

void io_group_add(struct io_group_stats *g, const struct io_options *o, const struct io_result *r)
{
	for (int d = 0; d < IO_DIRS; d++) {
		double secs = io_dir_secs(o, r, d);
		if (!r->bytes[d] || secs <= 0)
			continue;
		/* in whole ms, as fio keeps runtimes, so that the group's
		 * bandwidths agree with each other */
		uint64_t ms = (uint64_t)(secs * 1e3 + 0.5);
		ms = ms ? ms : 1;
		double bw = (double)r->bytes[d] * 1e3 / (double)ms;
		if (!g->n[d] || bw < g->min_bw[d])
			g->min_bw[d] = bw;
		if (!g->n[d] || bw > g->max_bw[d])
			g->max_bw[d] = bw;
		if (!g->n[d] || ms < g->min_run[d])
			g->min_run[d] = ms;
		if (ms > g->max_run[d])
			g->max_run[d] = ms;
		g->bytes[d] += r->bytes[d];
		g->n[d]++;
	}
}

/* The group's aggregate bandwidth in direction d, bytes a second: all
 * its bytes over its longest run, as fio's agg. */
static double group_agg(const struct io_group_stats *g, int d)
{
	return g && g->max_run[d] ? (double)g->bytes[d] * 1e3 / (double)g->max_run[d] : 0;
}

void io_group_text(const struct io_group_stats *g, int group, char *buf, size_t len)
{
	static const char *const names[IO_DIRS] = { "   READ", "  WRITE", "   TRIM" };
	struct out o = { buf, len, 0 };

	buf[0] = 0;
	put(&o, "\nRun status group %d (all jobs):\n", group);
	for (int d = 0; d < IO_DIRS; d++) {
		char agg[32], agg10[32], mn[32], mn10[32], mx[32], mx10[32], io[32], io10[32];
		if (!g->n[d])
			continue;
		uint64_t a = (uint64_t)group_agg(g, d);
		fio_num(a, true, "B/s", agg, sizeof(agg));
		fio_num(a, false, "B/s", agg10, sizeof(agg10));
		fio_num((uint64_t)g->min_bw[d], true, "B/s", mn, sizeof(mn));
		fio_num((uint64_t)g->min_bw[d], false, "B/s", mn10, sizeof(mn10));
		fio_num((uint64_t)g->max_bw[d], true, "B/s", mx, sizeof(mx));
		fio_num((uint64_t)g->max_bw[d], false, "B/s", mx10, sizeof(mx10));
		fio_num(g->bytes[d], true, "B", io, sizeof(io));
		fio_num(g->bytes[d], false, "B", io10, sizeof(io10));
		put(&o, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", names[d],
		    agg, agg10, mn, mx, mn10, mx10, io, io10, (unsigned long long)g->min_run[d],
		    (unsigned long long)g->max_run[d]);
	}
}

void io_disk_text(const struct io_disk *d, char *buf, size_t len)
{
	snprintf(buf, len, "\nDisk stats (read/write):\n  %s: ios=%llu/%llu, merge=%llu/%llu, "
		 "ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%\n", d->name,
		 (unsigned long long)d->read_ios, (unsigned long long)d->write_ios,
		 (unsigned long long)d->read_merges, (unsigned long long)d->write_merges,
		 (unsigned long long)d->read_ticks, (unsigned long long)d->write_ticks,
		 (unsigned long long)d->in_queue, d->util);
}

void io_result_text(const struct io_options *opt, const struct io_result *r, int group,
		    const struct io_group_stats *g, char *buf, size_t len)
{
	static const char *const level_names[IO_DEPTH_BUCKETS] = { "1", "2", "4", "8", "16", "32",
								    ">=64" };
	static const char *const batch_names[IO_DEPTH_BUCKETS] = { "0", "4", "8", "16", "32", "64",
								    ">=64" };
	static const char *const dir_names[IO_DIRS] = { "read", "write", "trim" };
	struct out o = { buf, len, 0 };
	double wall = thread_secs(r);
	struct pct_list pl;

	PCTS_OF(opt, pcts, &pl);
	buf[0] = 0;
	int err = shown_error(opt, r);
	if (err)	/* fio's: "err= 5 (file:..., func=..., error=Input/output error)" */
		put(&o, "%s: (groupid=%d, jobs=%d): err=%2d (error=%s)\n", opt->name, group,
		    r->nthreads, err, strerror(err));
	else
		put(&o, "%s: (groupid=%d, jobs=%d): err= 0\n", opt->name, group, r->nthreads);
	struct io_pct_on on = io_pct_on(opt);
	const bool has[IO_DIRS] = { io_has_reads(opt), io_has_writes(opt), io_has_trims(opt) };
	double msecs;
	struct io_result *mixed = mixed_of(opt, r, &msecs);
	for (int d = 0; d < IO_DIRS && dirs_shown(opt, mixed); d++)
		if (r->ios[d] || has[d])
			direction(&o, dir_names[d], r, d, on, io_dir_secs(opt, r, d), &pl,
				  group_agg(g, d) / 1024.0);
	if (mixed)
		direction(&o, "mixed", mixed, 0, on, msecs, &pl,
			  (group_agg(g, 0) + group_agg(g, 1) + group_agg(g, 2)) / 1024.0);
	free(mixed);
	if (r->clat.n) {	/* fio's distribution of the I/Os' latencies */
		double ns[10], us[10], ms[12];
		latency_split(&r->clat, ns, us, ms);
		lat_lines(&o, ns, 10, "nsec");
		lat_lines(&o, us, 10, "usec");
		lat_lines(&o, ms, 12, "msec");
	}
	if (r->sync.n) {	/* fio's block for its sync I/Os */
		put(&o, "  fsync/fdatasync/sync_file_range:\n");
		moments_line(&o, "sync", &r->sync.m);
		if (on.clat || on.lat)
			pct_line(&o, "sync", &r->sync, &pl);
	}
	put(&o, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
	    100.0 * (double)r->usr_ns / 1e9 / wall, 100.0 * (double)r->sys_ns / 1e9 / wall,
	    (unsigned long long)r->ctx, (unsigned long long)r->majf, (unsigned long long)r->minf);
	dist_line(&o, "  IO depths    : ", level_names, r->depth_level);
	dist_line(&o, "     submit    : ", batch_names, r->depth_submit);
	dist_line(&o, "     complete  : ", batch_names, r->depth_complete);
	/* fsbench goes on with a short transfer itself: none is short here */
	put(&o, "     issued rwts: total=%llu,%llu,%llu,0 short=0,0,0,0 dropped=0,0,0,0\n",
	    (unsigned long long)r->ios[0], (unsigned long long)r->ios[1],
	    (unsigned long long)r->ios[2]);
	if (continues(opt))	/* fio's line */
		put(&o, "     errors    : total=%llu, first_error=%d/<%s>\n",
		    (unsigned long long)r->total_err, r->first_error, strerror(r->first_error));
	if (opt->latency_target > 0) {	/* fio's line, target in ns and window in us */
		put(&o, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		    (unsigned long long)(opt->latency_target * 1e9 + 0.5),
		    (unsigned long long)(opt->latency_window * 1e6 + 0.5), latency_pct(opt),
		    r->latency_depth);
	}
	if (r->ss.on) {	/* fio's line */
		char bw[32], bw10[32], iops[32];
		/* fio's: the mean in whole KiB/s, scaled from Ki (and as k) */
		uint64_t kib = ss_mean(r->ss.bw, r->ss.dur) / 1024;
		fio_num_at(kib, 1, true, "B/s", bw, sizeof(bw));
		fio_num_at(kib, 1, false, "B/s", bw10, sizeof(bw10));
		fio_num(ss_mean(r->ss.iops, r->ss.dur), false, "", iops, sizeof(iops));
		put(&o, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		    r->ss.attained ? "yes" : "no", bw, bw10, iops,
		    r->ss.spec.measure == SS_IOPS ? "iops" : "bw",
		    r->ss.spec.slope ? " slope" : " mean dev", r->ss.criterion, r->ss.spec.pct ? "%" : "");
	}
	if (r->compress_ratio >= 0)
		put(&o, "  data: zstd compresses a sample of it to %.0f%% in independent %zu KiB "
		    "pieces, %s (%s buffers)\n", 100.0 * r->compress_ratio, r->compress_unit / 1024,
		    r->compress_how ? r->compress_how : "", opt->buffer_pattern[0] ? "pattern"
		    : opt->zero_buffers ? "zero" : opt->buffer_compress_percentage ? "compressible"
		    : "random");
	if (io_verify_mode(opt))
		put(&o, "  verify: %s%s, %llu blocks read back and checked\n",
		    io_verify_name(io_verify_mode(opt)), opt->verify_pattern[0] &&
		    io_verify_mode(opt) != VERIFY_PATTERN ? " and pattern" : "",
		    (unsigned long long)r->verified_blocks);
}

/* ---- fio's JSON layout (fio 3.x --output-format=json) ------------------ */

/* fio's json+ "bins": each bucket with samples, keyed by the value fio's
 * plat_idx_to_val gives it.  fsbench's buckets are fio's (histogram.h:
 * the same 6 bits, the same index), with two groups more above fio's
 * last, which fio's cap folds into its last bucket, as here. */
#define FIO_PLAT_NR (29 * HIST_PER_GROUP)
static json_t *bins_json(const struct histogram *h)
{
	json_t *b = json_object();
	uint64_t over = 0;
	char key[32];

	for (unsigned i = FIO_PLAT_NR - 1; i < HIST_BUCKETS; i++)
		over += h->bucket[i];
	for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
		uint64_t n = i == FIO_PLAT_NR - 1 ? over : h->bucket[i];
		if (!n)
			continue;
		snprintf(key, sizeof(key), "%llu", (unsigned long long)hist_value(i));
		json_object_set_new(b, key, json_integer((json_int_t)n));
	}
	return b;
}

/* fio's latency object: the moments, and percentiles where the job asked
 * for this latency's (h non-NULL; fio gives them for clat only, by
 * default). */
static json_t *lat_json(const struct moments *m, const struct histogram *h,
			const struct pct_list *pl)
{
	json_t *c = json_object();

	json_object_set_new(c, "min", json_integer((json_int_t)(m->n ? m->min : 0)));
	json_object_set_new(c, "max", json_integer((json_int_t)(m->n ? m->max : 0)));
	json_object_set_new(c, "mean", json_real(m->n ? m->mean : 0));
	json_object_set_new(c, "stddev", json_real(m->n ? moments_stddev(m) : 0));
	json_object_set_new(c, "N", json_integer((json_int_t)m->n));
	if (h && h->n) {
		json_t *p = json_object();
		char key[32];
		for (int i = 0; i < pl->n; i++) {
			snprintf(key, sizeof(key), "%f", pl->v[i]);
			json_object_set_new(p, key, json_integer((json_int_t)hist_percentile(h, pl->v[i])));
		}
		json_object_set_new(c, "percentile", p);
		if (pl->bins)
			json_object_set_new(c, "bins", bins_json(h));
	}
	return c;
}

static json_t *fio_direction(const struct io_result *r, int dir, struct io_pct_on on,
			     double secs, const struct pct_list *pl)
{
	json_t *d = json_object();
	uint64_t ios = r->ios[dir], bytes = r->bytes[dir];
	const struct histogram *h = &r->dir_clat[dir];
	const struct io_rate_stats *st = &r->rate[dir];
	json_object_set_new(d, "io_bytes", json_integer((json_int_t)bytes));
	json_object_set_new(d, "io_kbytes", json_integer((json_int_t)(bytes / 1024)));
	json_object_set_new(d, "bw_bytes", json_integer((json_int_t)((double)bytes / secs)));
	json_object_set_new(d, "bw", json_integer((json_int_t)((double)bytes / 1024 / secs)));
	json_object_set_new(d, "iops", json_real((double)ios / secs));
	json_object_set_new(d, "runtime", json_integer(ios ? (json_int_t)(secs * 1e3 + 0.5) : 0));
	json_object_set_new(d, "total_ios", json_integer((json_int_t)ios));
	json_object_set_new(d, "short_ios", json_integer(0));
	json_object_set_new(d, "drop_ios", json_integer(0));
	/* slat has N 0 for a synchronous engine, as fio's */
	json_object_set_new(d, "slat_ns", lat_json(&r->slat[dir], on.slat ? &r->slat_hist[dir] : NULL,
						   pl));
	json_object_set_new(d, "clat_ns", lat_json(&h->m, on.clat ? h : NULL, pl));
	json_object_set_new(d, "lat_ns", lat_json(&r->lat[dir], on.lat ? &r->lat_hist[dir] : NULL, pl));
	/* cmdprio_percentage: each priority's latencies (lat's with
	 * lat_percentiles, else clat's), where two or more priorities had
	 * I/Os, as fio's "prios" */
	int used = 0;
	for (int p = 0; p < IO_PRIOS; p++)
		used += r->prio_hist[dir][p].n > 0;
	if (used >= 2) {
		json_t *a = json_array();
		for (int p = 0; p < IO_PRIOS; p++) {
			const struct histogram *ph = &r->prio_hist[dir][p];
			if (!ph->n)
				continue;
			json_t *e = json_object();
			json_object_set_new(e, "prioclass", json_integer(r->prio_value[p] >> 13));
			json_object_set_new(e, "prio", json_integer(r->prio_value[p] & 7));
			json_object_set_new(e, on.lat ? "lat_ns" : "clat_ns",
					    lat_json(&ph->m, on.clat || on.lat ? ph : NULL, pl));
			json_array_append_new(a, e);
		}
		json_object_set_new(d, "prios", a);
	}
	bool any = st && st->samples;
	json_object_set_new(d, "bw_min", json_integer(any ? (json_int_t)st->bw_min : 0));
	json_object_set_new(d, "bw_max", json_integer(any ? (json_int_t)st->bw_max : 0));
	json_object_set_new(d, "bw_agg", json_real(any ? 100.0 : 0));
	json_object_set_new(d, "bw_mean", json_real(any ? st->bw_mean : 0));
	json_object_set_new(d, "bw_dev", json_real(any ? st->bw_dev : 0));
	json_object_set_new(d, "bw_samples", json_integer(any ? (json_int_t)st->samples : 0));
	json_object_set_new(d, "iops_min", json_integer(any ? (json_int_t)st->iops_min : 0));
	json_object_set_new(d, "iops_max", json_integer(any ? (json_int_t)st->iops_max : 0));
	json_object_set_new(d, "iops_mean", json_real(any ? st->iops_mean : 0));
	json_object_set_new(d, "iops_stddev", json_real(any ? st->iops_dev : 0));
	json_object_set_new(d, "iops_samples", json_integer(any ? (json_int_t)st->samples : 0));
	return d;
}

static json_t *buckets(const char *const *names, const uint64_t *count, int n)
{
	json_t *o = json_object();
	uint64_t total = 0;

	for (int i = 0; i < n; i++)
		total += count[i];
	for (int i = 0; i < n; i++)
		json_object_set_new(o, names[i], json_real(total ? 100.0 * (double)count[i] /
							     (double)total : 0));
	return o;
}

/* fio's latency distribution: percent of I/Os by total latency, in ns,
 * us and ms buckets; from the histogram (each bucket's midpoint). */
/* fio's latency distribution: the share of I/Os (%) in each of its
 * ranges, in nsec (10), usec (10) and msec (12). */
static void latency_split(const struct histogram *h, double ns_p[10], double us_p[10],
			  double ms_p[12])
{
	static const double lim[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
	uint64_t ns[10] = { 0 }, us[10] = { 0 }, ms[12] = { 0 };

	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		uint64_t c = h->bucket[b];
		if (!c)
			continue;
		double v = (double)hist_value(b);
		double x = v < 1e3 ? v : v < 1e6 ? v / 1e3 : v / 1e6;
		uint64_t *arr = v < 1e3 ? ns : v < 1e6 ? us : ms;
		int k = 0;
		while (k < 10 && x >= lim[k])
			k++;
		if (v >= 1e6 && k == 10)
			k = x < 2000 ? 10 : 11;
		else if (k == 10)
			k = 9;
		arr[k] += c;
	}
	double n = h->n ? (double)h->n : 1;
	for (int k = 0; k < 10; k++) {
		ns_p[k] = 100.0 * (double)ns[k] / n;
		us_p[k] = 100.0 * (double)us[k] / n;
	}
	for (int k = 0; k < 12; k++)
		ms_p[k] = 100.0 * (double)ms[k] / n;
}

static const char *const lat_keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					"1000", "2000", ">=2000" };

static void latency_dist(json_t *j, const struct histogram *h, double *out_us, double *out_ms)
{
	double ns[10], us[10], ms[12];

	latency_split(h, ns, us, ms);
	json_t *a = json_object(), *b = json_object(), *c = json_object();
	for (int k = 0; k < 10; k++) {
		json_object_set_new(a, lat_keys[k], json_real(ns[k]));
		json_object_set_new(b, lat_keys[k], json_real(us[k]));
		if (out_us)
			out_us[k] = us[k];
	}
	for (int k = 0; k < 12; k++) {
		json_object_set_new(c, lat_keys[k], json_real(ms[k]));
		if (out_ms)
			out_ms[k] = ms[k];
	}
	json_object_set_new(j, "latency_ns", a);
	json_object_set_new(j, "latency_us", b);
	json_object_set_new(j, "latency_ms", c);
}

json_t *io_given_json(const char *given)
{
	json_t *o = json_object();

	for (const char *p = given; *p;) {
		const char *nl = strchr(p, '\n'), *eq = strchr(p, '=');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (eq && (size_t)(eq - p) < len) {
			char key[128];
			snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
			json_object_set_new(o, key, json_stringn(eq + 1, len - (size_t)(eq - p) - 1));
		}
		p += len + (nl != NULL);
	}
	return o;
}

static const char *const level_names[IO_DEPTH_BUCKETS] = { "1", "2", "4", "8", "16", "32", ">=64" };
static const char *const batch_names[IO_DEPTH_BUCKETS] = { "0", "4", "8", "16", "32", "64", ">=64" };

static json_t *result_json(const struct io_options *opt, const struct io_result *r, int group,
			   const char *given, bool plus)
{
	json_t *j = json_object(), *opts = io_given_json(given ? given : "");
	double secs = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;
	struct pct_list pl;

	PCTS_OF(opt, fio_pcts, &pl);
	pl.bins = plus;
	double wall = thread_secs(r);

	json_object_set_new(j, "jobname", json_string(opt->name));
	json_object_set_new(j, "groupid", json_integer(group));
	json_object_set_new(j, "error", json_integer(shown_error(opt, r)));
	json_object_set_new(j, "eta", json_integer(0));
	json_object_set_new(j, "elapsed", json_integer((json_int_t)(secs + 0.999)));
	json_object_set_new(j, "job options", opts);
	struct io_pct_on on = io_pct_on(opt);
	double msecs;
	struct io_result *mixed = mixed_of(opt, r, &msecs);
	if (dirs_shown(opt, mixed)) {
		json_object_set_new(j, "read", fio_direction(r, 0, on, io_dir_secs(opt, r, 0), &pl));
		json_object_set_new(j, "write", fio_direction(r, 1, on, io_dir_secs(opt, r, 1), &pl));
		json_object_set_new(j, "trim", fio_direction(r, 2, on, io_dir_secs(opt, r, 2), &pl));
	}
	/* fio's sync I/Os (fsync=, fdatasync=): their percentiles where the
	 * job keeps clat's or lat's, as fio's */
	json_object_set_new(j, "sync", json_pack("{s:I,s:o}", "total_ios", (json_int_t)r->sync.n,
						 "lat_ns", lat_json(&r->sync.m, on.clat || on.lat ?
								    &r->sync : NULL, &pl)));
	if (mixed)
		json_object_set_new(j, "mixed", fio_direction(mixed, 0, on, msecs, &pl));
	free(mixed);
	/* The threads are one job, as with fio's group_reporting, which sums
	 * its jobs' runtimes here: usr_cpu x job_runtime is then all the CPU. */
	json_object_set_new(j, "job_runtime", json_integer((json_int_t)(r->runtime_ns / 1000000.0 + 0.5)));
	json_object_set_new(j, "usr_cpu", json_real(100.0 * (double)r->usr_ns / 1e9 / wall));
	json_object_set_new(j, "sys_cpu", json_real(100.0 * (double)r->sys_ns / 1e9 / wall));
	json_object_set_new(j, "ctx", json_integer((json_int_t)r->ctx));
	json_object_set_new(j, "majf", json_integer((json_int_t)r->majf));
	json_object_set_new(j, "minf", json_integer((json_int_t)r->minf));
	json_object_set_new(j, "iodepth_level", buckets(level_names, r->depth_level, IO_DEPTH_BUCKETS));
	json_object_set_new(j, "iodepth_submit", buckets(batch_names, r->depth_submit, IO_DEPTH_BUCKETS));
	json_object_set_new(j, "iodepth_complete", buckets(batch_names, r->depth_complete,
							   IO_DEPTH_BUCKETS));
	latency_dist(j, &r->clat, NULL, NULL);
	/* fio's: the depth latency_target found, the target in ns, the
	 * window in us; the job's iodepth and zeros without one */
	if (continues(opt)) {	/* fio's, only then */
		json_object_set_new(j, "total_err", json_integer((json_int_t)r->total_err));
		json_object_set_new(j, "first_error", json_integer(r->first_error));
	}
	json_object_set_new(j, "latency_depth", json_integer(r->latency_depth ? r->latency_depth
									     : opt->iodepth));
	json_object_set_new(j, "latency_target",
			    json_integer((json_int_t)(opt->latency_target * 1e9 + 0.5)));
	json_object_set_new(j, "latency_percentile", json_real(latency_pct(opt)));
	json_object_set_new(j, "latency_window",
			    json_integer((json_int_t)(opt->latency_window * 1e6 + 0.5)));
	if (r->ss.on) {	/* fio's "steadystate", key for key */
		char name[64], crit[64];
		json_t *ss = json_object(), *data = json_object(), *iops = json_array(),
		       *bw = json_array();
		ss_name(&r->ss, name, sizeof(name));
		snprintf(crit, sizeof(crit), "%f%s", (float)r->ss.criterion, r->ss.spec.pct ? "%" : "");
		json_object_set_new(ss, "ss", json_string(name));
		json_object_set_new(ss, "duration", json_integer(r->ss.dur));
		json_object_set_new(ss, "attained", json_integer(r->ss.attained));
		json_object_set_new(ss, "criterion", json_string(crit));
		json_object_set_new(ss, "max_deviation", json_real(r->ss.deviation));
		json_object_set_new(ss, "slope", json_real(r->ss.slope));
		for (unsigned i = 0; i < r->ss.dur; i++) {
			json_array_append_new(bw, json_integer((json_int_t)r->ss.bw[i]));
			json_array_append_new(iops, json_integer((json_int_t)r->ss.iops[i]));
		}
		json_object_set_new(data, "bw_mean", json_integer((json_int_t)ss_mean(r->ss.bw, r->ss.dur)));
		json_object_set_new(data, "iops_mean",
				    json_integer((json_int_t)ss_mean(r->ss.iops, r->ss.dur)));
		json_object_set_new(data, "iops", iops);
		json_object_set_new(data, "bw", bw);
		json_object_set_new(ss, "data", data);
		json_object_set_new(j, "steadystate", ss);
	}
	/* what fsbench adds, in one place fio's tools ignore */
	json_t *x = json_object();
	json_object_set_new(x, "numjobs", json_integer(r->nthreads));
	if (r->depth_n)
		json_object_set_new(x, "mean_inflight", json_real((double)r->depth_sum / (double)r->depth_n));
	if (r->compress_ratio >= 0) {
		json_object_set_new(x, "zstd_ratio", json_real(r->compress_ratio));
		json_object_set_new(x, "zstd_unit", json_integer((json_int_t)r->compress_unit));
	}
	if (io_verify_mode(opt))
		json_object_set_new(x, "verified_blocks", json_integer((json_int_t)r->verified_blocks));
	json_object_set_new(j, "fsbench", x);
	return j;
}

json_t *io_result_json(const struct io_options *opt, const struct io_result *r, int group,
		       const char *given)
{
	return result_json(opt, r, group, given, false);
}

json_t *io_result_json_plus(const struct io_options *opt, const struct io_result *r, int group,
			    const char *given)
{
	return result_json(opt, r, group, given, true);
}

/* ---- fio's terse format, version 3 ----------------------------------- */

static void terse_lat(struct out *o, const struct moments *m)
{
	if (!m->n) {
		put(o, ";0;0;0.000000;0.000000");
		return;
	}
	put(o, ";%llu;%llu;%f;%f", (unsigned long long)(m->min / 1000),
	    (unsigned long long)(m->max / 1000), m->mean / 1e3, moments_stddev(m) / 1e3);
}

/* Direction d in fio's terse fields; its one list of percentiles is lat's
 * with lat_percentiles, else clat's with clat_percentiles, else zeros. */
static void terse_dir(struct out *o, const struct io_result *r, int d, struct io_pct_on on,
		      double secs, const struct pct_list *pl)
{
	uint64_t ios = r->ios[d], bytes = r->bytes[d];
	const struct histogram *h = &r->dir_clat[d];
	const struct histogram *ph = on.lat ? &r->lat_hist[d] : on.clat ? h : NULL;
	const struct io_rate_stats *st = &r->rate[d];

	put(o, ";%llu;%llu;%llu;%llu", (unsigned long long)(bytes / 1024),
	    (unsigned long long)((double)bytes / 1024 / secs), (unsigned long long)((double)ios / secs),
	    (unsigned long long)(ios ? secs * 1e3 + 0.5 : 0));
	terse_lat(o, &r->slat[d]);
	terse_lat(o, &h->m);
	for (int i = 0; i < IO_PCTS_MAX; i++)
		if (i < pl->n && ph && ph->n)
			put(o, ";%f%%=%llu", pl->v[i],
			    (unsigned long long)(hist_percentile(ph, pl->v[i]) / 1000));
		else
			put(o, ";0%%=0");
	terse_lat(o, &r->lat[d]);
	bool any = st->samples > 0;
	put(o, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)(any ? st->bw_min : 0),
	    (unsigned long long)(any ? st->bw_max : 0), any ? 100.0 : 0.0, any ? st->bw_mean : 0,
	    any ? st->bw_dev : 0);
}

void io_result_terse(const struct io_options *opt, const struct io_result *r, int group,
		     const struct io_disk *disk, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	double wall = thread_secs(r);
	double us[10], ms[12];
	json_t *scratch = json_object();
	struct pct_list pl;

	PCTS_OF(opt, fio_pcts, &pl);
	buf[0] = 0;
	put(&o, "3;fsbench-%s;%s;%d;%d", fsbench_version, opt->name, group, shown_error(opt, r));
	struct io_pct_on on = io_pct_on(opt);
	double msecs;
	struct io_result *mixed = mixed_of(opt, r, &msecs);
	if (dirs_shown(opt, mixed)) {
		terse_dir(&o, r, 0, on, io_dir_secs(opt, r, 0), &pl);
		terse_dir(&o, r, 1, on, io_dir_secs(opt, r, 1), &pl);
	}
	if (mixed)	/* in the read's place with mixed, after the two with both */
		terse_dir(&o, mixed, 0, on, msecs, &pl);
	free(mixed);
	put(&o, ";%f%%;%f%%;%llu;%llu;%llu", 100.0 * (double)r->usr_ns / 1e9 / wall,
	    100.0 * (double)r->sys_ns / 1e9 / wall, (unsigned long long)r->ctx,
	    (unsigned long long)r->majf, (unsigned long long)r->minf);
	uint64_t total = 0;
	for (int b = 0; b < IO_DEPTH_BUCKETS; b++)
		total += r->depth_level[b];
	for (int b = 0; b < IO_DEPTH_BUCKETS; b++)
		put(&o, ";%.1f%%", total ? 100.0 * (double)r->depth_level[b] / (double)total : 0.0);
	latency_dist(scratch, &r->clat, us, ms);
	json_decref(scratch);
	for (int k = 0; k < 10; k++)
		put(&o, ";%.2f%%", us[k]);
	for (int k = 0; k < 12; k++)
		put(&o, ";%.2f%%", ms[k]);
	if (disk && disk->name[0])
		put(&o, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%.2f%%", disk->name,
		    (unsigned long long)disk->read_ios, (unsigned long long)disk->write_ios,
		    (unsigned long long)disk->read_merges, (unsigned long long)disk->write_merges,
		    (unsigned long long)disk->read_ticks, (unsigned long long)disk->write_ticks,
		    (unsigned long long)disk->in_queue, disk->util);
	if (continues(opt))
		put(&o, ";%llu;%d", (unsigned long long)r->total_err, r->first_error);
	put(&o, "\n");
}
