/*
 * test_paths.c: where a job may write (io/paths.c): fio's filename_format,
 * files made exclusively and existing ones only read, symbolic links
 * refused, allow_file_create.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"

#include "core/error.h"
#include "core/timing.h"
#include "io/iojob.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/kcmp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

/* filename_format: fio's keywords, in any case, name each copy's files. */
static void test_filename_format(void **state)
{
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char path[512], name[64];
	(void)state;

	job(&o, "name=fmt,rw=write,size=128k,numjobs=2,nrfiles=2,group_reporting=1");
	assert_int_equal(params_set(io_option_defs, &o, "filename_format",
				    "$jobname-$JOBNUM.f$filenum$clientuid"), 0);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	for (int c = 0; c < 2; c++)
		for (int f = 0; f < 2; f++) {
			snprintf(path, sizeof(path), "%s/fmt-%d.f%d", dir, c, f);
			assert_int_equal(access(path, F_OK), 0);
			unlink(path);
		}
	assert_int_equal(io_file_name(&o, 7, 3, name, sizeof(name)), 0);
	assert_string_equal(name, "fmt-7.f3");
	assert_int_equal(io_file_name(&o, 7, 3, name, 6), -1);	/* does not fit */
	assert_non_null(strstr(error_get(), "longer than 5 bytes"));
	free(res);
}

/* io/paths.c's rule, in the core where every path (io, run --fio, run
 * io:, suites) opens its files: a decoy outside the job's directory and a
 * file that was there before the job are never written, however the job
 * names them, unless allow_existing_write; reads may use them.  Catches:
 * `fsbench io` overwriting ../../x (only `run` refused it), a symbolic link
 * on the way followed, a job file's second job refused the file its first
 * made. */
static void file_text(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void assert_text(const char *path, const char *text)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) >= 0);
	close(fd);
	assert_string_equal(buf, text);
}

static void test_paths_rule(void **state)
{
	static const char *const escapes[] = {
		"filename=../out/decoy", "filename=%s/out/decoy", "directory=../out",
		"directory=%s/out", "directory=/", "name=../out/decoy,filename_format=$jobname",
		"directory=sub/../../out,filename=decoy", "filename=link/decoy",
	};
	struct io_options o[2];
	struct io_result *res = calloc(2, sizeof(*res));
	char in[600], decoy[600], mine[700], opts[1400], link[700];
	(void)state;

	snprintf(in, sizeof(in), "%s/in", dir);
	snprintf(decoy, sizeof(decoy), "%s/out/decoy", dir);
	snprintf(mine, sizeof(mine), "%s/mine", in);
	snprintf(link, sizeof(link), "%s/link", in);
	assert_int_equal(mkdir(in, 0755), 0);
	snprintf(opts, sizeof(opts), "%s/out", dir);
	assert_int_equal(mkdir(opts, 0755), 0);
	assert_int_equal(symlink("../out", link), 0);
	snprintf(opts, sizeof(opts), "%s/sub", in);	/* so that sub/../../out is out */
	assert_int_equal(mkdir(opts, 0755), 0);
	file_text(decoy, "precious");
	for (size_t i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++) {
		char spec[800];
		snprintf(spec, sizeof(spec), escapes[i], dir);
		snprintf(opts, sizeof(opts), "rw=write,size=4k,name=job,%s", spec);
		job(&o[0], opts);
		/* a run's rule: never out of the target, at parse time (no
		 * base: the link is seen on disk only) and on the scratch */
		if (!strstr(spec, "link"))
			assert_int_equal(io_where_check(&o[0], NULL, true), -1);
		assert_int_equal(io_where_check(&o[0], in, true), -1);
		/* fsbench io's: the decoy is never written, "/" gets no file;
		 * a new file out of the directory is made, and removed */
		bool makes = !strstr(spec, "decoy") && strcmp(spec, "directory=/");
		int rc = io_files_check(&o[0], in);
		print_message("# %s: %s\n", spec, rc ? error_get() : "allowed");
		assert_int_equal(rc, makes ? 0 : -1);
		/* and the core decides alike, without the check */
		assert_int_equal(io_group_run(o, 1, in, res, false), makes ? 0 : -1);
		assert_text(decoy, "precious");
		snprintf(opts, sizeof(opts), "%s/out", dir);
		assert_int_equal(count_entries(opts), 1);	/* the decoy alone */
	}
	/* a file there before the job: read, not written or extended */
	file_text(mine, "0123456789abcdef");
	job(&o[0], "rw=write,size=16,bs=1,filename=mine");
	assert_int_equal(io_files_check(&o[0], in), -1);
	assert_int_equal(io_group_run(o, 1, in, res, false), -1);
	assert_non_null(strstr(error_get(), "was there before the job"));
	job(&o[0], "rw=read,size=32,bs=1,filename=mine");
	assert_int_equal(io_group_run(o, 1, in, res, false), -1);
	assert_non_null(strstr(error_get(), "shorter than"));
	assert_text(mine, "0123456789abcdef");
	job(&o[0], "rw=read,size=16,bs=1,filename=mine");
	assert_int_equal(io_files_check(&o[0], in), 0);
	assert_int_equal(io_group_run(o, 1, in, res, false), 0);
	assert_int_equal(res->ios[DIR_READ], 16);
	snprintf(opts, sizeof(opts), "rw=read,size=8,bs=1,filename=%s", decoy);
	job(&o[0], opts);	/* reading the decoy is allowed, by any path */
	assert_int_equal(io_group_run(o, 1, in, res, false), 0);
	assert_text(mine, "0123456789abcdef");
	assert_text(decoy, "precious");
	/* with the consent, the job writes it */
	job(&o[0], "rw=write,size=16,bs=1,filename=mine,allow_existing_write=1,zero_buffers=1");
	assert_int_equal(io_files_check(&o[0], in), 0);
	assert_int_equal(io_group_run(o, 1, in, res, false), 0);
	assert_int_equal(res->ios[DIR_WRITE], 16);
	assert_int_equal(unlink(mine), 0);
	/* two jobs of one run share the file the first made: no consent
	 * needed, and it is removed at the end */
	job(&o[0], "name=a,rw=write,size=64k,filename=shared");
	job(&o[1], "name=b,rw=randwrite,size=64k,filename=shared");
	assert_int_equal(io_group_run(o, 2, in, res, false), 0);
	snprintf(opts, sizeof(opts), "%s/shared", in);
	assert_int_equal(access(opts, F_OK), -1);
	assert_int_equal(unlink(link), 0);
	snprintf(opts, sizeof(opts), "%s/sub", in);
	assert_int_equal(rmdir(opts), 0);
	assert_int_equal(rmdir(in), 0);
	assert_int_equal(unlink(decoy), 0);
	free(res);
}

/* allow_file_create=0: a missing file is fio's error; one there is used. */
static void test_allow_file_create(void **state)
{
	struct io_options o;
	struct io_result *res = calloc(1, sizeof(*res));
	char path[512];
	(void)state;

	snprintf(path, sizeof(path), "%s/there.dat", dir);
	unlink(path);
	job(&o, "rw=read,size=1m,filename=there.dat,allow_file_create=0");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "disallowed by allow_file_create=0"));
	assert_int_equal(access(path, F_OK), -1);
	data_file(path, 256);
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[DIR_READ], 256);
	unlink(path);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_filename_format, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_paths_rule, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_allow_file_create, setup_ram_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
