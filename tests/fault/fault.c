/*
 * fault.c: an LD_PRELOAD shim that makes one system call fail, for the
 * fault-injection tests (tests/integration/test_faults.sh).
 *
 *   FAULT_CALL   write | fsync | open | mkdir | rename   (which call)
 *   FAULT_N      fail the Nth such call (1 = the first)
 *   FAULT_ERR    ENOSPC | EIO | EDQUOT | EROFS | short   (short: a write
 *                that writes half of what it was asked)
 *   FAULT_DIR    only calls on paths (or fds open on paths) under DIR count
 *   FAULT_LOG    a file that gets one line when the fault is injected
 *
 * write covers write/pwrite/pwrite64/writev, fsync covers fdatasync and
 * sync_file_range; open covers open/open64/openat/creat with O_CREAT or a
 * write mode.  Counting is per process (forked workers count their own).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static long counter;

static int err_code(void)
{
	const char *e = getenv("FAULT_ERR");

	if (!e || !strcmp(e, "EIO"))
		return EIO;
	if (!strcmp(e, "ENOSPC"))
		return ENOSPC;
	if (!strcmp(e, "EDQUOT"))
		return EDQUOT;
	if (!strcmp(e, "EROFS"))
		return EROFS;
	return 0;	/* short */
}

static int under_dir(const char *path)
{
	const char *dir = getenv("FAULT_DIR");
	char real[4096];

	if (!dir || !path)
		return 0;
	if (path[0] != '/') {
		if (!getcwd(real, sizeof(real) - 2))
			return 0;
		return !strncmp(real, dir, strlen(dir));
	}
	return !strncmp(path, dir, strlen(dir));
}

static int fd_under_dir(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return under_dir(path);
}

/* 1 if this call is the one to fail. */
static int fire(const char *call, int relevant)
{
	const char *want = getenv("FAULT_CALL"), *n = getenv("FAULT_N"), *log = getenv("FAULT_LOG");

	if (!relevant || !want || strcmp(want, call) || !n)
		return 0;
	if (__atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST) != atol(n))
		return 0;
	if (log) {
		int (*real_open)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
		int fd = real_open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0) {
			char line[128];
			int len = snprintf(line, sizeof(line), "%s #%s %s pid %d\n", call, n,
					   getenv("FAULT_ERR") ? getenv("FAULT_ERR") : "EIO", (int)getpid());
			ssize_t (*real_write)(int, const void *, size_t) = dlsym(RTLD_NEXT, "write");
			if (real_write(fd, line, (size_t)len) < 0)
				len = 0;
			close(fd);
		}
	}
	return 1;
}

#define REAL(ret, name, ...) \
	static ret (*real_##name)(__VA_ARGS__); \
	if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buf, size_t len)
{
	REAL(ssize_t, write, int, const void *, size_t);
	if (fire("write", fd > 2 && fd_under_dir(fd))) {
		int e = err_code();
		if (!e)
			return real_write(fd, buf, len > 1 ? len / 2 : len);
		errno = e;
		return -1;
	}
	return real_write(fd, buf, len);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	REAL(ssize_t, pwrite, int, const void *, size_t, off_t);
	if (fire("write", fd_under_dir(fd))) {
		int e = err_code();
		if (!e)
			return real_pwrite(fd, buf, len > 1 ? len / 2 : len, off);
		errno = e;
		return -1;
	}
	return real_pwrite(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite(fd, buf, len, off);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	REAL(ssize_t, writev, int, const struct iovec *, int);
	if (fire("write", fd_under_dir(fd))) {
		int e = err_code();
		if (!e && n > 0 && iov[0].iov_len > 1) {
			struct iovec half = { iov[0].iov_base, iov[0].iov_len / 2 };
			return real_writev(fd, &half, 1);
		}
		errno = e ? e : EIO;
		return -1;
	}
	return real_writev(fd, iov, n);
}

int fsync(int fd)
{
	REAL(int, fsync, int);
	if (fire("fsync", fd_under_dir(fd))) {
		errno = err_code() ? err_code() : EIO;
		return -1;
	}
	return real_fsync(fd);
}

int fdatasync(int fd)
{
	REAL(int, fdatasync, int);
	if (fire("fsync", fd_under_dir(fd))) {
		errno = err_code() ? err_code() : EIO;
		return -1;
	}
	return real_fdatasync(fd);
}

int mkdir(const char *path, mode_t mode)
{
	REAL(int, mkdir, const char *, mode_t);
	if (fire("mkdir", under_dir(path))) {
		errno = err_code() ? err_code() : EIO;
		return -1;
	}
	return real_mkdir(path, mode);
}

int rename(const char *from, const char *to)
{
	REAL(int, rename, const char *, const char *);
	if (fire("rename", under_dir(to))) {
		errno = err_code() ? err_code() : EIO;
		return -1;
	}
	return real_rename(from, to);
}

static int writes(int flags)
{
	return (flags & (O_CREAT | O_WRONLY | O_RDWR)) != 0;
}

#define OPEN_LIKE(name, ...)                                                          \
	int name(const char *path, int flags, ...)                                    \
	{                                                                             \
		mode_t mode = 0;                                                      \
		if (flags & (O_CREAT | O_TMPFILE)) {                                  \
			va_list ap;                                                   \
			va_start(ap, flags);                                          \
			mode = (mode_t)va_arg(ap, int);                               \
			va_end(ap);                                                   \
		}                                                                     \
		REAL(int, name, const char *, int, ...);                              \
		if (fire("open", writes(flags) && under_dir(path))) {                 \
			errno = err_code() ? err_code() : EIO;                        \
			return -1;                                                    \
		}                                                                     \
		return real_##name(path, flags, mode);                                \
	}
OPEN_LIKE(open)
OPEN_LIKE(open64)

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	REAL(int, openat, int, const char *, int, ...);
	if (fire("open", writes(flags) && (path[0] == '/' ? under_dir(path) : fd_under_dir(dirfd) ||
					   (dirfd == AT_FDCWD && under_dir(path))))) {
		errno = err_code() ? err_code() : EIO;
		return -1;
	}
	return real_openat(dirfd, path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
	return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}
