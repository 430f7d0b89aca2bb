/*
 * file.h: reading a whole file into memory, bounded.
 *
 * One reader for every "the whole file" in fsbench: documents given to
 * `fsbench import` (or stdin), /proc and /etc files for the system table
 * (which report size 0, so it reads until EOF), a kernel's modules.dep,
 * and what a guest leaves in its exchange directory.  And copying one:
 * a sparse image (holes stay holes), and a directory of such files out of
 * a place another system wrote (a guest's exchange directory).
 */
#ifndef FSB_FILE_H
#define FSB_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FILE_NOFOLLOW 1u	/* refuse a symlink (a directory others may write) */

/* path opened to read as an input: without blocking (a FIFO given as a
 * suite, a job file, a profile or a document held fsbench in open()
 * forever, issue 69) and refused unless a regular file, with one line.
 * The descriptor, or -1 with the error set. */
int file_open_input(const char *path, unsigned flags);

/* The file at path ("-": stdin), NUL-terminated, at most max bytes;
 * *len (may be NULL) its length.  NULL with the error set when it cannot
 * be opened or read, is not a regular file, or is larger than max. */
char *file_read_all(const char *path, size_t max, unsigned flags, size_t *len);

/* src's bytes into dst, made new (O_EXCL, mode 0600, neither followed
 * if a symlink): a reflink where the filesystem has them, else only the
 * data extents (SEEK_DATA/SEEK_HOLE) and of those only blocks that are
 * not all zeros, so a mostly empty image stays sparse.  src must be a regular file of at most max bytes.  0, or -1
 * with the error set (dst is then removed). */
int file_copy_sparse(const char *src, const char *dst, unsigned long long max);

/* Every regular file directly in src_dir (symlinks, directories and
 * anything else skipped: src_dir may have been written by another
 * system) copied with file_copy_sparse into a new directory named like
 * src_dir's last component inside dst_parent (made as needed; "-2",
 * "-3" appended if taken).  The new directory's path in out.  Each
 * file at most max bytes.  The number of files copied, or -1 with the
 * error set. */
int file_copy_dir_flat(const char *src_dir, const char *dst_parent, unsigned long long max,
		       char *out, size_t len);

/* A new file at path (made exclusively, never through a symlink) holding
 * len bytes of data, written whole; data NULL: len bytes of holes.  0, or
 * -1 with the error set (naming path). */
int file_write_new(const char *path, const void *data, uint64_t len, mode_t mode);

/* dir and its missing parents made (0755); dir must end up a directory
 * and not a symlink.  0, or -1 with the error set. */
int file_mkdirs(const char *dir);

#endif
