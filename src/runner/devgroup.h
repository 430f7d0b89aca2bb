/*
 * devgroup.h: the "device" metric group, measured around every repetition.
 *
 * What the workload did to the medium, next to what it measured: bytes the
 * block device read, wrote and discarded (its /sys stat counters before
 * and after the repetition, the after taken once the repetition's data is
 * synced), the workload's own logical bytes, the amplification between
 * the two, how busy the device was, and the space the test's files occupy
 * with the compression the filesystem achieved on them.  The runner
 * appends these metrics to every test's own; they are stored and compared
 * like any metric and rendered as a group of their own.
 */
#ifndef FSB_RUNNER_DEVGROUP_H
#define FSB_RUNNER_DEVGROUP_H

#include <stdint.h>

#include "../core/devstat.h"
#include "../media/flash.h"
#include "../workloads/workload.h"

enum dev_metric {
	DM_WRITTEN, DM_READ, DM_WAMP, DM_RAMP, DM_WREQS, DM_RREQS, DM_DISCARD, DM_FLUSHES,
	DM_UTIL, DM_MBPS, DM_APP_WRITTEN, DM_APP_READ, DM_SPACE, DM_FS_USED, DM_COMP, DM_ZSTD,
	DM_ERASES, DM_MAX_EC,	/* UBI flash: erase blocks erased, the highest erase count */
	/* a modelled medium (media/counters.h): its busy time, merges, pages
	 * copied and its own write amplification (erases in DM_ERASES) */
	DM_MEDIUM_BUSY, DM_SWITCH, DM_PARTIAL, DM_FULL, DM_COPIED, DM_MEDIUM_WAMP,
	DM_COUNT
};
extern const struct metric_def device_metrics[DM_COUNT];

/* Why a target has no device figures, or what to keep in mind about
 * them (a directory's device is shared), or "". */
void device_note(const char *kind, const char *fstype, const char *blockdev,
		 const char *source, char *buf, size_t len);

/* One repetition's measurement on one target. */
struct dev_probe {
	char blockdev[64];	/* "" = none: device figures are NaN */
	struct devstat before;
	struct devstat own;	/* the space scan's own I/O, not counted */
	int have_before, have_fs;
	uint64_t t0, fs_used_before;
	int space_done;		/* the workload said when its data was complete */
	struct space sp;
	uint64_t fs_used_at;
	int fs_used_ok;
	/* F2FS's compression counters (blocks since mount, sysfs) at the
	 * start and when the data set is complete; f2fs 0: none read */
	int f2fs;
	uint64_t f2fs_written[2], f2fs_saved[2];
	int ubi;		/* UBI device number + 1 under the mount, 0 none */
	const char *counters;	/* a modelled medium's counters file, or NULL */
	int have_model;		/* model_before read */
	struct flash_stats model_before;
	int64_t ec_before;	/* sum of its erase counters, -1 unknown */
};

/* Right before the workload runs (after the cache flush). */
/* counters: the modelled medium's counters file, NULL for a real one. */
void device_begin(struct dev_probe *p, const char *blockdev, const char *dir,
		  const char *counters);
/* The workload's data set is complete (workload_data_complete): sync and
 * measure the space now, before the workload removes anything. */
void device_space(struct dev_probe *p, const char *dir);
/* After the workload: sync, read the counters, fill v[DM_COUNT].  The
 * logical bytes are the workload's (ctx->bytes_*, -1 = unknown). */
void device_end(struct dev_probe *p, const char *dir, const struct wl_ctx *ctx, double *v);

#endif
