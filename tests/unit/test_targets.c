/* test_targets.c: --fs SPEC parsing, the profile table, command splitting. */
#include "testutil.h"
#include "core/error.h"
#include "core/exec.h"
#include "targets/profiles.h"
#include "targets/target.h"

static void test_plain_and_options(void **state)
{
	(void)state;
	struct fs_spec s;

	assert_int_equal(fs_spec_parse("ext4", &s), 0);
	assert_string_equal(s.profile->name, "ext4");
	assert_string_equal(s.label, "ext4");
	assert_string_equal(s.options, "");
	assert_string_equal(s.mkfs_extra, "");

	assert_int_equal(fs_spec_parse("btrfs:compress=zstd", &s), 0);
	assert_string_equal(s.profile->name, "btrfs");
	assert_string_equal(s.options, "compress=zstd");
	assert_string_equal(s.label, "btrfs:compress=zstd");

	/* The issue's own example. */
	assert_int_equal(fs_spec_parse("ext4:mkfs=-O ^has_journal,mount=noatime,label=ext4-nojournal", &s), 0);
	assert_string_equal(s.mkfs_extra, "-O ^has_journal");
	assert_string_equal(s.options, "noatime");
	assert_string_equal(s.label, "ext4-nojournal");

	/* Profile defaults come first; a feature list stays inside mkfs=. */
	assert_int_equal(fs_spec_parse("btrfs-lzo:mkfs=-O ^no-holes,^free-space-tree,mount=noatime,discard", &s), 0);
	assert_string_equal(s.mkfs_extra, "-O ^no-holes,^free-space-tree");
	assert_string_equal(s.options, "compress=lzo,noatime,discard");
}

static void test_bad_specs(void **state)
{
	(void)state;
	struct fs_spec s;

	assert_int_equal(fs_spec_parse("zfsx", &s), -1);
	assert_non_null(strstr(error_get(), "unknown filesystem 'zfsx'"));
	assert_non_null(strstr(error_get(), "fsbench list fs"));
	assert_int_equal(fs_spec_parse("ext4:label=", &s), -1);
	assert_int_equal(fs_spec_parse("ext4:label=a=b", &s), -1);
}

static void test_split_list(void **state)
{
	(void)state;
	struct fs_spec s[8];
	int n = 0;

	assert_int_equal(fs_spec_split("ext4,xfs,btrfs:compress=zstd,exfat-fuse", s, 8, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(s[2].options, "compress=zstd");
	assert_string_equal(s[3].profile->name, "exfat-fuse");

	n = 0;
	assert_int_equal(fs_spec_split("ext4:mount=noatime,discard,xfs", s, 8, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].options, "noatime,discard");
	assert_string_equal(s[1].profile->name, "xfs");

	n = 0;
	assert_int_equal(fs_spec_split("nope,ext4", s, 8, &n), -1);
	n = 0;
	assert_int_equal(fs_spec_split("ext4,xfs,btrfs", s, 2, &n), -1);
}

static void test_profile_table(void **state)
{
	(void)state;
	size_t n;
	const struct fs_profile *p = fs_profiles(&n);
	char why[256];

	assert_true(n >= 17);
	/* Every seed's filesystems are covered. */
	const char *need[] = { "ext2", "ext4", "xfs", "btrfs", "btrfs-lzo", "btrfs-zstd", "exfat",
			       "exfat-fuse", "ext4-fuse", "f2fs", "f2fs-lz4", "f2fs-lzo-rle",
			       "f2fs-zstd", "nilfs2", "vfat", "tmpfs", "ubifs", "jffs2" };
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		assert_non_null(fs_profile_find(need[i]));
	/* every profile makes its filesystem, but those with none to make
	 * (a raw target is the medium itself) */
	for (size_t i = 0; i < n; i++)
		assert_true(p[i].kind == MOUNT_NONE || p[i].kind == MOUNT_MEMORY ||
			    p[i].kind == MOUNT_RAW || p[i].mkfs);
	/* raw-mtd is flash (the guest's nandsim) and erased as its "mkfs" */
	assert_true(fs_kind_raw(fs_profile_find("raw")->kind));
	assert_true(fs_kind_flash(fs_profile_find("raw-mtd")->kind));
	assert_non_null(strstr(fs_profile_find("raw-mtd")->mkfs, "flash_erase"));
	struct fs_spec raw;
	assert_int_equal(fs_spec_parse("raw:label=key", &raw), 0);
	assert_int_equal(fs_spec_parse("raw:mount=noatime", &raw), -1);
	assert_non_null(strstr(error_get(), "is no filesystem"));
	assert_int_equal(fs_profile_available(fs_profile_find("ubifs"), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "MTD"));
	/* Seed 003's f2fs features and mount options. */
	assert_non_null(strstr(fs_profile_find("f2fs-zstd")->mkfs, "extra_attr,inode_checksum,sb_checksum,compression"));
	assert_non_null(strstr(fs_profile_find("f2fs-lz4")->options, "compress_algorithm=lz4"));
	/* A kernel type absent from /proc/filesystems is named as the reason. */
	FILE *f = fopen("/proc/filesystems", "r");
	char buf[8192] = "";
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	if (!strstr(buf, "\tnilfs2\n") && !access("/usr/sbin/mkfs.nilfs2", X_OK)) {
		assert_int_equal(fs_profile_available(fs_profile_find("nilfs2"), why, sizeof(why)), -1);
		assert_string_equal(why, "kernel has no nilfs2");
	}
}

static void test_split_words_and_exec(void **state)
{
	(void)state;
	char line[] = "mkfs.ext4 -q  -L 'my disk' -O \"^has_journal\" /dev/x";
	char *argv[16], out[256];

	assert_int_equal(split_words(line, argv, 16), 7);
	assert_string_equal(argv[0], "mkfs.ext4");
	assert_string_equal(argv[3], "my disk");
	assert_string_equal(argv[5], "^has_journal");
	assert_null(argv[7]);

	char *ok[] = { "sh", "-c", "echo first; echo last words >&2; exit 3", NULL };
	assert_int_equal(exec_capture(ok, out, sizeof(out)), 3);
	assert_string_equal(last_line(out), "last words");
	char *missing[] = { "no-such-program-fsbench", NULL };
	assert_int_equal(exec_capture(missing, out, sizeof(out)), -1);
	assert_non_null(strstr(error_get(), "not found"));
}

static void test_device_checks(void **state)
{
	(void)state;
	char found[256];

	assert_int_equal(device_check("/dev/null", 0, found, sizeof(found)), -1);
	assert_non_null(strstr(error_get(), "is not a block device"));
	assert_int_equal(device_check("/no/such/dev", 0, found, sizeof(found)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_options),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_split_list),
		cmocka_unit_test(test_profile_table),
		cmocka_unit_test(test_split_words_and_exec),
		cmocka_unit_test(test_device_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
