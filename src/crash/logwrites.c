/*
 * logwrites.c: the dm-log-writes reader and replay (logwrites.h).
 *
 * Written from the format's description (the kernel's
 * Documentation/admin-guide/device-mapper/log-writes.rst and the layout
 * comment of drivers/md/dm-log-writes.c); nothing here is taken from the
 * kernel or from the log-writes replay tool.  The index is built once,
 * each entry's fields checked against the log's length before anything
 * uses them; a replay then only copies ranges the index vouched for.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate's FALLOC_FL_* */
#endif
#include "logwrites.h"
#include "../core/checked.h"
#include "../core/error.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SUPER_LEN 28	/* magic, version, nr_entries (le64), sectorsize (le32) */
#define ENTRY_LEN 32	/* sector, nr_sectors, flags, data_len (le64 each) */
#define COPY_CHUNK (1u << 20)

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static int src_read(const struct lw_source *s, void *buf, size_t len, uint64_t off)
{
	if (off > s->size || len > s->size - off)
		return error_set("log: %zu bytes at %llu are past its end (%llu bytes)", len,
				 (unsigned long long)off, (unsigned long long)s->size);
	return s->read(s->ctx, buf, len, off);
}

static int grow(struct lw_log *log, size_t *cap)
{
	size_t ncap;
	struct lw_entry *e;

	if (log->n < *cap)
		return 0;
	if (log->n >= LW_MAX_ENTRIES)
		return error_set("log: more than %u entries: refused", LW_MAX_ENTRIES);
	ncap = *cap ? *cap * 2 : 256;
	if (ncap > LW_MAX_ENTRIES)
		ncap = LW_MAX_ENTRIES;
	e = realloc(log->ent, ncap * sizeof(*e));
	if (!e)
		return error_set("log: out of memory for %zu entries", ncap);
	log->ent = e;
	*cap = ncap;
	return 0;
}

static int add_mark(struct lw_log *log, const unsigned char *text, size_t len, uint32_t *at)
{
	char *m;

	/* the pool holds at most one sector per entry, so it stays far below 4 GiB */
	m = realloc(log->marks, log->marks_len + len + 1);
	if (!m)
		return error_set("log: out of memory for its marks");
	log->marks = m;
	memcpy(m + log->marks_len, text, len);
	m[log->marks_len + len] = '\0';
	*at = (uint32_t)log->marks_len;
	log->marks_len += strlen(m + log->marks_len) + 1;
	return 0;
}

/* One entry at log sector pos: filled in, *next its successor's sector.
 * 1: valid; 0: not an entry (the message says why); -1: cannot read. */
static int read_entry(const struct lw_source *src, const struct lw_log *log, uint64_t pos,
		      size_t i, struct lw_entry *e, unsigned char *mark, size_t *mark_len,
		      uint64_t *next)
{
	uint64_t ss = log->sectorsize, sectors = src->size / ss, flags, dlen, data_sectors, end;
	unsigned char h[ENTRY_LEN];

	if (pos >= sectors)
		return error_set("log: entry %zu would start at sector %llu, past its end", i,
				 (unsigned long long)pos), 0;
	if (src_read(src, h, sizeof(h), pos * ss))
		return -1;
	e->sector = le64_at(h);
	e->nr_sectors = le64_at(h + 8);
	flags = le64_at(h + 16);
	dlen = le64_at(h + 24);
	e->mark = 0;
	*mark_len = 0;
	if (flags & ~(uint64_t)LW_FLAGS)
		return error_set("log: entry %zu has unknown flags %#llx", i, (unsigned long long)flags), 0;
	e->flags = (uint32_t)flags;
	if (!flags && !e->sector && !e->nr_sectors && !dlen)
		return error_set("log: entry %zu is all zeros", i), 0;
	if (flags & LW_MARK) {
		if (e->nr_sectors || dlen > ss - ENTRY_LEN)
			return error_set("log: mark %zu has %llu sectors and %llu bytes of text", i,
					 (unsigned long long)e->nr_sectors, (unsigned long long)dlen), 0;
		if (dlen && src_read(src, mark, (size_t)dlen, pos * ss + ENTRY_LEN))
			return -1;
		*mark_len = (size_t)dlen;
	} else if (dlen) {
		return error_set("log: entry %zu carries %llu bytes inline (a DAX log): not supported",
				 i, (unsigned long long)dlen), 0;
	}
	end = sat_add(e->sector, e->nr_sectors);
	if (sat_mul(end, ss) > LW_MAX_DEVICE)
		return error_set("log: entry %zu reaches past %llu bytes of device", i,
				 (unsigned long long)LW_MAX_DEVICE), 0;
	data_sectors = (flags & LW_DISCARD) ? 0 : e->nr_sectors;
	if (data_sectors > sectors - pos - 1)
		return error_set("log: entry %zu's %llu sectors of data are past its end", i,
				 (unsigned long long)data_sectors), 0;
	e->data = (pos + 1) * ss;
	*next = pos + 1 + data_sectors;
	return 1;
}

int lw_read(const struct lw_source *src, unsigned flags, struct lw_log *out)
{
	unsigned char super[SUPER_LEN], *mark = NULL;
	struct lw_log log = { 0 };
	size_t cap = 0, mark_len;
	uint64_t pos = 1, ss;

	memset(out, 0, sizeof(*out));
	if (src->size < SUPER_LEN)
		return error_set("log: %llu bytes, too short for its super", (unsigned long long)src->size);
	if (src_read(src, super, sizeof(super), 0))
		return -1;
	if (le64_at(super) != LW_MAGIC)
		return error_set("log: not a dm-log-writes log (magic %#llx)",
				 (unsigned long long)le64_at(super));
	if (le64_at(super + 8) != LW_VERSION)
		return error_set("log: version %llu, only version %d is known",
				 (unsigned long long)le64_at(super + 8), LW_VERSION);
	log.declared = le64_at(super + 16);
	memcpy(&log.sectorsize, super + 24, sizeof(log.sectorsize));
	log.sectorsize = le32toh(log.sectorsize);
	ss = log.sectorsize;
	if (ss < 512 || ss > 65536 || (ss & (ss - 1)))
		return error_set("log: sector size %llu (512 to 65536, a power of two)",
				 (unsigned long long)ss);
	if (log.declared > LW_MAX_ENTRIES)
		return error_set("log: %llu entries: more than %u refused",
				 (unsigned long long)log.declared, LW_MAX_ENTRIES);
	mark = malloc(ss);
	if (!mark)
		return error_set("log: out of memory");
	for (size_t i = 0;; i++) {
		struct lw_entry e;
		uint64_t next = 0;
		int r;

		if (i >= log.declared && !(flags & LW_READ_PAST_SUPER))
			break;
		r = read_entry(src, &log, pos, i, &e, mark, &mark_len, &next);
		if (r < 0 || (r == 0 && i < log.declared)) {
			if (r == 0 && i < log.declared)
				error_prefix("log: the super counts %llu entries, entry %zu is not one",
					     (unsigned long long)log.declared, i);
			goto fail;
		}
		if (r == 0)
			break;	/* past the count: the first sector that is not an entry ends it */
		if (grow(&log, &cap))
			goto fail;
		if ((e.flags & LW_MARK) && add_mark(&log, mark, mark_len, &e.mark))
			goto fail;
		log.ent[log.n++] = e;
		pos = next;
		if (e.flags & LW_MARK)
			log.nmarks++;
		else if (e.flags & LW_DISCARD)
			log.discards++;
		else if (e.nr_sectors)
			log.writes++;
		log.flushes += !!(e.flags & LW_FLUSH);
		log.fuas += !!(e.flags & LW_FUA);
		if (!(e.flags & LW_MARK) && e.nr_sectors && (e.sector + e.nr_sectors) * ss > log.extent)
			log.extent = (e.sector + e.nr_sectors) * ss;
	}
	free(mark);
	*out = log;
	return 0;
fail:
	free(mark);
	lw_free(&log);
	return -1;
}

struct fd_ctx {
	int fd;
};

static int fd_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	int fd = ((struct fd_ctx *)ctx)->fd;
	char *p = buf;

	while (len) {
		ssize_t r = pread(fd, p, len, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return error_errno("log: read at %llu", (unsigned long long)off);
		if (r == 0)
			return error_set("log: ends early at %llu", (unsigned long long)off);
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int lw_read_file(const char *path, unsigned flags, struct lw_log *out, int *fdp)
{
	struct fd_ctx c;
	struct lw_source s;
	struct stat st;
	int rc;

	c.fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (c.fd < 0)
		return error_errno("%s", path);
	if (fstat(c.fd, &st) || !S_ISREG(st.st_mode)) {
		close(c.fd);
		return error_set("%s: not a regular file", path);
	}
	s.read = fd_read;
	s.ctx = &c;
	s.size = (uint64_t)st.st_size;
	rc = lw_read(&s, flags, out);
	if (rc)
		error_prefix("%s", path);
	if (rc || !fdp)
		close(c.fd);
	else
		*fdp = c.fd;
	return rc;
}

struct mem_ctx {
	const unsigned char *p;
};

static int mem_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, ((struct mem_ctx *)ctx)->p + off, len);	/* src_read checked the range */
	return 0;
}

int lw_read_mem(const void *buf, size_t len, unsigned flags, struct lw_log *out)
{
	struct mem_ctx c = { buf };
	struct lw_source s = { mem_read, &c, len };

	return lw_read(&s, flags, out);
}

void lw_free(struct lw_log *log)
{
	free(log->ent);
	free(log->marks);
	memset(log, 0, sizeof(*log));
}

const char *lw_mark_text(const struct lw_log *log, size_t i)
{
	if (i >= log->n || !(log->ent[i].flags & LW_MARK))
		return "";
	return log->marks + log->ent[i].mark;
}

size_t lw_find_mark(const struct lw_log *log, const char *text, size_t from)
{
	for (size_t i = from; i < log->n; i++)
		if ((log->ent[i].flags & LW_MARK) && !strcmp(log->marks + log->ent[i].mark, text))
			return i;
	return log->n;
}

bool lw_durable_point(const struct lw_log *log, size_t end)
{
	if (end > log->n)
		return false;
	while (end > 0 && (log->ent[end - 1].flags & LW_MARK))
		end--;	/* a mark is no I/O: what counts is the I/O before it */
	return end == 0 || (log->ent[end - 1].flags & (LW_FLUSH | LW_FUA));
}

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return error_errno("replay: write at %llu", (unsigned long long)off);
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int apply_one(const struct lw_log *log, int logfd, int imgfd, const struct lw_entry *e,
		     uint64_t sectors, char *buf)
{
	struct fd_ctx c = { logfd };
	uint64_t off = e->sector * log->sectorsize, len = sectors * log->sectorsize, done = 0;

	if (e->flags & LW_DISCARD) {
		if (fallocate(imgfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off,
			      (off_t)len) == 0)
			return 0;
		if (errno != EOPNOTSUPP)
			return error_errno("replay: discard of %llu bytes at %llu",
					   (unsigned long long)len, (unsigned long long)off);
		memset(buf, 0, COPY_CHUNK);
	}
	while (done < len) {
		size_t n = len - done < COPY_CHUNK ? (size_t)(len - done) : COPY_CHUNK;

		if (!(e->flags & LW_DISCARD) && fd_read(&c, buf, n, e->data + done))
			return -1;
		if (write_all(imgfd, buf, n, off + done))
			return -1;
		done += n;
	}
	return 0;
}

int lw_apply(const struct lw_log *log, int logfd, int imgfd, size_t from, size_t to,
	     lw_keep_fn keep, void *ctx)
{
	char *buf;
	int rc = 0;

	if (from > to || to > log->n)
		return error_set("replay: entries [%zu, %zu) of a log of %zu", from, to, log->n);
	buf = malloc(COPY_CHUNK);
	if (!buf)
		return error_set("replay: out of memory");
	for (size_t i = from; i < to && !rc; i++) {
		const struct lw_entry *e = &log->ent[i];
		uint64_t k;

		if ((e->flags & LW_MARK) || !e->nr_sectors)
			continue;
		k = keep ? keep(ctx, i, e) : e->nr_sectors;
		if (k > e->nr_sectors)
			k = e->nr_sectors;
		if (k)
			rc = apply_one(log, logfd, imgfd, e, k, buf);
	}
	free(buf);
	return rc;
}
