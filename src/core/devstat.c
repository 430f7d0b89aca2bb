/* devstat.c: block device counters and on-disk space (see devstat.h). */
#define _GNU_SOURCE
#include "devstat.h"
#include "compress.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/magic.h>

int devstat_parse(const char *text, struct devstat *d)
{
	uint64_t v[17] = { 0 };
	int n = 0;
	const char *p = text;

	memset(d, 0, sizeof(*d));
	while (n < 17) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno || end == p)
			return -1;
		n++;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	/* 11 fields since 2.6, 15 with discards (4.18), 17 with flushes (5.5) */
	if (*p || (n != 11 && n != 15 && n != 17))
		return -1;
	d->rd_ios = v[0];
	d->rd_merges = v[1];
	d->rd_ticks_ms = v[3];
	d->wr_merges = v[5];
	d->wr_ticks_ms = v[7];
	d->in_queue_ms = v[10];
	d->rd_sectors = v[2];
	d->wr_ios = v[4];
	d->wr_sectors = v[6];
	d->io_ticks_ms = v[9];
	d->dc_ios = v[11];
	d->dc_sectors = v[13];
	d->fl_ios = v[15];
	d->nfields = n;
	return 0;
}

int devstat_read(const char *root, const char *name, struct devstat *d)
{
	char path[512], text[512];
	ssize_t n;
	int fd;

	if (!name[0] || strchr(name, '/') || name[0] == '.')
		return error_set("no block device");
	snprintf(path, sizeof(path), "%s/sys/class/block/%s/stat", root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot read %s", path);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return error_errno("cannot read %s", path);
	text[n] = '\0';
	if (devstat_parse(text, d))
		return error_set("%s: not a block device stat file", path);
	return 0;
}

int devstat_node_of(const char *path, char *name, size_t len)
{
	struct stat st;
	char link[64], real[4096];

	if (stat(path, &st) || !major(st.st_dev))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(link, real))
		return -1;
	const char *base = strrchr(real, '/');
	snprintf(name, len, "%s", base ? base + 1 : real);
	return 0;
}

/* Little-endian fields of a btrfs_file_extent_item, read by offset: the
 * struct is packed and the buffer not aligned. */
static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define FE_RAM_BYTES 8
#define FE_COMPRESSION 16
#define FE_TYPE 20
#define FE_INLINE_DATA 21
#define FE_DISK_BYTENR 21
#define FE_DISK_NUM_BYTES 29
#define FE_SIZE 53

/* The disk extents already counted: after copy-on-write overwrites many
 * file extent items point into one disk extent, which takes its space
 * once (compsize counts it the same way).  Open addressing on bytenr. */
struct seen {
	uint64_t *slot;
	size_t cap, used;
};

static int seen_add(struct seen *s, uint64_t bytenr)	/* 1 new, 0 known, -1 ENOMEM */
{
	if (s->used * 2 >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *n = calloc(cap, sizeof(*n));
		if (!n)
			return -1;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				for (size_t h = (s->slot[i] * 0x9E3779B97F4A7C15ULL) & (cap - 1);;
				     h = (h + 1) & (cap - 1))
					if (!n[h]) {
						n[h] = s->slot[i];
						break;
					}
		free(s->slot);
		s->slot = n;
		s->cap = cap;
	}
	for (size_t h = (bytenr * 0x9E3779B97F4A7C15ULL) & (s->cap - 1);; h = (h + 1) & (s->cap - 1)) {
		if (s->slot[h] == bytenr)
			return 0;
		if (!s->slot[h]) {
			s->slot[h] = bytenr;
			s->used++;
			return 1;
		}
	}
}

/* Sum the data extents of one file from the extent tree of its subvolume:
 * 0, or -1 when the ioctl is refused (not root: no btrfs figures). */
static int btrfs_extents(int fd, uint64_t ino, struct space *sp, struct seen *seen)
{
	static const size_t bufsize = 64 * 1024;
	struct btrfs_ioctl_search_args_v2 *args = malloc(sizeof(*args) + bufsize);
	uint64_t next = 0;

	if (!args)
		return -1;
	for (;;) {
		memset(args, 0, sizeof(*args));
		args->key.tree_id = 0;	/* the subvolume fd is in */
		args->key.min_objectid = args->key.max_objectid = ino;
		args->key.min_type = args->key.max_type = BTRFS_EXTENT_DATA_KEY;
		args->key.min_offset = next;
		args->key.max_offset = UINT64_MAX;
		args->key.max_transid = UINT64_MAX;
		args->key.nr_items = 4096;
		args->buf_size = bufsize;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, args)) {
			free(args);
			return -1;
		}
		if (!args->key.nr_items)
			break;
		size_t off = 0;
		uint64_t from = next;
		for (uint32_t i = 0; i < args->key.nr_items; i++) {
			struct btrfs_ioctl_search_header h;
			if (off + sizeof(h) > bufsize)
				break;
			memcpy(&h, (const char *)args->buf + off, sizeof(h));
			off += sizeof(h);
			if (off + h.len > bufsize)
				break;
			const unsigned char *it = (const unsigned char *)args->buf + off;
			off += h.len;
			if (h.objectid != ino || h.type != BTRFS_EXTENT_DATA_KEY ||
			    h.len <= FE_TYPE)
				continue;
			next = h.offset + 1;
			if (it[FE_TYPE] == BTRFS_FILE_EXTENT_INLINE) {
				sp->extent_disk += h.len - FE_INLINE_DATA;
				sp->extent_ram += le64_at(it + FE_RAM_BYTES);
			} else if (h.len >= FE_SIZE && le64_at(it + FE_DISK_BYTENR)) {
				/* a hole has bytenr 0 and takes no space */
				int fresh = seen_add(seen, le64_at(it + FE_DISK_BYTENR));
				if (fresh < 0) {
					free(args);
					return -1;
				}
				if (!fresh)
					continue;
				uint64_t disk = le64_at(it + FE_DISK_NUM_BYTES);
				sp->extent_disk += disk;
				sp->extent_ram += it[FE_TYPE] == BTRFS_FILE_EXTENT_PREALLOC ||
					!it[FE_COMPRESSION] ? disk : le64_at(it + FE_RAM_BYTES);
			}
		}
		if (next <= from)	/* no progress, or the last offset */
			break;
	}
	free(args);
	return 0;
}

/* Up to 1 MiB of the file from its start, compressed in the
 * filesystem's pieces (compress.h) on its own: a piece never spans two
 * files, as no filesystem compresses across them. */
static void add_sample(int fd, uint64_t size, size_t want, size_t unit, unsigned char *buf,
		       size_t *have, struct space *sp)
{
	size_t take = want - *have;
	uint64_t stored;

	if (take > size)
		take = (size_t)size;
	if (take > 1 << 20)
		take = 1 << 20;	/* from many files rather than all from one */
	ssize_t n = pread(fd, buf, take, 0);
	if (n > 0 && !compress_pieces(buf, (size_t)n, unit, &stored)) {
		*have += (size_t)n;
		sp->sampled += (uint64_t)n;
		sp->sample_compressed += stored;
	}
}

int space_scan(const char *dir, size_t sample_max, struct space *sp)
{
	char *const paths[] = { (char *)dir, NULL };
	unsigned char *buf = NULL;
	size_t have = 0;
	struct statfs sf;
	FTS *fts;
	FTSENT *e;
	struct seen seen = { NULL, 0, 0 };
	int rc = 0, btrfs_ok;

	memset(sp, 0, sizeof(*sp));
	if (statfs(dir, &sf))
		return error_errno("cannot statfs %s", dir);
	btrfs_ok = sp->btrfs = sf.f_type == BTRFS_SUPER_MAGIC;
	if (sample_max && !(buf = malloc(sample_max < 1 << 20 ? sample_max : 1 << 20)))
		return error_set("out of memory");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	const char *how;
	size_t unit = COMPRESS_UNIT;
	if (dfd >= 0) {
		unit = compress_unit(dfd, &how);
		close(dfd);
	}
	fts = fts_open(paths, FTS_PHYSICAL | FTS_XDEV | FTS_NOCHDIR, NULL);
	if (!fts) {
		free(buf);
		return error_errno("cannot walk %s", dir);
	}
	while ((e = fts_read(fts))) {
		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR || e->fts_info == FTS_NS) {
			/* a file the workload removed while we looked is fine */
			if (e->fts_errno == ENOENT)
				continue;
			errno = e->fts_errno;
			rc = error_errno("cannot walk %s", e->fts_path);
			break;
		}
		if (e->fts_info != FTS_F)
			continue;
		const struct stat *st = e->fts_statp;
		sp->files++;
		sp->apparent += (uint64_t)st->st_size;
		sp->allocated += (uint64_t)st->st_blocks * 512;
		if (!btrfs_ok && (have >= sample_max || !st->st_size))
			continue;
		int fd = open(e->fts_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			continue;
		if (btrfs_ok && btrfs_extents(fd, (uint64_t)st->st_ino, sp, &seen))
			btrfs_ok = sp->btrfs = 0;	/* refused: no extent figures */
		if (have < sample_max && st->st_size)
			add_sample(fd, (uint64_t)st->st_size, sample_max, unit, buf, &have, sp);
		close(fd);
	}
	fts_close(fts);
	free(seen.slot);
	if (rc)
		sp->sampled = sp->sample_compressed = 0;
	free(buf);
	return rc;
}
