/* test_sysinfo.c: system-table parsers on fixture copies of /proc, /sys and
 * /etc from seed 000's laptop (tests/fixtures/laptop), and CPU accounting. */
#include "testutil.h"

#include <time.h>

#include <math.h>
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"

static char root[1024];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/laptop", fixture_dir());
	return 0;
}

static void test_system_table(void **state)
{
	(void)state;
	struct sysinfo si;
	struct sysfield f[8];

	sysinfo_collect(root, &si);
	assert_string_equal(si.processor, "AMD Ryzen 5 4500U with Radeon Graphics @ 2.38GHz (6 Cores)");
	assert_string_equal(si.motherboard, "LENOVO LNVNB161216 (EECN20WW BIOS)");
	assert_string_equal(si.memory, "15360 MB");
	assert_string_equal(si.os, "Ubuntu 20.10");
	assert_non_null(strstr(si.kernel, "5.9.1-050901-generic ("));
	assert_true(!strncmp(si.compiler, "GCC ", 4) || !strncmp(si.compiler, "Clang ", 6));
	assert_int_equal(sysinfo_fields(&si, f), 6);
	assert_string_equal(f[0].name, "Processor");
	assert_ptr_equal(f[2].value, si.memory);
}

static void test_dmidecode_memory(void **state)
{
	(void)state;
	char path[1100], text[8192], out[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/dmidecode-type17.txt", fixture_dir());
	fp = fopen(path, "r");
	assert_non_null(fp);
	text[fread(text, 1, sizeof(text) - 1, fp)] = '\0';
	fclose(fp);
	memory_from_dmidecode(text, out, sizeof(out));
	assert_string_equal(out, "2 x 8192 MB DDR4-3200MT/s Samsung M471A1G44AB0-CWE");
	memory_from_dmidecode("no devices here\n", out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_fuseblk_on_usb_partition(void **state)
{
	(void)state;
	struct fsinfo fi;

	assert_int_equal(fsinfo_collect(root, "/media/usb/photos", &fi), 0);
	assert_string_equal(fi.fstype, "fuseblk");
	assert_string_equal(fi.mount_point, "/media/usb");
	assert_string_equal(fi.mount_source, "/dev/sdb1");
	assert_string_equal(fi.mount_opts, "rw,nosuid,nodev,relatime,user_id=0,group_id=0,"
			    "default_permissions,allow_other,blksize=4096");
	assert_string_equal(fi.disk, "123GB Ultra Luxe (sdb)");
	assert_string_equal(fi.scheduler, "bfq");
}

static void test_nested_mount_wins(void **state)
{
	(void)state;
	struct fsinfo fi;

	assert_int_equal(fsinfo_collect(root, "/media/usb/inner/x", &fi), 0);
	assert_string_equal(fi.fstype, "f2fs");
	assert_string_equal(fi.mount_opts, "rw,noatime,lazytime,background_gc=on");
	/* A sibling whose name only starts like a mount point is not under it. */
	assert_int_equal(fsinfo_collect(root, "/media/usbx", &fi), 0);
	assert_string_equal(fi.mount_point, "/");
	assert_string_equal(fi.fstype, "ext4");
	assert_string_equal(fi.disk, "256GB SK hynix HFM256GDHTNI-87A0B (nvme0n1)");
	assert_string_equal(fi.scheduler, "none");
}

static void test_fuse_subtype_and_escapes(void **state)
{
	(void)state;
	struct fsinfo fi;

	assert_int_equal(fsinfo_collect(root, "/home/u/my disk/file", &fi), 0);
	assert_string_equal(fi.mount_point, "/home/u/my disk");
	assert_string_equal(fi.fstype, "ext4 (FUSE)");
	assert_string_equal(fi.disk, "none");
	assert_string_equal(fi.scheduler, "n/a");
}

static void test_magic_names(void **state)
{
	(void)state;
	assert_string_equal(fs_magic_name(0xEF53), "ext2/ext3/ext4");
	assert_string_equal(fs_magic_name(0x58465342), "xfs");
	assert_string_equal(fs_magic_name(0x9123683E), "btrfs");
	assert_string_equal(fs_magic_name(0xF2F52010), "f2fs");
	assert_null(fs_magic_name(0x12345678));
}

static void test_live_tmpfs(void **state)
{
	(void)state;
	struct fsinfo fi;

	if (access("/dev/shm", W_OK)) {
		skip_because("no writable /dev/shm");
		return;
	}
	assert_int_equal(fsinfo_collect("", "/dev/shm", &fi), 0);
	assert_string_equal(fi.fstype, "tmpfs");
	assert_int_equal(fsinfo_collect("", "/no/such/dir", &fi), -1);
}

static void test_proc_stat_parse(void **state)
{
	(void)state;
	uint64_t busy, total;

	assert_int_equal(cpu_parse_stat("cpu  100 5 50 1000 20 1 2 3 0 0\n", &busy, &total), 0);
	assert_int_equal(total, 1181);
	assert_int_equal(busy, 158);	/* minus idle, iowait and steal */
	assert_int_equal(cpu_parse_stat("cpu0 1 2 3 4\n", &busy, &total), -1);
}

static double cputime(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Busy user-space work shows as the workload's CPU, as the kernel counts
 * the process's own (CLOCK_PROCESS_CPUTIME_ID over the same window), and
 * the machine at least as busy.  The loop runs until 0.7 s of CPU are
 * spent, not of wall time: with the CPUs shared it gets what it gets, and
 * a wall-clock loop's 50% of a CPU was the machine's load, not the code
 * (catches: the wrong rusage fields or units, children's time lost, a CPU%
 * not of the wall time, a machine figure below the process's own). */
static void test_cpu_accounting_busy_loop(void **state)
{
	(void)state;
	struct cpu_snap a, b;
	struct cpu_usage u;
	volatile uint64_t x = 0;

	cpu_snapshot(&a);
	double c0 = cputime();
	while (cputime() - c0 < 0.7)	/* enough for CPU_MIN_TICKS ticks on 2 CPUs at 100 Hz */
		x += 1;
	double c = cputime() - c0;
	cpu_snapshot(&b);
	cpu_between(&a, &b, &u);
	print_message("# %.3f s wall, %.3f s CPU (the kernel's %.3f), %.1f%%, machine %.1f%%\n",
		      u.wall, u.user + u.sys, c, u.cpu_pct, u.machine_pct);
	assert_true(u.wall >= c - 0.01);
	assert_true(fabs(u.user + u.sys - c) < 0.05);
	assert_true(fabs(u.cpu_pct - (u.user + u.sys) / u.wall * 100) < 1e-6);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (isfinite(u.machine_pct))	/* our CPU is part of the machine's, ticks aside */
		assert_true(u.machine_pct >= u.cpu_pct * 0.9 - 2);
	else
		assert_true(ncpu < 2);	/* 0.7 s of 2 CPUs are 140 ticks */
	assert_true(!isfinite(u.machine_pct) || u.machine_pct <= 100.0 * (double)ncpu + 1e-9);
	/* A few milliseconds: tick counts say nothing, so no figure. */
	cpu_snapshot(&a);
	uint64_t end = now_ns() + 2000000ULL;
	while (now_ns() < end)
		x += 1;
	cpu_snapshot(&b);
	cpu_between(&a, &b, &u);
	assert_true(isnan(u.machine_pct));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_table),
		cmocka_unit_test(test_dmidecode_memory),
		cmocka_unit_test(test_fuseblk_on_usb_partition),
		cmocka_unit_test(test_nested_mount_wins),
		cmocka_unit_test(test_fuse_subtype_and_escapes),
		cmocka_unit_test(test_magic_names),
		cmocka_unit_test(test_live_tmpfs),
		cmocka_unit_test(test_proc_stat_parse),
		cmocka_unit_test(test_cpu_accounting_busy_loop),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
