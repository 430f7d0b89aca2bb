/* initramfs.c: the guest's cpio archive (see initramfs.h). */
#define _GNU_SOURCE
#include "initramfs.h"
#include "../core/error.h"
#include "../core/str.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

extern const unsigned char fsb_vminit_start[], fsb_vminit_end[];

static int add(struct archive *a, const char *name, mode_t type, mode_t perm, const void *data,
	       size_t size, dev_t rdev)
{
	struct archive_entry *e = archive_entry_new();
	int rc = 0;

	if (!e)
		return error_set("out of memory");
	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_size(e, type == AE_IFREG ? (la_int64_t)size : 0);
	if (rdev)
		archive_entry_set_rdev(e, rdev);
	if (archive_write_header(a, e) != ARCHIVE_OK ||
	    (type == AE_IFREG && size && archive_write_data(a, data, size) != (la_ssize_t)size))
		rc = error_set("initramfs: writing %s: %s", name, archive_error_string(a));
	archive_entry_free(e);
	return rc;
}

/* A module file into /modules/, read whole (the largest are a few MiB). */
static int add_module(struct archive *a, const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	int rc;

	if (fd < 0)
		return error_errno("initramfs: %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		close(fd);
		return error_set("initramfs: %s is not a module file", path);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || read(fd, buf, (size_t)st.st_size) != (ssize_t)st.st_size) {
		free(buf);
		close(fd);
		return error_set("initramfs: cannot read %s", path);
	}
	close(fd);
	rc = add(a, name, AE_IFREG, 0644, buf, (size_t)st.st_size, 0);
	free(buf);
	return rc;
}

int initramfs_write(const char *path, const char *moddir, char (*mods)[256], int nmods)
{
	static const char *const dirs[] = { "dev", "proc", "sys", "host", "modules" };
	struct archive *a;
	char list[16384];
	size_t used = 0;
	int fd, rc = 0;

	if (nmods < 0 || nmods > 64)
		return error_set("initramfs: %d modules", nmods);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_errno("initramfs: create %s", path);
	a = archive_write_new();
	if (!a || archive_write_set_format_cpio_newc(a) != ARCHIVE_OK ||
	    archive_write_add_filter_none(a) != ARCHIVE_OK || archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		rc = error_set("initramfs: %s", a ? archive_error_string(a) : "out of memory");
		goto out;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !rc; i++)
		rc = add(a, dirs[i], AE_IFDIR, 0755, NULL, 0, 0);
	if (!rc)	/* the kernel opens it for init's stdio */
		rc = add(a, "dev/console", AE_IFCHR, 0600, NULL, 0, makedev(5, 1));
	if (!rc)
		rc = add(a, "init", AE_IFREG, 0755, fsb_vminit_start,
			 (size_t)(fsb_vminit_end - fsb_vminit_start), 0);
	for (int i = 0; i < nmods && !rc; i++) {
		char src[PATH_MAX + 300], name[300];
		const char *base = strrchr(mods[i], '/');
		base = base ? base + 1 : mods[i];
		snprintf(src, sizeof(src), "%s/%s", moddir, mods[i]);
		snprintf(name, sizeof(name), "modules/%s", base);
		rc = add_module(a, src, name);
		int n = snprintf(list + used, sizeof(list) - used, "%s\n", base);
		if (!rc && (n < 0 || (size_t)n >= sizeof(list) - used))
			rc = error_set("initramfs: module list too long");
		else if (!rc)
			used += (size_t)n;
	}
	if (!rc)
		rc = add(a, "modules/load", AE_IFREG, 0644, list, used, 0);
	if (!rc && archive_write_close(a) != ARCHIVE_OK)
		rc = error_set("initramfs: %s", archive_error_string(a));
out:
	if (a)
		archive_write_free(a);
	if (close(fd) && !rc)
		rc = error_errno("initramfs: close %s", path);
	return rc;
}
