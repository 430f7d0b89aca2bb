/*
 * cleaner.h: a log-structured filesystem's garbage collector, run by
 * fsbench while it ages the filesystem (issue 42).
 *
 * NILFS2 gives a deleted file's blocks back only when its cleaner daemon,
 * nilfs_cleanerd, has copied the live blocks out of a segment and freed
 * it.  mount.nilfs2 starts one; fsbench mounts with mount(2), so during
 * the tests none runs (as for the kernel's own filesystems, nothing but
 * the test writes).  Aging, though, writes several times the capacity
 * within minutes: without a cleaner the filesystem is full after one pass.
 * So for the aging alone fsbench starts one, records it like any process
 * it makes, and stops it.
 */
#ifndef FSB_TARGET_CLEANER_H
#define FSB_TARGET_CLEANER_H

#include <limits.h>
#include <stdint.h>

struct fs_cleaner {
	long pid;			/* 0: none runs */
	unsigned long long start;	/* its start time: a reused pid is not it */
	char proc[32], exe[PATH_MAX];	/* "/proc/PID" and its executable, as recorded */
	char conf[PATH_MAX];		/* the configuration fsbench wrote for it */
	int root;			/* the mount's root, to sync and statvfs */
	uint64_t waits;			/* full, and waited for the cleaner */
	double wait_s;			/* seconds of those waits */
};

/* Start program (the profile's cleaner, "nilfs_cleanerd") on the
 * filesystem of dev mounted at mnt, its configuration written in workdir
 * (fsbench's scratch directory).  0, or -1 with the error set. */
int cleaner_start(struct fs_cleaner *c, const char *program, const char *workdir,
		  const char *dev, const char *mnt);
/* The ager's hook when the filesystem is full: write out what is pending
 * (a checkpoint turns the deleted blocks into garbage) and wait, at most
 * half a minute, for the cleaner to give some back.  1 if it did, 0 if
 * not, -1 (error set) if the cleaner is gone. */
int cleaner_reclaim(void *cleaner);
/* After the aging: let it give back what it can of the garbage the aging
 * left, until three seconds pass without a block back (two minutes at
 * most), so that the tests, which run without it, find the space a NILFS2
 * in use would have.  0, or -1 (error set). */
int cleaner_drain(struct fs_cleaner *c);
/* Stop it, only while its pid is still that executable started at that
 * time; its configuration file removed. */
void cleaner_stop(struct fs_cleaner *c);

#endif
