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

/* Age the filesystem mounted at mnt (capacity: its nominal bytes, the same
 * for every target of a comparison) by o->age, and set *record to what it
 * did (malloc'd JSON, aging/record.h).  0, or -1 with the error set. */
int target_age(const char *label, const char *mnt, uint64_t capacity,
	       const struct provision_opts *o, char **record);

#endif
