/*
 * powercut-flash.c: the powercut workload on UBIFS (docs/workloads/
 * powercut.md, "Flash").  powercut.c replays a block log; under UBIFS
 * there is none to replay, so each crash point here is a whole run of the
 * shape cut by UBI's own emulation, on the flash target's twin partition
 * in the guest.  The checks of a point's data are powercut.c's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "powercut_internal.h"
#include "../core/checked.h"
#include "../core/error.h"
#include "../core/pattern.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../targets/profiles.h"
#include "../targets/state.h"
#include "../targets/target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A log of block writes is no use under UBIFS: UBI sits between it and
 * the chip, and what a cut leaves depends on UBI's headers too.  UBI's
 * debugfs emulation (tst_emulate_power_cut) cuts the power inside UBI:
 * at a set number of its header writes (an erase block's EC header after
 * an erase, a VID header when a logical block is mapped) it turns
 * read-only as if the chip had lost power, that header not written.  The
 * simulated chip keeps what was written before; detaching UBI and
 * attaching it again is the power coming back.  So a point is a whole run
 * of the application on a fresh partition (the flash target's twin, see
 * docs/vm.md) cut at header write N, then attached, mounted (UBI's scan
 * and UBIFS's replay: the recovery, timed) and checked against what was
 * promised before the cut.  N is drawn by the seed from 1 to the header
 * writes a run makes, estimated low from an uncut run first (UBI counts
 * no header writes; its erases plus the blocks the data fills); a cut
 * that never comes (N past the run's end) lowers the bound for the points
 * after it and is counted apart, not as a point. */

struct flash_run {
	struct fs_flash fl;
	char mnt[4400];
	int mounted;
	pid_t daemon;
};

static void flash_undo(struct flash_run *f)
{
	pc_unmount(f->mnt, &f->mounted, &f->daemon);
	fs_flash_detach(&f->fl);
}

static int ubi_debug_set(int ubi, const char *file, long long v)
{
	char path[128], text[32];
	int fd, n;

	snprintf(path, sizeof(path), "/sys/kernel/debug/ubi/ubi%d/%s", ubi - 1, file);
	n = snprintf(text, sizeof(text), "%lld\n", v);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return error_errno("%s", path);
	if (write(fd, text, (size_t)n) != n) {
		close(fd);
		return error_errno("%s", path);
	}
	close(fd);
	return 0;
}

/* 1 when UBI ubi (its number + 1) is read-only, 0 not, -1 unknown: after
 * the emulated cut UBI stays read-only until it is detached, and nothing
 * else on the simulated chip turns it so. */
static int ubi_read_only(int ubi)
{
	char path[96], text[8] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/ubi/ubi%d/ro_mode", ubi - 1);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	return n > 0 ? text[0] == '1' : -1;
}

/* 1 when the kernel's log since the last call says UBI cut the power, 0
 * not, -1 unreadable.  Reads and clears it: the guest's log is ours.  The
 * log alone is not enough: a cut in writeback floods the kernel's ring
 * with UBIFS's errors, which push UBI's line out of it before it is read
 * (bench/powercut's tree shape lost it so), so the caller also asks UBI
 * whether it is read-only (ubi_read_only). */
static int cut_came(void)
{
	enum { SIZE = 1 << 17 };
	char *buf = malloc(SIZE);
	int n, rc;

	if (!buf)
		return error_set("out of memory");
	n = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, buf, SIZE - 1);
	if (n < 0) {
		free(buf);
		return error_errno("reading the kernel log");
	}
	buf[n] = '\0';
	rc = strstr(buf, "emulating a power cut") != NULL;
	free(buf);
	return rc;
}

/* One run of the shape on the partition made afresh; cut > 0: the power
 * cut at UBI's header write number cut.  *acked: the promises made (a
 * returned fsync, a commit), *came: whether the cut came, *erases: what
 * the run erased (-1 unknown).  The partition is left detached. */
static int flash_record(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed,
			struct flash_run *f, long long cut, struct manifest *m, int64_t *acked,
			int *came, int64_t *erases)
{
	struct pc_shape_params sp = { p->shape, p->files, p->size, seed, p->fsync };
	int64_t e0, e1, max;
	uint32_t acks = 0;
	int rc;

	manifest_free(m);
	memset(m, 0, sizeof(*m));
	*came = 0;
	if (fs_flash_attach(ctx->fs, ctx->label, ctx->mtd, FLASH_ERASE | FLASH_MKVOL, &f->fl) ||
	    fs_spec_mkfs(ctx->fs, ctx->label, f->fl.dev, ctx->dir, NULL, 0) ||
	    state_add(STATE_MOUNT, f->mnt, f->fl.source, 0, 0))
		return -1;
	if (fs_spec_mount(ctx->fs, ctx->label, f->fl.source, f->mnt, &f->daemon)) {
		state_remove(STATE_MOUNT, f->mnt);
		return -1;
	}
	f->mounted = 1;
	e0 = fs_ubi_erases(f->fl.ubi, &max);
	if (cut > 0 && (cut_came() < 0 || ubi_debug_set(f->fl.ubi, "tst_emulate_power_cut_min", cut) ||
			ubi_debug_set(f->fl.ubi, "tst_emulate_power_cut_max", cut) ||
			/* both header kinds: EC (1) and VID (2) writes */
			ubi_debug_set(f->fl.ubi, "tst_emulate_power_cut", 3)))
		return -1;
	/* no marks to make: what was promised before the cut is the count of
	 * promises the shape made before its first failure */
	rc = pc_shape_run(f->mnt, &sp, m, NULL, &acks);
	*acked = acks;
	/* the cut may also come in the unmount's own commit */
	pc_unmount(f->mnt, &f->mounted, &f->daemon);
	e1 = fs_ubi_erases(f->fl.ubi, &max);
	*erases = e0 >= 0 && e1 >= e0 ? e1 - e0 : -1;
	if (cut > 0) {
		int c = cut_came();
		if (c < 0)
			return -1;
		*came = c || ubi_read_only(f->fl.ubi) == 1;
	}
	fs_flash_detach(&f->fl);
	if (rc && !*came)
		return -1;	/* a failure of its own, not the cut */
	return 0;
}

int pc_run_flash(struct wl_ctx *ctx, const struct pc_params *p, uint64_t seed,
			double *values)
{
	struct flash_run f = { .mounted = 0 };
	struct manifest m = { 0 };
	struct pc_tally t = { 0 };
	int64_t acked, erases, uncut_erases, leb = 128 << 10;
	long long bound, past = 0;
	int came, rc = -1;
	size_t n = 0;

	if (pc_path_in(f.mnt, ctx->dir, "mnt") || mkdir(f.mnt, 0755))
		return error_errno("powercut: %s", f.mnt);
	t.recovery_ms = calloc((size_t)p->points, sizeof(double));
	if (!t.recovery_ms) {
		error_set("out of memory");
		goto out;
	}
	/* the uncut run: how many header writes a run makes, from below */
	if (flash_record(ctx, p, seed, &f, 0, &m, &acked, &came, &uncut_erases))
		goto out;
	bound = (uncut_erases > 0 ? uncut_erases : 0) +
		(long long)((sat_mul(sat_u(p->files), p->size) + (uint64_t)leb - 1) / (uint64_t)leb);
	if (bound < 4)
		bound = 4;
	for (int64_t i = 0; i < p->points; i++) {
		long long cut = 1 + (long long)(mix64(seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1))) %
					    (uint64_t)bound);
		char where[96];
		uint64_t t0;
		double ms;
		int mounted;

		if (workload_stopped()) {
			error_set("interrupted");
			goto out;
		}
		if (flash_record(ctx, p, seed, &f, cut, &m, &acked, &came, &erases))
			goto out;
		if (!came) {	/* past the run's end: the bound was too high */
			past++;
			bound = cut > 1 ? cut - 1 : 1;
			continue;
		}
		snprintf(where, sizeof(where), "cut at UBI header write %lld", cut);
		t.finding = 0;
		/* the power back: UBI's scan, then UBIFS's mount and replay */
		t0 = now_ns();
		mounted = !fs_flash_attach(ctx->fs, ctx->label, ctx->mtd, 0, &f.fl);
		if (mounted && state_add(STATE_MOUNT, f.mnt, f.fl.source, 0, 0))
			goto out;
		if (mounted && fs_spec_mount(ctx->fs, ctx->label, f.fl.source, f.mnt, &f.daemon)) {
			state_remove(STATE_MOUNT, f.mnt);
			mounted = 0;
		}
		ms = (double)(now_ns() - t0) / 1e6;
		n++;
		if (!mounted) {
			pc_note_first(t.damage, sizeof(t.damage), where, "%.380s", error_get());
			pc_lost_all(p, &m, acked, where, &t);
			fs_flash_detach(&f.fl);
			continue;
		}
		f.mounted = 1;
		int damaged = 0;
		if (pc_check_data(p, seed, f.mnt, &m, acked, where, &t, &damaged))
			goto out;
		flash_undo(&f);
		t.recovery_ms[t.points++] = ms;
		if (damaged)
			t.repaired++;
		else
			t.clean++;
	}
	pc_fill_values(values, &t, n);
	if (ctx->detail)
		snprintf(ctx->detail, DETAIL_MAX,
			 "UBI's power-cut emulation: %zu points cut at header writes 1..%lld (of an "
			 "uncut run's %lld erases), %lld past the run's end, seed %llu\n"
			 "clean %d, needed repair %d, no mount %d; promised lost %llu%s%s\n%s%s%s",
			 n, bound, (long long)uncut_erases, past, (unsigned long long)seed, t.clean,
			 t.repaired, t.unmountable, (unsigned long long)t.lost,
			 t.first[0] ? ", first: " : "", t.first, t.damage[0] ? "first damage: " : "",
			 t.damage, t.damage[0] ? "\n" : "");
	ctx->bytes_written = (int64_t)sat_mul(sat_u(p->files), p->size);
	ctx->bytes_read = 0;
	rc = 0;
out:
	{
		struct error_keep k;
		error_keep(&k, rc);
		flash_undo(&f);
		rmdir(f.mnt);
		rc = error_kept(&k, 0);
	}
	free(t.recovery_ms);
	manifest_free(&m);
	return rc;
}
