/* test_tree.c: the corpus is deterministic, a real tar that GNU tar reads,
 * sized exactly; a run restores, copies, reads (verified) and deletes; a
 * corrupt file fails the run; the cache may not be on the target. */
#include "testutil.h"
#include "core/error.h"
#include "run_workload.h"

#include <archive.h>
#include <archive_entry.h>
#include <math.h>
#include <sys/stat.h>

static char cache[256], cache2[256], target[256];

/* The caches in the scratch directory; the target on another filesystem,
 * as the workload requires: a tmpfs of the test's own under the scratch
 * (root), else a directory in /dev/shm.  Each is recorded as it is made,
 * so the teardown undoes it however the tests end. */
static int setup(void **state)
{
	(void)state;
	make_tmpdir(cache, sizeof(cache));
	made_dir(cache);
	make_tmpdir(cache2, sizeof(cache2));
	made_dir(cache2);
	make_scratch(target, sizeof(target), scratch_root(), "unit-target");
	made_dir(target);
	if (geteuid() == 0 && !mount("tmpfs", target, "tmpfs", 0, "size=256m,mode=0700")) {
		made_mount(target);
	} else {
		snprintf(target, sizeof(target), "/dev/shm/fsbench-unit.XXXXXX");
		assert_non_null(mkdtemp(target));
		made_dir(target);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	undo_made();
	return 0;
}

/* Entries of the tar whose names end with suffix, read with libarchive. */
static int tar_count(const char *tar, const char *suffix)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int n = 0;

	assert_non_null(a);
	archive_read_support_format_tar(a);
	assert_int_equal(archive_read_open_filename(a, tar, 65536), ARCHIVE_OK);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		size_t ln = strlen(name), ls = strlen(suffix);
		n += ln >= ls && !strcmp(name + ln - ls, suffix);
	}
	archive_read_free(a);
	return n;
}

/* The sum of the second field of every line of the .sums file. */
static unsigned long long sums_total(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned long long total = 0, v;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %llu", &v) == 1)
			total += v;
	fclose(f);
	return total;
}

/* Line n of a .sums file gets the checksum 00000000 (its first 8 hex
 * digits), rewritten in place. */
static void flip_line_sum(const char *path, int n)
{
	FILE *f = fopen(path, "r+");
	char line[1024];
	long at = 0;

	assert_non_null(f);
	for (int i = 1; i < n; i++) {
		assert_non_null(fgets(line, sizeof(line), f));
		at = ftell(f);
	}
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fwrite("00000000", 1, 8, f), 8);
	assert_int_equal(fclose(f), 0);
}

/* Whether two files hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	int c, d;

	assert_non_null(x);
	assert_non_null(y);
	do {
		c = fgetc(x);
		d = fgetc(y);
	} while (c == d && c != EOF);
	fclose(x);
	fclose(y);
	return c == d;
}

static int run(const char *spec, double *v, char *detail)
{
	return run_workload(spec, target, v, detail, NULL);
}

static void test_corpus_and_run(void **state)
{
	(void)state;
	char spec[512], detail[DETAIL_MAX], cmd[1200];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=300,size=3M,dirs=7,cache=%s", cache);
	assert_int_equal(run(spec, v, detail), 0);
	for (int i = 0; i < 16; i++)
		assert_true(isfinite(v[i]) && v[i] >= 0);
	assert_true(v[0] > 0 && v[1] > 0);	/* restore time and MB/s */
	assert_non_null(strstr(detail, "every file verified"));
	assert_int_equal(count_entries(target), 0);	/* deleted */

	/* a tar reader reads the corpus: 300 files (and the 7 dirs), sizes
	 * adding up to exactly 3 MiB */
	snprintf(cmd, sizeof(cmd), "%s/corpus-v1-300-3145728-7-1.tar", cache);
	assert_int_equal(tar_count(cmd, ".jpg"), 300);
	snprintf(cmd, sizeof(cmd), "%s/corpus-v1-300-3145728-7-1.sums", cache);
	assert_int_equal(sums_total(cmd), 3145728);

	/* Deterministic: another cache makes the same bytes. */
	snprintf(spec, sizeof(spec), "tree:files=300,size=3M,dirs=7,cache=%s", cache2);
	assert_int_equal(run(spec, v, NULL), 0);
	char other[600];
	snprintf(cmd, sizeof(cmd), "%s/corpus-v1-300-3145728-7-1.tar", cache);
	snprintf(other, sizeof(other), "%s/corpus-v1-300-3145728-7-1.tar", cache2);
	assert_true(same_bytes(cmd, other));
}

static void test_corruption_is_caught(void **state)
{
	(void)state;
	char spec[512], cmd[1200];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=50,size=500k,dirs=5,cache=%s", cache);
	assert_int_equal(run(spec, v, NULL), 0);
	/* Flip the expected checksum of one file: the read phase must say so. */
	snprintf(cmd, sizeof(cmd), "%s/corpus-v1-50-512000-5-1.sums", cache);
	flip_line_sum(cmd, 7);
	assert_int_equal(run(spec, v, NULL), -1);
	assert_non_null(strstr(error_get(), "is corrupt"));
	assert_int_equal(count_entries(target), 0);	/* the half tree is gone */
}

static void test_cache_on_target_refused(void **state)
{
	(void)state;
	char spec[512];
	double v[16];

	snprintf(spec, sizeof(spec), "tree:files=10,size=10k,cache=%s", target);
	assert_int_equal(run(spec, v, NULL), -1);
	assert_non_null(strstr(error_get(), "is on the filesystem under test"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_and_run),
		cmocka_unit_test(test_corruption_is_caught),
		cmocka_unit_test(test_cache_on_target_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
