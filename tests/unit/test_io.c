/*
 * test_io.c: the I/O run as a whole (io/run.c, io/filesetup.c,
 * workloads/io.c): page-cache hints, end_fsync inside the timed part,
 * ENOSPC on a small tmpfs and a job larger than free space,
 * continue_on_error, and the figures the io workload reports.  The rest of
 * the I/O core: test_io_data.c, test_io_rules.c, test_io_offsets.c,
 * test_io_pace.c; job files are test_jobfile.c, fio's text
 * test_iotext.c, verify test_verify.c.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "run_workload.h"

#include "core/file.h"
#include "core/timing.h"

#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <math.h>

/* Pages of a file in the page cache. */
static long resident_pages(const char *path)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE), n = 0;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	size_t pages = (size_t)((st.st_size + page - 1) / page);
	unsigned char *vec = malloc(pages);
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(vec && map != MAP_FAILED);
	assert_int_equal(mincore(map, (size_t)st.st_size, vec), 0);
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	munmap(map, (size_t)st.st_size);
	free(vec);
	close(fd);
	return n;
}

/* A scratch directory on /var/tmp, a disk filesystem here, with a page
 * cache and read-ahead as a user's files have them: false (and nothing
 * made) where /var/tmp is a tmpfs. */
static bool disk_scratch(char *where, size_t len)
{
	struct statfs sf;

	make_scratch(where, len, disk_scratch_root(), "unit");
	if (statfs(where, &sf) == 0 && sf.f_type == TMPFS_MAGIC) {
		rmdir(where);
		return false;
	}
	made_dir(where);
	return true;
}

/* A file written back and out of the page cache. */
static void uncache(const char *path)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fdatasync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
	assert_int_equal(resident_pages(path), 0);
}

/* fio's fadvise_hint: a random job's files are advised FADV_RANDOM, so a
 * buffered read brings in its own pages and no read-ahead (fio-rand-read.fio
 * on the disk here: 1.7x fio's IOPS without it).  Counted with mincore on
 * a 16 MiB file of which the job reads the first 64 KiB: the read-ahead
 * itself is what is tested, so it is the kernel's cache that must be
 * looked at.  Another program's cache drop (or reclaim) can only take
 * pages away, never add them: more than the 16 pages read is read-ahead
 * whatever else happens (the bug this catches), and fewer is a drop, so
 * that case is run again; a case that wants read-ahead is run again until
 * a pass shows it, as a drop can hide it but never fake it. */
static void test_fadvise_hint(void **state)
{
	static const struct { const char *opts; long pages; } cases[] = {
		{ "rw=randread", 16 },
		{ "rw=randread,ioengine=mmap", 16 },	/* madvise on the mapping */
		{ "rw=read,fadvise_hint=random", 16 },
		{ "rw=read,fadvise_hint=0", -1 },	/* read-ahead: more than read */
	};
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char where[512], path[600], opts[128];
	int fd;
	(void)state;

	if (!disk_scratch(where, sizeof(where))) {
		free(res);
		skip_because("/var/tmp is a tmpfs, which has no read-ahead");
	}
	snprintf(path, sizeof(path), "%s/ra", where);
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0644);
	assert_true(fd >= 0);
	char *buf = malloc(1 << 20);
	memset(buf, 0x5a, 1 << 20);
	for (int i = 0; i < 16; i++)
		assert_int_equal(write(fd, buf, 1 << 20), 1 << 20);
	free(buf);
	assert_int_equal(fsync(fd), 0);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		long n = 0;
		for (int tries = 0; tries < 50; tries++) {
			uncache(path);
			snprintf(opts, sizeof(opts), "%s,filename=ra,bs=4k,size=64k", cases[c].opts);
			job(&o, opts);
			assert_int_equal(io_group_run(&o, 1, where, res, false), 0);
			assert_int_equal(res->ios[0], 16);
			n = resident_pages(path);
			print_message("# %s: %ld pages cached\n", cases[c].opts, n);
			if (cases[c].pages >= 0)
				assert_true(n <= cases[c].pages);	/* more: read-ahead */
			if (cases[c].pages >= 0 ? n == cases[c].pages : n > 16)
				break;
		}
		if (cases[c].pages >= 0)
			assert_int_equal(n, cases[c].pages);
		else
			assert_true(n > 16);
	}
	/* fio's mmap engine has no madvise for noreuse and fails the job */
	job(&o, "rw=read,filename=ra,bs=4k,size=64k,ioengine=mmap,fadvise_hint=noreuse");
	assert_int_equal(io_group_run(&o, 1, where, res, false), -1);
	assert_non_null(strstr(error_get(), "noreuse"));
	close(fd);
	undo(where);
	free(res);
}

/* fio's end_fsync (and fsync_on_close's last one) is on the job's clock:
 * a 64 MiB buffered write to the disk takes its fsync's time longer with
 * it (fsbench timed the write alone: 4.2 GB/s where fio gave 1.0).  The
 * times are printed; what is asserted is that the fsync returned inside
 * the measured time, which no load can change. */
static void test_end_fsync_timed(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char where[512], path[600];
	(void)state;

	if (!disk_scratch(where, sizeof(where))) {
		free(res);
		skip_because("/var/tmp is a tmpfs: an fsync costs nothing there");
	}
	snprintf(path, sizeof(path), "%s/sync", where);
	/* the second time round, the file the first kept */
	job(&o, "rw=write,bs=1m,size=64m,filename=sync,allow_existing_write=1");
	uint64_t plain = UINT64_MAX, f = 0;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(io_group_run(&o, 1, where, res, true), 0);
		plain = res->elapsed_ns < plain ? res->elapsed_ns : plain;
		int fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		uint64_t t0 = now_ns();
		assert_int_equal(fsync(fd), 0);
		f = now_ns() - t0;	/* the dirty 64 MiB written back */
		close(fd);
	}
	static const char *const with[] = { "end_fsync=1", "fsync_on_close=1" };
	for (int k = 0; k < 2; k++) {
		char opts[128];
		snprintf(opts, sizeof(opts), "rw=write,bs=1m,size=64m,filename=sync,"
			 "allow_existing_write=1,%s", with[k]);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, where, res, true), 0);
		print_message("# %s: %.1f ms, without it %.1f ms, an fsync of the data %.1f ms\n",
			      with[k], (double)res->elapsed_ns / 1e6, (double)plain / 1e6, (double)f / 1e6);
		/* what the code decided: the final fsync returned inside the
		 * job's measured time, whatever the machine's load made of
		 * the times (another program's sync can flush the job's pages
		 * first, and a loaded disk spreads a write job 13-93 ms) */
		assert_true(res->synced_ns > 0);
		assert_true(res->synced_ns <= res->elapsed_ns);
	}
	undo(where);
	free(res);
}

/* A 1 MiB tmpfs of the test's own, unmounted by its teardown however
 * the test ends. */
static int mount_small_tmpfs(char *where, size_t len)
{
	make_scratch(where, len, scratch_root(), "unit-small");
	if (mount("tmpfs", where, "tmpfs", 0, "size=1m")) {
		rmdir(where);
		return -1;
	}
	made_mount(where);
	return 0;
}

static void test_enospc_and_free_space(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char where[512], path[600];
	int fd;
	(void)state;

	if (geteuid() != 0 || mount_small_tmpfs(where, sizeof(where))) {
		free(res);
		skip_because("needs root to mount a 1 MiB tmpfs");
	}
	/* Larger than free space: refused before anything is written. */
	job(&o, "rw=write,size=8m");
	assert_int_equal(io_group_run(&o, 1, where, res, false), -1);
	assert_non_null(strstr(error_get(), "only 1.0 MiB is free"));
	assert_int_equal(count_entries(where), 0);
	/* A sparse 8 MiB file passes that check; writing it runs out. */
	snprintf(path, sizeof(path), "%s/sparse", where);
	fd = open(path, O_CREAT | O_RDWR, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 8 << 20), 0);
	close(fd);
	job(&o, "rw=write,size=8m,bs=64k,filename=sparse,allow_existing_write=1");
	assert_int_equal(io_group_run(&o, 1, where, res, false), -1);
	assert_non_null(strstr(error_get(), "no space left on the device after"));
	assert_non_null(strstr(error_get(), "of the 8.0 MiB asked"));
	unlink(path);
	assert_int_equal(count_entries(where), 0);
	/* direct=1 on tmpfs: works on kernels with tmpfs O_DIRECT, otherwise
	 * the one-line refusal. */
	job(&o, "rw=read,size=64k,direct=1");
	if (io_group_run(&o, 1, where, res, false))
		assert_non_null(strstr(error_get(), "refuses O_DIRECT (direct=1): use direct=0"));
	assert_int_equal(count_entries(where), 0);
	undo(where);
	free(res);
}

/* continue_on_error with ignore_error=,ENOSPC (fio's enospc-pressure.fio):
 * writes past a full 1 MiB tmpfs are counted and the job goes on, as fio
 * 3.33 reports the same job: 1024 writes issued, 1 MiB written, 256 timed,
 * 768 errors, the first ENOSPC; ENOSPC is not on the default list. */
static void test_continue_on_error(void **state)
{
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	struct io_errors e;
	char where[512], path[600], text[8192];
	int fd;
	(void)state;

	if (geteuid() != 0 || mount_small_tmpfs(where, sizeof(where))) {
		free(res);
		skip_because("needs root to mount a 1 MiB tmpfs");
	}
	snprintf(path, sizeof(path), "%s/sparse", where);
	for (int k = 0; k < 3; k++) {
		static const char *const opts[] = {
			/* the sparse file is the test's, made before the job */
			"rw=randwrite,size=4m,bs=4k,filename=sparse,continue_on_error=write,"
			"allow_existing_write=1",
			"rw=randwrite,size=4m,bs=4k,filename=sparse,allow_existing_write=1",
			"rw=randwrite,size=4m,bs=4k,filename=sparse,continue_on_error=write,"
			"allow_existing_write=1",
		};
		/* the write list (after the comma): a number, and a name alone */
		static const char *const lists[] = { ",EIO:28", ",ENOSPC", "" };
		fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, 4 << 20), 0);
		close(fd);
		job(&o, opts[k]);
		assert_int_equal(params_set(io_option_defs, &o, "ignore_error", lists[k]), 0);
		if (k == 2) {	/* EIO and EILSEQ only: ENOSPC ends the job */
			assert_int_equal(io_group_run(&o, 1, where, res, false), -1);
			assert_non_null(strstr(error_get(), "no space left"));
			break;
		}
		assert_int_equal(io_group_run(&o, 1, where, res, false), 0);
		assert_int_equal(res->error, 0);
		assert_int_equal(res->ios[DIR_WRITE], 1024);
		assert_int_equal(res->bytes[DIR_WRITE], 1 << 20);
		assert_int_equal(res->dir_clat[DIR_WRITE].n, 256);
		assert_int_equal(res->total_err, 768);
		assert_int_equal(res->first_error, ENOSPC);
		io_result_text(&o, res, 0, NULL, text, sizeof(text));
		assert_non_null(strstr(text, "err=28 (error="));
		assert_non_null(strstr(text, "errors    : total=768, first_error=28/<"));
	}
	unlink(path);
	undo(where);

	static const struct { const char *opts, *error; } bad[] = {
		{ "ignore_error=EWHAT", "'EWHAT' is not an error name" },
		{ "ignore_error=EIO,EIO,EIO,EIO", "at most three lists" },
		{ "ignore_error=0", "'0' is not an error name" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		job(&o, "rw=write,size=1m");
		assert_int_equal(params_set(io_option_defs, &o, "ignore_error",
					    strchr(bad[i].opts, '=') + 1), -1);
		assert_non_null(strstr(error_get(), bad[i].error));
		assert_int_equal(o.ignore_error[0], '\0');	/* nothing changed */
	}
	job(&o, "continue_on_error=io");
	assert_int_equal(params_set(io_option_defs, &o, "ignore_error", "ENOENT:-5,,EILSEQ"), 0);
	assert_int_equal(io_errors(&o, &e), 0);
	assert_int_equal(e.mask, 7);	/* io, and the verify list given */
	assert_int_equal(e.n[ERR_READ], 2);
	assert_int_equal(e.err[ERR_READ][1], EIO);
	assert_int_equal(e.n[ERR_WRITE], 2);	/* the default */
	assert_int_equal(e.err[ERR_WRITE][0], EIO);
	free(res);
}

static void test_workload_metrics(void **state)
{
	double v[MAX_METRICS];
	char detail[DETAIL_MAX];
	int n;
	(void)state;

	assert_int_equal(run_workload("io:rw=randrw,size=1m,rwmixread=70", dir, v, detail, &n), 0);
	assert_int_equal(n, 12);
	assert_true(v[0] > 0);
	/* Bandwidth in fio's MiB/s only: IOPS x 4 KiB. */
	assert_true(fabs(v[1] / (v[0] * 4096 / 1048576.0) - 1) < 1e-6);
	assert_true(v[4] <= v[5] && v[5] <= v[6] && v[6] <= v[7] && v[7] <= v[8] && v[8] <= v[9]);
	assert_true(fabs(v[10] + v[11] - v[0]) < 1e-6 * v[0]);
	assert_true(v[10] > v[11]);
	assert_non_null(strstr(detail, "read: IOPS="));
	assert_non_null(strstr(detail, "write: IOPS="));
	assert_non_null(strstr(detail, "zstd"));
	assert_int_equal(count_entries(dir), 0);
	assert_int_equal(run_workload("io:rw=read,size=1m", dir, v, NULL, &n), 0);
	assert_int_equal(n, 10);
}

/* The distinct 4 KiB blocks of dir/name; *n its blocks, *twice the
 * distinct ones found more than once. */
static int cmp_block(const void *a, const void *b)
{
	return memcmp(*(unsigned char *const *)a, *(unsigned char *const *)b, 4096);
}

static size_t distinct_blocks(const char *const *names, int nfiles, size_t *n, size_t *twice,
			      bool remove)
{
	unsigned char *data[2] = { NULL, NULL }, **blk;
	size_t total = 0, len[2] = { 0, 0 }, d = 0;
	char path[600];

	for (int f = 0; f < nfiles; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[f]);
		data[f] = (unsigned char *)file_read_all(path, 64 << 20, 0, &len[f]);
		assert_non_null(data[f]);
		total += len[f] / 4096;
		if (remove)
			assert_int_equal(unlink(path), 0);
	}
	blk = malloc(total * sizeof(*blk));
	assert_non_null(blk);
	for (int f = 0, k = 0; f < nfiles; f++)
		for (size_t i = 0; i < len[f] / 4096; i++)
			blk[k++] = data[f] + i * 4096;
	qsort(blk, total, sizeof(*blk), cmp_block);
	*twice = 0;
	for (size_t i = 0; i < total; i++)
		if (!i || memcmp(blk[i], blk[i - 1], 4096))
			d++;
		else if (i == 1 || (i >= 2 && memcmp(blk[i - 1], blk[i - 2], 4096)))
			(*twice)++;
	*n = total;
	free(blk);
	free(data[0]);
	free(data[1]);
	return d;
}

/* fio's deduplicable buffers (issue 72): dedupe_percentage=50 writes half
 * the blocks as blocks written before, byte for byte; working_set repeats
 * pages of its set only (20% of size: 204 pages); dedupe_global shares the
 * set between two jobs' files.  fio 3.33 on the same jobs: 513 distinct of
 * 1024; 514 with 193 repeated pages; two files 1356 and 1367 distinct,
 * 2103 together.  The bug caught: the option dropped (every block new), a
 * repeat not whole, or a set not shared. */
static void test_dedupe(void **state)
{
	struct io_options o[2];
	struct io_result *res = calloc(2, sizeof(*res));
	const char *one[] = { "d" }, *two[] = { "a", "b" };
	size_t n, twice, d;
	(void)state;

	assert_non_null(res);
	job(&o[0], "rw=write,bs=4k,size=4m,filename=d,dedupe_percentage=50");
	assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
	d = distinct_blocks(one, 1, &n, &twice, true);
	print_message("# repeat: %zu distinct of %zu\n", d, n);
	assert_int_equal(n, 1024);
	assert_in_range(d, 462, 562);

	job(&o[0], "rw=write,bs=4k,size=4m,filename=d,dedupe_percentage=50,dedupe_mode=working_set,"
		   "dedupe_working_set_percentage=20");
	assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
	d = distinct_blocks(one, 1, &n, &twice, true);
	print_message("# working set: %zu distinct, %zu repeated\n", d, twice);
	assert_in_range(d, 462, 562);
	assert_in_range(twice, 150, 204);	/* only the set's pages repeat */

	job(&o[0], "rw=write,bs=4k,size=4m,filename=d");	/* the control: none repeat */
	assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
	assert_int_equal(distinct_blocks(one, 1, &n, &twice, true), 1024);

	for (int j = 0; j < 2; j++) {
		job(&o[j], "rw=write,bs=4k,size=8m,ioengine=libaio,iodepth=16,dedupe_percentage=50,"
			   "dedupe_mode=working_set,dedupe_working_set_percentage=50,dedupe_global=1,"
			   "buffer_compress_percentage=50");
		assert_int_equal(params_set(io_option_defs, &o[j], "filename", two[j]), 0);
	}
	assert_int_equal(io_group_run(o, 2, dir, res, true), 0);
	size_t da = distinct_blocks(two, 1, &n, &twice, false);
	size_t db = distinct_blocks(two + 1, 1, &n, &twice, false);
	d = distinct_blocks(two, 2, &n, &twice, true);
	print_message("# global: %zu and %zu distinct, %zu together\n", da, db, d);
	assert_in_range(da, 1250, 1450);
	assert_true(d < da + db - 400);		/* each repeats the other's pages */

	refused("rw=write,size=1m,dedupe_percentage=60,dedupe_mode=working_set,"
		"dedupe_working_set_percentage=50", "at most 50%");
	refused("rw=write,size=1m,nrfiles=2,dedupe_percentage=5,dedupe_mode=working_set",
		"one file per job");
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fadvise_hint, teardown_made),
		cmocka_unit_test_teardown(test_end_fsync_timed, teardown_made),
		cmocka_unit_test_teardown(test_enospc_and_free_space, teardown_made),
		cmocka_unit_test_teardown(test_continue_on_error, teardown_made),
		cmocka_unit_test_setup_teardown(test_workload_metrics, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_dedupe, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
