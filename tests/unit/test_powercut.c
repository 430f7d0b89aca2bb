/*
 * test_powercut.c: the powercut workload's shapes and checks
 * (workloads/powercut.h) on a directory of the test's own, with no
 * recorder: what each shape writes and promises, in which order, and that
 * the checks tell kept from lost.  What each test catches is said above
 * it.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include "core/error.h"
#include "crash/manifest.h"
#include "workloads/powercut.h"

#include <fcntl.h>

struct rec {
	uint32_t seen[4096];
	size_t n;
	int fail_at;		/* -1: never */
};

static int record(void *ctx, uint32_t n)
{
	struct rec *r = ctx;

	if (r->n < 4096)
		r->seen[r->n] = n;
	r->n++;
	if (r->fail_at >= 0 && n == (uint32_t)r->fail_at)
		return error_set("the recorder failed");
	return 0;
}

static void path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

/* fs_mark's shape: one promise per file, numbered in order, made after
 * the file and its directory were fsync'd (the check then finds every
 * promised file whole); a file removed or cut short is counted lost.
 * Catches: promises out of order or missing (the crash points would
 * expect the wrong files), a manifest whose hashes do not match what was
 * written (every file would look lost), a check that misses a loss. */
static void test_fsync_shape(void **state)
{
	struct pc_shape_params p = { PC_FSYNC, 250, 4096, 7, 1 };
	struct manifest m = { 0 };
	struct rec r = { .fail_at = -1 };
	struct pc_hooks h = { record, &r };
	struct mf_outcome o;
	char path[512];
	uint32_t acks;

	(void)state;
	assert_int_equal(pc_shape_run(dir, &p, &m, &h, &acks), 0);
	assert_int_equal(acks, 250);
	assert_int_equal(r.n, 250);
	for (uint32_t i = 0; i < 250; i++)
		assert_int_equal(r.seen[i], i);
	assert_int_equal(m.n, 250);
	assert_int_equal(manifest_check(&m, dir, acks, &o), 0);
	assert_int_equal(o.promised, 250);
	assert_int_equal(o.promised_lost, 0);
	assert_int_equal(o.promised_bytes, 250 * 4096);
	path_in(path, sizeof(path), "d001/f000100");
	assert_int_equal(unlink(path), 0);
	path_in(path, sizeof(path), "d002/f000249");
	assert_int_equal(truncate(path, 100), 0);
	assert_int_equal(manifest_check(&m, dir, acks, &o), 0);
	assert_int_equal(o.promised_lost, 2);
	assert_string_equal(o.first_loss, "d001/f000100 (missing)");
	/* promised only up to file 100: the one at 249 was not yet */
	assert_int_equal(manifest_check(&m, dir, 101, &o), 0);
	assert_int_equal(o.promised_lost, 1);
	assert_int_equal(o.unpromised_lost, 1);
	manifest_free(&m);
}

/* seed 001's restore: no promise until the sync at the end, then one for
 * the whole tree.  Catches: a promise per file (the tree shape would then
 * test fsync, not a restore) or none at all (nothing would be checked as
 * owed). */
static void test_tree_shape(void **state)
{
	struct pc_shape_params p = { PC_TREE, 1100, 2048, 3, 1 };
	struct manifest m = { 0 };
	struct rec r = { .fail_at = -1 };
	struct pc_hooks h = { record, &r };
	struct mf_outcome o;
	uint32_t acks;
	uint64_t total = 0, big = 0;

	(void)state;
	assert_int_equal(pc_shape_run(dir, &p, &m, &h, &acks), 0);
	assert_int_equal(acks, 1);
	assert_int_equal(r.n, 1);
	assert_int_equal(m.n, 1100);
	for (size_t i = 0; i < m.n; i++) {
		total += m.f[i].size;
		big += m.f[i].size > 2048;
		assert_true(m.f[i].size >= 1 && m.f[i].size <= 8 * 2048);
	}
	assert_true(big > 100 && big < 340);	/* about one in five, of 1100 */
	assert_int_equal(manifest_check(&m, dir, 0, &o), 0);
	assert_int_equal(o.promised, 0);
	assert_int_equal(o.unpromised, 1100);
	assert_int_equal(o.unpromised_lost, 0);
	assert_int_equal(o.unpromised_bytes, total);
	assert_int_equal(manifest_check(&m, dir, 1, &o), 0);
	assert_int_equal(o.promised, 1100);
	assert_int_equal(o.promised_lost, 0);
	manifest_free(&m);
}

/* SQLite, both journals: the schema's commit is promise 0, row k's is
 * promise k; the check counts the promised rows present with their exact
 * content, and a missing database loses them all.  Catches: a row counted
 * kept by its id alone, promises counted from the wrong origin (one row
 * too many or too few owed), a missing database taken as intact. */
static void sqlite_shape(int shape)
{
	struct pc_shape_params p = { shape, 20, 100, 11, 1 };
	struct manifest m = { 0 };
	struct rec r = { .fail_at = -1 };
	struct pc_hooks h = { record, &r };
	struct pc_sqlite_outcome o;
	char path[512];
	uint32_t acks;

	assert_int_equal(pc_shape_run(dir, &p, &m, &h, &acks), 0);
	assert_int_equal(acks, 21);
	assert_int_equal(r.n, 21);
	assert_int_equal(pc_sqlite_check(dir, &p, acks, &o), 0);
	assert_true(o.opened && o.intact);
	assert_int_equal(o.promised, 20);
	assert_int_equal(o.promised_lost, 0);
	assert_int_equal(pc_sqlite_check(dir, &p, 5, &o), 0);
	assert_int_equal(o.promised, 4);
	assert_int_equal(o.promised_lost, 0);
	assert_int_equal(o.unpromised_kept, 16);
	/* the same database checked against another seed: every row is wrong */
	p.seed = 12;
	assert_int_equal(pc_sqlite_check(dir, &p, acks, &o), 0);
	assert_int_equal(o.promised_lost, 20);
	p.seed = 11;
	path_in(path, sizeof(path), "pc.db");
	assert_int_equal(unlink(path), 0);
	path_in(path, sizeof(path), "pc.db-wal");
	unlink(path);
	path_in(path, sizeof(path), "pc.db-shm");
	unlink(path);
	assert_int_equal(pc_sqlite_check(dir, &p, acks, &o), 0);
	assert_false(o.opened);
	assert_int_equal(o.promised_lost, 20);
	manifest_free(&m);
}

static void test_sqlite_wal(void **state)
{
	(void)state;
	sqlite_shape(PC_SQLITE_WAL);
}

static void test_sqlite_rollback(void **state)
{
	(void)state;
	sqlite_shape(PC_SQLITE_ROLLBACK);
}

/* A recorder that fails stops the shape at once, with its error.
 * Catches: a shape that goes on writing after its mark was lost (the
 * log would then say fewer promises than were made, and the check would
 * excuse a real loss). */
static void test_hook_failure(void **state)
{
	struct pc_shape_params p = { PC_FSYNC, 50, 512, 1, 1 };
	struct manifest m = { 0 };
	struct rec r = { .fail_at = 3 };
	struct pc_hooks h = { record, &r };
	uint32_t acks;

	(void)state;
	assert_int_equal(pc_shape_run(dir, &p, &m, &h, &acks), -1);
	assert_non_null(strstr(error_get(), "the recorder failed"));
	assert_int_equal(r.n, 4);
	assert_int_equal(m.n, 4);
	p.size = 0;
	assert_int_equal(pc_shape_run(dir, &p, &m, &h, &acks), -1);
	manifest_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fsync_shape, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_tree_shape, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_sqlite_wal, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_sqlite_rollback, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_hook_failure, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
