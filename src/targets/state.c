/* state.c: the leftovers record and `fsbench cleanup` (see state.h). */
#define _GNU_SOURCE
#include "state.h"
#include "loop.h"
#include "target.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry {
	long pid;
	char kind[16], arg[PATH_MAX], arg2[PATH_MAX];
};

const char *state_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("FSBENCH_STATE"), *home = getenv("HOME");
	const char *xdg = getenv("XDG_STATE_HOME");

	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else if (geteuid() == 0)
		snprintf(path, sizeof(path), "/var/lib/fsbench/state");
	else if (xdg && *xdg)
		snprintf(path, sizeof(path), "%s/fsbench/state", xdg);
	else
		snprintf(path, sizeof(path), "%s/.local/state/fsbench/state", home ? home : "/tmp");
	return path;
}

static void make_parents(const char *path)
{
	char dir[PATH_MAX];

	str_copy(dir, sizeof(dir), path);
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
}

/* Open and lock the state file; returns a stream or NULL. */
static FILE *open_locked(void)
{
	int fd;
	FILE *f;

	make_parents(state_path());
	fd = open(state_path(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	f = fdopen(fd, "r+");
	if (!f)
		close(fd);
	return f;
}

static int read_all(FILE *f, struct entry **out, int *n)
{
	char line[2 * PATH_MAX + 64];
	int cap = 0;

	*out = NULL;
	*n = 0;
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct entry e;
		memset(&e, 0, sizeof(e));
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%ld %15s %4095s %4095s", &e.pid, e.kind, e.arg, e.arg2) < 3)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct entry *ne = realloc(*out, sizeof(**out) * (size_t)cap);
			if (!ne)
				return -1;
			*out = ne;
		}
		(*out)[(*n)++] = e;
	}
	return 0;
}

static int write_all(FILE *f, const struct entry *e, int n)
{
	rewind(f);
	if (ftruncate(fileno(f), 0))
		return -1;
	for (int i = 0; i < n; i++)
		fprintf(f, "%ld %s %s%s%s\n", e[i].pid, e[i].kind, e[i].arg,
			e[i].arg2[0] ? " " : "", e[i].arg2);
	fflush(f);
	return fsync(fileno(f));
}

int state_add(const char *kind, const char *arg, const char *arg2)
{
	FILE *f = open_locked();

	if (!f)
		return error_errno("cannot record provisioning state in %s", state_path());
	fseek(f, 0, SEEK_END);
	fprintf(f, "%ld %s %s%s%s\n", (long)getpid(), kind, arg, arg2 ? " " : "",
		arg2 ? arg2 : "");
	fflush(f);
	fsync(fileno(f));
	fclose(f);
	return 0;
}

int state_remove(const char *kind, const char *arg)
{
	struct entry *e;
	FILE *f = open_locked();
	int n, k = 0;

	if (!f)
		return -1;
	if (!read_all(f, &e, &n)) {
		for (int i = 0; i < n; i++)
			if (strcmp(e[i].kind, kind) || strcmp(e[i].arg, arg))
				e[k++] = e[i];
		write_all(f, e, k);
	}
	free(e);
	fclose(f);
	return 0;
}

static int alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

int state_leftovers(void)
{
	struct entry *e;
	int n, dead = 0;
	FILE *f;

	if (access(state_path(), F_OK))
		return 0;
	f = open_locked();
	if (!f)
		return 0;
	if (!read_all(f, &e, &n))
		for (int i = 0; i < n; i++)
			dead += !alive(e[i].pid);
	free(e);
	fclose(f);
	return dead;
}

static int is_mounted(const char *path)
{
	struct libmnt_table *tb = mnt_new_table();
	int found = 0;

	if (tb && !mnt_table_parse_file(tb, "/proc/self/mountinfo"))
		found = mnt_table_find_target(tb, path, MNT_ITER_BACKWARD) != NULL;
	mnt_unref_table(tb);
	return found;
}

static int undo(const struct entry *e)
{
	if (!strcmp(e->kind, STATE_MOUNT)) {
		while (is_mounted(e->arg))
			if (umount2(e->arg, 0) && umount2(e->arg, MNT_DETACH))
				return error_errno("umount %s", e->arg);
		return 0;
	}
	if (!strcmp(e->kind, STATE_LOOP)) {
		char back[PATH_MAX];
		loop_backing_file(e->arg, back, sizeof(back));
		/* Only if it is still ours: the same backing image. */
		if (!back[0] || strcmp(back, e->arg2))
			return 0;
		return loop_detach(e->arg, -1);
	}
	if (!strcmp(e->kind, STATE_DIR))
		return access(e->arg, F_OK) ? 0 : scratch_remove(e->arg);
	if (!strcmp(e->kind, STATE_CGROUP))
		return rmdir(e->arg) && errno != ENOENT ? error_errno("rmdir %s", e->arg) : 0;
	return 0;
}

int state_cleanup(void (*fn)(const char *what, int ok, void *arg), void *arg)
{
	struct entry *e;
	int n, k = 0, failed = 0;
	FILE *f = open_locked();

	if (!f)
		return error_errno("cannot open %s", state_path()), 1;
	if (read_all(f, &e, &n)) {
		fclose(f);
		return 1;
	}
	/* Newest first: a mount before its loop device before its directory. */
	char *keep = calloc((size_t)n + 1, 1);
	if (!keep) {
		free(e);
		fclose(f);
		return 1;
	}
	for (int i = n - 1; i >= 0; i--) {
		char what[PATH_MAX + 32];
		if (alive(e[i].pid)) {
			keep[i] = 1;
			continue;
		}
		int ok = undo(&e[i]) == 0;
		snprintf(what, sizeof(what), "%s %s", e[i].kind, e[i].arg);
		if (fn)
			fn(what, ok, arg);
		if (!ok) {
			keep[i] = 1;
			failed++;
		}
	}
	for (int i = 0; i < n; i++)
		if (keep[i])
			e[k++] = e[i];
	write_all(f, e, k);
	free(keep);
	free(e);
	fclose(f);
	return failed;
}
