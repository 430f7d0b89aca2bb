/*
 * powercut_internal.h: what powercut.c (the block devices: a dm-log-writes
 * record replayed) and powercut-flash.c (UBIFS: UBI's own power-cut
 * emulation) share: the parameters, the figures, the tally of points and
 * the checks of a point's data.  Not for other files.
 */
#ifndef FSB_POWERCUT_INTERNAL_H
#define FSB_POWERCUT_INTERNAL_H

#include "workload.h"
#include "powercut.h"
#include "../crash/manifest.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct pc_params {
	int shape;
	int64_t files;
	uint64_t size;
	int64_t points;
	int64_t seed;
	uint64_t device;
	bool fsync;
	uint64_t atomic;
	uint64_t buffer;
};

enum { M_LOST, M_LOST_BYTES, M_CLEAN, M_REPAIRED, M_UNMOUNTABLE, M_PENDING_LOST, M_REC_MED,
       M_REC_MAX, M_POINTS, M_N };

struct pc_tally {
	int points, clean, repaired, unmountable;
	uint64_t lost, lost_bytes, pending_lost;
	double *recovery_ms;
	char first[1400];
	char damage[600];	/* the first check that found damage: where, and what it said */
	int finding;		/* this point lost promised data or did not mount */
	char kept[4400];	/* where the repetition's first finding was kept, or "" */
};

/* mnt unmounted and dropped from the state file, if *mounted. */
void pc_unmount(const char *mnt, int *mounted, pid_t *daemon);
/* dir/name into out (4400 bytes); -1 with the error set if too long. */
int pc_path_in(char *out, const char *dir, const char *name);
/* The first finding of its kind, into buf (left alone once it holds one):
 * where the power was cut, then what was found there. */
void pc_note_first(char *buf, size_t len, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A point that did not mount: everything promised by then is out of reach. */
void pc_lost_all(const struct pc_params *p, const struct manifest *m, int64_t acked,
		 const char *where, struct pc_tally *t);
/* The mounted filesystem's data against the promises; *damaged set when
 * SQLite had to repair the database. */
int pc_check_data(const struct pc_params *p, uint64_t seed, const char *mnt,
		  const struct manifest *m, int64_t acked, const char *where,
		  struct pc_tally *t, int *damaged);
/* The repetition's figures from its tally of n points. */
void pc_fill_values(double *values, struct pc_tally *t, size_t n);

/* One repetition on UBIFS (powercut-flash.c). */
int pc_run_flash(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed, double *values);

#endif
