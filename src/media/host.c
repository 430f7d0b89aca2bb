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
#include "child.h"
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
	struct media_child nbdfuse;
	uint64_t capacity;
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

/* nbdfuse's file is there, at the medium's size */
static int fuse_ready(void *arg)
{
	const struct model_host *h = arg;
	struct stat st;

	return !lstat(h->file, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size == h->capacity;
}

/* nbdfuse on the socket, its file at h->file. */
static int start_fuse(struct model_host *h)
{
	if (mkdir(h->fuse, 0700))
		return error_errno("%s", h->fuse);
	/* recorded before it exists: cleanup unmounts it only while the
	 * mount there is nbdfuse's */
	if (state_add(STATE_MOUNT, h->fuse, FUSE_SOURCE, 0, 0))
		return -1;
	h->mount_recorded = 1;
	/* one connection, one FUSE thread: the requests reach the model in
	 * the order the loop device sent them (a log-block layer is all
	 * about order; nbdkit serves with one thread).  It ends (and
	 * unmounts) with fsbench; cleanup does the rest. */
	char *argv[] = { NULL, "-C", "1", "-s", "-o", "fsname=" FUSE_SOURCE, h->file, "--unix",
			 h->srv.sock, NULL };
	return media_child_start(&h->nbdfuse, "nbdfuse", argv, SIGTERM, fuse_ready, h,
				 "nbdfuse, showing the modelled medium as a file,");
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
	h->capacity = m->capacity;
	if (flash_server_start(&h->srv, h->dir, NULL, m, 1) || start_fuse(h))
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
	media_child_stop(&h->nbdfuse, 0, 5000);
	flash_server_stop(&h->srv);
	if (h->dir[0] && scratch_remove(h->dir))
		fprintf(stderr, "fsbench: warning: %s\n", error_get());
	free(h);
}
