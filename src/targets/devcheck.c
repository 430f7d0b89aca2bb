/*
 * devcheck.c: safety checks before formatting a user's block device
 * (`--device /dev/X`).  fio users keep wiping disks by pasting commands;
 * fsbench refuses a device that is mounted, held by another device (LVM,
 * RAID, dm-crypt), used as swap, or that carries a filesystem or
 * partition table signature (libblkid), unless --force-format.  Being in
 * use is never overridable.
 */
#define _GNU_SOURCE
#include "target.h"
#include "../core/error.h"

#include <blkid/blkid.h>
#include <libmount/libmount.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Device numbers of dev and its partitions; returns how many. */
static int device_numbers(dev_t rdev, dev_t *out, int max)
{
	char dir[256];
	DIR *d;
	struct dirent *de;
	int n = 0;

	out[n++] = rdev;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	d = opendir(dir);
	if (!d)
		return n;
	while ((de = readdir(d)) && n < max) {
		char p[600], num[32];
		unsigned ma, mi;
		snprintf(p, sizeof(p), "%s/%s/dev", dir, de->d_name);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(num, sizeof(num), f) && sscanf(num, "%u:%u", &ma, &mi) == 2)
			out[n++] = makedev(ma, mi);
		fclose(f);
	}
	closedir(d);
	return n;
}

static int has_holders(dev_t d)
{
	char p[256];
	DIR *dir;
	struct dirent *de;
	int held = 0;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/holders", major(d), minor(d));
	dir = opendir(p);
	if (!dir)
		return 0;
	while ((de = readdir(dir)))
		held |= de->d_name[0] != '.';
	closedir(dir);
	return held;
}

/* Is dev or one of its partitions mounted?  libmount reads mountinfo. */
static int mounted_from(const dev_t *devs, int n, char *where, size_t len)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_fs *fs = NULL;

	if (tb && !mnt_table_parse_file(tb, "/proc/self/mountinfo"))
		for (int i = 0; i < n && !fs; i++)
			fs = mnt_table_find_devno(tb, devs[i], MNT_ITER_FORWARD);
	if (fs)
		snprintf(where, len, "%s", mnt_fs_get_target(fs));
	mnt_unref_table(tb);
	return fs != NULL;
}

static int used_as_swap(const char *dev)
{
	char line[512];
	FILE *f = fopen("/proc/swaps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, dev, strlen(dev)) && line[strlen(dev)] == ' ';
	fclose(f);
	return found;
}

/* What is on the device, in words, or "" when libblkid finds nothing. */
static int probe(const char *dev, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	const char *type = NULL, *label = NULL, *uuid = NULL, *pttype = NULL;
	int rc;

	what[0] = '\0';
	if (!pr)
		return error_errno("cannot probe %s", dev);
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_UUID);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		snprintf(what, len, "several conflicting signatures");
	} else if (rc == 0) {
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		if (pttype)
			snprintf(what, len, "a %s partition table", pttype);
		else if (type)
			snprintf(what, len, "a %s filesystem%s%s%s%s%s", type,
				 label ? " labelled '" : "", label ? label : "", label ? "'" : "",
				 uuid ? " UUID " : "", uuid ? uuid : "");
	}
	blkid_free_probe(pr);
	return rc == -1 ? error_set("cannot probe %s", dev) : 0;
}

int device_check(const char *dev, int force, char *found, size_t len)
{
	struct stat st;
	dev_t devs[128];
	char where[4096];
	int n;

	found[0] = '\0';
	if (stat(dev, &st))
		return error_errno("--device %s", dev);
	if (!S_ISBLK(st.st_mode))
		return error_set("--device %s is not a block device", dev);
	n = device_numbers(st.st_rdev, devs, 128);
	if (mounted_from(devs, n, where, sizeof(where)))
		return error_set("--device %s is mounted on %s: unmount it first (fsbench never formats a device in use)",
				 dev, where);
	for (int i = 0; i < n; i++)
		if (has_holders(devs[i]))
			return error_set("--device %s is in use by another device (LVM, RAID or dm-crypt): release it first",
					 dev);
	if (used_as_swap(dev))
		return error_set("--device %s is used as swap: swapoff it first", dev);
	if (probe(dev, found, len))
		return -1;
	if (found[0] && !force)
		return error_set("--device %s holds %s, which formatting would destroy: add --force-format to format it anyway",
				 dev, found);
	return 0;
}
