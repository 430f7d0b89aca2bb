/*
 * test_io_rules.c: the options of an I/O job as they are set and checked
 * (io/options.c's rows and compound parsers, io/rules.c's rules across
 * options): per-direction parts, limits and lists, rw='s modifiers, and
 * each refusal with its reason.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "run_workload.h"

#include "io/jobfile.h"


/* fio's READ[,WRITE[,TRIM]]: a part not ended by a comma goes on to the
 * directions after it. */
static void test_direction_parts(void **state)
{
	struct io_options o;
	const struct bs_split *sp = o.parsed.split;
	uint64_t bps[IO_DIRS];
	(void)state;

	job(&o, "rw=randrw");
	assert_int_equal(params_set(io_option_defs, &o, "bssplit", "4k/100,8k/100"), 0);
	assert_int_equal(sp[0].bs[0], 4096);
	assert_int_equal(sp[1].bs[0], 8192);
	assert_int_equal(sp[2].bs[0], 8192);
	assert_int_equal(params_set(io_option_defs, &o, "bssplit", "4k/100,8k/100,"), 0);
	assert_int_equal(sp[2].n, 0);	/* the default bs */
	job(&o, "rate=1m");
	assert_int_equal(io_rate_bps(&o, 4096, bps), 0);
	assert_int_equal(bps[2], 1 << 20);
	job(&o, "rate=1m:2m");	/* the run io: form */
	assert_int_equal(io_rate_bps(&o, 4096, bps), 0);
	assert_int_equal(bps[0], 1 << 20);
	assert_int_equal(bps[1], 2 << 20);
	assert_int_equal(bps[2], 2 << 20);
}

/* fio's io_size (I/O past the region, around it), max_latency (ETIMEDOUT),
 * percentile_list, offset_increment and the CPU lists, with their
 * parsers' refusals. */
static void test_job_limits_and_lists(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	cpu_set_t cpus;
	(void)state;

	job(&o, "rw=randread,size=64k,io_size=256k");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_int_equal(res->ios[0], 64);		/* four times over the 16 blocks */
	job(&o, "rw=write,bs=1m,size=4m,max_latency=10us");	/* a 1 MiB copy takes longer */
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "max_latency=10us exceeded"));
	job(&o, "rw=write,bs=1m,size=4m,max_latency=1000s");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);

	job(&o, "percentile_list=50:99.5:99.999");
	assert_int_equal(o.parsed.npcts, 3);
	assert_true(o.parsed.pcts[1] == 99.5 && o.parsed.pcts[2] == 99.999);
	job(&o, "rw=randread,size=64k,percentile_list=50:99.5");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	json_t *j = io_result_json(&o, res, 0, "");
	json_t *pct = json_object_get(json_object_get(json_object_get(j, "read"), "clat_ns"),
				      "percentile");
	assert_int_equal(json_object_size(pct), 2);
	assert_non_null(json_object_get(pct, "99.500000"));
	json_decref(j);
	static const char *const bad_pcts[] = { "101", "x", ":50", "50::60",
		"1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21" };
	for (size_t i = 0; i < sizeof(bad_pcts) / sizeof(bad_pcts[0]); i++) {
		job(&o, "rw=read");
		assert_int_equal(params_set(io_option_defs, &o, "percentile_list", bad_pcts[i]), -1);
		assert_int_equal(o.parsed.npcts, 0);
	}

	job(&o, "cpus_allowed=0");
	assert_int_equal(io_cpu_set(&o, &cpus), 1);
	assert_true(CPU_ISSET(0, &cpus));
	job(&o, "cpumask=0x1");
	assert_int_equal(io_cpu_set(&o, &cpus), 1);
	job(&o, "rw=read");
	assert_int_equal(io_cpu_set(&o, &cpus), 0);
	static const char *const bad_lists[] = { "x", "1-0", "0-99999", "0,", "-1", "0;1" };
	for (size_t i = 0; i < sizeof(bad_lists) / sizeof(bad_lists[0]); i++) {
		job(&o, "rw=read");
		assert_int_equal(params_set(io_option_defs, &o, "cpus_allowed", bad_lists[i]), -1);
		assert_int_equal(io_cpu_set(&o, &cpus), 0);
	}
	/* a CPU list parses the same on every machine (a stored job reads
	 * back anywhere); a CPU this machine lacks is refused when the job is
	 * validated, naming it (the bug: 0-1,3 refused as text) */
	char cpu[32];
	snprintf(cpu, sizeof(cpu), "0,%ld", sysconf(_SC_NPROCESSORS_CONF));
	job(&o, "rw=read");
	assert_int_equal(params_set(io_option_defs, &o, "cpus_allowed", cpu), 0);
	assert_int_equal(io_cpu_set(&o, &cpus), -1);
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "this machine has CPUs"));
	static const char *const bad_masks[] = { "0", "0xg", "-", "0x10000000000000000" };
	for (size_t i = 0; i < sizeof(bad_masks) / sizeof(bad_masks[0]); i++) {
		job(&o, "rw=read");
		assert_int_equal(params_set(io_option_defs, &o, "cpumask", bad_masks[i]), -1);
	}
	/* offset_increment: three disjoint regions of one shared file, each
	 * laid out, read and written by its own thread */
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/oi.dat", dir);
	job(&o, "rw=read,bs=64k,size=1m,numjobs=3,offset_increment=2m,filename=oi.dat");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[0], 48);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 5 << 20);
	assert_int_equal(unlink(path), 0);
	job(&o, "rw=randwrite,bs=64k,size=1m,numjobs=3,offset_increment=2m,filename=oi.dat,"
	    "verify=crc32c");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_int_equal(res->verified_blocks, 48);
	job(&o, "size=1m,numjobs=3,offset_increment=4611686018427387904");
	assert_int_equal(io_options_validate(&o), -1);
	free(res);
}

/* fio's offset modifiers parsed from rw=; what they read is
 * test_rw_modifier_pages. */
static void test_rw_modifiers(void **state)
{
	static struct jobset set;
	const char *text = "[back]\nrw=read:-8k\nbs=4k\nsize=1m\n"
			   "[holes]\nrw=write:4k\nbs=4k\nsize=1m\n"
			   "[runs]\nrw=randread:4\nbs=4k\nsize=1m\n";
	(void)state;

	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("m.fio", text, false, &set), 0);
	assert_int_equal(set.jobs[0].rw, RW_READ);
	assert_true(set.jobs[0].parsed.seq_add == -8192);
	assert_true(set.jobs[1].parsed.seq_add == 4096);
	assert_int_equal(set.jobs[2].rw, RW_RANDREAD);
	assert_int_equal(set.jobs[2].ddir_seq_nr, 4);
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("m.fio", "[x]\nrw=read:lots\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "'lots' is not a size"));
	memset(&set, 0, sizeof(set));
	assert_int_equal(jobfile_parse("m.fio", "[x]\nrw=randread:0\n", false, &set), -1);
	assert_non_null(strstr(error_get(), "rw=randread:0"));
}

static void test_option_checks(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	job(&o, "rw=read,time_based=1");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "runtime"));
	refused("rw=read,bsrange=64k-4k", "0 < MIN <= MAX");
	job(&o, "rw=read,bsrange=4k-64k,verify=crc32c");	/* as fio: test_verify.c */
	assert_int_equal(io_options_validate(&o), 0);
	job(&o, "rw=write,ioengine=null,verify=crc32c,size=64k");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "ioengine=null"));
	/* bsrange: sizes vary, all multiples of the minimum. */
	job(&o, "rw=randwrite,bsrange=4k-16k,size=1m");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_true(res->bytes[1] >= (1 << 20) && res->bytes[1] % 4096 == 0);
	assert_true(res->ios[1] < 256);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direction_parts),
		cmocka_unit_test_setup_teardown(test_job_limits_and_lists, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_rw_modifiers, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_option_checks, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
