/*
 * aged.h: --age on a filesystem fsbench made (issue 42).  After each mkfs
 * and mount, the profile's seeded sequence runs in a directory of
 * fsbench's own on it (MNT/fsbench-aged), beside the scratch directories
 * the tests work in, which therefore start empty on a filesystem that is
 * full, fragmented and a year old.  Then what it left is measured.
 */
#ifndef FSB_TARGET_AGED_H
#define FSB_TARGET_AGED_H

#include "target.h"

#define AGED_DIR "fsbench-aged"

/* A filesystem that needs its cleaner to give deleted space back
 * (cleaner.h): the program, the device it is on, a scratch directory of
 * fsbench's for the cleaner's configuration. */
struct age_gc {
	const char *program, *dev, *workdir;
};
/* Age the filesystem mounted at mnt (capacity: its nominal bytes, the same
 * for every target of a comparison) by o->age, with its cleaner running
 * when gc names one, and set *record to what it did (malloc'd JSON,
 * aging/record.h).  0, or -1 with the error set. */
int target_age(const char *label, const char *mnt, uint64_t capacity,
	       const struct provision_opts *o, const struct age_gc *gc, char **record);

/* --keep-aged DIR: an aged image kept for later runs and for this run's
 * refreshes, so that aging is paid once.  Its name carries a key of what
 * made it (the --fs spec, the image size, the profile's every figure, the
 * seed, a git profile's repository): a kept image is reused only for the
 * same aging.  Beside it, NAME.json: the key, the mkfs line and the
 * aging's record. */
struct aged_keep {
	char img[PATH_MAX], meta[PATH_MAX];
	char key[17];
};
/* The paths and key for a filesystem of spec (its text, profile name) and
 * image size aged by o (o->age_keep set).  0, or -1 with the error set. */
int aged_keep_name(const char *fsname, const char *spec, uint64_t size,
		   const struct provision_opts *o, struct aged_keep *k);
/* Whether k is kept: 1 with *record (malloc'd, marked reused) and mkfs set,
 * 0 when nothing of that name is there, -1 (error set) when something is
 * but it is not an image fsbench kept for this key and size. */
int aged_keep_find(const struct aged_keep *k, uint64_t size, char **record, char *mkfs,
		   size_t mkfs_len);
/* Copy the kept image over image (fsbench's own, the same size). */
int aged_keep_restore(const struct aged_keep *k, const char *image);
/* An exclusive lock on k's directory, waited for (saying so once) while
 * another run holds it: held from the lookup of a kept image to its save,
 * so two runs sharing the directory never write the same name (the second
 * finds the first's image) and a .partial found there is a dead run's.
 * The descriptor to close, or -1 with the error set (stopped too). */
int aged_keep_lock(const struct aged_keep *k);
/* Keep image (unmounted) as k, with the record and mkfs line: written
 * under a temporary name made with O_EXCL and renamed into place, never
 * over a file that is there; the temporary ones recorded in the state
 * file before they are made (STATE_FILE), and a dead run's leftover of
 * that name replaced (the caller holds aged_keep_lock). */
int aged_keep_save(const struct aged_keep *k, const char *image, const char *record,
		   const char *mkfs);

#endif
