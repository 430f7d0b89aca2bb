/*
 * memlimit.h: `--ram SIZE`, running the workloads in a memory cgroup so the
 * page cache cannot hide the disk (seed 003 ran with 2 GiB, seed 001 on a
 * 512 MB Pi).  cgroup v2 memory.max where the memory controller is
 * delegated, else cgroup v1 memory.limit_in_bytes; neither: refuse rather
 * than silently run without the limit.
 */
#ifndef FSB_MEMLIMIT_H
#define FSB_MEMLIMIT_H

#include <limits.h>
#include <stdint.h>

struct memlimit {
	char dir[PATH_MAX];	/* the cgroup we made */
	char home[PATH_MAX];	/* cgroup.procs to return to */
	char how[64];		/* "cgroup v1 memory.limit_in_bytes" */
	int active;
};

/* Move this process (and so every worker it forks) into a new cgroup
 * limited to `bytes`. */
int memlimit_apply(uint64_t bytes, struct memlimit *m);
void memlimit_release(struct memlimit *m);

#endif
