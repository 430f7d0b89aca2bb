/*
 * target.h: where a test runs.
 *
 * A target turns what the user named (a directory today; a filesystem to
 * mkfs and mount later) into a directory path, and undoes whatever it did
 * at the end.  Workloads never see targets: the runner hands them a scratch
 * directory `fsbench.XXXXXX` it creates under target->path and removes
 * afterwards, so fsbench never deletes anything it did not create.
 */
#ifndef FSB_TARGET_H
#define FSB_TARGET_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/sysinfo.h"

struct target;

struct target_ops {
	const char *kind;			/* "dir", "fs" */
	int (*setup)(struct target *t);		/* make t->path usable */
	/* Start afresh before another test (mkfs + mount again); optional. */
	int (*refresh)(struct target *t);
	/* Give the medium it shares back (unmount) until its next refresh;
	 * optional, for targets that take turns (shares below). */
	void (*park)(struct target *t);
	void (*teardown)(struct target *t);	/* undo setup; never fails */
};

struct target {
	const struct target_ops *ops;
	char label[64];
	char spec[PATH_MAX];	/* as the user wrote it */
	char path[PATH_MAX];	/* directory the tests work under */
	struct fsinfo info;	/* filled after setup */
	char mkfs[1024];	/* the exact mkfs command line, if fsbench made it */
	/* The medium it takes turns on with the targets of the same value
	 * (one user's device, --device); NULL: a medium of its own. */
	const void *shares;
	void *priv;
};

/* "DIR" or "LABEL=DIR" -> a directory target (not yet set up). */
int target_parse(const char *arg, struct target *t);

/* How provisioned filesystems are made (fs.c). */
struct age_profile;
struct provision_opts {
	uint64_t size;		/* image size, bytes (default 4 GiB) */
	const char *image_dir;	/* where images and mount points live */
	const char *device;	/* in fsbench's guest: the disk or MTD partition it was given */
	/* --device: the user's device, which every --fs target takes turns on
	 * (medium.h); NULL: each target has an image of its own */
	struct medium *medium;
	int force_format;	/* format a device that holds data */
	int direct_io;		/* loop device direct I/O (default on) */
	/* --age: every mkfs is followed by this profile's aging, seeded
	 * alike on every target (NULL: the filesystem is tested fresh) */
	const struct age_profile *age;
	uint64_t age_seed;
	const char *age_repo;	/* a git profile's repository: only read */
	const char *age_keep;	/* --keep-aged DIR: aged images kept there (aged.h) */
	/* aging's share done and seconds to go, about twice a second, and
	 * done = 1 at its end */
	void (*age_progress)(void *arg, const char *label, double done, double eta_s);
	void *age_arg;
};
void provision_defaults(struct provision_opts *o);
/* A filesystem target from --fs SPEC (not yet set up). */
struct fs_spec;
int target_from_spec(const struct fs_spec *spec, const struct provision_opts *o,
		     struct target *t);
void target_free(struct target *t);
/* Whether a --fs target formats a block device (not tmpfs). */
int target_uses_device(const struct target *t);
/* Size the image of a --fs target (not a --device, not tmpfs), raised to
 * what its mkfs accepts: 1 when the target has an image, else 0. */
int target_set_image_size(struct target *t, uint64_t size);
/* A `raw` target's medium (no filesystem: the io workload's jobs run on
 * the device itself) and its bytes into *bytes (may be NULL); NULL for
 * any other target or before setup. */
const char *target_raw_device(const struct target *t, uint64_t *bytes);
/* The disk itself under a raw target's region (the user's device, the
 * guest's disk), for SCSI commands the region's loop device cannot pass;
 * whoever sends them keeps them within target_raw_device's bytes. */
const char *target_raw_disk(const struct target *t);
/* What the user's device it takes turns on is (medium.h), for the system
 * table; NULL: an image or a directory. */
const char *target_medium(const struct target *t);
/* The counters file of the modelled medium it is on (media/counters.h),
 * or NULL: a real medium. */
const char *target_medium_counters(const struct target *t);
/* A --fs target's spec (NULL for a directory target). */
const struct fs_spec *target_fs_spec(const struct target *t);
/* What --age did at the last mkfs (the JSON record, aging/record.h, a
 * string the target owns), or NULL: not aged. */
const char *target_aging(const struct target *t);
/* Its image size in bytes (0 for a directory target). */
uint64_t target_image_size(const struct target *t);
/* Inside fsbench's guest: the virtio disk or MTD device the host made for
 * this target (a string that outlives the target). */
void target_set_device(struct target *t, const char *dev);
/* A flash target's twin partition (/dev/mtdN, in the guest), for a
 * workload that makes its own filesystem there (powercut); NULL none. */
void target_set_flash_twin(struct target *t, const char *mtd);
const char *target_flash_twin(const struct target *t);
/* The volatile buffer of the medium the target's filesystem is made on,
 * bytes (a modelled key's; 0 for any other medium or target). */
uint64_t target_medium_buffer(const struct target *t);
/* Refuse an image size below what the target's mkfs accepts (0 for a
 * directory target or a size that fits). */
int target_check_size(const struct target *t, uint64_t size);
/* A block-device profile's mkfs (its line into line, may be NULL) and
 * mount on a device the caller owns, outside any target: the powercut
 * workload's recorded device and replayed images.  *daemon: the FUSE
 * helper serving the mount (0: a kernel mount), for fs_spec_umount. */
int fs_spec_mkfs(const struct fs_spec *spec, const char *label, const char *dev,
		 const char *workdir, char *line, size_t len);
int fs_spec_mount(const struct fs_spec *spec, const char *label, const char *dev,
		  const char *mnt, pid_t *daemon);
void fs_spec_umount(const char *mnt, pid_t *daemon);
/* Flash on /dev/mtdN (a flash target's partition, or the powercut
 * workload's own, in the guest): erased first with FLASH_ERASE, then for
 * UBIFS UBI attached as ubiN, with FLASH_MKVOL a volume filling it made.
 * dev is what mkfs takes, source what mount does. */
#define FLASH_ERASE 1u
#define FLASH_MKVOL 2u
struct fs_flash {
	int ubi;		/* the UBI device attached, its number + 1; 0 none */
	char dev[32], source[32];
};
int fs_flash_attach(const struct fs_spec *spec, const char *label, const char *mtd, unsigned how,
		    struct fs_flash *fl);
void fs_flash_detach(struct fs_flash *fl);
/* UBI device ubi (its number + 1)'s erase counters: their sum from UBI's
 * debugfs table of every erase block (-1 when it is not there), the
 * highest from sysfs into *max_ec (-1 unknown). */
int64_t fs_ubi_erases(int ubi, int64_t *max_ec);
/* Refuse a device in use or holding data (unless force); `found` says
 * what libblkid saw on it (devcheck.c). */
int device_check(const char *dev, int force, char *found, size_t len);

/* Scratch directories (scratch.c): `fsbench.XXXXXX` under parent, mode
 * 0700, recorded in the state file before it is made and identified
 * (device, inode) once it is, so that cleanup can find it after a kill. */
int scratch_create(const char *parent, char *out, size_t len);
/* Remove a scratch directory this process made, after checking it is
 * still that directory, and its record. */
int scratch_remove(const char *dir);
/* The removal itself: a tree named fsbench.*, never following symlinks
 * or crossing into another filesystem. */
int scratch_remove_tree(const char *dir);
/* Free bytes for unprivileged writers under path. */
int free_space(const char *path, uint64_t *bytes);

#endif
