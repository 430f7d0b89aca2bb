/*
 * exec.h: running an external tool (mkfs, a FUSE mount helper) and keeping
 * its own error message, so fsbench can show the tool's words when it fails.
 */
#ifndef FSB_EXEC_H
#define FSB_EXEC_H

#include <stddef.h>

/* Run argv (argv[0] looked up in PATH plus /sbin and /usr/sbin), stdin
 * from /dev/null, stdout and stderr captured (last `len` bytes kept in out,
 * which may be NULL).  Returns the exit status, or -1 if it could not run. */
int exec_capture(char *const argv[], char *out, size_t len);
/* The same, run in directory cwd (NULL: the current one). */
int exec_capture_at(const char *cwd, char *const argv[], char *out, size_t len);
/* Split a command line on blanks, honouring '...' and "..." quoting.
 * Returns the number of words stored (at most max - 1; argv is NULL
 * terminated); words point into buf, which is modified. */
int split_words(char *buf, char **argv, int max);
/* Full path of a program searched in PATH, /sbin, /usr/sbin; 0 if found. */
int find_program(const char *name, char *path, size_t len);
/* fork() for a workload worker: the child is killed if fsbench dies, so a
 * SIGKILLed run never leaves workers writing into a filesystem that
 * `fsbench cleanup` is about to unmount. */
#include <sys/types.h>
pid_t fork_worker(void);
/* Last non-empty line of a tool's output, for one-line errors. */
const char *last_line(char *text);
/* The line of a failed tool's output that says why: its first "error"
 * line, else the line before its usage text, else its last line. */
const char *tool_reason(char *text);

#endif
