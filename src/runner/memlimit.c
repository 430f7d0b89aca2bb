/* memlimit.c: the --ram memory cgroup (see memlimit.h). */
#define _GNU_SOURCE
#include "memlimit.h"
#include "../core/error.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../targets/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_file(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return error_errno("--ram: cannot open %s", path);
	int rc = fputs(value, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? error_errno("--ram: cannot write %s to %s", value, path) : 0;
}

/* This process's cgroup path for `controller` ("" = the v2 hierarchy). */
static int own_cgroup(const char *controller, char *out, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
		if (!b)
			continue;
		*b = '\0';
		b[1 + strcspn(b + 1, "\n")] = '\0';
		int match = controller[0] ? strstr(a + 1, controller) != NULL : a[1] == '\0';
		if (match) {
			str_copy(out, len, b + 1);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static int has_v2_memory(const char *base)
{
	char path[PATH_MAX + 32], line[512] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", base);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return strstr(line, "memory") != NULL;
}

int memlimit_apply(uint64_t bytes, struct memlimit *m)
{
	char rel[PATH_MAX - 64], base[PATH_MAX - 32], value[32], pid[32];
	const char *limit_file;

	memset(m, 0, sizeof(*m));
	snprintf(value, sizeof(value), "%llu", (unsigned long long)bytes);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!own_cgroup("", rel, sizeof(rel)) &&
	    (snprintf(base, sizeof(base), "/sys/fs/cgroup%s", rel), has_v2_memory(base))) {
		limit_file = "memory.max";
		snprintf(m->how, sizeof(m->how), "cgroup v2 memory.max");
	} else if (!own_cgroup("memory", rel, sizeof(rel)) &&
		   (snprintf(base, sizeof(base), "/sys/fs/cgroup/memory%s", rel),
		    !access(base, W_OK))) {
		limit_file = "memory.limit_in_bytes";
		snprintf(m->how, sizeof(m->how), "cgroup v1 memory.limit_in_bytes");
	} else {
		return error_set("--ram: no usable memory cgroup (v2 memory.max or v1 memory controller) here, "
				 "so the page cache cannot be limited: run without --ram%s",
				 geteuid() ? ", or as root" : "");
	}
	if ((size_t)snprintf(m->home, sizeof(m->home), "%s/cgroup.procs", base) >= sizeof(m->home))
		return error_set("--ram: cgroup path too long");
	/* A name of its own, made new (never one that was there: that is
	 * another's): the pid alone is not unique, as fsbench in a PID
	 * namespace of its own (a container, a test suite) shares the
	 * cgroup tree with others whose pid is the same.  Each name is
	 * recorded before it is made, so a kill cannot leave it unnamed. */
	for (int tries = 0;; tries++) {
		uint32_t r;
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (uint32_t)now_ns() ^ (uint32_t)tries;
		if ((size_t)snprintf(m->dir, sizeof(m->dir), "%s/fsbench.%d.%08x", base, (int)getpid(),
				     r) >= sizeof(m->dir))
			return error_set("--ram: cgroup path too long");
		if (state_add(STATE_CGROUP, m->dir, NULL, 0, 0))
			return -1;
		if (!mkdir(m->dir, 0755))
			break;
		int err = errno;
		state_remove(STATE_CGROUP, m->dir);
		if (err != EEXIST || tries >= 8) {
			errno = err;
			return error_errno("--ram: cannot create cgroup %s", m->dir);
		}
	}
	if (write_file(m->dir, limit_file, value) || write_file(m->dir, "cgroup.procs", pid)) {
		rmdir(m->dir);
		state_remove(STATE_CGROUP, m->dir);
		return -1;
	}
	m->active = 1;
	return 0;
}

void memlimit_release(struct memlimit *m)
{
	char pid[32];
	FILE *f;

	if (!m->active)
		return;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	f = fopen(m->home, "w");
	if (f) {
		fputs(pid, f);
		fclose(f);
	}
	for (int i = 0; i < 50 && rmdir(m->dir) && errno == EBUSY; i++)
		usleep(20000);
	state_remove(STATE_CGROUP, m->dir);
	m->active = 0;
}
