/*
 * result.h: a stored run as the reports see it.
 *
 * The store loads a run into this plain in-memory form; every renderer
 * (text charts, tables, JSON, CSV, Markdown) reads only this, so `fsbench
 * run` and `fsbench show` print the same thing from the same data.
 */
#ifndef FSB_RESULT_H
#define FSB_RESULT_H

#include <stdint.h>

#include "../core/stats.h"

struct r_sample {
	int rep;
	double wall, cpu_user, cpu_sys, cpu_pct, machine_cpu_pct;
	double *values;		/* one per metric of the test; NAN if absent */
	char *detail;		/* the workload's own text for this run, or NULL */
	char *series;		/* its timeline as JSON text (core/timeline.h), or NULL */
};

struct r_cell {			/* one test on one target */
	int nsamples;
	struct r_sample *samples;
	char *failure;		/* why it failed, or NULL */
	int run;		/* which run of a merged result it came from
				 * (report_merge; 0 otherwise): the rounds of two
				 * runs are not paired */
};

struct r_metric {
	char *name, *unit, *label;
	int direction;		/* +1 higher is better, -1 lower */
	int primary;
	int device;		/* of the runner's device group (runner/devgroup.h) */
};

struct r_test {
	int64_t id;
	char *name, *workload, *params, *title, *subtitle;
	/* metrics[0..nmetrics) are the workload's, and every renderer's
	 * charts and tables; the device group follows them in
	 * metrics[nmetrics..nmetrics+ndevice), and so do sample values. */
	int nmetrics, ndevice;
	struct r_metric *metrics;
	struct r_cell *cells;	/* [ntargets] */
	/* The precision target the runs aimed at (0.03: a 95% interval
	 * within +-3%), 0 when none was set (a run from before schema 5). */
	double precision;
	/* The verdict rule the runs stopped by (core/verdict.h): its
	 * equivalence margin and its number of looks; looks 0 when none
	 * (one target, --precision, a run from before schema 6). */
	double margin;
	int looks;
	/* What a suite asked the default text view to show beyond the chart
	 * (RESULT_SHOW_WORDS, comma-separated), "" for none (schema 8). */
	char *show;
};

struct r_target {
	int64_t id;
	char *label, *path, *kind, *fstype, *mount_point, *mount_source,
	     *mount_opts, *disk, *scheduler;
	char *spec, *mkfs;	/* what the user asked for; the mkfs command run */
	/* The block device counted for the device group ("loop3"), or NULL
	 * with the reason there is none in blockdev_note. */
	char *blockdev, *blockdev_note;
	/* --age: what the aging did (JSON, aging/record.h), or NULL: fresh */
	char *aging;
};

struct r_field {
	char *name, *value;
};

struct result {
	int64_t id;
	char *started, *finished, *label, *cmdline, *version, *status, *baseline;
	char *note;		/* --note, "" when none */
	char *argv;		/* JSON array of the run's arguments, or NULL */
	int merged;		/* > 1: several runs merged (report/merge.c) */
	int vm_mixed;		/* merged runs from the host and from a guest, or
				 * from TCG and KVM guests */
	int nsys;
	struct r_field *sys;
	int ntargets;
	struct r_target *targets;
	int ntests;
	struct r_test *tests;
};

/* The words of a suite's `show =`: seed 002's raw and ratio tables,
 * seed 001's repetitions, seed 003's groups by compression, the device
 * table.  By default the text view gives each test its chart alone. */
#define RESULT_SHOW_WORDS "tables,reps,groups,device"
/* 0 when every word of list is one of RESULT_SHOW_WORDS; whether test t
 * asked for word. */
int result_show_valid(const char *list);
int result_shows(const struct r_test *t, const char *word);

void result_free(struct result *r);
/* One metric of one cell: its finite values in the order the runs ran,
 * in *out (malloc'ed, freed by the caller; NULL when out of memory, with
 * 0 values). */
int result_values(const struct r_test *t, int target, int metric, double **out);
/* Summary of one metric of one cell over its samples. */
void result_summary(const struct r_test *t, int target, int metric,
		    struct summary *s);
/* Index of the baseline target: the label asked for, else the stored
 * baseline, else 0; -1 if `label` names no target. */
int result_baseline(const struct result *r, const char *label);

#endif
