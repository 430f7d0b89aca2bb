/*
 * io_testutil.h: what the I/O core's tests share: a job from "k=v,..."
 * over the defaults, a refusal checked for its reason, a corrupted byte,
 * a file of data.  Included by test_io*.c, test_jobfile.c, test_iotext.c,
 * test_verify.c, test_iolog.c and test_submit.c, after testutil.h.
 */
#ifndef FSB_IO_TESTUTIL_H
#define FSB_IO_TESTUTIL_H

#include "core/error.h"
#include "core/param.h"
#include "io/iojob.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* A job from "k=v,..." over the defaults, on a zeroed job as every
 * caller in src/ gives params_defaults (a row's set callback may read
 * what it wrote before: bs's split). */
static inline void job(struct io_options *o, const char *opts)
{
	memset(o, 0, sizeof(*o));
	assert_int_equal(params_defaults(io_option_defs, o), 0);
	assert_int_equal(params_apply(io_option_defs, o, opts), 0);
}

/* opts ("k=v,...") make a job that is refused before any I/O, saying
 * error: when an option is set (a compound value that does not parse) or
 * when the job is validated (a rule across options). */
static inline void refused(const char *opts, const char *error)
{
	struct io_options o;

	memset(&o, 0, sizeof(o));
	assert_int_equal(params_defaults(io_option_defs, &o), 0);
	if (!params_apply(io_option_defs, &o, opts))
		assert_int_equal(io_options_validate(&o), -1);
	if (!strstr(error_get(), error))
		fail_msg("%s: \"%s\", not \"%s\"", opts, error_get(), error);
}

/* Flip one bit of the byte at `at` of path: a corruption to catch. */
static inline void flip_byte(const char *path, off_t at)
{
	int fd = open(path, O_RDWR);
	unsigned char c;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, at), 1);
	c ^= 0x40;
	assert_int_equal(pwrite(fd, &c, 1, at), 1);
	close(fd);
}

/* The engine could not run here (io_uring off on this kernel): its tests
 * are skipped, the others' still run. */
static inline int engine_unavailable(const char *engine)
{
	return !strcmp(engine, "io_uring") && strstr(error_get(), "unavailable");
}

/* A file of `blocks` 4 KiB blocks of data (written, so a punched block
 * shows as a hole to SEEK_DATA). */
static inline void data_file(const char *path, int blocks)
{
	char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	memset(buf, 0x5a, sizeof(buf));
	for (int b = 0; b < blocks; b++)
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

#endif
