/*
 * mmap.c: each file's region mapped shared once per thread; a read or write
 * is a memcpy from or into the mapping (fio's mmap engine).
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct mmap_data {
	size_t *lens;		/* per file: mapped length */
	uint64_t *starts;	/* per file: file offset of the mapping */
};

static void mmap_cleanup(struct io_thread *t)
{
	struct mmap_data *m = t->engine_data;

	if (!m)
		return;
	for (int i = 0; i < t->nfiles; i++)
		if (t->files[i].map)
			munmap(t->files[i].map, m->lens[i]);
	free(m->lens);
	free(m->starts);
	free(m);
	t->engine_data = NULL;
}

/* fio's fadvise_hint, which this engine gives the mapping as madvise; fio
 * fails the job on noreuse, which has no madvise. */
static int map_advice(const struct io_options *o)
{
	switch (o->fadvise_hint) {
	case FADVISE_TYPE: return io_is_random(o) ? POSIX_MADV_RANDOM : POSIX_MADV_SEQUENTIAL;
	case FADVISE_RANDOM: return POSIX_MADV_RANDOM;
	case FADVISE_SEQUENTIAL: return POSIX_MADV_SEQUENTIAL;
	default: return -1;
	}
}

static int mmap_init(struct io_thread *t)
{
	long page = sysconf(_SC_PAGESIZE);
	int advice = map_advice(t->o);
	struct mmap_data *m;

	if (t->o->fadvise_hint == FADVISE_NOREUSE)
		return error_set("ioengine=mmap takes no fadvise_hint=noreuse (fio's mmap engine "
				 "has no madvise for it and fails the job)");
	m = calloc(1, sizeof(*m));
	if (!m)
		return error_set("out of memory");
	t->engine_data = m;
	m->lens = calloc((size_t)t->nfiles, sizeof(*m->lens));
	m->starts = calloc((size_t)t->nfiles, sizeof(*m->starts));
	if (!m->lens || !m->starts)
		return mmap_cleanup(t), error_set("out of memory");
	for (int i = 0; i < t->nfiles; i++) {
		struct io_file *f = &t->files[i];
		uint64_t start = f->base - f->base % (uint64_t)page;
		void *p;

		m->starts[i] = start;
		m->lens[i] = (size_t)(f->base + f->size - start);
		p = mmap(NULL, m->lens[i], PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, (off_t)start);
		if (p == MAP_FAILED) {
			int e = errno;
			mmap_cleanup(t);
			errno = e;
			return error_errno("mmap %s", f->path);
		}
		f->map = p;
		if (advice >= 0)
			posix_madvise(p, m->lens[i], advice);
	}
	return 0;
}

static int mmap_queue(struct io_thread *t, struct io_req *r)
{
	struct mmap_data *m = t->engine_data;
	char *at = (char *)r->file->map + (r->offset - m->starts[r->file->index]);

	if (r->dir == DIR_READ)
		memcpy(r->buf, at, r->len);
	else
		memcpy(at, r->buf, r->len);
	r->res = (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_mmap = {
	.name = "mmap",
	.title = "mmap",
	.help = "memcpy to and from a shared mapping of each file",
	.flags = ENGINE_SYNC,
	.init = mmap_init,
	.queue = mmap_queue,
	.cleanup = mmap_cleanup,
};
