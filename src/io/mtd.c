/*
 * mtd.c: raw NAND through its MTD device (fio's mtd engine): each request
 * cut at the erase blocks it crosses; a read or write of each piece as
 * lseek then read or write (libmtd's calls, which fio's engine makes), a
 * write page-aligned as libmtd requires; a trim erases its block
 * (MEMERASE64) and must be exactly one.  With skip_bad, a bad block
 * (MEMGETBADBLOCK) is passed over and its request fails with EIO, as in
 * fio (mtd.fio ignores EIO); a block that fails with EIO is marked bad
 * (MEMSETBADBLOCK), as fio marks it.  Only on a run's raw-mtd target: the
 * simulated NAND of fsbench's guest, erased before each repetition.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <mtd/mtd-user.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct mtd_opts {
	bool skip_bad;
};
_Static_assert(sizeof(struct mtd_opts) <= ENGINE_OPTS_MAX, "room in a job");

static const struct param_def mtd_options[] = {
	{ "skip_bad", PT_BOOL, offsetof(struct mtd_opts, skip_bad), "0", 0, 0, NULL,
	  "mtd: pass over blocks marked bad (their requests fail with EIO)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

struct mtd_data {
	struct mtd_opts opt;
	uint32_t eb, page;	/* erase block and page (write unit) */
	uint64_t size;
};

static int mtd_init(struct io_thread *t)
{
	struct mtd_data *d = calloc(1, sizeof(*d));
	const struct io_file *f = &t->files[0];
	struct mtd_info_user info;

	if (!d)
		return error_set("out of memory");
	t->engine_data = d;
	memcpy(&d->opt, io_engine_opts(t->o), sizeof(d->opt));
	if (!t->o->target_device[0])	/* paths.c refuses it before: never a file's */
		return error_set("ioengine=mtd runs only on a run's raw-mtd target");
	if (ioctl(f->fd, MEMGETINFO, &info))
		return error_set("ioengine=mtd: %s is not an MTD device (MEMGETINFO: %s)", f->path,
				 strerror(errno));
	if (!info.erasesize || !info.writesize)
		return error_set("ioengine=mtd: %s gives no erase block or page size", f->path);
	d->eb = info.erasesize;
	d->page = info.writesize;
	d->size = info.size;
	return 0;
}

static void mtd_cleanup(struct io_thread *t)
{
	free(t->engine_data);
	t->engine_data = NULL;
}

/* lseek, then read or write until len is done: 0 or -errno. */
static int xfer(int fd, bool rd, char *buf, uint64_t at, uint32_t len)
{
	if (lseek(fd, (off_t)at, SEEK_SET) < 0)
		return -errno;
	while (len) {
		ssize_t n = rd ? read(fd, buf, len) : write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (uint32_t)n;
	}
	return 0;
}

/* One erase block's piece of a request: 0, 1 (bad, passed over), -errno. */
static int piece(struct mtd_data *d, int fd, enum io_dir dir, char *buf, uint64_t at, uint32_t len)
{
	loff_t block = (loff_t)(at - at % d->eb);
	int rc;

	if (d->opt.skip_bad) {
		int bad = ioctl(fd, MEMGETBADBLOCK, &block);
		if (bad < 0)
			return -errno;
		if (bad > 0)
			return 1;
	}
	if (dir == DIR_TRIM) {
		struct erase_info_user64 e = { (uint64_t)block, d->eb };
		if (at % d->eb || len != d->eb)
			return -EINVAL;	/* fio: "trim on MTD must be erase block-aligned" */
		rc = ioctl(fd, MEMERASE64, &e) ? -errno : 0;
	} else if (dir == DIR_WRITE && (at % d->page || len % d->page)) {
		rc = -EINVAL;	/* libmtd writes whole pages */
	} else {
		rc = xfer(fd, dir == DIR_READ, buf, at, len);
	}
	if (rc == -EIO)	/* as fio: the block that failed is marked bad */
		ioctl(fd, MEMSETBADBLOCK, &block);
	return rc;
}

static int mtd_queue(struct io_thread *t, struct io_req *r)
{
	struct mtd_data *d = t->engine_data;
	uint32_t done = 0;
	int res = 0;

	if (r->offset + r->len > d->size) {
		r->res = -EINVAL;
		return IO_Q_COMPLETED;
	}
	while (done < r->len) {
		uint64_t at = r->offset + done;
		uint32_t len = d->eb - (uint32_t)(at % d->eb);
		if (len > r->len - done)
			len = r->len - done;
		int rc = piece(d, r->file->fd, r->dir, (char *)r->buf + done, at, len);
		if (rc < 0) {
			res = rc;
			break;
		}
		if (rc > 0)
			res = -EIO;	/* passed over: fio's silent EIO */
		done += len;
	}
	r->res = res ? res : (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_mtd = {
	.name = "mtd",
	.title = "MTD",
	.help = "raw NAND through its MTD device: reads and page writes by erase block, trims "
		"erase (a raw-mtd target: --fs raw-mtd --vm); skip_bad=",
	.flags = ENGINE_SYNC | ENGINE_MTD | ENGINE_TRIMS | ENGINE_PLAIN_OPEN,
	.options = mtd_options,
	.options_size = sizeof(struct mtd_opts),
	.init = mtd_init,
	.queue = mtd_queue,
	.cleanup = mtd_cleanup,
};
