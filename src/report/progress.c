/* progress.c: the live status line and per-test lines (see progress.h). */
#define _GNU_SOURCE
#include "progress.h"
#include "../core/str.h"
#include "../core/timing.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct progress {
	int tty, quiet, running, shown;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char test[160], target[64];
	int test_index, ntests, target_index, ntargets;
	int rep, planned;
	double eta, eta_run;
	char prec[64];		/* "+-4.1% of 3%, ~4 more" */
	uint64_t rep_started, test_started, run_started;
};

static void fmt_secs(double s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

/* Caller holds the lock. */
static void draw(struct progress *p)
{
	char el[16], eta[16], all[16];
	double elapsed = ns_to_s(now_ns() - p->test_started);
	double since = ns_to_s(now_ns() - p->rep_started);

	if (!p->test[0])
		return;
	fmt_secs(elapsed, el, sizeof(el));
	fmt_secs(p->eta >= 0 ? (p->eta > since ? p->eta - since : 0) : -1, eta, sizeof(eta));
	fmt_secs(p->eta_run >= 0 ? (p->eta_run > since ? p->eta_run - since : 0) : -1, all,
		 sizeof(all));
	if (p->rep)
		fprintf(stderr, "\r\033[Ktest %d/%d, target %d/%d, run %d/%d: %s on %s%s, %s; ETA "
			"test %s, all %s", p->test_index, p->ntests, p->target_index, p->ntargets,
			p->rep, p->planned, p->test, p->target, p->prec, el, eta, all);
	else
		fprintf(stderr, "\r\033[Ktest %d/%d, target %d/%d, warm-up: %s on %s, %s",
			p->test_index, p->ntests, p->target_index, p->ntargets, p->test, p->target,
			el);
	fflush(stderr);
	p->shown = 1;
}

static void *ticker(void *arg)
{
	struct progress *p = arg;
	struct timespec ts;

	/* A file table of its own, with only the standard streams: while a
	 * second thread shares the workloads' table, each of their system
	 * calls on a descriptor counts a reference, and read and write take
	 * the file position's lock, which the one-process tools fsbench
	 * reproduces never pay (a 1-byte write(2) on tmpfs: 250-400 ns
	 * alone, 380-480 with an idle thread sharing the table). */
	if (!unshare(CLONE_FILES))
		close_range(3, ~0U, 0);
	pthread_mutex_lock(&p->lock);
	while (p->running) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &ts);
		if (p->running && p->shown)
			draw(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct progress *progress_start(int quiet)
{
	struct progress *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->quiet = quiet;
	/* TERM=dumb (a serial console, fsbench's guest): no live line */
	const char *term = getenv("TERM");
	p->tty = !quiet && isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (p->tty) {
		sigset_t block, old;
		/* Signals must reach the main thread, whose blocking calls
		 * they interrupt; the ticker never takes them. */
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &block, &old);
		p->running = 1;
		if (pthread_create(&p->thread, NULL, ticker, p))
			p->running = 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	return p;
}

void progress_clear(struct progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (p->tty && p->shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		p->shown = 0;
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_stop(struct progress *p)
{
	if (!p)
		return;
	progress_clear(p);
	pthread_mutex_lock(&p->lock);
	int was = p->running;
	p->running = 0;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	if (was)
		pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	free(p);
}

void progress_rep(struct progress *p, const struct progress_pos *pos)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (!p->run_started)
		p->run_started = now_ns();
	if (strcmp(p->test, pos->test))
		p->test_started = now_ns();
	snprintf(p->test, sizeof(p->test), "%s", pos->test);
	snprintf(p->target, sizeof(p->target), "%s", pos->target);
	p->test_index = pos->test_index;
	p->ntests = pos->ntests;
	p->target_index = pos->target_index;
	p->ntargets = pos->ntargets;
	p->rep = pos->rep;
	p->planned = pos->planned;
	p->eta = pos->eta_test;
	p->eta_run = pos->eta_run;
	p->rep_started = now_ns();
	/* Where the test's precision stands: the widest interval so far
	 * against the target, and the runs the spread says are still needed. */
	p->prec[0] = '\0';
	if (pos->rep && pos->interval >= 0 && pos->precision > 0 && pos->need > 0)
		snprintf(p->prec, sizeof(p->prec), " (+-%.1f%%, target %g%%, ~%d more)",
			 100 * pos->interval, 100 * pos->precision, pos->need);
	else if (pos->rep && pos->interval >= 0)
		snprintf(p->prec, sizeof(p->prec), " (+-%.1f%%)", 100 * pos->interval);
	if (p->tty) {
		draw(p);
	} else if (!p->quiet) {
		/* a CI log: a line per repetition, so a long test is not silent */
		char el[16], all[16];
		fmt_secs(ns_to_s(now_ns() - p->run_started), el, sizeof(el));
		fmt_secs(pos->eta_run, all, sizeof(all));
		if (pos->rep)
			fprintf(stderr, "[%s] test %d/%d, target %d/%d, run %d/%d: %s on %s%s (ETA %s)\n",
				el, pos->test_index, pos->ntests, pos->target_index, pos->ntargets,
				pos->rep, pos->planned, pos->test, pos->target, p->prec, all);
		else
			fprintf(stderr, "[%s] test %d/%d, target %d/%d, warm-up: %s on %s\n", el,
				pos->test_index, pos->ntests, pos->target_index, pos->ntargets,
				pos->test, pos->target);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_test_done(struct progress *p, const char *test, int ntargets,
			const struct progress_done *out)
{
	char how[160] = "";

	if (!p)
		return;
	progress_clear(p);
	pthread_mutex_lock(&p->lock);
	p->test[0] = '\0';
	if (out->pairs > 0 && !out->undecided)
		snprintf(how, sizeof(how), "; %s decided after %d round%s",
			 out->pairs == 1 ? "the pair" : "every pair", out->rounds,
			 out->rounds == 1 ? "" : "s");
	else if (out->pairs > 0)
		snprintf(how, sizeof(how), "; %d of %d pair%s undecided after %d round%s%s",
			 out->undecided, out->pairs, out->pairs == 1 ? "" : "s", out->rounds,
			 out->rounds == 1 ? "" : "s",
			 out->unfinished ? " (more runs later if the time budget allows)" : "");
	else if (out->interval >= 0 && out->precision > 0 && !out->fixed)
		snprintf(how, sizeof(how), "; +-%.1f%%, %s the +-%g%% target%s", 100 * out->interval,
			 out->met ? "within" : "missed", 100 * out->precision,
			 out->unfinished ? " (more runs later if the time budget allows)" : "");
	else if (out->interval >= 0)
		snprintf(how, sizeof(how), "; +-%.1f%%", 100 * out->interval);
	/* runs: this pass's, over all targets (a later pass's are more) */
	const char *more = out->again ? " more" : "";
	if (!p->tty && !p->quiet)
		fprintf(stderr, "%s: %s, %d%s run%s on %d target%s, %.1f s%s\n", test,
			out->failed ? "FAILED" : "done", out->runs, more, out->runs == 1 ? "" : "s",
			ntargets, ntargets == 1 ? "" : "s", out->seconds, how);
	else if (!p->quiet && out->pairs > 0 && out->undecided && !out->fixed && !out->unfinished)
		fprintf(stderr, "%s: %s\n", test, how + 2);	/* more runs may come: said at the end */
	else if (!p->quiet && out->interval >= 0 && out->precision > 0 && !out->fixed && !out->met)
		fprintf(stderr, "%s: +-%.1f%% after %d%s run%s on %d target%s, missed the +-%g%% "
			"target%s\n", test, 100 * out->interval, out->runs, more,
			out->runs == 1 ? "" : "s", ntargets, ntargets == 1 ? "" : "s",
			100 * out->precision,
			out->unfinished ? "; more runs later if the time budget allows" : "");
	pthread_mutex_unlock(&p->lock);
}

/* Errors and notes quote user input and tools' words: escaped. */
static void print_escaped(const char *fmt, va_list ap)
{
	char msg[8192], safe[4 * sizeof(msg)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	str_escape(safe, sizeof(safe), msg);
	fprintf(stderr, "%s\n", safe);
}

void progress_error(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	progress_clear(p);
	va_start(ap, fmt);
	print_escaped(fmt, ap);
	va_end(ap);
}

void progress_status(struct progress *p, const char *fmt, ...)
{
	char msg[512], safe[4 * sizeof(msg)];
	va_list ap;

	if (!p || !p->tty)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	str_escape(safe, sizeof(safe), msg);
	pthread_mutex_lock(&p->lock);
	fprintf(stderr, "\r\033[K%s", safe);
	fflush(stderr);
	p->shown = 1;
	pthread_mutex_unlock(&p->lock);
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	progress_clear(p);
	if (p && p->quiet)
		return;
	va_start(ap, fmt);
	print_escaped(fmt, ap);
	va_end(ap);
}
