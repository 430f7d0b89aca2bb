/*
 * manifest.h: what a crash workload wrote, what it was promised, and what
 * a replayed filesystem still holds of it.
 *
 * A workload adds each file it writes (its path under the filesystem's
 * root, its size and the XXH3-64 hash of its content) and, each time the
 * system promises durability (an fsync or fdatasync returned, a sync()
 * after a restore), makes an acknowledgement: every file added since the
 * previous one is durable from then on.  The acknowledgement also goes
 * into the recorded log as the mark "fsb-ack:N", so that each crash
 * point knows how many promises had been made when the power went
 * (manifest_acked).  The check then sorts every file into promised and
 * not yet promised, and each into kept or lost: a promised file missing or
 * different is data the filesystem owed the user; one not yet promised
 * is a loss that was allowed, sized separately.
 */
#ifndef FSB_MANIFEST_H
#define FSB_MANIFEST_H

#include "logwrites.h"

#include <stddef.h>
#include <stdint.h>

#define MANIFEST_NO_ACK UINT32_MAX
#define MANIFEST_MARK_PREFIX "fsb-ack:"
#define MANIFEST_MAX_FILES (1u << 22)
#define MANIFEST_MAX_PATH 1024

struct mf_file {
	char *path;		/* relative to the filesystem's root, no ".." */
	uint64_t size, hash;	/* hash: XXH3-64 of the content */
	uint32_t ack;		/* the first acknowledgement covering it, or MANIFEST_NO_ACK */
};

struct manifest {
	struct mf_file *f;
	size_t n, cap;
	size_t covered;		/* files [0, covered) have an acknowledgement */
	uint32_t acks;		/* acknowledgements made */
};

/* A file written (or written again: the later entry is what counts, and
 * it needs an acknowledgement of its own).  0, or -1 with the error set
 * (a path that is absolute, has "..", or is too long). */
int manifest_add(struct manifest *m, const char *path, uint64_t size, uint64_t hash);
/* The system promised durability: every file added since the last
 * acknowledgement is covered.  Its number (0, 1, ...). */
uint32_t manifest_ack(struct manifest *m);
void manifest_free(struct manifest *m);

/* The mark an acknowledgement puts in the log. */
void manifest_mark(uint32_t ack, char *buf, size_t len);
/* How many acknowledgements had been made before entry end of the log:
 * the latest "fsb-ack:N" mark before it, plus one (0 when none).  -1
 * with the error set when the marks are not numbered 0, 1, 2... in order
 * (a log that is not this workload's). */
int64_t manifest_acked(const struct lw_log *log, size_t end);

struct mf_outcome {
	size_t promised, promised_lost;		/* files */
	uint64_t promised_bytes, promised_bytes_lost;
	size_t unpromised, unpromised_lost;
	uint64_t unpromised_bytes, unpromised_bytes_lost;
	char first_loss[MANIFEST_MAX_PATH + 64];	/* the first promised file lost, and how */
};

/* Compare the filesystem mounted at root with the manifest, the first
 * `acked` acknowledgements made.  A file counts as kept only with the
 * exact size and content of one of its entries: for a path written more
 * than once, the latest promised entry or any later one (a rewrite in
 * flight may have replaced it), else, when none was promised, any entry.
 * Paths are opened beneath root without following any symbolic link (a
 * crashed filesystem may hold anything), never blocking on what is not a
 * regular file.  0, or -1 with the error set when root cannot be opened. */
int manifest_check(const struct manifest *m, const char *root, uint32_t acked,
		   struct mf_outcome *out);

#endif
