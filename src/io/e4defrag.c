/*
 * e4defrag.c: every write is an EXT4_IOC_MOVE_EXT of its range (fio's
 * e4defrag engine): the range's blocks are swapped with the same range
 * of a donor file, which is what e4defrag does to defragment a file, so
 * a job of it is a defragmenter's load beside the others.  The data do
 * not change (only where they lie), so reads are refused, as fio fails
 * them with EINVAL.  The donor (donorname=, beside the job's files) is
 * allocated over the job's range when the job starts, or per write with
 * inplace=1 (allocated before, truncated after, as fio does).
 *
 * Where fio differs, on purpose: fio opens the donor with O_CREAT and
 * leaves it, so a file of the user's of that name would be allocated,
 * swapped and truncated.  fsbench makes the donor new (O_EXCL, no link
 * followed) and shares it with the other threads and jobs that name it,
 * as fio's threads share theirs; the last to let go removes it, while the
 * name still leads to the file made.  A donor that was there already is
 * taken only when this command made it (e4defrag2.fio's jobs swap with
 * each other's data files) or with allow_existing_write=1, and is kept.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "io_internal.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EXT4_IOC_MOVE_EXT
struct move_extent {
	__u32 reserved;		/* zero */
	__u32 donor_fd;
	__u64 orig_start;	/* in blocks */
	__u64 donor_start;
	__u64 len;
	__u64 moved_len;
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)
#endif

struct e4defrag_opts {
	char donorname[56];
	bool inplace;
};
_Static_assert(sizeof(struct e4defrag_opts) <= ENGINE_OPTS_MAX, "room in a job");

static const struct param_def e4defrag_options[] = {
	PARAM_STRING("donorname", struct e4defrag_opts, donorname, "",
		     "e4defrag: the donor file's name, beside the job's files (made new, removed after)"),
	{ "inplace", PT_BOOL, offsetof(struct e4defrag_opts, inplace), "0", 0, 0, NULL,
	  "e4defrag: allocate the donor's blocks for each write and free them after" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

struct e4defrag_data {
	int fd;
	uint64_t dev, ino;	/* the donor */
	bool made;		/* it is one of donors[]: this process made it */
	uint32_t bsz;		/* the filesystem's block (st_blksize), the ioctl's unit */
	bool inplace;
	char path[4096];
};

/* The donors this process made, each shared by the threads that name it
 * and removed by the last to let go (set up once a thread, off the I/O
 * path). */
#define DONORS_MAX 64
static struct {
	uint64_t dev, ino;
	int refs;
} donors[DONORS_MAX];
static pthread_mutex_t donors_lock = PTHREAD_MUTEX_INITIALIZER;

static int donor_find(uint64_t dev, uint64_t ino)
{
	for (int i = 0; i < DONORS_MAX; i++)
		if (donors[i].refs && donors[i].dev == dev && donors[i].ino == ino)
			return i;
	return -1;
}

/* The donor opened into d: made new, or shared, or (made by this command,
 * or allowed) taken as it is.  Under donors_lock.  0, or -1 with the error
 * set. */
static int donor_open(struct io_thread *t, struct e4defrag_data *d)
{
	struct stat st;
	int k;

	d->fd = open(d->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (d->fd >= 0) {
		if (fstat(d->fd, &st))
			return error_errno("e4defrag: %s", d->path);
		for (k = 0; k < DONORS_MAX && donors[k].refs; k++)
			;
		if (k == DONORS_MAX) {
			close(d->fd);
			d->fd = -1;
			unlink(d->path);
			return error_set("e4defrag: more than %d donors at once", DONORS_MAX);
		}
		donors[k].dev = (uint64_t)st.st_dev;
		donors[k].ino = (uint64_t)st.st_ino;
		donors[k].refs = 1;
		d->made = true;
	} else if (errno == EEXIST) {
		d->fd = open(d->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (d->fd < 0 || fstat(d->fd, &st))
			return error_errno("e4defrag: the donor %s", d->path);
		if (!S_ISREG(st.st_mode))
			return error_set("e4defrag: the donor %s is not a regular file", d->path);
		if ((k = donor_find((uint64_t)st.st_dev, (uint64_t)st.st_ino)) >= 0) {
			donors[k].refs++;
			d->made = true;
		} else if (!io_made_here(t->job, &st) && !t->o->allow_existing_write) {
			return error_set("e4defrag: the donor %s was there before the job: fsbench io "
					 "swaps blocks only with a file it made (fio would reuse and "
					 "truncate it; allow_existing_write=1 lets it): remove it or "
					 "name another", d->path);
		}
	} else {
		return error_errno("e4defrag: the donor %s", d->path);
	}
	d->dev = (uint64_t)st.st_dev;
	d->ino = (uint64_t)st.st_ino;
	d->bsz = st.st_blksize > 0 ? (uint32_t)st.st_blksize : 4096;
	return 0;
}

static int e4defrag_init(struct io_thread *t)
{
	const struct e4defrag_opts *eo = io_engine_opts(t->o);
	struct e4defrag_data *d;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (io_has_reads(t->o))
		return error_set("ioengine=e4defrag only writes (each write moves its range's blocks; "
				 "the data stay): use rw=write or randwrite");
	if (!eo->donorname[0] || strchr(eo->donorname, '/') || !strcmp(eo->donorname, ".") ||
	    !strcmp(eo->donorname, ".."))
		return error_set("ioengine=e4defrag needs donorname=NAME, a file name beside the "
				 "job's files (no '/')");
	if (t->nfiles < 1)
		return error_set("ioengine=e4defrag: the job has no file");
	d = calloc(1, sizeof(*d));
	if (!d)
		return error_set("out of memory");
	d->fd = -1;
	d->inplace = eo->inplace;
	t->engine_data = d;
	/* beside the first file, as fio puts it in directory= */
	str_copy(d->path, sizeof(d->path), t->files[0].path);
	char *slash = strrchr(d->path, '/');
	size_t at = slash ? (size_t)(slash - d->path) + 1 : 0;
	if (at + strlen(eo->donorname) >= sizeof(d->path))
		return error_set("e4defrag: the donor's path is too long");
	str_copy(d->path + at, sizeof(d->path) - at, eo->donorname);
	pthread_mutex_lock(&donors_lock);
	int rc = donor_open(t, d);
	pthread_mutex_unlock(&donors_lock);
	if (rc)
		return -1;
	for (int i = 0; i < t->nfiles; i++) {
		if (t->files[i].base < lo)
			lo = t->files[i].base;
		if (t->files[i].base + t->files[i].size > hi)
			hi = t->files[i].base + t->files[i].size;
	}
	/* the donor's blocks at the offsets the writes move (fio: from
	 * start_offset to the largest file's end) */
	if (!d->inplace && hi > lo && fallocate(d->fd, 0, (off_t)lo, (off_t)(hi - lo)))
		return error_errno("e4defrag: allocating the donor %s", d->path);
	return 0;
}

static int e4defrag_queue(struct io_thread *t, struct io_req *r)
{
	struct e4defrag_data *d = t->engine_data;
	struct move_extent me;
	uint64_t len;
	int rc;

	if (d->inplace && fallocate(d->fd, 0, (off_t)r->offset, (off_t)r->len)) {
		r->res = -errno;
		return IO_Q_COMPLETED;
	}
	memset(&me, 0, sizeof(me));
	me.donor_fd = (__u32)d->fd;
	me.orig_start = r->offset / d->bsz;
	me.donor_start = me.orig_start;
	me.len = (r->offset + r->len + d->bsz - 1) / d->bsz - me.orig_start;
	rc = ioctl(r->file->fd, EXT4_IOC_MOVE_EXT, &me);
	len = me.moved_len * d->bsz;
	if (len > r->len)
		len = r->len;
	/* a part moved is a short transfer; nothing moved past the end of
	 * the file is fio's EINVAL */
	r->res = rc ? -errno : len ? (int)len : -EINVAL;
	if (d->inplace && ftruncate(d->fd, 0) && r->res >= 0)
		r->res = -errno;
	return IO_Q_COMPLETED;
}

static void e4defrag_cleanup(struct io_thread *t)
{
	struct e4defrag_data *d = t->engine_data;
	struct stat st;

	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	pthread_mutex_lock(&donors_lock);
	int k = d->made ? donor_find(d->dev, d->ino) : -1;
	/* the last to let go of a donor it made removes it, while the name
	 * still leads to it */
	if (k >= 0 && !--donors[k].refs && !lstat(d->path, &st) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_dev == d->dev && (uint64_t)st.st_ino == d->ino)
		unlink(d->path);
	pthread_mutex_unlock(&donors_lock);
	free(d);
	t->engine_data = NULL;
}

const struct io_engine_ops engine_e4defrag = {
	.name = "e4defrag",
	.title = "E4Defrag",
	.help = "each write moves its range's blocks to and from a donor file (EXT4_IOC_MOVE_EXT, "
		"ext4 only): a defragmenter's load; donorname= names the donor",
	.flags = ENGINE_SYNC | ENGINE_FAKE_IO,
	.options = e4defrag_options,
	.options_size = sizeof(struct e4defrag_opts),
	.init = e4defrag_init,
	.queue = e4defrag_queue,
	.cleanup = e4defrag_cleanup,
};
