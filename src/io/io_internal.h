/*
 * io_internal.h: what the pieces of the I/O core share and nothing else
 * sees (the public interface is iojob.h).  The core is split as fio splits
 * its own: rules.c (option rules and titles), filesetup.c (paths, lay-out,
 * open, close), backend.c (the per-I/O path, the sync and async loops,
 * the start gate, running and merging), verify.c (verify=crc32c).
 */
#ifndef FSB_IO_INTERNAL_H
#define FSB_IO_INTERNAL_H

#include "iojob.h"
#include "iolog.h"
#include "../core/timing.h"
#include "../core/stop.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define VERIFY_MAGIC 0xf5b3c7a1u
#define LAYOUT_CHUNK (1u << 20)
#define BUF_ALIGN 4096

/* The header verify=crc32c puts at the start of every block. */
struct verify_hdr {
	uint32_t magic;
	uint32_t len;
	uint64_t offset;
	uint64_t seed;
	uint64_t generation;
	/* over the header before it and the data after; with a digest
	 * (verify=md5...), which follows and covers the same, 0 */
	uint32_t crc;
	uint32_t pad;
};

/* fio's flow: the I/Os all threads of a flow_id's jobs have issued, and
 * the sum of their weights; a thread may issue while its own count over
 * the flow's is within its weight's share (fio's flow.c). */
#define IO_FLOWS_MAX 64
struct io_flow {
	int64_t id;
	atomic_uint_fast64_t count;	/* from 1, as fio's */
	atomic_int_fast64_t weight;
};

/* A run's threads meet here to start together; under its lock, too,
 * what exitall and wait_for look at across the run's jobs. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready, go, failed;
	struct io_job **jobs;
	int njobs;
	bool exit_all;		/* exit_what=all came: nothing after this run */
	struct io_flow flows[IO_FLOWS_MAX];
	int nflows;
	pthread_t ss_thread;		/* steadystate.c's check, every second */
	bool ss_running, ss_stop;
};

struct io_job {
	struct io_options o;
	const struct io_engine_ops *ops;
	char dir[4096];
	int nthreads, nfiles;
	int first_thread;		/* its first thread's io_thread.seq */
	uint64_t per_file;
	struct io_thread *threads;
	struct gate *gate;
	int groupid;			/* fio's reporting group, for exit_what=group */
	struct io_job *waitee;		/* wait_for, when it is in the same run */
	int ended;			/* threads that have ended (gate lock) */
	bool started;			/* a thread has begun its I/O (gate lock) */
	struct io_ss_unit *ss;		/* steadystate.c: [nss], NULL without ss_dur */
	int nss;
	unsigned runs;			/* io_job_run calls so far */
	/* what the same command made before this job (paths.c's rule lets
	 * a job write those): the run's other jobs opened before it, and
	 * the earlier runs' files */
	struct io_job *const *peers;
	int npeers;
	const struct io_made *made;
	struct iolog_replay *replay;	/* read_iolog, parsed (replay.c) */
};

/* results.c: the result of threads [lo, hi) of the job (all of them for
 * the job's own, one for fio's entry per thread without group_reporting);
 * and what a compressing filesystem was given to store, from the job's
 * first file (-1: nothing written). */
void io_job_result(const struct io_job *job, int lo, int hi, struct io_result *res);
double io_job_compress_ratio(const struct io_job *job, size_t *unit, const char **how);

/* read_iolog (replay.c): the log parsed again for the job (refused if it
 * no longer fits the shape io_replay_shape gave); and freed. */
int io_replay_open(struct io_job *job);
void io_replay_close(struct io_job *job);

/* io_submit_mode=offload's engine over the job's (offload.c); not in
 * the ioengine list. */
extern const struct io_engine_ops engine_offload;

/* A stop request, or exitall ending this thread's job. */
static inline bool io_stopping(const struct io_thread *t)
{
	return stop_requested() || atomic_load_explicit(&t->terminate, memory_order_relaxed);
}
/* pace.c: sleep until `until` (CLOCK_MONOTONIC ns) in slices a stop can
 * cut short, the last stretch spun.  False if a stop came. */
bool io_sleep_until(const struct io_thread *t, uint64_t until);
/* Measure nanosleep's overshoot, once a process (io_sleep_until's). */
void io_measure_slack(void);
/* pace.c: thinktime's stall, once due (think_due), with nothing in
 * flight; dir is the last I/O's.  False when the runtime ended or a stop
 * came. */
bool io_think(struct io_thread *t, int dir);
/* Drop the thread's files' cached pages (fio's invalidate; backend.c). */
void io_invalidate_files(struct io_thread *t);
/* offsets.c: the next request's file, direction, offset and length, a
 * write's buffer filled.  False when the job has issued all it should,
 * or, with t->rate_waiting set, when the rate says to drain the
 * `inflight` first. */
bool io_next(struct io_thread *t, struct io_req *r, unsigned inflight);
/* When direction d may next issue, after the bytes just counted (a
 * rate's schedule; offsets.c). */
uint64_t io_rate_schedule(struct io_thread *t, int d);
/* backend.c, for run.c: each thread's I/O loop (one request at a time for
 * a synchronous engine, iodepth in flight otherwise), a write job's
 * read-back, and what the thread's run needs around them. */
void io_run_sync(struct io_thread *t);
void io_run_async(struct io_thread *t);
void io_verify_back(struct io_thread *t);
void io_advise_files(struct io_thread *t);
/* latency_target.c: the search's start, its next window, its check
 * after a reap, and a completion's latency against the target (-1: the
 * job fails, fio's ETIMEDOUT). */
void io_lat_init(struct io_thread *t);
void io_lat_new_cycle(struct io_thread *t, uint64_t now);
void io_lat_check(struct io_thread *t, uint64_t now);
int io_lat_target_failed(struct io_thread *t, uint64_t lat);
/* A window over the target: a shallower queue, or the search is done
 * (true). */
bool io_lat_step_down(struct io_thread *t);
void io_thread_faults(uint64_t *ctx, uint64_t *majf, uint64_t *minf);
void io_thread_cpu(uint64_t *usr, uint64_t *sys);
void io_start_stats(struct io_thread *t, uint64_t now);
/* Every latency's histogram and moments emptied (a new measured part). */
void io_clear_latencies(struct io_thread *t);
void io_engine_error(struct io_thread *t);
/* A verify_backlog entry whose write is still in flight. */
#define HIST_FLIGHT (1ULL << 63)

/* End a thread as at its runtime's end (exitall, steady state). */
static inline void io_terminate(struct io_thread *t)
{
	atomic_store(&t->terminate, true);
}


/* filesetup.c: the files the job made go on m instead of being removed
 * at io_job_close.  0, or -1 with the error set. */
int io_job_hand_over(struct io_job *job, struct io_made *m);
/* filesetup.c: the file (st) is one the same command made: this job, the
 * run's other jobs opened before it, or the earlier runs' files. */
bool io_made_here(const struct io_job *job, const struct stat *st);
/* filesetup.c: io_job_open for a job of a run whose earlier jobs have
 * first_thread threads in all (io_thread.seq), npeers of them opened
 * before it, after the earlier runs' made. */
int io_job_open_at(const struct io_options *o, const char *dir, int first_thread,
		   struct io_job *const *peers, int npeers, const struct io_made *made,
		   struct io_job **out);
/* filesetup.c: a file-operation job's files as io_job_open left them,
 * for another repetition: filecreate's removed, filedelete's laid out
 * again.  0, or -1 with the error set. */
int io_job_refresh(struct io_job *job);
/* filesetup.c: the calling I/O thread's own file table, as a fio job's
 * process has: unshared, holding the standard streams and this thread's
 * files, each opened again under its number so that it is a file of its
 * own (one reference: read and write then skip the position's lock).
 * 0, or -1 with the error set. */
int io_thread_own_files(struct io_thread *t);
/* logs.c: the job's write_lat_log / write_bw_log / write_iops_log files,
 * numbered on from the previous job's as fio numbers them. */
int io_write_logs(const struct io_job *job);

/* write_iolog (iolog.c): what a thread queued, in fio's iolog format. */
struct io_iolog_ent {
	uint64_t us, offset;
	uint32_t len;
	uint32_t file;		/* index into the thread's files */
	uint8_t act;		/* IOLOG_* */
};
struct io_iolog {
	int fd;
	uint64_t t0;		/* the thread's set-up: usec count from here */
	struct io_iolog_ent *ent;
	unsigned n, cap;
	char *text;		/* a flush's formatted lines */
};
/* Open the log and note each file's add and open (0 without
 * write_iolog); -1 with the error set. */
int io_iolog_begin(struct io_thread *t);
/* Note each file's close, write what is held, close the log; 0 or -1
 * (the thread's error set).  Safe without a log. */
int io_iolog_end(struct io_thread *t);
/* The entries are full: format and append them. */
void io_iolog_full(struct io_thread *t);
static inline void io_iolog_note(struct io_thread *t, const struct io_file *f, int act,
				 uint64_t offset, uint32_t len)
{
	struct io_iolog *l = t->iolog;

	if (!l)
		return;
	if (l->n == l->cap)
		io_iolog_full(t);
	l->ent[l->n++] = (struct io_iolog_ent){ (now_ns() - l->t0) / 1000, offset, len,
						(uint32_t)f->index, (uint8_t)act };
}
/* An I/O as it is queued (fio's log_io_u). */
static inline void io_iolog_req(struct io_thread *t, const struct io_req *r)
{
	if (t->iolog)
		io_iolog_note(t, r->file, r->dir == DIR_READ ? IOLOG_READ : r->dir == DIR_WRITE
			      ? IOLOG_WRITE : IOLOG_TRIM, r->offset, r->len);
}

/* path's directory is the root directory, however it is spelled: fsbench
 * io makes no file there (paths.c). */
bool io_in_root(const char *path);
/* paths.c: open rel under dir, never through a symbolic link or out of
 * dir (openat2's RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS); -1 with errno. */
int io_open_beneath(const char *dir, const char *rel, int flags, mode_t mode);

/* rules.c */
bool io_is_direct(const struct io_options *o);
int io_block_sizes(const struct io_options *o, uint64_t *min, uint64_t *max);
/* verify.c: stamp a block before it is written; check one read back
 * (0, or -1 with the thread's error set).  The read-back itself is the I/O
 * core's (backend.c), through the job's engine. */
/* distribution.c: random_distribution's generators, one per file. */
/* like: a generator of the same job for as many blocks, whose zeta sum is
 * reused (NULL: none). */
void dist_init(struct dist_state *s, const struct dist_spec *d, uint64_t nblocks, uint64_t seed,
	       const struct dist_state *like);
/* A block of the file (0 .. nblocks-1) for an I/O in direction dir. */
uint64_t dist_next(struct dist_state *s, const struct dist_spec *d, int dir, uint64_t bs);

/* steadystate.c: fio's steady-state detection (ss, ss_dur, ss_ramp).
 * io_ss_start allocates each job's units and starts the thread that
 * checks them every second (none when no job has ss_dur); io_ss_stop,
 * once the I/O threads are joined, stops it; io_ss_result copies a job's
 * outcome; io_ss_free frees the units. */
int io_ss_start(struct gate *g);
void io_ss_stop(struct gate *g);
void io_ss_result(const struct io_job *job, struct io_result *res);
void io_ss_free(struct gate *g);

/* The digest (core/digest.h's DIGEST_*) verify mode vmode stores after
 * each chunk's header, or -1: crc32c keeps its CRC in the header, meta
 * and pattern have none. */
int io_verify_digest(int vmode);
/* Bytes at the start of each chunk that are header: the verify_hdr and
 * its digest (0 for verify=pattern). */
uint32_t io_verify_hdr_len(int vmode);
int io_verify_template(struct io_thread *t);
void io_verify_stamp(const struct io_thread *t, void *buf, uint32_t len, uint64_t offset,
		     uint64_t gen);
int io_verify_check(struct io_thread *t, const struct io_file *f, const void *buf,
		    uint32_t len, uint64_t offset);

/* numa.c: numa_cpu_nodes and numa_mem_policy checked against this
 * machine's nodes (a run's rule), and applied to the calling I/O thread. */
int io_numa_check(const struct io_options *o);
int io_numa_place(struct io_thread *t);

#endif
