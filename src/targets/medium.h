/*
 * medium.h: what a filesystem target is made on (issue 70).  One concept
 * for the three things fsbench formats:
 *   - an image: a file fsbench makes in the target's own directory, on a
 *     loop device of its own (a FUSE image filesystem takes the file);
 *     one target's, made and removed with it;
 *   - a user's block device (`--device DEV`), which every filesystem
 *     target of the run takes turns on: checked once (devcheck.c: not
 *     mounted, not held, no signature unless --force-format), then its
 *     region -- the first SIZE bytes, 4 MiB aligned -- is a loop device
 *     over it, opened exclusively, for the whole run: nothing outside the
 *     region can be written, no other program can mount or format the
 *     device meanwhile, and `fsbench cleanup` detaches it after a kill
 *     (it is in the state file);
 *   - a disk fsbench's host made for its guest (a virtio disk per target),
 *     checked like a device and used whole.
 * A target attaches its medium, gets the device mkfs and mount see, resets
 * it before each mkfs (the same for every filesystem on a shared device:
 * discard, zero, or nothing), settles after each mount (written back,
 * then idle a moment) and detaches it at the end.
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

/* The user's device dev (nothing touched yet): its region size bytes
 * (rounded up to MEDIUM_ALIGN; 0: the whole device), reset before each
 * mkfs, settle seconds of idle after each mount. */
struct medium *medium_new(const char *dev, uint64_t size, enum medium_reset reset,
			  double settle, int force);
/* An image of size bytes at dir/fs.img (dir: the target's own scratch
 * directory), on a loop device unless loop is 0; label names the target
 * in errors.  Made at attach. */
struct medium *medium_new_image(const char *label, const char *dir, uint64_t size,
				int direct_io, int loop);
/* A disk the host made for this guest target: checked, then used whole. */
struct medium *medium_new_disk(const char *dev, int force);
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
/* What mkfs and mount see ("" until attached): the region's or the
 * image's loop device, a FUSE image's file, a guest's disk. */
const char *medium_dev(const struct medium *m);
/* The device itself under the region ("" until attached): the user's
 * device, the guest's disk, an image's loop device.  Only for commands
 * below the block layer (SCSI through SG_IO), which the region's loop
 * device cannot pass: their caller keeps them inside medium_bytes. */
const char *medium_whole(const struct medium *m);
/* Whether medium_dev is a loop device fsbench made (the kernel may hold
 * it a moment after an unmount). */
int medium_on_loop(const struct medium *m);
/* The bytes a filesystem is made in: the image's, the region's, the
 * disk's (0: it does not say). */
uint64_t medium_bytes(const struct medium *m);
/* An image on a loop device: the file (--keep-aged copies aged images in
 * and out of it); NULL for any other medium. */
const char *medium_image(const struct medium *m);
/* After the image was written under its loop device: the device's cached
 * blocks dropped.  0, or -1 with errno. */
int medium_drop_cache(struct medium *m);
/* Before a mkfs: a shared device's region reset as asked (nothing for an
 * image or a guest's disk, made fresh by the mkfs).  0, or -1. */
int medium_reset(struct medium *m);
/* After a mount at mnt: dirty data written back, then the idle time (mnt
 * NULL: a raw target, no filesystem to write back). */
void medium_settle(struct medium *m, const char *mnt);
/* What a user's device is, for the system table: its identity (vendor,
 * model, transport and link, sizes, discard, write cache, scheduler), the
 * region and the reset as done ("" before attach, and for an image or a
 * guest's disk, which the system table's Disk line describes). */
const char *medium_text(const struct medium *m);

/* The device as named, its region's bytes (once held), its identity. */
const char *medium_path(const struct medium *m);
uint64_t medium_region(const struct medium *m);
const char *medium_identity(const struct medium *m);
/* In the guest: the disk the host made of the user's device, what the
 * host said that device is (NULL: identify dev itself), and where a
 * modelled medium's counters are (media/counters.h; NULL or "": none). */
void medium_set_device(struct medium *m, const char *dev, const char *identity,
		       const char *counters);
/* In the guest: the bytes a modelled key holds in a volatile buffer that
 * flushes do not empty (what its power cut loses); 0 for any other. */
void medium_set_buffer(struct medium *m, uint64_t bytes);
uint64_t medium_buffer(const struct medium *m);
/* A model on this host: the file under its loop device, whose holes are
 * the model's TRIM; the region's discard punches it. */
void medium_set_discard_file(struct medium *m, const char *path);
/* A modelled medium's counters file, "" for a real one. */
const char *medium_counters(const struct medium *m);

/* dev's identity from sysfs, in words, into text (any block device). */
void medium_identify(const char *dev, char *text, size_t len);

#endif
