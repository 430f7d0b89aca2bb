/*
 * progress.h: what the user sees while a run is under way.
 *
 * On a terminal, one live line on stderr (test, target, repetition i/N,
 * elapsed, ETA) refreshed twice a second by a helper thread, so the
 * workload's own threads never print.  Off a terminal, one line per
 * finished test.  Notes (caches dropped or why not) go to stderr always.
 */
#ifndef FSB_PROGRESS_H
#define FSB_PROGRESS_H

struct progress;

struct progress *progress_start(int quiet);
void progress_stop(struct progress *p);
/* A repetition begins.  planned is the current plan (it may grow). */
void progress_rep(struct progress *p, const char *test, const char *target,
		  int rep, int planned, double eta_s);
void progress_test_done(struct progress *p, const char *test, int ntargets,
			int runs, double seconds, int failed);
/* Clear the live line before printing something else on the terminal. */
void progress_clear(struct progress *p);
void progress_note(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Like progress_note, but shown even with --quiet: a failure. */
void progress_error(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
