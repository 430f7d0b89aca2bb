/*
 * sysinfo.h: the system table of seed 000 (Processor, Motherboard, Memory,
 * OS, Kernel, Compiler) and, per target, what a result depends on: file
 * system type, mount options, the disk under it and its I/O scheduler.
 *
 * Every reader takes a `root` prefix ("" on a live system) so the parsers
 * run in tests on fixture copies of /proc, /sys and /etc.
 */
#ifndef FSB_SYSINFO_H
#define FSB_SYSINFO_H

#include <limits.h>

struct sysinfo {
	char processor[256];
	char motherboard[256];
	char memory[256];
	char os[256];
	char kernel[160];
	char compiler[128];
};

struct fsinfo {
	char fstype[64];	/* "ext4", "tmpfs", "ext4 (FUSE)", "fuseblk" */
	char mount_point[PATH_MAX];
	char mount_source[256];
	char mount_opts[512];	/* per-mount options, then superblock options */
	char disk[256];		/* "86GB QEMU HARDDISK (vda)"; "none" for tmpfs */
	char scheduler[64];	/* "mq-deadline"; "n/a" without a block device */
	char blockdev[64];	/* the node under the mount in /sys/class/block:
				 * "loop3", "vda1"; "" when there is none */
};

/* A system-table field as (name, value), for storage and rendering. */
struct sysfield {
	const char *name;
	const char *value;
};

void sysinfo_collect(const char *root, struct sysinfo *si);
/* Fill fields[] (at least 6) from si; returns the number of fields. */
int sysinfo_fields(const struct sysinfo *si, struct sysfield *fields);

/* Describe the file system holding `path`.  `root` prefixes /proc and /sys
 * reads; statfs is only consulted when root is "". */
int fsinfo_collect(const char *root, const char *path, struct fsinfo *fi);
/* The same for a device with no filesystem (a raw target's medium): the
 * disk (or the MTD partition) it is.  0, or -1 when it is neither. */
int fsinfo_device(const char *dev, struct fsinfo *fi);

/* Pieces exposed for tests. */
const char *fs_magic_name(unsigned long magic);
void memory_from_dmidecode(const char *text, char *out, unsigned len);
int mountinfo_lookup(const char *mountinfo_file, const char *path,
		     struct fsinfo *fi, unsigned *major, unsigned *minor);

#endif
