/*
 * loop.h: attaching an image file to a free loop device and detaching it,
 * with the loop ioctls (LOOP_CONFIGURE, falling back to LOOP_SET_FD).
 */
#ifndef FSB_LOOP_H
#define FSB_LOOP_H

#include <stddef.h>
#include <stdint.h>

/* Attach image; direct I/O on the backing file when asked and supported
 * (*dio says whether it is on).  The device is set to clear itself when
 * its last holder goes; *fd is our hold on it until loop_detach. */
int loop_attach(const char *image, int direct_io, char *dev, size_t len, int *dio,
		int *fd);
/* The same over a file the caller opened (ffd, still its own to close;
 * name is what the loop device reports as its backing file), its first
 * limit bytes only (0: all): a region of a user's device (medium.c). */
int loop_attach_fd(int ffd, const char *name, uint64_t limit, int direct_io, char *dev,
		   size_t len, int *dio, int *fd);
/* Detach (fd may be -1: open dev) and close fd. */
int loop_detach(const char *dev, int fd);
/* The backing file of a loop device, "" if none. */
void loop_backing_file(const char *dev, char *out, size_t len);

#endif
