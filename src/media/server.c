/*
 * server.c: nbdkit serving the modelled medium (see server.h).
 *
 * Why nbdkit and not a server of our own: it speaks every part of the NBD
 * protocol QEMU uses (fixed newstyle, NBD_OPT_GO, structured replies,
 * TRIM, FUA) and is fuzzed upstream; our part is the model and its clock,
 * in a plugin of 300 lines against Debian's nbdkit-plugin-dev.  Its cost
 * per request (one UNIX socket round trip) is far below a key's (docs/medium.md).
 */
#define _GNU_SOURCE
#include "server.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"
#include "../targets/state.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const unsigned char fsb_flashso_start[], fsb_flashso_end[];

/* A new file at path holding len bytes of data (NULL: sparse), mode. */
static int new_file(const char *path, const void *data, uint64_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return error_errno("%s", path);
	const unsigned char *p = data;
	int rc = data ? 0 : ftruncate(fd, (off_t)len);
	for (uint64_t done = 0; data && !rc && done < len;) {
		ssize_t n = write(fd, p + done, (size_t)(len - done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = -1;
		else
			done += (uint64_t)n;
	}
	if (rc || close(fd))
		return error_errno("%s", path);
	return 0;
}

static int connectable(const char *sock)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return 0;
	str_copy(a.sun_path, sizeof(a.sun_path), sock);
	ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

static int still_it(const struct flash_server *s)
{
	return state_proc_is((long)s->pid, s->exe, s->start);
}

int flash_server_start(struct flash_server *s, const char *dir, const char *counters_dir,
		       const struct model_spec *m, int timed)
{
	struct flash_params p;
	char nbdkit[PATH_MAX], kv[13][64], out[256];
	struct sockaddr_un probe;

	memset(s, 0, sizeof(*s));
	if (model_params(m, &p))
		return -1;
	if (find_program("nbdkit", nbdkit, sizeof(nbdkit)))
		return error_set("--medium needs nbdkit (Debian's nbdkit package: scripts/install-deps)");
	if (!realpath(nbdkit, s->exe))
		return error_errno("%s", nbdkit);
	str_join(s->plugin, sizeof(s->plugin), dir, "/fsbench-flash.so");
	str_join(s->image, sizeof(s->image), dir, "/medium.img");
	str_join(s->sock, sizeof(s->sock), dir, "/medium.sock");
	str_join(s->counters, sizeof(s->counters), counters_dir ? counters_dir : dir, "/medium.counters");
	if (strlen(s->sock) >= sizeof(probe.sun_path))
		return error_set("--medium: the socket's path %s is too long for a UNIX socket", s->sock);
	if (new_file(s->plugin, fsb_flashso_start, (uint64_t)(fsb_flashso_end - fsb_flashso_start), 0700) ||
	    new_file(s->image, NULL, p.capacity, 0600))
		return -1;
	snprintf(kv[0], 64, "capacity=%llu", (unsigned long long)p.capacity);
	snprintf(kv[1], 64, "page=%u", p.page);
	snprintf(kv[2], 64, "unit=%u", p.unit);
	snprintf(kv[3], 64, "open_units=%u", p.open_units);
	snprintf(kv[4], 64, "mapped_units=%u", p.mapped_units);
	snprintf(kv[5], 64, "cmd_ns=%llu", (unsigned long long)p.cmd_ns);
	snprintf(kv[6], 64, "read_ns=%llu", (unsigned long long)p.read_ns);
	snprintf(kv[7], 64, "program_ns=%llu", (unsigned long long)p.program_ns);
	snprintf(kv[8], 64, "copy_ns=%llu", (unsigned long long)p.copy_ns);
	snprintf(kv[9], 64, "erase_ns=%llu", (unsigned long long)p.erase_ns);
	snprintf(kv[10], 64, "bus_bps=%llu", (unsigned long long)p.bus_bps);
	snprintf(kv[11], 64, "timed=%d", timed ? 1 : 0);
	snprintf(kv[12], 64, "buffer=%llu", (unsigned long long)p.buffer);
	char file[PATH_MAX + 8], counters[PATH_MAX + 16];
	snprintf(file, sizeof(file), "file=%s", s->image);
	snprintf(counters, sizeof(counters), "counters=%s", s->counters);
	/* one thread: the connection's requests served in the order they came,
	 * as a key's controller takes its commands */
	char *argv[] = { nbdkit, "--foreground", "--exit-with-parent", "--threads", "1", "--exportname", "key",
			 "--unix", s->sock, s->plugin, file, counters, kv[0], kv[1], kv[2], kv[3],
			 kv[4], kv[5], kv[6], kv[7], kv[8], kv[9], kv[10], kv[11], kv[12], NULL };
	int fds[2];
	if (pipe2(fds, O_CLOEXEC))
		return error_errno("pipe");
	s->pid = fork();
	if (s->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_errno("fork");
	}
	if (s->pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(fds[1], 2);
		execv(nbdkit, argv);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	snprintf(s->proc, sizeof(s->proc), "/proc/%d", (int)s->pid);
	/* recorded once it is nbdkit (before exec it is still fsbench), then
	 * ready when its socket takes a connection: 10 s at most */
	int recorded = 0, status;
	for (int i = 0; i < 2000; i++) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			ssize_t n = read(fds[0], out, sizeof(out) - 1);
			out[n > 0 ? n : 0] = '\0';
			out[strcspn(out, "\n")] = '\0';
			close(fds[0]);
			if (recorded)
				state_remove(STATE_PROC, s->proc);
			s->pid = 0;
			return error_set("nbdkit did not start the modelled medium: %s",
					 out[0] ? out : "it said nothing");
		}
		if (!recorded) {
			s->start = state_proc_start((long)s->pid);
			if (s->start && still_it(s)) {
				if (state_add(STATE_PROC, s->proc, s->exe, s->start, 0)) {
					kill(s->pid, SIGKILL);
					waitpid(s->pid, NULL, 0);
					close(fds[0]);
					s->pid = 0;
					return -1;
				}
				recorded = 1;
			}
		} else if (connectable(s->sock)) {
			close(fds[0]);
			return 0;
		}
		struct timespec ts = { 0, 5000000 };
		nanosleep(&ts, NULL);
	}
	close(fds[0]);
	flash_server_stop(s);
	return error_set("nbdkit did not open %s within 10 s", s->sock);
}

void flash_server_stop(struct flash_server *s)
{
	if (s->pid > 0) {
		if (still_it(s) || !s->start) {
			kill(s->pid, SIGTERM);
			for (int i = 0; i < 1000; i++) {
				if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
					break;
				if (i == 999) {
					kill(s->pid, SIGKILL);
					waitpid(s->pid, NULL, 0);
				}
				struct timespec ts = { 0, 10000000 };
				nanosleep(&ts, NULL);
			}
		} else {
			waitpid(s->pid, NULL, WNOHANG);
		}
	}
	if (s->proc[0])
		state_remove(STATE_PROC, s->proc);
	s->proc[0] = '\0';
	s->pid = 0;
}
