/*
 * fs.c: a target that is a filesystem fsbench makes itself (`--fs SPEC`).
 *
 * Setup: a provisioning directory `fsbench.XXXXXX` under the image
 * directory, the medium attached (medium.h: an image of its own in that
 * directory on a loop device, the user's device region it takes turns on,
 * or in fsbench's guest the disk the host made for it), mkfs, a mount
 * point, and the mount: kernel filesystems through libmount, FUSE ones
 * through their helper.
 * With --age, each mkfs and mount is followed by the aging (aged.c); with
 * --keep-aged, an image aged before is copied in instead of both.
 * Refresh (before every test by default): unmount, mkfs, mount.  Teardown:
 * unmount (waiting for a FUSE daemon to let go), detach, remove.  Every
 * step is recorded in the state file first, so `fsbench cleanup` can undo
 * it after a SIGKILL.
 */
#define _GNU_SOURCE
#include "target.h"
#include "aged.h"
#include "loop.h"
#include "medium.h"
#include "profiles.h"
#include "state.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../core/testhook.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount/libmount.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct fs_target {
	struct fs_spec spec;
	struct provision_opts opts;
	char workdir[PATH_MAX], mnt[PATH_MAX];
	char dev[PATH_MAX];	/* what mkfs and the mount see */
	char source[64];	/* flash: "ubi0:fsbench", "mtd1" */
	int ubi;		/* flash: the UBI device attached (its number + 1) */
	const char *twin;	/* flash in the guest: the powercut workload's partition */
	int mounted;
	pid_t daemon;		/* FUSE helper's daemon, found after mount */
	char *aging;		/* --age's record of the last mkfs, or NULL */
	struct aged_keep keep;	/* --keep-aged: where its aged image is kept */
	int kept;		/* 1: keep.img holds it, copied in instead of mkfs and aging */
	int keep_lock;		/* aged_keep_lock's descriptor until the save, or -1 */
	struct medium *own;	/* its own medium (an image, a guest's disk), or NULL */
	int on_medium;		/* attached to its medium (medium_of) */
};

/* What it is made on: the user's device it shares, else its own. */
static struct medium *medium_of(const struct fs_target *f)
{
	return f->opts.medium ? f->opts.medium : f->own;
}

void provision_defaults(struct provision_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->size = 4ULL << 30;
	o->image_dir = "/var/tmp";
	o->direct_io = 1;
}

/* The FUSE daemon serving mnt: a process whose command line names it. */
static pid_t find_daemon(const char *mnt)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		char p[300], cmd[8192];
		long pid = atol(de->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(p, sizeof(p), "/proc/%ld/cmdline", pid);
		int fd = open(p, O_RDONLY);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
		for (ssize_t i = 0; i < n; i++)
			if (cmd[i] == '\0')
				cmd[i] = ' ';
		if (n > 0) {
			cmd[n] = '\0';
			if (strstr(cmd, mnt))
				found = (pid_t)pid;
		}
	}
	closedir(d);
	return found;
}

/* spec's mkfs on dev, run in workdir; its command line into line. */
static int mkfs_on(const struct fs_spec *spec, const char *label, const char *dev,
		   const char *workdir, char *line, size_t len)
{
	char cmd[8192], out[8192], *argv[64];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s%s%s %s%s", spec->profile->mkfs,
		 spec->mkfs_extra[0] ? " " : "", spec->mkfs_extra, dev,
		 spec->profile->kind == MOUNT_MTD || spec->profile->kind == MOUNT_RAW_MTD
		 ? " 0 0" : "");	/* flash_erase DEV START COUNT */
	if (line)
		str_copy(line, len, cmd);
	split_words(cmd, argv, 64);
	/* In fsbench's own directory, so a relative word in mkfs= can only
	 * name something of ours (fs_spec_parse refuses any '/'). */
	rc = exec_capture_at(workdir, argv, out, sizeof(out));
	if (rc < 0)
		return -1;
	if (rc)
		return error_set("fs '%s': %s failed: %s", label, argv[0], tool_reason(out));
	return 0;
}

static int run_mkfs(struct target *t, struct fs_target *f)
{
	return mkfs_on(&f->spec, t->label, f->dev, f->workdir, t->mkfs, sizeof(t->mkfs));
}

static int kernel_mount(const char *label, const char *source, const char *mnt,
			const char *fstype, const char *options)
{
	struct libmnt_context *cxt = mnt_new_context();
	char msg[512] = "";
	int rc;

	if (!cxt)
		return error_set("out of memory");
	mnt_context_set_source(cxt, source);
	mnt_context_set_target(cxt, mnt);
	mnt_context_set_fstype(cxt, fstype);
	if (options[0])
		mnt_context_set_options(cxt, options);
	mnt_context_disable_mtab(cxt, 1);
	rc = mnt_context_mount(cxt);
	if (rc || mnt_context_get_status(cxt) != 1) {
		mnt_context_get_excode(cxt, rc, msg, sizeof(msg));
		mnt_free_context(cxt);
		return error_set("fs '%s': mount -t %s%s%s failed: %s", label, fstype,
				 options[0] ? " -o " : "", options, msg[0] ? msg : strerror(errno));
	}
	mnt_free_context(cxt);
	return 0;
}

static int fuse_mount(const struct fs_spec *spec, const char *label, const char *dev,
		      const char *mnt, pid_t *daemon)
{
	char out[4096], *argv[8];
	int n = 0, rc;

	argv[n++] = (char *)spec->profile->helper;
	argv[n++] = (char *)dev;
	argv[n++] = (char *)mnt;
	if (spec->options[0]) {
		argv[n++] = "-o";
		argv[n++] = (char *)spec->options;
	}
	argv[n] = NULL;
	rc = exec_capture(argv, out, sizeof(out));
	if (rc < 0)
		return -1;
	if (rc)
		return error_set("fs '%s': %s failed: %s", label, argv[0], tool_reason(out));
	*daemon = find_daemon(mnt);
	return 0;
}

static int do_mount(struct target *t, struct fs_target *f)
{
	const struct fs_profile *p = f->spec.profile;
	int rc;

	if (p->kind == MOUNT_MEMORY) {
		char opts[600];
		snprintf(opts, sizeof(opts), "size=%llu%s%s", (unsigned long long)f->opts.size,
			 f->spec.options[0] ? "," : "", f->spec.options);
		rc = kernel_mount(t->label, "tmpfs", f->mnt, "tmpfs", opts);
	} else if (p->kind == MOUNT_KERNEL) {
		rc = kernel_mount(t->label, f->dev, f->mnt, p->fstype, f->spec.options);
	} else if (p->kind == MOUNT_UBI || p->kind == MOUNT_MTD) {
		rc = kernel_mount(t->label, f->source, f->mnt, p->fstype, f->spec.options);
	} else {
		rc = fuse_mount(&f->spec, t->label, f->dev, f->mnt, &f->daemon);
	}
	if (!rc)
		f->mounted = 1;
	return rc;
}

/* Unmount mnt, waiting out a moment's EBUSY and then a FUSE daemon's
 * write-back. */
static void umount_at(const char *mnt, pid_t *daemon)
{
	for (int i = 0; i < 100 && umount2(mnt, 0); i++)
		usleep(50000);	/* EBUSY for a moment after a test's last close */
	if (umount2(mnt, 0) && errno != EINVAL)
		umount2(mnt, MNT_DETACH);
	/* A FUSE daemon may still be writing the image back: wait for it. */
	for (int i = 0; *daemon > 0 && i < 200 && !kill(*daemon, 0); i++)
		usleep(50000);
	*daemon = 0;
}

static void do_umount(struct fs_target *f)
{
	if (!f->mounted)
		return;
	umount_at(f->mnt, &f->daemon);
	f->mounted = 0;
}

/* Flash (in fsbench's guests): opts.device is /dev/mtdN, a partition of
 * the simulated NAND.  UBIFS: attach UBI on it and make one volume filling
 * it; JFFS2: the MTD device itself. */
static int flash_attach(struct target *t, struct fs_target *f)
{
	struct fs_flash fl;

	if (!f->opts.device)
		return error_set("fs '%s': flash needs an MTD device (/dev/mtdN)", t->label);
	/* the simulated chip starts erased */
	if (fs_flash_attach(&f->spec, t->label, f->opts.device, FLASH_MKVOL, &fl))
		return -1;
	f->ubi = fl.ubi;
	str_copy(f->dev, sizeof(f->dev), fl.dev);
	str_copy(f->source, sizeof(f->source), fl.source);
	return 0;
}

static void flash_detach(struct fs_target *f)
{
	struct fs_flash fl = { .ubi = f->ubi };

	fs_flash_detach(&fl);
	f->ubi = 0;
}

/* --keep-aged: the kept directory free for other runs again */
static void keep_unlock(struct fs_target *f)
{
	if (f->keep_lock >= 0)
		close(f->keep_lock);
	f->keep_lock = -1;
}

static void fs_teardown(struct target *t)
{
	struct fs_target *f = t->priv;

	if (!f)
		return;
	keep_unlock(f);
	test_pause("teardown");
	do_umount(f);
	if (f->mnt[0]) {
		rmdir(f->mnt);
		state_remove(STATE_MOUNT, f->mnt);
	}
	flash_detach(f);
	if (f->on_medium)
		medium_detach(medium_of(f));
	f->on_medium = 0;
	medium_free(f->own);
	f->own = NULL;
	if (f->workdir[0]) {	/* an image's file with it */
		scratch_remove(f->workdir);
		f->workdir[0] = '\0';
	}
	f->mnt[0] = '\0';
}

/* --keep-aged keeps an image on a loop device (the kernel's filesystems
 * and FUSE ones over a block device): the image is what is kept. */
static int keepable(const struct fs_target *f)
{
	return f->opts.age && f->opts.age_keep && f->own && medium_image(f->own);
}

/* Before the first mkfs: whether an aged image of this aging is kept. */
static int find_kept(struct target *t, struct fs_target *f)
{
	int r;

	if (!keepable(f))
		return 0;
	if (aged_keep_name(f->spec.profile->name, f->spec.text, f->opts.size, &f->opts, &f->keep))
		return -1;
	/* held until this aging is kept: another run sharing the directory
	 * waits, then finds it (issue 69: it aged too, then failed on this
	 * run's .partial) */
	if (f->keep_lock < 0 && (f->keep_lock = aged_keep_lock(&f->keep)) < 0)
		return -1;
	free(f->aging);
	f->aging = NULL;
	r = aged_keep_find(&f->keep, f->opts.size, &f->aging, t->mkfs, sizeof(t->mkfs));
	f->kept = r == 1;
	if (r != 0)
		keep_unlock(f);	/* found (or refused): nothing of ours will be written */
	return r < 0 ? -1 : 0;
}

/* mkfs; or, with an aged image kept, that image copied in, and the loop
 * device's cached blocks of the one before dropped. */
static int make_fs(struct target *t, struct fs_target *f)
{
	/* every filesystem on the user's device starts from the same reset */
	if (f->on_medium && medium_reset(medium_of(f)))
		return error_prefix("fs '%s'", t->label);
	if (!f->kept)
		return f->spec.profile->mkfs ? run_mkfs(t, f) : 0;
	if (aged_keep_restore(&f->keep, medium_image(f->own)))
		return error_prefix("fs '%s'", t->label);
	if (medium_drop_cache(f->own))
		return error_errno("fs '%s': flushing %s", t->label, f->dev);
	return 0;
}

/* The bytes of a device: a block device's size, an MTD partition's (its
 * sysfs size); 0 when neither says. */
static uint64_t device_bytes(const char *dev)
{
	uint64_t bytes = 0;
	const char *base = strrchr(dev, '/');
	int fd;

	if (base && !strncmp(base + 1, "mtd", 3)) {
		char path[128];
		unsigned long long v;
		snprintf(path, sizeof(path), "/sys/class/mtd/%.32s/size", base + 1);
		FILE *fp = fopen(path, "re");
		if (fp && fscanf(fp, "%llu", &v) == 1)
			bytes = v;
		if (fp)
			fclose(fp);
		return bytes;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && ioctl(fd, BLKGETSIZE64, &bytes))
		bytes = 0;
	if (fd >= 0)
		close(fd);
	return bytes;
}

/* --age after each mkfs.  The nominal capacity is what the filesystem was
 * made on, never what it reports (each reports its own overheads): the
 * image's (tmpfs's) size, which one --fs-size makes the same for every
 * target; a device's or an MTD partition's size (in fsbench's guest, the
 * disks and partitions the host made alike).  A kept image came aged,
 * its record with it; the first aging of a keepable one is kept. */
static int age_after_mount(struct target *t, struct fs_target *f)
{
	uint64_t capacity = f->opts.size;
	struct statvfs sv;

	if (!f->opts.age || f->kept)
		return 0;
	free(f->aging);
	f->aging = NULL;
	if (f->on_medium)
		capacity = medium_bytes(medium_of(f));
	else if (f->opts.device && f->spec.profile->kind != MOUNT_MEMORY)
		capacity = device_bytes(f->opts.device);	/* flash */
	if (!capacity) {	/* a device that does not say */
		if (statvfs(f->mnt, &sv))
			return error_errno("fs '%s': statvfs %s", t->label, f->mnt);
		capacity = (uint64_t)sv.f_blocks * sv.f_frsize;
	}
	struct age_gc gc = { f->spec.profile->cleaner, f->dev, f->workdir };
	if (target_age(t->label, f->mnt, capacity, &f->opts, &gc, &f->aging))
		return -1;
	if (!keepable(f))
		return 0;
	do_umount(f);	/* an image at rest is what is kept */
	int saved = aged_keep_save(&f->keep, medium_image(f->own), f->aging, t->mkfs);
	keep_unlock(f);
	if (saved)
		return error_prefix("fs '%s'", t->label);
	f->kept = 1;
	return do_mount(t, f);
}

static int fs_setup(struct target *t)
{
	struct fs_target *f = t->priv;
	const struct fs_profile *p = f->spec.profile;
	char why[256];

	if (geteuid() != 0)
		return error_set("fs '%s': making and mounting filesystems needs root: run as root or use --target DIR",
				 t->label);
	if (fs_profile_available(p, why, sizeof(why)))
		return error_set("fs '%s': %s is not available here: %s", t->label, p->name, why);
	int flash = fs_kind_flash(p->kind), raw = fs_kind_raw(p->kind);
	if (f->opts.medium && (p->kind == MOUNT_MEMORY || flash))
		return error_set("fs '%s': --device takes filesystems on a block device", t->label);
	if (raw && f->opts.age)
		return error_set("fs '%s': %s has no filesystem to age", t->label, p->name);
	if (scratch_create(f->opts.image_dir, f->workdir, sizeof(f->workdir)))
		goto fail;
	if (p->kind == MOUNT_MEMORY) {
		/* nothing to back it */
	} else if (flash) {
		if (flash_attach(t, f))
			goto fail;
	} else {
		/* its own medium, unless it takes turns on the user's device
		 * (checked and held by its first target) */
		if (!f->opts.medium) {
			f->own = f->opts.device ? medium_new_disk(f->opts.device, f->opts.force_format)
						: medium_new_image(t->label, f->workdir, f->opts.size,
								   f->opts.direct_io,
								   p->kind != MOUNT_FUSE_IMAGE);
			if (!f->own) {
				error_set("out of memory");
				goto fail;
			}
		}
		if (medium_attach(medium_of(f)))
			goto fail;
		f->on_medium = 1;
		str_copy(f->dev, sizeof(f->dev), medium_dev(medium_of(f)));
	}
	if (raw) {	/* the medium reset (or erased) and handed over as it is */
		if (make_fs(t, f))
			goto fail;
		if (f->on_medium)
			medium_settle(medium_of(f), NULL);
		str_copy(t->path, sizeof(t->path), f->workdir);
		return 0;
	}
	str_join(f->mnt, sizeof(f->mnt), f->workdir, "/mnt");
	if (mkdir(f->mnt, 0755)) {
		error_errno("fs '%s': mkdir %s", t->label, f->mnt);
		goto fail;
	}
	/* The source as /proc/self/mountinfo will show it, which cleanup
	 * checks before it unmounts anything. */
	if (state_add(STATE_MOUNT, f->mnt, p->kind == MOUNT_MEMORY ? "tmpfs" : flash ? f->source : f->dev, 0, 0) ||
	    find_kept(t, f) || make_fs(t, f))
		goto fail;
	test_pause("mkfs");
	if (do_mount(t, f))
		goto fail;
	test_pause("mount");
	if (age_after_mount(t, f))
		goto fail;
	if (f->on_medium)
		medium_settle(medium_of(f), f->mnt);
	str_copy(t->path, sizeof(t->path), f->mnt);
	return 0;
fail:
	fs_teardown(t);
	return -1;
}

/* After the unmount the device must be free before a new filesystem is
 * made on it (or a kept image is written back under it).  A filesystem
 * detached lazily (umount_at, after EBUSY) or still mounted in another
 * mount namespace lives on: a process started with unshare(1), a
 * container or a service with private mounts, started while it was
 * mounted, holds a copy of the mount until it ends, and mkfs then says
 * only "apparently in use by the system".  A moment for a detached
 * filesystem to go, then an error that names the likely holders. */
static int device_released(const struct target *t, const struct fs_target *f)
{
	/* fsbench's own loop devices only: a guest's disk under nilfs2 stays
	 * claimed a moment after its unmount, and mkfs.nilfs2 -f copes there */
	if (!f->on_medium || !medium_on_loop(medium_of(f)))
		return 0;
	for (int i = 0; i < 50; i++) {
		/* a block device's O_EXCL open fails with EBUSY while it is claimed */
		int fd = open(f->dev, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EBUSY)
			return 0;	/* mkfs says what it is */
		usleep(100000);
	}
	return error_set("fs '%s': %s is still in use after its filesystem was unmounted, so no "
			 "fresh filesystem can be made for the next test: another mount namespace "
			 "holds a copy of the mount (a process started with unshare(1), a container "
			 "or a service with private mounts, started while it was mounted), or a "
			 "process still has a file open there", t->label, f->dev);
}

static int fs_refresh(struct target *t)
{
	struct fs_target *f = t->priv;

	do_umount(f);
	if (device_released(t, f) || make_fs(t, f))
		return -1;
	if (fs_kind_raw(f->spec.profile->kind)) {
		if (f->on_medium)
			medium_settle(medium_of(f), NULL);
		return 0;
	}
	if (do_mount(t, f) || age_after_mount(t, f))
		return -1;
	if (f->on_medium)
		medium_settle(medium_of(f), f->mnt);
	return 0;
}

/* Its turn on a shared medium over: unmounted, the device free for the
 * next filesystem (which refresh then makes afresh). */
static void fs_park(struct target *t)
{
	do_umount(t->priv);
}

static const struct target_ops fs_ops = {
	.kind = "fs",
	.setup = fs_setup,
	.refresh = fs_refresh,
	.park = fs_park,
	.teardown = fs_teardown,
};

int target_from_spec(const struct fs_spec *spec, const struct provision_opts *o,
		     struct target *t)
{
	struct fs_target *f = calloc(1, sizeof(*f));

	memset(t, 0, sizeof(*t));
	if (!f)
		return error_set("out of memory");
	f->spec = *spec;
	f->opts = *o;
	f->keep_lock = -1;
	t->ops = &fs_ops;
	t->priv = f;
	t->shares = o->medium;
	str_copy(t->label, sizeof(t->label), spec->label);
	str_copy(t->spec, sizeof(t->spec), spec->text);
	return 0;
}

int target_uses_device(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f && f->spec.profile->kind != MOUNT_MEMORY && f->spec.profile->kind != MOUNT_NONE &&
	       !fs_kind_flash(f->spec.profile->kind);
}

const char *target_raw_device(const struct target *t, uint64_t *bytes)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	if (!f || !fs_kind_raw(f->spec.profile->kind) || !f->dev[0])
		return NULL;
	if (bytes)
		*bytes = f->on_medium ? medium_bytes(medium_of(f)) : device_bytes(f->dev);
	return f->dev;
}

const char *target_raw_disk(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	if (!target_raw_device(t, NULL))
		return NULL;
	return f->on_medium ? medium_whole(medium_of(f)) : f->dev;
}

const char *target_medium(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f && f->opts.medium && medium_text(f->opts.medium)[0] ? medium_text(f->opts.medium)
								     : NULL;
}

const char *target_medium_counters(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f && f->opts.medium && medium_counters(f->opts.medium)[0] ?
		       medium_counters(f->opts.medium) : NULL;
}

const struct fs_spec *target_fs_spec(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f ? &f->spec : NULL;
}

const char *target_aging(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f ? f->aging : NULL;
}

uint64_t target_image_size(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f ? f->opts.size : 0;
}

void target_set_flash_twin(struct target *t, const char *mtd)
{
	struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	if (f)
		f->twin = mtd;
}

const char *target_flash_twin(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f ? f->twin : NULL;
}

uint64_t target_medium_buffer(const struct target *t)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	return f ? medium_buffer(medium_of(f)) : 0;
}

void target_set_device(struct target *t, const char *dev)
{
	struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	if (f)
		f->opts.device = dev;
}

int target_check_size(const struct target *t, uint64_t size)
{
	const struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;
	char want[32], got[32];

	if (!f || f->opts.device || size >= f->spec.profile->min_size)
		return 0;
	format_size(f->spec.profile->min_size, want, sizeof(want));
	format_size(size, got, sizeof(got));
	return error_set("fs '%s': %s needs at least %s, not %s: use --fs-size %s or more",
			 t->label, f->spec.profile->name, want, got, want);
}

int target_set_image_size(struct target *t, uint64_t size)
{
	struct fs_target *f = t->ops == &fs_ops ? t->priv : NULL;

	if (!f || f->opts.device || !target_uses_device(t))
		return 0;
	if (size < f->spec.profile->min_size)
		size = f->spec.profile->min_size;
	f->opts.size = size;
	return !f->opts.medium;	/* on the user's device: no image */
}

void target_free(struct target *t)
{
	if (t->ops == &fs_ops && t->priv)
		free(((struct fs_target *)t->priv)->aging);
	if (t->ops == &fs_ops)
		free(t->priv);
	t->priv = NULL;
}

/* A profile's filesystem made and mounted for a caller that owns the
 * device (the powercut workload's recorded device, its replayed images,
 * its flash partition in the guest): the same mkfs line and mount
 * options a target uses.  Flash: dev is what fs_flash_attach gave. */
static int owned_profile(const struct fs_spec *spec, const char *label)
{
	enum mount_kind k = spec->profile->kind;

	if (k == MOUNT_KERNEL || k == MOUNT_FUSE_BLOCK || k == MOUNT_FUSE_IMAGE || k == MOUNT_UBI ||
	    k == MOUNT_MTD)
		return 0;
	return error_set("fs '%s': %s is not a filesystem on a device", label, spec->profile->name);
}

int fs_spec_mkfs(const struct fs_spec *spec, const char *label, const char *dev,
		 const char *workdir, char *line, size_t len)
{
	if (owned_profile(spec, label))
		return -1;
	return mkfs_on(spec, label, dev, workdir, line, len);
}

int fs_spec_mount(const struct fs_spec *spec, const char *label, const char *dev,
		  const char *mnt, pid_t *daemon)
{
	*daemon = 0;
	if (owned_profile(spec, label))
		return -1;
	if (spec->profile->kind != MOUNT_FUSE_BLOCK && spec->profile->kind != MOUNT_FUSE_IMAGE)
		return kernel_mount(label, dev, mnt, spec->profile->fstype, spec->options);
	return fuse_mount(spec, label, dev, mnt, daemon);
}

int fs_flash_attach(const struct fs_spec *spec, const char *label, const char *mtd, unsigned how,
		    struct fs_flash *fl)
{
	char out[4096], num[16], ubidev[32];
	int n, rc;

	if (strncmp(mtd, "/dev/mtd", 8) || (n = atoi(mtd + 8)) < 0 || n > 63)
		return error_set("fs '%s': flash needs an MTD device (/dev/mtdN), not %s", label, mtd);
	memset(fl, 0, sizeof(*fl));
	if (how & FLASH_ERASE) {	/* every block erased: a new chip */
		char *erase[] = { "flash_erase", "-q", (char *)mtd, "0", "0", NULL };
		rc = exec_capture(erase, out, sizeof(out));
		if (rc)
			return rc < 0 ? -1 : error_set("fs '%s': flash_erase %s failed: %s", label, mtd,
						       tool_reason(out));
	}
	if (spec->profile->kind != MOUNT_UBI) {	/* JFFS2, raw: the MTD device itself */
		str_copy(fl->dev, sizeof(fl->dev), mtd);
		snprintf(fl->source, sizeof(fl->source), "mtd%d", n);
		return 0;
	}
	snprintf(num, sizeof(num), "%d", n);
	snprintf(ubidev, sizeof(ubidev), "/dev/ubi%d", n);
	char *attach[] = { "ubiattach", "-m", num, "-d", num, NULL };
	char *mkvol[] = { "ubimkvol", ubidev, "-N", "fsbench", "-m", NULL };
	rc = exec_capture(attach, out, sizeof(out));
	if (rc)
		return rc < 0 ? -1 : error_set("fs '%s': ubiattach failed: %s", label, tool_reason(out));
	fl->ubi = n + 1;
	if ((how & FLASH_MKVOL) && (rc = exec_capture(mkvol, out, sizeof(out)))) {
		fs_flash_detach(fl);
		return rc < 0 ? -1 : error_set("fs '%s': ubimkvol failed: %s", label, tool_reason(out));
	}
	snprintf(fl->dev, sizeof(fl->dev), "/dev/ubi%d_0", n);
	snprintf(fl->source, sizeof(fl->source), "ubi%d:fsbench", n);
	return 0;
}

/* UBI's erase counters (the flash wear): their sum from UBI's debugfs
 * table of every physical erase block, -1 when it is not there; the
 * highest from sysfs. */
int64_t fs_ubi_erases(int ubi, int64_t *max_ec)
{
	char path[128], line[256];
	int64_t sum = -1;
	FILE *f;

	*max_ec = -1;
	snprintf(path, sizeof(path), "/sys/class/ubi/ubi%d/max_ec", ubi - 1);
	if ((f = fopen(path, "re"))) {
		long long v;
		if (fscanf(f, "%lld", &v) == 1 && v >= 0)
			*max_ec = v;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/sys/kernel/debug/ubi/ubi%d/detailed_erase_block_info", ubi - 1);
	if ((f = fopen(path, "re"))) {
		while (fgets(line, sizeof(line), f)) {
			long long pnum, ec;
			if (sscanf(line, "%lld %lld", &pnum, &ec) == 2 && ec >= 0)
				sum = (sum < 0 ? 0 : sum) + ec;
		}
		fclose(f);
	}
	return sum;
}

void fs_flash_detach(struct fs_flash *fl)
{
	char num[16], *detach[] = { "ubidetach", "-m", num, NULL };

	if (!fl->ubi)
		return;
	snprintf(num, sizeof(num), "%d", fl->ubi - 1);
	exec_capture(detach, NULL, 0);
	fl->ubi = 0;
}

void fs_spec_umount(const char *mnt, pid_t *daemon)
{
	umount_at(mnt, daemon);
}
