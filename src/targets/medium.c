/*
 * medium.c: what a filesystem target is made on -- an image, a user's
 * device, a guest's disk (see medium.h).  Everything written to a user's
 * device goes through the region's loop device, whose size limit the
 * kernel enforces, or through the reset's BLKDISCARD/BLKZEROOUT, whose
 * range is the region.
 */
#define _GNU_SOURCE
#include "medium.h"
#include "loop.h"
#include "state.h"
#include "target.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../core/stop.h"
#include "../core/str.h"
#include "../core/testhook.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

enum medium_kind {
	MEDIUM_DEVICE,	/* a user's device, its region shared by the run's targets */
	MEDIUM_IMAGE,	/* an image file fsbench makes, one target's */
	MEDIUM_DISK,	/* a disk the host made for its guest, one target's */
};

struct medium {
	enum medium_kind kind;
	char dev[PATH_MAX];
	char label[64];		/* an image's target, for its errors */
	char image[PATH_MAX];	/* an image's file */
	int loop;		/* an image: on a loop device (else its file is the device) */
	int direct_io;
	uint64_t asked, region;
	int fit;		/* asked is what the tests need: the whole device when smaller */
	enum medium_reset reset;
	double settle;
	int force;
	int users;
	int fd;			/* the device, opened exclusively: ours for the run */
	int loopfd, dio;
	char loopdev[64];
	int discard_refused;
	struct stat st;		/* the device node, as the state file records it */
	char identity[1024];
	char counters[PATH_MAX];	/* a model's counters file (in the guest) */
	uint64_t buffer;		/* a model's volatile buffer, bytes */
	char discard_file[PATH_MAX];	/* discard by punching this file (a model on the host) */
	char text[1400];
};

struct medium *medium_new(const char *dev, uint64_t size, enum medium_reset reset,
			  double settle, int force)
{
	struct medium *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	str_copy(m->dev, sizeof(m->dev), dev);
	m->asked = size;
	m->reset = reset;
	m->settle = settle;
	m->force = force;
	m->fd = m->loopfd = -1;
	return m;
}

struct medium *medium_new_image(const char *label, const char *dir, uint64_t size,
				int direct_io, int loop)
{
	struct medium *m = medium_new("", size, MEDIUM_RESET_NONE, 0, 0);

	if (!m)
		return NULL;
	m->kind = MEDIUM_IMAGE;
	str_copy(m->label, sizeof(m->label), label);
	str_join(m->image, sizeof(m->image), dir, "/fs.img");
	m->region = size;
	m->direct_io = direct_io;
	m->loop = loop;
	return m;
}

struct medium *medium_new_disk(const char *dev, int force)
{
	struct medium *m = medium_new(dev, 0, MEDIUM_RESET_NONE, 0, force);

	if (m)
		m->kind = MEDIUM_DISK;
	return m;
}

void medium_set_region(struct medium *m, uint64_t size)
{
	m->asked = size;
	m->fit = 1;
}

void medium_free(struct medium *m)
{
	if (!m)
		return;
	while (m->users > 0)
		medium_detach(m);
	free(m);
}

int medium_reset_parse(const char *text, enum medium_reset *out)
{
	static const char *const names[] = { "discard", "zero", "none" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(text, names[i])) {
			*out = (enum medium_reset)i;
			return 0;
		}
	return error_set("--device-reset '%s': discard, zero or none", text);
}

/* ---- what the device is, from sysfs ---- */

static int read_sys(const char *dir, const char *name, char *out, size_t len)
{
	char p[PATH_MAX + 64];

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "re");
	if (!f)
		return -1;
	if (!fgets(out, (int)len, f))
		out[0] = '\0';
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	/* SCSI pads vendor and model with blanks */
	for (size_t n = strlen(out); n && out[n - 1] == ' '; n--)
		out[n - 1] = '\0';
	return out[0] ? 0 : -1;
}

static unsigned long long sys_num(const char *dir, const char *name)
{
	char v[64];

	return read_sys(dir, name, v, sizeof(v)) ? 0 : strtoull(v, NULL, 10);
}

/* The USB device above a disk (the directory with idVendor and speed):
 * the link speed a key's figures depend on. */
static void usb_link(const char *disk, char *out, size_t len, char *serial, size_t slen)
{
	char p[PATH_MAX], v[64];

	str_copy(p, sizeof(p), disk);
	out[0] = '\0';
	for (char *cut; (cut = strrchr(p, '/')) && cut > p;) {
		*cut = '\0';
		if (read_sys(p, "idVendor", v, sizeof(v)) || read_sys(p, "speed", v, sizeof(v)))
			continue;
		double mbps = strtod(v, NULL);
		snprintf(out, len, "USB %s (%s Mb/s)", mbps >= 10000 ? "3.1+" : mbps >= 5000 ? "3" :
			 mbps >= 480 ? "2" : "1", v);
		if (!serial[0])
			read_sys(p, "serial", serial, slen);
		return;
	}
	snprintf(out, len, "USB");
}

void medium_identify(const char *dev, char *text, size_t len)
{
	struct stat st;
	char sys[PATH_MAX], link[128], disk[PATH_MAX], vendor[128] = "", model[128] = "",
		serial[128] = "", transport[128] = "", q[PATH_MAX + 8], v[256];

	text[0] = '\0';
	if (stat(dev, &st) || !S_ISBLK(st.st_mode)) {
		snprintf(text, len, "%s (not a block device)", dev);
		return;
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, sys)) {
		snprintf(text, len, "%s", dev);
		return;
	}
	str_copy(disk, sizeof(disk), sys);
	char part[PATH_MAX + 16];
	snprintf(part, sizeof(part), "%s/partition", sys);
	if (!access(part, F_OK))	/* a partition: its disk's queue */
		*strrchr(disk, '/') = '\0';
	uint64_t bytes = sys_num(sys, "size") * 512;
	snprintf(q, sizeof(q), "%s/device", disk);
	read_sys(q, "vendor", vendor, sizeof(vendor));
	if (read_sys(q, "model", model, sizeof(model)))
		read_sys(q, "name", model, sizeof(model));	/* MMC/SD */
	read_sys(q, "serial", serial, sizeof(serial));
	if (strstr(sys, "/usb"))
		usb_link(disk, transport, sizeof(transport), serial, sizeof(serial));
	else if (strstr(sys, "/nvme"))
		snprintf(transport, sizeof(transport), "NVMe");
	else if (strstr(sys, "/mmc")) {
		char type[32] = "";
		read_sys(q, "type", type, sizeof(type));
		snprintf(transport, sizeof(transport), "%s", type[0] ? type : "MMC/SD");
	} else if (strstr(sys, "/ata"))
		snprintf(transport, sizeof(transport), "SATA");
	else if (strstr(sys, "/virtio"))
		snprintf(transport, sizeof(transport), "virtio");
	else if (strstr(sys, "/virtual/block/loop")) {
		char back[PATH_MAX];
		loop_backing_file(dev, back, sizeof(back));
		snprintf(transport, sizeof(transport), "a loop device over %.100s",
			 back[0] ? back : "nothing");
	}
	/* a serial said in full identifies one user's device: its end only */
	size_t sl = strlen(serial);
	char shortser[16] = "";
	if (sl)
		snprintf(shortser, sizeof(shortser), "%s%s", sl > 4 ? "..." : "", serial + (sl > 4 ? sl - 4 : 0));
	char size[32], gran[32];
	format_size(bytes, size, sizeof(size));
	snprintf(q, sizeof(q), "%s/queue", disk);
	unsigned long long lbs = sys_num(q, "logical_block_size"), pbs = sys_num(q, "physical_block_size");
	unsigned long long dmax = sys_num(q, "discard_max_bytes"), dg = sys_num(q, "discard_granularity");
	format_size(dg, gran, sizeof(gran));
	char cache[64] = "", sched[64] = "";
	read_sys(q, "write_cache", cache, sizeof(cache));
	if (!read_sys(q, "scheduler", v, sizeof(v))) {
		char *a = strchr(v, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b)
			snprintf(sched, sizeof(sched), "%.*s", (int)(b - a - 1), a + 1);
		else
			str_copy(sched, sizeof(sched), v);
	}
	char who[300], disc[64];
	snprintf(who, sizeof(who), "%s%s%s%s%s%s%s", vendor, vendor[0] && model[0] ? " " : "", model,
		 transport[0] ? ", " : "", transport, shortser[0] ? ", serial " : "", shortser);
	snprintf(disc, sizeof(disc), "%s%s%s", dmax ? "discard" : "no discard", dmax && dg ? " in " : "",
		 dmax && dg ? gran : "");
	snprintf(text, len, "%s: %s, %s; %llu/%llu-byte sectors, %s, %s, write cache %s, scheduler %s",
		 strrchr(sys, '/') + 1, who[0] == ',' ? who + 2 : who[0] ? who : "unnamed device", size,
		 lbs, pbs, sys_num(q, "rotational") ? "rotational" : "not rotational", disc,
		 cache[0] ? cache : "unknown", sched[0] ? sched : "none");
}

/* ---- the region, held for the run ---- */

static void describe(struct medium *m)
{
	char region[32], whole[32];
	uint64_t bytes = 0;

	if (ioctl(m->fd, BLKGETSIZE64, &bytes))
		bytes = 0;
	format_size(m->region, region, sizeof(region));
	format_size(bytes, whole, sizeof(whole));
	snprintf(m->text, sizeof(m->text), "%s; region: the first %s of %s%s; reset before "
		 "each mkfs: %s", m->identity, region, whole, !m->loopdev[0] ? "" : m->dio ?
		 " (loop device, direct I/O)" : " (loop device)",
		 m->reset == MEDIUM_RESET_ZERO ? "zeroed" : m->reset == MEDIUM_RESET_NONE ? "none" :
		 m->discard_refused ? "discard, refused by the device: none" : "discard");
	size_t n = strlen(m->text);
	snprintf(m->text + n, sizeof(m->text) - n, "; idle %g s after each mount", m->settle);
}

/* The device checked, held exclusively, its region sized and itself
 * identified: what the host does for a guest too (which then gets the
 * region as its disk).  0, or -1 with the error set and nothing held. */
static int hold(struct medium *m)
{
	char found[512];
	uint64_t bytes = 0;

	if (device_check(m->dev, m->force, found, sizeof(found)))
		return -1;
	/* exclusive: no mount, mkfs or partitioner of another program can
	 * open it while the run holds it (EBUSY: someone has it open so) */
	m->fd = open(m->dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (m->fd < 0)
		return error_errno("--device %s cannot be held exclusively (another program has it "
				   "open)", m->dev);
	if (fstat(m->fd, &m->st) || ioctl(m->fd, BLKGETSIZE64, &bytes)) {
		error_errno("--device %s: its size", m->dev);
		goto fail;
	}
	if (m->asked) {
		if (m->asked > UINT64_MAX - MEDIUM_ALIGN) {
			error_set("--device-size is too large");
			goto fail;
		}
		m->region = (m->asked + MEDIUM_ALIGN - 1) / MEDIUM_ALIGN * MEDIUM_ALIGN;
		if (m->fit && m->region > bytes)
			m->region = bytes / MEDIUM_ALIGN * MEDIUM_ALIGN;
	} else {
		m->region = bytes / MEDIUM_ALIGN * MEDIUM_ALIGN;
	}
	if (!m->region || m->region > bytes) {
		char want[32], have[32];
		format_size(m->region, want, sizeof(want));
		format_size(bytes, have, sizeof(have));
		error_set("--device %s holds %s: no region of %s (in whole 4 MiB units) fits; give a "
			  "smaller --device-size", m->dev, have, want);
		goto fail;
	}
	if (!m->identity[0])
		medium_identify(m->dev, m->identity, sizeof(m->identity));
	return 0;
fail:
	close(m->fd);
	m->fd = -1;
	return -1;
}

int medium_hold(struct medium *m)
{
	if (m->users++)
		return 0;
	if (hold(m)) {
		m->users = 0;
		return error_prefix("--device");
	}
	describe(m);
	return 0;
}

/* Write the whole image once, so that the host filesystem has allocated
 * every block before the first repetition.  A sparse image (or one of
 * unwritten extents) made the first writes to each block allocate on the
 * host: fs_mark's first run on a fresh filesystem came out at 0.56-0.82x
 * the others and the runs spread 2-3 times wider.  16 MiB direct writes,
 * buffered where the directory refuses O_DIRECT. */
static int write_zeros(int fd0, uint64_t size)
{
	const size_t chunk = 16u << 20;
	char self[64];
	void *buf = NULL;
	int rc = 0;

	/* the file just made, reopened for O_DIRECT through its descriptor */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd0);
	int fd = open(self, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = dup(fd0);
	if (fd < 0)
		return -1;
	if (posix_memalign(&buf, 4096, chunk)) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	memset(buf, 0, chunk);
	for (uint64_t at = 0; at < size && !rc;) {
		size_t n = size - at < chunk ? (size_t)(size - at) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)at);
		if (w <= 0)
			rc = -1;
		else
			at += (uint64_t)w;
	}
	int saved = errno;
	if (!rc && fsync(fd))
		rc = -1, saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return rc;
}

/* An image: the file made (its size checked against the free space),
 * written whole, then its loop device, recorded as soon as the kernel
 * names it (until then its autoclear flag detaches it should fsbench
 * die).  The file is in the target's scratch directory, which goes with
 * it. */
static int attach_image(struct medium *m)
{
	char dir[PATH_MAX], *slash;
	struct stat st;
	uint64_t have;
	int fd;

	str_copy(dir, sizeof(dir), m->image);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	if (free_space(dir, &have))
		return -1;
	if (have < m->region) {
		char want[32], got[32];
		format_size(m->region, want, sizeof(want));
		format_size(have & ~((1ULL << 20) - 1), got, sizeof(got));
		return error_set("fs '%s': a %s image does not fit in %s (%s free): use --fs-size or --image-dir",
				 m->label, want, dir, got);
	}
	fd = open(m->image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return error_errno("fs '%s': cannot create %s", m->label, m->image);
	if (ftruncate(fd, (off_t)m->region) || write_zeros(fd, m->region) || fstat(fd, &st)) {
		int saved = errno;
		close(fd);
		errno = saved;
		return error_errno("fs '%s': cannot write %s", m->label, m->image);
	}
	close(fd);
	test_pause("image");
	if (!m->loop) {
		str_copy(m->dev, sizeof(m->dev), m->image);	/* a FUSE filesystem takes the file */
		return 0;
	}
	if (loop_attach(m->image, m->direct_io, m->loopdev, sizeof(m->loopdev), &m->dio, &m->loopfd))
		return -1;
	if (state_add(STATE_LOOP, m->loopdev, m->image, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
		loop_detach(m->loopdev, m->loopfd);
		m->loopfd = -1;
		m->loopdev[0] = '\0';
		return -1;
	}
	str_copy(m->dev, sizeof(m->dev), m->loopdev);
	test_pause("loop");
	return 0;
}

int medium_attach(struct medium *m)
{
	char found[512];

	if (m->users++)
		return 0;
	if (m->kind == MEDIUM_IMAGE || m->kind == MEDIUM_DISK) {
		if (m->kind == MEDIUM_IMAGE ? attach_image(m) :
					      device_check(m->dev, m->force, found, sizeof(found))) {
			m->users = 0;
			return -1;
		}
		return 0;
	}
	if (hold(m))
		goto fail;
	/* recorded as soon as the kernel names it; until then its autoclear
	 * flag detaches it should fsbench die */
	if (loop_attach_fd(m->fd, m->dev, m->region, 1, m->loopdev, sizeof(m->loopdev), &m->dio,
			   &m->loopfd))
		goto fail;
	if (state_add(STATE_LOOP, m->loopdev, m->dev, (uint64_t)m->st.st_dev, (uint64_t)m->st.st_ino)) {
		loop_detach(m->loopdev, m->loopfd);
		m->loopfd = -1;
		m->loopdev[0] = '\0';
		goto fail;
	}
	describe(m);
	return 0;
fail:
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
	m->users = 0;
	return error_prefix("--device");
}

const char *medium_path(const struct medium *m)
{
	return m->dev;
}

uint64_t medium_region(const struct medium *m)
{
	return m->region;
}

void medium_set_device(struct medium *m, const char *dev, const char *identity,
		       const char *counters)
{
	str_copy(m->dev, sizeof(m->dev), dev);
	str_copy(m->counters, sizeof(m->counters), counters ? counters : "");
	if (identity)
		str_copy(m->identity, sizeof(m->identity), identity);
}

void medium_set_buffer(struct medium *m, uint64_t bytes)
{
	m->buffer = bytes;
}

void medium_set_discard_file(struct medium *m, const char *path)
{
	str_copy(m->discard_file, sizeof(m->discard_file), path);
}

uint64_t medium_buffer(const struct medium *m)
{
	return m ? m->buffer : 0;
}

const char *medium_counters(const struct medium *m)
{
	return m->counters;
}

const char *medium_identity(const struct medium *m)
{
	return m->identity;
}

void medium_detach(struct medium *m)
{
	if (m->users <= 0 || --m->users)
		return;
	if (m->loopdev[0] && !loop_detach(m->loopdev, m->loopfd))
		state_remove(STATE_LOOP, m->loopdev);
	m->loopdev[0] = '\0';
	m->loopfd = -1;
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

const char *medium_dev(const struct medium *m)
{
	return m->kind == MEDIUM_DEVICE ? m->loopdev : m->users > 0 ? m->dev : "";
}

const char *medium_whole(const struct medium *m)
{
	return m->users > 0 ? m->dev : "";
}

int medium_on_loop(const struct medium *m)
{
	return m->loopdev[0] != '\0';
}

uint64_t medium_bytes(const struct medium *m)
{
	uint64_t bytes = 0;

	if (m->kind != MEDIUM_DISK)
		return m->region;
	int fd = open(m->dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && ioctl(fd, BLKGETSIZE64, &bytes))
		bytes = 0;
	if (fd >= 0)
		close(fd);
	return bytes;
}

const char *medium_image(const struct medium *m)
{
	return m->kind == MEDIUM_IMAGE && m->loop ? m->image : NULL;
}

int medium_drop_cache(struct medium *m)
{
	return m->loopfd >= 0 ? ioctl(m->loopfd, BLKFLSBUF, 0) : 0;
}

const char *medium_text(const struct medium *m)
{
	return m->text;
}

int medium_reset(struct medium *m)
{
	uint64_t range[2] = { 0, m->region };

	if (m->kind != MEDIUM_DEVICE)
		return 0;
	if (m->fd < 0)
		return error_set("--device %s: not attached", m->dev);
	if (m->reset == MEDIUM_RESET_DISCARD && m->discard_file[0]) {
		/* the loop device over nbdfuse's file offers no discard; a hole
		 * punched in the file is the model's TRIM (nbdfuse passes it on) */
		int fd = open(m->discard_file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
					(off_t)m->region)) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			errno = err;
			return error_errno("--medium: discarding the region of %s", m->discard_file);
		}
		close(fd);
		if (ioctl(m->fd, BLKFLSBUF, 0))
			return error_errno("--medium: flushing %s", m->dev);
	} else if (m->reset == MEDIUM_RESET_DISCARD && !m->discard_refused &&
	    ioctl(m->fd, BLKDISCARD, range)) {
		if (errno != EOPNOTSUPP && errno != EINVAL && errno != EIO)
			return error_errno("--device %s: discarding the region", m->dev);
		/* most USB keys: said once, in the system table too */
		m->discard_refused = 1;
		fprintf(stderr, "fsbench: --device %s takes no discard (%s): each filesystem is made "
			"over what the one before left (--device-reset zero overwrites the region "
			"instead)\n", m->dev, strerror(errno));
		describe(m);
	} else if (m->reset == MEDIUM_RESET_ZERO && ioctl(m->fd, BLKZEROOUT, range)) {
		return error_errno("--device %s: zeroing the region", m->dev);
	}
	/* what the loop device cached of the filesystem before is gone */
	if (m->loopfd >= 0 && ioctl(m->loopfd, BLKFLSBUF, 0))
		return error_errno("--device %s: flushing %s", m->dev, m->loopdev);
	return 0;
}

void medium_settle(struct medium *m, const char *mnt)
{
	int fd = mnt ? open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	for (double left = m->settle; left > 0 && !stop_requested(); left -= 0.1) {
		struct timespec ts = { 0, (long)((left < 0.1 ? left : 0.1) * 1e9) };
		nanosleep(&ts, NULL);
	}
}
