/*
 * compress.c: zstd-measured compressibility (see compress.h), piece by
 * piece as a compressing filesystem stores data.
 */
#define _GNU_SOURCE
#include "compress.h"
#include "error.h"

#include <libmount/libmount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <zstd.h>

#define BTRFS_MAGIC 0x9123683eL
#define F2FS_MAGIC 0xf2f52010L
#define SECTOR 4096		/* what a compressed piece is rounded up to */

double compress_ratio(const void *buf, size_t len)
{
	size_t cap = ZSTD_compressBound(len), got;
	void *out;

	if (!len)
		return 1.0;
	out = malloc(cap);
	if (!out)
		return error_set("out of memory measuring compressibility"), -1;
	got = ZSTD_compress(out, cap, buf, len, 3);
	free(out);
	if (ZSTD_isError(got))
		return error_set("zstd: %s", ZSTD_getErrorName(got)), -1;
	return (double)got / (double)len;
}

int compress_pieces(const void *buf, size_t len, size_t unit, uint64_t *stored)
{
	const unsigned char *p = buf;
	size_t cap = ZSTD_compressBound(unit);
	/* one context and output buffer for every call on this thread (a
	 * device scan calls once per file): made once, grown when a larger
	 * unit asks */
	static _Thread_local ZSTD_CCtx *cx;
	static _Thread_local void *out;
	static _Thread_local size_t out_cap;
	int rc = 0;

	*stored = 0;
	if (!cx)
		cx = ZSTD_createCCtx();
	if (out_cap < cap) {
		free(out);
		out = malloc(cap);
		out_cap = out ? cap : 0;
	}
	if (!out || !cx)
		return error_set("out of memory measuring compressibility");
	for (size_t at = 0; at < len; at += unit) {
		size_t n = len - at < unit ? len - at : unit;
		size_t got = ZSTD_compressCCtx(cx, out, cap, p + at, n, 3);
		if (ZSTD_isError(got)) {
			rc = error_set("zstd: %s", ZSTD_getErrorName(got));
			break;
		}
		/* stored in whole sectors, and raw where that saves nothing */
		got = (got + SECTOR - 1) / SECTOR * SECTOR;
		*stored += got < n ? got : n;
	}
	return rc;
}

/* F2FS's cluster: 2^compress_log_size pages (default 2: 16 KiB), read
 * from the mount's options (libmount, /proc/self/mountinfo). */
static size_t f2fs_cluster(dev_t dev)
{
	struct libmnt_table *tb = mnt_new_table();
	size_t unit = (size_t)SECTOR << 2;
	char *val = NULL;
	size_t vlen = 0;

	if (tb && !mnt_table_parse_file(tb, "/proc/self/mountinfo")) {
		struct libmnt_fs *fs = mnt_table_find_devno(tb, dev, MNT_ITER_BACKWARD);
		if (fs && !mnt_fs_get_option(fs, "compress_log_size", &val, &vlen) && val &&
		    vlen && vlen < 3) {
			char num[4] = { 0 };
			memcpy(num, val, vlen);
			int log = atoi(num);
			if (log >= 2 && log <= 8)	/* F2FS's bounds */
				unit = (size_t)SECTOR << log;
		}
	}
	mnt_unref_table(tb);
	return unit;
}

size_t compress_unit(int fd, const char **what)
{
	struct statfs sf;
	struct stat st;

	if (!fstatfs(fd, &sf) && sf.f_type == F2FS_MAGIC && !fstat(fd, &st)) {
		*what = "as F2FS stores it";
		return f2fs_cluster(st.st_dev);
	}
	*what = !fstatfs(fd, &sf) && sf.f_type == BTRFS_MAGIC ? "as btrfs stores it"
							     : "as btrfs would store it";
	return COMPRESS_UNIT;
}

double compress_ratio_file(int fd, uint64_t size, size_t unit, int samples)
{
	unsigned char *buf;
	uint64_t stored = 0, read_total = 0;

	if (!unit || samples < 1 || !size)
		return 1.0;
	uint64_t pieces = (size + unit - 1) / unit;
	if ((uint64_t)samples > pieces)
		samples = (int)pieces;
	buf = malloc(unit);
	if (!buf)
		return error_set("out of memory measuring compressibility"), -1;
	for (int i = 0; i < samples; i++) {
		/* evenly spread pieces, each at a unit boundary, as the
		 * filesystem cuts the file */
		uint64_t off = pieces / (uint64_t)samples * (uint64_t)i * unit, got;
		ssize_t n = pread(fd, buf, unit, (off_t)off);
		if (n < 0) {
			free(buf);
			return error_errno("reading back data to measure compressibility"), -1;
		}
		if (compress_pieces(buf, (size_t)n, unit, &got)) {
			free(buf);
			return -1;
		}
		stored += got;
		read_total += (uint64_t)n;
	}
	free(buf);
	return read_total ? (double)stored / (double)read_total : 1.0;
}
