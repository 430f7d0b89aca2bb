/*
 * cleanup.c: `fsbench cleanup`, and the same after a crash: each entry of
 * the state file whose process is gone undone (state.c keeps the record
 * and sweeps it), each only after checking that it is still exactly what
 * fsbench made (state.h); anything else is left alone and named.
 */
#define _GNU_SOURCE
#include "state.h"
#include "loop.h"
#include "target.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../crash/dmlog.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- undoing, each after checking it is still what fsbench made ---- */

/* The newest mount at path: its source in src ("" if none mounted). */
static int mounted_source(const char *path, char *src, size_t len)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs;
	int found = 0;

	src[0] = '\0';
	if (!tb)
		return 0;
	if (!mnt_table_parse_file(tb, "/proc/self/mountinfo") &&
	    (fs = mnt_table_find_target(tb, path, MNT_ITER_BACKWARD)) &&
	    !strcmp(mnt_fs_get_target(fs), path)) {
		const char *s = mnt_fs_get_source(fs);
		str_copy(src, len, s ? s : "none");
		found = 1;
	}
	mnt_unref_table(tb);
	return found;
}

static enum state_outcome undo_mount(const struct state_entry *e, char *why, size_t len)
{
	char src[PATH_MAX];
	int undone = 0;

	while (mounted_source(e->arg, src, sizeof(src))) {
		if (!e->arg2[0] || strcmp(src, e->arg2)) {
			snprintf(why, len, "mounted from %.1500s, not from %.1500s as fsbench mounted it",
				 src, e->arg2[0] ? e->arg2 : "(unrecorded)");
			return undone ? STATE_REMOVED : STATE_LEFT_ALONE;
		}
		if (umount2(e->arg, UMOUNT_NOFOLLOW) &&
		    umount2(e->arg, UMOUNT_NOFOLLOW | MNT_DETACH)) {
			snprintf(why, len, "umount: %s", strerror(errno));
			return STATE_FAILED;
		}
		undone = 1;
	}
	return undone ? STATE_REMOVED : STATE_GONE;
}

static enum state_outcome undo_loop(const struct state_entry *e, char *why, size_t len)
{
	struct loop_info64 info;
	char back[PATH_MAX];
	int fd;

	if (strncmp(e->arg, "/dev/loop", 9) || strchr(e->arg + 9, '/')) {
		snprintf(why, len, "not a loop device");
		return STATE_LEFT_ALONE;
	}
	fd = open(e->arg, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return STATE_GONE;
	if (ioctl(fd, LOOP_GET_STATUS64, &info)) {
		int err = errno;
		close(fd);
		if (err == ENXIO)
			return STATE_GONE;	/* attached to nothing */
		snprintf(why, len, "LOOP_GET_STATUS64: %s", strerror(err));
		return STATE_FAILED;
	}
	close(fd);
	loop_backing_file(e->arg, back, sizeof(back));
	if (strcmp(back, e->arg2) || !e->ino || info.lo_inode != e->ino ||
	    info.lo_device != e->dev) {
		snprintf(why, len, "now backed by %.1500s (inode %llu), not by fsbench's %.1500s",
			 back[0] ? back : "another file", (unsigned long long)info.lo_inode,
			 e->arg2);
		return STATE_LEFT_ALONE;
	}
	if (loop_detach(e->arg, -1)) {
		str_copy(why, len, error_get());
		return STATE_FAILED;
	}
	return STATE_REMOVED;
}

static enum state_outcome undo_dir(const struct state_entry *e, char *why, size_t len)
{
	struct stat st;

	if (lstat(e->arg, &st))
		return STATE_GONE;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(why, len, "no longer a directory of uid %d", (int)geteuid());
		return STATE_LEFT_ALONE;
	}
	if (!e->ino) {
		/* Recorded but killed before its inode was: only if empty. */
		if (rmdir(e->arg)) {
			snprintf(why, len, "not identified and not empty");
			return STATE_LEFT_ALONE;
		}
		return STATE_REMOVED;
	}
	if ((uint64_t)st.st_dev != e->dev || (uint64_t)st.st_ino != e->ino) {
		snprintf(why, len, "another directory now has that name (inode %llu, not %llu)",
			 (unsigned long long)st.st_ino, (unsigned long long)e->ino);
		return STATE_LEFT_ALONE;
	}
	if (scratch_remove_tree(e->arg)) {
		str_copy(why, len, error_get());
		return STATE_FAILED;
	}
	return STATE_REMOVED;
}

static enum state_outcome undo_cgroup(const struct state_entry *e, char *why, size_t len)
{
	if (strncmp(e->arg, "/sys/fs/cgroup/", 15) || strstr(e->arg, "/../")) {
		snprintf(why, len, "not under /sys/fs/cgroup");
		return STATE_LEFT_ALONE;
	}
	if (rmdir(e->arg)) {
		if (errno == ENOENT)
			return STATE_GONE;
		snprintf(why, len, "rmdir: %s", strerror(errno));
		return STATE_FAILED;
	}
	return STATE_REMOVED;
}

/* A process fsbench started (a virtual machine): killed only while the
 * same pid, start time and executable say it is still that process. */
static enum state_outcome undo_process(const struct state_entry *e, char *why, size_t len)
{
	char exe[PATH_MAX], link[64];
	long pid;
	ssize_t n;

	if (strncmp(e->arg, "/proc/", 6) || (pid = atol(e->arg + 6)) <= 1) {
		snprintf(why, len, "not a process");
		return STATE_LEFT_ALONE;
	}
	if (!state_proc_start(pid))
		return STATE_GONE;
	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	/* that process, exiting: a zombie has no executable to read (it was
	 * reported as "now another process", issue 69); it is going */
	char st;
	if (n < 0 && state_proc_stat(pid, &st) == e->dev && (st == 'Z' || st == 'X')) {
		for (int i = 0; i < 100 && state_proc_start(pid) == e->dev; i++)
			usleep(50000);
		return STATE_GONE;
	}
	if (state_proc_start(pid) != e->dev || strcmp(exe, e->arg2)) {
		snprintf(why, len, "pid %ld is now another process (%.1500s)", pid, exe[0] ? exe : "?");
		return STATE_LEFT_ALONE;
	}
	if (kill((pid_t)pid, SIGKILL)) {
		snprintf(why, len, "kill: %s", strerror(errno));
		return STATE_FAILED;
	}
	for (int i = 0; i < 100 && state_proc_start(pid) == e->dev; i++)
		usleep(50000);
	return STATE_REMOVED;
}

/* A dm-log-writes device of the powercut workload: removed only while
 * the device of that name still carries the uuid fsbench gave it. */
static enum state_outcome undo_dm(const struct state_entry *e, char *why, size_t len)
{
	const char *prefix = "/dev/mapper/";

	if (strncmp(e->arg, prefix, strlen(prefix)) || strchr(e->arg + strlen(prefix), '/')) {
		snprintf(why, len, "not a device-mapper device");
		return STATE_LEFT_ALONE;
	}
	switch (dmlog_remove_named(e->arg + strlen(prefix), e->arg2, why, len)) {
	case 0: return STATE_REMOVED;
	case 1: return STATE_GONE;
	case 2: return STATE_LEFT_ALONE;
	default: return STATE_FAILED;
	}
}

/* A file fsbench made (a --keep-aged copy cut short): removed only while
 * the path is still that regular file, by device and inode; one whose
 * identity was never recorded (killed between the record and the
 * O_EXCL open) is left alone unless it is not there at all. */
static enum state_outcome undo_file(const struct state_entry *e, char *why, size_t len)
{
	struct stat st;

	if (lstat(e->arg, &st))
		return errno == ENOENT ? STATE_GONE : STATE_FAILED;
	if (!S_ISREG(st.st_mode) || !e->ino || st.st_dev != (dev_t)e->dev || st.st_ino != (ino_t)e->ino) {
		snprintf(why, len, "%s is no longer the file fsbench made", e->arg);
		return STATE_LEFT_ALONE;
	}
	if (unlink(e->arg)) {
		snprintf(why, len, "unlink: %s", strerror(errno));
		return STATE_FAILED;
	}
	return STATE_REMOVED;
}

static enum state_outcome (*run_closer)(const struct state_entry *e, char *why, size_t len);

void state_set_run_closer(enum state_outcome (*close)(const struct state_entry *e, char *why,
						     size_t len))
{
	run_closer = close;
}

enum state_outcome state_undo(const struct state_entry *e, char *why, size_t len)
{
	why[0] = '\0';
	if (!strcmp(e->kind, STATE_RUN)) {
		if (run_closer)
			return run_closer(e, why, len);
		snprintf(why, len, "no store to mark it in");
		return STATE_LEFT_ALONE;
	}
	if (!strcmp(e->kind, STATE_MOUNT))
		return undo_mount(e, why, len);
	if (!strcmp(e->kind, STATE_LOOP))
		return undo_loop(e, why, len);
	if (!strcmp(e->kind, STATE_DIR))
		return undo_dir(e, why, len);
	if (!strcmp(e->kind, STATE_PROC))
		return undo_process(e, why, len);
	if (!strcmp(e->kind, STATE_DM))
		return undo_dm(e, why, len);
	if (!strcmp(e->kind, STATE_FILE))
		return undo_file(e, why, len);
	return undo_cgroup(e, why, len);
}

int state_cleanup(void (*fn)(const struct state_entry *e, enum state_outcome what,
			     const char *why, void *arg),
		  void *arg)
{
	return state_sweep(state_undo, fn, arg);
}

/* ---- a crash leaves nothing behind ---- */

static pid_t crashing_pid;

/* Only async-signal-safe calls: fork, getppid, nanosleep, open, dup2,
 * execve, signal, raise. */
static void on_fatal(int sig)
{
	pid_t child = fork();

	if (child == 0) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };
		char *argv[] = { "fsbench", "cleanup", NULL };
		int fd;
		/* wait for the crashed process to be gone: cleanup leaves the
		 * entries of a live process alone */
		for (int i = 0; i < 1500 && getppid() == crashing_pid; i++)
			nanosleep(&tick, NULL);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);	/* what it removed is in the state file's story */
		execve("/proc/self/exe", argv, environ);
		_exit(127);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void state_cleanup_after_crash(void)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sigaction sa;

	crashing_pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;	/* a crash inside the handler just dies */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
}
