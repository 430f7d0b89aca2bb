/*
 * freesp.c: how fragmented an aged filesystem's free space is, where the
 * filesystem says (ager.h's age_free_space).  Geriatrix (Kadekodi et al.,
 * ATC'18) ages to a target free-space fragmentation: the count of free
 * extents and their mean size are what it steers by.
 *
 * Each filesystem's own tool reads it from the mounted filesystem, exec'd
 * with argv: e2freefrag (e2fsprogs) reads ext2/3/4's block bitmaps from
 * the device, `xfs_spaceman -c "freesp -s"` asks XFS through its mount.
 * Other filesystems (btrfs, tmpfs, FUSE ones) expose no such count: 0
 * extents, said as not known.
 */
#define _GNU_SOURCE
#include "ager.h"
#include "../core/exec.h"
#include "../core/sysinfo.h"

#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#ifndef XFS_SUPER_MAGIC
#define XFS_SUPER_MAGIC 0x58465342
#endif

/* The number after `key` on a line of out, or -1. */
static double after(const char *out, const char *key)
{
	const char *p = strstr(out, key);

	return p ? strtod(p + strlen(key), NULL) : -1;
}

void age_free_space(const char *mnt, struct age_result *r)
{
	struct statfs sf;
	char out[8192];

	r->free_extents = 0;
	r->free_extent_bytes = 0;
	if (statfs(mnt, &sf))
		return;
	if (sf.f_type == EXT4_SUPER_MAGIC) {	/* ext2, ext3 and ext4 alike */
		struct fsinfo fi;
		unsigned maj, min;
		memset(&fi, 0, sizeof(fi));
		if (mountinfo_lookup("/proc/self/mountinfo", mnt, &fi, &maj, &min) ||
		    strncmp(fi.mount_source, "/dev/", 5))
			return;
		char *argv[] = { "e2freefrag", fi.mount_source, NULL };
		if (exec_capture(argv, out, sizeof(out)))
			return;
		double n = after(out, "Num. free extent:"), kb = after(out, "Avg. free extent:");
		if (n > 0 && kb > 0) {
			r->free_extents = (uint64_t)n;
			r->free_extent_bytes = kb * 1024;
		}
	} else if (sf.f_type == XFS_SUPER_MAGIC) {
		char *argv[] = { "xfs_spaceman", "-c", "freesp -s", (char *)mnt, NULL };
		if (exec_capture(argv, out, sizeof(out)))
			return;
		double n = after(out, "total free extents"), blocks = after(out, "average free extent size");
		if (n > 0 && blocks > 0) {
			r->free_extents = (uint64_t)n;
			r->free_extent_bytes = blocks * (double)sf.f_bsize;
		}
	}
}
