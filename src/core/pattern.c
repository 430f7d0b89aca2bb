/*
 * pattern.c: PRNG, buffer contents and block permutations (see pattern.h).
 */
#include "pattern.h"
#include "error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static void fill_random(struct rng *r, unsigned char *p, size_t len)
{
	while (len >= 8) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, len);
	}
}

#define SEGMENT 512

void data_fill(const struct data_spec *spec, struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	switch (spec->kind) {
	case DATA_RANDOM:
		fill_random(r, p, len);
		break;
	case DATA_ZERO:
		memset(p, 0, len);
		break;
	case DATA_COMPRESS:
		for (size_t off = 0; off < len; off += SEGMENT) {
			size_t seg = len - off < SEGMENT ? len - off : SEGMENT;
			size_t rnd = seg * (size_t)(100 - spec->compress_pct) / 100;
			fill_random(r, p + off, rnd);
			memset(p + off + rnd, 0, seg - rnd);
		}
		break;
	case DATA_PATTERN:
		for (size_t off = 0; off < len; off++)
			p[off] = spec->pattern[off % spec->pattern_len];
		break;
	}
}

/* XOR each word with k + i*golden: one add and xor per 8 bytes (the
 * compiler vectorises it), yet no two writes share a byte run an LZ
 * compressor or a dedup engine could match. */
typedef uint64_t u64x2 __attribute__((vector_size(16), may_alias));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
/* AVX2 doubles the width where the CPU has it (chosen at load time). */
__attribute__((target_clones("avx2", "default")))
#endif
static void scramble(unsigned char *p, size_t len, uint64_t k)
{
	const uint64_t g = 0x9e3779b97f4a7c15ULL;
	size_t i = 0;

	/* I/O buffers are page-aligned: two words per SSE2 operation, in
	 * place, four operations per iteration (vector types, no
	 * intrinsics, so clang and other targets build it too). */
	if (((uintptr_t)p & 15) == 0) {
		u64x2 *v = (u64x2 *)p, key0 = { k, k + g }, key1 = key0 + 2 * g,
		      key2 = key0 + 4 * g, key3 = key0 + 6 * g, step = { 8 * g, 8 * g };
		for (; i + 64 <= len; i += 64, v += 4) {
			v[0] ^= key0;
			v[1] ^= key1;
			v[2] ^= key2;
			v[3] ^= key3;
			key0 += step;
			key1 += step;
			key2 += step;
			key3 += step;
		}
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		w ^= k + (uint64_t)(i / 8) * g;
		memcpy(p + i, &w, 8);
	}
}

void data_refresh(const struct data_spec *spec, struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	uint64_t k;

	if (spec->kind == DATA_RANDOM) {
		scramble(p, len, rng_next(r));
		return;
	}
	if (spec->kind != DATA_COMPRESS || spec->compress_pct == 100)
		return;
	/* Only each segment's random part, so compressibility is kept. */
	k = rng_next(r);
	for (size_t off = 0; off < len; off += SEGMENT) {
		size_t seg = len - off < SEGMENT ? len - off : SEGMENT;
		scramble(p + off, seg * (size_t)(100 - spec->compress_pct) / 100 & ~(size_t)7, k + off);
	}
}

void data_scramble(void *buf, size_t len, uint64_t offset, uint64_t stamp)
{
	unsigned char *p = buf;
	/* the same cache line in every block, as fio picks it */
	size_t line = (size_t)((stamp ^ offset) & 7) << 6;
	const uint64_t w[2] = { stamp, stamp >> 32 };

	for (size_t off = 0; off + 512 <= len; off += 512, offset += 512) {
		memcpy(p + off + line, &offset, 8);
		memcpy(p + off + 48, w, 16);
	}
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

int data_pattern_parse(const char *text, struct data_spec *out)
{
	size_t n = 0, len = strlen(text);

	if (len >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		const char *h = text + 2;
		size_t hl = strlen(h);
		if (!hl || (hl + 1) / 2 > sizeof(out->pattern))
			return error_set("buffer_pattern '%s': want 1 to %zu hex digits", text,
					 2 * sizeof(out->pattern));
		for (size_t i = 0; i < hl; i++)
			if (!isxdigit((unsigned char)h[i]))
				return error_set("buffer_pattern '%s': not hexadecimal", text);
		/* an odd count: the first digit is a byte of its own, as fio
		 * reads 0xaaa (0x0a 0xaa) */
		size_t i = 0;
		if (hl % 2)
			out->pattern[n++] = (unsigned char)hexval(h[i++]);
		for (; i < hl; i += 2)
			out->pattern[n++] = (unsigned char)(hexval(h[i]) << 4 | hexval(h[i + 1]));
	} else if (len >= 2 && (text[0] == '"' || text[0] == '\'') && text[len - 1] == text[0]) {
		n = len - 2;
		if (n == 0 || n > sizeof(out->pattern))
			return error_set("buffer_pattern %s: want 1 to %zu characters", text,
					 sizeof(out->pattern));
		memcpy(out->pattern, text + 1, n);
	} else {
		char *end;
		unsigned long long v = strtoull(text, &end, 10);
		if (!*text || *end)
			return error_set("buffer_pattern '%s': want 0xHEX, \"text\" or a number", text);
		do {
			out->pattern[n++] = (unsigned char)(v & 0xff);
			v >>= 8;
		} while (v);
	}
	out->pattern_len = n;
	out->kind = DATA_PATTERN;
	return 0;
}

void perm_init(struct permutation *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 1;

	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	p->n = n;
	p->half_bits = (bits + 1) / 2;
	for (int i = 0; i < 4; i++)
		p->keys[i] = splitmix64(&seed) | 1;
}

static uint64_t feistel(const struct permutation *p, uint64_t x)
{
	unsigned h = p->half_bits;
	uint64_t mask = (1ULL << h) - 1;
	uint64_t l = x >> h, r = x & mask;

	for (int i = 0; i < 4; i++) {
		uint64_t f = (r * p->keys[i]) ^ (r >> 7) ^ p->keys[(i + 1) & 3];
		f = (f ^ (f >> 29)) * 0x9e3779b97f4a7c15ULL;
		uint64_t nl = r;
		r = l ^ ((f >> 17) & mask);
		l = nl;
	}
	return (l << h) | r;
}

uint64_t perm_at(const struct permutation *p, uint64_t i)
{
	uint64_t x = i;

	/* Cycle-walk: the network permutes [0, 4^half); stepping until we are
	 * back inside [0, n) keeps it a permutation of [0, n). */
	do
		x = feistel(p, x);
	while (x >= p->n);
	return x;
}
