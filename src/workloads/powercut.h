/*
 * powercut.h: the powercut workload's application shapes and their checks
 * (docs/workloads/powercut.md), apart from the recording around them so
 * that each can be run and checked on a plain directory.
 *
 * Each shape writes into a directory, tells the hooks each time the system
 * promised durability (the recorder marks the log there), and says what it
 * wrote: files in a manifest (crash/manifest.h), or, for SQLite, how many
 * transactions committed.  Every byte written derives from the seed, so a
 * check needs no copy of the data.
 */
#ifndef FSB_POWERCUT_H
#define FSB_POWERCUT_H

#include "../crash/manifest.h"

#include <stdint.h>

enum pc_shape {
	PC_FSYNC,		/* fs_mark's shape: create, write, fsync the file and its directory */
	PC_TREE,		/* seed 001's: a tree restored from an archive, then sync */
	PC_SQLITE_WAL,		/* SQLite inserts, one transaction each, WAL journal */
	PC_SQLITE_ROLLBACK,	/* the same with the rollback (DELETE) journal */
};
#define PC_SHAPE_CHOICES "fsync|tree|sqlite-wal|sqlite-rollback"

struct pc_shape_params {
	int shape;
	int64_t files;		/* fsync, tree: files; sqlite: transactions */
	uint64_t size;		/* fsync: each file's size; tree: the mean; sqlite: a row's */
	uint64_t seed;
	/* 0: the fsync shape promises without its fsyncs, as an application
	 * that trusts close() would: the detector's self-test (it must find
	 * losses where the honest shape finds none) */
	int honest;
};

/* A promise was made: the n-th (0, 1, ...).  The recorder marks the log. */
struct pc_hooks {
	int (*ack)(void *ctx, uint32_t n);
	void *ctx;
};

/* Run the shape in dir (empty, on the filesystem under test).  Files go
 * into m; *acks is the number of promises made.  0, or -1 with the error
 * set. */
int pc_shape_run(const char *dir, const struct pc_shape_params *p, struct manifest *m,
		 const struct pc_hooks *h, uint32_t *acks);

/* A SQLite shape's database after a crash: whether it opens and passes
 * PRAGMA integrity_check, and its rows against the promises. */
struct pc_sqlite_outcome {
	int opened, intact;
	char integrity[160];	/* integrity_check's first line when not "ok" */
	int64_t promised, promised_lost;	/* rows */
	int64_t unpromised_kept;
};
/* Check the shape's database under dir (a replay's mount), acked
 * transactions promised. */
int pc_sqlite_check(const char *dir, const struct pc_shape_params *p, uint32_t acked,
		    struct pc_sqlite_outcome *o);

#endif
