/*
 * devstat.h: what reached the medium.
 *
 * Two readers the runner uses around every repetition (runner/devgroup.c):
 * the block layer's counters of one device node (/sys/class/block/NAME/
 * stat, documented in the kernel's Documentation/block/stat.rst), and the
 * space a directory's files occupy, with btrfs's compressed extents read
 * from its extent tree the way compsize does (BTRFS_IOC_TREE_SEARCH_V2),
 * since st_blocks on btrfs counts uncompressed bytes.
 *
 * Every reader takes a `root` prefix for /sys ("" on a live system) so the
 * parser runs in tests on fixture files.
 */
#ifndef FSB_DEVSTAT_H
#define FSB_DEVSTAT_H

#include <stddef.h>
#include <stdint.h>

/* Counters of one block device node; sectors are 512 bytes whatever the
 * device's own sector size (stat.rst). */
struct devstat {
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors;
	uint64_t dc_ios, dc_sectors, fl_ios;
	uint64_t io_ticks_ms;	/* time with at least one request in flight */
	uint64_t rd_merges, wr_merges, rd_ticks_ms, wr_ticks_ms, in_queue_ms;
	int nfields;		/* 11 before Linux 4.18, 15 before 5.5, else 17 */
};

/* Parse the text of a stat file; -1 when it is not one. */
int devstat_parse(const char *text, struct devstat *d);
/* Read /sys/class/block/NAME/stat; -1 (error set) when unreadable. */
int devstat_read(const char *root, const char *name, struct devstat *d);
/* The block device node of the filesystem holding path, found from its
 * device number as fio finds it (none for tmpfs, overlay, btrfs's
 * anonymous numbers): 0 with name filled, -1 when there is none. */
int devstat_node_of(const char *path, char *name, size_t len);

/* The files under a directory, as they sit on the medium. */
struct space {
	uint64_t files;
	uint64_t apparent;	/* sum of st_size */
	uint64_t allocated;	/* sum of st_blocks x 512 */
	/* btrfs only (btrfs = 1): data extents as the extent tree has them,
	 * each disk extent once however many file extents point into it
	 * (copy-on-write overwrites, reflinks), as compsize counts them. */
	int btrfs;
	uint64_t extent_disk;	/* bytes the extents occupy on disk */
	uint64_t extent_ram;	/* the same extents uncompressed */
	/* A sample of the data itself, for its own zstd ratio. */
	uint64_t sampled, sample_compressed;
};

/* Walk dir (not following symlinks or crossing filesystems).  Up to
 * sample_max bytes of file data are read and compressed with zstd piece by
 * piece as the filesystem compresses (compress.h); 0 skips
 * that.  -1 (error set) when the walk fails. */
int space_scan(const char *dir, size_t sample_max, struct space *sp);

#endif
