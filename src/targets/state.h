/*
 * state.h: the record of what fsbench has mounted, attached and created.
 *
 * Every mount, loop device, directory (provisioning and scratch) and
 * cgroup goes into a state file before it is made (a loop device as soon
 * as the kernel names it: it clears itself if fsbench dies first) and
 * leaves it when undone, so that after a SIGKILL or a power cut `fsbench
 * cleanup` can undo exactly what fsbench made and nothing else.
 *
 * The file starts with the line "fsbench-state 2"; each entry is a line of
 * seven space-separated fields, each percent-encoded so that no path can
 * be cut or run into the next field (see state_format_line):
 *
 *   PID START KIND ARG ARG2 DEV INO
 *
 * START is the recording process's start time (so a reused pid is not
 * taken for it); ARG2 is a mount's source or a loop device's backing
 * image; DEV and INO identify the directory or the loop's backing image.
 * Before undoing an entry, cleanup checks that the thing is still exactly
 * what fsbench made (mount point and source; loop device, backing file and
 * inode; directory inode and owner) and leaves alone, and names, anything
 * that is not.  The file must belong to the running user and be writable
 * by nobody else, or it is refused.
 */
#ifndef FSB_STATE_H
#define FSB_STATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* Kinds, undone in reverse order of creation. */
#define STATE_DIR "dir"		/* a directory fsbench made (provisioning or scratch) */
#define STATE_LOOP "loop"	/* a loop device; ARG2 = its backing image */
#define STATE_MOUNT "mount"	/* a mount point; ARG2 = the mounted source */
#define STATE_CGROUP "cgroup"	/* a cgroup directory */
#define STATE_PROC "process"	/* a process: ARG "/proc/PID", ARG2 its executable,
				 * DEV its start time (so a reused pid is not it) */
#define STATE_DM "dm"		/* a device-mapper device: ARG /dev/mapper/NAME, ARG2 its uuid */
#define STATE_FILE "file"	/* a file fsbench made (a --keep-aged copy being
				 * written): ARG its path, DEV INO its own */
#define STATE_RUN "run"		/* a run in a result store: ARG the store's absolute
				 * path, ARG2 the run's number, DEV INO the store's */

struct state_entry {
	long pid;
	unsigned long long start;	/* process start time, clock ticks after boot */
	char kind[16], arg[PATH_MAX], arg2[PATH_MAX];
	uint64_t dev, ino;		/* 0 0 while not yet known */
};

const char *state_path(void);
/* Record an entry for this process; dev/ino may be 0. */
int state_add(const char *kind, const char *arg, const char *arg2, uint64_t dev, uint64_t ino);
/* Fill in dev/ino of this process's entry once the thing exists. */
int state_set_id(const char *kind, const char *arg, uint64_t dev, uint64_t ino);
int state_remove(const char *kind, const char *arg);
/* Entries left by processes that no longer run (-1 if the file is refused). */
int state_leftovers(void);
/* The live process that recorded run id of the store at (absolute) path
 * store: its pid, 0 when none (its process ended: the run may be
 * resumed), -1 with the error set when the state file is refused. */
long state_run_owner(const char *store, const char *id);

/* What cleanup did with one entry. */
enum state_outcome { STATE_REMOVED, STATE_GONE, STATE_LEFT_ALONE, STATE_FAILED };
/* How cleanup closes a run whose process is gone: the store is a layer
 * above, so its command registers this (without it a run entry is left
 * alone and dropped). */
void state_set_run_closer(enum state_outcome (*close)(const struct state_entry *e, char *why,
						     size_t len));
/* The sweep under cleanup: for every entry whose process is gone, newest
 * first, undo (cleanup.c's checks and removals) and fn; the entries undone
 * (or gone, or left alone) leave the file, the failed ones stay.  The
 * number that failed, -1 if the state file itself was refused. */
int state_sweep(enum state_outcome (*undo)(const struct state_entry *e, char *why, size_t len),
		void (*fn)(const struct state_entry *e, enum state_outcome what, const char *why,
			   void *arg),
		void *arg);
/* Undo every leftover (cleanup.c), newest first; reports each through fn with the
 * reason where it was left alone or failed.  Returns the number that
 * failed (left-alone entries are not failures), -1 if the state file
 * itself was refused. */
/* Undo one entry as cleanup does (only while it is still what fsbench
 * made); the entry stays in the file for the caller to remove. */
enum state_outcome state_undo(const struct state_entry *e, char *why, size_t len);
int state_cleanup(void (*fn)(const struct state_entry *e, enum state_outcome what,
			     const char *why, void *arg),
		  void *arg);

/* If fsbench itself crashes (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL)
 * while it holds mounts and loop devices, nothing in the dying process can
 * safely undo them.  This installs a handler that forks a child, lets the
 * process die with its signal as before, and has the child -- once its
 * parent is gone -- exec `fsbench cleanup`, which undoes the dead run's
 * entries with every identity check.  SIGKILL cannot be caught: then the
 * next run warns and `fsbench cleanup` is the way. */
void state_cleanup_after_crash(void);

/* The line format, exposed for tests and the fuzzer.  parse: 0, or -1
 * (error set) for a line that is not a well-formed entry. */
int state_parse_line(const char *line, struct state_entry *e);
/* Returns the length written, or -1 if it does not fit. */
int state_format_line(const struct state_entry *e, char *buf, size_t len);
/* Start time of a process, 0 if it does not run. */
/* A process's start time (0: no such process) and, when state is not
 * NULL, its state letter (R, S, Z...), from /proc/PID/stat. */
unsigned long long state_proc_stat(long pid, char *state);
unsigned long long state_proc_start(long pid);
/* Whether pid is still the process recorded: that executable (resolved
 * path), that start time. */
int state_proc_is(long pid, const char *exe, unsigned long long start);

#endif
