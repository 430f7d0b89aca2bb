/*
 * ager.h: a filesystem aged by a seeded sequence of operations (issue 42),
 * and what the aging did to it.
 *
 * The sequence depends on the profile, the seed and the nominal capacity
 * alone: fill and churn are counted in fsbench's own bytes (the files'
 * sizes), not in what statfs says, so every filesystem of a comparison
 * gets the same creates, appends, overwrites, truncates, renames and
 * deletes in the same order.  Only a full filesystem (ENOSPC) makes one
 * depart from it; the count of those is reported.
 */
#ifndef FSB_AGER_H
#define FSB_AGER_H

#include "profile.h"

#include <stdint.h>

struct age_opts {
	const struct age_profile *profile;
	uint64_t capacity;	/* the device's bytes: fill and churn are shares of it */
	uint64_t seed;
	const char *repo;	/* a git profile's repository (the user's: only read) */
	/* every half second or so: the share done and the seconds still to go */
	void (*progress)(void *arg, double done, double eta_s);
	void *arg;
	/* a filesystem that gives deleted space back in its own time (NILFS2's
	 * cleaner, targets/cleaner.h): called when it is full, before the
	 * refusal is counted; 1 if space came back, 0 if not, -1 (error set) */
	int (*reclaim)(void *arg);
	void *reclaim_arg;
};

struct age_result {
	uint64_t ops[AGE_OPS];
	uint64_t written;		/* bytes written in all */
	uint64_t live_bytes, live_files;
	uint64_t enospc;		/* operations a full filesystem refused */
	uint64_t commits;		/* a git profile: commits checked out */
	const char *cleaner;		/* the filesystem's cleaner run meanwhile, or NULL */
	uint64_t cleaner_waits;		/* full, and waited for it */
	double cleaner_wait_s;		/* seconds of those waits */
	double seconds;			/* wall */
	double user_s, sys_s;		/* fsbench's own CPU, and the kernel's for it */
	/* measured after (age_measure) */
	double fullness;		/* statvfs: used / total */
	uint64_t files;			/* regular files */
	uint64_t mapped_files, extents;	/* of them, those FIEMAP maps (none on tmpfs), their extents */
	double frag_files;		/* share of the mapped files in more than one extent */
	uint64_t free_extents;		/* free space in so many extents (0: not known) */
	double free_extent_bytes;	/* their mean size */
};

/* Age the empty directory dir (the filesystem's root or a directory on
 * it).  0, or -1 with the error set. */
int age_run(const char *dir, const struct age_opts *o, struct age_result *r);
/* A git profile's aging (git.c): o->repo cloned into dir, its commits
 * checked out one after another.  Called by age_run. */
int age_git_run(const char *dir, const struct age_opts *o, struct age_result *r);
/* Fullness of dir's filesystem, its files' extents (FIEMAP) and its free
 * space's (age_free_space). */
int age_measure(const char *dir, struct age_result *r);
/* The free extents of the filesystem mounted at mnt and their mean size,
 * where it says (ext2/3/4, XFS: freesp.c); 0 extents where it does not. */
void age_free_space(const char *mnt, struct age_result *r);

#endif
