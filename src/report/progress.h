/*
 * progress.h: what the user sees while a run is under way.
 *
 * On a terminal, one live line on stderr (the run's position: test i/N,
 * target j/M, run r/R; elapsed; this test's and the whole run's ETA)
 * refreshed twice a second by a helper thread, so the workload's own
 * threads never print.  Off a terminal (CI logs), a line as each
 * repetition begins, with the time since the run began, and one per
 * finished test.  Notes (caches dropped or why not) go to stderr always.
 */
#ifndef FSB_PROGRESS_H
#define FSB_PROGRESS_H

struct progress;

struct progress *progress_start(int quiet);
void progress_stop(struct progress *p);
/* Where the run stands as a repetition begins. */
struct progress_pos {
	const char *test, *target;
	int test_index, ntests, target_index, ntargets;
	int rep, planned;	/* rep 0: a warm-up; planned may grow */
	double eta_test, eta_run;	/* seconds; -1 unknown */
	double interval, precision;	/* widest relative 95% half-width (-1
					 * unknown) and its target (0 none) */
	int need;			/* more runs the target needs, -1 unknown */
};
void progress_rep(struct progress *p, const struct progress_pos *pos);
/* A pass over a test ended (the runner's test_outcome, as shown). */
struct progress_done {
	int runs, failed, met, fixed, unfinished;
	double seconds, interval, precision;	/* interval -1 unknown */
	int again;				/* runs are a later pass's, more */
	int pairs, undecided, rounds;		/* the verdicts (pairs 0: none) */
};
void progress_test_done(struct progress *p, const char *test, int ntargets,
			const struct progress_done *out);
/* Clear the live line before printing something else on the terminal. */
void progress_clear(struct progress *p);
void progress_note(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A passing line of the caller's (aging's share done): on a terminal
 * only, in place of the live line until the next line is drawn. */
void progress_status(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Like progress_note, but shown even with --quiet: a failure. */
void progress_error(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
