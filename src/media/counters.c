/*
 * counters.c: reading the modelled medium's counters file (counters.h).
 */
#include "counters.h"
#include "../core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int flash_counters_read(const char *path, struct flash_stats *st, uint32_t *page)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return error_errno("the medium's counters %s", path);
	for (int tries = 0; tries < 1000; tries++) {
		struct flash_counters a, b;
		if (pread(fd, &a, sizeof(a), 0) != (ssize_t)sizeof(a) ||
		    pread(fd, &b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
			close(fd);
			return error_set("the medium's counters %s: short", path);
		}
		if (memcmp(a.magic, FLASH_COUNTERS_MAGIC, 8)) {
			close(fd);
			return error_set("the medium's counters %s: not a counters file", path);
		}
		if (!(a.seq & 1) && a.seq == b.seq && !memcmp(&a.st, &b.st, sizeof(a.st))) {
			close(fd);
			*st = a.st;
			if (page)
				*page = (uint32_t)a.page;
			return 0;
		}
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
	close(fd);
	return error_set("the medium's counters %s never held still", path);
}
