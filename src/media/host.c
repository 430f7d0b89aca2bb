/*
 * host.c: a modelled medium on this host (see host.h): nbdkit -> nbdfuse
 * -> a loop device with direct I/O.
 *
 * Why nbdfuse and a loop device: the host's kernel has no nbd module here
 * (and fsbench loads none), while FUSE is there; nbdfuse is libnbd's own
 * client, so fsbench speaks no NBD itself.  Direct I/O on the loop device
 * is required, not asked for: through the page cache the writes would be
 * acknowledged before the model saw them, and its timing would be lost.
 */
#define _GNU_SOURCE
#include "host.h"
#include "server.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"
#include "../targets/loop.h"
#include "../targets/state.h"
#include "../targets/target.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The source nbdfuse's mount carries in mountinfo (what cleanup checks). */
#define FUSE_SOURCE "fsbench-medium"

struct model_host {
	struct flash_server srv;
	char dir[PATH_MAX], fuse[PATH_MAX + 8], file[PATH_MAX + 16];
	char proc[64], exe[PATH_MAX];
	pid_t pid;
	unsigned long long start;
	int mount_recorded;
	char loopdev[64];
	int loopfd;
};

int model_host_possible(char *why, size_t len)
{
	char path[PATH_MAX];

	if (find_program("nbdkit", path, sizeof(path)))
		return snprintf(why, len, "no nbdkit here"), -1;
	if (find_program("nbdfuse", path, sizeof(path)))
		return snprintf(why, len, "no nbdfuse here (libnbd-bin)"), -1;
	if (access("/dev/fuse", R_OK | W_OK))
		return snprintf(why, len, "no /dev/fuse here"), -1;
	return 0;
}

static void nap(void)
{
	struct timespec ts = { 0, 10000000 };
	nanosleep(&ts, NULL);
}

static int still_nbdfuse(const struct model_host *h)
{
	return state_proc_is((long)h->pid, h->exe, h->start);
}

/* nbdfuse on the socket, its file at h->file: recorded once it is
 * nbdfuse, ready when the file is there at the medium's size (10 s). */
static int start_fuse(struct model_host *h, uint64_t capacity)
{
	char nbdfuse[PATH_MAX], out[256];
	int fds[2], status, recorded = 0;
	struct stat st;

	if (find_program("nbdfuse", nbdfuse, sizeof(nbdfuse)) || !realpath(nbdfuse, h->exe))
		return error_set("--medium on this host needs nbdfuse (libnbd-bin: scripts/install-deps)");
	if (mkdir(h->fuse, 0700))
		return error_errno("%s", h->fuse);
	/* recorded before it exists: cleanup unmounts it only while the
	 * mount there is nbdfuse's */
	if (state_add(STATE_MOUNT, h->fuse, FUSE_SOURCE, 0, 0))
		return -1;
	h->mount_recorded = 1;
	/* one connection, one FUSE thread: the requests reach the model in
	 * the order the loop device sent them (a log-block layer is all
	 * about order; nbdkit serves with one thread) */
	char *argv[] = { nbdfuse, "-C", "1", "-s", "-o", "fsname=" FUSE_SOURCE, h->file, "--unix",
			 h->srv.sock, NULL };
	if (pipe2(fds, O_CLOEXEC))
		return error_errno("pipe");
	pid_t parent = getpid();
	h->pid = fork();
	if (h->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_errno("fork");
	}
	if (h->pid == 0) {
		int null = open("/dev/null", O_RDWR);
		/* it ends (and unmounts) with fsbench; cleanup does the rest */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		dup2(null, 0);
		dup2(null, 1);
		dup2(fds[1], 2);
		execv(nbdfuse, argv);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	snprintf(h->proc, sizeof(h->proc), "/proc/%d", (int)h->pid);
	for (int i = 0; i < 1000; i++) {
		if (waitpid(h->pid, &status, WNOHANG) == h->pid) {
			ssize_t n = read(fds[0], out, sizeof(out) - 1);
			out[n > 0 ? n : 0] = '\0';
			out[strcspn(out, "\n")] = '\0';
			close(fds[0]);
			if (recorded)
				state_remove(STATE_PROC, h->proc);
			h->pid = 0;
			h->proc[0] = '\0';
			return error_set("nbdfuse did not serve the modelled medium: %s",
					 out[0] ? out : "it said nothing");
		}
		if (!recorded) {
			h->start = state_proc_start((long)h->pid);
			if (h->start && still_nbdfuse(h)) {
				if (state_add(STATE_PROC, h->proc, h->exe, h->start, 0)) {
					kill(h->pid, SIGKILL);
					waitpid(h->pid, NULL, 0);
					close(fds[0]);
					h->pid = 0;
					h->proc[0] = '\0';
					return -1;
				}
				recorded = 1;
			}
		} else if (!lstat(h->file, &st) && S_ISREG(st.st_mode) &&
			   (uint64_t)st.st_size == capacity) {
			close(fds[0]);
			return 0;
		}
		nap();
	}
	close(fds[0]);
	return error_set("nbdfuse did not show the modelled medium at %s within 10 s", h->file);
}

int model_host_start(struct model_host **out, const char *parent, const struct model_spec *m,
		     char *dev, size_t dlen, char *what, size_t wlen, char *counters, size_t clen)
{
	struct model_host *h = calloc(1, sizeof(*h));
	struct stat st;
	char why[256];
	int dio = 0;

	*out = NULL;
	if (!h)
		return error_set("out of memory");
	h->loopfd = -1;
	if (model_host_possible(why, sizeof(why))) {
		free(h);
		return error_set("--medium on this host: %s", why);
	}
	if (scratch_create(parent, h->dir, sizeof(h->dir))) {
		free(h);
		return -1;
	}
	snprintf(h->fuse, sizeof(h->fuse), "%s/fuse", h->dir);
	snprintf(h->file, sizeof(h->file), "%s/key", h->fuse);
	if (flash_server_start(&h->srv, h->dir, NULL, m, 1) || start_fuse(h, m->capacity))
		goto fail;
	if (loop_attach(h->file, 1, h->loopdev, sizeof(h->loopdev), &dio, &h->loopfd))
		goto fail;
	if (lstat(h->file, &st) ||
	    state_add(STATE_LOOP, h->loopdev, h->file, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
		loop_detach(h->loopdev, h->loopfd);
		h->loopfd = -1;
		h->loopdev[0] = '\0';
		goto fail;
	}
	if (!dio) {
		error_set("--medium on this host: the loop device over nbdfuse's file refused direct "
			  "I/O, and through the page cache the model would not see the writes as they "
			  "come; run it in fsbench's guest with --vm");
		goto fail;
	}
	str_copy(dev, dlen, h->loopdev);
	str_copy(counters, clen, h->srv.counters);
	model_text(m, what, wlen);
	size_t n = strlen(what);
	snprintf(what + n, wlen - n, "; served by nbdkit to this host's kernel through nbdfuse and "
		 "a loop device (direct I/O)");
	*out = h;
	return 0;
fail:
	{
		struct error_keep k;
		error_keep(&k, -1);
		model_host_stop(h);
		return error_kept(&k, 0);
	}
}

const char *model_host_file(const struct model_host *h)
{
	return h->file;
}

void model_host_stop(struct model_host *h)
{
	char why[512];

	if (!h)
		return;
	if (h->loopdev[0] && !loop_detach(h->loopdev, h->loopfd))
		state_remove(STATE_LOOP, h->loopdev);
	h->loopdev[0] = '\0';
	h->loopfd = -1;
	/* unmounted as cleanup would (only while it is nbdfuse's mount), then
	 * nbdfuse, which ends with its mount; killed if it does not */
	if (h->mount_recorded) {
		struct state_entry e = { .kind = STATE_MOUNT };
		str_copy(e.arg, sizeof(e.arg), h->fuse);
		str_copy(e.arg2, sizeof(e.arg2), FUSE_SOURCE);
		if (state_undo(&e, why, sizeof(why)) != STATE_FAILED)
			state_remove(STATE_MOUNT, h->fuse);
	}
	if (h->pid > 0) {
		int i;
		for (i = 0; i < 500 && waitpid(h->pid, NULL, WNOHANG) != h->pid; i++)
			nap();
		if (i == 500) {
			if (still_nbdfuse(h))
				kill(h->pid, SIGKILL);
			waitpid(h->pid, NULL, 0);
		}
	}
	if (h->proc[0])
		state_remove(STATE_PROC, h->proc);
	flash_server_stop(&h->srv);
	if (h->dir[0] && scratch_remove(h->dir))
		fprintf(stderr, "fsbench: warning: %s\n", error_get());
	free(h);
}
