/*
 * powercut.c: what a power cut leaves, per filesystem
 * (docs/workloads/powercut.md).
 *
 * One repetition records one run of an application shape
 * (powercut-shapes.c) on the target's own kind of filesystem, made again
 * on a dm-log-writes device in the scratch directory, then cuts the power
 * at a seeded sample of points of the log (crash/crashpoint.h) and checks
 * each replayed image with the filesystem's own tools: does it mount, is
 * it clean, does a repair bring it back, and is every promised file or
 * row still there.  Everything it makes (images, loop devices, the dm
 * device, mounts) is recorded in the state file before it exists, like
 * every provisioned target's, and undone however the repetition ends.
 * UBIFS has no block log to replay: powercut-flash.c cuts it by UBI's own
 * emulation, with the checks of a point's data shared from here
 * (powercut_internal.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "workload.h"
#include "powercut.h"
#include "powercut_internal.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/file.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../crash/crashpoint.h"
#include "../crash/dmlog.h"
#include "../crash/logwrites.h"
#include "../crash/manifest.h"
#include "../targets/loop.h"
#include "../targets/profiles.h"
#include "../targets/state.h"
#include "../targets/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>


#define P(f) offsetof(struct pc_params, f)
static const struct param_def pc_params[] = {
	{ "shape", PT_ENUM, P(shape), "fsync", 0, 0, PC_SHAPE_CHOICES,
	  "the application: fs_mark's create+fsync, seed 001's restore+sync, SQLite commits" },
	{ "files", PT_INT, P(files), "200", 1, 1000000, NULL,
	  "files written (sqlite: rows, each its own transaction)" },
	{ "size", PT_SIZE, P(size), "16k", 1, 8 << 20, NULL,
	  "bytes per file (tree: the mean; sqlite: per row)" },
	{ "points", PT_INT, P(points), "32", 1, 10000, NULL,
	  "crash points replayed and checked per repetition" },
	{ "seed", PT_INT, P(seed), "1", 0, 1e15, NULL,
	  "seed of the data and of the crash points (each repetition adds its number)" },
	{ "device", PT_SIZE, P(device), "512M", 64 << 20, 64ULL << 30, NULL,
	  "size of the recorded filesystem's device (raised to what its mkfs needs)" },
	{ "atomic", PT_SIZE, P(atomic), "4k", 512, 1 << 20, NULL,
	  "the unit the device writes whole: a torn write is cut only at its multiples" },
	{ "buffer", PT_SIZE, P(buffer), "0", 0, 1ULL << 30, NULL,
	  "a volatile buffer that flushes do not empty (a USB key's): its last bytes lost at "
	  "each cut (0: the medium's own, a modelled key's; none on any other)" },
	{ "fsync", PT_BOOL, P(fsync), "1", 0, 0, NULL,
	  "0: shape=fsync promises without its fsyncs (the detector's self-test: losses expected)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};


static const struct metric_def pc_metrics[] = {
	[M_LOST] = { "promised_lost", "Items", LOWER_IS_BETTER, "Promised files/rows lost", 0 },
	[M_LOST_BYTES] = { "promised_bytes_lost", "Bytes", LOWER_IS_BETTER, "Promised bytes lost", 0 },
	[M_CLEAN] = { "clean_pct", "%", HIGHER_IS_BETTER, "Points mounting clean", 1 },
	[M_REPAIRED] = { "repaired_pct", "%", LOWER_IS_BETTER, "Points needing repair", 0 },
	[M_UNMOUNTABLE] = { "unmountable_pct", "%", LOWER_IS_BETTER, "Points lost (no mount after repair)", 0 },
	[M_PENDING_LOST] = { "pending_bytes_lost", "Bytes", LOWER_IS_BETTER, "Bytes not yet promised, lost", 0 },
	[M_REC_MED] = { "recovery_ms_median", "ms", LOWER_IS_BETTER, "Recovery time, median", 0 },
	[M_REC_MAX] = { "recovery_ms_max", "ms", LOWER_IS_BETTER, "Recovery time, worst", 0 },
	[M_POINTS] = { "points", "Points", HIGHER_IS_BETTER, "Crash points checked", 0 },
};

/* The filesystem's own check (read-only) and repair, by kernel type or,
 * for FUSE profiles, by the tools of the format they serve. */
struct fsck_tool {
	const char *fs;		/* fstype, or a profile name */
	const char *check;	/* exit 0: clean */
	const char *repair;	/* NULL: none worth running */
};

static const struct fsck_tool fsck_tools[] = {
	{ "ext2", "fsck.ext2 -fn", "fsck.ext2 -fy" },
	{ "ext4", "fsck.ext4 -fn", "fsck.ext4 -fy" },
	{ "ext4-fuse", "fsck.ext4 -fn", "fsck.ext4 -fy" },
	{ "xfs", "xfs_repair -n", "xfs_repair" },
	{ "btrfs", "btrfs check --readonly", NULL },
	{ "f2fs", "fsck.f2fs -f --dry-run", "fsck.f2fs -f -y" },
	{ "exfat", "fsck.exfat -n", "fsck.exfat -y" },
	{ "exfat-fuse", "fsck.exfat -n", "fsck.exfat -y" },
	{ "vfat", "fsck.vfat -n", "fsck.vfat -a" },
	{ "nilfs2", NULL, NULL },	/* a log: mounting is its recovery */
};

static const struct fsck_tool *fsck_for(const struct fs_spec *s)
{
	const char *key = s->profile->fstype ? s->profile->fstype : s->profile->name;

	for (size_t i = 0; i < sizeof(fsck_tools) / sizeof(fsck_tools[0]); i++)
		if (!strcmp(fsck_tools[i].fs, key))
			return &fsck_tools[i];
	return NULL;
}

/* The tool on dev: 0 it said clean (or there is none), 1 it did not. */
static int run_tool(const char *cmd, const char *dev, char *out, size_t len)
{
	char line[600], *argv[16];
	int n, rc;

	if (!cmd)
		return 0;
	snprintf(line, sizeof(line), "%s %s", cmd, dev);
	n = split_words(line, argv, 15);
	argv[n] = NULL;
	rc = exec_capture(argv, out, len);
	return rc != 0;
}

/* One repetition's things, each undone by pc_undo in the reverse order. */
struct pc_run {
	char data[4400], log[4400], base[4400], point[4400], mnt[4400], rmnt[4400];
	char dloop[64], lloop[64], ploop[64];
	int dfd, lfd, pfd;
	struct dmlog dm;
	int mounted, rmounted;
	pid_t daemon, rdaemon;
	uint64_t device;	/* the data device's size */
};

struct pc_state {
	int rep;
};

/* Whether filesystem p can have its power cut at all. */
static int pc_refuse_kind(const struct fs_profile *p)
{
	switch (p->kind) {
	case MOUNT_KERNEL:
	case MOUNT_FUSE_BLOCK:
	case MOUNT_UBI:
		return 0;
	case MOUNT_MTD:
		/* UBI's emulation sits in UBI; below JFFS2 there is only MTD,
		 * which neither cuts power nor logs its writes */
		return error_set("powercut: %s is not measured: the kernel has no power-cut emulation "
				 "for raw MTD (UBI's debugfs one is UBI's own, under UBIFS only) and "
				 "nandsim records no writes to replay", p->name);
	case MOUNT_MEMORY:
		return error_set("powercut: tmpfs keeps nothing across a power cut");
	default:
		return error_set("powercut: %s is not on a device fsbench can record", p->name);
	}
}

static int pc_validate_target(const struct wl_ctx *ctx)
{
	if (!ctx->fs)
		return error_set("powercut needs a filesystem fsbench makes (--fs): it makes the same one "
				 "again on a recorded device");
	if (pc_refuse_kind(ctx->fs->profile))
		return -1;
	if (ctx->fs->profile->kind == MOUNT_UBI && !ctx->mtd)
		return error_set("powercut: %s needs a flash partition of its own, which fsbench's "
				 "guest gives (--vm)", ctx->fs->profile->name);
	return 0;
}

static int attach(const char *image, char *dev, size_t len, int *fd)
{
	struct stat st;
	int dio;

	/* recorded as soon as the kernel names it; until then its autoclear
	 * flag detaches it if fsbench dies (as fs.c's) */
	if (stat(image, &st) || loop_attach(image, 1, dev, len, &dio, fd))
		return -1;
	return state_add(STATE_LOOP, dev, image, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
}

static void detach(char *dev, int *fd)
{
	if (!dev[0])
		return;
	loop_detach(dev, *fd);
	state_remove(STATE_LOOP, dev);
	dev[0] = '\0';
	*fd = -1;
}

static int make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return error_errno("%s", path);
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return error_errno("%s", path);
	}
	close(fd);
	return 0;
}

void pc_unmount(const char *mnt, int *mounted, pid_t *daemon)
{
	if (!*mounted)
		return;
	fs_spec_umount(mnt, daemon);
	state_remove(STATE_MOUNT, mnt);
	*mounted = 0;
}

static void pc_undo(struct pc_run *r)
{
	pc_unmount(r->rmnt, &r->rmounted, &r->rdaemon);
	detach(r->ploop, &r->pfd);
	pc_unmount(r->mnt, &r->mounted, &r->daemon);
	if (r->dm.name[0]) {
		struct error_keep k;
		error_keep(&k, -1);
		dmlog_remove(&r->dm);
		error_kept(&k, 0);
		state_remove(STATE_DM, r->dm.dev);
		r->dm.name[0] = '\0';
	}
	detach(r->dloop, &r->dfd);
	detach(r->lloop, &r->lfd);
}

int pc_path_in(char *out, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, 4400, "%s/%s", dir, name) >= 4400)
		return error_set("powercut: path too long under %s", dir);
	return 0;
}

struct ack_ctx {
	struct dmlog *dm;
};

static int mark_ack(void *ctx, uint32_t n)
{
	char mark[32];

	manifest_mark(n, mark, sizeof(mark));
	return dmlog_mark(((struct ack_ctx *)ctx)->dm, mark);
}

/* The record: mkfs and the shape on the logged device; the log complete. */
static int record(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed, struct pc_run *r,
		  struct manifest *m, uint32_t *acks)
{
	struct pc_shape_params sp = { p->shape, p->files, p->size, seed, p->fsync };
	uint64_t device = r->device;
	/* the log holds mkfs's writes (ext4 zeroes its inode tables and
	 * journal), the data and the journal's copy of it; sparse */
	uint64_t logsize = sat_add(sat_mul(device, 2), sat_mul3(4, sat_u(p->files), p->size));
	struct ack_ctx ac = { &r->dm };
	struct pc_hooks h = { mark_ack, &ac };

	if (make_file(r->data, device) || make_file(r->log, logsize) ||
	    attach(r->data, r->dloop, sizeof(r->dloop), &r->dfd) ||
	    attach(r->log, r->lloop, sizeof(r->lloop), &r->lfd))
		return -1;
	dmlog_name(&r->dm);
	if (state_add(STATE_DM, r->dm.dev, r->dm.uuid, 0, 0) ||
	    dmlog_create(&r->dm, r->dloop, r->lloop))
		return -1;
	if (fs_spec_mkfs(ctx->fs, ctx->label, r->dm.dev, ctx->dir, NULL, 0) ||
	    dmlog_mark(&r->dm, "mkfs"))
		return -1;
	if (mkdir(r->mnt, 0755))
		return error_errno("mkdir %s", r->mnt);
	if (state_add(STATE_MOUNT, r->mnt, r->dm.dev, 0, 0))
		return -1;
	if (fs_spec_mount(ctx->fs, ctx->label, r->dm.dev, r->mnt, &r->daemon)) {
		state_remove(STATE_MOUNT, r->mnt);
		return -1;
	}
	r->mounted = 1;
	if (pc_shape_run(r->mnt, &sp, m, &h, acks))
		return -1;
	pc_unmount(r->mnt, &r->mounted, &r->daemon);
	if (dmlog_remove(&r->dm))
		return -1;
	state_remove(STATE_DM, r->dm.dev);
	r->dm.name[0] = '\0';
	detach(r->dloop, &r->dfd);
	detach(r->lloop, &r->lfd);
	return 0;
}


/* The first finding of its kind, into buf (left alone once it holds one):
 * where the power was cut, then what was found there. */
void pc_note_first(char *buf, size_t len, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void pc_note_first(char *buf, size_t len, const char *where, const char *fmt, ...)
{
	va_list ap;
	size_t used;

	if (buf[0])
		return;
	str_copy(buf, len, where);
	used = strlen(buf);
	if (!fmt || used + 2 >= len)
		return;
	memcpy(buf + used, ": ", 3);
	va_start(ap, fmt);
	vsnprintf(buf + used + 2, len - used - 2, fmt, ap);
	va_end(ap);
}

/* A point that did not mount: everything promised by then is out of
 * reach. */
void pc_lost_all(const struct pc_params *p, const struct manifest *m, int64_t acked,
		     const char *where, struct pc_tally *t)
{
	t->unmountable++;
	if (p->shape >= PC_SQLITE_WAL) {
		uint64_t rows = acked > 1 ? (uint64_t)acked - 1 : 0;
		t->lost += rows;
		t->lost_bytes += rows * p->size;
	} else {
		for (size_t i = 0; i < m->n; i++)
			if (m->f[i].ack < (uint64_t)acked) {
				t->lost++;
				t->lost_bytes += m->f[i].size;
			}
	}
	pc_note_first(t->first, sizeof(t->first), where, NULL);
	t->finding = 1;
}

/* The mounted filesystem's data against the promises (the manifest, or
 * the SQLite database and its integrity); *damaged set when SQLite had
 * to repair the database. */
int pc_check_data(const struct pc_params *p, uint64_t seed, const char *mnt,
		      const struct manifest *m, int64_t acked, const char *where,
		      struct pc_tally *t, int *damaged)
{
	struct pc_shape_params sp = { p->shape, p->files, p->size, seed, p->fsync };

	if (p->shape >= PC_SQLITE_WAL) {
		struct pc_sqlite_outcome so;
		if (pc_sqlite_check(mnt, &sp, (uint32_t)acked, &so))
			return -1;
		t->lost += (uint64_t)so.promised_lost;
		t->lost_bytes += (uint64_t)so.promised_lost * p->size;
		t->finding |= so.promised_lost > 0;
		if (so.opened && !so.intact)
			*damaged = 1;	/* the database needed SQLite's own repair */
		if (so.promised_lost || (so.opened && !so.intact))
			pc_note_first(t->first, sizeof(t->first), where,
				   "%lld of %lld promised rows lost, %s%.160s", (long long)so.promised_lost,
				   (long long)so.promised,
				   !so.opened ? "no database" : so.intact ? "integrity ok" : "integrity: ",
				   so.opened && !so.intact ? so.integrity : "");
	} else {
		struct mf_outcome o;
		if (manifest_check(m, mnt, (uint32_t)acked, &o))
			return -1;
		t->lost += o.promised_lost;
		t->lost_bytes += o.promised_bytes_lost;
		t->pending_lost += o.unpromised_bytes_lost;
		t->finding |= o.promised_lost > 0;
		if (o.promised_lost)
			pc_note_first(t->first, sizeof(t->first), where, "%s", o.first_loss);
	}
	return 0;
}

/* What one replayed image holds: mount (timed: journal replay), the
 * data against the promises, the filesystem's check; a repair when the
 * mount or the check failed. */
static int check_point(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed,
		       struct pc_run *r, const struct lw_log *log, const struct manifest *m,
		       const struct crash_point *cp, struct pc_tally *t)
{
	const struct fsck_tool *tool = fsck_for(ctx->fs);
	size_t end = crash_point_end(cp);
	int64_t acked = manifest_acked(log, end);
	char out[4096], where[300];
	uint64_t t0;
	double ms = 0;
	int repaired = 0, mounted, damaged;

	crash_describe(log, cp, where, sizeof(where));
	if (acked < 0 || attach(r->point, r->ploop, sizeof(r->ploop), &r->pfd) ||
	    state_add(STATE_MOUNT, r->rmnt, r->ploop, 0, 0))
		return -1;
	t0 = now_ns();
	mounted = fs_spec_mount(ctx->fs, ctx->label, r->ploop, r->rmnt, &r->rdaemon) == 0;
	ms += (double)(now_ns() - t0) / 1e6;
	if (!mounted)
		pc_note_first(t->damage, sizeof(t->damage), where, "%.380s", error_get());
	if (!mounted && tool && tool->repair) {
		t0 = now_ns();
		run_tool(tool->repair, r->ploop, out, sizeof(out));
		mounted = fs_spec_mount(ctx->fs, ctx->label, r->ploop, r->rmnt, &r->rdaemon) == 0;
		ms += (double)(now_ns() - t0) / 1e6;
		repaired = 1;
	}
	if (!mounted) {
		state_remove(STATE_MOUNT, r->rmnt);
		pc_lost_all(p, m, acked, where, t);
		detach(r->ploop, &r->pfd);
		return 0;
	}
	r->rmounted = 1;
	if (pc_check_data(p, seed, r->rmnt, m, acked, where, t, &repaired))
		return -1;
	pc_unmount(r->rmnt, &r->rmounted, &r->rdaemon);
	damaged = tool && run_tool(tool->check, r->ploop, out, sizeof(out));
	if (damaged) {
		/* the tool's last words, on one line */
		for (char *c = out; *c; c++)
			if (*c == '\n' || *c == '\t')
				*c = ' ';
		pc_note_first(t->damage, sizeof(t->damage), where, "%s: %.300s", tool->check,
			   strlen(out) > 300 ? out + strlen(out) - 300 : out);
	}
	t->recovery_ms[t->points] = ms;
	t->points++;
	if (repaired || damaged)
		t->repaired++;
	else
		t->clean++;
	detach(r->ploop, &r->pfd);
	return 0;
}

static const char *const shape_names[] = { "fsync", "tree", "sqlite-wal", "sqlite-rollback" };

/* The parameters that make this repetition again: its own seed, one run. */
static void repro_params(const struct pc_params *p, uint64_t seed, uint64_t buffer, char *buf,
			 size_t len)
{
	char size[32], device[32], atomic[32], held[48] = "";

	format_size(p->size, size, sizeof(size));
	format_size(p->device, device, sizeof(device));
	format_size(p->atomic, atomic, sizeof(atomic));
	if (buffer) {
		/* the medium's own said outright: the finding replays anywhere */
		char b[32];
		format_size(buffer, b, sizeof(b));
		snprintf(held, sizeof(held), ",buffer=%s", b);
	}
	snprintf(buf, len, "shape=%s,files=%lld,size=%s,points=%lld,seed=%llu,device=%s,atomic=%s%s%s",
		 shape_names[p->shape], (long long)p->files, size, (long long)p->points,
		 (unsigned long long)seed, device, atomic, held, p->fsync ? "" : ",fsync=0");
}

/* The repetition's first finding kept, so that it can be looked at and
 * reproduced: the image as that power cut left it (made again from the
 * base, since the check has mounted and repaired the one it used), the
 * whole record, and a README saying what was found and how to see it.
 * In a directory of its own (mkdtemp) under the run's findings directory,
 * which fsbench owns (next to the result store; in the guest, the
 * exchange directory, collected by the host). */
static int keep_finding(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed,
			struct pc_run *r, const struct lw_log *log, int logfd,
			const struct crash_point *cp, struct pc_tally *t)
{
	const struct fsck_tool *tool = fsck_for(ctx->fs);
	char dir[4400], img[4400], rec[4400], readme[4400], what[512], params[512], text[4096];
	char *c;
	int fd, w;

	/* the label as a file name: letters, digits and "-_." only */
	snprintf(what, sizeof(what), "%s-%s-seed%llu-XXXXXX", ctx->label, shape_names[p->shape],
		 (unsigned long long)seed);
	for (c = what; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.'))
			*c = '_';
	if (file_mkdirs(ctx->findings) || pc_path_in(dir, ctx->findings, what))
		return -1;
	if (!mkdtemp(dir))
		return error_errno("mkdtemp %s", dir);
	if (pc_path_in(img, dir, "point.img") || pc_path_in(rec, dir, "log.img") ||
	    pc_path_in(readme, dir, "README.txt") || file_copy_sparse(r->base, img, UINT64_MAX))
		return -1;
	fd = open(img, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_errno("%s", img);
	if (crash_apply_torn(log, logfd, fd, cp)) {
		close(fd);
		return -1;
	}
	close(fd);
	if (file_copy_sparse(r->log, rec, UINT64_MAX))
		return -1;
	repro_params(p, seed, p->buffer ? p->buffer : ctx->medium_buffer, params, sizeof(params));
	crash_describe(log, cp, what, sizeof(what));
	const struct fs_profile *pr = ctx->fs->profile;
	char mount[1024];
	if (pr->kind == MOUNT_KERNEL)
		snprintf(mount, sizeof(mount), "mount -t %s%s%s /dev/loopN /mnt   (fsbench's options)",
			 pr->fstype ? pr->fstype : pr->name, ctx->fs->options[0] ? " -o " : "",
			 ctx->fs->options);
	else
		snprintf(mount, sizeof(mount), "# mount /dev/loopN with the FUSE helper fsbench uses "
			 "for %s", pr->name);
	w = snprintf(text, sizeof(text),
		     "fsbench powercut finding on %s (%s)\n\n"
		     "Found: %s\n"
		     "The power cut: %s (dm-log-writes entry numbers of log.img)\n\n"
		     "point.img  the device as that power cut left it, before any mount or repair\n"
		     "log.img    every write, flush and FUA of the run, in the dm-log-writes format\n"
		     "           (the kernel's Documentation/admin-guide/device-mapper/log-writes.rst)\n\n"
		     "To see it (on a copy: a mount replays the journal and changes the image):\n"
		     "  cp --sparse=always point.img /var/tmp/p.img\n"
		     "  losetup --find --show /var/tmp/p.img\n"
		     "  %s%s/dev/loopN\n"
		     "  %s\n\n"
		     "The same run again, with its seed (the log differs run to run, so the points do too):\n"
		     "  fsbench run powercut:%s --fs %s --runs 1%s\n",
		     ctx->label, ctx->fs->text, t->first[0] ? t->first : "(see the run's detail)", what,
		     tool && tool->check ? tool->check : "", tool && tool->check ? " " : "# no check for ",
		     mount, params, ctx->fs->text, ctx->guest ? " --vm" : "");
	if (w < 0 || (size_t)w >= sizeof(text))
		return error_set("powercut: the finding's README is too long");
	fd = open(readme, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno("%s", readme);
	if (write(fd, text, (size_t)w) != w) {
		close(fd);
		return error_errno("%s", readme);
	}
	close(fd);
	/* the name: in the guest the directory moves to the host's */
	str_copy(t->kept, sizeof(t->kept), strrchr(dir, '/') + 1);
	fprintf(stderr, "fsbench: powercut on %s: a finding kept in %s (README.txt says how to "
		"reproduce it)\n", ctx->label, dir);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int pc_refuse_dir(const void *params, const char *dir)
{
	(void)params;
	return error_set("powercut needs a filesystem fsbench makes (--fs), not the directory %s: it "
			 "makes the same filesystem again on a recorded device", dir);
}

/* What this kernel must offer to cut the power under filesystem p: UBI's
 * debugfs emulation for UBIFS, dm-log-writes for a block filesystem.
 * Asked before anything is made, and again in prepare. */
static int pc_validate_fs(const void *params, const struct fs_profile *p)
{
	char why[256];

	(void)params;
	if (pc_refuse_kind(p))
		return -1;
	if (p->kind == MOUNT_UBI) {
		if (access("/sys/kernel/debug/ubi", F_OK))
			return error_set("powercut: UBI's debugfs (/sys/kernel/debug/ubi) is not there: "
					 "its power-cut emulation needs it");
	} else if (dmlog_available(why, sizeof(why))) {
		error_set("powercut: %s, which fsbench's guest has (dm-log-writes)", why);
		return WL_GUEST_HAS_IT;
	}
	return 0;
}

static int pc_prepare(struct wl_ctx *ctx)
{
	if (pc_validate_target(ctx) || pc_validate_fs(ctx->params, ctx->fs->profile))
		return -1;
	ctx->state = calloc(1, sizeof(struct pc_state));
	return ctx->state ? 0 : error_set("out of memory");
}

static void pc_cleanup(struct wl_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

/* The repetition's figures from its tally of n points. */
void pc_fill_values(double *values, struct pc_tally *t, size_t n)
{
	qsort(t->recovery_ms, (size_t)t->points, sizeof(double), cmp_double);
	values[M_LOST] = (double)t->lost;
	values[M_LOST_BYTES] = (double)t->lost_bytes;
	values[M_CLEAN] = n ? 100.0 * t->clean / (double)n : NAN;
	values[M_REPAIRED] = n ? 100.0 * t->repaired / (double)n : NAN;
	values[M_UNMOUNTABLE] = n ? 100.0 * t->unmountable / (double)n : NAN;
	values[M_PENDING_LOST] = (double)t->pending_lost;
	values[M_REC_MED] = t->points ? t->recovery_ms[t->points / 2] : NAN;
	values[M_REC_MAX] = t->points ? t->recovery_ms[t->points - 1] : NAN;
	values[M_POINTS] = (double)n;
}


static int pc_run(struct wl_ctx *ctx, double *values)
{
	const struct pc_params *p = ctx->params;
	struct pc_state *ps = ctx->state;
	uint64_t seed = (uint64_t)p->seed + (uint64_t)ps->rep++;

	if (ctx->fs->profile->kind == MOUNT_UBI)
		return pc_run_flash(ctx, p, seed, values);
	struct pc_run r = { .dfd = -1, .lfd = -1, .pfd = -1 };
	struct manifest m = { 0 };
	struct lw_log log = { 0 };
	struct crash_plan plan = { 0 };
	struct pc_tally t = { 0 };
	size_t at = 0, start;
	uint64_t buffer;
	char held[32] = "";
	uint32_t acks = 0;
	int logfd = -1, basefd = -1, rc = -1, keep_tried = 0;

	r.device = p->device < ctx->fs->profile->min_size ? ctx->fs->profile->min_size : p->device;
	if (pc_path_in(r.data, ctx->dir, "data.img") || pc_path_in(r.log, ctx->dir, "log.img") ||
	    pc_path_in(r.base, ctx->dir, "base.img") || pc_path_in(r.point, ctx->dir, "point.img") ||
	    pc_path_in(r.mnt, ctx->dir, "mnt") || pc_path_in(r.rmnt, ctx->dir, "replay"))
		return -1;
	if (record(ctx, p, seed, &r, &m, &acks))
		goto out;
	if (lw_read_file(r.log, 0, &log, &logfd))
		goto out;
	/* the kernel ends a complete log with this mark; a log device that
	 * filled up stopped logging silently, and a replay of it would lie */
	if (!log.n || strcmp(lw_mark_text(&log, log.n - 1), "dm-log-writes-end")) {
		error_set("powercut: the log does not end with the kernel's end mark (its device "
			  "filled up?): refused");
		goto out;
	}
	start = lw_find_mark(&log, "mkfs", 0);
	if (start == log.n) {
		error_set("powercut: the log has no mark after mkfs");
		goto out;
	}
	if (crash_plan_make(&log, start + 1, (size_t)p->points, seed, &plan))
		goto out;
	crash_plan_set_unit(&plan, (uint32_t)(p->atomic / log.sectorsize ? p->atomic / log.sectorsize : 1));
	buffer = p->buffer ? p->buffer : ctx->medium_buffer;
	crash_plan_set_buffer(&plan, &log, start + 1, buffer);
	t.recovery_ms = calloc(plan.n ? plan.n : 1, sizeof(double));
	if (!t.recovery_ms || mkdir(r.rmnt, 0755) || make_file(r.base, 0)) {
		error_set("powercut: cannot lay out the replay");
		goto out;
	}
	basefd = open(r.base, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	/* the device's whole size: the filesystem's own size is in its
	 * superblock, and a shorter image would not mount */
	if (basefd < 0 || log.extent > r.device || ftruncate(basefd, (off_t)r.device)) {
		error_errno("%s", r.base);
		goto out;
	}
	for (size_t i = 0; i < plan.n; i++) {
		int pfd;

		if (workload_stopped()) {
			error_set("interrupted");
			goto out;
		}
		if (crash_advance(&log, logfd, basefd, &at, &plan.p[i]) ||
		    file_copy_sparse(r.base, r.point, UINT64_MAX))
			goto out;
		pfd = open(r.point, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (pfd < 0 || crash_apply_torn(&log, logfd, pfd, &plan.p[i])) {
			if (pfd >= 0)
				close(pfd);
			goto out;
		}
		close(pfd);
		t.finding = 0;
		if (check_point(ctx, p, seed, &r, &log, &m, &plan.p[i], &t))
			goto out;
		unlink(r.point);
		/* evidence not kept is said, but the points still count */
		if (t.finding && !keep_tried && ctx->findings) {
			keep_tried = 1;
			if (keep_finding(ctx, p, seed, &r, &log, logfd, &plan.p[i], &t))
				fprintf(stderr, "fsbench: warning: powercut on %s: the finding was not "
					"kept: %s\n", ctx->label, error_get());
		}
	}
	pc_fill_values(values, &t, plan.n);
	if (buffer)
		format_size(buffer, held, sizeof(held));
	if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX,
			 "log: %zu entries (%zu writes, %zu flushes, %zu FUA, %zu discards), %u promises\n"
			 "points: %zu (%zu flush candidates, %zu torn stretches), seed %llu\n"
			 "%s%s%s"
			 "clean %d, needed repair %d, no mount %d; promised lost %llu%s%s\n%s%s%s%s%s%s",
			 log.n, log.writes, log.flushes, log.fuas, log.discards, acks, plan.n,
			 plan.flush_points, plan.torn_segments, (unsigned long long)seed,
			 buffer ? "the device's volatile buffer: its last " : "", held,
			 buffer ? " of writes lost at every cut, flushes notwithstanding\n" : "", t.clean,
			 t.repaired, t.unmountable, (unsigned long long)t.lost,
			 t.first[0] ? ", first: " : "", t.first, t.damage[0] ? "first damage: " : "",
			 t.damage, t.damage[0] ? "\n" : "", t.kept[0] ? "kept: " : "", t.kept,
			 t.kept[0] ? " (in the findings directory beside the result store)\n" : "");
	ctx->bytes_written = (int64_t)sat_mul(sat_u(p->files), p->size);
	ctx->bytes_read = 0;
	rc = 0;
out:
	{
		struct error_keep k;
		error_keep(&k, rc);
		pc_undo(&r);
		if (basefd >= 0)
			close(basefd);
		if (logfd >= 0)
			close(logfd);
		unlink(r.point);
		unlink(r.base);
		unlink(r.data);
		unlink(r.log);
		rmdir(r.mnt);
		rmdir(r.rmnt);
		rc = error_kept(&k, 0);
	}
	free(t.recovery_ms);
	crash_plan_free(&plan);
	lw_free(&log);
	manifest_free(&m);
	return rc;
}

static uint64_t pc_space(const void *params)
{
	const struct pc_params *p = params;

	/* the images are sparse, but may fill: data, log, base, one point */
	return sat_add(sat_mul(p->device, 5), sat_mul3(4, sat_u(p->files), p->size));
}

static void pc_describe(const void *params, char *buf, size_t len)
{
	const struct pc_params *p = params;
	char size[32], buffer[64] = "";

	format_size(p->size, size, sizeof(size));
	if (p->buffer) {
		char b[32];
		format_size(p->buffer, b, sizeof(b));
		snprintf(buffer, sizeof(buffer), " - %s Volatile Buffer", b);
	}
	snprintf(buf, len, "Shape: %s - %lld x %s - %lld Crash Points%s", shape_names[p->shape],
		 (long long)p->files, size, (long long)p->points, buffer);
}

const struct workload wl_powercut = {
	.name = "powercut",
	.summary = "power cuts replayed from a dm-log-writes record: mounts, repairs, promised data lost",
	.title = "Power Cut",
	.params = pc_params,
	.params_size = sizeof(struct pc_params),
	.metrics = pc_metrics,
	.nmetrics = M_N,
	.flags = WL_DEVICE_MAPPER | WL_FIXED_RUNS,
	.validate_target = pc_refuse_dir,
	.validate_fs = pc_validate_fs,
	.space_needed = pc_space,
	.describe = pc_describe,
	.prepare = pc_prepare,
	.run = pc_run,
	.cleanup = pc_cleanup,
};
