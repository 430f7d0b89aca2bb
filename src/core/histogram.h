/*
 * histogram.h: latency histograms that are cheap to fill and exact to merge.
 *
 * Log-linear buckets in nanoseconds, the scheme fio uses: a value's top set
 * bit picks a group, its next HIST_BITS bits pick one of 64 buckets in the
 * group, so a bucket is at most 1/64 of its values wide and its midpoint is
 * within 0.8% of any value in it.  Values below 128 ns have a bucket each.
 * Adding a sample is a few shifts and a Welford mean/variance update; no
 * allocation, no lock: each thread fills its own histogram and they are
 * merged bucket by bucket at the end (means and variances combined with
 * Chan's formula), so merged percentiles are exactly those of all samples
 * together.  Groups cover up to 2^(HIST_GROUPS + HIST_BITS - 1) ns (~68 s);
 * longer values land in the last bucket, and max keeps the true value.
 */
#ifndef FSB_HISTOGRAM_H
#define FSB_HISTOGRAM_H

#include <stdint.h>

#define HIST_BITS 6
#define HIST_PER_GROUP (1u << HIST_BITS)
#define HIST_GROUPS 31
#define HIST_BUCKETS (HIST_GROUPS * HIST_PER_GROUP)

/* A stream's count, extremes, mean and variance without its values
 * (Welford: running mean and sum of squared deviations), merged with
 * Chan's formula: what fio keeps for latencies it gives no percentiles. */
struct moments {
	uint64_t n, min, max;
	double mean, m2;
};

void moments_init(struct moments *m);
void moments_merge(struct moments *dst, const struct moments *src);
double moments_stddev(const struct moments *m);

static inline void moments_add(struct moments *m, uint64_t v)
{
	double d;

	m->n++;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
	d = (double)v - m->mean;
	m->mean += d / (double)m->n;
	m->m2 += d * ((double)v - m->mean);
}

/* The moments and the buckets; h->n, h->mean ... name the moments. */
struct histogram {
	union {
		struct moments m;
		struct {
			uint64_t n, min, max;
			double mean, m2;
		};
	};
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct histogram *h);
/* Bucket of a value, and the value a bucket stands for (its midpoint). */
unsigned hist_index(uint64_t ns);
uint64_t hist_value(unsigned index);

static inline void hist_add(struct histogram *h, uint64_t ns)
{
	h->bucket[hist_index(ns)]++;
	moments_add(&h->m, ns);
}

/* dst += src, exactly. */
void hist_merge(struct histogram *dst, const struct histogram *src);
/* The p-th percentile (0 < p <= 100), within a bucket's 0.8%, clamped to
 * [min, max]; 0 when empty. */
uint64_t hist_percentile(const struct histogram *h, double p);
double hist_stddev(const struct histogram *h);

#endif
