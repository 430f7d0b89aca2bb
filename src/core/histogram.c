/* histogram.c: log-linear latency histograms (see histogram.h). */
#include "histogram.h"

#include <math.h>
#include <string.h>

void moments_init(struct moments *m)
{
	memset(m, 0, sizeof(*m));
	m->min = UINT64_MAX;
}

void moments_merge(struct moments *dst, const struct moments *src)
{
	uint64_t n;
	double delta;

	if (!src->n)
		return;
	n = dst->n + src->n;
	delta = src->mean - dst->mean;
	dst->m2 += src->m2 + delta * delta * (double)dst->n * (double)src->n / (double)n;
	dst->mean += delta * (double)src->n / (double)n;
	dst->n = n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double moments_stddev(const struct moments *m)
{
	return m->n > 1 ? sqrt(m->m2 / (double)(m->n - 1)) : 0;
}

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t ns)
{
	unsigned msb, shift, idx;

	if (ns < 2 * HIST_PER_GROUP)
		return (unsigned)ns;	/* one bucket per nanosecond */
	msb = 63u - (unsigned)__builtin_clzll(ns);
	shift = msb - HIST_BITS;	/* bits below the 6 that pick the bucket */
	idx = (shift + 1) * HIST_PER_GROUP + (unsigned)((ns >> shift) & (HIST_PER_GROUP - 1));
	return idx < HIST_BUCKETS ? idx : HIST_BUCKETS - 1;
}

uint64_t hist_value(unsigned index)
{
	unsigned shift;
	uint64_t base, width;

	if (index < 2 * HIST_PER_GROUP)
		return index;
	shift = index / HIST_PER_GROUP - 1;
	width = 1ULL << shift;
	base = (1ULL << (shift + HIST_BITS)) + (uint64_t)(index % HIST_PER_GROUP) * width;
	return base + width / 2;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	if (!src->n)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	moments_merge(&dst->m, &src->m);
}

uint64_t hist_percentile(const struct histogram *h, double p)
{
	uint64_t rank, seen = 0, v;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(p / 100 * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			v = i == HIST_BUCKETS - 1 ? h->max : hist_value(i);
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;
}

double hist_stddev(const struct histogram *h)
{
	return moments_stddev(&h->m);
}
