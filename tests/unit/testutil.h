/*
 * testutil.h: what every cmocka unit test includes: cmocka itself, a
 * temporary directory helper and a skip that says why.
 */
#ifndef FSB_TESTUTIL_H
#define FSB_TESTUTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw */
#endif
#include <ftw.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* A fresh directory under /tmp; caller removes it with rm_rf(). */
static inline void make_tmpdir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/fsbench-unit.XXXXXX");
	assert_non_null(mkdtemp(buf));
}

static inline int rm_one_(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* rm -rf without a shell: never following symlinks or leaving the fs. */
static inline void rm_rf(const char *path)
{
	if (access(path, F_OK) == 0)
		assert_int_equal(nftw(path, rm_one_, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT), 0);
}

/* The common fixture: a fresh directory `dir` per test (or group). */
static char dir[256];

static inline int setup_dir(void **state)
{
	(void)state;
	make_tmpdir(dir, sizeof(dir));
	return 0;
}

static inline int teardown_dir(void **state)
{
	(void)state;
	rm_rf(dir);
	return 0;
}

#define skip_because(why) do { print_message("# SKIP reason: %s\n", why); skip(); } while (0)

static inline const char *fixture_dir(void)
{
	const char *d = getenv("FSBENCH_FIXTURES");
	return d ? d : "tests/fixtures";
}

/* Count directory entries other than . and .. */
static inline int count_entries(const char *where)
{
	char cmd[4200];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "find '%s' -mindepth 1 -type f | wc -l", where);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

#endif
