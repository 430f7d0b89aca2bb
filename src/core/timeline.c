/* timeline.c: window buffers and sample timelines (see timeline.h). */
#include "timeline.h"
#include "error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int winbuf_init(struct winbuf *b, unsigned cap)
{
	memset(b, 0, sizeof(*b));
	b->w = calloc(cap, sizeof(*b->w));
	if (!b->w)
		return error_set("out of memory for %u activity windows", cap);
	b->cap = cap;
	b->width_ns = 500000000ULL;
	return 0;
}

void winbuf_free(struct winbuf *b)
{
	free(b->w);
	b->w = NULL;
	b->cap = b->n = 0;
}

void winbuf_start(struct winbuf *b, uint64_t now, uint64_t width_ns)
{
	b->n = 0;
	b->width_ns = width_ns ? width_ns : 500000000ULL;
	b->start_ns = b->origin_ns = now;
	memset(&b->cur, 0, sizeof(b->cur));
}

void winbuf_roll(struct winbuf *b, uint64_t now)
{
	while (now - b->start_ns >= b->width_ns) {
		b->start_ns += b->width_ns;
		if (b->n == b->cap) {
			for (unsigned i = 0; i < b->cap / 2; i++) {
				struct win m = b->w[2 * i];
				const struct win *o = &b->w[2 * i + 1];
				for (int d = 0; d < 2; d++) {
					m.ios[d] += o->ios[d];
					m.bytes[d] += o->bytes[d];
					m.lat_sum[d] += o->lat_sum[d];
					m.slat_sum[d] += o->slat_sum[d];
				}
				m.end_ns = o->end_ns;
				b->w[i] = m;
			}
			b->n = b->cap / 2;
			b->width_ns *= 2;
		}
		b->cur.end_ns = b->start_ns - b->origin_ns;
		b->w[b->n++] = b->cur;
		memset(&b->cur, 0, sizeof(b->cur));
	}
}

void timeline_from(struct timeline *tl, const struct winbuf *const *bufs, int n)
{
	unsigned most = 0;

	tl->n = 0;
	for (int i = 0; i < n; i++)
		most = bufs[i]->n > most ? bufs[i]->n : most;
	unsigned per = (most + TIMELINE_MAX - 1) / TIMELINE_MAX;
	per = per ? per : 1;
	tl->width_ms = n ? (double)bufs[0]->width_ns * per / 1e6 : 0;
	for (unsigned k = 0; k < most && tl->n < TIMELINE_MAX; k += per) {
		uint64_t ios[TL_DIRS] = { 0 }, lat[TL_DIRS] = { 0 }, end = 0;
		for (int i = 0; i < n; i++)
			for (unsigned j = k; j < k + per && j < bufs[i]->n; j++) {
				for (int d = 0; d < TL_DIRS; d++) {
					ios[d] += bufs[i]->w[j].ios[d];
					lat[d] += bufs[i]->w[j].lat_sum[d];
				}
				end = bufs[i]->w[j].end_ns > end ? bufs[i]->w[j].end_ns : end;
			}
		tl->t_ms[tl->n] = (double)end / 1e6;
		for (int d = 0; d < TL_DIRS; d++) {
			tl->iops[d][tl->n] = (double)ios[d] / (tl->width_ms / 1e3);
			tl->lat_us[d][tl->n] = ios[d] ? (double)lat[d] / (double)ios[d] / 1e3 : NAN;
		}
		tl->n++;
	}
}

struct out {
	char *buf;
	size_t len, at;
	int full;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->full)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->at, o->len - o->at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->at)
		o->full = 1;
	else
		o->at += (size_t)n;
}

static void array(struct out *o, const double *v, int n)
{
	put(o, "[");
	for (int i = 0; i < n; i++) {
		if (isfinite(v[i]))
			put(o, "%s%.6g", i ? "," : "", v[i]);
		else
			put(o, "%snull", i ? "," : "");
	}
	put(o, "]");
}

/* 10 bins per decade from 100 ns to 100 s, plus one above. */
#define BINS 91
static double bin_edge(int i)
{
	return 100.0 * pow(10.0, (double)i / 10.0);
}

static void hist_bins(const struct histogram *h, uint64_t *counts)
{
	memset(counts, 0, sizeof(uint64_t) * BINS);
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		if (!h->bucket[b])
			continue;
		double v = (double)hist_value(b);
		int i = v <= 100 ? 0 : (int)ceil(10.0 * log10(v / 100.0));
		counts[i < 0 ? 0 : i >= BINS ? BINS - 1 : i] += h->bucket[b];
	}
}

size_t timeline_json(const struct timeline *tl, const struct histogram *read,
		     const struct histogram *write, const struct histogram *trim, char *buf,
		     size_t len)
{
	struct out o = { buf, len, 0, 0 };
	const struct histogram *h[TL_DIRS] = { read, write, trim };
	int dirs = trim ? 3 : 2;
	uint64_t counts[BINS];

	if (!len)
		return 0;
	put(&o, "{\"width_ms\":%.6g,\"t_ms\":", tl->width_ms);
	array(&o, tl->t_ms, tl->n);
	put(&o, ",\"iops\":[");
	for (int d = 0; d < dirs; d++) {
		put(&o, "%s", d ? "," : "");
		array(&o, tl->iops[d], tl->n);
	}
	put(&o, "],\"lat_us\":[");
	for (int d = 0; d < dirs; d++) {
		put(&o, "%s", d ? "," : "");
		array(&o, tl->lat_us[d], tl->n);
	}
	put(&o, "],\"hist\":{\"edges_ns\":[");
	for (int i = 0; i < BINS; i++)
		put(&o, "%s%.6g", i ? "," : "", bin_edge(i));
	put(&o, "],\"counts\":[");
	for (int d = 0; d < dirs; d++) {
		hist_bins(h[d], counts);
		put(&o, "%s[", d ? "," : "");
		for (int i = 0; i < BINS; i++)
			put(&o, "%s%llu", i ? "," : "", (unsigned long long)counts[i]);
		put(&o, "]");
	}
	put(&o, "]}}");
	if (o.full) {
		buf[0] = '\0';
		return 0;
	}
	return o.at;
}
