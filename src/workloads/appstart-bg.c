/*
 * appstart-bg.c: appstart's background load, S's fio job: `readers`
 * processes reading, `writers` processes writing large files on the
 * target in 4 KiB buffered requests, and a syncer (appstart.c says
 * what S does, docs/workloads/appstart.md why each detail matters).
 *
 * The workers are forked (fork_worker: a SIGKILLed fsbench leaves none)
 * and share one mapping with fsbench, struct app_bg: each worker's
 * bytes, and its requests' latencies in two histograms, one for while a
 * launch runs (app_bg_launching) and one for the rest.  Each worker
 * takes the clock around each request as fio does: fio's CPU per
 * request is part of the load S puts beside a start-up.  The bytes may
 * be read at any time; the histograms once the workers are stopped.
 */
#define _GNU_SOURCE
#include "appstart.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* lat[0] is filled only so that a request costs the same CPU whether a
 * launch runs or not; only lat[1] is reported. */
struct bg_worker_stats {
	_Atomic uint64_t bytes;
	struct histogram lat[2];	/* [1]: while a launch runs */
};

struct app_bg {
	_Atomic int launching;
	int readers, writers, npids;
	pid_t pids[APP_BG_MAX + 1];	/* the workers, then the syncer */
	struct bg_worker_stats w[APP_BG_MAX];
};

void app_bg_path(const char *dir, bool writer, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s%d", dir, writer ? "bg_write" : "bg_read", i);
}

/* A background worker, one of S's fio jobs: 4 KiB buffered sequential
 * I/O over its file until killed, counting bytes and timing requests in
 * its shared slot.
 * Each pass over the file is one of fio's loops (S gives --loops=10000):
 * the file is opened again and, as S sets fio's invalidate=1, its cached
 * pages are let go; then fio's fadvise_hint advises sequential access. */
static void background_worker(const char *path, bool writer, uint64_t size,
			      const struct app_bg *bg, struct bg_worker_stats *st)
{
	char buf[4096];

	/* fio's job processes each lead a session of their own (setsid).
	 * Where the scheduler groups tasks by session (autogroup, on in
	 * Debian's kernels), each reader then weighs as much as the launch's
	 * whole session against the kernel worker that serves a loop device:
	 * as one group, the same readers left that worker more CPU, and
	 * start-ups were shorter than S's (docs/workloads/appstart.md) */
	setsid();
	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		int fd = open(path, (writer ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		if (fd < 0)
			_exit(1);
		posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_DONTNEED);
		/* fio's default fadvise_hint for a sequential job: it doubles
		 * the read-ahead a reader gets */
		posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_SEQUENTIAL);
		for (uint64_t at = 0; at < size;) {
			/* fio takes the clock before and after each request
			 * and files the latency in a histogram: the same work
			 * here, so that the workers take as much CPU from the
			 * launch and the loop device's worker as S's do */
			uint64_t t0 = now_ns();
			ssize_t n = writer ? write(fd, buf, sizeof(buf)) : read(fd, buf, sizeof(buf));
			uint64_t t1 = now_ns();
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno != ENOSPC)
				_exit(1);
			if (n <= 0)
				break;	/* the end of a short file, or a full target */
			at += (uint64_t)n;
			hist_add(&st->lat[atomic_load_explicit(&bg->launching, memory_order_relaxed) != 0],
				 t1 - t0);
			atomic_fetch_add_explicit(&st->bytes, (uint64_t)n, memory_order_relaxed);
		}
		close(fd);
	}
}

/* S starts every sync in the background (`sync &`), so that a slow one
 * does not hold back the next: one a second while the background settles,
 * then, with writers, one every 2 s.  Threads, not processes: the
 * syncer's exit waits for them, so no sync outlives the repetition.  A
 * bound on the syncs in flight, which S has not, keeps a stalled device
 * from piling up threads. */
#define SYNCS_MAX 32
static _Atomic int syncs_running;

static void *sync_thread(void *arg)
{
	(void)arg;
	sync();
	atomic_fetch_sub(&syncs_running, 1);
	return NULL;
}

static void syncer(double settle, bool writers)
{
	pthread_attr_t attr;
	struct timespec at;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	clock_gettime(CLOCK_MONOTONIC, &at);
	for (double t = 0;;) {
		double step = t < settle ? 1 : 2;
		pthread_t tid;

		if (t >= settle && !writers)
			_exit(0);
		if (atomic_fetch_add(&syncs_running, 1) >= SYNCS_MAX ||
		    pthread_create(&tid, &attr, sync_thread, NULL))
			atomic_fetch_sub(&syncs_running, 1);
		t += step;
		at.tv_sec += (time_t)step;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
	}
}

/* fio's layout of a write job's file (S's writers): the file removed
 * (S removes it too), made again and allocated with fallocate(2), so
 * every repetition writes into newly allocated, unwritten blocks, as
 * every S run does.  Where fallocate is refused, fio writes anyway. */
static int layout_writer(const char *path, uint64_t size)
{
	int fd;

	if (unlink(path) && errno != ENOENT)
		return error_errno("removing %s", path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno("creating %s", path);
	if (fallocate(fd, 0, 0, (off_t)size) && errno != EOPNOTSUPP && errno != ENOSYS) {
		int e = errno;
		close(fd);
		errno = e;
		return error_errno("allocating %s", path);
	}
	close(fd);
	return 0;
}

struct app_bg *app_bg_new(void)
{
	struct app_bg *bg = mmap(NULL, sizeof(*bg), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (bg == MAP_FAILED) {
		error_errno("mapping the background's counters");
		return NULL;
	}
	return bg;	/* zeroed, as every anonymous mapping */
}

void app_bg_stop(struct app_bg *bg)
{
	for (int i = 0; i < bg->npids; i++)
		if (bg->pids[i] > 0)
			kill(bg->pids[i], SIGKILL);
	for (int i = 0; i < bg->npids; i++)
		if (bg->pids[i] > 0)
			waitpid(bg->pids[i], NULL, 0);
	bg->npids = 0;
}

void app_bg_free(struct app_bg *bg)
{
	if (!bg)
		return;
	app_bg_stop(bg);
	munmap(bg, sizeof(*bg));
}

int app_bg_start(struct app_bg *bg, const char *dir, int readers, int writers, uint64_t size,
		 double settle)
{
	int n = readers + writers;
	char path[4200];

	if (readers < 0 || writers < 0 || n > APP_BG_MAX)
		return error_set("at most %d background workers", APP_BG_MAX);
	bg->readers = readers;
	bg->writers = writers;
	atomic_store(&bg->launching, 0);
	/* the syncer last, as it runs during the settle with or without writers */
	for (int i = 0; i <= n; i++) {
		bool writer = i >= readers && i < n;
		pid_t pid;

		if (i < n) {
			app_bg_path(dir, writer, writer ? i - readers : i, path, sizeof(path));
			atomic_store(&bg->w[i].bytes, 0);
			hist_init(&bg->w[i].lat[0]);
			hist_init(&bg->w[i].lat[1]);
			if (writer && layout_writer(path, size)) {
				app_bg_stop(bg);
				return -1;
			}
		}
		pid = fork_worker();
		if (pid < 0) {
			app_bg_stop(bg);
			return error_errno("starting background I/O");
		}
		if (pid == 0) {
			if (i == n)
				syncer(settle, writers > 0);
			background_worker(path, writer, size, bg, &bg->w[i]);
		}
		bg->pids[bg->npids++] = pid;
	}
	return 0;
}

void app_bg_launching(struct app_bg *bg, bool on)
{
	atomic_store(&bg->launching, on);
}

void app_bg_bytes(const struct app_bg *bg, uint64_t *rd, uint64_t *wr)
{
	*rd = *wr = 0;
	for (int i = 0; i < bg->readers + bg->writers; i++) {
		uint64_t b = atomic_load(&bg->w[i].bytes);
		if (i < bg->readers)
			*rd += b;
		else
			*wr += b;
	}
}

void app_bg_latency(const struct app_bg *bg, struct histogram *rd, struct histogram *wr)
{
	hist_init(rd);
	hist_init(wr);
	for (int i = 0; i < bg->readers + bg->writers; i++)
		hist_merge(i < bg->readers ? rd : wr, &bg->w[i].lat[1]);
}
