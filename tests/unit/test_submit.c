/*
 * test_submit.c: how requests reach the kernel besides the engines'
 * own loop: posixaio (glibc's AIO threads), io_submit_mode=offload
 * (iodepth workers over a synchronous engine) and serialize_overlap
 * (no two overlapping I/Os in flight).
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"

#include "core/error.h"
#include "core/param.h"
#include "io/iojob.h"

/* posixaio keeps iodepth requests on glibc's AIO threads: every block
 * once, right data (a verified write read back), and each I/O's slat
 * measured, as an async engine's is.  The bug it catches: requests
 * reaped twice or lost (counts off), or the engine's own stamps
 * overwritten by the batch's (slat counted for none). */
static void test_posixaio(void **state)
{
	static const char *const rw[] = { "write", "randread", "randrw" };
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	assert_non_null(res);
	for (int p = 0; p < 3; p++) {
		struct io_options o;
		char opts[256];

		snprintf(opts, sizeof(opts), "rw=%s,ioengine=posixaio,size=1m,bs=4k,iodepth=8,"
			 "filename=a.dat,allow_existing_write=1,verify=md5", rw[p]);
		job(&o, opts);
		if (io_group_run(&o, 1, dir, res, true))
			fail_msg("%s: %s", opts, error_get());
		int back = (int)res->verified_blocks;
		if (p % 3 == 0)
			assert_int_equal(back, 256);
		assert_int_equal(res->ios[0] + res->ios[1], 256 + back);
		assert_int_equal(res->bytes[0] + res->bytes[1], (1 << 20) + (uint64_t)back * 4096);
		assert_int_equal(res->slat[0].n + res->slat[1].n, 256 + back);
	}
	free(res);
}

/* offload: the engine's calls made by iodepth workers, each with an
 * instance of the engine of its own (libaio's context, io_uring's ring,
 * pvsync2's and mmap's state), so the job keeps up to iodepth in flight
 * (the mean depth as each was queued above 1, where psync inline has 1),
 * every block once, verified data, slat measured; a file-operation engine
 * is refused.  The bugs it catches: the mode taken and ignored (depth 1),
 * completions lost between the workers and the job (counts off, a hang),
 * an engine's state shared by workers (a ring used from another task than
 * its maker's fails: -EEXIST), or libaio and the rest refused as before. */
static void test_offload(void **state)
{
	static const char *const rw[] = { "write", "randread", "randrw" };
	static const char *const eng[] = { "psync", "libaio", "io_uring", "pvsync2", "mmap" };
	struct io_result *res = malloc(sizeof(*res));
	struct io_options o;
	(void)state;

	assert_non_null(res);
	for (int p = 0; p < 3 * 5; p++) {
		char opts[256];

		snprintf(opts, sizeof(opts), "rw=%s,ioengine=%s,io_submit_mode=offload,size=1m,"
			 "bs=4k,iodepth=4,filename=o.dat,allow_existing_write=1,verify=crc32c",
			 rw[p % 3], eng[p / 3]);
		print_message("# %s\n", opts);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		int back = (int)res->verified_blocks;
		if (p == 0)
			assert_int_equal(back, 256);
		assert_int_equal(res->ios[0] + res->ios[1], 256 + back);
		assert_int_equal(res->bytes[0] + res->bytes[1], (1 << 20) + (uint64_t)back * 4096);
		assert_int_equal(res->slat[0].n + res->slat[1].n, 256 + back);
		assert_true(res->depth_n > 0 && res->depth_sum > res->depth_n);
	}
	job(&o, "rw=randread,ioengine=null,io_submit_mode=offload,size=4m,bs=4k,iodepth=16");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[0], 1024);
	job(&o, "rw=read,ioengine=filestat,io_submit_mode=offload,size=1m");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "a file-operation engine's requests"));
	free(res);
}

/* serialize_overlap: random writes over 4 blocks at iodepth 8 never have
 * more than 4 in flight, each on its own block (no I/O queued at depth 8
 * or more); without it the queue fills to 8.  Offload's workers take
 * every request at once, so the queue is what the job thread decides. */
static void test_serialize_overlap(void **state)
{
	struct io_result *res = malloc(sizeof(*res));
	struct io_options o;
	(void)state;

	assert_non_null(res);
	for (int ser = 0; ser < 2; ser++) {
		char opts[256];

		snprintf(opts, sizeof(opts), "rw=randwrite,norandommap=1,ioengine=psync,"
			 "io_submit_mode=offload,iodepth=8,size=16k,io_size=1m,bs=4k,filename=s.dat,"
			 "allow_existing_write=1,serialize_overlap=%d", ser);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		assert_int_equal(res->ios[1], 256);
		/* buckets 1, 2, 4-7, 8-15...: index 3 is 8 and more */
		if (ser)
			assert_int_equal(res->depth_level[3], 0);
		else
			assert_true(res->depth_level[3] > 0);
	}
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_posixaio, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_offload, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_serialize_overlap, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
