/*
 * test_engines.c: every I/O engine (src/io/, behind engine.h) on a scratch
 * file: each pattern's counts and verified data, the engines that move no
 * data, the file operations, each thread's own file table, O_DIRECT, and
 * io_uring refused by the kernel.
 */
#define _GNU_SOURCE
#include "testutil.h"
#include "io_testutil.h"

#include "core/error.h"
#include "core/timing.h"
#include "io/iojob.h"
#include "core/exec.h"
#include "targets/loop.h"
#include "targets/state.h"

#include <dirent.h>
#include <jansson.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/kcmp.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <seccomp.h>

static void test_each_engine(void **state)
{
	static const char *engines[] = { "psync", "sync", "io_uring", "libaio", "mmap", "null",
					 "pvsync", "pvsync2" };
	(void)state;

	for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
		static const char *patterns[] = { "write", "randread", "randrw", "read" };
		bool nodata = !strcmp(engines[e], "null");

		for (size_t p = 0; p < 4; p++) {
			struct io_options o;
			struct io_result *res = malloc(sizeof(*res));
			char opts[256];

			/* each pattern works on the file the first one made and
			 * kept: a file from before the job, so it says it may */
			snprintf(opts, sizeof(opts), "rw=%s,ioengine=%s,size=2m,bs=4k,iodepth=8,"
				 "filename=f.dat,allow_existing_write=1%s", patterns[p], engines[e],
				 nodata ? "" : ",verify=crc32c");
			job(&o, opts);
			if (io_group_run(&o, 1, dir, res, true)) {
				/* A machine without io_uring still tests the others. */
				if (engine_unavailable(engines[e])) {
					print_message("# io_uring not tested: %s\n", error_get());
					free(res);
					break;
				}
				fail_msg("%s: %s", opts, error_get());
			}
			/* Every block of the 2 MiB region once; a verified write
			 * job reads every block back, counted as reads (fio). */
			int back = (int)res->verified_blocks;	/* read back after writing */
			if (!strcmp(patterns[p], "write"))
				assert_int_equal(back, nodata ? 0 : 512);
			assert_int_equal(res->ios[0] + res->ios[1], 512 + back);
			assert_int_equal(res->bytes[0] + res->bytes[1], (2 << 20) + back * 4096);
			assert_int_equal(res->clat.n, 512 + back);
			assert_true(res->clat.max >= res->clat.min);
			if (!strcmp(patterns[p], "randrw")) {
				assert_true(res->ios[0] > 150 && res->ios[1] > 150);
			}
			if (!nodata && !strcmp(patterns[p], "write")) {
				assert_int_equal(res->verified_blocks, 512);
				assert_true(res->compress_ratio > 0.95);
			}
			free(res);
		}
		{
			char path[512];
			snprintf(path, sizeof(path), "%s/f.dat", dir);
			unlink(path);
		}
	}
}

/* cmdprio_percentage (fio's, for libaio and io_uring): about that share
 * of I/Os issued with cmdprio's priority, each priority's latencies kept
 * apart and adding up to the job's (fio's "prios", which its
 * latency_percentiles.py checks against the combined figures), lat's with
 * lat_percentiles; none without it; refused for an engine that cannot.
 * Counts, not times: the draw is the job's own generator's. */
static void test_cmdprio(void **state)
{
	static const char *engines[] = { "libaio", "io_uring" };
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char opts[256];
	(void)state;

	assert_non_null(res);
	for (int e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), "rw=randread,ioengine=%s,size=1m,bs=4k,iodepth=4,"
			 "cmdprio_percentage=50,cmdprio_class=2,cmdprio=3,lat_percentiles=1",
			 engines[e]);
		job(&o, opts);
		if (io_group_run(&o, 1, dir, res, false))
			fail_msg("%s: %s", opts, error_get());
		const struct histogram *p0 = &res->prio_hist[DIR_READ][0],
				       *p1 = &res->prio_hist[DIR_READ][1];
		assert_int_equal(p0->n + p1->n, 256);
		assert_int_equal(res->prio_hist[DIR_READ][2].n, 0);
		assert_true(p1->n > 64 && p1->n < 192);	/* 50% of 256, far inside */
		assert_int_equal(res->prio_value[1], 2 << 13 | 3);
		assert_int_equal(p0->m.n + p1->m.n, res->lat[DIR_READ].n);
		assert_int_equal(p0->m.min < p1->m.min ? p0->m.min : p1->m.min,
				 res->lat[DIR_READ].min);
		json_t *j = io_result_json(&o, res, 0, "");
		json_t *pr = json_object_get(json_object_get(j, "read"), "prios");
		assert_int_equal(json_array_size(pr), 2);
		json_t *hi = json_array_get(pr, 1);
		assert_int_equal(json_integer_value(json_object_get(hi, "prioclass")), 2);
		assert_int_equal(json_integer_value(json_object_get(hi, "prio")), 3);
		assert_non_null(json_object_get(json_object_get(hi, "lat_ns"), "percentile"));
		json_decref(j);

		snprintf(opts, sizeof(opts), "rw=randread,ioengine=%s,size=1m,bs=4k,iodepth=4",
			 engines[e]);
		job(&o, opts);
		if (io_group_run(&o, 1, dir, res, false))
			fail_msg("%s: %s", opts, error_get());
		assert_int_equal(res->prio_hist[DIR_READ][1].n, 0);
		j = io_result_json(&o, res, 0, "");
		assert_null(json_object_get(json_object_get(j, "read"), "prios"));
		json_decref(j);
	}
	/* cmdprio_bssplit: all 4k I/Os at 2/1, no 8k one (fio's
	 * latency_percentiles.py tests 21, 22 use its per-entry form) */
	job(&o, "rw=randread,ioengine=libaio,size=1m,iodepth=4,bssplit=4k/50:8k/50,"
	    "cmdprio_bssplit=4k/100/2/1:8k/0");
	if (io_group_run(&o, 1, dir, res, false))
		fail_msg("%s", error_get());
	assert_int_equal(res->prio_value[1], 2 << 13 | 1);
	assert_true(res->prio_hist[DIR_READ][0].n > 0 && res->prio_hist[DIR_READ][1].n > 0);
	assert_int_equal(res->prio_hist[DIR_READ][0].n + res->prio_hist[DIR_READ][1].n,
			 res->ios[DIR_READ]);
	assert_int_equal(res->prio_hist[DIR_READ][2].n, 0);
	job(&o, "rw=randread,ioengine=libaio,cmdprio_bssplit=4k/10/1/1:4k/10/2/1:4k/10/3/1:"
	    "4k/10/3/2");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "more than 4 I/O priorities"));
	job(&o, "rw=randread,ioengine=libaio,cmdprio_bssplit=4k/10,cmdprio_percentage=5");
	assert_int_equal(io_options_validate(&o), -1);
	job(&o, "rw=randread,ioengine=psync,cmdprio_percentage=50");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "libaio and io_uring"));
	free(res);
}

/* fio's switches for what is not kept, on real jobs: gtod_reduce=1 times
 * no I/O (clat, lat and slat empty, no bandwidth windows) and still counts
 * every I/O; disable_clat keeps lat (a synchronous call's too) and no clat;
 * disable_bw_measurement keeps the latencies and no windows.  The bug it
 * catches: gtod_reduce accepted and ignored, so a high-IOPS job paid for
 * a clock read per I/O that fio does not make. */
static void test_untimed_options(void **state)
{
	static const char *engines[] = { "psync", "libaio" };
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char opts[256];
	(void)state;

	assert_non_null(res);
	for (int e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), "rw=randread,ioengine=%s,size=1m,bs=4k,iodepth=4,"
			 "gtod_reduce=1", engines[e]);
		job(&o, opts);
		if (io_group_run(&o, 1, dir, res, false))
			fail_msg("%s: %s", opts, error_get());
		assert_int_equal(res->ios[DIR_READ], 256);
		assert_int_equal(res->clat.n, 0);
		assert_int_equal(res->lat[DIR_READ].n, 0);
		assert_int_equal(res->slat[DIR_READ].n, 0);
		assert_int_equal(res->rate[DIR_READ].samples, 0);
		assert_true(res->elapsed_ns > 0);	/* IOPS still has its time */

		snprintf(opts, sizeof(opts), "rw=randread,ioengine=%s,size=1m,bs=4k,iodepth=4,"
			 "disable_clat=1", engines[e]);
		job(&o, opts);
		if (io_group_run(&o, 1, dir, res, false))
			fail_msg("%s: %s", opts, error_get());
		assert_int_equal(res->clat.n, 0);
		assert_int_equal(res->lat[DIR_READ].n, 256);
	}
	/* a second of I/O has windows of 500 ms, unless they are not kept
	 * (windows follow the job's own clock, whatever the machine's load) */
	job(&o, "rw=randread,size=1m,bs=4k,time_based=1,runtime=1s");
	if (io_group_run(&o, 1, dir, res, false))
		fail_msg("%s", error_get());
	assert_true(res->rate[DIR_READ].samples > 0);
	job(&o, "rw=randread,size=1m,bs=4k,time_based=1,runtime=1s,disable_bw_measurement=1");
	if (io_group_run(&o, 1, dir, res, false))
		fail_msg("%s", error_get());
	assert_true(res->clat.n > 0);
	assert_int_equal(res->rate[DIR_READ].samples, 0);
	free(res);
}

/* fio's engines that move no data: ftruncate cuts the file to each
 * write's offset (a 1 MiB sequential job leaves it at 1 MiB less a
 * block, as fio's), falloc allocates each range; neither verifies, and
 * neither has written data to sample. */
static void test_fake_io_engines(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	struct stat st;
	char path[512];
	(void)state;

	snprintf(path, sizeof(path), "%s/t.dat", dir);
	job(&o, "rw=write,ioengine=ftruncate,size=1m,bs=4k,filename=t.dat");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[1], 256);
	assert_true(res->compress_ratio < 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, (1 << 20) - 4096);
	/* the later jobs use the file the first kept (allow_existing_write) */
	job(&o, "rw=randread,ioengine=ftruncate,size=1m,bs=4k,filename=t.dat,allow_existing_write=1");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), -1);
	assert_non_null(strstr(error_get(), "only writes"));
	job(&o, "rw=randwrite,ioengine=falloc,size=1m,bs=4k,filename=t.dat,allow_existing_write=1");
	assert_int_equal(io_group_run(&o, 1, dir, res, true), 0);
	assert_int_equal(res->ios[1], 256);
	assert_true(res->compress_ratio < 0);
	job(&o, "rw=write,ioengine=falloc,size=1m,verify=crc32c,filename=t.dat");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "not ioengine=falloc"));
	/* an engine's own option, in a job of another engine, would do
	 * nothing: refused, naming whose it is */
	job(&o, "rw=read,ioengine=psync,hipri=1");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "'hipri' is ioengine=pvsync2's"));
	job(&o, "rw=read,ioengine=pvsync2,hipri=1,hipri_percentage=50");
	assert_int_equal(io_options_validate(&o), 0);
	assert_int_equal(((const bool *)io_engine_opts(&o))[0], 1);
	unlink(path);
	free(res);
}

/* fio's file-operation engines: one operation per file per pass, and
 * only it timed (a file of two blocks is two I/Os, one latency); with
 * create_on_open=0 the operations come before the clock and still count;
 * filecreate makes the files in the run and refuses one already there;
 * filedelete deletes only what fsbench made, and a repetition starts as
 * the first did.  Nothing is left behind. */
static void test_file_op_engines(void **state)
{
	static const char *const cases[] = {
		"ioengine=filecreate,create_on_open=1", "ioengine=filecreate,openfiles=1",
		"ioengine=filestat", "ioengine=filestat,stat_type=statx,create_on_open=1",
		"ioengine=filedelete,create_on_open=1", "ioengine=filedelete,rw=randwrite",
	};
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	struct io_job *j;
	char opts[256], path[512], moved[512];
	struct stat st;
	(void)state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "name=fo,nrfiles=40,size=320k,bs=4k,%s", cases[c]);
		job(&o, opts);
		assert_int_equal(io_group_run(&o, 1, dir, res, false), 0);
		print_message("# %s: %llu I/Os, %llu timed, mean %.0f ns\n", cases[c],
			      (unsigned long long)(res->ios[0] + res->ios[1]),
			      (unsigned long long)res->clat.n, res->clat.mean);
		assert_int_equal(res->ios[0] + res->ios[1], 80);	/* two blocks a file */
		assert_int_equal(res->clat.n, 40);			/* one operation a file */
		assert_true(res->clat.min > 0);
		assert_int_equal(count_entries(dir), 0);
	}
	/* the files exist while the job runs, and repetitions measure alike */
	job(&o, "name=fo,nrfiles=20,size=80k,bs=4k,ioengine=filecreate,create_on_open=1");
	assert_int_equal(io_job_open(&o, dir, &j), 0);
	assert_int_equal(count_entries(dir), 0);
	for (int rep = 0; rep < 2; rep++) {
		assert_int_equal(io_job_run(j, res), 0);
		assert_int_equal(res->clat.n, 20);
		assert_int_equal(count_entries(dir), 20);
	}
	io_job_close(j);
	assert_int_equal(count_entries(dir), 0);
	job(&o, "name=fo,nrfiles=20,size=80k,bs=4k,ioengine=filedelete");
	assert_int_equal(io_job_open(&o, dir, &j), 0);
	assert_int_equal(count_entries(dir), 20);
	for (int rep = 0; rep < 2; rep++) {
		assert_int_equal(io_job_run(j, res), 0);
		assert_int_equal(res->clat.n, 20);
		assert_int_equal(count_entries(dir), 0);
	}
	io_job_close(j);
	/* a file that was there is refused by filecreate and by filedelete */
	snprintf(path, sizeof(path), "%s/mine", dir);
	assert_int_equal(close(open(path, O_CREAT | O_WRONLY, 0644)), 0);
	job(&o, "filename=mine,size=4k,ioengine=filecreate");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "is there already"));
	job(&o, "filename=mine,size=4k,ioengine=filedelete");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "was there before"));
	assert_int_equal(stat(path, &st), 0);
	/* a file replaced after fsbench made it is not fsbench's: not deleted */
	job(&o, "name=fo,size=4k,ioengine=filedelete,create_on_open=1");
	assert_int_equal(io_job_open(&o, dir, &j), 0);
	snprintf(path, sizeof(path), "%s/fo.0.0", dir);
	snprintf(moved, sizeof(moved), "%s/moved", dir);
	assert_int_equal(rename(path, moved), 0);	/* kept, so its inode is not reused */
	assert_int_equal(close(open(path, O_CREAT | O_WRONLY | O_EXCL, 0644)), 0);
	assert_int_equal(io_job_run(j, res), -1);
	assert_non_null(strstr(error_get(), "no longer the file fsbench made"));
	io_job_close(j);
	assert_int_equal(stat(path, &st), 0);
	unlink(path);
	unlink(moved);
	snprintf(path, sizeof(path), "%s/mine", dir);
	unlink(path);
	/* no direction to a file operation; openfiles below nrfiles only here */
	job(&o, "name=fo,rw=randrw,ioengine=filestat");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	assert_non_null(strstr(error_get(), "no direction"));
	job(&o, "nrfiles=4,openfiles=2,size=64k");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "openfiles"));
	assert_int_equal(count_entries(dir), 0);
	free(res);
}

/* A job run in the background, so that its I/O threads can be looked at
 * from here while they run. */
struct bg_run {
	struct io_options o;
	struct io_result res;
	int rc;
	atomic_int tid;		/* the thread that called io_group_run */
	atomic_bool done;
};

static void *bg_main(void *arg)
{
	struct bg_run *b = arg;

	atomic_store(&b->tid, gettid());
	b->rc = io_group_run(&b->o, 1, dir, &b->res, false);
	atomic_store(&b->done, true);
	return NULL;
}

/* This process's tasks in /proc/self/task. */
static int tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Up to max of the job's I/O threads (every task but this one and the
 * caller of io_group_run), once want of them are there, or 0. */
static int io_tids(struct bg_run *b, pid_t *tids, int want)
{
	for (int tries = 0; tries < 1000 && !atomic_load(&b->done); tries++) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		int n = 0, caller = atomic_load(&b->tid);
		while (caller && (e = readdir(d)) && n < want) {
			pid_t t = (pid_t)atoi(e->d_name);
			if (t > 0 && t != gettid() && t != caller)
				tids[n++] = t;
		}
		closedir(d);
		if (n == want)
			return n;
		usleep(2000);
	}
	return 0;
}

/* Each I/O thread has a file table of its own (fio's jobs are processes),
 * holding a file of its own under each descriptor; thread=1 shares the
 * table, as fio's threads do (kcmp compares the kernel's objects).  Each
 * is placed and prioritised as cpus_allowed, nice and prio say. */
static void test_file_table(void **state)
{
	struct bg_run *b = calloc(1, sizeof(*b));
	char link[4096], want[512];
	pthread_t th;
	pid_t tids[2];
	(void)state;

	snprintf(want, sizeof(want), "%s/ft.dat", dir);
	for (int shared = 0; shared < 2; shared++) {
		char opts[256];
		snprintf(opts, sizeof(opts), "rw=randread,size=64k,filename=ft.dat,runtime=3,"
			 "time_based=1,numjobs=2,thread=%d,cpus_allowed=0,cpus_allowed_policy=split,"
			 "nice=%d,prio=6", shared, 1 + shared);
		job(&b->o, opts);
		atomic_store(&b->done, false);
		atomic_store(&b->tid, 0);
		/* the last job's threads gone from /proc/self/task: a joined
		 * thread is listed until its exit is done, and was taken for one
		 * of this job's (its fd directory gone when looked at) */
		for (int tries = 0; tasks() > 1 && tries < 2500; tries++)
			usleep(2000);
		assert_int_equal(tasks(), 1);
		assert_int_equal(pthread_create(&th, NULL, bg_main, b), 0);
		assert_int_equal(io_tids(b, tids, 2), 2);
		/* a thread is seen before it has set itself up: the I/O
		 * priority is the last thing it sets (up to 5 s on a busy machine) */
		for (int i = 0, tries = 0; i < 2 && tries < 2500; tries++)
			if (syscall(SYS_ioprio_get, 1, tids[i]) == (2 << 13 | 6))
				i++;
			else
				usleep(2000);
		for (int i = 0; i < 2; i++) {
			long tables = syscall(SYS_kcmp, getpid(), tids[i], KCMP_FILES, 0, 0);
			cpu_set_t cpus;
			int nfd = 0, fd = -1;
			char where[64];
			/* its own table: the standard streams and its one file */
			snprintf(where, sizeof(where), "/proc/self/task/%d/fd", (int)tids[i]);
			DIR *d = opendir(where);
			struct dirent *e;
			assert_non_null(d);
			while ((e = readdir(d))) {
				char p[320];
				ssize_t n;
				if (e->d_name[0] == '.')
					continue;
				nfd++;
				snprintf(p, sizeof(p), "%s/%s", where, e->d_name);
				n = readlink(p, link, sizeof(link) - 1);
				if (n > 0 && (link[n] = 0, !strcmp(link, want)))
					fd = atoi(e->d_name);
			}
			closedir(d);
			assert_true(fd > 2);
			/* the same number here is this process's open of the file */
			long files = syscall(SYS_kcmp, getpid(), tids[i], KCMP_FILE, fd, fd);
			print_message("# thread=%d: task %d: tables %s, file %s, %d descriptors\n", shared,
				      (int)tids[i], tables ? "apart" : "shared", files ? "apart" : "shared",
				      nfd);
			if (shared) {
				assert_int_equal(tables, 0);
				assert_int_equal(files, 0);
			} else {
				assert_true(tables > 0 && files > 0);
				assert_int_equal(nfd, 4);
			}
			assert_int_equal(sched_getaffinity(tids[i], sizeof(cpus), &cpus), 0);
			assert_true(CPU_COUNT(&cpus) == 1 && CPU_ISSET(0, &cpus));
			errno = 0;
			assert_int_equal(getpriority(PRIO_PROCESS, (id_t)tids[i]), 1 + shared);
			assert_int_equal(syscall(SYS_ioprio_get, 1, tids[i]), 2 << 13 | 6);
		}
		assert_int_equal(pthread_join(th, NULL), 0);
		assert_int_equal(b->rc, 0);
		assert_true(b->res.ios[0] > 32);
	}
	/* the reopened descriptors still reach the files: a verified job */
	job(&b->o, "rw=randwrite,size=256k,numjobs=2,filename=ft.dat,verify=crc32c");
	assert_int_equal(io_group_run(&b->o, 1, dir, &b->res, false), 0);
	assert_int_equal(b->res.verified_blocks, 128);
	assert_int_equal(count_entries(dir), 0);
	free(b);
}

/* A line of /proc/self/numa_maps with this policy ("bind:0"), or 0. */
static int numa_maps_has(const char *pol)
{
	FILE *f = fopen("/proc/self/numa_maps", "r");
	char line[1024];
	int found = 0;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f)) {
		char *sp = strchr(line, ' ');
		found = sp && !strncmp(sp + 1, pol, strlen(pol)) && sp[1 + strlen(pol)] == ' ';
	}
	fclose(f);
	return found;
}

/* numa_cpu_nodes and numa_mem_policy (fio's, through libnuma): each I/O
 * thread runs on the nodes' CPUs, over cpus_allowed, and its buffers are
 * under the policy (numa_maps: bind:0).  The bugs caught: the options
 * refused (as before), or taken and not applied (no bind:0 mapping, the
 * thread still on cpus_allowed's one CPU).  A node this machine lacks and
 * a malformed policy are refused by a run's rules. */
static void test_numa(void **state)
{
	struct bg_run *b = calloc(1, sizeof(*b));
	struct io_options o;
	struct bitmask *cpus;
	char opts[256];
	pthread_t th;
	pid_t tid;
	(void)state;

	if (numa_available() < 0) {
		free(b);
		skip();
	}
	cpus = numa_allocate_cpumask();
	assert_int_equal(numa_node_to_cpus(0, cpus), 0);
	assert_false(numa_maps_has("bind:0"));
	snprintf(opts, sizeof(opts), "rw=randread,size=256k,bs=64k,filename=nm.dat,runtime=3,"
		 "time_based=1,cpus_allowed=0,numa_cpu_nodes=0,numa_mem_policy=bind:0");
	job(&b->o, opts);
	for (int tries = 0; tasks() > 1 && tries < 2500; tries++)
		usleep(2000);
	assert_int_equal(pthread_create(&th, NULL, bg_main, b), 0);
	assert_int_equal(io_tids(b, &tid, 1), 1);
	/* placement is the thread's first work; its policy the last of it */
	int seen = 0;
	for (int tries = 0; !seen && tries < 2500; tries++)
		if (!(seen = numa_maps_has("bind:0")))
			usleep(2000);
	assert_true(seen);
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(tid, sizeof(set), &set), 0);
	for (unsigned c = 0; c < cpus->size && c < CPU_SETSIZE; c++)
		assert_int_equal(!!CPU_ISSET(c, &set), numa_bitmask_isbitset(cpus, c));
	print_message("# numa: thread %d on %d CPUs of node 0, buffers bind:0\n", (int)tid,
		      CPU_COUNT(&set));
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(b->rc, 0);
	numa_free_cpumask(cpus);
	free(b);

	char bad[64];
	snprintf(bad, sizeof(bad), "rw=read,size=64k,numa_cpu_nodes=%d", numa_max_node() + 1);
	job(&o, bad);
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "not nodes of this machine"));
	job(&o, "rw=read,size=64k,numa_mem_policy=prefer");
	assert_int_equal(io_options_validate(&o), -1);
	assert_non_null(strstr(error_get(), "takes one node"));
}

static void test_direct_io(void **state)
{
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char where[512];
	(void)state;

	/* Misaligned O_DIRECT on a disk filesystem: the error says why. */
	make_scratch(where, sizeof(where), disk_scratch_root(), "unit");
	made_dir(where);
	job(&o, "rw=read,size=64k,bs=1000,direct=1");
	assert_int_equal(io_group_run(&o, 1, where, res, false), -1);
	assert_non_null(strstr(error_get(), "O_DIRECT (direct=1)"));
	assert_int_equal(count_entries(where), 0);
	/* Aligned works there, through libaio too. */
	job(&o, "rw=randread,size=256k,bs=4k,direct=1,ioengine=libaio,iodepth=8");
	assert_int_equal(io_group_run(&o, 1, where, res, false), 0);
	assert_int_equal(res->ios[0], 64);
	undo(where);
	free(res);
}

/* io_uring refused by the kernel, as on machines that forbid it: in a
 * child process whose seccomp filter makes io_uring_setup fail with EPERM.
 * The filter is the child's alone (the kernel-wide io_uring_disabled
 * sysctl, used before, switched io_uring off for every other program on
 * the machine while the test ran, and stayed off when the test was
 * killed).  The child reports what the job said through a pipe. */
static void test_io_uring_unavailable(void **state)
{
	char msg[1024] = "";
	int fds[2], status;
	pid_t pid;
	(void)state;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct io_options o;
		static struct io_result res;
		scmp_filter_ctx sc = seccomp_init(SCMP_ACT_ALLOW);
		close(fds[0]);
		if (!sc || seccomp_rule_add(sc, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_setup), 0) ||
		    seccomp_load(sc))
			_exit(3);
		job(&o, "rw=randread,size=256k,ioengine=io_uring,iodepth=4");
		int rc = io_group_run(&o, 1, dir, &res, false);
		const char *e = error_get();
		if (write(fds[1], e, strlen(e)) < 0)
			_exit(4);
		_exit(rc == -1 ? 0 : 1);
	}
	close(fds[1]);
	ssize_t n = read(fds[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = 0;
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		skip_because("seccomp filters are not available here");
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(msg, "io_uring is unavailable here"));
	assert_non_null(strstr(msg, "use ioengine=psync"));
	assert_int_equal(count_entries(dir), 0);
}

/* e4defrag (issue 72): each write is EXT4_IOC_MOVE_EXT of its range with
 * a donor, on a real ext4 (a loop device over an image in the test's
 * tmpfs).  The data stay where the file's reader finds them; every write
 * is counted; the donor is made new and removed after; a donor name that
 * is there already is refused and the file left as it was (fio would
 * have allocated, swapped and truncated it); reads are refused.  The
 * bugs: a move that failed counted as done, a donor left behind, a
 * user's file of the donor's name destroyed. */
static void test_e4defrag(void **state)
{
	char img[PATH_MAX], mnt[480], dev[64], out[512], f1[PATH_MAX + 8], donor[PATH_MAX + 16];
	char mkfs[PATH_MAX], before[4096 * 4], after[sizeof(before)];
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	int dio, lfd, fd;
	(void)state;

	if (geteuid() != 0 || find_program("mkfs.ext4", mkfs, sizeof(mkfs)))
		skip_because("needs root and mkfs.ext4");
	snprintf(img, sizeof(img), "%s/ext4.img", dir);
	snprintf(mnt, sizeof(mnt), "%.400s/mnt", dir);
	fd = open(img, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 64 << 20), 0);
	close(fd);
	char *argv[] = { mkfs, "-q", "-F", img, NULL };
	assert_int_equal(exec_capture(argv, out, sizeof(out)), 0);
	assert_int_equal(mkdir(mnt, 0700), 0);
	assert_int_equal(loop_attach(img, 0, dev, sizeof(dev), &dio, &lfd), 0);
	if (mount(dev, mnt, "ext4", 0, NULL)) {
		loop_detach(dev, lfd);
		fail_msg("mount %s: %s", dev, strerror(errno));
	}
	made_mount(mnt);
	close(lfd);	/* autoclear: the loop device goes with the mount */

	/* a file of data, then the moves over all of it */
	snprintf(f1, sizeof(f1), "%s/f1", mnt);
	data_file(f1, 1024);
	fd = open(f1, O_RDONLY);
	assert_int_equal(pread(fd, before, sizeof(before), 1 << 20), (ssize_t)sizeof(before));
	close(fd);
	job(&o, "rw=write,ioengine=e4defrag,donorname=file.def,size=4m,bs=64k,filename=f1,"
		"allow_existing_write=1");
	if (io_group_run(&o, 1, mnt, res, false))
		fail_msg("e4defrag: %s", error_get());
	assert_int_equal(res->ios[DIR_WRITE], 64);
	snprintf(donor, sizeof(donor), "%s/file.def", mnt);
	assert_int_equal(access(donor, F_OK), -1);
	sync();
	fd = open(f1, O_RDONLY);
	assert_int_equal(pread(fd, after, sizeof(after), 1 << 20), (ssize_t)sizeof(after));
	close(fd);
	assert_memory_equal(before, after, sizeof(before));
	/* inplace: the donor's blocks per write */
	job(&o, "rw=randwrite,ioengine=e4defrag,donorname=file.def,inplace=1,size=4m,bs=16k,"
		"filename=f1,allow_existing_write=1,number_ios=32");
	if (io_group_run(&o, 1, mnt, res, false))
		fail_msg("e4defrag inplace: %s", error_get());
	assert_int_equal(res->ios[DIR_WRITE], 32);
	assert_int_equal(access(donor, F_OK), -1);
	/* threads that name one donor share it, as fio's do (e4defrag2.fio's
	 * four): made once, removed by the last (the bug: the second thread
	 * refused the donor the first had made) */
	job(&o, "rw=write,ioengine=e4defrag,donorname=file.def,size=4m,bs=64k,numjobs=2,"
		"filename=f1,allow_existing_write=1");
	if (io_group_run(&o, 1, mnt, res, false))
		fail_msg("e4defrag, two threads: %s", error_get());
	assert_int_equal(res->ios[DIR_WRITE], 128);
	assert_int_equal(access(donor, F_OK), -1);
	/* a donor name that is taken by a file this job did not make:
	 * refused, the file untouched (without allow_existing_write, which
	 * hands fsbench io fio's way) */
	fd = open(donor, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	job(&o, "rw=write,ioengine=e4defrag,donorname=file.def,size=4m,bs=64k,filename=f2");
	assert_int_equal(io_group_run(&o, 1, mnt, res, false), -1);
	assert_non_null(strstr(error_get(), "was there before the job"));
	fd = open(donor, O_RDONLY);
	assert_int_equal(read(fd, out, sizeof(out)), 4);
	assert_memory_equal(out, "keep", 4);
	close(fd);
	/* reads, and a donor outside the job's directory, are refused */
	job(&o, "rw=read,ioengine=e4defrag,donorname=d2,size=4m,filename=f1,allow_existing_write=1");
	assert_int_equal(io_group_run(&o, 1, mnt, res, false), -1);
	assert_non_null(strstr(error_get(), "only writes"));
	job(&o, "rw=write,ioengine=e4defrag,donorname=../d2,size=4m,filename=f1,allow_existing_write=1");
	assert_int_equal(io_group_run(&o, 1, mnt, res, false), -1);
	assert_non_null(strstr(error_get(), "no '/'"));
	free(res);
}

/* exec (issue 72): a program beside the jobs, no I/O of its own.  Its
 * arguments with %n and %r as fio expands them, its output in NAME.stdout;
 * a program still running at the runtime's end is stopped (the job would
 * hang for 1000 s otherwise) and its state entry is gone; never an output
 * through a symbolic link; and a run refuses the engine.  The bugs: a
 * program left running after fsbench, or fsbench writing through a link. */
static void test_exec(void **state)
{
	char cwd[PATH_MAX], buf[256] = "", link[PATH_MAX], decoy[PATH_MAX + 8];
	struct io_options o;
	struct io_result *res = malloc(sizeof(*res));
	char st[PATH_MAX + 16];
	int fd;
	(void)state;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	snprintf(st, sizeof(st), "%s/state", dir);
	setenv("FSBENCH_STATE", st, 1);
	job(&o, "name=e1,ioengine=exec,program=echo,arguments=x %n %r,runtime=3");
	if (io_group_run(&o, 1, dir, res, false))
		fail_msg("exec: %s", error_get());
	fd = open("e1.stdout", O_RDONLY);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_string_equal(buf, "x e1 3\n");
	assert_int_equal(res->ios[DIR_READ] + res->ios[DIR_WRITE], 0);
	/* stopped at the runtime's end, its record gone with it */
	job(&o, "name=e2,ioengine=exec,program=sleep,arguments=1000,runtime=1,time_based=1,"
		"grace_time=0");
	if (io_group_run(&o, 1, dir, res, false))
		fail_msg("exec: %s", error_get());
	assert_int_equal(state_leftovers(), 0);
	fd = open(st, O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		close(fd);
		assert_null(strstr(buf, "process"));
	}
	/* never through a link */
	snprintf(decoy, sizeof(decoy), "%s/decoy", dir);
	fd = open(decoy, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	snprintf(link, sizeof(link), "%s/e3.stdout", dir);
	assert_int_equal(symlink(decoy, link), 0);
	job(&o, "name=e3,ioengine=exec,program=echo,arguments=overwritten,runtime=1");
	assert_int_equal(io_group_run(&o, 1, dir, res, false), -1);
	fd = open(decoy, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 4);
	close(fd);
	assert_memory_equal(buf, "keep", 4);
	/* a run does not start programs */
	job(&o, "name=e4,ioengine=exec,program=echo,runtime=1");
	assert_int_equal(io_where_check(&o, dir, true), -1);
	assert_non_null(strstr(error_get(), "starts a program"));
	assert_int_equal(chdir(cwd), 0);
	unsetenv("FSBENCH_STATE");
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_each_engine, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_untimed_options, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_cmdprio, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_fake_io_engines, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_file_op_engines, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_file_table, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_numa, setup_ram_dir, teardown_dir),
		cmocka_unit_test_teardown(test_direct_io, teardown_made),
		cmocka_unit_test_setup_teardown(test_e4defrag, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_exec, setup_ram_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_io_uring_unavailable, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, teardown_made);
}
