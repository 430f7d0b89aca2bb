/*
 * digest.h: the checksums fio's verify= names, each from the library made
 * for it: MD5 and the SHA-1/SHA-2 family from OpenSSL's libcrypto,
 * XXH32 from libxxhash, CRC-32 from zlib; CRC-32C is core/crc32c.c.
 *
 * The context lives on the caller's stack and allocates nothing, so a
 * verified block costs no malloc (OpenSSL's EVP interface allocates a
 * provider context per digest; its per-algorithm one does not).
 */
#ifndef FSB_DIGEST_H
#define FSB_DIGEST_H

#include <stddef.h>
#include <stdint.h>

enum digest_kind { DIGEST_CRC32C, DIGEST_CRC32, DIGEST_MD5, DIGEST_SHA1, DIGEST_SHA256,
		   DIGEST_SHA512, DIGEST_XXH32 };
#define DIGEST_KINDS 7
#define DIGEST_MAX 64		/* bytes, SHA-512's */

/* Room for every kind's state; the members are opaque to callers. */
struct digest_ctx {
	int kind;
	_Alignas(16) unsigned char state[256];
};

/* The digest's length in bytes, or 0 for an unknown kind. */
size_t digest_len(int kind);
/* Its name as fio spells it in verify= ("md5", "sha256", "xxhash"). */
const char *digest_name(int kind);

void digest_init(struct digest_ctx *c, int kind);
void digest_update(struct digest_ctx *c, const void *p, size_t n);
/* Writes digest_len(kind) bytes to out. */
void digest_final(struct digest_ctx *c, unsigned char *out);

#endif
