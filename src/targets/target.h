/*
 * target.h: where a test runs.
 *
 * A target turns what the user named (a directory today; a filesystem to
 * mkfs and mount later) into a directory path, and undoes whatever it did
 * at the end.  Workloads never see targets: the runner hands them a scratch
 * directory `fsbench.XXXXXX` it creates under target->path and removes
 * afterwards, so fsbench never deletes anything it did not create.
 */
#ifndef FSB_TARGET_H
#define FSB_TARGET_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/sysinfo.h"

struct target;

struct target_ops {
	const char *kind;			/* "dir" */
	int (*setup)(struct target *t);		/* make t->path usable */
	void (*teardown)(struct target *t);	/* undo setup; never fails */
};

struct target {
	const struct target_ops *ops;
	char label[64];
	char spec[PATH_MAX];	/* as the user wrote it */
	char path[PATH_MAX];	/* directory the tests work under */
	struct fsinfo info;	/* filled after setup */
	void *priv;
};

/* "DIR" or "LABEL=DIR" -> a directory target (not yet set up). */
int target_parse(const char *arg, struct target *t);

/* Scratch directories (scratch.c). */
int scratch_create(const char *parent, char *out, size_t len);
/* Remove a scratch directory tree; refuses paths not named fsbench.*. */
int scratch_remove(const char *dir);
/* Free bytes for unprivileged writers under path. */
int free_space(const char *path, uint64_t *bytes);

#endif
