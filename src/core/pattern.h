/*
 * pattern.h: the data fsbench writes and the order it visits blocks in.
 *
 * - A small, fast PRNG (xoshiro256**, seeded through splitmix64) that each
 *   I/O thread owns, so no state is shared.
 * - Buffer contents: random (refreshed per write so neither dedup nor a
 *   compressing filesystem can cheat), zero, N% compressible (fio's
 *   buffer_compress_percentage: each 512-byte segment is random for its
 *   first 100-N% and zeros after) and a repeating byte pattern.
 * - A random permutation of block numbers (a Feistel network walked in
 *   cycles), so a random pass touches every block exactly once like fio's
 *   random map, in O(1) memory and a few multiplies per offset.
 */
#ifndef FSB_PATTERN_H
#define FSB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* splitmix64: the next value of the sequence *x walks (rng_seed's). */
static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* One value's hash by the same mix: a draw keyed by an index (entry i of
 * a crash point, item i of a shape) without a generator to carry. */
static inline uint64_t mix64(uint64_t x)
{
	return splitmix64(&x);
}

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5, t = s[1] << 17;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below
 * 2^-32 for any n an I/O job uses). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

enum data_kind { DATA_RANDOM, DATA_ZERO, DATA_COMPRESS, DATA_PATTERN };

struct data_spec {
	enum data_kind kind;
	int compress_pct;		/* DATA_COMPRESS: 0..100 */
	unsigned char pattern[256];	/* DATA_PATTERN */
	size_t pattern_len;
};

/* Parse fio's buffer_pattern syntax: 0xdeadbeef (hex bytes), "text" or a
 * decimal number (stored as its bytes, little-endian, like fio). */
int data_pattern_parse(const char *text, struct data_spec *out);
/* Fill a whole buffer. */
void data_fill(const struct data_spec *spec, struct rng *r, void *buf, size_t len);
/* Refresh a random or compressible buffer before a write so that no two
 * writes share data a compressing or deduplicating filesystem could
 * exploit (the random parts are XORed with a fresh keyed stream); zero
 * and pattern buffers are left alone. */
void data_refresh(const struct data_spec *spec, struct rng *r, void *buf, size_t len);
/* fio's scramble_buffers, the cheap alternative: in every 512-byte block
 * of a random buffer, the write's offset in one of the first 8 words'
 * cache lines and a fresh stamp in bytes 48..63 (fio puts its submission
 * time there).  24 bytes per 512, so blocks and writes differ. */
void data_scramble(void *buf, size_t len, uint64_t offset, uint64_t stamp);

struct permutation {
	uint64_t n;		/* domain [0, n) */
	unsigned half_bits;	/* Feistel halves cover 2^(2*half_bits) >= n */
	uint64_t keys[4];
};

void perm_init(struct permutation *p, uint64_t n, uint64_t seed);
/* The i-th element (i < n) of the permutation. */
uint64_t perm_at(const struct permutation *p, uint64_t i);

#endif
