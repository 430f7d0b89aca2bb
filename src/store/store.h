/*
 * store.h: the SQLite result database.
 *
 * One file (default ~/.local/share/fsbench/results.db, honouring
 * XDG_DATA_HOME) holds every run: its command line, system table, targets,
 * tests with their parameters, metrics and every sample with its CPU
 * accounting.  The schema is versioned with PRAGMA user_version; the
 * journal is WAL; every sample is committed in its own transaction, so a
 * crash loses at most the sample being written, never half of one.  A run
 * is 'running' until finished as 'complete', 'failed' or 'interrupted', or
 * until `fsbench cleanup` marks it 'abandoned' (its process died unseen).
 */
#ifndef FSB_STORE_H
#define FSB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

struct store;

#define STORE_SCHEMA_VERSION 8

/* Default path; fills buf.  Creates no directories. */
int store_default_path(char *buf, unsigned len);
/* Where a run keeps what reproduces a finding (powercut's images): a
 * "findings" directory beside the store at db (NULL: the default store),
 * which is fsbench's own.  -1 with the error set for a store in memory
 * (an MPI rank's), which keeps none. */
int store_findings_dir(const char *db, char *buf, unsigned len);
/* Open (creating, mode 0600) fsbench's own store; anything else that is
 * there (another application's SQLite database, PRAGMA application_id; an
 * empty or non-SQLite file, a directory, a symlink) is refused untouched
 * with -2, the user's mistake; -1 for any other failure. */
int store_open(const char *path, struct store **out);
/* For list, show, report and compare: never creates or changes a file,
 * and works on a read-only file or mount.  -2 when path is no fsbench
 * store (missing, or another program's file): the user's mistake. */
int store_open_readonly(const char *path, struct store **out);
int store_run_exists(struct store *s, int64_t run_id, int *exists);
/* Mean wall seconds of the stored samples of a test with these exact
 * parameters (n = how many; 0 when it never ran): --dry-run's estimate. */
int store_mean_wall(struct store *s, const char *test, const char *params, double *mean, int *n);
void store_close(struct store *s);

/* What a run starts with; any field may be NULL but version. */
struct run_begin {
	const char *label, *note, *cmdline, *version, *baseline;
	const char *argv;	/* the run's arguments as a JSON array, for --resume */
};
int store_begin_run(struct store *s, const struct run_begin *b, int64_t *run_id);
int store_finish_run(struct store *s, int64_t run_id, const char *status);
/* A run left 'running' by a process that is gone (SIGKILL, power cut):
 * marked 'abandoned', finished now.  *changed is 0 when the run was no
 * longer running (it finished, or another cleanup got there first). */
int store_abandon_run(struct store *s, int64_t run_id, int *changed);
/* The path the store was opened with. */
const char *store_file(const struct store *s);
/* A run's rows (samples, tests, targets, system table) removed, the run
 * row kept: a guest's run filled again as the guest hands it over. */
int store_empty_run(struct store *s, int64_t run_id);
/* An interrupted run continues (--resume): 'running' again. */
int store_resume_run(struct store *s, int64_t run_id);
/* One transaction around many writes (an import): what > 0 begins, 0
 * commits, < 0 rolls back.  The writes above nest inside it. */
int store_transaction(struct store *s, int what);
/* The run with this start, command line, version and label (an earlier
 * import of it), 0 if none. */
int store_find_run(struct store *s, const char *started, const char *cmdline,
		   const char *version, const char *label, int64_t *run_id);
/* An imported run keeps the times and status it had. */
int store_set_times(struct store *s, int64_t run_id, const char *started, const char *finished,
		    const char *status);
/* A run exported as JSON (fsbench export; docs/result.schema.json) into
 * this store as a new run, all or nothing (import.c).  *existed = 1 and
 * *run_id = that run when it was imported before.  s NULL: the document
 * is only checked, so that a command can refuse it before making a store. */
int store_import(struct store *s, const char *text, size_t len, int64_t *run_id, int *existed);
/* The same document as the content of an existing run (a guest's run, kept
 * by the host from its start): its rows replaced, its start, command line
 * and arguments kept; its status `status` ("running" keeps it running), or
 * the document's when NULL.  All or nothing. */
int store_import_into(struct store *s, int64_t run_id, const char *text, size_t len,
		      const char *status);
int store_add_sysfield(struct store *s, int64_t run_id, int ord,
		       const char *name, const char *value);
int store_add_target(struct store *s, int64_t run_id, int ord,
		     const struct r_target *t, int64_t *target_id);
int store_add_test(struct store *s, int64_t run_id, int ord,
		   const struct r_test *t, int64_t *test_id);
/* One sample with its metric values, in one transaction. */
int store_add_sample(struct store *s, int64_t test_id, int64_t target_id,
		     const struct r_sample *sm, int nvalues);
int store_add_failure(struct store *s, int64_t test_id, int64_t target_id,
		      const char *message);

int store_load_run(struct store *s, int64_t run_id, struct result **out);
/* Id of the newest run, 0 if none. */
int store_last_run(struct store *s, int64_t *run_id);
/* Id of the newest run with this label, 0 if none. */
int store_find_label(struct store *s, const char *label, int64_t *run_id);

struct run_row {
	int64_t id;
	char started[32], label[128], status[16];
	char targets[256], tests[256];
};
/* Call fn for each run, oldest first. */
int store_list_runs(struct store *s, int (*fn)(const struct run_row *, void *),
		    void *arg);

#endif
