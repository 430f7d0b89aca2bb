/*
 * appstart.h: the pieces of the appstart workload that tests look at: the
 * replay traces' shapes and generator, how exec: finds a program's
 * shared libraries, S's own traces read and replayed (trace:PATH,
 * appstart-trace.c), and the background load (appstart-bg.c).
 */
#ifndef FSB_APPSTART_H
#define FSB_APPSTART_H

#include "../core/histogram.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trace_shape {
	const char *name;	/* "xterm" */
	const char *title;	/* "xterm", "GNOME Terminal" */
	int threads;
	int requests;
	uint64_t bytes;
};

struct trace_req {
	int thread;
	uint64_t offset;	/* in that thread's file */
	uint32_t len;
};

const struct trace_shape *trace_shape_find(const char *name);
/* The synthetic trace for a shape; *file_size is the per-thread file size
 * the offsets need.  Caller frees *out. */
int trace_build(const struct trace_shape *shape, struct trace_req **out, int *nout,
		uint64_t *file_size);
/* The loader (paths[0]) and every library it maps for program; returns
 * the number of paths, or -1 with the error set. */
int app_libraries(const char *program, char paths[][PATH_MAX], int max);

/* S's traces: each replay thread reads its own file of this many bytes
 * (replay-startup-io's OUT_FILE_SIZE). */
#define S_TRACE_FILE 20000000
#define S_TRACE_THREADS 64

struct s_trace_req {
	uint16_t thread;	/* by order of the process's first line */
	bool seq, ra;		/* Seq (else Rand); RA: read-ahead */
	uint32_t sectors;	/* 512-byte sectors, 1 .. S_TRACE_FILE / 512 - 1 */
};

struct s_trace {
	struct s_trace_req *req;
	int n, threads;
	uint64_t bytes;
};

/* Parse S's trace text (modified in place); 0, or -1 with the error set
 * naming the line.  s_trace_load reads it from a file first. */
int s_trace_parse(char *text, struct s_trace *out);
int s_trace_load(const char *path, struct s_trace *out);
void s_trace_free(struct s_trace *t);

/* The replay, as S's replay-startup-io: buffers set aside by prepare,
 * then each run replays the trace from the files replay0.. in dir;
 * seed draws the Rand offsets. */
struct s_replay;
int s_replay_prepare(const struct s_trace *t, struct s_replay **out);
int s_replay_run(struct s_replay *rp, const char *dir, bool direct, uint64_t seed);
void s_replay_free(struct s_replay *rp);

/* The background load, S's fio job (appstart-bg.c): readers read
 * dir/bg_read0.., writers write dir/bg_write0.. (laid out again by each
 * start, as fio lays out a write job's file), and a syncer, until
 * stopped.  A zeroed shared mapping; app_bg_free stops it first. */
#define APP_BG_MAX 63
struct app_bg;
struct app_bg *app_bg_new(void);
void app_bg_path(const char *dir, bool writer, int i, char *buf, size_t len);
int app_bg_start(struct app_bg *bg, const char *dir, int readers, int writers, uint64_t size,
		 double settle);
void app_bg_stop(struct app_bg *bg);
void app_bg_free(struct app_bg *bg);
/* Files the workers' latencies from now on as during a launch, or not. */
void app_bg_launching(struct app_bg *bg, bool on);
/* Bytes moved by the readers and the writers since the start: any time. */
void app_bg_bytes(const struct app_bg *bg, uint64_t *rd, uint64_t *wr);
/* Their latencies while launches ran, merged: once stopped. */
void app_bg_latency(const struct app_bg *bg, struct histogram *rd, struct histogram *wr);

#endif
