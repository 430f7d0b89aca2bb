/*
 * verify.c: verify=crc32c: a header with a CRC-32C in every block written,
 * checked on every read and on the read-back after a write job.
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

void io_verify_stamp(void *buf, uint32_t len, uint64_t offset, uint64_t seed, uint64_t gen)
{
	struct verify_hdr h = { VERIFY_MAGIC, len, offset, seed, gen, 0, 0 };

	h.crc = block_crc(&h, buf, len);
	memcpy(buf, &h, sizeof(h));
}

int io_verify_check(struct io_thread *t, const struct io_file *f, const void *buf,
			uint32_t len, uint64_t offset)
{
	struct verify_hdr h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	/* verify=meta checks the header (fio: "the block number is verified"),
	 * crc32c the data too */
	bool meta = t->o->verify == VERIFY_META;
	crc = h.magic == VERIFY_MAGIC && h.len == len && !meta ? block_crc(&h, buf, len) : h.crc;
	if (h.magic == VERIFY_MAGIC && h.len == len && h.offset == offset && h.seed == t->seed &&
	    crc == h.crc)
		return 0;
	snprintf(t->errmsg, sizeof(t->errmsg),
		 "verify failed: %s offset %llu: expected header magic 0x%08x len %u offset %llu "
		 "seed %llu; found magic 0x%08x len %u offset %llu seed %llu generation %llu, "
		 "crc32c stored 0x%08x computed 0x%08x",
		 f->path, (unsigned long long)offset, VERIFY_MAGIC, len,
		 (unsigned long long)offset, (unsigned long long)t->seed, h.magic, h.len,
		 (unsigned long long)h.offset, (unsigned long long)h.seed,
		 (unsigned long long)h.generation, h.crc, crc);
	t->error = 1;
	return -1;
}
