/*
 * medium.h: a user's block device (`--device DEV`) as the medium that
 * filesystem targets take turns on (issue 70).
 *
 * The device is checked once (devcheck.c: not mounted, not held, no
 * signature unless --force-format), then its region -- the first SIZE
 * bytes, 4 MiB aligned -- is a loop device over it, opened exclusively,
 * for the whole run: nothing outside the region can be written, no other
 * program can mount or format the device meanwhile, and `fsbench cleanup`
 * detaches it after a kill (it is in the state file).  Before each mkfs
 * the region is reset the same way for every filesystem (discard, zero, or
 * nothing); after each mount, written back and left idle a moment.
 */
#ifndef FSB_MEDIUM_H
#define FSB_MEDIUM_H

#include <stddef.h>
#include <stdint.h>

enum medium_reset {
	MEDIUM_RESET_DISCARD,	/* BLKDISCARD of the region (said when refused) */
	MEDIUM_RESET_ZERO,	/* BLKZEROOUT of the region */
	MEDIUM_RESET_NONE,
};

#define MEDIUM_ALIGN (4ULL << 20)	/* a typical flash allocation unit */

struct medium;

/* A medium over dev (nothing touched yet): its region size bytes
 * (rounded up to MEDIUM_ALIGN; 0: the whole device), reset before each
 * mkfs, settle seconds of idle after each mount. */
struct medium *medium_new(const char *dev, uint64_t size, enum medium_reset reset,
			  double settle, int force);
void medium_free(struct medium *m);
/* The region from what the tests need (no --device-size): the whole
 * device, in 4 MiB units, when it is smaller. */
void medium_set_region(struct medium *m, uint64_t size);
/* "discard", "zero", "none" -> *out; 0 or -1 (error set). */
int medium_reset_parse(const char *text, enum medium_reset *out);

/* A target starts using it: the first checks the device and attaches the
 * region; the others count.  0, or -1 with the error set. */
int medium_attach(struct medium *m);
/* The same without the loop device: checked, held exclusively and sized,
 * for a guest that gets the region as its disk (--vm --device). */
int medium_hold(struct medium *m);
/* A target is done with it; the last detaches the region. */
void medium_detach(struct medium *m);
/* The region's loop device, what mkfs and mount see ("" until attached). */
const char *medium_dev(const struct medium *m);
/* Before a mkfs: the region reset as asked.  0, or -1. */
int medium_reset(struct medium *m);
/* After a mount at mnt: dirty data written back, then the idle time. */
void medium_settle(struct medium *m, const char *mnt);
/* What the medium is, for the system table: the device's identity (vendor,
 * model, transport and link, sizes, discard, write cache, scheduler), the
 * region and the reset as done ("" before attach). */
const char *medium_text(const struct medium *m);

/* The device as named, its region's bytes (once held), its identity. */
const char *medium_path(const struct medium *m);
uint64_t medium_region(const struct medium *m);
const char *medium_identity(const struct medium *m);
/* In the guest: the disk the host made of the user's device, and what the
 * host said that device is (NULL: identify dev itself). */
void medium_set_device(struct medium *m, const char *dev, const char *identity);

/* dev's identity from sysfs, in words, into text (any block device). */
void medium_identify(const char *dev, char *text, size_t len);

#endif
