/*
 * appstart.c: application start-up time under background I/O, as the
 * S suite's startup-time test behind seed 000 (docs/workloads/appstart.md),
 * with everything on the target (PTS's run ignored the chosen disk).
 *
 * Background, as S's fio job: `readers` processes read large files on the
 * target sequentially in 4 KiB buffered reads, `writers` processes write
 * others (removed and allocated again by every repetition, as fio lays
 * out a write job's file), each in a session of its own as fio's job
 * processes are; file size is min(500 MiB, RAM/30) unless
 * file_size= says otherwise.  A sync starts every second while the
 * background settles (`settle`, S's 8 s), then every 2 s with writers,
 * each in the background as S's `sync &`.  They run through the whole
 * repetition and are always stopped (forked with fork_worker, so even a
 * SIGKILLed fsbench leaves none).  Each worker counts its bytes and
 * times each request, as fio does, in shared memory (appstart-bg.c), so
 * the throughput and latency it got while the launches ran are recorded:
 * a result where the background starved is visible.
 *
 * Launch: `launches` cold starts, averaged as S does, each as S times it:
 * `gap` (4 s) of background alone, the page cache dropped without a sync
 * (needs root), 0.2 s, then the timed start; after a start shorter than
 * 2 s, `rest` (2 s) more.  app=exec:PATH copies the program and
 * every shared library the dynamic loader resolves for it onto the target
 * and runs it from there through the copied loader with
 * --library-path; app=replay-NAME replays a synthetic read trace with the
 * shape S recorded for xterm, gnome-terminal or lowriter (threads,
 * requests, bytes) with O_DIRECT reads of per-thread files on the target.
 */
#define _GNU_SOURCE
#include "workload.h"
#include "../core/checked.h"
#include "appstart.h"
#include "../core/cache.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/histogram.h"
#include "../core/pattern.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct app_params {
	char app[PARAM_STR_MAX];
	char args[PARAM_STR_MAX];
	int64_t readers;
	int64_t writers;
	uint64_t file_size;
	int64_t launches;
	double settle;
	double gap;
	double rest;
	double timeout;
	bool drop_caches;
};

#define P(f) offsetof(struct app_params, f)
static const struct param_def app_params[] = {
	PARAM_STRING("app", struct app_params, app, "replay-xterm",
		     "exec:PATH (a real program), trace:PATH (an S trace, replayed as S does) or "
		     "replay-xterm|replay-gnome-terminal|replay-lowriter"),
	PARAM_STRING("args", struct app_params, args, "",
		     "arguments for an exec: program"),
	{ "readers", PT_INT, P(readers), "10", 0, 64, NULL, "background sequential readers" },
	{ "writers", PT_INT, P(writers), "0", 0, 64, NULL, "background sequential writers" },
	{ "file_size", PT_SIZE, P(file_size), "0", 0, 1ULL << 40, NULL,
	  "bytes per background file; 0 = min(500 MiB, RAM/30) as S", PF_SCALE },
	{ "launches", PT_INT, P(launches), "3", 1, 100, NULL, "cold starts averaged per repetition" },
	{ "settle", PT_DURATION, P(settle), "8s", 0, 0, NULL,
	  "background load alone before the launches begin, a sync started every second "
	  "(S: its transitory wait, 3 s + 4 s, counted down from 7 to 0)" },
	{ "gap", PT_DURATION, P(gap), "4s", 0, 0, NULL,
	  "background load alone before each launch (S: `time sleep 3; sleep 1`)" },
	{ "rest", PT_DURATION, P(rest), "2s", 0, 0, NULL,
	  "more background alone after a launch shorter than 2 s (S: `sleep 2`, for its "
	  "throughput statistics)" },
	{ "timeout", PT_DURATION, P(timeout), "120s", 0, 0, NULL, "longest a launch may take" },
	{ "drop_caches", PT_BOOL, P(drop_caches), "1", 0, 0, NULL,
	  "drop the page cache before every launch (cold start; needs root)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct metric_def app_metrics[] = {
	{ "seconds", "Seconds", LOWER_IS_BETTER, "Seconds", 1 },
	{ "bg_read_mbs", "MB/s", HIGHER_IS_BETTER, "Background read MB/s", 0 },
	{ "bg_read_lat", "usec", LOWER_IS_BETTER, "Background read latency mean", 0 },
	{ "bg_write_mbs", "MB/s", HIGHER_IS_BETTER, "Background write MB/s", 0 },
	{ "bg_write_lat", "usec", LOWER_IS_BETTER, "Background write latency mean", 0 },
};

static const struct preset app_presets[] = {
	{ "appstart-gnome-terminal-rw", "app=replay-gnome-terminal,readers=5,writers=5",
	  "Background I/O Mix: Sequential Reads + Writes - Application: GNOME Terminal" },
	{ "appstart-xterm-rw", "app=replay-xterm,readers=5,writers=5",
	  "Background I/O Mix: Sequential Reads + Writes - Application: xterm" },
	{ "appstart-gnome-terminal-r", "app=replay-gnome-terminal,readers=10,writers=0",
	  "Background I/O Mix: Only Sequential Reads - Application: GNOME Terminal" },
	{ "appstart-lowriter-rw", "app=replay-lowriter,readers=5,writers=5",
	  "Background I/O Mix: Sequential Reads + Writes - Application: LibreOffice Writer" },
	{ "appstart-lowriter-r", "app=replay-lowriter,readers=10,writers=0",
	  "Background I/O Mix: Only Sequential Reads - Application: LibreOffice Writer" },
	{ NULL, NULL, NULL },
};

/* --- replay traces ------------------------------------------------------ */

/* The shapes S recorded (threads, requests, bytes). */
static const struct trace_shape shapes[] = {
	{ "xterm", "xterm", 2, 718, 6u << 20 },
	{ "gnome-terminal", "GNOME Terminal", 7, 2781, 20u << 20 },
	{ "lowriter", "LibreOffice Writer", 4, 1268, 46u << 20 },
};

const struct trace_shape *trace_shape_find(const char *name)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (!strcmp(shapes[i].name, name))
			return &shapes[i];
	return NULL;
}

/* Requests split over threads (the first thread, the main one, gets the
 * remainder); sizes are 4 KiB multiples averaging bytes/requests, the
 * last one adjusted so the total is exact to 4 KiB; 70% of requests
 * continue where the previous one ended, 30% jump, as a loader reading
 * several files does.  Deterministic: the same trace every time. */
int trace_build(const struct trace_shape *shape, struct trace_req **out, int *nout,
		uint64_t *file_size)
{
	struct trace_req *r = calloc((size_t)shape->requests, sizeof(*r));
	uint64_t blocks = shape->bytes / 4096, at = 0;
	struct rng rng;
	int per = shape->requests / shape->threads, i = 0;

	if (!r)
		return error_set("out of memory");
	rng_seed(&rng, 0x5747);
	*file_size = 0;
	for (int t = 0; t < shape->threads; t++) {
		int n = per + (t == 0 ? shape->requests % shape->threads : 0);
		uint64_t tblocks = blocks * (uint64_t)n / (uint64_t)shape->requests, used = 0;
		uint64_t fsize = tblocks * 2 * 4096;

		at = 0;
		for (int k = 0; k < n; k++, i++) {
			uint64_t left = tblocks - used, mean = tblocks / (uint64_t)n;
			uint64_t most = left - (uint64_t)(n - 1 - k);	/* a block for each after */
			uint64_t len = 1 + rng_below(&rng, 2 * (mean ? mean : 1) - 1);
			if (k == n - 1 || len > most)
				len = k == n - 1 ? left : most;
			if (rng_below(&rng, 10) >= 7 || at + len * 4096 > fsize)
				at = rng_below(&rng, (fsize - len * 4096) / 4096 + 1) * 4096;
			r[i].thread = t;
			r[i].offset = at;
			r[i].len = (uint32_t)(len * 4096);
			at += len * 4096;
			used += len;
		}
		if (fsize > *file_size)
			*file_size = fsize;
	}
	*out = r;
	*nout = shape->requests;
	return 0;
}

/* --- exec: the program and its libraries --------------------------------- */

/* Ask the dynamic loader which libraries it maps for program (what ldd
 * does): paths[0] is the loader itself. */
int app_libraries(const char *program, char paths[][PATH_MAX], int max)
{
	static const char *const loaders[] = { "/lib64/ld-linux-x86-64.so.2",
					       "/lib/ld-linux-aarch64.so.1", NULL };
	char out[16384], *save = NULL, *line;
	char *argv[4];
	int n = 0;

	for (int i = 0; loaders[i] && !n; i++)
		if (access(loaders[i], X_OK) == 0)
			str_copy(paths[n++], PATH_MAX, loaders[i]);
	if (!n)
		return error_set("no dynamic loader found for exec: (only x86-64 and arm64 are known)");
	argv[0] = paths[0];
	argv[1] = "--list";
	argv[2] = (char *)program;
	argv[3] = NULL;
	if (exec_capture(argv, out, sizeof(out)) != 0)
		return error_set("app=exec:%s: not a dynamically linked program the loader can list",
				 program);
	for (char *cur = out; (line = strtok_r(cur, "\n", &save)); cur = NULL) {
		char *arrow = strstr(line, "=> "), *path = arrow ? arrow + 3 : line, *sp;
		while (*path == ' ' || *path == '\t')
			path++;
		if (*path != '/')
			continue;	/* linux-vdso.so.1: in the kernel */
		sp = strchr(path, ' ');
		if (sp)
			*sp = 0;
		if (!strcmp(path, paths[0]) || n == max)
			continue;
		str_copy(paths[n++], PATH_MAX, path);
	}
	return n;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), outfd;
	ssize_t got;

	if (in < 0)
		return error_errno("reading %s", from);
	outfd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (outfd < 0) {
		close(in);
		return error_errno("copying to %s", to);
	}
	while ((got = read(in, buf, sizeof(buf))) > 0)
		if (write(outfd, buf, (size_t)got) != got) {
			got = -1;
			break;
		}
	close(in);
	if (got < 0 || fsync(outfd)) {
		close(outfd);
		return error_errno("copying %s to %s", from, to);
	}
	close(outfd);
	return 0;
}

/* --- state, background load ---------------------------------------------- */

struct app_state {
	char dir[4096];
	const struct trace_shape *shape;
	struct trace_req *trace;
	int ntrace;
	uint64_t trace_file;
	char loader[PATH_MAX], libdir[PATH_MAX], program[PATH_MAX];
	uint64_t bg_size;
	struct app_bg *bg;		/* the background load */
	bool direct_refused;
	struct s_trace strace;		/* app=trace: S's own trace */
	struct s_replay *sreplay;
	uint64_t launched;		/* launches so far: each draws new Rand offsets */
};

static uint64_t background_size(const struct app_params *p)
{
	struct sysinfo si;
	uint64_t ram30;

	if (p->file_size)
		return p->file_size;
	sysinfo(&si);
	ram30 = (uint64_t)si.totalram * si.mem_unit / 30;
	return ram30 < (500ULL << 20) ? ram30 : 500ULL << 20;
}

static int write_file(const char *path, uint64_t size)
{
	unsigned char *buf = malloc(1 << 20);
	struct data_spec d = { .kind = DATA_RANDOM };
	struct rng r;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = 0;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return error_errno("creating %s", path);
	}
	rng_seed(&r, size);
	data_fill(&d, &r, buf, 1 << 20);
	for (uint64_t at = 0; at < size && !rc && !workload_stopped(); at += 1 << 20) {
		size_t n = size - at < (1 << 20) ? (size_t)(size - at) : 1 << 20;
		data_refresh(&d, &r, buf, n);
		if (write(fd, buf, n) != (ssize_t)n)
			rc = errno == ENOSPC ? error_set("writing %s: the target is too small for the "
							 "background files: lower file_size= or readers=",
							 path)
					     : error_errno("writing %s", path);
	}
	if (!rc && fsync(fd))
		rc = error_errno("fsync %s", path);
	close(fd);
	free(buf);
	return workload_stopped() ? error_set("interrupted") : rc;
}

/* --- prepare, launch, run ------------------------------------------------ */

static int prepare_exec(struct app_state *s, const char *program)
{
	static char libs[64][PATH_MAX];
	char bindir[PATH_MAX], to[PATH_MAX + 300];
	const char *base;
	int n;

	if (access(program, X_OK))
		return error_set("app=exec:%s: no such program (give a full path to an executable)",
				 program);
	n = app_libraries(program, libs, 64);
	if (n < 0)
		return -1;
	if ((size_t)snprintf(s->libdir, sizeof(s->libdir), "%s/app/lib", s->dir) >= sizeof(s->libdir) ||
	    (size_t)snprintf(bindir, sizeof(bindir), "%s/app/bin", s->dir) >= sizeof(bindir))
		return error_set("scratch path too long: %s", s->dir);
	if ((mkdir(s->libdir, 0755) && errno != EEXIST) || (mkdir(bindir, 0755) && errno != EEXIST))
		return error_errno("creating %s", s->libdir);
	for (int i = 0; i < n; i++) {
		base = strrchr(libs[i], '/') + 1;
		snprintf(to, sizeof(to), "%s/%s", s->libdir, base);
		if (copy_file(libs[i], to, 0755))
			return -1;
		if (i == 0)
			str_copy(s->loader, sizeof(s->loader), to);
	}
	base = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
	if ((size_t)snprintf(s->program, sizeof(s->program), "%s/%s", bindir, base) >=
	    sizeof(s->program))
		return error_set("path too long: %s/%s", bindir, base);
	return copy_file(program, s->program, 0755);
}

/* Whether the target takes O_DIRECT reads at this alignment of offset
 * and memory.  The replays read with O_DIRECT as S's does; a filesystem
 * that refuses it (FUSE without direct I/O) is read buffered, cold, and
 * the result says so.  Asked once, before any clock. */
static void probe_direct(struct app_state *s, size_t align)
{
	char path[4200];
	void *buf = NULL;
	int fd;

	snprintf(path, sizeof(path), "%s/replay0", s->dir);
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, 2 * align) ||
	    pread(fd, (char *)buf + align, align, (off_t)align) != (ssize_t)align)
		s->direct_refused = true;
	free(buf);
	if (fd >= 0)
		close(fd);
}

static int prepare_replay(struct app_state *s)
{
	char path[4200];

	if (trace_build(s->shape, &s->trace, &s->ntrace, &s->trace_file))
		return -1;
	for (int t = 0; t < s->shape->threads; t++) {
		snprintf(path, sizeof(path), "%s/replay%d", s->dir, t);
		if (write_file(path, s->trace_file))
			return -1;
	}
	probe_direct(s, 4096);	/* the synthetic trace's requests are 4 KiB multiples */
	return 0;
}

/* app=trace:PATH: S's trace, its buffers, and one file of S's size per
 * process. */
static int prepare_s_trace(struct app_state *s, const char *trace)
{
	char path[4200];

	if (s_trace_load(trace, &s->strace) || s_replay_prepare(&s->strace, &s->sreplay))
		return -1;
	for (int t = 0; t < s->strace.threads; t++) {
		snprintf(path, sizeof(path), "%s/replay%d", s->dir, t);
		if (write_file(path, S_TRACE_FILE))
			return -1;
	}
	probe_direct(s, 512);	/* S's requests are 512-byte sectors */
	return 0;
}

static void app_cleanup(struct wl_ctx *ctx);

static int prepare_state(struct wl_ctx *ctx)
{
	const struct app_params *p = ctx->params;
	struct app_state *s = calloc(1, sizeof(*s));
	char path[4200], app_dir[4200];

	if (!s)
		return error_set("out of memory");
	ctx->state = s;
	str_copy(s->dir, sizeof(s->dir), ctx->dir);
	if (p->drop_caches && geteuid() != 0)
		return error_set("appstart drops the page cache before every launch (cold start), "
				 "which needs root: run as root, or set drop_caches=0 for warm starts");
	s->bg_size = background_size(p);
	s->bg = app_bg_new();
	if (!s->bg)
		return -1;
	snprintf(app_dir, sizeof(app_dir), "%s/app", ctx->dir);
	if (!strncmp(p->app, "exec:", 5)) {
		if (mkdir(app_dir, 0755) && errno != EEXIST)
			return error_errno("creating %s", app_dir);
		if (prepare_exec(s, p->app + 5))
			return -1;
	} else if (!strncmp(p->app, "trace:", 6)) {
		if (prepare_s_trace(s, p->app + 6))
			return -1;
	} else {
		/* app_validate let only exec:, trace: and known replay- names through. */
		s->shape = trace_shape_find(p->app + 7);
		if (prepare_replay(s))
			return -1;
	}
	/* The readers' files, which S makes once and keeps; the writers'
	 * are made by every repetition (layout_writer). */
	for (int i = 0; i < p->readers; i++) {
		app_bg_path(s->dir, false, i, path, sizeof(path));
		if (write_file(path, s->bg_size))
			return -1;
	}
	return 0;
}

/* The runner calls cleanup only after a prepare that succeeded: a failed
 * one undoes its own half. */
static int app_prepare(struct wl_ctx *ctx)
{
	if (!prepare_state(ctx))
		return 0;
	app_cleanup(ctx);
	return -1;
}

struct replay_thread {
	struct app_state *s;
	int thread;
	bool direct;
	int failed;
	char err[4400];
};

static void *replay_main(void *arg)
{
	struct replay_thread *rt = arg;
	struct app_state *s = rt->s;
	char path[4200];
	void *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/replay%d", s->dir, rt->thread);
	fd = open(path, O_RDONLY | O_CLOEXEC | (rt->direct ? O_DIRECT : 0));
	if (fd < 0 || posix_memalign(&buf, 4096, 4u << 20)) {
		rt->failed = 1;
		snprintf(rt->err, sizeof(rt->err), "opening %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (int i = 0; i < s->ntrace; i++) {
		const struct trace_req *r = &s->trace[i];
		for (uint32_t done = 0; r->thread == rt->thread && done < r->len;) {
			uint32_t n = r->len - done > (4u << 20) ? 4u << 20 : r->len - done;
			ssize_t got = pread(fd, buf, n, (off_t)(r->offset + done));
			if (got <= 0) {
				rt->failed = 1;
				snprintf(rt->err, sizeof(rt->err), "replay read of %s: %s", path,
					 got < 0 ? strerror(errno) : "short file");
				i = s->ntrace;
				break;
			}
			done += (uint32_t)got;
		}
	}
	free(buf);
	close(fd);
	return NULL;
}

static int launch_replay(struct app_state *s)
{
	struct replay_thread rt[16];
	pthread_t tid[16];
	int n = s->shape->threads, rc = 0;

	for (int t = 0; t < n; t++) {
		rt[t] = (struct replay_thread){ .s = s, .thread = t, .direct = !s->direct_refused };
		if (pthread_create(&tid[t], NULL, replay_main, &rt[t])) {
			n = t;
			rc = error_set("cannot start replay thread");
			break;
		}
	}
	for (int t = 0; t < n; t++)
		pthread_join(tid[t], NULL);
	for (int t = 0; t < n && !rc; t++)
		if (rt[t].failed)
			rc = error_set("%s", rt[t].err);
	return rc;
}

static int launch_exec(struct app_state *s, const struct app_params *p)
{
	char args[PARAM_STR_MAX], *argv[64];
	uint64_t deadline = now_ns() + (uint64_t)(p->timeout * 1e9);
	int nargs, status;
	pid_t pid;

	str_copy(args, sizeof(args), p->args);
	argv[0] = s->loader;
	argv[1] = "--library-path";
	argv[2] = s->libdir;
	argv[3] = s->program;
	nargs = split_words(args, argv + 4, 60);
	argv[4 + nargs] = NULL;
	pid = fork_worker();
	if (pid < 0)
		return error_errno("fork");
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (now_ns() > deadline || workload_stopped()) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return workload_stopped() ? error_set("interrupted")
						  : error_set("%s did not exit within %.0f s", p->app + 5,
							      p->timeout);
		}
		usleep(200);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error_set("%s %s failed when started from the target (exit status %d)",
				 p->app + 5, p->args, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

static int app_run(struct wl_ctx *ctx, double *v)
{
	const struct app_params *p = ctx->params;
	struct app_state *s = ctx->state;
	uint64_t total = 0, launch_ns = 0, rd = 0, wr = 0;
	struct histogram rl, wl;	/* the background's latencies during the launches */
	char each[100 * 12] = "";	/* every launch's time, as S prints them */
	size_t used = 0;
	int rc = 0;

	if (app_bg_start(s->bg, s->dir, (int)p->readers, (int)p->writers, s->bg_size, p->settle))
		return -1;
	workload_pause(p->settle);	/* the background alone */
	for (int i = 0; i < p->launches && !rc; i++) {
		uint64_t r0, w0, r1, w1, t0;

		/* S waits 4 s before each launch, so every launch meets the
		 * background in the same steady state; back to back, the later
		 * launches met the writeback the earlier ones left. */
		workload_pause(p->gap);
		/* S drops the cache without a sync: the writers' dirty pages
		 * stay for the 2 s syncer, as they do in S. */
		if (p->drop_caches && !cache_drop()) {
			rc = error_set("could not drop the page cache before a launch");
			break;
		}
		usleep(200000);	/* S: `time sleep 0.2` between drop and launch */
		app_bg_bytes(s->bg, &r0, &w0);
		app_bg_launching(s->bg, true);
		t0 = now_ns();
		rc = s->sreplay ? s_replay_run(s->sreplay, s->dir, !s->direct_refused, ++s->launched)
		     : s->shape ? launch_replay(s) : launch_exec(s, p);
		launch_ns = now_ns() - t0;
		app_bg_launching(s->bg, false);
		app_bg_bytes(s->bg, &r1, &w1);
		total += launch_ns;
		if (used < sizeof(each))
			used += (size_t)snprintf(each + used, sizeof(each) - used, "%s%.3f",
						 i ? " " : "", (double)launch_ns / 1e9);
		rd += r1 - r0;
		wr += w1 - w0;
		if (!rc && workload_stopped())
			rc = error_set("interrupted");
		/* S pauses 2 s more after a launch shorter than 2 s; after
		 * the last one that pause would change nothing measured. */
		if (!rc && launch_ns < 2000000000ull && i + 1 < p->launches)
			workload_pause(p->rest);
	}
	app_bg_stop(s->bg);
	if (rc)
		return -1;
	app_bg_latency(s->bg, &rl, &wl);
	v[0] = (double)total / 1e9 / (double)p->launches;
	v[1] = (double)rd / 1e6 / ((double)total / 1e9);
	v[2] = rl.n ? rl.mean / 1e3 : NAN;	/* no request, no latency */
	v[3] = (double)wr / 1e6 / ((double)total / 1e9);
	v[4] = wl.n ? wl.mean / 1e3 : NAN;
	if (ctx->detail) {
		char lat[2][100] = { "", "" };
		const struct histogram *h[2] = { &rl, &wl };

		for (int k = 0; k < 2; k++)
			if (h[k]->n)
				snprintf(lat[k], sizeof(lat[k]),
					 " (latency mean %.1f, p50 %.1f, p99 %.1f usec)",
					 h[k]->mean / 1e3, (double)hist_percentile(h[k], 50) / 1e3,
					 (double)hist_percentile(h[k], 99) / 1e3);
		snprintf(ctx->detail, DETAIL_MAX,
			 "%lld cold launch(es) of %s: %.3f s each on average (%s s); background %lld "
			 "readers %.1f MB/s%s, %lld writers %.1f MB/s%s during the launches (files of "
			 "%llu MiB)%s\n",
			 (long long)p->launches, p->app, v[0], each, (long long)p->readers, v[1], lat[0],
			 (long long)p->writers, v[3], lat[1], (unsigned long long)(s->bg_size >> 20),
			 s->direct_refused ? "; the target refuses O_DIRECT, so replay reads were "
					     "buffered (cold)" : "");
	}
	return 0;
}

static void app_cleanup(struct wl_ctx *ctx)
{
	struct app_state *s = ctx->state;

	if (!s)
		return;
	app_bg_free(s->bg);
	free(s->trace);
	s_replay_free(s->sreplay);
	s_trace_free(&s->strace);
	free(s);
	ctx->state = NULL;
	/* The runner removes the scratch directory and everything in it. */
}

static int app_validate(const void *p)
{
	const struct app_params *ap = p;

	if (strncmp(ap->app, "exec:", 5) && strncmp(ap->app, "trace:", 6) &&
	    (strncmp(ap->app, "replay-", 7) || !trace_shape_find(ap->app + 7)))
		return error_set("parameter 'app': '%s' is not exec:PATH, trace:PATH, replay-xterm, "
				 "replay-gnome-terminal or replay-lowriter", ap->app);
	if (!strncmp(ap->app, "trace:", 6) && (ap->app[6] != '/' || access(ap->app + 6, R_OK)))
		return error_set("parameter 'app': trace: needs the full path of a readable S trace "
				 "(S's comm_startup_lat/xterm.trace, say)");
	if (!strncmp(ap->app, "exec:", 5) && ap->app[5] != '/')
		return error_set("parameter 'app': exec: needs a full path, e.g. exec:/usr/bin/python3");
	if (!strncmp(ap->app, "exec:", 5) && access(ap->app + 5, X_OK))
		return error_set("parameter 'app': %s: no such program (give a full path to an "
				 "executable)", ap->app + 5);
	if (ap->readers + ap->writers > APP_BG_MAX)
		return error_set("parameter 'readers': readers + writers must be at most %d",
				 APP_BG_MAX);
	return 0;
}

static int app_metrics_used(const void *p)
{
	const struct app_params *ap = p;

	return ap->writers ? 5 : 3;
}

static uint64_t app_space(const void *p)
{
	const struct app_params *ap = p;

	return sat_add(sat_mul(background_size(ap), sat_add(sat_u(ap->readers), sat_u(ap->writers))),
		       128ULL << 20);
}

static void app_describe(const void *p, char *buf, size_t len)
{
	const struct app_params *ap = p;
	const struct trace_shape *sh = !strncmp(ap->app, "replay-", 7) ? trace_shape_find(ap->app + 7)
								       : NULL;
	const char *mix = ap->writers && ap->readers ? "Sequential Reads + Writes"
			  : ap->writers ? "Only Sequential Writes"
			  : ap->readers ? "Only Sequential Reads" : "None";

	const char *base = strrchr(ap->app, '/');

	if (!strncmp(ap->app, "trace:", 6))
		snprintf(buf, len, "Background I/O Mix: %s - Application: S trace %s", mix,
			 base ? base + 1 : ap->app + 6);
	else
		snprintf(buf, len, "Background I/O Mix: %s - Application: %s", mix,
			 sh ? sh->title : ap->app);
}

const struct workload wl_appstart = {
	.name = "appstart",
	.summary = "cold application start-up time under background sequential I/O (S suite)",
	.title = "Application Start-up Time (fsbench)",
	.params = app_params,
	.params_size = sizeof(struct app_params),
	.metrics = app_metrics,
	.nmetrics = 5,
	.presets = app_presets,
	.validate = app_validate,
	.space_needed = app_space,
	.describe = app_describe,
	.metrics_used = app_metrics_used,
	.prepare = app_prepare,
	.run = app_run,
	.cleanup = app_cleanup,
};
