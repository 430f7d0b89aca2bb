/*
 * cleaner.c: NILFS2's cleaner daemon, run while fsbench ages the
 * filesystem (cleaner.h).
 *
 * nilfs_cleanerd forks twice and prints "NILFS_CLEANERD_PID=N" before it
 * closes its standard output, so fsbench execs it with argv, reads its pid
 * from its output, checks that the pid is that program and records it
 * (state.h's process entry: pid, executable, start time) before the first
 * write of the aging.  `fsbench cleanup` kills it after a crash under the
 * same checks.
 *
 * Its configuration is fsbench's, written in the target's scratch
 * directory: aging compresses a year into minutes, so no block is
 * protected for an hour as by default (-p 0, protection_period 0), and the
 * cleaner works in short, large steps to keep up with writes at the
 * device's speed.  What it then does (which segments it picks, which live
 * blocks it moves) is its own: that is the fragmentation a NILFS2 in use
 * has.
 */
#define _GNU_SOURCE
#include "cleaner.h"
#include "state.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/stop.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* nilfs_cleanerd.conf(5).  The intervals take fractions of a second;
 * mc_ ("minimum clean") applies while fewer than min_clean_segments are
 * clean, which is where an aging held at its fill spends its time.  Steps
 * stay at the daemon's default size (2 and 4 segments) and come more
 * often: a step's live blocks must fit in the segments the filesystem
 * keeps in reserve, and with 32 segments a step the kernel's cleaning of
 * a full NILFS2 failed and retried for ever (seen in fsbench's guest). */
static const char conf_text[] =
	"# written by fsbench for the aging of this filesystem (docs/aging.md)\n"
	"protection_period\t0\n"
	"min_clean_segments\t10%\n"
	"max_clean_segments\t30%\n"
	"clean_check_interval\t1\n"
	"selection_policy\ttimestamp\n"
	"nsegments_per_clean\t2\n"
	"mc_nsegments_per_clean\t4\n"
	"cleaning_interval\t0.2\n"
	"mc_cleaning_interval\t0.05\n"
	"retry_interval\t\t1\n"
	"min_reclaimable_blocks\t10%\n"
	"mc_min_reclaimable_blocks\t1%\n"
	"use_set_suinfo\n"
	"use_mmap\n"
	"log_priority\t\twarning\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Still the process recorded: that start time, that executable, not a
 * zombie (one whose parent has not reaped it yet has ended). */
static int still_it(const struct fs_cleaner *c)
{
	char path[64], exe[PATH_MAX], buf[512];
	ssize_t n;
	int fd;

	if (!c->pid || state_proc_start(c->pid) != c->start)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/exe", c->pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (strcmp(exe, c->exe))
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", c->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	const char *st = strrchr(buf, ')');	/* the name may hold anything */
	return st && st[1] == ' ' && st[2] != 'Z' && st[2] != 'X';
}

static int write_conf(struct fs_cleaner *c, const char *workdir)
{
	int fd;

	if (str_join(c->conf, sizeof(c->conf), workdir, "/nilfs_cleanerd.conf"))
		return error_set("the cleaner's configuration path is too long");
	fd = open(c->conf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;
		c->conf[0] = '\0';
		errno = e;
		return error_errno("writing the cleaner's configuration in %s", workdir);
	}
	if (write(fd, conf_text, sizeof(conf_text) - 1) != (ssize_t)sizeof(conf_text) - 1) {
		error_errno("writing %s", c->conf);
		close(fd);
		return -1;
	}
	return close(fd) ? error_errno("writing %s", c->conf) : 0;
}

/* Exec it and read what it prints: its pid, or why it did not start.
 * exec_capture reads to the end of its output, which comes once the
 * daemon has printed its pid and closed its standard output (or ended). */
static int launch(struct fs_cleaner *c, const char *path, const char *dev, const char *mnt,
		  char *out, size_t len)
{
	char *argv[] = { (char *)path, "-c", c->conf, "-p", "0", (char *)dev, (char *)mnt, NULL };

	if (exec_capture(argv, out, len) < 0)
		return -1;
	const char *at = strstr(out, "NILFS_CLEANERD_PID=");
	c->pid = at ? strtol(at + strlen("NILFS_CLEANERD_PID="), NULL, 10) : 0;
	if (c->pid <= 1) {
		c->pid = 0;
		return error_set("%s did not start: %s", path, out[0] ? last_line(out) : "it said nothing");
	}
	return 0;
}

int cleaner_start(struct fs_cleaner *c, const char *program, const char *workdir,
		  const char *dev, const char *mnt)
{
	char path[PATH_MAX], out[1024], link[64];
	ssize_t n;

	memset(c, 0, sizeof(*c));
	c->root = -1;
	if (find_program(program, path, sizeof(path)))
		return error_set("%s is not installed (nilfs-tools): NILFS2 cannot be aged without "
				 "its cleaner", program);
	if (!realpath(path, c->exe))
		return error_errno("%s", path);
	c->root = open(mnt, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->root < 0)
		return error_errno("%s", mnt);
	if (write_conf(c, workdir) || launch(c, path, dev, mnt, out, sizeof(out)))
		goto fail;
	/* Recorded once the pid is known to be the cleaner, before the
	 * aging's first write. */
	snprintf(c->proc, sizeof(c->proc), "/proc/%ld", c->pid);
	snprintf(link, sizeof(link), "/proc/%ld/exe", c->pid);
	n = readlink(link, out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	c->start = state_proc_start(c->pid);
	if (!c->start || strcmp(out, c->exe)) {
		error_set("%s (pid %ld) ended as it started: it could not open the filesystem on %s "
			  "(the system log says why)", program, c->pid, dev);
		c->pid = 0;
		goto fail;
	}
	if (state_add(STATE_PROC, c->proc, c->exe, c->start, 0)) {
		kill((pid_t)c->pid, SIGKILL);
		c->pid = 0;
		goto fail;
	}
	return 0;
fail:
	cleaner_stop(c);
	return -1;
}

int cleaner_reclaim(void *arg)
{
	struct fs_cleaner *c = arg;
	struct statvfs before, sv;
	double t0 = now_s();
	int freed = 0;

	if (!still_it(c))
		return error_set("the filesystem's cleaner (pid %ld) has ended: its system log says why",
				 c->pid);
	c->waits++;
	if (fstatvfs(c->root, &before))
		return error_errno("statvfs");
	/* A checkpoint: the blocks of what the aging deleted become garbage
	 * the cleaner may take (protection period 0). */
	if (syncfs(c->root))
		return error_errno("syncfs");
	while (!freed && now_s() - t0 < 30 && !stop_requested()) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		nanosleep(&tick, NULL);
		if (fstatvfs(c->root, &sv))
			return error_errno("statvfs");
		/* a step's worth: at least 1/1000 of the blocks back */
		freed = sv.f_bfree > before.f_bfree + before.f_blocks / 1000;
		if (!freed && !still_it(c))
			return error_set("the filesystem's cleaner (pid %ld) ended while fsbench "
					 "waited for it", c->pid);
	}
	c->wait_s += now_s() - t0;
	return freed;
}

int cleaner_drain(struct fs_cleaner *c)
{
	struct statvfs sv;
	unsigned long long best = 0;
	double t0 = now_s(), gained = t0;

	if (!still_it(c))
		return error_set("the filesystem's cleaner (pid %ld) has ended: its system log says why",
				 c->pid);
	/* until three seconds pass without a block back, two minutes at most */
	while (now_s() - gained < 3 && now_s() - t0 < 120 && !stop_requested()) {
		struct timespec tick = { 0, 200 * 1000 * 1000 };
		if (syncfs(c->root) || fstatvfs(c->root, &sv))
			return error_errno("waiting for the cleaner");
		if (sv.f_bavail > best) {
			best = sv.f_bavail;
			gained = now_s();
		}
		nanosleep(&tick, NULL);
	}
	c->wait_s += now_s() - t0;
	return 0;
}

void cleaner_stop(struct fs_cleaner *c)
{
	if (c->pid && still_it(c)) {
		int sig = SIGTERM;
		kill((pid_t)c->pid, sig);
		/* it finishes the step it is in; 10 s, then SIGKILL */
		for (int i = 0; still_it(c); i++) {
			struct timespec tick = { 0, 20 * 1000 * 1000 };
			if (i == 500 && sig == SIGTERM) {
				sig = SIGKILL;
				kill((pid_t)c->pid, sig);
			}
			if (i > 750)
				break;
			waitpid((pid_t)c->pid, NULL, WNOHANG);	/* when fsbench is its reaper */
			nanosleep(&tick, NULL);
		}
	}
	if (c->proc[0])
		state_remove(STATE_PROC, c->proc);
	c->proc[0] = '\0';
	c->pid = 0;
	if (c->conf[0])
		unlink(c->conf);
	c->conf[0] = '\0';
	if (c->root >= 0)
		close(c->root);
	c->root = -1;
}
