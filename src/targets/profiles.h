/*
 * profiles.h: the filesystems fsbench can provision, as data.
 *
 * One table row per profile: how to make it (mkfs program and default
 * arguments), how to mount it (kernel type, or a FUSE helper), default
 * mount options, the Debian package with its tools, and what this machine
 * needs to offer for it.  A user's `--fs SPEC` picks a profile and may add
 * mkfs arguments, mount options and a label:
 *
 *   ext4   btrfs:compress=zstd   ext4:mkfs=-O ^has_journal,mount=noatime,label=nojournal
 */
#ifndef FSB_PROFILES_H
#define FSB_PROFILES_H

#include <stddef.h>
#include <stdint.h>

enum mount_kind {
	MOUNT_KERNEL,		/* mount(2) through libmount on a loop device */
	MOUNT_FUSE_BLOCK,	/* FUSE helper that needs a block device */
	MOUNT_FUSE_IMAGE,	/* FUSE helper that opens the image file itself */
	MOUNT_MEMORY,		/* tmpfs: no backing store */
	MOUNT_UBI,		/* UBIFS on a UBI volume on simulated NAND (--vm) */
	MOUNT_MTD,		/* JFFS2 straight on simulated NAND (--vm) */
	MOUNT_RAW,		/* no filesystem: a workload drives the block medium itself */
	MOUNT_RAW_MTD,		/* no filesystem: simulated NAND's MTD device itself (--vm) */
	MOUNT_NONE,		/* cannot be provisioned here at all */
};

/* On simulated NAND, which only fsbench's guest has (nandsim). */
static inline int fs_kind_flash(enum mount_kind k)
{
	return k == MOUNT_UBI || k == MOUNT_MTD || k == MOUNT_RAW_MTD;
}

/* No filesystem: the test's workload gets the medium itself (the io
 * workload's jobs on the device: ioengine=sg, mtd, psync...). */
static inline int fs_kind_raw(enum mount_kind k)
{
	return k == MOUNT_RAW || k == MOUNT_RAW_MTD;
}

struct fs_profile {
	const char *name;
	const char *fstype;	/* kernel type (/proc/filesystems), or NULL */
	const char *mkfs;	/* program + default arguments; NULL = none */
	enum mount_kind kind;
	const char *helper;	/* FUSE helper program */
	const char *options;	/* default mount options */
	const char *package;	/* Debian package providing the tools */
	const char *note;	/* MOUNT_NONE: why not */
	uint64_t min_size;	/* the smallest image its mkfs accepts (0: any) */
	/* its garbage collector, run while fsbench ages it (NULL: none;
	 * cleaner.h): a log that gives deleted space back only through it */
	const char *cleaner;
};

struct fs_spec {
	const struct fs_profile *profile;
	char label[64];
	char mkfs_extra[256];	/* appended to the profile's mkfs arguments */
	char options[512];	/* profile defaults plus the user's, comma-joined */
	char text[512];		/* the spec as written */
	/* Flash profiles: nandsim's geometry and timing, "size=256M,..." */
	char nand[256];
};

const struct fs_profile *fs_profile_find(const char *name);
const struct fs_profile *fs_profiles(size_t *n);
/* 0 if the tools p needs (mkfs, FUSE helper, mtd-utils) are installed;
 * else -1 and which is missing in why. */
int fs_profile_tools(const struct fs_profile *p, char *why, size_t len);
/* 0 if this machine can provision p; else -1 and why in buf. */
int fs_profile_available(const struct fs_profile *p, char *why, size_t len);

/* Parse one SPEC.  mkfs= words may not name a path (no '/', no leading
 * '.'), since mkfs would take one for another device to format; mount
 * options that would change what is mounted or where are refused. */
int fs_spec_parse(const char *text, struct fs_spec *spec);
/* Split "ext4,xfs,btrfs:compress=zstd" into specs: a word naming a
 * profile starts a new spec; anything else belongs to the one before. */
int fs_spec_split(const char *list, struct fs_spec *specs, int max, int *n);

#endif
