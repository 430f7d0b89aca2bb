/*
 * error.h: how fsbench returns errors.
 *
 * Functions deep in the code never print: they record one line describing
 * what went wrong (and, where possible, what to do about it) and return -1.
 * The CLI prints that line once.  The message is thread-local so workers can
 * fail independently.
 */
#ifndef FSB_ERROR_H
#define FSB_ERROR_H

#include <stddef.h>

/* Exit codes shared by every subcommand. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the run or a test failed */
	EXIT_USAGE = 2,		/* bad option, parameter or input */
	EXIT_NO_MATCH = 3,	/* compare: the runs share no test, metric and target */
	EXIT_INTERRUPTED = 130,	/* SIGINT / SIGTERM */
};

/* Record a printf-style message; always returns -1 so callers can write
 * `return error_set(...)`. */
int error_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, with ": strerror(errno)" appended. */
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *error_get(void);
/* Put "PREFIX: " before the recorded error (the one-line idiom for adding
 * where a deeper error happened); returns -1. */
int error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The first error is the one reported.  Cleanup that runs after a failure
 * (deleting files, changing back to a directory) may fail too and would
 * overwrite the message; wrap it:
 *     struct error_keep k; error_keep(&k, rc);  ...cleanup...;  rc = error_kept(&k, rc2);
 * error_kept gives back the earlier failure (its message and -1) when
 * there was one, else the cleanup's own result. */
struct error_keep {
	int failed;
	char msg[1024];
};
void error_keep(struct error_keep *k, int rc);
int error_kept(const struct error_keep *k, int rc);
void error_clear(void);

#endif
