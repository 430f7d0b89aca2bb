/*
 * scratch.c: the per-target scratch directory `fsbench.XXXXXX`.  Removal
 * walks the tree without following symlinks and refuses any directory that
 * is not one of ours, so a bug elsewhere cannot delete a user's files.
 */
#define _GNU_SOURCE
#include "target.h"
#include "../core/comm.h"
#include "../core/error.h"

#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

int scratch_create(const char *parent, char *out, size_t len)
{
	int failed = 0;

	if ((size_t)snprintf(out, len, "%s/fsbench.XXXXXX", parent) >= len)
		return error_set("scratch path under %s is too long", parent);
	/* In an MPI job the ranks share one directory: rank 0 makes it and
	 * the others must see it, or the target is not shared. */
	if (comm_rank() == 0 && !mkdtemp(out)) {
		error_errno("cannot create a scratch directory in %s", parent);
		failed = 1;
	}
	if (comm_size() > 1) {
		comm_bcast(out, len);
		if (comm_rank() > 0 && access(out, W_OK)) {
			error_set("%s (made by rank 0) is not visible here: the target must be a "
				  "filesystem all nodes share", out);
			failed = 1;
		}
		if (comm_agree(failed)) {
			if (comm_rank() == 0 && !failed)
				rmdir(out);
			return -1;
		}
	}
	return failed ? -1 : 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int scratch_remove(const char *dir)
{
	char copy[PATH_MAX];

	/* Rank 0 removes the shared directory once every rank is done. */
	comm_sync();
	if (comm_rank() > 0)
		return 0;

	snprintf(copy, sizeof(copy), "%s", dir);
	if (strncmp(basename(copy), "fsbench.", 8))
		return error_set("refusing to remove %s: not an fsbench scratch directory", dir);
	if (nftw(dir, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) && errno != ENOENT)
		return error_errno("removing %s", dir);
	if (!access(dir, F_OK))
		return error_set("could not remove all of %s (something still mounted or busy in it?)", dir);
	return 0;
}

int free_space(const char *path, uint64_t *bytes)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return error_errno("statvfs %s", path);
	*bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}
