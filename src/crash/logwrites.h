/*
 * logwrites.h: a dm-log-writes log, read and replayed.
 *
 * The powercut workload records every write, flush, FUA and discard a
 * filesystem sends to its device in the format of the kernel's
 * dm-log-writes target (QEMU's blklogwrites driver writes the same one);
 * docs/workloads/powercut.md says how it is recorded and why.  The format,
 * in the log's own sector size S (the data device's logical block size):
 *
 *   sector 0           super: magic, version 1, entry count, S
 *   then, per entry    one sector: sector, nr_sectors, flags, data_len
 *                      (a mark's text follows these 32 bytes), and, for a
 *                      write, its nr_sectors sectors of data
 *
 * All fields are little-endian.  The entries come in the order the data
 * reached the media: the kernel logs a write only once the flush after it
 * completed, a FUA write when it completes, so a prefix of the log ending
 * at a flush or a FUA is what a power cut there leaves, and the writes
 * between two flushes are what a volatile cache held.
 *
 * The reader keeps an index of the entries, never their data; a replay
 * copies each write's data from the log into an image.  Both are bounded:
 * every count and size of the log is checked against the file before it
 * is used, so a damaged log is an error with a message, never a read or
 * a write out of bounds (tests/fuzz/fuzz_logwrites.c).
 */
#ifndef FSB_LOGWRITES_H
#define FSB_LOGWRITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LW_FLUSH	(1u << 0)	/* everything logged before it is on the media */
#define LW_FUA		(1u << 1)	/* this write is on the media once it completes */
#define LW_DISCARD	(1u << 2)	/* the range is discarded: no data in the log */
#define LW_MARK		(1u << 3)	/* a text the recorder set (no I/O) */
#define LW_METADATA	(1u << 4)	/* a metadata write (newer kernels say so) */
#define LW_FLAGS	(LW_FLUSH | LW_FUA | LW_DISCARD | LW_MARK | LW_METADATA)

#define LW_MAGIC	0x6a736677736872ULL
#define LW_VERSION	1

/* Bounds of what a replay takes: more is refused, never cut. */
#define LW_MAX_ENTRIES	(4u << 20)
#define LW_MAX_DEVICE	(1ULL << 44)	/* 16 TiB: the furthest byte a write reaches */

/* Reading past the super's count: the kernel updates the count at each
 * FUA and mark and at the end, QEMU at each flush, so a recorder stopped
 * without its end leaves entries after the count.  With this flag they are
 * read up to the first sector that is not a valid entry. */
#define LW_READ_PAST_SUPER 1u

struct lw_entry {
	uint64_t sector;	/* on the device, in the log's sectors */
	uint64_t nr_sectors;
	uint64_t data;		/* byte offset of its data in the log */
	uint32_t flags;		/* LW_* */
	uint32_t mark;		/* LW_MARK: offset of its text in marks */
};

struct lw_log {
	uint32_t sectorsize;
	uint64_t declared;	/* the super's entry count */
	struct lw_entry *ent;
	size_t n;		/* entries read */
	char *marks;		/* the marks' texts, each NUL-terminated */
	size_t marks_len;
	uint64_t extent;	/* the furthest device byte a write or discard reaches */
	size_t writes, flushes, fuas, discards, nmarks;
};

/* Where the log's bytes come from: the file (lw_read_file) or, for the
 * fuzz harness, memory.  read fills len bytes at off or returns -1 with
 * the error set; size is the log's length in bytes. */
struct lw_source {
	int (*read)(void *ctx, void *buf, size_t len, uint64_t off);
	void *ctx;
	uint64_t size;
};

/* Read the index.  0 with out filled (lw_free it), or -1 with the error
 * set (out then holds nothing). */
int lw_read(const struct lw_source *src, unsigned flags, struct lw_log *out);
/* The same from a file, opened O_NOFOLLOW; *fd (may be NULL) keeps it
 * open for lw_apply, else it is closed. */
int lw_read_file(const char *path, unsigned flags, struct lw_log *out, int *fd);
/* The same from memory (a log the caller built, or a fuzzer's input). */
int lw_read_mem(const void *buf, size_t len, unsigned flags, struct lw_log *out);
void lw_free(struct lw_log *log);

/* Entry i's mark text ("" when it is not a mark). */
const char *lw_mark_text(const struct lw_log *log, size_t i);
/* The first entry at or after from that is a mark with this text, or
 * log->n when there is none. */
size_t lw_find_mark(const struct lw_log *log, const char *text, size_t from);

/* Whether the state after entries [0, end) is one a power cut can leave
 * with nothing lost from the cache: the last entry before end that is not
 * a mark is a flush or a FUA write (or there is none). */
bool lw_durable_point(const struct lw_log *log, size_t end);

/* How much of entry i a replay applies: its sectors from the start
 * (0: none, e->nr_sectors: all).  NULL keep applies every entry whole. */
typedef uint64_t (*lw_keep_fn)(void *ctx, size_t i, const struct lw_entry *e);

/* Apply entries [from, to) to the image open at imgfd, their data read
 * from the log open at logfd: a write's sectors copied, a discard's range
 * zeroed (what a device that discards returns; a hole in an image file),
 * a flush or a mark nothing.  A write past the image's end grows it.
 * 0, or -1 with the error set. */
int lw_apply(const struct lw_log *log, int logfd, int imgfd, size_t from, size_t to,
	     lw_keep_fn keep, void *ctx);

#endif
