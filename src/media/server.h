/*
 * server.h: a modelled flash medium served over NBD on a UNIX socket
 * (nbdkit with fsbench's plugin, nbdkit-flash.c), for QEMU to attach to a
 * guest as a USB key.  Everything it makes lives in a directory the
 * caller made (a scratch or exchange directory): the plugin written out,
 * the image that holds the data (sparse, the medium's capacity), the
 * socket and the counters file.  The nbdkit process is recorded in the
 * state file once it is nbdkit, ends with fsbench (--exit-with-parent),
 * and is stopped only while it is still that process.
 */
#ifndef FSB_SERVER_H
#define FSB_SERVER_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "child.h"
#include "model.h"

struct flash_server {
	char sock[PATH_MAX], image[PATH_MAX], counters[PATH_MAX], plugin[PATH_MAX];
	struct media_child nbdkit;
};

/* Serve m from dir (its files made there, none may exist yet), counters
 * into counters_dir (the exchange directory a guest reads; NULL: dir).
 * timed 0: answer at once (tests of the data path).  0 once the socket
 * takes connections, or -1 with the error set and nothing left running. */
int flash_server_start(struct flash_server *s, const char *dir, const char *counters_dir,
		       const struct model_spec *m, int timed);
/* Stop it (SIGTERM, then SIGKILL after 10 s) and drop its record; the
 * files stay for the caller's directory removal. */
void flash_server_stop(struct flash_server *s);

#endif
