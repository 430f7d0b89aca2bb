/*
 * engine.h: the interface every I/O engine implements (fio's ioengine_ops).
 *
 * An engine is one file here exporting one const struct io_engine_ops.  The
 * job core (backend.c) never knows which engine runs: it hands each engine a
 * prepared request (file, offset, length, buffer) through queue(), and an
 * engine either completes it on the spot (IO_Q_COMPLETED: psync, sync,
 * mmap, null) or accepts it (IO_Q_QUEUED) for commit() to submit and
 * getevents()/event() to reap (io_uring, libaio).  IO_Q_BUSY means "reap
 * something first".  Engines keep their state in thread->engine_data,
 * one per I/O thread, so nothing is shared and nothing is locked.
 */
#ifndef FSB_ENGINE_H
#define FSB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum io_dir { DIR_READ = 0, DIR_WRITE = 1 };

struct io_file {
	int fd;
	int index;		/* position in the thread's file array */
	uint64_t base;		/* first byte of this job's region (offset=) */
	uint64_t size;		/* bytes of the region */
	void *map;		/* mmap engine: the region, mapped */
	bool created;		/* fsbench made it, so fsbench removes it */
	uint64_t pos[2];	/* sequential position per direction */
	char path[4096];
};

struct io_req {
	struct io_file *file;
	uint64_t offset;	/* absolute file offset */
	uint32_t len;
	enum io_dir dir;
	int res;		/* bytes done, or -errno */
	unsigned index;		/* slot in the thread's request array */
	uint64_t start_ns;	/* fio's start_time: before the submitting call */
	uint64_t issue_ns;	/* fio's issue_time: async, when that call returned */
	void *buf;
};

struct io_thread;

enum { IO_Q_COMPLETED, IO_Q_QUEUED, IO_Q_BUSY };

/* The engine completes every request inside queue(). */
#define ENGINE_SYNC	1u
/* No data moves (null): verify and lay-out make no sense. */
#define ENGINE_NO_DATA	2u
/* Files, but no data moves (fio's FIO_FAKEIO: ftruncate, falloc): no
 * verify, and nothing written whose compressibility means anything. */
#define ENGINE_FAKE_IO	4u

struct io_engine_ops {
	const char *name;	/* ioengine=NAME, as fio calls it */
	const char *title;	/* in chart titles, as PTS writes it: "IO_uring" */
	const char *help;
	unsigned flags;
	/* Per-thread set-up after files are open and buffers allocated. */
	int (*init)(struct io_thread *t);
	int (*queue)(struct io_thread *t, struct io_req *r);
	/* Submit what queue() accepted (optional). */
	int (*commit)(struct io_thread *t);
	/* Reap between min and max completions; returns how many. */
	int (*getevents)(struct io_thread *t, unsigned min, unsigned max);
	struct io_req *(*event)(struct io_thread *t, unsigned i);
	void (*cleanup)(struct io_thread *t);
};

/* The engines are one list (engines.c); everything else derives from it. */
/* The index-th engine of the list, NULL past its end; the io parameter
 * `ioengine` is an index into it. */
const struct io_engine_ops *engine_at(int index);
/* "psync|sync|...": the list's names, for the parameter table's choices
 * (filled from the list when the program loads). */
extern char engine_choices[];

/* Transfer a whole request, a short transfer going on from where it
 * stopped (as fio's core re-issues the rest): lseek then read/write
 * (sync), pread/pwrite (psync), preadv/pwritev with one iovec (pvsync),
 * or preadv2/pwritev2 with the RWF_* flags rwf (pvsync2): each engine's
 * own calls, as fio's make them.  Bytes done, or -errno. */
enum xfer { XFER_SEEK, XFER_POSITIONED, XFER_VECTOR, XFER_VECTOR2 };
int engine_full_transfer(int fd, struct io_req *r, enum xfer how, int rwf);

#endif
