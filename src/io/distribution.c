/*
 * distribution.c: fio's random_distribution, the blocks a random job's
 * I/Os go to when they are not uniform (see iojob.h, struct dist_state).
 *
 * What matters for a filesystem or a cache is how often each block is hit,
 * so that is what follows fio: zipf and pareto draw a rank (zipf with Gray
 * et al.'s quick method over fio's zeta sums, capped at 10 million terms as
 * fio caps them; pareto as rank = (n - 1) u^(log h / log(1 - h))), normal
 * is the mean of 12 uniform draws with fio's extra spread of DEV percent
 * of the blocks, and the rank is scattered over the file by a multiplying
 * hash (fio scatters with its own) so the hot blocks are not all at the
 * start.  zoned and zoned_abs pick a zone by its share of the I/Os, then
 * a block in it uniformly.  As in fio, none of them keeps a random map.
 */
#include "io_internal.h"

#include <math.h>
#include <string.h>

#define ZIPF_TERMS 10000000ULL	/* fio's ZIPF_MAX_GEN */

static double uniform(struct rng *r)	/* [0, 1) */
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

static uint64_t scatter(uint64_t v)
{
	return v * 0x9e3779b97f4a7c15ULL;
}

void dist_init(struct dist_state *s, const struct dist_spec *d, uint64_t nblocks, uint64_t seed,
	       const struct dist_state *like)
{
	memset(s, 0, sizeof(*s));
	rng_seed(&s->rng, seed);
	s->n = nblocks ? nblocks : 1;
	s->off = rng_next(&s->rng) % s->n;	/* fio: a random offset, or the center's */
	if (d->center >= 0)
		s->off = (uint64_t)((double)s->n * d->center);
	switch (d->kind) {
	case DIST_ZIPF: {
		if (like && like->n == s->n) {	/* the sum is the same: up to 10M pow()s saved */
			s->zetan = like->zetan;
			s->zeta2 = like->zeta2;
			break;
		}
		uint64_t terms = s->n < ZIPF_TERMS ? s->n : ZIPF_TERMS;
		for (uint64_t i = 1; i <= terms; i++)
			s->zetan += pow(1.0 / (double)i, d->value);
		s->zeta2 = 1.0 + pow(0.5, d->value);
		break;
	}
	case DIST_PARETO:
		s->pareto_pow = log(d->value) / log(1.0 - d->value);
		break;
	case DIST_NORMAL:
		if (d->value > 0) {
			s->stddev = (uint64_t)ceil((double)s->n * d->value / 100.0);
			if (s->stddev > s->n / 2)
				s->stddev = s->n / 2;
		}
		/* fio centres normal on the middle: no offset unless asked */
		s->off = d->center >= 0 ? (uint64_t)((double)s->n * (d->center - 0.5) + (double)s->n) % s->n
					: 0;
		break;
	default:
		break;
	}
}

static uint64_t zone_block(struct dist_state *s, const struct zone_split *z, bool absolute,
			   uint64_t bs)
{
	unsigned v = 1 + (unsigned)rng_below(&s->rng, 100), acc = 0, i;
	uint64_t start = 0, len = s->n;

	for (i = 0; i < z->n; i++) {
		uint64_t zlen = absolute ? z->size[i] / bs : s->n * z->size[i] / 100;
		acc += z->access[i];
		if (v <= acc) {
			len = zlen;
			break;
		}
		start += zlen;
	}
	if (i == z->n || !len || start >= s->n)
		return rng_below(&s->rng, s->n);	/* fio falls back to uniform */
	if (start + len > s->n)
		len = s->n - start;
	return start + rng_below(&s->rng, len);
}

uint64_t dist_next(struct dist_state *s, const struct dist_spec *d, int dir, uint64_t bs)
{
	uint64_t v;

	switch (d->kind) {
	case DIST_ZIPF: {
		double n = (double)s->n, u = uniform(&s->rng), z = u * s->zetan;
		double alpha = 1.0 / (1.0 - d->value);
		double eta = (1.0 - pow(2.0 / n, 1.0 - d->value)) / (1.0 - s->zeta2 / s->zetan);
		if (z < 1.0)
			v = 0;
		else if (z < s->zeta2)
			v = 1;
		else
			v = (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
		return (scatter(v) + s->off) % s->n;
	}
	case DIST_PARETO:
		v = (uint64_t)((double)(s->n - 1) * pow(uniform(&s->rng), s->pareto_pow));
		return (scatter(v) + s->off) % s->n;
	case DIST_NORMAL: {
		uint64_t sum = 0;
		for (int i = 0; i < 12; i++)
			sum += rng_below(&s->rng, s->n + 1);
		sum = (sum + 11) / 12;
		if (s->stddev) {
			int64_t dev = (int64_t)rng_below(&s->rng, s->stddev) - (int64_t)(s->stddev / 2);
			while (dev > 0 && sum + (uint64_t)dev >= s->n)
				dev /= 2;
			sum = dev < 0 && (uint64_t)-dev > sum ? 0 : (uint64_t)((int64_t)sum + dev);
		}
		return (scatter(sum) + s->off) % s->n;
	}
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return zone_block(s, &d->zones[dir], d->kind == DIST_ZONED_ABS, bs);
	default:
		return rng_below(&s->rng, s->n);
	}
}
