/*
 * jobfile.h: fio job files and fio-style command-line jobs for `fsbench io`.
 *
 * The syntax is fio's: [global] and [job] sections, key=value or a bare
 * key (a boolean set), ';' or '#' comments, fio's value syntax (4k, 1g,
 * 20s, 0x89).  Options are looked up in the io workload's parameter table,
 * so a job file accepts exactly what `run io:...` accepts.  Each job starts
 * from the [global] options seen before it; stonewall (wait_for_previous)
 * starts a new run, which waits for the jobs before it (the jobs of a run
 * run together), and a new reporting group; new_group a reporting group
 * only (fio's groupid, which exitall's exit_what=group ends together).
 * Unknown options are errors naming the option and the line, or warnings
 * with ignore_unknown.
 */
#ifndef FSB_JOBFILE_H
#define FSB_JOBFILE_H

#include <stdbool.h>

#include "iojob.h"

#define JOBS_MAX 64

struct jobset {
	struct io_options jobs[JOBS_MAX];
	int group[JOBS_MAX];	/* fio's groupid: stonewall or new_group */
	int run[JOBS_MAX];	/* jobs of a run start together: stonewall */
	bool sized[JOBS_MAX];	/* size= or filesize= given, in the job or a [global] before it */
	int njobs;
	char warnings[2048];	/* ignored options, one per line */
	/* values read as fio reads them (filesize=65536) is 65536), one per
	 * line: fio's informational output, which it gives on stdout */
	char notes[1024];
	/* the options as written, "key=value" lines: fio's "job options" and
	 * "global options" in its JSON */
	char given[JOBS_MAX][2048];
	char global_given[2048];
};

/* Set one option of job j, and record it as given ("job options"). */
int jobfile_set(struct jobset *set, int j, const char *key, const char *value);
/* Parse text (name is the file name used in messages). */
int jobfile_parse(const char *name, const char *text, bool ignore_unknown, struct jobset *out);
int jobfile_load(const char *path, bool ignore_unknown, struct jobset *out);
/* fio-style flags: "--rw=randread" ...; each --name=X starts a job, the
 * options before the first --name are global.  Adds to out. */
int jobfile_from_args(int argc, char **argv, bool ignore_unknown, struct jobset *out);

#endif
