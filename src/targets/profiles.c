/* profiles.c: the provisioning table and --fs SPEC parsing (see profiles.h). */
#include "profiles.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define F2FS_MKFS "mkfs.f2fs -q -f -O extra_attr,inode_checksum,sb_checksum,compression"
#define F2FS_OPTS(algo) "compress_algorithm=" algo ",compress_extension=*,compress_chksum,atgc,gc_merge,lazytime"

static const struct fs_profile table[] = {
	{ "ext2", "ext2", "mkfs.ext2 -q -F", MOUNT_KERNEL, NULL, "", "e2fsprogs", NULL },
	{ "ext4", "ext4", "mkfs.ext4 -q -F", MOUNT_KERNEL, NULL, "", "e2fsprogs", NULL },
	{ "xfs", "xfs", "mkfs.xfs -q -f", MOUNT_KERNEL, NULL, "", "xfsprogs", NULL },
	{ "btrfs", "btrfs", "mkfs.btrfs -q -f", MOUNT_KERNEL, NULL, "", "btrfs-progs", NULL },
	{ "btrfs-lzo", "btrfs", "mkfs.btrfs -q -f", MOUNT_KERNEL, NULL, "compress=lzo", "btrfs-progs", NULL },
	{ "btrfs-zstd", "btrfs", "mkfs.btrfs -q -f", MOUNT_KERNEL, NULL, "compress=zstd", "btrfs-progs", NULL },
	{ "exfat", "exfat", "mkfs.exfat", MOUNT_KERNEL, NULL, "", "exfatprogs", NULL },
	{ "exfat-fuse", NULL, "mkfs.exfat", MOUNT_FUSE_BLOCK, "mount.exfat-fuse", "", "exfat-fuse", NULL },
	{ "ext4-fuse", NULL, "mkfs.ext4 -q -F", MOUNT_FUSE_IMAGE, "fuse2fs", "", "fuse2fs", NULL },
	{ "f2fs", "f2fs", "mkfs.f2fs -q -f", MOUNT_KERNEL, NULL, "", "f2fs-tools", NULL },
	{ "f2fs-lz4", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("lz4"), "f2fs-tools", NULL },
	{ "f2fs-lzo-rle", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("lzo-rle"), "f2fs-tools", NULL },
	{ "f2fs-zstd", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("zstd"), "f2fs-tools", NULL },
	{ "nilfs2", "nilfs2", "mkfs.nilfs2 -q -f", MOUNT_KERNEL, NULL, "", "nilfs-tools", NULL },
	{ "vfat", "vfat", "mkfs.vfat", MOUNT_KERNEL, NULL, "", "dosfstools", NULL },
	{ "tmpfs", "tmpfs", NULL, MOUNT_MEMORY, NULL, "", NULL, NULL },
	{ "ubifs", NULL, NULL, MOUNT_NONE, NULL, "", "mtd-utils",
	  "needs an MTD flash device (UBI); a loop device cannot provide one" },
	{ "jffs2", NULL, NULL, MOUNT_NONE, NULL, "", "mtd-utils",
	  "needs an MTD flash device; a loop device cannot provide one" },
};

const struct fs_profile *fs_profiles(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const struct fs_profile *fs_profile_find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

static int kernel_has(const char *fstype)
{
	char line[256];
	FILE *f = fopen("/proc/filesystems", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, '\t');
		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		found = !strcmp(name, fstype);
	}
	fclose(f);
	return found;
}

int fs_profile_available(const struct fs_profile *p, char *why, size_t len)
{
	char path[4096], prog[128];

	if (p->kind == MOUNT_NONE) {
		snprintf(why, len, "%s", p->note);
		return -1;
	}
	if (p->mkfs) {
		str_copy(prog, sizeof(prog), p->mkfs);
		prog[strcspn(prog, " ")] = '\0';
		if (find_program(prog, path, sizeof(path))) {
			snprintf(why, len, "%s missing: install %s", prog, p->package);
			return -1;
		}
	}
	if (p->helper && find_program(p->helper, path, sizeof(path))) {
		snprintf(why, len, "%s missing: install %s", p->helper, p->package);
		return -1;
	}
	if (p->helper && access("/dev/fuse", R_OK | W_OK)) {
		snprintf(why, len, "no usable /dev/fuse");
		return -1;
	}
	if (p->fstype && !kernel_has(p->fstype)) {
		snprintf(why, len, "kernel has no %s", p->fstype);
		return -1;
	}
	if (p->kind != MOUNT_MEMORY && p->kind != MOUNT_FUSE_IMAGE &&
	    access("/dev/loop-control", R_OK | W_OK)) {
		snprintf(why, len, "no loop devices (/dev/loop-control)");
		return -1;
	}
	return 0;
}

static void append_opt(char *opts, size_t len, const char *add)
{
	if (!*add)
		return;
	if (*opts)
		strncat(opts, ",", len - strlen(opts) - 1);
	strncat(opts, add, len - strlen(opts) - 1);
}

int fs_spec_parse(const char *text, struct fs_spec *spec)
{
	char copy[512], *colon, *save = NULL;

	memset(spec, 0, sizeof(*spec));
	if (strlen(text) >= sizeof(copy))
		return error_set("--fs '%s': too long", text);
	str_copy(spec->text, sizeof(spec->text), text);
	str_copy(copy, sizeof(copy), text);
	colon = strchr(copy, ':');
	if (colon)
		*colon = '\0';
	spec->profile = fs_profile_find(copy);
	if (!spec->profile)
		return error_set("--fs '%s': unknown filesystem '%s' (see `fsbench list fs`)", text, copy);
	str_copy(spec->options, sizeof(spec->options), spec->profile->options);
	str_copy(spec->label, sizeof(spec->label), text);
	if (!colon)
		return 0;
	/* mkfs=..., mount=..., label=...; other words are mount options. */
	const char *last = "mount";
	for (char *w = strtok_r(colon + 1, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (!strncmp(w, "mkfs=", 5)) {
			str_copy(spec->mkfs_extra, sizeof(spec->mkfs_extra), w + 5);
			last = "mkfs";
		} else if (!strncmp(w, "mount=", 6)) {
			append_opt(spec->options, sizeof(spec->options), w + 6);
			last = "mount";
		} else if (!strncmp(w, "label=", 6)) {
			if (!w[6] || strlen(w + 6) >= sizeof(spec->label) || strchr(w + 6, '='))
				return error_set("--fs '%s': bad label '%s'", text, w + 6);
			str_copy(spec->label, sizeof(spec->label), w + 6);
		} else if (!strcmp(last, "mkfs") && !strchr(w, '=')) {
			/* "mkfs=-O ^has_journal,^metadata_csum": a list inside mkfs */
			strncat(spec->mkfs_extra, ",", sizeof(spec->mkfs_extra) - strlen(spec->mkfs_extra) - 1);
			strncat(spec->mkfs_extra, w, sizeof(spec->mkfs_extra) - strlen(spec->mkfs_extra) - 1);
		} else {
			append_opt(spec->options, sizeof(spec->options), w);
			last = "mount";
		}
	}
	return 0;
}

int fs_spec_split(const char *list, struct fs_spec *specs, int max, int *n)
{
	char copy[2048], cur[512] = "", *save = NULL;

	str_copy(copy, sizeof(copy), list);
	for (char *w = strtok_r(copy, ",", &save);; w = strtok_r(NULL, ",", &save)) {
		char head[64];
		if (w) {
			str_copy(head, sizeof(head), w);
			head[strcspn(head, ":")] = '\0';
		}
		if (!w || fs_profile_find(head)) {
			if (cur[0]) {
				if (*n >= max)
					return error_set("--fs: at most %d filesystems", max);
				if (fs_spec_parse(cur, &specs[*n]))
					return -1;
				(*n)++;
			}
			if (!w)
				return 0;
			str_copy(cur, sizeof(cur), w);
		} else if (!cur[0]) {
			return error_set("--fs '%s': unknown filesystem '%s' (see `fsbench list fs`)", list, head);
		} else {
			strncat(cur, ",", sizeof(cur) - strlen(cur) - 1);
			strncat(cur, w, sizeof(cur) - strlen(cur) - 1);
		}
	}
}
