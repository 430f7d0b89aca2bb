/*
 * testutil.h: what every cmocka unit test includes: cmocka itself, a
 * temporary directory helper, a registry of what a test made (undone even
 * when an assertion fails) and a skip that says why.
 *
 * Scratch goes under $TMPDIR, which tests/run points at a directory of its
 * run alone, so whatever is left there after a suite is that suite's.
 */
#ifndef FSB_TESTUTIL_H
#define FSB_TESTUTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nftw */
#endif
#include <ftw.h>
#include <spawn.h>
#include <sys/wait.h>
#include <setjmp.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <errno.h>

/* The run's scratch root ($TMPDIR, else /tmp), and the one on a disk
 * filesystem with a page cache ($FSBENCH_TEST_DISKTMP, else /var/tmp). */
static inline const char *scratch_root(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

static inline const char *disk_scratch_root(void)
{
	const char *t = getenv("FSBENCH_TEST_DISKTMP");
	return t && *t ? t : "/var/tmp";
}

/* A fresh directory named fsbench-NAME.XXXXXX under root. */
static inline void make_scratch(char *buf, size_t len, const char *root, const char *name)
{
	assert_true((size_t)snprintf(buf, len, "%s/fsbench-%s.XXXXXX", root, name) < len);
	assert_non_null(mkdtemp(buf));
}

/* A fresh directory under the scratch root; caller removes it with rm_rf(). */
static inline void make_tmpdir(char *buf, size_t len)
{
	make_scratch(buf, len, scratch_root(), "unit");
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

/* What a test made and must undo though an assertion fails half-way: a
 * failed cmocka assertion jumps out of the test past its own cleanup, but
 * the test's teardown still runs.  made_mount() and made_dir() record a
 * mount or a directory as soon as it exists; undo_made() (in every
 * teardown here, and the group's) unmounts and removes them, newest
 * first.  tests/run's private mount namespace is the net below this: a
 * killed test's mounts go with its process. */
#define MADE_MAX 16
static struct { char path[512]; int mount; } made_[MADE_MAX];
static int nmade_;

static inline void record_made_(const char *path, int is_mount)
{
	assert_true(nmade_ < MADE_MAX);
	snprintf(made_[nmade_].path, sizeof(made_[0].path), "%s", path);
	made_[nmade_++].mount = is_mount;
}

static inline void made_mount(const char *path) { record_made_(path, 1); }
static inline void made_dir(const char *path) { record_made_(path, 0); }

/* Done with it in the test itself: undone now, and forgotten. */
static inline void rm_rf(const char *path);
static inline void undo_one_(int i)
{
	if (made_[i].mount) {
		/* an I/O thread's last close may still be on its way out */
		for (int k = 0; k < 200 && umount(made_[i].path) && errno == EBUSY; k++)
			usleep(10000);
		if (umount2(made_[i].path, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
			print_message("# could not unmount %s\n", made_[i].path);
		rmdir(made_[i].path);
	} else {
		rm_rf(made_[i].path);
	}
}

static inline void undo_made(void)
{
	while (nmade_ > 0)
		undo_one_(--nmade_);
}

/* The newest record of path undone and forgotten, as a test ends well. */
static inline void undo(const char *path)
{
	for (int i = nmade_ - 1; i >= 0; i--)
		if (!strcmp(made_[i].path, path)) {
			undo_one_(i);
			memmove(&made_[i], &made_[i + 1], (size_t)(nmade_ - i - 1) * sizeof(made_[0]));
			nmade_--;
			return;
		}
	fail_msg("undo: %s was not recorded", path);
}

static inline int teardown_made(void **state)
{
	(void)state;
	undo_made();
	return 0;
}

/* The common fixture: a fresh directory `dir` per test (or group). */
static char dir[256];

static inline int setup_dir(void **state)
{
	(void)state;
	make_tmpdir(dir, sizeof(dir));
	return 0;
}

/* The same, on a tmpfs of the test's own where it can mount one (root;
 * tests/run gives each suite a private mount namespace): a test whose
 * point is not the disk then runs from memory that no other program's
 * cache drop or disk load reaches (shmem pages are not dropped by
 * drop_caches), where a scratch directory on the disk made a 300 ms job's
 * reads wait on a disk that a concurrent fsbench run kept busy.  Else
 * (not root) the plain directory. */
static inline int setup_ram_dir(void **state)
{
	setup_dir(state);
	if (geteuid() == 0 && mount("tmpfs", dir, "tmpfs", 0, "size=1g,mode=0700") == 0)
		made_mount(dir);
	return 0;
}

static inline int teardown_dir(void **state)
{
	(void)state;
	undo_made();
	rm_rf(dir);
	return 0;
}

#define skip_because(why) do { print_message("# SKIP reason: %s\n", why); skip(); } while (0)

static inline const char *fixture_dir(void)
{
	const char *d = getenv("FSBENCH_FIXTURES");
	return d ? d : "tests/fixtures";
}

/* Run argv[0] (found on PATH) with argv, no shell, and wait: its exit
 * status; -1 when it cannot be started (not installed). */
static inline int spawn_wait(char *const argv[])
{
	extern char **environ;
	pid_t pid;
	int st;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
		return -1;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int counted_;
static inline int count_one_(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)p;
	(void)st;
	(void)flag;
	counted_ += f->level > 0;	/* not where itself */
	return 0;
}

/* Every entry below where (files, directories, links, at any depth; not
 * where itself), without a shell: a "tree removed" check fails on an
 * empty directory left behind too. */
static inline int count_entries(const char *where)
{
	counted_ = 0;
	assert_int_equal(nftw(where, count_one_, 32, FTW_PHYS | FTW_MOUNT), 0);
	return counted_;
}

#endif
