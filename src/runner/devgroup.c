/* devgroup.c: the "device" metric group (see devgroup.h). */
#define _GNU_SOURCE
#include "devgroup.h"
#include "../core/sysinfo.h"
#include "../core/timing.h"
#include "../media/counters.h"
#include "../targets/target.h"

#include <ctype.h>
#include <linux/magic.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

const struct metric_def device_metrics[DM_COUNT] = {
	[DM_WRITTEN] = { "dev_written", "MiB", LOWER_IS_BETTER, "Device written", 0 },
	[DM_READ] = { "dev_read", "MiB", LOWER_IS_BETTER, "Device read", 0 },
	[DM_WAMP] = { "write_amp", "x", LOWER_IS_BETTER, "Write amplification", 0 },
	[DM_RAMP] = { "read_amp", "x", LOWER_IS_BETTER, "Read amplification", 0 },
	[DM_WREQS] = { "dev_write_reqs", "requests", LOWER_IS_BETTER, "Write requests", 0 },
	[DM_RREQS] = { "dev_read_reqs", "requests", LOWER_IS_BETTER, "Read requests", 0 },
	[DM_DISCARD] = { "dev_discarded", "MiB", LOWER_IS_BETTER, "Discarded", 0 },
	[DM_FLUSHES] = { "dev_flushes", "requests", LOWER_IS_BETTER, "Flushes", 0 },
	[DM_UTIL] = { "dev_util", "%", LOWER_IS_BETTER, "Device busy", 0 },
	[DM_MBPS] = { "dev_mibps", "MiB/s", HIGHER_IS_BETTER, "Device MiB/s", 0 },
	[DM_APP_WRITTEN] = { "app_written", "MiB", LOWER_IS_BETTER, "Workload wrote", 0 },
	[DM_APP_READ] = { "app_read", "MiB", LOWER_IS_BETTER, "Workload read", 0 },
	[DM_SPACE] = { "space_used", "MiB", LOWER_IS_BETTER, "Space used", 0 },
	[DM_FS_USED] = { "fs_used", "MiB", LOWER_IS_BETTER, "Filesystem used", 0 },
	[DM_COMP] = { "compression", "x", HIGHER_IS_BETTER, "Compression", 0 },
	[DM_ZSTD] = { "data_zstd", "x", HIGHER_IS_BETTER, "Data zstd ratio", 0 },
	[DM_ERASES] = { "flash_erases", "blocks", LOWER_IS_BETTER, "Flash erases", 0 },
	[DM_MAX_EC] = { "flash_max_ec", "erases", LOWER_IS_BETTER, "Highest erase count", 0 },
	[DM_MEDIUM_BUSY] = { "medium_busy", "s", LOWER_IS_BETTER, "Medium busy (model)", 0 },
	[DM_SWITCH] = { "switch_merges", "merges", LOWER_IS_BETTER, "Switch merges", 0 },
	[DM_PARTIAL] = { "partial_merges", "merges", LOWER_IS_BETTER, "Partial merges", 0 },
	[DM_FULL] = { "full_merges", "merges", LOWER_IS_BETTER, "Full merges", 0 },
	[DM_COPIED] = { "pages_copied", "pages", LOWER_IS_BETTER, "Pages copied", 0 },
	[DM_MEDIUM_WAMP] = { "medium_write_amp", "x", LOWER_IS_BETTER, "Medium write amplification", 0 },
};

/* Bytes of file data read back for the data's own zstd ratio. */
#define ZSTD_SAMPLE (8u << 20)

void device_note(const char *kind, const char *fstype, const char *blockdev,
		 const char *source, char *buf, size_t len)
{
	if (blockdev[0] && !strcmp(kind, "dir"))
		snprintf(buf, len, "%s is not fsbench's own: its counters include whatever else "
			 "used it during each run", blockdev);
	else if (blockdev[0])
		buf[0] = '\0';
	else if (!strcmp(fstype, "tmpfs") || !strcmp(fstype, "ramfs"))
		snprintf(buf, len, "%s keeps its data in memory: no block device", fstype);
	else if (source && !strncmp(source, "ubi", 3))
		snprintf(buf, len, "%.60s on %.120s: flash, no block device: UBI's erase counters "
			 "instead", fstype, source);
	else if (source && !strncmp(source, "mtd", 3))
		snprintf(buf, len, "%.60s on %.120s: flash, no block device, and the kernel keeps no "
			 "erase counters for it", fstype, source);
	else
		snprintf(buf, len, "%.60s on %.120s: no block device found under it", fstype,
			 source && source[0] ? source : "?");
}

static int fs_used(const char *dir, uint64_t *used)
{
	struct statfs sf;

	if (statfs(dir, &sf) || sf.f_blocks < sf.f_bfree)
		return -1;
	*used = (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_frsize;
	return 0;
}

/* The data of the repetition on the medium: delayed allocation done,
 * compressed extents written. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
}

/* The UBI device under a UBIFS mount ("ubi0:fsbench"): its number + 1. */
static int ubi_under(const char *dir)
{
	struct fsinfo fi;
	unsigned maj, min;

	memset(&fi, 0, sizeof(fi));
	if (mountinfo_lookup("/proc/self/mountinfo", dir, &fi, &maj, &min) ||
	    strncmp(fi.mount_source, "ubi", 3) || !isdigit((unsigned char)fi.mount_source[3]))
		return 0;
	return atoi(fi.mount_source + 3) + 1;
}

/* F2FS counts, per filesystem since its mount, the blocks its compressed
 * clusters took (compr_written_block) and the blocks compression saved
 * them (compr_saved_block): /sys/fs/f2fs/<device>/.  0, or -1 when this is
 * not F2FS or its kernel has no such counters (before 5.12). */
static int f2fs_compr(const char *blockdev, const char *dir, uint64_t *written, uint64_t *saved)
{
	static const char *names[2] = { "compr_written_block", "compr_saved_block" };
	uint64_t *out[2] = { written, saved };
	struct statfs sf;

	if (!blockdev[0] || statfs(dir, &sf) || sf.f_type != F2FS_SUPER_MAGIC)
		return -1;
	for (int k = 0; k < 2; k++) {
		char path[160];
		unsigned long long v;
		snprintf(path, sizeof(path), "/sys/fs/f2fs/%s/%s", blockdev, names[k]);
		FILE *f = fopen(path, "re");
		int ok = f && fscanf(f, "%llu", &v) == 1;
		if (f)
			fclose(f);
		if (!ok)
			return -1;
		*out[k] = v;
	}
	return 0;
}

void device_begin(struct dev_probe *p, const char *blockdev, const char *dir,
		  const char *counters)
{
	memset(p, 0, sizeof(*p));
	p->counters = counters;
	snprintf(p->blockdev, sizeof(p->blockdev), "%s", blockdev);
	p->have_fs = !fs_used(dir, &p->fs_used_before);
	p->have_before = p->blockdev[0] && !devstat_read("", p->blockdev, &p->before);
	p->f2fs = !f2fs_compr(p->blockdev, dir, &p->f2fs_written[0], &p->f2fs_saved[0]);
	if (!p->blockdev[0] && (p->ubi = ubi_under(dir))) {
		int64_t max;
		p->ec_before = fs_ubi_erases(p->ubi, &max);
	}
	/* last, right before the workload: the model counts what the probes
	 * above read too */
	p->have_model = counters && !flash_counters_read(counters, &p->model_before, NULL);
	p->t0 = now_ns();
}

/* What the scan itself read (its zstd sample, the walk's metadata) is
 * not the workload's: counted here and taken off in device_end. */
static void add_delta(struct devstat *sum, const struct devstat *a, const struct devstat *b)
{
	sum->rd_ios += b->rd_ios - a->rd_ios;
	sum->rd_sectors += b->rd_sectors - a->rd_sectors;
	sum->wr_ios += b->wr_ios - a->wr_ios;
	sum->wr_sectors += b->wr_sectors - a->wr_sectors;
	sum->io_ticks_ms += b->io_ticks_ms - a->io_ticks_ms;
}

void device_space(struct dev_probe *p, const char *dir)
{
	struct devstat a, b;
	int counted;

	sync_dir(dir);
	counted = p->have_before && !devstat_read("", p->blockdev, &a);
	/* after the sync: every compressed cluster of the data set written */
	if (p->f2fs && f2fs_compr(p->blockdev, dir, &p->f2fs_written[1], &p->f2fs_saved[1]))
		p->f2fs = 0;
	if (space_scan(dir, ZSTD_SAMPLE, &p->sp))
		return;
	if (counted && !devstat_read("", p->blockdev, &b))
		add_delta(&p->own, &a, &b);
	p->space_done = 1;
	p->fs_used_ok = !fs_used(dir, &p->fs_used_at);
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

void device_end(struct dev_probe *p, const char *dir, const struct wl_ctx *ctx, double *v)
{
	struct devstat a;

	for (int i = 0; i < DM_COUNT; i++)
		v[i] = NAN;
	if (ctx->bytes_written >= 0)
		v[DM_APP_WRITTEN] = mib((uint64_t)ctx->bytes_written);
	if (ctx->bytes_read >= 0)
		v[DM_APP_READ] = mib((uint64_t)ctx->bytes_read);
	int hooked = p->space_done;
	if (!hooked)
		device_space(p, dir);	/* syncs */
	else
		sync_dir(dir);
	double secs = ns_to_s(now_ns() - p->t0);
	if (p->have_before && !devstat_read("", p->blockdev, &a)) {
		const struct devstat *b = &p->before;
		a.rd_ios -= p->own.rd_ios;
		a.rd_sectors -= p->own.rd_sectors;
		a.wr_ios -= p->own.wr_ios;
		a.wr_sectors -= p->own.wr_sectors;
		a.io_ticks_ms -= p->own.io_ticks_ms;
		uint64_t w = (a.wr_sectors - b->wr_sectors) * 512, r = (a.rd_sectors - b->rd_sectors) * 512;
		v[DM_WRITTEN] = mib(w);
		v[DM_READ] = mib(r);
		v[DM_WREQS] = (double)(a.wr_ios - b->wr_ios);
		v[DM_RREQS] = (double)(a.rd_ios - b->rd_ios);
		if (a.nfields >= 15)
			v[DM_DISCARD] = mib((a.dc_sectors - b->dc_sectors) * 512);
		if (a.nfields >= 17)
			v[DM_FLUSHES] = (double)(a.fl_ios - b->fl_ios);
		if (secs > 0) {
			double util = (double)(a.io_ticks_ms - b->io_ticks_ms) / (secs * 1e3) * 100;
			v[DM_UTIL] = util > 100 ? 100 : util;
			v[DM_MBPS] = mib(w + r) / secs;
		}
		/* No ratio without both values: nothing written, no figure. */
		if (ctx->bytes_written > 0)
			v[DM_WAMP] = (double)w / (double)ctx->bytes_written;
		if (ctx->bytes_read > 0)
			v[DM_RAMP] = (double)r / (double)ctx->bytes_read;
	}
	struct flash_stats ms;
	uint32_t page = 0;
	if (p->have_model && !flash_counters_read(p->counters, &ms, &page)) {
		const struct flash_stats *b = &p->model_before;
		v[DM_MEDIUM_BUSY] = (double)(ms.busy_ns - b->busy_ns) / 1e9;
		v[DM_SWITCH] = (double)(ms.switch_merges - b->switch_merges);
		v[DM_PARTIAL] = (double)(ms.partial_merges - b->partial_merges);
		v[DM_FULL] = (double)(ms.full_merges - b->full_merges);
		v[DM_COPIED] = (double)(ms.pages_copied - b->pages_copied);
		v[DM_ERASES] = (double)(ms.erases - b->erases);
		/* no ratio without both values: nothing written, no figure */
		if (ms.host_written > b->host_written)
			v[DM_MEDIUM_WAMP] = flash_write_amplification(b, &ms, page);
	}
	if (p->ubi) {
		int64_t max, after = fs_ubi_erases(p->ubi, &max);
		if (after >= 0 && p->ec_before >= 0 && after >= p->ec_before)
			v[DM_ERASES] = (double)(after - p->ec_before);
		if (max >= 0)
			v[DM_MAX_EC] = (double)max;
	}
	/* A workload that removed its files before the end and never said
	 * when its data was complete leaves nothing to measure. */
	if (!p->space_done || (!hooked && !p->sp.files))
		return;
	v[DM_SPACE] = mib(p->sp.btrfs ? p->sp.extent_disk : p->sp.allocated);
	if (p->have_fs && p->fs_used_ok)
		v[DM_FS_USED] = ((double)p->fs_used_at - (double)p->fs_used_before) / (1024.0 * 1024.0);
	if (p->sp.btrfs && p->sp.extent_disk)
		v[DM_COMP] = (double)p->sp.extent_ram / (double)p->sp.extent_disk;
	/* F2FS: what its compressed clusters would have taken / what they
	 * took, over this repetition (seed 003's "Compressed -"); clusters it
	 * wrote raw, as not worth compressing, are in neither count */
	uint64_t fw = p->f2fs_written[1] - p->f2fs_written[0], fs = p->f2fs_saved[1] - p->f2fs_saved[0];
	if (p->f2fs && p->f2fs_written[1] >= p->f2fs_written[0] && p->f2fs_saved[1] >= p->f2fs_saved[0] &&
	    fw > 0)
		v[DM_COMP] = (double)(fw + fs) / (double)fw;
	if (p->sp.sample_compressed)
		v[DM_ZSTD] = (double)p->sp.sampled / (double)p->sp.sample_compressed;
}
