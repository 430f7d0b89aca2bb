/* profiles.c: the provisioning table and --fs SPEC parsing (see profiles.h). */
#include "profiles.h"
#include "../core/suggest.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define F2FS_MKFS "mkfs.f2fs -q -f -t 0 -O extra_attr,inode_checksum,sb_checksum,compression"
#define F2FS_OPTS(algo) "compress_algorithm=" algo ",compress_extension=*,compress_chksum,atgc,gc_merge,lazytime"

/* Every mkfs is told not to discard (-E nodiscard, -K, -t 0): the tools'
 * defaults differ (mkfs.xfs, mkfs.btrfs, mkfs.f2fs and mke2fs discard,
 * exfatprogs before 1.3.2 and mkfs.vfat do not), and a filesystem that
 * discarded its device would start from another state than one that did
 * not.  The reset before each mkfs is fsbench's own, the same for all
 * (--device-reset, medium.c); an image is written whole once. */
static const struct fs_profile table[] = {
	{ "ext2", "ext2", "mkfs.ext2 -q -F -E nodiscard", MOUNT_KERNEL, NULL, "", "e2fsprogs", NULL },
	/* Inode tables and journal zeroed by mkfs, not later by the kernel's
	 * ext4lazyinit thread, which otherwise writes in the background
	 * during the first repetitions on a fresh filesystem. */
	{ "ext4", "ext4", "mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard", MOUNT_KERNEL,
	  NULL, "", "e2fsprogs", NULL },
	{ "xfs", "xfs", "mkfs.xfs -q -f -K", MOUNT_KERNEL, NULL, "", "xfsprogs", NULL, 300ULL << 20 },
	{ "btrfs", "btrfs", "mkfs.btrfs -q -f -K", MOUNT_KERNEL, NULL, "", "btrfs-progs", NULL, 109ULL << 20 },
	{ "btrfs-lzo", "btrfs", "mkfs.btrfs -q -f -K", MOUNT_KERNEL, NULL, "compress=lzo", "btrfs-progs", NULL, 109ULL << 20 },
	{ "btrfs-zstd", "btrfs", "mkfs.btrfs -q -f -K", MOUNT_KERNEL, NULL, "compress=zstd", "btrfs-progs", NULL, 109ULL << 20 },
	{ "exfat", "exfat", "mkfs.exfat", MOUNT_KERNEL, NULL, "", "exfatprogs", NULL },
	{ "exfat-fuse", NULL, "mkfs.exfat", MOUNT_FUSE_BLOCK, "mount.exfat-fuse", "", "exfat-fuse", NULL },
	{ "ext4-fuse", NULL, "mkfs.ext4 -q -F -E nodiscard", MOUNT_FUSE_IMAGE, "fuse2fs", "", "fuse2fs", NULL },
	{ "f2fs", "f2fs", "mkfs.f2fs -q -f -t 0", MOUNT_KERNEL, NULL, "", "f2fs-tools", NULL, 56ULL << 20 },
	{ "f2fs-lz4", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("lz4"), "f2fs-tools", NULL, 56ULL << 20 },
	{ "f2fs-lzo-rle", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("lzo-rle"), "f2fs-tools", NULL, 56ULL << 20 },
	{ "f2fs-zstd", "f2fs", F2FS_MKFS, MOUNT_KERNEL, NULL, F2FS_OPTS("zstd"), "f2fs-tools", NULL, 56ULL << 20 },
	{ "nilfs2", "nilfs2", "mkfs.nilfs2 -q -f -K", MOUNT_KERNEL, NULL, "", "nilfs-tools", NULL, 136ULL << 20,
	  "nilfs_cleanerd" },
	{ "vfat", "vfat", "mkfs.vfat", MOUNT_KERNEL, NULL, "", "dosfstools", NULL },
	{ "tmpfs", "tmpfs", NULL, MOUNT_MEMORY, NULL, "", NULL, NULL },
	/* Flash: simulated NAND (nandsim) inside a virtual machine, --vm. */
	{ "ubifs", "ubifs", "mkfs.ubifs -y", MOUNT_UBI, NULL, "", "mtd-utils",
	  "needs MTD flash: use --vm (nandsim)" },
	{ "jffs2", "jffs2", "flash_erase -j -q", MOUNT_MTD, NULL, "", "mtd-utils",
	  "needs MTD flash: use --vm (nandsim)" },
	/* No filesystem: the medium itself, for the io workload's jobs on
	 * the device (fio's ioengine=sg on a SCSI disk, mtd on raw NAND).
	 * raw-mtd's "mkfs" erases the partition: each test starts on an
	 * erased chip. */
	{ "raw", NULL, NULL, MOUNT_RAW, NULL, "", NULL, NULL },
	{ "raw-mtd", NULL, "flash_erase -q", MOUNT_RAW_MTD, NULL, "", "mtd-utils",
	  "needs MTD flash: use --vm (nandsim)" },
	{ "reiser4", NULL, NULL, MOUNT_NONE, NULL, "", NULL,
	  "not in mainline Linux (needs a patched kernel)" },
	{ "logfs", NULL, NULL, MOUNT_NONE, NULL, "", NULL,
	  "removed from Linux in 4.10 (2017)" },
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

int fs_profile_tools(const struct fs_profile *p, char *why, size_t len)
{
	char path[4096], prog[128];

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
	if (p->kind == MOUNT_UBI && find_program("ubiattach", path, sizeof(path))) {
		snprintf(why, len, "ubiattach missing: install mtd-utils");
		return -1;
	}
	return 0;
}

/* Inside fsbench's own guest (vm/vm.h): simulated flash is there, and
 * every filesystem gets a disk of its own instead of a loop device. */
static int in_guest(void)
{
	const char *job = getenv("FSBENCH_VM_GUEST");
	return job && *job;
}

int fs_profile_available(const struct fs_profile *p, char *why, size_t len)
{
	if (p->kind == MOUNT_NONE) {
		snprintf(why, len, "%s", p->note);
		return -1;
	}
	/* Flash targets exist only where fsbench loads nandsim: in its guests. */
	if (fs_kind_flash(p->kind) && !in_guest()) {
		snprintf(why, len, "%s", p->note);
		return -1;
	}
	if (fs_profile_tools(p, why, len))
		return -1;
	if (p->helper && access("/dev/fuse", R_OK | W_OK)) {
		snprintf(why, len, "no usable /dev/fuse");
		return -1;
	}
	if (p->fstype && !kernel_has(p->fstype)) {
		snprintf(why, len, "kernel has no %s", p->fstype);
		return -1;
	}
	if (p->kind != MOUNT_MEMORY && p->kind != MOUNT_FUSE_IMAGE && !fs_kind_flash(p->kind) &&
	    !in_guest() &&
	    access("/dev/loop-control", R_OK | W_OK)) {
		snprintf(why, len, "no loop devices (/dev/loop-control)");
		return -1;
	}
	return 0;
}

/* Libmount options that would mount something else, or somewhere else,
 * than the device fsbench made. */
static const char *const refused_mount_opts[] = {
	"loop", "offset", "sizelimit", "encryption", "bind", "rbind", "move", "remount",
	"X-mount.mkdir", "x-mount.mkdir", "helper", "source", "target", NULL,
};

/* A mount option is a word of letters, digits and "_-.:+=/@%"; anything
 * else (a space, ';', a quote, a control character) is no option any
 * filesystem takes, and mount would see it only after mkfs had run. */
#define MOUNT_OPT_MAX 255

static int check_mount_opt(const char *text, const char *opt)
{
	size_t n = strcspn(opt, "="), len = strlen(opt);

	if (len > MOUNT_OPT_MAX)
		return error_set("--fs '%.40s...': mount option '%.20s...' is %zu characters "
				 "(at most %d)", text, opt, len, MOUNT_OPT_MAX);
	for (const char *c = opt; *c; c++) {
		char what[24];
		if (isalnum((unsigned char)*c) || strchr("_-.:+=/@%", *c))
			continue;
		if (isspace((unsigned char)*c) || !isprint((unsigned char)*c))
			snprintf(what, sizeof(what), "%s", isspace((unsigned char)*c) ? "a space" :
				 "a control character");
		else
			snprintf(what, sizeof(what), "'%c'", *c);
		return error_set("--fs '%s': mount option '%.40s' has %s: options are letters, "
				 "digits and _-.:+=/@%%", text, opt, what);
	}
	if (!n)
		return error_set("--fs '%s': mount option '%s' has no name", text, opt);
	for (int i = 0; refused_mount_opts[i]; i++)
		if (strlen(refused_mount_opts[i]) == n && !strncmp(opt, refused_mount_opts[i], n))
			return error_set("--fs '%s': mount option '%.*s' is not allowed: it would "
					 "mount something other than fsbench's own filesystem",
					 text, (int)n, opt);
	return 0;
}

/* Each word of mkfs= is an option or an option's value, never a path:
 * mkfs tools take any extra non-option word as another device. */
static int check_mkfs_words(const char *text, const char *extra)
{
	char copy[256], *argv[64];
	int n;

	str_copy(copy, sizeof(copy), extra);
	n = split_words(copy, argv, 64);
	if (n >= 63)
		return error_set("--fs '%s': too many mkfs= words", text);
	for (int i = 0; i < n; i++)
		if (strchr(argv[i], '/') || argv[i][0] == '.' || argv[i][0] == '~')
			return error_set("--fs '%s': mkfs= may not name a path or device ('%s'): "
					 "fsbench formats only the image or --device it was given",
					 text, argv[i]);
	return 0;
}

static int append_opt(const char *text, char *opts, size_t len, const char *add)
{
	size_t used = strlen(opts);

	if (!*add)
		return 0;
	if (check_mount_opt(text, add))
		return -1;
	if (used + 1 + strlen(add) >= len)
		return error_set("--fs '%s': mount options too long", text);
	snprintf(opts + used, len - used, "%s%s", used ? "," : "", add);
	return 0;
}

static int unknown_fs(const char *text, const char *name)
{
	const char *names[64], *near;
	int n = 0;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]) && n < 64; i++)
		names[n++] = table[i].name;
	near = suggest(name, names, n);
	return error_set("--fs '%s': unknown filesystem '%s'%s%s%s (see `fsbench list fs`)", text,
			 name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

int fs_spec_parse(const char *text, struct fs_spec *spec)
{
	char copy[512], *colon, *rest, *w;

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
		return unknown_fs(text, copy);
	str_copy(spec->options, sizeof(spec->options), spec->profile->options);
	str_escape(spec->label, sizeof(spec->label), text);	/* display text */
	if (!colon)
		return 0;
	if (!colon[1])
		return error_set("--fs '%s': nothing after ':'", text);
	/* mkfs=..., mount=..., label=...; other words are mount options. */
	const char *last = "mount";
	for (rest = colon + 1; (w = strsep(&rest, ",")) != NULL;) {
		size_t used = strlen(spec->mkfs_extra);
		if (!*w)
			return error_set("--fs '%s': empty item", text);
		if (!strncmp(w, "mkfs=", 5)) {
			if (used)
				return error_set("--fs '%s': mkfs= given twice", text);
			if (strlen(w + 5) >= sizeof(spec->mkfs_extra))
				return error_set("--fs '%s': mkfs= too long", text);
			str_copy(spec->mkfs_extra, sizeof(spec->mkfs_extra), w + 5);
			last = "mkfs";
		} else if (!strncmp(w, "mount=", 6)) {
			if (!w[6])
				return error_set("--fs '%s': mount= with no option", text);
			if (append_opt(text, spec->options, sizeof(spec->options), w + 6))
				return -1;
			last = "mount";
		} else if (!strncmp(w, "nand_", 5)) {
			size_t nl = strlen(spec->nand);
			if (!fs_kind_flash(spec->profile->kind))
				return error_set("--fs '%s': %s: nand_* options are for flash (ubifs, jffs2, "
						 "raw-mtd)",
						 text, w);
			if (!strchr(w, '=') || nl + 1 + strlen(w) >= sizeof(spec->nand))
				return error_set("--fs '%s': bad flash option '%s'", text, w);
			snprintf(spec->nand + nl, sizeof(spec->nand) - nl, "%s%s", nl ? "," : "", w + 5);
		} else if (!strncmp(w, "label=", 6)) {
			if (!w[6] || strlen(w + 6) >= sizeof(spec->label) || strchr(w + 6, '=') ||
			    str_has_control(w + 6))
				return error_set("--fs '%s': bad label '%s'", text, w + 6);
			str_copy(spec->label, sizeof(spec->label), w + 6);
		} else if (!strcmp(last, "mkfs") && !strchr(w, '=')) {
			/* "mkfs=-O ^has_journal,^metadata_csum": a list inside mkfs */
			if (used + 1 + strlen(w) >= sizeof(spec->mkfs_extra))
				return error_set("--fs '%s': mkfs= too long", text);
			snprintf(spec->mkfs_extra + used, sizeof(spec->mkfs_extra) - used, ",%s", w);
		} else {
			if (append_opt(text, spec->options, sizeof(spec->options), w))
				return -1;
			last = "mount";
		}
	}
	if (fs_kind_raw(spec->profile->kind) && (spec->options[0] || spec->mkfs_extra[0]))
		return error_set("--fs '%s': %s is no filesystem: it takes no mkfs= and no mount "
				 "options", text, spec->profile->name);
	return check_mkfs_words(text, spec->mkfs_extra);
}

int fs_spec_split(const char *list, struct fs_spec *specs, int max, int *n)
{
	char copy[2048], cur[512] = "", *rest = copy, *w;

	if (strlen(list) >= sizeof(copy))
		return error_set("--fs: list too long");
	str_copy(copy, sizeof(copy), list);
	for (;;) {
		char head[64];
		w = strsep(&rest, ",");
		if (w && !*w)
			return error_set("--fs '%s': empty item", list);
		if (w) {
			str_copy(head, sizeof(head), w);
			head[strcspn(head, ":")] = '\0';
		}
		if (!w || fs_profile_find(head)) {
			if (w && strlen(w) >= sizeof(cur))
				return error_set("--fs '%.40s...': one filesystem's spec is too long "
						 "(at most %zu characters)", w, sizeof(cur) - 1);
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
			return unknown_fs(list, head);
		} else {
			size_t used = strlen(cur);
			if (used + 1 + strlen(w) >= sizeof(cur))
				return error_set("--fs '%s': one filesystem's spec is too long", list);
			snprintf(cur + used, sizeof(cur) - used, ",%s", w);
		}
	}
}
