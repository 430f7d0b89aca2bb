/*
 * verify.c: fio's verify: a header (offset, length, seed, generation and
 * a CRC-32C of the data, checked unless verify=meta; or, for md5, sha1,
 * sha256, sha512, xxhash and crc32, that digest of it after the header)
 * in every chunk of verify_interval bytes of every block written, and
 * verify_pattern's bytes in the rest of it (or, with verify=pattern, the whole chunk), checked on
 * every read and on the read-back after a write job.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
#include "../core/digest.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* --- verify headers --------------------------------------------------- */

int io_verify_digest(int vmode)
{
	static const int kind[] = {
		[VERIFY_MD5] = DIGEST_MD5, [VERIFY_SHA1] = DIGEST_SHA1,
		[VERIFY_SHA256] = DIGEST_SHA256, [VERIFY_SHA512] = DIGEST_SHA512,
		[VERIFY_XXHASH] = DIGEST_XXH32, [VERIFY_CRC32] = DIGEST_CRC32,
	};

	if (vmode < VERIFY_MD5 || vmode > VERIFY_CRC32)
		return -1;
	return kind[vmode];
}

uint32_t io_verify_hdr_len(int vmode)
{
	int d = io_verify_digest(vmode);

	if (vmode == VERIFY_PATTERN)
		return 0;
	return (uint32_t)(sizeof(struct verify_hdr) + (d < 0 ? 0 : digest_len(d)));
}

static uint32_t block_crc(const struct verify_hdr *h, const unsigned char *buf, uint32_t len)
{
	uint32_t crc = crc32c(0, h, offsetof(struct verify_hdr, crc));

	return crc32c(crc, buf + sizeof(*h), len - sizeof(*h));
}

/* A digest kind's sum of the header's fields and the data after the
 * header and digest, into out. */
static void block_digest(int kind, const struct verify_hdr *h, const unsigned char *buf,
			 uint32_t len, unsigned char *out)
{
	struct digest_ctx c;
	uint32_t skip = (uint32_t)(sizeof(*h) + digest_len(kind));

	digest_init(&c, kind);
	digest_update(&c, h, offsetof(struct verify_hdr, crc));
	digest_update(&c, buf + skip, len - skip);
	digest_final(&c, out);
}

static void stamp_chunk(const struct io_thread *t, unsigned char *buf, uint32_t len,
			uint64_t offset, uint64_t gen)
{
	struct verify_hdr h = { VERIFY_MAGIC, len, offset, t->seed, gen, 0, 0 };
	int kind = io_verify_digest(t->vmode);

	if (kind < 0) {
		h.crc = block_crc(&h, buf, len);
	} else {
		unsigned char d[DIGEST_MAX];
		block_digest(kind, &h, buf, len, d);
		memcpy(buf + sizeof(h), d, digest_len(kind));
	}
	memcpy(buf, &h, sizeof(h));
}

/* verify_pattern is laid from a chunk's first byte (a header then covers
 * the start of it), so every chunk is the same: one made at setup is
 * copied into a write and compared with a read, at memcpy's speed (fio's
 * verify runs inside the job's time, and so does this). */
int io_verify_template(struct io_thread *t)
{
	if (!t->vpat.pattern_len)
		return 0;
	t->vtemplate = malloc(t->vchunk);
	if (!t->vtemplate)
		return error_set("out of memory for a %u-byte verify_pattern chunk", t->vchunk);
	for (uint32_t i = 0; i < t->vchunk; i += (uint32_t)t->vpat.pattern_len) {
		uint32_t n = t->vchunk - i;
		memcpy(t->vtemplate + i, t->vpat.pattern, n < t->vpat.pattern_len ? n : t->vpat.pattern_len);
	}
	return 0;
}

/* The first byte in [from, len) of a chunk that is not the pattern, or len. */
static uint32_t pattern_mismatch(const struct io_thread *t, const unsigned char *p, uint32_t from,
				 uint32_t len)
{
	if (!memcmp(p + from, t->vtemplate + from, len - from))
		return len;
	while (p[from] == t->vtemplate[from])
		from++;
	return from;
}

void io_verify_stamp(const struct io_thread *t, void *buf, uint32_t len, uint64_t offset,
		     uint64_t gen)
{
	unsigned char *b = buf;

	for (uint32_t c = 0; c + t->vchunk <= len; c += t->vchunk) {
		if (t->vtemplate)
			memcpy(b + c, t->vtemplate, t->vchunk);
		if (t->vmode != VERIFY_PATTERN)
			stamp_chunk(t, b + c, t->vchunk, offset + c, gen);
	}
}

/* "0123abcd..": up to the first 8 bytes of a digest, for a message. */
static void hex8(char out[17], const unsigned char *d, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n && i < 8; i++) {
		out[2 * i] = hx[d[i] >> 4];
		out[2 * i + 1] = hx[d[i] & 15];
	}
	out[2 * i] = 0;
}

static int chunk_check(struct io_thread *t, const struct io_file *f, const unsigned char *buf,
		       uint32_t len, uint64_t offset)
{
	struct verify_hdr h = { 0 };
	uint32_t crc = 0, bad, hlen = io_verify_hdr_len(t->vmode);
	int kind = io_verify_digest(t->vmode);
	bool header = t->vmode != VERIFY_PATTERN;

	if (header) {
		memcpy(&h, buf, sizeof(h));
		if (h.magic != VERIFY_MAGIC || h.len != len || h.offset != offset || h.seed != t->seed)
			goto header_bad;
		if (kind >= 0) {
			unsigned char d[DIGEST_MAX];
			size_t dl = digest_len(kind);
			block_digest(kind, &h, buf, len, d);
			if (memcmp(d, buf + sizeof(h), dl)) {
				char stored[17], computed[17];
				hex8(stored, buf + sizeof(h), dl);
				hex8(computed, d, dl);
				snprintf(t->errmsg, sizeof(t->errmsg),
					 "verify failed: %s offset %llu: %s stored %s%s computed %s%s", f->path,
					 (unsigned long long)offset, digest_name(kind), stored,
					 dl > 8 ? ".." : "", computed, dl > 8 ? ".." : "");
				t->error = EILSEQ;	/* fio's verify error */
				return -1;
			}
		} else if (t->vmode != VERIFY_META) {
			/* verify=meta checks the header (fio: "the block number
			 * is verified"), crc32c the data too */
			crc = block_crc(&h, buf, len);
			if (crc != h.crc)
				goto header_bad;
		}
	}
	bad = t->vtemplate ? pattern_mismatch(t, buf, hlen, len) : len;
	if (bad == len)
		return 0;
	snprintf(t->errmsg, sizeof(t->errmsg),
		 "verify failed: %s offset %llu: byte %u of the %u-byte chunk is 0x%02x, where "
		 "verify_pattern has 0x%02x", f->path, (unsigned long long)offset, bad, len,
		 buf[bad], t->vtemplate[bad]);
	t->error = EILSEQ;	/* fio's verify error */
	return -1;
header_bad:
	snprintf(t->errmsg, sizeof(t->errmsg),
		 "verify failed: %s offset %llu: expected header magic 0x%08x len %u offset %llu "
		 "seed %llu; found magic 0x%08x len %u offset %llu seed %llu generation %llu, "
		 "crc32c stored 0x%08x computed 0x%08x",
		 f->path, (unsigned long long)offset, VERIFY_MAGIC, len,
		 (unsigned long long)offset, (unsigned long long)t->seed, h.magic, h.len,
		 (unsigned long long)h.offset, (unsigned long long)h.seed,
		 (unsigned long long)h.generation, h.crc, crc);
	t->error = EILSEQ;	/* fio's verify error */
	return -1;
}

int io_verify_check(struct io_thread *t, const struct io_file *f, const void *buf,
		    uint32_t len, uint64_t offset)
{
	const unsigned char *b = buf;

	for (uint32_t c = 0; c + t->vchunk <= len; c += t->vchunk)
		if (chunk_check(t, f, b + c, t->vchunk, offset + c))
			return -1;
	return 0;
}
