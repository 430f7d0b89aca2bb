/*
 * checked.h: size arithmetic that cannot wrap.
 *
 * Space checks multiply user-given counts and sizes (files x size x
 * threads); a product that wraps to a small number would let a run past
 * the free-space check that should stop it.  These saturate at
 * UINT64_MAX instead, which no filesystem has free, so an absurd request
 * is refused by the same check that refuses a merely large one.
 */
#ifndef FSB_CHECKED_H
#define FSB_CHECKED_H

#include <stdint.h>

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* a * b * c, saturating. */
static inline uint64_t sat_mul3(uint64_t a, uint64_t b, uint64_t c)
{
	return sat_mul(sat_mul(a, b), c);
}

/* A non-negative int64 parameter as uint64 (negative ones count as 0). */
static inline uint64_t sat_u(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

#endif
