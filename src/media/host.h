/*
 * host.h: a modelled medium on this host, without a guest (issue 71):
 * the model served by nbdkit (server.h), made a file by nbdfuse (libnbd's
 * FUSE client), and that file a block device by a loop device with direct
 * I/O, so the host's own kernel filesystems (ext4, xfs, btrfs) are made
 * on it and every request reaches the model, timed, with no page cache in
 * between.  It is then a device like a user's (`--device`), which every
 * target takes turns on.  Everything is made in a scratch directory of
 * its own and recorded in the state file before it exists (the
 * directory, nbdkit, the FUSE mount, nbdfuse, the loop device), so
 * `fsbench cleanup` undoes it after a kill, newest first.
 */
#ifndef FSB_MEDIA_HOST_H
#define FSB_MEDIA_HOST_H

#include <stddef.h>

#include "model.h"

struct model_host;

/* Whether this host can carry a model: nbdkit, nbdfuse and /dev/fuse.
 * 0, or -1 with why. */
int model_host_possible(char *why, size_t len);
/* Serve m under parent (a scratch directory is made there): *out, the
 * block device in dev, its description (for the system table) in what,
 * the counters file in counters.  0, or -1 with the error set and
 * nothing left. */
int model_host_start(struct model_host **out, const char *parent, const struct model_spec *m,
		     char *dev, size_t dlen, char *what, size_t wlen, char *counters, size_t clen);
/* The file nbdfuse shows the medium as (a hole punched in it is a TRIM). */
const char *model_host_file(const struct model_host *h);
/* Undo it all, each piece only while it is still what was made (NULL: nothing). */
void model_host_stop(struct model_host *h);

#endif
