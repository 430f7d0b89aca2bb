/*
 * state.h: the record of what fsbench has mounted, attached and created.
 *
 * Every mount, loop device, provisioning directory and cgroup goes into a
 * state file before (or as) it is made and leaves it when undone, so that
 * after a SIGKILL or a power cut `fsbench cleanup` can undo exactly what
 * fsbench made and nothing else.  Lines are "PID KIND ARG [ARG2]".
 */
#ifndef FSB_STATE_H
#define FSB_STATE_H

#include <stddef.h>

/* Kinds, undone in reverse order of creation. */
#define STATE_DIR "dir"		/* a provisioning directory */
#define STATE_LOOP "loop"	/* a loop device; ARG2 = its backing image */
#define STATE_MOUNT "mount"	/* a mount point */
#define STATE_CGROUP "cgroup"	/* a cgroup directory */

const char *state_path(void);
int state_add(const char *kind, const char *arg, const char *arg2);
int state_remove(const char *kind, const char *arg);
/* Entries left by processes that no longer run. */
int state_leftovers(void);
/* Undo every leftover; reports each action through fn.  Returns the
 * number that could not be undone. */
int state_cleanup(void (*fn)(const char *what, int ok, void *arg), void *arg);

#endif
