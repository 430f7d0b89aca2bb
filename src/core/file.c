/* file.c: reading a whole file into memory, bounded (see file.h). */
#include "file.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *file_read_all(const char *path, size_t max, unsigned flags, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
					  (flags & FILE_NOFOLLOW ? O_NOFOLLOW : 0))
				   : STDIN_FILENO;
	size_t cap = 1 << 14, used = 0;
	char *buf = NULL;

	if (fd < 0) {
		error_errno("cannot open %s", path);
		return NULL;
	}
	for (;;) {
		if (used + 1 >= cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > max + 2)
				cap = max + 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				error_set("out of memory reading %s", path);
				goto fail;
			}
			buf = nb;
		}
		if (used + 1 >= cap) {
			error_set("%s is larger than %zu bytes", path, max);
			goto fail;
		}
		ssize_t n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_errno("reading %s", path);
			goto fail;
		}
		if (!n)
			break;
		used += (size_t)n;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	free(buf);
	return NULL;
}
