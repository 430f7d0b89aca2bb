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

#include "../core/param.h"

/* fio's data directions, in its order (the index of every per-direction
 * array): a trim frees its range (the falloc engine punches a hole). */
enum io_dir { DIR_READ = 0, DIR_WRITE = 1, DIR_TRIM = 2 };
#define IO_DIRS 3

struct io_file {
	int fd;
	int index;		/* position in the thread's file array */
	uint64_t base;		/* first byte of this job's region (offset=) */
	uint64_t size;		/* bytes of the region */
	void *map;		/* mmap engine: the region, mapped */
	bool created;		/* fsbench made it, so fsbench removes it */
	/* what fsbench made (st_dev, st_ino; ino 0: not known): removed at
	 * the end only if the name still leads to it */
	uint64_t dev, ino;
	uint64_t op_pass;	/* file-operation engines: the pass (from 1) of its last */
	uint64_t pos[IO_DIRS];	/* sequential position per direction */
	int rel;		/* where in path the part beneath the job's dir starts (-1: none) */
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
	/* a file-operation engine's block after its file's operation: an I/O
	 * counted, with no latency (fio's FIO_NOSTATS) */
	bool untimed;
	/* verify: a block written read back, counted in verified_blocks */
	bool readback;
	/* the core's: queued and not yet reaped (serialize_overlap) */
	bool busy;
	/* cmdprio_percentage or cmdprio_bssplit drew this one a priority:
	 * the engine issues it with t->prio_value[prio] (0: the job's own) */
	uint8_t prio;
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
/* The I/O is an operation on the file's name (fio's filecreate, filestat,
 * filedelete): no file is held open.  A file's first request in a pass is
 * its operation, whose time alone is the latency (an engine may move
 * issue_ns past its own checks); the rest are untimed.  With
 * create_on_open=0, as in fio, each file's first operation is made when
 * the job starts, before the clock, and only its latency counts. */
#define ENGINE_FILE_OP	8u
/* With ENGINE_FILE_OP: the operation makes the files (filecreate), so none
 * is laid out, and a file that is already there is refused. */
#define ENGINE_MAKES_FILES 16u
/* The engine opens its files read-write and nothing more, whatever
 * direct= and sync= say (fio's falloc has an open of its own). */
#define ENGINE_PLAIN_OPEN 32u
/* The engine has no commit(): queue() issues the request and stamps its
 * start_ns and issue_ns around the call itself (posixaio, as fio times an
 * engine without commit), so submission leaves them alone. */
#define ENGINE_STAMPS_ISSUE 64u
/* The engine's I/O is made by a library's own threads (glibc's POSIX
 * AIO), which outlive the job's and use the process's file table: the
 * I/O thread keeps that table rather than one of its own. */
#define ENGINE_SHARED_TABLE 128u
/* The engine trims a regular file (falloc punches holes; null does
 * nothing): rw=trim and the like; the others' trims would be fio's
 * BLKDISCARD, which a file refuses. */
#define ENGINE_TRIMS 512u
/* The engine gives each request its own I/O priority (libaio's
 * IOCB_FLAG_IOPRIO, io_uring's sqe ioprio): fio's cmdprio_percentage. */
#define ENGINE_CMDPRIO 1024u

/* The engine starts a program (exec): `fsbench io` only, a run refuses it. */
#define ENGINE_RUNS_PROGRAM 2048u
/* The engine drives a device itself, below any filesystem: a run's raw
 * target only (--fs raw: a SCSI disk through SG_IO, sg; --fs raw-mtd: an
 * MTD device, mtd), never `fsbench io`, which opens files. */
#define ENGINE_SCSI 4096u
#define ENGINE_MTD 8192u

/* The engines a list may hold, and the bytes of options each may keep in a
 * job (struct io_options' engine_opts). */
#define ENGINES_MAX 24
#define ENGINE_OPTS_MAX 512

struct io_engine_ops {
	const char *name;	/* ioengine=NAME, as fio calls it */
	const char *title;	/* in chart titles, as PTS writes it: "IO_uring" */
	const char *help;
	unsigned flags;
	/* The engine's own options, as fio's engines have (io_uring's
	 * fixedbufs): rows of the engine's file whose offsets are into its
	 * own option struct of options_size bytes (at most ENGINE_OPTS_MAX),
	 * NULL-name terminated, or NULL.  The option table takes them in when
	 * the program loads (options.c), so every path that reads the table
	 * takes them; a job keeps each engine's struct apart (io_engine_opts),
	 * and one set for another engine than the job's is refused (rules.c). */
	const struct param_def *options;
	size_t options_size;
	/* An engine with no I/O of its own (exec) runs the thread's whole job
	 * here, its clock started, instead of the request loop (optional). */
	int (*run)(struct io_thread *t);
	/* Per-thread set-up after files are open and buffers allocated. */
	int (*init)(struct io_thread *t);
	int (*queue)(struct io_thread *t, struct io_req *r);
	/* Submit what queue() accepted (optional). */
	int (*commit)(struct io_thread *t);
	/* Reap between min and max completions; returns how many. */
	int (*getevents)(struct io_thread *t, unsigned min, unsigned max);
	struct io_req *(*event)(struct io_thread *t, unsigned i);
	/* The thread's I/O is over, its clock still running (optional):
	 * filecreate closes the files fio would close in its last sweep. */
	int (*end)(struct io_thread *t);
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

/* A file-operation engine's queue() asks this first (fileop_engine.c): true when
 * the request's file has had no operation this pass (it is marked done);
 * otherwise the request is completed untimed and false comes back. */
bool engine_file_op_due(struct io_thread *t, struct io_req *r);
/* Their init(): a file operation has no direction, so a mixed rw= is
 * refused (fio files every latency of the job under one).  0 or -1. */
int engine_file_op_init(struct io_thread *t);

#endif
