/*
 * test_aging.c: aging profiles (aging/profile.h) and the ager
 * (aging/ager.h) on directories of the test's own.  What each test
 * catches is said above it.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include "aging/ager.h"
#include "aging/profile.h"
#include "aging/record.h"
#include "core/error.h"

#include <ftw.h>
#include <math.h>

static const char *small =
	"[age]\nfill = 60%\nchurn = 3\nfiles_per_dir = 8\ndepth = 2\nyoung = 50%\n"
	"[sizes]\n60 = 1..4k\n40 = 4k..64k\n"
	"[ops]\ncreate = 30\nappend = 15\noverwrite = 15\ntruncate = 5\nrename = 5\ndelete = 30\n";

/* A profile's every key read, and each mistake refused with the line
 * that has it.  Catches: a value out of range taken (a fill of 120% would
 * fill the device and age nothing), a typo'd operation silently ignored
 * (the mix would not be the profile's). */
static void test_parse(void **state)
{
	struct age_profile p;
	struct { const char *text, *says; } bad[] = {
		{ "[age]\nfill = 120%\n[sizes]\n1 = 1..2\n[ops]\ncreate = 1\ndelete = 1\n", "fill" },
		{ "[age]\nfill = 80\n", "a percentage" },
		{ "[age]\nchurn = 0.5\n[sizes]\n1 = 1..2\n[ops]\ncreate = 1\ndelete = 1\n", "less than the fill" },
		{ "[age]\n[sizes]\n1 = 2k..1k\n", "low <= high" },
		{ "[age]\n[sizes]\n1 = 4k\n", "LOW..HIGH" },
		{ "[age]\n[sizes]\n1 = 1..2\n[ops]\ncreat = 1\n", "no operation creat" },
		{ "[age]\n[sizes]\n1 = 1..2\n[ops]\ncreate = 1\n", "create and delete" },
		{ "[age]\n[sizes]\n1 = 1..2\n", "no [ops]" },
		{ "[age]\n[ops]\ncreate = 1\ndelete = 1\n", "no [sizes]" },
		{ "[sizes]\n1 = 1..2\n", "no [age]" },
		{ "[agee]\n", "unknown section" },
		{ "[age]\ndepth = 2.5\n", "whole number" },
		{ "[age]\nfsync = 2\n", "0 or 1" },
		{ "fill = 1%\n", "outside a section" },
		/* issue 69: both read "FILE:5: unknown error" */
		{ "[age]\n[sizes]\n1 = -4k..4k\n", "bad.age:3: -4k..4k: sizes from 1 byte to 1G" },
		{ "[age]\n[sizes]\n1 = 1..99999999999999999999999T\n", "bad.age:3:" },
		{ "[age]\ndepth = 9\n", "depth" },
	};

	(void)state;
	assert_int_equal(age_profile_parse("t/small.age", small, &p), 0);
	assert_string_equal(p.name, "small");
	assert_true(fabs(p.fill - 0.6) < 1e-12);
	assert_true(fabs(p.churn - 3) < 1e-12);
	assert_int_equal(p.files_per_dir, 8);
	assert_int_equal(p.depth, 2);
	assert_int_equal(p.nsizes, 2);
	assert_int_equal(p.sizes[1].lo, 4096);
	assert_int_equal(p.sizes[1].hi, 65536);
	assert_true(p.ops[AGE_DELETE] == 30 && p.ops[AGE_RENAME] == 5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (age_profile_parse("bad.age", bad[i].text, &p) != -1)
			fail_msg("profile %zu was taken", i);
		if (!strstr(error_get(), bad[i].says))
			fail_msg("profile %zu: \"%s\" does not say \"%s\"", i, error_get(), bad[i].says);
	}
}

/* The profiles fsbench ships parse, and the git one says it replays a
 * repository.  Catches: a shipped profile that the parser refuses (every
 * --age with it would fail). */
static void test_shipped(void **state)
{
	char path[512];
	struct age_profile p;

	(void)state;
	/* tests/fixtures/../../suites: the tree's */
	snprintf(path, sizeof(path), "%s/../../suites", fixture_dir());
	assert_int_equal(age_profile_load(path, "desktop", &p), 0);
	assert_false(p.git);
	assert_int_equal(age_profile_load(path, "media", &p), 0);
	assert_int_equal(age_profile_load(path, "git-pull", &p), 0);
	assert_true(p.git);
	assert_int_equal(p.commits, 300);
	assert_int_equal(age_profile_load(path, "none-such", &p), -1);
	/* a name ending .age is a file (here, the current directory's), not
	 * a profile of the suites' directory: suites/desktop.age.age */
	assert_int_equal(age_profile_load(path, "desktop.age", &p), -1);
	assert_non_null(strstr(error_get(), "cannot open desktop.age"));
	/* commits: a whole number in range, and 100 unless said */
	assert_int_equal(age_profile_parse("g.age", "[age]\ngit = 1\n", &p), 0);
	assert_int_equal(p.commits, 100);
	assert_int_equal(age_profile_parse("g.age", "[age]\ngit = 1\ncommits = 2.5\n", &p), -1);
	assert_int_equal(age_profile_parse("g.age", "[age]\ngit = 1\ncommits = 0\n", &p), -1);
}

/* Files and sizes left under dir, as "path size" lines sorted, in buf. */
static char listing[1 << 20];
static size_t listing_len;
static const char *listing_root;

static int list_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)f;
	if (flag == FTW_F && listing_len < sizeof(listing) - 300)
		listing_len += (size_t)snprintf(listing + listing_len, sizeof(listing) - listing_len,
						"%s %lld\n", path + strlen(listing_root),
						(long long)st->st_size);
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory's files as one sorted text (owned by the caller). */
static char *snapshot(const char *root)
{
	char *lines[20000], *out, *s;
	size_t n = 0, len = 0;

	listing_len = 0;
	listing_root = root;
	assert_int_equal(nftw(root, list_one, 16, FTW_PHYS), 0);
	for (s = strtok(listing, "\n"); s && n < 20000; s = strtok(NULL, "\n"))
		lines[n++] = s;
	qsort(lines, n, sizeof(*lines), cmp_line);
	out = malloc(listing_len + 1);
	assert_non_null(out);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(out + len, "%s\n", lines[i]);
	out[len] = '\0';
	return out;
}

/* The same profile, capacity and seed give the same files with the same
 * sizes in two directories (two filesystems of a comparison get the same
 * history), and another seed gives another; the fill is held near its
 * share of the capacity and the churn reached.  Catches: a sequence that
 * depends on the directory (statfs's figures, the order readdir returns)
 * so that filesystems would be aged differently; a fill that drifts. */
static void test_same_sequence(void **state)
{
	struct age_profile p;
	struct age_opts o = { &p, 4u << 20, 42, NULL, NULL };
	struct age_result r1, r2, r3;
	char a[512], b[512], c[512], *sa, *sb, *sc;

	(void)state;
	assert_int_equal(age_profile_parse("small.age", small, &p), 0);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);
	assert_int_equal(mkdir(a, 0700) | mkdir(b, 0700) | mkdir(c, 0700), 0);
	assert_int_equal(age_run(a, &o, &r1), 0);
	assert_int_equal(age_run(b, &o, &r2), 0);
	o.seed = 43;
	assert_int_equal(age_run(c, &o, &r3), 0);
	sa = snapshot(a);
	sb = snapshot(b);
	sc = snapshot(c);
	assert_string_equal(sa, sb);
	assert_true(strcmp(sa, sc) != 0);
	assert_memory_equal(r1.ops, r2.ops, sizeof(r1.ops));
	assert_true(r1.written >= 3 * (4u << 20));
	assert_true(r1.live_bytes > (uint64_t)(0.5 * (4u << 20)) &&
		    r1.live_bytes < (uint64_t)(0.65 * (4u << 20)));
	for (int i = 0; i < AGE_OPS; i++)
		if (!r1.ops[i])
			fail_msg("no %s in the sequence", age_op_names[i]);
	assert_int_equal(r1.enospc, 0);
	assert_int_equal(age_measure(a, &r1), 0);
	assert_int_equal(r1.files, r1.live_files);
	assert_true(r1.fullness > 0 && r1.fullness <= 1);
	free(sa);
	free(sb);
	free(sc);
}

/* The deepest tree the parser allows, depth 7 and 8: the ager runs
 * (issue 69: a division by (uint32_t)pow(64, 6), which is 0, killed it
 * with SIGFPE past depth 6). */
static void test_deep_tree(void **state)
{
	struct age_profile p;
	struct age_opts o = { &p, 1u << 20, 7, NULL, NULL };
	struct age_result r;
	char d[512];

	(void)state;
	for (unsigned depth = 7; depth <= 8; depth++) {
		assert_int_equal(age_profile_parse("small.age", small, &p), 0);
		p.depth = depth;
		snprintf(d, sizeof(d), "%s/d%u", dir, depth);
		assert_int_equal(mkdir(d, 0700), 0);
		assert_int_equal(age_run(d, &o, &r), 0);
		assert_true(r.written > 0);
	}
}

/* A capacity larger than the filesystem: the ager fills it, counts the
 * refusals and still ends.  Catches: a loop that never ends once the
 * device is full (every write refused, nothing deleted). */
static void test_full_device(void **state)
{
	struct age_profile p;
	struct age_opts o = { &p, 16u << 20, 7, NULL, NULL };
	struct age_result r;
	char small_fs[512];

	(void)state;
	if (geteuid() != 0)
		skip_because("needs root to mount a small tmpfs");
	assert_int_equal(age_profile_parse("small.age", small, &p), 0);
	snprintf(small_fs, sizeof(small_fs), "%s/small", dir);
	assert_int_equal(mkdir(small_fs, 0700), 0);
	assert_int_equal(mount("tmpfs", small_fs, "tmpfs", 0, "size=4m"), 0);
	made_mount(small_fs);
	if (age_run(small_fs, &o, &r))
		fail_msg("%s", error_get());
	assert_true(r.enospc > 0);
	undo(small_fs);
}

/* The record the store keeps and the line the reports show: the figures
 * come back by their keys, extents are spoken of only where FIEMAP mapped
 * files (tmpfs maps none), the refusals of a full filesystem are said,
 * and the free space's where the filesystem said, the ager's CPU per
 * operation beside the kernel's, and something that is not a record is
 * said to be unreadable rather than shown as an aging that did nothing.
 * Catches: a field written under one key and read under another (a system
 * table saying 0% full), "0.00 extents per file" on tmpfs, a summary
 * built from a NULL. */
static void test_record(void **state)
{
	struct age_profile p;
	struct age_result r = { .ops = { 100, 50, 50, 0, 0, 50 }, .written = 12u << 20,
				.seconds = 3.5, .user_s = 0.25, .sys_s = 2, .fullness = 0.6125,
				.files = 40, .mapped_files = 40, .extents = 60, .frag_files = 0.25,
				.free_extents = 7, .free_extent_bytes = 3 << 20 };
	char line[512], *rec;

	(void)state;
	assert_int_equal(age_profile_parse("dir/small.age", small, &p), 0);
	rec = age_record_json(&p, 9, 4u << 20, NULL, &r);
	assert_non_null(rec);
	assert_float_equal(age_record_value(rec, "fullness"), 0.6125, 1e-12);
	assert_float_equal(age_record_value(rec, "extents_per_file"), 1.5, 1e-12);
	assert_float_equal(age_record_value(rec, "seed"), 9, 0);
	assert_true(isnan(age_record_value(rec, "no such key")));
	assert_int_equal(age_record_summary(rec, line, sizeof(line)), 0);
	assert_non_null(strstr(line, "aged with small (seed 9): 61.3% full, 40 files"));
	assert_non_null(strstr(line, "1.50 extents per file, 25% of files"));
	assert_non_null(strstr(line, "3.0x its size written in 4 s"));
	assert_non_null(strstr(line, "free space in 7 extents of 3072 KiB on average"));
	/* 250 operations: the ager's 1000 us each, the kernel's 8000 */
	assert_non_null(strstr(line, "(fsbench 0.2 s CPU, the kernel 2.0 s: 1000.0 and 8000.0 us an "
				     "operation)"));
	assert_null(strstr(line, "refused"));
	free(rec);
	r.mapped_files = r.extents = r.free_extents = 0;
	r.enospc = 3;
	rec = age_record_json(&p, 9, 4u << 20, NULL, &r);
	assert_int_equal(age_record_summary(rec, line, sizeof(line)), 0);
	assert_null(strstr(line, "extents"));	/* neither the files' nor the free space's */
	assert_non_null(strstr(line, "3 operations refused for want of space"));
	free(rec);
	assert_int_equal(age_record_summary("{\"seed\": 1}", line, sizeof(line)), -1);
	assert_non_null(strstr(line, "unreadable"));
	assert_int_equal(age_record_summary(NULL, line, sizeof(line)), -1);
}

/* A 1 MiB tmpfs at fs filled by a file that is not the ager's (other),
 * and the ager's empty directory on it (mine). */
static void full_of_others(char *fs, size_t fl, char *mine, char *other, size_t ml)
{
	snprintf(fs, fl, "%s/full", dir);
	assert_int_equal(mkdir(fs, 0700), 0);
	assert_int_equal(mount("tmpfs", fs, "tmpfs", 0, "size=1m"), 0);
	made_mount(fs);
	snprintf(mine, ml, "%s/aged", fs);
	snprintf(other, ml, "%s/someone-elses", fs);
	assert_int_equal(mkdir(mine, 0700), 0);
	int fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
	char block[4096] = { 1 };
	assert_true(fd >= 0);
	while (write(fd, block, sizeof(block)) > 0)
		;
	close(fd);
}

/* A filesystem full of something else: nothing the ager may delete gives
 * room, and it stops with an error that says so.  Catches: a loop that
 * never ends (every write refused, a delete of nothing after it: nilfs2
 * without its cleaner in fsbench's guest gives no space back either), and
 * a directory the ager could not make taken for an error of its own. */
static void test_full_of_others(void **state)
{
	struct age_profile p;
	struct age_opts o = { &p, 16u << 20, 7, NULL, NULL };
	struct age_result r;
	char fs[512], mine[600], other[600];

	(void)state;
	if (geteuid() != 0)
		skip_because("needs root to mount a small tmpfs");
	assert_int_equal(age_profile_parse("small.age", small, &p), 0);
	full_of_others(fs, sizeof(fs), mine, other, sizeof(mine));
	assert_int_equal(age_run(mine, &o, &r), -1);
	assert_non_null(strstr(error_get(), "full though none of the aging's files is left"));
	struct stat st;
	assert_int_equal(stat(other, &st), 0);	/* not the ager's: never touched */
	assert_true(st.st_size > 0);
	undo(fs);
}

/* The hook of a filesystem whose cleaner gives deleted space back in its
 * own time (NILFS2, targets/cleaner.h): called at every refusal, before it
 * is counted, and a full filesystem with none of the ager's files left is
 * not given up while the hook says space came back.  Catches: the hook
 * never called (nilfs2 full after one pass, as before the cleaner), a
 * refusal the hook made good not counted (the record would hide that the
 * sequence departed), and an aging that gives up on a filesystem its
 * cleaner is still emptying. */
struct reclaims { int calls, back; };

static int count_reclaim(void *arg)
{
	struct reclaims *rc = arg;

	rc->calls++;
	return rc->back-- > 0;
}

static void test_reclaim_hook(void **state)
{
	struct age_profile p;
	struct reclaims rc = { 0, 0 };
	struct age_opts o = { &p, 16u << 20, 7, NULL, NULL, NULL, count_reclaim, &rc };
	struct age_result r;
	char fs[512], mine[600], other[600];

	(void)state;
	if (geteuid() != 0)
		skip_because("needs root to mount a small tmpfs");
	assert_int_equal(age_profile_parse("small.age", small, &p), 0);
	snprintf(fs, sizeof(fs), "%s/small", dir);
	assert_int_equal(mkdir(fs, 0700), 0);
	assert_int_equal(mount("tmpfs", fs, "tmpfs", 0, "size=4m"), 0);
	made_mount(fs);
	if (age_run(fs, &o, &r))
		fail_msg("%s", error_get());
	assert_true(r.enospc > 0);
	assert_int_equal(rc.calls, (int)r.enospc);
	undo(fs);

	/* full of someone else's file: three times "space came back", then
	 * not; the fourth refusal ends it */
	rc = (struct reclaims){ 0, 3 };
	full_of_others(fs, sizeof(fs), mine, other, sizeof(mine));
	assert_int_equal(age_run(mine, &o, &r), -1);
	assert_non_null(strstr(error_get(), "full though none of the aging's files is left"));
	assert_int_equal(rc.calls, 4);
	undo(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_record),
		cmocka_unit_test_setup_teardown(test_same_sequence, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_deep_tree, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_full_device, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_full_of_others, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_reclaim_hook, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
