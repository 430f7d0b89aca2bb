/*
 * sysinfo.c: reading the system table from /proc, /sys, /etc and dmidecode
 * (see sysinfo.h).  Fields that cannot be read say "unknown" rather than
 * failing the run: a benchmark on a machine without DMI is still valid.
 */
#define _GNU_SOURCE
#include "sysinfo.h"
#include "exec.h"
#include "file.h"
#include "str.h"

#include <libmount/libmount.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Whole small file (at most len-1 bytes) into buf, trailing newline cut. */
static int read_text(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Heap copy of a whole file (/proc files report size 0), or NULL. */
static char *slurp(const char *root, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return file_read_all(full, 16u << 20, 0, NULL);
}

/* Value of "key<spaces>:<spaces>value" lines (cpuinfo, dmidecode). */
static const char *field_value(const char *line, const char *key)
{
	size_t k = strlen(key);

	while (*line == ' ' || *line == '\t')
		line++;
	if (strncmp(line, key, k))
		return NULL;
	line += k;
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != ':')
		return NULL;
	line++;
	while (*line == ' ')
		line++;
	return line;
}

static void copy_line(char *dst, size_t len, const char *src)
{
	size_t n = strcspn(src, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void collect_processor(const char *root, char *out, size_t len)
{
	char *text = slurp(root, "/proc/cpuinfo"), model[160] = "unknown";
	char freq[32] = "";
	int threads = 0, cores = 0;
	double mhz = 0;
	/* (physical id, core id) pairs seen, to count real cores. */
	int seen[1024][2], nseen = 0, phys = 0;

	if (text) {
		for (char *line = text; line && *line;) {
			const char *v;
			if ((v = field_value(line, "model name")))
				copy_line(model, sizeof(model), v);
			else if ((v = field_value(line, "processor")))
				threads++;
			else if ((v = field_value(line, "physical id")))
				phys = atoi(v);
			else if ((v = field_value(line, "core id"))) {
				int core = atoi(v), dup = 0;
				for (int i = 0; i < nseen; i++)
					dup |= seen[i][0] == phys && seen[i][1] == core;
				if (!dup && nseen < 1024) {
					seen[nseen][0] = phys;
					seen[nseen++][1] = core;
				}
			} else if ((v = field_value(line, "cpu MHz")) && mhz == 0)
				mhz = atof(v);
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
		free(text);
	}
	cores = nseen ? nseen : threads;
	char khz[32];
	if (!read_text(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
		       khz, sizeof(khz)) && atof(khz) > 0)
		mhz = atof(khz) / 1000;
	if (mhz > 0 && !strstr(model, "GHz"))
		snprintf(freq, sizeof(freq), " @ %.2fGHz", mhz / 1000);
	if (cores == threads)
		snprintf(out, len, "%s%s (%d Core%s)", model, freq, cores,
			 cores == 1 ? "" : "s");
	else
		snprintf(out, len, "%s%s (%d Cores / %d Threads)", model, freq,
			 cores, threads);
}

static int dmi_useful(const char *s)
{
	static const char *junk[] = { "", "Not Applicable", "Default string",
				      "To Be Filled By O.E.M.", "None", NULL };
	for (int i = 0; junk[i]; i++)
		if (!strcmp(s, junk[i]))
			return 0;
	return 1;
}

static void collect_motherboard(const char *root, char *out, size_t len)
{
	char vendor[96] = "", name[96] = "", ver[64] = "", bios[64] = "";
	const char *dmi = "/sys/class/dmi/id/";
	char p[128];

#define DMI(file, buf) (snprintf(p, sizeof(p), "%s%s", dmi, file), \
			read_text(root, p, buf, sizeof(buf)))
	if (DMI("board_vendor", vendor) || !dmi_useful(vendor) ||
	    DMI("board_name", name) || !dmi_useful(name)) {
		vendor[0] = name[0] = '\0';
		DMI("sys_vendor", vendor);
		DMI("product_name", name);
	} else if (DMI("board_version", ver) || !dmi_useful(ver)) {
		ver[0] = '\0';
	}
	DMI("bios_version", bios);
#undef DMI
	if (!vendor[0] && !name[0]) {
		snprintf(out, len, "unknown");
		return;
	}
	snprintf(out, len, "%s%s%s%s%s%s%s", vendor, name[0] ? " " : "", name,
		 ver[0] ? " " : "", ver, dmi_useful(bios) ? " (" : "",
		 dmi_useful(bios) ? bios : "");
	if (dmi_useful(bios))
		strncat(out, " BIOS)", len - strlen(out) - 1);
}

/*
 * "2 x 8192 MB DDR4-3200MT/s Samsung M471A1G44AB0-CWE" from
 * `dmidecode --type 17`: one entry per populated slot, identical slots
 * grouped (PTS groups only when they all match; so do we).
 */
void memory_from_dmidecode(const char *text, char *out, unsigned len)
{
	char first[192] = "", cur[192];
	char size[32] = "", type[32] = "", speed[32] = "", maker[64] = "",
	     part[64] = "";
	int count = 0, same = 1, in_dev = 0;
	const char *line = text;

	out[0] = '\0';
	for (;;) {
		const char *v;
		int end = !line || !*line;
		if (end || !strncmp(line, "Memory Device", 13)) {
			if (in_dev && size[0] && strncmp(size, "No Module", 9)) {
				int mb = atoi(size);
				if (strstr(size, "GB"))
					mb *= 1024;
				snprintf(cur, sizeof(cur), "%d MB%s%s%s%s%s%s%s%s",
					 mb, type[0] ? " " : "", type,
					 speed[0] ? "-" : "", speed,
					 dmi_useful(maker) && strcmp(maker, "Unknown") ? " " : "",
					 dmi_useful(maker) && strcmp(maker, "Unknown") ? maker : "",
					 dmi_useful(part) && strcmp(part, "Unknown") ? " " : "",
					 dmi_useful(part) && strcmp(part, "Unknown") ? part : "");
				if (!count)
					strcpy(first, cur);
				else if (strcmp(first, cur))
					same = 0;
				count++;
			}
			if (end)
				break;
			in_dev = 1;
			size[0] = type[0] = speed[0] = maker[0] = part[0] = '\0';
		} else if (in_dev) {
			if ((v = field_value(line, "Size")))
				copy_line(size, sizeof(size), v);
			else if ((v = field_value(line, "Type")))
				copy_line(type, sizeof(type), v);
			else if ((v = field_value(line, "Speed"))) {
				copy_line(speed, sizeof(speed), v);
				char *sp = strchr(speed, ' ');
				if (sp)	/* "3200 MT/s" -> "3200MT/s" */
					memmove(sp, sp + 1, strlen(sp));
				if (!strncmp(speed, "Unknown", 7))
					speed[0] = '\0';
			} else if ((v = field_value(line, "Manufacturer")))
				copy_line(maker, sizeof(maker), v);
			else if ((v = field_value(line, "Part Number")))
				copy_line(part, sizeof(part), v);
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!count)
		return;
	if (same)
		snprintf(out, len, "%d x %s", count, first);
	else
		snprintf(out, len, "%d modules (%s, ...)", count, first);
}

static void collect_memory(const char *root, char *out, size_t len)
{
	char *mi;
	long long kb = 0;

	out[0] = '\0';
	/* dmidecode needs root and real hardware; only on a live system. */
	if (!root[0] && geteuid() == 0 && !access("/usr/sbin/dmidecode", X_OK)) {
		/* exec with argv like every other tool: no shell. */
		static char *const argv[] = { "/usr/sbin/dmidecode", "--type", "17", NULL };
		char *buf = malloc(65536);
		if (buf && exec_capture(argv, buf, 65536) == 0) {
			memory_from_dmidecode(buf, out, (unsigned)len);
		}
		free(buf);
	}
	if (out[0])
		return;
	mi = slurp(root, "/proc/meminfo");
	if (mi) {
		char *v = strstr(mi, "MemTotal:");
		if (v)
			kb = atoll(v + 9);
		free(mi);
	}
	if (kb)
		snprintf(out, len, "%lld MB", kb / 1024);
	else
		snprintf(out, len, "unknown");
}

static void collect_os(const char *root, char *out, size_t len)
{
	char *text = slurp(root, "/etc/os-release");

	snprintf(out, len, "unknown");
	if (!text)
		return;
	for (char *line = text; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "PRETTY_NAME=", 12)) {
			const char *v = line + 12;
			if (*v == '"')
				v++;
			copy_line(out, len, v);
			char *q = strchr(out, '"');
			if (q)
				*q = '\0';
			break;
		}
	}
	free(text);
}

static void collect_kernel(const char *root, char *out, size_t len)
{
	char rel[128] = "unknown";
	struct utsname u;

	read_text(root, "/proc/sys/kernel/osrelease", rel, sizeof(rel));
	if (uname(&u))
		snprintf(out, len, "%s", rel);
	else
		snprintf(out, len, "%s (%s)", rel, u.machine);
}

void sysinfo_collect(const char *root, struct sysinfo *si)
{
	collect_processor(root, si->processor, sizeof(si->processor));
	collect_motherboard(root, si->motherboard, sizeof(si->motherboard));
	collect_memory(root, si->memory, sizeof(si->memory));
	collect_os(root, si->os, sizeof(si->os));
	collect_kernel(root, si->kernel, sizeof(si->kernel));
#if defined(__clang__)
	snprintf(si->compiler, sizeof(si->compiler), "Clang %d.%d.%d",
		 __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
	snprintf(si->compiler, sizeof(si->compiler), "GCC %d.%d.%d",
		 __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
	snprintf(si->compiler, sizeof(si->compiler), "unknown");
#endif
}

int sysinfo_fields(const struct sysinfo *si, struct sysfield *f)
{
	f[0] = (struct sysfield){ "Processor", si->processor };
	f[1] = (struct sysfield){ "Motherboard", si->motherboard };
	f[2] = (struct sysfield){ "Memory", si->memory };
	f[3] = (struct sysfield){ "OS", si->os };
	f[4] = (struct sysfield){ "Kernel", si->kernel };
	f[5] = (struct sysfield){ "Compiler", si->compiler };
	return 6;
}

const char *fs_magic_name(unsigned long magic)
{
	static const struct { unsigned long magic; const char *name; } t[] = {
		{ 0xEF53, "ext2/ext3/ext4" }, { 0x58465342, "xfs" },
		{ 0x9123683E, "btrfs" }, { 0x01021994, "tmpfs" },
		{ 0xF2F52010, "f2fs" }, { 0x65735546, "fuse" },
		{ 0x3434, "nilfs2" }, { 0x4d44, "vfat" }, { 0x2011BAB0, "exfat" },
		{ 0x858458f6, "ramfs" }, { 0x794c7630, "overlay" },
		{ 0x6969, "nfs" }, { 0xFF534D42, "cifs" }, { 0x2FC12FC1, "zfs" },
		{ 0x73717368, "squashfs" }, { 0xE0F5E1E2, "erofs" },
		{ 0x24051905, "ubifs" }, { 0x72b6, "jffs2" },
		{ 0x52654973, "reiserfs" }, { 0x3153464a, "jfs" },
		{ 0x00c36400, "ceph" }, { 0x0BD00BD0, "lustre" },
		{ 0x19830326, "beegfs" }, { 0x9fa0, "proc" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].magic == magic)
			return t[i].name;
	return NULL;
}

static int under(const char *path, const char *mp)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	return !strncmp(path, mp, n) && (path[n] == '/' || path[n] == '\0');
}

/* Join mount and superblock options without repeating "rw". */
static void merge_opts(const char *a, const char *b, char *out, size_t len)
{
	char copy[512], *save = NULL;

	snprintf(out, len, "%s", a);
	snprintf(copy, sizeof(copy), "%s", b);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char probe[256];
		snprintf(probe, sizeof(probe), ",%s,", t);
		char have[600];
		snprintf(have, sizeof(have), ",%s,", out);
		if (strstr(have, probe))
			continue;
		strncat(out, ",", len - strlen(out) - 1);
		strncat(out, t, len - strlen(out) - 1);
	}
}

/* The mount holding `path` in a mountinfo file (libmount parses it, escapes
 * and all): the deepest mount point above path, the later one on ties. */
int mountinfo_lookup(const char *file, const char *path, struct fsinfo *fi,
		     unsigned *major, unsigned *minor)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs, *best = NULL;
	size_t depth = 0;

	if (tb && it && !mnt_table_parse_file(tb, file))
		while (!mnt_table_next_fs(tb, it, &fs)) {
			const char *mp = mnt_fs_get_target(fs);
			if (mp && under(path, mp) && strlen(mp) >= depth) {
				depth = strlen(mp);
				best = fs;
			}
		}
	if (best) {
		dev_t dev = mnt_fs_get_devno(best);
		const char *vfs = mnt_fs_get_vfs_options(best), *sup = mnt_fs_get_fs_options(best);
		*major = major(dev);
		*minor = minor(dev);
		str_copy(fi->mount_point, sizeof(fi->mount_point), mnt_fs_get_target(best));
		str_copy(fi->fstype, sizeof(fi->fstype), mnt_fs_get_fstype(best) ? mnt_fs_get_fstype(best) : "");
		str_copy(fi->mount_source, sizeof(fi->mount_source),
			 mnt_fs_get_source(best) ? mnt_fs_get_source(best) : "");
		merge_opts(vfs ? vfs : "", sup ? sup : "", fi->mount_opts, sizeof(fi->mount_opts));
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return best ? 0 : -1;
}

/* /sys/block/<disk> for a block device, given major:minor or a /dev name. */
static int find_disk(const char *root, unsigned maj, unsigned min,
		     const char *source, char *disk, size_t len, char *node, size_t nlen)
{
	char link[PATH_MAX], real[PATH_MAX], probe[PATH_MAX + 16];

	snprintf(link, sizeof(link), "%s/sys/dev/block/%u:%u", root, maj, min);
	if (!realpath(link, real)) {
		if (strncmp(source, "/dev/", 5))
			return -1;
		snprintf(link, sizeof(link), "%s/sys/class/block/%s", root,
			 source + 5);
		if (!realpath(link, real))
			return -1;
	}
	/* The node itself (a partition counts only its own I/O), then the
	 * whole disk for the description. */
	char *node_base = strrchr(real, '/');
	str_copy(node, nlen, node_base ? node_base + 1 : real);
	snprintf(probe, sizeof(probe), "%s/partition", real);
	if (!access(probe, F_OK)) {
		char *slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	char *base = strrchr(real, '/');
	str_copy(disk, len, base ? base + 1 : real);
	return 0;
}

static void describe_disk(const char *root, const char *name, struct fsinfo *fi)
{
	char p[PATH_MAX], sectors[32] = "", model[160] = "", sched[256] = "";

	snprintf(p, sizeof(p), "/sys/block/%s/size", name);
	read_text(root, p, sectors, sizeof(sectors));
	snprintf(p, sizeof(p), "/sys/block/%s/device/model", name);
	if (read_text(root, p, model, sizeof(model))) {
		snprintf(p, sizeof(p), "/sys/block/%s/device/name", name);
		read_text(root, p, model, sizeof(model));
	}
	if (!model[0]) {
		char back[200], dio[8] = "0", discard[32] = "";
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", name);
		if (!read_text(root, p, back, sizeof(back))) {
			snprintf(p, sizeof(p), "/sys/block/%s/loop/dio", name);
			read_text(root, p, dio, sizeof(dio));
			snprintf(p, sizeof(p), "/sys/block/%s/queue/discard_max_bytes", name);
			read_text(root, p, discard, sizeof(discard));
			int dis = discard[0] == '0' && (!discard[1] || discard[1] == '\n');
			const char *traits = dio[0] == '1' ? (dis ? " (direct-io, no discard)" : " (direct-io)")
					   : dis ? " (no discard)" : "";
			snprintf(model, sizeof(model), "loop%s on %.100s", traits, back);
		}
	}
	double gb = atof(sectors) * 512 / 1e9;
	snprintf(fi->disk, sizeof(fi->disk), "%.*fGB %s%s(%s)", gb < 10 ? 1 : 0, gb, model,
		 model[0] ? " " : "", name);

	snprintf(p, sizeof(p), "/sys/block/%s/queue/scheduler", name);
	snprintf(fi->scheduler, sizeof(fi->scheduler), "n/a");
	if (!read_text(root, p, sched, sizeof(sched))) {
		char *a = strchr(sched, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			snprintf(fi->scheduler, sizeof(fi->scheduler), "%s", a + 1);
		} else {
			snprintf(fi->scheduler, sizeof(fi->scheduler), "%s", sched);
		}
	}
}

/* Flash under UBIFS ("ubi0:vol") or JFFS2 ("mtd1"): the MTD device's
 * name and size from sysfs, e.g. "NAND simulator partition 1, 128 MiB
 * flash (mtd1)". */
static void describe_flash(const char *root, struct fsinfo *fi)
{
	const char *src = fi->mount_source;
	char path[PATH_MAX], name[128] = "", line[64];
	long long size = 0;
	int mtd = -1;
	FILE *f;

	if (!strncmp(src, "mtd", 3) && isdigit((unsigned char)src[3])) {
		mtd = atoi(src + 3);
	} else if (!strncmp(src, "ubi", 3) && isdigit((unsigned char)src[3])) {
		snprintf(path, sizeof(path), "%.3000s/sys/class/ubi/ubi%d/mtd_num", root, atoi(src + 3));
		if ((f = fopen(path, "re"))) {
			if (fscanf(f, "%d", &mtd) != 1)
				mtd = -1;
			fclose(f);
		}
	}
	if (mtd < 0)
		return;
	snprintf(path, sizeof(path), "%.3000s/sys/class/mtd/mtd%d/name", root, mtd);
	if ((f = fopen(path, "re"))) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "%.3000s/sys/class/mtd/mtd%d/size", root, mtd);
	if ((f = fopen(path, "re"))) {
		if (fgets(line, sizeof(line), f))
			size = atoll(line);
		fclose(f);
	}
	snprintf(fi->disk, sizeof(fi->disk), "%.120s%s%lld MiB flash (mtd%d)", name, name[0] ? ", " : "",
		 size >> 20, mtd);
}

int fsinfo_device(const char *dev, struct fsinfo *fi)
{
	char disk[64];
	struct stat st;

	memset(fi, 0, sizeof(*fi));
	snprintf(fi->fstype, sizeof(fi->fstype), "none (the device itself)");
	snprintf(fi->disk, sizeof(fi->disk), "none");
	snprintf(fi->scheduler, sizeof(fi->scheduler), "n/a");
	snprintf(fi->mount_source, sizeof(fi->mount_source), "%s", dev);
	if (stat(dev, &st))
		return -1;
	if (S_ISCHR(st.st_mode) && !strncmp(dev, "/dev/mtd", 8)) {	/* raw NAND */
		snprintf(fi->mount_source, sizeof(fi->mount_source), "%s", dev + 5);
		describe_flash("", fi);
		snprintf(fi->mount_source, sizeof(fi->mount_source), "%s", dev);
		return 0;
	}
	if (!S_ISBLK(st.st_mode) || find_disk("", major(st.st_rdev), minor(st.st_rdev), dev, disk,
					      sizeof(disk), fi->blockdev, sizeof(fi->blockdev)))
		return -1;
	describe_disk("", disk, fi);
	return 0;
}

int fsinfo_collect(const char *root, const char *path, struct fsinfo *fi)
{
	char real[PATH_MAX], disk[64], mountinfo[PATH_MAX];
	unsigned maj = 0, min = 0;

	memset(fi, 0, sizeof(*fi));
	snprintf(fi->disk, sizeof(fi->disk), "none");
	snprintf(fi->scheduler, sizeof(fi->scheduler), "n/a");
	if (root[0])
		snprintf(real, sizeof(real), "%s", path);
	else if (!realpath(path, real))
		return -1;
	snprintf(mountinfo, sizeof(mountinfo), "%.4000s/proc/self/mountinfo", root);
	if (mountinfo_lookup(mountinfo, real, fi, &maj, &min))
		return -1;

	/* FUSE: the kernel only knows "fuse"; the subtype names the fs. */
	if (!strncmp(fi->fstype, "fuse.", 5)) {
		char sub[64];
		snprintf(sub, sizeof(sub), "%s (FUSE)", fi->fstype + 5);
		snprintf(fi->fstype, sizeof(fi->fstype), "%s", sub);
	} else if (!root[0] && strcmp(fi->fstype, "fuseblk")) {
		struct statfs sf;
		const char *name;
		/* Trust the kernel's magic over the mount table's string when
		 * they disagree in family (e.g. "ext4" vs magic 0xEF53 agree). */
		if (!statfs(real, &sf) && (name = fs_magic_name((unsigned long)sf.f_type)) &&
		    !strstr(name, fi->fstype))
			snprintf(fi->fstype, sizeof(fi->fstype), "%s", name);
	}
	if (!find_disk(root, maj, min, fi->mount_source, disk, sizeof(disk),
		       fi->blockdev, sizeof(fi->blockdev)))
		describe_disk(root, disk, fi);
	else
		describe_flash(root, fi);
	return 0;
}
