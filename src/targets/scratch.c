/*
 * scratch.c: the per-target scratch directory `fsbench.XXXXXX`.  Removal
 * walks the tree without following symlinks and refuses any directory that
 * is not one of ours, so a bug elsewhere cannot delete a user's files.
 */
#define _GNU_SOURCE
#include "target.h"
#include "../core/comm.h"
#include "state.h"
#include "../core/error.h"

#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* parent/fsbench.XXXXXX recorded, then made (mkdir fails on a name that
 * exists, so nothing of anyone else's is ever taken for ours). */
static int make_recorded(const char *parent, char *out, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		char name[16] = "fsbench.";
		struct stat st;
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return error_errno("getrandom");
		for (int i = 0; i < 6; i++)
			name[8 + i] = chars[r[i] % (sizeof(chars) - 1)];
		name[14] = '\0';
		if ((size_t)snprintf(out, len, "%s/%s", parent, name) >= len)
			return error_set("scratch path under %s is too long", parent);
		if (state_add(STATE_DIR, out, NULL, 0, 0))
			return -1;
		if (mkdir(out, 0700)) {
			int err = errno;
			state_remove(STATE_DIR, out);
			if (err == EEXIST)
				continue;
			errno = err;
			return error_errno("cannot create a scratch directory in %s", parent);
		}
		if (lstat(out, &st) ||
		    state_set_id(STATE_DIR, out, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
			rmdir(out);
			state_remove(STATE_DIR, out);
			return error_errno("cannot record scratch directory %s", out);
		}
		return 0;
	}
	return error_set("cannot create a scratch directory in %s: every name tried exists", parent);
}

int scratch_create(const char *parent, char *out, size_t len)
{
	int failed = 0;

	if (parent[0] != '/')
		return error_set("scratch parent %s is not an absolute path", parent);
	/* In an MPI job the ranks share one directory: rank 0 makes it and
	 * the others must see it, or the target is not shared. */
	if (comm_rank() == 0 && make_recorded(parent, out, len))
		failed = 1;
	if (comm_size() > 1) {
		comm_bcast(out, len);
		if (comm_rank() > 0 && access(out, W_OK)) {
			error_set("%s (made by rank 0) is not visible here: the target must be a "
				  "filesystem all nodes share", out);
			failed = 1;
		}
		if (comm_agree(failed)) {
			if (comm_rank() == 0 && !failed) {
				rmdir(out);
				state_remove(STATE_DIR, out);
			}
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

int scratch_remove_tree(const char *dir)
{
	char copy[PATH_MAX];

	snprintf(copy, sizeof(copy), "%s", dir);
	if (strncmp(basename(copy), "fsbench.", 8))
		return error_set("refusing to remove %s: not an fsbench scratch directory", dir);
	if (nftw(dir, remove_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) && errno != ENOENT)
		return error_errno("removing %s", dir);
	if (!access(dir, F_OK))
		return error_set("could not remove all of %s (something still mounted or busy in it?)", dir);
	return 0;
}

int scratch_remove(const char *dir)
{
	struct stat st;
	int rc;

	/* Rank 0 removes the shared directory once every rank is done. */
	comm_sync();
	if (comm_rank() > 0)
		return 0;
	if (lstat(dir, &st)) {
		state_remove(STATE_DIR, dir);
		return 0;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return error_set("refusing to remove %s: no longer the directory fsbench made", dir);
	rc = scratch_remove_tree(dir);
	if (!rc)
		state_remove(STATE_DIR, dir);
	return rc;
}

int free_space(const char *path, uint64_t *bytes)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return error_errno("statvfs %s", path);
	*bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}
