/*
 * test_io_offsets.c: where each I/O goes (io/offsets.c, io/distribution.c,
 * the block sizes of io/compound.c's bssplit): fio's zones, trims, block
 * size splits, random distributions and generators, and rw='s offset
 * modifiers, each checked on the blocks a job touched (its I/O log, or
 * the holes it left in a sparse file), not on the page cache.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"
#include "run_workload.h"

#include "io/jobfile.h"

#include <glob.h>

/* Which of the file's first `blocks` blocks hold data, one char each. */
static void data_map(const char *path, int blocks, char *map)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	for (int b = 0; b < blocks; b++) {
		off_t at = lseek(fd, (off_t)b * 4096, SEEK_DATA);
		map[b] = at == (off_t)b * 4096 ? 'D' : '.';
	}
	map[blocks] = 0;
	close(fd);
}

/* Which 64 KiB blocks of a file hold data (data_map's 4 KiB blocks, 16
 * to one), as a string of 'D' and '.'. */
static void data_map64(const char *path, int blocks, char *map)
{
	char *small = malloc((size_t)blocks * 16 + 1);

	assert_non_null(small);
	data_map(path, blocks * 16, small);
	for (int b = 0; b < blocks; b++)
		map[b] = small[b * 16] == 'D' ? 'D' : '.';
	map[blocks] = 0;
	free(small);
}

/* fio's zonemode=strided, on a sparse file: the blocks each job writes are
 * the ones fio 3.33 reads under strace with the same options (64 KiB
 * blocks: zones of 512 KiB, 256 KiB of I/O each, 1 MiB skipped). */
static void test_zones(void **state)
{
	static const struct { const char *opts, *map; } cases[] = {
		{ "rw=write,zonesize=256k,zonerange=512k,zoneskip=1m",	/* fio: 0-3 24-27 48-51 */
		  "DDDD....................DDDD....................DDDD............" },
		{ "rw=write,zonesize=1m,zonerange=256k,size=2m",	/* each zone 4 times */
		  "DDDDDDDD........................" },
		{ "rw=write,zonesize=256k,nrfiles=2",	/* fio: zones need one file */
		  "DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD" },
	};
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char path[512], opts[256], map[70];
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		bool two = strstr(cases[c].opts, "nrfiles") != NULL;
		snprintf(opts, sizeof(opts), "%s,zonemode=strided,bs=64k,fallocate=none%s%s",
			 cases[c].opts, strstr(cases[c].opts, "size=2m") ? "" : ",size=4m",
			 two ? ",name=z" : ",filename=z.dat");
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
		snprintf(path, sizeof(path), two ? "%s/z.0.0" : "%s/z.dat", dir);
		data_map64(path, (int)strlen(cases[c].map), map);
		print_message("# %s: %s\n", cases[c].opts, map);
		assert_string_equal(map, cases[c].map);
		unlink(path);
		if (two) {
			snprintf(path, sizeof(path), "%s/z.0.1", dir);
			unlink(path);
		}
	}
	/* random: every write in a zone, and each zone's visits (4 blocks of
	 * its 8 each) cover at least 4 of them */
	job(&o, "rw=randwrite,zonemode=strided,zonesize=256k,zonerange=512k,zoneskip=1m,bs=64k,"
		"size=4m,fallocate=none,filename=z.dat");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[DIR_WRITE], 64);
	snprintf(path, sizeof(path), "%s/z.dat", dir);
	data_map64(path, 64, map);
	print_message("# randwrite: %s\n", map);
	for (int b = 0; b < 64; b++) {
		bool in_zone = b < 8 || (b >= 24 && b < 32) || (b >= 48 && b < 56);
		if (!in_zone)
			assert_int_equal(map[b], '.');
	}
	for (int z = 0; z < 3; z++) {
		int n = 0;
		for (int b = z * 24; b < z * 24 + 8; b++)
			n += map[b] == 'D';
		assert_true(n >= 4);
	}
	unlink(path);

	static const struct { const char *opts, *error; } bad[] = {
		{ "rw=read,size=1m,zonemode=zbd", "zoned block devices" },
		{ "rw=read,size=1m,zonesize=256k", "needs zonemode=strided" },
		{ "rw=read,size=1m,zonemode=strided", "needs zonesize=" },
		{ "rw=read,size=1m,zonemode=strided,zonesize=4k,bs=64k", "smaller than a block" },
		{ "rw=randread,size=1m,zonemode=strided,zonesize=256k,bsrange=4k-16k", "one block size" },
		{ "rw=trim,ioengine=falloc,size=1m,zonemode=strided,zonesize=256k", "with trims" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].opts, bad[i].error);
	free(res);
}

/* fio's trims: the falloc engine punches holes (rw=trim, randtrim), and
 * trimwrite and randtrimwrite trim each block and then write it, the
 * size counted in the writes; fio's other engines would send BLKDISCARD,
 * which a file refuses, so fsbench refuses them.  Two jobs of one run get
 * seeds of their own, as fio's jobs do: two randtrims of a quarter of
 * their files punch different blocks. */
static void test_trims(void **state)
{
	struct io_options o[2];
	struct io_result *res = calloc(2, sizeof(*res));
	struct stat st;
	char path[512], path2[512], map[300], map2[300], text[8192];
	(void)state;

	snprintf(path, sizeof(path), "%s/t.dat", dir);
	snprintf(path2, sizeof(path2), "%s/u.dat", dir);
	data_file(path, 256);
	/* the files the test laid out stand for a user's: the job says it may */
	job(&o[0], "rw=randtrim,ioengine=falloc,size=1m,bs=4k,filename=t.dat,allow_existing_write=1");
	assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[DIR_TRIM], 256);
	assert_int_equal(res->bytes[DIR_TRIM], 1 << 20);
	assert_int_equal(res->ios[DIR_READ] + res->ios[DIR_WRITE], 0);
	assert_int_equal(res->dir_clat[DIR_TRIM].n, 256);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);	/* the holes keep the size */
	assert_int_equal(st.st_blocks, 0);
	io_result_text(&o[0], res, 0, NULL, text, sizeof(text));
	assert_non_null(strstr(text, "\n  trim: IOPS="));
	assert_null(strstr(text, "write:"));
	json_t *j = io_result_json(&o[0], res, 0, "");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "trim"), "total_ios")),
			 256);
	json_decref(j);

	static const char *const pairs[] = { "trimwrite", "randtrimwrite" };
	for (int k = 0; k < 2; k++) {
		char opts[128];
		data_file(path, 256);
		snprintf(opts, sizeof(opts), "rw=%s,ioengine=falloc,size=1m,bs=4k,filename=t.dat,"
			 "allow_existing_write=1", pairs[k]);
		job(&o[0], opts);
		assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
		assert_int_equal(res->ios[DIR_TRIM], 256);
		assert_int_equal(res->ios[DIR_WRITE], 256);
		assert_int_equal(res->bytes[DIR_WRITE], 1 << 20);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_blocks * 512 >= 1 << 20);	/* every block written again */
	}

	/* two jobs, the same options, files of their own */
	data_file(path, 256);
	data_file(path2, 256);
	job(&o[0], "rw=randtrim,ioengine=falloc,size=1m,bs=4k,number_ios=64,filename=t.dat,"
		 "allow_existing_write=1");
	job(&o[1], "rw=randtrim,ioengine=falloc,size=1m,bs=4k,number_ios=64,filename=u.dat,"
		 "allow_existing_write=1");
	assert_int_equal(io_group_run(o, 2, dir, res, true), 0);
	assert_int_equal(res[0].ios[DIR_TRIM], 64);
	assert_int_equal(res[1].ios[DIR_TRIM], 64);
	data_map(path, 256, map);
	data_map(path2, 256, map2);
	int holes = 0, same = 0;
	for (int b = 0; b < 256; b++) {
		holes += map[b] == '.';
		same += map[b] == '.' && map2[b] == '.';
	}
	assert_int_equal(holes, 64);
	assert_true(same < 40);	/* about 16 by chance; 64 with one seed */

	job(&o[0], "rw=randtrim,ioengine=null,size=1m,bs=4k");
	assert_int_equal(io_group_run(o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[DIR_TRIM], 256);


	static const struct { const char *opts, *error; } bad[] = {
		{ "rw=randtrim,ioengine=psync,size=1m", "BLKDISCARD" },
		{ "rw=trim,ioengine=libaio,size=1m", "ioengine=falloc trims a file" },
		{ "rw=trim,ioengine=null,verify=crc32c", "does not verify trims" },
		{ "rw=trimwrite,ioengine=falloc,rate=1m", "with a rate" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused(bad[i].opts, bad[i].error);
	unlink(path);
	unlink(path2);
	free(res);
}

/* Where a job's I/Os went, from its own record of them: fio's lat log with
 * log_offset=1, every I/O a line (time, latency, direction, size, offset,
 * priority).  These tests once counted the pages a job left in the page
 * cache (mincore, read-ahead off), but another program's cache drop (every
 * fsbench run drops it before each repetition) between the job and the
 * count made the counts too low, and a count of 2400-2800 pages failed on
 * a busy machine; the log is what the job did, whatever the machine does.
 * pages[p] counts the I/Os that touched 4 KiB page p; the I/Os logged are
 * returned (every one of the job's, checked against its count). */
#define LOG_PAGES 4096	/* a 16 MiB file */
static long job_pages(const char *where, const char *opts, struct io_result *res,
		      unsigned *pages)
{
	static int runs;
	struct io_options o;
	char prefix[600], pat[700], all[1024];
	unsigned long long t, lat, bs, off;
	int ddir, prio;
	long n = 0;
	glob_t g;

	snprintf(prefix, sizeof(prefix), "%s/pages%d", where, ++runs);
	snprintf(all, sizeof(all), "%s,write_lat_log=%s,log_offset=1", opts, prefix);
	job(&o, all);
	assert_int_equal(io_group_run(&o, 1, where, res, true), 0);
	snprintf(pat, sizeof(pat), "%s_lat.*.log", prefix);
	assert_int_equal(glob(pat, 0, NULL, &g), 0);
	assert_int_equal(g.gl_pathc, 1);
	FILE *f = fopen(g.gl_pathv[0], "r");
	assert_non_null(f);
	memset(pages, 0, LOG_PAGES * sizeof(*pages));
	while (fscanf(f, "%llu, %llu, %d, %llu, %llu, %d\n", &t, &lat, &ddir, &bs, &off, &prio) == 6) {
		assert_true(bs > 0 && off + bs <= (unsigned long long)LOG_PAGES * 4096);
		for (unsigned long long p = off / 4096; p <= (off + bs - 1) / 4096; p++)
			pages[p]++;
		n++;
	}
	assert_true(feof(f));
	fclose(f);
	for (size_t i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
	snprintf(pat, sizeof(pat), "%s_clat.*.log", prefix);	/* the log's sibling */
	if (glob(pat, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
	globfree(&g);
	assert_int_equal(n, (long)(res->ios[0] + res->ios[1]));
	return n;
}

/* Pages in [from, to) touched, every step-th. */
static long touched(const unsigned *pages, size_t from, size_t to, size_t step)
{
	long n = 0;

	for (size_t p = from; p < to && p < LOG_PAGES; p += step)
		n += pages[p] > 0;
	return n;
}

/* fio's bssplit: the parse (percentages, shares of what is left, sorted
 * by percentage, a list for writes after a comma), the sizes drawn with
 * their weights, and a random pass with a map: every block read once,
 * I/Os cut where a block already read begins (from the job's own log of
 * its I/Os: job_pages). */
static void test_bssplit(void **state)
{
	struct io_options o;
	const struct bs_split *s = o.parsed.split;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	job(&o, "bssplit=4k/10:64k/50:32k/40");
	assert_int_equal(s[0].n, 3);
	assert_true(s[0].bs[0] == 4096 && s[0].perc[0] == 10 && s[0].bs[2] == 65536 &&
		    s[0].perc[2] == 50 && s[1].n == 3);
	job(&o, "bssplit=512/10:1k:2k");
	assert_true(s[0].perc[0] == 10 && s[0].perc[1] == 45 && s[0].perc[2] == 45);
	assert_int_equal(params_set(io_option_defs, &o, "bssplit", "4k,64k/100"), 0);
	assert_true(s[0].n == 1 && s[0].bs[0] == 4096 && s[0].perc[0] == 100 && s[1].bs[0] == 65536);
	refused("bssplit=4k/60:8k/60:16k:32k", "more than 100");
	refused("bssplit=4k/x", "'x' is not a percentage");
	job(&o, "rw=write,bssplit=4k/50:8k/50,verify=crc32c");	/* as fio: test_verify.c */
	assert_int_equal(io_options_validate(&o), 0);

	/* sequential: 32 MiB in 4k (25%) and 64k (75%) reads */
	job(&o, "rw=read,size=32m,bssplit=4k/25:64k/75");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
	assert_int_equal(res->bytes[0], 32 << 20);
	double big = ((double)res->bytes[0] - 4096.0 * (double)res->ios[0]) / (65536.0 - 4096.0);
	print_message("# %llu reads, %.0f of 64k (%.1f%%)\n", (unsigned long long)res->ios[0], big,
		      100 * big / (double)res->ios[0]);
	assert_true(big / (double)res->ios[0] > 0.69 && big / (double)res->ios[0] < 0.81);

	/* random, with a map: each of the 256 pages read exactly once */
	unsigned *pages = calloc(LOG_PAGES, sizeof(*pages));
	job(&o, "rw=write,size=1m,bs=64k,filename=split");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	job_pages(dir, "rw=randread,size=1m,filename=split,bssplit=4k/50:64k/50", res, pages);
	print_message("# random: %llu reads, %llu bytes, %ld of 256 pages read\n",
		      (unsigned long long)res->ios[0], (unsigned long long)res->bytes[0],
		      touched(pages, 0, 256, 1));
	assert_int_equal(res->bytes[0], 1 << 20);
	for (size_t p = 0; p < LOG_PAGES; p++)
		assert_int_equal(pages[p], p < 256);
	free(pages);
	free(res);
}

/* fio's random_distribution: the parse, then where the reads of a 16 MiB
 * file went, from the job's own log (job_pages): zoned:100/10
 * stays in the first tenth; zipf:1.2 comes back to few blocks, where
 * uniform with a map reads every one; normal and pareto run. */
static void test_random_distribution(void **state)
{
	struct io_options o;
	const struct dist_spec *dp = &o.parsed.dist;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	job(&o, "random_distribution=zipf");
	assert_true(dp->kind == DIST_ZIPF && dp->value == 1.1 && dp->center == -1);
	job(&o, "random_distribution=pareto:0.3:0.5");
	assert_true(dp->kind == DIST_PARETO && dp->value == 0.3 && dp->center == 0.5);
	job(&o, "random_distribution=zoned:50/5:30/15:20/");
	assert_true(dp->zones[0].n == 3 && dp->zones[0].size[2] == 80 && dp->zones[1].access[1] == 30);
	job(&o, "random_distribution=zoned_abs:50/1m:50/3m");
	assert_true(dp->kind == DIST_ZONED_ABS && dp->zones[0].size[1] == 3 << 20);
	static const char *const bad[] = { "zoned:50/5:30/15", "zipf:1", "pareto:2", "gauss",
					   "normal:100", "zoned:", "zipf:1.2:7", "zipf:nan" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char opts[64];
		snprintf(opts, sizeof(opts), "random_distribution=%s", bad[i]);
		refused(opts, "option 'random_distribution'");
	}

	unsigned *pages = calloc(LOG_PAGES, sizeof(*pages));
	job(&o, "rw=write,size=16m,bs=1m,filename=dist");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	static const struct { const char *opts; long lo, hi; size_t from; } cases[] = {
		{ "random_distribution=zoned:100/10", 0, 0, 409 },	/* none past 10% */
		{ "random_distribution=zipf:1.2", 1, 1200, 0 },	/* fio: 731 */
		{ "random_distribution=random", 4096, 4096, 0 },	/* the map: every one */
		{ "random_distribution=normal:10", 1, 2000, 0 },	/* fio: 1394 */
		{ "random_distribution=pareto:0.2", 1, 2000, 0 },	/* fio: 1259 */
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char opts[256];
		snprintf(opts, sizeof(opts), "rw=randread,size=16m,bs=4k,filename=dist,%s", cases[c].opts);
		job_pages(dir, opts, res, pages);
		long n = touched(pages, cases[c].from, LOG_PAGES, 1);
		assert_int_equal(res->ios[0], 4096);
		print_message("# %s: %ld pages read from page %zu on\n", cases[c].opts, n, cases[c].from);
		assert_true(n >= cases[c].lo && n <= cases[c].hi);
	}
	free(pages);
	free(res);
}

/* random_generator=lfsr reads every block once a pass without a map, as
 * fio's; without either, about 1 - 1/e of them.  ba=8k with 1k reads:
 * every offset a multiple of 8k, so no odd page is ever read. */
static void test_random_generator_and_ba(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	(void)state;

	job(&o, "rw=randread,bssplit=1k/50:4k/50,ba=4k");	/* a map, in other blocks */
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "option 'ba'"));
	job(&o, "rw=randread,bssplit=1k/50:4k/50,ba=4k,norandommap=1");
	assert_int_equal(io_options_validate(&o), 0);
	unsigned *pages = calloc(LOG_PAGES, sizeof(*pages));
	job(&o, "rw=write,size=16m,bs=1m,filename=gen");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	static const struct { const char *opts; long lo, hi; } cases[] = {
		{ "norandommap=1,random_generator=lfsr", 4096, 4096 },
		{ "norandommap=1", 2400, 2800 },	/* 4096 (1 - 1/e) = 2589 */
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char opts[256];
		snprintf(opts, sizeof(opts), "rw=randread,size=16m,bs=4k,filename=gen,%s", cases[c].opts);
		job_pages(dir, opts, res, pages);
		long n = touched(pages, 0, LOG_PAGES, 1);
		print_message("# %s: %ld pages\n", cases[c].opts, n);
		assert_true(n >= cases[c].lo && n <= cases[c].hi);
	}
	job_pages(dir, "rw=randread,size=16m,filename=gen,bs=1k,ba=8k,norandommap=1", res, pages);
	long even = touched(pages, 0, LOG_PAGES, 2), odd = touched(pages, 1, LOG_PAGES, 2);
	print_message("# ba=8k: %ld even and %ld odd pages\n", even, odd);
	assert_true(odd == 0 && even > 1500);
	free(pages);
	free(res);
}

/* What the offset modifiers read of a 1 MiB file (from the job's own log:
 * job_pages), one pass each, as fio's offsets were under strace: read:4k
 * reads every other block, twice; read:-8k reads block 0, then from the
 * end less 8k down to 0 (so the last block never, as fio);
 * randread:4 with rw_sequencer=identical reads 64 offsets four times. */
static void test_rw_modifier_pages(void **state)
{
	static const struct { const char *rw; long pages; bool odd_unread; } cases[] = {
		{ "read:4k", 128, true },
		{ "read:-8k", 255, false },	/* 0, then end-8k down to 0: not the last */
		{ "randread:4,rw_sequencer=identical", 64, false },	/* the map: 64 blocks */
		{ "read", 256, false },
	};
	struct io_options o;
	struct jobset *set = calloc(1, sizeof(*set));
	struct io_result *res = malloc(sizeof(*res));
	unsigned *pages = calloc(LOG_PAGES, sizeof(*pages));
	char text[1024];
	(void)state;

	job(&o, "rw=write,size=1m,bs=64k,filename=mod");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		/* the modifiers as a job file gives them: rw=read:4k */
		snprintf(text, sizeof(text), "[m]\nrw=%s\nbs=4k\nsize=1m\nfilename=mod\n"
			 "write_lat_log=%s/mod%zu\nlog_offset=1\n", cases[c].rw, dir, c);
		for (char *comma = strchr(text, ','); comma; comma = strchr(comma, ','))
			*comma = '\n';
		memset(set, 0, sizeof(*set));
		assert_int_equal(jobfile_parse("m.fio", text, false, set), 0);
		assert_int_equal(io_group_run(&set->jobs[0], 1, dir, res, true), 0);
		assert_int_equal(res->ios[0], 256);
		char pat[600];
		glob_t g;
		snprintf(pat, sizeof(pat), "%s/mod%zu_lat.*.log", dir, c);
		assert_int_equal(glob(pat, 0, NULL, &g), 0);
		FILE *f = fopen(g.gl_pathv[0], "r");
		unsigned long long t, lat, bs, off;
		int ddir, prio;
		memset(pages, 0, LOG_PAGES * sizeof(*pages));
		assert_non_null(f);
		while (fscanf(f, "%llu, %llu, %d, %llu, %llu, %d\n", &t, &lat, &ddir, &bs, &off, &prio) == 6)
			pages[off / 4096]++;
		fclose(f);
		globfree(&g);
		long n = touched(pages, 0, 256, 1), odd = touched(pages, 1, 256, 2);
		print_message("# rw=%s: %ld of 256 pages read, %ld odd\n", cases[c].rw, n, odd);
		assert_int_equal(n, cases[c].pages);
		if (cases[c].odd_unread)
			assert_int_equal(odd, 0);
	}
	free(pages);
	free(set);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_zones, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_trims, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_bssplit, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_random_distribution, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_random_generator_and_ba, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_rw_modifier_pages, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
