/*
 * digest.c: verify='s checksums over one interface (digest.h).  Each kind
 * is a thin call into its library; nothing here computes a hash itself.
 */
/* OpenSSL 3 marks the per-algorithm calls deprecated in favour of EVP,
 * which allocates per use: these are still its supported API. */
#define OPENSSL_SUPPRESS_DEPRECATED
#define XXH_STATIC_LINKING_ONLY	/* XXH32_state_t's size, for the stack */
#include "digest.h"
#include "crc32c.h"

#include <openssl/md5.h>
#include <openssl/sha.h>
#include <string.h>
#include <xxhash.h>
#include <zlib.h>

union digest_state {
	uint32_t crc;
	MD5_CTX md5;
	SHA_CTX sha1;
	SHA256_CTX sha256;
	SHA512_CTX sha512;
	XXH32_state_t xxh;
};
_Static_assert(sizeof(union digest_state) <= sizeof(((struct digest_ctx *)0)->state),
	       "digest_ctx.state is too small");
_Static_assert(_Alignof(union digest_state) <= 16, "digest_ctx.state is under-aligned");

static const struct {
	const char *name;
	size_t len;
} kinds[DIGEST_KINDS] = {
	[DIGEST_CRC32C] = { "crc32c", 4 },
	[DIGEST_CRC32] = { "crc32", 4 },
	[DIGEST_MD5] = { "md5", MD5_DIGEST_LENGTH },
	[DIGEST_SHA1] = { "sha1", SHA_DIGEST_LENGTH },
	[DIGEST_SHA256] = { "sha256", SHA256_DIGEST_LENGTH },
	[DIGEST_SHA512] = { "sha512", SHA512_DIGEST_LENGTH },
	[DIGEST_XXH32] = { "xxhash", 4 },
};

size_t digest_len(int kind)
{
	return kind >= 0 && kind < DIGEST_KINDS ? kinds[kind].len : 0;
}

const char *digest_name(int kind)
{
	return kind >= 0 && kind < DIGEST_KINDS ? kinds[kind].name : "?";
}

#define S(c) ((union digest_state *)(void *)(c)->state)

void digest_init(struct digest_ctx *c, int kind)
{
	c->kind = kind;
	switch (kind) {
	case DIGEST_CRC32C: S(c)->crc = 0; break;
	case DIGEST_CRC32: S(c)->crc = (uint32_t)crc32(0L, Z_NULL, 0); break;
	case DIGEST_MD5: MD5_Init(&S(c)->md5); break;
	case DIGEST_SHA1: SHA1_Init(&S(c)->sha1); break;
	case DIGEST_SHA256: SHA256_Init(&S(c)->sha256); break;
	case DIGEST_SHA512: SHA512_Init(&S(c)->sha512); break;
	case DIGEST_XXH32: XXH32_reset(&S(c)->xxh, 0); break;
	}
}

void digest_update(struct digest_ctx *c, const void *p, size_t n)
{
	switch (c->kind) {
	case DIGEST_CRC32C: S(c)->crc = crc32c(S(c)->crc, p, n); break;
	case DIGEST_CRC32:
		/* zlib takes a uInt length: feed a large buffer in pieces */
		for (const unsigned char *b = p; n;) {
			uInt k = n > (1u << 30) ? 1u << 30 : (uInt)n;
			S(c)->crc = (uint32_t)crc32(S(c)->crc, b, k);
			b += k;
			n -= k;
		}
		break;
	case DIGEST_MD5: MD5_Update(&S(c)->md5, p, n); break;
	case DIGEST_SHA1: SHA1_Update(&S(c)->sha1, p, n); break;
	case DIGEST_SHA256: SHA256_Update(&S(c)->sha256, p, n); break;
	case DIGEST_SHA512: SHA512_Update(&S(c)->sha512, p, n); break;
	case DIGEST_XXH32: XXH32_update(&S(c)->xxh, p, n); break;
	}
}

void digest_final(struct digest_ctx *c, unsigned char *out)
{
	uint32_t v;

	switch (c->kind) {
	case DIGEST_CRC32C:
	case DIGEST_CRC32:
		v = S(c)->crc;
		memcpy(out, &v, 4);
		break;
	case DIGEST_MD5: MD5_Final(out, &S(c)->md5); break;
	case DIGEST_SHA1: SHA1_Final(out, &S(c)->sha1); break;
	case DIGEST_SHA256: SHA256_Final(out, &S(c)->sha256); break;
	case DIGEST_SHA512: SHA512_Final(out, &S(c)->sha512); break;
	case DIGEST_XXH32:
		v = XXH32_digest(&S(c)->xxh);
		memcpy(out, &v, 4);
		break;
	}
}
