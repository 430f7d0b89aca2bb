/*
 * file.h: reading a whole file into memory, bounded.
 *
 * One reader for every "the whole file" in fsbench: documents given to
 * `fsbench import` (or stdin), /proc and /etc files for the system table
 * (which report size 0, so it reads until EOF), a kernel's modules.dep,
 * and what a guest leaves in its exchange directory.
 */
#ifndef FSB_FILE_H
#define FSB_FILE_H

#include <stddef.h>

#define FILE_NOFOLLOW 1u	/* refuse a symlink (a directory others may write) */

/* The file at path ("-": stdin), NUL-terminated, at most max bytes;
 * *len (may be NULL) its length.  NULL with the error set when it cannot
 * be opened or read, or is larger than max. */
char *file_read_all(const char *path, size_t max, unsigned flags, size_t *len);

#endif
