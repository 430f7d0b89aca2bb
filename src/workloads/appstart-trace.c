/*
 * appstart-trace.c: S's recorded start-up traces (xterm.trace,
 * gnometerm.trace, lowriter.trace in S's comm_startup_lat/), read and
 * replayed as S's replay-startup-io does, for appstart's app=trace:PATH.
 *
 * fsbench carries none of S's traces: the user names one from an S or PTS
 * checkout.  A trace line is "process delta sectors position Seq|Rand f f
 * action ..."; what the replayer uses is the process (one replay thread
 * each, in order of first appearance), the size in 512-byte sectors, Seq
 * or Rand, and the action ("RA": read-ahead).  The replay is S's:
 * - one request at a time, in trace order: a thread issues its run of
 *   requests, then hands over to the thread of the next one;
 * - each thread reads its own file of S_TRACE_FILE bytes, opened with
 *   O_DIRECT and POSIX_FADV_DONTNEED;
 * - Seq continues from where the thread's last request ended (back to 0
 *   near the end of the file), Rand goes to a random 512-byte-aligned
 *   offset;
 * - RA requests (but the last of the trace) are submitted with libaio
 *   and not waited for; the thread's next other request first reaps them
 *   all, then reads with pread;
 * - no think time (S's nanosleep of the trace's delta is compiled out).
 * Unlike S, buffers are set aside before the clock (S allocates one per
 * request inside it), the parse is done before it too, and a thread
 * reaps its outstanding read-aheads before it ends.
 */
#define _GNU_SOURCE
#include "appstart.h"
#include "../core/error.h"
#include "../core/file.h"
#include "../core/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACE_MAX_BYTES (16u << 20)	/* of trace text */
#define TRACE_MAX_REQS 1000000

int s_trace_parse(char *text, struct s_trace *out)
{
	char names[S_TRACE_THREADS][128];
	size_t cap = 0;
	int line = 0;

	memset(out, 0, sizeof(*out));
	for (char *cur = text, *eol; cur && *cur; cur = eol ? eol + 1 : NULL) {
		char *tok[8], *p, *save = NULL;
		int n = 0;
		unsigned long long sectors;
		struct s_trace_req r = { 0 };

		line++;
		eol = strchr(cur, '\n');
		if (eol)
			*eol = '\0';
		/* fields past the eighth are ones the replayer does not read */
		for (char *w = cur; n < 8 && (tok[n] = strtok_r(w, " \t\r", &save)); w = NULL)
			n++;
		if (!n)
			continue;	/* a blank line */
		if (n < 8)
			goto bad;
		strtod(tok[1], &p);
		if (*p || p == tok[1])
			goto bad;
		errno = 0;
		sectors = strtoull(tok[2], &p, 10);
		if (*p || p == tok[2] || tok[2][0] == '-' || errno || !sectors ||
		    sectors >= S_TRACE_FILE / 512)
			goto bad;
		r.sectors = (uint32_t)sectors;
		r.seq = !strcmp(tok[4], "Seq");
		r.ra = !strcmp(tok[7], "RA");
		if (strlen(tok[0]) >= sizeof(names[0])) {
			s_trace_free(out);
			return error_set("trace line %d: process name longer than %zu characters", line,
					 sizeof(names[0]) - 1);
		}
		for (r.thread = 0; r.thread < out->threads && strcmp(names[r.thread], tok[0]);
		     r.thread++)
			;
		if (r.thread == out->threads) {
			if (out->threads == S_TRACE_THREADS) {
				s_trace_free(out);
				return error_set("trace line %d: more than %d processes", line,
						 S_TRACE_THREADS);
			}
			strcpy(names[out->threads++], tok[0]);
		}
		if (out->n == TRACE_MAX_REQS) {
			s_trace_free(out);
			return error_set("trace: more than %d requests", TRACE_MAX_REQS);
		}
		if ((size_t)out->n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct s_trace_req *nr = realloc(out->req, ncap * sizeof(*nr));
			if (!nr) {
				s_trace_free(out);
				return error_set("out of memory");
			}
			out->req = nr;
			cap = ncap;
		}
		out->req[out->n++] = r;
		out->bytes += sectors * 512;
		continue;
bad:
		s_trace_free(out);
		return error_set("trace line %d: not S's format (process delta sectors position "
				 "Seq|Rand field field action), with 1 to %d sectors", line,
				 S_TRACE_FILE / 512 - 1);
	}
	if (!out->n)
		return error_set("trace: no requests");
	return 0;
}

int s_trace_load(const char *path, struct s_trace *out)
{
	size_t len;
	char *text = file_read_all(path, TRACE_MAX_BYTES, 0, &len);
	int rc;

	if (!text)
		return -1;
	rc = s_trace_parse(text, out);
	free(text);
	if (rc)
		return error_set("%s: %s", path, error_get());
	return 0;
}

void s_trace_free(struct s_trace *t)
{
	free(t->req);
	memset(t, 0, sizeof(*t));
}

/* --- replay ---------------------------------------------------------------- */

struct s_replay {
	const struct s_trace *t;
	const char *dir;
	bool direct;
	char *arena;		/* every request's buffer, set aside before the clock */
	size_t *slot;		/* request k's buffer at arena + slot[k] */
	struct iocb *iocbs;	/* request k's control block */
	pthread_mutex_t mu;
	pthread_cond_t turn;
	int next;		/* the request to issue next */
	int failed;
	char err[4400];
};

struct s_thread {
	struct s_replay *rp;
	int id;
	uint64_t seed;
};

static void replay_fail(struct s_replay *rp, const char *what, int err)
{
	pthread_mutex_lock(&rp->mu);
	if (!rp->failed) {
		rp->failed = 1;
		snprintf(rp->err, sizeof(rp->err), "trace replay: %s: %s", what, strerror(err));
	}
	pthread_cond_broadcast(&rp->turn);
	pthread_mutex_unlock(&rp->mu);
}

/* The longest run of read-aheads one thread can have outstanding. */
static int ra_depth(const struct s_trace *t, int id)
{
	int most = 1, run = 0;

	for (int k = 0; k < t->n; k++)
		if (t->req[k].thread == id) {
			run = t->req[k].ra && k + 1 < t->n ? run + 1 : 0;
			most = run > most ? run : most;
		}
	return most;
}

static void *replay_thread(void *arg)
{
	struct s_thread *th = arg;
	struct s_replay *rp = th->rp;
	const struct s_trace *t = rp->t;
	char path[4200];
	io_context_t ctx = 0;
	int depth = ra_depth(t, th->id), pending = 0, fd, got;
	struct io_event *events = calloc((size_t)depth, sizeof(*events));
	uint64_t off = 0;
	struct rng rng;

	rng_seed(&rng, th->seed);
	snprintf(path, sizeof(path), "%s/replay%d", rp->dir, th->id);
	fd = open(path, O_RDONLY | O_CLOEXEC | (rp->direct ? O_DIRECT : 0));
	if (fd < 0 || !events) {
		replay_fail(rp, fd < 0 ? path : "out of memory", fd < 0 ? errno : ENOMEM);
		goto out;
	}
	/* libaio returns -errno rather than setting errno */
	if ((got = io_setup(depth, &ctx)) < 0) {
		replay_fail(rp, "io_setup", -got);
		goto out;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (;;) {
		pthread_mutex_lock(&rp->mu);
		while (!rp->failed && rp->next < t->n && t->req[rp->next].thread != th->id)
			pthread_cond_wait(&rp->turn, &rp->mu);
		int k = rp->next;
		pthread_mutex_unlock(&rp->mu);
		if (rp->failed || k == t->n)
			break;
		const struct s_trace_req *r = &t->req[k];
		size_t len = (size_t)r->sectors * 512;
		char *buf = rp->arena + rp->slot[k];

		if (r->seq && off >= S_TRACE_FILE - len)
			off = 0;
		else if (!r->seq)
			off = rng_below(&rng, S_TRACE_FILE / 512 - r->sectors) * 512;
		if (r->ra && k + 1 < t->n) {
			struct iocb *cb = &rp->iocbs[k];
			io_prep_pread(cb, fd, buf, len, (long long)off);
			if ((got = io_submit(ctx, 1, &cb)) != 1) {
				replay_fail(rp, "io_submit", got < 0 ? -got : EAGAIN);
				break;
			}
			pending++;
		} else {
			if (pending && (got = io_getevents(ctx, pending, pending, events, NULL)) != pending) {
				replay_fail(rp, "io_getevents", got < 0 ? -got : EIO);
				break;
			}
			pending = 0;
			if (pread(fd, buf, len, (off_t)off) < 0) {
				replay_fail(rp, path, errno);
				break;
			}
		}
		off += len;
		pthread_mutex_lock(&rp->mu);
		rp->next = k + 1;
		if (k + 1 == t->n || t->req[k + 1].thread != th->id)
			pthread_cond_broadcast(&rp->turn);
		pthread_mutex_unlock(&rp->mu);
	}
	if (pending)
		io_getevents(ctx, pending, pending, events, NULL);
out:
	if (ctx)
		io_destroy(ctx);
	if (fd >= 0)
		close(fd);
	free(events);
	return NULL;
}

int s_replay_prepare(const struct s_trace *t, struct s_replay **out)
{
	struct s_replay *rp = calloc(1, sizeof(*rp));
	size_t total = 0;

	*out = rp;
	if (!rp)
		return error_set("out of memory");
	rp->t = t;
	rp->slot = calloc((size_t)t->n, sizeof(*rp->slot));
	rp->iocbs = calloc((size_t)t->n, sizeof(*rp->iocbs));
	/* sectors < S_TRACE_FILE / 512 and n <= TRACE_MAX_REQS: no overflow */
	for (int k = 0; rp->slot && k < t->n; k++) {
		rp->slot[k] = total;
		total += ((size_t)t->req[k].sectors * 512 + 4095) & ~(size_t)4095;
	}
	if (!rp->slot || !rp->iocbs || total > (1ull << 30) ||
	    posix_memalign((void **)&rp->arena, 4096, total))
		return error_set("trace replay: %zu MiB of buffers%s", total >> 20,
				 total > (1ull << 30) ? " is more than 1 GiB" : ": out of memory");
	memset(rp->arena, 0, total);	/* touched now, not inside the clock */
	pthread_mutex_init(&rp->mu, NULL);
	pthread_cond_init(&rp->turn, NULL);
	return 0;
}

void s_replay_free(struct s_replay *rp)
{
	if (!rp)
		return;
	if (rp->arena) {
		pthread_mutex_destroy(&rp->mu);
		pthread_cond_destroy(&rp->turn);
	}
	free(rp->arena);
	free(rp->slot);
	free(rp->iocbs);
	free(rp);
}

int s_replay_run(struct s_replay *rp, const char *dir, bool direct, uint64_t seed)
{
	pthread_t tid[S_TRACE_THREADS];
	struct s_thread th[S_TRACE_THREADS];
	int n = rp->t->threads, started = 0;

	rp->dir = dir;
	rp->direct = direct;
	rp->next = 0;
	rp->failed = 0;
	for (; started < n; started++) {
		th[started] = (struct s_thread){ rp, started, seed * 131 + (uint64_t)started };
		if (pthread_create(&tid[started], NULL, replay_thread, &th[started])) {
			replay_fail(rp, "starting a replay thread", EAGAIN);
			break;
		}
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return rp->failed ? error_set("%s", rp->err) : 0;
}
