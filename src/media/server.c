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
#include "../core/file.h"
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

static int ready(void *sock)
{
	return connectable(sock);
}

int flash_server_start(struct flash_server *s, const char *dir, const char *counters_dir,
		       const struct model_spec *m, int timed)
{
	struct flash_params p;
	char kv[13][64];
	struct sockaddr_un probe;

	memset(s, 0, sizeof(*s));
	if (model_params(m, &p))
		return -1;
	str_join(s->plugin, sizeof(s->plugin), dir, "/fsbench-flash.so");
	str_join(s->image, sizeof(s->image), dir, "/medium.img");
	str_join(s->sock, sizeof(s->sock), dir, "/medium.sock");
	str_join(s->counters, sizeof(s->counters), counters_dir ? counters_dir : dir, "/medium.counters");
	if (strlen(s->sock) >= sizeof(probe.sun_path))
		return error_set("--medium: the socket's path %s is too long for a UNIX socket", s->sock);
	if (file_write_new(s->plugin, fsb_flashso_start, (uint64_t)(fsb_flashso_end - fsb_flashso_start), 0700) ||
	    file_write_new(s->image, NULL, p.capacity, 0600))
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
	char *argv[] = { NULL, "--foreground", "--exit-with-parent", "--threads", "1", "--exportname", "key",
			 "--unix", s->sock, s->plugin, file, counters, kv[0], kv[1], kv[2], kv[3],
			 kv[4], kv[5], kv[6], kv[7], kv[8], kv[9], kv[10], kv[11], kv[12], NULL };
	/* ready when its socket takes a connection; it ends with fsbench
	 * (--exit-with-parent) */
	return media_child_start(&s->nbdkit, "nbdkit", argv, 0, ready, s->sock,
				 "nbdkit, serving the modelled medium,");
}

void flash_server_stop(struct flash_server *s)
{
	media_child_stop(&s->nbdkit, 1, 10000);
}
