/*
 * profile.h: an aging profile (issue 42), read from a small INI file
 * beside the suites (suites/NAME.age; docs/aging.md says where each one's
 * figures come from).
 *
 *   [age]
 *   fill = 80%          the live data, as a share of the device, to age at
 *   churn = 5           bytes written in all, as multiples of the device
 *   files_per_dir = 64  directory fan-out, and depth = 3 levels
 *   young = 50%         of deletes, the share that takes a file among the
 *                       youngest tenth (short-lived files die first)
 *   fsync = 0           1: each file written is fsync'd (a mail store)
 *   [sizes]             a file's size: WEIGHT = LOW..HIGH (log-uniform)
 *   40 = 1..4k
 *   [ops]               the mix once the fill is reached: WEIGHT each of
 *   create = 30         create, append, overwrite, truncate, rename, delete
 *
 * A git profile ([age] git = 1, commits = 100) replays a repository's
 * last commits instead, oldest first; its fill only sizes the images.
 * The repository is the user's (--age-repo), never part of the profile.
 * The parser is the one place a profile's text is read
 * (tests/fuzz/fuzz_ageprofile.c).
 */
#ifndef FSB_AGE_PROFILE_H
#define FSB_AGE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define AGE_MAX_BUCKETS 16

enum age_op { AGE_CREATE, AGE_APPEND, AGE_OVERWRITE, AGE_TRUNCATE, AGE_RENAME, AGE_DELETE,
	      AGE_OPS };

struct age_bucket {
	double weight;
	uint64_t lo, hi;	/* bytes, 1 <= lo <= hi */
};

struct age_profile {
	char name[64];
	double fill;		/* 0 < fill < 1 */
	double churn;		/* >= fill */
	unsigned files_per_dir, depth;
	double young;		/* 0..1 */
	int fsync;
	int git;		/* replay a repository's commits */
	unsigned commits;	/* git: how many, the branch's last ones, oldest first */
	struct age_bucket sizes[AGE_MAX_BUCKETS];
	int nsizes;
	double ops[AGE_OPS];	/* weights, summing to more than 0 */
};

extern const char *const age_op_names[AGE_OPS];

/* Parse a profile's text (name for messages).  0 with out filled, or -1
 * with the error set ("NAME:LINE: ..."). */
int age_profile_parse(const char *name, const char *text, struct age_profile *out);
/* Load DIR/NAME.age (DIR: the suites' directory, where the profiles
 * live), or a path: one with a '/' or ending .age. */
int age_profile_load(const char *dir, const char *name_or_path, struct age_profile *out);

#endif
