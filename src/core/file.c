/* file.c: reading a whole file into memory, bounded; copying sparse
 * images and a directory of them (see file.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "file.h"
#include "error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int file_open_input(const char *path, unsigned flags)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
			    (flags & FILE_NOFOLLOW ? O_NOFOLLOW : 0));
	struct stat st;

	if (fd < 0)
		return error_errno("cannot open %s", path);
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		errno = e;
		return error_errno("cannot stat %s", path);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return error_errno("cannot read %s", path);
		}
		return error_set("%s is not a regular file (a FIFO or a device): refused", path);
	}
	/* a regular file: blocking reads again (O_NONBLOCK means nothing to
	 * one, but a later reader should not meet EAGAIN) */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

char *file_read_all(const char *path, size_t max, unsigned flags, size_t *len)
{
	int fd = strcmp(path, "-") ? file_open_input(path, flags) : STDIN_FILENO;
	size_t cap = 1 << 14, used = 0;
	char *buf = NULL;

	if (fd < 0)
		return NULL;
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

static int all_zero(const char *b, size_t n)
{
	return n == 0 || (b[0] == 0 && !memcmp(b, b + 1, n - 1));
}

/* [from, to) of in into the same offsets of out, which reads as zeros
 * there (a hole): blocks of zeros are not written, so the copy stays
 * sparse even from a filesystem that reports no holes (9p). */
static int copy_range(int in, int out, off_t from, off_t to)
{
	char buf[1 << 16];

	for (off_t at = from; at < to;) {
		size_t want = (size_t)(to - at) < sizeof(buf) ? (size_t)(to - at) : sizeof(buf);
		ssize_t n = pread(in, buf, want, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error_errno("reading");
		if (!n)
			return error_set("the file shrank while it was copied");
		for (ssize_t done = 0; !all_zero(buf, (size_t)n) && done < n;) {
			ssize_t w = pwrite(out, buf + done, (size_t)(n - done), at + done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return error_errno("writing");
			done += w;
		}
		at += n;
	}
	return 0;
}

int file_copy_sparse(const char *src, const char *dst, unsigned long long max)
{
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY), out = -1, rc = -1;
	struct stat st;

	if (in < 0)
		return error_errno("%s", src);
	if (fstat(in, &st)) {
		error_errno("%s", src);
		goto done;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > max) {
		error_set("%s: not a regular file of at most %llu bytes", src, max);
		goto done;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		error_errno("%s", dst);
		goto done;
	}
	if (ioctl(out, FICLONE, in) == 0) {
		rc = 0;
		goto done;
	}
	if (ftruncate(out, st.st_size)) {
		error_errno("%s", dst);
		goto done;
	}
	for (off_t off = 0; off < st.st_size;) {
		off_t data = lseek(in, off, SEEK_DATA), hole;
		if (data < 0 && errno == ENXIO)
			break;	/* nothing but a hole from off on */
		if (data < 0) {
			error_errno("%s", src);
			goto done;
		}
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0 || hole > st.st_size)
			hole = st.st_size;
		if (copy_range(in, out, data, hole)) {
			error_set("%s to %s: %s", src, dst, error_get());
			goto done;
		}
		off = hole;
	}
	rc = 0;
done:
	if (out >= 0) {
		if (close(out) && !rc)
			rc = error_errno("%s", dst);
		if (rc)
			unlink(dst);	/* made by this call (O_EXCL) */
	}
	close(in);
	return rc;
}

int file_mkdirs(const char *dir)
{
	char path[4096];
	struct stat st;
	size_t n = strlen(dir);

	if (!n || n >= sizeof(path))
		return error_set("directory path too long or empty");
	memcpy(path, dir, n + 1);
	for (char *c = path + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return error_errno("mkdir %s", path);
		*c = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return error_errno("mkdir %s", path);
	if (lstat(path, &st))
		return error_errno("%s", path);
	if (!S_ISDIR(st.st_mode))
		return error_set("%s is not a directory (a symlink is refused)", path);
	return 0;
}

int file_copy_dir_flat(const char *src_dir, const char *dst_parent, unsigned long long max,
		       char *out, size_t len)
{
	const char *base = strrchr(src_dir, '/');
	int dfd, copied = 0;
	DIR *d;
	struct dirent *de;

	base = base ? base + 1 : src_dir;
	if (!*base || strlen(base) > 200 || !strcmp(base, ".") || !strcmp(base, ".."))
		return error_set("%s: not a directory to copy", src_dir);
	dfd = open(src_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return error_errno("%s", src_dir);
	if (file_mkdirs(dst_parent)) {
		close(dfd);
		return -1;
	}
	for (int k = 1;; k++) {
		int w = k == 1 ? snprintf(out, len, "%s/%s", dst_parent, base)
			       : snprintf(out, len, "%s/%s-%d", dst_parent, base, k);
		if (w < 0 || (size_t)w >= len) {
			close(dfd);
			return error_set("%s: path too long", dst_parent);
		}
		if (!mkdir(out, 0700))
			break;
		if (errno != EEXIST || k == 100) {
			error_errno("mkdir %s", out);
			close(dfd);
			return -1;
		}
	}
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return error_errno("%s", src_dir);
	}
	while ((de = readdir(d))) {
		char from[4400], to[4400];
		struct stat st;
		if (de->d_name[0] == '.' || strlen(de->d_name) > 200 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if ((size_t)snprintf(from, sizeof(from), "%s/%s", src_dir, de->d_name) >= sizeof(from) ||
		    (size_t)snprintf(to, sizeof(to), "%s/%s", out, de->d_name) >= sizeof(to)) {
			closedir(d);
			return error_set("%s: path too long", src_dir);
		}
		if (file_copy_sparse(from, to, max)) {
			closedir(d);
			return -1;
		}
		copied++;
	}
	closedir(d);
	return copied;
}

int file_write_new(const char *path, const void *data, uint64_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return error_errno("create %s", path);
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
	if (rc) {
		int saved = errno ? errno : EIO;
		close(fd);
		errno = saved;
		return error_errno("write %s", path);
	}
	return close(fd) ? error_errno("close %s", path) : 0;
}
