/*
 * verify.c: fio's verify: a header (offset, length, seed, generation and
 * a CRC-32C of the data, checked unless verify=meta) in every chunk of
 * verify_interval bytes of every block written, and verify_pattern's bytes
 * in the rest of it (or, with verify=pattern, the whole chunk), checked on
 * every read and on the read-back after a write job.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "../core/checked.h"
#include "../core/compress.h"
#include "../core/crc32c.h"
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

static uint32_t block_crc(const struct verify_hdr *h, const unsigned char *buf, uint32_t len)
{
	uint32_t crc = crc32c(0, h, offsetof(struct verify_hdr, crc));

	return crc32c(crc, buf + sizeof(*h), len - sizeof(*h));
}

static void stamp_chunk(unsigned char *buf, uint32_t len, uint64_t offset, uint64_t seed,
			uint64_t gen)
{
	struct verify_hdr h = { VERIFY_MAGIC, len, offset, seed, gen, 0, 0 };

	h.crc = block_crc(&h, buf, len);
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
			stamp_chunk(b + c, t->vchunk, offset + c, t->seed, gen);
	}
}

static int chunk_check(struct io_thread *t, const struct io_file *f, const unsigned char *buf,
		       uint32_t len, uint64_t offset)
{
	struct verify_hdr h = { 0 };
	uint32_t crc = 0, bad;
	bool header = t->vmode != VERIFY_PATTERN;

	if (header) {
		memcpy(&h, buf, sizeof(h));
		/* verify=meta checks the header (fio: "the block number is
		 * verified"), crc32c the data too */
		bool meta = t->vmode == VERIFY_META;
		crc = h.magic == VERIFY_MAGIC && h.len == len && !meta ? block_crc(&h, buf, len) : h.crc;
		if (h.magic != VERIFY_MAGIC || h.len != len || h.offset != offset ||
		    h.seed != t->seed || crc != h.crc)
			goto header_bad;
	}
	bad = t->vtemplate ? pattern_mismatch(t, buf, header ? sizeof(h) : 0, len) : len;
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
