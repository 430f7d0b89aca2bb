/*
 * workload.h: the interface every benchmark workload implements.
 *
 * A workload is one file under src/workloads/ exporting one const struct
 * workload.  It declares its parameters (param.h table), the metrics one
 * repetition produces, named tests (presets such as seed 000's fs_mark
 * configurations), its life cycle (prepare, run, cleanup: run alone is
 * required) and optional checks and estimates (validate, validate_target,
 * space_needed, describe, metrics_used).  The runner owns everything else:
 * targets, scratch directories, repetitions, cache dropping, CPU
 * accounting, storage and reports.  A workload never prints.
 *
 * Life cycle per (test, target):  prepare once, run N times, cleanup once.
 * All work happens inside ctx->dir, an empty directory fsbench created and
 * will remove.  A workload checks workload_stopped() in long loops so
 * SIGINT ends a run promptly.
 */
#ifndef FSB_WORKLOAD_H
#define FSB_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../core/param.h"
#include "../core/stop.h"

/* A workload's metrics plus the runner's device group (runner/devgroup.h). */
#define MAX_METRICS 64

enum direction { LOWER_IS_BETTER = -1, HIGHER_IS_BETTER = 1 };

struct metric_def {
	const char *name;	/* stable key: "files_per_sec" */
	const char *unit;	/* as charted: "Files/s", "usec" */
	enum direction direction;
	const char *label;	/* column header / chart line: "Files/s" */
	int primary;		/* its precision decides the runs; the summary shows it */
};

/* A named test: a workload with fixed parameters and a chart title. */
struct preset {
	const char *name;	/* "fsmark-1000x1M" */
	const char *params;	/* "files=1000,size=1M" */
	const char *subtitle;	/* "Test: 1000 Files, 1MB Size"; NULL = derived */
};

#define DETAIL_MAX 16384
#define SERIES_MAX 65536

struct fs_spec;
struct fs_profile;

struct wl_ctx {
	const char *dir;	/* scratch directory for this target */
	/* The filesystem fsbench made for this target (NULL for --target
	 * DIR), for a workload that makes the same one again on a device of
	 * its own (powercut); and the target's label, for messages. */
	const struct fs_spec *fs;
	const char *label;
	/* Where a workload keeps what reproduces a finding (powercut's
	 * image and log), a directory fsbench owns: beside the result store,
	 * in the guest its exchange directory's.  NULL: nothing is kept. */
	const char *findings;
	bool guest;		/* the run happens in fsbench's guest (--vm) */
	/* A flash target's twin partition (/dev/mtdN) for a workload that
	 * makes its own filesystem (powercut), or NULL. */
	const char *mtd;
	/* A raw target's medium (no filesystem, --fs raw or raw-mtd): the
	 * device the workload drives itself, checked and held by fsbench
	 * (targets/medium.h), and its bytes; NULL on any other target. */
	const char *device;
	uint64_t device_bytes;
	/* The disk itself under that region (SCSI commands go there, kept
	 * within device_bytes by the engine), or NULL. */
	const char *disk;
	/* The volatile buffer of the medium the target is on, bytes: what a
	 * power cut loses whatever was flushed (a modelled key's; 0). */
	uint64_t medium_buffer;
	const void *params;	/* the workload's parameter struct */
	void *state;		/* the workload's own, between callbacks */
	/* Optional per-repetition text kept with the sample: the original
	 * tool's own output shape (fileop's per-level table, bonnie's CSV
	 * line).  Empty unless the workload writes it. */
	char *detail;		/* DETAIL_MAX bytes */
	/* Optional: the repetition's timeline and latency distribution as
	 * core/timeline.h's JSON text (io, ior), charted in the HTML page. */
	char *series;		/* SERIES_MAX bytes */
	/* The bytes this repetition wrote and read as the application sees
	 * them (files x size, transfers, records): the denominator of write
	 * and read amplification.  The runner sets -1 (unknown) before each
	 * repetition; a workload that knows them fills them in. */
	int64_t bytes_written, bytes_read;
	/* Set by the runner: see workload_data_complete(). */
	void (*data_complete)(struct wl_ctx *ctx);
	void *runner_priv;
};

struct workload {
	const char *name;
	const char *summary;	/* one line for `list tests` */
	const char *title;	/* chart title line: "FS-Mark 3.3" */
	const struct param_def *params;
	size_t params_size;
	const struct metric_def *metrics;
	int nmetrics;
	const struct preset *presets;	/* NULL-name terminated, may be NULL */
	unsigned flags;			/* WL_* */

	/* Cross-parameter checks beyond the table's bounds (optional). */
	int (*validate)(const void *params);
	/* Checks against a target directory known before the run (--target
	 * DIR), so that what setup would refuse is a usage error, refused
	 * before anything is made (optional). */
	int (*validate_target)(const void *params, const char *dir);
	/* The same for a filesystem fsbench is to make on this machine (--fs
	 * without --vm): what this kernel lacks for the workload is refused
	 * before any image is made (optional).  WL_GUEST_HAS_IT (error set)
	 * where what is missing is in fsbench's guest (powercut's
	 * dm-log-writes): `run` then takes the run there, as --vm would. */
	int (*validate_fs)(const void *params, const struct fs_profile *p);
	/* Bytes the workload may occupy at once, checked against free space. */
	uint64_t (*space_needed)(const void *params);
	/* What these parameters mean on a machine of ram bytes of memory
	 * (the one the test runs on, or its --ram limit): a note for the
	 * subtitle, as bonnie's file under twice the RAM, which the page
	 * cache then serves.  1 with the note in buf, 0 for none (optional). */
	int (*memory_note)(const void *params, uint64_t ram, char *buf, size_t len);
	/* Chart subtitle for these parameters: "Test: 1000 Files, 1MB Size". */
	void (*describe)(const void *params, char *buf, size_t len);
	/* How many of the metrics (a prefix of the table) these parameters
	 * produce; NULL = all of them. */
	int (*metrics_used)(const void *params);

	int (*prepare)(struct wl_ctx *ctx);	/* optional */
	/* One repetition: fill values[0..nmetrics-1]. */
	int (*run)(struct wl_ctx *ctx, double *values);
	void (*cleanup)(struct wl_ctx *ctx);	/* optional */
};

/* The workload coordinates the ranks of an MPI job itself (core/comm.h):
 * only such workloads run under mpirun. */
/* validate_fs: this kernel lacks it, fsbench's guest has it */
#define WL_GUEST_HAS_IT (-2)
#define WL_MPI 1u
/* The workload puts a dm-log-writes device under a filesystem of its own
 * (powercut): fsbench's guest loads the module for it. */
#define WL_DEVICE_MAPPER 2u
/* A repetition samples a space the parameters choose (powercut's crash
 * points, each run its own seed) rather than measuring a noisy figure:
 * the run makes exactly the runs asked for (--runs, a suite's runs =, else
 * the minimum), with no stopping rule adding more, and the test has no
 * verdicts (no pair of targets is decided or left undecided). */
#define WL_FIXED_RUNS 4u
/* The workload can drive a raw target's device itself (ctx->device): the
 * io workload's jobs.  The others need a filesystem and are refused there. */
#define WL_RAW 8u

/* The user asked to stop (core/stop.h): a workload ends its loop. */
static inline int workload_stopped(void)
{
	return stop_requested();
}

/* Wait `seconds` untimed (a tool's settle time), cut short by a stop. */
static inline void workload_pause(double seconds)
{
	struct timespec step = { 0, 50000000 };

	for (double left = seconds; left > 0 && !workload_stopped(); left -= 0.05)
		nanosleep(&step, NULL);
}

/* The repetition's data set is complete and nothing is timed right now:
 * a workload that removes its files before the end of a repetition calls
 * this first, so the runner can sync and measure the space they occupy
 * (outside every timed section: the sync it takes must not land in one). */
static inline void workload_data_complete(struct wl_ctx *ctx)
{
	if (ctx->data_complete)
		ctx->data_complete(ctx);
}

/* Registry (registry.c). */
const struct workload *workload_find(const char *name);
const struct workload *const *workload_all(void);

#endif
