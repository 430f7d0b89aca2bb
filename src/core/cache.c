/* cache.c: sync and drop the page cache (see cache.h). */
#include "cache.h"

#include <fcntl.h>
#include <unistd.h>

int cache_drop(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC), ok = 0;

	if (fd >= 0) {
		ok = write(fd, "3", 1) == 1;
		close(fd);
	}
	return ok;
}

int cache_flush(int drop)
{
	sync();
	return drop ? cache_drop() : 0;
}
