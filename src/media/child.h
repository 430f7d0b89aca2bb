/*
 * child.h: a helper process a modelled medium runs (nbdkit, nbdfuse):
 * started with an argv (no shell), stdin and stdout on /dev/null, its
 * stderr kept for the message of a failed start; recorded in the state
 * file once it is that program (before exec it is still fsbench), so
 * `fsbench cleanup` kills it after a SIGKILL of fsbench; stopped only
 * while it is still that process.
 */
#ifndef FSB_MEDIA_CHILD_H
#define FSB_MEDIA_CHILD_H

#include <limits.h>
#include <sys/types.h>

struct media_child {
	pid_t pid;		/* 0: none */
	unsigned long long start;	/* its start time, as the state file has it */
	char proc[64];		/* "/proc/PID", its state file entry */
	char exe[PATH_MAX];	/* the program, resolved */
};

/* Start program (found in PATH) with argv (argv[0] its path, filled in
 * here), deathsig (0: none) sent to it when fsbench's thread ends, and
 * wait until ready(arg) says it is (polled every 5 ms, 10 s at most).
 * 0, or -1 with the error set ("WHAT did not start: its stderr") and
 * nothing left running. */
int media_child_start(struct media_child *c, const char *program, char **argv, int deathsig,
		      int (*ready)(void *arg), void *arg, const char *what);
/* Stop it: SIGTERM, then SIGKILL after wait_ms, each only while it is
 * still that process; or, term 0, wait wait_ms for it to end by itself
 * first.  Its record dropped. */
void media_child_stop(struct media_child *c, int term, int wait_ms);

#endif
