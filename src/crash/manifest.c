/*
 * manifest.c: a crash workload's promises, and the check of a replayed
 * filesystem against them (manifest.h).
 *
 * The check groups the entries by path (a sorted index, not the entries
 * themselves, so the order of adding stays what decides "later"), reads
 * each path once, hashes it with XXH3-64 (libxxhash) and sorts it into
 * the four counts.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "manifest.h"
#include "../core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <xxhash.h>

#define READ_CHUNK (256u << 10)

static bool path_ok(const char *p)
{
	size_t len = strlen(p);

	if (!len || len >= MANIFEST_MAX_PATH || p[0] == '/')
		return false;
	for (const char *c = p; *c;) {
		size_t seg = strcspn(c, "/");
		if (seg == 0 || (seg == 2 && c[0] == '.' && c[1] == '.') || (seg == 1 && c[0] == '.'))
			return false;
		c += seg;
		if (*c == '/')
			c++;
	}
	return p[len - 1] != '/';
}

int manifest_add(struct manifest *m, const char *path, uint64_t size, uint64_t hash)
{
	char *copy;

	if (!path_ok(path))
		return error_set("manifest: \"%.64s\" is not a relative path inside the filesystem",
				 path);
	if (m->n == m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 64;
		struct mf_file *f;

		if (m->n >= MANIFEST_MAX_FILES)
			return error_set("manifest: more than %u files", MANIFEST_MAX_FILES);
		f = realloc(m->f, ncap * sizeof(*f));
		if (!f)
			return error_set("manifest: out of memory");
		m->f = f;
		m->cap = ncap;
	}
	copy = strdup(path);
	if (!copy)
		return error_set("manifest: out of memory");
	m->f[m->n++] = (struct mf_file){ copy, size, hash, MANIFEST_NO_ACK };
	return 0;
}

uint32_t manifest_ack(struct manifest *m)
{
	for (; m->covered < m->n; m->covered++)
		m->f[m->covered].ack = m->acks;
	return m->acks++;
}

void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->f[i].path);
	free(m->f);
	memset(m, 0, sizeof(*m));
}

void manifest_mark(uint32_t ack, char *buf, size_t len)
{
	snprintf(buf, len, MANIFEST_MARK_PREFIX "%" PRIu32, ack);
}

/* The acknowledgement a mark names, or -1 when it is not one. */
static int64_t mark_ack(const char *text)
{
	const size_t plen = sizeof(MANIFEST_MARK_PREFIX) - 1;
	char *end;
	unsigned long long v;

	if (strncmp(text, MANIFEST_MARK_PREFIX, plen) || text[plen] < '0' || text[plen] > '9')
		return -1;
	errno = 0;
	v = strtoull(text + plen, &end, 10);
	if (errno || *end || v >= MANIFEST_NO_ACK)
		return -1;
	return (int64_t)v;
}

int64_t manifest_acked(const struct lw_log *log, size_t end)
{
	int64_t next = 0;

	if (end > log->n)
		end = log->n;
	/* forwards, so that a gap or a repeat is seen wherever it is */
	for (size_t i = 0; i < end; i++) {
		int64_t a;

		if (!(log->ent[i].flags & LW_MARK) || (a = mark_ack(lw_mark_text(log, i))) < 0)
			continue;
		if (a != next)
			return error_set("log: mark %s at entry %zu, where fsb-ack:%lld was due",
					 lw_mark_text(log, i), i, (long long)next);
		next++;
	}
	return next;
}

/* Opened beneath root, no symbolic link anywhere on the way. */
static int open_beneath(int rootfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
}

/* Size and hash of path; *present 0 when it is missing or not a regular
 * file.  The hash only when the size is want (nothing else can match). */
static int read_one(int rootfd, const char *path, uint64_t want_size, XXH3_state_t *st,
		    char *buf, int *present, uint64_t *size, uint64_t *hash)
{
	struct stat sb;
	uint64_t done = 0;
	int fd = open_beneath(rootfd, path);

	*present = 0;
	if (fd < 0) {
		if (errno == ENOSYS)
			return error_set("manifest check: openat2 is missing (Linux 5.6 or later)");
		return 0;	/* missing, or reached through a link: lost either way */
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return 0;
	}
	*present = 1;
	*size = (uint64_t)sb.st_size;
	*hash = 0;
	if (*size != want_size) {
		close(fd);
		return 0;
	}
	XXH3_64bits_reset(st);
	while (done < *size) {
		ssize_t r = read(fd, buf, READ_CHUNK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* a read error on a damaged filesystem: the content is lost */
			*present = 0;
			break;
		}
		XXH3_64bits_update(st, buf, (size_t)r);
		done += (uint64_t)r;
	}
	*hash = XXH3_64bits_digest(st);
	close(fd);
	return 0;
}

static int by_path(const void *a, const void *b, void *files)
{
	const struct mf_file *f = files;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(f[x].path, f[y].path);

	return c ? c : (x > y) - (x < y);
}

int manifest_check(const struct manifest *m, const char *root, uint32_t acked,
		   struct mf_outcome *out)
{
	size_t *ix = NULL;
	char *buf = NULL;
	XXH3_state_t *st = NULL;
	int rootfd, rc = -1;

	memset(out, 0, sizeof(*out));
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return error_errno("manifest check: %s", root);
	ix = malloc((m->n ? m->n : 1) * sizeof(*ix));
	buf = malloc(READ_CHUNK);
	st = XXH3_createState();
	if (!ix || !buf || !st) {
		error_set("manifest check: out of memory");
		goto out;
	}
	for (size_t i = 0; i < m->n; i++)
		ix[i] = i;
	qsort_r(ix, m->n, sizeof(*ix), by_path, m->f);
	for (size_t g = 0; g < m->n;) {
		size_t end = g, from, promised = SIZE_MAX;
		const struct mf_file *latest;
		int present, hashed, kept = 0;
		uint64_t size = 0, hash = 0;

		while (end < m->n && !strcmp(m->f[ix[end]].path, m->f[ix[g]].path))
			end++;
		for (size_t k = g; k < end; k++)
			if (m->f[ix[k]].ack < acked)
				promised = k;	/* ix is in adding order within the group */
		from = promised == SIZE_MAX ? g : promised;
		latest = &m->f[ix[end - 1]];
		/* the file's size decides which entries can match; it is
		 * hashed once, when one can */
		if (read_one(rootfd, latest->path, m->f[ix[from]].size, st, buf, &present, &size,
			     &hash))
			goto out;
		hashed = present && size == m->f[ix[from]].size;
		for (size_t k = from; k < end && present && !kept; k++) {
			const struct mf_file *f = &m->f[ix[k]];

			if (size != f->size)
				continue;
			if (!hashed) {
				if (read_one(rootfd, f->path, size, st, buf, &present, &size, &hash))
					goto out;
				hashed = present;
			}
			kept = hashed && hash == f->hash;
		}
		if (promised != SIZE_MAX) {
			const struct mf_file *p = &m->f[ix[promised]];

			out->promised++;
			out->promised_bytes += p->size;
			if (!kept) {
				out->promised_lost++;
				out->promised_bytes_lost += p->size;
				if (!out->first_loss[0])
					snprintf(out->first_loss, sizeof(out->first_loss), "%s (%s)",
						 p->path, !present ? "missing"
						 : size != p->size ? "wrong size" : "wrong content");
			}
		} else {
			out->unpromised++;
			out->unpromised_bytes += latest->size;
			if (!kept) {
				out->unpromised_lost++;
				out->unpromised_bytes_lost += latest->size;
			}
		}
		g = end;
	}
	rc = 0;
out:
	XXH3_freeState(st);
	free(buf);
	free(ix);
	close(rootfd);
	return rc;
}
