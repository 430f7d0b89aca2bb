/*
 * test_iolog.c: fio's iologs.  write_iolog=FILE (version 3): the header,
 * each file's add, open and close, every I/O as queued with its offset
 * and length, syncs, threads appending to one file, the file opened
 * without following a symbolic link.  read_iolog=FILE: the parser's
 * versions and refusals, a replay doing the log's I/O in its order onto
 * the job's own files (never the paths the log names), paced by its
 * stamps.  log_store_compressed's .fz logs, read back with io_log_inflate.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"

#include "core/error.h"
#include "core/param.h"
#include "io/iojob.h"
#include "io/iolog.h"
#include "workloads/workload.h"
#include "core/timing.h"

#include <fcntl.h>
#include <sys/stat.h>

/* The log's text (at most 64 KiB here), NUL-terminated, in buf. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, len - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = 0;
	return (size_t)n;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* t0007's shape: rw=read:512k with bs=1m reads at 0, 1.5M, 3M...: the log
 * holds each of those offsets as a "read OFF 1048576" line after the
 * file's add and open, then its close, each line stamped in usec.  The
 * bug it catches: I/Os logged at the wrong place (offsets or count off),
 * a missing header that makes fio's read_iolog refuse the file. */
static void test_iolog_reads(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char log[512], opts[768], *text = malloc(65536);
	(void)state;

	assert_non_null(res);
	assert_non_null(text);
	snprintf(log, sizeof(log), "%s/r.log", dir);
	snprintf(opts, sizeof(opts), "rw=read:512k,bs=1m,size=8m,filename=t7.dat,write_iolog=%s",
		 log);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	/* 0, 1.5, 3, 4.5, 6 MiB: one at 7.5 would run past 8, which ends
	 * the pass, as fio's (t0007: 85 MiB of 128) */
	assert_int_equal(res->ios[0], 5);
	slurp(log, text, 65536);
	assert_int_equal(strncmp(text, "fio version 3 iolog\n", 20), 0);
	assert_int_equal(count(text, " t7.dat add\n"), 1);
	assert_int_equal(count(text, " t7.dat open\n"), 1);
	assert_int_equal(count(text, " t7.dat close\n"), 1);
	assert_int_equal(count(text, " t7.dat read "), 5);
	static const char *const offs[] = { " read 0 1048576\n", " read 1572864 1048576\n",
		" read 3145728 1048576\n", " read 4718592 1048576\n", " read 6291456 1048576\n" };
	for (int i = 0; i < 5; i++)
		if (!strstr(text, offs[i]))
			fail_msg("no '%s' in:\n%s", offs[i], text);
	/* every line after the header starts with its usec stamp */
	for (const char *p = strchr(text, '\n') + 1; *p; p = strchr(p, '\n') + 1)
		assert_true(*p >= '0' && *p <= '9');
	free(text);
	free(res);
}

/* Writes with fsync=2: a "sync 0 0" line after every second write; two
 * threads append to the one file, each with its own header; a second
 * run appends rather than truncating (fio opens it "a"). */
static void test_iolog_syncs_and_threads(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char log[512], opts[768], *text = malloc(65536);
	(void)state;

	assert_non_null(res);
	assert_non_null(text);
	snprintf(log, sizeof(log), "%s/w.log", dir);
	snprintf(opts, sizeof(opts), "rw=write,bs=4k,size=32k,fsync=2,filename=w.dat,write_iolog=%s",
		 log);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	slurp(log, text, 65536);
	assert_int_equal(count(text, " w.dat write "), 8);
	assert_int_equal(count(text, " w.dat sync 0 0\n"), 4);
	assert_non_null(strstr(text, " w.dat write 28672 4096\n"));
	/* each fsync timed into the result's sync section, as fio's: the
	 * old result counted none (latency_percentiles.py test 9) */
	assert_int_equal(res->sync.n, 4);
	assert_true(res->sync.m.n == 4 && res->sync.m.max >= res->sync.m.min);

	snprintf(opts, sizeof(opts), "rw=randread,bs=4k,size=32k,numjobs=2,write_iolog=%s", log);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	slurp(log, text, 65536);
	assert_int_equal(count(text, "fio version 3 iolog\n"), 3);
	assert_int_equal(count(text, " read "), 16);
	assert_int_equal(count(text, " write "), 8);	/* the first run's, kept */
	free(text);
	free(res);
}

/* write_iolog naming a symbolic link is refused and the file it points
 * to is left as it was (a decoy in the scratch directory). */
static void test_iolog_no_symlink(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char decoy[512], link[512], opts[768], text[64];
	struct stat st;
	(void)state;

	assert_non_null(res);
	snprintf(decoy, sizeof(decoy), "%s/decoy", dir);
	snprintf(link, sizeof(link), "%s/l.log", dir);
	int fd = open(decoy, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(symlink(decoy, link), 0);
	snprintf(opts, sizeof(opts), "rw=read,bs=4k,size=16k,filename=s.dat,write_iolog=%s", link);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "write_iolog"));
	assert_int_equal(stat(decoy, &st), 0);
	assert_int_equal(st.st_size, 4);
	slurp(decoy, text, sizeof(text));
	assert_string_equal(text, "keep");
	free(res);
}

/* Write text to path (made here, exclusively). */
static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Both versions parse to the same I/O; each kind of bad line is refused
 * with its line number.  The bug it catches: a malformed log replayed in
 * part, or an I/O with no file behind it. */
static void test_iolog_parse(void **state)
{
	static const char v3[] = "fio version 3 iolog\n0 a add\n0 b add\n1 a open\n"
				 "5 a write 4096 8192\n9 b read 0 512\n12 a sync 0 0\n\n20 a close\n";
	static const char v2[] = "fio version 2 iolog\na add\nb add\na open\na write 4096 8192\n"
				 "b wait 1000 0\nb read 0 512\na sync 0 0\na close\n";
	struct iolog_replay r;
	(void)state;

	assert_int_equal(iolog_parse("v3", v3, sizeof(v3) - 1, &r), 0);
	assert_int_equal(r.version, 3);
	assert_int_equal(r.nfiles, 2);
	assert_string_equal(r.names[1], "b");
	assert_int_equal(r.n, 3);
	assert_int_equal(r.ent[0].act, IOLOG_WRITE);
	assert_int_equal(r.ent[0].us, 5);
	assert_int_equal(r.ent[0].offset, 4096);
	assert_int_equal(r.ent[1].file, 1);
	assert_int_equal(r.ent[2].act, IOLOG_SYNC);
	assert_int_equal(r.extent, 12288);
	assert_int_equal(r.min_len, 512);
	assert_int_equal(r.max_len, 8192);
	assert_true(r.reads && r.writes && !r.trims);
	iolog_free(&r);
	assert_int_equal(iolog_parse("v2", v2, sizeof(v2) - 1, &r), 0);
	assert_int_equal(r.version, 2);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.ent[1].act, IOLOG_WAIT);
	assert_int_equal(r.ent[1].us, 1000);
	iolog_free(&r);

	static const struct { const char *text, *why; } bad[] = {
		{ "fio version 1 iolog\n", "not a fio iolog" },
		{ "fio version 3 iolog\n0 a add\n", "no read, write or trim" },
		{ "fio version 3 iolog\n0 a read 0 4096\n", ":2: file 'a' was not added" },
		{ "fio version 3 iolog\n0 a add\n0 a read 0 0\n", ":3: length 0" },
		{ "fio version 3 iolog\n0 a add\n0 a read 18446744073709551615 4096\n", "overflows" },
		{ "fio version 3 iolog\n0 a add\n0 a peek 0 4096\n", "unknown action 'peek'" },
		{ "fio version 3 iolog\n0 a add\n0 a read 0x10 4096\n", "must be numbers" },
		{ "fio version 3 iolog\n0 a add\n0 a read 0 4096 9\n", "too many fields" },
		{ "fio version 3 iolog\n0 a add\n0 a read 0\n", "want USEC FILE" },
		{ "fio version 3 iolog\nx a add\n", "usec stamp" },
		{ "fio version 2 iolog\na add\na open 0 1\n", "no offset or length" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(iolog_parse("l", bad[i].text, strlen(bad[i].text), &r), -1);
		if (!strstr(error_get(), bad[i].why))
			fail_msg("'%s': %s", bad[i].text, error_get());
	}
	/* a NUL inside a line is refused, not read as the line's end */
	static const char nul[] = "fio version 3 iolog\n0 a add\n0 a read 0 4096\0 junk\n";
	assert_int_equal(iolog_parse("n", nul, sizeof(nul) - 1, &r), -1);
	assert_non_null(strstr(error_get(), "NUL"));
}

/* A log written by one job, replayed by another: the same I/O, in the same
 * order, onto the replaying job's own files; the log's files (one is a
 * decoy in the scratch directory, named by its absolute path) are never
 * touched.  The pace: 0.2 s between two stamps is at least 0.2 s of
 * replay (a lower bound, which load cannot break); replay_no_stall drops
 * it.  The bug it catches: a replay that writes where the log says, or
 * one that takes its I/O from the job's generator instead. */
static void test_iolog_replay(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char log[512], log2[512], decoy[512], opts[2048], *a = malloc(65536), *b = malloc(65536);
	(void)state;

	assert_non_null(res);
	snprintf(log, sizeof(log), "%s/src.log", dir);
	snprintf(log2, sizeof(log2), "%s/again.log", dir);
	snprintf(opts, sizeof(opts), "rw=randrw,bs=4k,size=64k,fsync=3,filename=orig.dat,"
		 "write_iolog=%s", log);
	job(&o, opts);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	uint64_t ios = res->ios[0] + res->ios[1];
	snprintf(opts, sizeof(opts), "read_iolog=%s,replay_no_stall=1,filename=rp.dat,"
		 "write_iolog=%s", log, log2);
	job(&o, opts);
	assert_int_equal(io_replay_shape(&o), 0);
	assert_int_equal(o.nrfiles, 1);
	assert_int_equal(o.rw, RW_RW);
	assert_int_equal(io_options_validate(&o), 0);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[0] + res->ios[1], ios);
	/* the two logs' I/O lines, stamps and names aside, are the same */
	slurp(log, a, 65536);
	slurp(log2, b, 65536);
	char *pa = a, *pb = b;
	int lines = 0;
	for (;;) {
		pa = strstr(pa, ".dat ");
		pb = strstr(pb, ".dat ");
		if (!pa || !pb)
			break;
		size_t la = strcspn(pa, "\n"), lb = strcspn(pb, "\n");
		if (la != lb || memcmp(pa, pb, la))
			fail_msg("line %d differs: %.*s / %.*s", lines, (int)la, pa, (int)lb, pb);
		pa += la;
		pb += lb;
		lines++;
	}
	assert_null(pa);
	assert_null(pb);
	assert_true(lines >= (int)ios);

	/* a log naming an absolute path: the replay writes the job's file */
	snprintf(decoy, sizeof(decoy), "%s/decoy", dir);
	put(decoy, "keep");
	char text[2048];
	snprintf(text, sizeof(text), "fio version 3 iolog\n0 %s add\n0 %s write 0 4096\n"
		 "200000 %s write 4096 4096\n", decoy, decoy, decoy);
	snprintf(log, sizeof(log), "%s/abs.log", dir);
	put(log, text);
	snprintf(opts, sizeof(opts), "read_iolog=%s,filename=mine.dat", log);
	job(&o, opts);
	assert_int_equal(io_replay_shape(&o), 0);
	uint64_t t0 = now_ns();
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_true(now_ns() - t0 >= 200000000ull);
	assert_int_equal(res->ios[1], 2);
	struct stat st;
	assert_int_equal(stat(decoy, &st), 0);
	assert_int_equal(st.st_size, 4);
	snprintf(text, sizeof(text), "%s/mine.dat", dir);
	assert_int_equal(stat(text, &st), 0);
	assert_int_equal(st.st_size, 8192);

	/* what a replay cannot take */
	snprintf(opts, sizeof(opts), "read_iolog=%s,verify=md5", log);
	job(&o, opts);
	assert_int_equal(io_replay_shape(&o), 0);
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "read_iolog with verify"));
	free(a);
	free(b);
	free(res);
}

/* log_store_compressed: the bw log as FILE.fz, zlib of its text, which
 * io_log_inflate (`fsbench io --inflate-log`) gives back line for line,
 * offsets in order (fio's log_compression.py); two runs appending to one
 * file (per_job_logs=0) are two streams, both read; a damaged file is an
 * error, not a short log. */
static void test_log_store_compressed(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char prefix[512], fz[600], opts[1024], *text = NULL;
	size_t len = 0;
	(void)state;

	assert_non_null(res);
	snprintf(prefix, sizeof(prefix), "%s/lc", dir);
	snprintf(fz, sizeof(fz), "%s_bw.log.fz", prefix);
	snprintf(opts, sizeof(opts), "ioengine=null,rw=write,size=10m,bs=128k,write_bw_log=%s,"
		 "per_job_logs=0,log_offset=1,log_compression=10k,log_store_compressed=1", prefix);
	for (int run = 0; run < 2; run++) {
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	}
	FILE *m = open_memstream(&text, &len);
	assert_int_equal(io_log_inflate(fz, m), 0);
	fclose(m);
	int lines = 0;
	unsigned long long want = 0;
	for (char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long t, v, off;
		unsigned d, bs;
		assert_int_equal(sscanf(p, "%llu, %llu, %u, %u, %llu", &t, &v, &d, &bs, &off), 5);
		assert_int_equal(off, want);
		want = (want + 131072) % (10 << 20);
		lines++;
	}
	assert_int_equal(lines, 2 * 80);
	free(text);
	/* damage: the last byte of the second stream cut off */
	struct stat st;
	assert_int_equal(stat(fz, &st), 0);
	assert_int_equal(truncate(fz, st.st_size - 1), 0);
	m = open_memstream(&text, &len);
	assert_int_equal(io_log_inflate(fz, m), -1);
	fclose(m);
	free(text);
	free(res);
}

/* In a run, the logs (and a replay) are refused: their names lead
 * anywhere, and a run writes only in its target.  The bug it catches:
 * `run io:write_iolog=../../x` writing outside the run's scratch. */
static void test_logs_refused_in_run(void **state)
{
	static const char *const opts[] = { "rw=read,write_iolog=../../x",
		"rw=read,write_lat_log=../l", "rw=read,write_bw_log=b", "rw=read,write_iops_log=i",
		"rw=read,read_iolog=r.log" };
	const struct workload *w = workload_find("io");
	struct io_options o;
	(void)state;

	assert_non_null(w);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		job(&o, opts[i]);
		assert_int_equal(w->validate(&o), -1);
		assert_true(strstr(error_get(), "fsbench io") != NULL);
	}
	job(&o, "rw=read");
	assert_int_equal(w->validate(&o), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_iolog_reads, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_iolog_syncs_and_threads, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_iolog_no_symlink, setup_ram_dir, teardown_dir),
		cmocka_unit_test(test_iolog_parse),
		cmocka_unit_test_setup_teardown(test_iolog_replay, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_log_store_compressed, setup_ram_dir, teardown_dir),
		cmocka_unit_test(test_logs_refused_in_run),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
